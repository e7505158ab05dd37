'use strict';
// Memory per idle keep-alive connection: a node:http server with the
// built-in parser and one with install(), each in a fresh child process;
// N connections each send one browser-like request (corpus.js, all
// different), get the answer and stay open. The figure is the server's RSS
// (and V8's external + ArrayBuffer memory) once they are all idle, above what
// the same server had idle with no connection, divided by N. Both servers
// are measured in turn, the order alternating over rounds; the median of the
// rounds is reported.
//
//   node benchmark/idle-memory.js [--connections=4000] [--rounds=3] [--package=DIR] [--json=FILE]
//
// It measures the node binary that runs it:
//   $(node scripts/dev/test-lines.js --print 24) benchmark/idle-memory.js

const net = require('node:net');
const fs = require('node:fs');
const path = require('node:path');
const { fork } = require('node:child_process');
const corpus = require('./corpus');
const stats = require('./stats');

const ROOT = path.resolve(__dirname, '..');
const PARSERS = ['builtin', 'napi'];

function server({ parser, pkg }) {
  if (parser === 'napi' && require(pkg).install() === false) {
    process.send({ type: 'unavailable' });
    return;
  }
  const http = require('node:http');
  const srv = http.createServer((req, res) => {
    // What an application does with a request: read a few headers.
    const body = `ok ${req.url.length} ${(req.headers['user-agent'] || '').length}`;
    res.writeHead(200, { 'Content-Type': 'text/plain', 'Content-Length': body.length });
    res.end(body);
  });
  srv.keepAliveTimeout = 10 * 60 * 1000;
  const memory = () => {
    // Settle first: what is left after a full GC is what idle connections hold.
    global.gc();
    global.gc();
    const m = process.memoryUsage();
    return { rss: m.rss, external: m.external, arrayBuffers: m.arrayBuffers, heapUsed: m.heapUsed };
  };
  process.on('message', (msg) => {
    if (msg.type === 'measure') {
      srv.getConnections((err, count) => process.send({ type: 'memory', memory: memory(), connections: count }));
    }
  });
  srv.listen(0, '127.0.0.1', () => process.send({ type: 'listening', port: srv.address().port, memory: memory() }));
}

function message(child, type) {
  return new Promise((resolve, reject) => {
    const on = (msg) => {
      if (msg.type === type || msg.type === 'unavailable') {
        child.off('message', on);
        resolve(msg);
      }
    };
    child.on('message', on);
    child.once('exit', (code) => reject(new Error(`server exited (${code})`)));
  });
}

// Opens `count` connections, sends one request on each, waits for every
// answer; resolves to the sockets (left open).
function connectAll(port, requests, count) {
  return new Promise((resolve, reject) => {
    const sockets = [];
    let answered = 0;
    let next = 0;
    const open = () => {
      if (next >= count) return;
      const i = next++;
      const socket = net.connect(port, '127.0.0.1');
      sockets.push(socket);
      socket.on('error', reject);
      let got = '';
      socket.on('data', (d) => {
        got += d.toString('latin1');
        if (got.includes('\r\n\r\nok ')) {
          socket.removeAllListeners('data');
          if (++answered === count) resolve(sockets);
          else open();
        }
      });
      socket.write(requests[i % requests.length]);
    };
    // A few hundred at a time, as a busy site's clients would come.
    for (let i = 0; i < 200; i++) open();
  });
}

async function measureOne(parser, { connections, pkg, requests }) {
  const child = fork(__filename, ['--child', parser, pkg], { execArgv: ['--expose-gc'], stdio: 'inherit' });
  try {
    const listening = await message(child, 'listening');
    if (listening.type === 'unavailable') return null;
    const sockets = await connectAll(listening.port, requests, connections);
    await new Promise((resolve) => setTimeout(resolve, 300));
    child.send({ type: 'measure' });
    const idle = await message(child, 'memory');
    for (const s of sockets) s.destroy();
    if (idle.connections !== connections) throw new Error(`${idle.connections} of ${connections} connections open`);
    const per = (key) => (idle.memory[key] - listening.memory[key]) / connections;
    return { rss: per('rss'), external: per('external'), arrayBuffers: per('arrayBuffers'), heapUsed: per('heapUsed') };
  } finally {
    child.kill();
  }
}

async function main() {
  const args = Object.fromEntries(process.argv.slice(2).filter((a) => a.startsWith('--'))
    .map((a) => { const [k, v] = a.slice(2).split('='); return [k, v === undefined ? true : v]; }));
  const connections = Number(args.connections || 4000);
  const rounds = Number(args.rounds || 3);
  const pkg = path.resolve(args.package || ROOT);
  // (GETs that keep the connection open.)
  const requests = corpus.corpusBuffers('request', 1000, 1).filter((b) => {
    const head = b.toString('latin1');
    return head.startsWith('GET ') && !/\r\nconnection: *close/i.test(head) && head.endsWith('\r\n\r\n');
  });
  const results = { builtin: [], napi: [] };
  for (let r = 0; r < rounds; r++) {
    const order = r % 2 === 0 ? PARSERS : [...PARSERS].reverse();
    for (const parser of order) {
      const m = await measureOne(parser, { connections, pkg, requests });
      if (m === null) throw new Error('install() returned false: the addon does not load');
      results[parser].push(m);
      process.stderr.write(`idle-memory: round ${r + 1}/${rounds} ${parser}: ${(m.rss / 1024).toFixed(1)} KB RSS per connection\n`);
    }
  }
  const kb = (parser, key) => stats.median(results[parser].map((m) => m[key])) / 1024;
  const out = { node: process.version, connections, rounds, results, median: {} };
  console.log(`node ${process.version}: ${connections} idle keep-alive connections after one browser-like request each; ` +
    `KB per connection above the idle server, median of ${rounds} rounds`);
  console.log('             builtin     napi   ratio');
  for (const key of ['rss', 'heapUsed', 'external', 'arrayBuffers']) {
    const b = kb('builtin', key);
    const n = kb('napi', key);
    out.median[key] = { builtin: b, napi: n };
    console.log(`${key.padEnd(12)} ${b.toFixed(1).padStart(8)} ${n.toFixed(1).padStart(8)}  ${(n / b).toFixed(3).padStart(6)}`);
  }
  if (args.json) fs.writeFileSync(args.json, JSON.stringify(out, null, 2));
}

if (process.argv[2] === '--child') {
  server({ parser: process.argv[3], pkg: process.argv[4] });
} else {
  main().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
