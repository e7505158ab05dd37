'use strict';
// Request smuggling vectors (test/vectors/smuggling.json): every vector must
// come out of our parser exactly as out of the built-in one (Node 20's
// llhttp 9.3.1, up to the documented 9.2/9.3 differences), in strict mode
// and with kLenientAll (insecureHTTPParser), whole, byte by byte and cut in
// two at every point; each single lenient flag on the whole input. The key
// vectors also carry their literal expected outcome.
const test = require('node:test');
const assert = require('node:assert');
const path = require('node:path');
const fs = require('node:fs');
const { compareCase, reproSnippet } = require('../support/differential-harness');
const { outcome } = require('../support/outcome');
const { wholeByteByByteAndCuts } = require('../support/chunks');
const { HTTPParser } = require('../..');
const { HTTPParser: BuiltinParser } = require('_http_common');

const { vectors } = JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'vectors', 'smuggling.json'), 'utf8'));
const MODES = { strict: 0, lenient: HTTPParser.kLenientAll };

function check(v, lenient, chunks, problems) {
  const tc = { type: v.type, input: Buffer.from(v.input, 'latin1'), chunks, lenient, maxHeaderSize: 0, answers: [], finish: true };
  const res = compareCase(HTTPParser, tc);
  if (res.status === 'mismatch' && problems.length < 3) {
    problems.push(`${v.id} lenient=${lenient} chunks=${chunks.length}: builtin ${JSON.stringify(res.builtin).slice(0, 300)} ` +
      `ours ${JSON.stringify(res.ours).slice(0, 300)}\n${reproSnippet(tc).slice(0, 1500)}`);
  }
  return res.status;
}

test('smuggling vectors: the data file is well formed', () => {
  assert.ok(vectors.length >= 100);
  const ids = new Set();
  for (const v of vectors) {
    assert.ok(!ids.has(v.id), `duplicate id ${v.id}`);
    ids.add(v.id);
    assert.ok(v.type === 'request' || v.type === 'response', v.id);
    assert.strictEqual(typeof v.input, 'string');
    assert.ok(v.description && v.category, v.id);
  }
  for (const c of ['cl-te', 'te-cl', 'content-length', 'transfer-encoding', 'header-syntax', 'crlf',
    'obs-fold', 'nul', 'chunk-size', 'chunk-extension', 'request-line', 'absolute-form']) {
    assert.ok(vectors.some((v) => v.category === c), `no vector of category ${c}`);
  }
});

for (const [mode, lenient] of Object.entries(MODES)) {
  test(`smuggling vectors (${mode}): identical outcome to the built-in, whole and at every cut`, (t) => {
    const problems = [];
    const counts = { same: 0, known: 0, mismatch: 0 };
    for (const v of vectors) {
      for (const chunks of wholeByteByByteAndCuts(Buffer.from(v.input, 'latin1'))) counts[check(v, lenient, chunks, problems)]++;
    }
    t.diagnostic(`${mode}: ${JSON.stringify(counts)}`);
    assert.deepStrictEqual(problems, []);
  });
}

test('smuggling vectors: each lenient flag alone', () => {
  const problems = [];
  for (const v of vectors) {
    for (let bit = 1; bit <= 512; bit <<= 1) check(v, bit, [Buffer.from(v.input, 'latin1')], problems);
  }
  assert.deepStrictEqual(problems, []);
});

test('smuggling vectors: literal outcomes of the key vectors', () => {
  const keyed = vectors.filter((v) => v.expect);
  assert.ok(keyed.length >= 30);
  for (const v of keyed) {
    for (const [mode, lenient] of Object.entries(MODES)) {
      assert.deepStrictEqual(outcome(HTTPParser, v.type, v.input, lenient), v.expect[mode], `${v.id} (${mode}), ours`);
      assert.deepStrictEqual(outcome(BuiltinParser, v.type, v.input, lenient), v.expect[mode], `${v.id} (${mode}), built-in`);
    }
  }
});

// The ones that matter most, spelled out.
test('smuggling: strict mode rejects CL.TE, TE.CL, duplicate/signed Content-Length, chunked not last', () => {
  const byId = Object.fromEntries(vectors.map((v) => [v.id, v]));
  const strictError = (id) => outcome(HTTPParser, byId[id].type, byId[id].input, 0).error;
  assert.strictEqual(strictError('cl-te'), 'HPE_INVALID_TRANSFER_ENCODING');
  assert.strictEqual(strictError('te-cl'), 'HPE_INVALID_CONTENT_LENGTH');
  assert.strictEqual(strictError('cl-duplicate-same'), 'HPE_UNEXPECTED_CONTENT_LENGTH');
  assert.strictEqual(strictError('cl-plus'), 'HPE_INVALID_CONTENT_LENGTH');
  assert.strictEqual(strictError('cl-comma'), 'HPE_INVALID_CONTENT_LENGTH');
  assert.strictEqual(strictError('te-chunked-not-last'), 'HPE_INVALID_TRANSFER_ENCODING');
  assert.strictEqual(strictError('space-before-colon-te'), 'HPE_INVALID_HEADER_TOKEN');
  assert.strictEqual(strictError('obs-fold-value'), 'HPE_INVALID_HEADER_TOKEN');
  assert.strictEqual(strictError('nul-in-value'), 'HPE_INVALID_HEADER_TOKEN');
  assert.strictEqual(strictError('chunk-size-overflow'), 'HPE_INVALID_CHUNK_SIZE');
  assert.strictEqual(strictError('chunk-ext-16385'), 'HPE_CHUNK_EXTENSIONS_OVERFLOW');
  assert.strictEqual(strictError('data-after-close'), 'HPE_CLOSED_CONNECTION');
  // with kLenientAll, Transfer-Encoding wins over Content-Length
  const v = byId['cl-te'];
  assert.deepStrictEqual(outcome(HTTPParser, v.type, v.input, 1023).messages, [['/', '']]);
});
