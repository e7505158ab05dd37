'use strict';
// The middleware people install with Express, in one Express 5 app served by
// node:http and by llhttp-napi/server: every answer is the same byte for
// byte (Date aside). body-parser (express.json / urlencoded / raw), multer
// (memory and disk storage), cookie-parser, express-session, cors, helmet,
// compression, express.static (ranges, HEAD, 304), morgan,
// http-proxy-middleware (to a node:http backend), and supertest against the
// app's server.
const test = require('node:test');
const assert = require('node:assert');
const crypto = require('node:crypto');
const fs = require('node:fs');
const http = require('node:http');
const os = require('node:os');
const path = require('node:path');
const { PassThrough } = require('node:stream');
const express = require('express');
const multer = require('multer');
const cookieParser = require('cookie-parser');
const session = require('express-session');
const cors = require('cors');
const helmet = require('helmet');
const compression = require('compression');
const morgan = require('morgan');
const supertest = require('supertest');
const { createProxyMiddleware } = require('http-proxy-middleware');
const ours = require('../../lib/server');
const { withServer, exchange, normalize, withClose } = require('../support/both-servers');

const CREATE = [
  ['node:http', (options, app) => http.createServer(app)],
  ['llhttp-napi/server', (options, app) => ours.createServer(app)],
];

const digest = (bytes) => crypto.createHash('sha256').update(bytes).digest('hex').slice(0, 16);

// Files for express.static, made once (the same mtime for both servers).
const FIXTURES = fs.mkdtempSync(path.join(os.tmpdir(), 'llhttp-napi-express-'));
fs.writeFileSync(path.join(FIXTURES, 'page.html'), '<!doctype html><p>static page</p>\n'.repeat(40));
fs.writeFileSync(path.join(FIXTURES, 'data.bin'), Buffer.from(Array.from({ length: 5000 }, (_, i) => i % 251)));
fs.utimesSync(path.join(FIXTURES, 'page.html'), 1700000000, 1700000000);
fs.utimesSync(path.join(FIXTURES, 'data.bin'), 1700000000, 1700000000);
test.after(() => fs.rmSync(FIXTURES, { recursive: true, force: true }));

function buildApp(backendPort, logLines, uploadDir) {
  const app = express();
  app.set('env', 'test');
  app.set('etag', 'strong');
  const logStream = new PassThrough();
  logStream.on('data', (line) => logLines.push(String(line).trim()));
  app.use(morgan(':method :url :status :res[content-length] :req[x-id]', { stream: logStream }));
  app.use('/proxied', createProxyMiddleware({ target: `http://127.0.0.1:${backendPort}`, changeOrigin: true }));
  app.use(helmet());
  app.use(cors({ origin: 'https://allowed.test', credentials: true, maxAge: 60 }));
  app.use(compression({ threshold: 100 }));
  app.use(cookieParser('cookie secret'));
  let sid = 0;
  app.use(session({ secret: 'session secret', resave: false, saveUninitialized: false, genid: () => `sid-${++sid}` }));
  app.use('/static', express.static(FIXTURES, { maxAge: 1000 }));
  app.use(express.json());
  app.use(express.urlencoded({ extended: true }));
  app.use('/raw', express.raw({ type: '*/*' }));

  app.get('/cookies', (req, res) => {
    res.cookie('signed', 'yes', { signed: true }).json({ cookies: req.cookies, signed: req.signedCookies });
  });
  app.get('/session', (req, res) => {
    req.session.views = (req.session.views || 0) + 1;
    res.json({ id: req.sessionID, views: req.session.views });
  });
  // (express-session, when the session changed, reads res._header before
  // making the head itself: here writeHead() made it already.)
  app.get('/session-head', (req, res) => {
    req.session.seen = true;
    res.writeHead(200, { 'Content-Type': 'text/plain' });
    res.end(`session ${req.sessionID}`);
  });
  app.get('/big', (req, res) => res.type('text').send('compress me please '.repeat(500)));
  app.get('/stream', (req, res) => {
    res.type('text');
    for (let i = 0; i < 20; i++) res.write(`line ${i} `.repeat(20));
    res.end();
  });
  app.post('/form', (req, res) => res.json(req.body));
  app.post('/raw', (req, res) => res.json({ length: req.body.length, digest: digest(req.body) }));

  const memory = multer({ storage: multer.memoryStorage(), limits: { fileSize: 1 << 20 } });
  app.post('/upload/memory', memory.array('files'), (req, res) => {
    res.json({ fields: req.body, files: req.files.map((f) => [f.fieldname, f.originalname, f.size, digest(f.buffer)]) });
  });
  let stored = 0;
  const disk = multer({ storage: multer.diskStorage({ destination: uploadDir, filename: (req, file, cb) => cb(null, `f${++stored}`) }) });
  app.post('/upload/disk', disk.single('file'), (req, res) => {
    res.json({ field: req.body.note, file: [req.file.filename, req.file.size, digest(fs.readFileSync(req.file.path))] });
  });
  app.use((err, req, res, next) => res.status(err.status || 500).type('text').send(`${err.name}: ${err.code || err.message}`));
  return app;
}

