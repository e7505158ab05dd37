'use strict';
// Runs Express's own test suite (mocha, with supertest) twice, on node:http
// and on llhttp-napi/server (its preload, lib/server/register.js,
// makes http.createServer return this package's server; an Express app
// handed to it is served as createServer(app) serves it), and prints
// passed/failed per test file for both, then the tests that pass on
// node:http and fail on ours.
//
//   node scripts/dev/express-suite.js <express checkout> [--jobs=2] [--only=substring] [--timeout=120]
//     [--test-timeout=10000]
//
// The checkout must have its dependencies installed (npm install in it).
// Each test file runs in a mocha process of its own, on the node running
// this script, as Express's `npm test` runs it (test/support/env, --check-leaks),
// with a longer per-test timeout than mocha's 2 s (--test-timeout, ms; both
// servers alike): on a loaded machine a file's first request, which loads
// the server, can take longer.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawn } = require('node:child_process');
const { printComparison } = require('./suite-report');

const ROOT = path.resolve(__dirname, '..', '..');
const PRELOAD = path.join(ROOT, 'lib', 'server', 'register.js');

function args() {
  const out = { checkout: null, jobs: 2, only: null, timeout: 120, testTimeout: 10000 };
  for (const arg of process.argv.slice(2)) {
    const m = /^--([\w-]+)=(.*)$/.exec(arg);
    if (m === null) out.checkout = path.resolve(arg);
    else if (m[1] === 'jobs') out.jobs = Number(m[2]);
    else if (m[1] === 'only') out.only = m[2];
    else if (m[1] === 'timeout') out.timeout = Number(m[2]);
    else if (m[1] === 'test-timeout') out.testTimeout = Number(m[2]);
  }
  if (out.checkout === null || !fs.existsSync(path.join(out.checkout, 'lib', 'express.js'))) {
    console.error('usage: node scripts/dev/express-suite.js <express checkout> [--jobs=2] [--only=substring]');
    process.exit(2);
  }
  return out;
}

// test/*.js and test/acceptance/*.js, as Express's npm test lists them.
function testFiles(checkout) {
  const files = [];
  for (const dir of ['test', path.join('test', 'acceptance')]) {
    for (const entry of fs.readdirSync(path.join(checkout, dir), { withFileTypes: true })) {
      if (entry.isFile() && entry.name.endsWith('.js')) files.push(path.join(dir, entry.name));
    }
  }
  return files.sort();
}

// One file on one server: { pass, fail, failed: [titles], timedOut }.
function runFile(checkout, file, ours, { timeout: timeoutSec, testTimeout }, index) {
  const report = path.join(os.tmpdir(), `express-suite-${process.pid}-${index}-${ours ? 'ours' : 'builtin'}.json`);
  return new Promise((resolve) => {
    const execArgv = ours ? ['--require', PRELOAD] : [];
    const mocha = path.join(checkout, 'node_modules', 'mocha', 'bin', 'mocha.js');
    const child = spawn(process.execPath, [...execArgv, mocha, '--require', 'test/support/env', '--check-leaks',
      '--timeout', String(testTimeout), '--reporter', 'json', '--reporter-option', `output=${report}`, file], {
      cwd: checkout, env: process.env, stdio: 'ignore',
    });
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, timeoutSec * 1000);
    child.on('close', () => {
      clearTimeout(timer);
      let result = { pass: 0, fail: 0, failed: [] };
      try {
        const json = JSON.parse(fs.readFileSync(report, 'utf8'));
        result = { pass: json.stats.passes, fail: json.stats.failures, failed: json.failures.map((f) => f.fullTitle) };
        fs.unlinkSync(report);
      } catch {
        result.failed.push('(no report: the process did not finish)');
        result.fail = 1;
      }
      resolve({ ...result, timedOut });
    });
  });
}

async function main() {
  const opts = args();
  let files = testFiles(opts.checkout);
  if (opts.only) files = files.filter((f) => f.includes(opts.only));
  // Every file on node:http first, then on ours: one file never runs on both at once.
  const jobs = files.map((file, i) => [file, false, i]).concat(files.map((file, i) => [file, true, i]));
  const results = new Map(files.map((f) => [f, {}]));
  let next = 0;
  const worker = async () => {
    while (next < jobs.length) {
      const [file, ours, index] = jobs[next++];
      results.get(file)[ours ? 'ours' : 'builtin'] = await runFile(opts.checkout, file, ours, opts, index);
    }
  };
  await Promise.all(Array.from({ length: opts.jobs }, worker));
  console.log(`Express suite on ${process.version}`);
  printComparison(files, results, 40);
}

main();
