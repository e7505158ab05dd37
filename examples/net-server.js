'use strict';
// A minimal keep-alive HTTP/1.1 server on node:net that drives llhttp-napi's
// HTTPParser directly, for framework authors who want the parser without
// node:http on top of it.
//
//   node examples/net-server.js [port]      (default 8080; 0 picks a free port)
//   curl -s localhost:8080/hello -d 'some body'
//   {"method":"POST","url":"/hello","host":"localhost:8080","userAgent":"curl/7.88.1","bodyLength":9}
//
// Every request is answered with a JSON echo of its method, URL, `Host` and
// `User-Agent` headers and body length. What it shows:
//
// - Lazy headers: kOnHeadersComplete receives no header array; the two
//   headers the answer needs are read with getHeader(), which makes a string
//   for the value it finds and nothing else. They stay readable until the
//   next message begins, so kOnMessageComplete can still read them.
// - Pipelining: responses are written as each request completes, in one
//   socket.write() each, so they leave in request order; the socket is
//   corked while a read is parsed, so the answers to its requests leave in
//   one writev().
// - Errors: a parse error is answered `400 Bad Request` (`431` for headers
//   over the size limit) with `Connection: close`, and the connection closes
//   (gracefully: see LINGER_MS). So is a request cut short by the client
//   ending its side.
// - `Connection: close` and HTTP/1.0 without keep-alive: the connection
//   closes after the answer (the parser's shouldKeepAlive tells which).
// - Backpressure: when socket.write() returns false, reading stops until
//   'drain'. Input is never queued by this code: what the socket delivered
//   is parsed at once, so at most one read (64 KiB) of pipelined requests is
//   answered past the write buffer's high-water mark.
//
// The hot path allocates no closures: every handler below is one shared,
// named function, and per-connection state lives on a Connection object that
// the socket and the parser point to.
//
// Also handled: `Expect: 100-continue` (answered `100 Continue`) and HEAD
// (no body). Left out to stay minimal: a `Date` header, `417` for other
// expectations, request/headers timeouts (there is only an idle timeout),
// upgrades (an `Upgrade` request is answered as a plain one and the
// connection closed; CONNECT gets 501) and pooling of parsers.

const net = require('node:net');
// (In this package, 'llhttp-napi' resolves to itself through package.json
// "exports"; copied into a project, to the installed package.)
const { HTTPParser, allMethods } = require('llhttp-napi');

const { REQUEST, kOnHeadersComplete, kOnBody, kOnMessageComplete } = HTTPParser;

// The socket and the parser point to their connection's state here.
const kConnection = Symbol('connection');
// The server's options, for its 'connection' listener.
const kConfig = Symbol('config');

// After we close our side, how long to keep reading (and discarding) what
// the client still sends before destroying the socket. Destroying a socket
// with unread input makes the kernel send a reset, which can wipe out our
// last response (a 400, a 431) before the client reads it.
const LINGER_MS = 2000;

const CONTINUE = 'HTTP/1.1 100 Continue\r\n\r\n';

// Per-connection state. Every field is set in the constructor so that all
// connections share one shape.
class Connection {
  constructor(socket, parser) {
    this.socket = socket;
    this.parser = parser;
    // The request being parsed, from kOnHeadersComplete on.
    this.method = '';
    this.url = '';
    this.keepAlive = false;
    this.upgrade = false;
    this.bodyLength = 0;
    // No more requests are answered: after a parse error, a request without
    // keep-alive, an upgrade, or the end of the client's input.
    this.closing = false;
    // Reading is paused until the socket drains.
    this.paused = false;
    this.lingerTimer = null;
  }
}

// ---- parser handlers (`this` is the parser) ----

function onHeadersComplete(versionMajor, versionMinor, headers, method, url,
                           statusCode, statusMessage, upgrade, shouldKeepAlive) {
  // `headers` is undefined in lazy mode; `method` indexes allMethods.
  const conn = this[kConnection];
  conn.method = allMethods[method];
  conn.url = url;
  conn.keepAlive = shouldKeepAlive;
  conn.upgrade = upgrade;
  conn.bodyLength = 0;
  // A client that sent `Expect: 100-continue` (node:http does when told to)
  // may wait for this before sending the body. HTTP/1.0 clients must not get it.
  if (versionMajor === 1 && versionMinor === 1 && !conn.closing) {
    const expect = this.getHeader('expect');
    if (expect !== undefined && expect.toLowerCase() === '100-continue') write(conn, CONTINUE);
  }
  return 0;
}

function onBody(chunk) {
  // The answer only needs the length; a real server would hand the chunk on.
  this[kConnection].bodyLength += chunk.length;
}

function onMessageComplete() {
  const conn = this[kConnection];
  if (conn.closing) return;
  // The headers are still this message's: the next one has not begun.
  const body = JSON.stringify({
    method: conn.method,
    url: conn.url,
    host: this.getHeader('host') ?? null,
    userAgent: this.getHeader('user-agent') ?? null,
    bodyLength: conn.bodyLength,
  });
  // After an upgrade request the parser stops: what follows is not HTTP.
  const keepAlive = conn.keepAlive && !conn.upgrade;
  const status = conn.method === 'CONNECT' ? '501 Not Implemented' : '200 OK';
  const head = `HTTP/1.1 ${status}\r\n` +
    'Content-Type: application/json\r\n' +
    `Content-Length: ${Buffer.byteLength(body)}\r\n` +
    `Connection: ${keepAlive ? 'keep-alive' : 'close'}\r\n\r\n`;
  // Head and body in one write: one buffer, and pipelined answers cannot
  // interleave.
  write(conn, conn.method === 'HEAD' ? head : head + body);
  if (!keepAlive) endConnection(conn);
}

