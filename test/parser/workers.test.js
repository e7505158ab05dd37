'use strict';
// worker_threads and cluster under load: workers parsing concurrently,
// terminated in the middle of a parse, then new workers loading the addon
// again (no crash, memory stable); cluster workers serving with install().
// (test/install/install.test.js covers install() inside a worker, the -r preload
// reaching workers, and one cluster worker started with -r register.)
const { test } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const v8 = require('node:v8');
const vm = require('node:vm');
const { Worker } = require('node:worker_threads');
const { spawn } = require('node:child_process');
const { once } = require('node:events');
const { setTimeout: sleep, setImmediate: tick } = require('node:timers/promises');

const ROOT = path.resolve(__dirname, '..', '..');

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc');

// Under `npm run test:asan` the allocator keeps freed memory in quarantine:
// RSS says nothing there (LeakSanitizer checks for leaks instead).
const UNDER_ASAN = (() => {
  try {
    return fs.readFileSync('/proc/self/maps', 'latin1').includes('libasan');
  } catch {
    return false;
  }
})();

function assertGrowth(t, rss, from, limit, what) {
  const mb = rss.map((r) => Math.round(r / 1048576));
  t.diagnostic(`RSS after each ${what} (MB): ${mb.join(' ')}`);
  const growth = (rss[rss.length - 1] - rss[from]) / 1048576;
  if (UNDER_ASAN) return;
  assert.ok(growth < limit, `RSS grew ${growth.toFixed(1)} MB from ${what} ${from + 1} to ${rss.length}: ${mb.join(' ')}`);
}

// Parses forever: pipelined keep-alive requests cut at random points,
// chunked bodies with trailers, long header sections (slab growth), on
// several parsers; says 'running' once warm. It never returns: only
// terminate() stops it, in the middle of an execute() or of a handler.
const PARSE_FOREVER = `
  const { parentPort, workerData } = require('node:worker_threads');
  const { HTTPParser } = require(${JSON.stringify(ROOT)});
  let seed = workerData.seed;
  const rnd = (n) => { seed = (seed * 1103515245 + 12345) & 0x7fffffff; return seed % n; };
  const msgs = [
    'GET /a HTTP/1.1\\r\\nHost: x\\r\\nUser-Agent: w\\r\\nAccept: */*\\r\\n\\r\\n',
    'POST /b HTTP/1.1\\r\\nHost: x\\r\\nContent-Length: 11\\r\\n\\r\\nhello world',
    'POST /c HTTP/1.1\\r\\nTransfer-Encoding: chunked\\r\\n\\r\\n5\\r\\nhello\\r\\n0\\r\\nT: 1\\r\\n\\r\\n',
    'GET /d HTTP/1.1\\r\\n' + 'X-Long: ' + 'v'.repeat(6000) + '\\r\\n' + 'H: 1\\r\\n'.repeat(40) + '\\r\\n',
  ];
  const input = Buffer.from(msgs.join('').repeat(4), 'latin1');
  const parsers = [];
  let messages = 0;
  for (let i = 0; i < 3; i++) {
    const p = new HTTPParser();
    p.initialize(HTTPParser.REQUEST, {});
    p[HTTPParser.kOnHeaders] = () => {};
    p[HTTPParser.kOnHeadersComplete] = function() { this.getAllHeaders(); return 0; };
    p[HTTPParser.kOnBody] = () => {};
    p[HTTPParser.kOnMessageComplete] = () => { messages++; };
    parsers.push(p);
  }
  let told = false;
  for (let n = 0; ; n++) {
    const p = parsers[n % parsers.length];
    for (let off = 0; off < input.length;) {
      const len = 1 + rnd(4096);
      const r = p.execute(input.subarray(off, off + len));
      if (r instanceof Error) throw r;
      off += len;
    }
    if (!told && n === 20) {
      told = true;
      parentPort.postMessage({ messages });
    }
  }`;

async function round(index) {
  const workers = [];
  for (let i = 0; i < 4; i++) {
    workers.push(new Worker(PARSE_FOREVER, { eval: true, workerData: { seed: index * 10 + i + 1 } }));
  }
  const errors = [];
  for (const w of workers) w.on('error', (err) => errors.push(err));
  const warm = await Promise.all(workers.map((w) => once(w, 'message')));
  for (const [m] of warm) assert.ok(m.messages >= 60, `warm worker parsed ${m.messages} messages`);
  // All four are parsing now: stop them at different moments.
  const codes = await Promise.all(workers.map(async (w, i) => {
    await sleep(i * 3);
    return w.terminate();
  }));
  assert.deepEqual(errors, []);
  assert.deepEqual(codes, [1, 1, 1, 1], 'terminated, not exited by themselves');
}

async function settledRss() {
  for (let i = 0; i < 4; i++) {
    gc();
    await tick();
  }
  return process.memoryUsage().rss;
}

test('worker_threads: 4 workers parsing, terminated mid-parse, new workers reload the addon; RSS stable', async (t) => {
  const ROUNDS = 7;
  const rss = [];
  for (let i = 0; i < ROUNDS; i++) {
    await round(i);
    rss.push(await settledRss());
  }
  // The first rounds warm up (code, pools, allocator arenas); after them,
  // four workers a round must not make memory grow.
  assertGrowth(t, rss, 2, 24, 'round');
  // The addon still works here.
  const { HTTPParser } = require(ROOT);
  const p = new HTTPParser();
  p.initialize(HTTPParser.REQUEST, {});
  assert.equal(p.execute(Buffer.from('GET / HTTP/1.1\r\n\r\n')), 18);
  p.close();
});

