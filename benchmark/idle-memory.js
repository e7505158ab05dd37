'use strict';
// Memory per connection of a node:http server, with the built-in parser and
// with install(), each server in a fresh child process, the two in turn with
// the order alternating over rounds; the median of the rounds is reported.
// Two kinds of connection:
//
//   idle       (default; 4,000 connections) each sent one browser-like request
//              (corpus.js, all different), got the answer and stays open: a
//              keep-alive connection between requests;
//   --partial  (2,000 connections) each sent 8 KiB of a request head that does
//              not end (complete header lines, no blank line: a slowloris-style
//              client), which the server has read and holds.
//
// The figure is the server's RSS once every connection is there, above what
// the same server had with none, divided by the connections; V8's heap,
// external and ArrayBuffer memory beside it, and for ours the bytes the core
// says it holds (common.coreStats), per connection.
//
// --breakdown[=N1,N2] (default 200,1200): what one connection holds, by
// object: in a fresh server per parser, a heap snapshot (heap-objects.js) and
// the memory figures at N1 and at N2 connections of the mode, their
// difference divided by N2 - N1 (so that what the first connections create
// once, code and caches, cancels out).
//
//   node benchmark/idle-memory.js [--partial] [--connections=N] [--rounds=3] [--breakdown[=N1,N2]]
//        [--package=DIR] [--json=FILE]
//
// It measures the node binary that runs it:
//   $(node scripts/dev/test-lines.js --print 24) benchmark/idle-memory.js

const net = require('node:net');
const fs = require('node:fs');
const path = require('node:path');
const { fork } = require('node:child_process');
const common = require('./common');
const corpus = require('./corpus');
const stats = require('./stats');
const { heapObjects, difference } = require('./heap-objects');

const MEMORY_KEYS = ['rss', 'heapUsed', 'external', 'arrayBuffers'];
const PARTIAL_BYTES = 8192;

// ------------------------------------------------------------ the server ----

