'use strict';
// What the benchmark programs share, as Node's benchmark/common.js is shared:
// the command line, configurations and output in Node's format, the two
// parsers and the parse workload, the statistics of a series of ratios, and
// the processes of the end-to-end benchmarks (pinning, IPC, CPU per request,
// rounds). The benchmarks use llhttp-napi's public API only, as a user would.

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawn, spawnSync, execFileSync } = require('node:child_process');
const ss = require('simple-statistics');
const corpus = require('./corpus');

const ROOT = path.resolve(__dirname, '..');
// The two sides of every comparison: Node's built-in parser and ours.
const PARSERS = ['builtin', 'napi'];

// The order of the two sides in round (or batch) i: neither always first.
const roundOrder = (i) => (i % 2 === 0 ? PARSERS : [...PARSERS].reverse());

// `--key[=value]` options, `key=value[,value]` configuration overrides, the
// rest; option(name, fallback) and setting(key, fallback) read one as the
// fallback's type (a number, or a list: comma-separated, `all` the fallback).
function parseArgs(argv = process.argv.slice(2)) {
  const options = {};
  const overrides = {};
  const rest = [];
  for (const arg of argv) {
    let m;
    if ((m = /^--([\w-]+)(?:=(.*))?$/.exec(arg))) options[m[1]] = m[2] === undefined ? true : m[2];
    else if ((m = /^(\w+)=(.*)$/.exec(arg))) overrides[m[1]] = m[2].split(',');
    else rest.push(arg);
  }
  const as = (value, fallback) => {
    if (value === undefined) return fallback;
    if (Array.isArray(fallback)) return value === 'all' ? fallback : String(value).split(',').map((v) => as(v, fallback[0]));
    return typeof fallback === 'number' ? Number(value) : value;
  };
  const option = (name, fallback) => as(options[name], fallback);
  const setting = (key, fallback) => as(overrides[key] && overrides[key].join(','), fallback);
  return { options, overrides, rest, option, setting };
}

// A progress line on stderr: rewritten in place on a terminal, a line each otherwise.
const TTY = process.stderr.isTTY;
const progress = (text) => process.stderr.write(TTY ? `\r\x1b[K${text}` : `${text}\n`);

// A program's main: run(args) (parseArgs's) gives a result, printed by
// describe(result), or as JSON with --json; an error ends the process with
// status 1, as does a result with an `error`.
function main(run, describe) {
  const args = parseArgs();
  Promise.resolve().then(() => run(args)).then((result) => {
    if (TTY) process.stderr.write('\r\x1b[K');
    console.log(args.options.json ? JSON.stringify(result) : describe(result));
    if (result && result.error) process.exitCode = 1;
  }, (err) => {
    console.error(err.stack || err.message);
    process.exit(1);
  });
}

const convert = (v) => (typeof v === 'string' && v !== '' && Number.isFinite(Number(v)) ? Number(v) : v);

// Every combination of the configurations' values after the overrides, one
// of those shown(conf) prints alike.
function configurations(configs, overrides, shown = (conf) => conf) {
  for (const key of Object.keys(overrides)) {
    if (!(key in configs)) throw new Error(`unknown setting ${key} (${Object.keys(configs).join(', ')})`);
  }
  let out = [{}];
  for (const [key, values] of Object.entries({ ...configs, ...overrides })) {
    out = out.flatMap((partial) => values.map((value) => ({ ...partial, [key]: convert(value) })));
  }
  const seen = new Set();
  return out.filter((conf) => {
    const key = JSON.stringify(shown({ ...conf }));
    return !seen.has(key) && seen.add(key);
  });
}

// Node's number format: thousands separators, one decimal.
function formatRate(rate) {
  const [int, dec] = (Math.round(rate * 10) / 10).toString().split('.');
  return int.replace(/\B(?=(\d{3})+(?!\d))/g, ',') + (dec ? `.${dec}` : '');
}

const formatLine = (name, conf, rate) =>
  `${name}${Object.keys(conf).map((k) => ` ${k}=${conf[k]}`).join('')}: ${formatRate(rate)}`;

// One output line back: { name, conf, rate } or null.
function parseLine(line) {
  const m = /^(\S+\.(?:js|c))((?: [\w-]+=[^\s:]+)*): ([\d,]+(?:\.\d+)?)\s*$/.exec(line);
  if (!m) return null;
  const conf = Object.fromEntries(m[2].trim().split(' ').filter(Boolean).map((p) => p.split('=')));
  return { name: m[1], conf, rate: Number(m[3].replace(/,/g, '')) };
}

