'use strict';
// A tool that wraps methods node:http's server and response inherit
// (emit, as APMs do to open and close a span per request) sees this
// server's requests and responses as node:http's, whether it loads before
// or after the server preload. Each case runs in a child process.
const test = require('node:test');
const assert = require('node:assert');
const path = require('node:path');
const { execFileSync } = require('node:child_process');

const ROOT = path.resolve(__dirname, '..', '..');
const TOOL = path.join(ROOT, 'test', 'support', 'emit-patching-tool.js');
const APP = path.join(ROOT, 'test', 'support', 'emit-patched-app.js');
const PRELOAD = 'llhttp-napi/server/register';

function run(requires) {
  const args = requires.flatMap((module) => ['-r', module]);
  return JSON.parse(execFileSync(process.execPath, [...args, APP], {
    cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], timeout: 30000,
  }));
}

test('a tool wrapping node:http\'s Server and ServerResponse emit sees each request and response, before or after the preload', () => {
  const without = run([TOOL]);
  assert.strictEqual(without.ours, false);
  assert.deepStrictEqual(without.saw, [
    'Server request', 'ServerResponse finish', 'ServerResponse close',
    'Server request', 'ServerResponse finish', 'ServerResponse close',
  ]);
  for (const order of [[TOOL, PRELOAD], [PRELOAD, TOOL]]) {
    const preloaded = run(order);
    assert.strictEqual(preloaded.ours, true, order.join(' then '));
    assert.deepStrictEqual(preloaded.saw, without.saw, order.join(' then '));
  }
});
