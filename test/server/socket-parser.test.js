'use strict';
// What modules read of node:http's connection on the socket, asserted alike
// on node:http and llhttp-napi/server: socket.parser's `incoming` (the
// request being read, let go once it is answered and has ended), the
// parser freed once when the socket closes (parser.free(), then no
// socket.parser), and res._send() (bytes as they are, after the head).
// Node's test-http-server-keepalive-end.js,
// test-http-server-connection-list-when-close.js and test-http-1.0.js.
const { test } = require('node:test');
const assert = require('node:assert/strict');

const { FACES, withServer, exchange, normalize, withClose } = require('../support/both-servers');

async function each(handler, requests) {
  const results = [];
  for (const [face, create] of FACES) {
    const log = [];
    const texts = [];
    await withServer(create, {}, (req, res) => handler(req, res, log), async (port) => {
      for (const request of requests) texts.push(normalize((await exchange(port, [request])).text));
    });
    results.push({ face, log, texts });
  }
  assert.deepStrictEqual(results[1].log, results[0].log);
  assert.deepStrictEqual(results[1].texts, results[0].texts);
  return results[0];
}

test('socket.parser.incoming is the request until it is answered and has ended, as node:http\'s', async () => {
  const { log } = await each((req, res, log) => {
    const parser = req.socket.parser;
    log.push(req.url, parser.incoming === req);
    if (req.url === '/read') {
      req.on('end', () => {
        log.push('end', parser.incoming === req);
        process.nextTick(() => log.push('tick after end', parser.incoming));
      });
    }
    res.end('hello');
    res.on('finish', () => setImmediate(() => log.push('after finish', parser.incoming)));
  }, [
    'POST /read HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\n\r\nhello',
    withClose('GET /unread HTTP/1.1\r\nHost: a\r\n\r\n'),
  ]);
  assert.deepStrictEqual(log.slice(0, 4), ['/read', true, 'end', true]);
  assert.ok(log.includes('tick after end'));
});

test('the socket\'s parser is freed once when it closes, and leaves the socket, as node:http\'s', async () => {
  const { log } = await each((req, res, log) => {
    const socket = req.socket;
    const parser = socket.parser;
    const free = parser.free;
    let frees = 0;
    parser.free = function () {
      frees++;
      return free.call(this);
    };
    socket.on('close', () => {
      log.push('frees', frees, 'socket.parser', socket.parser, 'incoming', parser.incoming);
      // (node:http's pool keeps the parser for the next connection.)
      delete parser.free;
    });
    res.end('ok');
  }, [withClose('GET / HTTP/1.1\r\nHost: a\r\n\r\n')]);
  assert.deepStrictEqual(log, ['frees', 1, 'socket.parser', null, 'incoming', null]);
});

test('res._send() writes bytes as they are, after the head, as node:http\'s', async () => {
  const { texts } = await each((req, res, log) => {
    res.sendDate = false;
    res.writeHead(200, { 'Content-Type': 'text/plain' });
    if (req.url === '/raw') {
      log.push(res._send('raw'));
    } else {
      res.write('Hello, ');
      res._send('');
      res.write('world!');
      res._send('', () => log.push('callback'));
    }
    res.end();
  }, [
    'GET /raw HTTP/1.0\r\n\r\n',
    withClose('GET /chunks HTTP/1.1\r\nHost: a\r\n\r\n'),
  ]);
  assert.match(texts[0], /\r\n\r\nraw$/);
  assert.match(texts[1], /Transfer-Encoding: chunked\r\n\r\n[\s\S]*world!\r\n0\r\n\r\n$/);
});
