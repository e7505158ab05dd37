'use strict';
// API misuse: wrong types, execute() re-entered from a callback, execute()
// after close(), initialize() during a callback, huge buffers, zero-length
// buffers, detached ArrayBuffers. Ours must give a clear JavaScript error or
// a defined result, never crash, and stay usable after initialize(). Where
// the built-in survives the same misuse it is run too (in a child process
// when it might not), and the comparison is noted.
//
// `npm run test:asan` runs this file against the ASan/UBSan build, so the
// "never crash" cases are also checked for memory errors.
const { test } = require('node:test');
const assert = require('node:assert/strict');
const path = require('node:path');
const { MessageChannel } = require('node:worker_threads');
const { LINE } = require('../support/builtin');
const { runWithParserInChild, describeChildExit } = require('../support/child');
const line = require('../../lib/node-line');

const ROOT = path.resolve(__dirname, '..', '..');
const { HTTPParser } = require(ROOT);
const addon = require(path.join(ROOT, 'lib', 'native'));

// Parses bytes with the addon directly, as lib/workspace.js does.
// A parser id of the addon's own, owned by a fresh object, and the call
// block (lhn_contract.h) that names it, a workspace and a length to the
// next call.
function parserId() {
  return addon.create({});
}

const calls = new Int32Array(addon.workspace(0).state);
function at(parser, depth = 0, length = 0) {
  calls[addon.layout.WS_ADDRESS] = parser * addon.layout.MAX_DEPTH + depth;
  calls[addon.layout.WS_LENGTH] = length;
}

function exec(parser, bytes) {
  at(parser, 0, bytes.length);
  return addon.execute(bytes);
}
const { REQUEST, RESPONSE } = HTTPParser;

const B = (s) => Buffer.from(s, 'latin1');
const GET = 'GET /ok HTTP/1.1\r\nHost: a\r\n\r\n';
const NAMES = ['begin', 'headers', 'hc', 'body', 'complete'];
const CALLBACKS = [0, 1, 2, 3, 4]; // kOnMessageBegin .. kOnMessageComplete
const fmt = (r) => (r instanceof Error ? `${r.code}@${r.bytesParsed}` : r);

// A parser that logs its events; hook(kind, parser, args) runs inside each.
function logged(type = REQUEST, hook = null) {
  const log = [];
  const p = new HTTPParser();
  p.initialize(type, {});
  for (const k of CALLBACKS) {
    p[k] = function(...args) {
      if (k === 1) log.push(`headers ${JSON.stringify(args)}`);
      else if (k === 2) log.push(`hc ${JSON.stringify([args[2], args[3], args[4], args[5]])}`);
      else if (k === 3) log.push(`body ${args[0].toString('latin1')}`);
      else log.push(NAMES[k]);
      const answer = hook === null ? undefined : hook(k, this, args);
      return k === 2 ? (answer || 0) : undefined;
    };
  }
  return { p, log };
}

// The parser still works: a fresh initialize() and a plain request.
function assertUsable(p) {
  const log = [];
  p.initialize(REQUEST, {});
  p[0] = () => log.push('begin');
  p[1] = () => log.push('headers');
  p[2] = (ma, mi, h, m, u) => { log.push(`hc ${u} ${h.join(',')}`); return 0; };
  p[3] = () => log.push('body');
  p[4] = () => log.push('complete');
  assert.equal(p.execute(B(GET)), GET.length);
  assert.deepEqual(log, ['begin', 'hc /ok Host,a', 'complete']);
}

// ---- wrong types ---------------------------------------------------------

const JUNK = {
  string: 'GET / HTTP/1.1\r\n\r\n', number: 42, NaN: NaN, negative: -1, bigint: 10n,
  symbol: Symbol('s'), null: null, undefined: undefined, object: {}, array: [71, 69, 84],
  function: () => {}, boolean: true, date: new Date(0), proxy: new Proxy({}, {}),
};

