'use strict';
// Builds and runs the C core's unit tests: every test/core/test_*.c, each a
// program of its own linked with the core (scripts/install/core-sources.js).
// With --sanitize, under AddressSanitizer + UndefinedBehaviorSanitizer.
const fs = require('node:fs');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const llhttp = require('../install/llhttp');
const coreSources = require('../install/core-sources');

const ROOT = path.resolve(__dirname, '..', '..');
const TESTS = path.join(ROOT, 'test', 'core');
const sanitize = process.argv.includes('--sanitize');

function main() {
  const found = llhttp.resolve();
  const out = path.join(TESTS, 'build');
  fs.mkdirSync(out, { recursive: true });
  const cc = process.env.CC || 'cc';
  const flags = ['-std=c11', '-Wall', '-Wextra', '-Werror', '-g',
    ...(sanitize ? ['-O1', '-fsanitize=address,undefined', '-fno-sanitize-recover=all',
      '-fno-omit-frame-pointer'] : ['-O2']),
    '-I', found.include];
  let failed = 0;
  for (const test of fs.readdirSync(TESTS).filter((f) => /^test_.*\.c$/.test(f)).sort()) {
    const exe = path.join(out, path.basename(test, '.c') + (sanitize ? '_sanitized' : ''));
    const build = spawnSync(cc, [...flags, ...coreSources.map((file) => path.join(ROOT, file)),
      path.join(TESTS, test), found.lib, '-ldl', '-o', exe], { stdio: 'inherit' });
    if (build.status !== 0) process.exit(build.status || 1);
    const run = spawnSync(exe, [], { stdio: 'inherit', env: { ...process.env, ASAN_OPTIONS: 'detect_leaks=1' } });
    if (run.status !== 0) failed++;
  }
  process.exit(failed ? 1 : 0);
}

main();
