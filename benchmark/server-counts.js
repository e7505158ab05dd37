'use strict';
// What a server spends per request, counted instead of timed: a node:http
// server runs under valgrind's callgrind (--cache-sim=yes: the I1/D1 cache
// model cachegrind uses; --collect-systime: the syscalls), this process is its
// fixed client (one keep-alive connection, one request at a time), and the
// counts are dumped after N1 requests and again after N2: the second dump is
// exactly N2 - N1 requests (start-up, JIT warm-up and the client's pauses
// stay outside), divided by N2 - N1. Each side runs --runs times (median:
// the figures of a JIT'd server move between runs); the per-function account
// is the median run's. JIT'd code is named from the server's
// --perf-basic-prof map; callgrind itself names native code.
//
//   node benchmark/server-counts.js [browser|hello|express|WORKLOAD|APP.js] [--n1=2048] [--n2=10240]
//     [--runs=3] [--sides=builtin,napi] [--server=MODULE] [--node=BIN,...] [--top=25] [--jobs=2]
//     [--json=FILE] [--keep=DIR]
//
// browser: the distinct browser-like GETs of server-workloads.js answered
// with a small JSON that reads user-agent (the net-echo handler, in
// node:http); any other name is a server-workloads.js workload; a path is an
// app module exporting createApp() (Express-style) or a (req, res) handler,
// driven by the browser requests (--requests=NAME for others). Sides:
// builtin (node:http as is), napi (install()), and with --server=MODULE a side
// whose server is MODULE's createServer(handler) (e.g. llhttp-napi/server).
// Needs valgrind; a run of 10,240 requests takes a few minutes.

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const net = require('node:net');
const { spawn, execFileSync } = require('node:child_process');
const common = require('./common');
const workloads = require('./server-workloads');

const { options, rest } = common.parseArgs();
const target = rest[0] || 'browser';
const isApp = /[/\\]|\.[cm]?js$/.test(target);

// ---------------------------------------------------------- the server ----

function serve() {
  const side = options.side;
  const why = common.useParser(side === 'napi' ? 'napi' : 'builtin', path.resolve(options.package || common.ROOT));
  if (why) throw new Error(why);
  let handle;
  if (isApp) {
    const app = require(path.resolve(target));
    handle = typeof app.createApp === 'function' ? app.createApp() : app.handler || app;
  } else {
    handle = workloads.handler(target === 'browser' ? 'net-echo' : target, { requests: 0, chunks: 0, bytes: 0 });
  }
  const server = side !== 'builtin' && side !== 'napi' ? require(options.server).createServer(handle) :
    require('node:http').createServer(handle);
  server.keepAliveTimeout = 600000;
  Promise.resolve(handle.ready).then(() => server.listen(0, '127.0.0.1', () => {
    process.stdout.write(`listening ${server.address().port} ${process.pid}\n`);
  }));
}

// ----------------------------------------------------------- the client ----

// Sends `count` requests, one at a time, on `socket`; resolves when the last
// response has arrived (Content-Length or chunked framing).
function drive(socket, requests, first, count) {
  return new Promise((resolve, reject) => {
    let pending = Buffer.alloc(0);
    let sent = 0;
    const next = () => {
      if (sent === count) { socket.off('data', onData); resolve(); return; }
      socket.write(requests[(first + sent++) % requests.length]);
    };
    const onData = (chunk) => {
      pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
      for (;;) {
        const end = pending.indexOf('\r\n\r\n');
        if (end < 0) return;
        const head = pending.toString('latin1', 0, end);
        if (!/^HTTP\/1\.1 [2-4]/.test(head)) return reject(new Error(`bad response: ${head.slice(0, 80)}`));
        const m = /\r\ncontent-length: *(\d+)/i.exec(head);
        let size;
        if (m) size = end + 4 + Number(m[1]);
        else if (/\r\ntransfer-encoding: *chunked/i.test(head)) {
          const last = pending.indexOf('\r\n0\r\n\r\n', end);
          if (last < 0) return;
          size = last + 7;
        } else return reject(new Error('response without framing'));
        if (pending.length < size) return;
        pending = pending.subarray(size);
        next();
      }
    };
    socket.on('data', onData);
    socket.once('error', reject);
    next();
  });
}

function callgrindDump(pid) {
  execFileSync('callgrind_control', ['-d', String(pid)], { stdio: 'ignore', timeout: 300000 });
}

