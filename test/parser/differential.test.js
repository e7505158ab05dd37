'use strict';
// Differential test: a fixed-seed run of generated requests and responses
// (test/support/generate.js), valid and malformed, cut at random points,
// through the built-in parser and ours; every outcome must match
// (test/support/differential-harness.js), except the known differences of
// docs/differences.md (llhttp 9.2.1 / 9.3.1, the built-in's stale count
// after an unseen upgrade), which are counted.
// Long runs: node scripts/dev/differential.js --cases 200000 --seed N
const test = require('node:test');
const assert = require('node:assert');
const { generateCase } = require('../support/generate');
const { compareCase, reproSnippet } = require('../support/differential-harness');
const { HTTPParser } = require('../..');

const SEED = 20240611;
const CASES = 5000;

test(`differential: ${CASES} generated cases (seed ${SEED}) match the built-in parser`, (t) => {
  const mismatches = [];
  const known = new Map();
  for (let i = 0; i < CASES; i++) {
    const tc = generateCase(SEED, i);
    const res = compareCase(HTTPParser, tc);
    if (res.status === 'known') known.set(res.note, (known.get(res.note) || 0) + 1);
    if (res.status === 'mismatch' && mismatches.length < 5) {
      mismatches.push(`case ${tc.id} (node scripts/dev/differential.js --case ${tc.id}):\n` +
        `  builtin: ${JSON.stringify(res.builtin).slice(0, 600)}\n  ours:    ${JSON.stringify(res.ours).slice(0, 600)}\n` +
        reproSnippet(tc).slice(0, 2000));
    }
  }
  for (const [note, n] of known) t.diagnostic(`known difference (${n}): ${note}`);
  assert.deepStrictEqual(mismatches, []);
});

test('differential: the generator is deterministic and varied', () => {
  const a = generateCase(7, 123);
  const b = generateCase(7, 123);
  assert.deepStrictEqual(a.input, b.input);
  assert.deepStrictEqual(a.chunks, b.chunks);
  assert.strictEqual(Buffer.concat(a.chunks).equals(a.input), true);
  const tags = new Set();
  let requests = 0;
  for (let i = 0; i < 2000; i++) {
    const tc = generateCase(SEED, i);
    if (tc.type === 'request') requests++;
    for (const t of tc.tags) tags.add(t);
  }
  assert.ok(requests > 800 && requests < 1400);
  for (const t of ['malformed', 'chunked', 'chunk-ext', 'trailers', 'obs-fold', 'cl-and-te',
    'odd-content-length', 'odd-transfer-encoding', 'byte-by-byte', 'many-headers', 'huge-header',
    'odd-value-byte', 'absolute-form', 'http09', 'mutated', 'upgrade-header', 'keep-alive-variant',
    'pause', 'pause-in-callback', 'reused-parser', 'missing-handler', 'handler-throws', 'empty-execute']) {
    assert.ok(tags.has(t), `generator never produced '${t}'`);
  }
});

// The built-in's bytesParsed is garbage in some places; make sure the
// harness still compares what it should.
test('differential harness: compares events, results and sticky errors', () => {
  const { compareRecords } = require('../support/differential-harness');
  const tc = { type: 'request', chunks: [Buffer.from('x')], input: Buffer.from('x') };
  const step = (result, events = []) => ({ op: 'execute', length: 1, events, result });
  assert.strictEqual(compareRecords(tc, [step(['ok', 1])], [step(['ok', 1])]).status, 'same');
  assert.strictEqual(compareRecords(tc, [step(['ok', 1])], [step(['ok', 0])]).status, 'mismatch');
  assert.strictEqual(compareRecords(tc, [step(['ok', 1], [['begin']])], [step(['ok', 1])]).status, 'mismatch');
  const err = (at) => ['error', 'HPE_INVALID_METHOD', 'Invalid method encountered', at];
  assert.strictEqual(compareRecords(tc, [step(err(0)), step(err(77))], [step(err(0)), step(err(0))]).status, 'same');
  assert.strictEqual(compareRecords(tc, [step(err(0))], [step(err(1))]).status, 'mismatch');
});

