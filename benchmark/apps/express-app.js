'use strict';
// The Express 5 application of benchmark/server.js --workload=express: what a
// small site with an API looks like (a logging-style middleware that reads a
// header, a few page routes, a router under /api with params, a query and a
// JSON POST behind express.json(), static-like assets, a catch-all page) so
// that the browser-like requests of the corpus all get a 200.

const express = require('express');

function createApp() {
  const app = express();

  app.use((req, res, next) => {
    res.locals.lang = (req.get('accept-language') || 'en').slice(0, 2);
    next();
  });

  app.get('/', (req, res) => {
    res.send(`<!doctype html><title>home</title><p>lang ${res.locals.lang}</p>`);
  });

  const api = express.Router();
  api.get('/:version/users/:id', (req, res) => {
    res.json({ id: req.params.id, version: req.params.version, name: 'user', lang: res.locals.lang });
  });
  api.get('/:version/products/:id', (req, res) => {
    res.json({ id: req.params.id, price: 12.5, currency: 'EUR' });
  });
  api.get('/:version/products/:id/reviews', (req, res) => {
    res.json({ product: req.params.id, page: Number(req.query.page || 1), reviews: [] });
  });
  api.get('/search', (req, res) => {
    res.json({ q: req.query.q || '', page: Number(req.query.page || 1), results: [] });
  });
  api.post('/items', express.json({ limit: '100kb' }), (req, res) => {
    const items = req.body && Array.isArray(req.body.items) ? req.body.items.length : 0;
    res.status(201).json({ ok: true, id: req.body && req.body.id, items });
  });
  api.get('/*rest', (req, res) => {
    res.json({ path: req.path, ok: true });
  });
  app.use('/api', api);

  app.get('/account/orders', (req, res) => {
    res.send(`<!doctype html><title>orders</title><p>${req.get('cookie') ? 'signed in' : 'guest'}</p>`);
  });
  app.get('/search', (req, res) => {
    res.send(`<!doctype html><title>search</title><p>${String(req.query.q || '').length}</p>`);
  });
  app.get('/products/:id', (req, res) => {
    res.send(`<!doctype html><title>product ${req.params.id}</title>`);
  });
  app.get(/\.(?:js|css|png|svg|woff2|ico|jpg|webp)$/, (req, res) => {
    res.type(req.path.slice(req.path.lastIndexOf('.'))).send('/* asset */');
  });

  app.use((req, res) => {
    res.send(`<!doctype html><title>${req.path.length}</title><p>page</p>`);
  });
  return app;
}

module.exports = { createApp };
