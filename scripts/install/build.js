'use strict';
// `npm install` step: finds (or fetches) llhttp, then compiles the addon with
// node-gyp. Uses the headers installed beside node when they exist, so that
// no download from nodejs.org is needed.
const fs = require('node:fs');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const llhttp = require('./llhttp');

const ROOT = path.resolve(__dirname, '..');

function localNodeDir() {
  const prefix = path.resolve(path.dirname(process.execPath), '..');
  return fs.existsSync(path.join(prefix, 'include', 'node', 'node_api.h')) ? prefix : null;
}

function main() {
  let found;
  try {
    found = llhttp.resolve();
  } catch (err) {
    console.error('llhttp-napi: ' + err.message);
    process.exit(1);
  }
  console.log(`llhttp-napi: building against llhttp ${found.version} from ${found.source}`);
  const gyp = require.resolve('node-gyp/bin/node-gyp.js');
  const args = [gyp, 'rebuild'];
  const nodedir = localNodeDir();
  if (nodedir && !process.env.npm_config_nodedir) args.push('--nodedir=' + nodedir);
  const result = spawnSync(process.execPath, args, { cwd: ROOT, stdio: 'inherit' });
  if (result.status !== 0) {
    console.error('llhttp-napi: the native build failed (see above). A C/C++ toolchain ' +
      '(gcc or clang, make, python3) is required.');
    process.exit(result.status || 1);
  }
}

main();
