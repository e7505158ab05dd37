'use strict';
// End to end: node:http servers with the built-in parser and with
// llhttp-napi's install(), measured in PAIRED rounds: each round starts one
// server of each kind (fresh child processes, both pinned to CPU 0), loads
// both at once from one load process (pinned to CPU 1) and measures both over
// the same window, so both see the same moments of a busy machine. Per round
// and server: CPU time (utime + stime of all its threads, /proc/<pid>/stat)
// over the window divided by the requests the server answered in it. The
// figure is the median over rounds of ours/built-in, with its 95% interval
// (distribution-free, from order statistics; the geometric mean with its
// t-interval is shown beside it).
//
// Then one counting round (the same pair, with async_hooks counting TickObject
// inits and a wrapped EventEmitter.prototype.emit; counters reset after the
// warm-up): nextTicks and emits per request. Counting is separate because the
// hooks cost CPU.
//
// Workloads (benchmark/server-workloads.js): hello, browser, post-json,
// upload, express, fastify. It measures the node binary that runs it, so per line:
//   $(node scripts/dev/test-lines.js --print 24) benchmark/server.js --workload=browser
//
//   node benchmark/server.js [--workload=hello,browser,post-json,upload,express,fastify]
//        [--rounds=9] [--duration=3] [--warmup=1.5] [--connections=50] [--seed=1]
//        [--loader=autocannon|wrk] (default: wrk when installed, else autocannon)
//        [--count-duration=2] [--no-count] [--json=FILE]
//        [--package=DIR]     (the llhttp-napi the napi server requires, default this clone; e.g. a
//                            snapshot: git archive HEAD | tar -x -C DIR, git rev-parse HEAD > DIR/REVISION,
//                            npm run build there, so that edits and rebuilds in the clone do not
//                            change what a long run measures)
//        [--cpu-prof[=DIR]] [--cpu-prof-parser=builtin|napi] (V8 CPU profile of each
//                            server child, 100 µs sampling, named <workload>-<parser>-<round>;
//                            node benchmark/server-profile.js RUN.json compares them per request)
//        [--perf[=DIR]]      (perf record -e cpu-clock on both servers over each window, JIT named
//                            with --perf-basic-prof: on-CPU µs/request by read-path category and
//                            by symbol, see server-profile.js; use few, long rounds)
//        [--server-flags=--trace-gc,...]  (node flags of the server children)
//
// One workload with the defaults takes about 45-50 s.

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const crypto = require('node:crypto');
const { spawn, execFileSync } = require('node:child_process');
const common = require('./common');
const stats = require('./stats');
const workloads = require('./server-workloads');
const profile = require('./server-profile');

const ROOT = common.ROOT;
const PARSERS = ['builtin', 'napi'];

// ---------------------------------------------------------------- child ----

