'use strict';
// `npm run soak`: long-running load against a node:http server that uses
// llhttp-napi through install(), in a child process, on loopback only.
//
//   node scripts/dev/soak.js [--requests N] [--connections N] [--churn N]
//                            [--keepalive-connections N] [--parser ours|builtin]
//                            [--only keepalive|connections] [--semi-space MB]
//                            [--timeout S] [--json]
//
// Phase 1, keep-alive: N requests (default 1,000,000) with autocannon, in
//   ten batches over keep-alive connections (--keepalive-connections, 100).
//   The first batch is the warm-up; the server's RSS is read (after a full
//   GC) after each batch. Reported: RSS growth from the end of the warm-up to
//   the end (target < 20 MB), open fds before the first and after the last
//   connection (target equal), crashes (target 0), non-2xx and errors.
//   V8 grows its young generation in steps under sustained load (from 1 to
//   16 MiB a semi-space, whatever the parser), which alone moves RSS by
//   ~25 MB long after any warm-up: the server runs with the semi-space fixed
//   at --semi-space MB (default 16, V8's own maximum; 0 leaves V8's
//   defaults), and the report also gives the growth outside the V8 heap.
// Phase 2, connections: --connections (default 5,000) concurrent
//   connections held open at once, then random traffic with random
//   disconnects (mid-headers, mid-body, after the request, reset, half-close,
//   pipelined then gone, idle close), each lost connection replaced until
//   --churn connections (default 4 x --connections) have been opened.
//   Reported: the server's peak connection count, RSS before / at peak /
//   after, fds before and after, crashes, clientError codes.
// Each phase has its own server process; the whole run stops by itself after
// --timeout seconds (default 900) with a failure. Exit status 0 when every
// target is met. Not part of `npm test`.
const fs = require('node:fs');
const net = require('node:net');
const path = require('node:path');
const { spawn, spawnSync } = require('node:child_process');
const { once } = require('node:events');
const { setTimeout: sleep } = require('node:timers/promises');

const ROOT = path.resolve(__dirname, '..', '..');

// ---- the server (child process) --------------------------------------------

function serverMain() {
  const http = require('node:http');
  const parserKind = process.env.SOAK_PARSER || 'ours';
  let installed = false;
  if (parserKind === 'ours') {
    installed = require(ROOT).install({ strict: true });
  }
  const { HTTPParser } = require(path.join(ROOT, 'lib', 'parser'));
  const clientErrors = {};
  let requests = 0;
  let oursSeen = 0;
  const body = 'Hello, World!';
  const server = http.createServer({ keepAliveTimeout: 120000, headersTimeout: 120000, requestTimeout: 0 }, (req, res) => {
    requests++;
    if (req.socket.parser instanceof HTTPParser) oursSeen++;
    if (req.method === 'POST') {
      req.on('data', () => {});
      req.on('end', () => res.end(body));
      return;
    }
    res.writeHead(200, { 'Content-Type': 'text/plain', 'Content-Length': body.length });
    res.end(body);
  });
  server.on('clientError', (err, socket) => {
    const code = err.code || 'unknown';
    clientErrors[code] = (clientErrors[code] || 0) + 1;
    if (socket.writable && !socket.destroyed) socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n');
    else socket.destroy();
  });
  function stats(gc) {
    if (gc && typeof globalThis.gc === 'function') {
      globalThis.gc();
      globalThis.gc();
    }
    return new Promise((resolve) => server.getConnections((err, connections) => {
      const mem = process.memoryUsage();
      resolve({
        rss: mem.rss, heapUsed: mem.heapUsed, heapTotal: mem.heapTotal, external: mem.external, arrayBuffers: mem.arrayBuffers,
        fds: fs.readdirSync('/proc/self/fd').length, connections: err ? -1 : connections,
        requests, oursSeen, clientErrors, installed,
      });
    }));
  }
  process.on('message', async (msg) => {
    if (msg.cmd === 'stats') process.send({ id: msg.id, stats: await stats(msg.gc) });
    else if (msg.cmd === 'exit') {
      server.close(() => process.exit(0));
      server.closeAllConnections();
    }
  });
  server.listen({ port: 0, host: '127.0.0.1', backlog: 8192 }, () => {
    process.send({ port: server.address().port });
  });
}

