'use strict';
// What the published package is: its install-time behaviour as package.json
// declares it, the exact file list `npm pack` makes (without building the
// prebuilt binary: scripts/dev/test-package.js, run by .ci/run, packs for real,
// installs the tarball and serves apps with it), that no published file
// needs an unpublished one, and the load errors of lib/native.js.
const { test } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { builtinModules } = require('node:module');
const { execFileSync } = require('node:child_process');

const { ROOT, runNode } = require('../support/http-modes');
const { packageWithoutAddon } = require('../support/package-copy');

const pkg = require('../../package.json');

test('package.json: no install script, no implicit node-gyp rebuild, run-time dependencies only', () => {
  for (const hook of ['preinstall', 'install', 'postinstall']) {
    assert.equal(pkg.scripts[hook], undefined, `${hook} would make npm run a script in every app`);
  }
  // In a clone, binding.gyp is at the root: without "gypfile": false npm
  // would add "install": "node-gyp rebuild" to the clone's own install. The
  // published package carries it elsewhere (scripts/install/gyp-file.js).
  assert.ok(fs.existsSync(path.join(ROOT, 'binding.gyp')));
  assert.equal(pkg.gypfile, false);
  assert.deepEqual(Object.keys(pkg.dependencies).sort(), ['node-addon-api', 'node-gyp-build']);
  assert.equal(pkg.dependencies['node-gyp'], undefined);
  const bin = path.join(ROOT, pkg.bin['llhttp-napi-build']);
  assert.match(fs.readFileSync(bin, 'latin1'), /^#!\/usr\/bin\/env node\n/);
  assert.deepEqual(Object.keys(pkg.exports['.']), ['import', 'require']);
  for (const cond of Object.values(pkg.exports['.'])) {
    assert.deepEqual(Object.keys(cond), ['types', 'default'], 'types first, as TypeScript requires');
    for (const file of Object.values(cond)) assert.ok(fs.existsSync(path.join(ROOT, file)), file);
  }
});

// A development install (npm install, npm ci) prints EBADENGINE for each
// locked package whose engines.node refuses the running node. npm test runs
// on each supported line (scripts/dev/test-lines.js), so each is checked.
// (package.json's "overrides" pins fastify's light-my-request to 6.6.0, whose
// cookie 1 admits Node 20; 6.8 takes cookie 2, node >=22.)
test('development install: no locked package refuses the running node (no EBADENGINE)', () => {
  const semver = require(require.resolve('semver', { paths: [path.dirname(require.resolve('node-gyp/package.json', { paths: [ROOT] }))] }));
  const lock = JSON.parse(fs.readFileSync(path.join(ROOT, 'package-lock.json'), 'utf8'));
  const refusing = Object.entries(lock.packages)
    .filter(([, entry]) => entry.engines && entry.engines.node && !semver.satisfies(process.version, entry.engines.node))
    .map(([name, entry]) => `${name} requires node ${entry.engines.node}`);
  assert.deepEqual(refusing, []);
});

// The files npm would publish, from npm itself (no scripts run).
function packList() {
  const out = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
    cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'],
  });
  return JSON.parse(out)[0].files.map((f) => f.path).sort();
}

