'use strict';
// examples/net-server.js: a server on node:net driving the parser in lazy
// mode, talked to with node:http requests and raw bytes over node:net.
const { test, before, after } = require('node:test');
const assert = require('node:assert/strict');
const http = require('node:http');
const net = require('node:net');
const { once } = require('node:events');
const { setTimeout: sleep } = require('node:timers/promises');

const createServer = require('../../examples/net-server.js');

// Each test gives up after this long rather than hang (a missing answer).
const LIMIT = { timeout: 5000 };

let server;
let port;
let host;
// The server side of every connection, for the backpressure test and cleanup.
const serverSockets = new Set();
let connectionCount = 0;

function track(srv) {
  srv.on('connection', (socket) => {
    connectionCount++;
    serverSockets.add(socket);
    socket.on('close', () => serverSockets.delete(socket));
  });
}

async function start(options) {
  const srv = createServer(options);
  track(srv);
  srv.listen(0, '127.0.0.1');
  await once(srv, 'listening');
  return srv;
}

before(async () => {
  server = await start({ keepAliveTimeout: 3000 });
  port = server.address().port;
  host = `127.0.0.1:${port}`;
});

after(async () => {
  for (const socket of serverSockets) socket.destroy();
  server.close();
  await once(server, 'close');
});

// The server's JSON answer.
function echo(method, url, hostHeader, userAgent, bodyLength) {
  return { method, url, host: hostHeader, userAgent, bodyLength };
}

// One request with node:http; resolves to { res, body, json, socket }.
function request(options, body) {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, ...options }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString();
        let json;
        try { json = JSON.parse(text); } catch { json = undefined; }
        resolve({ res, body: text, json, socket: res.socket, reused: req.reusedSocket });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    if (typeof body === 'function') body(req);
    else req.end(body);
  });
}

// Splits raw response bytes into [{ status, headers, body }]. `noBody` holds
// the indexes of responses to HEAD requests. Returns the responses complete
// so far; `responses.used` is the number of bytes they took.
function parseResponses(buf, noBody = new Set()) {
  const out = [];
  let at = 0;
  for (;;) {
    const end = buf.indexOf('\r\n\r\n', at);
    if (end < 0) break;
    const lines = buf.toString('latin1', at, end).split('\r\n');
    const headers = {};
    for (const line of lines.slice(1)) {
      const colon = line.indexOf(':');
      headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
    }
    const length = noBody.has(out.length) ? 0 : Number(headers['content-length'] ?? 0);
    if (end + 4 + length > buf.length) break;
    out.push({ status: lines[0], headers, body: buf.toString('utf8', end + 4, end + 4 + length) });
    at = end + 4 + length;
  }
  out.used = at;
  return out;
}

// Sends raw chunks (a pause between them) and collects the answer until the
// server closes, or until `count` responses arrived; reading starts after
// `readDelay` ms. Resolves to { responses, ended } where `ended` tells
// whether the server closed.
async function raw(chunks, options = {}) {
  const { count = Infinity, noBody, srvPort = port, endClient = false, readDelay = 0 } = options;
  const socket = net.connect(srvPort, '127.0.0.1');
  await once(socket, 'connect');
  if (readDelay > 0) {
    socket.pause();
    setTimeout(() => socket.resume(), readDelay);
  }
  const received = [];
  let ended = false;
  const done = new Promise((resolve, reject) => {
    const check = () => {
      const responses = parseResponses(Buffer.concat(received), noBody);
      if (ended || responses.length >= count) resolve(responses);
    };
    socket.on('data', (c) => { received.push(c); check(); });
    socket.on('end', () => { ended = true; check(); });
    socket.on('error', reject);
  });
  for (let i = 0; i < chunks.length; i++) {
    if (i > 0) await sleep(20);
    socket.write(chunks[i]);
  }
  if (endClient) socket.end();
  const responses = await done;
  socket.destroy();
  return { responses, ended };
}

test('keep-alive agent: sequential requests share one connection', LIMIT, async () => {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const before = connectionCount;
  let socket;
  for (let i = 0; i < 5; i++) {
    const r = await request({ path: `/seq/${i}?q=${i}`, agent, headers: { 'User-Agent': 'net-server-test/1' } });
    assert.equal(r.res.statusCode, 200);
    assert.equal(r.res.headers['content-type'], 'application/json');
    assert.equal(r.res.headers.connection, 'keep-alive');
    assert.deepEqual(r.json, echo('GET', `/seq/${i}?q=${i}`, host, 'net-server-test/1', 0));
    if (i === 0) socket = r.socket;
    else {
      assert.equal(r.reused, true);
      assert.equal(r.socket, socket);
    }
  }
  assert.equal(connectionCount - before, 1);
  agent.destroy();
});

