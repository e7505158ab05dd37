'use strict';
// Builds and runs the C core's unit tests (test/core). With --sanitize, under
// AddressSanitizer + UndefinedBehaviorSanitizer.
const fs = require('node:fs');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const llhttp = require('../install/llhttp');

const ROOT = path.resolve(__dirname, '..', '..');
const sanitize = process.argv.includes('--sanitize');

function main() {
  const found = llhttp.resolve();
  const out = path.join(ROOT, 'test', 'core', 'build');
  fs.mkdirSync(out, { recursive: true });
  const exe = path.join(out, sanitize ? 'test_parser_sanitized' : 'test_parser');
  const cc = process.env.CC || 'cc';
  const flags = ['-std=c11', '-Wall', '-Wextra', '-Werror', '-g',
    ...(sanitize ? ['-O1', '-fsanitize=address,undefined', '-fno-sanitize-recover=all',
      '-fno-omit-frame-pointer'] : ['-O2']),
    '-I', found.include,
    path.join(ROOT, 'src', 'core', 'lhn_parser.c'),
    path.join(ROOT, 'src', 'core', 'lhn_llhttp.c'),
    path.join(ROOT, 'test', 'core', 'test_parser.c'),
    found.lib, '-o', exe];
  const build = spawnSync(cc, flags, { stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status || 1);
  const run = spawnSync(exe, [], { stdio: 'inherit', env: { ...process.env, ASAN_OPTIONS: 'detect_leaks=1' } });
  process.exit(run.status === null ? 1 : run.status);
}

main();
