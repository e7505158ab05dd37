'use strict';
// llhttp-napi/server against node:http: the same requests give the same
// bytes back (Date aside) and hand the handler the same request — bodies
// byte-exact from 0 B to 1 MiB, sized and chunked, across read splits;
// pipelining; the headers object for duplicates, set-cookie, cookie and
// joinDuplicateHeaders; HEAD, HTTP/1.0, Connection: close, 100-continue,
// requireHostHeader, maxRequestsPerSocket, maxHeaderSize, chunked answers
// and header validation.
const test = require('node:test');
const assert = require('node:assert');
const http = require('node:http');
const net = require('node:net');
const { FACES, withServer, exchange, normalize, echoHandler, checksum, withClose, listen } = require('../support/both-servers');

// The same exchange against both; returns node:http's result after asserting
// ours equals it.
async function same(options, handler, pieces, exchangeOptions) {
  const results = [];
  for (const [, create] of FACES) {
    const log = [];
    const h = handler === null ? echoHandler(log) : handler(log);
    const r = await withServer(create, options, h, (port) => exchange(port, pieces, exchangeOptions));
    results.push({ text: normalize(r.text), closed: r.closed, log: JSON.parse(JSON.stringify(log)) });
  }
  assert.deepStrictEqual(results[1], results[0]);
  return results[0];
}

function pattern(size) {
  const b = Buffer.allocUnsafe(size);
  for (let i = 0; i < size; i++) b[i] = (i * 31 + (i >> 8)) & 0xff;
  return b;
}

function chunked(body, pieceSize) {
  const parts = [];
  for (let i = 0; i < body.length; i += pieceSize) {
    const piece = body.subarray(i, i + pieceSize);
    parts.push(Buffer.from(piece.length.toString(16) + ';ext=1\r\n'), piece, Buffer.from('\r\n'));
  }
  parts.push(Buffer.from('0\r\nX-Trailer: t\r\n\r\n'));
  return Buffer.concat(parts);
}

function split(bytes, pieceSize) {
  const out = [];
  for (let i = 0; i < bytes.length; i += pieceSize) out.push(bytes.subarray(i, i + pieceSize));
  return out.length ? out : [bytes];
}

test('bodies arrive byte-exact, 0 B to 1 MiB, sized and chunked, across read splits', async () => {
  for (const size of [0, 1, 1000, 16384, 65537, 1 << 20]) {
    const body = pattern(size);
    const sized = Buffer.concat([Buffer.from(`POST /s HTTP/1.1\r\nHost: a\r\nContent-Length: ${size}\r\n\r\n`), body]);
    const chunkedReq = Buffer.concat([Buffer.from('POST /c HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n'),
      chunked(body, 4093)]);
    for (const request of [sized, chunkedReq]) {
      const splits = size <= 1000 ? [request.length, 1, 13] : [request.length, 65536, 7001];
      for (const piece of splits) {
        const r = await same({}, null, split(request, piece));
        assert.strictEqual(r.log.length, 1);
        assert.strictEqual(r.log[0].length, size);
        assert.strictEqual(r.log[0].sum, checksum(body));
        if (request === chunkedReq) assert.deepStrictEqual(r.log[0].trailers, { 'x-trailer': 't' });
      }
    }
  }
});

test('pipelined requests are answered in order, in one read and split', async () => {
  const parts = [];
  for (let i = 0; i < 20; i++) {
    if (i === 19) parts.push(`GET /${i} HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n`);
    else if (i % 3 === 0) parts.push(`POST /${i} HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\n\r\nabc`);
    else if (i % 3 === 1) parts.push(`GET /${i} HTTP/1.1\r\nHost: a\r\n\r\n`);
    else parts.push(`POST /${i} HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nxy\r\n0\r\n\r\n`);
  }
  const all = Buffer.from(parts.join(''));
  // Answers late for even requests: the odd ones wait their turn.
  const handler = (log) => (req, res) => {
    log.push(req.url);
    req.resume();
    req.on('end', () => setTimeout(() => res.end(`answer ${req.url}`), Number(req.url.slice(1)) % 2 ? 0 : 5));
  };
  for (const piece of [all.length, 50]) {
    // (Not half-closed: node:http ends a connection at the client's end.
    // The last request closes it.)
    const r = await same({}, handler, split(all, piece), { end: false });
    const order = [...r.text.matchAll(/answer (\/\d+)/g)].map((m) => m[1]);
    assert.deepStrictEqual(order, parts.map((_, i) => `/${i}`));
  }
});

test('a handler reading its request\'s headers after the next requests began sees its own', async () => {
  // (Host and Expect in unusual cases: the server finds them in any case.)
  const heads = [
    'GET /0 HTTP/1.1\r\nHost: a\r\nX-Id: zero\r\n\r\n',
    'POST /1 HTTP/1.1\r\nhOST: b\r\nX-Id: one\r\nContent-Length: 3\r\n\r\nabc',
    'GET /2 HTTP/1.1\r\nHOST: c\r\nx-id: two\r\nEXPECT: 100-continue\r\n\r\n',
    'GET /3 HTTP/1.1\r\nhost: d\r\nConnection: close\r\n\r\n',
  ];
  const all = Buffer.from(heads.join(''));
  // Reads nothing of its request until all of them were parsed.
  const handler = (log) => (req, res) => {
    req.resume();
    setTimeout(() => {
      log.push([req.url, req.headers, req.rawHeaders]);
      res.end(`${req.url} ${req.headers.host} ${req.headers['x-id']}`);
    }, 20);
  };
  for (const piece of [all.length, 30]) {
    const r = await same({}, handler, split(all, piece), { end: false });
    assert.deepStrictEqual(r.log.map(([url, headers]) => [url, headers.host, headers['x-id']]),
      [['/0', 'a', 'zero'], ['/1', 'b', 'one'], ['/2', 'c', 'two'], ['/3', 'd', undefined]]);
  }
});