function multipart(boundary, parts) {
  const chunks = [];
  for (const part of parts) {
    const file = part.filename === undefined ? '' : `; filename="${part.filename}"\r\nContent-Type: application/octet-stream`;
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"${file}\r\n\r\n`));
    chunks.push(Buffer.from(part.body), Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return Buffer.concat(chunks);
}

function post(url, type, body, extra = '') {
  const bytes = Buffer.isBuffer(body) ? body : Buffer.from(body);
  return Buffer.concat([Buffer.from(`POST ${url} HTTP/1.1\r\nHost: a\r\nConnection: close\r\n${extra}` +
    `Content-Type: ${type}\r\nContent-Length: ${bytes.length}\r\n\r\n`), bytes]);
}

const FILE_BYTES = Buffer.from(Array.from({ length: 70000 }, (_, i) => (i * 7) % 256));
const REQUESTS = [
  'GET /cookies HTTP/1.1\r\nHost: a\r\nCookie: plain=1; signed=s%3Ayes.0\r\n\r\n',
  'GET /big HTTP/1.1\r\nHost: a\r\nAccept-Encoding: gzip\r\n\r\n',
  'GET /big HTTP/1.1\r\nHost: a\r\nAccept-Encoding: identity\r\n\r\n',
  'GET /stream HTTP/1.1\r\nHost: a\r\nAccept-Encoding: deflate\r\n\r\n',
  'HEAD /big HTTP/1.1\r\nHost: a\r\nAccept-Encoding: gzip\r\n\r\n',
  'OPTIONS /cookies HTTP/1.1\r\nHost: a\r\nOrigin: https://allowed.test\r\nAccess-Control-Request-Method: PUT\r\n\r\n',
  'GET /cookies HTTP/1.1\r\nHost: a\r\nOrigin: https://other.test\r\n\r\n',
  'GET /static/page.html HTTP/1.1\r\nHost: a\r\n\r\n',
  'GET /static/data.bin HTTP/1.1\r\nHost: a\r\nRange: bytes=100-299\r\n\r\n',
  'GET /static/data.bin HTTP/1.1\r\nHost: a\r\nRange: bytes=0-9,20-29\r\n\r\n',
  'GET /static/data.bin HTTP/1.1\r\nHost: a\r\nRange: bytes=9000-\r\n\r\n',
  'HEAD /static/data.bin HTTP/1.1\r\nHost: a\r\n\r\n',
  'GET /static/data.bin HTTP/1.1\r\nHost: a\r\nIf-Modified-Since: Tue, 14 Nov 2023 22:13:20 GMT\r\n\r\n',
  'GET /static HTTP/1.1\r\nHost: a\r\n\r\n',
  'GET /static/missing.txt HTTP/1.1\r\nHost: a\r\n\r\n',
  post('/form', 'application/x-www-form-urlencoded', 'a[b]=1&a[c]=2&d=x+y'),
  post('/form', 'application/json', '{"nested":{"list":[1,2]}}', 'X-Id: j\r\n'),
  post('/raw', 'application/octet-stream', FILE_BYTES),
  post('/upload/memory', 'multipart/form-data; boundary=XyZ', multipart('XyZ', [
    { name: 'title', body: 'two files' },
    { name: 'files', filename: 'a.bin', body: FILE_BYTES },
    { name: 'files', filename: 'b.txt', body: 'small' },
  ])),
  post('/upload/disk', 'multipart/form-data; boundary=b0und', multipart('b0und', [
    { name: 'note', body: 'to disk' },
    { name: 'file', filename: 'c.bin', body: FILE_BYTES.subarray(0, 40000) },
  ])),
  post('/upload/memory', 'multipart/form-data; boundary=XyZ', '--XyZ\r\nbroken'),
  'GET /proxied/echo?x=1 HTTP/1.1\r\nHost: a\r\nX-Id: p\r\n\r\n',
  post('/proxied/echo', 'text/plain', 'proxied body'),
];

// A node:http backend for http-proxy-middleware.
function backendHandler(req, res) {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    res.setHeader('X-Backend', 'yes');
    res.end(JSON.stringify({ method: req.method, url: req.url, host: req.headers.host, body: Buffer.concat(chunks).toString() }));
  });
}

