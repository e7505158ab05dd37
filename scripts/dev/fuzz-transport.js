'use strict';
// Fuzzes llhttp-napi/server's native transport (issue 46) from outside, as a
// client would: a seeded random raw TCP client against the same handlers
// served by node:http and by llhttp-napi/server on the native transport,
// side by side in one child process.
//
//   node scripts/dev/fuzz-transport.js [--seconds=S] [--seed=N] [--case=I]
//        [--repeat=N] [--sides=http,native[,net]] [--concurrency=C] [--verbose]
//
// (--repeat: a --case run N times at once, for load; --sides=...,net adds
// llhttp-napi/server on node:net: a difference both transports show is the
// connection loop's. The generator steers clear of the differences known
// and open, listed over UPGRADE_BODY_IN_HEAD below.)
//
// Each round (seed N, N+1, ...) makes exchanges from the generator below:
// valid and malformed requests (methods, versions, headers, sized and
// chunked bodies with odd sizes and extensions, Expect: 100-continue,
// upgrades, bad bytes, oversize heads), one after another on a connection,
// cut at random byte positions with random delays between the pieces.
// - "compare" exchanges run the same pieces against every side with no
//   reset and no stall, wait until nothing more comes, half-close, and wait
//   for the server to close: every side must answer node:http's bytes (the
//   Date header's value aside) and close alike. A difference is run again
//   up to four times, the sides at once and one after the other in turn
//   (at once, one server's work on the shared loop can hold the other's
//   reads back the same way each time); one that does not come back is
//   counted as timing (reads coalesced otherwise) and not failed, as is an
//   answer that is the start of the other's when both servers closed (a
//   reset lost the tail).
// - "chaos" exchanges add resets (resetAndDestroy()), half-closes at random
//   points, stalls (the client stops reading while a large answer is
//   written, so that backpressure builds), and bursts of connections that
//   send part of a head and go; their answers are not compared.
// After each round every connection of every server must close (the
// servers' own counts and their connection sets back to empty, the child's
// open descriptors back to what they were; an idle connection goes after
// the servers' timeout, as node:http keeps one whose client went while it
// was not reading until then), every server must still answer,
// and the child's heap after a full GC must stay within a bound. The child
// crashing or a round not finishing (a watchdog) fails the run too.
// A failure prints `--seed=N` (and `--case=I` for a compare exchange), which
// replays the round (or that exchange alone); the bytes are the same, the
// timing is not. `--seconds=S` bounds the run (default 60).
// Under AddressSanitizer: LLHTTP_NAPI_ADDON and LD_PRELOAD as
// scripts/dev/test-asan.js sets them reach the child (docs/testing.md).
// Exit status 1 at the first failure.
const fs = require('node:fs');
const net = require('node:net');
const path = require('node:path');
const { fork } = require('node:child_process');
const { once } = require('node:events');
const { Rng, hash32 } = require('../../test/support/generate');

const ROOT = path.resolve(__dirname, '..', '..');
const BIG = 256 * 1024;                  // the size of /big's answer
const IDLE_MS = 400;                     // a compare exchange's quiet time before it half-closes
const CLOSE_WAIT_MS = 3000;              // how long a server may take to close after the client's FIN
const DRAIN_WAIT_MS = 10000;             // how long every connection may take to close after a round
const ROUND_LIMIT_MS = 60000;            // the watchdog: a round that takes longer hangs
const IDLE_TIMEOUT_MS = 3000;            // the servers' timeout
const HEAP_GROWTH_LIMIT = 64 * 1024 * 1024;

// ---- the servers (child process) -------------------------------------------

// The handlers, chosen by the URL; the same for every side.
function handle(req, res) {
  const url = req.url;
  if (url.includes('/early')) {
    res.setHeader('Content-Type', 'text/plain');
    res.end('early');
  } else if (url.includes('/slow')) {
    res.writeHead(200, { 'Content-Type': 'text/plain' });
    let left = 3;
    const step = () => {
      if (res.destroyed) return;
      if (--left === 0) res.end('last');
      else {
        res.write(`piece ${left}\n`);
        setTimeout(step, 2);
      }
    };
    setTimeout(step, 2);
  } else if (url.includes('/big')) {
    writeBig(req, res, url.includes('sized'));
  } else if (url.includes('/head')) {
    res.statusMessage = 'Fine';
    res.setHeader('X-Multi', ['a', 'b']);
    res.setHeader('Set-Cookie', ['a=1', 'b=2']);
    // (Trailers only where node:http takes them: a chunked answer.)
    const trailers = req.httpVersion === '1.1' && req.method !== 'HEAD';
    res.writeHead(200, trailers ? { 'Content-Type': 'text/plain', Trailer: 'X-T' } : { 'Content-Type': 'text/plain' });
    res.write('a');
    if (trailers) res.addTrailers({ 'X-T': '1' });
    res.end('b');
  } else if (url.includes('/status/')) {
    const code = Number(/\/status\/(\d+)/.exec(url)?.[1]);
    res.statusCode = [200, 201, 204, 205, 304, 400, 404, 500, 599].includes(code) ? code : 200;
    res.end('status');
  } else if (url.includes('/destroy')) {
    res.writeHead(200, { 'Content-Type': 'text/plain' });
    res.write('partial');
    setTimeout(() => res.destroy(), 5);
  } else if (url.includes('/close')) {
    res.setHeader('Connection', 'close');
    res.end('closing');
  } else {
    echo(req, res);
  }
}

