'use strict';
// Where binding.gyp is. node-gyp reads it from the package's root, and a
// clone has it there. The published package carries it as
// scripts/install/binding.gyp instead: npm, pnpm and yarn give a package
// with a binding.gyp at its root an install script of their own,
// `node-gyp rebuild`, which would compile (or, with no compiler, fail)
// where the package carries a prebuilt binary. npm honours "gypfile": false
// only on a first install, not from a lockfile (`npm ci`), and yarn never.
// `npm pack` puts the copy there (scripts/ship-gyp.js, prepack) and removes
// it after (postpack); the build from source (./build.js) puts it at the
// root for the time of its build.
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..', '..');

module.exports = {
  AT_ROOT: path.join(ROOT, 'binding.gyp'),
  SHIPPED: path.join(__dirname, 'binding.gyp'),
};
