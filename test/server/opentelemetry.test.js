'use strict';
// OpenTelemetry's HTTP and net instrumentations (the real @opentelemetry
// packages) trace a plain node:http application the same with the server
// preload as without it, whichever of the two loads first, by -r, --import and
// NODE_OPTIONS (and a node:https one by -r), and with the parser preload: the
// same spans (names, kinds, parents, status, attributes; no connection span
// where the application never required node:net) and the server's span
// active in the handler and in what it schedules.
// The instrumentation wraps node:http's Server.prototype.emit; loaded first,
// it wrapped node:http's prototype before the preload made its own the one
// applications get (lib/server/preload.js). Each case runs in a child process.
const test = require('node:test');
const assert = require('node:assert');
const path = require('node:path');
const { execFileSync } = require('node:child_process');

const ROOT = path.resolve(__dirname, '..', '..');
const APP = path.join(ROOT, 'test', 'support', 'otel-app.js');
const SETUP = path.join(ROOT, 'test', 'support', 'otel-setup.js');
const PRELOAD = 'llhttp-napi/server/register';
const PARSER_PRELOAD = 'llhttp-napi/register';

function trace(args, env = {}) {
  const out = execFileSync(process.execPath, [...args, APP], {
    cwd: ROOT, env: { ...process.env, LLHTTP_NAPI_SERVER: '', NODE_OPTIONS: '', ...env }, encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return JSON.parse(out);
}

const baselines = new Map();
function baseline(env = {}) {
  const key = JSON.stringify(env);
  if (!baselines.has(key)) baselines.set(key, trace(['-r', SETUP], env));
  return baselines.get(key);
}

test('on node:http: a server span under each client span, active in the handler, a timer and a promise', () => {
  const { spans, active, ours } = baseline();
  assert.strictEqual(ours, false);
  assert.deepStrictEqual(spans.map((s) => [s.name, s.kind, s.parent]),
    [['GET', 1, 'GET'], ['GET', 2, null], ['POST', 1, 'POST'], ['POST', 2, null]]);
  assert.deepStrictEqual(active, { handler: true, timer: true, promise: true });
});

const ORDERS = {
  '-r the instrumentation, then -r the preload': [['-r', SETUP, '-r', PRELOAD]],
  '-r the preload, then -r the instrumentation': [['-r', PRELOAD, '-r', SETUP]],
  '--import the instrumentation, then --import the preload': [['--import', SETUP, '--import', PRELOAD]],
  '--import the preload, then --import the instrumentation': [['--import', PRELOAD, '--import', SETUP]],
  '-r the instrumentation, then --import the preload': [['-r', SETUP, '--import', PRELOAD]],
  'NODE_OPTIONS, the instrumentation first': [[], { NODE_OPTIONS: `-r ${SETUP} -r ${PRELOAD}` }],
  'NODE_OPTIONS, the preload first': [[], { NODE_OPTIONS: `-r ${PRELOAD} -r ${SETUP}` }],
  'node:https, -r the instrumentation, then -r the preload': [['-r', SETUP, '-r', PRELOAD], { OTEL_APP_TLS: '1' }],
  'node:https, -r the preload, then -r the instrumentation': [['-r', PRELOAD, '-r', SETUP], { OTEL_APP_TLS: '1' }],
  '-r the instrumentation, then -r the parser preload': [['-r', SETUP, '-r', PARSER_PRELOAD]],
  '-r the parser preload, then -r the instrumentation': [['-r', PARSER_PRELOAD, '-r', SETUP]],
};

for (const [name, [args, env = {}]] of Object.entries(ORDERS)) {
  test(`${name}: the same spans as on node:http, the server span active where it is there`, () => {
    const result = trace(args, env);
    const expected = baseline(env.OTEL_APP_TLS ? { OTEL_APP_TLS: '1' } : {});
    assert.strictEqual(result.ours, args.includes(PARSER_PRELOAD) ? 'parser' : 'server');
    assert.deepStrictEqual(result.spans, expected.spans);
    assert.deepStrictEqual(result.active, { handler: true, timer: true, promise: true });
  });
}
