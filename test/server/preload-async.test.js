'use strict';
// Loading a preload (llhttp-napi/register, llhttp-napi/server/register)
// leaves nothing asynchronous behind: no tick, timer, immediate or promise
// job queued and no handle, so that an application that enables an async
// hook first thing sees an init for every before, after and destroy, as
// without the preload (Node's test/async-hooks files check exactly that).
// Nor does it make any async resource: a hook enabled before the preload
// sees no init while it loads, as with node:http alone (lib/node-line.js
// runs no built-in parser at load). Each case runs in a child process of
// this node.
const test = require('node:test');
const assert = require('node:assert');
const path = require('node:path');
const { execFileSync } = require('node:child_process');

const ROOT = path.resolve(__dirname, '..', '..');
const APP = path.join(ROOT, 'test', 'support', 'async-hooks-app.js');
const RECORDER = path.join(ROOT, 'test', 'support', 'async-load-recorder.js');
// --import itself (Node's ESM loader) leaves promise jobs behind: an --import
// entry is compared with --import of a module that does nothing.
const NOTHING = path.join(ROOT, 'test', 'support', 'nothing.js');

function run(args, env = {}) {
  const out = execFileSync(process.execPath, [...args, APP], {
    cwd: ROOT, env: { ...process.env, LLHTTP_NAPI_SERVER: '', NODE_OPTIONS: '', ...env }, encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return JSON.parse(out);
}

const ENTRIES = {
  '-r llhttp-napi/register': [['-r', 'llhttp-napi/register']],
  '-r llhttp-napi/server/register': [['-r', 'llhttp-napi/server/register']],
  '-r llhttp-napi/register, LLHTTP_NAPI_SERVER=1': [['-r', 'llhttp-napi/register'], { LLHTTP_NAPI_SERVER: '1' }],
  '--import llhttp-napi/register': [['--import', 'llhttp-napi/register']],
  '--import llhttp-napi/server/register': [['--import', 'llhttp-napi/server/register']],
  'NODE_OPTIONS=-r llhttp-napi/server/register': [[], { NODE_OPTIONS: '-r llhttp-napi/server/register' }],
};

test('without a preload, the application\'s hook sees an init for everything (the baseline)', () => {
  assert.deepStrictEqual(run([]).withoutInit, []);
});

for (const [name, [args, env]] of Object.entries(ENTRIES)) {
  test(`${name}: the application's hook sees an init for every before, after and destroy`, () => {
    if (args[0] !== '--import') {
      assert.deepStrictEqual(run(args, env).withoutInit, []);
      return;
    }
    // (the loader's promises are destroyed when collected: only callbacks counted)
    const callbacks = (result) => result.withoutInit.filter((name) => name === 'before' || name === 'after');
    assert.deepStrictEqual(callbacks(run(args, env)), callbacks(run(['--import', NOTHING])));
  });
}

for (const preload of ['llhttp-napi/register', 'llhttp-napi/server/register']) {
  for (const [entry, env] of [['-r', { LLHTTP_NAPI_SERVER: preload.includes('server') ? '' : '1' }],
    ['NODE_OPTIONS', {}]]) {
    test(`${preload} by ${entry}${env.LLHTTP_NAPI_SERVER ? ' with LLHTTP_NAPI_SERVER=1' : ''}: ` +
      'no tick, timer, immediate, promise, handle or other async resource made while it loads', () => {
      // (the fair baseline: node:http loaded the same way, without a preload)
      const baseline = run(['-r', RECORDER, '-r', 'node:http']);
      const args = entry === '-r' ? ['-r', RECORDER, '-r', preload] : [];
      const result = run(args, entry === '-r' ? env :
        { ...env, NODE_OPTIONS: `-r ${RECORDER} -r ${preload}` });
      assert.deepStrictEqual(baseline.loaded, []);
      assert.deepStrictEqual(result.loaded, []);
      assert.deepStrictEqual(result.handlesAtStart, baseline.handlesAtStart);
      assert.strictEqual(result.requestsAtStart, baseline.requestsAtStart);
      assert.deepStrictEqual(result.withoutInit, []);
    });
  }
}