// What the request was, with its body's length and checksum.
function echo(req, res) {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    const body = Buffer.concat(chunks);
    let sum = 0x811c9dc5;
    for (let i = 0; i < body.length; i++) sum = Math.imul(sum ^ body[i], 0x01000193) >>> 0;
    res.setHeader('Content-Type', 'application/json');
    res.end(JSON.stringify({ method: req.method, url: req.url, version: req.httpVersion, rawHeaders: req.rawHeaders,
      trailers: req.rawTrailers, length: body.length, sum }));
  });
}

// BIG bytes in pieces, each after the last drained.
function writeBig(req, res, sized) {
  if (sized) res.setHeader('Content-Length', BIG);
  const piece = Buffer.alloc(16384, 'x');
  let left = BIG;
  const more = () => {
    while (left > 0 && !res.destroyed) {
      left -= piece.length;
      const ok = left === 0 ? (res.end(piece), true) : res.write(piece);
      if (!ok) return;
    }
  };
  res.on('drain', more);
  more();
}

// Expect: 100-continue: a URL with "reject" gets 417, the rest continue.
function onCheckContinue(req, res) {
  if (req.url.includes('reject')) {
    res.writeHead(417);
    res.end();
    return;
  }
  res.writeContinue();
  handle(req, res);
}

