'use strict';
// What a cluster worker spends per connection or per request, counted: a
// cluster's primary (not counted) forks one worker under valgrind's callgrind
// (--cache-sim=yes, --collect-systime), the worker listens with node:http,
// llhttp-napi/server on node:net, or on its native transport, and this
// process is the client: `conn`, each request on a connection of its own
// (Connection: close, one after another), or `keepalive`, one connection,
// one request at a time. Callgrind dumps after N1 and after N2 requests: the
// second dump is N2 - N1 of them, divided by N2 - N1; the median of --runs.
// So the round-robin worker's cost of taking the primary's connections onto
// the native transport (a copy of each descriptor) shows beside node:net's.
//
//   node benchmark/cluster-counts.js [conn|keepalive] [--policy=rr|none] [--sides=http,net,native]
//     [--n1=1000] [--n2=9000] [--runs=3] [--jobs=2]

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const net = require('node:net');
const { spawn, execFileSync } = require('node:child_process');
const callgrind = require('./callgrind');
const common = require('./common');

const { options, rest } = common.parseArgs();
const SIDES = { http: 'node:http', net: 'llhttp-napi/server on node:net', native: 'llhttp-napi/server, native transport' };
const hello = (req, res) => {
  res.writeHead(200, { 'Content-Type': 'text/plain', 'Content-Length': 11 });
  res.end('hello world');
};

// The primary: forks the worker through `wrapper` (callgrind over node),
// tells the client the port and the worker's pid.
function primary() {
  const cluster = require('node:cluster');
  cluster.schedulingPolicy = options.policy === 'none' ? cluster.SCHED_NONE : cluster.SCHED_RR;
  // (cluster forks process.execPath: the wrapper starts node under callgrind.)
  process.execPath = options.wrapper;
  cluster.setupPrimary({ exec: __filename, args: ['--worker', `--side=${options.side}`], execArgv: ['--single-threaded', '--perf-basic-prof'] });
  const worker = cluster.fork();
  worker.on('message', (m) => process.stdout.write(`listening ${m.port} ${m.pid}\n`));
}

function worker() {
  const server = options.side === 'http' ? require('node:http').createServer(hello) :
    require(path.join(__dirname, '..', 'lib', 'server')).createServer({ transport: options.side }, hello);
  server.keepAliveTimeout = 600000;
  server.listen(0, '127.0.0.1', () => process.send({ port: server.address().port, pid: process.pid }));
}

const REQUEST = 'GET /hello HTTP/1.1\r\nHost: x\r\nUser-Agent: counts\r\n';

// `count` requests, each on a connection of its own.
async function byConnection(port, count) {
  for (let i = 0; i < count; i++) {
    await new Promise((resolve, reject) => {
      const socket = net.connect(port, '127.0.0.1', () => socket.write(`${REQUEST}Connection: close\r\n\r\n`));
      let got = '';
      socket.on('data', (d) => { got += d; });
      socket.on('error', reject);
      socket.on('close', () => (got.startsWith('HTTP/1.1 200') ? resolve() : reject(new Error(`bad answer: ${got.slice(0, 60)}`))));
    });
  }
}

// `count` requests on `socket`, each after the last answer.
function onConnection(socket, count) {
  return new Promise((resolve, reject) => {
    let got = '';
    let left = count;
    const onData = (d) => {
      got += d;
      for (let end; (end = got.indexOf('hello world')) >= 0;) {
        got = got.slice(end + 11);
        if (--left === 0) return resolve(socket.off('data', onData));
        socket.write(`${REQUEST}\r\n`);
      }
    };
    socket.on('data', onData);
    socket.once('error', reject);
    socket.write(`${REQUEST}\r\n`);
  });
}

