'use strict';
// Raw llhttp speed on the bytes of bench-parser.js: builds benchmark/c/raw-llhttp.c
// (static llhttp, the one the addon links) and runs it on the same request.
// Prints the median of the repeats in Node's format.
//
//   node benchmark/raw-llhttp.js [len=8] [frags=1] [n=2000000] [--repeats=5] [--clock=wall|cpu]

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { execFileSync } = require('node:child_process');
const common = require('./common');
const stats = require('./stats');
const { build } = require('./c/build');

function rawLlhttp({ len = 8, frags = 1, n = 2e6, repeats = 5, clock = 'wall' } = {}) {
  const binary = build();
  const file = path.join(os.tmpdir(), `llhttp-napi-bench-${process.pid}-len${len}.http`);
  fs.writeFileSync(file, common.benchRequest(len));
  try {
    // Not pinned: the JavaScript benchmarks it is compared with are not either.
    const label = frags > 1 ? `len=${len} frags=${frags}` : `len=${len}`;
    const argv = [binary, file, String(n), String(repeats), label, String(frags), clock];
    const out = execFileSync(argv[0], argv.slice(1), { encoding: 'utf8' });
    const rates = out.split('\n').map(common.parseLine).filter(Boolean).map((l) => l.rate);
    return { len, frags, n, clock, rates, median: stats.median(rates) };
  } finally {
    fs.unlinkSync(file);
  }
}

module.exports = { rawLlhttp };

if (require.main === module) {
  const { options, overrides } = common.parseArgs();
  const len = Number((overrides.len || [8])[0]);
  const frags = Number((overrides.frags || [1])[0]);
  const n = Number((overrides.n || [2e6])[0]);
  const result = rawLlhttp({ len, frags, n, repeats: Number(options.repeats || 5), clock: options.clock || 'wall' });
  console.log(common.formatLine('c/raw-llhttp.c', frags > 1 ? { n, len, frags } : { n, len }, result.median));
}