// --- mismatches found by the differential runs, until fixed ------------------

const { HTTPParser: BuiltinParser } = require('_http_common');

function drive(P, type, chunks, setup) {
  const p = new P();
  const ev = [];
  p.initialize(P[type], {}, 0, 0);
  p[P.kOnHeadersComplete] = function (maj, min, headers, method, url, statusCode, statusMessage) {
    ev.push(['hc', headers, url, statusMessage]);
    return setup ? setup.call(this) : 0;
  };
  p[P.kOnBody] = (b) => ev.push(['body', b.toString('latin1')]);
  p[P.kOnMessageComplete] = () => ev.push(['complete']);
  for (const c of chunks) {
    const r = c === 'finish' ? p.finish() : p.execute(typeof c === 'string' ? Buffer.from(c, 'latin1') : c);
    ev.push(r instanceof Error ? ['error', r.code, r.reason] : ['result', r]);
  }
  p.close();
  return ev;
}

// An empty Buffer that has no ArrayBuffer of its own (Buffer.alloc(0),
// Buffer.from(''), new Uint8Array(0)) reaches the core with a NULL data
// pointer; llhttp_execute(NULL, 0) used to drop the span under way (URL,
// header, status text, body). (The built-in is not compared here: it takes
// an empty view whose data pointer is NULL for finish(), see below.)
test('differential: an execute of Buffer.alloc(0) inside a URL keeps the URL', () => {
  const ev = drive(HTTPParser, 'REQUEST', ['GET /pa', Buffer.alloc(0), 'th HTTP/1.1\r\nHost: x\r\n\r\n']);
  assert.deepStrictEqual(ev, [['result', 7], ['result', 0], ['hc', ['Host', 'x'], '/path', undefined],
    ['complete'], ['result', 24]]);
});

test('differential: an execute of an empty Uint8Array inside a body keeps the body', () => {
  const ev = drive(HTTPParser, 'RESPONSE', ['HTTP/1.1 200 OK\r\n\r\nabc', new Uint8Array(0), 'more', 'finish']);
  assert.deepStrictEqual(ev, [['hc', [], undefined, 'OK'], ['body', 'abc'], ['result', 22], ['result', 0],
    ['body', 'more'], ['result', 4], ['complete'], ['result', undefined]]);
});

test('differential: generated cases without empty executes', () => {
  let mismatches = 0;
  for (let i = 0; i < 1000; i++) {
    const tc = generateCase(SEED + 1, i, { emptyExecutes: false });
    if (compareCase(HTTPParser, tc).status === 'mismatch') mismatches++;
  }
  assert.strictEqual(mismatches, 0);
});

// The built-in loses a pause() made inside a handler when that execute ends
// in an upgrade (llhttp's HPE_PAUSED_UPGRADE overwrites HPE_PAUSED, then
// Node resumes after the upgrade); ours used to keep it.
test('differential: pause() inside kOnHeadersComplete of an upgrading response', () => {
  const pause = function () { this.pause(); return 0; };
  const chunks = ['HTTP/1.1 101 Switching Protocols\r\n\r\n', 'finish'];
  assert.deepStrictEqual(drive(HTTPParser, 'RESPONSE', chunks, pause), drive(BuiltinParser, 'RESPONSE', chunks, pause));
  const req = ['GET / HTTP/1.1\r\nConnection: upgrade\r\nUpgrade: ws\r\n\r\n', 'GET / HTTP/1.1\r\n\r\n'];
  assert.deepStrictEqual(drive(HTTPParser, 'REQUEST', req, pause), drive(BuiltinParser, 'REQUEST', req, pause));
});

