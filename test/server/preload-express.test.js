'use strict';
// Express under the server preload, with no change to the program: an app
// given to createServer, apps that a served app or a plain handler only
// calls (vhost(host, app)), and an app on a server that stays node:http's
// ({ llhttpNapi: false }) all answer as without the preload; each request
// is this package's but on the opted-out server. Each case runs in a child.
const test = require('node:test');
const assert = require('node:assert');
const path = require('node:path');
const { execFileSync } = require('node:child_process');

const ROOT = path.resolve(__dirname, '..', '..');
const APPS = path.join(ROOT, 'test', 'support', 'express-apps.mjs');

function run(args) {
  return JSON.parse(execFileSync(process.execPath, [...args, APPS], {
    cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], timeout: 30000,
  }));
}

test('Express apps served, called as plain handlers, and on an opted-out server answer as on node:http', () => {
  const without = run([]);
  const preloaded = run(['-r', 'llhttp-napi/server/register']);
  const answers = (result) => Object.fromEntries(Object.entries(result).map(([name, r]) => [name, [r.status, r.body]]));
  assert.deepStrictEqual(answers(without), {
    given: [200, 'outer'], vhostA: [200, 'vhost a'], vhostB: [200, 'vhost b'],
    called: [200, 'called'], optedOut: [200, 'opted out'],
  });
  assert.deepStrictEqual(answers(preloaded), answers(without));
  const ours = (result) => Object.fromEntries(Object.entries(result).map(([name, r]) => [name, r.ours]));
  assert.deepStrictEqual(ours(without), { given: 'false', vhostA: 'false', vhostB: 'false', called: 'false', optedOut: 'false' });
  assert.deepStrictEqual(ours(preloaded), { given: 'true', vhostA: 'true', vhostB: 'true', called: 'true', optedOut: 'false' });
});
