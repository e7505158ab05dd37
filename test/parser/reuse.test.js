'use strict';
// Header strings are reused across messages when the core sees the same
// bytes at the same position. Whatever the sequence of messages, the header
// arrays, URLs and status texts must equal the built-in parser's.
const test = require('node:test');
const assert = require('node:assert');
const builtin = require('_http_common').HTTPParser;
const { HTTPParser: napi } = require('../..');

function record(P, type, chunks, answer) {
  const p = new P();
  p.initialize(type, {});
  const out = [];
  p[P.kOnHeaders] = (h, u) => out.push(['h', h, u]);
  p[P.kOnHeadersComplete] = (a, b, h, m, u, s, sm) => { out.push(['hc', h, u, sm]); return answer(); };
  p[P.kOnBody] = (b) => out.push(['b', b.toString('latin1')]);
  p[P.kOnMessageComplete] = () => out.push(['c']);
  for (const c of chunks) {
    const r = p.execute(Buffer.from(c, 'latin1'));
    out.push(r instanceof Error ? ['err', r.code] : ['n', r]);
  }
  return out;
}

// A small seeded generator: messages that repeat, change one value, drop or
// add a header, reorder, change case, and go over 31 headers now and then.
function* sequences(seed, count) {
  let x = seed;
  const rand = (n) => { x = (x * 1103515245 + 12345) & 0x7fffffff; return x % n; };
  const names = ['Host', 'host', 'Accept', 'X-A', 'X-Bb', 'Cookie', 'User-Agent', 'X-Long-Header-Name'];
  const values = ['a', 'b', '', 'same', 'v\xe9', 'x'.repeat(20), 'x'.repeat(21), ' padded ', '12345678'];
  for (let s = 0; s < count; s++) {
    let base = [];
    for (let i = 0, n = 1 + rand(6); i < n; i++) base.push([names[rand(names.length)], values[rand(values.length)]]);
    const msgs = [];
    for (let m = 0; m < 6; m++) {
      const h = base.map((e) => e.slice());
      switch (rand(6)) {
        case 0: break;
        case 1: if (h.length) h[rand(h.length)][1] = values[rand(values.length)]; break;
        case 2: h.splice(rand(h.length + 1), 1); break;
        case 3: h.push([names[rand(names.length)], values[rand(values.length)]]); break;
        case 4: h.reverse(); break;
        case 5: for (let i = 0; i < 33; i++) h.push(['F' + i, String(i % 3)]); break;
      }
      if (rand(3) === 0) base = h;
      msgs.push(`GET /${['a', 'a', 'b'][rand(3)]} HTTP/1.1\r\n${h.map(([n, v]) => `${n}: ${v}\r\n`).join('')}\r\n`);
    }
    const text = msgs.join('');
    const chunks = [];
    for (let at = 0; at < text.length;) {
      const n = rand(3) === 0 ? text.length : 1 + rand(80);
      chunks.push(text.slice(at, at + n));
      at += n;
    }
    yield chunks;
  }
}

test('request header arrays equal the built-in\'s over repeating sequences', () => {
  let cases = 0;
  for (const chunks of sequences(7, 400)) {
    assert.deepStrictEqual(record(napi, napi.REQUEST, chunks, () => 0),
                           record(builtin, builtin.REQUEST, chunks, () => 0), JSON.stringify(chunks));
    cases++;
  }
  assert.strictEqual(cases, 400);
});

test('response status texts and headers, with HEAD answers that rewind', () => {
  const r = 'HTTP/1.1 200 OK\r\nContent-Length: 3\r\nX: 1\r\n\r\nabc';
  const head = 'HTTP/1.1 200 OK\r\nContent-Length: 3\r\nX: 1\r\n\r\n';
  const other = 'HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nX: 2\r\n\r\n';
  const chunks = [r + r, head + other, r.slice(0, 10), r.slice(10) + head, other + r];
  let k = 0;
  const answers = [0, 0, 1, 0, 0, 1, 0, 0];
  const ours = record(napi, napi.RESPONSE, chunks, () => answers[k++] || 0);
  k = 0;
  const theirs = record(builtin, builtin.RESPONSE, chunks, () => answers[k++] || 0);
  assert.deepStrictEqual(ours, theirs);
});

