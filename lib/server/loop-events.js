'use strict';
// What each event of a connection does in llhttp-napi/server's loop: the
// parser's (a head, a piece of body, a message's end, a read) and the
// socket's (data it did not consume, error, end, close, drain, timeout),
// with node:http's rules for a request's way in (Host, maxRequestsPerSocket,
// Expect), client errors and upgrades. The connection's state is
// ./connection.js; the handlers are shared (`this`: the parser or the
// socket, which point at their connection), no closure per request.

const { HTTPParser, allMethods, headFields } = require('../parser');
const { ServerRequest } = require('./request');
const { ServerResponse } = require('./response');
const seam = require('./seam');
const diagnostics = require('./diagnostics');
const { httpObserved, startRequestEntry } = require('./performance');
const wire = require('./wire');
const { expressMakers } = require('./express');
const { kOwnReads } = require('../read-path');
const hooks = require('../parser-hooks');
const { collectsToCapacity } = require('../node-line');

const { EventEmitter } = require('node:events');

const { kOnHeaders, kOnHeadersComplete, kOnBody, kOnMessageComplete, kOnExecute } = HTTPParser;
const { kOpenRequest, kBodyChunk, kBodyEnd, kOpenResponse, kWritable } = seam;
const { kConnection, kConnectionsSet, kIncomingMessage, kServerResponse, kDumpedAtOnce, kOptimizeEmptyRequests } = seam;
const { kHandOver } = seam;

const CONTINUE_EXPRESSION = /(?:^|\W)100-continue(?:$|\W)/i;

// The fields a request's way in looks for, which the parser tells without
// making strings (hooks.headFields: these bits, or -1).
const { HOST, EXPECT, BODY_FIELDS } = headFields;

const plainEmit = EventEmitter.prototype.emit;
// node:events' key of an emitter's captureRejections (own, or the default
// on EventEmitter.prototype), when it can be found.
const kCapture = Object.getOwnPropertySymbols(EventEmitter.prototype).find((s) => s.description === 'kCapture');

// ---- a request's way in ----

// What a request gets before (or instead of) 'request', by node:http's
// rules for HTTP/1.1: the event to emit, or null when the loop answered.
// (`names`: which of those fields the head has, or -1: look.)
function admit(conn, req, res, names) {
  if (req.httpVersionMajor !== 1 || req.httpVersionMinor !== 1) return 'request';
  const server = conn.server;
  if (server.requireHostHeader && (names === -1 ? req.getHeader('Host') === undefined : (names & HOST) === 0)) {
    return refuse(res, 400, wire.CLOSE_PAIR);
  }
  const limit = server.maxRequestsPerSocket;
  if (typeof limit === 'number' && limit > 0) {
    const served = ++conn.requestsCount;
    res.maxRequestsOnConnectionReached = served >= limit;
    if (served > limit) {
      server.emit('dropRequest', req, conn.socket);
      return refuse(res, 503);
    }
  }
  if (names !== -1 && (names & EXPECT) === 0) return 'request';
  const expect = req.getHeader('Expect');
  if (expect === undefined) return 'request';
  if (!CONTINUE_EXPRESSION.test(expect)) {
    return server.listenerCount('checkExpectation') > 0 ? 'checkExpectation' : refuse(res, 417);
  }
  res._expect_continue = true;
  if (server.listenerCount('checkContinue') > 0) return 'checkContinue';
  res.writeContinue();
  return 'request';
}

// Does the request's head announce a body (Content-Length or
// Transfer-Encoding)? (`names` as admit()'s.)
function hasBodyHeaders(req, names) {
  if (names !== -1) return (names & BODY_FIELDS) !== 0;
  return req.getHeader('Content-Length') !== undefined || req.getHeader('Transfer-Encoding') !== undefined;
}

function refuse(res, status, headers) {
  res.writeHead(status, headers);
  res.end();
  return null;
}

// ---- the parser's handlers (`this`: the parser) ----

// The pairs of a long head that arrive before its end, or the trailers,
// as node:http collects them (none beyond maxHeadersCount).
function onHeaders(pairs, url) {
  const conn = this[kConnection];
  if (conn.current === null) {
    conn.flushedPairs = collect(conn.flushedPairs, pairs, this.maxHeaderPairs);
    conn.flushedUrl += url;
  } else {
    conn.trailerPairs = collect(conn.trailerPairs, pairs, this.maxHeaderPairs);
  }
}

