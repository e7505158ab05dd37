'use strict';
// The benchmarks' programs in C (benchmark/c/NAME.c), built against the
// static llhttp the addon links (flags from scripts/install/llhttp.js) into
// benchmark/c/build/NAME when the source or llhttp is newer than the binary.
//
//   const { build } = require('./c-programs'); build('raw-llhttp') → its path

const fs = require('node:fs');
const path = require('node:path');
const { execFileSync } = require('node:child_process');
const common = require('./common');

function build(name) {
  const source = path.join(__dirname, 'c', `${name}.c`);
  const binary = path.join(__dirname, 'c', 'build', name);
  const llhttp = (what) => execFileSync(process.execPath, [path.join(common.ROOT, 'scripts', 'install', 'llhttp.js'), what],
    { encoding: 'utf8' }).trim();
  const lib = llhttp('lib');
  if (fs.existsSync(binary) && fs.statSync(binary).mtimeMs > Math.max(fs.statSync(source).mtimeMs, fs.statSync(lib).mtimeMs)) {
    return binary;
  }
  fs.mkdirSync(path.dirname(binary), { recursive: true });
  execFileSync(process.env.CC || 'cc', ['-O3', '-std=c11', '-Wall', '-Wextra', '-I', llhttp('include'), source, lib, '-o', binary],
    { stdio: ['ignore', 'inherit', 'inherit'] });
  return binary;
}

module.exports = { build };
