'use strict';
// Express 5 and Express 4 apps on llhttp-napi/server: the same app answers
// byte for byte (Date aside) what it answers on node:http, for the request
// and response API Express adds (params, query, req.get/accepts/is/ip/
// hostname/protocol/fresh, res.json/send/status/redirect/cookie/set/
// attachment/format/sendFile, the 404 and error pages, a mounted app and a
// Router); Express's shared prototypes and apps on node:http stay as they were.
const test = require('node:test');
const assert = require('node:assert');
const http = require('node:http');
const path = require('node:path');
const ours = require('../../lib/server');
const { withServer, exchange, normalize, withClose } = require('../support/both-servers');

const EXPRESSES = [['express 5', require('express')], ['express 4', require('express4')]];
const FILE = path.join(__dirname, '..', '..', 'package.json');

function buildApp(express) {
  const app = express();
  app.use(express.json());
  app.use(express.urlencoded({ extended: false }));
  app.use((req, res, next) => {
    res.locals.lang = (req.get('accept-language') || 'en').slice(0, 2);
    next();
  });
  app.get('/users/:id', (req, res) => {
    res.json({ id: req.params.id, query: req.query, lang: res.locals.lang, hostname: req.hostname,
      protocol: req.protocol, secure: req.secure, ip: req.ip, path: req.path, xhr: req.xhr,
      accepts: req.accepts(['json', 'html']), type: req.is('json'), ua: req.get('User-Agent') });
  });
  app.post('/echo', (req, res) => res.status(201).json({ body: req.body, is: req.is('urlencoded') || req.is('json') }));
  app.get('/redirect', (req, res) => res.redirect(301, '/users/1'));
  app.get('/cookie', (req, res) => {
    res.cookie('session', 'abc', { httpOnly: true, path: '/' });
    res.set({ 'X-One': '1', 'X-Two': ['a', 'b'] }).append('X-One', '2');
    res.attachment('report.txt');
    res.send(`type ${res.get('Content-Type')}`);
  });
  app.get('/format', (req, res) => res.format({
    'text/plain': () => res.send('plain'),
    'application/json': () => res.json({ format: 'json' }),
    default: () => res.sendStatus(406),
  }));
  app.get('/fresh', (req, res) => {
    res.set('ETag', '"v1"');
    if (req.fresh) res.status(304).end();
    else res.send('body');
  });
  app.get('/file', (req, res) => res.sendFile(FILE));
  app.get('/buffer', (req, res) => res.type('bin').send(Buffer.from('bytes')));
  app.get('/error', () => {
    throw Object.assign(new Error('teapot'), { status: 418, expose: true });
  });
  const api = express.Router();
  api.get('/items/:n', (req, res) => res.send(`item ${req.params.n} at ${req.baseUrl}${req.path}`));
  app.use('/api', api);
  const admin = express();
  admin.get('/', (req, res) => res.send(`admin mounted at ${req.app.mountpath}, parent ${typeof req.app.parent}`));
  app.use('/admin', admin);
  app.set('env', 'test');
  // (Express's own error page shows the stack, which names the classes.)
  app.use((err, req, res, next) => res.status(err.status || 500).type('text').send(`${err.status} ${err.message}`));
  return app;
}

const REQUESTS = [
  'GET /users/7?x=1&y=two HTTP/1.1\r\nHost: example.test\r\nAccept: application/json\r\nAccept-Language: fr\r\n' +
    'User-Agent: t\r\nX-Requested-With: XMLHttpRequest\r\n\r\n',
  'POST /echo HTTP/1.1\r\nHost: a\r\nContent-Type: application/json\r\nContent-Length: 13\r\n\r\n{"a":[1,2,3]}',
  'POST /echo HTTP/1.1\r\nHost: a\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 7\r\n\r\na=1&b=2',
  'POST /echo HTTP/1.1\r\nHost: a\r\nContent-Type: application/json\r\nContent-Length: 5\r\n\r\n{bad}',
  'GET /redirect HTTP/1.1\r\nHost: a\r\n\r\n',
  'GET /cookie HTTP/1.1\r\nHost: a\r\n\r\n',
  'GET /format HTTP/1.1\r\nHost: a\r\nAccept: application/json\r\n\r\n',
  'GET /format HTTP/1.1\r\nHost: a\r\nAccept: image/png\r\n\r\n',
  'GET /fresh HTTP/1.1\r\nHost: a\r\nIf-None-Match: "v1"\r\n\r\n',
  'GET /fresh HTTP/1.1\r\nHost: a\r\n\r\n',
  'GET /file HTTP/1.1\r\nHost: a\r\n\r\n',
  'GET /file HTTP/1.1\r\nHost: a\r\nRange: bytes=2-9\r\n\r\n',
  'HEAD /file HTTP/1.1\r\nHost: a\r\n\r\n',
  'GET /buffer HTTP/1.1\r\nHost: a\r\n\r\n',
  'GET /error HTTP/1.1\r\nHost: a\r\n\r\n',
  'GET /api/items/3 HTTP/1.1\r\nHost: a\r\n\r\n',
  'GET /admin HTTP/1.1\r\nHost: a\r\n\r\n',
  'GET /missing HTTP/1.1\r\nHost: a\r\n\r\n',
  'GET /users/1 HTTP/1.0\r\n\r\n',
];