test('the published files: the library, its sources and build script, examples, docs, LICENSE; no developer tool', () => {
  const files = packList().filter((f) => !f.startsWith('prebuilds/'));
  const expected = [
    'README.md', 'LICENSE', 'package.json',
    ...['lib', 'src', 'scripts/install', 'examples', 'docs'].flatMap((dir) => {
      return execFileSync('git', ['ls-files', dir], { cwd: ROOT, encoding: 'utf8' }).split('\n');
    }),
  ].filter(Boolean);
  // Files other developers have added but not committed yet count too.
  for (const dir of ['lib', 'src', 'scripts/install', 'examples', 'docs']) {
    for (const f of fs.readdirSync(path.join(ROOT, dir), { recursive: true })) {
      const rel = path.posix.join(dir, f.split(path.sep).join('/'));
      if (fs.statSync(path.join(ROOT, rel)).isFile() && !expected.includes(rel)) expected.push(rel);
    }
  }
  assert.deepEqual(files, [...new Set(expected)].sort());
  // No binding.gyp at the tarball's root: npm, pnpm and yarn would compile at
  // install (test/package/package-managers.test.js installs it with each).
  assert.ok(!files.includes('binding.gyp'));
  for (const f of files) {
    assert.doesNotMatch(f, /^(test|benchmark|\.ci)\//, f);
    if (f.startsWith('scripts/')) assert.match(f, /^scripts\/install\//, f);
  }
  for (const needed of ['lib/index.js', 'lib/index.mjs', 'lib/index.d.ts', 'lib/index.d.mts',
    'lib/register.js', 'scripts/install/build.js', 'scripts/install/llhttp.js',
    'src/binding/glibc_compat.h', 'examples/net-server.js', 'docs/api.md']) {
    assert.ok(files.includes(needed), needed);
  }
});

test('no published file requires or imports one that is not published', () => {
  const files = new Set(packList());
  const deps = new Set(Object.keys(pkg.dependencies));
  for (const file of files) {
    if (!/\.(js|mjs)$/.test(file)) continue;
    const text = fs.readFileSync(path.join(ROOT, file), 'utf8');
    const specs = [...text.matchAll(/\brequire\(\s*'([^']+)'\s*\)|\bfrom\s+'([^']+)'|\bimport\(\s*'([^']+)'\s*\)/g)]
      .map((m) => m[1] || m[2] || m[3]);
    for (const spec of specs) {
      if (spec.startsWith('.')) {
        const base = path.posix.normalize(path.posix.join(path.posix.dirname(file), spec));
        const found = ['', '.js', '.json', '.mjs', '/index.js'].some((ext) => files.has(base + ext)) ||
          files.has(path.posix.join(base, 'package.json')); // require('..'): the package's main
        assert.ok(found, `${file} needs ${spec}, which is not published`);
      } else {
        const name = spec.replace(/^node:/, '').split('/')[0];
        assert.ok(builtinModules.includes(name) || builtinModules.includes(spec.replace(/^node:/, '')) ||
          deps.has(name) || name === 'llhttp-napi', `${file} needs ${spec}, not a dependency`);
      }
    }
  }
});

// test/package/types: the require() and import forms of both entries (llhttp-napi and
// llhttp-napi/server) type-check against their .d.ts and .d.mts files (module nodenext).
// typescript and @types/node are dev dependencies: the test always runs. tsc is found
// through typescript's package.json "bin", as npm does (TypeScript 7 exports no bin/tsc).
function tsc() {
  const manifest = require.resolve('typescript/package.json', { paths: [ROOT] });
  const { bin } = require(manifest);
  return path.join(path.dirname(manifest), typeof bin === 'string' ? bin : bin.tsc);
}

test('types: require() and import forms of both entries type-check (tsc, module nodenext)', () => {
  execFileSync(process.execPath, [tsc(), '-p', path.join(__dirname, 'types')], { cwd: ROOT, encoding: 'utf8' });
});

test('no .node binary is tracked by git', () => {
  const tracked = execFileSync('git', ['ls-files', '*.node', '**/*.node'], { cwd: ROOT, encoding: 'utf8' });
  assert.equal(tracked.trim(), '');
});

// (The copy's own lookup, whatever addon the environment points at:
// npm run test:asan sets LLHTTP_NAPI_ADDON.)
const OWN = { LLHTTP_NAPI_ADDON: '' };
const LOAD = `try { require('./lib/native'); console.log('loaded'); }
  catch (err) { console.log(JSON.stringify({ code: err.code, first: err.message.split('\\n')[0] })); }`;

test('load errors name the platform, the prebuilds there are, the build command and what is missing', async () => {
  const dir = packageWithoutAddon();
  try {
    const none = JSON.parse((await runNode(['-e', LOAD], { cwd: dir, env: OWN })).stdout);
    assert.equal(none.code, 'LLHTTP_NAPI_NO_ADDON');
    assert.match(none.first, new RegExp(`^no prebuilt addon for ${process.platform}-${process.arch}\\b.* \\(the package has none\\) and no build from source; run \`npx llhttp-napi-build\` in the application`));

    // Without a toolchain on PATH: what is missing is named.
    const bare = JSON.parse((await runNode(['-e', LOAD], { cwd: dir, env: { ...OWN, PATH: path.join(dir, 'nothing') } })).stdout);
    assert.match(bare.first, /missing here: a C compiler \(cc, gcc or clang\), a C\+\+ compiler \(c\+\+, g\+\+ or clang\+\+\), make, python3\)$/);

    // A prebuild for another platform only.
    fs.mkdirSync(path.join(dir, 'prebuilds', 'sunos-mips'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'prebuilds', 'sunos-mips', 'llhttp-napi.napi.node'), '');
    const other = JSON.parse((await runNode(['-e', LOAD], { cwd: dir, env: OWN })).stdout);
    assert.match(other.first, /\(the package has them for sunos-mips\) and no build from source/);

    // A prebuild that fits but does not load (e.g. a glibc too old).
    if (process.platform === 'linux') {
      const tuple = path.join(dir, 'prebuilds', `linux-${process.arch}`);
      fs.mkdirSync(tuple, { recursive: true });
      fs.writeFileSync(path.join(tuple, 'llhttp-napi.napi.glibc.node'), 'not an ELF file');
      const broken = JSON.parse((await runNode(['-e', LOAD], { cwd: dir, env: { ...OWN, LIBC: 'glibc' } })).stdout);
      assert.equal(broken.code, 'LLHTTP_NAPI_ADDON_LOAD');
      assert.match(broken.first, new RegExp(`^the prebuilt addon prebuilds/linux-${process.arch}/llhttp-napi\\.napi\\.glibc\\.node does not load here \\(.+\\); run \`npx llhttp-napi-build\``));
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
