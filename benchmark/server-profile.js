'use strict';
// Where the servers of server.js spend their CPU, built-in against
// llhttp-napi, per request, timed: on-CPU samples of every thread (`perf
// record -e cpu-clock`, native code included: the built-in's C++ parser, our
// addon, libuv, malloc, GC, the kernel) of both servers over the measured
// windows of paired rounds (server.js's onWindow hook), JIT'd frames named
// through --perf-basic-prof. Samples go to where.js's categories (the table
// callgrind's counts use) and are divided by the requests served in the
// window; the parse path is the categories that parse (PARSE_PATH). For a
// count that does not move with the machine's load: server-counts.js.
// Needs perf (apt-get install linux-perf).
//
//   node benchmark/server-profile.js [--workload=browser] [--rounds=3]   (recordings: /tmp/llhttp-napi-profile)

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawn, spawnSync } = require('node:child_process');
const common = require('./common');
const where = require('./where');
const { e2e } = require('./server');

// The categories that parse: either parser's native code and our JavaScript.
const PARSE_PATH = ['llhttp', 'our core (src/core, C)', 'our binding (src/binding, N-API glue)', 'N-API',
  'built-in parser C++ (node_http_parser.cc, ConnectionsList)', 'JS ours: lib/'];

const havePerf = () => spawnSync('perf', ['--version']).status === 0;

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

// Samples of a recording: { pid, name, object } as where.js reads them.
function perfSamples(file) {
  const r = spawnSync('perf', ['script', '-i', file, '-F', 'pid,ip,sym,dso'], { encoding: 'utf8', maxBuffer: 1 << 30 });
  if (r.status !== 0) throw new Error(`perf script: ${r.stderr}`);
  const out = [];
  for (const line of r.stdout.split('\n')) {
    const m = /^\s*(\d+)\s+[0-9a-f]+\s+(.*) \((.*)\)\s*$/.exec(line);
    if (!m) continue;
    const sym = m[2].replace(/\+0x[0-9a-f]+$/, '');
    const jit = m[3].includes('/perf-');
    out.push({ pid: Number(m[1]), name: jit ? where.jsName(sym) : sym, object: jit ? 'JIT' : path.basename(m[3]) });
  }
  return out;
}

// { parser: { pid, requests } } → per parser: µs/request in all, on the parse path, by category and by symbol.
function perfReport({ file, hz, seconds }, servers) {
  const samples = perfSamples(file);
  const out = {};
  for (const [parser, { pid, requests }] of Object.entries(servers)) {
    const per = (count) => (count * 1e6) / hz / requests;
    const cats = new Map();
    const syms = new Map();
    let total = 0;
    for (const s of samples) {
      if (s.pid !== pid) continue;
      total++;
      const c = where.categoryOf(s);
      cats.set(c, (cats.get(c) || 0) + 1);
      const key = `${s.object === 'JIT' ? '' : s.object + ' | '}${s.name}`;
      syms.set(key, (syms.get(key) || 0) + 1);
    }
    out[parser] = { seconds, requests, total: per(total), samples: total,
      parsePath: per(PARSE_PATH.reduce((sum, label) => sum + (cats.get(label) || 0), 0)),
      categories: Object.fromEntries([...cats].map(([k, v]) => [k, per(v)])),
      symbols: Object.fromEntries([...syms].map(([k, v]) => [k, per(v)])) };
  }
  return out;
}

function perfTable(report, top = 30) {
  const b = report.builtin, n = report.napi;
  const signed = (x) => `${x >= 0 ? '+' : ''}${x.toFixed(2)}`;
  const lines = [`perf, on-CPU µs/request (all threads): builtin ${b.total.toFixed(2)}, napi ${n.total.toFixed(2)} ` +
    `(${signed(n.total - b.total)}); ${b.samples} / ${n.samples} samples`,
  `parse path (${PARSE_PATH.join(', ')}): builtin ${b.parsePath.toFixed(2)}, napi ${n.parsePath.toFixed(2)}, ` +
    `ratio ${(n.parsePath / b.parsePath).toFixed(3)}`];
  const rows = (key) => [...new Set([...Object.keys(b[key]), ...Object.keys(n[key])])]
    .map((k) => ({ k, b: b[key][k] || 0, n: n[key][k] || 0 }));
  const line = (r) => `  ${r.b.toFixed(2).padStart(7)}  ${r.n.toFixed(2).padStart(7)}  ${signed(r.n - r.b).padStart(7)}  ` +
    `${((100 * r.n) / n.total).toFixed(1).padStart(5)}%  ${r.k.slice(0, 110)}`;
  const byDifference = (x, y) => Math.abs(y.n - y.b) - Math.abs(x.n - x.b);
  lines.push('  builtin     napi     diff  %napi  category', ...rows('categories').sort(byDifference).map(line),
    `  symbols, top ${top} differences:`, ...rows('symbols').sort(byDifference).slice(0, top).map(line));
  return lines.join('\n');
}

if (require.main === module) {
  common.main(async ({ option }) => {
    if (!havePerf()) throw new Error('perf is not installed (apt-get install linux-perf)');
    const dir = path.join(os.tmpdir(), 'llhttp-napi-profile');
    fs.rmSync(dir, { recursive: true, force: true });
    fs.mkdirSync(dir, { recursive: true });
    const run = await e2e({ workloads: option('workload', ['browser']), modes: ['paired'], count: false,
      pairedRounds: option('rounds', 3), duration: 8, serverFlags: ['--perf-basic-prof'],
      onWindow: (pids, seconds, workload, round) => perfRecord(Object.values(pids), seconds,
        path.join(dir, `${workload}-${round}.perf.data`)).then((recording) => ({ ...recording, pids })),
      onProgress: ({ what }) => common.progress(`server-profile: ${what}`) });
    return Object.entries(run.workloads).flatMap(([workload, w]) => w.paired.rounds.map((r, round) => {
      const servers = Object.fromEntries(Object.entries(r.recording.pids).map(([p, pid]) =>
        [p, { pid, requests: r[p].requestsPerSecond * r.recording.seconds }]));
      return `== ${workload} round ${round + 1}\n${perfTable(perfReport(r.recording, servers))}\n`;
    }));
  }, (tables) => tables.join('\n'));
}