test('a long head and trailers that arrive in pieces: the same url, rawHeaders, headers, trailers and their Distinct objects as node:http', async () => {
  const lines = Array.from({ length: 45 }, (_, i) => `X-H${i}: v${i}\r\n`).join('');
  const url = `/${'p'.repeat(300)}?q=1`;
  const trailers = 'X-T1: a\r\nX-T2: b\r\nX-T1: c\r\n\r\n';
  const request = `POST ${url} HTTP/1.1\r\nHost: a\r\n${lines}Transfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n${trailers}` +
    'GET /next HTTP/1.1\r\nHost: b\r\nConnection: close\r\n\r\n';
  const handler = (log) => (req, res) => {
    req.resume();
    req.on('end', () => {
      log.push([req.url, req.rawHeaders, req.headers, req.rawTrailers, req.trailers,
        { ...req.headersDistinct }, { ...req.trailersDistinct }]);
      res.end('ok');
    });
  };
  for (const options of [{}, { maxHeadersCount: 10 }]) {
    for (const piece of [request.length, 9, 40]) {
      const r = await same(options, handler, split(Buffer.from(request), piece), { end: false });
      assert.strictEqual(r.log.length, 2);
      assert.strictEqual(r.log[0][0], url);
    }
  }
});

const HEADS = [
  'GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\nUser-Agent: x\r\nuser-agent: y\r\n\r\n',
  'GET / HTTP/1.1\r\nHost: a\r\nSet-Cookie: a=1\r\nset-cookie: b=2\r\nCookie: c=1\r\nCOOKIE: d=2\r\n\r\n',
  'GET / HTTP/1.1\r\nHost: a\r\nX-Custom: 1\r\nx-custom: 2\r\nAccept: a\r\nACCEPT: b\r\nAuthorization: t1\r\nAuthorization: t2\r\n\r\n',
  'GET / HTTP/1.1\r\nHost: a\r\nContent-Type: a\r\nContent-Type: b\r\nFrom: f\r\nFrom: g\r\nVary: v\r\nVary: w\r\n\r\n',
  'GET / HTTP/1.1\r\nHost: a\r\nX-Empty:\r\nX-Spaces:   s  \r\nX-Latin: \xe9t\xe9\r\n__proto__: p\r\nconstructor: c\r\n\r\n',
  'GET / HTTP/1.1\r\nHost: a\r\nPragma: a\r\npragma: b\r\nDNT: 1\r\ndnt: 2\r\nX-Forwarded-Proto: http\r\n' +
    'X-FORWARDED-PROTO: https\r\nTE: x\r\nte: y\r\nETag: e1\r\netag: e2\r\nHOST: b\r\nSec-Fetch-User: ?1\r\n\r\n',
];

for (const join of [undefined, true]) {
  test(`the headers object is node:http's for the same bytes (joinDuplicateHeaders ${join})`, async () => {
    for (const head of HEADS) {
      const r = await same(join === undefined ? {} : { joinDuplicateHeaders: join }, null, [Buffer.from(head, 'latin1')]);
      assert.strictEqual(r.log.length, 1);
    }
  });
}

test('HEAD, HTTP/1.0, Connection: close, chunked answers and explicit lengths', async () => {
  const handler = () => (req, res) => {
    if (req.url === '/chunked') {
      // (Writes of one tick leave as one chunk from 24 on: one a tick.)
      res.write('part one, ');
      setImmediate(() => {
        res.write(Buffer.from('part two'));
        setImmediate(() => res.end());
      });
    } else if (req.url === '/length') {
      res.writeHead(201, 'Made', { 'Content-Length': 5, 'X-A': ['1', '2'] }).end('hello');
    } else if (req.url === '/trailers') {
      res.setHeader('Trailer', 'X-T');
      res.write('body');
      res.addTrailers({ 'X-T': 'v' });
      res.end();
    } else if (req.url === '/204') {
      res.statusCode = 204;
      res.end();
    } else {
      res.setHeader('X-Multi', ['a', 'b']);
      res.end('plain');
    }
  };
  const requests = [
    'GET /chunked HTTP/1.1\r\nHost: a\r\n\r\n',
    'HEAD /chunked HTTP/1.1\r\nHost: a\r\n\r\n',
    'HEAD / HTTP/1.1\r\nHost: a\r\n\r\n',
    'GET /length HTTP/1.1\r\nHost: a\r\n\r\n',
    'GET /trailers HTTP/1.1\r\nHost: a\r\n\r\n',
    'GET /204 HTTP/1.1\r\nHost: a\r\n\r\n',
    'GET / HTTP/1.0\r\n\r\n',
    'GET / HTTP/1.0\r\nConnection: keep-alive\r\n\r\n',
    'GET / HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n',
  ];
  for (const request of requests) {
    // (An answer after the client's end is lost with node:http: not ended.
    // A request that closes the connection ends each exchange.)
    const wait = { end: false };
    await same({}, handler, [withClose(request)], wait);
    // The next request on the same connection, when it stays open.
    await same({}, handler, [request + 'GET /length HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n'], wait);
  }
});