// Each request on a connection of its own, then all of them pipelined on one.
async function answers(create, express) {
  const app = buildApp(express);
  return withServer(create, undefined, app, async (port) => {
    const out = [];
    for (const request of REQUESTS) out.push(normalize((await exchange(port, [withClose(request)], { end: false })).text));
    const all = REQUESTS.slice(0, -1).join('') + withClose('GET /users/2 HTTP/1.1\r\nHost: a\r\n\r\n');
    out.push(normalize((await exchange(port, [all], { end: false })).text));
    return out;
  });
}

const createWithApp = {
  'node:http': (options, app) => http.createServer(app),
  'llhttp-napi/server': (options, app) => ours.createServer(app),
};

for (const [name, express] of EXPRESSES) {
  test(`${name}: an app answers on llhttp-napi/server what it answers on node:http`, async () => {
    const builtin = await answers(createWithApp['node:http'], express);
    const mine = await answers(createWithApp['llhttp-napi/server'], express);
    assert.match(builtin[0], /^HTTP\/1\.1 200 OK\r\n/);
    assert.match(builtin[11], /^HTTP\/1\.1 206 Partial Content\r\n/);
    for (let i = 0; i < builtin.length; i++) assert.strictEqual(mine[i], builtin[i], REQUESTS[i] || 'pipelined');
  });

  test(`${name}: Express's shared prototypes are untouched; node:http apps in the same process still work`, async () => {
    const served = buildApp(express);
    const before = [Object.getPrototypeOf(express.request), Object.getPrototypeOf(express.response)];
    const server = ours.createServer(served);
    assert.deepStrictEqual([Object.getPrototypeOf(express.request), Object.getPrototypeOf(express.response)], before);
    assert.strictEqual(before[0], http.IncomingMessage.prototype);
    // Serving the same app again (another server) changes nothing more.
    ours.createServer(served);
    server.close();
    const other = buildApp(express);
    const text = await withServer(createWithApp['node:http'], undefined, other,
      async (port) => (await exchange(port, [withClose('GET /users/5 HTTP/1.1\r\nHost: a\r\n\r\n')])).text);
    assert.match(text, /^HTTP\/1\.1 200 OK\r\n[^]*"id":"5"/);
  });
}

test('express 5: requests and responses come with the app\'s prototypes; Express changes none per request', async () => {
  const express = require('express');
  const server = ours.createServer(buildApp(express));
  const setPrototypeOf = Object.setPrototypeOf;
  let changed = 0;
  let kept = 0;
  Object.setPrototypeOf = function countingSetPrototypeOf(object, prototype) {
    if (Object.getPrototypeOf(object) === prototype) kept++;
    else changed++;
    return setPrototypeOf(object, prototype);
  };
  let text;
  try {
    text = await withServer(() => server, undefined, undefined, async (port) =>
      (await exchange(port, ['GET /api/items/3 HTTP/1.1\r\nHost: a\r\n\r\n' +
        withClose('GET /users/7 HTTP/1.1\r\nHost: a\r\n\r\n')])).text);
  } finally {
    Object.setPrototypeOf = setPrototypeOf;
  }
  assert.match(text, /item 3 at \/api\/items\/3[^]*"id":"7"/);
  assert.deepStrictEqual({ changed, kept }, { changed: 0, kept: 4 });
});

