'use strict';
// Runs Fastify's own test suite twice, on node:http and on llhttp-napi/server
// (its preload, lib/server/register.js, makes every node:http server this
// package's server), and prints passed/failed per test file for both, then
// the tests that pass on node:http and fail on ours.
//
//   node scripts/dev/fastify-suite.js <fastify checkout> [--jobs=2] [--only=substring] [--timeout=120]
//
// The checkout must have its dependencies installed (npm install in it).
// Each test file runs in a node --test process of its own.
const fs = require('node:fs');
const path = require('node:path');
const { spawn } = require('node:child_process');
const { printComparison } = require('./suite-report');

const ROOT = path.resolve(__dirname, '..', '..');
const PRELOAD = path.join(ROOT, 'lib', 'server', 'register.js');

function args() {
  const out = { checkout: null, jobs: 2, only: null, timeout: 120 };
  for (const arg of process.argv.slice(2)) {
    const m = /^--(\w+)=(.*)$/.exec(arg);
    if (m === null) out.checkout = path.resolve(arg);
    else if (m[1] === 'jobs') out.jobs = Number(m[2]);
    else if (m[1] === 'only') out.only = m[2];
    else if (m[1] === 'timeout') out.timeout = Number(m[2]);
  }
  if (out.checkout === null || !fs.existsSync(path.join(out.checkout, 'fastify.js'))) {
    console.error('usage: node scripts/dev/fastify-suite.js <fastify checkout> [--jobs=2] [--only=substring]');
    process.exit(2);
  }
  return out;
}

// test/**/*.test.js, as Fastify's runner (borp) finds them; not the type tests.
function testFiles(checkout) {
  const files = [];
  const walk = (dir) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== 'types' && entry.name !== 'node_modules') walk(full);
      } else if (entry.name.endsWith('.test.js')) {
        files.push(path.relative(checkout, full));
      }
    }
  };
  walk(path.join(checkout, 'test'));
  return files.sort();
}

// One file on one server: { pass, fail, failed: [names] }.
function runFile(checkout, file, ours, timeoutSec) {
  return new Promise((resolve) => {
    const execArgv = ours ? ['--require', PRELOAD] : [];
    const child = spawn(process.execPath, [...execArgv, '--test', '--test-reporter=tap', file], {
      cwd: checkout, env: process.env, stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d) => { out += d; });
    child.stderr.on('data', () => {});
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutSec * 1000);
    child.on('close', (code) => {
      clearTimeout(timer);
      const count = (name) => {
        const m = new RegExp(`^# ${name} (\\d+)$`, 'm').exec(out);
        return m ? Number(m[1]) : 0;
      };
      const failed = [];
      for (const m of out.matchAll(/^(\s*)not ok \d+ - (.*?)(?: # (?:TODO|SKIP).*)?$/gm)) {
        if (!/# (TODO|SKIP)/.test(m[0])) failed.push(`${m[1].length / 4}:${m[2]}`);
      }
      resolve({ pass: count('pass'), fail: count('fail'), failed, code, timedOut: code === null });
    });
  });
}

async function main() {
  const opts = args();
  let files = testFiles(opts.checkout);
  if (opts.only) files = files.filter((f) => f.includes(opts.only));
  // Every file on node:http first, then on ours: one file never runs on both
  // at once (a few listen on a fixed port).
  const jobs = files.map((file) => [file, false]).concat(files.map((file) => [file, true]));
  const results = new Map(files.map((f) => [f, {}]));
  let next = 0;
  const worker = async () => {
    while (next < jobs.length) {
      const [file, ours] = jobs[next++];
      results.get(file)[ours ? 'ours' : 'builtin'] = await runFile(opts.checkout, file, ours, opts.timeout);
    }
  };
  await Promise.all(Array.from({ length: opts.jobs }, worker));
  printComparison(files, results, 48);
}

main();
