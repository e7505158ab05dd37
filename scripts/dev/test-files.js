'use strict';
// The node:test files of `npm test` and `npm run test:asan`: every
// test/**/*.test.js (test/parser, test/install, test/server, test/package),
// sorted, as paths relative to the checkout.
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..', '..');

function testFiles() {
  return fs.readdirSync(path.join(ROOT, 'test'), { recursive: true })
    .filter((f) => f.endsWith('.test.js'))
    .map((f) => path.join('test', f))
    .sort();
}

module.exports = { testFiles };
