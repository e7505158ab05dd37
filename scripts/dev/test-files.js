'use strict';
// The node:test files of `npm test` and `npm run test:asan`: every
// test/**/*.test.js (test/parser, test/install, test/server, test/package)
// but those run against the packed tarball, sorted, as paths relative to the
// checkout.
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..', '..');

// The files run against the packed tarball (scripts/dev/test-package.js
// gives it in LLHTTP_NAPI_TARBALL): they install it with npm, pnpm and yarn,
// which npm test does not do.
const TARBALL_TESTS = ['test/package/package-managers.test.js'];

function testFiles() {
  return fs.readdirSync(path.join(ROOT, 'test'), { recursive: true })
    .filter((f) => f.endsWith('.test.js'))
    .map((f) => path.join('test', f))
    .filter((f) => !TARBALL_TESTS.includes(f.split(path.sep).join('/')))
    .sort();
}

// The files run against an installed tarball, in a copy of the installed
// package (test-package.js under qemu, test-prebuilt.js on the release
// runners): the drop-in's conformance, install(), the clock, and the
// server's native transport (skipped by a prebuild without it).
const INSTALLED_TESTS = ['test/parser/conformance.test.js', 'test/install/install.test.js', 'test/parser/clock.test.js',
  'test/server/native-transport.test.js'];

module.exports = { testFiles, INSTALLED_TESTS, TARBALL_TESTS };
