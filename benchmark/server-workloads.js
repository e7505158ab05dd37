'use strict';
// The workloads of benchmark/server.js: for each, the requests the load
// generator sends (built here, in the load process) and the request handler
// of the node:http server (built in the server child).
//
// A request is { method, path, headers: [[name, value], ...], body }; the
// load generators add `Connection: keep-alive` after the request line and a
// `Content-Length` after the headers when there is a body (autocannon's
// request builder does exactly that; serialize() below makes the same bytes
// for wrk), so both loaders send the same bytes.
//
//   hello      keep-alive `GET /`, 2 headers (Host, Connection); "Hello World"
//   browser    keep-alive GETs from benchmark/corpus.js with 10-14 headers,
//              all different (paths, cookies, ids), cycled; the handler reads
//              a few fields of req.headers and answers a small text body
//   post-json  POST of a 4 KiB JSON document (distinct ids and contents); the
//              handler reads the body, JSON.parse, answers a small JSON
//   upload     PUT of 64 KiB (Content-Length, sent in one write: Node reads a
//              socket at most 64 KiB at a time, so the request arrives in at
//              least two reads and two body chunks); the handler counts bytes
//   express    an Express 5 app (benchmark/apps/express-app.js: routes, a
//              router, express.json() on its POST route) driven by the
//              browser requests and one API-like JSON POST in 8
//   fastify    the same routes as a Fastify 5 app (benchmark/apps/fastify-app.js,
//              its own JSON body parser), the same requests as express
//   net-echo   the browser requests answered with a JSON echo of the method,
//              URL, Host, User-Agent and body length: the node:http handler
//              here for the built-in side; on our side server-child.js runs
//              examples/net-server.js instead (our parser on node:net, no
//              node:http), which answers the same

const crypto = require('node:crypto');
const corpus = require('./corpus');

const { prng } = corpus;

const NAMES = ['hello', 'browser', 'post-json', 'upload', 'express', 'fastify', 'net-echo'];

const DESCRIPTIONS = {
  hello: 'keep-alive GET / (2 headers), response "Hello World"',
  browser: 'keep-alive GETs with 10-14 headers, every one different (corpus.js), cycled; handler reads req.headers',
  'post-json': 'keep-alive POST with a 4 KiB JSON body (distinct); handler reads it, JSON.parse, small JSON answer',
  upload: 'keep-alive PUT of 64 KiB (Content-Length, arrives in >= 2 reads); handler counts the bytes',
  express: 'Express 5 app (routes, a router, express.json() on POST) driven by the browser GETs + 1 JSON POST in 8',
  fastify: 'Fastify 5 app (the same routes, its JSON body parser) driven by the same requests as express',
  'net-echo': 'the browser GETs answered with a JSON echo: napi = examples/net-server.js (our parser on node:net), ' +
    'builtin = node:http',
};

// How many distinct requests each workload cycles through. autocannon builds
// a buffer of every request for each connection, so these stay modest.
const DISTINCT = { hello: 1, browser: 256, 'post-json': 64, upload: 8, express: 256, fastify: 256, 'net-echo': 256 };

// ------------------------------------------------------------ requests ----


// Headers as the loaders send them: the corpus's own, without the framing
// and connection headers the loader writes itself.
const FRAMING = new Set(['connection', 'content-length', 'transfer-encoding']);
function fromCorpus(msg) {
  const headers = msg.headers.filter(([name]) => !FRAMING.has(name.toLowerCase()));
  if (!headers.some(([name]) => name.toLowerCase() === 'host')) headers.unshift(['Host', 'localhost']);
  return { method: msg.method, path: msg.path, headers, body: msg.body && msg.body.length ? msg.body : null };
}

// Header lines of a request as sent (Connection and Content-Length included).
function headerCount(req) {
  return req.headers.length + 1 + (req.body ? 1 : 0);
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
      const lines = headerCount(req);
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
  const out = [];
  for (let i = 0; i < count; i++) {
    out.push({
      method: 'POST',
      path: `/api/v1/orders?client=${hex(random, 6)}`,
      headers: [
        ['Host', 'api.example.com'],
        ['User-Agent', 'orders-client/2.3.1 node'],
        ['Accept', 'application/json'],
        ['Content-Type', 'application/json'],
        ['Authorization', `Bearer ${hex(random, 40)}`],
        ['X-Request-Id', `${hex(random, 8)}-${hex(random, 4)}-${hex(random, 4)}-${hex(random, 12)}`],
      ],
      body: jsonDocument(random, 4096),
    });
  }
  return out;
}

function uploadRequests(count, seed) {
  const random = prng(seed * 104729 + 3);
  const out = [];
  for (let i = 0; i < count; i++) {
    const body = Buffer.alloc(65536);
    for (let j = 0; j < body.length; j += 4) body.writeUInt32LE(Math.floor(random() * 0x100000000), j);
    out.push({
      method: 'PUT',
      path: `/upload/${hex(random, 12)}.bin`,
      headers: [
        ['Host', 'files.example.com'],
        ['User-Agent', 'uploader/1.0'],
        ['Content-Type', 'application/octet-stream'],
        ['Authorization', `Bearer ${hex(random, 40)}`],
      ],
      body,
    });
  }
  return out;
}

function expressRequests(count, seed) {
  const browser = browserRequests(count, seed);
  const posts = postJsonRequests(Math.ceil(count / 8), seed + 1);
  // Route the posts to the app's JSON route; 1 in 8 requests is a POST.
  const out = [];
  let p = 0;
  for (let i = 0; i < count; i++) {
    if (i % 8 === 7) {
      const post = posts[p++];
      out.push({ ...post, path: `/api/items?ref=${i}` });
    } else {
      out.push(browser[i]);
    }
  }
  return out;
}

