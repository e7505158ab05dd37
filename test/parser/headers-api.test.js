'use strict';
// getAllHeaders(), getHeader(), getAllTrailers() and lazy mode (ours only:
// the built-in has no such API). With lazy mode off the drop-in behaviour is
// unchanged: the conformance suite checks that.
const test = require('node:test');
const assert = require('node:assert');
const { HTTPParser } = require('../..');

function parser(type = HTTPParser.REQUEST, options) {
  const p = new HTTPParser();
  p.initialize(type, {}, 0, 0, undefined, options);
  return p;
}

test('getAllHeaders: arrival order, duplicates, case as received, Latin-1', () => {
  const p = parser();
  let inside;
  p[HTTPParser.kOnHeadersComplete] = function() { inside = this.getAllHeaders(); };
  p.execute(Buffer.from('GET / HTTP/1.1\r\nHost: a\r\nX-Dup: 1\r\nx-dup: 2\r\nX-Latin: caf\xe9 \r\n\r\n', 'latin1'));
  const want = ['Host', 'a', 'X-Dup', '1', 'x-dup', '2', 'X-Latin', 'café'];
  assert.deepStrictEqual(inside, want);
  // The message completed: once execute() returns, its head is gone (an
  // idle parser holds nothing of it) ...
  assert.deepStrictEqual(p.getAllHeaders(), []);
  // ... unless in lazy mode, where it stays until the next message begins.
  const lazy = parser(HTTPParser.REQUEST, { lazyHeaders: true });
  lazy[HTTPParser.kOnHeadersComplete] = () => {};
  lazy.execute(Buffer.from('GET / HTTP/1.1\r\nHost: a\r\nX-Dup: 1\r\nx-dup: 2\r\nX-Latin: caf\xe9 \r\n\r\n', 'latin1'));
  assert.deepStrictEqual(lazy.getAllHeaders(), want, 'lazy: still valid after execute()');
  assert.notStrictEqual(lazy.getAllHeaders(), lazy.getAllHeaders(), 'a fresh array each call');
});

test('getAllHeaders: a message under way, in pieces: this call\'s pairs, or all in lazy mode', () => {
  for (const lazy of [false, true]) {
    const p = parser(HTTPParser.REQUEST, { lazyHeaders: lazy });
    p[HTTPParser.kOnHeadersComplete] = () => {};
    const want = ['Host', 'a', 'Content-Length', '6'];
    p.execute(Buffer.from('POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 6\r\n\r\nabc'));
    // (after execute() returns a parser out of lazy mode keeps nothing of the
    // head: a connection waiting for a body holds no header bytes of ours)
    assert.deepStrictEqual(p.getAllHeaders(), lazy ? want : [], `lazy ${lazy}`);
    assert.strictEqual(p.getHeader('content-length'), lazy ? '6' : undefined);
    let atComplete;
    p[HTTPParser.kOnMessageComplete] = function() { atComplete = this.getAllHeaders(); };
    p.execute(Buffer.from('def'));
    assert.deepStrictEqual(atComplete, lazy ? want : []);
    assert.deepStrictEqual(p.getAllHeaders(), lazy ? want : []);
  }
});

test('getAllHeaders: empty before headers complete and once the next message begins', () => {
  const p = parser();
  const seen = [];
  p[HTTPParser.kOnMessageBegin] = function() { seen.push(['begin', this.getAllHeaders()]); };
  p[HTTPParser.kOnHeadersComplete] = function() {};
  p[HTTPParser.kOnMessageComplete] = function() { seen.push(['complete', this.getAllHeaders()]); };
  p.execute(Buffer.from('GET /1 HTTP/1.1\r\nA: 1\r\n\r\nGET /2 HTTP/1.1\r\nB: 2\r\n\r\n'));
  assert.deepStrictEqual(seen, [
    ['begin', []], ['complete', ['A', '1']],
    ['begin', []], ['complete', ['B', '2']],
  ]);
  const fresh = parser();
  assert.deepStrictEqual(fresh.getAllHeaders(), []);
  assert.strictEqual(fresh.getHeader('a'), undefined);
});

test('getHeader: first match, ASCII case-insensitive, undefined when absent', () => {
  const p = parser(HTTPParser.REQUEST, { lazyHeaders: true });
  p[HTTPParser.kOnHeadersComplete] = () => {};
  p.execute(Buffer.from('GET / HTTP/1.1\r\nContent-Type: text/plain\r\ncontent-type: second\r\nEmpty:\r\n\r\n'));
  assert.strictEqual(p.getHeader('content-type'), 'text/plain');
  assert.strictEqual(p.getHeader('CONTENT-TYPE'), 'text/plain');
  assert.strictEqual(p.getHeader('empty'), '');
  assert.strictEqual(p.getHeader('content-typ'), undefined);
  assert.strictEqual(p.getHeader('missing'), undefined);
  assert.throws(() => p.getHeader(1), TypeError);
});