// One server under callgrind: its two dumps' files and its perf map.
async function runOne({ node, side, n1, n2, dir, tag }) {
  const out = path.join(dir, `${tag}.out`);
  const argv = ['--tool=callgrind', '--cache-sim=yes', '--collect-systime=yes', '--smc-check=all-non-file',
    '--dump-instr=no', `--callgrind-out-file=${out}`, `--log-file=${out}.log`,
    node, '--perf-basic-prof', __filename, target, '--serve', `--side=${side}`];
  if (options.server) argv.push(`--server=${options.server}`);
  if (options.package) argv.push(`--package=${options.package}`);
  const child = spawn('valgrind', argv, { stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    const [port, pid] = await new Promise((resolve, reject) => {
      let text = '';
      child.stdout.on('data', (d) => {
        text += d;
        const m = /listening (\d+) (\d+)/.exec(text);
        if (m) resolve([Number(m[1]), Number(m[2])]);
      });
      child.on('exit', (code) => reject(new Error(`server exited (${code}), see ${out}.log`)));
    });
    const requests = workloads.requests(options.requests || (isApp || target === 'net-echo' ? 'browser' :
      target)).map(workloads.serialize);
    const socket = net.connect(port, '127.0.0.1');
    socket.setNoDelay(true);
    await new Promise((resolve) => socket.once('connect', resolve));
    await drive(socket, requests, 0, n1);
    callgrindDump(pid);
    await drive(socket, requests, n1, n2 - n1);
    callgrindDump(pid);
    socket.destroy();
    return { window: `${out}.2`, map: `/tmp/perf-${pid}.map` };
  } finally {
    child.kill('SIGKILL');
  }
}

// ------------------------------------------------------------ the counts ----

// Self cost per function of one callgrind dump: Map(name -> { ob, costs[] }),
// and the event names.
function readDump(file) {
  const names = { ob: new Map(), fn: new Map() };
  const fns = new Map();
  let events = null;
  let ob = '';
  let fn = null;
  let skipNext = false;
  const define = (table, spec) => {
    const m = /^\((\d+)\)(?: (.*))?$/.exec(spec);
    if (!m) return spec;
    if (m[2] !== undefined) table.set(m[1], m[2]);
    return table.get(m[1]);
  };
  for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
    if (/^[0-9+\-*]/.test(line)) {
      if (skipNext) { skipNext = false; continue; }
      const parts = line.split(' ');
      for (let i = 1; i < parts.length; i++) fn.costs[i - 1] += Number(parts[i]);
    } else if (line.startsWith('events: ')) events = line.slice(8).trim().split(' ');
    else if (line.startsWith('ob=')) ob = define(names.ob, line.slice(3));
    else if (line.startsWith('cob=')) define(names.ob, line.slice(4));
    else if (line.startsWith('fn=') || line.startsWith('cfn=')) {
      const defined = define(names.fn, line.slice(line.indexOf('=') + 1));
      if (line[0] === 'c') continue;
      const name = defined.replace(/'\d+$/, ''); // (callgrind's recursion levels)
      const key = `${name}\0${ob}`;
      fn = fns.get(key);
      if (!fn) fns.set(key, (fn = { name, ob, costs: new Array(events.length).fill(0) }));
    } else if (line.startsWith('calls=')) skipNext = true;
  }
  return { events, fns };
}

// A perf map name without tier marks, position and the path before
// node_modules/, lib/ or benchmark/.
function shortName(name) {
  return name.replace(/^JS:[*~^+]?'?/, 'JS ').replace(/:\d+:\d+$/, '')
    .replace(/ \S*?\/(node_modules\/\S+|lib\/[^/ ]+\.js|benchmark\/\S+)$/, ' $1');
}

// JIT'd code named from the perf map (the latest code at an address wins).
function jitNamer(mapFile) {
  let entries = [];
  try {
    entries = fs.readFileSync(mapFile, 'utf8').split('\n').filter(Boolean).map((l, i) => {
      const m = /^([0-9a-f]+) ([0-9a-f]+) (.*)$/.exec(l);
      return m && { start: parseInt(m[1], 16), end: parseInt(m[1], 16) + parseInt(m[2], 16), name: m[3], i };
    }).filter(Boolean).sort((a, b) => a.start - b.start || b.i - a.i);
  } catch {}
  return (address) => {
    let lo = 0;
    let hi = entries.length - 1;
    let found = null;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (entries[mid].start <= address) { found = mid; lo = mid + 1; } else hi = mid - 1;
    }
    let best = null;
    for (let j = found; j !== null && j >= 0 && j > found - 64; j--) {
      const e = entries[j];
      if (e.start <= address && address < e.end && (best === null || e.i > best.i)) best = e;
    }
    return best ? shortName(best.name) : null;
  };
}

