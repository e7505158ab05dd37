'use strict';
// Memory per connection of a node:http server, with the built-in parser and
// with install(), each server a fresh child, the two in turn with the order
// alternating over rounds. Two kinds of connection:
//
//   idle       (default, 4,000) each sent one browser-like request (corpus.js,
//              all different), got its answer and stays open (keep-alive);
//   --partial  (2,000) each sent 8 KiB of a head that does not end (complete
//              header lines, no blank line: a slowloris-style client).
//
// The figure is the server's RSS once every connection is there, above the
// same server with none, per connection (counted in bytes, not timed), ours
// / the built-in (lower is better), the median of the rounds; V8's heap,
// external and ArrayBuffer memory beside it. (What the core holds per parser
// is test/parser/memory.test.js's: the benchmarks use the public API only.)
//
// --breakdown[=N1,N2] (200,1200): what one connection holds by kind of
// object: heap snapshots (heapObjects) of a fresh server per parser at N1 and
// N2 connections, their difference / (N2 - N1).
//
// --app=FILE serves that app (a module exporting createApp(), as
// benchmark/apps/) instead of the small answer; --server=MODULE (for example
// llhttp-napi/server) puts MODULE's createServer() on the napi side in place
// of node:http after install().
//
//   node benchmark/memory.js [--partial] [--rounds=3] [--breakdown[=N1,N2]] [--package=DIR]
//     [--app=FILE] [--server=MODULE] [--json]

const net = require('node:net');
const v8 = require('node:v8');
const path = require('node:path');
const { median } = require('simple-statistics');
const common = require('./common');
const corpus = require('./corpus');
const { hex } = require('./server-workloads');

const KEYS = ['rss', 'heapUsed', 'external', 'arrayBuffers'];
const PARTIAL_BYTES = 8192;

// What the heap holds, by kind of object, from a V8 heap snapshot (a full GC,
// then every reachable object, and the native objects Node reports through
// its embedder graph, such as the built-in parser's C++ state). A kind is the
// snapshot's node type and, for objects, closures, arrays, native and hidden
// nodes, its name (the constructor, the function, the kind of elements, the
// native class); strings, numbers and code by type alone.
const NAMED = new Set(['object', 'closure', 'array', 'native', 'hidden', 'synthetic', 'object shape', 'regexp']);

async function heapObjects() {
  let text = '';
  for await (const chunk of v8.getHeapSnapshot()) text += chunk;
  const snapshot = JSON.parse(text);
  text = '';
  const fields = snapshot.snapshot.meta.node_fields;
  const types = snapshot.snapshot.meta.node_types[0];
  const width = fields.length;
  const at = { type: fields.indexOf('type'), name: fields.indexOf('name'), size: fields.indexOf('self_size') };
  const { nodes, strings } = snapshot;
  const out = new Map();
  for (let i = 0; i < nodes.length; i += width) {
    const type = types[nodes[i + at.type]];
    const kind = NAMED.has(type) ? `${type} ${strings[nodes[i + at.name]].slice(0, 60)}` : type;
    const entry = out.get(kind) || { count: 0, bytes: 0 };
    entry.count++;
    entry.bytes += nodes[i + at.size];
    out.set(kind, entry);
  }
  return Object.fromEntries(out);
}

// (after - before) / per, by kind: { kind: { count, bytes } }.
function difference(before, after, per) {
  const out = {};
  for (const kind of new Set([...Object.keys(before), ...Object.keys(after)])) {
    const a = before[kind] || { count: 0, bytes: 0 };
    const b = after[kind] || { count: 0, bytes: 0 };
    out[kind] = { count: (b.count - a.count) / per, bytes: (b.bytes - a.bytes) / per };
  }
  return out;
}

// The server child: answers a few headers' lengths (or serves `app`),
// reports its memory.
function server(parser, pkg, serverModule, app) {
  const unavailable = serverModule && parser === 'napi' ? null : common.useParser(parser, pkg);
  if (unavailable) return process.send({ type: 'unavailable', reason: unavailable });
  const handler = app ? require(path.resolve(app)).createApp() : (req, res) => {
    const body = `ok ${req.url.length} ${(req.headers['user-agent'] || '').length}`;
    res.writeHead(200, { 'Content-Type': 'text/plain', 'Content-Length': body.length });
    res.end(body);
  };
  const srv = require(serverModule && parser === 'napi' ? serverModule : 'node:http').createServer(handler);
  srv.keepAliveTimeout = 10 * 60 * 1000;
  const sockets = new Set();
  srv.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  const state = async (snapshot) => {
    global.gc();
    global.gc();
    const m = process.memoryUsage();
    let bytesRead = 0;
    for (const socket of sockets) bytesRead += socket.bytesRead;
    return { memory: Object.fromEntries(KEYS.map((k) => [k, m[k]])), connections: sockets.size, bytesRead,
      objects: snapshot ? await heapObjects() : null };
  };
  process.on('message', (msg) => {
    if (msg.type === 'exit') process.exit(0);
    state(msg.snapshot).then((s) => process.send({ type: 'state', ...s }));
  });
  srv.listen(0, '127.0.0.1', () => state(false).then((s) => process.send({ type: 'listening', port: srv.address().port, ...s })));
}