test('request bodies: Content-Length, large, chunked, Expect: 100-continue', LIMIT, async () => {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  let r = await request({ method: 'POST', path: '/post', agent }, 'hello world');
  assert.deepEqual(r.json, echo('POST', '/post', host, null, 11));

  // 3 MB: many reads; the headers are still readable at message complete.
  const big = Buffer.alloc(3 * 1024 * 1024, 'b');
  r = await request({ method: 'PUT', path: '/big', agent, headers: { 'user-agent': 'big' } }, big);
  assert.deepEqual(r.json, echo('PUT', '/big', host, 'big', big.length));

  // No Content-Length: node:http sends it chunked.
  r = await request({ method: 'POST', path: '/chunked', agent }, async (req) => {
    for (const piece of ['abc', 'defg', 'h']) {
      req.write(piece);
      await sleep(10);
    }
    req.end();
  });
  assert.deepEqual(r.json, echo('POST', '/chunked', host, null, 8));

  let continued = false;
  r = await request({ method: 'POST', path: '/expect', agent, headers: { Expect: '100-continue' } }, (req) => {
    req.on('continue', () => {
      continued = true;
      req.end('after continue');
    });
  });
  assert.equal(continued, true);
  assert.equal(r.json.bodyLength, 14);
  agent.destroy();
});

test('pipelining: responses in request order', LIMIT, async () => {
  const { responses } = await raw([
    'GET /1 HTTP/1.1\r\nHost: one\r\n\r\n' +
    'POST /2 HTTP/1.1\r\nHost: two\r\nContent-Length: 5\r\n\r\nab',
    // The rest of /2's body, then more requests, one cut in the middle.
    'cde' +
    'HEAD /3 HTTP/1.1\r\nHost: three\r\n\r\n' +
    'GET /4 HTTP/1.1\r\nHo',
    'st: four\r\nUser-Agent: raw\r\n\r\n',
  ], { count: 4, noBody: new Set([2]) });
  assert.deepEqual(responses.map((r) => r.status), Array(4).fill('HTTP/1.1 200 OK'));
  assert.deepEqual(JSON.parse(responses[0].body), echo('GET', '/1', 'one', null, 0));
  assert.deepEqual(JSON.parse(responses[1].body), echo('POST', '/2', 'two', null, 5));
  assert.equal(responses[2].body, '', 'HEAD: no body');
  assert.ok(Number(responses[2].headers['content-length']) > 0);
  assert.deepEqual(JSON.parse(responses[3].body), echo('GET', '/4', 'four', 'raw', 0));

  // Many in one write.
  let batch = '';
  for (let i = 0; i < 300; i++) batch += `GET /p/${i} HTTP/1.1\r\nHost: h${i}\r\n\r\n`;
  const many = await raw([batch], { count: 300 });
  assert.deepEqual(many.responses.map((r) => JSON.parse(r.body)),
                   Array.from({ length: 300 }, (_, i) => echo('GET', `/p/${i}`, `h${i}`, null, 0)));
});

test('a malformed request: 400, Connection: close, and the server closes', LIMIT, async () => {
  // A valid request, then garbage: the first is answered, then the 400.
  let out = await raw(['GET /ok HTTP/1.1\r\nHost: x\r\n\r\nGARBAGE\r\n\r\nGET /never HTTP/1.1\r\n\r\n']);
  assert.equal(out.ended, true);
  assert.deepEqual(out.responses.map((r) => r.status), ['HTTP/1.1 200 OK', 'HTTP/1.1 400 Bad Request']);
  assert.equal(JSON.parse(out.responses[0].body).url, '/ok');
  assert.equal(out.responses[1].headers.connection, 'close');

  // A header line without a colon.
  out = await raw(['GET / HTTP/1.1\r\nHost: x\r\nno colon here\r\n\r\n']);
  assert.equal(out.ended, true);
  assert.deepEqual(out.responses.map((r) => r.status), ['HTTP/1.1 400 Bad Request']);

  // The client ends its side in the middle of a request.
  out = await raw(['POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\nabc'], { endClient: true });
  assert.equal(out.ended, true);
  assert.deepEqual(out.responses.map((r) => r.status), ['HTTP/1.1 400 Bad Request']);
});

test('a huge header: 431 and close', LIMIT, async () => {
  const r = await request({ path: '/huge', agent: false, headers: { 'X-Huge': 'h'.repeat(20 * 1024) } });
  assert.equal(r.res.statusCode, 431);
  assert.equal(r.res.headers.connection, 'close');

  // The client goes on sending and reads late: closing at once would leave
  // its data unread, the kernel would answer with a reset, and the reset can
  // discard the 431 before the client reads it. The server reads and drops
  // until the client is done.
  for (let i = 0; i < 3; i++) {
    const huge = `GET / HTTP/1.1\r\nX: ${'h'.repeat(20 * 1024)}\r\n\r\n${'x'.repeat(5e6)}`;
    const out = await raw([huge], { readDelay: 50 });
    assert.equal(out.ended, true);
    assert.deepEqual(out.responses.map((res) => res.status), ['HTTP/1.1 431 Request Header Fields Too Large']);
  }

  // options.maxHeaderSize
  const small = await start({ maxHeaderSize: 200 });
  try {
    const ok = await raw(['GET / HTTP/1.1\r\nHost: x\r\n\r\n'], { count: 1, srvPort: small.address().port });
    assert.equal(ok.responses[0].status, 'HTTP/1.1 200 OK');
    const out = await raw([`GET / HTTP/1.1\r\nHost: x\r\nX: ${'x'.repeat(300)}\r\n\r\n`], { srvPort: small.address().port });
    assert.equal(out.ended, true);
    assert.deepEqual(out.responses.map((r) => r.status), ['HTTP/1.1 431 Request Header Fields Too Large']);
  } finally {
    small.close();
  }
});

