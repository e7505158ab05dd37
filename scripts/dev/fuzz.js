'use strict';
// Builds the libFuzzer harness of the C core (test/fuzz/fuzz_parser.c) with
// clang -fsanitize=fuzzer,address,undefined and runs it.
//
//   npm run fuzz -- [seconds]              fuzz for that long (default 60)
//   node scripts/dev/fuzz.js --ci          CI mode: replay the seeds and regressions, then
//                                          100,000 executions that are the same on every run
//                                          (--runs N for another count, -- -seed=S another seed)
//   node scripts/dev/fuzz.js --runs N      stop after N executions instead of a time
//   node scripts/dev/fuzz.js --jobs N      N parallel fuzzing processes (-jobs/-workers)
//   node scripts/dev/fuzz.js --repro FILE  run one input (e.g. a crash-* artifact)
//   node scripts/dev/fuzz.js --build       build only
//   node scripts/dev/fuzz.js --rev REV     fuzz the core of a git revision (e.g. HEAD)
//                                          instead of the working tree's src/core
//   extra libFuzzer flags may follow `--`, e.g. `-- -seed=1`; fork mode:
//   `node scripts/dev/fuzz.js --runs 10000000 -- -fork=2` (stops at a crash)
//   FUZZ_CFLAGS: extra compiler flags (e.g. -fno-sanitize=pointer-overflow to
//   look past a known finding); FUZZ_MAX_LEN: -max_len (default 4096);
//   FUZZ_BUILD: build directory (default test/fuzz/build); FUZZ_PARSER_STATS=1:
//   the harness prints at exit how many LHN_HC_REPEATS claims and known-name
//   tags it checked (to see that a run reached them)
//
// The seeds are in test/fuzz/corpus (node test/fuzz/make-corpus.js rewrites
// them); new inputs go to test/fuzz/build/corpus, which later runs start from
// too, crashes to test/fuzz/build/artifacts/.
//
// CI mode is deterministic: libFuzzer's path depends on its seed and on the
// corpus it starts from, in the order it reads it. So it starts from the seeds
// alone, read-only and named in a list in name order (-seed_inputs): libFuzzer
// shuffles them with its seeded generator, then sorts them by size, keeping
// that order among equal sizes, so a directory's order (a file system's hash
// order, which differs between clones) would decide which of two inputs of
// the same size is kept. New inputs go to test/fuzz/build/ci-corpus, emptied
// first; no time limit and no periodic reload of the corpus (-reload=0), which
// are clock-driven; and no mutations from the operands of the code's
// comparisons (-use_cmp=0): some are heap addresses (a span's place in its
// fragment), which differ between runs, with or without ASLR. It prints a
// fingerprint of the path (each new input's run number, coverage and
// mutations): two runs of the same code print the same.
//
// Needs Debian's clang (clang-14) and its libFuzzer runtime
// (libclang-rt-14-dev); as root with apt-get, the script installs what is
// missing and says so.
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const llhttp = require('../install/llhttp');

const ROOT = path.resolve(__dirname, '..', '..');
const FUZZ = path.join(ROOT, 'test', 'fuzz');
const BUILD = process.env.FUZZ_BUILD ? path.resolve(process.env.FUZZ_BUILD) : path.join(FUZZ, 'build');
const EXE = path.join(BUILD, 'fuzz_parser');
const SEEDS = path.join(FUZZ, 'corpus');
const REGRESSIONS = path.join(FUZZ, 'regressions');
const WORK = path.join(BUILD, 'corpus');
const CI_WORK = path.join(BUILD, 'ci-corpus');
const CI_RUNS = 100000;
const ARTIFACTS = path.join(BUILD, 'artifacts');
const DICT = path.join(FUZZ, 'http.dict');

