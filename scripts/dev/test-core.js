'use strict';
// Builds and runs the C core's unit tests (test/core): test_parser.c and
// test_clock.c, each an executable of its own. With --sanitize, under
// AddressSanitizer + UndefinedBehaviorSanitizer.
const fs = require('node:fs');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const llhttp = require('../install/llhttp');

const ROOT = path.resolve(__dirname, '..', '..');
const sanitize = process.argv.includes('--sanitize');

const CORE = ['lhn_parser.c', 'lhn_llhttp.c', 'lhn_clock.c'].map((f) => path.join(ROOT, 'src', 'core', f));
const TESTS = ['test_parser', 'test_clock'];

function main() {
  const found = llhttp.resolve();
  const out = path.join(ROOT, 'test', 'core', 'build');
  fs.mkdirSync(out, { recursive: true });
  const cc = process.env.CC || 'cc';
  let status = 0;
  for (const name of TESTS) {
    const exe = path.join(out, sanitize ? `${name}_sanitized` : name);
    const flags = ['-std=c11', '-Wall', '-Wextra', '-Werror', '-g',
      ...(sanitize ? ['-O1', '-fsanitize=address,undefined', '-fno-sanitize-recover=all',
        '-fno-omit-frame-pointer'] : ['-O2']),
      '-I', found.include,
      ...CORE,
      path.join(ROOT, 'test', 'core', `${name}.c`),
      found.lib, '-ldl', '-o', exe];
    const build = spawnSync(cc, flags, { stdio: 'inherit' });
    if (build.status !== 0) process.exit(build.status || 1);
    const run = spawnSync(exe, [], { stdio: 'inherit', env: { ...process.env, ASAN_OPTIONS: 'detect_leaks=1' } });
    if (run.status !== 0) status = run.status === null ? 1 : run.status;
  }
  process.exit(status);
}

main();