// The server remembers the lines of the header names and values handlers
// give: a line given again still says what it said (framing, the
// connection's end), and a value that changed is checked again.
test('the same headers answer after answer: framing, Connection and checks as on the first', async () => {
  const handler = (log) => (req, res) => {
    try {
      if (req.url === '/chunked') {
        res.writeHead(200, { 'Transfer-Encoding': 'chunked', 'Content-Type': 'text/plain' });
        res.write('ab');
        res.end();
      } else if (req.url === '/sized') {
        res.writeHead(200, { 'Content-Length': 2, 'Content-Type': 'text/plain' }).end('ok');
      } else if (req.url === '/bad') {
        res.writeHead(200, { 'Content-Type': 'text/plain\r\nX-Injected: 1', 'Content-Length': 2 }).end('no');
      } else {
        res.writeHead(200, { Connection: 'close', 'Content-Length': 2, 'Content-Type': 'text/plain' }).end('by');
      }
    } catch (err) {
      log.push(err.code);
      res.statusCode = 500;
      res.end();
    }
  };
  const requests = ['/chunked', '/sized', '/bad', '/chunked', '/sized', '/close', '/never']
    .map((url) => `GET ${url} HTTP/1.1\r\nHost: a\r\n\r\n`);
  for (let round = 0; round < 2; round++) {
    const r = await same({}, handler, requests, { end: false, gapMs: 5 });
    assert.strictEqual(r.text.match(/Transfer-Encoding/g).length, 2);
    assert.ok(r.closed && !r.text.includes('/never'));
    assert.deepStrictEqual(r.log, ['ERR_INVALID_CHAR']);
  }
});

test('Expect: 100-continue: automatic 100, checkContinue, other expectations, HTTP/1.0', async () => {
  const body = 'POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 4\r\nExpect: 100-continue\r\n\r\n';
  await same({}, null, [body, 'data'], { gapMs: 20 });
  await same({}, null, ['POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 0\r\nExpect: 42-x\r\n\r\n']);
  await same({}, null, ['POST / HTTP/1.0\r\nContent-Length: 0\r\nExpect: 100-continue\r\n\r\n']);
  for (const [, create] of FACES) assert.ok(create);
  // checkContinue: the listener decides.
  const results = [];
  for (const [, create] of FACES) {
    const server = create((req, res) => res.end('never'));
    server.on('checkContinue', (req, res) => {
      res.writeHead(403, { 'Content-Length': 2 });
      res.end('no');
    });
    await new Promise((r) => server.listen(0, '127.0.0.1', r));
    const r = await exchange(server.address().port, [body]);
    server.close();
    results.push(normalize(r.text));
  }
  assert.strictEqual(results[1], results[0]);
  assert.match(results[0], /^HTTP\/1.1 403 Forbidden\r\n/);
});

test('requireHostHeader, maxRequestsPerSocket, maxHeaderSize', async () => {
  await same({}, null, ['GET / HTTP/1.1\r\n\r\n']);
  await same({ requireHostHeader: false }, null, ['GET / HTTP/1.1\r\n\r\n']);
  const three = 'GET / HTTP/1.1\r\nHost: a\r\n\r\n'.repeat(3);
  const results = [];
  for (const [, create] of FACES) {
    const server = create(echoHandler());
    server.maxRequestsPerSocket = 2;
    await new Promise((r) => server.listen(0, '127.0.0.1', r));
    const out = await exchange(server.address().port, [three]);
    server.close();
    results.push(normalize(out.text));
  }
  assert.strictEqual(results[1], results[0]);
  const r = { text: results[0] };
  assert.match(r.text, /HTTP\/1.1 503 Service Unavailable/);
  const big = `GET / HTTP/1.1\r\nHost: a\r\nX: ${'a'.repeat(3000)}\r\n\r\n`;
  const limited = await same({ maxHeaderSize: 1024 }, null, [big]);
  assert.match(limited.text, /^HTTP\/1.1 431 /);
  await same({ maxHeaderSize: 8192 }, null, [big]);
});

test('each character and number value passes or fails a header the way node:http decides, by setHeader() and writeHead()', async () => {
  const values = [];
  for (let c = 0; c <= 0x101; c++) values.push(`a${String.fromCharCode(c)}b`);
  values.push('\u2028', '\u{1f600}', '', 'plain', NaN, -1, 1e21, Infinity, 0.5, null, true, ['x', 'y\n']);
  const names = ['Good', 'Bad Name', 'Good', 'Bad Name', 'x-\u00e9', 'Good'];
  const seen = [];
  for (const [, create] of FACES) {
    const outcomes = [];
    const attempt = (fn) => {
      try {
        fn();
        outcomes.push('ok');
      } catch (err) {
        outcomes.push(err.code);
      }
    };
    const handler = (req, res) => {
      for (const value of values) attempt(() => res.setHeader('X-V', value));
      for (const name of names) attempt(() => res.setHeader(name, 'v'));
      res.removeHeader('X-V');
      res.removeHeader('Good');
      // (writeHead() checks each line: the first bad one throws.)
      attempt(() => res.writeHead(200, { 'X-A': 'a\x7f', 'Content-Length': 2 }));
      attempt(() => res.writeHead(200, ['X-B', 'b\u0100', 'Content-Length', 2]));
      attempt(() => res.writeHead(200, { 'X C': 'c', 'Content-Length': 2 }));
      attempt(() => res.writeHead(200, { 'X E': ['e', 'f'], 'Content-Length': 2 }));
      attempt(() => res.writeHead(200, { 'X-D': 'd\t\xff', 'X-N': 7, 'Content-Length': 2 }));
      res.end('ok');
    };
    const r = await withServer(create, {}, handler, (port) => exchange(port, ['GET / HTTP/1.1\r\nHost: a\r\n\r\n']));
    seen.push([outcomes, normalize(r.text)]);
  }
  assert.deepStrictEqual(seen[1], seen[0]);
  assert.ok(seen[0][0].includes('ERR_INVALID_CHAR') && seen[0][0].includes('ERR_INVALID_HTTP_TOKEN'));
});