function parseArgs(argv) {
  const opts = { seconds: 60, runs: 0, jobs: 1, ci: false, build: false, repro: null, rev: null, extra: [] };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--') { opts.extra.push(...argv.slice(i + 1)); break; }
    if (a === '--ci') opts.ci = true;
    else if (a === '--build') opts.build = true;
    else if (a === '--runs') opts.runs = Number(argv[++i]);
    else if (a === '--jobs') opts.jobs = Number(argv[++i]);
    else if (a === '--seconds') opts.seconds = Number(argv[++i]);
    else if (a === '--repro') opts.repro = argv[++i];
    else if (a === '--rev') opts.rev = argv[++i];
    else if (/^\d+$/.test(a)) opts.seconds = Number(a);
    else if (a.startsWith('-')) opts.extra.push(a);
    else throw new Error(`fuzz: unknown argument ${a}`);
  }
  return opts;
}

function have(cmd) {
  return spawnSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' }).status === 0;
}

function findClang() {
  if (process.env.CLANG) return process.env.CLANG;
  for (const c of ['clang', 'clang-14', 'clang-15', 'clang-16', 'clang-17', 'clang-18', 'clang-19']) {
    if (have(c)) return c;
  }
  return null;
}

function aptInstall(packages) {
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (!isRoot || !have('apt-get')) return false;
  console.log(`fuzz: installing ${packages.join(' ')}: apt-get install -y ${packages.join(' ')}`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  let r = spawnSync('apt-get', ['install', '-y', '-qq', ...packages], { stdio: 'inherit', env });
  if (r.status !== 0) {
    spawnSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
    r = spawnSync('apt-get', ['install', '-y', '-qq', ...packages], { stdio: 'inherit', env });
  }
  return r.status === 0;
}

function clangMajor(clang) {
  const out = spawnSync(clang, ['--version'], { encoding: 'utf8' }).stdout || '';
  const m = out.match(/clang version (\d+)/);
  return m ? Number(m[1]) : 14;
}

// The libFuzzer runtime that -fsanitize=fuzzer links.
function fuzzerRuntime(clang) {
  const r = spawnSync(clang, ['-print-file-name=libclang_rt.fuzzer-x86_64.a'], { encoding: 'utf8' });
  const file = (r.stdout || '').trim();
  if (file && path.isAbsolute(file) && fs.existsSync(file)) return file;
  const dir = (spawnSync(clang, ['--print-runtime-dir'], { encoding: 'utf8' }).stdout || '').trim();
  if (dir) {
    for (const name of ['libclang_rt.fuzzer-x86_64.a', 'libclang_rt.fuzzer.a']) {
      if (fs.existsSync(path.join(dir, name))) return path.join(dir, name);
    }
  }
  return null;
}

function ensureToolchain() {
  let clang = findClang();
  if (!clang) {
    if (!aptInstall(['clang'])) {
      throw new Error('clang is required for fuzzing: apt-get install clang libclang-rt-14-dev');
    }
    clang = findClang();
  }
  if (!fuzzerRuntime(clang)) {
    const major = clangMajor(clang);
    if (!aptInstall([`libclang-rt-${major}-dev`]) && !aptInstall([`libfuzzer-${major}-dev`])) {
      throw new Error(`the libFuzzer runtime is missing: apt-get install libclang-rt-${major}-dev`);
    }
  }
  return clang;
}

// The core's sources: the working tree's, or those of a git revision.
function coreDir(rev) {
  if (!rev) return path.join(ROOT, 'src', 'core');
  const dir = path.join(BUILD, 'rev-core');
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  const list = spawnSync('git', ['ls-tree', '--name-only', `${rev}:src/core`], { cwd: ROOT, encoding: 'utf8' });
  if (list.status !== 0) throw new Error(`fuzz: git ls-tree ${rev}:src/core failed`);
  for (const name of list.stdout.split('\n').filter(Boolean)) {
    const r = spawnSync('git', ['show', `${rev}:src/core/${name}`], { cwd: ROOT, maxBuffer: 1 << 26 });
    if (r.status !== 0) throw new Error(`fuzz: git show ${rev}:src/core/${name} failed`);
    fs.writeFileSync(path.join(dir, name), r.stdout);
  }
  return dir;
}

function build(rev) {
  const clang = ensureToolchain();
  const found = llhttp.resolve();
  fs.mkdirSync(BUILD, { recursive: true });
  const core = coreDir(rev);
  const args = ['-g', '-O1', '-std=c11', '-Wall', '-Wextra', '-Werror',
    '-fsanitize=fuzzer,address,undefined', '-fno-sanitize-recover=all',
    '-fno-omit-frame-pointer', ...(process.env.FUZZ_CFLAGS || '').split(/\s+/).filter(Boolean),
    '-I', core, '-I', found.include,
    // (every C file of the core: the split into files changed over time)
    ...fs.readdirSync(core).filter((f) => f.endsWith('.c')).sort().map((f) => path.join(core, f)),
    path.join(FUZZ, 'fuzz_parser.c'),
    found.lib, '-o', EXE];
  console.log(`fuzz: building ${path.relative(ROOT, EXE)} with ${clang} against llhttp ${found.version}` +
    `, core from ${rev ? 'git ' + rev : 'src/core'}`);
  const r = spawnSync(clang, args, { stdio: 'inherit' });
  if (r.status !== 0) throw new Error('fuzz: build failed');
}

function sanitizerEnv() {
  return {
    ...process.env,
    ASAN_OPTIONS: process.env.ASAN_OPTIONS || 'detect_leaks=1:abort_on_error=1:symbolize=1',
    UBSAN_OPTIONS: process.env.UBSAN_OPTIONS || 'print_stacktrace=1:halt_on_error=1',
  };
}

function filesIn(dir) {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir).filter((f) => !f.startsWith('.')).map((f) => path.join(dir, f));
}