function requests(name, { seed = 1, count = DISTINCT[name] } = {}) {
  switch (name) {
    case 'hello':
      return [{ method: 'GET', path: '/', headers: [['Host', 'localhost']], body: null }];
    case 'browser': return browserRequests(count, seed);
    case 'net-echo': return browserRequests(count, seed);
    case 'post-json': return postJsonRequests(count, seed);
    case 'upload': return uploadRequests(count, seed);
    case 'express': return expressRequests(count, seed);
    case 'fastify': return expressRequests(count, seed);
    default: throw new Error(`unknown workload "${name}" (one of ${NAMES.join(', ')})`);
  }
}

// The bytes autocannon's request builder writes for `req` (request line,
// Connection, the headers in order, Content-Length, body).
function serialize(req) {
  const lines = [`${req.method} ${req.path} HTTP/1.1`, 'Connection: keep-alive'];
  for (const [name, value] of req.headers) lines.push(`${name}: ${value}`);
  if (req.body) lines.push(`Content-Length: ${req.body.length}`);
  const head = Buffer.from(lines.join('\r\n') + '\r\n\r\n', 'latin1');
  return req.body ? Buffer.concat([head, req.body]) : head;
}

// autocannon's form: headers as an object (names are distinct in every
// workload; a duplicate would be joined by autocannon, so refuse it).
function forAutocannon(req) {
  const headers = {};
  for (const [name, value] of req.headers) {
    if (Object.prototype.hasOwnProperty.call(headers, name)) throw new Error(`duplicate header ${name} in ${req.path}`);
    headers[name] = value;
  }
  return { method: req.method, path: req.path, headers, body: req.body || undefined };
}

// A digest of what a workload sends, so a report can say the requests were the same.
function digest(list) {
  const hash = crypto.createHash('sha1');
  for (const req of list) hash.update(serialize(req));
  return hash.digest('hex').slice(0, 12);
}

// -------------------------------------------------------------- servers ----

// Returns { handle(req, res), stats() } for the server child. `tally` counts
// what the report wants per request (requests, body chunks, body bytes).
function handler(name, tally) {
  switch (name) {
    case 'hello': {
      const body = 'Hello World';
      return (req, res) => {
        tally.requests++;
        res.writeHead(200, { 'Content-Type': 'text/plain', 'Content-Length': body.length });
        res.end(body);
      };
    }
    case 'browser':
      return (req, res) => {
        tally.requests++;
        const h = req.headers;
        const ua = h['user-agent'] || '';
        const cookie = h.cookie || '';
        const lang = h['accept-language'] || '';
        const body = `ok ${req.url.length} ${ua.length} ${cookie.length} ${lang.slice(0, 5)}`;
        res.writeHead(200, { 'Content-Type': 'text/plain; charset=utf-8', 'Content-Length': Buffer.byteLength(body),
          'Cache-Control': 'no-store' });
        res.end(body);
      };
    case 'post-json':
      return (req, res) => {
        tally.requests++;
        const chunks = [];
        req.on('data', (chunk) => { tally.chunks++; chunks.push(chunk); });
        req.on('end', () => {
          const text = chunks.length === 1 ? chunks[0].toString() : Buffer.concat(chunks).toString();
          tally.bytes += text.length;
          let answer;
          try {
            const doc = JSON.parse(text);
            answer = JSON.stringify({ ok: true, id: doc.id, items: doc.items.length });
          } catch {
            answer = '{"ok":false}';
          }
          res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(answer) });
          res.end(answer);
        });
      };
    case 'upload':
      return (req, res) => {
        tally.requests++;
        let bytes = 0;
        req.on('data', (chunk) => { tally.chunks++; bytes += chunk.length; });
        req.on('end', () => {
          tally.bytes += bytes;
          const answer = `stored ${bytes}`;
          res.writeHead(201, { 'Content-Type': 'text/plain', 'Content-Length': answer.length });
          res.end(answer);
        });
      };
    case 'net-echo':
      // The answer of examples/net-server.js. A request that announces no body
      // is answered at once (reading its empty body would cost node:http a
      // stream's machinery the example does not have).
      return (req, res) => {
        tally.requests++;
        const h = req.headers;
        let bodyLength = 0;
        const answer = () => {
          const body = JSON.stringify({ method: req.method, url: req.url, host: h.host ?? null,
            userAgent: h['user-agent'] ?? null, bodyLength });
          res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) });
          res.end(body);
        };
        if (h['content-length'] === undefined && h['transfer-encoding'] === undefined) return answer();
        req.on('data', (chunk) => { bodyLength += chunk.length; });
        req.on('end', answer);
      };
    case 'express': {
      const app = require('./apps/express-app').createApp();
      return (req, res) => {
        tally.requests++;
        app(req, res);
      };
    }
    case 'fastify': {
      // (The server listens once the app is ready.)
      let app = null;
      const handle = (req, res) => {
        tally.requests++;
        app(req, res);
      };
      handle.ready = require('./apps/fastify-app').createHandler().then((fn) => { app = fn; });
      return handle;
    }
    default:
      throw new Error(`unknown workload "${name}" (one of ${NAMES.join(', ')})`);
  }
}

module.exports = { NAMES, DESCRIPTIONS, DISTINCT, requests, serialize, forAutocannon, headerCount, digest, handler, jsonDocument };
