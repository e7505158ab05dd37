#!/usr/bin/env node
'use strict';
// Builds the addon from source into build/Release, where it is loaded in
// preference to any prebuilt binary. The package runs no install script:
//   - where the published package carries a prebuilt binary for the
//     platform, nothing needs building;
//   - elsewhere, an application runs `npx llhttp-napi-build` once (this file,
//     the package's bin), or adds `"postinstall": "llhttp-napi-build
//     --if-needed"` to its own scripts (an application's own scripts need no
//     allowScripts approval);
//   - in a clone, `npm test`, `npm run bench` and `npm run soak` run it when
//     the build is missing or stale (scripts/dev/ensure-build.js), and
//     `npm run build` rebuilds.
// It checks the toolchain first and names what is missing, finds (or
// fetches) llhttp (./llhttp.js), then runs node-gyp with the headers
// installed beside node when they exist, so that nothing is downloaded from
// nodejs.org. In the published package binding.gyp is not at the root
// (./gyp-file.js says why): it is put there for the build and removed after.
//
//   llhttp-napi-build               build (always)
//   llhttp-napi-build --if-needed   only when no addon loads (prebuilt or built)
const fs = require('node:fs');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const { AT_ROOT, SHIPPED } = require('./gyp-file');

const ROOT = path.resolve(__dirname, '..', '..');
const PREFIX = 'llhttp-napi-build:';

function localNodeDir() {
  const prefix = path.resolve(path.dirname(process.execPath), '..');
  return fs.existsSync(path.join(prefix, 'include', 'node', 'node_api.h')) ? prefix : null;
}

// node-gyp: the one npm runs scripts with (npm_config_node_gyp), a project's
// own (a clone's devDependency), npm's bundled copy beside this node, or one
// on PATH. It is never a dependency of the package.
function findNodeGyp() {
  const candidates = [];
  if (process.env.npm_config_node_gyp) candidates.push(process.env.npm_config_node_gyp);
  try {
    candidates.push(require.resolve('node-gyp/bin/node-gyp.js', { paths: [ROOT, process.cwd()] }));
  } catch {
    // not installed as a package
  }
  const prefix = path.resolve(path.dirname(process.execPath), '..');
  candidates.push(path.join(prefix, 'lib', 'node_modules', 'npm', 'node_modules', 'node-gyp', 'bin', 'node-gyp.js'));
  candidates.push(path.join(path.dirname(process.execPath), 'node_modules', 'npm', 'node_modules', 'node-gyp', 'bin', 'node-gyp.js'));
  for (const file of candidates) {
    if (file && fs.existsSync(file)) return { cmd: process.execPath, args: [file] };
  }
  const onPath = require('../../lib/toolchain').onPath('node-gyp');
  return onPath ? { cmd: onPath, args: [] } : null;
}

function fail(message) {
  console.error(`${PREFIX} ${message}`);
  process.exit(1);
}

// The addon that loads now (prebuilt or built), or null.
function loadable() {
  const gypBuild = JSON.stringify(require.resolve('node-gyp-build', { paths: [ROOT] }));
  const native = JSON.stringify(path.join(ROOT, 'lib', 'native.js'));
  const code = `const f = require(${gypBuild}).resolve(${JSON.stringify(ROOT)}); require(${native}); console.log(f)`;
  const r = spawnSync(process.execPath, ['-e', code], { cwd: ROOT, encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : null;
}

// Runs build() with binding.gyp at the package's root: a clone's own, or
// the published package's copy, put there for the time of the build only
// (left there, it would make npm, pnpm and yarn rebuild at install).
function withGypFile(build) {
  if (fs.existsSync(AT_ROOT)) return build();
  if (!fs.existsSync(SHIPPED)) fail(`cannot build the addon from source: neither ${AT_ROOT} nor ${SHIPPED} exists`);
  fs.copyFileSync(SHIPPED, AT_ROOT);
  try {
    return build();
  } finally {
    fs.rmSync(AT_ROOT, { force: true });
  }
}

function main(argv) {
  if (argv.includes('--if-needed')) {
    const file = loadable();
    if (file) {
      console.log(`${PREFIX} ${path.relative(ROOT, file)} loads; nothing to build`);
      return;
    }
  }

  const missing = require('../../lib/toolchain').missingTools();
  const nodeGyp = findNodeGyp();
  if (!nodeGyp) missing.push('node-gyp (npm brings its own: run this through npx or an npm script)');
  try {
    require.resolve('node-addon-api', { paths: [ROOT] });
  } catch {
    missing.push('node-addon-api (a dependency of llhttp-napi: npm install)');
  }
  if (missing.length) {
    fail(`cannot build the addon from source: this machine lacks ${missing.join(', ')}.`);
  }

  let found;
  try {
    found = require('./llhttp').resolve();
  } catch (err) {
    fail(`cannot build the addon from source: ${err.message}`);
  }
  console.log(`${PREFIX} building against llhttp ${found.version} from ${found.source}`);
  const args = [...nodeGyp.args, 'rebuild'];
  const nodedir = localNodeDir();
  if (nodedir && !process.env.npm_config_nodedir) args.push('--nodedir=' + nodedir);
  const result = withGypFile(() => spawnSync(nodeGyp.cmd, args, { cwd: ROOT, stdio: 'inherit' }));
  if (result.status !== 0) {
    fail('the native build failed (see above). It needs a C/C++ toolchain ' +
      '(gcc or clang, make, python3) and llhttp 9.3 or 9.4.');
  }
  const file = loadable();
  if (!file) fail('the build finished but the addon does not load (see above)');
  console.log(`${PREFIX} built ${path.relative(ROOT, file)}`);
}

main(process.argv.slice(2));
