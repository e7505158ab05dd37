'use strict';
// End to end: a hello-world node:http server in a child process, once with
// the built-in parser and once with llhttp-napi's install(), in interleaved
// rounds (builtin, napi, builtin, ...). The server is pinned to CPU 0 and the
// load generator (wrk when installed, else autocannon) to CPU 1 when taskset
// exists; keep-alive, 50 connections. Reported per round: the server's CPU
// time (utime + stime from /proc/<pid>/stat) over the measured window divided
// by the requests it served in that window (counted by the server).
//
// Then one counting run per parser (async_hooks init of TickObject, a wrapped
// EventEmitter.prototype.emit; counters reset after warm-up): nextTicks and
// emits per request. Counting runs are separate because the hooks cost CPU.
//
//   node benchmark/server.js [--rounds=8] [--duration=5] [--warmup=1]
//        [--connections=50] [--loader=wrk|autocannon] [--count-duration=2] [--json=FILE]
//        [--paired-rounds=N]  (then N rounds with both servers at once, each with its own
//                              load generator: a ratio measured in the same conditions)
//        [--cpu-prof[=DIR]]   (writes a V8 CPU profile of each server child into DIR, 100 µs sampling)
//
// Until install() exists, the napi rows are reported as unavailable.

const fs = require('node:fs');
const path = require('node:path');
const { spawn, execFileSync } = require('node:child_process');
const common = require('./common');
const stats = require('./stats');

const ROOT = common.ROOT;

// ---------------------------------------------------------------- child ----

function child({ parser, count }) {
  const send = (msg) => process.send(msg);
  let ours = null;
  if (parser === 'napi') {
    let mod;
    try {
      mod = require(ROOT);
    } catch (err) {
      send({ type: 'unavailable', reason: `the addon does not load: ${err.message}` });
      return;
    }
    if (typeof mod.install !== 'function') {
      send({ type: 'unavailable', reason: "require('llhttp-napi').install() does not exist yet" });
      return;
    }
    if (mod.install() === false) {
      send({ type: 'unavailable', reason: 'install() returned false (see its warning)' });
      return;
    }
    ours = mod.HTTPParser;
  }

  let requests = 0;
  let ticks = 0;
  let emits = 0;
  // By tick callback name and by event name, to tell where two runs differ.
  let tickNames = new Map();
  let emitNames = new Map();
  const tally = (map, key) => map.set(key, (map.get(key) || 0) + 1);
  if (count) {
    require('node:async_hooks').createHook({
      init(id, type, trigger, resource) {
        if (type !== 'TickObject') return;
        ticks++;
        tally(tickNames, (resource && resource.callback && resource.callback.name) || '(anonymous)');
      },
    }).enable();
    const EventEmitter = require('node:events');
    const emit = EventEmitter.prototype.emit;
    EventEmitter.prototype.emit = function countedEmit(...args) {
      emits++;
      tally(emitNames, `${this.constructor && this.constructor.name}:${String(args[0])}`);
      return emit.apply(this, args);
    };
  }

  const http = require('node:http');
  let parserSeen = null;
  const body = 'Hello World';
  const server = http.createServer((req, res) => {
    requests++;
    if (parserSeen === null) {
      const p = req.socket.parser;
      if (!p) parserSeen = 'unknown (socket.parser unset)';
      else if (ours) parserSeen = p instanceof ours ? 'napi' : `not ours (${p.constructor.name})`;
      else parserSeen = p.constructor.name === 'HTTPParser' && !('_native' in p) ? 'builtin' : p.constructor.name;
    }
    res.writeHead(200, { 'Content-Type': 'text/plain', 'Content-Length': body.length });
    res.end(body);
  });
  server.keepAliveTimeout = 60000;
  process.on('message', (msg) => {
    if (msg.type === 'reset') {
      requests = 0;
      ticks = 0;
      emits = 0;
      tickNames = new Map();
      emitNames = new Map();
      send({ type: 'reset' });
    } else if (msg.type === 'report') {
      // Read the counters before sending: sending itself emits and ticks.
      const report = { type: 'report', requests, ticks, emits, parser: parserSeen,
        tickNames: Object.fromEntries(tickNames), emitNames: Object.fromEntries(emitNames) };
      send(report);
    } else if (msg.type === 'exit') {
      process.exit(0);
    }
  });
  server.listen(0, '127.0.0.1', () => send({ type: 'listening', port: server.address().port }));
}