// ---- the driver -------------------------------------------------------------

function parseArgs(argv) {
  const opts = {
    requests: 1000000, connections: 5000, churn: 0, keepaliveConnections: 100,
    parser: 'ours', only: null, timeout: 900, json: false, semiSpace: 16,
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const num = () => {
      const v = Number(argv[++i]);
      if (!Number.isInteger(v) || v < 0) throw new Error(`${a} needs a whole number`);
      return v;
    };
    if (a === '--requests') opts.requests = num();
    else if (a === '--connections') opts.connections = num();
    else if (a === '--churn') opts.churn = num();
    else if (a === '--keepalive-connections') opts.keepaliveConnections = num();
    else if (a === '--timeout') opts.timeout = num();
    else if (a === '--semi-space') opts.semiSpace = num();
    else if (a === '--parser') opts.parser = argv[++i];
    else if (a === '--only') opts.only = argv[++i];
    else if (a === '--json') opts.json = true;
    else if (a === '-h' || a === '--help') {
      console.log(fs.readFileSync(__filename, 'utf8').split('\n').slice(1, 34).join('\n'));
      process.exit(0);
    } else throw new Error(`unknown option ${a}`);
  }
  if (!['ours', 'builtin'].includes(opts.parser)) throw new Error('--parser is ours or builtin');
  if (opts.only !== null && !['keepalive', 'connections'].includes(opts.only)) {
    throw new Error('--only is keepalive or connections');
  }
  if (opts.churn === 0) opts.churn = opts.connections * 4;
  return opts;
}

// Enough file descriptors for both ends of every connection: raise the soft
// limit by re-running under `ulimit -n` when it is too low.
function ensureFdLimit(opts) {
  const need = opts.connections * 2 + 1024;
  const soft = Number(spawnSync('/bin/sh', ['-c', 'ulimit -n']).stdout.toString().trim());
  if (!Number.isFinite(soft) || soft >= need || process.env.SOAK_ULIMIT_RAISED) return;
  const hard = spawnSync('/bin/sh', ['-c', 'ulimit -Hn']).stdout.toString().trim();
  const target = hard === 'unlimited' ? need : Math.min(need, Number(hard));
  if (target < need) {
    console.error(`soak: ${opts.connections} connections need ${need} fds, the hard limit is ${hard}; ` +
      'use --connections to scale down');
    process.exit(2);
  }
  const r = spawnSync('/bin/sh', ['-c', `ulimit -n ${target} && exec "$0" "$@"`, process.execPath,
    __filename, ...process.argv.slice(2)], { stdio: 'inherit', env: { ...process.env, SOAK_ULIMIT_RAISED: '1' } });
  process.exit(r.status === null ? 1 : r.status);
}

class Server {
  constructor(parser, semiSpace) {
    const v8 = semiSpace > 0 ? [`--min-semi-space-size=${semiSpace}`, `--max-semi-space-size=${semiSpace}`] : [];
    this.child = spawn(process.execPath, ['--expose-gc', ...v8, __filename, '--server'], {
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      env: { ...process.env, SOAK_PARSER: parser },
    });
    this.exited = null;
    this.pending = new Map();
    this.nextId = 1;
    this.child.on('exit', (code, signal) => {
      this.exited = { code, signal };
      for (const [, settle] of this.pending) settle(null);
      this.pending.clear();
    });
    this.child.on('message', (m) => {
      if (m.id && this.pending.has(m.id)) {
        this.pending.get(m.id)(m.stats);
        this.pending.delete(m.id);
      }
    });
  }

  async start() {
    const [msg] = await once(this.child, 'message');
    this.port = msg.port;
    return this;
  }

  stats(gc = true) {
    if (this.exited) return Promise.reject(new Error(`server exited: ${JSON.stringify(this.exited)}`));
    const id = this.nextId++;
    this.child.send({ cmd: 'stats', gc, id });
    return new Promise((resolve, reject) => {
      this.pending.set(id, (stats) => {
        if (stats === null) reject(new Error(`server exited: ${JSON.stringify(this.exited)}`));
        else resolve(stats);
      });
    });
  }

