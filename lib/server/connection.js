'use strict';
// The connection loop of llhttp-napi/server: one Connection per socket, the
// one object that holds a connection's state, and the shared handlers that
// drive an HTTPParser on it (no closure per request). The parser consumes
// the socket as node:http's does (parser.consume(): reads go straight to the
// parser, which reports each to kOnExecute); a socket it cannot consume
// reads through 'data'. The request and response objects are
// ./request.js and ./response.js; this file decides when a request is
// handed out, in which order answers leave, when reading stops
// (backpressure), and what a client error, a timeout, an upgrade and the
// socket's end do — with node:http's semantics (lib/_http_server.js).

const { HTTPParser, allMethods } = require('../parser');
const hooks = require('../parser-hooks');
const { nowMs } = require('../clock');
const { ServerRequest } = require('./request');
const { ServerResponse } = require('./response');
const errors = require('./errors');
const wire = require('./wire');

const { REQUEST, kOnHeaders, kOnHeadersComplete, kOnBody, kOnMessageComplete, kOnExecute } = HTTPParser;

const kConnection = Symbol('llhttp-napi/server connection');
const LAZY = Object.freeze({ lazyHeaders: true });
const { freshConnectionIsIdle: FRESH_IS_IDLE } = require('../node-line');
const MAX_HEADER_PAIRS = 2000;
const CONTINUE_EXPRESSION = /(?:^|\W)100-continue(?:$|\W)/i;

let isLenientOption = null;
// --insecure-http-parser, as node:http reads it.
function lenientByDefault() {
  if (isLenientOption === null) {
    const common = require('_http_common');
    isLenientOption = typeof common.isLenient === 'function' ? common.isLenient() : false;
  }
  return isLenientOption;
}

// The parser's lenient flags for the server's options, as node:http
// computes them.
function lenientFlags(server) {
  const validation = server.httpValidation;
  if (validation === 'strict') return HTTPParser.kLenientNone;
  if (validation === 'relaxed') return HTTPParser.kLenientHeaderValueRelaxed | 0;
  if (validation === 'insecure') return HTTPParser.kLenientAll;
  const lenient = server.insecureHTTPParser === undefined ? lenientByDefault() : server.insecureHTTPParser;
  return lenient ? HTTPParser.kLenientAll : HTTPParser.kLenientNone;
}

class Connection {
  constructor(server, socket, parser) {
    this.server = server;
    this.socket = socket;
    this.parser = parser;
    this.current = null;          // the request whose message is being parsed
    this.lastRequest = null;      // the latest request (node:http's parser.incoming)
    this.responses = [];          // responses not ended, in request order
    this.active = null;           // responses[0]: its bytes go to the socket now
    this.outgoingData = 0;        // bytes queued in responses waiting for their turn
    this.requestsCount = 0;
    this.keepAliveTimeoutSet = false;
    this.pausedForWrites = false; // reading stopped: the client reads too slowly
    this.pausedForBody = false;   // reading stopped: a request body's reader is behind
    this.hasTrailers = false;
    this.lastAnswered = false;    // a response that closes the connection ended
    this.errored = false;
    this.openedMs = nowMs();      // the clock of headersTimeout before a first message
    this.reportedStart = -1;      // the message start a timeout was reported for
    this.afterLastWrite = afterLastWrite.bind(this);
  }

  // The response on the wire, as node:http's socket._httpMessage.
  httpMessage() {
    return this.active;
  }

  // A response's bytes: to the socket when its turn has come, else kept.
  // `last`: its final bytes ('finish' follows their write).
  write(res, data, encoding, last, callback) {
    if (this.active === res) return this.socket.write(data, encoding, last ? this.afterLastWrite : callback);
    if (res._pending === null) res._pending = [];
    res._pending.push(data, encoding, callback);
    const bytes = data.length;
    res._pendingBytes += bytes;
    this.outgoingData += bytes;
    if (last) res._endPending = true;
    return res._pendingBytes < this.socket.writableHighWaterMark;
  }

  // The active response finished: the next one's turn, unless it was the
  // last one the connection answers (node:http drops the answers queued
  // after it). As with node:http, a response's bytes wait for the 'finish'
  // of the one before it.
  advance(res) {
    const responses = this.responses;
    if (responses[0] === res) responses.shift();
    this.active = null;
    if (res._last) {
      this.lastAnswered = true;
      return;
    }
    if (responses.length === 0) return;
    const next = responses[0];
    this.active = next;
    if (next._pending !== null) this.flushPending(next);
  }

