'use strict';
// The server preload (llhttp-napi/server/register): every way a program
// makes a node:http / node:https server gives it llhttp-napi/server's, and
// what the program can check (instanceof of the servers, requests and
// responses) answers as without the preload. Opt-outs, the fallback with its
// one warning, and each entry (-r by package name, --import, the
// environment switches). Each case runs in a child process of this node.
const test = require('node:test');
const assert = require('node:assert');
const path = require('node:path');
const { execFileSync } = require('node:child_process');

const ROOT = path.resolve(__dirname, '..', '..');
const PROBE = path.join(ROOT, 'test', 'support', 'preload-probe.js');

function probe(args = [], env = {}) {
  const out = execFileSync(process.execPath, [...args, PROBE], {
    cwd: ROOT, env: { ...process.env, ...env }, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'],
  });
  return JSON.parse(out);
}

// The servers a probe made, by whether they are llhttp-napi/server's.
const served = (result) => Object.keys(result.made).filter((name) => result.made[name].ours);

const SWAPPED = ['createServer', 'createServerHandlerFirst', 'newServer', 'callServer', 'httpsCreateServer',
  'newHttpsServer', 'callHttpsServer', 'subclass', 'es5Subclass'];

test('with the preload, every way of making a server gives llhttp-napi/server\'s, and instanceof answers as without it', () => {
  const without = probe();
  const preloaded = probe(['-r', 'llhttp-napi/server/register']);
  assert.deepStrictEqual(served(without), []);
  assert.deepStrictEqual(served(preloaded), SWAPPED);
  assert.strictEqual(preloaded.request.ours, true);
  const seen = (result) => ({
    made: Object.fromEntries(Object.entries(result.made).map(([name, r]) => [name, r.instance])),
    request: { ...result.request, ours: undefined },
  });
  assert.deepStrictEqual(seen(preloaded), seen(without));
  assert.ok(Object.values(seen(without).made).every(Boolean));
});

test('{ llhttpNapi: false } keeps node:http\'s server silently; node:http\'s IncomingMessage class falls back with one warning', () => {
  const preloaded = probe(['-r', 'llhttp-napi/server/register']);
  assert.strictEqual(preloaded.made.optedOut.ours, false);
  assert.strictEqual(preloaded.made.nodeIncomingMessage.ours, false);
  assert.strictEqual(preloaded.made.nodeIncomingMessageAgain.ours, false);
  assert.deepStrictEqual(preloaded.warnings, ['LLHTTP_NAPI_SERVER_FALLBACK']);
  assert.deepStrictEqual(probe().warnings, []);
});

test('the entries: --import, -r llhttp-napi/register with LLHTTP_NAPI_SERVER=1, NODE_OPTIONS; LLHTTP_NAPI_SERVER=0 turns it off', () => {
  assert.deepStrictEqual(served(probe(['--import', 'llhttp-napi/server/register'])), SWAPPED);
  assert.deepStrictEqual(served(probe(['-r', 'llhttp-napi/register'], { LLHTTP_NAPI_SERVER: '1' })), SWAPPED);
  assert.deepStrictEqual(served(probe(['-r', 'llhttp-napi/register'])), []);
  assert.deepStrictEqual(served(probe([], { NODE_OPTIONS: '-r llhttp-napi/server/register' })), SWAPPED);
  assert.deepStrictEqual(served(probe(['-r', 'llhttp-napi/server/register'], { LLHTTP_NAPI_SERVER: '0' })), []);
});

test('an ES module\'s named imports of node:http and node:https are the preload\'s', () => {
  const source = 'import { createServer, Server } from "node:http"; import https from "node:https";' +
    'import { Server as Ours } from "llhttp-napi/server";' +
    'console.log([createServer(), new Server(), Server()].every((s) => s instanceof Ours), https.createServer().constructor.name);';
  const out = execFileSync(process.execPath, ['--import', 'llhttp-napi/server/register', '--input-type=module', '-e', source],
    { cwd: ROOT, encoding: 'utf8' });
  assert.strictEqual(out.trim(), 'true SecureServer');
});
