'use strict';
// What a parser costs in memory, counted (not timed): the bytes the core and
// the binding hold for an idle parser and for one holding an unfinished head,
// and the JavaScript objects of an idle parser, from a heap snapshot. Each
// budget is the measured figure with a small margin (docs/benchmarks.md,
// "What an idle connection holds"): a change that makes parsers fatter fails
// here.
const { test } = require('node:test');
const assert = require('node:assert/strict');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const { HTTPParser } = require('../..');
const { coreStats } = require('../../lib/parser-hooks');
const { memory } = require('../../lib/workspace');

const ROOT = path.resolve(__dirname, '..', '..');

// Native bytes of an idle parser: its record in the binding (the core's
// llhttp state and counters, the slot). Measured 264 on x64.
const NATIVE_BUDGET = 320;
// JavaScript bytes of an idle parser (HTTPParser, its Head, the
// AsyncResource of initialize()), by heap snapshot. Measured 449 on Node 20
// and 457 on 22-26 (x64, pointer compression off).
const JS_BUDGET = 560;
// What a held head may take beyond the bytes that arrived: its header, and
// 20 bytes per pending pair (at most 31 before a flush).
const HELD_CONSTANT = 16 + 31 * 20;

function parser() {
  const p = new HTTPParser();
  p.initialize(HTTPParser.REQUEST, {});
  p[HTTPParser.kOnHeaders] = () => {};
  p[HTTPParser.kOnHeadersComplete] = () => 0;
  p[HTTPParser.kOnMessageComplete] = () => {};
  return p;
}

test('an idle parser holds its record and nothing else natively', () => {
  const p = parser();
  p.execute(Buffer.from('GET /a HTTP/1.1\r\nHost: example\r\nUser-Agent: memory-test\r\n\r\n'));
  const m = memory();
  assert.ok(m.parserBytes <= NATIVE_BUDGET, `${m.parserBytes} bytes per parser, budget ${NATIVE_BUDGET}`);
  assert.deepStrictEqual(p[coreStats](), { heldBytes: 0, recordBytes: 0 });
  // (the working memory is the thread's: one workspace however many parsers)
  const many = Array.from({ length: 100 }, parser);
  for (const q of many) q.execute(Buffer.from('GET /b HTTP/1.1\r\nHost: h\r\n\r\n'));
  assert.strictEqual(memory().workspaces, m.workspaces);
  for (const q of many) assert.strictEqual(q[coreStats]().heldBytes, 0);
  p.close();
  for (const q of many) q.close();
});

test('an idle parser\'s JavaScript objects stay within their budget (heap snapshot)', () => {
  // In a child: N idle parsers that each served a request; the self sizes of
  // the objects of their kinds, per parser.
  const code = `
    const v8 = require('node:v8');
    const { HTTPParser } = require(${JSON.stringify(ROOT)});
    const N = 500;
    const keep = [];
    for (let i = 0; i < N; i++) {
      const p = new HTTPParser();
      p.initialize(HTTPParser.REQUEST, {});
      p[HTTPParser.kOnHeadersComplete] = () => 0;
      p.execute(Buffer.from('GET /x HTTP/1.1\\r\\nHost: a\\r\\n\\r\\n'));
      keep.push(p);
    }
    const snap = JSON.parse(require('node:fs').readFileSync(v8.writeHeapSnapshot(process.argv[1]), 'utf8'));
    const f = snap.snapshot.meta.node_fields;
    const name = f.indexOf('name'), size = f.indexOf('self_size');
    const bytes = {};
    for (let i = 0; i < snap.nodes.length; i += f.length) {
      const n = snap.strings[snap.nodes[i + name]];
      if (n === 'HTTPParser' || n === 'Head' || n === 'AsyncResource') bytes[n] = (bytes[n] || 0) + snap.nodes[i + size];
    }
    for (const k of Object.keys(bytes)) bytes[k] = Math.round(bytes[k] / N);
    console.log(JSON.stringify(bytes));
  `;
  const file = path.join(require('node:os').tmpdir(), `llhttp-napi-memory-${process.pid}.heapsnapshot`);
  const r = spawnSync(process.execPath, ['-e', code, file], { encoding: 'utf8' });
  require('node:fs').rmSync(file, { force: true });
  assert.strictEqual(r.status, 0, r.stderr);
  const bytes = JSON.parse(r.stdout);
  const total = Object.values(bytes).reduce((a, b) => a + b, 0);
  assert.ok(bytes.Head > 0 && bytes.HTTPParser > 0, r.stdout);
  assert.ok(total <= JS_BUDGET, `${total} bytes of JavaScript objects per idle parser (${r.stdout.trim()}), budget ${JS_BUDGET}`);
});

test('a pending head holds the bytes that arrived plus a constant, and nothing once it completes', () => {
  for (const shape of ['many headers', 'one long value']) {
    const p = parser();
    const head = shape === 'many headers' ?
      'GET /pending HTTP/1.1\r\n' + Array.from({ length: 120 }, (_, i) => `X-Header-${i}: value-${i}-${'v'.repeat(40)}\r\n`).join('') :
      'GET /pending HTTP/1.1\r\nCookie: ' + 'c'.repeat(8000) + '\r\n';
    const bytes = Buffer.from(head);
    let arrived = 0;
    for (let at = 0; at < bytes.length; at += 1000) {
      const piece = bytes.subarray(at, at + 1000);
      assert.strictEqual(p.execute(piece), piece.length);
      arrived += piece.length;
      const held = p[coreStats]().heldBytes;
      assert.ok(held > 0 && held <= arrived + HELD_CONSTANT, `${shape}: ${held} held after ${arrived} bytes`);
    }
    // (many headers: the 32-field flushes delivered most of them, whose bytes
    // the parser no longer needs)
    if (shape === 'many headers') assert.ok(p[coreStats]().heldBytes < 4000);
    assert.strictEqual(p.execute(Buffer.from('\r\n')), 2);
    assert.strictEqual(p[coreStats]().heldBytes, 0);
    p.close();
  }
});