test('wrong argument types for every method: a TypeError or no effect, never a crash', () => {
  for (const [name, junk] of Object.entries(JUNK)) {
    const p = new HTTPParser();
    p.initialize(REQUEST, {});
    // Arguments that must be of one kind: a TypeError.
    assert.throws(() => p.execute(junk), TypeError, `execute(${name})`);
    assert.throws(() => p.initialize(junk, {}), TypeError, `initialize(${name}, {})`);
    if (name !== 'object' && name !== 'array' && name !== 'date' && name !== 'proxy') {
      assert.throws(() => p.initialize(REQUEST, junk), TypeError, `initialize(REQUEST, ${name})`);
    }
    if (name !== 'string') assert.throws(() => p.getHeader(junk), TypeError, `getHeader(${name})`);
    if (!['null', 'undefined', 'object', 'array', 'date', 'proxy'].includes(name)) {
      assert.throws(() => p.initialize(REQUEST, {}, 0, 0, undefined, junk), TypeError,
                    `initialize options ${name}`);
    }
    // Numbers read with Number() / `| 0`: accepted, or the TypeError those
    // conversions throw (symbols, bigints).
    for (const call of [() => p.initialize(REQUEST, {}, junk), () => p.initialize(REQUEST, {}, 0, junk),
      () => p.initialize(REQUEST, {}, 0, 0, junk)]) {
      try {
        assert.equal(call(), undefined);
      } catch (err) {
        assert.ok(err instanceof TypeError, `${name}: ${err}`);
      }
    }
    // Methods without arguments ignore the ones given.
    p.initialize(REQUEST, {});
    for (const m of ['pause', 'resume', 'free', 'remove', 'unconsume', 'consume']) {
      assert.equal(p[m](junk), undefined, `${m}(${name})`);
    }
    p.resume();
    assert.equal(p.finish(junk), undefined);
    assert.deepEqual(p.getAllHeaders(junk), []);
    assert.deepEqual(p.getAllTrailers(junk), []);
    // (headersCompleted() and duration(): on 20 only, as the built-in.)
    if (LINE < 22) assert.equal(p.headersCompleted(junk), false);
    if (LINE < 22) assert.equal(typeof p.duration(junk), 'number');
    assert.equal(typeof p.headersCompleted, LINE < 22 ? 'function' : 'undefined');
    assert.equal(p.getCurrentBuffer(junk).length, 0);
    assertUsable(p);
    assert.equal(p.close(junk), undefined);
  }
});

test('typed views of any element type, DataView, ArrayBuffer and SharedArrayBuffer are bytes', () => {
  const text = 'GET /v HTTP/1.1\r\n\r\n'; // 19 bytes
  const padded = Buffer.alloc(24);
  padded.write(text, 'latin1');
  for (const view of [new Float64Array(padded.buffer, padded.byteOffset, 3),
    new Int16Array(padded.buffer, padded.byteOffset, 12), new BigInt64Array(padded.buffer, padded.byteOffset, 3),
    new DataView(padded.buffer, padded.byteOffset, 24), new Uint8ClampedArray(padded.buffer, padded.byteOffset, 24)]) {
    const { p, log } = logged();
    // The 5 bytes after the message start another one (NUL bytes: an error).
    const r = p.execute(view);
    assert.ok(r instanceof Error && r.code === 'HPE_INVALID_METHOD' && r.bytesParsed === 19, String(r));
    assert.deepEqual(log.slice(0, 3), ['begin', 'hc [[],1,"/v",null]', 'complete']);
  }
});

test('methods called on something that is not a parser throw a TypeError or do nothing', () => {
  const buf = B(GET);
  for (const [name, junk] of Object.entries({ ...JUNK, parserLike: { _closed: false } })) {
    for (const m of ['execute', 'initialize', 'finish', 'pause', 'resume', 'close']) {
      assert.throws(() => HTTPParser.prototype[m].call(junk, buf), TypeError, `${m} on ${name}`);
    }
    for (const m of ['free', 'remove', 'consume', 'unconsume', 'getCurrentBuffer', 'duration',
      'headersCompleted', 'getAllHeaders', 'getAllTrailers', 'getHeader']) {
      try {
        HTTPParser.prototype[m].call(junk, 'host');
      } catch (err) {
        assert.ok(err instanceof TypeError, `${m} on ${name}: ${err}`);
      }
    }
  }
});

