'use strict';
// Runs test/server with every server of ours forced onto the native transport
// (LLHTTP_NAPI_TRANSPORT=native, issue 46), as .ci/run does, with the node
// binary that runs this script; with --asan, against the addon built with
// AddressSanitizer and UndefinedBehaviorSanitizer (./test-asan.js). Every
// file of the folder runs, so a new one is covered as soon as it lands,
// except the files in NOT_YET: they still fail
// forced native, each for the reason beside it (docs/server.md, "The native
// transport"). Take a file out of NOT_YET when the transport passes it.
const fs = require('node:fs');
const path = require('node:path');
const { spawnSync } = require('node:child_process');

const ROOT = path.resolve(__dirname, '..', '..');
const DIR = 'test/server';

const NOT_YET = new Map([]);

function nativeTransportFiles() {
  return fs.readdirSync(path.join(ROOT, DIR))
    .filter((name) => name.endsWith('.test.js') && !NOT_YET.has(name))
    .sort()
    .map((name) => `${DIR}/${name}`);
}

module.exports = { NOT_YET, nativeTransportFiles };

if (require.main === module) {
  // (--asan: the same files against an ASan + UBSan build of the addon,
  // ./test-asan.js, so that the transport's C runs under both.)
  const runner = process.argv.includes('--asan') ? ['test-asan.js', '--no-core'] : ['test.js'];
  const result = spawnSync(process.execPath, [path.join(__dirname, runner[0]), ...runner.slice(1), ...nativeTransportFiles()], {
    cwd: ROOT, stdio: 'inherit',
    env: { ...process.env, LLHTTP_NAPI_TRANSPORT: 'native' },
  });
  process.exit(result.status === null ? 1 : result.status);
}