// --------------------------------------------------------------- parent ----

function which(cmd) {
  for (const dir of (process.env.PATH || '').split(path.delimiter)) {
    const full = path.join(dir, cmd);
    try {
      fs.accessSync(full, fs.constants.X_OK);
      return full;
    } catch {}
  }
  return null;
}

const TASKSET = which('taskset');
const CPUS = require('node:os').cpus().length;

function pinned(cpu, argv) {
  return TASKSET && CPUS > 1 ? [TASKSET, '-c', String(cpu), ...argv] : argv;
}

function clockTicks() {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
}
const CLK_TCK = clockTicks();

// utime + stime of a process, in seconds.
function cpuSeconds(pid) {
  const text = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  // fields[0] is field 3 (state); utime is field 14, stime field 15.
  return (Number(fields[11]) + Number(fields[12])) / CLK_TCK;
}

function loaderChoice(wanted) {
  if (wanted === 'wrk' || (!wanted && which('wrk'))) {
    if (!which('wrk')) throw new Error('wrk is not installed');
    return 'wrk';
  }
  try {
    require.resolve('autocannon/autocannon.js', { paths: [ROOT] });
    return 'autocannon';
  } catch {
    throw new Error('no load generator: install wrk (apt-get install wrk) or run npm install (autocannon)');
  }
}