// Operations per second over a timed region: wall clock (Node's harness) or
// the process's CPU time (all threads), which leaves out the time spent
// waiting for a core on a busy machine.
function timer(clock = 'wall') {
  if (clock !== 'wall' && clock !== 'cpu') throw new Error(`unknown clock "${clock}" (wall or cpu)`);
  const now = clock === 'cpu' ? () => { const u = process.cpuUsage(); return (u.user + u.system) * 1e3; } :
    () => Number(process.hrtime.bigint());
  let t0 = 0;
  return { start() { t0 = now(); }, end(ops) { return ops / ((now() - t0) / 1e9); } };
}

// Node's createBenchmark: runs main(conf) (ops/s, or null for a configuration
// it skipped) in this process when one configuration is left, otherwise each
// in a fresh process, and prints a line of Node's format each:
//   http/bench-parser.js parser=napi n=100000 len=8: 1,395,311.5
function createBenchmark(file, name, configs, main, shown) {
  const { options, overrides } = parseArgs();
  const parser = options.parser || 'napi';
  if (!PARSERS.includes(parser)) throw new Error(`unknown parser "${parser}" (builtin or napi)`);
  const combos = configurations(configs, overrides, shown);
  if (combos.length === 1) {
    const rate = main({ ...combos[0], parser, clock: options.clock || 'wall' });
    if (rate !== null) console.log(formatLine(name, { parser, ...shown({ ...combos[0] }) }, rate));
    return;
  }
  let failed = 0;
  for (const conf of combos) {
    const args = [file, `--parser=${parser}`, ...(options.clock ? [`--clock=${options.clock}`] : []),
      ...Object.keys(conf).map((k) => `${k}=${conf[k]}`)];
    if (spawnSync(process.execPath, args, { stdio: 'inherit' }).status !== 0) failed++;
  }
  if (failed) process.exitCode = 1;
}

// ------------------------------------------------------------ parsers ----

// The parser class of a side: node:http's own, or ours.
function loadParser(name) {
  if (name === 'builtin') return require('_http_common').HTTPParser;
  if (name === 'napi') return require(ROOT).HTTPParser;
  throw new Error(`unknown parser "${name}" (builtin or napi)`);
}

// In a process that measures node:http: 'napi' calls install() of the
// llhttp-napi at `pkg`. Returns null, or why ours could not be installed.
function useParser(name, pkg = ROOT) {
  if (name !== 'napi') return null;
  try {
    return require(pkg).install() === false ? 'install() returned false (see its warning)' : null;
  } catch (err) {
    return `the addon does not load: ${err.message}`;
  }
}

// Which parser node:http gave a socket; `ours` is our HTTPParser where installed.
function whichParser(parser, ours) {
  if (ours) return parser instanceof ours ? 'napi' : `not ours (${parser && parser.constructor.name})`;
  return parser && typeof parser.getAllHeaders !== 'function' ? 'builtin' : 'not the built-in';
}

// A parser as Node's bench-parser.js makes one: each callback a no-op unless
// `handlers` gives it.
function makeParser(HTTPParser, type, handlers = {}) {
  const parser = new HTTPParser();
  parser.initialize(type, {});
  parser.headers = [];
  for (const slot of ['kOnHeaders', 'kOnHeadersComplete', 'kOnBody', 'kOnMessageComplete']) {
    parser[HTTPParser[slot]] = handlers[slot] || function() {};
  }
  return parser;
}

// The timed loop: loop(n) parses n messages, one execute() per piece, then
// initialize(). Compiled per parser (new Function, `which` in its name) so
// that its call sites see one parser class: closures of one source would
// share type feedback where both parsers run in one process (paired.js).
function parseLoop(which, parser, pieces, type) {
  const whole = pieces.every((p) => p.length === 1);
  const messages = whole ? pieces.map((p) => p[0]) : pieces;
  const parse = whole ? 'parser.execute(message, 0, message.length);' :
    'for (let f = 0; f < message.length; f++) parser.execute(message[f], 0, message[f].length);';
  // One message is fetched once, outside the loop (Node's shape); several in turn.
  const [once, each] = messages.length === 1 ? ['const message = messages[0];', ''] :
    ['let j = 0;', 'const message = messages[j]; if (++j === messages.length) j = 0;'];
  const body = `${once}
    return function loop_${which}(n) {
      for (let i = 0; i < n; i++) { ${each} ${parse} parser.initialize(TYPE, {}); }
    };`;
  return new Function('parser', 'messages', 'TYPE', `'use strict'; // ${which}\n${body}`)(parser, messages, type);
}