// Runs inputs once each (no fuzzing): the seeds and past crashes.
function replay(files, label) {
  if (files.length === 0) return;
  const r = spawnSync(EXE, ['-runs=1', ...files], { env: sanitizerEnv(), encoding: 'utf8', maxBuffer: 1 << 26 });
  if (r.status !== 0) {
    process.stdout.write(r.stdout);
    process.stderr.write(r.stderr);
    throw new Error(`fuzz: replaying ${label} failed`);
  }
  console.log(`fuzz: replayed ${files.length} ${label}: ok`);
}

// CI mode's input: the seeds, as a list in name order (see the top).
function seedList() {
  const list = path.join(BUILD, 'ci-seeds.txt');
  fs.writeFileSync(list, filesIn(SEEDS).sort().join(','));
  return `-seed_inputs=@${list}`;
}

// A fingerprint of libFuzzer's path: its progress lines without the
// clock-driven figures (executions per second, memory).
function pathFingerprint(log) {
  const steps = log.split('\n').filter((l) => /^#\d+\s+(INITED|NEW|REDUCE|DONE)\s/.test(l))
    .map((l) => l.replace(/ exec\/s: \d+| rss: \d+Mb/g, ''));
  const last = steps.length ? steps[steps.length - 1].replace(/\s+/g, ' ') : 'none';
  return `${crypto.createHash('sha256').update(steps.join('\n')).digest('hex').slice(0, 16)}` +
    ` (${steps.length} steps; last: ${last})`;
}

function fuzz(opts) {
  const work = opts.ci ? CI_WORK : WORK;
  if (opts.ci) fs.rmSync(work, { recursive: true, force: true });
  fs.mkdirSync(work, { recursive: true });
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  const args = [
    `-max_len=${process.env.FUZZ_MAX_LEN || 4096}`,
    '-timeout=10', '-rss_limit_mb=2048', '-print_final_stats=1',
    `-artifact_prefix=${ARTIFACTS}/`,
  ];
  if (fs.existsSync(DICT)) args.push(`-dict=${DICT}`);
  if (opts.ci) {
    if (!opts.extra.some((a) => a.startsWith('-seed='))) args.push('-seed=1');
    args.push(`-runs=${opts.runs || CI_RUNS}`, '-reload=0', '-use_cmp=0', seedList());
  } else if (opts.runs > 0) {
    args.push(`-runs=${opts.runs}`);
  } else {
    args.push(`-max_total_time=${opts.seconds}`);
  }
  if (opts.jobs > 1) args.push(`-jobs=${opts.jobs}`, `-workers=${opts.jobs}`);
  args.push(...opts.extra, work);
  if (!opts.ci) args.push(SEEDS);
  console.log(`fuzz: ${path.relative(ROOT, EXE)} ${args.join(' ')}`);
  console.log(`fuzz: libFuzzer output in ${path.relative(ROOT, path.join(BUILD, 'last-run.log'))}`);
  const started = Date.now();
  // libFuzzer's own output goes to a log file (tail it to watch progress)
  const logFile = path.join(BUILD, 'last-run.log');
  const fd = fs.openSync(logFile, 'w');
  const r = spawnSync(EXE, args, { cwd: BUILD, env: sanitizerEnv(), stdio: ['ignore', 'inherit', fd] });
  fs.closeSync(fd);
  const err = fs.readFileSync(logFile, 'latin1');
  // Keep libFuzzer's progress readable: the last lines plus anything that went wrong.
  const lines = err.split('\n');
  const interesting = lines.filter((l) => /ERROR|WARNING|invariant|differ|SUMMARY|Test unit written|==\d+==|^\s+#\d+ /.test(l));
  const tail = lines.slice(-25);
  process.stderr.write([...new Set([...interesting.slice(0, 200), ...tail])].join('\n') + '\n');
  // libFuzzer may print its final stats twice (crash handler and exit): take
  // the last. With jobs, each job has its own log (and the main log echoes
  // some of theirs): count the jobs' logs only.
  const own = [...err.matchAll(/stat::number_of_executed_units:\s*(\d+)/g)];
  let execs = own.length && !(opts.jobs > 1) ? Number(own[own.length - 1][1]) : 0;
  if (opts.jobs > 1) {
    for (const f of filesIn(BUILD).filter((f) => /fuzz-\d+\.log$/.test(f))) {
      const text = fs.readFileSync(f, 'latin1');
      const ms = [...text.matchAll(/stat::number_of_executed_units:\s*(\d+)/g)];
      if (ms.length) execs += Number(ms[ms.length - 1][1]);
    }
  }
  // (fork mode prints no stats of its own: its total is in its last
  // progress line, "#N: cov: ...")
  const forked = [...err.matchAll(/^#(\d+): cov: /gm)];
  if (execs === 0 && forked.length) execs = Number(forked[forked.length - 1][1]);
  const seconds = ((Date.now() - started) / 1000).toFixed(0);
  const corpus = filesIn(work).length;
  console.log(`fuzz: ${execs} executions in ${seconds} s, corpus ${corpus} inputs, exit ${r.status}`);
  if (opts.ci) console.log(`fuzz: path ${pathFingerprint(err)}`);
  if (r.status === 72 && filesIn(ARTIFACTS).length === 0) {
    console.log('fuzz: interrupted');
    return;
  }
  if (r.status !== 0) {
    const crashes = filesIn(ARTIFACTS);
    console.error(`fuzz: FAILED; artifacts in ${path.relative(ROOT, ARTIFACTS)}: ${crashes.map((f) => path.basename(f)).join(' ')}`);
    console.error('fuzz: reproduce with: node scripts/dev/fuzz.js --repro <artifact>');
    process.exit(r.status || 1);
  }
}

function main() {
  const opts = parseArgs(process.argv.slice(2));
  if (opts.ci && opts.jobs > 1) throw new Error('fuzz: --ci runs one job (jobs share inputs as they come)');
  build(opts.rev);
  if (opts.build) return;
  if (opts.repro) {
    // (a crash's artifact goes where the others go, not into the working directory)
    fs.mkdirSync(ARTIFACTS, { recursive: true });
    const r = spawnSync(EXE, [`-artifact_prefix=${ARTIFACTS}/`, opts.repro], { env: sanitizerEnv(), stdio: 'inherit' });
    process.exit(r.status === null ? 1 : r.status);
  }
  replay(filesIn(SEEDS), 'seeds');
  replay(filesIn(REGRESSIONS), 'regression inputs');
  fuzz(opts);
}

try {
  main();
} catch (err) {
  console.error(err.message);
  process.exit(1);
}