// ---- socket handlers (`this` is the socket) ----

function onData(chunk) {
  const conn = this[kConnection];
  // Closing: what the client still sends is read and dropped (see LINGER_MS).
  if (conn.closing) return;
  // One call parses the whole chunk, every pipelined request in it included;
  // the handlers above answer each as it completes. The parser copies what
  // it keeps, so the chunk is not retained. Corked, the answers to the
  // chunk's requests leave together in one writev() instead of one write()
  // each.
  this.cork();
  const ret = conn.parser.execute(chunk);
  this.uncork();
  // An Error when the bytes are not valid HTTP, unless we had already decided
  // to close (data after `Connection: close` is an error to the parser too).
  // A number short of chunk.length means an upgrade request stopped the
  // parser; onMessageComplete has answered it and is closing.
  if (typeof ret !== 'number' && !conn.closing) sendError(conn, ret);
}

function onDrain() {
  const conn = this[kConnection];
  if (!conn.paused) return;
  conn.paused = false;
  this.resume();
}

// The client finished sending (it may still read: allowHalfOpen).
function onEnd() {
  const conn = this[kConnection];
  if (conn.closing) return;
  // A request cut short by the end of input is an error (400), as in node:http.
  const err = conn.parser.finish();
  if (err !== undefined) sendError(conn, err);
  else endConnection(conn);
}

// Our side is closed and flushed: wait a little for the client to close its
// side, then drop the connection.
function onFinish() {
  const conn = this[kConnection];
  if (conn.lingerTimer === null && !this.destroyed) {
    conn.lingerTimer = setTimeout(destroySocket, LINGER_MS, this);
  }
}

function onTimeout() {
  // Idle for keepAliveTimeout ms (no bytes either way): an idle keep-alive
  // connection, a stalled request, or a client that stopped reading.
  this.destroy();
}

function onError() {
  // ECONNRESET and the like: 'close' follows and cleans up. A real server
  // would log it.
}

function onClose() {
  const conn = this[kConnection];
  if (conn.lingerTimer !== null) clearTimeout(conn.lingerTimer);
  conn.lingerTimer = null;
  // Frees the parser's native memory now rather than at garbage collection.
  conn.parser.close();
}

function destroySocket(socket) {
  socket.destroy();
}

// ---- writing and closing ----

// Writes to the socket; when the write buffer is over its high-water mark,
// stops reading until 'drain' so that a client that sends without reading
// cannot make us buffer without bound.
function write(conn, data) {
  if (!conn.socket.write(data) && !conn.paused && !conn.closing) {
    conn.paused = true;
    conn.socket.pause();
  }
}

// Answers a parse error and closes the connection.
function sendError(conn, err) {
  const status = err.code === 'HPE_HEADER_OVERFLOW' ?
    '431 Request Header Fields Too Large' : '400 Bad Request';
  write(conn, `HTTP/1.1 ${status}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`);
  endConnection(conn);
}

// Stops answering, and closes our side once every response is flushed.
// Reading goes on (data is dropped) so that the client's close, not a reset,
// ends the connection; onFinish bounds the wait.
function endConnection(conn) {
  conn.closing = true;
  if (conn.paused) {
    conn.paused = false;
    conn.socket.resume();
  }
  conn.socket.end();
}

// ---- the server ----

function onConnection(socket) {
  const config = this[kConfig];
  const parser = new HTTPParser();
  const conn = new Connection(socket, parser);
  // `resource` only has to be an object; handlers run in the async context
  // current here (the connection's). maxHeaderSize 0: node:http's default.
  parser.initialize(REQUEST, conn, config.maxHeaderSize, 0, undefined, { lazyHeaders: true });
  parser[kOnHeadersComplete] = onHeadersComplete;
  parser[kOnBody] = onBody;
  parser[kOnMessageComplete] = onMessageComplete;
  parser[kConnection] = conn;
  socket[kConnection] = conn;
  socket.setTimeout(config.keepAliveTimeout);
  socket.on('data', onData);
  socket.on('drain', onDrain);
  socket.on('end', onEnd);
  socket.on('finish', onFinish);
  socket.on('timeout', onTimeout);
  socket.on('error', onError);
  socket.on('close', onClose);
}

/**
 * Creates the server (a net.Server; call .listen() on it).
 * @param {object} [options]
 * @param {number} [options.maxHeaderSize] Limit on the bytes of a request's
 *   start line and headers, beyond which it gets 431 (default: node:http's,
 *   16 KiB unless --max-http-header-size says otherwise).
 * @param {number} [options.keepAliveTimeout=5000] Milliseconds a connection
 *   may stay idle (0: forever).
 * @returns {net.Server}
 */
function createServer(options = {}) {
  const server = net.createServer({ allowHalfOpen: true, noDelay: true }, onConnection);
  server[kConfig] = {
    maxHeaderSize: options.maxHeaderSize ?? 0,
    keepAliveTimeout: options.keepAliveTimeout ?? 5000,
  };
  return server;
}

module.exports = createServer;
module.exports.createServer = createServer;

if (require.main === module) {
  const port = Number(process.argv[2] ?? 8080);
  const server = createServer();
  server.listen(port, () => {
    console.log(`listening on http://127.0.0.1:${server.address().port}/`);
  });
}
