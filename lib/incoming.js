'use strict';
// IncomingMessage fast paths: two wrappers install() puts on
// IncomingMessage.prototype (server requests and client responses), each
// taking a shorter road in the common case and handing every other case to
// Node's own method unchanged.
//
// Only for Node 20 and 22: from 24 on, Node's IncomingMessage takes both
// fast paths itself (_dump() calls read(0) on a fully received message, _destroy()
// calls back at once on a clean destroy), and install() leaves the prototype
// alone (lib/node-line.js fastIncoming).
//
// _dump(): node:http dumps a message nobody read (a server request when its
// response finishes, a client response nobody listens to or whose request is
// destroyed). Node 20 does it with resume(), which schedules a resume tick,
// emits 'resume' (to nobody), then flows the stream just to reach EOF. When
// the message was fully received (complete, end of stream pushed, nothing
// buffered), was never read (not flowing, not paused) and is not destroyed,
// the wrapper reaches EOF with read(0) instead: 'end' comes on the next tick
// as before, without the resume tick, the 'resume' event and the extra
// end-of-stream ticks the flow machinery schedules. A message whose body is
// still arriving, or holds unread data, takes Node's resume() path: it must
// keep pulling bytes off the wire. One exception: a client response nobody
// listens to is dumped while its headers are delivered; when our parser has
// its end among the events of the same execute(), the parser dumps it when
// it completes (its body is dropped as with Node's dump, as _dumped is set),
// and takes resume() only if it did not complete after all.
//
// _destroy(err, cb): Node 20 always defers the callback with
// process.nextTick(). When the message was fully received (complete and
// 'end' emitted), is not aborted and there is no error, there is nothing to
// wait for: the wrapper calls back at once. 'close' is still emitted on a
// later tick (by the stream's destroy()). With an error, or for an
// incomplete message ('aborted', the socket to destroy), Node's method runs
// unchanged, so an 'error' listener attached right after destroy(err) still
// receives it.
//
// Per-message cost: two shared named functions, no closure, no allocation,
// no new property on the message (shapes stay as Node makes them).

const hooks = require('./parser-hooks');

let proto = null;           // IncomingMessage.prototype once patched
let originalDump = null;    // Node's methods, called for every other case
let originalDestroy = null;
let active = false;         // false: the wrappers pass everything through

// Fully received, never read, nothing buffered, not destroyed.
function dumpable(msg) {
  if (msg.complete !== true) return false;
  const state = msg._readableState;
  return state.flowing === null && state.ended === true && state.length === 0 &&
    state.destroyed !== true;
}

function _dump() {
  if (active && this._dumped === false) {
    if (dumpable(this)) {
      this._dumped = true;
      // As Node's: no 'data' listener may see buffered data (there is none).
      this.removeAllListeners('data');
      // Ended and empty: read(0) schedules the 'end' emission and nothing else.
      this.read(0);
      return;
    }
    const socket = this.socket;
    const parser = socket !== null && typeof socket === 'object' ? socket.parser : null;
    if (parser !== null && typeof parser === 'object' && typeof parser[hooks.whenComplete] === 'function' &&
        this.complete === false && this._readableState.length === 0 &&
        parser[hooks.whenComplete](this, finishDump)) {
      this._dumped = true;
      this.removeAllListeners('data');
      return;
    }
  }
  originalDump.call(this);
}

// The end of a dump deferred to the message's completion (the parser's
// whenComplete hook): read(0) when it is now fully received, otherwise what Node's dump does after
// setting _dumped.
function finishDump(msg) {
  if (dumpable(msg)) msg.read(0);
  else msg.resume();
}

function _destroy(err, cb) {
  if (active && (err === null || err === undefined) && this.complete === true &&
      this.aborted === false && this._readableState.endEmitted === true) {
    // Node's deferred callback would only call cb() (no error to pass).
    cb();
    return;
  }
  originalDestroy.call(this, err, cb);
}

// Puts the wrappers on IncomingMessage.prototype. Returns true when they are
// in effect.
function patch() {
  if (active) return true;
  if (proto === null) {
    // The module node:http exports IncomingMessage from; _http_common (which
    // install() loads anyway) has loaded it already.
    const target = require('_http_incoming').IncomingMessage.prototype;
    if (typeof target._dump !== 'function' || typeof target._destroy !== 'function') return false;
    proto = target;
    originalDump = target._dump;
    originalDestroy = target._destroy;
  }
  // Ours replace the methods they wrap. A method someone else put there
  // since is left alone (if it calls ours, ours work again).
  if (proto._dump === originalDump) proto._dump = _dump;
  if (proto._destroy === originalDestroy) proto._destroy = _destroy;
  active = true;
  return true;
}

// Takes the wrappers off. If someone else has since wrapped or replaced a
// method, theirs stays and ours, if still called, passes everything through.
function unpatch() {
  if (!active) return false;
  active = false;
  if (proto._dump === _dump) proto._dump = originalDump;
  if (proto._destroy === _destroy) proto._destroy = originalDestroy;
  return true;
}

function isPatched() {
  return active;
}

module.exports = { patch, unpatch, isPatched, _dump, _destroy };
