'use strict';
// llhttp-napi/server on its own transport (the default; issue 46)
// against node:http: the same requests give the same bytes back, the same
// events, and the connection ends alike (keep-alive, pipelining, bodies
// sized and chunked, bad requests and 'clientError', half-close, resets,
// closeIdleConnections() / closeAllConnections() / close(), keepAliveTimeout
// and timeout, a slow reader); what it does not cover yet takes node:net;
// a worker thread that listens on it exits cleanly.
const test = require('node:test');
const assert = require('node:assert');
const http = require('node:http');
const net = require('node:net');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { once } = require('node:events');
const { PassThrough } = require('node:stream');
const { Worker } = require('node:worker_threads');
const ours = require('../../lib/server');
const { available, NativeSocket } = require('../../lib/server/native-transport');
const { listensWithReusePort } = require('../../lib/node-line');
const { withServer, exchange, normalize, echoHandler, withClose } = require('../support/both-servers');

const native = (options, handler) => {
  if (typeof options === 'function') [options, handler] = [{}, options];
  return ours.createServer({ ...options, transport: 'native' }, handler);
};
const FACES = [['node:http', http.createServer], ['native', native]];
const skip = available() ? false : 'this build has no native transport (docs/server.md)';

// The same exchange against both; returns node:http's result.
async function same(options, makeHandler, pieces, exchangeOptions, around) {
  const results = [];
  for (const [name, create] of FACES) {
    const log = [];
    const handler = makeHandler(log);
    const r = await withServer(create, options, handler, async (port, server) => {
      if (around) around(server, log);
      const out = await exchange(port, pieces, exchangeOptions);
      if (name === 'native') assert.ok(server.listening);
      return out;
    });
    results.push({ text: normalize(r.text), closed: r.closed, log: JSON.parse(JSON.stringify(log)) });
  }
  assert.deepStrictEqual(results[1], results[0]);
  return results[0];
}

const GET = 'GET /a?b=1 HTTP/1.1\r\nHost: x\r\nUser-Agent: t\r\n\r\n';
const POST = 'POST /p HTTP/1.1\r\nHost: x\r\nContent-Length: 11\r\n\r\nhello world';
const CHUNKED = 'POST /c HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n6\r\n world\r\n0\r\nX-T: 1\r\n\r\n';

test('keep-alive GET and POST, sized and chunked, one by one and pipelined, as node:http', { skip }, async () => {
  const r = await same({}, echoHandler, [GET, POST, CHUNKED, withClose(GET)], { end: false });
  assert.match(r.text, /"length":11/);
  assert.strictEqual(r.log.length, 4);
  const piped = await same({}, echoHandler, [GET + POST + CHUNKED + withClose(GET)], { end: false });
  assert.strictEqual(piped.text, r.text);
  // Cut at every few bytes.
  const all = GET + POST + CHUNKED + withClose(GET);
  const pieces = [];
  for (let i = 0; i < all.length; i += 7) pieces.push(all.slice(i, i + 7));
  await same({}, echoHandler, pieces, { end: false });
});

// A head that shares its write with the body: node:http encodes it as the
// body's string is (a value's bytes above 127 as UTF-8 before a UTF-8
// body, as latin1 before a latin1 one or bytes), whatever the body.
test('a head with bytes above 127 before each kind of body, written as node:http writes it', { skip }, async () => {
  const bodies = { '/utf8': ['h\u00e9llo \u65e5\u672c', 'utf8'], '/latin1': ['caf\u00e9', 'latin1'],
    '/bytes': [Buffer.from([0xc3, 0xa9, 0x00, 0xff]), undefined], '/hex': ['c3a9ff', 'hex'],
    '/ascii': ['plain', undefined], '/ascii-status': ['plain', undefined] };
  const handler = () => (req, res) => {
    const [body, encoding] = bodies[req.url];
    // (The last with a status line of ASCII: a head whose only bytes above
    // 127 are a header line's, made before.)
    if (req.url !== '/ascii-status') res.statusMessage = 'Tr\u00e8s bien';
    res.setHeader('X-Name', 'caf\u00e9 \u00ff\u0080');
    res.setHeader('Content-Length', Buffer.byteLength(body, encoding));
    res.end(body, encoding);
  };
  const pieces = Object.keys(bodies).map((url) => `GET ${url} HTTP/1.1\r\nHost: x\r\n\r\n`);
  pieces[pieces.length - 1] = withClose(pieces[pieces.length - 1]);
  const r = await same({}, handler, pieces, { end: false, gapMs: 10 });
  assert.ok(r.text.includes(Buffer.from('X-Name: caf\u00e9 \u00ff\u0080', 'utf8').toString('latin1')));
  assert.ok(r.text.includes('X-Name: caf\u00e9 \u00ff\u0080'));
});

test('strings of every width, alone and corked, written as node:http writes them', { skip }, async () => {
  // (One-byte, two-byte and astral text, a lone surrogate, latin1 and hex:
  // each encoding the addon takes, in a write of its own and in a corked
  // response's pieces.)
  const texts = [['héllo wörld', 'utf8'], ['日本語のテキスト', 'utf8'], ['a😀b😀', 'utf8'], ['x\ud800y', 'utf8'],
    ['caf\u00e9 \u00ff', 'latin1'], ['68656c6c6f', 'hex'], ['', 'utf8']];
  const handler = () => (req, res) => {
    if (req.url === '/alone') {
      res.writeHead(200, { 'Content-Type': 'text/plain' });
      for (const [text, encoding] of texts) res.write(text, encoding);
      res.end();
      return;
    }
    // (Sized: node:http's chunked framing of corked writes differs on 20.)
    res.setHeader('Content-Length', texts.reduce((n, [text, encoding]) => n + Buffer.byteLength(text, encoding), 2));
    res.cork();
    for (const [text, encoding] of texts) res.write(text, encoding);
    res.uncork();
    res.end('é');
  };
  const r = await same({}, handler, ['GET /alone HTTP/1.1\r\nHost: x\r\n\r\n', withClose('GET /corked HTTP/1.1\r\nHost: x\r\n\r\n')],
    { end: false });
  assert.ok(r.text.includes(Buffer.from('a😀b😀').toString('latin1')));
  assert.ok(r.text.includes('hello'));
});

