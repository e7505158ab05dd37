'use strict';
// What a process pays for llhttp-napi: a node:http server after one request,
// plain, with install() and as llhttp-napi/server, each a fresh child (or a
// worker_thread of one), read from /proc/self/smaps mapping by mapping and
// grouped: the addon's file (its code and data), node's binary, the other
// files, the V8 heap (v8.getHeapSpaceStatistics(): the code space apart) and
// the rest of the anonymous memory (malloc, the core's workspace, stacks).
// Counted, not timed: the median of the rounds per group, and each variant
// minus plain.
//
//   node benchmark/process-weight.js [--rounds=3] [--variants=plain,install,...] [--workers]
//        [--package=DIR] [--json]
//
// --workers: the same in a worker_thread (the process with one worker that
// served one request, over the process with one worker that did nothing),
// what each further thread pays.
// Linux only (/proc/self/smaps).

const fs = require('node:fs');
const path = require('node:path');
const http = require('node:http');
const { fork } = require('node:child_process');

function arg(name, fallback) {
  const a = process.argv.find((x) => x.startsWith(`--${name}=`));
  return a ? a.slice(name.length + 3) : fallback;
}

// (--package=DIR: measure that checkout's lib/ and build instead)
const ROOT = path.resolve(arg('package', path.resolve(__dirname, '..')));
// (addon: plain after loading the addon alone; parser: after loading
// install()'s parser, without installing it)
const VARIANTS = ['plain', 'addon', 'parser', 'install', 'server'];
const GROUPS = ['addon', 'node', 'files', 'v8', 'v8code', 'anon', 'rss', 'anonymous'];

// smaps, grouped. A mapping's Rss is file-backed or anonymous by its
// Anonymous line; the V8 heap is what its spaces say they hold physically.
function readSmaps() {
  const text = fs.readFileSync('/proc/self/smaps', 'utf8');
  const exe = fs.realpathSync(process.execPath);
  const out = Object.fromEntries(GROUPS.map((g) => [g, 0]));
  let name = '';
  for (const line of text.split('\n')) {
    const head = line.match(/^[0-9a-f]+-[0-9a-f]+ \S+ \S+ \S+ \S+\s*(.*)$/);
    if (head) {
      name = head[1];
      continue;
    }
    const m = line.match(/^(Rss|Anonymous):\s+(\d+) kB/);
    if (!m) continue;
    const bytes = Number(m[2]) * 1024;
    if (m[1] === 'Anonymous') {
      out.anonymous += bytes;
      continue;
    }
    out.rss += bytes;
    if (name.endsWith('.node')) out.addon += bytes;
    else if (name === exe) out.node += bytes;
    else if (name.startsWith('/')) out.files += bytes;
    else out.anon += bytes;
  }
  for (const s of require('node:v8').getHeapSpaceStatistics()) {
    if (s.space_name === 'code_space') out.v8code += s.physical_space_size;
    else out.v8 += s.physical_space_size;
  }
  // (the V8 heap is anonymous: the rest is malloc, stacks, the workspace)
  out.anon -= out.v8 + out.v8code;
  return out;
}

// ---- the measured side: a server that answers one request ----

function serve(variant) {
  // (every variant first requires a file of the application, as any
  // application made of more than one file does: the loader's first use
  // pages in and allocates as much as the addon itself, and would
  // otherwise be counted as the addon's)
  require(path.join(ROOT, 'package.json'));
  let createServer;
  if (variant === 'install') {
    require(ROOT).install();
    createServer = http.createServer;
  } else if (variant === 'addon') {
    require(path.join(ROOT, 'lib', 'native'));
    createServer = http.createServer;
  } else if (variant === 'parser') {
    require(path.join(ROOT, 'lib', 'parser'));
    createServer = http.createServer;
  } else if (variant === 'server') {
    createServer = require(path.join(ROOT, 'lib', 'server')).createServer;
  } else {
    createServer = http.createServer;
  }
  return new Promise((resolve) => {
    const server = createServer((req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/plain' });
      res.end('ok');
    });
    server.listen(0, '127.0.0.1', () => resolve(server));
  });
}

