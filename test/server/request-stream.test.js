'use strict';
// The request is a real Readable to whoever uses it, made on first use
// (llhttp-napi/server builds no stream state for a request nobody reads):
// for await, setEncoding() and 'data', stream.pipeline(), its events in
// node:http's order, and what a late reader finds (ended and closed, as
// node:http's request is by then), against node:http.
const test = require('node:test');
const assert = require('node:assert');
const { Readable, Writable, pipeline } = require('node:stream');
const { FACES, withServer, exchange, normalize } = require('../support/both-servers');
const { fastIncoming } = require('../../lib/node-line');

const GET = 'GET /g HTTP/1.1\r\nHost: a\r\n\r\n';
const POST = 'POST /p HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\n\r\nhello';
const LAST = 'GET /last HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n';

async function same(makeHandler, requests, settleMs = 80) {
  const results = [];
  for (const [, create] of FACES) {
    const log = [];
    const r = await withServer(create, {}, makeHandler(log), (port) => exchange(port, [requests.join('')], { idleMs: 400 }));
    await new Promise((resolve) => setTimeout(resolve, settleMs));
    results.push({ text: normalize(r.text), log });
  }
  assert.deepStrictEqual(results[1], results[0]);
  return results[0];
}

test('a body read through for await, setEncoding() and \'data\', or stream.pipeline()', async () => {
  const readers = {
    async iterate(req) {
      let text = '';
      for await (const chunk of req) text += chunk;
      return text;
    },
    encoding(req) {
      return new Promise((resolve) => {
        let text = '';
        req.setEncoding('utf8');
        req.on('data', (chunk) => { text += typeof chunk + ':' + chunk; });
        req.on('end', () => resolve(text));
      });
    },
    pipeline(req) {
      return new Promise((resolve, reject) => {
        let text = '';
        const sink = new Writable({ write(chunk, encoding, cb) { text += chunk; cb(); } });
        pipeline(req, sink, (err) => (err ? reject(err) : resolve(text)));
      });
    },
  };
  for (const [name, read] of Object.entries(readers)) {
    const r = await same((log) => (req, res) => {
      log.push(req instanceof Readable);
      read(req).then((text) => {
        log.push(`${req.url} ${name} ${JSON.stringify(text)} ${req.complete} ${req.readableEnded}`);
        res.end(text);
      });
    }, [GET, POST, LAST]);
    assert.strictEqual(r.log.length, 6, name);
  }
});

// (Before 24.22 node:http ends an answered request's stream a tick later;
// llhttp-napi/server follows the newer order on every line.)
test('the request\'s events in node:http\'s order around the response\'s', {
  skip: !fastIncoming && 'node:http before 24.22 ends a request a tick later: not followed',
}, async () => {
  await same((log) => (req, res) => {
    const url = req.url;
    for (const event of ['end', 'close', 'aborted']) req.on(event, () => log.push(`${url} req ${event}`));
    res.on('finish', () => log.push(`${url} res finish`));
    res.on('close', () => log.push(`${url} res close`));
    if (req.method === 'POST') req.resume();
    res.end('x');
  }, [GET, POST, LAST]);
});

test('an unread body-less request looked at later: ended and closed, as node:http\'s', async () => {
  await same((log) => (req, res) => {
    const url = req.url;
    res.on('finish', () => log.push(`${url} at finish`, req.complete, req.readableEnded));
    res.end('x');
    setTimeout(() => {
      log.push(`${url} later`, req.complete, req.readableEnded, req.destroyed, req.readable);
      req.on('end', () => log.push(`${url} late end`));
      req.on('close', () => log.push(`${url} late close`));
      req.on('data', () => log.push(`${url} late data`));
    }, 20);
  }, [GET, GET.replace('/g', '/h'), LAST]);
});

// A request nobody reads is drained when its response finishes, also when
// pieces of its body came before that: they fill the Readable's buffer but
// are no read (node:http's IncomingMessage does not call _read() to fill
// itself ahead). Node's test-http-dump-req-when-res-ends.js.
test('an unread request whose body began to arrive is drained by the end of its response', async () => {
  const head = 'POST /p HTTP/1.1\r\nHost: a\r\nContent-Length: 10\r\n\r\n';
  for (const [face, create] of FACES) {
    const log = [];
    const r = await withServer(create, {}, (req, res) => {
      if (req.method === 'GET') return res.end('last');
      req.on('resume', () => log.push('resume'));
      req.on('end', () => log.push('end'));
      // (Answered once the first piece is in the request's buffer.)
      const waitForBody = () => (req.readableLength > 0 ? res.end('ok') : setTimeout(waitForBody, 5));
      waitForBody();
    }, (port) => exchange(port, [head + 'hello', 'world' + LAST], { gapMs: 150 }));
    assert.match(r.text, /^HTTP\/1\.1 200 OK\r\n[^]*\r\n\r\nok(HTTP\/1\.1 200 OK\r\n[^]*\r\n\r\nlast)$/, face);
    assert.deepStrictEqual(log, ['resume', 'end'], face);
  }
});

// A body's reader that falls behind pauses the socket ('pause', as
// node:http's readStop()); a response ended then lets the rest of the body
// be read and dropped, and the connection serves the next request. Node's
// test-http-no-read-no-dump.js.
test('the socket\'s \'pause\' when a body is not read, and the connection goes on once answered', async () => {
  const size = 512 * 1024;
  const head = `POST /p HTTP/1.1\r\nHost: a\r\nContent-Length: ${size}\r\n\r\n`;
  for (const [face, create] of FACES) {
    const log = [];
    const r = await withServer(create, { keepAliveTimeout: 3000 }, (req, res) => {
      if (req.method === 'GET') return res.end('last');
      res.writeHead(200, { 'Content-Length': 2 });
      res.flushHeaders();
      req.on('end', () => log.push('end'));
      req.socket.once('pause', () => {
        log.push('pause');
        res.end('ok');
      });
    }, (port) => exchange(port, [head + 'x'.repeat(size / 2), 'x'.repeat(size / 2) + LAST], { gapMs: 300 }));
    assert.match(r.text, /\r\n\r\nok(HTTP\/1\.1 200 OK\r\n[^]*\r\n\r\nlast)$/, face);
    assert.deepStrictEqual(log, ['pause', 'end'], face);
  }
});

test('each body chunk owns an ArrayBuffer of its length (no slice of a shared pool), as node:http\'s', async () => {
  const body = 'x'.repeat(3000);
  const requests = [
    'POST /small HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\n\r\nhello',
    `POST /mid HTTP/1.1\r\nHost: a\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
    LAST,
  ];
  const seen = await same((log) => (req, res) => {
    req.on('data', (chunk) => log.push([req.url, chunk.byteOffset, chunk.buffer.byteLength === chunk.length]));
    req.on('end', () => res.end('ok'));
  }, requests);
  assert.ok(seen.log.length >= 2);
});