test('getHeader: well-known names in any spelling, the first match of either', () => {
  for (const lazy of [false, true]) {
    const p = parser(HTTPParser.REQUEST, { lazyHeaders: lazy });
    const got = [];
    p[HTTPParser.kOnHeadersComplete] = function() {
      for (const name of ['host', 'Host', 'HOST', 'user-agent', 'User-Agent', 'accept', 'Accept', 'x-a', 'dnt']) {
        got.push(this.getHeader(name));
      }
    };
    p.execute(Buffer.from('GET / HTTP/1.1\r\nX-A: 0\r\nhOsT: first\r\nHost: second\r\n' +
      'User-Agent: ua\r\nuser-agent: ua2\r\nACCEPT: a\r\naccept: b\r\n\r\n'));
    assert.deepStrictEqual(got, ['first', 'first', 'first', 'ua', 'ua', 'a', 'a', '0', undefined]);
  }
});

test('headers that arrive in pieces', () => {
  const p = parser();
  const got = [];
  p[HTTPParser.kOnHeadersComplete] = function(maj, min, headers, method, url) {
    got.push([url, this.getAllHeaders(), headers]);
  };
  p.execute(Buffer.from('GET /a HTTP/1.1\r\nA: 1\r\n\r\nGET /b HTTP/1.1\r\nX: 1'));
  p.execute(Buffer.from('0\r\nY: 2\r\n\r\n'));
  assert.deepStrictEqual(got, [
    ['/a', ['A', '1'], ['A', '1']],
    ['/b', ['X', '10', 'Y', '2'], ['X', '10', 'Y', '2']],
  ]);
  assert.deepStrictEqual(p.getAllHeaders(), []);
  assert.strictEqual(p.getHeader('y'), undefined);
});

test('getAllTrailers', () => {
  const p = parser(HTTPParser.RESPONSE);
  let trailers;
  let headers;
  p[HTTPParser.kOnHeadersComplete] = () => {};
  p[HTTPParser.kOnHeaders] = () => {};
  p[HTTPParser.kOnMessageComplete] = function() {
    trailers = this.getAllTrailers();
    headers = this.getAllHeaders();
  };
  p.execute(Buffer.from('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1\r\nx\r\n0\r\nT1: a\r\nT2: b\r\n\r\n'));
  assert.deepStrictEqual(trailers, ['T1', 'a', 'T2', 'b']);
  assert.deepStrictEqual(headers, ['Transfer-Encoding', 'chunked']);
});

test('lazy mode: no header array; headers read on demand, valid after the input is reused', () => {
  for (const lazy of ['property', 'option']) {
    const p = lazy === 'option' ? parser(HTTPParser.REQUEST, { lazyHeaders: true }) : parser();
    if (lazy === 'property') p.lazyHeaders = true;
    const calls = [];
    p[HTTPParser.kOnHeaders] = (h, u) => calls.push(['flush', h, u]);
    p[HTTPParser.kOnHeadersComplete] = function(maj, min, headers, method, url) {
      calls.push(['hc', headers, url, this.getHeader('h40')]);
    };
    let raw = '';
    for (let i = 0; i < 41; i++) raw += `H${i}: v${i}\r\n`;
    const input = Buffer.from(`GET /lazy HTTP/1.1\r\n${raw}\r\n`);
    const half = Math.floor(input.length / 2);
    p.execute(input.subarray(0, half));
    p.execute(input.subarray(half));
    assert.deepStrictEqual(calls, [['hc', undefined, '/lazy', 'v40']], lazy);
    input.fill(0);
    const all = p.getAllHeaders();
    assert.strictEqual(all.length, 82);
    assert.deepStrictEqual(all.slice(0, 4), ['H0', 'v0', 'H1', 'v1']);
    assert.deepStrictEqual(all.slice(-2), ['H40', 'v40']);
  }
});

test('lazy mode off by default; a repeated message yields equal fresh arrays', () => {
  const p = parser();
  assert.strictEqual(p.lazyHeaders, false);
  const arrays = [];
  p[HTTPParser.kOnHeadersComplete] = (maj, min, headers) => { arrays.push(headers); };
  const msg = Buffer.from('GET / HTTP/1.1\r\nHost: h\r\nAccept: */*\r\n\r\n');
  for (let i = 0; i < 3; i++) p.execute(msg);
  p.execute(Buffer.from('GET / HTTP/1.1\r\nHost: other\r\nAccept: */*\r\n\r\n'));
  assert.deepStrictEqual(arrays.slice(0, 3), [['Host', 'h', 'Accept', '*/*'], ['Host', 'h', 'Accept', '*/*'], ['Host', 'h', 'Accept', '*/*']]);
  assert.notStrictEqual(arrays[0], arrays[1]);
  assert.deepStrictEqual(arrays[3], ['Host', 'other', 'Accept', '*/*']);
});

