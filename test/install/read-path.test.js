'use strict';
// The consumed socket's read path (lib/read-path.js): with install(), a
// server's connections read into one buffer shared by all of them. What
// node:http gives away from a read must survive the next read of another
// connection: an upgrade's head bytes, a parse error's rawPacket. The same
// assertions run with the built-in parser.
const assert = require('node:assert/strict');
const http = require('node:http');
const { once } = require('node:events');

const {
  bothWays, assertParser, listen, closeServer, rawRequest, delay,
} = require('../support/http-modes');

// A raw connection to port (latin1); receivedEnd(suffix) waits up to 5 s
// until what it received ends with suffix, and says whether it did.
function rawConnection(port) {
  const client = require('node:net').connect(port, '127.0.0.1');
  client.setEncoding('latin1');
  let received = '';
  client.on('data', (d) => { received += d; });
  client.receivedEnd = async (suffix) => {
    for (const start = Date.now(); !received.endsWith(suffix) && Date.now() - start < 5000;) await delay(2);
    return received.endsWith(suffix);
  };
  return client;
}

// Other connections' requests, to overwrite a shared read buffer.
async function otherTraffic(port, count) {
  for (let i = 0; i < count; i++) {
    const out = await rawRequest(port, [`GET /other-${i}-${'x'.repeat(300)} HTTP/1.1\r\nHost: o\r\nConnection: close\r\n\r\n`]);
    assert.match(out, /^HTTP\/1\.1 200 OK/);
  }
}

bothWays('upgrade: the bytes after the head stay intact after other connections read', async (mode) => {
  const server = http.createServer((req, res) => res.end('ok'));
  server.on('connection', (socket) => assertParser(mode, socket.parser));
  let head = null;
  let upgraded = null;
  let listeners = null;
  server.on('upgrade', (req, socket, bodyHead) => {
    // node:http detached the socket: none of its listeners is left (Node's
    // test-http-connect checks the same).
    listeners = ['close', 'data', 'drain', 'error'].map((e) => socket.listenerCount(e));
    head = bodyHead;
    upgraded = socket;
    socket.write('HTTP/1.1 101 Switching Protocols\r\nUpgrade: echo\r\nConnection: upgrade\r\n\r\n');
    socket.on('data', (d) => socket.write(d));
  });
  const port = await listen(server);
  const client = rawConnection(port);
  try {
    await once(client, 'connect');
    client.write('GET /ws HTTP/1.1\r\nHost: a\r\nUpgrade: echo\r\nConnection: upgrade\r\n\r\nEARLY-BYTES-' + 'e'.repeat(100));
    while (head === null) await delay(5);
    assert.deepEqual(listeners, [0, 0, 0, 0]);
    await otherTraffic(port, 3);
    assert.equal(head.toString('latin1'), 'EARLY-BYTES-' + 'e'.repeat(100));
    // The upgraded connection's later reads reach its 'data' listener whole.
    client.write('after-' + 'z'.repeat(5000));
    assert.ok(await client.receivedEnd('after-' + 'z'.repeat(5000)), 'echoed after the upgrade');
  } finally {
    client.destroy();
    if (upgraded !== null) upgraded.destroy();
    await closeServer(server);
  }
});

bothWays('a parse error: rawPacket holds the bad bytes after other connections read', async (mode) => {
  const server = http.createServer((req, res) => res.end('ok'));
  server.on('connection', (socket) => assertParser(mode, socket.parser));
  let error = null;
  server.on('clientError', (err, socket) => {
    error = err;
    socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n');
  });
  const port = await listen(server);
  try {
    const bad = 'GET / HTTP/1.1\r\nHost: a\r\nBad Header\r\n\r\n' + 'q'.repeat(200);
    const out = await rawRequest(port, [bad]);
    assert.match(out, /^HTTP\/1\.1 400/);
    await otherTraffic(port, 3);
    assert.ok(error !== null);
    assert.equal(error.code, 'HPE_INVALID_HEADER_TOKEN');
    assert.equal(Buffer.from(error.rawPacket).toString('latin1'), bad);
    const descriptor = Object.getOwnPropertyDescriptor(error, 'rawPacket');
    assert.deepEqual({ enumerable: descriptor.enumerable, writable: descriptor.writable, data: 'value' in descriptor },
      { enumerable: true, writable: true, data: true });
  } finally {
    await closeServer(server);
  }
});

bothWays('many connections in turn, pipelined and in pieces: every request whole', async (mode) => {
  const seen = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.setEncoding('latin1');
    req.on('data', (d) => { body += d; });
    req.on('end', () => {
      seen.push(`${req.method} ${req.url} ${req.headers['x-id']} ${body.length}`);
      res.end('ok');
    });
  });
  server.on('connection', (socket) => assertParser(mode, socket.parser));
  const port = await listen(server);
  try {
    const runs = [];
    for (let c = 0; c < 4; c++) {
      const body = 'b'.repeat(1000 * (c + 1));
      const one = `POST /c${c} HTTP/1.1\r\nHost: a\r\nX-Id: ${c}\r\nContent-Length: ${body.length}\r\n\r\n${body}`;
      const last = `GET /c${c}/last HTTP/1.1\r\nHost: a\r\nX-Id: ${c}\r\nConnection: close\r\n\r\n`;
      const text = one + one + last;
      const cut = [Math.floor(text.length / 3), Math.floor(text.length / 2)];
      runs.push(rawRequest(port, [text.slice(0, cut[0]), () => delay(5), text.slice(cut[0], cut[1]),
        () => delay(5), text.slice(cut[1])]));
    }
    const outs = await Promise.all(runs);
    for (const out of outs) assert.equal(out.match(/HTTP\/1\.1 200 OK/g).length, 3);
    seen.sort();
    const want = [];
    for (let c = 0; c < 4; c++) {
      want.push(`GET /c${c}/last ${c} 0`, `POST /c${c} ${c} ${1000 * (c + 1)}`, `POST /c${c} ${c} ${1000 * (c + 1)}`);
    }
    assert.deepEqual(seen, want.sort());
  } finally {
    await closeServer(server);
  }
});

// How often a connection's timeout is refreshed, by mode: node:net refreshes
// it as a read arrives, except the reads the built-in takes in C++, whose
// refresh node:http's onParserExecute does after the parse.
const refreshes = {};
bothWays('a consumed socket\'s timeout is refreshed as often as with the built-in parser', async (mode) => {
  const server = http.createServer((req, res) => res.end(`ok ${req.url}`));
  let count = 0;
  let closed = null;
  server.on('connection', (socket) => {
    assertParser(mode, socket.parser);
    socket.setTimeout(60000);
    const refresh = socket._unrefTimer;
    socket._unrefTimer = function countedRefresh() {
      count++;
      return refresh.call(this);
    };
    closed = once(socket, 'close');
  });
  const port = await listen(server);
  const client = rawConnection(port);
  try {
    await once(client, 'connect');
    for (let i = 0; i < 3; i++) {
      client.write(`GET /r${i} HTTP/1.1\r\nHost: a\r\n\r\n`);
      assert.ok(await client.receivedEnd(`ok /r${i}`), `response ${i}`);
    }
    client.end();
    await closed;
    refreshes[mode] = count;
    if (mode !== 'builtin' && refreshes.builtin !== undefined) assert.equal(count, refreshes.builtin);
    assert.ok(count >= 4, `${count} refreshes`);
  } finally {
    client.destroy();
    await closeServer(server);
  }
});
