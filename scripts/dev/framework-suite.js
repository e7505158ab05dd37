'use strict';
// Runs a framework's own test suite twice, on node:http and through the
// server preload (lib/server/register.js, in NODE_OPTIONS, so that every
// process and worker the runner starts makes this package's servers), and
// prints passed/failed per test file for both, then the tests that pass on
// node:http and fail on this server only (./suite-report.js).
//
//   node scripts/dev/framework-suite.js <framework> <checkout> [--line=26 | --node=BIN]
//     [--jobs=2] [--only=substring] [--timeout=180] [--test-timeout=10000] [--json=FILE]
//
// <framework>: express, fastify, koa, hono (@hono/node-server) or ws; the
// checkout is the framework's source with its devDependencies installed
// (npm install in it). Each test file runs in a process of its own, as the
// framework's own `npm test` runs it (the runner named below), on the node
// of --line (scripts/dev/test-lines.js's cache) or --node, else the one
// running this script; every file on node:http first, then on this server,
// so one file never runs on both at once (some listen on fixed ports).
// --test-timeout raises mocha's per-test timeout on both sides alike: on a
// loaded machine a file's first request, which loads the server, can take
// longer than mocha's 2 s. --json writes every file's result.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawn } = require('node:child_process');
const { printComparison } = require('./suite-report');
const { nodeOf } = require('./test-lines');

const ROOT = path.resolve(__dirname, '..', '..');
const PRELOAD = path.join(ROOT, 'lib', 'server', 'register.js');

// The files under `dir` (relative to the checkout) whose names end with
// `suffix`, in every folder but node_modules and `skip`.
function filesUnder(checkout, dir, suffix, { deep = true, skip = [] } = {}) {
  const files = [];
  const walk = (folder) => {
    for (const entry of fs.readdirSync(path.join(checkout, folder), { withFileTypes: true })) {
      const rel = path.join(folder, entry.name);
      if (entry.isDirectory()) {
        if (deep && entry.name !== 'node_modules' && !skip.includes(entry.name)) walk(rel);
      } else if (entry.name.endsWith(suffix)) {
        files.push(rel);
      }
    }
  };
  walk(dir);
  return files;
}

// ---- the runners: the command for one file, and how its result is read ----

// The script a package of the checkout names as its command `name`.
function binOf(checkout, pkg, name) {
  const dir = path.join(checkout, 'node_modules', pkg);
  const { bin } = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
  return path.join(dir, typeof bin === 'string' ? bin : bin[name]);
}

// mocha with its JSON reporter: { pass, fail, failed: [titles] } from the report.
const mocha = (extra) => ({
  command(checkout, file, opts, report) {
    return [binOf(checkout, 'mocha', 'mocha'), ...extra,
      '--timeout', String(opts.testTimeout), '--reporter', 'json', '--reporter-option', `output=${report}`, file];
  },
  read(report) {
    const json = JSON.parse(fs.readFileSync(report, 'utf8'));
    return { pass: json.stats.passes, fail: json.stats.failures, failed: json.failures.map((f) => f.fullTitle) };
  },
});

