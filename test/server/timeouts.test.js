'use strict';
// headersTimeout / requestTimeout set after the server was built follow
// node:http's rule on both servers (lib/connection-rules.js): when
// requestTimeout ends up below headersTimeout the two trade places, so a
// complete head whose body never comes gets 408 after the larger one.
const test = require('node:test');
const assert = require('node:assert');
const { FACES, withServer, exchange, normalize } = require('../support/both-servers');

async function timed(create, setup, pieces) {
  return withServer(create, { connectionsCheckingInterval: 25 }, (req, res) => req.on('end', () => res.end('late')).resume(),
    async (port, server) => {
      setup(server);
      const start = Date.now();
      const r = await exchange(port, pieces, { end: false, idleMs: 2000 });
      return { text: normalize(r.text), closed: r.closed, ms: Date.now() - start };
    });
}

test('timeouts set after construction: the smaller one limits the head, the larger one the request', async () => {
  const late = (server) => {
    server.headersTimeout = 600;
    server.requestTimeout = 200;
  };
  const cases = [
    ['body never complete', ['POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 10\r\n\r\nabc'], 600],
    ['head never complete', ['GET / HTTP/1.1\r\nHost: a\r\n'], 200],
  ];
  for (const [name, pieces, expected] of cases) {
    for (const [face, create] of FACES) {
      const r = await timed(create, late, pieces);
      assert.strictEqual(r.text, 'HTTP/1.1 408 Request Timeout\r\nConnection: close\r\n\r\n', `${face}: ${name}`);
      assert.ok(r.closed, `${face}: ${name}`);
      assert.ok(r.ms >= expected - 5 && r.ms < expected + 400, `${face}: ${name}: ${r.ms} ms, not about ${expected}`);
    }
  }
});
