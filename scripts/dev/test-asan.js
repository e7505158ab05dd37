'use strict';
// `npm run test:asan`: the C core's tests and the node:test suites against an
// AddressSanitizer + UndefinedBehaviorSanitizer build of the addon.
//
//   node scripts/dev/test-asan.js [--build-dir DIR] [--no-build] [--no-core]
//                                 [--keep-logs] [test/parser/x.test.js ...]
//
// 1. Builds the addon with LLHTTP_NAPI_SANITIZE=1 (see binding.gyp) in a tree
//    of its own (DIR, by default in the system's temp directory: binding.gyp
//    copied, src/, scripts/ and node_modules/ linked), so that build/Release
//    is never touched.
// 2. Runs scripts/dev/test-core.js --sanitize (the C core under ASan + UBSan).
// 3. Runs test/**/*.test.js (or the files given) with node:test, node started
//    with LD_PRELOAD of gcc's ASan runtime and LLHTTP_NAPI_ADDON pointing at
//    the sanitized addon (lib/native.js honours it); child processes the
//    tests spawn inherit both. Reports go to log files, not to stderr (tests
//    compare child processes' stderr), and are read back at the end:
//    - an ASan or UBSan error aborts the process that hit it;
//    - leaks are checked at every process exit (detect_leaks=1); a leak whose
//      allocation stack passes through the addon (its file, src/core/, src/transport/,
//      src/binding/) is ours. Leaks of node itself that never involve the
//      addon are suppressed by test/asan/lsan.supp; anything else not
//      attributed to the addon is listed but does not fail the run.
//    - ASan errors outside the addon in node's built-in parser
//      (node::(anonymous namespace)::Parser), which some tests run in a child
//      process on purpose with input that makes it read garbage, are listed
//      as expected; any other error fails the run.
// Exit status 0 only when the tests pass and no report is ours.
const crypto = require('node:crypto');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawnSync, execFileSync } = require('node:child_process');
const { testFiles } = require('./test-files');

const ROOT = path.resolve(__dirname, '..', '..');

function parseArgs(argv) {
  const opts = {
    buildDir: path.join(os.tmpdir(), 'llhttp-napi-asan-' +
      crypto.createHash('sha1').update(ROOT).digest('hex').slice(0, 8)),
    build: true,
    core: true,
    keepLogs: false,
    files: [],
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--build-dir') opts.buildDir = path.resolve(argv[++i]);
    else if (a === '--no-build') opts.build = false;
    else if (a === '--no-core') opts.core = false;
    else if (a === '--keep-logs') opts.keepLogs = true;
    else if (a === '-h' || a === '--help') {
      console.log('usage: node scripts/dev/test-asan.js [--build-dir DIR] [--no-build] [--no-core] ' +
        '[--keep-logs] [test files...]');
      process.exit(0);
    } else if (a.startsWith('-')) {
      console.error('unknown option ' + a);
      process.exit(2);
    } else {
      opts.files.push(a);
    }
  }
  return opts;
}

function gccFile(name) {
  const file = execFileSync(process.env.CC_ASAN || 'gcc', ['-print-file-name=' + name]).toString().trim();
  if (!path.isAbsolute(file) || !fs.existsSync(file)) {
    throw new Error(`gcc does not know ${name} (install gcc's libasan)`);
  }
  return fs.realpathSync(file);
}

function localNodeDir() {
  const prefix = path.resolve(path.dirname(process.execPath), '..');
  return fs.existsSync(path.join(prefix, 'include', 'node', 'node_api.h')) ? prefix : null;
}

// The build tree: binding.gyp copied (gyp runs its <!(...) commands in the
// directory of the .gyp file), everything else linked to the checkout.
function prepareTree(dir) {
  fs.mkdirSync(dir, { recursive: true });
  fs.copyFileSync(path.join(ROOT, 'binding.gyp'), path.join(dir, 'binding.gyp'));
  for (const name of ['src', 'scripts', 'node_modules']) {
    const link = path.join(dir, name);
    const target = path.join(ROOT, name);
    let current = null;
    try {
      current = fs.readlinkSync(link);
    } catch {
      fs.rmSync(link, { recursive: true, force: true });
    }
    if (current !== target) {
      fs.rmSync(link, { force: true });
      fs.symlinkSync(target, link);
    }
  }
}