// The request of Node's bench-parser.js: Content-Type and `len` X-Filler headers.
function benchRequest(len) {
  const random = corpus.prng(0x5eed + len);
  let head = 'GET /hello HTTP/1.1\r\nContent-Type: text/plain\r\n';
  for (let i = 0; i < len; i++) {
    let digits = '';
    for (let j = 0; j < 16; j++) digits += Math.floor(random() * 10);
    head += `X-Filler${i}: ${digits}\r\n`;
  }
  return Buffer.from(head + '\r\n', 'latin1');
}

// The messages of a parser benchmark: vary=0 one message again and again (the
// bench-parser request, or the corpus's first response), vary=1 `count`
// distinct corpus messages round-robin. pieces[i] is message i in `frags`
// pieces: equal sizes for vary=0, pseudo-random cut points for vary=1.
function workload({ vary = 0, kind = 'request', len = 8, count = 1000, frags = 1, seed = 1 } = {}) {
  if (kind !== 'request' && kind !== 'response') throw new Error(`unknown kind "${kind}" (request or response)`);
  const buffers = Number(vary) === 1 ? corpus.corpusBuffers(kind, count, seed) :
    [kind === 'request' ? benchRequest(len) : corpus.corpusBuffers('response', 1, seed)[0]];
  const pieces = buffers.map((buf) => {
    if (frags <= 1) return [buf];
    if (Number(vary) === 1) return corpus.splitPoints(buf, frags, seed);
    const size = Math.ceil(buf.length / frags);
    return Array.from({ length: frags }, (_, i) => buf.subarray(i * size, Math.min((i + 1) * size, buf.length)));
  });
  return { type: kind === 'request' ? 'REQUEST' : 'RESPONSE', buffers, pieces };
}

// Parses every message once with a fresh parser, outside any timed loop, and
// throws unless each piece parses whole and each message completes.
function verifyWorkload(HTTPParser, work) {
  const TYPE = HTTPParser[work.type];
  let completed = 0;
  const parser = makeParser(HTTPParser, TYPE, { kOnMessageComplete() { completed++; } });
  work.pieces.forEach((pieces, i) => {
    for (const piece of pieces) {
      const ret = parser.execute(piece, 0, piece.length);
      if (ret !== piece.length) throw new Error(`message ${i}: execute returned ${ret instanceof Error ? ret.code : ret}`);
    }
    if (completed !== i + 1) throw new Error(`message ${i} did not complete`);
    parser.initialize(TYPE, {});
  });
  if (typeof parser.close === 'function') parser.close();
}

// --------------------------------------------------------- statistics ----

// The median of a series of ratios (rounds, batches) with its 95%
// distribution-free interval: the order statistics x(k) and x(n+1-k) for the
// largest k whose coverage (from the binomial(n, 1/2) distribution) stays at
// least 95%; below 6 values no interval reaches 95% and the range is given
// with its coverage.
function ratioStats(ratios) {
  const xs = ratios.filter(Number.isFinite).sort((a, b) => a - b);
  const n = xs.length;
  if (!n) return null;
  const pmf = ss.binomialDistribution(n, 0.5);
  let k = 0;
  let tail = pmf[0];
  while (k + 1 < n - 2 - k && 1 - 2 * (tail + (pmf[k + 1] || 0)) >= 0.95) tail += pmf[++k] || 0;
  return { n, median: ss.medianSorted(xs), ci: [xs[k], xs[n - 1 - k]], coverage: 1 - 2 * tail };
}

// What a timed ratio's interval lets one say: a result, even, or undecided.
// `better` is 'lower' (CPU, memory) or 'higher' (speed).
function verdict(s, better) {
  if (!s) return 'no figure';
  const [lo, hi] = s.ci;
  const range = `${lo.toFixed(2)}–${hi.toFixed(2)}`;
  if (lo <= 1 && hi >= 1) {
    return hi - lo <= 0.06 ? `about even (${range})` : `too wide to decide (${range} straddles 1.00)`;
  }
  const good = better === 'lower' ? hi < 1 : lo > 1;
  return `${s.median.toFixed(2)}× (${range}), ${good ? 'ours better' : 'ours worse'}`;
}

