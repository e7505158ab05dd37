'use strict';
// The Fastify application of benchmark/server.js --workload=fastify: the
// routes of ./express-app.js written the Fastify way (a hook that reads a
// header, page routes, API routes with params and a query, a JSON POST
// through Fastify's own body parser, assets, a catch-all), so that the same
// browser-like requests all get a 200. Fastify serves through node:http:
// serverFactory hands over its request handler, which benchmark/server.js
// puts behind its own server.

const fastify = require('fastify');

// Resolves to Fastify's (req, res) handler once every route is registered.
async function createHandler() {
  let handler = null;
  const app = fastify({
    logger: false,
    serverFactory(fn) {
      handler = fn;
      return require('node:http').createServer();
    },
  });

  app.addHook('onRequest', (req, reply, done) => {
    reply.locals = (req.headers['accept-language'] || 'en').slice(0, 2);
    done();
  });
  app.decorateReply('locals', '');

  app.get('/', (req, reply) => {
    reply.type('text/html').send(`<!doctype html><title>home</title><p>lang ${reply.locals}</p>`);
  });
  app.get('/api/:version/users/:id', (req) => ({ id: req.params.id, version: req.params.version, name: 'user' }));
  app.get('/api/:version/products/:id', (req) => ({ id: req.params.id, price: 12.5, currency: 'EUR' }));
  app.get('/api/:version/products/:id/reviews', (req) =>
    ({ product: req.params.id, page: Number(req.query.page || 1), reviews: [] }));
  app.get('/api/search', (req) => ({ q: req.query.q || '', page: Number(req.query.page || 1), results: [] }));
  app.post('/api/items', { bodyLimit: 100 * 1024 }, (req, reply) => {
    const items = req.body && Array.isArray(req.body.items) ? req.body.items.length : 0;
    reply.code(201).send({ ok: true, id: req.body && req.body.id, items });
  });
  app.get('/api/*', (req) => ({ path: req.url.split('?')[0], ok: true }));
  app.get('/account/orders', (req, reply) => {
    reply.type('text/html').send(`<!doctype html><title>orders</title><p>${req.headers.cookie ? 'signed in' : 'guest'}</p>`);
  });
  app.get('/search', (req, reply) => {
    reply.type('text/html').send(`<!doctype html><title>search</title><p>${String(req.query.q || '').length}</p>`);
  });
  app.get('/products/:id', (req, reply) => {
    reply.type('text/html').send(`<!doctype html><title>product ${req.params.id}</title>`);
  });
  app.setNotFoundHandler((req, reply) => {
    reply.code(200).type('text/html').send(`<!doctype html><title>${req.url.length}</title><p>page</p>`);
  });

  await app.ready();
  return handler;
}

module.exports = { createHandler };