// An upgrade to /ws-echo is taken (101, then every byte back), any other
// refused with 403.
function onUpgrade(req, socket, head) {
  socket.on('error', () => {});
  if (typeof socket.setTimeout === 'function') socket.setTimeout(IDLE_TIMEOUT_MS, () => socket.destroy());
  if (!req.url.includes('/ws-echo')) {
    // (Read to the client's end, which closes the socket: a socket handed
    // over and never read stays open on node:http as well.)
    socket.end('HTTP/1.1 403 Forbidden\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
    socket.resume();
    return;
  }
  socket.write('HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nUpgrade: echo\r\n\r\n');
  if (head.length > 0) socket.write(head);
  socket.on('data', (d) => socket.write(d));
  socket.on('end', () => socket.end());
}

// A CONNECT is refused with 405. (Without a 'connect' listener the loop
// destroys the socket, as node:http does, after taking its 'error'
// listener off: a write of the request before it that failed at once, the
// client gone, then ends the process with an unhandled 'error'; node:http
// takes its listener off and destroys the same way. Open, docs/server.md.)
function onConnect(req, socket) {
  socket.on('error', () => {});
  if (typeof socket.setTimeout === 'function') socket.setTimeout(IDLE_TIMEOUT_MS, () => socket.destroy());
  socket.end('HTTP/1.1 405 Method Not Allowed\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
  socket.resume();
}

function serverMain() {
  const http = require('node:http');
  const ours = require(path.join(ROOT, 'lib', 'server'));
  const makers = {
    http: () => http.createServer(handle),
    native: () => ours.createServer({ transport: 'native' }, handle),
    net: () => ours.createServer({ transport: 'net' }, handle),
  };
  const sides = process.env.FUZZ_TRANSPORT_SIDES.split(',');
  const servers = {};
  const open = {};
  let listening = 0;
  const ports = {};
  for (const side of sides) {
    const server = makers[side]();
    // (An idle connection goes after IDLE_TIMEOUT_MS: node:http keeps one
    // whose client went while it was not reading, until a timeout.)
    server.timeout = IDLE_TIMEOUT_MS;
    server.on('checkContinue', onCheckContinue);
    server.on('upgrade', onUpgrade);
    server.on('connect', onConnect);
    open[side] = new Set();
    server.on('connection', (socket) => {
      open[side].add(socket);
      socket.once('close', () => open[side].delete(socket));
    });
    servers[side] = server;
    server.listen(0, '127.0.0.1', () => {
      ports[side] = server.address().port;
      if (++listening === sides.length) process.send({ type: 'ports', ports, pid: process.pid });
    });
  }
  // The sizes of the Sets a server holds (its connections, the transport's
  // sockets): each must be back to 0 when every connection closed.
  const held = (server) => {
    const sizes = {};
    for (const key of Object.getOwnPropertySymbols(server)) {
      const value = server[key];
      if (value instanceof Set) sizes[key.description] = value.size;
      else if (value && value.sockets instanceof Set) sizes[`${key.description} sockets`] = value.sockets.size;
    }
    return sizes;
  };
  process.on('message', (message) => {
    if (message.type === 'exit') process.exit(0);
    if (message.type !== 'stats') return;
    if (message.gc) {
      globalThis.gc();
      globalThis.gc();
    }
    const memory = process.memoryUsage();
    // (What each connection still open is doing, for the report.)
    const describe = (socket) => ({ read: socket.bytesRead, written: socket.bytesWritten, destroyed: socket.destroyed,
      readable: socket.readable, writable: socket.writable, paused: socket.isPaused(), writableLength: socket.writableLength,
      request: socket.parser?.incoming ? `${socket.parser.incoming.method} ${socket.parser.incoming.url}` : null });
    process.send({ type: 'stats', id: message.id,
      open: Object.fromEntries(sides.map((side) => [side, open[side].size])),
      sockets: Object.fromEntries(sides.map((side) => [side, [...open[side]].slice(0, 5).map(describe)])),
      held: Object.fromEntries(sides.map((side) => [side, held(servers[side])])),
      fds: fs.readdirSync('/proc/self/fd').length, heapUsed: memory.heapUsed, rss: memory.rss });
  });
}

// ---- the generator -----------------------------------------------------------

const ROUTES = ['/echo', '/echo', '/echo', '/early', '/slow', '/big', '/big?sized', '/head', '/status/204',
  '/status/304', '/status/599', '/status/205', '/destroy', '/close', '/continue', '/continue?reject',
  '/ws-echo', '/ws-refuse'];
const METHODS = ['GET', 'GET', 'GET', 'POST', 'POST', 'PUT', 'HEAD', 'DELETE', 'OPTIONS', 'PATCH', 'CONNECT',
  'TRACE', 'PROPFIND', 'get', 'G(T', 'GET\x00'];
const VERSIONS = ['HTTP/1.1', 'HTTP/1.1', 'HTTP/1.1', 'HTTP/1.1', 'HTTP/1.0', 'HTTP/1.2', 'HTTP/2.0', 'HTTP/0.9',
  'http/1.1', 'HTTP/1.1 ', 'HTTP/11'];
// Two differences of the connection loop (not of the transport) that the
// generator steers clear of, open (docs/server.md, "The native transport"):
// before Node 25, node:http upgrades at the end of the head, and the body of
// an upgrade request comes in the upgrade's `head`, where
// llhttp-napi/server reads the body first on every line, as Node 25 on
// does: upgrade requests have no body there. From 25, node:http emits
// 'upgrade' at the head and the body follows, where llhttp-napi/server
// emits it once the body is read: a body larger than the request's buffer
// that nobody reads stops the connection's reads for good, and a bad body
// is an error before the upgrade rather than after. Upgrade requests have
// small sized bodies there, well formed.
// A third: a response destroyed before its turn (a pipelined request's)
// destroys the connection at once, where node:http destroys it when that
// response's turn comes (20, 22) or writes what the response wrote and
// keeps the connection (24 on): /destroy is only a connection's first
// request. A fourth, on every line: a pipelined request's 100 Continue,
// sent before its turn, goes after its answer's head on node:http when the
// answer's first write is a Buffer (the head is put before what the answer
// queued), and before the head here: Expect is only a connection's first
// request's. And one of timing: an upgrade or a CONNECT pipelined behind
// answers not all written yet; node:http gives the listener the socket at
// once, and its bytes land before, between or inside those answers as
// their writes go, where the native transport hands the connection over
// once what was written is out: an upgrade or a CONNECT is only a
// connection's first request.
const UPGRADE_BODY_IN_HEAD = Number(process.versions.node.split('.')[0]) < 25;
const UPGRADE_BODY_LIMIT = 1000;
const ODD_BYTES = ['\x00', '\x7f', '\x80', '\xff', '\x01', '\t', '\r', '\n', ' ', '"', ':', ';'];

function odd(r, s) {
  const at = r.int(s.length + 1);
  return s.slice(0, at) + r.pick(ODD_BYTES) + s.slice(at);
}

function eol(r, bad) {
  return bad && r.chance(0.1) ? r.pick(['\n', '\r', '\r\r\n']) : '\r\n';
}

function word(r, n) {
  let s = '';
  for (let i = 0; i < n; i++) s += 'abcdefghijklmnopqrstuvwxyz0123456789'[r.int(36)];
  return s;
}

function bodyBytes(r, n) {
  let s = '';
  for (let i = 0; i < n; i++) s += String.fromCharCode(r.chance(0.9) ? 97 + r.int(26) : r.int(256));
  return s;
}

// A chunked body: sizes in hex of either case with leading zeros,
// extensions, a last chunk with or without trailers; when bad, a defect.
function chunked(r, bad) {
  let s = '';
  const chunks = r.int(4);
  for (let i = 0; i < chunks; i++) {
    const n = r.pick([1, 2, 7, 15, 16, 255, 1000, 4097, r.range(1, 70000)]);
    let size = n.toString(16);
    if (r.chance(0.2)) size = size.toUpperCase();
    if (r.chance(0.1)) size = '00' + size;
    let ext = '';
    if (r.chance(0.2)) ext = r.pick([';a=b', ';a', ';a="q;x"', ' ;a=b', ';a=b;c=d', ';=', ';a=\x01']);
    let data = bodyBytes(r, n);
    if (bad && r.chance(0.1)) data = data.slice(0, Math.max(0, n - 1));
    s += `${size}${ext}${eol(r, bad)}${data}${eol(r, bad)}`;
  }
  if (bad && r.chance(0.1)) s += r.pick(['ffffffffffffffffff\r\n', '-1\r\n', 'zz\r\n', '\r\n']);
  s += `0${r.chance(0.1) ? ';last' : ''}\r\n`;
  if (r.chance(0.2)) s += `X-Trailer: ${word(r, 4)}\r\n`;
  if (bad && r.chance(0.1)) s += 'Content-Length: 5\r\n';
  return s + eol(r, bad);
}

// One request, valid unless bad (then with one defect or more somewhere).
function request(r, bad, before) {
  let method = r.pick(METHODS.slice(0, bad ? METHODS.length : 13));
  let route = r.pick(ROUTES);
  if (before !== '' && (route === '/destroy' || route.startsWith('/ws'))) route = '/echo';
  if (before !== '' && method === 'CONNECT') method = 'GET';
  let target = route;
  if (method === 'CONNECT') target = r.chance(0.7) ? 'example.com:443' : route;
  else if (r.chance(0.05)) target = r.pick(['*', 'http://x.example/echo?abs', '/echo%zz', '/echo?q=%00']);
  let version = bad ? r.pick(VERSIONS) : r.pick(VERSIONS.slice(0, 5));
  if (bad && r.chance(0.1)) target = odd(r, target);
  if (bad && r.chance(0.05)) method = odd(r, method);
  const headers = [];
  if (!version.endsWith('1.0') || r.chance(0.5)) headers.push(['Host', r.chance(0.9) ? 'x.example' : '']);
  if (r.chance(0.3)) headers.push(['User-Agent', `fuzz/${word(r, 3)}`]);
  for (let i = r.int(4); i > 0; i--) headers.push([`X-${word(r, r.range(1, 8))}`, word(r, r.range(0, 30))]);
  if (r.chance(0.15)) headers.push(['Connection', r.pick(['close', 'keep-alive', 'Close', 'keep-alive, close'])]);
  const upgrading = route.startsWith('/ws') || (before === '' && r.chance(0.03));
  if (upgrading) {
    headers.push(['Connection', 'Upgrade']);
    headers.push(['Upgrade', r.pick(['echo', 'websocket', 'h2c'])]);
  }
  if (before === '' && (route.startsWith('/continue') || r.chance(0.03))) headers.push(['Expect', r.chance(0.9) ? '100-continue' : 'something']);
  let body = '';
  const framing = upgrading ? r.pick(['none', 'length']) : r.pick(['none', 'none', 'length', 'length', 'chunked']);
  const takesBody = (method !== 'GET' && method !== 'HEAD' || r.chance(0.2)) && !(upgrading && UPGRADE_BODY_IN_HEAD);
  if (takesBody && framing === 'length') {
    const n = upgrading ? r.pick([0, 1, 5, 100, UPGRADE_BODY_LIMIT]) : r.pick([0, 1, 5, 100, 4096, r.range(0, 100000)]);
    body = bodyBytes(r, n);
    let declared = String(n);
    if (bad && !upgrading && r.chance(0.3)) {
      declared = r.pick([String(n + 1), String(Math.max(0, n - 1)), `${n}, ${n}`, `${n}, ${n + 1}`, '-1', '1e3',
        `+${n}`, ` ${n} `, '99999999999999999999', `0x${n.toString(16)}`]);
    }
    headers.push(['Content-Length', declared]);
    if (bad && !upgrading && r.chance(0.1)) headers.push(['Content-Length', String(n)]);
  } else if (takesBody && framing === 'chunked') {
    headers.push(['Transfer-Encoding', bad && r.chance(0.3) ?
      r.pick(['Chunked', 'gzip, chunked', 'chunked, gzip', 'chunked, chunked', 'identity', ' chunked', 'chunked\x00']) :
      'chunked']);
    if (bad && r.chance(0.1)) headers.push(['Content-Length', '3']);
    body = chunked(r, bad);
  }
  if (bad) {
    for (let i = r.range(1, 2); i > 0; i--) {
      const defect = r.int(8);
      if (defect === 0) headers.push([`X-${word(r, 2)}`, odd(r, word(r, 6))]);
      else if (defect === 1) headers.push([odd(r, `X-${word(r, 4)}`), 'v']);
      else if (defect === 2) headers.push(['X-Fold', `a\r\n ${word(r, 3)}`]);
      else if (defect === 3) headers.push(['X-Long', 'y'.repeat(r.pick([8000, 16384, 20000, 70000]))]);
      else if (defect === 4) headers.push(['', 'empty name']);
      else if (defect === 5) headers.push(['X-Space ', 'before colon']);
      else if (defect === 6) for (let k = r.range(100, 3000); k > 0; k--) headers.push([`X-${k}`, 'v']);
      else headers.push(['Host', 'second.example']);
    }
  }
  let head = `${method} ${target} ${version}${eol(r, bad)}`;
  for (const [name, value] of headers) head += `${name}${name.endsWith(' ') ? '' : ':'} ${value}${eol(r, bad)}`;
  head += eol(r, bad);
  if (bad && r.chance(0.05)) head = r.pick(['\r\n', '\x16\x03\x01\x02\x00\x01\x00', 'PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n']) + head;
  return head + body;
}

// An exchange: requests on one connection, cut into pieces with delays; in
// chaos, what the client does to the connection besides.
function exchangeScript(seed, chaos) {
  const r = new Rng(seed);
  const bad = r.chance(0.35);
  let bytes = '';
  for (let i = r.range(1, r.chance(0.3) ? 6 : 2); i > 0; i--) bytes += request(r, bad && r.chance(0.6), bytes);
  const buffer = Buffer.from(bytes, 'latin1');
  const cuts = new Set();
  const nCuts = r.pick([0, 1, 2, 3, 8, r.range(0, 40)]);
  for (let i = 0; i < nCuts; i++) cuts.add(r.range(1, Math.max(1, buffer.length - 1)));
  const at = [0, ...[...cuts].sort((a, b) => a - b), buffer.length];
  const pieces = [];
  for (let i = 1; i < at.length; i++) {
    if (at[i] > at[i - 1]) pieces.push({ bytes: buffer.subarray(at[i - 1], at[i]), delay: r.pick([0, 0, 0, 1, 3, 10]) });
  }
  const script = { seed, pieces, chaos };
  if (chaos) {
    const last = pieces.length;
    script.resetAt = r.chance(0.3) ? r.int(last + 1) : -1;            // resetAndDestroy() before piece i
    script.endAt = r.chance(0.3) ? r.int(last + 1) : -1;              // end() before piece i
    script.stallMs = r.chance(0.3) ? r.pick([50, 300, 1500, -1]) : 0;  // not reading (-1: never again)
    script.lingerMs = r.pick([0, 10, 100, 500]);                      // reading before destroy()
    script.finalReset = r.chance(0.3);
  }
  return script;
}

// ---- the client --------------------------------------------------------------

const delay = (ms) => new Promise((resolve) => (ms > 0 ? setTimeout(resolve, ms) : setImmediate(resolve)));

// Runs a script against one port: { text, reset, closed } (closed: 'server'
// before our FIN, 'after-end' after it, 'never').
function runExchange(port, script) {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    const chunks = [];
    let reset = false;
    let closedBy = null;
    let idleTimer = null;
    let finished = false;
    let onQuiet = null;
    let ended = false;
    const finish = (closed) => {
      if (finished) return;
      finished = true;
      clearTimeout(idleTimer);
      socket.destroy();
      resolve({ text: Buffer.concat(chunks).toString('latin1'), reset, closed });
    };
    const quiet = () => {
      clearTimeout(idleTimer);
      idleTimer = setTimeout(() => onQuiet && onQuiet(), IDLE_MS);
    };
    socket.on('data', (d) => {
      chunks.push(d);
      quiet();
    });
    socket.on('error', (err) => {
      if (err.code === 'ECONNRESET' || err.code === 'EPIPE') reset = true;
      else closedBy = `error ${err.code}`;
    });
    socket.on('close', () => finish(closedBy || (ended ? 'after-end' : 'server')));
    socket.on('connect', async () => {
      if (script.chaos && script.stallMs !== 0) {
        socket.pause();
        if (script.stallMs > 0) setTimeout(() => socket.resume(), script.stallMs);
      }
      for (let i = 0; i < script.pieces.length; i++) {
        if (socket.destroyed) return;
        if (script.chaos && script.resetAt === i) return finish('reset', socket.resetAndDestroy());
        if (script.chaos && script.endAt === i) break;
        socket.write(script.pieces[i].bytes);
        await delay(script.pieces[i].delay);
      }
      if (socket.destroyed) return;
      if (script.chaos) {
        if (script.resetAt === script.pieces.length) return finish('reset', socket.resetAndDestroy());
        if (script.endAt !== -1) socket.end();
        await delay(script.lingerMs);
        if (script.finalReset && !socket.destroyed) socket.resetAndDestroy();
        return finish('client');
      }
      // Compare: half-close once nothing came for IDLE_MS, then wait for the
      // server to close.
      onQuiet = () => {
        onQuiet = null;
        ended = true;
        socket.end();
        idleTimer = setTimeout(() => finish('never'), CLOSE_WAIT_MS);
      };
      quiet();
    });
  });
}

