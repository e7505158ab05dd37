'use strict';
// Fastify on llhttp-napi/server has the limits and timeouts it has on
// node:http: fastifyServerFactory reads Fastify's `http: {...}` (or
// `https: {...}`) options and the timeouts Fastify sets on a server it builds
// itself, and a timeout set after construction follows node:http's rule.
const test = require('node:test');
const assert = require('node:assert');
const fastify = require('fastify');
const { fastifyServerFactory } = require('../../lib/server');
const { exchange, normalize } = require('../support/both-servers');

const REPORTED = ['headersTimeout', 'requestTimeout', 'keepAliveTimeout', 'maxHeaderSize', 'requireHostHeader',
  'joinDuplicateHeaders', 'timeout', 'maxRequestsPerSocket', 'connectionsCheckingInterval', 'insecureHTTPParser'];

function report(server) {
  const out = {};
  for (const name of REPORTED) out[name] = server[name];
  return out;
}

const CASES = [
  {},
  { requestTimeout: 5000 },
  { keepAliveTimeout: 1234, connectionTimeout: 910, maxRequestsPerSocket: 7 },
  { http: { maxHeaderSize: 4096, requireHostHeader: false, joinDuplicateHeaders: true } },
  { http: { headersTimeout: 2000, requestTimeout: 3000, keepAliveTimeout: 100, connectionsCheckingInterval: 50 } },
  { http: { headersTimeout: 2000 }, requestTimeout: 1000 },
  { http: { insecureHTTPParser: true }, requestTimeout: 70000 },
];

test('fastify(opts).server and fastify({...opts, serverFactory}).server report the same limits and timeouts', async () => {
  for (const opts of CASES) {
    const builtin = fastify(structuredClone(opts));
    const ours = fastify({ ...structuredClone(opts), serverFactory: fastifyServerFactory });
    await Promise.all([builtin.ready(), ours.ready()]);
    assert.deepStrictEqual(report(ours.server), report(builtin.server), JSON.stringify(opts));
    await Promise.all([builtin.close(), ours.close()]);
  }
});

// A head dripped one byte at a time: headersTimeout answers 408 on both.
test('a dripped head gets 408 from Fastify on both servers', async () => {
  const results = [];
  for (const serverFactory of [undefined, fastifyServerFactory]) {
    const app = fastify({ serverFactory, http: { headersTimeout: 200, connectionsCheckingInterval: 50 } });
    app.get('/', async () => 'late');
    await app.listen({ port: 0, host: '127.0.0.1' });
    const head = 'GET / HTTP/1.1\r\nHost: a\r\nX-Drip: ' + 'a'.repeat(20);
    const started = Date.now();
    const r = await exchange(app.server.address().port, [...head], { end: false, gapMs: 40, idleMs: 1500 });
    results.push({ text: normalize(r.text), closed: r.closed, ms: Date.now() - started });
    await app.close();
  }
  assert.strictEqual(results[1].text, results[0].text);
  assert.match(results[0].text, /^HTTP\/1.1 408 /);
  assert.ok(results[0].closed && results[1].closed);
  assert.ok(results[1].ms < 1500, `${results[1].ms} ms`);
});
