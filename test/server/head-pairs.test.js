'use strict';
// A request's head as node:http of the running line gives it: rawHeaders and
// headers in any order of reading, changed or replaced by a handler before
// `headers` is first read (before 26 node:http has made `headers` by then;
// from 26 on it makes them when first read, of as many entries as the head
// had), read after the next request arrived, and a repeated head (which the
// parser hands out again from its record) that an earlier handler changed.
// Each case runs on node:http and on the server, which must agree.
const test = require('node:test');
const assert = require('node:assert');
const { FACES, withServer, exchange } = require('../support/both-servers');

const HEAD = 'GET /a HTTP/1.1\r\nHost: h\r\nUSER-AGENT: u\r\nX-Odd: 1\r\nx-odd: 2\r\nCookie: a=1\r\ncookie: b=2\r\n' +
  'Set-Cookie: s1\r\nset-cookie: s2\r\nAccept: */*\r\nContent-Type: t\r\ncontent-type: t2\r\n\r\n';

// Runs `handler` (which returns what it saw) on each face for `requests`
// sent on one connection; the answers are what each face saw, in order.
async function seenOn(requests, handler) {
  const out = [];
  for (const [face, create] of FACES) {
    const seen = [];
    await withServer(create, {}, (req, res) => {
      seen.push(handler(req, seen.length));
      res.end('ok');
    }, (port) => exchange(port, [requests.join('')], { end: false, idleMs: 300 }));
    out.push([face, seen]);
  }
  return out;
}

function agree(results, count) {
  const [[, first], [, second]] = results;
  assert.strictEqual(first.length, count, `${results[0][0]} saw ${first.length} requests`);
  assert.deepStrictEqual(second, first);
}

test('headers first, then rawHeaders; rawHeaders first, then headers; getHeader-free reads', async () => {
  agree(await seenOn([HEAD], (req) => {
    const headers = { ...req.headers };
    return { headers, raw: req.rawHeaders.slice(), same: req.rawHeaders === req.rawHeaders };
  }), 1);
  agree(await seenOn([HEAD], (req) => {
    const raw = req.rawHeaders.slice();
    return { raw, headers: { ...req.headers }, distinct: { ...req.headersDistinct } };
  }), 1);
});

test('rawHeaders changed or replaced before headers is first read: headers as node:http makes them then', async () => {
  agree(await seenOn([HEAD], (req) => {
    req.rawHeaders[1] = 'changed';
    req.rawHeaders.push('X-Added', 'yes', 'User-Agent', 'second');
    return { ...req.headers };
  }), 1);
  // (As long as the head's: node:http 26 reads as many entries as it had.)
  agree(await seenOn([HEAD], (req) => {
    const given = ['Host', 'given', 'X-Own', '1'];
    while (given.length < req.rawHeaders.length) given.push('X-Pad', String(given.length));
    req.rawHeaders = given;
    return { raw: req.rawHeaders, headers: { ...req.headers } };
  }), 1);
});

test('a repeated head: each request has its own arrays, whatever an earlier handler did to its own', async () => {
  const requests = [HEAD, HEAD, HEAD, HEAD.replace('/a', '/b')];
  agree(await seenOn(requests, (req, n) => {
    const raw = req.rawHeaders;
    const before = raw.slice();
    if (n % 2 === 0) {
      raw[1] = `changed ${n}`;
      raw.push('X-N', String(n));
      req.headers['x-later'] = 'set';
    }
    return { url: req.url, before, headers: { ...req.headers } };
  }), 4);
});

test('a request read after the next one arrived keeps its own head', async () => {
  const kept = [];
  const other = HEAD.replace('Host: h', 'Host: other').replace('X-Odd: 1', 'X-Odd: 3');
  const results = [];
  for (const [face, create] of FACES) {
    kept.length = 0;
    await withServer(create, {}, (req, res) => {
      kept.push(req);
      // (The first answer waits: the second request is parsed meanwhile.)
      if (kept.length === 1) setTimeout(() => res.end('ok'), 50);
      else res.end('ok');
    }, (port) => exchange(port, [HEAD + other], { end: false, idleMs: 300 }));
    results.push([face, kept.map((req) => ({ raw: req.rawHeaders.slice(), headers: { ...req.headers } }))]);
  }
  agree(results, 2);
  assert.notDeepStrictEqual(results[0][1][0], results[0][1][1]);
});

// The names a request's way in looks for (Host, Expect, the body headers),
// which the server tells from the parser's pair records without strings:
// in their usual spelling, in lower case, in another case (not a
// well-known spelling), and in a head that repeats the last (whose pairs
// the parser does not look up), on node:http and on the server.
test('Host, Expect and the body headers are found in any spelling, and in a repeated head', async () => {
  const heads = [
    'GET / HTTP/1.1\r\nHost: a\r\n\r\n',
    'GET / HTTP/1.1\r\nhost: a\r\n\r\n',
    'GET / HTTP/1.1\r\nHOST: a\r\n\r\n',
    'GET / HTTP/1.1\r\nhOsT: a\r\n\r\n',
    'GET / HTTP/1.1\r\nX-Host: a\r\n\r\n',
    'GET / HTTP/1.1\r\nHost: a\r\nEXPECT: 100-continue\r\nCONTENT-LENGTH: 2\r\n\r\nhi',
    'GET / HTTP/1.1\r\nHost: a\r\nExpect: 100-continue\r\nContent-Length: 2\r\n\r\nhi',
    'GET / HTTP/1.1\r\nHost: a\r\nExpect: 100-continue\r\nContent-Length: 2\r\n\r\nhi',
    'POST / HTTP/1.1\r\nHost: a\r\nTRANSFER-ENCODING: chunked\r\n\r\n2\r\nhi\r\n0\r\n\r\n',
    'POST / HTTP/1.1\r\nHost: a\r\ntransfer-encoding: chunked\r\n\r\n2\r\nhi\r\n0\r\n\r\n',
    'GET / HTTP/1.1\r\nHOST: a\r\n\r\n',
    'GET / HTTP/1.1\r\nHOST: a\r\n\r\n',
  ];
  const results = [];
  for (const [face, create] of FACES) {
    const seen = [];
    const handler = (req, res) => {
      let body = '';
      req.setEncoding('latin1');
      req.on('data', (d) => { body += d; });
      req.on('end', () => res.end(`${req.method} ${req.headers.host} ${body}`));
    };
    for (const options of [{}, { optimizeEmptyRequests: true }]) {
      for (const head of heads) {
        // (One connection, the head six times: the parser records the
        // fourth head it reads, and the next ones repeat it.)
        const text = await withServer(create, options, handler, (port) => exchange(port, Array(6).fill(head), { end: false, idleMs: 200 }));
        seen.push(text.text.replace(/\r\nDate: [^\r]*/g, '').replace(/\r\nKeep-Alive: [^\r]*/g, ''));
      }
    }
    results.push([face, seen]);
  }
  agree(results, heads.length * 2);
  assert.strictEqual(results[0][1][0].match(/HTTP\/1.1 200 /g).length, 6);
  assert.match(results[0][1][4], /^HTTP\/1.1 400 /);
  assert.match(results[0][1][5], /^HTTP\/1.1 100 Continue/);
});
