'use strict';
// Loads the compiled addon. Exports the addon, or throws with the reason.
//
// Which file: a build from source (build/Release, what a clone's `npm test`
// and `npx llhttp-napi-build` make) first, else the prebuilt binary for this
// platform that the published package carries
// (prebuilds/<platform>-<arch>/llhttp-napi.napi[.<libc>].node, the names
// scripts/prebuild.js gives and node-gyp-build also finds). Looked up here by
// name rather than with node-gyp-build at run time: its lookup reads
// process.config, package.json and directory listings, and loading it cost a
// process more than the addon's own pages (docs/benchmarks.md, process
// weight). When neither is there, or the one
// found does not load, the error's first line (which install()'s fallback
// warning quotes) names what is missing and the command that builds one.
//
// LLHTTP_NAPI_ADDON=/path/to/llhttp_napi.node loads that file in place of the
// build found (`npm run test:asan` uses it to run the suites against a
// sanitizer build kept apart from build/Release). A package without a build
// of its own still fails to load, so the fallback stays testable.
const { builtinModule } = require('./builtin-modules');
const fs = builtinModule('node:fs');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..');
const BUILD_COMMAND = 'npx llhttp-napi-build';
const BUILT = ['Release', 'Debug'].map((dir) => path.join(ROOT, 'build', dir, 'llhttp_napi.node'));
const override = process.env.LLHTTP_NAPI_ADDON;

function libc() {
  if (process.platform !== 'linux') return '';
  return process.env.LIBC || (fs.existsSync('/etc/alpine-release') ? 'musl' : 'glibc');
}

function target() {
  const c = libc();
  return `${process.platform}-${process.arch}${c ? ' ' + c : ''}`;
}

// "linux-x64 glibc" for each prebuilt binary the package has.
function prebuilds() {
  const found = [];
  const dir = path.join(ROOT, 'prebuilds');
  let tuples = [];
  try { tuples = fs.readdirSync(dir); } catch { return found; }
  for (const tuple of tuples.sort()) {
    let files = [];
    try { files = fs.readdirSync(path.join(dir, tuple)); } catch { continue; }
    for (const file of files.filter((f) => f.endsWith('.node')).sort()) {
      const tags = file.split('.').slice(1, -1).filter((t) => t !== 'napi');
      found.push([tuple, ...tags].join(' '));
    }
  }
  return found;
}

// What a build from source takes, and what of it this machine lacks.
function howToBuild() {
  const missing = require('./toolchain').missingTools();
  return `run \`${BUILD_COMMAND}\` in the application to build one from source ` +
    '(it needs a C/C++ toolchain, make, python3 and llhttp 9.3 or 9.4' +
    (missing.length ? `; missing here: ${missing.join(', ')})` : ')');
}

function notFound(cause) {
  const have = prebuilds();
  const err = new Error(
    `no prebuilt addon for ${target()} (the package has ${have.length ? 'them for ' + have.join(', ') : 'none'}) ` +
    `and no build from source; ${howToBuild()}\n` + String(cause.message).trim());
  err.code = 'LLHTTP_NAPI_NO_ADDON';
  err.cause = cause;
  return err;
}

function notLoaded(file, cause) {
  const first = String(cause.message).split('\n')[0];
  const rel = path.relative(ROOT, file);
  const what = rel.startsWith('prebuilds') ? `the prebuilt addon ${rel}` : `the addon ${rel.startsWith('..') ? file : rel}`;
  const err = new Error(`${what} does not load here (${first}); ${howToBuild()}\n` + String(cause.message));
  err.code = 'LLHTTP_NAPI_ADDON_LOAD';
  err.cause = cause;
  return err;
}

// The build from source, else this platform's prebuilt binary (the one of
// this libc first, then one for any), or throws.
function resolve() {
  for (const file of BUILT) if (fs.existsSync(file)) return file;
  const c = libc();
  const dir = path.join(ROOT, 'prebuilds', `${process.platform}-${process.arch}`);
  for (const name of [...(c ? [`llhttp-napi.napi.${c}.node`] : []), 'llhttp-napi.napi.node']) {
    if (fs.existsSync(path.join(dir, name))) return path.join(dir, name);
  }
  throw new Error(`No native build was found for ${target()} in ${ROOT}`);
}

let file;
try {
  file = resolve();
} catch (err) {
  throw notFound(err);
}
if (override) file = path.resolve(override);
try {
  module.exports = require(file);
} catch (err) {
  throw notLoaded(file, err);
}
