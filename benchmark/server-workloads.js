'use strict';
// The workloads of benchmark/server.js, one row each in WORKLOADS: the
// requests the load generator sends (built here, in the load process), the
// app that answers them (a file of benchmark/apps/) and which server of ours
// is compared with node:http and its built-in parser:
//
//   install  node:http after llhttp-napi's install()
//   server   llhttp-napi/server (lib/server/), the same app on it
//   net      examples/net-server.js (our parser on node:net; the app on the
//            built-in side answers what the example answers)
//
// A request is { method, path, headers: [[name, value], ...], body }; the
// loader adds `Connection: keep-alive` after the request line and a
// `Content-Length` after the headers when there is a body (serialize()
// makes the same bytes). An app file exports createApp(workload) (a
// node:http request handler) or createHandler(workload) (a promise of one).
//
//   requests(workload, { seed })   the requests of a workload, seeded

const crypto = require('node:crypto');
const path = require('node:path');
const corpus = require('./corpus');

const { prng } = corpus;

// Headers as the loaders send them: the corpus's own, without the framing
// and connection headers the loader writes itself.
const FRAMING = new Set(['connection', 'content-length', 'transfer-encoding']);
function fromCorpus(msg) {
  const headers = msg.headers.filter(([name]) => !FRAMING.has(name.toLowerCase()));
  if (!headers.some(([name]) => name.toLowerCase() === 'host')) headers.unshift(['Host', 'localhost']);
  return { method: msg.method, path: msg.path, headers, body: msg.body && msg.body.length ? msg.body : null };
}

function browserRequests(count, seed) {
  const out = [];
  const seen = new Set();
  // Draw more than needed: only GETs without a body and with 10-14 header lines qualify.
  for (let n = count * 4; out.length < count && n <= count * 64; n *= 2) {
    for (const msg of corpus.requestCorpus({ count: n, seed })) {
      if (out.length >= count) break;
      if (msg.method !== 'GET' || (msg.body && msg.body.length) || msg.chunked) continue;
      if (msg.headers.some(([n, v]) => n.toLowerCase() === 'connection' && !/keep-alive/i.test(v))) continue;
      const req = fromCorpus(msg);
      // autocannon takes headers as an object: a name twice would be joined.
      if (new Set(req.headers.map(([n]) => n)).size !== req.headers.length) continue;
      const lines = req.headers.length + 1; // with the loader's Connection
      if (lines < 10 || lines > 14) continue;
      const key = serialize(req).toString('latin1');
      if (seen.has(key)) continue;
      seen.add(key);
      out.push(req);
    }
  }
  if (out.length < count) {
    throw new Error(`corpus.js gave only ${out.length} distinct GETs with 10-14 headers (wanted ${count})`);
  }
  return out;
}

// `length` hex digits, 8 from each draw of `random`.
function hex(random, length) {
  let s = '';
  while (s.length < length) s += Math.floor(random() * 0x100000000).toString(16).padStart(8, '0');
  return s.slice(0, length);
}

// A JSON document of exactly `size` bytes (an order with line items).
function jsonDocument(random, size) {
  const doc = {
    id: `ord_${hex(random, 16)}`,
    customer: { id: Math.floor(random() * 1e6), email: `user${Math.floor(random() * 1e5)}@example.com`, tier: 'gold' },
    currency: 'EUR',
    items: [],
    note: '',
  };
  while (JSON.stringify(doc).length < size - 200) {
    doc.items.push({ sku: `SKU-${hex(random, 8)}`, qty: 1 + Math.floor(random() * 9),
      price: Math.round(random() * 100000) / 100, tags: ['a', 'b', hex(random, 4)] });
  }
  doc.note = 'x'.repeat(size - JSON.stringify(doc).length);
  const text = JSON.stringify(doc);
  if (text.length !== size) throw new Error(`jsonDocument: ${text.length} != ${size}`);
  return Buffer.from(text, 'latin1');
}

function postJsonRequests(count, seed) {
  const random = prng(seed * 7919 + 1);
  return Array.from({ length: count }, () => ({ method: 'POST', path: `/api/v1/orders?client=${hex(random, 6)}`,
    headers: [['Host', 'api.example.com'], ['User-Agent', 'orders-client/2.3.1 node'], ['Accept', 'application/json'],
      ['Content-Type', 'application/json'], ['Authorization', `Bearer ${hex(random, 40)}`],
      ['X-Request-Id', `${hex(random, 8)}-${hex(random, 4)}-${hex(random, 4)}-${hex(random, 12)}`]],
    body: jsonDocument(random, 4096) }));
}

function uploadRequests(count, seed) {
  const random = prng(seed * 104729 + 3);
  return Array.from({ length: count }, () => {
    const body = Buffer.alloc(65536);
    for (let j = 0; j < body.length; j += 4) body.writeUInt32LE(Math.floor(random() * 0x100000000), j);
    return { method: 'PUT', path: `/upload/${hex(random, 12)}.bin`, headers: [['Host', 'files.example.com'],
      ['User-Agent', 'uploader/1.0'], ['Content-Type', 'application/octet-stream'], ['Authorization', `Bearer ${hex(random, 40)}`]],
    body };
  });
}

