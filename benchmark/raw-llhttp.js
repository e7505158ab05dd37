'use strict';
// Raw llhttp in C on the bytes of parser.js's repeated request: builds
// benchmark/c/raw-llhttp.c (c-programs.js), runs it, and prints the median
// of the repeats in Node's format.
//
//   node benchmark/raw-llhttp.js [len=8] [frags=1]

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { execFileSync } = require('node:child_process');
const { median } = require('simple-statistics');
const { build } = require('./c-programs');
const common = require('./common');

function rawLlhttp({ len = 8, frags = 1, n = 2e6, repeats = 5, clock = 'wall' } = {}) {
  const binary = build('raw-llhttp');
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

module.exports = { rawLlhttp };

if (require.main === module) {
  common.main(({ setting }) => rawLlhttp({ len: setting('len', 8), frags: setting('frags', 1) }),
    (r) => common.formatLine('c/raw-llhttp.c', r.frags > 1 ? { n: r.n, len: r.len, frags: r.frags } : { n: r.n, len: r.len }, r.median));
}
