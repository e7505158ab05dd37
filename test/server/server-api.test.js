'use strict';
// The server's own API beside node:http's: a rejected async 'request'
// listener under captureRejections, 'request' through an emit() a tool
// replaced and to a listener called on the server, and the timeout checker's timer where
// node:http keeps it (stopped by close(), replaced on each 'listening').
const test = require('node:test');
const assert = require('node:assert');
const events = require('node:events');
const { kConnectionsCheckingInterval } = require('_http_server');
const { FACES, exchange, normalize, listen } = require('../support/both-servers');

// A server made with captureRejections on (read at construction).
function capturing(create, handler) {
  const saved = events.captureRejections;
  events.captureRejections = true;
  try {
    return create(handler);
  } finally {
    events.captureRejections = saved;
  }
}

test('captureRejections: a rejected request handler gets 500 before its head, a destroyed response after', async () => {
  const handlers = [
    async (req, res) => {
      res.setHeader('content-type', 'application/json');
      throw new Error('kaboom');
    },
    async (req, res) => {
      res.write('{');
      await new Promise((r) => setTimeout(r, 20));
      throw new Error('kaboom');
    },
  ];
  for (const handler of handlers) {
    const answers = [];
    for (const [, create] of FACES) {
      const server = capturing(create, handler);
      const port = await listen(server);
      const r = await exchange(port, ['GET / HTTP/1.1\r\nHost: a\r\n\r\n'], { end: false, idleMs: 1000 });
      answers.push({ text: normalize(r.text), closed: r.closed });
      server.close();
    }
    assert.deepStrictEqual(answers[1], answers[0]);
  }
});

test('\'request\' goes through an emit() replaced on the server, and reaches its listener with the server as this', async () => {
  const seen = [];
  for (const [face, create] of FACES) {
    const server = create(function handler(req, res) {
      seen.push(`${face} this=${this === server}`);
      res.end('ok');
    });
    const emit = server.emit;
    server.emit = function traced(event, ...args) {
      if (event === 'request') seen.push(`${face} emit ${args[0].url}`);
      return emit.apply(this, [event, ...args]);
    };
    const port = await listen(server);
    await exchange(port, ['GET /a HTTP/1.1\r\nHost: a\r\n\r\n'], { end: false, idleMs: 200 });
    server.close();
    server.emit = emit;
    const plain = await listen(server);
    await exchange(plain, ['GET /b HTTP/1.1\r\nHost: a\r\n\r\n'], { end: false, idleMs: 200 });
    server.close();
  }
  const [a, b] = FACES.map(([face]) => face);
  assert.deepStrictEqual(seen, [`${a} emit /a`, `${a} this=true`, `${a} this=true`,
    `${b} emit /a`, `${b} this=true`, `${b} this=true`]);
});

test('the timeout checker is node:http\'s kConnectionsCheckingInterval: replaced on listening, stopped by close()', async () => {
  for (const [face, create] of FACES) {
    const server = create();
    server.emit('listening');
    const first = server[kConnectionsCheckingInterval];
    server.emit('listening');
    assert.ok(first._destroyed, face);
    const second = server[kConnectionsCheckingInterval];
    assert.strictEqual(second._destroyed, false, face);
    await new Promise((resolve) => server.close(() => resolve()));
    assert.ok(second._destroyed, face);
  }
});

test('a Duplex handed over as a connection is served, closed with end() when it has no destroySoon(), as node:http', async () => {
  const { duplexPair } = require('node:stream');
  for (const [face, create] of FACES) {
    const server = create((req, res) => res.end('hi'));
    const [client, side] = duplexPair();
    server.emit('connection', side);
    const chunks = [];
    client.on('data', (d) => chunks.push(d));
    client.write('GET / HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n');
    await new Promise((resolve) => client.on('end', resolve));
    assert.match(Buffer.concat(chunks).toString('latin1'), /^HTTP\/1\.1 200 OK\r\n[^]*\r\n\r\nhi$/, face);
    server.close();
  }
});

test('setEncoding() on a connection\'s socket throws node:http\'s ERR_HTTP_SOCKET_ENCODING', async () => {
  for (const [face, create] of FACES) {
    const server = create(() => {});
    const port = await listen(server);
    const thrown = await new Promise((resolve) => {
      server.once('connection', (socket) => {
        try {
          socket.setEncoding('utf8');
          resolve(null);
        } catch (err) {
          resolve(`${err.name} ${err.code} ${err.message}`);
        }
        socket.destroy();
      });
      require('node:net').connect(port, '127.0.0.1').on('error', () => {});
    });
    assert.strictEqual(thrown, 'Error ERR_HTTP_SOCKET_ENCODING Changing the socket encoding is not allowed per RFC7230 Section 3.', face);
    server.close();
  }
});