// The browser GETs with 1 request in 8 a JSON POST, routed to the app's JSON route.
function appRequests(count, seed) {
  const posts = postJsonRequests(Math.ceil(count / 8), seed + 1);
  return browserRequests(count, seed).map((req, i) => (i % 8 === 7 ? { ...posts[i >> 3], path: `/api/items?ref=${i}` } : req));
}

const hello = () => [{ method: 'GET', path: '/', headers: [['Host', 'localhost']], body: null }];

// One workload per row: name, app file, requests (count distinct ones; the
// loader keeps each as a buffer per connection, so counts stay modest), ours,
// what it is.
const WORKLOADS = [
  ['hello', 'handlers.js', hello, 'install', 'keep-alive GET / (2 headers), response "Hello World"'],
  ['browser', 'handlers.js', (seed) => browserRequests(256, seed), 'install',
    'keep-alive GETs with 10-14 headers, all different (corpus.js); the handler reads req.headers'],
  ['post-json', 'handlers.js', (seed) => postJsonRequests(64, seed), 'install',
    'keep-alive POST of a 4 KiB JSON body (distinct); the handler reads it, JSON.parse, a small JSON answer'],
  ['upload', 'handlers.js', (seed) => uploadRequests(8, seed), 'install',
    'keep-alive PUT of 64 KiB (arrives in >= 2 reads); the handler counts the bytes'],
  ['express', 'express-app.js', (seed) => appRequests(256, seed), 'install',
    'Express 5 app (routes, a router, express.json() on POST): the browser GETs + 1 JSON POST in 8'],
  ['fastify', 'fastify-app.js', (seed) => appRequests(256, seed), 'install',
    'Fastify 5 app (the same routes, its JSON body parser), the same requests as express'],
  ['net-echo', 'handlers.js', (seed) => browserRequests(256, seed), 'net',
    'the browser GETs answered with a JSON echo: examples/net-server.js (our parser on node:net) vs node:http'],
  // llhttp-napi/server: the same apps on it, against node:http with the built-in parser.
  ['server-hello', 'handlers.js', hello, 'server', 'llhttp-napi/server vs node:http, hello'],
  ['server-browser', 'handlers.js', (seed) => browserRequests(256, seed), 'server',
    'llhttp-napi/server vs node:http, the browser GETs, the same handler on both'],
  ['server-post-json', 'handlers.js', (seed) => postJsonRequests(64, seed), 'server',
    'llhttp-napi/server vs node:http, the POSTs of a 4 KiB JSON body'],
  ['server-upload', 'handlers.js', (seed) => uploadRequests(8, seed), 'server',
    'llhttp-napi/server vs node:http, the 64 KiB uploads'],
  ['server-fastify', 'fastify-app.js', (seed) => appRequests(256, seed), 'server',
    'the Fastify app on llhttp-napi/server (its serverFactory) vs on node:http'],
].map(([name, app, make, ours, description]) => ({ name, app, make, ours, description }));

const NAMES = WORKLOADS.map((w) => w.name);

function workload(name) {
  const w = WORKLOADS.find((row) => row.name === name);
  if (!w) throw new Error(`unknown workload "${name}" (one of ${NAMES.join(', ')})`);
  return w;
}

function requests(name, { seed = 1 } = {}) {
  return workload(name).make(seed);
}

// A promise of the (req, res) handler of the workload's app.
async function handler(name) {
  const app = require(path.join(__dirname, 'apps', workload(name).app));
  return app.createApp ? app.createApp(name) : app.createHandler(name);
}

// The bytes the loader writes for `req` (request line, Connection, the
// headers in order, Content-Length, body).
function serialize(req) {
  const lines = [`${req.method} ${req.path} HTTP/1.1`, 'Connection: keep-alive'];
  for (const [name, value] of req.headers) lines.push(`${name}: ${value}`);
  if (req.body) lines.push(`Content-Length: ${req.body.length}`);
  const head = Buffer.from(lines.join('\r\n') + '\r\n\r\n', 'latin1');
  return req.body ? Buffer.concat([head, req.body]) : head;
}

// autocannon's form: headers as an object (a name twice would be joined: refused).
function forAutocannon(req) {
  const headers = {};
  for (const [name, value] of req.headers) {
    if (Object.hasOwn(headers, name)) throw new Error(`duplicate header ${name} in ${req.path}`);
    headers[name] = value;
  }
  return { method: req.method, path: req.path, headers, body: req.body || undefined };
}

// A digest of what a workload sends, so that two reports can be told to have sent the same.
function digest(list) {
  const hash = crypto.createHash('sha1');
  for (const req of list) hash.update(serialize(req));
  return hash.digest('hex').slice(0, 12);
}

module.exports = { NAMES, workload, requests, handler, serialize, forAutocannon, digest, jsonDocument, hex };