test('response header validation throws node:http\'s errors (no response splitting)', async () => {
  const seen = [];
  for (const [, create] of FACES) {
    const errors = [];
    const handler = (req, res) => {
      for (const [name, value] of [['X\r\nInjected', 'v'], ['X', 'a\r\nInjected: 1'], ['', 'v'], ['X', undefined],
        ['Good', 'é'], ['Nul', 'a\0b']]) {
        try {
          res.setHeader(name, value);
          errors.push('ok');
        } catch (err) {
          errors.push(`${err.code} ${err.name} ${err.message}`);
        }
      }
      try {
        res.writeHead(99);
      } catch (err) {
        errors.push(`${err.code} ${err.name}`);
      }
      try {
        res.writeHead(200, 'bad\r\nreason');
      } catch (err) {
        errors.push(`${err.code}`);
      }
      res.statusMessage = undefined;
      errors.push(`headersSent before writeHead: ${res.headersSent}`);
      assert.strictEqual(res.writeHead(200, { a: 'b' }), res);
      // (True once the head is made, before any byte is written: Fastify relies on it.)
      errors.push(`headersSent after writeHead: ${res.headersSent}`);
      try {
        res.setHeader('late', '1');
      } catch (err) {
        errors.push(`${err.code} ${err.message}`);
      }
      res.end('done');
    };
    const r = await withServer(create, {}, handler, (port) => exchange(port, ['GET / HTTP/1.1\r\nHost: a\r\n\r\n']));
    seen.push([errors, normalize(r.text)]);
  }
  assert.deepStrictEqual(seen[1], seen[0]);
  assert.ok(seen[0][0].some((e) => e.startsWith('ERR_INVALID_HTTP_TOKEN')));
  assert.ok(seen[0][0].some((e) => e.startsWith('ERR_INVALID_CHAR')));
  assert.ok(seen[0][0].some((e) => e.startsWith('ERR_HTTP_HEADERS_SENT')));
  assert.ok(seen[0][0].includes('headersSent after writeHead: true'));
});

test('the response API reports what node:http\'s does', async () => {
  const seen = [];
  for (const [, create] of FACES) {
    const states = [];
    const handler = (req, res) => {
      // (writableFinished: before 'finish' it differs between lines.)
      const state = () => [res.headersSent, res.writableEnded, res.statusCode,
        res.getHeaderNames(), res.hasHeader('x-a'), res.getHeader('X-A'), { ...res.getHeaders() }];
      res.setHeader('X-A', '1');
      res.appendHeader('X-A', '2');
      res.setHeader('X-B', 'b');
      res.removeHeader('x-b');
      states.push(state());
      res.flushHeaders();
      states.push(state());
      res.on('finish', () => states.push(['finish', res.writableFinished, ...state()]));
      res.on('close', () => {
        states.push(['close', res.writableFinished, res.destroyed, ...state()]);
      });
      res.end('x', () => states.push('end callback'));
      states.push(state());
    };
    const r = await withServer(create, {}, handler, async (port) => {
      const out = await exchange(port, ['GET / HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n'], { end: false });
      return out;
    });
    seen.push([states, normalize(r.text)]);
  }
  assert.deepStrictEqual(seen[1], seen[0]);
});

test('header names given again on later answers, in any case, valid or not, are looked up and refused as node:http does', async () => {
  const seen = [];
  for (const [, create] of FACES) {
    const log = [];
    const attempt = (what, fn) => {
      try {
        log.push([what, fn()]);
      } catch (err) {
        log.push([what, err.code]);
      }
    };
    const handler = (req, res) => {
      // (Each answer asks the same names again: what the server remembers
      // of a name must give what the first answer got.)
      attempt('set mixed', () => res.setHeader('X-Mixed-Case', 'a').getHeader('x-mixed-CASE'));
      attempt('append', () => res.appendHeader('x-MIXED-case', 'b').getHeader('X-Mixed-Case'));
      attempt('has unchecked', () => [res.hasHeader('X-MIXED-CASE'), res.hasHeader('x-never-set')]);
      attempt('get invalid', () => res.getHeader('Bad Name'));
      attempt('has invalid', () => res.hasHeader('Bad Name'));
      attempt('set invalid', () => res.setHeader('Bad Name', 'x'));
      attempt('append invalid', () => res.appendHeader('Bad Name', 'x'));
      attempt('remove', () => {
        res.removeHeader('X-MIXED-case');
        return res.getHeaderNames();
      });
      attempt('set again', () => res.setHeader('Set-Cookie', ['a=1', 'b=2']).getHeader('set-cookie'));
      // (Names that an object would inherit, or that set one's prototype.)
      attempt('inherited', () => [res.getHeader('constructor'), res.hasHeader('toString'), res.getHeader('__proto__')]);
      attempt('own proto', () => [res.setHeader('__proto__', 'p').getHeader('__proto__'), res.getHeaderNames(),
        Object.getPrototypeOf(res.getHeaders()), res.getHeaders().__proto__]);
      // (A value known to be ASCII that a later one joins on one line.)
      res.setHeader('X-Unique', 'a');
      res.appendHeader('X-Unique', 'caf\u00e9');
      res.setHeader('X-Varies', `v${req.url}`);
      res.writeHead(200, { 'X-Mixed-Case': 'c', 'Content-Length': 2 });
      res.end('ok', 'utf8');
    };
    const r = await withServer(create, { uniqueHeaders: ['x-unique'] }, handler, (port) => exchange(port,
      ['GET /1 HTTP/1.1\r\nHost: a\r\n\r\n', 'GET /2 HTTP/1.1\r\nHost: a\r\n\r\n',
        'GET /3 HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n']));
    seen.push([log, normalize(r.text)]);
  }
  assert.strictEqual(seen[0][0].length, 33);
  assert.deepStrictEqual(seen[1], seen[0]);
  const eachAnswer = [undefined, false, 'ERR_INVALID_HTTP_TOKEN', 'ERR_INVALID_HTTP_TOKEN'];
  assert.deepStrictEqual(seen[1][0].filter(([what]) => what.endsWith('invalid')).map(([, out]) => out),
    [...eachAnswer, ...eachAnswer, ...eachAnswer]);
});