function buildSanitized(dir) {
  prepareTree(dir);
  const gyp = require.resolve('node-gyp/bin/node-gyp.js');
  const args = [gyp, 'rebuild'];
  const nodedir = localNodeDir();
  if (nodedir && !process.env.npm_config_nodedir) args.push('--nodedir=' + nodedir);
  console.log(`test:asan: building the sanitized addon in ${dir}`);
  const r = spawnSync(process.execPath, args, {
    cwd: dir,
    stdio: ['ignore', 'inherit', 'inherit'],
    env: { ...process.env, LLHTTP_NAPI_SANITIZE: '1' },
  });
  if (r.status !== 0) {
    console.error('test:asan: the sanitized build failed');
    process.exit(r.status || 1);
  }
}

function checkSanitized(addon) {
  if (!fs.existsSync(addon)) {
    console.error(`test:asan: ${addon} is missing (run without --no-build)`);
    process.exit(1);
  }
  const dynamic = execFileSync('readelf', ['-d', addon]).toString();
  if (!/NEEDED.*libasan\.so/.test(dynamic) || !/NEEDED.*libubsan\.so/.test(dynamic)) {
    console.error(`test:asan: ${addon} is not linked with libasan and libubsan: ` +
      'the LLHTTP_NAPI_SANITIZE condition of binding.gyp did not apply');
    process.exit(1);
  }
}

function runCore() {
  console.log('test:asan: C core tests under ASan + UBSan');
  const r = spawnSync(process.execPath, [path.join(__dirname, 'test-core.js'), '--sanitize'], {
    cwd: ROOT, stdio: 'inherit',
  });
  return r.status === 0;
}

function testFilesOf(opts) {
  return opts.files.length > 0 ? opts.files : testFiles();
}

function runSuites(opts, addon, logDir) {
  const asan = gccFile('libasan.so');
  const preload = [asan, process.env.LD_PRELOAD].filter(Boolean).join(':');
  const env = {
    ...process.env,
    LLHTTP_NAPI_ADDON: addon,
    LD_PRELOAD: preload,
    ASAN_OPTIONS: [
      'detect_leaks=1',
      'abort_on_error=1',        // an error kills the process: the test fails
      'exitcode=0',              // a leak does not: it is read from the log
      // No 0xbe fill of fresh allocations: node itself is not instrumented,
      // and tests that run the built-in parser on garbage (on purpose)
      // would see other garbage than in a plain run.
      'max_malloc_fill_size=0',
      'log_path=' + path.join(logDir, 'asan'),
    ].join(':'),
    LSAN_OPTIONS: [
      'suppressions=' + path.join(ROOT, 'test', 'asan', 'lsan.supp'),
      'print_suppressions=0',
    ].join(':'),
    UBSAN_OPTIONS: [
      'print_stacktrace=1',
      'halt_on_error=1',
      'abort_on_error=1',
      'log_path=' + path.join(logDir, 'ubsan'),
    ].join(':'),
  };
  const files = testFilesOf(opts);
  console.log(`test:asan: ${files.length} test files with LD_PRELOAD=${asan}`);
  const r = spawnSync(process.execPath, ['--test', '--test-concurrency=2', ...files], {
    cwd: ROOT, stdio: 'inherit', env,
  });
  return r.status === 0;
}

// ---- reading the reports back --------------------------------------------