test('handlers see the async context they see on node:http: the store, a resource, hooks with inits', { skip }, async () => {
  const { AsyncLocalStorage, createHook, executionAsyncId, executionAsyncResource } = require('node:async_hooks');
  const als = new AsyncLocalStorage();
  // (Ids whose init a hook saw: the handler's context must be one.)
  const seen = new Set();
  const makeHandler = (log) => (req, res) => {
    const resource = executionAsyncResource();
    const id = executionAsyncId();
    log.push([req.url, als.getStore(), id > 0 && (hooked === null || seen.has(id)),
      typeof resource === 'object' && resource !== null]);
    setImmediate(() => {
      log.push([req.url, 'later', als.getStore()]);
      res.end('ok');
    });
  };
  const pieces = ['GET /1 HTTP/1.1\r\nHost: x\r\n\r\n', 'GET /2 HTTP/1.1\r\nHost: x\r\n\r\n',
    withClose('GET /3 HTTP/1.1\r\nHost: x\r\n\r\n')];
  // (Without hooks, then with one listening from before the server.)
  let hooked = null;
  for (const withHook of [false, true]) {
    const hook = withHook ? createHook({ init: (id) => seen.add(id) }).enable() : null;
    hooked = hook;
    try {
      const r = await als.run('server', () => same({}, makeHandler, pieces, { end: false }));
      assert.strictEqual(r.log.length, 6);
      assert.ok(r.log.every((entry) => (entry.length === 4 ? entry[1] === 'server' && entry[2] && entry[3] :
        entry[2] === 'server')));
    } finally {
      if (hook !== null) hook.disable();
    }
  }
});

test('a big answer to a client that reads it all arrives whole, with drain, as node:http', { skip }, async () => {
  const big = Buffer.alloc(4 << 20, 'x');
  const r = await same({}, (log) => async (req, res) => {
    let ok = true;
    for (let at = 0; at < big.length; at += 65536) {
      if (!ok) {
        await once(res, 'drain');
        log.push('drain');
      }
      ok = res.write(big.subarray(at, at + 65536));
    }
    res.end();
  }, [withClose(GET)], { end: false });
  assert.ok(r.text.length > big.length);
});

test('bad requests: the same answer and clientError, as node:http', { skip }, async () => {
  for (const bad of ['GET / HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n', 'XYZ\x01 / HTTP/1.1\r\n\r\n',
    'POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n']) {
    await same({}, () => (req, res) => res.end('no'), [bad], { end: false });
    await same({}, () => (req, res) => res.end('no'), [bad], { end: false }, (server, log) => {
      server.on('clientError', (err, socket) => {
        log.push(err.code, err.bytesParsed);
        socket.end('HTTP/1.1 400 Mine\r\nConnection: close\r\n\r\n');
      });
    });
  }
});

test('half-close after a request: the answer, then the end, as node:http', { skip }, async () => {
  const r = await same({}, echoHandler, [GET], { end: true });
  assert.strictEqual(r.closed, true);
  // A half-close in the middle of a body: the request is aborted.
  await same({}, (log) => (req, res) => {
    req.on('aborted', () => log.push('aborted'));
    req.on('error', (err) => log.push(err.code));
    req.on('close', () => log.push('close'));
  }, ['POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\nabc'], { end: true });
});

test('a reset in the middle of a body: the request errs, as node:http', { skip }, async () => {
  const logs = [];
  for (const [, create] of FACES) {
    const log = [];
    let handed;
    const request = new Promise((resolve) => { handed = resolve; });
    await withServer(create, {}, (req) => {
      req.on('error', (err) => log.push(err.code));
      req.on('aborted', () => log.push('aborted'));
      handed({ closed: new Promise((resolve) => req.on('close', resolve)) });
    }, async (port) => {
      const client = net.connect(port, '127.0.0.1');
      await once(client, 'connect');
      client.write('POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\nabc');
      const { closed } = await request;
      client.resetAndDestroy();
      await closed;
    });
    logs.push(log);
  }
  assert.deepStrictEqual(logs[1], logs[0]);
  assert.deepStrictEqual(logs[0], ['aborted', 'ECONNRESET']);
});

test('closeIdleConnections(), closeAllConnections() and close() end connections as node:http', { skip }, async () => {
  const outcomes = [];
  for (const [, create] of FACES) {
    const server = create({}, (req, res) => {
      if (req.url === '/hold') return;
      res.end('ok');
    });
    await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = server.address().port;
    const idle = net.connect(port, '127.0.0.1');
    const busy = net.connect(port, '127.0.0.1');
    idle.write('GET / HTTP/1.1\r\nHost: x\r\n\r\n');
    busy.write('GET /hold HTTP/1.1\r\nHost: x\r\n\r\n');
    await once(idle, 'data');
    await new Promise((resolve) => setTimeout(resolve, 50));
    const idleClosed = once(idle, 'close');
    server.closeIdleConnections();
    await idleClosed;
    const busyClosed = once(busy, 'close');
    const serverClosed = new Promise((resolve) => server.close(resolve));
    assert.strictEqual(server.listening, false);
    server.closeAllConnections();
    await busyClosed;
    await serverClosed;
    const err = await new Promise((resolve) => server.close(resolve));
    outcomes.push(err && err.code);
  }
  assert.deepStrictEqual(outcomes, ['ERR_SERVER_NOT_RUNNING', 'ERR_SERVER_NOT_RUNNING']);
});

