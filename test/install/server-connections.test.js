'use strict';
// Connection tracking: closeAllConnections(), closeIdleConnections(),
// headersTimeout, requestTimeout (slowloris) and keepAliveTimeout, with the
// built-in parser and after install(), with the same assertions.
const { test } = require('node:test');
const assert = require('node:assert/strict');
const http = require('node:http');
const net = require('node:net');
const { once } = require('node:events');

const {
  bothWays, assertParser, listen, closeServer, rawRequest, delay, llhttp, OurParser,
} = require('../support/http-modes');
const { freshIsIdle } = require('../support/line-behaviour');

// Node 26 (nodejs/node#63470): ConnectionsList idle() also lists a connection
// that has not begun a request yet (it stays in active(), its headersTimeout
// clock running), so closeIdleConnections() and server.close() close it.
// Measured on the running Node's ConnectionsList with a built-in parser.
const freshIdle = (server) => (freshIsIdle(connectionsOf(server)) ? 1 : 0);

function connectionsOf(server) {
  const symbol = Object.getOwnPropertySymbols(server)
    .find((s) => s.description === 'http.server.connections');
  return server[symbol];
}

function counts(server) {
  const list = connectionsOf(server);
  return { all: list.all().length, active: list.active().length, idle: list.idle().length };
}

// Opens a raw connection and waits until the server has set it up.
async function connect(server, port) {
  const accepted = once(server, 'connection');
  const socket = net.connect(port, '127.0.0.1');
  socket.setEncoding('latin1');
  socket.received = '';
  socket.on('data', (d) => { socket.received += d; });
  socket.on('error', () => {});
  await once(socket, 'connect');
  const [serverSide] = await accepted;
  return { socket, serverSide };
}

async function until(predicate, timeout = 5000) {
  const start = Date.now();
  while (!predicate()) {
    if (Date.now() - start > timeout) throw new Error('condition not reached');
    await delay(10);
  }
}

bothWays('ConnectionsList membership over a connection life', async (mode) => {
  let respond;
  const server = http.createServer((req, res) => {
    respond = () => res.end('ok');
  });
  const port = await listen(server);
  try {
    assert.deepEqual(counts(server), { all: 0, active: 0, idle: 0 });
    const { socket, serverSide } = await connect(server, port);
    assertParser(mode, serverSide.parser);
    // Connected, nothing sent: active (its clock runs from initialize); idle too from 26 on.
    assert.deepEqual(counts(server), { all: 1, active: 1, idle: freshIdle(server) });
    socket.write('GET / HTTP/1.1\r\nHost: x\r\n');
    await delay(50);
    assert.deepEqual(counts(server), { all: 1, active: 1, idle: 0 });
    socket.write('\r\n');
    await until(() => respond !== undefined);
    assert.deepEqual(counts(server), { all: 1, active: 0, idle: 1 });
    respond();
    await until(() => socket.received.endsWith('ok'));
    assert.deepEqual(counts(server), { all: 1, active: 0, idle: 1 });
    // A second request on the same connection is active again.
    respond = undefined;
    socket.write('GET /2 HTTP/1.1\r\nHost: x\r\n');
    await delay(50);
    assert.deepEqual(counts(server), { all: 1, active: 1, idle: 0 });
    socket.write('\r\n');
    await until(() => respond !== undefined);
    respond();
    socket.end();
    await once(serverSide, 'close');
    assert.deepEqual(counts(server), { all: 0, active: 0, idle: 0 });
    assert.equal(connectionsOf(server).all().every((p) => p.socket), true);
  } finally {
    await closeServer(server);
  }
});

bothWays('headersTimeout: slowloris headers get 408', async (mode) => {
  const server = http.createServer({
    headersTimeout: 400, requestTimeout: 10000, connectionsCheckingInterval: 50,
  }, (req, res) => res.end('ok'));
  server.on('connection', (socket) => assertParser(mode, socket.parser));
  const port = await listen(server);
  try {
    const started = Date.now();
    let stop = false;
    const drip = [];
    const header = 'GET / HTTP/1.1\r\nHost: x\r\nX-Slow: ' + 'a'.repeat(200);
    for (const ch of header) {
      drip.push(ch, async () => { if (!stop) await delay(25); });
    }
    const [slow, fast] = await Promise.all([
      rawRequest(port, drip, { timeout: 10000 }).finally(() => { stop = true; }),
      rawRequest(port, ['GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n']),
    ]);
    const elapsed = Date.now() - started;
    assert.match(fast, /^HTTP\/1\.1 200 OK/);
    assert.equal(slow, 'HTTP/1.1 408 Request Timeout\r\nConnection: close\r\n\r\n');
    assert.ok(elapsed >= 350 && elapsed < 4000, `closed after ${elapsed} ms`);
  } finally {
    await closeServer(server);
  }
});

