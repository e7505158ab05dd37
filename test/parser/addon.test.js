'use strict';
// The addon itself: how it is built and linked, what it exports, how it
// treats bad input, and its allocation counters.
const test = require('node:test');
const assert = require('node:assert');
const path = require('node:path');
const { execFileSync } = require('node:child_process');
const llhttpNapi = require('../..');
const { coreStats } = require('../../lib/parser-hooks');
const { memory } = require('../../lib/workspace');
const { HTTPParser } = llhttpNapi;
const builtin = require('_http_common');

test('the addon exports no llhttp_ symbol (no interposition with node\'s copy)', () => {
  const file = path.join(__dirname, '..', '..', 'build', 'Release', 'llhttp_napi.node');
  const dynamic = execFileSync('nm', ['-D', '--defined-only', file]).toString();
  assert.doesNotMatch(dynamic, /llhttp_/);
  const imported = execFileSync('nm', ['-D', '--undefined-only', file]).toString();
  assert.doesNotMatch(imported, /llhttp_/);
});

test('versions name the llhttp actually linked', () => {
  const { versions } = llhttpNapi;
  assert.match(versions.llhttp, /^9\.(\d+)\.\d+$/);
  assert.ok(Number(versions.llhttp.split('.')[1]) >= 2);
  assert.strictEqual(versions.addon, require('../../package.json').version);
  assert.match(versions.napi, /^\d+$/);
});

test('methods and allMethods equal the built-in ones', () => {
  assert.deepStrictEqual(llhttpNapi.methods, builtin.methods);
  assert.strictEqual(llhttpNapi.allMethods.length, 47);
  assert.strictEqual(llhttpNapi.allMethods[46], 'QUERY');
  assert.deepStrictEqual(llhttpNapi.allMethods.slice(0, 6), ['DELETE', 'GET', 'HEAD', 'POST', 'PUT', 'CONNECT']);
});

test('statics equal the built-in ones', () => {
  for (const key of Object.keys(builtin.HTTPParser)) {
    assert.strictEqual(HTTPParser[key], builtin.HTTPParser[key], key);
  }
  assert.deepStrictEqual(Object.keys(HTTPParser).sort(), Object.keys(builtin.HTTPParser).sort());
});

test('wrong argument types throw a TypeError', () => {
  const p = new HTTPParser();
  p.initialize(HTTPParser.REQUEST, {});
  for (const bad of ['GET / HTTP/1.1\r\n', undefined, null, 42, {}, [1, 2]]) {
    assert.throws(() => p.execute(bad), TypeError);
  }
  assert.throws(() => p.initialize(3, {}), TypeError);
  assert.throws(() => p.initialize(HTTPParser.REQUEST, null), TypeError);
  // still usable afterwards
  assert.strictEqual(p.execute(Buffer.from('GET / HTTP/1.1\r\n\r\n')), 18);
});

test('execute accepts any ArrayBufferView or ArrayBuffer, like the built-in', () => {
  const text = 'GET / HTTP/1.1\r\n\r\n';
  for (const make of [
    (b) => new Uint8Array(b),
    (b) => new DataView(b.buffer, b.byteOffset, b.byteLength),
    (b) => b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength),
  ]) {
    const p = new HTTPParser();
    p.initialize(HTTPParser.REQUEST, {});
    assert.strictEqual(p.execute(make(Buffer.from(text))), text.length);
  }
});

test('execute after close() or free() neither crashes nor corrupts', () => {
  const p = new HTTPParser();
  p.initialize(HTTPParser.REQUEST, {});
  p.free();
  assert.strictEqual(p.execute(Buffer.from('GET / HTTP/1.1\r\n\r\n')), 18);
  p.close();
  assert.strictEqual(p.execute(Buffer.from('GET / HTTP/1.1\r\n\r\n')), undefined);
  assert.strictEqual(p.finish(), undefined);
  p.close();
});

test('no native allocation per message once warm (10 000 messages, fragmented too)', () => {
  // (what the addon asked malloc for: workspace growths and held heads)
  const mallocs = () => {
    const m = memory();
    return m.poolMallocs + m.workspaceGrowths;
  };
  const p = new HTTPParser();
  p.initialize(HTTPParser.REQUEST, {});
  let completed = 0;
  p[HTTPParser.kOnHeadersComplete] = () => 0;
  p[HTTPParser.kOnMessageComplete] = () => { completed++; };
  const msg = Buffer.from('GET /warm HTTP/1.1\r\nHost: localhost\r\nUser-Agent: t\r\nAccept: */*\r\n' +
    'Cookie: a=b; c=d; e=f\r\nX-Filler: ' + 'x'.repeat(200) + '\r\n\r\n');
  const fragmented = (i) => {
    const frags = (i % 4) + 1;
    const step = Math.ceil(msg.length / frags);
    for (let off = 0; off < msg.length; off += step) p.execute(msg.subarray(off, off + step));
  };
  for (let i = 0; i < 100; i++) {
    p.execute(msg);
    fragmented(i);
  }
  const warm = mallocs();
  for (let i = 0; i < 10000; i++) fragmented(i);
  assert.strictEqual(completed, 10200);
  assert.strictEqual(mallocs(), warm);
  // (and, between messages, the parser holds no head: only the record of
  // the last one, as they repeat)
  assert.strictEqual(p[coreStats]().heldBytes, 0);
});

test('the addon loads in worker threads (context-aware)', async () => {
  const { Worker } = require('node:worker_threads');
  const code = `
    const { parentPort } = require('node:worker_threads');
    const { HTTPParser } = require(${JSON.stringify(path.join(__dirname, '..', '..'))});
    const p = new HTTPParser(); p.initialize(HTTPParser.REQUEST, {});
    let url; p[HTTPParser.kOnHeadersComplete] = (a, b, h, m, u) => { url = u; };
    p.execute(Buffer.from('GET /in-worker HTTP/1.1\\r\\n\\r\\n'));
    parentPort.postMessage(url);`;
  const results = await Promise.all([1, 2].map(() => new Promise((resolve, reject) => {
    const w = new Worker(code, { eval: true });
    w.once('message', resolve);
    w.once('error', reject);
  })));
  assert.deepStrictEqual(results, ['/in-worker', '/in-worker']);
});