async function runOne(side, tag, dir, n1, n2) {
  const out = path.join(dir, `${tag}.out`);
  const wrapper = path.join(dir, `${tag}.sh`);
  fs.writeFileSync(wrapper, `#!/bin/sh\nexec valgrind --tool=callgrind --smc-check=all-non-file --dump-instr=no --cache-sim=yes ` +
    `--collect-systime=yes --callgrind-out-file=${out} --log-file=${out}.log ${process.execPath} "$@"\n`, { mode: 0o755 });
  const child = spawn(process.execPath, [__filename, '--primary', `--side=${side}`, `--policy=${options.policy || 'rr'}`,
    `--wrapper=${wrapper}`], { stdio: ['ignore', 'pipe', 'inherit'] });
  let port;
  let pid;
  try {
    [port, pid] = await new Promise((resolve, reject) => {
      let text = '';
      child.stdout.on('data', (d) => {
        const m = /listening (\d+) (\d+)/.exec(text += d);
        if (m) resolve([Number(m[1]), Number(m[2])]);
      });
      child.on('exit', (code) => reject(new Error(`primary exited (${code}), see ${out}.log`)));
    });
    const dump = () => execFileSync('callgrind_control', ['-d', String(pid)], { stdio: 'ignore', timeout: 600000 });
    let socket = null;
    if (rest[0] === 'keepalive') {
      socket = net.connect(port, '127.0.0.1');
      await new Promise((resolve) => socket.once('connect', resolve));
    }
    const drive = (count) => (socket === null ? byConnection(port, count) : onConnection(socket, count));
    await drive(n1);
    dump();
    await drive(n2 - n1);
    dump();
    if (socket !== null) socket.destroy();
    return callgrind.account(`${out}.2`, `/tmp/perf-${pid}.map`, n2 - n1);
  } finally {
    // (The worker goes with its primary's channel; at once if it is known.)
    if (pid !== undefined) process.kill(pid, 'SIGKILL');
    child.kill('SIGKILL');
  }
}

async function main() {
  if (callgrind.unavailable()) throw new Error(callgrind.unavailable());
  const n1 = Number(options.n1 || 1000);
  const n2 = Number(options.n2 || 9000);
  const sides = String(options.sides || 'http,net,native').split(',');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cluster-counts-'));
  const results = new Map(sides.map((s) => [s, []]));
  const tasks = [];
  for (let r = 0; r < Number(options.runs || 3); r++) for (const side of sides) tasks.push({ side, r });
  const work = async () => {
    for (let t; (t = tasks.shift());) {
      const acc = await runOne(t.side, `${rest[0] || 'conn'}.${t.side}.${t.r}`, dir, n1, n2);
      results.get(t.side).push(acc);
      process.stderr.write(`  ${t.side} run ${t.r}: ${Math.round(acc.total.Ir)} Ir, ${Math.round(acc.total.sys)} syscalls\n`);
    }
  };
  await Promise.all(Array.from({ length: Number(options.jobs || 2) }, work));
  fs.rmSync(dir, { recursive: true, force: true });
  const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
  const fmt = (x) => Math.round(x).toLocaleString('en-US');
  console.log(`# cluster-counts: ${rest[0] || 'conn'}, ${options.policy || 'rr'} worker, ${n2 - n1} requests counted (${n1} -> ${n2}), ` +
    `Node ${process.version}, at ${common.buildIdentity()}`);
  console.log(`| per request | ${sides.map((s) => SIDES[s]).join(' | ')} |\n|---|${sides.map(() => '--:').join('|')}|`);
  const base = median(results.get(sides[0]).map((a) => a.total.Ir));
  for (const [k, label] of [['Ir', 'instructions'], ['I1', 'I1 misses'], ['D1', 'D1 misses'], ['sys', 'syscalls']]) {
    console.log(`| ${label} | ${sides.map((s) => {
      const v = median(results.get(s).map((a) => a.total[k]));
      return k === 'Ir' && s !== sides[0] ? `${fmt(v)} (${(v / base).toFixed(3)}x)` : fmt(v);
    }).join(' | ')} |`);
  }
  console.log(`| instructions, each run | ${sides.map((s) => results.get(s).map((a) => fmt(a.total.Ir)).join(', ')).join(' | ')} |`);
}

if (options.primary) primary();
else if (options.worker) worker();
else main().catch((err) => { console.error(err); process.exit(1); });