test('Connection: close and HTTP/1.0 close after the response, unless keep-alive', LIMIT, async () => {
  const r = await request({ path: '/close', agent: false, headers: { Connection: 'close' } });
  assert.equal(r.res.statusCode, 200);
  assert.equal(r.res.headers.connection, 'close');

  // The server closes (the client does not end its side), and ignores a
  // request sent after the one with Connection: close.
  let out = await raw(['GET /a HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\nGET /b HTTP/1.1\r\nHost: x\r\n\r\n']);
  assert.equal(out.ended, true);
  assert.deepEqual(out.responses.map((res) => JSON.parse(res.body).url), ['/a']);
  assert.equal(out.responses[0].headers.connection, 'close');

  out = await raw(['GET /10 HTTP/1.0\r\n\r\n']);
  assert.equal(out.ended, true);
  assert.equal(out.responses.length, 1);
  assert.equal(out.responses[0].headers.connection, 'close');

  // HTTP/1.0 with keep-alive: the connection stays open for a second request.
  out = await raw([
    'GET /k1 HTTP/1.0\r\nConnection: keep-alive\r\n\r\n',
    'GET /k2 HTTP/1.0\r\nConnection: keep-alive\r\n\r\n',
  ], { count: 2 });
  assert.equal(out.ended, false);
  assert.deepEqual(out.responses.map((res) => [JSON.parse(res.body).url, res.headers.connection]),
                   [['/k1', 'keep-alive'], ['/k2', 'keep-alive']]);
});

test('a client that ends its side; Upgrade and CONNECT are answered, then closed', LIMIT, async () => {
  // The client half-closes after a complete request: it still gets the answer.
  let out = await raw([Buffer.from('GET /half HTTP/1.1\r\nHost: caf\xe9\r\n\r\n', 'latin1')], { endClient: true });
  assert.equal(out.ended, true);
  assert.deepEqual(JSON.parse(out.responses[0].body), echo('GET', '/half', 'caf\u00e9', null, 0),
                   'header bytes read as Latin-1');

  // What follows an upgrade request is not HTTP: answer it, then close.
  out = await raw(['GET /ws HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n\x81\x05hello']);
  assert.equal(out.ended, true);
  assert.equal(out.responses.length, 1);
  assert.equal(out.responses[0].status, 'HTTP/1.1 200 OK');
  assert.equal(out.responses[0].headers.connection, 'close');

  out = await raw(['CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n\x16\x03\x01']);
  assert.equal(out.ended, true);
  assert.deepEqual(out.responses.map((r) => r.status), ['HTTP/1.1 501 Not Implemented']);
});

test('backpressure: a client that does not read stops the server reading', LIMIT, async () => {
  const client = net.connect(port, '127.0.0.1');
  client.pause();
  const [[serverSocket]] = await Promise.all([once(server, 'connection'), once(client, 'connect')]);
  // ~1 KiB requests with ~1 KiB answers, far more than the socket buffers hold.
  const n = 9000;
  const pad = 'p'.repeat(1000);
  const requests = [];
  for (let i = 0; i < n; i++) requests.push(`GET /bp/${i}/${pad} HTTP/1.1\r\nHost: x\r\n\r\n`);
  const input = Buffer.from(requests.join(''));
  const total = input.length;
  client.write(input);
  // Wait until the server stops reading.
  let last = -1;
  for (let stable = 0; stable < 4;) {
    await sleep(50);
    stable = serverSocket.bytesRead === last ? stable + 1 : 0;
    last = serverSocket.bytesRead;
  }
  assert.equal(serverSocket.isPaused(), true, 'the server paused reading');
  assert.ok(serverSocket.bytesRead < total, `read ${serverSocket.bytesRead} of ${total}`);
  // What is buffered on the server: its high-water mark plus at most the
  // answers to one read's requests.
  assert.ok(serverSocket.writableLength < 256 * 1024, `buffered ${serverSocket.writableLength}`);

  // Now read: every answer arrives, in order.
  let count = 0;
  let pending = Buffer.alloc(0);
  await new Promise((resolve, reject) => {
    client.on('data', function onData(chunk) {
      pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
      const responses = parseResponses(pending);
      try {
        for (const r of responses) {
          assert.equal(r.status, 'HTTP/1.1 200 OK');
          assert.equal(JSON.parse(r.body).url, `/bp/${count++}/${pad}`);
        }
      } catch (err) {
        reject(err);
      }
      pending = pending.subarray(responses.used);
      if (count === n) {
        client.off('data', onData);
        resolve();
      }
    });
    client.on('error', reject);
    client.resume();
  });
  assert.equal(count, n);
  assert.equal(pending.length, 0);
  client.destroy();
});
