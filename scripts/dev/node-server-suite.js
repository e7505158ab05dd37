'use strict';
// Node 24's own tests of node:http's server, run on node:http and on
// llhttp-napi/server (its preload, lib/server/register.js, makes http.createServer
// and https.createServer return this package's servers), by
// the shared tools' node-http-suite.py beside the clone (or $NODE_HTTP_SUITE):
// on the 24 binary the tool fetches, and with --node on the newest 26.x
// (scripts/dev/test-lines.js's cache).
//
//   node scripts/dev/node-server-suite.js [--lines=24,26] [--only=glob,...] [--jobs=2] [--out=DIR]
//
// Prints, per line, how many pass on node:http and how many of those pass on
// this server, then the names that fail only on this server. Each run's
// whole result (with the tail of every failure's output) is in
// DIR/node-server-suite-<line>.json (DIR: the system's temporary folder).
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawnSync } = require('node:child_process');

const { nodeOf } = require('./test-lines');

const TOOL = process.env.NODE_HTTP_SUITE ||
  path.join(__dirname, '..', '..', '..', 'shared', 'tools', 'node-http-suite.py');
const PRELOAD = path.join(__dirname, '..', '..', 'lib', 'server', 'register.js');
const GLOBS = ['test-http-server*.js', 'test-http-keep-alive*.js', 'test-http-pipeline*.js', 'test-http-response*.js',
  'test-http-request*.js', 'test-http-set*.js', 'test-http-write*.js', 'test-http-outgoing*.js',
  'test-http-chunked*.js'];

function options() {
  const out = { lines: ['24', '26'], only: GLOBS, jobs: '2', out: os.tmpdir() };
  for (const arg of process.argv.slice(2)) {
    const m = /^--(\w+)=(.*)$/.exec(arg);
    if (m === null) throw new Error(`unknown argument ${arg}`);
    out[m[1]] = m[1] === 'lines' || m[1] === 'only' ? m[2].split(',') : m[2];
  }
  return out;
}

function run(line, opts) {
  const json = path.join(opts.out, `node-server-suite-${line}.json`);
  const args = [TOOL, '--line', '24', '--preload', PRELOAD, '--jobs', opts.jobs, '--json', json];
  for (const glob of opts.only) args.push('--only', glob);
  if (line !== '24') args.push('--node', nodeOf(line));
  const r = spawnSync('python3', args, { stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${TOOL} exited with ${r.status}`);
  const result = JSON.parse(fs.readFileSync(json, 'utf8'));
  const names = Object.keys(result.builtin).sort();
  const builtinPass = names.filter((n) => result.builtin[n].ok);
  const oursFail = builtinPass.filter((n) => !result.preload[n].ok);
  return { line, files: names.length, builtinPass: builtinPass.length, oursPass: builtinPass.length - oursFail.length,
    oursFail, json };
}

function main() {
  const opts = options();
  const results = opts.lines.map((line) => run(line, opts));
  console.log('| Node (tests of 24) | files | pass on node:http | of those, pass on llhttp-napi/server |');
  console.log('|---|---:|---:|---:|');
  for (const r of results) console.log(`| ${r.line} | ${r.files} | ${r.builtinPass} | ${r.oursPass} |`);
  for (const r of results) {
    console.log(`\n${r.line}: fail only on llhttp-napi/server (${r.oursFail.length}; output in ${r.json}):`);
    for (const name of r.oursFail) console.log(`  ${name}`);
  }
}

main();
