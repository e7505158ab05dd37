'use strict';
// The ES module entry (lib/index.mjs through package.json "exports"): named
// imports from an .mjs file on the running line (npm run test:lines runs it
// on 20, 22, 24 and 26), one instance shared with require(), and the
// fallback when the native addon cannot load.
const { test } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const { ROOT, runNode } = require('../support/http-modes');

test('import { HTTPParser, install, isInstalled, versions } from an .mjs file serves node:http', async () => {
  const r = await runNode([path.join(__dirname, 'esm', 'named.mjs')]);
  assert.equal(r.stderr, '');
  assert.equal(r.code, 0);
  const result = JSON.parse(r.stdout);
  assert.deepEqual(result.names, ['HTTPParser', 'allMethods', 'default', 'install', 'isInstalled',
    'methods', 'uninstall', 'versions']);
  assert.deepEqual(result.types, {
    HTTPParser: 'function', install: 'function', uninstall: 'function', isInstalled: 'function',
    versions: 'object', methods: 'object', allMethods: 'object',
  });
  assert.equal(result.versions.addon, require('../../package.json').version);
  assert.match(result.versions.llhttp, /^9\.\d+\.\d+$/);
  assert.equal(result.sameInstance, true, 'the named exports are the CommonJS exports');
  assert.equal(result.installed, true);
  assert.equal(result.isInstalled, true);
  assert.equal(result.sharedState, true, 'install() from ESM is seen by require()');
  assert.equal(result.server, true, 'the server connection used llhttp-napi');
  assert.equal(result.client, true, 'the client response used llhttp-napi');
  assert.equal(result.uninstalled, true);
});

test('the ES entry loads the addon when imported; require() waits for first use', async () => {
  const probe = (lib) => `
    import { createRequire } from 'node:module';
    const require = createRequire(${JSON.stringify(path.join(ROOT, 'package.json'))});
    const native = require.resolve('./lib/native.js');
    ${lib}
    console.log(native in require.cache);`;
  const esm = await runNode(['--input-type=module', '-e', probe("await import('llhttp-napi');")]);
  assert.equal(esm.stdout.trim(), 'true', esm.stderr);
  const cjs = await runNode(['--input-type=module', '-e', probe("require('llhttp-napi').install;")]);
  assert.equal(cjs.stdout.trim(), 'false', cjs.stderr);
});

test('without the addon: the import succeeds, the four are undefined, install() falls back', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'llhttp-napi-esm-noaddon-'));
  try {
    fs.cpSync(path.join(ROOT, 'lib'), path.join(dir, 'lib'), { recursive: true });
    fs.copyFileSync(path.join(ROOT, 'package.json'), path.join(dir, 'package.json'));
    fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
    fs.writeFileSync(path.join(dir, 'app.mjs'), `
      import { HTTPParser, methods, allMethods, versions, install, isInstalled } from 'llhttp-napi';
      import llhttp from 'llhttp-napi';
      let lazy = 'none';
      try { llhttp.HTTPParser; } catch (err) { lazy = err.code; }
      const warnings = [];
      process.on('warning', (w) => warnings.push(w.code + ': ' + w.message));
      const installed = install();
      setImmediate(() => console.log(JSON.stringify({
        undef: [HTTPParser, methods, allMethods, versions].every((v) => v === undefined),
        installed, isInstalled: isInstalled(), lazy, warnings,
      })));`);
    const r = await runNode(['app.mjs'], { cwd: dir });
    assert.equal(r.code, 0, r.stderr);
    const result = JSON.parse(r.stdout);
    assert.equal(result.undef, true);
    assert.equal(result.installed, false);
    assert.equal(result.isInstalled, false);
    assert.equal(result.lazy, 'LLHTTP_NAPI_NO_ADDON', 'the default import keeps the throwing getters');
    assert.equal(result.warnings.length, 1);
    assert.match(result.warnings[0], /^LLHTTP_NAPI_FALLBACK: llhttp-napi could not load its native addon \(no prebuilt addon for .+ and no build from source; run `npx llhttp-napi-build`/);
    assert.equal(r.stderr.match(/LLHTTP_NAPI_FALLBACK/g).length, 1);

    // --import of the register entry falls back the same way.
    const reg = await runNode(['--import', 'llhttp-napi/register', '-e', 'console.log("ran")'], { cwd: dir });
    assert.equal(reg.code, 0);
    assert.equal(reg.stdout.trim(), 'ran');
    assert.match(reg.stderr, /LLHTTP_NAPI_FALLBACK/);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