test('a response is a pipe target that stream.pipeline() and stream.finished() accept', async () => {
  const { Readable, pipeline, finished } = require('node:stream');
  const seen = [];
  for (const [, create] of FACES) {
    const events = [];
    const handler = (req, res) => {
      finished(res, (err) => events.push(`finished ${err ? err.code : 'ok'}`));
      pipeline(Readable.from(['a', 'b', 'c'].map((s) => Buffer.from(s.repeat(70000)))), res, (err) => {
        events.push(`pipeline ${err ? err.code : 'ok'}`);
      });
    };
    const r = await withServer(create, {}, handler, (port) =>
      exchange(port, ['GET / HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n']));
    await new Promise((resolve) => setTimeout(resolve, 20));
    seen.push([events.sort(), normalize(r.text).length]);
  }
  assert.deepStrictEqual(seen[1], seen[0]);
  assert.deepStrictEqual(seen[0][0], ['finished ok', 'pipeline ok']);
});

test('upgrade and CONNECT reach their listeners with (req, socket, head)', async () => {
  const seen = [];
  for (const [, create] of FACES) {
    const events = [];
    const server = create((req, res) => res.end('plain'));
    for (const name of ['upgrade', 'connect']) {
      server.on(name, (req, socket, head) => {
        events.push([name, req.method, req.url, req.headers.upgrade, head.toString()]);
        socket.end(`HTTP/1.1 101 Switching Protocols\r\n\r\nechoed ${head}`);
      });
    }
    await new Promise((r) => server.listen(0, '127.0.0.1', r));
    const port = server.address().port;
    const a = await exchange(port, ['GET /ws HTTP/1.1\r\nHost: a\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\r\nHEAD-BYTES']);
    const b = await exchange(port, ['CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\ntunnel']);
    server.close();
    seen.push([events, a.text, b.text]);
  }
  assert.deepStrictEqual(seen[1], seen[0]);
  assert.strictEqual(seen[0][0].length, 2);
  // Without a listener, an Upgrade request is a plain request.
  await same({}, null, ['GET / HTTP/1.1\r\nHost: a\r\nConnection: Upgrade\r\nUpgrade: x\r\n\r\n']);
});

test('shouldUpgradeCallback decides whether an Upgrade request goes to \'upgrade\' or to \'request\', as node:http', async () => {
  const seen = [];
  for (const [, create] of FACES) {
    const events = [];
    for (const answer of [true, false]) {
      const server = create({ shouldUpgradeCallback: (req) => answer && req.url === '/ws' }, (req, res) => {
        events.push(['request', req.url, req.upgrade]);
        res.end('plain');
      });
      server.on('upgrade', (req, socket) => {
        events.push(['upgrade', req.url]);
        socket.end('HTTP/1.1 101 Switching Protocols\r\n\r\n');
      });
      const port = await listen(server);
      const r = await exchange(port, ['GET /ws HTTP/1.1\r\nHost: a\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\r\n'],
        { idleMs: 300 });
      events.push(normalize(r.text));
      server.closeAllConnections();
      server.close();
    }
    seen.push(events);
  }
  assert.deepStrictEqual(seen[1], seen[0]);
});

test('uniqueHeaders: a list of values of such a header or trailer goes on one line joined by \'; \', as node:http', async () => {
  const handler = () => (req, res) => {
    res.setHeader('X-Res-a', ['A', 'B']);
    res.setHeader('X-Res-b', ['C', 'D']);
    res.writeHead(200, { 'x-res-d': ['E', 'F'] });
    res.addTrailers({ 'X-Res-Y': ['G', 'H'], 'x-res-z': ['I', 'J'] });
    res.end('body');
  };
  const request = 'GET / HTTP/1.1\r\nHost: a\r\nTE: trailers\r\nConnection: close\r\n\r\n';
  const r = await same({ uniqueHeaders: ['x-res-b', 'X-RES-D', 'x-res-y'] }, handler, [request]);
  assert.match(r.text, /\r\nX-Res-b: C; D\r\n/);
  assert.match(r.text, /\r\nX-Res-Y: G; H\r\n/);
  await same({}, handler, [request]);
});

test('node:http requests talk to it (keep-alive agent)', async () => {
  const server = FACES[1][1]((req, res) => {
    let n = 0;
    req.on('data', (c) => { n += c.length; });
    req.on('end', () => res.end(JSON.stringify({ url: req.url, n })));
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  const agent = new http.Agent({ keepAlive: true, maxSockets: 2 });
  const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => new Promise((resolve, reject) => {
    const req = http.request({ port: server.address().port, host: '127.0.0.1', agent, method: 'POST', path: `/${i}` }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d) => { text += d; });
      res.on('end', () => resolve(JSON.parse(text)));
    });
    req.on('error', reject);
    req.end('x'.repeat(i * 100));
  })));
  agent.destroy();
  server.close();
  assert.deepStrictEqual(answers, Array.from({ length: 20 }, (_, i) => ({ url: `/${i}`, n: i * 100 })));
});

test('a request ends and closes when the response emits \'finish\', as node:http\'s: holding \'finish\' back holds them back', async () => {
  const seen = [];
  for (const [, create] of FACES) {
    const order = [];
    const handler = (req, res) => {
      const emit = res.emit;
      res.emit = function heldFinish(name, ...args) {
        if (name !== 'finish') return emit.call(this, name, ...args);
        setTimeout(() => { order.push('finish'); emit.call(this, name, ...args); }, 50);
        return true;
      };
      req.on('end', () => order.push('req end'));
      req.on('close', () => order.push('req close'));
      res.end('x');
    };
    await withServer(create, {}, handler, async (port) => {
      // (keep-alive: a closing connection would close the request first)
      await exchange(port, ['GET / HTTP/1.1\r\nHost: a\r\n\r\n'], { end: false, idleMs: 150 });
    });
    seen.push(order);
  }
  assert.deepStrictEqual(seen[0], ['finish', 'req end', 'req close']);
  assert.deepStrictEqual(seen[1], seen[0]);
});