  // /proc/<pid>/fd from outside, as a cross-check of the server's own count.
  fds() {
    try {
      return fs.readdirSync(`/proc/${this.child.pid}/fd`).length;
    } catch {
      return -1;
    }
  }

  vmHWM() {
    try {
      const status = fs.readFileSync(`/proc/${this.child.pid}/status`, 'latin1');
      return Number(status.match(/VmHWM:\s+(\d+)/)[1]) * 1024;
    } catch {
      return -1;
    }
  }

  async waitConnections(n, ms) {
    const end = Date.now() + ms;
    let s;
    do {
      s = await this.stats(false);
      if (s.connections === n) return s;
      await sleep(100);
    } while (Date.now() < end);
    return s;
  }

  async stop() {
    if (this.exited) return this.exited;
    this.child.send({ cmd: 'exit' });
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 10000);
    if (!this.exited) await once(this.child, 'exit');
    clearTimeout(timer);
    return this.exited;
  }
}

const MB = (bytes) => Math.round((bytes / 1048576) * 10) / 10;

async function keepAlivePhase(opts, log) {
  const autocannon = require('autocannon');
  const server = await new Server(opts.parser, opts.semiSpace).start();
  const url = `http://127.0.0.1:${server.port}/`;
  const before = await server.stats();
  const fdsBefore = server.fds();
  const batches = 10;
  const per = Math.ceil(opts.requests / batches);
  const rss = [];
  const heap = [];
  const totals = { requests: 0, non2xx: 0, errors: 0, timeouts: 0, resets: 0 };
  const started = Date.now();
  for (let b = 0; b < batches; b++) {
    const t0 = Date.now();
    const result = await autocannon({
      url, connections: opts.keepaliveConnections, pipelining: 1, amount: per, timeout: 20,
    });
    totals.requests += result.requests.total;
    totals.non2xx += result.non2xx;
    totals.errors += result.errors;
    totals.timeouts += result.timeouts;
    totals.resets += result.resets || 0;
    const s = await server.stats();
    rss.push(s.rss);
    heap.push(s.heapTotal);
    log(`  keep-alive batch ${b + 1}/${batches}: ${result.requests.total} requests, ` +
      `${Math.round(result.requests.total / ((Date.now() - t0) / 1000))} req/s; server RSS ${MB(s.rss)} MB ` +
      `(V8 heap ${MB(s.heapUsed)} used / ${MB(s.heapTotal)} MB, external ${MB(s.external)} MB), fds ${s.fds}`);
  }
  const s = await server.waitConnections(0, 10000);
  const fdsAfter = server.fds();
  const peak = server.vmHWM();
  const exit = await server.stop();
  return {
    requests: totals.requests, served: s.requests, parserOursOnEveryRequest: s.oursSeen === s.requests,
    installed: s.installed, seconds: Math.round((Date.now() - started) / 100) / 10,
    non2xx: totals.non2xx, errors: totals.errors, timeouts: totals.timeouts,
    rssMB: rss.map(MB), rssBeforeMB: MB(before.rss), rssAfterWarmupMB: MB(rss[0]),
    rssEndMB: MB(rss[rss.length - 1]), rssGrowthAfterWarmupMB: MB(rss[rss.length - 1] - rss[0]),
    v8HeapTotalMB: heap.map(MB), v8HeapGrowthAfterWarmupMB: MB(heap[heap.length - 1] - heap[0]),
    growthOutsideV8HeapMB: MB((rss[rss.length - 1] - heap[heap.length - 1]) - (rss[0] - heap[0])),
    semiSpaceMB: opts.semiSpace,
    peakRssMB: MB(peak),
    fdsBefore, fdsAfter, fdsBeforeSelf: before.fds, fdsAfterSelf: s.fds, connectionsAtEnd: s.connections,
    clientErrors: s.clientErrors,
    crashed: !(exit.code === 0 && exit.signal === null), exit,
  };
}

// One client connection of phase 2: a few keep-alive requests, then one of
// the ways of going away, at random.
const DISCONNECTS = ['mid-headers', 'mid-body', 'after-request', 'reset', 'half-close', 'pipelined-gone', 'idle-close'];

function rng(seed) {
  let s = seed >>> 0;
  return (n) => {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    return (s >>> 8) % n;
  };
}

