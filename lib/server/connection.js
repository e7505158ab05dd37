'use strict';
// The connection loop of llhttp-napi/server: one Connection per socket, the
// one object that holds a connection's state, and the shared handlers that
// drive an HTTPParser on it (no closure per request). The parser consumes
// the socket as node:http's does (parser.consume(): reads go straight to the
// parser, which reports each to kOnExecute); a socket it cannot consume
// reads through 'data'. The loop decides when a request is handed out, in
// which order answers leave (and keeps the bytes of an answer whose turn
// has not come), when reading stops (backpressure), and what a client
// error, a timeout, an upgrade and the socket's end do, with node:http's
// rules. It talks to the request and the response through ./seam.js; the
// classes are the server's (its IncomingMessage / ServerResponse options).
// This file holds the connection's state and what it does with it; what
// each parser and socket event does is ./loop-events.js.

// (Module bindings: the globals `process` and `Buffer` are accessors.)
const { nextTick } = require('node:process');
const { EventEmitter } = require('node:events');
const { AsyncResource, executionAsyncId } = require('node:async_hooks');
const { HTTPParser } = require('../parser');
const hooks = require('../parser-hooks');
const { kOwnReads } = require('../read-path');
const { nowMs } = require('../clock');
const { freshConnectionIsIdle } = require('../node-line');
const seam = require('./seam');
const { defaultFields } = require('./default-fields');
const diagnostics = require('./diagnostics');
const errors = require('./errors');
const { attach, clientError } = require('./loop-events');

const { kAnswered, kAnswerClosed, kClosesConnection, kWritten, kAllSent, kFinished, kDetached, kClosed, kWritable } = seam;
const { kConnectionsSet, kIncomingMessage, kServerResponse, kConnection, kFlushFailed, kInSocketContext, kIdleTimer } = seam;

const plainEmit = EventEmitter.prototype.emit;
const MAX_HEADER_PAIRS = 2000; // node:http's, unless maxHeadersCount says otherwise

let isLenientOption = null;
// --insecure-http-parser, as node:http reads it.
function lenientByDefault() {
  if (isLenientOption === null) {
    const common = require('_http_common');
    isLenientOption = typeof common.isLenient === 'function' ? common.isLenient() : false;
  }
  return isLenientOption;
}

// The parser's lenient flags for the server's options.
function lenientFlags(server) {
  switch (server.httpValidation) {
    case 'strict': return HTTPParser.kLenientNone;
    case 'relaxed': return HTTPParser.kLenientHeaderValueRelaxed | 0;
    case 'insecure': return HTTPParser.kLenientAll;
  }
  const lenient = server.insecureHTTPParser === undefined ? lenientByDefault() : server.insecureHTTPParser;
  return lenient ? HTTPParser.kLenientAll : HTTPParser.kLenientNone;
}
// The connection is its parser's async resource (HTTPINCOMINGMESSAGE, the
// context the server's handlers run in), triggered by its socket as
// node:http's is (its connection listener runs in the socket's trigger
// scope); a stream with no handle has no id of its own: the current one.
class Connection extends AsyncResource {
  constructor(server, socket, parser) {
    const handle = socket._handle;
    super('HTTPINCOMINGMESSAGE', {
      triggerAsyncId: handle && typeof handle.getAsyncId === 'function' ? handle.getAsyncId() : executionAsyncId(),
      requireManualDestroy: true,
    });
    this.server = server;
    this.socket = socket;
    this.parser = parser;
    this.current = null;          // the request whose message is being parsed
    this.lastRequest = null;      // the latest request, until its read is looked at
    this.oldest = null;           // the oldest response not finished
    this.later = [];              // the ones after it, in request order (pipelining)
    this.active = null;           // the oldest once its turn came: its bytes go to the socket
    this.keepAliveTimeoutSet = false;
    this.keepAliveTimer = null;   // the socket's timer that keepAliveTimeout armed (see armKeepAlive())
    this.keepAliveSuspended = false; // ... a request is under way: its expiry is dropped
    this.pausedForWrites = false; // reading stopped: the client reads too slowly
    this.pausedForBody = false;   // reading stopped: a request body's reader is behind
    this.openedMs = nowMs();      // the clock of headersTimeout before a first message
    this.afterLastWrite = afterLastWrite.bind(this);
  }

  // ---- (seam) what a response asks of the loop ----

  // Its bytes: to the socket when its turn has come, else held until then.
  // `last`: its final bytes (kWritten follows their write). Returns false
  // when the writer should wait for 'drain'.
  send(res, data, encoding, last, callback) {
    if (this.active === res) {
      return this.socket.write(data, encoding, last ? this.afterLastWrite : callback);
    }
    if (this.held === null) this.held = new Map();
    let entry = this.held.get(res);
    if (entry === undefined) {
      entry = { chunks: [], bytes: 0, ended: false };
      this.held.set(res, entry);
    }
    entry.chunks.push(data, encoding, callback);
    entry.bytes += data.length;
    this.heldBytes += data.length;
    if (last) entry.ended = true;
    return entry.bytes < this.socket.writableHighWaterMark;
  }