const measure = (child, snapshot = false) => child.request('state', { snapshot });

// The browser-like GETs that keep a connection open.
const idleRequests = () => corpus.corpusBuffers('request', 1000, 1).filter((b) => {
  const head = b.toString('latin1');
  return head.startsWith('GET ') && !/\r\nconnection: *close/i.test(head) && head.endsWith('\r\n\r\n');
});

// Heads of exactly PARTIAL_BYTES that do not end: a GET without its blank
// line, then header lines of random hex, all different.
function partialHeads(count) {
  const random = corpus.prng(0x51d);
  const bases = idleRequests().map((b) => b.toString('latin1').slice(0, -2));
  return Array.from({ length: count }, (_, i) => {
    let head = bases[i % bases.length];
    for (let k = 0; head.length < PARTIAL_BYTES; k++) {
      const name = `X-Trace-${k}: `;
      const left = PARTIAL_BYTES - head.length;
      head += `${name}${hex(random, left >= 220 ? 96 : left - name.length - 2)}\r\n`;
    }
    return Buffer.from(head, 'latin1');
  });
}

// Opens `count` more connections, 200 at a time, each sending its payload
// (and, idle, waiting for the answer). Resolves to the sockets, left open.
function connectAll(port, mode, payloads, count, sockets = []) {
  const target = sockets.length + count;
  if (count === 0) return Promise.resolve(sockets);
  return new Promise((resolve, reject) => {
    let done = 0;
    const open = () => {
      if (sockets.length >= target) return;
      const socket = net.connect(port, '127.0.0.1');
      const payload = payloads[sockets.length % payloads.length];
      sockets.push(socket);
      socket.on('error', reject);
      const finished = () => (++done === count ? resolve(sockets) : open());
      if (mode === 'partial') return socket.write(payload, finished);
      let got = '';
      socket.on('data', (d) => {
        got += d.toString('latin1');
        if (answered(got)) {
          socket.removeAllListeners('data');
          finished();
        }
      });
      socket.write(payload);
    };
    for (let i = 0; i < Math.min(200, count); i++) open();
  });
}

// A whole answer (its head and the Content-Length bytes after it) is in `text`.
function answered(text) {
  const end = text.indexOf('\r\n\r\n');
  const length = end < 0 ? null : /\r\ncontent-length: *(\d+)/i.exec(text.slice(0, end));
  return length !== null && text.length >= end + 4 + Number(length[1]);
}

// Waits until the server has read every byte sent (a partial head gets no answer), then a little.
async function settle(child, mode, n) {
  for (let i = 0; mode === 'partial' && i < 100 && (await measure(child)).bytesRead < n * PARTIAL_BYTES; i++) await common.sleep(100);
  await common.sleep(300);
}

// (b - a) / n of the memory figures.
const perConnection = (a, b, n) => Object.fromEntries(KEYS.map((k) => [k, (b.memory[k] - a.memory[k]) / n]));

// Per connection between n1 and n2 connections (n1 = 0: the idle server), of
// a fresh server of `parser`.
async function between(parser, { mode, n1, n2, pkg, payloads, snapshot, server: serverModule = '', app = '' }) {
  const child = common.ipcChild([process.execPath, '--expose-gc', __filename, '--child', parser, pkg, serverModule, app],
    `server (${parser})`);
  try {
    const listening = await child.ready;
    if (listening.type === 'unavailable') throw new Error(`napi unavailable: ${listening.reason}`);
    const sockets = await connectAll(listening.port, mode, payloads, n1);
    let a = listening;
    if (n1) {
      await settle(child, mode, n1);
      a = await measure(child, snapshot);
    }
    await connectAll(listening.port, mode, payloads, n2 - n1, sockets);
    await settle(child, mode, n2);
    const b = await measure(child, snapshot);
    for (const s of sockets) s.destroy();
    if (b.connections !== n2) throw new Error(`${b.connections} of ${n2} connections open`);
    return { ...perConnection(a, b, n2 - n1), objects: snapshot ? difference(a.objects, b.objects, n2 - n1) : undefined };
  } finally {
    await child.stop();
  }
}

