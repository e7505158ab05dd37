'use strict';
// Raw llhttp in C on the bytes of parser.js's repeated request: builds
// benchmark/c/raw-llhttp.c against the static llhttp the addon links (flags
// from scripts/install/llhttp.js) into benchmark/c/build/, runs it, and
// prints the median of the repeats in Node's format. build() is
// instructions.js's too.
//
//   node benchmark/raw-llhttp.js [len=8] [frags=1]

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { execFileSync } = require('node:child_process');
const { median } = require('simple-statistics');
const common = require('./common');

const SOURCE = path.join(__dirname, 'c', 'raw-llhttp.c');
const BINARY = path.join(__dirname, 'c', 'build', 'raw-llhttp');

// The binary, rebuilt when the source or llhttp is newer.
function build() {
  const llhttp = (what) => execFileSync(process.execPath, [path.join(common.ROOT, 'scripts', 'install', 'llhttp.js'), what],
    { encoding: 'utf8' }).trim();
  const lib = llhttp('lib');
  if (fs.existsSync(BINARY) && fs.statSync(BINARY).mtimeMs > Math.max(fs.statSync(SOURCE).mtimeMs, fs.statSync(lib).mtimeMs)) {
    return BINARY;
  }
  fs.mkdirSync(path.dirname(BINARY), { recursive: true });
  execFileSync(process.env.CC || 'cc', ['-O3', '-std=c11', '-Wall', '-Wextra', '-I', llhttp('include'), SOURCE, lib, '-o', BINARY],
    { stdio: ['ignore', 'inherit', 'inherit'] });
  return BINARY;
}

function rawLlhttp({ len = 8, frags = 1, n = 2e6, repeats = 5, clock = 'wall' } = {}) {
  const binary = build();
  const file = path.join(os.tmpdir(), `llhttp-napi-raw-${process.pid}-len${len}.http`);
  fs.writeFileSync(file, common.benchRequest(len));
  try {
    const label = frags > 1 ? `len=${len} frags=${frags}` : `len=${len}`;
    const out = execFileSync(binary, [file, String(n), String(repeats), label, String(frags), clock], { encoding: 'utf8' });
    const rates = out.split('\n').map(common.parseLine).filter(Boolean).map((l) => l.rate);
    return { len, frags, n, clock, rates, median: median(rates) };
  } finally {
    fs.unlinkSync(file);
  }
}

module.exports = { build, rawLlhttp };

if (require.main === module) {
  common.main(({ setting }) => rawLlhttp({ len: setting('len', 8), frags: setting('frags', 1) }),
    (r) => common.formatLine('c/raw-llhttp.c', r.frags > 1 ? { n: r.n, len: r.len, frags: r.frags } : { n: r.n, len: r.len }, r.median));
}