test('end() releases every cork of the response: the answer leaves though the handler uncorked less than it corked', async () => {
  for (const [face, create] of FACES) {
    const corks = [];
    await withServer(create, {}, (req, res) => {
      res.cork();
      res.cork();
      res.writeHead(200, { 'a-header': 'a-header-value' });
      res.uncork();
      corks.push(res.writableCorked, res.socket.writableCorked);
      res.end('asd');
      corks.push(res.writableCorked, res.socket.writableCorked);
    }, async (port) => {
      const { text } = await exchange(port, [withClose('GET / HTTP/1.1\r\nHost: a\r\n\r\n')], { end: false, idleMs: 1000 });
      assert.match(text, /\r\n\r\n3\r\nasd\r\n0\r\n\r\n$/, face);
    });
    assert.deepStrictEqual(corks, [1, 1, 0, 0], face);
  }
});

test('a pipelined response waiting for its turn has no socket, holds its bytes in outputSize, and reports them with their framing', async () => {
  const seen = {};
  for (const [face, create] of FACES) {
    const log = [];
    let first = null;
    await withServer(create, {}, (req, res) => {
      if (first === null) {
        first = res;
        log.push(['first socket', res.socket !== null]);
        return;
      }
      log.push(['second socket', res.socket]);
      res.writeHead(200, { 'Content-Type': 'text/plain' });
      res.write('asd');
      log.push(['second held', res.outputSize > 0, res.writableLength >= 8]);
      res.end();
      first.end('one');
    }, async (port) => {
      const { text } = await exchange(port, ['GET /1 HTTP/1.1\r\nHost: a\r\n\r\nGET /2 HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n'], { end: false, idleMs: 1000 });
      assert.match(text, /\r\n\r\none[^]*\r\n\r\n3\r\nasd\r\n0\r\n\r\n$/, face);
    });
    seen[face] = log;
  }
  assert.deepStrictEqual(seen['node:http'], [['first socket', true], ['second socket', null], ['second held', true, true]]);
  assert.deepStrictEqual(seen['llhttp-napi/server'], seen['node:http']);
});

test('writableLength counts a corked chunk with its chunked framing, as node:http', async () => {
  const seen = {};
  for (const [face, create] of FACES) {
    await withServer(create, {}, (req, res) => {
      res.write('');
      const before = res.writableLength;
      res.cork();
      res.write('asd');
      seen[face] = res.writableLength - before;
      res.uncork();
      res.end();
    }, (port) => exchange(port, [withClose('GET / HTTP/1.1\r\nHost: a\r\n\r\n')], { end: false, idleMs: 1000 }));
  }
  // (22 counts only the chunk; 20, 24 and 26 its size line and CRLFs too.)
  assert.equal(seen['node:http'], require('../../lib/node-line').holdsCorkedChunks ? 3 : 8);
  assert.equal(seen['llhttp-napi/server'], seen['node:http']);
});

test('a \'data\' listener a handler puts on the socket gets the connection\'s later bytes, as with node:http', async () => {
  for (const [face, create] of FACES) {
    for (const add of ['on', 'addListener', 'prependListener']) {
      let received = '';
      await withServer(create, {}, (req, res) => {
        res.writeHead(200);
        res.end();
        req.socket[add]('data', (data) => { received += data; });
      }, async (port) => {
        await new Promise((resolve, reject) => {
          const socket = net.connect(port, '127.0.0.1', () => socket.write('PUT / HTTP/1.1\r\nHost: a\r\n\r\n'));
          socket.once('data', () => socket.end('hello world'));
          socket.on('error', reject);
          socket.on('close', resolve);
          socket.resume();
        });
      });
      assert.equal(received, 'hello world', `${face}: socket.${add}`);
    }
  }
});

test('responses to requests before an upgrade still leave in turn after it', async () => {
  const seen = [];
  for (const [, create] of FACES) {
    let first = null;
    const server = create((req, res) => {
      if (req.url === '/1') first = res;
      else res.end('two');
    });
    server.on('upgrade', (req, socket) => {
      first.end('one');
      setTimeout(() => socket.end('raw'), 50);
    });
    const port = await listen(server);
    const { text } = await exchange(port, ['GET /1 HTTP/1.1\r\nHost: a\r\n\r\nGET /2 HTTP/1.1\r\nHost: a\r\n\r\n' +
      'GET /up HTTP/1.1\r\nHost: a\r\nConnection: upgrade\r\nUpgrade: x\r\n\r\n'], { end: false, idleMs: 1000 });
    server.close();
    seen.push(normalize(text));
  }
  assert.match(seen[0], /\r\n\r\none[^]*\r\n\r\ntwo(raw)?$/);
  assert.equal(seen[1], seen[0]);
});

