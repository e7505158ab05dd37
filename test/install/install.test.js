'use strict';
// install() / uninstall() / isInstalled(), llhttp-napi/register, the fallback
// when the addon cannot load, worker_threads and cluster.
const { test } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const http = require('node:http');
const { once } = require('node:events');

const {
  ROOT, llhttp, OurParser, parserOf, listen, closeServer, runNode, bodyOf,
} = require('../support/http-modes');
const { packageWithoutAddon } = require('../support/package-copy');

// A script printing which parser a server connection and a client response
// used: "server=ours client=ours" or "...=builtin".
const PROBE = `
const http = require('http');
const kind = (p) => (p && p.constructor && p.constructor.name === 'HTTPParser' &&
  typeof p.execute === 'function' && typeof p.getAllHeaders === 'function') ? 'ours' : 'builtin';
const server = http.createServer((req, res) => res.end(kind(req.socket.parser)));
server.listen(0, '127.0.0.1', () => {
  const req = http.get({ port: server.address().port, host: '127.0.0.1' }, (res) => {
    let body = ''; res.setEncoding('latin1');
    res.on('data', (d) => { body += d; });
    res.on('end', () => { console.log('server=' + body + ' client=' + client); server.close(); });
  });
  let client; req.on('socket', (s) => { client = kind(s.parser); });
});`;

async function serveOnce(useParser) {
  const server = http.createServer((req, res) => res.end(String(req.socket.parser instanceof OurParser)));
  const port = await listen(server);
  try {
    const req = http.get({ port, host: '127.0.0.1', agent: false });
    const used = parserOf(req);
    const [res] = await once(req, 'response');
    const body = await bodyOf(res);
    assert.equal(body, String(useParser), 'server parser');
    assert.equal(used.parser instanceof OurParser, useParser, 'client parser');
  } finally {
    await closeServer(server);
  }
}

test('install(), uninstall(), isInstalled(): idempotent, switch new connections', async () => {
  const common = require('_http_common');
  const originalCtor = common.parsers.ctor;
  assert.equal(llhttp.isInstalled(), false);
  await serveOnce(false);
  assert.equal(llhttp.install(), true);
  assert.equal(llhttp.isInstalled(), true);
  const ctor = common.parsers.ctor;
  assert.notEqual(ctor, originalCtor);
  assert.equal(llhttp.install(), true);
  assert.equal(common.parsers.ctor, ctor, 'a second install() changes nothing');
  await serveOnce(true);
  await serveOnce(true);
  assert.ok(common.parsers.list.length > 0, 'our parsers are pooled');
  assert.ok(common.parsers.list.every((p) => p instanceof OurParser));
  assert.equal(llhttp.uninstall(), true);
  assert.equal(llhttp.uninstall(), false);
  assert.equal(llhttp.isInstalled(), false);
  assert.equal(common.parsers.ctor, originalCtor);
  assert.ok(common.parsers.list.every((p) => !(p instanceof OurParser)));
  await serveOnce(false);
  llhttp.install();
  await serveOnce(true);
  llhttp.uninstall();
});

test('a pooled parser from a fresh pool carries what lib expects', () => {
  llhttp.install();
  try {
    const common = require('_http_common');
    const builtin = new (common.HTTPParser)();
    const parser = common.parsers.alloc();
    assert.ok(parser instanceof OurParser);
    for (const key of ['_headers', '_url', 'socket', 'incoming', 'outgoing', 'maxHeaderPairs',
      '_consumed', 'onIncoming', 'joinDuplicateHeaders']) {
      assert.ok(key in parser, key);
    }
    assert.equal(parser.maxHeaderPairs, 2000);
    for (const slot of [1, 2, 3, 4]) assert.equal(typeof parser[slot], 'function', `slot ${slot}`);
    for (const slot of [0, 5, 6]) assert.equal(parser[slot], null, `slot ${slot}`);
    assert.equal(parser[2].name, 'parserOnHeadersComplete');
    // internal/child_process checks `socket.parser instanceof HTTPParser`.
    assert.equal(parser instanceof common.HTTPParser, true);
    assert.equal(builtin instanceof common.HTTPParser, true);
    assert.equal({} instanceof common.HTTPParser, false);
    builtin.close();
    common.parsers.free(parser);
  } finally {
    llhttp.uninstall();
  }
});

test('node:http loaded after install() (-r register) and before it', async () => {
  const after = await runNode(['-r', './lib/register.js', '-e', PROBE]);
  assert.equal(after.stderr, '');
  assert.equal(after.stdout.trim(), 'server=ours client=ours');
  const before = await runNode(['-e', `require('http'); require('https'); require('./').install();${PROBE}`]);
  assert.equal(before.stderr, '');
  assert.equal(before.stdout.trim(), 'server=ours client=ours');
  const none = await runNode(['-e', PROBE]);
  assert.equal(none.stdout.trim(), 'server=builtin client=builtin');
});

