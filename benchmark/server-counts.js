'use strict';
// What a server spends per request, counted instead of timed: the server runs
// under valgrind's callgrind (--cache-sim=yes: cachegrind's I1/D1 model;
// --collect-systime: syscalls), this process is its fixed client (one
// keep-alive connection, one request at a time), and callgrind dumps after N1
// and after N2 requests: the second dump is exactly N2 - N1 requests (start-up
// and warm-up stay out), divided by N2 - N1. Each side runs --runs times and
// the median counts (a JIT'd server moves between runs); the account by
// category and function is the median run's. JIT'd code is named from the
// server's --perf-basic-prof map, native code by callgrind.
//
//   node benchmark/server-counts.js [browser|hello|express|WORKLOAD|APP.js] [--n1=2048] [--n2=10240]
//     [--runs=3] [--sides=builtin,napi] [--package=DIR] [--server=MODULE] [--node=BIN,...] [--jobs=2]
//     [--keep=DIR] [--run=K (the first run's number)] [--top=25] [--inclusive=REGEX]
//   node benchmark/server-counts.js --from=DIR[:LABEL],... [--sides=...] [--top=25] [--inclusive=REGEX]
//
// browser: the distinct browser-like GETs of server-workloads.js answered
// with a small JSON that reads user-agent (its net-echo handler, in node:http);
// another name is a server-workloads.js workload; a path is an app module
// exporting createApp() or a (req, res) handler, driven by the browser
// requests (--requests=NAME for others). Sides: builtin (node:http as is),
// napi (install() of --package, default this checkout) and, with
// --server=MODULE, server: MODULE's createServer(handler) (llhttp-napi/server).
// --keep keeps the dumps and perf maps; --from reports kept runs again (LABEL
// renames their napi side, to put two checkouts side by side); --inclusive
// adds the inclusive counts of the functions it matches.

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

function serve() {
  const why = common.useParser(options.side === 'napi' ? 'napi' : 'builtin', path.resolve(options.package || common.ROOT));
  if (why) throw new Error(why);
  let handle;
  if (isApp) {
    const app = require(path.resolve(target));
    handle = typeof app.createApp === 'function' ? app.createApp() : app.handler || app;
  } else {
    // (browser: the browser GETs answered by net-echo's handler, a small JSON that reads user-agent.)
    const name = target === 'browser' ? 'net-echo' : target;
    const app = require(path.join(__dirname, 'apps', workloads.workload(name).app));
    handle = app.createApp ? app.createApp(name) : app.createHandler(name);
  }
  Promise.resolve(handle).then((ready) => {
    const server = (options.side === 'server' ? require(options.server) : require('node:http')).createServer(ready);
    server.keepAliveTimeout = 600000;
    server.listen(0, '127.0.0.1', () => {
      process.stdout.write(`listening ${server.address().port} ${process.pid}\n`);
    });
  });
}

