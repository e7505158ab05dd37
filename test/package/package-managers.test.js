'use strict';
// The packed tarball, installed as applications install it, never compiles
// where it carries a binary for this platform: npm (install, ci twice, install
// from the lockfile, rebuild), pnpm 10, yarn 1 and yarn 4, each from its
// lockfile again after node_modules is gone, without a compiler on PATH and
// with the machine's own. After each step the application loads the prebuilt
// binary (the file the process maps), the package holds no build/ and no
// .llhttp/ (llhttp fetched for a build), and the manager printed no build
// and no warning about one (npm 11's allowScripts, pnpm 10's ignored builds).
// Linux with glibc only: it reads /proc/self/maps and names the glibc
// prebuild. (yarn 1 puts node's own folder on its scripts' PATH: where node
// is /usr/bin/node its scripts find the machine's compiler in any case.)
//
// scripts/dev/test-package.js (so .ci/run) runs it with the tarball it packed,
// in LLHTTP_NAPI_TARBALL; without it, this packs one with this platform's
// binary. Not part of npm test (scripts/dev/test-files.js): it packs, and
// fetches pnpm and yarn from npm with npx.
//   node --test test/package/package-managers.test.js
const { test, before, after } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawnSync } = require('node:child_process');

const ROOT = path.resolve(__dirname, '..', '..');
const PNPM = 'pnpm@10'; // pnpm 11 does not run on Node 20
const YARN1 = 'yarn@1';
const YARN4 = '@yarnpkg/cli-dist@4';

let tmp;
let tarball;
let bare; // PATH: node, npm, npx and sh only (no C compiler, make or python3)
let full; // the machine's PATH, compilers included

function run(cmd, args, cwd, env) {
  const r = spawnSync(cmd, args, { cwd, env, encoding: 'utf8', maxBuffer: 64 << 20, timeout: 300000 });
  r.output = (r.stdout || '') + (r.stderr || '') + (r.error ? String(r.error) : '');
  return r;
}

function onPath(name) {
  for (const dir of process.env.PATH.split(path.delimiter)) {
    const file = path.join(dir, name);
    if (fs.existsSync(file)) return fs.realpathSync(file);
  }
  throw new Error(`${name} is not on PATH`);
}

before(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'llhttp-napi-managers-'));
  tarball = process.env.LLHTTP_NAPI_TARBALL;
  if (!tarball) {
    const env = { ...process.env, LLHTTP_NAPI_PREBUILDS: `${process.platform}-${process.arch}` };
    const pack = run('npm', ['pack', '--json', '--pack-destination', tmp], ROOT, env);
    assert.equal(pack.status, 0, pack.output);
    tarball = path.join(tmp, JSON.parse(pack.stdout.slice(pack.stdout.indexOf('[')))[0].filename);
  }
  // A copy beside the applications: yarn 1 records a file: dependency
  // relative to the application (and finds its lockfile stale when given an
  // absolute path).
  fs.copyFileSync(tarball, path.join(tmp, 'llhttp-napi.tgz'));
  tarball = path.join(tmp, 'llhttp-napi.tgz');
  const bin = path.join(tmp, 'bin');
  fs.mkdirSync(bin);
  fs.symlinkSync(process.execPath, path.join(bin, 'node'));
  for (const name of ['npm', 'npx', 'sh']) fs.symlinkSync(onPath(name), path.join(bin, name));
  // Each manager's caches in the temporary folder: nothing of an earlier
  // tarball of the same name and version is reused.
  const caches = {
    YARN_CACHE_FOLDER: path.join(tmp, 'yarn1-cache'),
    YARN_ENABLE_GLOBAL_CACHE: 'false',
    npm_config_update_notifier: 'false',
  };
  bare = { ...process.env, ...caches, PATH: bin };
  full = { ...process.env, ...caches, PATH: bin + path.delimiter + process.env.PATH };
  const compiler = run(process.execPath, ['-p', `require(${JSON.stringify(path.join(ROOT, 'lib', 'toolchain.js'))}).missingTools().length`], tmp, bare);
  assert.equal(compiler.stdout.trim(), '4', 'the bare PATH has no C or C++ compiler, make or python3');
});

