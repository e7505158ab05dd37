'use strict';
// IncomingMessage fast paths, for the lines whose IncomingMessage lacks them
// (before 24.22: lib/node-line.js fastIncoming): install() wraps _dump() (a
// fully received message nobody read reaches EOF with read(0), not resume())
// and _destroy() (a clean destroy of a complete message calls back at once);
// every other case goes to Node's own method unchanged. When and why, and
// what differs in event timing: docs/node-http.md, "IncomingMessage fast
// paths". Per message: two shared named functions, no closure, no
// allocation, no new property on the message.

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
