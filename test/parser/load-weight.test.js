'use strict';
// What loading llhttp-napi costs a process, in the parts that can regress
// deterministically (the figures: docs/benchmarks.md, process weight):
// require('llhttp-napi') loads neither the addon nor the parser, loading the
// addon loads no module to find it, and the addon allocates at load one
// workspace at its first sizes (what a first request needs), nothing more.
const test = require('node:test');
const assert = require('node:assert/strict');
const path = require('node:path');
const { spawnSync } = require('node:child_process');

const ROOT = path.resolve(__dirname, '..', '..');

// Runs `body` in a fresh node; returns what it printed as JSON.
function fresh(body) {
  const r = spawnSync(process.execPath, ['-e', body], { cwd: ROOT, encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout);
}

const LOADED = `Object.keys(require.cache).map((f) => require('node:path').relative(${JSON.stringify(ROOT)}, f))`;

test('require(llhttp-napi) loads neither the addon nor the parser', () => {
  const loaded = fresh(`require('./'); console.log(JSON.stringify(${LOADED}))`);
  assert.ok(!loaded.some((f) => f.endsWith('.node')), loaded.join(' '));
  assert.ok(!loaded.includes(path.join('lib', 'parser.js')), loaded.join(' '));
});

test('install() and a parse load the addon and lib/ only (no module to find the addon)', () => {
  const loaded = fresh(`
    const { install, HTTPParser } = require('./');
    install();
    const p = new HTTPParser();
    p.initialize(HTTPParser.REQUEST, {});
    p.execute(Buffer.from('GET / HTTP/1.1\\r\\nHost: x\\r\\n\\r\\n'));
    console.log(JSON.stringify(${LOADED}))`);
  const outside = loaded.filter((f) => !f.startsWith('lib' + path.sep) && !f.startsWith('build' + path.sep) &&
    f !== 'package.json');
  assert.deepEqual(outside, []);
});

test('loading the addon allocates one workspace at its first sizes, which a first request does not grow', () => {
  const m = fresh(`
    const binding = require('./lib/native');
    const atLoad = binding.memory();
    const { HTTPParser } = require('./lib/parser');
    const p = new HTTPParser();
    p.initialize(HTTPParser.REQUEST, {});
    p.execute(Buffer.from('GET / HTTP/1.1\\r\\nHost: x\\r\\n\\r\\n'));
    console.log(JSON.stringify({ atLoad, afterCall: binding.memory() }))`);
  assert.equal(m.atLoad.workspaces, 1);
  assert.ok(m.atLoad.workspaceBytes <= 4096, `${m.atLoad.workspaceBytes} bytes`);
  assert.equal(m.atLoad.poolMallocs, 0);
  assert.equal(m.atLoad.heldBytes, 0);
  assert.equal(m.afterCall.workspaceGrowths, m.atLoad.workspaceGrowths);
  assert.equal(m.afterCall.workspaces, 1);
});

test('llhttp-napi/server loads node:tls only when a SecureServer is made', () => {
  const tlsLoaded = "process.moduleLoadList.includes('NativeModule tls')";
  const [plain, secure] = fresh(`
    const server = require('./lib/server');
    server.createServer(() => {});
    const plain = ${tlsLoaded};
    new server.SecureServer();
    console.log(JSON.stringify([plain, ${tlsLoaded}]))`);
  assert.deepEqual({ plain, secure }, { plain: false, secure: true });
});
