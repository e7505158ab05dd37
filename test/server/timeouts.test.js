'use strict';
// llhttp-napi/server against node:http on time and memory: headersTimeout
// (a slowloris head, a silent connection), requestTimeout, keepAliveTimeout,
// closeIdleConnections() / closeAllConnections() / close(), a request body
// whose reader is behind (reading stops), a client that never reads its
// answers (requests stop being taken). Small timeouts keep it fast.
const test = require('node:test');
const assert = require('node:assert');
const net = require('node:net');
const { once } = require('node:events');
const { FACES, withServer, exchange, normalize, listen } = require('../support/both-servers');

const FAST = { headersTimeout: 150, requestTimeout: 300, connectionsCheckingInterval: 25 };

async function timed(create, options, handler, pieces) {
  return withServer(create, options, handler, async (port) => {
    const start = Date.now();
    const r = await exchange(port, pieces, { end: false });
    return { text: normalize(r.text), closed: r.closed, ms: Date.now() - start };
  });
}

test('headersTimeout and requestTimeout answer 408 and close, as node:http', async () => {
  const cases = [
    ['slowloris head', FAST, ['GET / HTTP/1.1\r\nHost: a\r\n', 'X-Slow: 1\r\n'], 150],
    ['silent connection', FAST, [''], 150],
    ['body never complete', FAST, ['POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 10\r\n\r\nabc'], 300],
  ];
  const handler = (req, res) => req.on('end', () => res.end('late')).resume();
  for (const [name, options, pieces, atLeast] of cases) {
    const [builtin, ours] = [await timed(FACES[0][1], options, handler, pieces),
      await timed(FACES[1][1], options, handler, pieces)];
    assert.strictEqual(ours.text, builtin.text, name);
    assert.strictEqual(ours.text, 'HTTP/1.1 408 Request Timeout\r\nConnection: close\r\n\r\n', name);
    assert.ok(ours.closed && builtin.closed, name);
    assert.ok(ours.ms >= atLeast - 5 && ours.ms < atLeast + 1000, `${name}: ${ours.ms} ms`);
  }
});

test('keepAliveTimeout closes an idle keep-alive connection', async () => {
  const options = { keepAliveTimeout: 100, keepAliveTimeoutBuffer: 0 };
  const results = [];
  for (const [, create] of FACES) {
    results.push(await timed(create, options, (req, res) => res.end('ok'), ['GET / HTTP/1.1\r\nHost: a\r\n\r\n']));
  }
  assert.strictEqual(results[1].text, results[0].text);
  assert.match(results[0].text, /Keep-Alive: timeout=0\r\n/);
  for (const r of results) assert.ok(r.closed && r.ms >= 90 && r.ms < 1500, `${r.ms} ms`);
});

// The keep-alive timer of a connection gives way to each request: a
// request that takes longer than keepAliveTimeout is answered, the socket
// reads no timeout during it, and the timeout comes back after its answer.
test('a request slower than keepAliveTimeout on a kept-alive connection, as node:http', async () => {
  // (Times with room for a sanitized build on a busy machine: a next request
  // later than the timeout would meet a closed connection.)
  const options = { keepAliveTimeout: 250, keepAliveTimeoutBuffer: 0 };
  const logs = [];
  for (const [, create] of FACES) {
    const log = [];
    const handler = (req, res) => {
      log.push(`${req.url} timeout=${req.socket.timeout}`);
      if (req.url === '/now') res.end('now');
      else setTimeout(() => {
        log.push(`answer timeout=${req.socket.timeout}`);
        res.end('slow');
      }, 600);
    };
    const r = await withServer(create, options, handler, async (port, server) => {
      // (Node 20's node:http adds 1000 ms to keepAliveTimeout whatever keepAliveTimeoutBuffer says.)
      server.on('connection', (socket) => socket.on('timeout', () => log.push('socket timeout')));
      const start = Date.now();
      const got = await exchange(port, ['GET /now HTTP/1.1\r\nHost: a\r\n\r\n',
        'GET /slow HTTP/1.1\r\nHost: a\r\n\r\n'], { end: false, gapMs: 30 });
      return { text: normalize(got.text), closed: got.closed, ms: Date.now() - start };
    });
    assert.ok(r.closed && r.ms >= 800 && r.ms < 3500, `${r.ms} ms`);
    logs.push({ text: r.text, log });
  }
  assert.deepStrictEqual(logs[1], logs[0]);
  assert.match(logs[0].text, /now[^]*slow$/);
  assert.deepStrictEqual(logs[0].log, ['/now timeout=undefined', '/slow timeout=0', 'answer timeout=0', 'socket timeout']);
});

// Opens a connection that sent one request (answered unless `hold`).
function connect(port, path) {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.write(`GET ${path} HTTP/1.1\r\nHost: a\r\n\r\n`));
    socket.text = '';
    socket.on('data', (d) => {
      socket.text += d;
    });
    socket.on('error', () => {});
    socket.closedYet = false;
    socket.on('close', () => {
      socket.closedYet = true;
    });
    resolve(socket);
  });
}