test('keepAliveTimeout closes an idle connection, timeout reaches the handler, as node:http', { skip }, async () => {
  const r = await same({ keepAliveTimeout: 150 }, echoHandler, [GET], { end: false });
  assert.strictEqual(r.closed, true);
  await same({}, (log) => (req, res) => {
    res.on('timeout', () => {
      log.push('res timeout');
      res.end('late');
    });
  }, [withClose(GET)], { end: false }, (server) => server.setTimeout(150));
});

// What runs after an answer's last write, and in which order: 'prefinish'
// once its bytes all went to the socket, 'finish', then the answer's and
// the request's 'close' on a later tick, and what the handler's listeners
// queued between them, with and without an end() callback or a request
// body read, and pipelined.
test('prefinish, finish, ticks, microtasks and close in node:http\'s order', { skip }, async () => {
  await same({}, (log) => (req, res) => {
    const note = (what) => log.push(`${req.url} ${what} closed=${res.closed}`);
    res.on('finish', () => {
      note('finish');
      process.nextTick(() => note('tick after finish'));
      queueMicrotask(() => note('microtask after finish'));
      setImmediate(() => note('immediate after finish'));
    });
    res.on('close', () => {
      note('close');
      process.nextTick(() => note('tick after close'));
    });
    req.on('close', () => note('request close'));
    if (req.url === '/prefinish') res.on('prefinish', () => process.nextTick(() => note('tick after prefinish')));
    if (req.url === '/body') req.on('data', () => note('data'));
    if (req.url === '/callback') res.end('x', () => process.nextTick(() => note('tick after the end callback')));
    else res.end('x');
  }, ['GET /plain HTTP/1.1\r\nHost: x\r\n\r\n', 'GET /callback HTTP/1.1\r\nHost: x\r\n\r\n',
    'GET /prefinish HTTP/1.1\r\nHost: x\r\n\r\n', 'POST /body HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\nab'],
  { gapMs: 30 });
  // (Pipelined: the second answer ends before its turn; 'prefinish' when it comes.)
  await same({}, (log) => (req, res) => {
    res.on('prefinish', () => log.push(`${req.url} prefinish`));
    res.on('finish', () => log.push(`${req.url} finish`));
    if (req.url === '/first') setTimeout(() => res.end('1'), 30);
    else res.end('2');
    log.push(`${req.url} ended`);
  }, ['GET /first HTTP/1.1\r\nHost: x\r\n\r\nGET /second HTTP/1.1\r\nHost: x\r\n\r\n']);
});

// What code reads of a net.Socket: the class, byte counts, the state of
// both sides and of the socket, before and after it closes.
test('the socket: an instanceof net.Socket, with its byte counts and state, as node:http\'s', { skip }, async () => {
  await same({}, (log) => (req, res) => {
    const socket = req.socket;
    log.push({ isNetSocket: socket instanceof net.Socket, read: socket.bytesRead, written: socket.bytesWritten,
      readable: socket.readable, writable: socket.writable, destroyed: socket.destroyed, closed: socket.closed,
      errored: socket.errored, bufferSize: socket.bufferSize, objectMode: [socket.readableObjectMode, socket.writableObjectMode],
      encoding: socket.readableEncoding, family: socket.localFamily, name: socket.constructor.name });
    res.end('answer', () => log.push({ writtenAfter: socket.bytesWritten }));
    socket.removeAllListeners('nothing');
    socket.on('close', () => log.push({ closedAfter: socket.closed, destroyedAfter: socket.destroyed,
      readableAfter: socket.readable, writtenAtClose: socket.bytesWritten }));
  }, [withClose(POST)], { end: false });
});

// The idle timeout counts from the latest read: an upload whose pieces come
// closer together than it never times out, however long it takes; and a
// timeout set shorter than the one running comes first.
test('the idle timeout counts from each read, and a shorter one set later comes first, as node:http', { skip }, async () => {
  const slowBody = ['POST /up HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\n', '1', '2', '3', '4', '5'];
  await same({}, (log) => (req, res) => {
    const started = Date.now();
    req.socket.on('timeout', () => log.push('socket timeout'));
    let body = '';
    req.on('data', (d) => {
      body += d;
    });
    req.on('end', () => {
      log.push(`body ${body}, ${Date.now() - started >= 600 ? 'after' : 'before'} the timeout's time`);
      res.end('took');
    });
  }, slowBody, { gapMs: 150 }, (server) => server.setTimeout(500));
  await same({}, (log) => (req, res) => {
    const started = Date.now();
    req.socket.setTimeout(3000);
    req.socket.setTimeout(150, () => {
      log.push(`timeout ${Date.now() - started < 1500 ? 'at the shorter' : 'at the longer'}`);
      res.end('late');
    });
  }, [withClose(GET)], { end: false });
});

