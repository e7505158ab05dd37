'use strict';
// Where the servers of benchmark/server.js spend their CPU, built-in against
// llhttp-napi, per request, over the measured windows of paired rounds
// (both servers at once, server.js's onWindow hook):
//
// 1. perf (default): on-CPU samples of every thread, native code included
//    (the built-in's C++ parser, our addon, libuv, malloc, GC, the kernel),
//    `perf record -e cpu-clock` on both servers during each window, JIT
//    frames named through --perf-basic-prof. Samples are grouped into
//    categories that follow the read path (CATEGORIES) and divided by the
//    requests served in the window; the parse path is the categories from
//    the socket's read to req.headers. Needs perf (apt-get install linux-perf).
// 2. --v8: V8 CPU profiles of both servers (--cpu-prof): JavaScript functions
//    by self time, main thread only, shares of the busy samples scaled to
//    the process CPU per request.
//
//   node scripts/dev/server-profile.js [--workload=browser] [--rounds=3] [--duration=8] [--v8] [--top=30]
//        [--dir=/tmp/llhttp-napi-profile]

const fs = require('node:fs');
const path = require('node:path');
const { spawn, spawnSync } = require('node:child_process');
const common = require('../../benchmark/common');
const { e2e } = require('../../benchmark/server');

// ----------------------------------------------------------------- perf ----

// lib/ files by role (the names of earlier layouts too, to compare with a
// snapshot of an older commit).
const OURS_STRINGS = /lib\/(core|header-strings|head|workspace)\.js/;
const OURS_STRING_FNS = /headerArray|headersFor|textFor|copyPairs|getAllHeaders|getHeader|completeHeaders|'array |flushHeaders|flushText|takeHeaders|'keep |allHeaders|forMessage|_headersComplete|_headersFlushed|_notePairs/;
const OURS_JS = /lib\/(parser|replay|core|header-strings|head|workspace|clock)\.js/;
const OURS_READ = /lib\/read-path\.js|readConsumed|consumedRead|consumedPush/;