function collect(before, pairs, max) {
  if (collectsToCapacity) {
    const room = max > 0 ? max - (before === null ? 0 : before.length) : Infinity;
    if (room < pairs.length) pairs = pairs.slice(0, Math.max(room, 0));
  } else if (before !== null && max > 0 && before.length >= max) {
    return before;
  }
  if (before === null) return pairs;
  for (let i = 0; i < pairs.length; i++) before.push(pairs[i]);
  return before;
}

function onHeadersComplete(major, minor, headers, method, url, statusCode, statusMessage, upgrade, keepAlive) {
  const conn = this[kConnection];
  const server = conn.server;
  const socket = conn.socket;
  // (No pairs: flushes took them all, and the URL.)
  if (headers === undefined) {
    headers = conn.flushedPairs === null ? [] : conn.flushedPairs;
    conn.flushedPairs = null;
  }
  if (!url) {
    url = conn.flushedUrl;
    conn.flushedUrl = '';
  }
  // (Asked now, while the parser's call holds the head.)
  const names = this[hooks.headFields]();
  if (conn.keepAliveTimeoutSet) conn.suspendKeepAlive();
  // (An Express app's messages are born with its prototypes: ./express.js.)
  const makers = upgrade ? null : expressMakers(server);
  const RequestClass = server[kIncomingMessage] || ServerRequest;
  const req = makers === null ? new RequestClass(socket) : makers.request(socket);
  req[kOpenRequest](conn, major, minor, allMethods[method], url, upgrade, headers);
  // (node:http's link from the parser to the message it reads, which
  // modules read on socket.parser.)
  this.incoming = req;
  conn.current = req;
  conn.lastRequest = req;
  if (upgrade) {
    // (node:http's rule: the server's shouldUpgradeCallback where the line
    // has one, whose default asks for an 'upgrade' listener.)
    const wanted = server.shouldUpgradeCallback;
    req.upgrade = req.method === 'CONNECT' ||
      (typeof wanted === 'function' ? Boolean(server.shouldUpgradeCallback(req)) : server.listenerCount('upgrade') > 0);
    if (req.upgrade) return 0;
  }
  conn.pauseIfBehind();
  const ResponseClass = server[kServerResponse] || ServerResponse;
  const res = makers === null ? new ResponseClass(req) : makers.response(req);
  if (diagnostics.responseCreated.hasSubscribers) diagnostics.responseCreated.publish({ request: req, response: res });
  if (httpObserved()) startRequestEntry(res, req);
  res[kOpenResponse](conn, keepAlive);
  if (diagnostics.requestStart.hasSubscribers) {
    diagnostics.requestStart.publish({ request: req, response: res, socket, server });
  }
  conn.addResponse(res);
  if (server[kOptimizeEmptyRequests] === true && !hasBodyHeaders(req, names)) req[kDumpedAtOnce]();
  const event = admit(conn, req, res, names);
  if (event !== null) emitRequest(server, event, req, res);
  return 0;
}

// server.emit(event, req, res), which is the one listener's call when the
// server's emit() is node:events' (not patched: domains, tools), the
// listener a plain function and rejections not captured: what emit() would
// do, without its arguments array.
function emitRequest(server, event, req, res) {
  const events = server._events;
  const listener = server.emit === plainEmit && events !== undefined && kCapture !== undefined ? events[event] : undefined;
  if (typeof listener === 'function' && server[kCapture] !== true) listener.call(server, req, res);
  else server.emit(event, req, res);
}

function onBody(chunk) {
  const conn = this[kConnection];
  const req = conn.current;
  if (req !== null && !req[kBodyChunk](chunk) && !conn.pausedForBody) {
    conn.pausedForBody = true;
    conn.socket.pause();
  }
}

function onMessageComplete() {
  const conn = this[kConnection];
  const req = conn.current;
  if (req === null) return;
  conn.current = null;
  const trailers = conn.trailerPairs;
  if (trailers !== null) conn.trailerPairs = null;
  req[kBodyEnd](trailers);
  // No more body: the next message may be read.
  if (conn.pausedForBody) conn.bodyWanted();
}

// After each consumed read.
function onExecute(ret) {
  const conn = this[kConnection];
  conn.readSeen();
  afterRead(conn, ret, undefined);
}

// ---- the socket's handlers (`this`: the socket) ----

// A read the parser did not consume (TLS, data after a pause).
function onData(data) {
  const conn = this[kConnection];
  afterRead(conn, conn.parser.execute(data), data);
}