// (Express 4 and 5 alike.) What runs before the app sees the prototypes
// node:http would give: a 'request' listener put before the app, an
// 'upgrade' listener; the app answers as it does alone.
for (const [name, express] of EXPRESSES) {
  for (const [face, create, Request, Response] of [
    ['node:http', createWithApp['node:http'], http.IncomingMessage, http.ServerResponse],
    ['llhttp-napi/server', createWithApp['llhttp-napi/server'], ours.IncomingMessage, ours.ServerResponse],
  ]) {
    test(`${name} on ${face}: a listener before the app, and an 'upgrade' listener, see the server's classes`, async () => {
      const app = express();
      app.get('/', (req, res) => res.send(`app ${typeof req.get}`));
      const seen = [];
      const text = await withServer(create, undefined, app, async (port, server) => {
        server.prependListener('request', (req, res) => {
          seen.push(Object.getPrototypeOf(req) === Request.prototype, Object.getPrototypeOf(res) === Response.prototype);
        });
        server.on('upgrade', (req, socket) => {
          seen.push(Object.getPrototypeOf(req) === Request.prototype);
          socket.end('HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nUpgrade: x\r\n\r\n');
        });
        const answered = (await exchange(port, [withClose('GET / HTTP/1.1\r\nHost: a\r\n\r\n')])).text;
        const upgraded = (await exchange(port, ['GET / HTTP/1.1\r\nHost: a\r\nConnection: Upgrade\r\nUpgrade: x\r\n\r\n'])).text;
        return answered + upgraded;
      });
      assert.match(text, /\r\n\r\napp function(HTTP\/1\.1 101 )/);
      assert.deepStrictEqual(seen, [true, true, true]);
    });
  }
}

test('listen(app, port, callback): app.listen() on this server', async () => {
  const express = require('express');
  const app = express();
  app.get('/', (req, res) => res.send(`ours ${req.socket.constructor.name} ${res instanceof http.ServerResponse}`));
  const server = await new Promise((resolve) => {
    const s = ours.listen(app, 0, '127.0.0.1', () => resolve(s));
  });
  assert.ok(server instanceof ours.Server);
  const { text } = await exchange(server.address().port, [withClose('GET / HTTP/1.1\r\nHost: a\r\n\r\n')]);
  assert.match(text, /\r\n\r\nours Socket false$/);
  await new Promise((resolve) => server.close(resolve));
  // A listen error reaches the callback, as app.listen()'s.
  const taken = await new Promise((resolve) => {
    const first = ours.listen(express(), 0, '127.0.0.1', () => {
      ours.listen(express(), first.address().port, '127.0.0.1', (err) => {
        first.close();
        resolve(err);
      });
    });
  });
  assert.strictEqual(taken && taken.code, 'EADDRINUSE');
});

test('an app mounted in a served app answers through this server; so does one served after its parent', async () => {
  const express = require('express');
  const parent = express();
  const child = express();
  child.get('/', (req, res) => res.json({ at: req.originalUrl, base: req.baseUrl }));
  parent.use('/child', child);
  await withServer(createWithApp['llhttp-napi/server'], undefined, parent, async (port) => {
    const { text } = await exchange(port, [withClose('GET /child/?a=1 HTTP/1.1\r\nHost: a\r\n\r\n')]);
    assert.match(text, /\r\n\r\n\{"at":"\/child\/\?a=1","base":"\/child"\}$/);
  });
  assert.doesNotThrow(() => ours.createServer(child));
});

test('prepareExpressApp(): an app a served app calls as a plain handler (as vhost() does) answers', async () => {
  const express = require('express');
  const inner = express();
  inner.get('/', (req, res) => res.send(`inner ${req.hostname}`));
  const outer = express();
  outer.use((req, res, next) => (req.hostname === 'inner.test' ? inner(req, res, next) : next()));
  outer.get('/', (req, res) => res.send('outer'));
  assert.strictEqual(ours.prepareExpressApp(inner), inner);
  await withServer(createWithApp['llhttp-napi/server'], undefined, outer, async (port) => {
    const a = await exchange(port, [withClose('GET / HTTP/1.1\r\nHost: inner.test\r\n\r\n')], { end: false });
    const b = await exchange(port, [withClose('GET / HTTP/1.1\r\nHost: other.test\r\n\r\n')], { end: false });
    assert.match(a.text, /\r\n\r\ninner inner\.test$/);
    assert.match(b.text, /\r\n\r\nouter$/);
  });
  assert.throws(() => ours.prepareExpressApp(() => {}), TypeError);
});