// Empty lines before a request are no request (llhttp skips them): the clock
// started at initialize keeps running, as the built-in's does.
for (const [what, chunks] of [['nothing', []], ['only empty lines', ['\r\n', async () => delay(20), '\r\n']]]) {
  bothWays(`headersTimeout: a connection that sends ${what} gets 408`, async (mode) => {
    const server = http.createServer({
      headersTimeout: 300, requestTimeout: 10000, connectionsCheckingInterval: 50,
    }, (req, res) => res.end('ok'));
    server.on('connection', (socket) => assertParser(mode, socket.parser));
    const port = await listen(server);
    try {
      const started = Date.now();
      const out = await rawRequest(port, chunks, { timeout: 10000 });
      const elapsed = Date.now() - started;
      assert.equal(out, 'HTTP/1.1 408 Request Timeout\r\nConnection: close\r\n\r\n');
      assert.ok(elapsed >= 250 && elapsed < 4000, `closed after ${elapsed} ms`);
    } finally {
      await closeServer(server);
    }
  });
}

bothWays('requestTimeout: a slow body is cut at requestTimeout, not headersTimeout', async (mode) => {
  const server = http.createServer({
    headersTimeout: 200, requestTimeout: 700, connectionsCheckingInterval: 50,
  }, (req, res) => {
    assertParser(mode, req.socket.parser);
    req.resume();
    req.on('end', () => res.end('ok'));
  });
  const port = await listen(server);
  try {
    const started = Date.now();
    let stop = false;
    const chunks = ['POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n'];
    for (let i = 0; i < 100; i++) chunks.push(async () => { if (!stop) await delay(30); }, 'b');
    const out = await rawRequest(port, chunks, { timeout: 10000 }).finally(() => { stop = true; });
    const elapsed = Date.now() - started;
    assert.equal(out, 'HTTP/1.1 408 Request Timeout\r\nConnection: close\r\n\r\n');
    assert.ok(elapsed >= 600 && elapsed < 5000, `closed after ${elapsed} ms`);
  } finally {
    await closeServer(server);
  }
});

bothWays('expired connections are reported once per message', async (mode) => {
  const server = http.createServer({
    headersTimeout: 100, requestTimeout: 10000, connectionsCheckingInterval: 20,
  }, (req, res) => res.end('ok'));
  const errors = [];
  // A clientError listener that keeps the socket open: the checker must not
  // report the same message again.
  server.on('clientError', (err) => errors.push(err.code));
  const port = await listen(server);
  try {
    const { socket, serverSide } = await connect(server, port);
    assertParser(mode, serverSide.parser);
    socket.write('GET / HTTP/1.1\r\nHost: x\r\n');
    await delay(600);
    assert.deepEqual(errors, ['ERR_HTTP_REQUEST_TIMEOUT']);
    assert.equal(serverSide.destroyed, false);
    // Out of "active", still in "all", not idle.
    assert.deepEqual(counts(server), { all: 1, active: 0, idle: 0 });
    socket.destroy();
  } finally {
    await closeServer(server);
  }
});

bothWays('keepAliveTimeout closes an idle keep-alive connection', async (mode) => {
  const server = http.createServer({ keepAliveTimeout: 300 }, (req, res) => {
    assertParser(mode, req.socket.parser);
    res.end('ok');
  });
  server.keepAliveTimeout = 300;
  const port = await listen(server);
  try {
    let answered = 0;
    const out = await rawRequest(port, ['GET / HTTP/1.1\r\nHost: x\r\n\r\n'], {
      timeout: 10000,
      until: (r) => { if (r.endsWith('ok') && !answered) answered = Date.now(); return false; },
    });
    const idleFor = Date.now() - answered;
    assert.match(out, /^HTTP\/1\.1 200 OK\r\n/);
    assert.match(out, /Keep-Alive: timeout=0\r\n|Keep-Alive: timeout=\d+\r\n/);
    assert.ok(idleFor >= 250 && idleFor < 4000, `closed after ${idleFor} ms idle`);
  } finally {
    await closeServer(server);
  }
});

