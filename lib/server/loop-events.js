'use strict';
// What each event of a connection does in llhttp-napi/server's loop: the
// parser's (a head, a piece of body, a message's end, a read) and the
// socket's (data it did not consume, error, end, close, drain, timeout),
// with node:http's rules for a request's way in (Host, maxRequestsPerSocket,
// Expect), client errors and upgrades. The connection's state is
// ./connection.js; the handlers are shared (`this`: the parser or the
// socket, which point at their connection), no closure per request.

const { HTTPParser, allMethods } = require('../parser');
const { ServerRequest } = require('./request');
const { ServerResponse } = require('./response');
const seam = require('./seam');
const diagnostics = require('./diagnostics');
const wire = require('./wire');
const { expressMakers } = require('./express');

const { kOnHeaders, kOnHeadersComplete, kOnBody, kOnMessageComplete, kOnExecute } = HTTPParser;
const { kOpenRequest, kBodyChunk, kBodyEnd, kOpenResponse, kWritable } = seam;
const { kConnection, kConnectionsSet, kIncomingMessage, kServerResponse } = seam;

const CONTINUE_EXPRESSION = /(?:^|\W)100-continue(?:$|\W)/i;

function onResponseFinish() {
  const socket = this.socket;
  const conn = socket === null ? undefined : socket[kConnection];
  if (conn !== undefined) conn.responseFinished(this);
}

// ---- a request's way in ----

// What a request gets before (or instead of) 'request', by node:http's
// rules for HTTP/1.1: the event to emit, or null when the loop answered.
function admit(conn, req, res) {
  if (req.httpVersionMajor !== 1 || req.httpVersionMinor !== 1) return 'request';
  const server = conn.server;
  if (server.requireHostHeader && req.getHeader('host') === undefined) return refuse(res, 400, wire.CLOSE_PAIR);
  const limit = server.maxRequestsPerSocket;
  if (typeof limit === 'number' && limit > 0) {
    const served = ++conn.requestsCount;
    res.maxRequestsOnConnectionReached = served >= limit;
    if (served > limit) {
      server.emit('dropRequest', req, conn.socket);
      return refuse(res, 503);
    }
  }
  const expect = req.getHeader('expect');
  if (expect === undefined) return 'request';
  if (!CONTINUE_EXPRESSION.test(expect)) {
    return server.listenerCount('checkExpectation') > 0 ? 'checkExpectation' : refuse(res, 417);
  }
  res._expect_continue = true;
  if (server.listenerCount('checkContinue') > 0) return 'checkContinue';
  res.writeContinue();
  return 'request';
}

function refuse(res, status, headers) {
  res.writeHead(status, headers);
  res.end();
  return null;
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
  // (An Express app's messages are born with its prototypes: ./express.js.)
  const makers = upgrade ? null : expressMakers(server);
  const RequestClass = server[kIncomingMessage] || ServerRequest;
  const req = makers === null ? new RequestClass(socket) : makers.request(socket);
  req[kOpenRequest](conn, major, minor, allMethods[method], url, upgrade);
  conn.current = req;
  conn.lastRequest = req;
  if (upgrade) {
    req.upgrade = req.method === 'CONNECT' || server.listenerCount('upgrade') > 0;
    if (req.upgrade) return 0;
  }
  conn.pauseIfBehind();
  const ResponseClass = server[kServerResponse] || ServerResponse;
  const res = makers === null ? new ResponseClass(req) : makers.response(req);
  if (diagnostics.responseCreated.hasSubscribers) diagnostics.responseCreated.publish({ request: req, response: res });
  res[kOpenResponse](conn, keepAlive);
  if (diagnostics.requestStart.hasSubscribers) {
    diagnostics.requestStart.publish({ request: req, response: res, socket, server });
  }
  res.on('finish', onResponseFinish);
  conn.responses.push(res);
  if (conn.active === null && !conn.lastAnswered) conn.active = res;
  const event = admit(conn, req, res);
  if (event !== null) server.emit(event, req, res);
  return 0;
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
  let trailers = null;
  if (conn.hasTrailers) {
    conn.hasTrailers = false;
    trailers = this.getAllTrailers();
  }
  req[kBodyEnd](trailers);
  // No more body: the next message may be read.
  if (conn.pausedForBody) conn.bodyWanted();
}

// After each consumed read.
function onExecute(ret) {
  const conn = this[kConnection];
  conn.socket._unrefTimer();
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
  else this.end();
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
  if (socket.writable && !conn.activeWrote) socket.write(wire.answerToError(err.code));
  socket.destroy(err);
}

// Hands the socket to 'upgrade' / 'connect' listeners: the loop lets go of it.
function upgrade(conn, req, ret, data) {
  const socket = conn.socket;
  const server = conn.server;
  const bytes = data || conn.parser.getCurrentBuffer();
  detach(conn);
  const eventName = req.method === 'CONNECT' ? 'connect' : 'upgrade';
  if (server.listenerCount(eventName) > 0) {
    socket.readableFlowing = null;
    server.emit(eventName, req, socket, bytes.subarray(ret));
  } else {
    socket.destroy();
  }
}

const SOCKET_HANDLERS = [['timeout', onSocketTimeout], ['data', onData], ['error', onSocketError],
  ['end', onSocketEnd], ['close', onSocketClose], ['drain', onSocketDrain]];

function detach(conn) {
  const socket = conn.socket;
  for (const [event, handler] of SOCKET_HANDLERS) socket.removeListener(event, handler);
  socket[kConnection] = undefined;
  conn.parser.unconsume();
  socket.parser = null;
  conn.parser.close();
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
  // (The read path serves the parser that node:http's link names.)
  socket.parser = parser;
  if (socket._handle) parser.consume(socket._handle);
}

module.exports = { attach, clientError };