  // Is it `res`'s turn on the socket?
  isTurnOf(res) {
    return this.active === res;
  }

  // Is `socket` what `res.socket` says? (As node:http's: from its turn on,
  // also once the connection closed, until it finished.)
  holdsSocketFor(res) {
    return this.active === res || this.closedWith === res;
  }

  // Corks the socket for `res` if its turn has come; returns whether it did.
  corkFor(res) {
    if (this.active !== res) return false;
    this.socket.cork();
    return true;
  }

  uncork() {
    this.socket.uncork();
  }

  // The bytes of `res` not yet taken by the client.
  pendingBytes(res) {
    if (this.active === res) return this.socket.writableLength;
    const entry = this.held === null ? undefined : this.held.get(res);
    return entry === undefined ? 0 : entry.bytes;
  }

  // ---- (seam) what a request asks of the loop ----

  // node:http's maxHeadersCount, as pairs (0: none).
  headerPairLimit() {
    return this.parser.maxHeaderPairs;
  }

  // An answered request's stream ended (see responseFinished()).
  requestEnded(req) {
    if (this.parser.incoming === req) this.parser.incoming = null;
  }

  // The client ended its side under httpAllowHalfOpen: the connection ends
  // after the last answer due, as node:http's; whether there is one (none:
  // the caller ends the socket now).
  lastAnswerCloses() {
    const last = this.later.length !== 0 ? this.later[this.later.length - 1] : this.oldest;
    if (last === null) return false;
    last[kClosesConnection] = true;
    return true;
  }

  // A request body's reader wants more.
  bodyWanted() {
    if (!this.pausedForBody) return;
    this.pausedForBody = false;
    if (!this.pausedForWrites && !this.socket.destroyed) this.socket.resume();
  }

  // ---- the loop itself ----

  // A response for the request just parsed: it answers after the ones
  // before it; its turn comes now when it is the only one.
  addResponse(res) {
    if (this.oldest === null) this.oldest = res;
    else this.later.push(res);
    if (this.active === null && !this.lastAnswered) this.active = res;
  }

  // The active response's last bytes were written. What node:http does in
  // its first 'finish' listener is done between the end() callbacks that
  // precede 'finish' and 'finish' itself; a response whose emit() is
  // wrapped gets that listener instead (the wrapper may hold 'finish' back,
  // and node:http's request waits for it).
  written(res) {
    res[kWritten]();
    if (res.emit === plainEmit) this.responseFinished(res);
    else res.prependListener('finish', onWrappedFinish);
    res[kFinished]();
  }

  // `res` is done: its request's unread body goes, it closes on the next
  // tick, and the socket ends (the last answer), passes to the next
  // response, or waits for a request. (After an upgrade too, as node:http:
  // the responses of requests before it still leave in turn.)
  responseFinished(res) {
    if (this.oldest !== res) return;
    if (diagnostics.responseFinish.hasSubscribers) {
      diagnostics.responseFinish.publish({ request: res.req, response: res, socket: this.socket, server: this.server });
    }
    const req = res.req;
    // The parser lets go of an answered request that has ended (one still
    // being read: at its end, requestEnded()), as node:http's. (A request
    // whose stream nobody used has no reader to see its end.)
    if (this.parser.incoming === req && (!req._hasReadable || req.readableEnded)) this.parser.incoming = null;
    req[kAnswered]();
    res[kDetached]();
    nextTick(closeResponse, res);
    this.oldest = this.later.length === 0 ? null : this.later.shift();
    this.active = null;
    if (res[kClosesConnection]) {
      this.lastAnswered = true;
      // (A stream handed over as a connection may be a plain Duplex.)
      if (typeof this.socket.destroySoon === 'function') this.socket.destroySoon();
      else this.socket.end();
    } else if (this.oldest !== null) {
      this.giveTurn(this.oldest);
    } else {
      this.armKeepAlive();
    }
  }

  giveTurn(res) {
    this.active = res;
    const entry = this.held === null ? undefined : this.held.get(res);
    // (A socket ended or gone keeps them: as node:http's, they never leave.)
    if (entry === undefined || !this.socket.writable) return;
    this.held.delete(res);
    this.heldBytes -= entry.bytes;
    const chunks = entry.chunks;
    const lastAt = entry.ended ? chunks.length - 3 : -1;
    const socket = this.socket;
    socket.cork();
    for (let i = 0; i < chunks.length; i += 3) {
      socket.write(chunks[i], chunks[i + 1], i === lastAt ? this.afterLastWrite : chunks[i + 2]);
    }
    socket.uncork();
    if (entry.ended) res[kAllSent]();
    else if (!socket.writableNeedDrain) nextTick(nowWritable, res);
    this.resumeIfDrained();
  }

