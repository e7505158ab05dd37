'use strict';
// What a server allocates per request, by the function that allocates: V8's
// sampling heap profiler (through node:inspector, in the server's own
// process) keeping the objects that scavenges and full GCs collected too,
// over a window of requests after a warm-up, divided by the window's
// requests. Young garbage is what makes a server scavenge, and a scavenge's
// cost is mostly fixed (its roots), so these bytes are the GC's share of a
// request. A sample stands for `--interval` bytes on average: a figure
// below a few bytes a request is noise.
//
// The server is a child of this process (builtin: node:http; native:
// node:http's createServer() under llhttp-napi/server/register on its own
// transport; preload: the same on node:net), answering server-workloads.js's
// WORKLOAD (hello, browser: its net-echo app) to a client child that sends
// one request at a time on one keep-alive connection.
//
//   node benchmark/allocations.js [hello|browser|WORKLOAD] [--sides=builtin,native] [--warmup=20000]
//     [--requests=20000] [--interval=32] [--top=25] [--node=BIN] [--json]

const path = require('node:path');
const net = require('node:net');
const { spawn } = require('node:child_process');
const common = require('./common');
const workloads = require('./server-workloads');

const ROLE = process.argv[2];

// ---- the server child ----

function post(session, method, params = {}) {
  return new Promise((resolve, reject) => session.post(method, params, (err, r) => (err ? reject(err) : resolve(r))));
}

// Self bytes by function (name, file, line) of a sampling profile's tree.
function bytesByFunction(profile) {
  const self = new Map();
  const walk = (node) => {
    const f = node.callFrame;
    const file = f.url.replace(/^.*\/(lib|benchmark)\//, '$1/');
    const key = `${f.functionName || '(anonymous)'} ${file}${file ? `:${f.lineNumber + 1}` : ''}`;
    self.set(key, (self.get(key) || 0) + node.selfSize);
    for (const child of node.children || []) walk(child);
  };
  walk(profile.head);
  return self;
}

function serve(side, workload) {
  if (side === 'native') process.env.LLHTTP_NAPI_TRANSPORT = 'native';
  if (side === 'preload') process.env.LLHTTP_NAPI_TRANSPORT = 'net';
  if (side !== 'builtin') require(path.join(common.ROOT, 'lib', 'server', 'register.js'));
  // (Connected at the window's start: the session changes what the
  // process does while it is connected.)
  const { Session } = require('node:inspector');
  const session = new Session();
  workloads.handler(workload).then((handler) => {
    const server = require('node:http').createServer(handler);
    server.keepAliveTimeout = 600000;
    server.listen(0, '127.0.0.1', () => reply({ type: 'listening', port: server.address().port }));
  });
  // (Commands come on stdin, one JSON line each, and the answers go to
  // stdout: the server has no IPC channel, as a server in production has
  // none.)
  const lines = require('node:readline').createInterface({ input: process.stdin });
  lines.on('line', async (line) => {
    const msg = JSON.parse(line);
    if (msg.type === 'start') {
      session.connect();
      await post(session, 'HeapProfiler.enable');
      await post(session, 'HeapProfiler.startSampling', { samplingInterval: msg.interval,
        includeObjectsCollectedByMinorGC: true, includeObjectsCollectedByMajorGC: true });
      reply({ type: 'start' });
    } else if (msg.type === 'stop') {
      const { profile } = await post(session, 'HeapProfiler.stopSampling');
      reply({ type: 'stop', bytes: [...bytesByFunction(profile)] });
      process.exit(0);
    }
  });
}

function reply(msg) {
  process.stdout.write(`${JSON.stringify(msg)}\n`);
}

// ---- the client (this process) ----

// Sends `count` requests on one connection, each after the last answer
// (framed by Content-Length) arrived.
function drive(port, requests, count) {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let pending = Buffer.alloc(0);
    let sent = 0;
    const next = () => {
      if (sent === count) {
        socket.end();
        resolve();
        return;
      }
      socket.write(requests[sent++ % requests.length]);
    };
    socket.on('data', (chunk) => {
      pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
      for (let end; (end = pending.indexOf('\r\n\r\n')) >= 0;) {
        const length = /\r\ncontent-length: *(\d+)/i.exec(pending.toString('latin1', 0, end));
        if (length === null) return reject(new Error('an answer without Content-Length'));
        const size = end + 4 + Number(length[1]);
        if (pending.length < size) return;
        pending = pending.subarray(size);
        next();
      }
    });
    socket.on('error', reject);
    socket.on('connect', next);
  });
}

// The server child of `side`: ask(msg) sends a command and resolves to its answer.
function serverChild(node, side, workload) {
  const proc = spawn(node, [__filename, '--serve', side, workload], { stdio: ['pipe', 'pipe', 'inherit'] });
  const answers = [];
  const waiting = [];
  require('node:readline').createInterface({ input: proc.stdout }).on('line', (line) => {
    const msg = JSON.parse(line);
    if (waiting.length > 0) waiting.shift().resolve(msg);
    else answers.push(msg);
  });
  proc.on('exit', (code) => {
    for (const w of waiting.splice(0)) w.reject(new Error(`the ${side} server exited with ${code}`));
  });
  const next = () => (answers.length > 0 ? Promise.resolve(answers.shift()) :
    new Promise((resolve, reject) => waiting.push({ resolve, reject })));
  return {
    proc,
    next,
    ask: (msg) => {
      proc.stdin.write(`${JSON.stringify(msg)}\n`);
      return next();
    },
  };
}

async function profileSide(side, { node, workload, warmup, requests, interval }) {
  const child = serverChild(node, side, workload);
  try {
    const { port } = await child.next();
    const list = workloads.requests(workload).map(workloads.serialize);
    await drive(port, list, warmup);
    await child.ask({ type: 'start', interval });
    await drive(port, list, requests);
    const { bytes } = await child.ask({ type: 'stop' });
    const perRequest = bytes.map(([where, b]) => [where, b / requests]).sort((a, b) => b[1] - a[1]);
    return { total: perRequest.reduce((sum, [, b]) => sum + b, 0), byFunction: perRequest };
  } finally {
    child.proc.kill();
  }
}

async function run({ options, rest }) {
  const target = rest[0] || 'hello';
  const workload = target === 'browser' ? 'net-echo' : target;
  const settings = { node: options.node || process.execPath, workload, warmup: Number(options.warmup || 20000),
    requests: Number(options.requests || 20000), interval: Number(options.interval || 32) };
  const sides = String(options.sides || 'builtin,native').split(',');
  const out = { node: settings.node, target, ...settings, top: Number(options.top || 25), sides: {} };
  for (const side of sides) {
    process.stderr.write(`allocations: ${target} on ${side}\n`);
    out.sides[side] = await profileSide(side, settings);
  }
  return out;
}

function describe(out) {
  const lines = [`# allocations: ${out.target}, bytes per request (sampled every ${out.interval} bytes), ` +
    `${out.requests} requests after ${out.warmup}, ${out.node}`];
  for (const [side, r] of Object.entries(out.sides)) {
    lines.push('', `${side}: ${r.total.toFixed(0)} bytes per request`);
    for (const [where, bytes] of r.byFunction.slice(0, out.top)) {
      if (bytes >= 1) lines.push(`  ${bytes.toFixed(1).padStart(8)}  ${where}`);
    }
  }
  return lines.join('\n');
}

if (ROLE === '--serve') serve(process.argv[3], process.argv[4]);
else common.main(run, describe);
