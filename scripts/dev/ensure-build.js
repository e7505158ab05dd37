'use strict';
// In a clone: builds the addon from source (scripts/install/build.js) when
// build/Release/llhttp_napi.node is missing or older than what it is made
// from (binding.gyp, src/, scripts/install/). `npm test` (scripts/dev/test.js),
// `npm run bench` and `npm run soak` start with it, so `npm install &&
// npm test` works in a fresh clone and tests always run the current sources.
//
// The package has no install or prepare script: npm 11 warns about either
// in every application that installs it (prepare counts for a tarball or
// git install), so a clone's `npm install` builds nothing by itself.
//
//   node scripts/dev/ensure-build.js  build if stale, else nothing
// As a module: ensureBuild() (exits the process if the build fails).
const fs = require('node:fs');
const path = require('node:path');
const { spawnSync } = require('node:child_process');

const ROOT = path.resolve(__dirname, '..', '..');
const ADDON = path.join(ROOT, 'build', 'Release', 'llhttp_napi.node');
const INPUTS = ['binding.gyp', 'src', path.join('scripts', 'install')];

function newestInput() {
  let newest = 0;
  const visit = (file) => {
    const st = fs.statSync(file);
    if (st.isDirectory()) {
      for (const entry of fs.readdirSync(file)) visit(path.join(file, entry));
    } else {
      newest = Math.max(newest, st.mtimeMs);
    }
  };
  for (const input of INPUTS) visit(path.join(ROOT, input));
  return newest;
}

// Why a build is needed, or null.
function staleness() {
  if (!fs.existsSync(ADDON)) return 'build/Release/llhttp_napi.node is missing';
  if (fs.statSync(ADDON).mtimeMs < newestInput()) return 'the sources changed since the last build';
  return null;
}

function ensureBuild() {
  const why = staleness();
  if (why === null) return;
  console.log(`ensure-build: ${why}; building from source`);
  const r = spawnSync(process.execPath, [path.join(ROOT, 'scripts', 'install', 'build.js')],
    { cwd: ROOT, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status || 1);
}

module.exports = { ensureBuild, staleness };

if (require.main === module) ensureBuild();