  // Between requests the socket times out after keepAliveTimeout (and its
  // buffer), as node:http's: socket.setTimeout(). The timer that makes is
  // the connection's from then on: at the next head it is suspended rather
  // than cleared (socket.timeout reads 0, as after setTimeout(0), and its
  // expiry during the request is dropped), and here re-armed, unless
  // someone set another timeout on the socket in between.
  armKeepAlive() {
    const server = this.server;
    const timeout = server.keepAliveTimeout;
    const socket = this.socket;
    // (A socket that is some other Duplex has no timeouts.)
    if (!Number.isFinite(timeout) || timeout <= 0 || typeof socket.setTimeout !== 'function') return;
    const extra = server.keepAliveTimeoutBuffer;
    const msecs = timeout + (Number.isFinite(extra) && extra >= 0 ? extra : 0);
    this.keepAliveTimeoutSet = true;
    this.keepAliveSuspended = false;
    const timer = this.keepAliveTimer;
    // (Another timeout set on the socket since cleared this one: -1.)
    if (timer !== null && timer._idleTimeout === msecs && !socket.destroyed) {
      socket.timeout = msecs;
      timer.refresh();
      return;
    }
    socket.setTimeout(msecs);
    this.keepAliveTimer = socket.destroyed ? null : adoptTimer(socket);
  }

  // A request begins: the keep-alive timeout gives way to the server's
  // timeout (none: 0).
  suspendKeepAlive() {
    this.keepAliveTimeoutSet = false;
    const socket = this.socket;
    const timeout = this.server.timeout || 0;
    if (timeout === 0 && this.keepAliveTimer !== null && this.keepAliveTimer._idleTimeout > 0 && !socket.destroyed) {
      socket.timeout = 0;
      this.keepAliveSuspended = true;
    } else {
      socket.setTimeout(timeout);
    }
  }

  // A read came: the socket's timeout starts again (net's _unrefTimer()),
  // but for the keep-alive timer suspended for a request, which no longer
  // counts (node:http's is cleared by then).
  readSeen() {
    if (this.keepAliveSuspended && this.keepAliveTimer._idleTimeout > 0) return;
    this.socket._unrefTimer();
  }

  // Reading may go on once the client has taken our answers.
  resumeIfDrained() {
    if (this.pausedForWrites && this.heldBytes <= this.socket.writableHighWaterMark &&
        !this.socket.writableNeedDrain) {
      this.pausedForWrites = false;
      if (!this.pausedForBody) this.socket.resume();
    }
  }

  // A client that does not read its answers: stop reading its requests.
  pauseIfBehind() {
    const socket = this.socket;
    if (!this.pausedForWrites && (socket.writableNeedDrain || this.heldBytes >= socket.writableHighWaterMark)) {
      this.pausedForWrites = true;
      socket.pause();
    }
  }

  // The socket is no longer the loop's: its parser lets go of it and of the
  // message it read, and is freed (its async resource destroyed) and
  // closed, as node:http's freeParser() frees a parser at that point (its
  // pool keeps it; this loop has none, so it also closes).
  releaseParser() {
    const parser = this.parser;
    parser.unconsume();
    parser.incoming = null;
    if (this.socket.parser === parser) this.socket.parser = null;
    parser.free();
    parser.close();
  }

  // The socket closed: everything still under way is aborted.
  closed() {
    this.releaseParser();
    this.server[kConnectionsSet].delete(this);
    const current = this.current;
    if (current !== null && this.oldest === null && !current.destroyed) {
      current.destroy(errors.connectionReset());
    }
    if (this.oldest !== null) abort(this.oldest);
    const later = this.later;
    for (let i = 0; i < later.length; i++) abort(later[i]);
    this.oldest = null;
    later.length = 0;
    this.closedWith = this.active;
    this.active = null;
    if (this.held !== null) this.held = null;
  }

  // Is it between requests (closeIdleConnections())? A connection that has
  // sent nothing yet is where node:http's line says so.
  isIdle() {
    const parser = this.parser;
    return this.oldest === null && parser[hooks.messageStart]() === 0 &&
      (freshConnectionIsIdle || parser[hooks.begunSinceInit]());
  }

  // headersTimeout / requestTimeout: answers 408 (or 'clientError') when the
  // message under way (or, before any, the connection) started before a
  // deadline. Reported once per message.
  checkTimeout(headersDeadline, requestDeadline) {
    const parser = this.parser;
    let start = parser[hooks.messageStart]();
    if (start === 0) {
      if (parser[hooks.begunSinceInit]()) return;
      start = this.openedMs;
    }
    if (start === this.reportedStart) return;
    if ((headersDeadline > 0 && start < headersDeadline && !parser[hooks.headersCompleted]()) ||
        (requestDeadline > 0 && start < requestDeadline)) {
      this.reportedStart = start;
      clientError(this, errors.requestTimeout());
    }
  }
}
Connection.prototype[hooks.ownContext] = true;