test('messages whose headers were not made as strings are never reused from', () => {
  // Without a kOnHeadersComplete handler the headers of a message are not
  // made at headers complete (the built-in hands them over with the
  // trailers); the next message must not reuse stale strings.
  const msgs = [
    'GET /1 HTTP/1.1\r\nA: one\r\nB: two\r\n\r\n',
    'GET /2 HTTP/1.1\r\nA: ONE\r\nB: TWO\r\n\r\n',
    'GET /3 HTTP/1.1\r\nA: ONE\r\nB: TWO\r\n\r\n',
    'GET /4 HTTP/1.1\r\nA: one\r\nB: two\r\n\r\n',
    'GET /5 HTTP/1.1\r\nA: one\r\nB: two\r\n\r\n',
  ];
  const run = (P) => {
    const p = new P();
    p.initialize(P.REQUEST, {});
    const out = [];
    const hc = (a, b, h, m, u) => { out.push(['hc', u, h]); };
    p[P.kOnHeaders] = (h, u) => out.push(['h', h, u]);
    msgs.forEach((m, i) => {
      p[P.kOnHeadersComplete] = i % 2 === 0 ? hc : undefined;
      p.execute(Buffer.from(m));
    });
    return out;
  };
  assert.deepStrictEqual(run(napi), run(builtin));
});

test('lazy mode: getAllHeaders() equals the built-in\'s arrays over repeating sequences', () => {
  // Ours in lazy mode, asking for the headers at headers complete on some
  // messages only (twice on some); the built-in's arrays are the reference.
  let n = 0;
  for (const chunks of sequences(11, 150)) {
    const want = [];
    const b = new builtin();
    b.initialize(builtin.REQUEST, {});
    let pending = [];
    b[builtin.kOnHeaders] = (h) => { pending.push(...h); };
    b[builtin.kOnHeadersComplete] = (a, c, h) => { want.push(h || pending); pending = []; };
    for (const c of chunks) b.execute(Buffer.from(c, 'latin1'));

    const got = [];
    const p = new napi();
    p.initialize(napi.REQUEST, {}, 0, 0, undefined, { lazyHeaders: true });
    let i = 0;
    p[napi.kOnHeadersComplete] = function(a, c, h) {
      assert.strictEqual(h, undefined);
      const k = i++;
      if (k % 3 === 2) { got.push(null); return; } // not asked: nothing made
      const all = this.getAllHeaders();
      if (k % 2 === 0) assert.deepStrictEqual(this.getAllHeaders(), all);
      got.push(all);
    };
    for (const c of chunks) p.execute(Buffer.from(c, 'latin1'));
    assert.strictEqual(got.length, want.length);
    got.forEach((g, k) => { if (g !== null) assert.deepStrictEqual(g, want[k]); });
    n++;
  }
  assert.strictEqual(n, 150);
});

// A call whose only head repeats the previous one returns no slab string:
// whatever is asked of that message afterwards (getHeader(), getAllHeaders(),
// the URL in lazy mode, trailers) is still right, whole or in pieces.
test('a repeated head: strings asked for during and after execute() are right', () => {
  const msg = 'POST /same HTTP/1.1\r\nHost: h\r\nX-Id: 7\r\nTransfer-Encoding: chunked\r\n\r\n1\r\nz\r\n0\r\nX-T: t\r\n\r\n';
  const want = ['Host', 'h', 'X-Id', '7', 'Transfer-Encoding', 'chunked'];
  for (const lazy of [false, true]) {
    for (const cut of [0, 10, 40, msg.length - 8]) {
      const p = new napi();
      p.initialize(napi.REQUEST, {}, 0, 0, undefined, { lazyHeaders: lazy });
      const seen = [];
      p[napi.kOnHeadersComplete] = function(a, b, headers, m, url) {
        seen.push([url, this.getHeader('x-id'), this.getAllHeaders(), lazy ? undefined : headers]);
      };
      p[napi.kOnMessageComplete] = function() { seen.push(this.getAllTrailers()); };
      for (let i = 0; i < 9; i++) {
        const bytes = Buffer.from(msg, 'latin1');
        if (cut > 0) p.execute(bytes.subarray(0, cut));
        p.execute(bytes.subarray(cut));
        // (after execute() returns, lazy mode keeps the head until the next
        // message begins; a complete message's otherwise goes: docs/api.md)
        assert.equal(p.getHeader('HOST'), lazy ? 'h' : undefined, `after message ${i}, cut ${cut}, lazy ${lazy}`);
        assert.deepStrictEqual(p.getAllHeaders(), lazy ? want : []);
      }
      assert.equal(seen.length, 18);
      for (let i = 0; i < 18; i += 2) {
        assert.deepStrictEqual(seen[i], ['/same', '7', want, lazy ? undefined : want], `message ${i / 2}`);
        assert.deepStrictEqual(seen[i + 1], ['X-T', 't']);
      }
      p.close();
    }
  }
});