// An 'upgrade' listener added after listen() (the server listened natively):
// the socket comes as node:http's does (readableFlowing null), its later
// reads kept until the listener reads them, the peer's end after them.
test('an upgrade on a server that listened natively: the socket\'s reads kept for its reader, as node:http', { skip }, async () => {
  const results = [];
  for (const [, create] of FACES) {
    const server = create((req, res) => res.end('x'));
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const got = [];
    server.on('upgrade', (req, socket, head) => {
      got.push(socket.constructor.name, socket instanceof net.Socket, req.socket === socket, socket.readableFlowing,
        socket.remoteAddress, socket.address().address, head.toString());
      setTimeout(() => {
        socket.on('data', (d) => got.push(d.toString()));
        socket.on('end', () => socket.end('HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nUpgrade: x\r\n\r\n'));
      }, 50);
    });
    const client = net.connect(server.address().port, '127.0.0.1');
    await once(client, 'connect');
    client.write('GET / HTTP/1.1\r\nHost: a\r\nConnection: Upgrade\r\nUpgrade: x\r\n\r\nfirst');
    setTimeout(() => client.end('second'), 20);
    let text = '';
    client.on('data', (d) => { text += d; });
    await once(client, 'close');
    server.close();
    await once(server, 'close');
    results.push({ got, text });
  }
  assert.deepStrictEqual(results[1], results[0]);
  assert.deepStrictEqual(results[0].got, ['Socket', true, true, null, '127.0.0.1', '127.0.0.1', 'first', 'second']);
});

// An upgrade (a WebSocket's, ws's way: the listener is there before
// listen()) and a CONNECT behind a large answer still being written: the
// connection goes on as a net.Socket once that answer left, and the bytes
// come in order, as from node:http.
test('upgrade and CONNECT on a native server: a net.Socket, after the answers before it, as node:http', { skip, timeout: 30000 }, async () => {
  const big = 'x'.repeat(4 << 20);
  const results = [];
  for (const [name, create] of FACES) {
    const server = create((req, res) => res.end(big));
    const events = [];
    const onTunnel = (event) => (req, socket, head) => {
      events.push(`${event} ${req.url} ${socket instanceof net.Socket} ${head}`);
      socket.write('HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nUpgrade: echo\r\n\r\n');
      if (head.length !== 0) socket.write(`echo:${head}`);
      socket.on('data', (d) => socket.write(`echo:${d}`));
      socket.on('end', () => socket.end());
    };
    server.on('upgrade', onTunnel('upgrade'));
    server.on('connect', onTunnel('connect'));
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    let closedConnections = 0;
    server.on('connection', (socket) => {
      if (name === 'native') assert.ok(socket instanceof NativeSocket);
      socket.on('close', () => closedConnections++);
    });
    const texts = [];
    for (const tunnel of ['GET /ws HTTP/1.1\r\nHost: a\r\nConnection: Upgrade\r\nUpgrade: echo\r\n\r\nhi',
      'CONNECT a:1 HTTP/1.1\r\nHost: a:1\r\n\r\nhi']) {
      const client = net.connect(server.address().port, '127.0.0.1');
      await once(client, 'connect');
      client.write(`GET /big HTTP/1.1\r\nHost: a\r\n\r\n${tunnel}`);
      let text = '';
      client.on('data', (d) => {
        text += d;
        if (text.endsWith('echo:hi')) client.end('bye');
      });
      await once(client, 'close');
      texts.push(normalize(text).replace(big, `<${big.length} x>`));
    }
    server.close();
    await once(server, 'close');
    results.push({ events, texts, closedConnections });
  }
  assert.deepStrictEqual(results[1], results[0]);
  assert.deepStrictEqual(results[0].events, ['upgrade /ws true hi', 'connect a:1 true hi']);
  assert.match(results[0].texts[0], /<4194304 x>HTTP\/1\.1 101 Switching Protocols\r\n[^]*echo:hiecho:bye$/);
  assert.strictEqual(results[0].closedConnections, 2);
});

// (Found by scripts/dev/fuzz-transport.js.) An upgrade pipelined behind an
// answer that closes the connection: the socket its listener gets is ended
// already, as node:net's is (what the listener writes goes nowhere, and the
// client sees the connection close), not a live copy of the descriptor.
test('an upgrade behind an answer that closed the connection gets an ended socket, as node:http', { skip }, async () => {
  const makeHandler = (log) => (req, res) => res.end('unexpected');
  const around = (server, log) => {
    server.on('checkContinue', (req, res) => {
      res.writeHead(417);
      res.end();
    });
    server.on('upgrade', (req, socket) => {
      log.push(['upgrade', req.url, socket.writable]);
      socket.on('error', (err) => log.push(['error', err.code]));
      socket.write('HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nUpgrade: echo\r\n\r\n');
      socket.on('end', () => socket.end());
      socket.resume();
    });
  };
  const r = await same({}, makeHandler,
    ['POST /r HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 1\r\n\r\nq' +
      'GET /u HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: echo\r\n\r\n'], { end: false, idleMs: 1000 }, around);
  assert.match(r.text, /^HTTP\/1\.1 417 Expectation Failed\r\n[^]*\r\n\r\n0\r\n\r\n$/);
  assert.deepStrictEqual(r.log[0], ['upgrade', '/u', false]);
});

