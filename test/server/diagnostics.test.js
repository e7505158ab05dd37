'use strict';
// The diagnostics_channel messages of a server's requests: a subscriber gets
// the same records, in the same order relative to 'request' and 'finish', on
// node:http and on llhttp-napi/server (requests answered by the handler, a
// pipelined pair, one the server itself refuses), and nothing once it has
// unsubscribed.
const test = require('node:test');
const assert = require('node:assert');
const dc = require('node:diagnostics_channel');
const net = require('node:net');
const { FACES, withServer, exchange, withClose } = require('../support/both-servers');

const CHANNELS = ['http.server.response.created', 'http.server.request.start', 'http.server.response.finish'];

// What a record says, comparable across servers.
function describe(name, message, server, events) {
  const { request, response } = message;
  const out = { name: name.replace('http.server.', ''), fields: Object.keys(message).sort().join(),
    url: request.url, status: response.statusCode, sameRequest: response.req === request,
    headersSent: response.headersSent, finished: response.writableFinished, before: events };
  if ('socket' in message) out.socket = message.socket instanceof net.Socket && message.socket === request.socket;
  if ('server' in message) out.server = message.server === server;
  return out;
}

const REQUESTS = [
  withClose('GET /one HTTP/1.1\r\nHost: a\r\n\r\n'),
  'POST /two HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\n\r\nabcGET /three HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n',
  withClose('GET /no-host HTTP/1.1\r\n\r\n'),
];

// node:http's handler events seen at each publication, and what each
// publication said: [{name, ..., before: [events]}].
async function records(create) {
  const events = [];
  const log = [];
  const subscribers = CHANNELS.map((name) => [name, (message) => log.push([name, message, events.slice()])]);
  for (const [name, subscriber] of subscribers) dc.subscribe(name, subscriber);
  const handler = (req, res) => {
    events.push(`request ${req.url}`);
    res.on('finish', () => events.push(`finish ${req.url}`));
    req.resume();
    req.on('end', () => res.end(req.url));
  };
  let server;
  try {
    await withServer(create, {}, handler, async (port, s) => {
      server = s;
      for (const request of REQUESTS) await exchange(port, [request], { end: false });
    });
  } finally {
    for (const [name, subscriber] of subscribers) dc.unsubscribe(name, subscriber);
  }
  return log.map(([name, message, before]) => describe(name, message, server, before));
}

test('the same diagnostics_channel records on both servers', async () => {
  const [builtin, ours] = [await records(FACES[0][1]), await records(FACES[1][1])];
  assert.ok(builtin.length >= 8, `node:http published ${builtin.length} records`);
  assert.ok(builtin.some((r) => r.url === '/no-host' && r.status === 400 && r.name === 'response.finish'));
  assert.deepStrictEqual(ours, builtin);
});

test('nothing is published once the subscribers are gone', async () => {
  for (const [name, create] of FACES) {
    const log = [];
    const subscriber = (message) => log.push(message);
    dc.subscribe('http.server.request.start', subscriber);
    dc.unsubscribe('http.server.request.start', subscriber);
    await withServer(create, {}, (req, res) => res.end(), (port) => exchange(port, [REQUESTS[0]], { end: false }));
    assert.deepStrictEqual(log, [], name);
  }
});


// perf_hooks' 'http' entries: an observer of type 'http' (or of several
// types with 'http' among them) gets one 'HttpRequest' entry per request,
// with node:http's detail, in the same list as its other entries; none
// after it disconnected. Node's test-http-perf_hooks.js.
test('perf_hooks\' \'http\' entries of the server\'s requests, as node:http\'s', async () => {
  const { PerformanceObserver, PerformanceEntry, performance } = require('node:perf_hooks');
  const results = [];
  for (const [face, create] of FACES) {
    const lists = [];
    const observer = new PerformanceObserver((list) => lists.push(list.getEntries()));
    observer.observe({ entryTypes: ['http', 'mark'] });
    await withServer(create, {}, (req, res) => {
      res.setHeader('X-Answer', req.url);
      if (req.url === '/teapot') res.writeHead(418, 'Short and stout');
      res.end('ok');
    }, async (port) => {
      await exchange(port, [withClose('GET /one?q=1 HTTP/1.1\r\nHost: a\r\nX-Mine: 1\r\n\r\n')]);
      performance.mark('between');
      await exchange(port, [withClose('POST /teapot HTTP/1.1\r\nHost: a\r\nContent-Length: 2\r\n\r\nhi')]);
      await new Promise((resolve) => setImmediate(resolve));
      observer.disconnect();
      await exchange(port, [withClose('GET /unseen HTTP/1.1\r\nHost: a\r\n\r\n')]);
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    performance.clearMarks('between');
    const entries = lists.flat();
    for (const entry of entries) {
      assert.ok(entry instanceof PerformanceEntry, face);
      assert.strictEqual(typeof entry.startTime, 'number', face);
      assert.ok(entry.duration >= 0, face);
    }
    const times = entries.map((entry) => entry.startTime);
    assert.deepStrictEqual(times, [...times].sort((a, b) => a - b), face);
    results.push(entries.map((entry) => {
      const json = entry.toJSON();
      return { name: entry.name, type: entry.entryType, keys: Object.keys(json).sort().join(), detail: entry.detail };
    }));
  }
  assert.deepStrictEqual(results[1], results[0]);
  assert.deepStrictEqual(results[0].map((entry) => entry.name), ['HttpRequest', 'between', 'HttpRequest']);
  assert.strictEqual(results[0][2].detail.res.statusMessage, 'Short and stout');
});
