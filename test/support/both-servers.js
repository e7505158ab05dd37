'use strict';
// Runs the same exchange against node:http and llhttp-napi/server, for tests
// that assert both behave alike (test/server/*.test.js).
const http = require('node:http');
const net = require('node:net');
const ours = require('../../lib/server');

const FACES = [
  ['node:http', http.createServer],
  ['llhttp-napi/server', ours.createServer],
];

function listen(server) {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server.address().port)));
}

// Starts a server made by `create`, runs fn(port, server), closes it.
async function withServer(create, options, handler, fn) {
  const server = create(options, handler);
  const port = await listen(server);
  try {
    return await fn(port, server);
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
}

// Writes `pieces` (each in a read of its own as far as TCP allows: a turn
// of the event loop between them), half-closes when `end`, and resolves
// with what came back once the server closed (or after idleMs without
// bytes when idleMs > 0): { text, closed }.
function exchange(port, pieces, { end = true, idleMs = 0, gapMs = 0 } = {}) {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    const chunks = [];
    let timer = null;
    let done = false;
    const finish = (closed) => {
      if (done) return;
      done = true;
      if (timer !== null) clearTimeout(timer);
      socket.destroy();
      resolve({ text: Buffer.concat(chunks).toString('latin1'), closed });
    };
    const arm = () => {
      if (idleMs <= 0) return;
      if (timer !== null) clearTimeout(timer);
      timer = setTimeout(finish, idleMs, false);
    };
    socket.on('data', (d) => {
      chunks.push(d);
      arm();
    });
    socket.on('error', (err) => {
      if (err.code !== 'ECONNRESET' && err.code !== 'EPIPE') reject(err);
    });
    socket.on('close', () => finish(true));
    socket.on('connect', async () => {
      for (let i = 0; i < pieces.length; i++) {
        if (socket.destroyed) return;
        socket.write(pieces[i]);
        if (i < pieces.length - 1) await new Promise((r) => (gapMs > 0 ? setTimeout(r, gapMs) : setImmediate(r)));
      }
      if (end && !socket.destroyed) socket.end();
      arm();
    });
  });
}

// `request` with `Connection: close` after its request line (unless it has
// a Connection header): the server closes once it has answered, which ends
// an exchange without waiting for idleness.
function withClose(request) {
  return /\r\nConnection:/i.test(request) ? request : request.replace('\r\n', '\r\nConnection: close\r\n');
}

// The Date header's value differs between runs.
function normalize(text) {
  return text.replace(/\r\nDate: [^\r]*/g, '\r\nDate: -');
}

// A handler that answers with what it was handed: method, URL, headers,
// body length and a checksum of the body.
function echoHandler(log) {
  return (req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const entry = { method: req.method, url: req.url, httpVersion: req.httpVersion, headers: req.headers,
        rawHeaders: req.rawHeaders, trailers: req.trailers, length: body.length, sum: checksum(body) };
      if (log) log.push(entry);
      res.setHeader('Content-Type', 'application/json');
      res.end(JSON.stringify(entry));
    });
  };
}

function checksum(bytes) {
  let h = 0x811c9dc5;
  for (let i = 0; i < bytes.length; i++) h = Math.imul(h ^ bytes[i], 0x01000193) >>> 0;
  return h;
}

module.exports = { FACES, withServer, exchange, normalize, echoHandler, checksum, listen, withClose };