// Each worker keeps 50 parsers that have parsed a 64 KiB header section
// (their native buffers hold it), then waits to be terminated: whatever the
// addon does not free when a worker's environment goes away adds up fast.
const HOLD_PARSERS = `
  const { parentPort } = require('node:worker_threads');
  const { HTTPParser } = require(${JSON.stringify(ROOT)});
  const msg = Buffer.from('GET / HTTP/1.1\\r\\nX-Big: ' + 'b'.repeat(65536) + '\\r\\nH: 1\\r\\n\\r\\n', 'latin1');
  const keep = [];
  for (let i = 0; i < 50; i++) {
    const p = new HTTPParser();
    p.initialize(HTTPParser.REQUEST, {}, 131072);
    p[HTTPParser.kOnHeadersComplete] = () => 0;
    p.execute(msg);
    keep.push(p);
  }
  globalThis.keep = keep;
  parentPort.postMessage('ready');
  setInterval(() => {}, 1000);`;

test('worker_threads: parsers alive in a terminated worker give their native memory back',
     async (t) => {
       const rss = [];
       for (let i = 0; i < 5; i++) {
         const workers = Array.from({ length: 4 }, () => new Worker(HOLD_PARSERS, { eval: true }));
         await Promise.all(workers.map((w) => once(w, 'message')));
         await Promise.all(workers.map((w) => w.terminate()));
         rss.push(await settledRss());
       }
       // a leak of the reuse sets shows as ~50 MB over these rounds; malloc arenas
       // of terminated threads make up to ~20 MB of noise on a busy machine
       assertGrowth(t, rss, 1, 32, 'round');
     });

test('a parser dropped without close() gives its native memory back at garbage collection',
     async (t) => {
       const { HTTPParser } = require(ROOT);
       const msg = Buffer.from(`GET / HTTP/1.1\r\nX-Big: ${'b'.repeat(16384)}\r\nH: 1\r\n\r\n`, 'latin1');
       const rss = [];
       for (let r = 0; r < 5; r++) {
         for (let i = 0; i < 1000; i++) {
           const p = new HTTPParser();
           p.initialize(HTTPParser.REQUEST, {}, 65536);
           p[HTTPParser.kOnHeadersComplete] = () => 0;
           p.execute(msg);
         }
         rss.push(await settledRss());
       }
       assertGrowth(t, rss, 1, 16, 'batch of 1000 parsers');
     });

test('cluster: 2 workers with install() serve fresh and keep-alive connections', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'llhttp-napi-cluster2-'));
  try {
    const app = path.join(dir, 'app.js');
    fs.writeFileSync(app, `
      const cluster = require('node:cluster');
      const http = require('node:http');
      if (cluster.isPrimary) {
        cluster.schedulingPolicy = cluster.SCHED_RR;
        const workers = [cluster.fork(), cluster.fork()];
        let ready = 0;
        let port;
        for (const w of workers) w.on('message', (m) => { port = m; if (++ready === 2) drive(); });
        const get = (agent, i) => new Promise((resolve, reject) => {
          const req = http.get({ port, host: '127.0.0.1', agent, path: '/r' + i,
                                 headers: { 'x-i': String(i) } }, (res) => {
            let body = ''; res.setEncoding('latin1');
            res.on('data', (d) => { body += d; });
            res.on('end', () => resolve(body));
          });
          req.on('error', reject);
        });
        async function drive() {
          const fresh = await Promise.all(Array.from({ length: 40 }, (_, i) => get(false, i)));
          const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });
          const kept = [];
          for (let i = 0; i < 60; i++) kept.push(await get(agent, i));
          agent.destroy();
          const all = fresh.concat(kept);
          const bad = all.filter((b) => !/^ours:[12]:\\/r\\d+:\\d+$/.test(b));
          const ids = [...new Set(all.map((b) => b.split(':')[1]))].sort();
          console.log(JSON.stringify({ count: all.length, bad, ids }));
          for (const w of workers) w.kill();
        }
      } else {
        const llhttp = require(${JSON.stringify(ROOT)});
        if (!llhttp.install({ strict: true })) process.exit(3);
        const { HTTPParser } = require(${JSON.stringify(path.join(ROOT, 'lib', 'parser'))});
        const server = http.createServer((req, res) => {
          const ours = req.socket.parser instanceof HTTPParser;
          res.end((ours ? 'ours' : 'builtin') + ':' + cluster.worker.id + ':' + req.url + ':' + req.headers['x-i']);
        });
        server.listen(0, '127.0.0.1', () => process.send(server.address().port));
      }`);
    const child = spawn(process.execPath, [app], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => { stdout += d; });
    child.stderr.on('data', (d) => { stderr += d; });
    const timer = setTimeout(() => child.kill('SIGKILL'), 30000);
    const [code, signal] = await once(child, 'close');
    clearTimeout(timer);
    assert.equal(stderr, '');
    assert.deepEqual([code, signal], [0, null]);
    const result = JSON.parse(stdout);
    assert.deepEqual(result, { count: 100, bad: [], ids: ['1', '2'] });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