// Node 20 and 22's binding take a NULL data pointer for finish(): execute()
// of an empty view over an ArrayBuffer of its own (new ArrayBuffer(0), a view
// or Buffer over one, or Buffer.alloc(0) once its .buffer was read) is a
// finish() there: an EOF-terminated body completes, and mid-message it
// returns HPE_INVALID_EOF_STATE. From 24 on the built-in returns 0, as ours
// does on every line: N-API cannot tell these views from other empty ones
// (docs/differences.md).
const EMPTY_VIEW_FINISHES = Number(process.versions.node.split('.')[0]) < 24;
test(`differential: execute() of a view over new ArrayBuffer(0) returns 0 (the built-in ${EMPTY_VIEW_FINISHES ? 'of this line takes it as finish()' : 'too'})`, () => {
  const head = 'HTTP/1.1 200 OK\r\n\r\nabc';
  const chunks = [head, new Uint8Array(new ArrayBuffer(0))];
  const returnsZero = [['hc', [], undefined, 'OK'], ['body', 'abc'], ['result', 22], ['result', 0]];
  assert.deepStrictEqual(drive(HTTPParser, 'RESPONSE', chunks), returnsZero);
  assert.deepStrictEqual(drive(BuiltinParser, 'RESPONSE', chunks),
    EMPTY_VIEW_FINISHES ? drive(BuiltinParser, 'RESPONSE', [head, 'finish']) : returnsZero);
});

// With no kOnHeaders function the built-in's Flush() returns before setting
// have_flushed_ or clearing the URL, so later headers (and the URL) still
// arrive through kOnHeadersComplete. (Ours used to switch to the flushed
// path: headers and url undefined.)
function withoutHandler(P, type, input, handler) {
  const p = new P();
  const ev = [];
  p.initialize(P[type], {}, 0, 0);
  p[P.kOnHeaders] = (h, u) => ev.push(['headers', h, u]);
  p[P.kOnHeadersComplete] = (maj, min, headers, method, url) => { ev.push(['hc', headers, url]); return 0; };
  p[P.kOnMessageComplete] = () => ev.push(['complete']);
  p[P[handler]] = null;
  const r = p.execute(Buffer.from(input, 'latin1'));
  ev.push(r instanceof Error ? ['error', r.code] : ['result', r]);
  p.close();
  return ev;
}
const chunkedWithTrailer = (url) => `POST ${url} HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n0\r\nT: 1\r\n\r\n`;

test('differential: no kOnHeaders handler, trailers, then the next request', () => {
  const input = chunkedWithTrailer('/a') + 'GET /x HTTP/1.1\r\nA: b\r\n\r\n';
  assert.deepStrictEqual(withoutHandler(HTTPParser, 'REQUEST', input, 'kOnHeaders'),
                         withoutHandler(BuiltinParser, 'REQUEST', input, 'kOnHeaders'));
});

test('differential: no kOnHeaders handler, 33 headers', () => {
  const input = 'GET /y HTTP/1.1\r\n' + Array.from({ length: 33 }, (_, i) => `H${i}: v`).join('\r\n') + '\r\n\r\n';
  assert.deepStrictEqual(withoutHandler(HTTPParser, 'REQUEST', input, 'kOnHeaders'),
                         withoutHandler(BuiltinParser, 'REQUEST', input, 'kOnHeaders'));
});

// With no kOnHeadersComplete function the built-in keeps the headers (and
// the URL) pending: they leave with the trailers, and they count towards the
// 32-field flush of the trailers.
test('differential: no kOnHeadersComplete handler, second request\'s URL with its trailers', () => {
  const input = chunkedWithTrailer('/a') + chunkedWithTrailer('/b');
  assert.deepStrictEqual(withoutHandler(HTTPParser, 'REQUEST', input, 'kOnHeadersComplete'),
                         withoutHandler(BuiltinParser, 'REQUEST', input, 'kOnHeadersComplete'));
});

test('differential: no kOnHeadersComplete handler, held headers count towards the trailers\' 32-field flush', () => {
  const input = 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n' +
    Array.from({ length: 33 }, (_, i) => `T${i}: x`).join('\r\n') + '\r\n\r\n';
  assert.deepStrictEqual(withoutHandler(HTTPParser, 'RESPONSE', input, 'kOnHeadersComplete'),
                         withoutHandler(BuiltinParser, 'RESPONSE', input, 'kOnHeadersComplete'));
});