test('the addon functions behind the parser: TypeError, RangeError or "closed" errors', () => {
  const buf = () => B('GET / HTTP/1.1\r\n\r\n');
  for (const [name, junk] of Object.entries(JUNK)) {
    const n = parserId();
    // execute(bytes): bytes must be a Uint8Array
    assert.throws(() => { at(n); addon.execute(junk); }, TypeError, `execute(${name})`);
    assert.throws(() => { at(n); addon.rewind(junk, 0, 0, 0, 0); }, TypeError, `rewind(${name})`);
    if (typeof junk !== 'number') {
      assert.throws(() => addon.close(junk), TypeError, `close(${name})`);
      assert.throws(() => addon.workspace(junk), TypeError, `workspace(${name})`);
    }
    // an owner that is no object
    if (junk === null || (typeof junk !== 'object' && typeof junk !== 'function')) {
      assert.throws(() => addon.create(junk), TypeError, `create(${name})`);
    }
    addon.close(n);
  }
  // Other views than Uint8Array are the caller's to convert: the addon reads
  // another typed array within as many bytes as it has elements, never past.
  assert.throws(() => { at(parserId(), 0, 9); addon.execute(new Uint16Array(4)); }, RangeError);
  // Lengths past the view.
  for (const length of [17, 2 ** 31, -1]) {
    assert.throws(() => { at(parserId(), 0, length); addon.execute(new Uint8Array(16)); }, RangeError);
  }
  // A workspace deeper than the next one to make (nesting goes one by one).
  assert.throws(() => { at(parserId(), 10, 1); addon.execute(buf()); }, RangeError);
  // Event indices out of range.
  for (const index of [6, 100, -1, 2 ** 32 - 1]) { // 6 events recorded
    const n = parserId();
    exec(n, B('GET / HTTP/1.1\r\nHost: a\r\n\r\nGET /2 HTTP/1.1\r\n\r\n'));
    assert.throws(() => { at(n, 0, 3); addon.rewind(new Uint8Array(3), index, 3, 2, 24); }, RangeError);
  }
  // A rewind in a workspace that did not serve the parser's last call.
  const other = parserId();
  exec(other, B(GET));
  assert.throws(() => { at(other, 1, 1); addon.rewind(buf(), 0, 1, 1, 1); }, RangeError);
  // After close().
  const n = parserId();
  exec(n, B('GET / HTTP/1.1\r\nHost: a\r\n\r\n'));
  addon.close(n);
  addon.close(n);
  for (const f of [() => exec(n, buf()), () => { at(n); addon.finish(); }, () => addon.stats(n),
    () => addon.messageStart(n), () => addon.headersCompleted(n),
    () => { at(n, 0, 1); addon.rewind(buf(), 0, 1, 1, 1); }]) {
    assert.throws(f, /the parser is closed/);
  }
  assert.equal(typeof addon.memory().parsers, 'number');
});

test('commands left for a call the addon refuses are dropped, not applied to the next parser called', () => {
  const { WS_COMMANDS, CMD_PAUSE } = addon.layout;
  const state = new Int32Array(addon.workspace(0).state);
  const closed = 1e6; // an id no parser has
  const bad = parserId();
  for (const refused of [() => exec(closed, B(GET)), () => { at(bad, 0, 1); addon.execute({ length: 1 }); },
    () => { at(closed); addon.finish(); }]) {
    state[WS_COMMANDS] = CMD_PAUSE;
    assert.throws(refused);
    assert.equal(state[WS_COMMANDS], 0);
    const next = parserId();
    exec(next, B(GET));
    assert.equal(state[addon.layout.WS_ERROR], 0, 'the next parser was not paused');
    addon.close(next);
  }
  addon.close(bad);
});

test('the addon functions: rewind() with two arguments of the wrong type throws, does not abort',
     () => {
       const r = runWithParserInChild('ours', `
         const addon = require(${JSON.stringify(path.join(ROOT, 'lib', 'native'))});
         let out;
         const calls = new Int32Array(addon.workspace(0).state);
         calls[addon.layout.WS_ADDRESS] = addon.create({}) * addon.layout.MAX_DEPTH;
         calls[addon.layout.WS_LENGTH] = 4;
         try { addon.rewind(new Uint8Array(4), undefined, undefined, 0, 0); out = 'returned'; }
         catch (e) { out = e.constructor.name; }
         console.log(out);`);
       assert.equal(r.status, 0, describeChildExit(r));
       assert.equal(r.stdout.trim(), 'TypeError');
     });