function server({ parser, pkg }) {
  const unavailable = common.useParser(parser, pkg);
  if (unavailable) {
    process.send({ type: 'unavailable', reason: unavailable });
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
  const sockets = new Set();
  srv.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  // The core's counters summed over the connections' parsers (ours only).
  const coreTotals = () => {
    let totals = null;
    for (const socket of sockets) {
      const s = common.coreStats(socket.parser, pkg);
      if (!s) continue;
      totals = totals || {};
      for (const [key, value] of Object.entries(s)) if (typeof value === 'number') totals[key] = (totals[key] || 0) + value;
    }
    return totals;
  };
  const state = async (snapshot) => {
    // Settle first: what is left after a full GC is what the connections hold.
    global.gc();
    global.gc();
    const m = process.memoryUsage();
    let bytesRead = 0;
    for (const socket of sockets) bytesRead += socket.bytesRead;
    return { memory: Object.fromEntries(MEMORY_KEYS.map((k) => [k, m[k]])), connections: sockets.size, bytesRead,
      core: coreTotals(), objects: snapshot ? await heapObjects() : null };
  };
  process.on('message', (msg) => {
    if (msg.type === 'measure') state(msg.snapshot).then((s) => process.send({ type: 'state', ...s }));
  });
  srv.listen(0, '127.0.0.1', () => state(false).then((s) => process.send({ type: 'listening', port: srv.address().port, ...s })));
}

// ------------------------------------------------------------ the client ----

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

function measure(child, snapshot = false) {
  const reply = message(child, 'state');
  child.send({ type: 'measure', snapshot });
  return reply;
}

// The browser-like GETs that keep the connection open.
function idleRequests() {
  return corpus.corpusBuffers('request', 1000, 1).filter((b) => {
    const head = b.toString('latin1');
    return head.startsWith('GET ') && !/\r\nconnection: *close/i.test(head) && head.endsWith('\r\n\r\n');
  });
}

// Heads of exactly PARTIAL_BYTES that do not end: a browser-like GET without
// its blank line, then header lines of random hex (all different).
function partialHeads(count) {
  const random = corpus.prng(0x51d);
  const hex = (n) => {
    let s = '';
    while (s.length < n) s += Math.floor(random() * 0x100000000).toString(16).padStart(8, '0');
    return s.slice(0, n);
  };
  const bases = idleRequests().map((b) => b.toString('latin1').slice(0, -2));
  const out = [];
  for (let i = 0; i < count; i++) {
    let head = bases[i % bases.length];
    for (let k = 0; PARTIAL_BYTES - head.length > 0; k++) {
      const left = PARTIAL_BYTES - head.length;
      const name = `X-Trace-${k}: `;
      // A full line of about 100 bytes, or the last one, exactly what is left.
      const value = left >= 220 ? 96 : left - name.length - 2;
      head += `${name}${hex(value)}\r\n`;
    }
    if (head.length !== PARTIAL_BYTES) throw new Error(`partial head of ${head.length} bytes`);
    out.push(Buffer.from(head, 'latin1'));
  }
  return out;
}

// Opens `count` connections, a few hundred at a time, as a busy site's
// clients would come, and on each sends what `mode` says: a request whose
// answer it waits for (idle), or a head that does not end (partial).
// Resolves to the sockets (left open).
function connectAll(port, mode, payloads, count, sockets = []) {
  const target = sockets.length + count;
  return new Promise((resolve, reject) => {
    let done = 0;
    const open = () => {
      if (sockets.length >= target) return;
      const socket = net.connect(port, '127.0.0.1');
      const payload = payloads[sockets.length % payloads.length];
      sockets.push(socket);
      socket.on('error', reject);
      const finished = () => {
        if (++done === count) resolve(sockets);
        else open();
      };
      if (mode === 'partial') {
        socket.write(payload, finished);
        return;
      }
      let got = '';
      socket.on('data', (d) => {
        got += d.toString('latin1');
        if (got.includes('\r\n\r\nok ')) {
          socket.removeAllListeners('data');
          finished();
        }
      });
      socket.write(payload);
    };
    for (let i = 0; i < Math.min(200, count); i++) open();
  });
}

// Waits until the server has read every byte sent (a partial head has no
// answer to wait for), then until the connections are idle.
async function settle(child, mode, expectBytes) {
  if (mode === 'partial') {
    for (let i = 0; i < 100; i++) {
      const s = await measure(child);
      if (s.bytesRead >= expectBytes) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  await new Promise((resolve) => setTimeout(resolve, 300));
}

// Runs use(child, listening) with a fresh server of `parser`, then ends it.
async function withServer(parser, pkg, use) {
  const child = fork(__filename, ['--child', parser, pkg], { execArgv: ['--expose-gc'], stdio: 'inherit' });
  try {
    const listening = await message(child, 'listening');
    if (listening.type === 'unavailable') throw new Error(`napi unavailable: ${listening.reason}`);
    return await use(child, listening);
  } finally {
    child.kill();
  }
}

// (b - a) / n for the memory figures and the core's counters.
function perConnection(a, b, n) {
  const out = {};
  for (const key of MEMORY_KEYS) out[key] = (b.memory[key] - a.memory[key]) / n;
  if (b.core) {
    out.core = {};
    for (const key of Object.keys(b.core)) out.core[key] = (b.core[key] - ((a.core && a.core[key]) || 0)) / n;
  }
  return out;
}

// What the server has read once n connections sent their partial heads.
const bytesOf = (mode, n) => (mode === 'partial' ? n * PARTIAL_BYTES : 0);

function measureOne(parser, { mode, connections, pkg, payloads }) {
  return withServer(parser, pkg, async (child, listening) => {
    const sockets = await connectAll(listening.port, mode, payloads, connections);
    await settle(child, mode, bytesOf(mode, connections));
    const full = await measure(child);
    for (const s of sockets) s.destroy();
    if (full.connections !== connections) throw new Error(`${full.connections} of ${connections} connections open`);
    return perConnection(listening, full, connections);
  });
}

// What one connection holds, by kind of object, between n1 and n2 connections.
function breakdownOne(parser, { mode, n1, n2, pkg, payloads }) {
  return withServer(parser, pkg, async (child, listening) => {
    const sockets = await connectAll(listening.port, mode, payloads, n1);
    await settle(child, mode, bytesOf(mode, n1));
    const a = await measure(child, true);
    await connectAll(listening.port, mode, payloads, n2 - n1, sockets);
    await settle(child, mode, bytesOf(mode, n2));
    const b = await measure(child, true);
    for (const s of sockets) s.destroy();
    return { ...perConnection(a, b, n2 - n1), objects: difference(a.objects, b.objects, n2 - n1) };
  });
}

// ------------------------------------------------------------- reports -----

const MODE_TEXT = {
  idle: 'idle keep-alive connections after one browser-like request each',
  partial: `connections holding ${PARTIAL_BYTES / 1024} KiB of an unfinished head each`,
};

function describeMedian(out) {
  const lines = [`node ${out.node}: ${out.connections} ${MODE_TEXT[out.mode]}; KB per connection above the idle ` +
    `server, median of ${out.rounds} rounds`, '             builtin     napi   ratio'];
  for (const key of MEMORY_KEYS) {
    const { builtin: b, napi: n } = out.median[key];
    // (No ratio to a built-in figure of about nothing.)
    const ratio = Math.abs(b) >= 0.1 ? (n / b).toFixed(3) : '—';
    lines.push(`${key.padEnd(12)} ${b.toFixed(1).padStart(8)} ${n.toFixed(1).padStart(8)}  ${ratio.padStart(6)}`);
  }
  lines.push(`rss ratio by round: ${out.ratios.map((r) => r.toFixed(3)).join(', ')}`);
  if (out.core) lines.push(`core (napi, coreStats per connection): ${coreText(out.core)}`);
  return lines.join('\n');
}

const coreText = (core) => Object.entries(core).map(([k, v]) => `${k} ${common.formatFixed(v, 1)}`).join(', ');

// The kinds that differ by at least 8 bytes per connection for either parser, largest first.
function describeBreakdown(bd) {
  const lines = [`per-object breakdown, ${MODE_TEXT[bd.mode]}: heap snapshots at ${bd.n1} and ${bd.n2} connections, ` +
    'difference per connection (count, bytes of the objects themselves)'];
  // (Not RSS: the first snapshot's own memory is in the second's.)
  lines.push(`  memoryUsage per connection (bytes, builtin / napi): ${MEMORY_KEYS.filter((k) => k !== 'rss').map((k) =>
    `${k} ${bd.builtin[k].toFixed(0)} / ${bd.napi[k].toFixed(0)}`).join(', ')}`);
  if (bd.napi.core) lines.push(`  core (napi, coreStats per connection): ${coreText(bd.napi.core)}`);
  const kinds = new Set([...Object.keys(bd.builtin.objects), ...Object.keys(bd.napi.objects)]);
  const zero = { count: 0, bytes: 0 };
  const rows = [...kinds].map((kind) => ({ kind, b: bd.builtin.objects[kind] || zero, n: bd.napi.objects[kind] || zero }))
    .filter((r) => Math.abs(r.b.bytes) >= 8 || Math.abs(r.n.bytes) >= 8)
    .sort((x, y) => Math.max(Math.abs(y.b.bytes), Math.abs(y.n.bytes)) - Math.max(Math.abs(x.b.bytes), Math.abs(x.n.bytes)));
  const total = (side) => Object.values(bd[side].objects).reduce((sum, o) => sum + o.bytes, 0);
  lines.push('   builtin: count  bytes    napi: count  bytes   kind');
  for (const r of rows) {
    lines.push(`   ${r.b.count.toFixed(2).padStart(14)} ${r.b.bytes.toFixed(0).padStart(6)}  ${r.n.count.toFixed(2).padStart(12)} ` +
      `${r.n.bytes.toFixed(0).padStart(6)}   ${r.kind}`);
  }
  lines.push(`   ${'all kinds'.padStart(14)} ${total('builtin').toFixed(0).padStart(6)}  ${''.padStart(12)} ${total('napi').toFixed(0).padStart(6)}`);
  return lines.join('\n');
}

// -------------------------------------------------------------- main -----

async function main() {
  const { options } = common.parseArgs();
  const mode = options.partial ? 'partial' : 'idle';
  const connections = Number(options.connections || (mode === 'partial' ? 2000 : 4000));
  const rounds = Number(options.rounds || 3);
  const pkg = path.resolve(options.package || common.ROOT);
  const payloads = mode === 'partial' ? partialHeads(1000) : idleRequests();
  const out = { node: process.version, mode, connections, rounds, results: { builtin: [], napi: [] }, median: {},
    ratios: [], core: null, breakdown: null };
  for (let r = 0; r < rounds; r++) {
    for (const parser of common.roundOrder(r)) {
      const m = await measureOne(parser, { mode, connections, pkg, payloads });
      out.results[parser].push(m);
      process.stderr.write(`idle-memory: ${mode} round ${r + 1}/${rounds} ${parser}: ${(m.rss / 1024).toFixed(1)} KB RSS per connection\n`);
    }
    out.ratios.push(out.results.napi[r].rss / out.results.builtin[r].rss);
  }
  for (const key of MEMORY_KEYS) {
    out.median[key] = Object.fromEntries(common.PARSERS.map((p) => [p, stats.median(out.results[p].map((m) => m[key])) / 1024]));
  }
  const cores = out.results.napi.map((m) => m.core).filter(Boolean);
  if (cores.length) out.core = Object.fromEntries(Object.keys(cores[0]).map((k) => [k, stats.median(cores.map((c) => c[k]))]));
  console.log(describeMedian(out));
  if (options.breakdown) {
    const [n1, n2] = options.breakdown === true ? [200, 1200] : String(options.breakdown).split(',').map(Number);
    out.breakdown = { mode, n1, n2 };
    for (const parser of common.PARSERS) {
      process.stderr.write(`idle-memory: ${mode} breakdown ${parser}: heap snapshots at ${n1} and ${n2} connections\n`);
      out.breakdown[parser] = await breakdownOne(parser, { mode, n1, n2, pkg, payloads });
    }
    console.log('');
    console.log(describeBreakdown(out.breakdown));
  }
  if (options.json) fs.writeFileSync(options.json, JSON.stringify(out, null, 2));
}

module.exports = { describeMedian, describeBreakdown };

if (require.main === module && process.argv[2] === '--child') {
  server({ parser: process.argv[3], pkg: process.argv[4] });
} else if (require.main === module) {
  main().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