function child({ parser, workload, count, pkg = ROOT }) {
  const send = (msg) => process.send(msg);
  let ours = null;
  if (parser === 'napi') {
    let mod;
    try {
      mod = require(pkg);
    } catch (err) {
      send({ type: 'unavailable', reason: `the addon does not load: ${err.message}` });
      return;
    }
    if (mod.install() === false) {
      send({ type: 'unavailable', reason: 'install() returned false (see its warning)' });
      return;
    }
    ours = mod.HTTPParser;
  }

  const tally = { requests: 0, chunks: 0, bytes: 0 };
  let ticks = 0;
  let emits = 0;
  // By tick callback name and by event name, to tell where two runs differ.
  let tickNames = new Map();
  let emitNames = new Map();
  const add = (map, key) => map.set(key, (map.get(key) || 0) + 1);
  if (count) {
    require('node:async_hooks').createHook({
      init(id, type, trigger, resource) {
        if (type !== 'TickObject') return;
        ticks++;
        add(tickNames, (resource && resource.callback && resource.callback.name) || '(anonymous)');
      },
    }).enable();
    const EventEmitter = require('node:events');
    const emit = EventEmitter.prototype.emit;
    EventEmitter.prototype.emit = function countedEmit(...args) {
      emits++;
      add(emitNames, `${this.constructor && this.constructor.name}:${String(args[0])}`);
      return emit.apply(this, args);
    };
  }

  const http = require('node:http');
  const handle = workloads.handler(workload, tally);
  let parserSeen = null;
  let windowStart = process.hrtime.bigint();
  const server = http.createServer((req, res) => {
    if (parserSeen === null) {
      const p = req.socket.parser;
      if (!p) parserSeen = 'unknown (socket.parser unset)';
      else if (ours) parserSeen = p instanceof ours ? 'napi' : `not ours (${p.constructor.name})`;
      else parserSeen = p.constructor.name === 'HTTPParser' && typeof p.getAllHeaders !== 'function' ? 'builtin' : p.constructor.name;
    }
    handle(req, res);
  });
  server.keepAliveTimeout = 60000;
  process.on('message', (msg) => {
    if (msg.type === 'reset') {
      tally.requests = tally.chunks = tally.bytes = 0;
      ticks = 0;
      emits = 0;
      tickNames = new Map();
      emitNames = new Map();
      windowStart = process.hrtime.bigint();
      send({ type: 'reset' });
    } else if (msg.type === 'report') {
      // Read the counters before sending: sending itself emits and ticks.
      // The window in µs of the monotonic clock, the clock of V8's CPU profiles (see server-profile.js).
      const window = [Number(windowStart / 1000n), Number(process.hrtime.bigint() / 1000n)];
      send({ type: 'report', requests: tally.requests, chunks: tally.chunks, bytes: tally.bytes, ticks, emits, window,
        parser: parserSeen, tickNames: Object.fromEntries(tickNames), emitNames: Object.fromEntries(emitNames) });
    } else if (msg.type === 'exit') {
      process.exit(0);
    }
  });
  // (A workload whose app is set up asynchronously says when it is ready.)
  Promise.resolve(handle.ready).then(() => {
    server.listen(0, '127.0.0.1', () => send({ type: 'listening', port: server.address().port }));
  });
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
const CPUS = os.cpus().length;
const SERVER_CPU = 0;
const LOAD_CPU = 1;

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

// utime + stime of a process (all its threads), in seconds.
function cpuSeconds(pid) {
  const text = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  // fields[0] is field 3 (state); utime is field 14, stime field 15.
  return (Number(fields[11]) + Number(fields[12])) / CLK_TCK;
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// A child process with typed IPC replies.
function ipcChild(argv, label) {
  const proc = spawn(argv[0], argv.slice(1), { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  proc.on('error', () => {}); // a send on a closed channel; the exit handler reports the child's end
  const waiters = [];
  const early = [];
  proc.on('message', (msg) => {
    const i = waiters.findIndex((w) => w.match(msg));
    if (i >= 0) waiters.splice(i, 1)[0].resolve(msg);
    else early.push(msg);
  });
  proc.on('exit', (code, signal) => {
    for (const w of waiters.splice(0)) w.reject(new Error(`${label} exited with ${code === null ? signal : code}`));
  });
  const expect = (match) => {
    const j = early.findIndex(match);
    if (j >= 0) return Promise.resolve(early.splice(j, 1)[0]);
    return new Promise((resolve, reject) => {
      if (proc.exitCode !== null || proc.signalCode !== null) reject(new Error(`${label} has exited`));
      else waiters.push({ match, resolve, reject });
    });
  };
  return {
    proc,
    expect,
    send: (msg) => proc.send(msg),
    stop() {
      return new Promise((resolve) => {
        if (proc.exitCode !== null || proc.signalCode !== null) return resolve();
        const timer = setTimeout(() => proc.kill('SIGKILL'), 2000);
        proc.once('exit', () => { clearTimeout(timer); resolve(); });
        if (proc.connected) proc.send({ type: 'exit' });
        else proc.kill('SIGKILL');
      });
    },
  };
}

function startServer(parser, workload, { count = false, nodeFlags = [], pkg = ROOT } = {}) {
  const argv = pinned(SERVER_CPU, [process.execPath, ...nodeFlags, __filename, '--child',
    `--parser=${parser}`, `--workload=${workload}`, `--package=${pkg}`]);
  if (count) argv.push('--count');
  const child = ipcChild(argv, `server (${parser})`);
  const byType = (type) => (msg) => msg.type === type || msg.type === 'unavailable';
  child.listening = child.expect(byType('listening'));
  child.request = (type) => {
    const reply = child.expect(byType(type));
    child.send({ type });
    return reply;
  };
  return child;
}

// ------------------------------------------------------------- loaders ----

function loaderChoice(wanted) {
  if (wanted === 'wrk' || (!wanted && which('wrk'))) {
    if (!which('wrk')) throw new Error('wrk is not installed (apt-get install wrk), or use --loader=autocannon');
    return 'wrk';
  }
  try {
    require.resolve('autocannon', { paths: [ROOT] });
    return 'autocannon';
  } catch {
    throw new Error('no load generator: run npm install (autocannon) or install wrk (apt-get install wrk)');
  }
}

// autocannon runs in one load process for the whole session.
function autocannonLoader() {
  const child = ipcChild(pinned(LOAD_CPU, [process.execPath, path.join(__dirname, 'server-load.js')]), 'load process');
  const ready = child.expect((m) => m.type === 'ready');
  let next = 0;
  return {
    name: 'autocannon',
    // Starts the load on every target; resolves once it runs, with done() for the results.
    async start({ workload, seed, connections, seconds, targets }) {
      await ready;
      const id = ++next;
      const started = child.expect((m) => m.id === id && (m.type === 'started' || m.type === 'done'));
      const done = child.expect((m) => m.id === id && m.type === 'done');
      child.send({ type: 'run', id, workload, seed, connections, seconds, targets });
      const first = await started;
      if (first.type === 'done') throw new Error(`load process: ${first.error}`);
      return {
        stop: () => child.send({ type: 'stop', id }),
        done: () => done.then((m) => {
          if (m.error) throw new Error(`load process: ${m.error}`);
          return m.results;
        }),
      };
    },
    close: () => child.stop(),
  };
}

// A Lua string literal for arbitrary bytes (long brackets would turn CR LF into LF).
function luaString(buf) {
  let out = '"';
  for (const byte of buf) {
    if (byte >= 0x20 && byte < 0x7f && byte !== 0x22 && byte !== 0x5c) out += String.fromCharCode(byte);
    else out += `\\${String(byte).padStart(3, '0')}`;
  }
  return out + '"';
}

// wrk: one process per target, its Lua script cycling through the workload's requests.
function wrkLoader() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'llhttp-napi-wrk-'));
  const scripts = new Map();
  const script = (workload, seed) => {
    const key = `${workload}/${seed}`;
    if (!scripts.has(key)) {
      const list = workloads.requests(workload, { seed });
      const file = path.join(dir, `${workload}-${seed}.lua`);
      const body = list.map((req) => luaString(workloads.serialize(req))).join(',\n');
      fs.writeFileSync(file, `local requests = {\n${body}\n}\nlocal n = #requests\nlocal i = 0\n` +
        'request = function()\n  i = i % n + 1\n  return requests[i]\nend\n');
      scripts.set(key, file);
    }
    return scripts.get(key);
  };
  const bin = which('wrk');
  return {
    name: 'wrk',
    async start({ workload, seed, connections, seconds, targets }) {
      const file = script(workload, seed);
      const procs = targets.map(({ tag, port }) => {
        const argv = pinned(LOAD_CPU, [bin, '-t1', `-c${connections}`, `-d${Math.ceil(seconds)}s`, '--timeout', '10s',
          '-s', file, `http://127.0.0.1:${port}/`]);
        const proc = spawn(argv[0], argv.slice(1), { stdio: ['ignore', 'pipe', 'pipe'] });
        let out = '';
        proc.stdout.on('data', (d) => { out += d; });
        proc.stderr.on('data', (d) => { out += d; });
        const done = new Promise((resolve) => proc.on('close', () => {
          const num = (re) => Number((re.exec(out) || [])[1] || 0);
          const errs = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(out);
          resolve([tag, { requests: num(/(\d+) requests in/), rps: num(/Requests\/sec:\s+([\d.]+)/),
            non2xx: num(/Non-2xx or 3xx responses: (\d+)/),
            errors: errs ? Number(errs[1]) + Number(errs[2]) + Number(errs[3]) : 0, timeouts: errs ? Number(errs[4]) : 0 }]);
        }));
        return { proc, done };
      });
      return {
        stop: () => { for (const { proc } of procs) proc.kill('SIGINT'); },
        done: () => Promise.all(procs.map((p) => p.done)).then(Object.fromEntries),
      };
    },
    close: async () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}

// ------------------------------------------------------------ a round -----

// Both servers at once, one window: CPU µs per request for each.
async function pairedRound({ workload, loader, round, warmup, duration, connections, seed, count = false,
  nodeFlagsFor = () => [], pkg, perfDir = null }) {
  // Alternate which server starts (and is loaded) first.
  const order = round % 2 === 0 ? PARSERS : [...PARSERS].reverse();
  const servers = {};
  for (const p of order) servers[p] = startServer(p, workload, { count, nodeFlags: nodeFlagsFor(p, round), pkg });
  try {
    const hello = {};
    for (const p of order) hello[p] = await servers[p].listening;
    if (hello.napi.type === 'unavailable') return { unavailable: hello.napi.reason };
    const run = await loader.start({ workload, seed, connections, seconds: warmup + duration + 1.5,
      targets: order.map((p) => ({ tag: p, port: hello[p].port })) });
    await sleep(warmup * 1000);
    const cpu0 = {};
    const t0 = {};
    for (const p of order) {
      await servers[p].request('reset');
      cpu0[p] = cpuSeconds(servers[p].proc.pid);
      t0[p] = process.hrtime.bigint();
    }
    const recording = perfDir ? profile.perfRecord(order.map((p) => servers[p].proc.pid), duration,
      path.join(perfDir, `${workload}-${round}.perf.data`)) : null;
    await sleep(duration * 1000);
    const out = { order };
    for (const p of order) {
      const cpu = cpuSeconds(servers[p].proc.pid) - cpu0[p];
      const report = await servers[p].request('report');
      const wall = Number(process.hrtime.bigint() - t0[p]) / 1e9;
      const n = report.requests;
      out[p] = {
        requests: n, cpuSeconds: cpu, wallSeconds: wall, parserSeen: report.parser, window: report.window,
        cpuUsPerRequest: n ? (cpu * 1e6) / n : NaN,
        requestsPerSecond: n / wall,
        chunksPerRequest: n ? report.chunks / n : 0,
        bytesPerRequest: n ? report.bytes / n : 0,
        ticksPerRequest: count && n ? report.ticks / n : null,
        emitsPerRequest: count && n ? report.emits / n : null,
        tickNames: count ? perRequest(report.tickNames, n) : null,
        emitNames: count ? perRequest(report.emitNames, n) : null,
      };
    }
    run.stop();
    const loads = await run.done();
    for (const p of order) {
      const l = loads[p] || {};
      out[p].loaderErrors = l.error || (l.errors || l.non2xx || l.timeouts ?
        `errors=${l.errors || 0} non2xx=${l.non2xx || 0} timeouts=${l.timeouts || 0}` : null);
    }
    out.ratio = out.napi.cpuUsPerRequest / out.builtin.cpuUsPerRequest;
    if (recording) {
      // perf records `duration` seconds from just after the reset: requests at the window's rate.
      const rec = await recording;
      out.perf = { recording: rec, servers: {} };
      for (const p of order) {
        out.perf.servers[p] = { pid: servers[p].proc.pid, requests: out[p].requestsPerSecond * rec.seconds };
      }
      out.perf.report = profile.perfReport(rec, out.perf.servers);
    }
    return out;
  } finally {
    await Promise.all(Object.values(servers).map((s) => s.stop()));
  }
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

// ----------------------------------------------------------- statistics ----

function binomialCdf(k, n) {
  let sum = 0;
  let term = 0.5 ** n; // C(n, 0) / 2^n
  for (let i = 0; i <= k; i++) {
    sum += term;
    term = (term * (n - i)) / (i + 1);
  }
  return sum;
}

// Distribution-free interval of the median: (x(k), x(n+1-k)), the narrowest
// whose coverage 1 - 2 P(B(n, 1/2) < k) is at least `level`. Null below 6 values.
function medianInterval(values, level = 0.95) {
  const s = [...values].sort((a, b) => a - b);
  const n = s.length;
  let best = null;
  for (let k = 1; k <= n / 2; k++) {
    const coverage = 1 - 2 * binomialCdf(k - 1, n);
    if (coverage < level) break;
    best = { ci: [s[k - 1], s[n - k]], coverage };
  }
  return best;
}

function ratioStats(ratios) {
  const out = { n: ratios.length, median: stats.median(ratios), ci: null, coverage: null,
    geoMean: null, geoCi: null, p: null, stars: '' };
  const mi = medianInterval(ratios);
  if (mi) Object.assign(out, mi);
  const logs = ratios.map(Math.log);
  out.geoMean = Math.exp(stats.mean(logs));
  if (ratios.length >= 2) {
    const se = Math.sqrt(stats.variance(logs) / logs.length);
    const q = stats.tQuantile(0.975, logs.length - 1);
    const m = stats.mean(logs);
    out.geoCi = [Math.exp(m - q * se), Math.exp(m + q * se)];
    out.p = se > 0 ? stats.tTwoSided(m / se, logs.length - 1) : (m === 0 ? 1 : 0);
    out.stars = stats.stars(out.p);
  }
  return out;
}

// ------------------------------------------------------------- session ----

// What was measured: revision, uncommitted changes under lib/ src/, digests
// of lib/*.js and of the addon binary (the tree is shared; the addon may be
// rebuilt mid-run), the node binary.
function identity(pkg = ROOT) {
  const out = { node: process.version, llhttp: process.versions.llhttp, execPath: process.execPath, package: pkg,
    revision: null, dirty: null, lib: null, addon: null };
  try {
    // A snapshot made with `git archive <rev> | tar -x` carries its revision in a REVISION file.
    out.revision = fs.readFileSync(path.join(pkg, 'REVISION'), 'utf8').trim();
    out.dirty = [];
  } catch {
    try {
      const git = (args) => execFileSync('git', args, { cwd: pkg, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
      out.revision = git(['rev-parse', '--short=10', 'HEAD']);
      out.dirty = git(['status', '--porcelain', '--', 'lib', 'src', 'binding.gyp']).split('\n').filter(Boolean);
    } catch {}
  }
  const digest = (files) => {
    const hash = crypto.createHash('sha1');
    for (const f of files) {
      try {
        hash.update(fs.readFileSync(f));
      } catch {
        hash.update('missing');
      }
    }
    return hash.digest('hex').slice(0, 10);
  };
  const libDir = path.join(pkg, 'lib');
  let libFiles = [];
  try {
    libFiles = fs.readdirSync(libDir).filter((f) => f.endsWith('.js')).sort().map((f) => path.join(libDir, f));
  } catch {}
  out.lib = digest(libFiles);
  out.addon = digest([path.join(pkg, 'build', 'Release', 'llhttp_napi.node')]);
  return out;
}

async function e2e({ workloads: names = workloads.NAMES, rounds = 9, duration = 3, warmup = 1.5, connections = 50,
  seed = 1, loader: wanted, countDuration = 2, count = true, cpuProf = null, cpuProfParser = null,
  pkg = ROOT, serverFlags = [], perf = null, onProgress = () => {} } = {}) {
  pkg = path.resolve(pkg);
  if (perf) {
    if (!profile.havePerf()) throw new Error('--perf needs perf (apt-get install linux-perf)');
    fs.mkdirSync(perf, { recursive: true });
    serverFlags = [...serverFlags, '--perf-basic-prof'];
  }
  for (const name of names) {
    if (!workloads.NAMES.includes(name)) throw new Error(`unknown workload "${name}" (one of ${workloads.NAMES.join(', ')})`);
  }
  const loaderName = loaderChoice(wanted);
  const result = {
    loader: loaderName,
    pinned: Boolean(TASKSET && CPUS > 1),
    settings: { rounds, duration, warmup, connections, seed, countDuration, count },
    started: new Date().toISOString(),
    identity: identity(pkg),
    loadavg: [os.loadavg()[0]],
    workloads: {},
    unavailable: null,
  };
  const nodeFlagsFor = (workload) => (parser, round) => {
    if (!cpuProf || (cpuProfParser && parser !== cpuProfParser)) return serverFlags;
    return [...serverFlags, '--cpu-prof', '--cpu-prof-interval=100', `--cpu-prof-dir=${cpuProf}`,
      `--cpu-prof-name=${workload}-${parser}-${round}.cpuprofile`];
  };
  const loader = loaderName === 'wrk' ? wrkLoader() : autocannonLoader();
  const steps = names.length * (rounds + (count ? 1 : 0));
  let step = 0;
  try {
    for (const workload of names) {
      const list = workloads.requests(workload, { seed });
      const w = {
        description: workloads.DESCRIPTIONS[workload],
        distinct: list.length,
        headerLines: [Math.min(...list.map(workloads.headerCount)), Math.max(...list.map(workloads.headerCount))],
        requestBytes: Math.round(stats.mean(list.map((r) => workloads.serialize(r).length))),
        digest: workloads.digest(list),
        rounds: [],
        counts: null,
        stats: null,
      };
      result.workloads[workload] = w;
      for (let i = 0; i < rounds && !result.unavailable; i++) {
        onProgress({ step: step++, steps, what: `${workload}: paired round ${i + 1}/${rounds}` });
        const r = await pairedRound({ workload, loader, round: i, warmup, duration, connections, seed, pkg,
          nodeFlagsFor: nodeFlagsFor(workload), perfDir: perf });
        if (r.unavailable) result.unavailable = r.unavailable;
        else w.rounds.push(r);
      }
      if (count && !result.unavailable) {
        onProgress({ step: step++, steps, what: `${workload}: tick/emit count` });
        w.counts = await pairedRound({ workload, loader, round: 0, warmup: Math.min(warmup, 1), duration: countDuration,
          connections, seed, pkg, count: true });
        if (w.counts.unavailable) result.unavailable = w.counts.unavailable;
      }
      const ratios = w.rounds.map((r) => r.ratio).filter(Number.isFinite);
      if (ratios.length) {
        w.stats = ratioStats(ratios);
        for (const p of PARSERS) w.stats[p] = stats.median(w.rounds.map((r) => r[p].cpuUsPerRequest));
      }
      w.parsePath = parsePathOf(w.rounds);
    }
  } finally {
    await loader.close();
  }
  result.loadavg.push(os.loadavg()[0]);
  const end = identity(pkg);
  if (end.addon !== result.identity.addon || end.lib !== result.identity.lib) {
    result.warning = `lib/ or the addon changed during the run (lib ${result.identity.lib} → ${end.lib}, ` +
      `addon ${result.identity.addon} → ${end.addon}): the figures mix code versions; run again`;
  }
  compat(result);
  return result;
}

// The fields benchmark/run.js's summary reads (the hello workload's figures).
function compat(result) {
  const w = result.workloads.hello || result.workloads[Object.keys(result.workloads)[0]];
  result.rounds = [];
  result.paired = [];
  result.counts = {};
  result.builtin = [];
  result.napi = [];
  result.stats = null;
  result.pairedStats = null;
  if (!w) return;
  result.paired = w.rounds;
  result.builtin = w.rounds.map((r) => r.builtin.cpuUsPerRequest);
  result.napi = w.rounds.map((r) => r.napi.cpuUsPerRequest);
  if (w.counts && !w.counts.unavailable) for (const p of PARSERS) result.counts[p] = w.counts[p];
  if (w.stats) {
    const s = w.stats;
    result.stats = { ratio: s.median, ci: s.ci, p: s.p, stars: s.stars, medianA: s.builtin, medianB: s.napi };
    result.pairedStats = { geoMean: s.geoMean, ci: s.geoCi, median: s.median };
  }
}

// ------------------------------------------------------------- reports -----

const fmt = (x, d = 1) => (x === null || x === undefined || Number.isNaN(x) ? '—' : x.toFixed(d));
const fmtCi = (ci, d = 3) => (ci ? `${ci[0].toFixed(d)}–${ci[1].toFixed(d)}` : '—');

function describe(result) {
  const lines = [];
  const id = result.identity || {};
  lines.push(`node ${id.node} (llhttp ${id.llhttp}); llhttp-napi at ${id.revision}` +
    (id.package && id.package !== ROOT ? ` (${id.package})` : '') +
    (id.dirty && id.dirty.length ? ` + ${id.dirty.length} uncommitted file(s) in lib/src (${id.dirty.map((l) => l.slice(3)).join(', ')})` : '') +
    `; lib ${id.lib}, addon ${id.addon}`);
  lines.push(`load: ${result.loader}, ${result.settings.connections} keep-alive connections per server; ` +
    (result.pinned ? `servers on CPU ${SERVER_CPU}, load on CPU ${LOAD_CPU} (taskset)` : 'not pinned (no taskset or one CPU)') +
    `; ${result.settings.rounds} paired rounds × ${result.settings.duration} s after ${result.settings.warmup} s warm-up; ` +
    `load average ${result.loadavg.map((x) => x.toFixed(1)).join(' → ')}`);
  if (result.warning) lines.push(`WARNING: ${result.warning}`);
  if (result.unavailable) lines.push(`napi unavailable: ${result.unavailable}`);
  for (const [name, w] of Object.entries(result.workloads)) {
    lines.push('');
    lines.push(`== ${name}: ${w.description}`);
    lines.push(`   ${w.distinct} distinct request(s), ${w.headerLines[0]}–${w.headerLines[1]} header lines, ` +
      `${w.requestBytes} bytes on average (digest ${w.digest})`);
    lines.push('   round  CPU µs/req builtin   napi   ratio   req/s builtin / napi' +
      (w.rounds.some((r) => r.builtin.chunksPerRequest) ? '   body chunks/req' : ''));
    w.rounds.forEach((r, i) => {
      const errs = PARSERS.filter((p) => r[p].loaderErrors).map((p) => `${p}: ${r[p].loaderErrors}`);
      const seen = PARSERS.filter((p) => r[p].parserSeen !== p).map((p) => `${p} server saw ${r[p].parserSeen}`);
      lines.push(`   ${String(i + 1).padStart(5)}  ${fmt(r.builtin.cpuUsPerRequest).padStart(18)}  ${fmt(r.napi.cpuUsPerRequest).padStart(6)}` +
        `  ${fmt(r.ratio, 3).padStart(6)}   ${fmt(r.builtin.requestsPerSecond, 0).padStart(7)} / ${fmt(r.napi.requestsPerSecond, 0).padEnd(6)}` +
        (r.builtin.chunksPerRequest ? `   ${fmt(r.builtin.chunksPerRequest, 2)} / ${fmt(r.napi.chunksPerRequest, 2)}` : '') +
        (errs.length ? `  (${errs.join('; ')})` : '') + (seen.length ? `  (${seen.join('; ')})` : ''));
    });
    const s = w.stats;
    if (s) {
      lines.push(`   ratio napi/builtin: median ${fmt(s.median, 3)} (95% CI ${fmtCi(s.ci)}` +
        (s.coverage ? `, order statistics, coverage ${(s.coverage * 100).toFixed(1)}%` : ', needs ≥ 6 rounds') +
        `); geometric mean ${fmt(s.geoMean, 3)} (95% CI ${fmtCi(s.geoCi)}, p ${s.p === null ? '—' : s.p.toPrecision(2)}) ${s.stars}`);
      lines.push(`   CPU µs/request, medians: builtin ${fmt(s.builtin)}, napi ${fmt(s.napi)}`);
    }
    w.rounds.forEach((r, i) => {
      if (r.perf && r.perf.report) {
        lines.push(`   round ${i + 1}, ${profile.perfTable(r.perf.report, 25).split('\n').join('\n   ')}`);
      }
    });
    const pp = w.parsePath;
    if (pp) {
      lines.push(`   parse path by perf, µs/request, median of ${pp.rounds} round(s): builtin ${fmt(pp.builtin, 2)}, ` +
        `napi ${fmt(pp.napi, 2)}; ratio ${fmt(pp.ratio, 3)} (rounds ${fmt(pp.ratioRange[0], 3)}–${fmt(pp.ratioRange[1], 3)}); ` +
        `whole request ${fmt(pp.wholeBuiltin, 2)} / ${fmt(pp.wholeNapi, 2)}`);
    }
    const c = w.counts;
    if (c && !c.unavailable) {
      lines.push(`   per request: builtin ${fmt(c.builtin.ticksPerRequest, 2)} nextTicks, ${fmt(c.builtin.emitsPerRequest, 2)} emits; ` +
        `napi ${fmt(c.napi.ticksPerRequest, 2)} nextTicks, ${fmt(c.napi.emitsPerRequest, 2)} emits ` +
        `(${c.builtin.requests} / ${c.napi.requests} requests counted)`);
      for (const [what, key] of [['nextTicks by callback', 'tickNames'], ['emits by emitter:event', 'emitNames']]) {
        const diff = differences(c.builtin[key], c.napi[key]);
        if (diff.length) {
          lines.push(`   ${what} where they differ (builtin → napi): ` +
            diff.map((d) => `${d.key} ${fmt(d.builtin, 2)} → ${fmt(d.napi, 2)}`).join(', '));
        }
      }
    }
  }
  lines.push('');
  lines.push(summary(result));
  return lines.join('\n');
}

// The parse path by perf (server-profile.js PARSE_PATH) over the rounds
// that were recorded: medians of each parser's µs/request and of the
// per-round ratios, with their range; null without --perf.
function parsePathOf(rounds) {
  const reports = rounds.map((r) => r.perf && r.perf.report).filter(Boolean);
  if (reports.length === 0) return null;
  const range = (xs) => [Math.min(...xs), Math.max(...xs)];
  const ratios = reports.map((x) => x.napi.parsePath / x.builtin.parsePath);
  return {
    rounds: reports.length,
    builtin: stats.median(reports.map((x) => x.builtin.parsePath)),
    napi: stats.median(reports.map((x) => x.napi.parsePath)),
    ratio: stats.median(ratios),
    ratioRange: range(ratios),
    wholeBuiltin: stats.median(reports.map((x) => x.builtin.total)),
    wholeNapi: stats.median(reports.map((x) => x.napi.total)),
  };
}

// One table over the workloads.
function summary(result) {
  const rows = [['workload', 'µs/req builtin', 'napi', 'ratio (median)', '95% CI', 'geo mean (95% CI)',
    'ticks b/n', 'emits b/n', 'parse path b/n (ratio)']];
  for (const [name, w] of Object.entries(result.workloads)) {
    const s = w.stats || {};
    const c = w.counts && !w.counts.unavailable ? w.counts : null;
    rows.push([name, fmt(s.builtin), fmt(s.napi), fmt(s.median, 3), fmtCi(s.ci),
      s.geoMean ? `${fmt(s.geoMean, 3)} (${fmtCi(s.geoCi)})` : '—',
      c ? `${fmt(c.builtin.ticksPerRequest, 2)}/${fmt(c.napi.ticksPerRequest, 2)}` : '—',
      c ? `${fmt(c.builtin.emitsPerRequest, 2)}/${fmt(c.napi.emitsPerRequest, 2)}` : '—',
      w.parsePath ? `${fmt(w.parsePath.builtin, 2)}/${fmt(w.parsePath.napi, 2)} (${fmt(w.parsePath.ratio, 3)})` : '—']);
  }
  const widths = rows[0].map((_, j) => Math.max(...rows.map((r) => String(r[j]).length)));
  return rows.map((r) => r.map((cell, j) => (j === 0 ? String(cell).padEnd(widths[j]) : String(cell).padStart(widths[j])))
    .join('  ')).join('\n');
}

module.exports = { e2e, describe, summary, medianInterval, ratioStats };

if (require.main === module) {
  const { options } = common.parseArgs();
  if (options.child) {
    child({ parser: options.parser, workload: options.workload || 'hello', count: Boolean(options.count),
      pkg: options.package || ROOT });
  } else {
    const tty = process.stderr.isTTY;
    const list = (options.workload || options.workloads || 'all') === 'all' ? workloads.NAMES :
      String(options.workload || options.workloads).split(',').map((s) => s.trim()).filter(Boolean);
    e2e({
      workloads: list,
      rounds: Number(options.rounds || 9),
      duration: Number(options.duration || 3),
      warmup: Number(options.warmup || 1.5),
      connections: Number(options.connections || 50),
      seed: Number(options.seed || 1),
      countDuration: Number(options['count-duration'] || 2),
      count: !options['no-count'],
      loader: options.loader,
      cpuProf: options['cpu-prof'] ?
        path.resolve(options['cpu-prof'] === true ? path.join(__dirname, 'results', 'prof') : options['cpu-prof']) : null,
      cpuProfParser: options['cpu-prof-parser'] || null,
      pkg: options.package || ROOT,
      serverFlags: options['server-flags'] ? String(options['server-flags']).split(',') : [],
      perf: options.perf ? path.resolve(options.perf === true ? path.join(__dirname, 'results', 'perf') : options.perf) : null,
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