const JS_CATEGORIES = [
  ['JS ours: lib/ (parser, replay, workspace, read path)', /^JS .* lib\/[^/]+\.js$/],
  ["JS node:http (_http_server, _http_common, _http_incoming, _http_outgoing)", /node:_?http/],
  ['JS net, streams, events, timers, async scope', /node:(net|stream|events|timers|internal\/(streams|timers|async|process|stream_base|event|util|net|validators|buffer))|node:buffer/],
  ['JS the app (handler, Express)', / (benchmark|node_modules)\//],
  ['JS other (RegExp, stubs, ...)', /./],
];
const COMPILERS = 'V8 compilers (TurboFan, Maglev, parser)';
const CATEGORIES = [
  ['llhttp', (f) => /^llhttp|llparse/.test(f.name)],
  ['our addon (core, binding)', (f) => /llhttp_napi[^/]*\.node$/.test(f.ob)],
  ['N-API', (f) => /napi_|v8impl|Napi::/.test(f.name)],
  ["built-in parser C++ (node_http_parser.cc, ConnectionsList)", (f) => /http_parser|ConnectionsList/.test(f.name)],
  ['node streams C++ (reads, writes, onread)', (f) => /StreamBase|StreamResource|StreamListener|StreamWrap|WriteWrap|StreamReq|EmitRead|OnUvRead|OnUvAlloc|CallJSOnread|TCPWrap|ShutdownWrap/.test(f.name)],
  ['callback scopes, async hooks C++', (f) => /InternalCallbackScope|MakeCallback|AsyncWrap|AsyncHooks|async_context|CallbackScope|TickInfo|PerformMicrotaskCheckpoint|RunMicrotasks|MicrotaskQueue/.test(f.name)],
  ['libuv', (f) => /^uv_|^uv__/.test(f.name)],
  ['GC', (f) => /Heap::|Scaveng|MarkCompact|Marking|Sweep|Evacuat|Remembered|GCTracer|MemoryChunk|SemiSpace|NewSpace|PagedSpace|MinorMC|ConcurrentMark|IncrementalMark|GlobalHandles|MemoryAllocator|WeakObjects|ObjectStats|HeapVisitor|MainMarking/.test(f.name)],
  [COMPILERS, (f) => /compiler::|maglev::|Maglev|Turbofan|Zone|Parser::|Scanner|BytecodeGenerator|baseline::|interpreter::|Compiler::|OptimizingCompile/.test(f.name)],
  ['V8 builtins', (f) => /^Builtins_/.test(f.name)],
  ['JIT code (not in the perf map)', (f) => /^0x[0-9a-f]+$/.test(f.name)],
  ['libc (malloc, memcpy, syscall wrappers)', (f) => /libc[.-]|ld-linux|libstdc/.test(f.ob)],
  ['V8 runtime (ICs, runtime calls, API)', (f) => /v8::|Runtime_|Builtins::/.test(f.name)],
  ['other node C++', () => true],
];

function categoryOf(f) {
  if (f.name.startsWith('JS ') || f.jit) return JS_CATEGORIES.find(([, rx]) => rx.test(f.name))[0];
  return CATEGORIES.find(([, test]) => test(f))[0];
}

// Per request: { total: {Ir, I1, D1, sys}, fns: [{ name, category, Ir, I1, D1, sys }] }.
function account({ window, map }, dn) {
  const { events, fns } = readDump(window);
  const at = (name) => events.indexOf(name);
  const [ir, i1, d1r, d1w, sys] = ['Ir', 'I1mr', 'D1mr', 'D1mw', 'sysCount'].map(at);
  const name = jitNamer(map);
  const merged = new Map();
  for (const f of fns.values()) {
    const m = /^0x([0-9a-f]+)$/.exec(f.name);
    const jitName = m ? name(parseInt(m[1], 16)) : null;
    const g = { name: jitName ? (jitName.startsWith('JS ') ? jitName : `JIT ${jitName}`) : f.name, ob: f.ob, jit: Boolean(jitName) };
    const key = `${g.name}\0${categoryOf(g)}`;
    const e = merged.get(key) || { name: g.name, category: categoryOf(g), Ir: 0, I1: 0, D1: 0, sys: 0 };
    e.Ir += f.costs[ir] / dn;
    e.I1 += f.costs[i1] / dn;
    e.D1 += (f.costs[d1r] + f.costs[d1w]) / dn;
    e.sys += sys >= 0 ? f.costs[sys] / dn : 0;
    merged.set(key, e);
  }
  const list = [...merged.values()];
  const total = { Ir: 0, I1: 0, D1: 0, sys: 0 };
  for (const e of list) for (const k of Object.keys(total)) total[k] += e[k];
  return { total, fns: list };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const fmt = (x) => Math.round(x).toLocaleString('en-US');

function byCategory(fns) {
  const cats = new Map();
  for (const f of fns) {
    const c = cats.get(f.category) || { Ir: 0, I1: 0, D1: 0 };
    c.Ir += f.Ir; c.I1 += f.I1; c.D1 += f.D1;
    cats.set(f.category, c);
  }
  return cats;
}

function report(results, sides, top) {
  const lines = [];
  for (const [node, bySide] of results) {
    lines.push(`\n## ${target} on ${node} (per request, median of ${bySide.get(sides[0]).length} runs)\n`);
    const med = new Map(sides.map((s) => {
      const runs = bySide.get(s);
      const t = {};
      for (const k of ['Ir', 'I1', 'D1', 'sys']) t[k] = median(runs.map((r) => r.total[k]));
      const mid = runs.find((r) => r.total.Ir === t.Ir);
      return [s, { t, runs, mid }];
    }));
    const base = med.get(sides[0]).t;
    lines.push(`| per request | ${sides.join(' | ')} |`, `|---|${sides.map(() => '--:').join('|')}|`);
    for (const [k, label] of [['Ir', 'instructions'], ['I1', 'I1 misses'], ['D1', 'D1 misses'], ['sys', 'syscalls']]) {
      lines.push(`| ${label} | ${sides.map((s, i) => fmt(med.get(s).t[k]) + (i ? ` (${(med.get(s).t[k] / base[k]).toFixed(3)}x)` : '')).join(' | ')} |`);
    }
    lines.push(`| instructions, each run | ${sides.map((s) => med.get(s).runs.map((r) => fmt(r.total.Ir)).join(', ')).join(' | ')} |`);
    // (Compiles still under way: the JIT's share moves between runs.)
    const noJit = sides.map((s) => median(med.get(s).runs.map((r) => r.total.Ir - r.fns.filter((f) => f.category === COMPILERS)
      .reduce((a, f) => a + f.Ir, 0))));
    lines.push(`| instructions without the compilers | ${noJit.map((v, i) => fmt(v) + (i ? ` (${(v / noJit[0]).toFixed(3)}x)` : '')).join(' | ')} |`);
    const cats = sides.map((s) => byCategory(med.get(s).mid.fns));
    const names = [...new Set(cats.flatMap((c) => [...c.keys()]))].sort((a, b) => (cats[1] || cats[0]).get(b)?.Ir - (cats[1] || cats[0]).get(a)?.Ir || 0);
    lines.push('', `| category (the median run): Ir / I1 / D1 | ${sides.join(' | ')} | Ir difference |`, `|---|${sides.map(() => '--:').join('|')}|--:|`);
    for (const n of names) {
      const v = cats.map((c) => c.get(n) || { Ir: 0, I1: 0, D1: 0 });
      lines.push(`| ${n} | ${v.map((x) => `${fmt(x.Ir)} / ${fmt(x.I1)} / ${fmt(x.D1)}`).join(' | ')} | ${fmt(v[v.length - 1].Ir - v[0].Ir)} |`);
    }
    const last = sides[sides.length - 1];
    const fnsOf = (s) => new Map(med.get(s).mid.fns.map((f) => [f.name, f]));
    const a = fnsOf(sides[0]);
    const b = fnsOf(last);
    const zero = { Ir: 0, I1: 0, D1: 0 };
    const diffs = [...new Set([...a.keys(), ...b.keys()])].map((n) => {
      const x = a.get(n) || zero;
      const y = b.get(n) || zero;
      return { name: n, category: (y.category || x.category), Ir: y.Ir - x.Ir, I1: y.I1 - x.I1, D1: y.D1 - x.D1 };
    }).sort((p, q) => Math.abs(q.Ir) - Math.abs(p.Ir)).slice(0, top);
    lines.push('', `Largest differences by function, ${last} - ${sides[0]}: Ir / I1 / D1 per request`, '');
    for (const f of diffs) {
      lines.push(`  ${fmt(f.Ir).padStart(8)} ${fmt(f.I1).padStart(5)} ${fmt(f.D1).padStart(5)}  ${f.name.slice(0, 100)}  [${f.category}]`);
    }
    for (const s of sides) {
      lines.push('', `Top functions, ${s}: Ir / I1 / D1 per request`, '');
      for (const f of [...med.get(s).mid.fns].sort((a, b) => b.Ir - a.Ir).slice(0, top)) {
        lines.push(`  ${fmt(f.Ir).padStart(8)} ${fmt(f.I1).padStart(5)} ${fmt(f.D1).padStart(5)}  ${f.name.slice(0, 100)}  [${f.category}]`);
      }
    }
  }
  return lines.join('\n');
}

// --report=A.json,B.json: the report of earlier runs (--json), merged.
function reportOnly(files, top) {
  const results = new Map();
  let sides = [];
  for (const file of files) {
    const data = JSON.parse(fs.readFileSync(file, 'utf8'));
    for (const [version, bySide] of data.results) {
      if (!results.has(version)) results.set(version, new Map());
      for (const [side, runs] of bySide) {
        if (runs.length === 0) continue;
        if (!sides.includes(side)) sides.push(side);
        results.get(version).set(side, runs);
      }
    }
  }
  if (options.sides) sides = String(options.sides).split(',');
  console.log(report(results, sides, top));
}

async function main() {
  if (options.report) return reportOnly(String(options.report).split(','), Number(options.top || 25));
  const n1 = Number(options.n1 || 2048);
  const n2 = Number(options.n2 || 10240);
  const runs = Number(options.runs || 3);
  const top = Number(options.top || 25);
  const jobs = Number(options.jobs || 2);
  const sides = String(options.sides || 'builtin,napi').split(',');
  if (options.server && !sides.includes('server')) sides.push('server');
  const nodes = String(options.node || process.execPath).split(',');
  const dir = options.keep || fs.mkdtempSync(path.join(os.tmpdir(), 'server-counts-'));
  fs.mkdirSync(dir, { recursive: true });
  const tasks = [];
  for (const node of nodes) for (let r = 0; r < runs; r++) for (const side of sides) tasks.push({ node, side, r });
  const results = new Map();
  let nextTask = 0;
  const worker = async () => {
    while (nextTask < tasks.length) {
      const t = tasks[nextTask++];
      const version = execFileSync(t.node, ['--version'], { encoding: 'utf8' }).trim();
      const tag = `${path.basename(target).replace(/\W/g, '_')}.${version}.${t.side}.${t.r}`;
      process.stderr.write(`callgrind ${tag} (${n1} then ${n2} requests)\n`);
      const files = await runOne({ node: t.node, side: t.side, n1, n2, dir, tag });
      const acc = account(files, n2 - n1);
      if (!results.has(version)) results.set(version, new Map(sides.map((s) => [s, []])));
      results.get(version).get(t.side).push(acc);
      process.stderr.write(`  ${tag}: ${fmt(acc.total.Ir)} Ir, ${fmt(acc.total.I1)} I1, ${fmt(acc.total.D1)} D1 per request\n`);
    }
  };
  await Promise.all(Array.from({ length: Math.min(jobs, tasks.length) }, worker));
  console.log(`# server-counts: ${target}, ${n2 - n1} requests counted (${n1} -> ${n2}), at ${common.buildIdentity().revision}`);
  console.log(report(results, sides, top));
  if (options.json) fs.writeFileSync(options.json, JSON.stringify({ target, n1, n2, results: [...results].map(([v, m]) => [v, [...m]]) }));
  if (!options.keep) fs.rmSync(dir, { recursive: true, force: true });
}

if (options.serve) serve();
else main().catch((err) => { console.error(err); process.exit(1); });