// ---- execute() re-entered from a callback ----------------------------------

// Every callback happens (kOnHeaders for the trailers).
const OUTER = 'POST /outer HTTP/1.1\r\nContent-Length: 5\r\nX-Outer: 1\r\n\r\nhello' +
  'POST /chunked HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\nT: 1\r\n\r\n' +
  'GET /outer2 HTTP/1.1\r\nX-B: 2\r\n\r\n';
const INNER = {
  valid: 'POST /inner HTTP/1.1\r\nContent-Length: 3\r\n\r\nabcGET /inner2 HTTP/1.1\r\n\r\n',
  invalid: '\x01\x02 not http\r\n\r\n',
  empty: '',
  partial: 'GET /par',
};

// Re-enters execute(inner) once, from the callback `kind`, then answers
// `answer` (kOnHeadersComplete) or throws.
function reentrantScenario(kind, inner, answer) {
  let entered = false;
  const innerResults = [];
  const { p, log } = logged(REQUEST, (k, parser) => {
    if (k !== kind || entered) return 0;
    entered = true;
    log.push('<reenter>');
    try {
      innerResults.push(fmt(parser.execute(B(inner))));
    } catch (err) {
      innerResults.push(`threw ${err.constructor.name}`);
    }
    log.push('</reenter>');
    if (answer === 'throw') throw new Error('handler error');
    return answer;
  });
  let outer;
  try {
    outer = fmt(p.execute(B(OUTER)));
  } catch (err) {
    outer = `threw ${err.message}`;
  }
  return { p, log, outer, innerResults, entered };
}

test('execute() re-entered from every callback: no crash, a result, usable afterwards', () => {
  for (const kind of CALLBACKS) {
    for (const [innerName, inner] of Object.entries(INNER)) {
      for (const answer of kind === 2 ? [0, 1, 2, 'throw'] : [0, 'throw']) {
        const what = `${NAMES[kind]} / inner ${innerName} / answer ${answer}`;
        const r = reentrantScenario(kind, inner, answer);
        assert.ok(r.entered, what);
        // (22 on, as the built-in: undefined after a kOnHeaders throw.)
        const hidden = line.headersThrowHidesResult && kind === 1 && answer === 'throw' && r.outer === undefined;
        assert.ok(typeof r.outer === 'number' || /^HPE_|^threw /.test(r.outer) || hidden, `${what}: ${r.outer}`);
        assert.equal(r.innerResults.length, 1, what);
        assertUsable(r.p);
      }
    }
  }
});

test('execute() re-entered from a callback: the built-in survives it too; same events up to it', () => {
  const code = (kind) => `
    const log = [];
    const p = new HTTPParser(); p.initialize(HTTPParser.REQUEST, {});
    let entered = false;
    const names = ${JSON.stringify(NAMES)};
    for (const k of [0, 1, 2, 3, 4]) p[k] = function(...a) {
      if (k === 1) log.push('headers ' + JSON.stringify(a));
      else if (k === 2) log.push('hc ' + JSON.stringify([a[2], a[3], a[4], a[5]]));
      else if (k === 3) log.push('body ' + a[0].toString('latin1'));
      else log.push(names[k]);
      if (k === ${kind} && !entered) { entered = true; log.push('<reenter>');
        try { this.execute(Buffer.from(${JSON.stringify(INNER.valid)}, 'latin1')); } catch {} }
      return 0;
    };
    try { p.execute(Buffer.from(${JSON.stringify(OUTER)}, 'latin1')); } catch {}
    console.log(JSON.stringify(log));`;
  for (const kind of [0, 2, 3, 4]) {
    const builtin = runWithParserInChild('builtin', code(kind));
    assert.equal(builtin.status, 0, describeChildExit(builtin));
    const builtinLog = JSON.parse(builtin.stdout);
    const ours = reentrantScenario(kind, INNER.valid, 0);
    const upTo = (log) => log.slice(0, log.indexOf('<reenter>') + 1);
    assert.deepEqual(upTo(ours.log), upTo(builtinLog), NAMES[kind]);
  }
});

