'use strict';
// llhttp-napi/server takes node:http's options with node:http's checks,
// errors and defaults: the same throw for the same bad options, the same
// values for good ones, and the settable limits honoured as node:http
// honours them. An Express app is refused at once, not at its first request.
const test = require('node:test');
const assert = require('node:assert');
const http = require('node:http');
const https = require('node:https');
const ours = require('../../lib/server');
const { FACES, withServer, exchange } = require('../support/both-servers');
const { limitsHeaderPairs } = require('../../lib/node-line');

function outcome(fn) {
  try {
    fn();
    return 'no throw';
  } catch (err) {
    return { name: err.name, code: err.code, message: err.message };
  }
}

const BAD = [
  'options', 5, true,
  { httpValidation: 'bogus' }, { httpValidation: 'strict', insecureHTTPParser: true },
  { maxHeaderSize: -1 }, { maxHeaderSize: 'x' }, { requestTimeout: '1' }, { requestTimeout: 1.5 },
  { headersTimeout: -1 }, { headersTimeout: 400000 }, { requestTimeout: 1000, headersTimeout: 2000 },
  { keepAliveTimeout: -1 }, { keepAliveTimeoutBuffer: 'x' }, { connectionsCheckingInterval: 'x' },
  { insecureHTTPParser: 1 }, { requireHostHeader: 'yes' }, { joinDuplicateHeaders: 1 },
  { rejectNonStandardBodyWrites: 1 }, { optimizeEmptyRequests: 1 }, { shouldUpgradeCallback: 1 },
  { highWaterMark: 'x' }, { keepAliveInitialDelay: 'x' },
];

test('bad options: the same error as node:http', () => {
  for (const options of BAD) {
    const expected = outcome(() => http.createServer(options));
    assert.deepStrictEqual(outcome(() => ours.createServer(options)), expected, JSON.stringify(options));
    assert.deepStrictEqual(outcome(() => new ours.Server(options)), expected, JSON.stringify(options));
  }
});

const STORED = ['maxHeaderSize', 'insecureHTTPParser', 'httpValidation', 'requestTimeout', 'headersTimeout',
  'keepAliveTimeout', 'keepAliveTimeoutBuffer', 'connectionsCheckingInterval', 'requireHostHeader',
  'joinDuplicateHeaders', 'rejectNonStandardBodyWrites', 'timeout', 'maxHeadersCount', 'maxRequestsPerSocket',
  'httpAllowHalfOpen', 'noDelay', 'keepAlive', 'keepAliveInitialDelay', 'highWaterMark'];

function stored(server) {
  const out = {};
  for (const name of STORED) out[name] = server[name];
  out.shouldUpgradeCallback = typeof server.shouldUpgradeCallback;
  return out;
}

test('good options: the values node:http keeps, its defaults included', () => {
  for (const options of [undefined, null, {}, { requestTimeout: 0 }, { requestTimeout: 5000 },
    { headersTimeout: 0, requestTimeout: 0 }, { maxHeaderSize: 1024, requireHostHeader: false, joinDuplicateHeaders: true,
      keepAliveTimeout: 10, keepAliveTimeoutBuffer: 0, connectionsCheckingInterval: 7, insecureHTTPParser: true,
      rejectNonStandardBodyWrites: true, noDelay: false, keepAlive: true, keepAliveInitialDelay: 1000,
      highWaterMark: 1024 }]) {
    assert.deepStrictEqual(stored(ours.createServer(options)), stored(http.createServer(options)), JSON.stringify(options));
  }
});

test('a SecureServer with no arguments, as https.Server', () => {
  assert.deepStrictEqual(outcome(() => new ours.SecureServer()), outcome(() => new https.Server()));
  // (https.Server leaves maxRequestsPerSocket undefined: no limit, as our 0.)
  const { maxRequestsPerSocket, ...rest } = stored(new ours.SecureServer());
  assert.strictEqual(maxRequestsPerSocket, 0);
  assert.deepStrictEqual({ ...rest, maxRequestsPerSocket: undefined }, stored(new https.Server()));
  assert.deepStrictEqual(outcome(() => new ours.SecureServer('x')), outcome(() => new https.Server('x')));
});

const headLines = (count) => 'GET / HTTP/1.1\r\nHost: a\r\nConnection: close\r\n' + 'X-A: 1\r\n'.repeat(count - 2) + '\r\n';