// ------------------------------------------------------------ processes ----

const TASKSET = ['/usr/bin/taskset', '/bin/taskset'].find((f) => fs.existsSync(f));
const PINNED = Boolean(TASKSET && os.cpus().length > 1);
// The measured process (a server, a client) on CPU 0, what loads it on CPU 1.
const MEASURED_CPU = 0;
const LOAD_CPU = 1;
const pinned = (cpu, argv) => (PINNED ? [TASKSET, '-c', String(cpu), ...argv] : argv);

const CLK_TCK = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;

// { user, system }: utime and stime of a process (all its threads), in seconds.
function cpuSeconds(pid) {
  const text = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  return { user: Number(fields[11]) / CLK_TCK, system: Number(fields[12]) / CLK_TCK };
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// A child with typed IPC replies. A measured child (server-child.js,
// client.js --child) sends { type: 'listening' | 'ready' | 'unavailable' }
// first, answers { type: 'reset' } (its counters to zero) and { type:
// 'report' } (what it did since: { requests, ... }), and ends on 'exit'.
function ipcChild(argv, label) {
  const proc = spawn(argv[0], argv.slice(1), { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  proc.on('error', () => {}); // a send on a closed channel; 'exit' reports the end
  const waiters = [];
  const early = [];
  proc.on('message', (msg) => {
    const i = waiters.findIndex((w) => w.match(msg));
    if (i >= 0) waiters.splice(i, 1)[0].resolve(msg);
    else early.push(msg);
  });
  proc.on('exit', (code, signal) => {
    for (const w of waiters.splice(0)) w.reject(new Error(`${label} exited with ${code ?? signal}`));
  });
  const expect = (match) => {
    const j = early.findIndex(match);
    if (j >= 0) return Promise.resolve(early.splice(j, 1)[0]);
    if (proc.exitCode !== null || proc.signalCode !== null) return Promise.reject(new Error(`${label} has exited`));
    return new Promise((resolve, reject) => waiters.push({ match, resolve, reject }));
  };
  const byType = (...types) => (msg) => types.includes(msg.type) || msg.type === 'unavailable';
  return {
    proc,
    expect,
    ready: expect(byType('listening', 'ready')),
    send: (msg) => proc.send(msg),
    request(type, fields) {
      const reply = expect(byType(type));
      proc.send({ type, ...fields });
      return reply;
    },
    stop: () => new Promise((resolve) => {
      if (proc.exitCode !== null || proc.signalCode !== null) return resolve();
      const kill = setTimeout(() => proc.kill('SIGKILL'), 2000);
      proc.once('exit', () => { clearTimeout(kill); resolve(); });
      if (proc.connected) proc.send({ type: 'exit' });
      else proc.kill('SIGKILL');
    }),
  };
}

// A measured child's side of ipcChild: `reset` zeroes the tally's counts,
// `report` answers with them and fields() (read before sending: sending
// itself emits and ticks), `exit` ends the process.
function answerIpc(tally, fields = () => ({})) {
  process.on('message', (msg) => {
    if (msg.type === 'exit') process.exit(0);
    if (msg.type === 'reset') for (const key of Object.keys(tally)) tally[key] = 0;
    process.send(msg.type === 'report' ? { type: 'report', ...tally, ...fields() } : { type: msg.type });
  });
}

// Opens a measured window of a child (reset); report() closes it: the
// child's report with its CPU µs per request (user + system, and each) and
// requests per second.
async function startWindow(child) {
  await child.request('reset');
  const cpu0 = cpuSeconds(child.proc.pid);
  const t0 = process.hrtime.bigint();
  return async function report() {
    const cpu = cpuSeconds(child.proc.pid);
    const r = await child.request('report');
    return { ...r, ...perRequest(cpu0, cpu, r.requests, Number(process.hrtime.bigint() - t0) / 1e9) };
  };
}

// A window's CPU per request of a process, from its cpuSeconds() at the
// start and at the end, the requests it answered and the window's seconds:
// { cpuUsPerRequest (user + system), userUsPerRequest, systemUsPerRequest,
// requestsPerSecond }.
function perRequest(cpu0, cpu1, requests, seconds) {
  const us = (s) => (requests ? (s * 1e6) / requests : NaN);
  const user = cpu1.user - cpu0.user;
  const system = cpu1.system - cpu0.system;
  return { cpuUsPerRequest: us(user + system), userUsPerRequest: us(user), systemUsPerRequest: us(system),
    requestsPerSecond: requests / seconds };
}

// A round of both sides, ours / the built-in CPU per request. Solo: each side
// in turn (the order alternating with `round`), a fresh measured process
// alone on its CPU; paired: both at once, over one window. start(side) → an
// ipcChild; load([{ tag: side, port }]) → { stop(), done() } or null, started
// before the warm-up; onWindow({ side: pid }, seconds) as the window opens
// (server-profile.js records it) may return a promise, kept as `recording`.
async function round({ round: i, paired = false, start, load, warmup, duration, onWindow }) {
  const out = { order: roundOrder(i) };
  for (const sides of paired ? [out.order] : out.order.map((side) => [side])) {
    const children = sides.map(start);
    try {
      const hellos = [];
      for (const child of children) hellos.push(await child.ready);
      const gone = hellos.find((hello) => hello.type === 'unavailable');
      if (gone) return { unavailable: gone.reason };
      const run = await load(sides.map((tag, j) => ({ tag, port: hellos[j].port })));
      await sleep(warmup * 1000);
      const reports = [];
      for (const child of children) reports.push(await startWindow(child));
      const pids = Object.fromEntries(sides.map((side, j) => [side, children[j].proc.pid]));
      const recording = onWindow ? onWindow(pids, duration) : null;
      await sleep(duration * 1000);
      for (const [j, side] of sides.entries()) out[side] = await reports[j]();
      if (run) {
        run.stop();
        const loads = await run.done();
        for (const side of sides) out[side].loader = loads[side];
      }
      if (recording) out.recording = await recording;
    } finally {
      await Promise.all(children.map((child) => child.stop()));
    }
  }
  out.ratio = out.napi.cpuUsPerRequest / out.builtin.cpuUsPerRequest;
  return out;
}

// `count` rounds, run(i) each (a round()), none without our side: { rounds,
// stats }, ratioStats of their ratios with each side's median CPU µs (and
// [side]User, [side]System: its user and system µs; [side]Rps: requests a second).
async function series(count, run) {
  const rounds = [];
  for (let i = 0; i < count; i++) {
    const r = await run(i);
    if (r.unavailable) throw new Error(`napi unavailable: ${r.unavailable}`);
    rounds.push(r);
  }
  const stats = ratioStats(rounds.map((r) => r.ratio));
  if (stats) {
    for (const p of PARSERS) {
      stats[p] = ss.median(rounds.map((r) => r[p].cpuUsPerRequest));
      stats[`${p}User`] = ss.median(rounds.map((r) => r[p].userUsPerRequest));
      stats[`${p}System`] = ss.median(rounds.map((r) => r[p].systemUsPerRequest));
      stats[`${p}Rps`] = ss.median(rounds.map((r) => r[p].requestsPerSecond));
    }
  }
  return { rounds, stats };
}

// ------------------------------------------------------------- identity ----

// The checkout measured: its revision, and whether lib/ or src/ have changes.
function buildIdentity(pkg = ROOT) {
  const git = (args) => execFileSync('git', args, { cwd: pkg, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  try {
    const dirty = git(['status', '--porcelain', '--', 'lib', 'src']).split('\n').filter(Boolean).length;
    return `${git(['rev-parse', '--short=10', 'HEAD'])}${dirty ? ` + ${dirty} uncommitted file(s) in lib/ src/` : ''}`;
  } catch {
    return 'unknown revision';
  }
}

module.exports = {
  ROOT, PARSERS, roundOrder, parseArgs, configurations, formatRate, formatLine, parseLine, timer, createBenchmark,
  loadParser, useParser, whichParser, makeParser, parseLoop, benchRequest, workload, verifyWorkload,
  ratioStats, verdict, MEASURED_CPU, LOAD_CPU, pinned, cpuSeconds, perRequest, sleep, ipcChild, answerIpc, round, series, buildIdentity,
  progress, main,
};