test('register: -r and --import, by path and by package name; no warnings', async () => {
  for (const args of [
    ['-r', 'llhttp-napi/register'],
    ['--import', 'llhttp-napi/register'],
    ['--import', './lib/register.js'],
    ['--throw-deprecation', '--trace-warnings', '-r', './lib/register.js'],
  ]) {
    const r = await runNode([...args, '-e', PROBE]);
    assert.equal(r.stderr, '', args.join(' '));
    assert.equal(r.stdout.trim(), 'server=ours client=ours', args.join(' '));
  }
  // From an ES module entry point.
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'llhttp-napi-esm-'));
  try {
    const entry = path.join(dir, 'app.mjs');
    fs.writeFileSync(entry, `import { createRequire } from 'node:module';\n` +
      `const require = createRequire(import.meta.url);\n${PROBE}`);
    const r = await runNode(['--import', path.join(ROOT, 'lib', 'register.js'), entry]);
    assert.equal(r.stderr, '');
    assert.equal(r.stdout.trim(), 'server=ours client=ours');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('register: LLHTTP_NAPI=0 leaves the built-in parser', async () => {
  const r = await runNode(['-r', './lib/register.js', '-e', PROBE], { env: { LLHTTP_NAPI: '0' } });
  assert.equal(r.stderr, '');
  assert.equal(r.stdout.trim(), 'server=builtin client=builtin');
});

test('install() validates its options', () => {
  assert.throws(() => llhttp.install(42), TypeError);
  assert.throws(() => llhttp.install({ warn: 'yes' }), TypeError);
  assert.throws(() => llhttp.install({ strict: 1 }), TypeError);
  assert.equal(llhttp.isInstalled(), false);
});

test('fallback: without the addon install() returns false, warns once, http works', async () => {
  const dir = packageWithoutAddon();
  try {
    const script = `
      const llhttp = require('.');
      const { install, isInstalled } = llhttp;
      let parserError = 'none';
      try { llhttp.HTTPParser; } catch (err) { parserError = 'threw'; }
      const warnings = [];
      process.on('warning', (w) => warnings.push(w.code + ': ' + w.message));
      const a = install(); const b = install();
      setImmediate(() => {
        console.log(JSON.stringify({ a, b, installed: isInstalled(), warnings, parserError }));
        ${PROBE}
      });`;
    const r = await runNode(['-e', script], { cwd: dir });
    const [first, second] = r.stdout.trim().split('\n');
    const result = JSON.parse(first);
    assert.equal(result.a, false);
    assert.equal(result.b, false);
    assert.equal(result.installed, false);
    assert.equal(result.parserError, 'threw', 'the parser itself reports the load error');
    assert.equal(result.warnings.length, 1);
    assert.match(result.warnings[0], /^LLHTTP_NAPI_FALLBACK: llhttp-napi could not load its native addon \(.+\); node:http keeps using the built-in HTTP parser\.$/);
    assert.equal(second, 'server=builtin client=builtin');
    // The warning is printed once on stderr.
    assert.equal(r.stderr.match(/LLHTTP_NAPI_FALLBACK/g).length, 1);

    // register: warns and goes on.
    const reg = await runNode(['-r', './lib/register.js', '-e', PROBE], { cwd: dir });
    assert.match(reg.stderr, /LLHTTP_NAPI_FALLBACK/);
    assert.equal(reg.stdout.trim(), 'server=builtin client=builtin');
    // strict: the load error is thrown.
    const strict = await runNode(['-r', './lib/register.js', '-e', PROBE], {
      cwd: dir, env: { LLHTTP_NAPI: 'strict' },
    });
    assert.notEqual(strict.code, 0);
    assert.equal(strict.stdout, '');
    // warn: false is silent.
    const quiet = await runNode(['-e', `console.log(require('.').install({ warn: false }))`], { cwd: dir });
    assert.equal(quiet.stderr, '');
    assert.equal(quiet.stdout.trim(), 'false');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('worker_threads: install() in a worker, and -r register reaches workers', async () => {
  const script = `
    const { Worker } = require('worker_threads');
    const code = ${JSON.stringify(`
      const { parentPort } = require('worker_threads');
      if (process.env.INSTALL_IN_WORKER) require(${JSON.stringify(ROOT)}).install();
      ${PROBE.replace("console.log(", "parentPort.postMessage(")}`)};
    const w = new Worker(code, { eval: true });
    w.on('message', (m) => console.log('worker ' + m));
    w.on('exit', () => { ${PROBE} });`;
  const inWorker = await runNode(['-e', script], { env: { INSTALL_IN_WORKER: '1' } });
  assert.equal(inWorker.stderr, '');
  assert.deepEqual(inWorker.stdout.trim().split('\n'),
                   ['worker server=ours client=ours', 'server=builtin client=builtin']);
  const preloaded = await runNode(['-r', './lib/register.js', '-e', script]);
  assert.equal(preloaded.stderr, '');
  assert.deepEqual(preloaded.stdout.trim().split('\n'),
                   ['worker server=ours client=ours', 'server=ours client=ours']);
});

test('cluster: workers started with -r register serve with llhttp-napi', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'llhttp-napi-cluster-'));
  try {
    const app = path.join(dir, 'app.js');
    fs.writeFileSync(app, `
      const cluster = require('cluster');
      const http = require('http');
      const kind = (p) => (p && typeof p.getAllHeaders === 'function') ? 'ours' : 'builtin';
      if (cluster.isPrimary) {
        const w = cluster.fork();
        w.on('message', (port) => {
          let done = 0; const seen = [];
          for (let i = 0; i < 3; i++) {
            http.get({ port, host: '127.0.0.1', agent: false }, (res) => {
              let b = ''; res.on('data', (d) => { b += d; });
              res.on('end', () => { seen.push(b); if (++done === 3) { console.log(seen.join(',')); w.kill(); } });
            });
          }
        });
      } else {
        const server = http.createServer((req, res) => res.end(kind(req.socket.parser) + ':' + cluster.worker.id));
        server.listen(0, '127.0.0.1', () => process.send(server.address().port));
      }`);
    const r = await runNode(['-r', path.join(ROOT, 'lib', 'register.js'), app]);
    assert.equal(r.stderr, '');
    assert.equal(r.stdout.trim(), 'ours:1,ours:1,ours:1');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('Express app served with -r ./lib/register.js', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'llhttp-napi-express-'));
  try {
    const app = path.join(dir, 'app.js');
    fs.writeFileSync(app, `
      const express = require(${JSON.stringify(require.resolve('express'))});
      const app = express();
      app.use(express.json());
      app.get('/hello/:name', (req, res) => res.set('x-parser', typeof req.socket.parser.getAllHeaders === 'function' ? 'ours' : 'builtin').send('hello ' + req.params.name + ' ' + req.query.q));
      app.post('/echo', (req, res) => res.json({ got: req.body, type: req.get('content-type') }));
      app.get('/headers', (req, res) => res.json(req.rawHeaders));
      app.use((req, res) => res.status(404).send('nope'));
      const server = app.listen(0, '127.0.0.1', () => console.log(server.address().port));
      process.stdin.on('end', () => server.close()); process.stdin.resume();`);
    const { spawn } = require('node:child_process');
    const child = spawn(process.execPath, ['-r', path.join(ROOT, 'lib', 'register.js'), app], {
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d) => { stderr += d; });
    try {
      const [line] = await once(child.stdout, 'data');
      const port = Number(String(line).trim());
      const agent = new http.Agent({ keepAlive: true });
      const request = async (options, body) => {
        const req = http.request({ port, host: '127.0.0.1', agent, ...options });
        req.end(body);
        const [res] = await once(req, 'response');
        return { status: res.statusCode, headers: res.headers, body: await bodyOf(res) };
      };
      const hello = await request({ path: '/hello/world?q=1' });
      assert.equal(hello.status, 200);
      assert.equal(hello.body, 'hello world 1');
      assert.equal(hello.headers['x-parser'], 'ours');
      const echo = await request({ method: 'POST', path: '/echo', headers: { 'content-type': 'application/json' } },
                                 JSON.stringify({ a: [1, 2], b: 'ü' }));
      assert.equal(echo.status, 200);
      assert.deepEqual(JSON.parse(Buffer.from(echo.body, 'latin1').toString('utf8')), { got: { a: [1, 2], b: 'ü' }, type: 'application/json' });
      const headers = await request({ path: '/headers', headers: { 'x-one': '1', 'X-Two': 'two' } });
      const raw = JSON.parse(headers.body);
      assert.deepEqual(raw.slice(0, 4), ['x-one', '1', 'X-Two', 'two']);
      const missing = await request({ path: '/nothing' });
      assert.equal(missing.status, 404);
      assert.equal(missing.body, 'nope');
      agent.destroy();
    } finally {
      child.stdin.end();
      await once(child, 'close');
    }
    assert.equal(stderr, '');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
