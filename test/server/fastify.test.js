'use strict';
// Fastify 5 on llhttp-napi/server through serverFactory: a representative
// app (hooks, params, query, JSON bodies, errors, 404, streams, onResponse)
// answers the same as on node:http, and the server options Fastify hands
// over are honoured. Also the package entry points of llhttp-napi/server.
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const path = require('node:path');
const { Readable } = require('node:stream');
const fastify = require('fastify');
const server = require('llhttp-napi/server');
const { exchange, normalize, withClose } = require('../support/both-servers');

function buildApp(options) {
  const app = fastify({ logger: false, ...options });
  const seen = [];
  app.addHook('onRequest', async (req) => {
    seen.push(`${req.method} ${req.url} ${req.headers['x-id'] || ''}`);
  });
  app.addHook('onResponse', async (req, reply) => {
    seen.push(`done ${reply.statusCode}`);
  });
  app.get('/', async () => ({ hello: 'world' }));
  app.get('/users/:id', async (req) => ({ id: req.params.id, q: req.query.q }));
  app.post('/echo', async (req, reply) => {
    reply.code(201).header('x-sum', String(JSON.stringify(req.body).length));
    return { got: req.body };
  });
  app.put('/raw', async (req) => ({ type: req.headers['content-type'], length: req.body.length }));
  app.addContentTypeParser('application/octet-stream', { parseAs: 'buffer' }, (req, body, done) => done(null, body));
  app.get('/error', async () => {
    throw Object.assign(new Error('bad thing'), { statusCode: 418 });
  });
  app.get('/stream', (req, reply) => {
    reply.type('text/plain').send(Readable.from(['one ', 'two ', 'three']));
  });
  app.get('/html', (req, reply) => {
    reply.type('text/html').headers({ 'set-cookie': ['a=1', 'b=2'] }).send('<p>hi</p>');
  });
  return { app, seen };
}

const REQUESTS = [
  'GET / HTTP/1.1\r\nHost: a\r\nX-Id: 1\r\n\r\n',
  'GET /users/42?q=x HTTP/1.1\r\nHost: a\r\n\r\n',
  'POST /echo HTTP/1.1\r\nHost: a\r\nContent-Type: application/json\r\nContent-Length: 21\r\n\r\n{"a":[1,2,3],"b":"c"}',
  'POST /echo HTTP/1.1\r\nHost: a\r\nContent-Type: application/json\r\nContent-Length: 5\r\n\r\n{bad}',
  'PUT /raw HTTP/1.1\r\nHost: a\r\nContent-Type: application/octet-stream\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n',
  'GET /error HTTP/1.1\r\nHost: a\r\n\r\n',
  'GET /missing HTTP/1.1\r\nHost: a\r\n\r\n',
  'GET /stream HTTP/1.1\r\nHost: a\r\n\r\n',
  'HEAD /html HTTP/1.1\r\nHost: a\r\n\r\n',
  'GET /html HTTP/1.1\r\nHost: a\r\n\r\n',
];

async function run(options) {
  const { app, seen } = buildApp(options);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const port = app.server.address().port;
  const answers = [];
  for (const request of REQUESTS) {
    const { text } = await exchange(port, [withClose(request)], { end: false });
    answers.push(normalize(text));
  }
  // Pipelined, on one connection.
  const all = await exchange(port, [REQUESTS.slice(0, -1).join('') + withClose(REQUESTS[REQUESTS.length - 1])],
    { end: false });
  await app.close();
  return { answers, pipelined: normalize(all.text), seen, server: app.server };
}

test('a Fastify 5 app answers on llhttp-napi/server as on node:http', async () => {
  const builtin = await run({});
  const ours = await run({ serverFactory: server.fastifyServerFactory });
  assert.ok(ours.server instanceof server.Server);
  assert.deepStrictEqual(ours.answers, builtin.answers);
  assert.strictEqual(ours.pipelined, builtin.pipelined);
  assert.deepStrictEqual(ours.seen, builtin.seen);
  assert.match(builtin.answers[2], /^HTTP\/1.1 201 Created/);
  assert.match(builtin.answers[3], /^HTTP\/1.1 400 Bad Request/);
  assert.match(builtin.answers[5], /^HTTP\/1.1 418 /);
});

test('fastifyServerFactory honours the server options Fastify hands over', async () => {
  const app = fastify({ serverFactory: server.fastifyServerFactory, keepAliveTimeout: 1234, requestTimeout: 5678,
    connectionTimeout: 910, maxRequestsPerSocket: 7, forceCloseConnections: true });
  app.get('/', async () => 'ok');
  await app.listen({ port: 0, host: '127.0.0.1' });
  const s = app.server;
  assert.strictEqual(s.keepAliveTimeout, 1234);
  assert.strictEqual(s.requestTimeout, 5678);
  assert.strictEqual(s.timeout, 910);
  assert.strictEqual(s.maxRequestsPerSocket, 7);
  const { text } = await exchange(s.address().port, ['GET / HTTP/1.1\r\nHost: a\r\n\r\nGET / HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n'], { end: false });
  assert.match(text, /Keep-Alive: timeout=1, max=7\r\n/);
  // forceCloseConnections: close() ends the connections still open.
  const open = require('node:net').connect(s.address().port, '127.0.0.1');
  await new Promise((resolve) => open.on('connect', resolve));
  const closed = new Promise((resolve) => open.on('close', resolve));
  await app.close();
  await closed;
  assert.throws(() => server.fastifyServerFactory(() => {}, { http2: true }), /http2/);
});

test('package entry points: require, import and types of llhttp-napi/server', async () => {
  const pkg = require('../../package.json');
  const entry = pkg.exports['./server'];
  assert.deepStrictEqual(Object.keys(entry), ['import', 'require']);
  for (const cond of Object.values(entry)) {
    assert.deepStrictEqual(Object.keys(cond), ['types', 'default']);
    for (const file of Object.values(cond)) assert.ok(fs.existsSync(path.join(__dirname, '..', '..', file)), file);
  }
  const esm = await import('llhttp-napi/server');
  assert.strictEqual(esm.createServer, server.createServer);
  assert.strictEqual(esm.fastifyServerFactory, server.fastifyServerFactory);
  assert.strictEqual(esm.default, server);
  assert.ok(server.createServer(() => {}) instanceof require('node:net').Server);
});