// Runs the load for `seconds`; resolves with what the loader reported.
function load(loader, port, seconds, connections) {
  const url = `http://127.0.0.1:${port}/`;
  let argv;
  if (loader === 'wrk') {
    argv = pinned(1, [which('wrk'), '-t1', `-c${connections}`, `-d${seconds}s`, url]);
  } else {
    const bin = require.resolve('autocannon/autocannon.js', { paths: [ROOT] });
    argv = pinned(1, [process.execPath, bin, '-c', String(connections), '-d', String(seconds), '-j', url]);
  }
  return new Promise((resolve, reject) => {
    const proc = spawn(argv[0], argv.slice(1), { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    proc.stdout.on('data', (d) => { out += d; });
    proc.stderr.on('data', (d) => { err += d; });
    proc.on('error', reject);
    proc.on('close', (code) => {
      if (code !== 0) return reject(new Error(`${loader} exited with ${code}: ${err}`));
      const info = { loader };
      try {
        if (loader === 'wrk') {
          info.rps = Number((/Requests\/sec:\s+([\d.]+)/.exec(out) || [])[1]);
          info.errors = /Non-2xx|Socket errors/.test(out) ? out.trim() : null;
        } else {
          const json = JSON.parse(out);
          info.rps = json.requests.average;
          info.errors = json.errors || json.non2xx ? `errors=${json.errors} non2xx=${json.non2xx}` : null;
        }
      } catch (e) {
        info.errors = `could not read the ${loader} output: ${e.message}`;
      }
      resolve(info);
    });
  });
}

function startServer(parser, { count = false, nodeFlags = [] } = {}) {
  const argv = pinned(0, [process.execPath, ...nodeFlags, __filename, '--child', `--parser=${parser}`]);
  if (count) argv.push('--count');
  const proc = spawn(argv[0], argv.slice(1), { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const waiters = [];
  proc.on('message', (msg) => {
    const i = waiters.findIndex((w) => w.type === msg.type || msg.type === 'unavailable');
    if (i >= 0) waiters.splice(i, 1)[0].resolve(msg);
  });
  proc.on('exit', (code) => {
    for (const w of waiters.splice(0)) w.reject(new Error(`server (${parser}) exited with ${code}`));
  });
  const expect = (type) => new Promise((resolve, reject) => waiters.push({ type, resolve, reject }));
  return {
    proc,
    listening: expect('listening'),
    async request(type) {
      const reply = expect(type);
      proc.send({ type });
      return reply;
    },
    stop() {
      return new Promise((resolve) => {
        if (proc.exitCode !== null || proc.signalCode !== null) return resolve();
        const timer = setTimeout(() => proc.kill('SIGKILL'), 2000);
        proc.once('exit', () => { clearTimeout(timer); resolve(); });
        proc.send({ type: 'exit' });
      });
    },
  };
}

function perRequest(counts, requests) {
  const out = {};
  for (const key of Object.keys(counts || {})) out[key] = requests ? counts[key] / requests : 0;
  return out;
}

// Names whose per-request counts differ between the two parsers (by 0.05 or more).
function differences(a, b) {
  const out = [];
  for (const key of new Set([...Object.keys(a || {}), ...Object.keys(b || {})])) {
    const x = (a && a[key]) || 0, y = (b && b[key]) || 0;
    if (Math.abs(x - y) >= 0.05) out.push({ key, builtin: x, napi: y });
  }
  return out.sort((p, q) => Math.abs(q.napi - q.builtin) - Math.abs(p.napi - p.builtin));
}

// One round: warm-up, reset, measured load; CPU µs per request.
async function round(parser, { loader, warmup, duration, connections, count, nodeFlags }) {
  const server = startServer(parser, { count, nodeFlags });
  try {
    const hello = await server.listening;
    if (hello.type === 'unavailable') return { parser, unavailable: hello.reason };
    const port = hello.port;
    await load(loader, port, warmup, connections);
    await server.request('reset');
    const cpu0 = cpuSeconds(server.proc.pid);
    const t0 = process.hrtime.bigint();
    const info = await load(loader, port, duration, connections);
    const cpu1 = cpuSeconds(server.proc.pid);
    const wall = Number(process.hrtime.bigint() - t0) / 1e9;
    const report = await server.request('report');
    const requests = report.requests;
    return {
      parser,
      parserSeen: report.parser,
      requests,
      cpuSeconds: cpu1 - cpu0,
      wallSeconds: wall,
      cpuUsPerRequest: requests ? ((cpu1 - cpu0) * 1e6) / requests : NaN,
      requestsPerSecond: requests / wall,
      ticksPerRequest: count && requests ? report.ticks / requests : null,
      emitsPerRequest: count && requests ? report.emits / requests : null,
      tickNames: count ? perRequest(report.tickNames, requests) : null,
      emitNames: count ? perRequest(report.emitNames, requests) : null,
      loaderRps: info.rps,
      loaderErrors: info.errors,
    };
  } finally {
    await server.stop();
  }
}

// A paired round: both servers at once (both on CPU 0), each loaded by its
// own load generator (both on CPU 1), measured over the same window, so both
// see the same moments of a busy machine. Returns both CPU µs/request.
async function pairedRound({ loader, warmup, duration, connections, nodeFlags }) {
  const servers = { builtin: startServer('builtin', { nodeFlags }), napi: startServer('napi', { nodeFlags }) };
  try {
    const hello = {};
    for (const p of ['builtin', 'napi']) hello[p] = await servers[p].listening;
    if (hello.napi.type === 'unavailable') return { unavailable: hello.napi.reason };
    await Promise.all(['builtin', 'napi'].map((p) => load(loader, hello[p].port, warmup, connections)));
    await Promise.all(['builtin', 'napi'].map((p) => servers[p].request('reset')));
    const cpu0 = {};
    for (const p of ['builtin', 'napi']) cpu0[p] = cpuSeconds(servers[p].proc.pid);
    await Promise.all(['builtin', 'napi'].map((p) => load(loader, hello[p].port, duration, connections)));
    const out = {};
    for (const p of ['builtin', 'napi']) {
      const cpu = cpuSeconds(servers[p].proc.pid) - cpu0[p];
      const report = await servers[p].request('report');
      out[p] = { requests: report.requests, cpuSeconds: cpu, parserSeen: report.parser,
        cpuUsPerRequest: report.requests ? (cpu * 1e6) / report.requests : NaN };
    }
    out.ratio = out.napi.cpuUsPerRequest / out.builtin.cpuUsPerRequest;
    return out;
  } finally {
    await Promise.all(Object.values(servers).map((s) => s.stop()));
  }
}

async function e2e({ rounds = 8, duration = 5, warmup = 1, connections = 50, loader: wanted,
  countDuration = 2, pairedRounds = 0, nodeFlags = [], onProgress = () => {} } = {}) {
  const loader = loaderChoice(wanted);
  const result = {
    loader,
    pinned: Boolean(TASKSET && CPUS > 1),
    rounds: [],
    counts: {},
    unavailable: null,
    settings: { rounds, duration, warmup, connections, countDuration, pairedRounds },
    paired: [],
  };
  const steps = rounds + 2 + pairedRounds;
  for (let i = 0; i < rounds; i++) {
    const parser = i % 2 === 0 ? 'builtin' : 'napi';
    if (parser === 'napi' && result.unavailable) continue;
    onProgress({ step: i, steps, what: `round ${i + 1}/${rounds} ${parser}` });
    const r = await round(parser, { loader, warmup, duration, connections, count: false, nodeFlags });
    if (r.unavailable) result.unavailable = r.unavailable;
    else result.rounds.push(r);
  }
  for (const [k, parser] of ['builtin', 'napi'].entries()) {
    if (parser === 'napi' && result.unavailable) continue;
    onProgress({ step: rounds + k, steps, what: `tick/emit count ${parser}` });
    const r = await round(parser, { loader, warmup: Math.min(warmup, 1), duration: countDuration, connections, count: true });
    if (r.unavailable) result.unavailable = r.unavailable;
    else result.counts[parser] = r;
  }
  for (let i = 0; i < pairedRounds && !result.unavailable; i++) {
    onProgress({ step: rounds + 2 + i, steps, what: `paired round ${i + 1}/${pairedRounds} (both servers at once)` });
    const r = await pairedRound({ loader, warmup, duration, connections, nodeFlags });
    if (r.unavailable) result.unavailable = r.unavailable;
    else result.paired.push(r);
  }
  if (result.paired.length >= 2) {
    const logs = result.paired.map((r) => Math.log(r.ratio));
    const m = stats.mean(logs);
    const se = Math.sqrt(stats.variance(logs) / logs.length);
    const q = stats.tQuantile(0.975, logs.length - 1);
    result.pairedStats = { geoMean: Math.exp(m), ci: [Math.exp(m - q * se), Math.exp(m + q * se)],
      median: stats.median(result.paired.map((r) => r.ratio)) };
  } else if (result.paired.length === 1) {
    result.pairedStats = { geoMean: result.paired[0].ratio, ci: null, median: result.paired[0].ratio };
  }
  const cpu = (p) => result.rounds.filter((r) => r.parser === p).map((r) => r.cpuUsPerRequest);
  result.builtin = cpu('builtin');
  result.napi = cpu('napi');
  if (result.builtin.length && result.napi.length) result.stats = stats.compare(result.builtin, result.napi);
  else result.stats = null;
  return result;
}

function describe(result) {
  const lines = [];
  const fmt = (x, d = 1) => (x === null || x === undefined || Number.isNaN(x) ? '—' : x.toFixed(d));
  lines.push(`load: ${result.loader}, ${result.settings.connections} keep-alive connections; ` +
             (result.pinned ? 'server on CPU 0, load on CPU 1 (taskset)' : 'not pinned (no taskset or one CPU)'));
  lines.push('round  parser   requests   req/s   CPU µs/req  parser seen');
  result.rounds.forEach((r, i) => {
    lines.push(`${String(i + 1).padStart(5)}  ${r.parser.padEnd(7)}  ${String(r.requests).padStart(8)}  ` +
               `${fmt(r.requestsPerSecond, 0).padStart(6)}  ${fmt(r.cpuUsPerRequest).padStart(10)}  ${r.parserSeen}` +
               (r.loaderErrors ? `  (${r.loaderErrors})` : ''));
  });
  const med = (xs) => (xs.length ? stats.median(xs) : NaN);
  lines.push('');
  lines.push(`CPU µs/request, median: builtin ${fmt(med(result.builtin))}, napi ` +
             (result.unavailable ? `unavailable: ${result.unavailable}` : fmt(med(result.napi))));
  if (result.stats) {
    const s = result.stats;
    lines.push(`ratio napi/builtin: ${fmt(s.ratio, 3)} (95% CI of the mean ratio ${s.ci ? s.ci.map((x) => x.toFixed(3)).join('–') : '—'}, ` +
               `p ${s.p === null ? '—' : s.p.toPrecision(2)}) ${s.stars}   target ≤ 0.85`);
  }
  for (const parser of ['builtin', 'napi']) {
    const c = result.counts[parser];
    if (c) {
      lines.push(`${parser.padEnd(7)} per request: ${fmt(c.ticksPerRequest, 2)} nextTicks, ${fmt(c.emitsPerRequest, 2)} emits ` +
                 `(${c.requests} requests counted; parser seen: ${c.parserSeen})`);
    } else if (parser === 'napi' && result.unavailable) {
      lines.push(`napi    per request: unavailable: ${result.unavailable}`);
    }
  }
  if (result.paired.length) {
    lines.push('');
    lines.push('paired rounds (both servers at once, same window): CPU µs/req builtin / napi = ratio');
    result.paired.forEach((r, i) => {
      lines.push(`  ${i + 1}: ${fmt(r.builtin.cpuUsPerRequest)} / ${fmt(r.napi.cpuUsPerRequest)} = ${fmt(r.ratio, 3)} ` +
                 `(${r.builtin.requests} / ${r.napi.requests} requests; seen: ${r.builtin.parserSeen} / ${r.napi.parserSeen})`);
    });
    const ps = result.pairedStats;
    lines.push(`  paired ratio napi/builtin: geometric mean ${fmt(ps.geoMean, 3)}` +
               (ps.ci ? ` (95% CI ${ps.ci.map((x) => x.toFixed(3)).join('–')})` : '') + '   target ≤ 0.85');
  }
  const b = result.counts.builtin, n = result.counts.napi;
  if (b && n) {
    for (const [what, key] of [['nextTicks by callback', 'tickNames'], ['emits by emitter:event', 'emitNames']]) {
      const diff = differences(b[key], n[key]);
      if (diff.length) {
        lines.push(`  ${what} where the parsers differ (per request, builtin → napi): ` +
                   diff.map((d) => `${d.key} ${fmt(d.builtin, 2)} → ${fmt(d.napi, 2)}`).join(', '));
      }
    }
  }
  return lines.join('\n');
}

module.exports = { e2e, describe };

if (require.main === module) {
  const { options } = common.parseArgs();
  if (options.child) {
    child({ parser: options.parser, count: Boolean(options.count) });
  } else {
    const tty = process.stderr.isTTY;
    e2e({
      rounds: Number(options.rounds || 8),
      duration: Number(options.duration || 5),
      warmup: Number(options.warmup || 1),
      connections: Number(options.connections || 50),
      countDuration: Number(options['count-duration'] || 2),
      pairedRounds: Number(options['paired-rounds'] || 0),
      loader: options.loader,
      nodeFlags: options['cpu-prof'] ? ['--cpu-prof', '--cpu-prof-interval=100', '--cpu-prof-dir=' +
        path.resolve(options['cpu-prof'] === true ? path.join(__dirname, 'results', 'prof') : options['cpu-prof'])] : [],
      onProgress: ({ step, steps, what }) => {
        const text = `server.js: ${what} (${step + 1}/${steps})`;
        process.stderr.write(tty ? `\r\x1b[K${text}` : text + '\n');
      },
    }).then((result) => {
      if (tty) process.stderr.write('\r\x1b[K');
      console.log(describe(result));
      if (options.json) fs.writeFileSync(options.json, JSON.stringify(result, null, 2));
    }).catch((err) => {
      console.error(err.stack || err.message);
      process.exit(1);
    });
  }
}