// node --test with the TAP reporter on stdout: its counts, and the names of
// the tests not ok (with their depth).
const nodeTest = {
  command(checkout, file) {
    return ['--test', '--test-reporter=tap', file];
  },
  readOutput(out) {
    const count = (name) => {
      const m = new RegExp(`^# ${name} (\\d+)$`, 'm').exec(out);
      return m ? Number(m[1]) : 0;
    };
    const failed = [];
    for (const m of out.matchAll(/^(\s*)not ok \d+ - (.*?)(?: # (?:TODO|SKIP).*)?$/gm)) {
      if (!/# (TODO|SKIP)/.test(m[0])) failed.push(`${m[1].length / 4}:${m[2]}`);
    }
    if (count('pass') === 0 && count('fail') === 0) throw new Error('no TAP summary');
    return { pass: count('pass'), fail: count('fail'), failed };
  },
};

// vitest run with its JSON reporter (the checkout's vitest.config: its
// setup files and worker flags).
const vitest = {
  command(checkout, file, opts, report) {
    return [binOf(checkout, 'vitest', 'vitest'), 'run', '--reporter=json',
      `--outputFile=${report}`, file];
  },
  read(report) {
    const json = JSON.parse(fs.readFileSync(report, 'utf8'));
    const failed = [];
    for (const file of json.testResults) {
      for (const t of file.assertionResults) if (t.status === 'failed') failed.push(t.fullName);
      // (A file that failed to load has no tests: counted as one failure.)
      if (file.status === 'failed' && file.assertionResults.length === 0) failed.push(`(file) ${file.message}`);
    }
    return { pass: json.numPassedTests, fail: Math.max(json.numFailedTests, failed.length), failed };
  },
};

// ---- the frameworks ----

const FRAMEWORKS = {
  // Express 5: test/*.js and test/acceptance/*.js, as its npm test lists them.
  express: {
    marker: 'lib/express.js',
    files: (c) => [...filesUnder(c, 'test', '.js', { deep: false }), ...filesUnder(c, 'test/acceptance', '.js', { deep: false })],
    runner: mocha(['--require', 'test/support/env', '--check-leaks']),
  },
  // Fastify 5: test/**/*.test.js, as its runner (borp) finds them; not the type tests.
  fastify: {
    marker: 'fastify.js',
    files: (c) => filesUnder(c, 'test', '.test.js', { skip: ['types'] }),
    runner: nodeTest,
  },
  // Koa 3: __tests__/**/*.test.js (its npm test is `node --test`).
  koa: {
    marker: 'lib/application.js',
    files: (c) => filesUnder(c, '__tests__', '.test.js'),
    runner: nodeTest,
  },
  // @hono/node-server: test/*.test.ts under vitest.
  hono: {
    marker: 'src/listener.ts',
    files: (c) => filesUnder(c, 'test', '.test.ts', { deep: false }),
    runner: vitest,
  },
  // ws 8: test/*.test.js under mocha, as its npm test (without nyc; with
  // --exit: under mocha 11, which Node 26 needs, a file's process lingers
  // after its report on either server).
  ws: {
    marker: 'lib/websocket-server.js',
    files: (c) => filesUnder(c, 'test', '.test.js', { deep: false }),
    runner: mocha(['--throw-deprecation', '--exit']),
  },
};

function args() {
  const out = { framework: null, checkout: null, node: process.execPath, jobs: 2, only: null, timeout: 180,
    testTimeout: 10000, json: null };
  for (const arg of process.argv.slice(2)) {
    const m = /^--([\w-]+)=(.*)$/.exec(arg);
    if (m === null) {
      if (out.framework === null) out.framework = arg;
      else out.checkout = path.resolve(arg);
    } else if (m[1] === 'line') out.node = nodeOf(m[2]);
    else if (m[1] === 'node') out.node = path.resolve(m[2]);
    else if (m[1] === 'jobs') out.jobs = Number(m[2]);
    else if (m[1] === 'only') out.only = m[2];
    else if (m[1] === 'timeout') out.timeout = Number(m[2]);
    else if (m[1] === 'test-timeout') out.testTimeout = Number(m[2]);
    else if (m[1] === 'json') out.json = path.resolve(m[2]);
  }
  const framework = FRAMEWORKS[out.framework];
  if (framework === undefined || out.checkout === null || !fs.existsSync(path.join(out.checkout, framework.marker))) {
    console.error(`usage: node scripts/dev/framework-suite.js <${Object.keys(FRAMEWORKS).join('|')}> <checkout> ` +
      '[--line=26 | --node=BIN] [--jobs=2] [--only=substring]');
    process.exit(2);
  }
  return out;
}

// One file on one side: { pass, fail, failed: [names], timedOut }.
function runFile(framework, file, ours, opts, index) {
  const { runner } = framework;
  const report = path.join(os.tmpdir(), `framework-suite-${process.pid}-${index}-${ours ? 'ours' : 'builtin'}.json`);
  const env = { ...process.env };
  if (ours) env.NODE_OPTIONS = `${env.NODE_OPTIONS || ''} --require ${PRELOAD}`.trim();
  return new Promise((resolve) => {
    // (A group of its own: a runner's children go with it at the timeout.)
    const child = spawn(opts.node, runner.command(opts.checkout, file, opts, report), {
      cwd: opts.checkout, env, stdio: ['ignore', 'pipe', 'ignore'], detached: true,
    });
    let out = '';
    child.stdout.on('data', (d) => { out += d; });
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      process.kill(-child.pid, 'SIGKILL');
    }, opts.timeout * 1000);
    child.on('close', () => {
      clearTimeout(timer);
      let result;
      try {
        result = runner.read ? runner.read(report) : runner.readOutput(out);
      } catch {
        result = { pass: 0, fail: 1, failed: ['(no report: the process did not finish)'] };
      }
      fs.rmSync(report, { force: true });
      resolve({ ...result, timedOut });
    });
  });
}

async function main() {
  const opts = args();
  const framework = FRAMEWORKS[opts.framework];
  let files = framework.files(opts.checkout).sort();
  if (opts.only) files = files.filter((f) => f.includes(opts.only));
  const jobs = files.map((file, i) => [file, false, i]).concat(files.map((file, i) => [file, true, i]));
  const results = new Map(files.map((f) => [f, {}]));
  let next = 0;
  const worker = async () => {
    while (next < jobs.length) {
      const [file, ours, index] = jobs[next++];
      results.get(file)[ours ? 'ours' : 'builtin'] = await runFile(framework, file, ours, opts, index);
    }
  };
  await Promise.all(Array.from({ length: opts.jobs }, worker));
  const version = require('node:child_process').execFileSync(opts.node, ['--version'], { encoding: 'utf8' }).trim();
  console.log(`${opts.framework} suite (${opts.checkout}) on Node ${version}`);
  printComparison(files, results, Math.max(40, ...files.map((f) => f.length + 2)));
  if (opts.json) fs.writeFileSync(opts.json, JSON.stringify(Object.fromEntries(results), null, 1));
}

main();