// Many connections at once, each sending part of a request (or nothing)
// and going after a while, by reset or close.
async function burst(port, r, count) {
  const sockets = [];
  for (let i = 0; i < count; i++) {
    const socket = net.connect(port, '127.0.0.1');
    socket.on('error', () => {});
    const text = Buffer.from(request(r, r.chance(0.3), ''), 'latin1');
    const part = text.subarray(0, r.int(text.length + 1));
    const wait = r.pick([0, 5, 50, 200]);
    const reset = r.chance(0.5);
    sockets.push(new Promise((resolve) => {
      socket.on('close', resolve);
      socket.on('connect', () => {
        if (part.length > 0) socket.write(part);
        setTimeout(() => (reset ? socket.resetAndDestroy() : socket.destroy()), wait);
      });
    }));
  }
  await Promise.all(sockets);
}

// ---- the run -----------------------------------------------------------------

function parseArgs(argv) {
  const o = { seconds: 60, seed: null, case: null, sides: ['http', 'native'], concurrency: 12, repeat: 1, verbose: false };
  for (const a of argv) {
    const [key, value] = a.split('=');
    if (key === '--seconds') o.seconds = Number(value);
    else if (key === '--seed') o.seed = Number(value) >>> 0;
    else if (key === '--case') o.case = Number(value);
    else if (key === '--sides') o.sides = value.split(',');
    else if (key === '--concurrency') o.concurrency = Number(value);
    else if (key === '--repeat') o.repeat = Number(value);
    else if (key === '--verbose') o.verbose = true;
    else throw new Error(`fuzz-transport: unknown argument ${a}`);
  }
  if (!o.sides.includes('http')) o.sides.unshift('http');
  return o;
}