// A kOnMessageComplete that throws during finish() (an EOF-terminated body):
// lib/ rewinds the core, but the core's rewind restores the state saved at
// the start of the last execute() and re-runs an empty buffer, so the whole
// last buffer is undone. The built-in's llhttp_finish() changes nothing when
// the callback fails: finish() can be called again and parsing goes on.
test('differential: kOnMessageComplete throwing inside finish() leaves the parser where it was', () => {
  const run = (P) => {
    const p = new P();
    const ev = [];
    let throwIt = false;
    p.initialize(P.RESPONSE, {}, 0, 0);
    p[P.kOnBody] = (b) => ev.push(['body', b.toString('latin1')]);
    p[P.kOnMessageComplete] = () => {
      ev.push(['complete']);
      if (throwIt) throw new Error('boom');
    };
    const step = (f) => {
      try {
        const r = f();
        ev.push(r instanceof Error ? ['error', r.code] : ['result', r]);
      } catch (err) {
        ev.push(['threw', err.message]);
      }
    };
    step(() => p.execute(Buffer.from('HTTP/1.1 200 OK\r\n\r\nabc')));
    throwIt = true;
    step(() => p.finish());
    throwIt = false;
    step(() => p.finish());
    step(() => p.execute(Buffer.from('more')));
    p.close();
    return ev;
  };
  assert.deepStrictEqual(run(HTTPParser), run(BuiltinParser));
});

// --- known differences ----------------------------------------------------------

// Case 45104:458284 of a long run (docs/differences.md): a CONNECT request
// with no kOnHeadersComplete handler to see its upgrade flag, then more
// bytes. llhttp stops on them with a lingering error, hidden by the upgrade
// flag; the built-in's count is then error_pos - data with error_pos in an
// earlier buffer (whatever lies between two allocations: 1 on 22 and 24, 337
// on 26, -7 in the long run), ours is what llhttp parsed of this buffer: 0.
test('differential: a stale count after an upgrade no kOnHeadersComplete saw is a known difference, not a mismatch', () => {
  const { STALE_AFTER_UPGRADE } = require('../support/differential-harness');
  const chunks = ['CONNECT \ng:\r\n\r\n', '0', '0'].map((c) => Buffer.from(c, 'latin1'));
  const tc = { id: 'stale', type: 'request', chunks, input: Buffer.concat(chunks), lenient: 0, maxHeaderSize: 0,
    answers: [], finish: false, view: 'uint8', missing: ['kOnHeadersComplete'] };
  const res = compareCase(HTTPParser, tc);
  // 'same' when the built-in's stale count falls outside [0, 1] (the rule
  // for those) or happens to be 0
  assert.ok(res.status === 'same' || (res.status === 'known' && res.note === STALE_AFTER_UPGRADE), JSON.stringify(res));
  assert.deepStrictEqual(res.records.ours.map((s) => s.result), [['ok', 15], ['ok', 1], ['ok', 0]]);
  const again = compareCase(HTTPParser, generateCase(45104, 458284));
  assert.ok(again.status === 'same' || again.note === STALE_AFTER_UPGRADE, JSON.stringify(again.status));
  // Not a cover for other differences: the same counts after a message
  // that did not upgrade, or with an event after the upgrade, stay mismatches.
  const { staleCountAfterUnseenUpgrade } = require('../support/differential-harness');
  const step = (length, result, events = []) => ({ op: 'execute', length, events, result, prelude: false });
  const mismatch = { status: 'mismatch', where: 2 };
  const b = [step(15, ['ok', 15], [['begin'], ['complete']]), step(1, ['ok', 1]), step(1, ['ok', 1])];
  const o = [step(15, ['ok', 15], [['begin'], ['complete']]), step(1, ['ok', 1]), step(1, ['ok', 0])];
  assert.strictEqual(staleCountAfterUnseenUpgrade(tc, mismatch, b, o), STALE_AFTER_UPGRADE);
  const get = { ...tc, chunks: ['GET / HTTP/1.1\r\n\r\n', '0', '0'].map((c) => Buffer.from(c)) };
  assert.strictEqual(staleCountAfterUnseenUpgrade(get, mismatch, b, o), null);
  const withEvent = [...b.slice(0, 2), step(1, ['ok', 1], [['begin']])];
  assert.strictEqual(staleCountAfterUnseenUpgrade(tc, mismatch, withEvent, o), null);
});
