'use strict';
// A copy of the package without its compiled addon (no build/, no
// prebuilds/): lib/ and package.json in a temporary folder, node_modules
// linked, for tests of what happens where the addon cannot load
// (test/install/install.test.js, test/package/packaging.test.js). The caller
// removes it.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..', '..');

function packageWithoutAddon() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'llhttp-napi-noaddon-'));
  fs.cpSync(path.join(ROOT, 'lib'), path.join(dir, 'lib'), { recursive: true });
  fs.copyFileSync(path.join(ROOT, 'package.json'), path.join(dir, 'package.json'));
  fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  return dir;
}

module.exports = { packageWithoutAddon };