// net's timer of a socket: socket[kSocketTimer] (node:net keeps it under a
// symbol of this description on every line).
let kSocketTimer = Symbol('no socket timer yet');

// The timer socket.setTimeout() just made, with the loop's expiry handler
// (the keep-alive timer's), or null when the socket has none we know.
function adoptTimer(socket) {
  let timer = socket[kIdleTimer];
  if (timer === undefined) timer = socket[kSocketTimer];
  if (timer === undefined) {
    // (A socket that is not node:net's has no net timer, and a search of
    // its properties at each request is dear.)
    if (socket[kOwnReads] !== undefined) return null;
    const symbol = Object.getOwnPropertySymbols(socket).find((s) => s.description === 'timeout');
    if (symbol === undefined) return null;
    kSocketTimer = symbol;
    timer = socket[symbol];
  }
  if (timer === null || typeof timer !== 'object' || typeof timer.refresh !== 'function') return null;
  timer._onTimeout = onKeepAliveExpiry;
  timer._timerArgs = [socket];
  return timer;
}

// The keep-alive timer expired: the socket times out (as net's own
// handler), unless a request began since.
function onKeepAliveExpiry(socket) {
  const conn = socket[kConnection];
  if (conn !== undefined && conn.keepAliveSuspended) return;
  socket._onTimeout();
}

// A response the closing socket leaves unfinished, and its request.
function abort(res) {
  if (!res.req.destroyed) res.req.destroy(errors.connectionReset());
  res[kClosed]();
}

// 'finish' of a response whose emit() is wrapped (`this`: the response).
function onWrappedFinish() {
  const socket = this.socket;
  const conn = socket === null ? undefined : socket[kConnection];
  if (conn !== undefined) conn.responseFinished(this);
}

function closeResponse(res) {
  res.req[kAnswerClosed]();
  res[kClosed]();
}

function nowWritable(res) {
  res[kWritable]();
}

// The write callback of the active response's last bytes (`this`: the
// connection). (After an error the socket is going: closed() takes it.)
function afterLastWrite(err) {
  const res = this.active;
  if (res !== null && !(err && res[kFlushFailed](err))) this.written(res);
}

// The server's 'connection' (or 'secureConnection') listener.
function refuseEncoding() {
  throw errors.socketEncoding();
}

// (A socket with no handle of node's but an async context of its own, the
// native transport's, is connected inside that context: what is made for
// it, the connection's resource and the parser's, is triggered by it.)
function onConnection(socket) {
  if (socket[kInSocketContext] !== undefined) socket[kInSocketContext](connect, this);
  else connect.call(socket, this);
}

// `this`: the socket.
function connect(server) {
  const socket = this;
  const parser = new HTTPParser();
  const conn = new Connection(server, socket, parser);
  // (A socket that parses its reads itself enters the parser's context for
  // each: the addon's, not one entered again from JavaScript.)
  if (socket[kOwnReads] !== undefined) parser[hooks.addonContext]();
  parser.initialize(HTTPParser.REQUEST, conn, server.maxHeaderSize || 0, lenientFlags(server));
  const count = server.maxHeadersCount;
  parser.maxHeaderPairs = typeof count === 'number' ? count << 1 : MAX_HEADER_PAIRS;
  server[kConnectionsSet].add(conn);
  if (server.timeout && typeof socket.setTimeout === 'function') socket.setTimeout(server.timeout);
  // The parser reads bytes: a string encoding on the socket would break the
  // stream, so it is refused, as node:http refuses it.
  socket.setEncoding = refuseEncoding;
  attach(conn);
}

// (What most connections never change, or only as they close:
// ./default-fields.js. Its backpressure and its turns stay its own.)
defaultFields(Connection.prototype, {
  closedWith: null,                 // the active response when the socket closed (it keeps its socket)
  held: null,                       // response -> { chunks: [data, encoding, callback, ...], bytes, ended }
  heldBytes: 0,                     // bytes held for responses waiting for their turn
  requestsCount: 0,                 // (counted under maxRequestsPerSocket)
  flushedPairs: null,               // the pairs of a long head flushed before its end
  flushedUrl: '',                   // ... and its URL so far
  trailerPairs: null,               // the trailers of the message under way
  lastAnswered: false,              // a response that closes the connection finished
  errored: false,
  reportedStart: -1,                // the message start a timeout was reported for
});

module.exports = { onConnection, kConnectionsSet, kConnection, kIncomingMessage, kServerResponse };