// [label, test(dso, symbol)]: the first that matches. Order matters.
const CATEGORIES = [
  ['ours JS: header strings and arrays', (d, s) => OURS_STRINGS.test(s) && OURS_STRING_FNS.test(s)],
  ['read path JS: onStreamRead, push, socketOnData, timer refresh', (d, s) => OURS_READ.test(s)],
  ['ours JS: execute, replay, deliver, state', (d, s) => OURS_JS.test(s)],
  ['ours native: core + binding (the addon)', (d) => /llhttp_napi.*\.node$/.test(d)],
  ['N-API crossing', (d, s) => /^(v8impl|napi_)|CallFunctionTemplate|JSTypedArray::GetBuffer|CallApiCallback|FunctionCallbackWrapper|HandleApiCallHelper|Builtins_CallBoundFunction/.test(s)],
  ['llhttp', (d, s) => /llhttp/.test(s)],
  ['per-read ArrayBuffer: malloc/free, slab commit, sweep, fresh pages', (d, s) =>
    /^(_int_malloc|malloc|_int_free|free|cfree|__libc_free|__libc_malloc|malloc_consolidate|unlink_chunk|sysmalloc)\b/.test(s) ||
    /StreamReadSlab|BackingStore|JSArrayBuffer|ArrayBufferSweeper|ArrayBuffer::New|ArrayBufferExtension|clear_page|AllocateExternalBackingStore|NodeArrayBufferAllocator/.test(s)],
  ['read path JS: onStreamRead, push, socketOnData, timer refresh', (d, s) =>
    /onStreamRead|socketOnData|onParserExecute|CallJSOnreadMethod|'refresh |insertGuarded|FastBuffer/.test(s)],
  ['ours JS: header strings and arrays', (d, s) => /latin1Slice|Builtins_StringSubstring|StringBytes/.test(s)],
  ['built-in parser C++: strings, callbacks, ConnectionsList', (d, s) =>
    /http_parser::|ConnectionsList|_Rb_tree|String::NewFromOneByte|NewRawOneByteString|NewStringFromOneByte|v8::Array::New|v8::Object::Get|v8::Object::Set|EscapableHandleScope|LookupIterator|v8::Function::Call|MakeCallback|InternalCallbackScope/.test(s)],
  ['req.headers: _addHeaderLine, matchKnownFields', (d, s) => /matchKnownFields|_addHeaderLine|'get node:_http_incoming/.test(s)],
  ['V8 ICs and string stubs (megamorphic, internalize, compare)', (d, s) =>
    /IC_Megamorphic|StringTable|StringEqual|StringToLowerCase|FastAsciiConvert|SlowEquals/.test(s)],
  ['async context', (d, s) => /async_context_frame|AsyncResource|runInAsyncScope|AsyncContext|async_hooks/.test(s)],
  ['GC', (d, s) => /Scavenge|Heap::|MarkCompact|Sweeper|Evacuat|Remembered|Marking|ConcurrentMarking|NeedsResetDueToFlushedBytecode|SizeFromMap|IteratePointers|PointersUpdating|StringTableCleaner/.test(s)],
  ['kernel: syscalls, TCP', (d) => d === '[kernel.kallsyms]'],
  ['other: node:http, the app, V8', () => true],
];

// The categories that make up the parse path: from the socket's read to
// req.headers, what either parser spends on parsing (issue 19's table).
const PARSE_PATH = [
  'built-in parser C++: strings, callbacks, ConnectionsList',
  'llhttp',
  'N-API crossing',
  'ours native: core + binding (the addon)',
  'read path JS: onStreamRead, push, socketOnData, timer refresh',
  'ours JS: header strings and arrays',
  'ours JS: execute, replay, deliver, state',
  'req.headers: _addHeaderLine, matchKnownFields',
];

function categoryOf(dso, sym) {
  for (const [label, test] of CATEGORIES) if (test(dso, sym)) return label;
  return 'other';
}

function havePerf() {
  const r = spawnSync('perf', ['--version'], { encoding: 'utf8' });
  return r.status === 0;
}

// Starts `perf record` on pids for `seconds`; resolves when it has written `file`.
function perfRecord(pids, seconds, file, hz = 2000) {
  return new Promise((resolve, reject) => {
    const proc = spawn('perf', ['record', '-q', '-e', 'cpu-clock', '-F', String(hz), '-o', file, '-p', pids.join(','),
      '--', 'sleep', String(seconds)], { stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    proc.stderr.on('data', (d) => { err += d; });
    proc.on('error', reject);
    proc.on('close', (code) => (code === 0 ? resolve({ file, hz, seconds }) : reject(new Error(`perf record: ${err.trim()}`))));
  });
}

// Samples by pid, dso and symbol.
function perfSamples(file) {
  const r = spawnSync('perf', ['script', '-i', file, '-F', 'pid,ip,sym,dso'], { encoding: 'utf8', maxBuffer: 1 << 30 });
  if (r.status !== 0) throw new Error(`perf script: ${r.stderr}`);
  const out = [];
  for (const line of r.stdout.split('\n')) {
    const m = /^\s*(\d+)\s+[0-9a-f]+\s+(.*) \((.*)\)\s*$/.exec(line);
    if (!m) continue;
    const dso = m[3].includes('/perf-') ? 'JIT' : m[3].includes('kallsyms') ? '[kernel.kallsyms]' : path.basename(m[3]);
    out.push({ pid: Number(m[1]), sym: m[2].replace(/\+0x[0-9a-f]+$/, ''), dso });
  }
  return out;
}

// { parser: { pid, requests } } → per parser: µs/request by category and by symbol.
function perfReport({ file, hz, seconds }, servers) {
  const samples = perfSamples(file);
  const us = 1e6 / hz;
  const out = {};
  for (const [parser, { pid, requests }] of Object.entries(servers)) {
    // Requests during the recording: the window's rate times its length.
    const n = requests;
    const cats = new Map();
    const syms = new Map();
    let total = 0;
    for (const s of samples) {
      if (s.pid !== pid) continue;
      total++;
      const c = categoryOf(s.dso, s.sym);
      cats.set(c, (cats.get(c) || 0) + 1);
      const key = `${s.dso === 'JIT' ? '' : s.dso + ' | '}${s.sym}`;
      syms.set(key, (syms.get(key) || 0) + 1);
    }
    const per = (count) => (count * us) / n;
    let parsePath = 0;
    for (const label of PARSE_PATH) parsePath += cats.get(label) || 0;
    out[parser] = { seconds, requests: n, total: per(total), samples: total, parsePath: per(parsePath),
      categories: Object.fromEntries([...cats].map(([k, v]) => [k, per(v)])),
      symbols: Object.fromEntries([...syms].map(([k, v]) => [k, per(v)])) };
  }
  return out;
}

function perfTable(report, top = 30) {
  const b = report.builtin, n = report.napi;
  const lines = [];
  lines.push(`perf, on-CPU µs/request (all threads): builtin ${b.total.toFixed(2)}, napi ${n.total.toFixed(2)} ` +
    `(${(n.total - b.total >= 0 ? '+' : '')}${(n.total - b.total).toFixed(2)}); ${b.samples} / ${n.samples} samples`);
  lines.push(`parse path (read to req.headers, the first ${PARSE_PATH.length} categories below): builtin ` +
    `${b.parsePath.toFixed(2)}, napi ${n.parsePath.toFixed(2)}, ratio ${(n.parsePath / b.parsePath).toFixed(3)}`);
  const rows = (key) => {
    const keys = new Set([...Object.keys(b[key]), ...Object.keys(n[key])]);
    return [...keys].map((k) => ({ k, b: b[key][k] || 0, n: n[key][k] || 0 }));
  };
  const line = (r) => `  ${r.b.toFixed(2).padStart(7)}  ${r.n.toFixed(2).padStart(7)}  ${((r.n - r.b >= 0 ? '+' : '') +
    (r.n - r.b).toFixed(2)).padStart(7)}  ${((100 * r.n) / n.total).toFixed(1).padStart(5)}%  ${r.k}`;
  lines.push('  builtin     napi     diff  %napi  category');
  const inPath = (r) => PARSE_PATH.includes(r.k);
  const byGain = (x, y) => (y.n - y.b) - (x.n - x.b);
  for (const r of rows('categories').filter(inPath).sort(byGain)) lines.push(line(r));
  lines.push('  (outside the parse path)');
  for (const r of rows('categories').filter((r) => !inPath(r)).sort(byGain)) lines.push(line(r));
  lines.push(`  symbols, top ${top} differences:`);
  for (const r of rows('symbols').sort((x, y) => Math.abs(y.n - y.b) - Math.abs(x.n - x.b)).slice(0, top)) {
    lines.push(line({ ...r, k: r.k.slice(0, 110) }));
  }
  return lines.join('\n');
}

// ------------------------------------------------------- V8 CPU profiles ----

function v8Category(node) {
  const { functionName: name, url } = node.callFrame;
  if (name === '(garbage collector)') return 'GC (main thread)';
  if (name === '(program)') return 'native, outside JS (program)';
  if (name === '(idle)') return 'idle';
  if (name === '(root)') return 'root';
  if (/\/lib\/parser\.js$/.test(url)) {
    if (name === 'consumedPush') return 'ours: consumedPush (socket push)';
    if (name === 'execute') return 'ours: execute (incl. the native call)';
    if (/^_(replay|deliver)$/.test(name)) return 'ours: _replay/_deliver';
    if (/header|_string|_text|_block|_pairs|_plainArray|_notePairs|_endRecording/i.test(name)) return 'ours: header strings/arrays';
    return 'ours: other parser.js';
  }
  if (/\/lib\/(connections|install|incoming|node-line)\.js$/.test(url)) return 'ours: connections/install/incoming';
  if (/async_hooks/.test(url)) return 'async hooks';
  if (/internal\/stream_base_commons/.test(url)) return 'net: onStreamRead/stream_base';
  if (/internal\/streams\/readable/.test(url)) return 'streams: Readable';
  if (/internal\/streams\//.test(url)) return 'streams: other';
  if (/^node:net$/.test(url)) return 'net: socket';
  if (/_http_server/.test(url)) return 'http: _http_server';
  if (/_http_common/.test(url)) return 'http: _http_common (parserOn*)';
  if (/_http_incoming/.test(url)) return 'http: _http_incoming';
  if (/_http_outgoing/.test(url)) return 'http: _http_outgoing';
  if (/^node:events$/.test(url)) return 'events';
  if (/task_queues|internal\/timers|^node:timers/.test(url)) return 'ticks/timers';
  if (/server-workloads|express|node_modules|server\.js/.test(url)) return 'application';
  if (url === '') return `native/builtin: ${name || '(anonymous)'}`;
  return `other JS: ${url.replace(/^node:/, '')}`;
}

// Self-time shares within the window, scaled to `cpuUs` µs per request.
function v8Analyse(profile, window, cpuUs) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const times = new Map();
  let t = profile.startTime;
  const { samples, timeDeltas } = profile;
  for (let i = 0; i < samples.length; i++) {
    t += timeDeltas[i];
    const dt = i + 1 < timeDeltas.length ? timeDeltas[i + 1] : 0;
    if (t >= window[0] && t <= window[1]) times.set(samples[i], (times.get(samples[i]) || 0) + dt);
  }
  let busy = 0;
  for (const [id, us] of times) {
    const c = v8Category(byId.get(id));
    if (c !== 'idle' && c !== 'root') busy += us;
  }
  const fn = new Map();
  const cat = new Map();
  for (const [id, us] of times) {
    const node = byId.get(id);
    const c = v8Category(node);
    if (c === 'idle' || c === 'root') continue;
    const { functionName, url, lineNumber } = node.callFrame;
    const key = `${functionName || '(anonymous)'} ${url ? url.replace(/^.*\/(lib|node_modules)\//, '$1/') + ':' + (lineNumber + 1) : ''}`.trim();
    const share = (us / busy) * cpuUs;
    fn.set(key, (fn.get(key) || 0) + share);
    cat.set(c, (cat.get(c) || 0) + share);
  }
  return { busy: cpuUs, fn, cat };
}

function mergeRuns(list) {
  const out = { busy: 0, fn: new Map(), cat: new Map() };
  for (const a of list) {
    out.busy += a.busy / list.length;
    for (const key of ['fn', 'cat']) for (const [k, v] of a[key]) out[key].set(k, (out[key].get(k) || 0) + v / list.length);
  }
  return out;
}

function v8Table(b, n, key, top) {
  const keys = new Set([...b[key].keys(), ...n[key].keys()]);
  const rows = [...keys].map((k) => ({ k, b: b[key].get(k) || 0, n: n[key].get(k) || 0 }));
  rows.sort((x, y) => Math.abs(y.n - y.b) - Math.abs(x.n - x.b));
  const lines = ['  builtin     napi     diff  %napi  ' + (key === 'cat' ? 'category' : 'function')];
  for (const r of rows.slice(0, top)) {
    lines.push(`  ${r.b.toFixed(2).padStart(7)}  ${r.n.toFixed(2).padStart(7)}  ${((r.n - r.b >= 0 ? '+' : '') +
      (r.n - r.b).toFixed(2)).padStart(7)}  ${((100 * r.n) / n.busy).toFixed(1).padStart(5)}%  ${r.k}`);
  }
  return lines.join('\n');
}

// The V8 profile of a server: the file --cpu-prof wrote for its pid.
function profileOf(dir, pid) {
  const file = fs.readdirSync(dir).find((f) => f.includes(`.${pid}.`) && f.endsWith('.cpuprofile'));
  return file ? JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8')) : null;
}

function v8Report(run, dir, top) {
  const lines = [];
  for (const [workload, w] of Object.entries(run.workloads)) {
    const per = { builtin: [], napi: [] };
    for (const r of w.paired.rounds) {
      for (const p of ['builtin', 'napi']) {
        const profile = profileOf(dir, r[p].pid);
        if (profile) per[p].push(v8Analyse(profile, r[p].window, r[p].cpuUsPerRequest));
      }
    }
    if (!per.builtin.length || !per.napi.length) {
      lines.push(`${workload}: no V8 profiles in ${dir}`);
      continue;
    }
    const b = mergeRuns(per.builtin), n = mergeRuns(per.napi);
    lines.push(`== ${workload}: ${per.napi.length} round(s); process CPU µs/request builtin ${b.busy.toFixed(2)}, napi ` +
      `${n.busy.toFixed(2)}, split by the main thread's V8 samples`, 'by category:', v8Table(b, n, 'cat', 100),
    `by function, top ${top} differences:`, v8Table(b, n, 'fn', top), '');
  }
  return lines.join('\n');
}

module.exports = { havePerf, perfRecord, perfReport, perfTable, categoryOf, v8Report };

if (require.main === module) {
  const { options } = common.parseArgs();
  const dir = path.resolve(options.dir || path.join(require('node:os').tmpdir(), 'llhttp-napi-profile'));
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  const top = Number(options.top || 30);
  if (!options.v8 && !havePerf()) throw new Error('perf is not installed (apt-get install linux-perf), or use --v8');
  const recordings = [];
  e2e({ workloads: String(options.workload || 'browser').split(','), modes: ['paired'], count: false,
    pairedRounds: Number(options.rounds || 3), duration: Number(options.duration || 8),
    serverFlags: options.v8 ? ['--cpu-prof', '--cpu-prof-interval=100', `--cpu-prof-dir=${dir}`] : ['--perf-basic-prof'],
    onWindow: options.v8 ? null : (pids, seconds, workload, round) => {
      const rec = perfRecord(Object.values(pids), seconds, path.join(dir, `${workload}-${round}.perf.data`));
      recordings.push({ workload, round, pids, rec });
      return rec;
    },
    onProgress: ({ what }) => process.stderr.write(`server-profile: ${what}\n`) }).then(async (run) => {
    if (options.v8) return console.log(v8Report(run, dir, top));
    for (const { workload, round, pids, rec } of recordings) {
      const r = run.workloads[workload].paired.rounds[round];
      const recording = await rec;
      const servers = Object.fromEntries(Object.entries(pids).map(([p, pid]) =>
        [p, { pid, requests: r[p].requestsPerSecond * recording.seconds }]));
      console.log(`== ${workload} round ${round + 1}\n${perfTable(perfReport(recording, servers), top)}\n`);
    }
  }).catch((err) => {
    console.error(err.stack);
    process.exit(1);
  });
}