class Failure extends Error {}

function printable(text, max = 600) {
  const s = JSON.stringify(text);
  return s.length > max ? `${s.slice(0, max)}... (${text.length} bytes)` : s;
}

// Where two answers part, with some context.
function firstDifference(a, b) {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return { at: i, expected: printable(a.slice(Math.max(0, i - 80), i + 200)), got: printable(b.slice(Math.max(0, i - 80), i + 200)) };
}

const normalize = (text) => text.replace(/\r\nDate: [^\r]*/g, '\r\nDate: -');

async function main() {
  const o = parseArgs(process.argv.slice(2));
  const seed = o.seed ?? (Math.random() * 0x7fffffff) >>> 0;
  console.log(`fuzz-transport: node ${process.version}, sides ${o.sides.join(', ')}, seed ${seed}, ` +
    `${o.case === null ? `${o.seconds} s` : `case ${o.case}`}` +
    (process.env.LLHTTP_NAPI_ADDON ? `, addon ${process.env.LLHTTP_NAPI_ADDON}` : ''));
  const child = fork(__filename, ['--serve'], {
    execArgv: ['--expose-gc'], stdio: ['ignore', 'inherit', 'pipe', 'ipc'],
    env: { ...process.env, FUZZ_TRANSPORT_SIDES: o.sides.join(',') },
  });
  child.on('error', () => {});            // (its end is reported at 'exit')
  let childErr = '';
  child.stderr.on('data', (d) => {
    childErr += d;
    if (childErr.length > 200000) childErr = childErr.slice(-100000);
  });
  let roundSeed = seed;
  let caseNo = null;
  let failed = false;
  const fail = (message) => {
    if (failed) return;
    failed = true;
    console.error(`\nfuzz-transport: FAIL at --seed=${roundSeed}${caseNo === null ? '' : ` --case=${caseNo}`}: ${message}`);
    if (childErr) console.error(`the servers' stderr:\n${childErr.slice(-8000)}`);
    console.error(`replay: node scripts/dev/fuzz-transport.js --seed=${roundSeed}` +
      `${caseNo === null ? '' : ` --case=${caseNo}`} --sides=${o.sides.join(',')}`);
    child.kill('SIGKILL');
    process.exit(1);
  };
  child.on('exit', (code, signal) => fail(`the servers' process ended (${signal || `exit ${code}`})`));
  const [{ ports }] = await once(child, 'message');
  let statsId = 0;
  const stats = (gc) => new Promise((resolve) => {
    const id = ++statsId;
    const timer = setTimeout(() => fail('the servers did not answer a stats request in 10 s (the loop hangs)'), 10000);
    const onMessage = (m) => {
      if (m.type !== 'stats' || m.id !== id) return;
      clearTimeout(timer);
      child.off('message', onMessage);
      resolve(m);
    };
    child.on('message', onMessage);
    child.send({ type: 'stats', id, gc });
  });

  // Every side runs the script; the compare ones must answer node:http's bytes.
  const totals = { compared: 0, skippedResets: 0, timing: 0, cutShort: 0, chaos: 0, bursts: 0, rounds: 0 };
  // (apart: one side after the other; why retries take turns: the header.)
  const compareOnce = async (script, apart) => {
    let results;
    if (!apart) {
      results = await Promise.all(o.sides.map((side) => runExchange(ports[side], script)));
    } else {
      results = [];
      for (const side of o.sides) results.push(await runExchange(ports[side], script));
    }
    return results.map((r) => ({ ...r, text: normalize(r.text) }));
  };
  // (One answer the start of the other, both closed by the server: a server
  // that closes while the client's bytes are unread resets the connection,
  // which loses what was on its way, node:http's as ours, with no error on
  // the client's side at times; timing, counted apart.)
  const cutShort = (a, b) => a.closed === 'server' && b.closed === 'server' && a.text.length !== b.text.length &&
    (a.text.length < b.text.length ? b.text.startsWith(a.text) : a.text.startsWith(b.text));
  const differs = (results) => {
    if (results.some((r) => r.reset)) return null;
    const [reference, ...rest] = results;
    for (let i = 0; i < rest.length; i++) {
      if (rest[i].text === reference.text && rest[i].closed === reference.closed) continue;
      if (cutShort(reference, rest[i])) {
        totals.cutShort++;
        continue;
      }
      return { side: o.sides[i + 1], index: i + 1 };
    }
    return false;
  };
  const compare = async (script, index) => {
    let results = await compareOnce(script);
    let difference = differs(results);
    if (difference === null) {
      totals.skippedResets++;
      return;
    }
    totals.compared++;
    if (difference === false) return;
    const first = { results, difference };
    for (let again = 0; again < 4 && difference; again++) {
      results = await compareOnce(script, again % 2 === 1);
      difference = differs(results);
    }
    if (!difference) {
      totals.timing++;
      if (o.verbose) console.log(`  timing-dependent difference at --seed=${script.round} --case=${index} (${first.difference.side})`);
      return;
    }
    caseNo = index;
    const reference = first.results[0];
    const other = first.results[first.difference.index];
    fail(`${first.difference.side} answered otherwise than node:http\n` +
      `  request bytes: ${printable(Buffer.concat(script.pieces.map((p) => p.bytes)).toString('latin1'), 2000)}\n` +
      `  cut into ${script.pieces.length} pieces\n` +
      `  node:http closed: ${reference.closed}, ${first.difference.side}: ${other.closed}; ` +
      `bytes ${reference.text.length} and ${other.text.length}\n` +
      `  first difference at byte ${firstDifference(reference.text, other.text).at}:\n` +
      `    node:http: ${firstDifference(reference.text, other.text).expected}\n` +
      `    ${first.difference.side}: ${firstDifference(reference.text, other.text).got}`);
  };
  const chaos = async (script) => {
    totals.chaos++;
    await Promise.all(o.sides.map((side) => runExchange(ports[side], script)));
  };

  // Each round: o.concurrency exchanges at a time, then the checks.
  const round = async (n) => {
    const r = new Rng(hash32(roundSeed, 0x5eed));
    const jobs = [];
    const count = o.case === null ? o.concurrency * 4 : 0;
    for (let i = 0; i < count; i++) jobs.push(i);
    if (o.case !== null) for (let i = 0; i < o.repeat; i++) jobs.push(o.case);
    let next = 0;
    const worker = async () => {
      while (next < jobs.length) {
        const index = jobs[next++];
        const isChaos = o.case === null && hash32(roundSeed, index) % 3 === 0;
        const script = exchangeScript(hash32(roundSeed, index + 1000), isChaos);
        script.round = roundSeed;
        if (isChaos) await chaos(script);
        else await compare(script, index);
      }
    };
    const workers = [];
    for (let i = 0; i < Math.min(o.concurrency, jobs.length); i++) workers.push(worker());
    if (o.case === null && r.chance(0.5)) {
      totals.bursts++;
      const size = r.pick([50, 200, 400]);
      workers.push(...o.sides.map((side) => burst(ports[side], new Rng(hash32(roundSeed, 0xb0057)), size)));
    }
    await Promise.all(workers);
    totals.rounds = n + 1;
  };

  // Every connection of every server closes; the servers still answer.
  let baseline = null;
  const settle = async () => {
    const deadline = Date.now() + DRAIN_WAIT_MS;
    let s;
    for (;;) {
      s = await stats(false);
      const busy = o.sides.filter((side) => s.open[side] !== 0 || Object.values(s.held[side]).some((n) => n !== 0));
      if (busy.length === 0 && (baseline === null || s.fds <= baseline.fds)) break;
      if (Date.now() > deadline) {
        fail(`connections left open ${DRAIN_WAIT_MS / 1000} s after every client went: ` +
          `open ${JSON.stringify(s.open)}, held ${JSON.stringify(s.held)}, descriptors ${s.fds}` +
          `\n  ${JSON.stringify(s.sockets)}` +
          (baseline ? ` (${baseline.fds} after the first round)` : ''));
      }
      await delay(50);
    }
    for (const side of o.sides) {
      const alive = await runExchange(ports[side], { pieces: [{ bytes: Buffer.from('GET /close HTTP/1.1\r\nHost: x\r\n\r\n'), delay: 0 }] });
      if (!alive.text.startsWith('HTTP/1.1 200 OK')) fail(`${side} no longer answers: ${printable(alive.text)}`);
    }
    s = await stats(true);
    if (baseline === null) baseline = s;
    else if (s.heapUsed - baseline.heapUsed > HEAP_GROWTH_LIMIT) {
      fail(`the servers' heap after a full GC grew from ${baseline.heapUsed} to ${s.heapUsed} bytes`);
    }
    return s;
  };

  const started = Date.now();
  const watchdog = setInterval(() => {
    if (Date.now() - roundStarted > ROUND_LIMIT_MS) fail(`a round did not finish in ${ROUND_LIMIT_MS / 1000} s (a hang)`);
  }, 1000);
  let roundStarted = Date.now();
  let last;
  for (let n = 0; ; n++) {
    roundStarted = Date.now();
    await round(n);
    last = await settle();
    if (o.verbose) {
      console.log(`round ${n} (--seed=${roundSeed}): heap ${(last.heapUsed / 1048576).toFixed(1)} MiB, ` +
        `rss ${(last.rss / 1048576).toFixed(1)} MiB, descriptors ${last.fds}`);
    }
    if (o.case !== null || Date.now() - started > o.seconds * 1000) break;
    roundSeed = (roundSeed + 1) >>> 0;
  }
  clearInterval(watchdog);
  child.removeAllListeners('exit');
  child.send({ type: 'exit' });
  console.log(`fuzz-transport: pass: ${totals.rounds} rounds from seed ${seed}, ${totals.compared} exchanges compared ` +
    `(${totals.timing} differed once with the timing only, ${totals.cutShort} cut short by a reset, ` +
    `${totals.skippedResets} not compared: a reset), ` +
    `${totals.chaos} with resets, half-closes and stalls, ${totals.bursts} bursts; ` +
    `the servers' heap ${(baseline.heapUsed / 1048576).toFixed(1)} -> ${(last.heapUsed / 1048576).toFixed(1)} MiB after GC, ` +
    `rss ${(last.rss / 1048576).toFixed(1)} MiB`);
  // (Done: exit now rather than at an empty loop. A CI run's client side,
  // which loads nothing of the addon, once spun in node's teardown after its
  // last exchanges, Environment::CleanupHandles at full CPU, until killed.)
  process.exit(0);
}

module.exports = { exchangeScript, runExchange, handle, onCheckContinue, onUpgrade, onConnect };

if (require.main !== module) return;
if (process.argv[2] === '--serve') serverMain();
else main().catch((err) => {
  console.error(err);
  process.exit(1);
});