async function memory({ partial = false, connections = partial ? 2000 : 4000, rounds = 3, breakdown = null,
  pkg = common.ROOT, server = '', app = '', onProgress = () => {} } = {}) {
  const mode = partial ? 'partial' : 'idle';
  pkg = path.resolve(pkg);
  const payloads = partial ? partialHeads(1000) : idleRequests();
  const results = { builtin: [], napi: [] };
  const ratios = [];
  for (let r = 0; r < rounds; r++) {
    for (const parser of common.roundOrder(r)) {
      onProgress(`${mode} round ${r + 1}/${rounds} ${parser}`);
      results[parser].push(await between(parser, { mode, n1: 0, n2: connections, pkg, payloads, server, app }));
    }
    ratios.push(results.napi[r].rss / results.builtin[r].rss);
  }
  const out = { node: process.version, mode, connections, rounds, ratios, median: median(ratios), server, app,
    range: [Math.min(...ratios), Math.max(...ratios)],
    kb: Object.fromEntries(KEYS.map((k) => [k, Object.fromEntries(common.PARSERS.map((p) => [p, median(results[p].map((m) => m[k])) / 1024]))])) };
  if (breakdown) {
    out.breakdown = { n1: breakdown[0], n2: breakdown[1] };
    for (const parser of common.PARSERS) {
      onProgress(`${mode} breakdown ${parser}: heap snapshots at ${breakdown.join(' and ')} connections`);
      out.breakdown[parser] = await between(parser, { mode, n1: breakdown[0], n2: breakdown[1], pkg, payloads, snapshot: true,
        server, app });
    }
  }
  return out;
}

function describe(out) {
  const lines = [`${out.connections} ${out.mode === 'idle' ? 'idle keep-alive connections' : `connections holding ${PARTIAL_BYTES / 1024} KiB of an unfinished head`}, ` +
    `${out.app ? `${path.basename(out.app)}, ` : ''}node ${out.node}: KB per connection above the idle server, ` +
    `median of ${out.rounds} rounds; RSS ${out.server ? `napi = ${out.server}` : 'napi'}/builtin ` +
    `${out.median.toFixed(3)} (rounds ${out.ratios.map((r) => r.toFixed(3)).join(', ')})`,
  ...KEYS.map((k) => `  ${k.padEnd(12)} builtin ${out.kb[k].builtin.toFixed(1).padStart(7)}  napi ${out.kb[k].napi.toFixed(1).padStart(7)}`)];
  const bd = out.breakdown;
  if (bd) {
    lines.push(`by object, heap snapshots at ${bd.n1} and ${bd.n2} connections, per connection (bytes): builtin / napi`);
    const kinds = new Set([...Object.keys(bd.builtin.objects), ...Object.keys(bd.napi.objects)]);
    const bytes = (p, kind) => (bd[p].objects[kind] || { bytes: 0 }).bytes;
    [...kinds].filter((k) => Math.max(Math.abs(bytes('builtin', k)), Math.abs(bytes('napi', k))) >= 8)
      .sort((x, y) => Math.max(Math.abs(bytes('builtin', y)), Math.abs(bytes('napi', y))) - Math.max(Math.abs(bytes('builtin', x)), Math.abs(bytes('napi', x))))
      .forEach((k) => lines.push(`  ${bytes('builtin', k).toFixed(0).padStart(7)} ${bytes('napi', k).toFixed(0).padStart(7)}  ${k}`));
    const total = (p) => Object.values(bd[p].objects).reduce((sum, o) => sum + o.bytes, 0);
    lines.push(`  ${total('builtin').toFixed(0).padStart(7)} ${total('napi').toFixed(0).padStart(7)}  all objects`);
  }
  return lines.join('\n');
}

module.exports = { memory, describe };

if (require.main === module && process.argv[2] === '--child') {
  server(process.argv[3], process.argv[4], process.argv[5], process.argv[6]);
} else if (require.main === module) {
  common.main(({ option }) => memory({ partial: option('partial', false), rounds: option('rounds', 3),
    breakdown: option('breakdown') === true ? [200, 1200] : option('breakdown') ? option('breakdown', [0]) : null,
    pkg: option('package', common.ROOT), server: option('server', ''), app: option('app', ''), onProgress: (what) => common.progress(`memory.js: ${what}`) }), describe);
}
