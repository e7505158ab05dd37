'use strict';
// Runs test/server with every server of ours on one transport, as .ci/run
// does, with the node binary that runs this script:
//
//   node scripts/dev/transport-files.js --transport=net    # node:net (LLHTTP_NAPI_TRANSPORT=net)
//   node scripts/dev/transport-files.js --asan             # the default, the native transport,
//                                                          # against the addon built with ASan + UBSan
//
// npm test runs the folder on the default transport, the native one (issue
// 46); --transport=net keeps node:net, which takes TLS and what the native
// transport does not cover, passing the same files. --asan runs them against
// the addon built with AddressSanitizer and UndefinedBehaviorSanitizer
// (./test-asan.js), so that the transport's C runs under both. Every file of
// the folder runs, so a new one is covered as soon as it lands.
const fs = require('node:fs');
const path = require('node:path');
const { spawnSync } = require('node:child_process');

const ROOT = path.resolve(__dirname, '..', '..');
const DIR = 'test/server';

function serverFiles() {
  return fs.readdirSync(path.join(ROOT, DIR))
    .filter((name) => name.endsWith('.test.js'))
    .sort()
    .map((name) => `${DIR}/${name}`);
}

module.exports = { serverFiles };

if (require.main === module) {
  const given = process.argv.find((arg) => arg.startsWith('--transport='));
  const transport = given === undefined ? 'native' : given.slice('--transport='.length);
  if (transport !== 'native' && transport !== 'net') {
    console.error(`transport-files: --transport is native or net, not ${transport}`);
    process.exit(2);
  }
  const runner = process.argv.includes('--asan') ? ['test-asan.js', '--no-core'] : ['test.js'];
  const result = spawnSync(process.execPath, [path.join(__dirname, runner[0]), ...runner.slice(1), ...serverFiles()], {
    cwd: ROOT, stdio: 'inherit',
    env: { ...process.env, LLHTTP_NAPI_TRANSPORT: transport },
  });
  process.exit(result.status === null ? 1 : result.status);
}
