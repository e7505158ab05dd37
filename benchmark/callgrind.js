'use strict';
// The one callgrind harness and reader of this folder (instructions.js counts
// a parser, server-counts.js a server): start a process under valgrind's
// callgrind, read a dump, and account for it per operation by function and by
// where.js's categories, JIT'd code named from the process's --perf-basic-prof
// map. Needs valgrind (apt-get install valgrind).

const fs = require('node:fs');
const { spawn, execFileSync } = require('node:child_process');
const where = require('./where');

// Why callgrind cannot run here, or null.
function unavailable() {
  try {
    execFileSync('valgrind', ['--version'], { stdio: 'ignore' });
    return null;
  } catch {
    return 'valgrind is not installed (apt-get install valgrind)';
  }
}

// argv under callgrind, writing `out` (and out.1, out.2, ... on each
// callgrind_control -d); cache: cachegrind's I1/D1 model and syscalls too.
function start(argv, out, { cache = false, stdio = ['ignore', 'pipe', 'pipe'] } = {}) {
  return spawn('valgrind', ['--tool=callgrind', '--smc-check=all-non-file', '--dump-instr=no',
    ...(cache ? ['--cache-sim=yes', '--collect-systime=yes'] : []),
    `--callgrind-out-file=${out}`, `--log-file=${out}.log`, ...argv], { stdio });
}

// Runs argv under callgrind to its end.
function run(argv, out, options) {
  return new Promise((resolve, reject) => {
    const child = start(argv, out, options);
    child.stdout.resume();
    child.stderr.resume();
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve() :
      reject(new Error(`valgrind exited with ${code}: ${fs.readFileSync(`${out}.log`, 'utf8').slice(-400)}`))));
  });
}

// Self and inclusive cost per function (name and object) of a dump, and the
// pid it came from.
function readDump(file) {
  const ids = new Map();
  const fns = new Map();
  let events = null;
  let object = '';
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
      if (line[0] === 'o') object = name;
    } else if (line.startsWith('fn=') || line.startsWith('cfn=')) {
      const name = define(line.slice(line.indexOf('=') + 1)).replace(/'\d+$/, ''); // (recursion levels)
      if (line[0] === 'c') continue;
      const key = `${name}\0${object}`;
      if (!(fn = fns.get(key))) fns.set(key, (fn = { name, object, self: events.map(() => 0), incl: events.map(() => 0) }));
    } else if (line.startsWith('calls=')) inCall = true;
  }
  return { events, pid, fns: [...fns.values()] };
}

// Names JIT'd code from a perf map (the code put last at an address).
function jitNamer(mapFile) {
  const entries = fs.existsSync(mapFile) ? fs.readFileSync(mapFile, 'utf8').split('\n').map((l, i) => {
    const m = /^([0-9a-f]+) ([0-9a-f]+) (.*)$/.exec(l);
    return m && { start: parseInt(m[1], 16), end: parseInt(m[1], 16) + parseInt(m[2], 16), name: m[3], i };
  }).filter(Boolean).sort((a, b) => a.start - b.start) : [];
  return (address) => {
    let [lo, hi, best] = [0, entries.length - 1, null];
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (entries[mid].start <= address) lo = mid + 1; else hi = mid - 1;
    }
    for (let j = hi; j >= 0 && j > hi - 64; j--) {
      if (address < entries[j].end && (best === null || entries[j].i > best.i)) best = entries[j];
    }
    return best && where.jsName(best.name);
  };
}

// A dump per operation: { total: { Ir, I1, D1, sys }, fns: [{ name, category, Ir, I1, D1, incl }] },
// every cost divided by `per`; the perf map is `map` or the dumped pid's.
function account(dump, map, per = 1) {
  const { events, fns, pid } = readDump(dump);
  const [ir, i1, d1r, d1w, sys] = ['Ir', 'I1mr', 'D1mr', 'D1mw', 'sysCount'].map((e) => events.indexOf(e));
  const jitName = jitNamer(map && fs.existsSync(map) ? map : `/tmp/perf-${pid}.map`);
  const at = (costs, i) => (i >= 0 ? costs[i] / per : 0);
  const merged = new Map();
  const total = { Ir: 0, I1: 0, D1: 0, sys: 0 };
  for (const f of fns) {
    const address = /^0x([0-9a-f]+)$/.exec(f.name);
    const name = (address && jitName(parseInt(address[1], 16))) || f.name;
    const e = merged.get(name) || { name, category: where.categoryOf({ name, object: f.object }), Ir: 0, I1: 0, D1: 0,
      incl: { Ir: 0, I1: 0, D1: 0 } };
    for (const [into, costs] of [[e, f.self], [e.incl, f.incl], [e.incl, f.self]]) {
      into.Ir += at(costs, ir);
      into.I1 += at(costs, i1);
      into.D1 += at(costs, d1r) + at(costs, d1w);
    }
    total.Ir += at(f.self, ir);
    total.I1 += at(f.self, i1);
    total.D1 += at(f.self, d1r) + at(f.self, d1w);
    total.sys += at(f.self, sys);
    merged.set(name, e);
  }
  return { total, fns: [...merged.values()] };
}

// Per category of where.js: { name: { Ir, I1, D1 } }.
function byCategory(fns) {
  const out = {};
  for (const f of fns) {
    const e = out[f.category] || (out[f.category] = { Ir: 0, I1: 0, D1: 0 });
    for (const k of ['Ir', 'I1', 'D1']) e[k] += f[k];
  }
  return out;
}

module.exports = { unavailable, start, run, readDump, account, byCategory };
