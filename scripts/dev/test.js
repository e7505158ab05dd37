'use strict';
// `npm test`: builds the addon if it is missing or older than its sources
// (scripts/dev/ensure-build.js), then the C core's unit tests, then every
// test/**/*.test.js with node:test (or only the test files given as arguments),
// reported by ./test-reporter.js: a line per file, failures in full and
// again at the end, then the runner's summary (`ℹ tests N`, `ℹ pass N`, ...).
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const { testFiles } = require('./test-files');

const ROOT = path.resolve(__dirname, '..', '..');

function run(args) {
  const result = spawnSync(process.execPath, args, { cwd: ROOT, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status || 1);
}

require('./ensure-build').ensureBuild();
run([path.join(__dirname, 'test-core.js')]);
const given = process.argv.slice(2);
const files = given.length ? given : testFiles();
run(['--test', '--test-concurrency=2', `--test-reporter=${path.join(__dirname, 'test-reporter.js')}`, ...files]);