// (24 on: no 'finish', end()'s callback hears the failure; before, the
// response finishes as if its bytes were written.)
test('a response whose bytes cannot be written: \'finish\' and end()\'s callback as the line\'s node:http has them', async () => {
  const { Duplex } = require('node:stream');
  const { endCallbackHearsFlushError } = require('../../lib/node-line');
  const seen = {};
  for (const [face, create] of FACES) {
    for (const when of ['end with data', 'end after a failed write']) {
      const failure = new Error('forced write failure');
      const socket = new Duplex({ read() {}, write(chunk, encoding, callback) { callback(failure); } });
      const log = [];
      const server = create((req, res) => {
        res.on('finish', () => log.push('finish'));
        res.on('close', () => log.push(`close finished=${res.writableFinished}`));
        const onEnd = (err) => log.push(`end callback ${err === failure ? 'failure' : err && err.code}`);
        if (when === 'end with data') {
          res.end('hello', onEnd);
          return;
        }
        res.setHeader('Content-Length', '5');
        res.write('hello', (err) => log.push(`write callback ${err === failure ? 'failure' : err}`));
        setImmediate(() => res.end(onEnd));
      });
      server.on('clientError', () => {});
      server.emit('connection', socket);
      socket.push('GET / HTTP/1.1\r\nHost: example.com\r\n\r\n');
      await new Promise((resolve) => setTimeout(resolve, 100));
      seen[`${face} ${when}`] = log.sort();
    }
  }
  for (const when of ['end with data', 'end after a failed write']) {
    const builtin = seen[`node:http ${when}`];
    assert.equal(builtin.includes('finish'), !endCallbackHearsFlushError, `${when}: ${builtin}`);
    assert.equal(builtin.includes('end callback failure'), endCallbackHearsFlushError, `${when}: ${builtin}`);
    assert.deepStrictEqual(seen[`llhttp-napi/server ${when}`], builtin, when);
  }
});

test('a response keeps its socket when the client goes before it finished (on-finished, send read it)', async () => {
  const seen = {};
  for (const [face, create] of FACES) {
    await new Promise((resolve) => {
      const server = create((req, res) => {
        req.socket.on('close', () => {
          seen[face] = [res.socket === req.socket, res.socket !== null && res.socket.writable, res.writableEnded];
          server.close(resolve);
        });
        client.destroy();
      });
      let client;
      listen(server).then((port) => {
        client = net.connect(port, '127.0.0.1', () => client.write('GET / HTTP/1.1\r\nHost: a\r\n\r\n'));
        client.on('error', () => {});
      });
    });
  }
  assert.deepStrictEqual(seen['node:http'], [true, false, false]);
  assert.deepStrictEqual(seen['llhttp-napi/server'], seen['node:http']);
});

// (node:http before 24 hands the next request to a freed parser and throws.)
const FREED_PARSER_STOPS = Number(process.versions.node.split('.')[0]) >= 24;
test('a socket closed by a handler in the middle of pipelined requests: the requests after it are not handed out, as node:http',
  { skip: !FREED_PARSER_STOPS && 'node:http before 24 throws' }, async () => {
  const counts = [];
  for (const [, create] of FACES) {
    let n = 0;
    const server = create((req, res) => {
      n++;
      req.socket.emit('close');
      res.end();
    });
    const port = await listen(server);
    await exchange(port, ['GET / HTTP/1.1\r\nHost: a\r\n\r\nGET / HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n'],
      { idleMs: 300 });
    // (Not closeAllConnections(): node:http's tracking is gone with the
    // 'close' the handler faked; the client's end closes the connection.)
    server.close();
    counts.push(n);
  }
  assert.deepStrictEqual(counts, [counts[0], counts[0]]);
});

// (Found by scripts/dev/fuzz-transport.js.) A response ended in the read
// that carried its request leaves at once, whatever the same read holds
// after it: on lines whose parser refuses bytes after a message that closes
// the connection (20, 22), a request begun behind an HTTP/1.0 one is a parse
// error that destroys the socket, and node:http's answer to the first,
// written and ended in the handler, is out before that.
test('an answer ended at once leaves before a parse error later in the same read', async () => {
  const handler = () => (req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/plain' });
    res.write('a');
    res.end('b');
  };
  for (const request of ['GET /a HTTP/1.0\r\nHost: x\r\n\r\nGET /b HTTP/1.1\r\n',
    'GET /a HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\nGET /b HTTP/1.1\r\n']) {
    const r = await same({}, handler, [request], { end: false });
    assert.match(r.text, /^HTTP\/1\.1 200 OK\r\n[^]*\r\n\r\n(ab|1\r\na\r\n1\r\nb\r\n0\r\n\r\n|2\r\nab\r\n0\r\n\r\n)$/);
  }
});

// (Found by scripts/dev/fuzz-transport.js.) A parse error in the body of a
// request that was told to continue: the 100 Continue is not the answer's
// head, so the 400 still goes out, as node:http sends it; with the
// 'checkContinue' listener and without.
test('a bad body after 100 Continue gets its 400, as node:http', async () => {
  const handler = () => (req, res) => {
    req.resume();
    req.on('end', () => res.end('read'));
  };
  const bodies = ['Content-Length: 3\r\n\r\nabcBAD\r\n\r\n', 'Transfer-Encoding: chunked\r\n\r\n1\r\naXX\r\n'];
  for (const listen of [false, true]) {
    const withListener = listen ? () => (req, res) => {
      res.writeContinue();
      handler()(req, res);
    } : handler;
    for (const body of bodies) {
      const request = `POST /p HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\n${body}`;
      const results = [];
      for (const [, create] of FACES) {
        const r = await withServer(create, {}, null, (port, server) => {
          if (listen) server.on('checkContinue', withListener());
          else server.on('request', handler());
          return exchange(port, [request], { end: false });
        });
        results.push(normalize(r.text));
      }
      assert.strictEqual(results[1], results[0]);
      assert.match(results[0], /^HTTP\/1\.1 100 Continue\r\n\r\nHTTP\/1\.1 400 Bad Request\r\n/);
    }
  }
});