// A stream that emits 'data' synchronously re-enters execute() from inside
// a handler (Node's test-http-parser-multiple-execute). The built-in parses
// the bytes there and then, from llhttp's state at the start of the outer
// buffer; ours parses them after the outer buffer, as the stream's next
// bytes, before the outer call returns, and the outer result stands.
test('execute() re-entered from a callback: the bytes are parsed after the outer buffer, before the outer call returns', () => {
  const plain = logged();
  const expected = fmt(plain.p.execute(B(OUTER)));
  const outerLog = plain.log.slice();
  plain.log.length = 0;
  plain.p.execute(B(INNER.valid));
  const innerLog = plain.log.slice();
  for (const kind of CALLBACKS) {
    const r = reentrantScenario(kind, INNER.valid, 0);
    assert.deepEqual(r.innerResults, [INNER.valid.length], NAMES[kind]);
    assert.equal(r.outer, expected, NAMES[kind]);
    assert.equal(r.log.indexOf('</reenter>'), r.log.indexOf('<reenter>') + 1, `${NAMES[kind]}: nothing inside`);
    const events = r.log.filter((e) => e !== '<reenter>' && e !== '</reenter>');
    assert.deepEqual(events, [...outerLog, ...innerLog], NAMES[kind]);
  }
  // Bytes that fail: the outer call returns their error, as the next read's.
  const bad = reentrantScenario(4, INNER.invalid, 0);
  assert.deepEqual(bad.innerResults, [INNER.invalid.length]);
  assert.match(String(bad.outer), /^HPE_/);
});

// The built-in's finish() inside a handler runs llhttp_finish() in the
// middle of the running execute (an EOF-terminated body completes there and
// then). Ours has parsed the whole buffer by then: the finish is done once
// the buffer's events are delivered, before the outer execute() returns.
test('finish() called from inside a handler is done after the outer buffer\'s events', () => {
  const input = B('HTTP/1.1 200 OK\r\n\r\nabc');
  for (const kind of [0, 2, 3]) {
    const p = new HTTPParser();
    p.initialize(RESPONSE, {});
    const log = [];
    let inner = null;
    for (const k of CALLBACKS) {
      p[k] = function() {
        log.push(NAMES[k]);
        if (k === kind && inner === null) {
          inner = p.finish();
          log.push('<finish>');
        }
        return 0;
      };
    }
    assert.equal(p.execute(input), input.length, NAMES[kind]);
    assert.equal(inner, undefined, NAMES[kind]);
    assert.deepEqual(log.filter((e) => e !== '<finish>'), ['begin', 'hc', 'body', 'complete'], NAMES[kind]);
    assert.equal(log[log.length - 1], 'complete', `${NAMES[kind]}: completed by the finish, after the buffer`);
    assert.equal(p.finish(), undefined);
    p.close();
  }
});

// ---- close() and execute() after it ---------------------------------------

test('execute(), finish() and every method after close(), and close() inside every callback', () => {
  const p = new HTTPParser();
  p.initialize(REQUEST, {});
  p.close();
  assert.equal(p.execute(B(GET)), undefined);
  assert.equal(p.execute(Buffer.alloc(0)), undefined);
  assert.equal(p.finish(), undefined);
  for (const m of ['pause', 'resume', 'free', 'remove', 'consume', 'unconsume', 'close']) {
    assert.equal(p[m](), undefined, m);
  }
  assert.equal(p.initialize(REQUEST, {}), undefined); // a closed parser stays closed
  assert.equal(p.execute(B(GET)), undefined);

  for (const kind of CALLBACKS) {
    let after;
    const { p: q, log } = logged(REQUEST, (k, parser) => {
      if (k !== kind || parser._closed) return 0;
      parser.close();
      after = [parser.execute(B(GET)), parser.finish(), parser.getCurrentBuffer()];
      return 0;
    });
    let r;
    try {
      r = q.execute(B(OUTER));
    } catch (err) {
      r = err;
    }
    assert.ok(r === undefined || typeof r === 'number' || r instanceof Error, `${NAMES[kind]}: ${r}`);
    assert.deepEqual(after, [undefined, undefined, undefined], NAMES[kind]);
    assert.ok(log.length > 0);
    assert.equal(q.execute(B(GET)), undefined);
    assert.equal(q.finish(), undefined);
  }
});

