'use strict';
// The seeded generators of tests and benchmarks give the same bytes they gave
// when the figures and vectors were taken: benchmark/corpus.js (the distinct
// requests and responses and their pieces), the workloads built on it
// (benchmark/server-workloads.js, common.benchRequest) and
// test/support/generate.js (the differential cases, replayed by seed:index).
// Each output is hashed whole; a change of one byte, one cut or one flag
// fails. Refactor them freely, but keep these hashes.
const { test } = require('node:test');
const assert = require('node:assert/strict');
const crypto = require('node:crypto');

const corpus = require('../../benchmark/corpus');
const common = require('../../benchmark/common');
const workloads = require('../../benchmark/server-workloads');
const { generateCase } = require('../support/generate');

function sha256(parts) {
  const hash = crypto.createHash('sha256');
  for (const part of parts) {
    hash.update(String(part.length));
    hash.update(part);
  }
  return hash.digest('hex');
}

test('benchmark/corpus.js: requests and responses, whole and cut', () => {
  const requests = corpus.corpusBuffers('request', 1000, 1);
  const responses = corpus.corpusBuffers('response', 1000, 1);
  assert.equal(sha256(requests), '2e9054a9d9128465727eed929e63362af5e96d4a665dc4c9725be2c6eef0e9f7');
  assert.equal(sha256(responses), 'bc1ebf71dbf9139f163a60e1434bdd8bf69fde1a926fc40a3106e95bfb4eaafd');
  assert.equal(sha256(corpus.corpusBuffers('request', 200, 7)), 'f67a0d37f0462e20e13dc26d6055ff7bef026a905a69d9c246042bab6296b2fc');
  const cut = (list, pieces) => list.flatMap((b, i) => corpus.splitPoints(b, pieces, 1 + (i % 3)));
  assert.equal(sha256(cut(requests, 3)), 'e3032df0857f6fd7c5153db43046d5ceec56c152d7ce228b61a69706938c9524');
  assert.equal(sha256(cut(responses, 8)), '79fd1bb8b44d538f2571ac84273bc61fd62641325139531795299bd7dd6e13aa');
});

test('benchmark/: the bench-parser request and every server workload', () => {
  assert.equal(sha256([8, 16].map((len) => common.benchRequest(len))), '08c1356549acd87fded382d44099df2d70cb57f5215c3e8a9e3969576c13dd42');
  const digests = Object.fromEntries(workloads.NAMES.map((name) => [name, workloads.digest(workloads.requests(name))]));
  // (the digests the committed results name: browser 1e7038bfcdca, hello baa8b65f83b4)
  assert.deepEqual(digests, {
    'hello': 'baa8b65f83b4',
    'browser': '1e7038bfcdca',
    'post-json': '4ac2f4d5da6a',
    'upload': 'ef165e906cf3',
    'express': '07ad622fdea5',
    'fastify': '07ad622fdea5',
    'net-echo': '1e7038bfcdca',
    'server-hello': 'baa8b65f83b4',
    'server-browser': '1e7038bfcdca',
    'server-post-json': '4ac2f4d5da6a',
    'server-upload': 'ef165e906cf3',
    'server-fastify': '07ad622fdea5',
  });
});

test('test/support/generate.js: the differential cases', () => {
  const parts = [];
  for (const seed of [1, 0xC0FFEE]) {
    for (let index = 0; index < 400; index++) {
      const c = generateCase(seed, index, index % 5 === 0);
      const { input, chunks, ...rest } = c;
      parts.push(input, ...chunks, Buffer.from(JSON.stringify(rest, (k, v) => (v instanceof Set ? [...v] : v))));
    }
  }
  assert.equal(sha256(parts), '081c7b69271b78489f9b6226d4a6250bb38c1312fad76124dbebe3531fa3eac8');
});