// Sends `count` requests on `socket`, each after the last response (framed
// by Content-Length or chunked) arrived.
function drive(socket, requests, first, count) {
  return new Promise((resolve, reject) => {
    let pending = Buffer.alloc(0);
    let sent = 0;
    const next = () => {
      if (sent === count) return resolve(socket.off('data', onData));
      socket.write(requests[(first + sent++) % requests.length]);
    };
    const onData = (chunk) => {
      pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
      for (let end; (end = pending.indexOf('\r\n\r\n')) >= 0;) {
        const head = pending.toString('latin1', 0, end);
        if (!/^HTTP\/1\.1 [2-4]/.test(head)) return reject(new Error(`bad response: ${head.slice(0, 80)}`));
        const length = /\r\ncontent-length: *(\d+)/i.exec(head);
        const last = length ? -1 : pending.indexOf('\r\n0\r\n\r\n', end);
        const size = length ? end + 4 + Number(length[1]) : last >= 0 ? last + 7 : Infinity;
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

// One server under callgrind; returns the window's dump and perf map.
async function runOne({ node, side, n1, n2, dir, tag }) {
  const out = path.join(dir, `${tag}.out`);
  const argv = ['--tool=callgrind', '--cache-sim=yes', '--collect-systime=yes', '--smc-check=all-non-file',
    '--dump-instr=no', `--callgrind-out-file=${out}`, `--log-file=${out}.log`, node, '--perf-basic-prof',
    __filename, target, '--serve', `--side=${side}`];
  if (options.package) argv.push(`--package=${path.resolve(options.package)}`);
  // (A module name stays a name: llhttp-napi/server.)
  if (options.server) argv.push(`--server=${/^[./]/.test(options.server) ? path.resolve(options.server) : options.server}`);
  const child = spawn('valgrind', argv, { stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    const [port, pid] = await new Promise((resolve, reject) => {
      let text = '';
      child.stdout.on('data', (d) => {
        const m = /listening (\d+) (\d+)/.exec(text += d);
        if (m) resolve([Number(m[1]), Number(m[2])]);
      });
      child.on('exit', (code) => reject(new Error(`server exited (${code}), see ${out}.log`)));
    });
    const name = options.requests || (isApp || target === 'net-echo' ? 'browser' : target);
    const requests = workloads.requests(name).map(workloads.serialize);
    const socket = net.connect(port, '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    const dump = () => execFileSync('callgrind_control', ['-d', String(pid)], { stdio: 'ignore', timeout: 600000 });
    await drive(socket, requests, 0, n1);
    dump();
    await drive(socket, requests, n1, n2 - n1);
    dump();
    socket.destroy();
    fs.copyFileSync(`/tmp/perf-${pid}.map`, `${out}.map`);
    return { dump: `${out}.2`, map: `${out}.map` };
  } finally {
    child.kill('SIGKILL');
  }
}

// ------------------------------------------------------------- the account ----

// Self and inclusive cost per function (name and object) of a dump, and the
// pid it came from.
function readDump(file) {
  const ids = new Map();
  const fns = new Map();
  let events = null;
  let ob = '';
  let fn = null;
  let inCall = false;
  let pid = 0;
  const define = (spec, m = /^\((\d+)\)(?: (.*))?$/.exec(spec)) =>
    (!m ? spec : (m[2] !== undefined && ids.set(m[1], m[2]), ids.get(m[1])));
  for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
    if (/^[0-9+\-*]/.test(line)) {
      const parts = line.split(' ');
      const into = inCall ? fn.incl : fn.self;
      for (let i = 1; i < parts.length; i++) into[i - 1] += Number(parts[i]);
      inCall = false;
    } else if (line.startsWith('events: ')) events = line.slice(8).trim().split(' ');
    else if (line.startsWith('pid: ')) pid = Number(line.slice(5));
    else if (line.startsWith('ob=') || line.startsWith('cob=')) {
      const name = define(line.slice(line.indexOf('=') + 1));
      if (line[0] === 'o') ob = name;
    } else if (line.startsWith('fn=') || line.startsWith('cfn=')) {
      const name = define(line.slice(line.indexOf('=') + 1)).replace(/'\d+$/, ''); // (recursion levels)
      if (line[0] === 'c') continue;
      const key = `${name}\0${ob}`;
      if (!(fn = fns.get(key))) fns.set(key, (fn = { name, ob, self: events.map(() => 0), incl: events.map(() => 0) }));
    } else if (line.startsWith('calls=')) inCall = true;
  }
  return { events, pid, fns: [...fns.values()] };
}

// Names JIT'd code from a perf map (the code put last at an address), without
// tier marks, position, or the path before lib/, benchmark/, node_modules/.
function jitNamer(mapFile) {
  const entries = fs.readFileSync(mapFile, 'utf8').split('\n').map((l, i) => {
    const m = /^([0-9a-f]+) ([0-9a-f]+) (.*)$/.exec(l);
    return m && { start: parseInt(m[1], 16), end: parseInt(m[1], 16) + parseInt(m[2], 16), name: m[3], i };
  }).filter(Boolean).sort((a, b) => a.start - b.start);
  return (address) => {
    let [lo, hi, best] = [0, entries.length - 1, null];
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (entries[mid].start <= address) lo = mid + 1; else hi = mid - 1;
    }
    for (let j = hi; j >= 0 && j > hi - 64; j--) {
      if (address < entries[j].end && (best === null || entries[j].i > best.i)) best = entries[j];
    }
    return best && best.name.replace(/^JS:[*~^+]?'?/, 'JS ').replace(/:\d+:\d+$/, '')
      .replace(/ \S*?\/(node_modules\/\S+|lib\/[^/ ]+\.js|benchmark\/\S+)$/, ' $1');
  };
}

const COMPILERS = 'V8 compilers (TurboFan, Maglev, parser)';
const CATEGORIES = [
  ['JS ours: lib/', (f) => /^JS .* lib\/[^/]+\.js$/.test(f.name)],
  ['JS node:http', (f) => /^JS .*node:_?http/.test(f.name)],
  ['JS net, streams, events, timers, async hooks, ticks', (f) => /^JS .*node:(net|stream|events|timers|buffer|async_hooks|internal\/(streams|timers|async|process|stream_base|event|util|net|validators|buffer|linkedlist))/.test(f.name)],
  ['JS the app (handler, Express)', (f) => /^JS .* (benchmark|node_modules)\//.test(f.name)],
  ['JS other, RegExp, stubs', (f) => f.jit],
  ['llhttp', (f) => /^llhttp|llparse/.test(f.name)],
  ['our addon (core, binding)', (f) => /llhttp_napi[^/]*\.node$/.test(f.ob)],
  ['N-API', (f) => /napi_|v8impl|Napi::/.test(f.name)],
  ['built-in parser C++ (node_http_parser.cc, ConnectionsList)', (f) => /http_parser|ConnectionsList/.test(f.name)],
  ['node streams C++ (reads, writes, onread)', (f) => /StreamBase|StreamResource|StreamListener|StreamWrap|WriteWrap|StreamReq|EmitRead|OnUvRead|OnUvAlloc|CallJSOnread|TCPWrap|ShutdownWrap/.test(f.name)],
  ['callback scopes, async hooks C++', (f) => /InternalCallbackScope|MakeCallback|AsyncWrap|AsyncHooks|async_context|CallbackScope|TickInfo|RunMicrotasks|MicrotaskQueue/.test(f.name)],
  ['libuv', (f) => /^uv_|^uv__/.test(f.name)],
  ['GC', (f) => /Heap::|Scaveng|MarkCompact|Marking|Sweep|Evacuat|Remembered|GCTracer|MemoryChunk|SemiSpace|NewSpace|PagedSpace|MinorMC|ConcurrentMark|IncrementalMark|GlobalHandles|MemoryAllocator|IterateObjectCache|RootScavenge/.test(f.name)],
  [COMPILERS, (f) => /compiler::|maglev::|Maglev|Turbofan|Zone|Parser::|Scanner|BytecodeGenerator|baseline::|interpreter::|Compiler::|OptimizingCompile/.test(f.name)],
  ['V8 builtins (ICs, interpreter, stubs)', (f) => /^Builtins_/.test(f.name)],
  ['JIT code not in the perf map', (f) => /^0x[0-9a-f]+$/.test(f.name)],
  ['libc (malloc, memcpy, syscall wrappers)', (f) => /libc[.-]|ld-linux|libstdc/.test(f.ob)],
  ['V8 runtime (runtime calls, strings, API)', (f) => /v8::|Runtime_|Builtins::/.test(f.name)],
  ['other node C++', () => true],
];

// Per request: { total: {Ir, I1, D1, sys}, fns: [{ name, category, Ir, I1, D1, incl: {Ir, I1, D1} }] }.
function account(dump, map, dn) {
  const { events, fns, pid } = readDump(dump);
  const [ir, i1, d1r, d1w, sys] = ['Ir', 'I1mr', 'D1mr', 'D1mw', 'sysCount'].map((e) => events.indexOf(e));
  const jitName = jitNamer(fs.existsSync(map) ? map : `/tmp/perf-${pid}.map`);
  const merged = new Map();
  const total = { Ir: 0, I1: 0, D1: 0, sys: 0 };
  for (const f of fns) {
    const m = /^0x([0-9a-f]+)$/.exec(f.name);
    const jit = m ? jitName(parseInt(m[1], 16)) : null;
    const g = { name: jit ? (jit.startsWith('JS ') ? jit : `JIT ${jit}`) : f.name, ob: f.ob, jit: Boolean(jit) };
    const category = CATEGORIES.find(([, test]) => test(g))[0];
    const e = merged.get(g.name) || { name: g.name, category, Ir: 0, I1: 0, D1: 0, incl: { Ir: 0, I1: 0, D1: 0 } };
    for (const [into, costs] of [[e, f.self], [e.incl, f.incl], [e.incl, f.self]]) {
      into.Ir += costs[ir] / dn;
      into.I1 += costs[i1] / dn;
      into.D1 += (costs[d1r] + costs[d1w]) / dn;
    }
    total.Ir += f.self[ir] / dn;
    total.I1 += f.self[i1] / dn;
    total.D1 += (f.self[d1r] + f.self[d1w]) / dn;
    total.sys += sys >= 0 ? f.self[sys] / dn : 0;
    merged.set(g.name, e);
  }
  return { total, fns: [...merged.values()] };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const fmt = (x) => Math.round(x).toLocaleString('en-US');
const ratio = (v, base, i) => (i ? ` (${(v / base).toFixed(3)}x)` : '');
const cell = (x) => `${fmt(x.Ir)} / ${fmt(x.I1)} / ${fmt(x.D1)}`;
const ZERO = { Ir: 0, I1: 0, D1: 0, incl: { Ir: 0, I1: 0, D1: 0 } };

function report(results, allSides, top) {
  const lines = [];
  for (const [node, bySide] of results) {
    const sides = allSides.filter((s) => bySide.has(s));
    const med = sides.map((s) => {
      const runs = bySide.get(s) || [];
      const t = {};
      for (const k of ['Ir', 'I1', 'D1', 'sys']) t[k] = median(runs.map((r) => r.total[k]));
      t.noJit = median(runs.map((r) => r.total.Ir - r.fns.reduce((a, f) => a + (f.category === COMPILERS ? f.Ir : 0), 0)));
      return { t, runs, mid: runs.find((r) => r.total.Ir === t.Ir), byName: null };
    });
    lines.push(`\n## ${target} on ${node}: per request, median of ${med.map((m) => m.runs.length).join('/')} runs\n`,
      `| per request | ${sides.join(' | ')} |`, `|---|${sides.map(() => '--:').join('|')}|`);
    for (const [k, label] of [['Ir', 'instructions'], ['I1', 'I1 misses'], ['D1', 'D1 misses'], ['sys', 'syscalls'],
      ['noJit', 'instructions without the compilers']]) {
      lines.push(`| ${label} | ${med.map((m, i) => fmt(m.t[k]) + ratio(m.t[k], med[0].t[k], i)).join(' | ')} |`);
    }
    lines.push(`| instructions, each run | ${med.map((m) => m.runs.map((r) => fmt(r.total.Ir)).join(', ')).join(' | ')} |`);
    for (const m of med) m.byName = new Map(m.mid.fns.map((f) => [f.name, f]));
    const cats = med.map((m) => m.mid.fns.reduce((c, f) => {
      const e = c.get(f.category) || c.set(f.category, { Ir: 0, I1: 0, D1: 0 }).get(f.category);
      for (const k of ['Ir', 'I1', 'D1']) e[k] += f[k];
      return c;
    }, new Map()));
    const last = cats.length - 1;
    lines.push('', `| category, Ir / I1 / D1 (median run) | ${sides.join(' | ')} | Ir, ${sides[last]} - ${sides[0]} |`,
      `|---|${sides.map(() => '--:').join('|')}|--:|`);
    for (const [name] of CATEGORIES) {
      const v = cats.map((c) => c.get(name) || ZERO);
      if (v.some((x) => x.Ir >= 0.5)) lines.push(`| ${name} | ${v.map(cell).join(' | ')} | ${fmt(v[last].Ir - v[0].Ir)} |`);
    }
    const names = [...new Set(med.flatMap((m) => [...m.byName.keys()]))];
    const row = (f, vs) => `  ${vs.map((v) => `${fmt(v.Ir).padStart(8)} ${fmt(v.I1).padStart(5)} ${fmt(v.D1).padStart(5)}`).join(' |')}  ${f.slice(0, 110)}`;
    const diff = (n, k) => (med[last].byName.get(n) || ZERO)[k] - (med[0].byName.get(n) || ZERO)[k];
    lines.push('', `Largest differences by function, self Ir / I1 / D1 per request: ${sides.join(' | ')} | difference`);
    for (const n of names.sort((a, b) => Math.abs(diff(b, 'Ir')) - Math.abs(diff(a, 'Ir'))).slice(0, top)) {
      const vs = med.map((m) => m.byName.get(n) || ZERO);
      lines.push(row(`${n}  [${(vs.find((v) => v.category) || {}).category}]`, [...vs, { Ir: diff(n, 'Ir'), I1: diff(n, 'I1'), D1: diff(n, 'D1') }]));
    }
    for (const [i, m] of med.entries()) {
      lines.push('', `Top functions, ${sides[i]}: self Ir / I1 / D1 per request`);
      for (const f of [...m.mid.fns].sort((a, b) => b.Ir - a.Ir).slice(0, top)) lines.push(row(`${f.name}  [${f.category}]`, [f]));
    }
    if (options.inclusive) {
      const rx = new RegExp(options.inclusive);
      lines.push('', `Inclusive Ir / I1 / D1 per request (what each call costs with its callees): ${sides.join(' | ')}`);
      for (const n of names.filter((x) => rx.test(x)).sort((a, b) => Math.max(...med.map((m) => (m.byName.get(b) || ZERO).incl.Ir)) - Math.max(...med.map((m) => (m.byName.get(a) || ZERO).incl.Ir)))) {
        lines.push(row(n, med.map((m) => (m.byName.get(n) || ZERO).incl)));
      }
    }
  }
  return lines.join('\n');
}

async function main() {
  const n1 = Number(options.n1 || 2048);
  const n2 = Number(options.n2 || 10240);
  const sides = String(options.sides || (options.server ? 'builtin,napi,server' : 'builtin,napi')).split(',');
  const results = new Map();
  const add = (version, side, acc) => {
    const bySide = results.get(version) || results.set(version, new Map()).get(version);
    (bySide.get(side) || bySide.set(side, []).get(side)).push(acc);
  };
  if (options.from) {
    for (const spec of String(options.from).split(',')) {
      const [dir, label] = spec.split(':');
      for (const file of fs.readdirSync(dir).filter((f) => f.endsWith('.out.2')).sort()) {
        const m = /\.(v[\d.]+)\.(\w+)\.\d+\.out\.2$/.exec(file);
        const base = path.join(dir, file.slice(0, -2));
        if (m) add(m[1], m[2] === 'napi' && label ? label : m[2], account(path.join(dir, file), `${base}.map`, n2 - n1));
      }
    }
    if (!options.sides) sides.splice(0, sides.length, ...new Set([...results.values()].flatMap((b) => [...b.keys()])));
  } else {
    const dir = options.keep || fs.mkdtempSync(path.join(os.tmpdir(), 'server-counts-'));
    fs.mkdirSync(dir, { recursive: true });
    const tasks = [];
    for (const node of String(options.node || process.execPath).split(',')) {
      const version = execFileSync(node, ['--version'], { encoding: 'utf8' }).trim();
      for (let r = 0; r < Number(options.runs || 3); r++) for (const side of sides) tasks.push({ node, version, side, r });
    }
    const worker = async () => {
      for (let t; (t = tasks.shift());) {
        const tag = `${path.basename(target).replace(/\W/g, '_')}.${t.version}.${t.side}.${t.r + Number(options.run || 0)}`;
        process.stderr.write(`callgrind ${tag} (${n1} then ${n2} requests)\n`);
        const { dump, map } = await runOne({ ...t, n1, n2, dir, tag });
        const acc = account(dump, map, n2 - n1);
        add(t.version, t.side, acc);
        process.stderr.write(`  ${tag}: ${fmt(acc.total.Ir)} Ir, ${fmt(acc.total.I1)} I1, ${fmt(acc.total.D1)} D1 per request\n`);
      }
    };
    await Promise.all(Array.from({ length: Number(options.jobs || 2) }, worker));
    if (!options.keep) fs.rmSync(dir, { recursive: true, force: true });
  }
  console.log(`# server-counts: ${target}, ${n2 - n1} requests counted (${n1} -> ${n2}), at ${common.buildIdentity()}`);
  console.log(report(results, sides, Number(options.top || 25)));
}

if (options.serve) serve();
else main().catch((err) => { console.error(err); process.exit(1); });