const turn = (ms = 30) => new Promise((resolve) => setTimeout(resolve, ms));

test('closeIdleConnections(), closeAllConnections() and close() as node:http', async () => {
  const seen = [];
  for (const [, create] of FACES) {
    const held = [];
    let heldCame = null;
    const server = create((req, res) => {
      if (req.url === '/hold') {
        held.push(res);
        if (heldCame !== null) heldCame();
      } else res.end('now');
    });
    // (Each step waits for what it needs, not for a time: a loaded machine
    // may take longer than a turn to deliver a request.)
    const holding = () => new Promise((resolve) => {
      heldCame = resolve;
    });
    const sockets = [];
    try {
      const port = await listen(server);
      const idle = await connect(port, '/now');
      sockets.push(idle);
      await answered(idle);
      let came = holding();
      const busy = await connect(port, '/hold');
      sockets.push(busy);
      await came;
      const fresh = net.connect(port, '127.0.0.1');
      sockets.push(fresh);
      fresh.on('error', () => {});
      await once(fresh, 'connect');
      await turn();
      server.closeIdleConnections();
      await turn();
      const afterIdle = [idle.closedYet, busy.closedYet, fresh.destroyed || fresh.readyState === 'closed'];
      held[0].end('held');
      await answered(busy);
      const busyText = normalize(busy.text);
      came = holding();
      const other = await connect(port, '/hold');
      sockets.push(other);
      await came;
      server.closeAllConnections();
      await Promise.all([closed(busy), closed(other)]);
      const afterAll = [busy.closedYet, other.closedYet];
      // close(): idle connections go at once; the server stops listening.
      const last = await connect(port, '/now');
      sockets.push(last);
      await answered(last);
      let closedCallback = false;
      server.close(() => {
        closedCallback = true;
      });
      await closed(last);
      await turn();
      seen.push({ afterIdle, busyText, afterAll, last: [last.closedYet, closedCallback] });
    } finally {
      for (const socket of sockets) socket.destroy();
      server.closeAllConnections();
      if (server.listening) server.close();
    }
  }
  assert.deepStrictEqual(seen[1], seen[0]);
  assert.deepStrictEqual(seen[0].afterAll, [true, true]);
  assert.deepStrictEqual(seen[0].afterIdle.slice(0, 2), [true, false]);
});

// Resolves once `socket` (of connect()) has its answer ('now' or 'held').
function answered(socket) {
  return new Promise((resolve) => {
    const check = () => {
      if (/(now|held)$/.test(socket.text) || socket.closedYet) {
        socket.off('data', check);
        resolve();
      }
    };
    socket.on('data', check);
    check();
  });
}

function closed(socket) {
  return socket.closedYet ? Promise.resolve() : once(socket, 'close');
}

test('an upload whose reader is behind stops being read, then arrives whole', async () => {
  for (const [name, create] of FACES) {
    let request = null;
    const server = create((req, res) => {
      request = req;
      req.pause();
      req.once('readable', () => {});
    });
    const port = await listen(server);
    const total = 32 << 20;
    const socket = net.connect(port, '127.0.0.1');
    socket.on('error', () => {});
    await new Promise((resolve) => socket.on('connect', resolve));
    socket.write(`POST / HTTP/1.1\r\nHost: a\r\nContent-Length: ${total}\r\n\r\n`);
    const piece = Buffer.alloc(1 << 16, 7);
    let written = 0;
    // Writes while the socket takes it.
    while (written < total && socket.write(piece)) written += piece.length;
    await turn(300);
    assert.ok(request !== null, name);
    const buffered = request.readableLength;
    assert.ok(buffered <= 1 << 20, `${name}: ${buffered} bytes buffered in the request`);
    assert.ok(socket.writableLength > 0 || written < total, name);
    // Now read it all.
    let received = 0;
    const done = new Promise((resolve) => request.on('end', resolve));
    request.on('data', (c) => {
      received += c.length;
    });
    request.resume();
    const fill = () => {
      while (written < total) {
        written += piece.length;
        if (!socket.write(piece)) return socket.once('drain', fill);
      }
      return undefined;
    };
    fill();
    await done;
    assert.strictEqual(received, total, name);
    socket.destroy();
    server.close();
  }
});

test('a client that never reads its answers cannot make the server take every request', async () => {
  for (const [name, create] of FACES) {
    let handled = 0;
    const big = Buffer.alloc(1 << 20, 1);
    const server = create((req, res) => {
      handled++;
      res.end(big);
    });
    const port = await listen(server);
    const socket = net.connect(port, '127.0.0.1');
    socket.on('error', () => {});
    await new Promise((resolve) => socket.on('connect', resolve));
    socket.pause();
    // (In reads of their own: what one read holds is taken whole, by both.)
    for (let i = 0; i < 80; i++) {
      socket.write('GET / HTTP/1.1\r\nHost: a\r\n\r\n'.repeat(5));
      await turn(2);
    }
    await turn(100);
    assert.ok(handled > 0 && handled < 100, `${name}: ${handled} requests taken`);
    socket.destroy();
    server.closeAllConnections();
    server.close();
  }
});
