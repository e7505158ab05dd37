'use strict';
// A client that ends its side before its answers, asserted alike on
// node:http and llhttp-napi/server: with server.httpAllowHalfOpen the
// answers due still leave and the connection ends after the last; without
// it the socket ends at once. Node's test-http-server.js.
const { test } = require('node:test');
const assert = require('node:assert/strict');

const { FACES, withServer, exchange, normalize } = require('../support/both-servers');

const PIPELINED = 'GET /a HTTP/1.1\r\nHost: a\r\n\r\nGET /b HTTP/1.1\r\nHost: a\r\n\r\n';

async function answers(allowHalfOpen) {
  const results = [];
  for (const [, create] of FACES) {
    const seen = [];
    // (The answers come well after the client's end reached the server: on a
    // loaded machine a few milliseconds are not enough for the end's read.)
    const got = await withServer(create, {}, (req, res) => {
      seen.push(req.url);
      setTimeout(() => res.end(req.url), 100);
    }, async (port, server) => {
      server.httpAllowHalfOpen = allowHalfOpen;
      return exchange(port, [PIPELINED], { end: true });
    });
    results.push({ seen, text: normalize(got.text), closed: got.closed });
  }
  assert.deepStrictEqual(results[1], results[0]);
  return results[0];
}

test('httpAllowHalfOpen: answers due when the client ends its side still leave, then the connection ends, as node:http\'s', async () => {
  const { text } = await answers(true);
  assert.match(text, /\/a[\s\S]*\/b$/);
});

test('without httpAllowHalfOpen the connection ends when the client ends its side, as node:http\'s', async () => {
  const { text } = await answers(false);
  assert.equal(text, '');
});