after(() => {
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

function newApp(name) {
  const app = path.join(tmp, name);
  fs.mkdirSync(app);
  fs.writeFileSync(path.join(app, 'package.json'), JSON.stringify({ name: 'app', version: '1.0.0', private: true }, null, 2));
  return app;
}

// The addon files the process maps once it has parsed a request with
// llhttp-napi.
const PROBE = `const { HTTPParser } = require('llhttp-napi');
const p = new HTTPParser(); p.initialize(HTTPParser.REQUEST, {});
if (p.execute(Buffer.from('GET / HTTP/1.1\\r\\n\\r\\n')) !== 18) throw new Error('no parse');
const maps = require('node:fs').readFileSync('/proc/self/maps', 'latin1').split('\\n');
console.log(JSON.stringify([...new Set(maps.map((l) => l.split(/\\s+/)[5]).filter((f) => f && f.endsWith('.node')))]));`;

// What a step left: the manager succeeded and built nothing, and the
// application loads the prebuilt binary.
function assertPrebuiltOnly(app, r) {
  assert.equal(r.status, 0, r.output);
  assert.doesNotMatch(r.output, /node-gyp rebuild|gyp (info|ERR)|install-scripts|allowScripts|build scripts|approve-builds|fetching llhttp/i, r.output);
  assert.doesNotMatch(r.output, /\bwarn/i, r.output);
  const pkg = fs.realpathSync(path.join(app, 'node_modules', 'llhttp-napi'));
  assert.ok(!fs.existsSync(path.join(pkg, 'build')), 'nothing was compiled: no build/ in the package');
  assert.ok(!fs.existsSync(path.join(pkg, '.llhttp')), 'no llhttp was fetched for a build: no .llhttp/ in the package');
  const probe = run(process.execPath, ['-e', PROBE], app, bare);
  assert.equal(probe.status, 0, probe.output);
  const prebuild = path.join(pkg, 'prebuilds', `${process.platform}-${process.arch}`, 'llhttp-napi.napi.glibc.node');
  assert.deepEqual(JSON.parse(probe.stdout), [prebuild], 'the prebuilt binary is the addon loaded');
}

// Runs each step as a subtest, in order, whatever the one before gave:
// [what, () => result of the manager's command, remove node_modules first].
async function steps(t, app, list) {
  for (const [what, command, fresh] of list) {
    await t.test(what, () => {
      if (fresh) fs.rmSync(path.join(app, 'node_modules'), { recursive: true, force: true });
      assertPrebuiltOnly(app, command());
    });
  }
}

test('npm: install, ci twice and install from the lockfile without a compiler, rebuild, ci with one', async (t) => {
  const app = newApp('npm');
  const npm = (args, env) => () => run('npm', [...args, '--no-audit', '--no-fund'], app, env);
  await steps(t, app, [
    ['npm install <tarball>, no compiler', npm(['install', tarball], bare)],
    ['npm ci, no compiler', npm(['ci'], bare), true],
    ['npm ci again, no compiler', npm(['ci'], bare), true],
    ['npm install from the lockfile, no compiler', npm(['install'], bare), true],
    ['npm rebuild, no compiler', npm(['rebuild'], bare)],
    ['npm ci, with a compiler', npm(['ci'], full), true],
    ['npm rebuild, with a compiler', npm(['rebuild'], full)],
  ]);
});

test(`pnpm (${PNPM}): add, install from the lockfile without a compiler and with one, rebuild`, async (t) => {
  const app = newApp('pnpm');
  const pnpm = (args, env) => () => run('npx', ['-y', PNPM, ...args, '--store-dir', path.join(tmp, 'pnpm-store')], app, env);
  await steps(t, app, [
    ['pnpm add <tarball>, no compiler', pnpm(['add', tarball], bare)],
    ['pnpm install --frozen-lockfile, no compiler', pnpm(['install', '--frozen-lockfile'], bare), true],
    ['pnpm install --frozen-lockfile, with a compiler', pnpm(['install', '--frozen-lockfile'], full), true],
    ['pnpm rebuild, with a compiler', pnpm(['rebuild'], full)],
  ]);
});

test(`yarn 1 (${YARN1}): add, install from the lockfile without a compiler and with one`, async (t) => {
  const app = newApp('yarn1');
  const yarn = (args, env) => () => run('npx', ['-y', YARN1, ...args, '--no-progress'], app, env);
  await steps(t, app, [
    ['yarn add file:<tarball>, no compiler', yarn(['add', 'file:../llhttp-napi.tgz'], bare)],
    ['yarn install --frozen-lockfile, no compiler', yarn(['install', '--frozen-lockfile'], bare), true],
    ['yarn install --frozen-lockfile, with a compiler', yarn(['install', '--frozen-lockfile'], full), true],
  ]);
});

test(`yarn 4 (${YARN4}, node_modules linker): add, install from the lockfile without a compiler and with one`, async (t) => {
  const app = newApp('yarn4');
  fs.writeFileSync(path.join(app, '.yarnrc.yml'), 'nodeLinker: node-modules\n');
  fs.writeFileSync(path.join(app, 'yarn.lock'), '');
  const yarn = (args, env) => () => run('npx', ['-y', YARN4, ...args], app, env);
  await steps(t, app, [
    ['yarn add llhttp-napi@file:<tarball>, no compiler', yarn(['add', `llhttp-napi@file:${tarball}`], bare)],
    ['yarn install --immutable, no compiler', yarn(['install', '--immutable'], bare), true],
    ['yarn install --immutable, with a compiler', yarn(['install', '--immutable'], full), true],
  ]);
});