// (Found by scripts/dev/fuzz-transport.js.) An upgrade behind a large
// answer under way: what the answer wrote goes first, corked or queued, and
// what it writes once the listener has the socket follows the listener's
// bytes (here: nothing, the listener ended it), as on one net.Socket.
test('an upgrade behind a large answer under way: the answer\'s bytes first, as node:http', { skip }, async () => {
  const piece = Buffer.alloc(16384, 'x');
  const makeHandler = () => (req, res) => {
    res.setHeader('Content-Length', 16 * piece.length);
    let left = 16;
    const more = () => {
      while (left > 0 && !res.destroyed) {
        left--;
        if (left === 0) res.end(piece);
        else if (!res.write(piece)) return;
      }
    };
    res.on('drain', more);
    more();
  };
  const around = (server) => server.on('upgrade', (req, socket) => {
    socket.on('error', () => {});
    socket.end('HTTP/1.1 403 Forbidden\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
    socket.resume();
  });
  const upgrade = 'GET /u HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: echo\r\n\r\n';
  const r = await same({}, makeHandler, ['GET /big HTTP/1.1\r\nHost: x\r\n\r\n' + upgrade], { end: false, idleMs: 1000 }, around);
  assert.match(r.text, /^HTTP\/1\.1 200 OK\r\n[^]*\r\n\r\nx+HTTP\/1\.1 403 Forbidden\r\n/);
});

// Code written for node:net reads a listening server's _handle (supertest
// closes the server it made only when it has one): there while listening,
// null once closed, on both.
test('a listening server has a _handle, and none once closed, as node:http\'s', { skip }, async () => {
  for (const [name, create] of FACES) {
    const server = create((req, res) => res.end('x'));
    assert.strictEqual(Boolean(server._handle), false, name);
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    assert.ok(server._handle, name);
    const out = {};
    assert.strictEqual(server._handle.getsockname(out), 0, name);
    assert.strictEqual(out.port, server.address().port, name);
    server.close();
    assert.strictEqual(server._handle, null, name);
    await once(server, 'close');
  }
});

// A Unix domain socket: the same exchanges, addresses and end as node:http
// on one (the file gone once the server closes), and a path in use refused.
test('a Unix domain socket, as node:http on one', { skip }, async () => {
  const results = [];
  for (const [name, create] of FACES) {
    const where = path.join(os.tmpdir(), `llhttp-napi-${name.replace(':', '-')}-${process.pid}.sock`);
    const log = [];
    const server = create((req, res) => {
      const s = req.socket;
      log.push([req.url, s.remoteAddress, s.remotePort, s.remoteFamily, JSON.stringify(s.address()), s instanceof net.Socket]);
      res.end(`on ${req.url}`);
    });
    server.listen(where);
    await once(server, 'listening');
    if (name === 'native') {
      const [conn] = await Promise.all([once(server, 'connection'), new Promise((resolve) => {
        const probe = net.connect(where, () => probe.end());
        probe.on('close', resolve);
      })]);
      assert.ok(conn[0] instanceof NativeSocket);
    }
    const address = server.address();
    const busy = create(() => {});
    busy.listen(where);
    const [err] = await once(busy, 'error');
    const text = await new Promise((resolve) => {
      const client = net.connect(where, () => client.write(`${GET}${withClose(POST)}`));
      let got = '';
      client.on('data', (d) => { got += d; });
      client.on('close', () => resolve(got));
    });
    await new Promise((resolve) => server.close(resolve));
    results.push({ text: normalize(text), log, address: address === where, err: [err.code, err.syscall, err.address === where],
      gone: !fs.existsSync(where) });
  }
  assert.deepStrictEqual(results[1], results[0]);
  assert.deepStrictEqual(results[0].err, ['EADDRINUSE', 'listen', true]);
  assert.strictEqual(results[0].gone, true);
  assert.match(results[0].text, /on \/a\?b=1[^]*on \/p$/);
});

test('listen() forms, address(), and what takes node:net instead', { skip }, async () => {
  const server = native((req, res) => res.end(req.socket instanceof NativeSocket ? 'native' : 'net'));
  server.listen({ port: 0, host: '127.0.0.1' });
  await once(server, 'listening');
  const { port, family, address } = server.address();
  assert.deepStrictEqual([family, address], ['IPv4', '127.0.0.1']);
  let { text } = await exchange(port, [withClose(GET)], { end: false });
  assert.match(text, /native$/);
  const again = native(() => {});
  again.listen(port, '127.0.0.1');
  const [err] = await once(again, 'error');
  assert.strictEqual(err.code, 'EADDRINUSE');
  assert.strictEqual(err.syscall, 'listen');
  await new Promise((resolve) => server.close(resolve));
  // An 'upgrade' listener: still the native transport (an upgrade goes on
  // as a net.Socket); a path with readableAll: node:net.
  const upgrading = native((req, res) => res.end(req.socket instanceof NativeSocket ? 'native' : 'net'));
  upgrading.on('upgrade', (req, socket) => socket.destroy());
  await new Promise((resolve) => upgrading.listen(0, '127.0.0.1', resolve));
  ({ text } = await exchange(upgrading.address().port, [withClose(GET)], { end: false }));
  assert.match(text, /native$/);
  await new Promise((resolve) => upgrading.close(resolve));
  const onPath = native((req, res) => res.end(req.socket instanceof NativeSocket ? 'native' : 'net'));
  const where = path.join(os.tmpdir(), `llhttp-napi-native-${process.pid}.sock`);
  await new Promise((resolve) => onPath.listen({ path: where, readableAll: true }, resolve));
  text = await new Promise((resolve) => {
    const client = net.connect(where, () => client.end(withClose(GET)));
    let got = '';
    client.on('data', (d) => { got += d; });
    client.on('close', () => resolve(got));
  });
  assert.match(text, /net$/);
  await new Promise((resolve) => onPath.close(resolve));
  // reusePort (SO_REUSEPORT): the transport's on Linux (or ignored, as
  // node:net ignores it before 22.12), node:net's elsewhere.
  const reusing = native((req, res) => res.end(req.socket instanceof NativeSocket ? 'native' : 'net'));
  await new Promise((resolve) => reusing.listen({ port: 0, host: '127.0.0.1', reusePort: true }, resolve));
  ({ text } = await exchange(reusing.address().port, [withClose(GET)], { end: false }));
  assert.match(text, process.platform === 'linux' || !listensWithReusePort ? /native$/ : /net$/);
  await new Promise((resolve) => reusing.close(resolve));
  assert.throws(() => ours.createServer({ transport: 'quic' }), { code: 'ERR_INVALID_ARG_VALUE' });
});

test('a plain server is on the native transport unless transport \'net\' or LLHTTP_NAPI_TRANSPORT=net says otherwise', { skip }, async () => {
  const kinds = [];
  const saved = process.env.LLHTTP_NAPI_TRANSPORT;
  try {
    for (const [options, env] of [[{}, undefined], [{ transport: 'net' }, undefined], [{}, 'net'],
      [{ transport: 'native' }, 'net'], [{}, 'native']]) {
      if (env === undefined) delete process.env.LLHTTP_NAPI_TRANSPORT;
      else process.env.LLHTTP_NAPI_TRANSPORT = env;
      const server = ours.createServer(options, (req, res) => res.end(req.socket instanceof NativeSocket ? 'native' : 'net'));
      await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
      const { text } = await exchange(server.address().port, [withClose(GET)], { end: false });
      kinds.push(/(native|net)$/.exec(text)[1]);
      await new Promise((resolve) => server.close(resolve));
    }
  } finally {
    if (saved === undefined) delete process.env.LLHTTP_NAPI_TRANSPORT;
    else process.env.LLHTTP_NAPI_TRANSPORT = saved;
  }
  assert.deepStrictEqual(kinds, ['native', 'net', 'net', 'native', 'native']);
});

// (reusePort, Node 22.12 and 23.1 on: several listeners on one port, the
// kernel spreading the connections between them; older lines ignore it, so
// the second listen() is EADDRINUSE. A listener without it keeps the port
// its own.)
test('reusePort: a second listener on the same port shares the connections, as node:http', { skip }, async () => {
  const results = [];
  for (const [, create] of FACES) {
    const result = {};
    const first = create((req, res) => res.end('first'));
    await new Promise((resolve) => first.listen({ port: 0, host: '127.0.0.1', reusePort: true }, resolve));
    const port = first.address().port;
    const listen = (server, options) => new Promise((resolve) => {
      server.once('listening', () => resolve(server.address().port === port));
      server.once('error', (err) => resolve(err.code));
      server.listen({ port, host: '127.0.0.1', ...options });
    });
    const second = create((req, res) => res.end('second'));
    result.second = await listen(second, { reusePort: true });
    const alone = create(() => {});
    result.without = await listen(alone, {});
    alone.close();
    if (result.second === true) {
      const served = new Set();
      for (let i = 0; i < 24 && served.size < 2; i++) {
        const { text } = await exchange(port, [withClose(GET)], { end: false });
        served.add(/(first|second)$/.exec(text)[1]);
      }
      result.served = [...served].sort();
    }
    first.close();
    second.close();
    results.push(result);
  }
  assert.deepStrictEqual(results[1], results[0]);
  if (listensWithReusePort) assert.deepStrictEqual(results[0], { second: true, without: 'EADDRINUSE', served: ['first', 'second'] });
});

test('a worker thread that listens on the native transport and exits leaves cleanly', { skip }, async () => {
  const worker = new Worker(`
    const { createServer } = require(${JSON.stringify(path.join(__dirname, '..', '..', 'lib', 'server'))});
    const net = require('node:net');
    const server = createServer({ transport: 'native' }, (req, res) => res.end('w'));
    server.listen(0, '127.0.0.1', () => {
      const c = net.connect(server.address().port, '127.0.0.1', () => c.write('GET / HTTP/1.1\\r\\nHost: x\\r\\n\\r\\n'));
      c.once('data', () => process.exit(0));
    });`, { eval: true });
  const [code] = await once(worker, 'exit');
  assert.strictEqual(code, 0);
});

// What node:http's own tests do to a server and its sockets (Node's suite
// through the server preload, forced native): listen again while the last
// listener closes, unref() before listen(), getConnections(), 'drop' over
// maxConnections, a socket's push() and _writableState.highWaterMark.
test('listen again at close, getConnections(), maxConnections and drop, as node:http', { skip }, async () => {
  const results = [];
  for (const [, create] of FACES) {
    const log = [];
    const server = create((req, res) => res.end('ok'));
    server.on('close', () => log.push('close'));
    server.on('drop', (data) => log.push(['drop', data && Object.keys(data).sort(), data && data.remoteFamily,
      data && data.localPort === server.address().port]));
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    server.close();
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    log.push(`listening ${server.listening}`);
    server.maxConnections = 1;
    const first = net.connect(server.address().port, '127.0.0.1');
    await once(first, 'connect');
    await new Promise((resolve) => setTimeout(resolve, 50));
    log.push(`connections ${await new Promise((resolve) => server.getConnections((err, n) => resolve(n)))}`);
    const second = net.connect(server.address().port, '127.0.0.1');
    second.on('error', () => {});
    await once(second, 'close');
    first.destroy();
    await once(server.close(), 'close');
    results.push(log);
  }
  assert.deepStrictEqual(results[1], results[0]);
  assert.deepStrictEqual(results[0].slice(0, 3), ['close', 'listening true', 'connections 1']);
  assert.deepStrictEqual(results[0][3], ['drop', ['localAddress', 'localFamily', 'localPort', 'remoteAddress',
    'remoteFamily', 'remotePort'], 'IPv4', true]);
});

test('a server unref()ed before listen() lets the process end once its connections end, as node:http', { skip }, async () => {
  const { execFileSync } = require('node:child_process');
  const script = (create) => `
    const http = require('node:http');
    const net = require('node:net');
    const server = (${create})((req, res) => res.end('hello'));
    server.unref();
    server.listen(0, '127.0.0.1', () => {
      const client = net.connect(server.address().port, '127.0.0.1');
      client.end('POST / HTTP/1.1\\r\\nHost: x\\r\\nContent-Length: 2\\r\\n\\r\\nhi');
      client.on('data', (d) => process.stdout.write(String(d).split('\\r\\n')[0]));
    });`;
  const ran = (create) => execFileSync(process.execPath, ['-e', script(create)], { timeout: 10000 }).toString();
  const theirs = ran('http.createServer');
  const mine = ran(`(handler) => require(${JSON.stringify(path.join(__dirname, '..', '..', 'lib', 'server'))}).createServer({ transport: 'native' }, handler)`);
  assert.strictEqual(theirs, 'HTTP/1.1 200 OK');
  assert.strictEqual(mine, theirs);
});

test('bytes a \'connection\' listener push()es are parsed as a read, as node:http', { skip, timeout: 20000 }, async () => {
  const over = `GET /a HTTP/1.1\r\nCookie: ${'a'.repeat(http.maxHeaderSize)}`;
  for (const payload of [withClose(GET), over]) {
    const results = [];
    for (const [, create] of FACES) {
      const log = [];
      await withServer(create, {}, (req, res) => res.end(`got ${req.url}`), async (port, server) => {
        server.on('connection', (socket) => {
          socket.on('error', (err) => log.push([err.code, err.bytesParsed, String(err.rawPacket).length]));
          socket.push(payload);
        });
        const client = net.connect(port, '127.0.0.1');
        let text = '';
        client.on('data', (d) => { text += d; });
        await once(client, 'close');
        log.push(normalize(text));
      });
      results.push(log);
    }
    assert.deepStrictEqual(results[1], results[0]);
  }
});

test('a request\'s socket read(), unshift()ed, piped and unpiped as node:http\'s: the bytes put back are parsed, the pipe gets them', { skip, timeout: 20000 }, async () => {
  const second = 'GET /second HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n';
  const makeHandler = (log) => {
    const piped = [];
    return (req, res) => {
      const s = req.socket;
      if (req.url === '/first') {
        const dest = new PassThrough();
        dest.on('data', (d) => piped.push(String(d)));
        dest.on('pipe', (from) => log.push(['pipe event', from === s]));
        dest.on('unpipe', (from) => log.push(['unpipe event', from === s]));
        log.push(['before', s.readableDidRead, s.allowHalfOpen, s.read(0), s.read(), s.readableLength]);
        log.push(['pipe', s.pipe(dest) === dest]);
        // (Outside the parser's call: bytes given back inside it are parsed
        // after it on ours, there and then by the built-in, docs/differences.md.)
        setTimeout(() => {
          log.push(['unshift', s.unshift(Buffer.from(second))]);
          log.push(['unpipe other', s.unpipe(new PassThrough()) === s]);
          setTimeout(() => {
            log.push(['piped', piped.join(''), s.readableDidRead]);
            log.push(['unpipe', s.unpipe(dest) === s]);
            res.end('first');
          }, 20);
        }, 20);
      } else {
        log.push(['then', req.url, piped.length]);
        res.end('second');
      }
    };
  };
  const r = await same({}, makeHandler, ['GET /first HTTP/1.1\r\nHost: x\r\n\r\n'], { end: false });
  assert.match(r.text, /first[\s\S]*second/);
  assert.deepStrictEqual(r.log.map((entry) => entry[0]),
    ['before', 'pipe event', 'pipe', 'then', 'unshift', 'unpipe other', 'piped', 'unpipe event', 'unpipe']);
  assert.deepStrictEqual(r.log[0], ['before', false, true, null, null, 0]);
  assert.deepStrictEqual(r.log[6], ['piped', second, true]);
});

test('after an upgrade, the request\'s socket pipes what the connection reads next, and a socket whose end was read ends its pipe, as node:http\'s', { skip, timeout: 20000 }, async () => {
  const around = (server, log) => {
    server.on('upgrade', (req, socket) => {
      const dest = new PassThrough();
      let got = '';
      dest.on('data', (d) => { got += d; });
      dest.on('finish', () => log.push(['dest finished', got]));
      log.push(['pipe', req.socket.pipe(dest) === dest]);
      socket.write('HTTP/1.1 101 Switching Protocols\r\nUpgrade: x\r\nConnection: Upgrade\r\n\r\n');
      setTimeout(() => {
        log.push(['read', req.socket.read(), got]);
        socket.end(`got ${got}`);
      }, 150);
    });
  };
  const upgrade = 'GET /u HTTP/1.1\r\nHost: x\r\nUpgrade: x\r\nConnection: Upgrade\r\n\r\n';
  const r = await same({}, () => (req, res) => res.end('no'), [upgrade, 'hello'], { gapMs: 50, end: false, idleMs: 400 },
    around);
  assert.match(r.text, /101 Switching Protocols[\s\S]*got hello$/);
  assert.deepStrictEqual(r.log, [['pipe', true], ['read', null, 'hello'], ['dest finished', 'hello']]);

  // A request whose client ended: its socket's end was read before the pipe.
  const ended = (log) => (req, res) => {
    req.socket.once('end', () => {
      setImmediate(() => {
        const dest = new PassThrough();
        dest.on('finish', () => log.push(['dest finished', req.socket.readableEnded]));
        req.socket.pipe(dest);
        dest.resume();
        setTimeout(() => res.end('ok'), 20);
      });
    });
    req.resume();
  };
  const e = await same({}, ended, ['GET /e HTTP/1.1\r\nHost: x\r\n\r\n'], { end: true });
  assert.deepStrictEqual(e.log, [['dest finished', true]]);
});

test('a socket\'s _writableState.highWaterMark set in \'connection\' holds the response\'s writes, as node:http', { skip, timeout: 20000 }, async (t) => {
  const results = [];
  for (const [, create] of FACES) {
    const log = [];
    const handler = async (req, res) => {
      res.cork();
      log.push(res.write('1'.repeat(10)), res.write('2'.repeat(1000)), res.writableNeedDrain);
      const drained = new Promise((resolve) => {
        const timer = setTimeout(resolve, 500, 'no drain');
        res.once('drain', () => resolve(clearTimeout(timer) || 'drain'));
      });
      res.uncork();
      log.push(await drained, res.writableNeedDrain);
      res.end();
    };
    const r = await withServer(create, {}, handler, async (port, server) => {
      server.on('connection', (socket) => {
        socket._writableState.highWaterMark = 1000;
      });
      return exchange(port, [withClose(GET)], { end: false });
    });
    results.push({ text: normalize(r.text), log });
  }
  // (node:http on 20 and 22 sends each corked write as a chunk of its own,
  // and on 22 says no 'drain' after the uncork; this server does as 24's
  // and 26's on every line: docs/server.md.)
  if (!results[0].text.includes('\r\n3f2\r\n')) return t.skip('this line\'s node:http sends corked writes apart');
  assert.deepStrictEqual(results[1], results[0]);
  assert.deepStrictEqual(results[0].log, [true, false, true, 'drain', false]);
});

test('an upgraded socket has no listeners of the server\'s, no parser, and ends answers after it, as node:http', { skip }, async () => {
  const chunk = 'X'.repeat(1024);
  const results = [];
  for (const [, create] of FACES) {
    const log = [];
    let first = null;
    let second = null;
    const server = create((req, res) => {
      if (first === null) first = res;
      else if (second === null) {
        second = res;
        res.write(chunk);
      }
    });
    server.on('upgrade', (req, socket) => {
      // (node:http's socket has the 'close' listener of the response under
      // way, if any.)
      log.push(['drain', 'data', 'end', 'error', 'timeout'].map((e) => socket.listenerCount(e)), socket.parser);
      socket.on('error', (err) => log.push(err.code));
      second.end(chunk, () => socket.end());
      first.end('hello');
    });
    await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
    const client = net.connect(server.address().port, '127.0.0.1');
    client.write('GET / HTTP/1.1\r\nHost: a\r\n\r\nGET / HTTP/1.1\r\nHost: a\r\n\r\n');
    await new Promise((resolve) => setTimeout(resolve, 50));
    client.write('GET / HTTP/1.1\r\n\r\nGET / HTTP/1.1\r\nConnection: upgrade\r\nUpgrade: ws\r\n\r\naaa');
    let text = '';
    client.on('data', (d) => { text += d; });
    await once(client, 'close');
    server.close();
    log.push(normalize(text).replace(/X{1024}/g, '<chunk>'));
    results.push(log);
  }
  assert.deepStrictEqual(results[1], results[0]);
  assert.deepStrictEqual(results[0].slice(0, 2), [[0, 0, 1, 0, 0], null]);
  // With no answer under way, not even a 'close' listener.
  const counts = [];
  for (const [, create] of FACES) {
    const server = create(() => {});
    server.on('connect', (req, socket) => {
      counts.push(['close', 'drain', 'data', 'end', 'error', 'timeout'].map((e) => socket.listenerCount(e)));
      socket.destroy();
    });
    await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
    const client = net.connect(server.address().port, '127.0.0.1');
    client.on('error', () => {});
    client.write('CONNECT a:1 HTTP/1.1\r\nHost: a:1\r\n\r\n');
    await once(client, 'close');
    await once(server.close(), 'close');
  }
  assert.deepStrictEqual(counts, [[0, 0, 0, 1, 0, 0], [0, 0, 0, 1, 0, 0]]);
});

// (node:http corks the socket for a response's first write until the next
// tick on some lines, and the last answer of a closing server is written
// so, as in Node's test-http-byteswritten: what it wrote counts at once
// all the same.)
test('bytesWritten counts what a response wrote, while its socket is corked too, as node:http\'s socket', { skip }, async () => {
  const logs = [];
  for (const [, create] of FACES) {
    const log = [];
    const server = create((req, res) => {
      const socket = req.socket;
      server.close();
      res.writeHead(200, { 'Content-Type': 'text/plain' });
      res.write('7'.repeat(1024));
      res.write(Buffer.from('é'));
      res.write('é');
      log.push(socket.bytesWritten);
      res.end('done', () => log.push(socket.bytesWritten));
    });
    await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { text } = await exchange(server.address().port, [GET], { end: false });
    logs.push({ log, text: normalize(text) });
  }
  assert.deepStrictEqual(logs[1], logs[0]);
  assert.strictEqual(logs[0].log.length, 2);
});