// ---- initialize() during a callback ----------------------------------------

test('initialize() during every callback: no crash; it takes effect at the next execute()', () => {
  for (const kind of CALLBACKS) {
    for (const type of [REQUEST, RESPONSE]) {
      let done = false;
      const { p, log } = logged(REQUEST, (k, parser) => {
        if (k === kind && !done) {
          done = true;
          parser.initialize(type, {});
        }
        return 0;
      });
      const r = p.execute(B(OUTER));
      assert.ok(typeof r === 'number' || r instanceof Error, String(r));
      assert.ok(done);
      // The rest of the buffer was parsed as before initialize(), as a
      // request (handler arguments take the new type's shape at once).
      assert.equal(log[0], 'begin');
      assert.ok(log[1].startsWith('hc [["Content-Length","5","X-Outer","1"],'), log[1]);
      log.length = 0;
      const next = type === REQUEST ? GET : 'HTTP/1.1 204 No Content\r\n\r\n';
      assert.equal(p.execute(B(next)), next.length, `${NAMES[kind]} -> ${type}`);
      assert.equal(log[0], 'begin');
      assert.equal(log.at(-1), 'complete');
      assertUsable(p);
    }
  }
});

test('initialize() during a callback: the built-in survives it too (child process)', () => {
  const r = runWithParserInChild('builtin', `
    const p = new HTTPParser(); p.initialize(HTTPParser.REQUEST, {});
    let done = false;
    p[HTTPParser.kOnHeadersComplete] = function() { if (!done) { done = true; this.initialize(HTTPParser.REQUEST, {}); } return 0; };
    p.execute(Buffer.from(${JSON.stringify(OUTER)}, 'latin1'));
    p.initialize(HTTPParser.REQUEST, {});
    console.log(p.execute(Buffer.from(${JSON.stringify(GET)}, 'latin1')));`);
  assert.equal(r.status, 0, describeChildExit(r));
  assert.equal(r.stdout.trim(), String(GET.length));
});

// ---- huge buffers ------------------------------------------------------------

test('a 256 MiB body in one execute(): one kOnBody chunk, every byte, message complete', () => {
  const N = 256 * 1024 * 1024;
  const { p } = logged();
  let got = 0;
  let chunks = 0;
  let first = -1;
  let last = -1;
  let complete = 0;
  p[HTTPParser.kOnBody] = (b) => {
    got += b.length;
    chunks++;
    if (first < 0) first = b[0];
    last = b[b.length - 1];
  };
  p[HTTPParser.kOnMessageComplete] = () => { complete++; };
  const head = B(`POST /big HTTP/1.1\r\nContent-Length: ${N}\r\n\r\n`);
  assert.equal(p.execute(head), head.length);
  let body = Buffer.alloc(N, 0x61);
  body[N - 1] = 0x7a;
  assert.equal(p.execute(body), N);
  body = null;
  assert.deepEqual([got, chunks, first, last, complete], [N, 1, 0x61, 0x7a, 1]);
  assertUsable(p);
});

test('a view of 2 GiB or more: RangeError without reading it; 2 GiB - 1 parses', () => {
  // Never-touched ArrayBuffers: the kernel maps their pages lazily.
  const { p, log } = logged();
  p[HTTPParser.kOnBody] = null; // no copy of the body
  const max = new Uint8Array(new ArrayBuffer(2 ** 31 - 1));
  max.set(B('POST / HTTP/1.1\r\nContent-Length: 9999999999\r\n\r\n'));
  assert.equal(p.execute(max), 2 ** 31 - 1);
  assert.deepEqual(log, ['begin', 'hc [["Content-Length","9999999999"],3,"/",null]']);
  for (const length of [2 ** 31, 2 ** 31 + 1]) {
    const view = new Uint8Array(new ArrayBuffer(length));
    assert.throws(() => p.execute(view), { name: 'RangeError', message: 'buffer too large' });
  }
  // The parser is where it was: still in the body.
  assert.equal(p.execute(B('abc')), 3);
  // A handler removed before an execute() that threw still reaches the core
  // across initialize(): without kOnHeaders the 32nd field's flush hands
  // nothing over, and headers complete keeps the URL.
  p[HTTPParser.kOnHeaders] = null;
  assert.throws(() => p.execute(new Uint8Array(new ArrayBuffer(2 ** 31))), { name: 'RangeError' });
  p.initialize(REQUEST, {});
  log.length = 0;
  const fields = Array.from({ length: 33 }, (_, i) => `H${i}: v\r\n`).join('');
  p.execute(B(`GET /u HTTP/1.1\r\n${fields}\r\n`));
  assert.deepEqual(log, ['begin', 'hc [["H31","v","H32","v"],1,"/u",null]', 'complete']);
  assertUsable(p);
});