  flushPending(res) {
    const socket = this.socket;
    const pending = res._pending;
    res._pending = null;
    this.outgoingData -= res._pendingBytes;
    res._pendingBytes = 0;
    const lastAt = res._endPending ? pending.length - 3 : -1;
    socket.cork();
    for (let i = 0; i < pending.length; i += 3) {
      socket.write(pending[i], pending[i + 1], i === lastAt ? this.afterLastWrite : pending[i + 2]);
    }
    socket.uncork();
    if (res._needDrain && !socket.writableNeedDrain) {
      res._needDrain = false;
      process.nextTick(emitDrain, res);
    }
    this.resumeIfDrained();
  }

  // A response's bytes went out: its end() callbacks, then 'finish', whose
  // emission runs resOnFinish() first (as node:http's first 'finish'
  // listener does: whoever holds 'finish' back holds the request's end back).
  finished(res) {
    res._finishEmitted = true;
    const callbacks = res._endCallbacks;
    if (callbacks !== null) {
      res._endCallbacks = null;
      for (let i = 0; i < callbacks.length; i++) callbacks[i]();
    }
    res.emit('finish');
  }

  // node:http's resOnFinish: the request's unread body is dumped, the
  // response closes on the next tick, and the socket ends (the last
  // response) or passes to the next response or waits for the next request.
  resOnFinish(res) {
    const req = res.req;
    if (!req._consuming && !req._readableState.resumeScheduled) req._dump();
    process.nextTick(emitClose, res);
    const socket = this.socket;
    if (res._last) {
      socket.destroySoon();
    }
    this.advance(res);
    if (!res._last && this.responses.length === 0) {
      const server = this.server;
      const timeout = server.keepAliveTimeout;
      if (Number.isFinite(timeout) && timeout > 0) {
        const extra = server.keepAliveTimeoutBuffer;
        socket.setTimeout(timeout + (Number.isFinite(extra) && extra >= 0 ? extra : 0));
        this.keepAliveTimeoutSet = true;
      }
    }
  }

  // Reading may go on once the client has taken our answers.
  resumeIfDrained() {
    if (this.pausedForWrites && this.outgoingData <= this.socket.writableHighWaterMark &&
        !this.socket.writableNeedDrain) {
      this.pausedForWrites = false;
      if (!this.pausedForBody) this.socket.resume();
    }
  }

  // A request body's reader wants more (its _read()).
  bodyWanted() {
    if (!this.pausedForBody) return;
    this.pausedForBody = false;
    if (!this.pausedForWrites && !this.socket.destroyed) this.socket.resume();
  }

  // The socket closed: everything still under way is aborted.
  closed() {
    this.parser.close();
    this.server[kConnectionsSet].delete(this);
    const current = this.current;
    if (current !== null && this.active === null && this.responses.length === 0 && !current.destroyed) {
      current.destroy(errors.connectionReset());
    }
    abortAll(this.responses);
    this.active = null;
  }

