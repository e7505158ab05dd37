'use strict';
// node:https server and client over TLS, with the built-in parser and after
// install(). The certificate is made for the test with openssl.
const { before } = require('node:test');
const assert = require('node:assert/strict');
const https = require('node:https');
const tls = require('node:tls');
const { once } = require('node:events');

const {
  bothWays, assertParser, parserOf, listen, closeServer, bodyOf,
} = require('../support/http-modes');
const { selfSigned } = require('../support/certificate');

let key;
let cert;

before(() => {
  ({ key, cert } = selfSigned());
});

bothWays('https server and client: bodies, keep-alive, headers', async (mode) => {
  const server = https.createServer({ key, cert }, async (req, res) => {
    assertParser(mode, req.socket.parser);
    assert.equal(req.socket.encrypted, true);
    const body = await bodyOf(req);
    res.setHeader('x-len', String(body.length));
    res.end(`${req.method} ${req.url} ${req.headers['x-a']} ${body.slice(0, 10)}`);
  });
  const port = await listen(server);
  const agent = new https.Agent({ keepAlive: true, maxSockets: 1, ca: cert });
  try {
    const sockets = new Set();
    for (const [method, body] of [['GET', ''], ['POST', 'hello'], ['PUT', 'y'.repeat(200000)]]) {
      const req = https.request({ host: '127.0.0.1', port, method, path: '/tls', agent, headers: { 'x-a': 'A' } });
      const used = parserOf(req);
      req.end(body);
      const [res] = await once(req, 'response');
      assertParser(mode, used.parser);
      sockets.add(res.socket);
      assert.equal(res.headers['x-len'], String(body.length));
      assert.equal(await bodyOf(res), `${method} /tls A ${body.slice(0, 10)}`);
    }
    assert.equal(sockets.size, 1);
  } finally {
    agent.destroy();
    await closeServer(server);
  }
});

bothWays('https: malformed request over TLS gets 400', async (mode) => {
  const server = https.createServer({ key, cert }, (req, res) => res.end('ok'));
  let parser;
  // lib's own 'secureConnection' listener, added first, attaches the parser.
  server.on('secureConnection', (socket) => { parser = socket.parser; });
  const port = await listen(server);
  try {
    const socket = tls.connect({ host: '127.0.0.1', port, ca: cert, servername: 'localhost' });
    await once(socket, 'secureConnect');
    socket.end('GET / HTTP/1.1\r\nHost: x\r\nBad Header: 1\r\n\r\n');
    socket.setEncoding('latin1');
    let out = '';
    for await (const chunk of socket) out += chunk;
    assert.equal(out, 'HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n');
    assertParser(mode, parser);
  } finally {
    await closeServer(server);
  }
});

bothWays('https: upgrade head bytes intact over TLS', async (mode) => {
  const server = https.createServer({ key, cert }, (req, res) => res.end('ok'));
  const heads = [];
  server.on('upgrade', (req, socket, head) => {
    heads.push(head.toString('latin1'));
    socket.end('HTTP/1.1 101 Switching Protocols\r\nUpgrade: t\r\nConnection: Upgrade\r\n\r\nafter\xff', 'latin1');
  });
  const port = await listen(server);
  try {
    const req = https.request({
      host: '127.0.0.1', port, ca: cert, headers: { connection: 'upgrade', upgrade: 't' },
    });
    const used = parserOf(req);
    req.end();
    const [res, socket, head] = await once(req, 'upgrade');
    assertParser(mode, used.parser);
    assert.equal(res.statusCode, 101);
    let rest = head.toString('latin1');
    socket.setEncoding('latin1');
    for await (const chunk of socket) rest += chunk;
    assert.equal(rest, 'after\xff');
    assert.deepEqual(heads, ['']);
  } finally {
    await closeServer(server);
  }
});