bothWays('closeAllConnections destroys idle and active connections', async (mode) => {
  const server = http.createServer((req, res) => {
    if (req.url === '/hang') return;
    res.end('ok');
  });
  const port = await listen(server);
  try {
    const idle = await connect(server, port);
    const active = await connect(server, port);
    assertParser(mode, idle.serverSide.parser);
    idle.socket.write('GET / HTTP/1.1\r\nHost: x\r\n\r\n');
    active.socket.write('GET /hang HTTP/1.1\r\nHost: x\r\n\r\n');
    await until(() => idle.socket.received.endsWith('ok'));
    // A GET is complete once its head is parsed: both are idle in the list
    // (closeIdleConnections() skips the one whose response is pending).
    assert.deepEqual(counts(server), { all: 2, active: 0, idle: 2 });
    server.closeAllConnections();
    await Promise.all([once(idle.socket, 'close'), once(active.socket, 'close'),
                       once(idle.serverSide, 'close'), once(active.serverSide, 'close')]);
    assert.deepEqual(counts(server), { all: 0, active: 0, idle: 0 });
  } finally {
    await closeServer(server);
  }
});

bothWays('closeIdleConnections and server.close() spare a pending response', async (mode) => {
  let pending;
  const server = http.createServer((req, res) => {
    if (req.url === '/hang') {
      pending = res;
      return;
    }
    res.end('ok');
  });
  const port = await listen(server);
  try {
    const idle = await connect(server, port);
    const busy = await connect(server, port);
    const fresh = await connect(server, port);
    assertParser(mode, busy.serverSide.parser);
    idle.socket.write('GET / HTTP/1.1\r\nHost: x\r\n\r\n');
    busy.socket.write('GET /hang HTTP/1.1\r\nHost: x\r\n\r\n');
    await until(() => idle.socket.received.endsWith('ok') && pending !== undefined);
    server.closeIdleConnections();
    await once(idle.socket, 'close');
    // Connected but never sent anything: not idle before 26 (its message
    // clock runs); idle from 26 on, so closed with the idle one.
    if (freshIdle(server)) await until(() => fresh.socket.destroyed);
    await delay(50);
    assert.equal(busy.socket.destroyed, false);
    assert.equal(fresh.socket.destroyed, freshIdle(server) === 1);
    fresh.socket.destroy();
    const closed = new Promise((resolve) => server.close(resolve));
    pending.end('late');
    await until(() => busy.socket.received.endsWith('late'));
    await closed;
    await once(busy.socket, 'close');
  } finally {
    await closeServer(server);
  }
});

test('one server, built-in and llhttp-napi connections in the same list', async () => {
  llhttp.uninstall();
  const server = http.createServer({ connectionsCheckingInterval: 50, headersTimeout: 300, requestTimeout: 10000 },
                                   (req, res) => res.end('ok'));
  const port = await listen(server);
  try {
    const before = await connect(server, port);
    assert.equal(before.serverSide.parser instanceof OurParser, false);
    llhttp.install();
    const after = await connect(server, port);
    assert.equal(after.serverSide.parser instanceof OurParser, true);
    assert.deepEqual(counts(server), { all: 2, active: 2, idle: 2 * freshIdle(server) });
    // Both slowloris connections are timed out.
    await Promise.all([once(before.socket, 'close'), once(after.socket, 'close')]);
    assert.equal(before.socket.received, 'HTTP/1.1 408 Request Timeout\r\nConnection: close\r\n\r\n');
    assert.equal(after.socket.received, before.socket.received);
    const a = await connect(server, port);
    llhttp.uninstall();
    const b = await connect(server, port);
    assert.equal(a.serverSide.parser instanceof OurParser, true);
    assert.equal(b.serverSide.parser instanceof OurParser, false);
    assert.deepEqual(counts(server), { all: 2, active: 2, idle: 2 * freshIdle(server) });
    server.closeAllConnections();
    await Promise.all([once(a.socket, 'close'), once(b.socket, 'close')]);
  } finally {
    llhttp.uninstall();
    await closeServer(server);
  }
});