  // Is it between requests (closeIdleConnections())? A connection that has
  // sent nothing yet is, from 26 on (node:http's rule of each line).
  isIdle() {
    const parser = this.parser;
    return this.responses.length === 0 && parser[hooks.messageStart]() === 0 &&
      (FRESH_IS_IDLE || parser[hooks.begunSinceInit]());
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

function abortAll(responses) {
  for (let i = 0; i < responses.length; i++) {
    const res = responses[i];
    const req = res.req;
    if (!req.destroyed) req.destroy(errors.connectionReset());
    if (!res._closed) {
      res.destroyed = true;
      res._closed = true;
      res.emit('close');
    }
  }
  responses.length = 0;
}

function emitClose(res) {
  if (res._closed) return;
  res.destroyed = true;
  res._closed = true;
  res.emit('close');
}

function emitDrain(res) {
  res.emit('drain');
}

// The write callback of the active response's last bytes (`this`: the connection).
// (After an error the socket is going: closed() takes the response.)
function afterLastWrite(err) {
  const res = this.active;
  if (!err && res !== null) this.finished(res);
}

// ---- the parser's handlers (`this`: the parser) ----

// Lazy mode delivers trailers here (without an array).
function onHeaders() {
  this[kConnection].hasTrailers = true;
}

function onHeadersComplete(major, minor, headers, method, url, statusCode, statusMessage, upgrade, keepAlive) {
  const conn = this[kConnection];
  const server = conn.server;
  const socket = conn.socket;
  if (conn.keepAliveTimeoutSet) {
    socket.setTimeout(server.timeout || 0);
    conn.keepAliveTimeoutSet = false;
  }
  const req = new ServerRequest(conn, major, minor, allMethods[method], url, upgrade);
  conn.current = req;
  conn.lastRequest = req;
  if (upgrade) {
    req.upgrade = req.method === 'CONNECT' || server.listenerCount('upgrade') > 0;
    if (req.upgrade) return 0;
  }
  // A client that does not read its answers: stop reading its requests.
  if (!conn.pausedForWrites && (socket.writableNeedDrain || conn.outgoingData >= socket.writableHighWaterMark)) {
    conn.pausedForWrites = true;
    socket.pause();
  }
  const res = new ServerResponse(conn, req, keepAlive);
  conn.responses.push(res);
  if (conn.active === null && !conn.lastAnswered) conn.active = res;
  if (major === 1 && minor === 1) {
    if (server.requireHostHeader && req.getHeader('host') === undefined) {
      res.writeHead(400, ['Connection', 'close']);
      res.end();
      return 0;
    }
    const maxRequests = server.maxRequestsPerSocket;
    if (typeof maxRequests === 'number' && maxRequests > 0) {
      conn.requestsCount++;
      res.maxRequestsOnConnectionReached = maxRequests <= conn.requestsCount;
      if (maxRequests < conn.requestsCount) {
        server.emit('dropRequest', req, socket);
        res.writeHead(503);
        res.end();
        return 0;
      }
    }
    const expect = req.getHeader('expect');
    if (expect !== undefined) {
      if (CONTINUE_EXPRESSION.test(expect)) {
        res._expect_continue = true;
        if (server.listenerCount('checkContinue') > 0) {
          server.emit('checkContinue', req, res);
        } else {
          res.writeContinue();
          server.emit('request', req, res);
        }
      } else if (server.listenerCount('checkExpectation') > 0) {
        server.emit('checkExpectation', req, res);
      } else {
        res.writeHead(417);
        res.end();
      }
      return 0;
    }
  }
  server.emit('request', req, res);
  return 0;
}

function onBody(chunk) {
  const conn = this[kConnection];
  const req = conn.current;
  if (req === null || req._dumped) return;
  if (!req.push(chunk) && !conn.pausedForBody) {
    conn.pausedForBody = true;
    conn.socket.pause();
  }
}

function onMessageComplete() {
  const conn = this[kConnection];
  const req = conn.current;
  if (req === null) return;
  conn.current = null;
  // (The parser keeps the head until the next message begins.)
  req.rawPairs();
  if (conn.hasTrailers) {
    conn.hasTrailers = false;
    const trailers = this.getAllTrailers();
    if (trailers.length !== 0) req._rawTrailers = trailers;
  }
  req.complete = true;
  req.push(null);
  // No more body: the next message may be read.
  if (conn.pausedForBody) conn.bodyWanted();
}

// After each consumed read.
function onExecute(ret) {
  const conn = this[kConnection];
  conn.socket._unrefTimer();
  afterExecute(conn, ret, undefined);
}

// ---- the socket's handlers (`this`: the socket) ----

// A read the parser did not consume (TLS, data after a pause).
function onData(data) {
  const conn = this[kConnection];
  afterExecute(conn, conn.parser.execute(data), data);
}

function afterExecute(conn, ret, data) {
  if (ret instanceof Error) {
    ret.rawPacket = data || conn.parser.getCurrentBuffer();
    if (typeof ret.reason === 'string') ret.message = `Parse Error: ${ret.reason}`;
    clientError(conn, ret);
    return;
  }
  const req = conn.lastRequest;
  if (req === null) return;
  if (req.upgrade) {
    if (req.complete) upgrade(conn, req, ret, data);
    // (An upgrade whose body is still arriving is looked at after each read.)
    else return;
  } else if (req.method === 'PRI') {
    conn.socket.destroy();
  }
  // An idle connection holds no request.
  conn.lastRequest = null;
}

function onSocketError(err) {
  const conn = this[kConnection];
  if (conn !== undefined && !conn.errored) clientError(conn, err);
}

function onSocketEnd() {
  const conn = this[kConnection];
  const ret = conn.parser.finish();
  if (ret instanceof Error) clientError(conn, ret);
  else this.end();
}

function onSocketClose() {
  this[kConnection].closed();
}

function onSocketDrain() {
  const conn = this[kConnection];
  conn.resumeIfDrained();
  const res = conn.active;
  if (res !== null && res._needDrain) {
    res._needDrain = false;
    res.emit('drain');
  }
}

function onSocketTimeout() {
  const conn = this[kConnection];
  const req = conn.current;
  const reqTimeout = req !== null && !req.complete && req.emit('timeout', this);
  const res = conn.httpMessage();
  const resTimeout = res !== null && res.emit('timeout', this);
  const serverTimeout = conn.server.emit('timeout', this);
  if (!reqTimeout && !resTimeout && !serverTimeout) this.destroy();
}

// node:http's socketOnError: 'clientError', or the default answer (when no
// answer has begun on the wire) and the socket destroyed.
function clientError(conn, err) {
  conn.errored = true;
  const socket = conn.socket;
  if (conn.server.emit('clientError', err, socket)) return;
  const res = conn.httpMessage();
  if (socket.writable && (res === null || !res._headerSent)) {
    let answer;
    switch (err.code) {
      case 'HPE_HEADER_OVERFLOW': answer = wire.HEADER_FIELDS_TOO_LARGE; break;
      case 'HPE_CHUNK_EXTENSIONS_OVERFLOW': answer = wire.PAYLOAD_TOO_LARGE; break;
      case 'ERR_HTTP_REQUEST_TIMEOUT': answer = wire.REQUEST_TIMEOUT; break;
      default: answer = wire.BAD_REQUEST;
    }
    socket.write(answer);
  }
  socket.destroy(err);
}

// Hands the socket to 'upgrade' / 'connect' listeners: the loop lets go of it.
function upgrade(conn, req, ret, data) {
  const socket = conn.socket;
  const server = conn.server;
  const parser = conn.parser;
  const bytes = data || parser.getCurrentBuffer();
  detach(conn);
  const eventName = req.method === 'CONNECT' ? 'connect' : 'upgrade';
  if (server.listenerCount(eventName) > 0) {
    socket.readableFlowing = null;
    server.emit(eventName, req, socket, bytes.subarray(ret));
  } else {
    socket.destroy();
  }
}

function detach(conn) {
  const socket = conn.socket;
  socket.removeListener('data', onData);
  socket.removeListener('error', onSocketError);
  socket.removeListener('end', onSocketEnd);
  socket.removeListener('close', onSocketClose);
  socket.removeListener('drain', onSocketDrain);
  socket.removeListener('timeout', onSocketTimeout);
  socket[kConnection] = undefined;
  conn.parser.unconsume();
  socket.parser = null;
  conn.parser.close();
  conn.server[kConnectionsSet].delete(conn);
}

// The server's 'connection' (or 'secureConnection') listener.
function onConnection(socket) {
  const server = this;
  const parser = new HTTPParser();
  const conn = new Connection(server, socket, parser);
  parser.initialize(REQUEST, conn, server.maxHeaderSize || 0, lenientFlags(server), undefined, LAZY);
  // node:http's header-pair limit: maxHeadersCount pairs when a number.
  const count = server.maxHeadersCount;
  parser.maxHeaderPairs = typeof count === 'number' ? count << 1 : MAX_HEADER_PAIRS;
  parser.socket = socket;
  parser[kConnection] = conn;
  parser[kOnHeaders] = onHeaders;
  parser[kOnHeadersComplete] = onHeadersComplete;
  parser[kOnBody] = onBody;
  parser[kOnMessageComplete] = onMessageComplete;
  parser[kOnExecute] = onExecute;
  socket[kConnection] = conn;
  server[kConnectionsSet].add(conn);
  if (server.timeout && typeof socket.setTimeout === 'function') socket.setTimeout(server.timeout);
  socket.on('timeout', onSocketTimeout);
  socket.on('data', onData);
  socket.on('error', onSocketError);
  socket.on('end', onSocketEnd);
  socket.on('close', onSocketClose);
  socket.on('drain', onSocketDrain);
  // (The read path serves the parser that node:http's link names.)
  socket.parser = parser;
  if (socket._handle) parser.consume(socket._handle);
}

const kConnectionsSet = Symbol('llhttp-napi/server connections');

module.exports = { onConnection, kConnectionsSet, kConnection };