async function connectionsPhase(opts, log) {
  const server = await new Server(opts.parser, opts.semiSpace).start();
  const before = await server.stats();
  const fdsBefore = server.fds();
  const rnd = rng(0xC0FFEE);
  const sockets = new Set();
  const counts = { opened: 0, connectErrors: 0, responses: 0, disconnects: {} };
  for (const d of DISCONNECTS) counts.disconnects[d] = 0;
  let stopping = false;
  let peakConnections = 0;
  let peakRss = before.rss;
  const started = Date.now();
  const request = (i) => `GET /c/${i} HTTP/1.1\r\nHost: 127.0.0.1\r\nUser-Agent: soak\r\nAccept: */*\r\n\r\n`;

  function open(holdFirst) {
    counts.opened++;
    const socket = net.connect(server.port, '127.0.0.1');
    sockets.add(socket);
    socket.setNoDelay(true);
    let received = '';
    let expected = 0;
    let plan = 1 + rnd(5); // requests before the disconnect
    let gone = false;
    const goAway = () => {
      if (gone) return;
      gone = true;
      const how = DISCONNECTS[rnd(DISCONNECTS.length)];
      counts.disconnects[how]++;
      switch (how) {
        case 'mid-headers':
          socket.write(`GET /partial HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Cut: ${'x'.repeat(rnd(200))}`);
          setImmediate(() => socket.destroy());
          break;
        case 'mid-body':
          socket.write(`POST /body HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 1000\r\n\r\n${'b'.repeat(rnd(999))}`);
          setImmediate(() => socket.destroy());
          break;
        case 'after-request':
          socket.write(request('gone'));
          socket.destroy();
          break;
        case 'reset':
          socket.write('GET /reset HTTP/1.1\r\nHo');
          setImmediate(() => socket.resetAndDestroy());
          break;
        case 'half-close':
          socket.end(request('half'));
          break;
        case 'pipelined-gone':
          socket.write(request('p1') + request('p2') + request('p3'));
          setImmediate(() => socket.destroy());
          break;
        default: // idle-close
          socket.destroy();
      }
    };
    const next = () => {
      if (stopping) return;
      if (plan-- > 0) {
        expected++;
        socket.write(request(counts.responses));
      } else {
        goAway();
      }
    };
    socket.on('data', (d) => {
      received += d.toString('latin1');
      let at;
      while ((at = received.indexOf('Hello, World!')) !== -1) {
        received = received.slice(at + 13);
        counts.responses++;
        expected--;
        if (expected === 0 && !gone) setImmediate(next);
      }
    });
    socket.on('error', (err) => {
      if (err.code !== 'ECONNRESET' && err.code !== 'EPIPE') counts.connectErrors++;
    });
    socket.on('close', () => {
      sockets.delete(socket);
      if (!stopping && counts.opened < opts.churn) open(false);
    });
    socket.begin = next;
    if (!holdFirst) socket.on('connect', next);
    return socket;
  }

  // 1. Open every connection and hold them all at once.
  const held = [];
  for (let i = 0; i < opts.connections; i++) {
    held.push(open(true));
    if (i % 250 === 249) await sleep(20);
  }
  await Promise.all(held.map((s) => (s.connecting ? once(s, 'connect').catch(() => {}) : null)));
  let s = await server.waitConnections(opts.connections, 20000);
  peakConnections = Math.max(peakConnections, s.connections);
  const atPeak = await server.stats(false);
  peakRss = Math.max(peakRss, atPeak.rss);
  log(`  ${s.connections} connections open at once, server RSS ${MB(atPeak.rss)} MB, fds ${server.fds()}`);

  // 2. Traffic and random disconnects until --churn connections were opened.
  for (const socket of held) if (!socket.destroyed && !socket.connecting) socket.begin();
  while (counts.opened < opts.churn || sockets.size > 0) {
    if (server.exited) break;
    await sleep(500);
    const now = await server.stats(false);
    peakConnections = Math.max(peakConnections, now.connections);
    peakRss = Math.max(peakRss, now.rss);
    if (counts.opened >= opts.churn) {
      // Wind down: whatever is still open goes away now.
      for (const socket of sockets) socket.destroy();
    }
    if (Date.now() - started > opts.timeout * 500) {
      log('  connections phase: half of --timeout spent, stopping early');
      break;
    }
  }
  stopping = true;
  for (const socket of sockets) socket.destroy();
  s = await server.waitConnections(0, 20000);
  const fdsAfter = server.fds();
  const exit = await server.stop();
  return {
    concurrent: opts.connections, peakServerConnections: peakConnections,
    opened: counts.opened, responses: counts.responses, disconnects: counts.disconnects,
    unexpectedClientErrors: counts.connectErrors, seconds: Math.round((Date.now() - started) / 100) / 10,
    rssBeforeMB: MB(before.rss), rssPeakMB: MB(peakRss), rssAfterMB: MB(s.rss),
    fdsBefore, fdsAfter, connectionsAtEnd: s.connections, served: s.requests,
    parserOursOnEveryRequest: s.oursSeen === s.requests, clientErrors: s.clientErrors,
    crashed: !(exit.code === 0 && exit.signal === null), exit,
  };
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  ensureFdLimit(opts);
  const log = opts.json ? () => {} : (m) => console.log(m);
  const killer = setTimeout(() => {
    console.error(`soak: --timeout ${opts.timeout}s reached`);
    process.exit(1);
  }, opts.timeout * 1000);
  killer.unref();
  const report = { parser: opts.parser, node: process.version, semiSpaceMB: opts.semiSpace };
  let ok = true;
  if (opts.only !== 'connections' && opts.requests > 0) {
    log(`soak: ${opts.requests} keep-alive requests (${opts.parser} parser)`);
    const k = report.keepalive = await keepAlivePhase(opts, log);
    const pass = k.rssGrowthAfterWarmupMB < 20 && k.fdsBefore === k.fdsAfter && !k.crashed &&
      k.non2xx === 0 && k.errors === 0 && k.served === k.requests &&
      (opts.parser === 'builtin' || k.parserOursOnEveryRequest);
    k.pass = pass;
    ok = ok && pass;
    log(`  requests ${k.requests} in ${k.seconds} s; RSS after warm-up ${k.rssAfterWarmupMB} MB -> end ` +
      `${k.rssEndMB} MB: growth ${k.rssGrowthAfterWarmupMB} MB (target < 20), of which V8 heap ` +
      `${k.v8HeapGrowthAfterWarmupMB} MB, outside it ${k.growthOutsideV8HeapMB} MB; peak ${k.peakRssMB} MB`);
    log(`  fds before ${k.fdsBefore}, after ${k.fdsAfter}; non-2xx ${k.non2xx}, errors ${k.errors}; ` +
      `crashes ${k.crashed ? 1 : 0}: ${pass ? 'PASS' : 'FAIL'}`);
  }
  if (opts.only !== 'keepalive' && opts.connections > 0) {
    log(`soak: ${opts.connections} concurrent connections, ${opts.churn} in all, random disconnects`);
    const c = report.connections = await connectionsPhase(opts, log);
    const pass = c.peakServerConnections >= opts.connections && c.fdsBefore === c.fdsAfter &&
      !c.crashed && c.connectionsAtEnd === 0 && c.unexpectedClientErrors === 0 &&
      (opts.parser === 'builtin' || c.parserOursOnEveryRequest);
    c.pass = pass;
    ok = ok && pass;
    log(`  ${c.opened} connections, peak ${c.peakServerConnections} at once, ${c.responses} responses, ` +
      `disconnects ${JSON.stringify(c.disconnects)} in ${c.seconds} s`);
    log(`  RSS before ${c.rssBeforeMB} MB, peak ${c.rssPeakMB} MB, after ${c.rssAfterMB} MB; ` +
      `fds before ${c.fdsBefore}, after ${c.fdsAfter}; clientError ${JSON.stringify(c.clientErrors)}; ` +
      `crashes ${c.crashed ? 1 : 0}: ${pass ? 'PASS' : 'FAIL'}`);
  }
  report.pass = ok;
  if (opts.json) console.log(JSON.stringify(report, null, 2));
  process.exit(ok ? 0 : 1);
}

if (process.argv[2] === '--server') serverMain();
else main().catch((err) => {
  console.error(err);
  process.exit(1);
});