test('what one response sets of its defaults (sendDate, strictContentLength, trailers) stays its own, as node:http\'s', async () => {
  const handler = (log) => {
    let n = 0;
    return (req, res) => respond(log, n++, res);
  };
  const respond = (log, n, res) => {
    if (n % 2 === 0) {
      res.sendDate = false;
      res.strictContentLength = true;
      res.setHeader('Content-Length', 2);
      res.end('ab');
    } else {
      log.push([res.sendDate, res.strictContentLength, res._trailer, res.errored, res.maxRequestsOnConnectionReached]);
      res.end('cd');
    }
  };
  const request = 'GET / HTTP/1.1\r\nHost: a\r\n\r\n';
  const r = await same({}, handler, [request + request + request.replace('\r\n\r\n', '\r\nConnection: close\r\n\r\n')]);
  assert.strictEqual((r.text.match(/\r\nDate: /g) || []).length, 1);
  assert.deepStrictEqual(r.log, [[true, false, '', null, false]]);
});

test('what one request or response changes of its defaults stays its own: body read, trailers, rawHeaders, removeHeader, cork, a non-ASCII value, as node:http\'s', async () => {
  const seen = (req, res) => [req.aborted, req.joinDuplicateHeaders, req.rawHeaders.length, req.rawTrailers.length,
    req.trailers['x-trailer'] === undefined, req.readableFlowing, res.writableCorked, res.writableNeedDrain];
  const handler = (log) => (req, res) => {
    if (req.method === 'POST') {
      // The first: its body read, its trailers, its rawHeaders replaced, a
      // header removed, its writes corked, a value above ASCII.
      req.on('data', () => {});
      req.on('end', () => {
        log.push(seen(req, res), req.trailers['x-trailer']);
        req.rawHeaders = ['X-Replaced', 'yes'];
        res.setHeader('X-Gone', 'a');
        res.removeHeader('X-Gone');
        res.setHeader('X-Latin', 'caf\u00e9');
        res.cork();
        res.write('ab');
        res.uncork();
        res.end('cd');
      });
      return;
    }
    log.push(seen(req, res), req.rawHeaders);
    res.setHeader('X-Gone', 'b');
    res.setHeader('X-Plain', 'ascii');
    res.end('ef');
  };
  const post = 'POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n' + chunked(Buffer.from('xyz'), 2).toString('latin1');
  const get = 'GET / HTTP/1.1\r\nHost: a\r\nX-D: 1\r\nX-D: 2\r\nConnection: close\r\n\r\n';
  const r = await same({}, handler, [post, get]);
  assert.deepStrictEqual(r.log[1], 't');
  assert.deepStrictEqual(r.log[2], [false, null, 8, 0, true, null, 0, false]);
  assert.deepStrictEqual(r.log[3], ['Host', 'a', 'X-D', '1', 'X-D', '2', 'Connection', 'close']);
  assert.match(r.text, /\r\nX-Gone: b\r\nX-Plain: ascii\r\n/);
  assert.doesNotMatch(r.text, /X-Gone: a/);
});

test('writeHead() with a headers object sends its own enumerable keys, none it inherits, in their order, as node:http', async () => {
  const handler = () => (req, res) => {
    const inherited = { 'X-Inherited': 'no' };
    const headers = Object.create(inherited, { 'X-Hidden': { value: 'no', enumerable: false } });
    headers['X-Own'] = 'yes';
    headers['Content-Length'] = 2;
    headers[7] = 'digit';
    res.writeHead(200, headers);
    res.end('ok');
  };
  const r = await same({}, handler, ['GET / HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n']);
  assert.match(r.text, /^HTTP\/1\.1 200 OK\r\n7: digit\r\nX-Own: yes\r\nContent-Length: 2\r\n/);
  assert.doesNotMatch(r.text, /X-Inherited|X-Hidden/);
});

test('req.headers of heads whose names repeat an order seen before, and of heads that differ, as node:http\'s', async () => {
  const handler = (log) => (req, res) => {
    const h = req.headers;
    log.push([Object.keys(h), Object.values(h), Object.getPrototypeOf(h) === Object.prototype, typeof h.hasOwnProperty]);
    res.end();
  };
  const heads = [
    'Host: a\r\nUser-Agent: u1\r\nAccept: */*\r\nCookie: c=1',
    'Host: b\r\nUser-Agent: u2\r\nAccept: text/html\r\nCookie: c=2',
    'HOST: c\r\nuser-agent: u3\r\nACCEPT: x\r\nCookie: c=3',
    'Host: d\r\nSet-Cookie: s=1\r\nX-Custom: y\r\n7: seven',
    'Host: e\r\nSet-Cookie: s=2\r\nX-Custom: z\r\n7: eight',
    'Host: f\r\nCookie: a=1\r\nCookie: b=2\r\nX-Dup: 1\r\nx-dup: 2\r\nUser-Agent: first\r\nUser-Agent: second',
    'Host: g\r\n__proto__: p\r\nConstructor: k',
    'Host: h\r\n__proto__: q\r\nConstructor: l',
    // (more names after Host than a node lists before it takes a Map, each
    // order twice, the second after the Map)
    ...[0, 1].flatMap(() => Array.from({ length: 12 }, (_, n) => `Host: j${n}\r\nX-N${n}: v${n}\r\nx-n${n}: w\r\nAccept: a`)),
    'Host: i',
  ];
  const requests = heads.map((head, i) => `GET /${i} HTTP/1.1\r\n${head}\r\n${i === heads.length - 1 ? 'Connection: close\r\n' : ''}\r\n`);
  const r = await same({}, handler, [requests.join('')]);
  assert.strictEqual(r.log.length, heads.length);
  assert.deepStrictEqual(r.log[1][0], ['host', 'user-agent', 'accept', 'cookie']);
  assert.deepStrictEqual(r.log[4].slice(0, 2), [['7', 'host', 'set-cookie', 'x-custom'], ['eight', 'e', ['s=2'], 'z']]);
});