async function answers(create) {
  const logLines = [];
  const uploadDir = fs.mkdtempSync(path.join(FIXTURES, 'up-'));
  return withServer(http.createServer, undefined, backendHandler, async (backendPort) => {
    const app = buildApp(backendPort, logLines, uploadDir);
    return withServer(create, undefined, app, async (port, server) => {
      const out = [];
      for (const request of REQUESTS) {
        const bytes = typeof request === 'string' ? withClose(request) : request;
        out.push(normalize((await exchange(port, [bytes], { end: false })).text)
          .replace(/localhost:\d+|127\.0\.0\.1:\d+/g, 'host:port').replace(/\r\ndate: [^\r]*/g, '\r\ndate: -'));
      }
      // express-session: a session made, then found again from its cookie.
      const first = (await exchange(port, [withClose('GET /session HTTP/1.1\r\nHost: a\r\n\r\n')], { end: false })).text;
      const cookie = /\r\nSet-Cookie: ([^;]*)/i.exec(first)[1];
      const second = (await exchange(port, [withClose(`GET /session HTTP/1.1\r\nHost: a\r\nCookie: ${cookie}\r\n\r\n`)],
        { end: false })).text;
      const third = (await exchange(port, [withClose(`GET /session-head HTTP/1.1\r\nHost: a\r\nCookie: ${cookie}\r\n\r\n`)],
        { end: false })).text;
      out.push(normalize(first), normalize(second), normalize(third));
      // The static page's ETag, then a conditional GET with it: 304.
      const etag = /\r\nETag: ([^\r]*)/i.exec(out[7])[1];
      out.push(normalize((await exchange(port,
        [withClose(`GET /static/page.html HTTP/1.1\r\nHost: a\r\nIf-None-Match: ${etag}\r\n\r\n`)], { end: false })).text));
      // supertest against the server.
      const agent = supertest(server);
      const reply = await agent.post('/form').send({ via: 'supertest' }).expect(200).expect('Content-Type', /json/);
      out.push(JSON.stringify(reply.body));
      await new Promise((resolve) => setTimeout(resolve, 20));
      out.push(logLines.join('\n'));
      return out;
    });
  });
}

test('Express middleware answers the same on llhttp-napi/server as on node:http', async () => {
  const [builtin, mine] = [await answers(CREATE[0][1]), await answers(CREATE[1][1])];
  assert.match(builtin[1], /\r\nContent-Encoding: gzip\r\n/);
  assert.match(builtin[8], /^HTTP\/1\.1 206 /);
  assert.match(builtin[18], /"files":\[\["files","a\.bin",70000,/);
  assert.match(builtin[19], /"file":\["f1",40000,/);
  assert.match(builtin[21], /"X-Backend|x-backend: yes/i);
  assert.match(builtin[REQUESTS.length + 1], /"views":2/);
  assert.match(builtin[REQUESTS.length + 2], /^HTTP\/1\.1 200 [^]*session sid-\d+\r\n/);
  assert.match(builtin[REQUESTS.length + 3], /^HTTP\/1\.1 304 /);
  for (let i = 0; i < builtin.length; i++) {
    assert.strictEqual(mine[i], builtin[i], i < REQUESTS.length ? String(REQUESTS[i]).slice(0, 120) : `step ${i}`);
  }
});
