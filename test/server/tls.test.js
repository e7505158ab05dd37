'use strict';
// llhttp-napi/server over TLS (a SecureServer when TLS options are given:
// its reads reach the parser through the socket's push, not the shared read
// buffer) against node:https: the same answers to the same bytes, bodies
// and pipelined requests included. The certificate is made with openssl.
const { test, before } = require('node:test');
const assert = require('node:assert');
const tls = require('node:tls');
const https = require('node:https');
const ours = require('../../lib/server');
const { normalize, echoHandler } = require('../support/both-servers');
const { selfSigned } = require('../support/certificate');

let key;
let cert;

before(() => {
  ({ key, cert } = selfSigned(['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1']));
});

function exchangeTls(port, pieces) {
  return new Promise((resolve, reject) => {
    const socket = tls.connect({ port, host: '127.0.0.1', ca: cert, servername: 'localhost' });
    const chunks = [];
    socket.on('data', (d) => chunks.push(d));
    socket.on('error', (err) => (err.code === 'ECONNRESET' ? null : reject(err)));
    socket.on('close', () => resolve(normalize(Buffer.concat(chunks).toString('latin1'))));
    socket.on('secureConnect', async () => {
      for (const piece of pieces) {
        socket.write(piece);
        await new Promise((r) => setImmediate(r));
      }
    });
  });
}

test('over TLS: the same answers as node:https, bodies and pipelining included', async () => {
  const body = Buffer.alloc(200000, 'b');
  const request = Buffer.concat([
    Buffer.from(`POST /a HTTP/1.1\r\nHost: a\r\nContent-Length: ${body.length}\r\n\r\n`), body,
    Buffer.from('GET /b HTTP/1.1\r\nHost: a\r\n\r\nGET /c HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n'),
  ]);
  const pieces = [request.subarray(0, 100), request.subarray(100, 70000), request.subarray(70000)];
  const results = [];
  for (const create of [(o, h) => https.createServer(o, h), ours.createServer]) {
    const server = create({ key, cert }, echoHandler());
    await new Promise((r) => server.listen(0, '127.0.0.1', r));
    results.push(await exchangeTls(server.address().port, pieces));
    server.close();
  }
  assert.ok(results[1].length > 0);
  assert.strictEqual(results[1], results[0]);
  assert.strictEqual(results[0].split('HTTP/1.1 200 OK').length, 4);
  assert.ok(ours.createServer({ key, cert }) instanceof tls.Server);
});

// TLS failures before HTTP: 'tlsClientError' then 'clientError' (err, socket),
// as node:https, and the socket destroyed without a 'clientError' listener.
async function tlsFailures(create, listen) {
  const server = create({ key, cert }, () => {});
  const events = [];
  server.on('tlsClientError', (err) => events.push(`tlsClientError ${err.code}`));
  if (listen) {
    server.on('clientError', (err, socket) => {
      events.push(`clientError ${err.code} ${socket instanceof tls.TLSSocket}`);
      socket.destroy();
    });
  }
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  const port = server.address().port;
  const closed = (socket) => new Promise((resolve) => {
    socket.on('error', () => {});
    socket.on('close', resolve);
  });
  const plain = require('node:net').connect(port, '127.0.0.1', () => plain.write('GET / HTTP/1.1\r\nHost: a\r\n\r\n'));
  await closed(plain);
  events.push('-');
  // No `ca`: the client refuses the self-signed certificate.
  await closed(tls.connect({ port, host: '127.0.0.1', servername: 'localhost' }));
  await new Promise((r) => setTimeout(r, 50));
  server.close();
  return events;
}

test('over TLS: plaintext and a refused certificate emit tlsClientError and clientError, as node:https', async () => {
  for (const listen of [true, false]) {
    const builtin = await tlsFailures((o, h) => https.createServer(o, h), listen);
    assert.deepStrictEqual(await tlsFailures(ours.createServer, listen), builtin);
    assert.ok(builtin.length >= 3, builtin.join());
  }
});

test('over TLS: an ALPNCallback is the server\'s own choice of protocol (no default ALPNProtocols beside it), as node:https', () => {
  const ALPNCallback = ({ protocols }) => protocols[0];
  for (const create of [(o) => https.createServer(o), ours.createServer]) {
    const server = create({ key, cert, ALPNCallback });
    assert.ok(server instanceof tls.Server);
    server.close();
  }
});
