'use strict';
// `npm pack` (prepack, after scripts/prebuild.js): copies binding.gyp to
// where the published package carries it, scripts/install/binding.gyp, so
// that no package manager finds one at the package's root and compiles at
// install (why: scripts/install/gyp-file.js). `--clean` (postpack) removes
// the copy. package.json's "files" leaves the root's binding.gyp out.
//
//   node scripts/ship-gyp.js           copy
//   node scripts/ship-gyp.js --clean   remove the copy
const fs = require('node:fs');
const { AT_ROOT, SHIPPED } = require('./install/gyp-file');

if (process.argv.includes('--clean')) fs.rmSync(SHIPPED, { force: true });
else fs.copyFileSync(AT_ROOT, SHIPPED);