// ---- zero-length buffers -----------------------------------------------------

const ZERO = {
  'Buffer.alloc(0)': () => Buffer.alloc(0),
  'new Uint8Array(0)': () => new Uint8Array(0),
  'subarray at the end': () => Buffer.from('abc').subarray(3),
  'DataView of length 0': () => new DataView(new ArrayBuffer(8), 8),
  'Uint8Array over ArrayBuffer(0)': () => new Uint8Array(new ArrayBuffer(0)),
  'ArrayBuffer(0)': () => new ArrayBuffer(0),
  'SharedArrayBuffer(0)': () => new SharedArrayBuffer(0),
};
const CHUNKED = 'POST /some/url HTTP/1.1\r\nHost: example\r\nTransfer-Encoding: chunked\r\n\r\n' +
  '5\r\nhello\r\n0\r\nTrailer: x\r\n\r\nGET /next HTTP/1.1\r\n\r\n';

function zeroBetweenEveryByte(Parser, zero) {
  const log = [];
  const p = new Parser();
  p.initialize(Parser.REQUEST, {});
  p[0] = () => log.push('begin');
  p[1] = (h, u) => log.push(`headers ${JSON.stringify([h, u])}`);
  p[2] = (ma, mi, h, m, u) => { log.push(`hc ${JSON.stringify([h, m, u])}`); return 0; };
  p[3] = (b) => log.push(`body ${b.toString()}`);
  p[4] = () => log.push('complete');
  const zeros = new Set();
  for (let i = 0; i < CHUNKED.length; i++) {
    zeros.add(fmt(p.execute(zero())));
    assert.equal(p.execute(B(CHUNKED[i])), 1);
  }
  zeros.add(fmt(p.execute(zero())));
  return { log, zeros: [...zeros] };
}

test('zero-length input at every position: returns 0 and changes nothing (as the built-in)', () => {
  const builtin = require('_http_common').HTTPParser;
  for (const [name, zero] of Object.entries(ZERO)) {
    const ours = zeroBetweenEveryByte(HTTPParser, zero);
    assert.deepEqual(ours.zeros, [0], name);
    if (/ArrayBuffer\(0\)/.test(name)) {
      // A view with no backing store: the built-in sees a NULL pointer and
      // runs finish() instead (an error mid-message). Ours: an empty input.
      continue;
    }
    assert.deepEqual(ours, zeroBetweenEveryByte(builtin, zero), name);
  }
  const { p } = logged();
  assert.equal(p.execute(Buffer.alloc(0)), 0); // before anything
  const r = p.execute(B('\x01'));
  assert.equal(r.code, 'HPE_INVALID_METHOD');
  const again = p.execute(Buffer.alloc(0)); // after an error: the error again
  assert.equal(again.code, 'HPE_INVALID_METHOD');
});

// ---- detached ArrayBuffers -----------------------------------------------------

function detachable(text) {
  const u = new Uint8Array(new ArrayBuffer(text.length));
  u.set(B(text));
  return u;
}
const detach = (view) => { structuredClone(view.buffer, { transfer: [view.buffer] }); };