async function statusLines(setup, requests) {
  const out = [];
  for (const [, create] of FACES) {
    out.push(await withServer(create, {}, (req, res) => res.end(String(req.rawHeaders.length / 2)), async (port, server) => {
      setup(server);
      const lines = [];
      for (const request of requests) lines.push((await exchange(port, [request])).text.split('\r\n')[0]);
      return lines;
    }));
  }
  assert.deepStrictEqual(out[1], out[0]);
  return out[0];
}

// (20's node:http keeps the first fields and answers 200: statusLines()
// asserts that both servers answer alike on every line.)
test('maxHeadersCount, and the header-field limit without it, as node:http (431 beyond)', async () => {
  const beyond = limitsHeaderPairs ? 'HTTP/1.1 431 Request Header Fields Too Large' : 'HTTP/1.1 200 OK';
  assert.deepStrictEqual(await statusLines(() => {}, [headLines(1000), headLines(1001)]), ['HTTP/1.1 200 OK', beyond]);
  assert.deepStrictEqual(await statusLines((server) => { server.maxHeadersCount = 10; }, [headLines(10), headLines(11)]),
    ['HTTP/1.1 200 OK', beyond]);
});

test('maxRequestsPerSocket and timeout set after construction, as node:http', async () => {
  const pipelined = 'GET / HTTP/1.1\r\nHost: a\r\n\r\n'.repeat(3);
  const answers = [];
  for (const [, create] of FACES) {
    answers.push(await withServer(create, {}, (req, res) => res.end('ok'), async (port, server) => {
      server.maxRequestsPerSocket = 2;
      const r = await exchange(port, [pipelined], { end: false, idleMs: 500 });
      server.setTimeout(100);
      const started = Date.now();
      const silent = await exchange(port, [''], { end: false, idleMs: 2000 });
      return { statuses: r.text.match(/HTTP\/1.1 \d+/g), closed: silent.closed, timedOut: Date.now() - started < 1000 };
    }));
  }
  assert.deepStrictEqual(answers[1], answers[0]);
  assert.deepStrictEqual(answers[0], { statuses: ['HTTP/1.1 200', 'HTTP/1.1 200', 'HTTP/1.1 503'], closed: true, timedOut: true });
});

test('the IncomingMessage and ServerResponse options: subclasses of the exported bases make every message', async () => {
  class Request extends ours.IncomingMessage {
    get who() { return `${this.method} ${this.url}`; }
  }
  class Response extends ours.ServerResponse {
    json(value) { this.setHeader('Content-Type', 'application/json'); this.end(JSON.stringify(value)); }
  }
  const seen = [];
  const r = await withServer(ours.createServer, { IncomingMessage: Request, ServerResponse: Response }, (req, res) => {
    seen.push(req instanceof Request, res instanceof Response, req.who);
    res.json({ url: req.url });
  }, (port) => exchange(port, ['GET /a HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n']));
  assert.deepStrictEqual(seen, [true, true, 'GET /a']);
  assert.match(r.text, /\{"url":"\/a"\}$/);
});

test('an IncomingMessage / ServerResponse option that is not ours is refused at once, not at the first request', () => {
  const http = require('node:http');
  class Theirs extends http.IncomingMessage {}
  for (const options of [{ IncomingMessage: Theirs }, { ServerResponse: http.ServerResponse }, { IncomingMessage: 1 }]) {
    assert.throws(() => ours.createServer(options), { code: 'ERR_INVALID_ARG_VALUE', name: 'TypeError' });
  }
  ours.createServer({ IncomingMessage: ours.IncomingMessage, ServerResponse: ours.ServerResponse }).close();
});

// The highWaterMark option sizes the request's buffer and the response's,
// as the socket's (node:http reads res[kHighWaterMark] of _http_outgoing;
// Node's test-http-server-options-highwatermark.js).
test('the highWaterMark option: the request\'s and the response\'s high-water marks, as node:http', async () => {
  const { kHighWaterMark } = require('_http_outgoing');
  for (const options of [{ highWaterMark: 131072 }, { highWaterMark: 1000 }, {}]) {
    const seen = [];
    for (const [face, create] of FACES) {
      await withServer(create, options, (req, res) => {
        seen.push([face, req.readableHighWaterMark, req._readableState.highWaterMark, res.writableHighWaterMark,
          res[kHighWaterMark]]);
        res.end();
      }, (port) => exchange(port, ['GET / HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n']));
    }
    assert.deepStrictEqual(seen[1].slice(1), seen[0].slice(1), JSON.stringify(options));
    if (options.highWaterMark) assert.deepStrictEqual(seen[0].slice(1), Array(4).fill(options.highWaterMark));
  }
});