function afterRead(conn, ret, data) {
  if (ret instanceof Error) {
    ret.rawPacket = data || conn.parser.getCurrentBuffer();
    if (typeof ret.reason === 'string') ret.message = `Parse Error: ${ret.reason}`;
    clientError(conn, ret);
    return;
  }
  const req = conn.lastRequest;
  if (req === null) return;
  if (req.upgrade) {
    // (An upgrade whose body is still arriving is looked at after each read.)
    if (!req.complete) return;
    upgrade(conn, req, ret, data);
  } else if (req.method === 'PRI') {
    conn.socket.destroy();
  }
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
  else if (!conn.server.httpAllowHalfOpen || !conn.lastAnswerCloses()) this.end();
}

function onSocketClose() {
  this[kConnection].closed();
}

function onSocketDrain() {
  const conn = this[kConnection];
  conn.resumeIfDrained();
  if (conn.active !== null) conn.active[kWritable]();
}

// The socket was idle past its timeout: the request still arriving, the
// response on the wire and the server each hear 'timeout'; when none
// listens, the socket goes.
function onSocketTimeout() {
  const conn = this[kConnection];
  const req = conn.current;
  const res = conn.active;
  let heard = req !== null && !req.complete && req.emit('timeout', this);
  if (res !== null && res.emit('timeout', this)) heard = true;
  if (conn.server.emit('timeout', this)) heard = true;
  if (!heard) this.destroy();
}

// A bad request, a timeout or a socket error: 'clientError' listeners
// decide; without one the client gets the error's answer (when no answer
// of ours has begun on the wire) and the socket goes.
function clientError(conn, err) {
  conn.errored = true;
  const socket = conn.socket;
  if (conn.server.emit('clientError', err, socket)) return;
  // (node:http's rule: unless the answer under way sent its head; a 1xx
  // before it is no head.)
  const active = conn.active;
  if (socket.writable && (active === null || !active._headerSent)) socket.write(wire.answerToError(err.code));
  socket.destroy(err);
}

// Hands the socket to 'upgrade' / 'connect' listeners: the loop lets go of it.
function upgrade(conn, req, ret, data) {
  const socket = conn.socket;
  const server = conn.server;
  const bytes = data || conn.parser.getCurrentBuffer();
  detach(conn);
  const eventName = req.method === 'CONNECT' ? 'connect' : 'upgrade';
  if (server.listenerCount(eventName) === 0) {
    socket.destroy();
  } else if (socket[kHandOver] === undefined) {
    emitUpgrade(server, eventName, req, socket, bytes.subarray(ret));
  } else {
    // (A socket of the native transport: the connection goes on as a
    // net.Socket of node's, which the request names from then on.)
    const head = bytes.subarray(ret);
    socket[kHandOver]((handed) => {
      if (handed !== null) req.socket = handed;
      emitUpgrade(server, eventName, req, handed || socket, head);
    });
  }
}

function emitUpgrade(server, eventName, req, socket, head) {
  socket.readableFlowing = null;
  server.emit(eventName, req, socket, head);
}

// Someone else listens to the socket's reads ('data' or 'readable'): the
// parser stops consuming it, so that every read is a 'data' event, theirs
// and the loop's (onData), as node:http does.
function onSocketNewListener(event, listener) {
  if ((event === 'data' && listener !== onData) || event === 'readable') {
    this.removeListener('newListener', onSocketNewListener);
    const conn = this[kConnection];
    if (conn !== undefined) conn.parser.unconsume();
  }
}

const SOCKET_HANDLERS = [['timeout', onSocketTimeout], ['data', onData], ['error', onSocketError],
  ['end', onSocketEnd], ['close', onSocketClose], ['drain', onSocketDrain], ['newListener', onSocketNewListener]];

function detach(conn) {
  const socket = conn.socket;
  for (const [event, handler] of SOCKET_HANDLERS) socket.removeListener(event, handler);
  socket[kConnection] = undefined;
  conn.releaseParser();
  conn.server[kConnectionsSet].delete(conn);
}

// The server's 'connection' (or 'secureConnection') listener.
// Puts the loop's handlers on the connection's parser and socket, and the
// parser on the socket's reads.
function attach(conn) {
  const { parser, socket } = conn;
  parser.socket = socket;
  parser[kConnection] = conn;
  parser[kOnHeaders] = onHeaders;
  parser[kOnHeadersComplete] = onHeadersComplete;
  parser[kOnBody] = onBody;
  parser[kOnMessageComplete] = onMessageComplete;
  parser[kOnExecute] = onExecute;
  socket[kConnection] = conn;
  for (const [event, handler] of SOCKET_HANDLERS) socket.on(event, handler);
  // (The read path serves the parser that node:http's link names. A socket
  // of the native transport has no handle: its reads are its own.)
  socket.parser = parser;
  if (socket._handle) parser.consume(socket._handle);
  else if (socket[kOwnReads] === false) parser.consume(undefined);
}

module.exports = { attach, clientError };
