'use strict';
// Builds benchmark/c/raw-llhttp.c against the static llhttp the addon links
// (flags from `node scripts/install/llhttp.js include|lib`) into benchmark/c/build/.
//
//   node benchmark/c/build.js        prints the path of the binary

const fs = require('node:fs');
const path = require('node:path');
const { execFileSync } = require('node:child_process');

const ROOT = path.resolve(__dirname, '..', '..');
const SOURCE = path.join(__dirname, 'raw-llhttp.c');
const OUT_DIR = path.join(__dirname, 'build');
const BINARY = path.join(OUT_DIR, 'raw-llhttp');

function llhttp(what) {
  return execFileSync(process.execPath, [path.join(ROOT, 'scripts', 'install', 'llhttp.js'), what], { encoding: 'utf8' }).trim();
}

function build({ force = false } = {}) {
  const include = llhttp('include');
  const lib = llhttp('lib');
  const fresh = fs.existsSync(BINARY) &&
    fs.statSync(BINARY).mtimeMs > Math.max(fs.statSync(SOURCE).mtimeMs, fs.statSync(lib).mtimeMs);
  if (fresh && !force) return BINARY;
  fs.mkdirSync(OUT_DIR, { recursive: true });
  const cc = process.env.CC || 'cc';
  execFileSync(cc, ['-O3', '-std=c11', '-Wall', '-Wextra', '-I', include, SOURCE, lib, '-o', BINARY],
               { stdio: ['ignore', 'inherit', 'inherit'] });
  return BINARY;
}

module.exports = { build, BINARY };

if (require.main === module) {
  try {
    console.log(build({ force: process.argv.includes('--force') }));
  } catch (err) {
    console.error('raw-llhttp build failed: ' + err.message);
    process.exit(1);
  }
}
