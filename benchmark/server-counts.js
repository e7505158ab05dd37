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
//     [--runs=3] [--sides=builtin,napi] [--package=DIR] [--server=MODULE] [--transport=net|native]
//     [--node=BIN,...] [--jobs=2]
//     [--keep=DIR] [--run=K (the first run's number)] [--top=25] [--inclusive=REGEX]
//   node benchmark/server-counts.js --from=DIR[:LABEL],... [--sides=...] [--top=25] [--inclusive=REGEX]
//
// browser: the distinct browser-like GETs of server-workloads.js answered
// with a small JSON that reads user-agent (its net-echo handler, in node:http);
// another name is a server-workloads.js workload; a path is an app module
// exporting createApp(), createHandler() or a (req, res) handler, driven by the browser
// requests (--requests=NAME for others). Sides: builtin (node:http as is),
// napi (install() of --package, default this checkout) and, with
// --server=MODULE, server: MODULE's createServer(handler) (llhttp-napi/server);
// preload: node:http's createServer(handler) with llhttp-napi/server/register
// (of --package) loaded first, on node:net (LLHTTP_NAPI_TRANSPORT=net);
// native: the same on llhttp-napi/server's own transport (the default,
// issue 46), so that --sides=builtin,preload,native counts both transports.
// --transport=net puts the server side on node:net ({ transport } in its
// options).
// --keep keeps the dumps and perf maps; --from reports kept runs again (LABEL
// renames their napi side, to put two checkouts side by side); --inclusive
// adds the inclusive counts of the functions it matches.

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const net = require('node:net');
const { execFileSync } = require('node:child_process');
const callgrind = require('./callgrind');
const common = require('./common');
const where = require('./where');
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
    // (createHandler(): an app that hands over its handler asynchronously, as apps/fastify-app.js.)
    handle = typeof app.createApp === 'function' ? app.createApp() :
      typeof app.createHandler === 'function' ? app.createHandler() : app.handler || app;
  } else {
    // (browser: the browser GETs answered by net-echo's handler, a small JSON that reads user-agent.)
    handle = workloads.handler(target === 'browser' ? 'net-echo' : target);
  }
  Promise.resolve(handle).then((ready) => {
    // preload: node:http's createServer under llhttp-napi/server/register;
    // native: the same on the native transport.
    // (The native transport is the default; preload keeps node:net.)
    if (options.side === 'native') process.env.LLHTTP_NAPI_TRANSPORT = 'native';
    if (options.side === 'preload') process.env.LLHTTP_NAPI_TRANSPORT = 'net';
    if (options.side === 'preload' || options.side === 'native') {
      require(path.resolve(options.package || common.ROOT, 'lib', 'server', 'register.js'));
    }
    const server = options.side === 'server' ?
      require(options.server).createServer(options.transport ? { transport: options.transport } : {}, ready) :
      require('node:http').createServer(ready);
    server.keepAliveTimeout = 600000;
    server.listen(0, '127.0.0.1', () => {
      // (A server the native transport did not take would count node:net.)
      const native = Object.getOwnPropertySymbols(server).some((s) => s.description === 'llhttp-napi/server native transport');
      const expected = options.side === 'native' || (options.side === 'server' && options.transport !== 'net');
      if (native !== expected) {
        throw new Error(`the server is ${native ? '' : 'not '}on the native transport`);
      }
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
  // (--single-threaded: no concurrent GC or compiler threads, so that runs count alike.)
  const argv = [node, '--single-threaded', '--perf-basic-prof', __filename, target, '--serve', `--side=${side}`];
  if (options.package) argv.push(`--package=${path.resolve(options.package)}`);
  // (A module name stays a name: llhttp-napi/server.)
  if (options.server) argv.push(`--server=${/^[./]/.test(options.server) ? path.resolve(options.server) : options.server}`);
  if (options.transport) argv.push(`--transport=${options.transport}`);
  const child = callgrind.start(argv, out, { cache: true, stdio: ['ignore', 'pipe', 'inherit'] });
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
      t.noJit = median(runs.map((r) => r.total.Ir - (callgrind.byCategory(r.fns)[where.COMPILERS] || ZERO).Ir));
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
    const cats = med.map((m) => callgrind.byCategory(m.mid.fns));
    const last = cats.length - 1;
    lines.push('', `| category, Ir / I1 / D1 (median run) | ${sides.join(' | ')} | Ir, ${sides[last]} - ${sides[0]} |`,
      `|---|${sides.map(() => '--:').join('|')}|--:|`);
    for (const [name] of where.CATEGORIES) {
      const v = cats.map((c) => c[name] || ZERO);
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
        if (m) add(m[1], m[2] === 'napi' && label ? label : m[2], callgrind.account(path.join(dir, file), `${base}.map`, n2 - n1));
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
        const acc = callgrind.account(dump, map, n2 - n1);
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
