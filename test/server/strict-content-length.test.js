'use strict';
// res.strictContentLength, asserted alike on node:http and
// llhttp-napi/server: with it on, a body may not go beyond the head's
// Content-Length (write() throws ERR_HTTP_CONTENT_LENGTH_MISMATCH) nor end
// short of it (end() throws), and a head without a length (chunked), a
// HEAD answer or a removed length are not held to one. Node's
// test-http-content-length-mismatch.js.
const { test } = require('node:test');
const assert = require('node:assert/strict');

const { FACES, withServer, exchange, normalize, withClose } = require('../support/both-servers');

// What each step did: 'ok', or the error's code and message.
function attempt(log, step) {
  try {
    step();
    log.push('ok');
  } catch (err) {
    log.push(`${err.code}: ${err.message}`);
  }
}

const CASES = {
  '/more'(res, log) {
    res.setHeader('Content-Length', 5);
    attempt(log, () => res.write('hello'));
    attempt(log, () => res.write('a'));
    attempt(log, () => res.end());
  },
  '/fewer'(res, log) {
    res.setHeader('Content-Length', 5);
    attempt(log, () => res.write('a'));
    attempt(log, () => res.end('aaa'));
    attempt(log, () => res.end(Buffer.from('aaaa')));
  },
  '/none-at-end'(res, log) {
    res.setHeader('Content-Length', '5');
    attempt(log, () => res.end());
    log.push(res.headersSent, res.writableEnded);
    attempt(log, () => res.end('12345'));
  },
  '/string-length'(res, log) {
    res.setHeader('content-length', '5');
    attempt(log, () => res.end('12345'));
  },
  '/given-to-end'(res, log) {
    res.setHeader('Content-Length', 3);
    attempt(log, () => res.end('four'));
    attempt(log, () => res.end('abc'));
  },
  '/chunked'(res, log) {
    attempt(log, () => res.write('helloaa'));
    attempt(log, () => res.end('ending'));
  },
  '/removed'(res, log) {
    res.writeHead(200, { 'Content-Length': 2 });
    attempt(log, () => res.end('a'));
    attempt(log, () => res.end('ab'));
  },
  '/off'(res, log) {
    res.strictContentLength = false;
    res.setHeader('Content-Length', 2);
    attempt(log, () => res.write('abc'));
    attempt(log, () => res.end());
  },
};

test('strictContentLength: a body beyond or short of the Content-Length throws, as node:http\'s', async () => {
  const results = [];
  for (const [face, create] of FACES) {
    const log = [];
    const texts = [];
    await withServer(create, {}, (req, res) => {
      log.push(req.method + ' ' + req.url, res.strictContentLength);
      res.strictContentLength = true;
      const path = req.url === '/head' ? '/more' : req.url;
      if (req.url === '/removed') {
        res.removeHeader('Content-Length');
      }
      CASES[path](res, log);
    }, async (port) => {
      for (const path of [...Object.keys(CASES), '/head']) {
        const method = path === '/head' ? 'HEAD' : 'GET';
        texts.push(normalize((await exchange(port, [withClose(`${method} ${path} HTTP/1.1\r\nHost: a\r\n\r\n`)])).text));
      }
    });
    results.push({ face, log, texts });
  }
  assert.deepStrictEqual(results[1].log, results[0].log);
  assert.deepStrictEqual(results[1].texts, results[0].texts);
  assert.ok(results[0].log.some((entry) => /^ERR_HTTP_CONTENT_LENGTH_MISMATCH/.test(entry)));
});