// One browser-like request, answered, then the server closes.
function oneRequest(port) {
  return new Promise((resolve, reject) => {
    const req = http.request({
      port, host: '127.0.0.1', path: '/index.html?q=1', agent: false,
      headers: {
        'User-Agent': 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0',
        Accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
        'Accept-Language': 'en-US,en;q=0.5',
        'Accept-Encoding': 'gzip, deflate, br',
        Connection: 'close',
      },
    }, (res) => {
      res.resume();
      res.on('end', resolve);
    });
    req.on('error', reject);
    req.end();
  });
}

async function measured(variant, requester) {
  const server = await serve(variant);
  await requester(server.address().port);
  await new Promise((resolve) => server.close(resolve));
  await new Promise((resolve) => setImmediate(resolve));
}

// ---- children ----

async function child(variant, workers) {
  const { Worker } = require('node:worker_threads');
  if (!workers) {
    await measured(variant, (port) => new Promise((resolve) => {
      process.once('message', resolve);
      process.send({ type: 'port', port });
    }));
    process.send({ type: 'smaps', smaps: readSmaps() });
    return;
  }
  // (the worker serves; this thread sends the request and reads smaps)
  const worker = new Worker(__filename, { argv: ['--in-worker', variant, `--package=${ROOT}`] });
  worker.on('message', async (msg) => {
    if (msg.type === 'port') {
      await oneRequest(msg.port);
      worker.postMessage('done');
    } else if (msg.type === 'served') {
      process.send({ type: 'smaps', smaps: readSmaps() });
    }
  });
}

async function inWorker(variant) {
  const { parentPort } = require('node:worker_threads');
  if (variant !== 'idle') {
    await measured(variant, (port) => new Promise((resolve) => {
      parentPort.once('message', resolve);
      parentPort.postMessage({ type: 'port', port });
    }));
  }
  parentPort.postMessage({ type: 'served' });
  // (stays alive until the parent reads smaps and exits)
  setInterval(() => {}, 1000);
}

function runChild(variant, workers) {
  return new Promise((resolve, reject) => {
    const c = fork(__filename, ['--child', variant, `--package=${ROOT}`, ...(workers ? ['--workers'] : [])],
      { stdio: 'inherit' });
    c.on('message', async (msg) => {
      if (msg.type === 'port') {
        await oneRequest(msg.port);
        c.send('done');
      } else if (msg.type === 'smaps') {
        c.kill();
        resolve(msg.smaps);
      }
    });
    c.on('error', reject);
  });
}

function median(values) {
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

async function main() {
  const rounds = Number(arg('rounds', 3));
  const workers = process.argv.includes('--workers');
  // ('idle': a worker that served nothing, the base of --workers)
  const chosen = arg('variants', VARIANTS.join(',')).split(',');
  const variants = workers ? ['idle', ...chosen] : chosen;
  const runs = Object.fromEntries(variants.map((v) => [v, []]));
  for (let r = 0; r < rounds; r++) {
    for (const v of r % 2 ? [...variants].reverse() : variants) runs[v].push(await runChild(v, workers));
  }
  const med = {};
  for (const v of variants) med[v] = Object.fromEntries(GROUPS.map((g) => [g, median(runs[v].map((x) => x[g]))]));
  const base = workers ? med.idle : med.plain || med[variants[0]];
  if (process.argv.includes('--json')) {
    console.log(JSON.stringify({ node: process.version, workers, rounds, median: med, runs }, null, 2));
    return;
  }
  const mib = (b) => (b / 1048576).toFixed(2);
  console.log(`node ${process.version}${workers ? ', in a worker_thread' : ''}, median of ${rounds}, MiB` +
    ` (${workers ? 'over a process whose worker served nothing' : 'and each over plain'})`);
  console.log(['variant', ...GROUPS].map((g) => g.padStart(9)).join(' '));
  for (const v of variants) {
    console.log([v, ...GROUPS.map((g) => mib(med[v][g]))].map((x) => String(x).padStart(9)).join(' '));
    if (med[v] !== base) {
      console.log(['  +', ...GROUPS.map((g) => mib(med[v][g] - base[g]))].map((x) => String(x).padStart(9)).join(' '));
    }
  }
}

const at = process.argv.indexOf('--child');
const w = process.argv.indexOf('--in-worker');
if (w !== -1) {
  inWorker(process.argv[w + 1]);
} else if (at !== -1) {
  child(process.argv[at + 1], process.argv.includes('--workers'));
} else {
  main().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