test('a detached input (structuredClone transfer, postMessage transfer list) parses as empty', () => {
  const byClone = detachable(GET);
  detach(byClone);
  const byPort = detachable(GET);
  const { port1 } = new MessageChannel();
  port1.postMessage(byPort, [byPort.buffer]);
  port1.close();
  const dv = new DataView(detachable(GET).buffer);
  structuredClone(dv.buffer, { transfer: [dv.buffer] });
  for (const input of [byClone, byPort]) {
    assert.equal(input.byteLength, 0);
    const { p, log } = logged();
    // The built-in takes a detached view as finish(); ours as an empty input.
    assert.equal(p.execute(input), 0);
    assert.deepEqual(log, []);
    assertUsable(p);
  }
  // A detached ArrayBuffer, or a DataView of one, cannot be viewed as bytes:
  // a TypeError.
  const ab = detachable(GET).buffer;
  structuredClone(ab, { transfer: [ab] });
  const { p } = logged();
  assert.throws(() => p.execute(ab), TypeError);
  assert.throws(() => p.execute(dv), TypeError);
  assertUsable(p);
});

test('the input detached or shrunk by a callback: a JavaScript error or a result, never a crash', () => {
  const text = 'POST /a HTTP/1.1\r\nContent-Length: 5\r\nX: y\r\n\r\nhello' +
    'POST /c HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\nT: 1\r\n\r\nGET /b HTTP/1.1\r\n\r\n';
  const actions = {
    detach: (input) => detach(input),
    shrink: (input) => input.buffer.resize(10),
    empty: (input) => input.buffer.resize(0),
    overwrite: (input) => input.fill(0x00),
  };
  for (const [actionName, action] of Object.entries(actions)) {
    for (const kind of CALLBACKS) {
      for (const answer of kind === 2 ? [0, 1, 2, 'throw'] : [0, 'throw']) {
        const what = `${actionName} in ${NAMES[kind]}, answer ${answer}`;
        let input;
        if (actionName === 'detach' || actionName === 'overwrite') {
          input = detachable(text);
        } else {
          input = new Uint8Array(new ArrayBuffer(text.length, { maxByteLength: text.length }));
          input.set(B(text));
        }
        let acted = false;
        let current = null;
        const { p } = logged(REQUEST, (k, parser) => {
          if (k !== kind || acted) return 0;
          acted = true;
          action(input);
          current = parser.getCurrentBuffer();
          if (answer === 'throw') throw new Error('handler error');
          return answer;
        });
        let r;
        try {
          r = p.execute(input);
        } catch (err) {
          r = err;
        }
        assert.ok(acted, what);
        assert.ok(Buffer.isBuffer(current), what);
        // (22 on, as the built-in: undefined after a kOnHeaders throw.)
        const hidden = line.headersThrowHidesResult && kind === 1 && answer === 'throw' && r === undefined;
        assert.ok(typeof r === 'number' || r instanceof Error || hidden, `${what}: ${r}`);
        assertUsable(p);
      }
    }
  }
});

test('bytes in a SharedArrayBuffer parse as from a Buffer (the addon takes a copy)', () => {
  const text = 'POST /s HTTP/1.1\r\nHost: a\r\nContent-Length: 2\r\n\r\nhi';
  const shared = new Uint8Array(new SharedArrayBuffer(text.length + 4), 2, text.length);
  shared.set(Buffer.from(text, 'latin1'));
  const p = new HTTPParser();
  p.initialize(REQUEST, {});
  const seen = [];
  p[HTTPParser.kOnHeadersComplete] = (major, minor, headers, method, url) => { seen.push(url, ...headers); };
  p[HTTPParser.kOnBody] = (chunk) => { seen.push(chunk.toString()); };
  assert.equal(p.execute(shared), text.length);
  assert.deepStrictEqual(seen, ['/s', 'Host', 'a', 'Content-Length', '2', 'hi']);
});

// ---- methods replaced on an instance ----------------------------------------

test('close() does not call a free() replaced on the parser, as with the built-in (Node\'s test-http-server-connection-list-when-close)', () => {
  const { HTTPParser: Builtin } = require('_http_common');
  for (const Parser of [Builtin, HTTPParser]) {
    const p = new Parser();
    p.initialize(REQUEST, {});
    let calls = 0;
    p.free = () => { calls++; };
    p.close();
    assert.equal(calls, 0, Parser === Builtin ? 'built-in' : 'ours');
  }
});