function frameIsOurs(line, addon) {
  return line.includes(addon) || line.includes('llhttp_napi.node') ||
    /(^|[\s(/])(\.\.\/)?src\/(core|binding|transport)\//.test(line);
}

// Splits one log file into reports: { kind, title, text, ours, pid, bytes }.
function parseLog(file, addon) {
  const text = fs.readFileSync(file, 'latin1');
  const pid = (file.match(/\.(\d+)$/) || [])[1];
  const reports = [];
  if (path.basename(file).startsWith('ubsan')) {
    // Every UBSan report is in instrumented code, that is, the addon.
    for (const m of text.matchAll(/^.*runtime error:.*$/gm)) {
      reports.push({ kind: 'ubsan', title: m[0].trim(), text: m[0], ours: true, pid });
    }
    return reports;
  }
  if (/ERROR: LeakSanitizer/.test(text)) {
    const blocks = text.split(/\n(?=(?:Direct|Indirect) leak of )/).slice(1);
    for (const block of blocks) {
      const body = block.split(/\n\s*\n/)[0];
      const head = body.split('\n')[0];
      const bytes = Number((head.match(/leak of (\d+) byte/) || [])[1] || 0);
      const frames = body.split('\n').filter((l) => /^\s*#\d+ /.test(l));
      // An allocation made straight from code outside any module: an
      // unloaded library, i.e. the addon (the sanitized build is linked with
      // -z nodelete so that this should not happen).
      const unloaded = frames.length > 1 && /<unknown module>/.test(frames[1]);
      reports.push({
        kind: head.startsWith('Direct') ? 'direct leak' : 'indirect leak',
        title: head.trim(),
        text: body,
        ours: unloaded || frames.some((l) => frameIsOurs(l, addon)),
        bytes,
        pid,
        // Same place of allocation: the first frames past the allocator.
        key: frames.slice(0, 5).map((l) => l.replace(/^\s*#\d+ 0x[0-9a-f]+ /, '')
          .replace(/\+0x[0-9a-f]+\)/, ')')).join('\n'),
      });
    }
  }
  const err = text.match(/ERROR: AddressSanitizer: ([^\n]*)[\s\S]*?(?=\n==\d+==ABORTING|$)/);
  if (err) {
    const frames = err[0].split('\n').filter((l) => /^\s*#\d+ /.test(l));
    const ours = frames.some((l) => frameIsOurs(l, addon));
    const builtin = !ours && frames.some((l) => l.includes('node::(anonymous namespace)::Parser::'));
    reports.push({ kind: builtin ? 'builtin-parser error' : 'error', title: err[1], text: err[0], ours, pid });
  }
  return reports;
}

function summarize(logDir, addon) {
  const files = fs.existsSync(logDir) ? fs.readdirSync(logDir).map((f) => path.join(logDir, f)) : [];
  const reports = files.flatMap((f) => parseLog(f, addon));
  const ours = reports.filter((r) => r.ours);
  const leaksOurs = ours.filter((r) => r.kind.endsWith('leak'));
  const errorsOurs = ours.filter((r) => !r.kind.endsWith('leak'));
  const leaksOther = reports.filter((r) => !r.ours && r.kind.endsWith('leak'));
  const builtinErrors = reports.filter((r) => r.kind === 'builtin-parser error');
  const otherErrors = reports.filter((r) => !r.ours && r.kind === 'error');

  console.log('\n==== test:asan report ====');
  console.log(`processes that wrote a sanitizer report: ${files.length}`);
  console.log(`errors in the addon (ASan/UBSan): ${errorsOurs.length}`);
  for (const r of errorsOurs) console.log(`\n[pid ${r.pid}] ${r.kind}: ${r.title}\n${r.text}\n`);
  const leakBytes = leaksOurs.reduce((s, r) => s + r.bytes, 0);
  console.log(`leaks attributed to the addon: ${leaksOurs.length} reports, ${leakBytes} bytes`);
  const unique = new Map();
  for (const r of leaksOurs) {
    const u = unique.get(r.key) || { count: 0, bytes: 0, text: r.text };
    u.count++;
    u.bytes += r.bytes;
    unique.set(r.key, u);
  }
  for (const u of unique.values()) {
    console.log(`\n-- ${u.count} report(s), ${u.bytes} bytes in all:\n${u.text}`);
  }
  console.log(`leaks not attributed to the addon (node itself, after suppressions): ${leaksOther.length}` +
    ` reports, ${leaksOther.reduce((s, r) => s + r.bytes, 0)} bytes`);
  console.log(`errors in node's built-in parser (tests that run it on purpose): ${builtinErrors.length}` +
    (builtinErrors.length ? ' (' + [...new Set(builtinErrors.map((r) => r.title.split(' (')[0]))].join('; ') + ')' : ''));
  console.log(`other errors outside the addon: ${otherErrors.length}`);
  for (const r of otherErrors) console.log(`\n[pid ${r.pid}] ${r.title}\n${r.text}\n`);
  return errorsOurs.length === 0 && leaksOurs.length === 0 && otherErrors.length === 0;
}

function main() {
  const opts = parseArgs(process.argv.slice(2));
  const addon = path.join(opts.buildDir, 'build', 'Release', 'llhttp_napi.node');
  if (opts.build) buildSanitized(opts.buildDir);
  checkSanitized(addon);
  const coreOk = opts.core ? runCore() : true;
  const logDir = fs.mkdtempSync(path.join(os.tmpdir(), 'llhttp-napi-asan-logs-'));
  const suitesOk = runSuites(opts, addon, logDir);
  const clean = summarize(logDir, addon);
  console.log(`C core tests: ${opts.core ? (coreOk ? 'pass' : 'FAIL') : 'skipped'}; ` +
    `node:test suites: ${suitesOk ? 'pass' : 'FAIL'}; sanitizer reports: ${clean ? 'clean' : 'FAIL'}`);
  if (opts.keepLogs || !clean) console.log(`logs: ${logDir}`);
  else fs.rmSync(logDir, { recursive: true, force: true });
  process.exit(coreOk && suitesOk && clean ? 0 : 1);
}

main();
