'use strict';
// Node's own tests, run without and with this package's preloads, by the
// shared tools' node-http-suite.py beside the clone (or $NODE_HTTP_SUITE) on
// the newest 24.x tests Debian packages, which the tool fetches.
//
//   node scripts/dev/node-server-suite.js [--suite=server|async-hooks] [--lines=24,26]
//     [--preloads=server,parser] [--only=glob,...] [--jobs=2] [--out=DIR]
//
// --suite=server (the default): Node's tests of node:http's server
//   (test/parallel) through the server preload (lib/server/register.js,
//   which makes http.createServer and https.createServer return this
//   package's servers), on 24 (the binary the tool fetches) and 26.
// --suite=async-hooks: Node's async_hooks tests that involve HTTP
//   (test/async-hooks/*http*, test/parallel/test-async-local-storage-http*
//   and test-async-hooks-http*) through both preloads (server and
//   parser: lib/register.js), on 22, 24 and 26 (scripts/dev/test-lines.js's
//   binaries). The tool reads test/parallel only: the async-hooks folder is
//   handed to it as the test/parallel of a tree of links in DIR.
//
// Prints, per line and preload, how many pass without a preload and how many
// of those pass with it, then the names that fail only with it. Each run's
// whole result (with the tail of every failure's output) is in
// DIR/node-server-suite-<suite>-<line>-<preload>[-<folder>].json (DIR: the
// system's temporary folder).
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawnSync } = require('node:child_process');

const { nodeOf } = require('./test-lines');

const ROOT = path.join(__dirname, '..', '..');
const TOOL = process.env.NODE_HTTP_SUITE ||
  path.join(ROOT, '..', 'shared', 'tools', 'node-http-suite.py');
// The tool's own cache folder (its --cache default), where its test trees are.
const TOOL_CACHE = path.join(os.homedir(), '.cache', 'node-http-suite');
const PRELOADS = {
  server: path.join(ROOT, 'lib', 'server', 'register.js'),
  parser: path.join(ROOT, 'lib', 'register.js'),
};
const SUITES = {
  server: {
    lines: ['24', '26'], preloads: ['server'],
    folders: { parallel: ['test-http-server*.js', 'test-http-keep-alive*.js', 'test-http-pipeline*.js',
      'test-http-response*.js', 'test-http-request*.js', 'test-http-set*.js', 'test-http-write*.js',
      'test-http-outgoing*.js', 'test-http-chunked*.js'] },
  },
  'async-hooks': {
    lines: ['22', '24', '26'], preloads: ['server', 'parser'],
    folders: { 'async-hooks': ['*http*.js'], parallel: ['test-async-local-storage-http*.js', 'test-async-hooks-http*.js'] },
  },
};

function options() {
  const out = { suite: 'server', jobs: '2', out: os.tmpdir() };
  for (const arg of process.argv.slice(2)) {
    const m = /^--(\w+)=(.*)$/.exec(arg);
    if (m === null) throw new Error(`unknown argument ${arg}`);
    out[m[1]] = ['lines', 'only', 'preloads'].includes(m[1]) ? m[2].split(',') : m[2];
  }
  const suite = SUITES[out.suite];
  if (suite === undefined) throw new Error(`unknown suite ${out.suite}`);
  return { lines: suite.lines, preloads: suite.preloads, ...out,
    folders: out.only ? { parallel: out.only } : suite.folders };
}

// The tool's 24.x test tree (fetched by a first run on test/parallel).
function testTree() {
  const name = fs.readdirSync(TOOL_CACHE).find((n) => /^node-v24\./.test(n) &&
    fs.existsSync(path.join(TOOL_CACHE, n, 'test', 'parallel')));
  if (name === undefined) throw new Error(`no 24.x test tree in ${TOOL_CACHE}`);
  return { name, dir: path.join(TOOL_CACHE, name) };
}

// A cache folder for the tool whose tree's test/parallel is `folder` of the
// real tree (its other folders, test/common among them, as they are).
function cacheFor(folder, out) {
  if (folder === 'parallel') return null;
  const tree = testTree();
  const cache = path.join(out, `node-server-suite-${folder}`);
  const test = path.join(cache, tree.name, 'test');
  fs.rmSync(cache, { recursive: true, force: true });
  fs.mkdirSync(test, { recursive: true });
  for (const name of fs.readdirSync(path.join(tree.dir, 'test'))) {
    const target = path.join(tree.dir, 'test', name === 'parallel' ? folder : name);
    fs.symlinkSync(target, path.join(test, name));
  }
  return cache;
}

function run(suite, line, preload, folder, globs, opts) {
  const json = path.join(opts.out, `node-server-suite-${suite}-${line}-${preload}` +
    `${folder === 'parallel' ? '' : `-${folder}`}.json`);
  const args = [TOOL, '--line', '24', '--preload', PRELOADS[preload], '--jobs', opts.jobs, '--json', json];
  for (const glob of globs) args.push('--only', glob);
  // 24's tests on the tool's own 24 binary for the server suite (as before);
  // otherwise on each line's binary.
  if (line !== '24' || suite !== 'server') args.push('--node', nodeOf(line));
  const cache = cacheFor(folder, opts.out);
  if (cache !== null) args.push('--cache', cache);
  const r = spawnSync('python3', args, { stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${TOOL} exited with ${r.status}`);
  const result = JSON.parse(fs.readFileSync(json, 'utf8'));
  const names = Object.keys(result.builtin).sort();
  const builtinPass = names.filter((n) => result.builtin[n].ok);
  const oursFail = builtinPass.filter((n) => !result.preload[n].ok);
  return { names, builtinPass, oursFail, json };
}

function main() {
  const opts = options();
  const results = [];
  for (const line of opts.lines) {
    for (const preload of opts.preloads) {
      const sum = { line, preload, files: 0, builtinPass: 0, oursPass: 0, oursFail: [], json: [] };
      for (const [folder, globs] of Object.entries(opts.folders)) {
        const r = run(opts.suite, line, preload, folder, globs, opts);
        sum.files += r.names.length;
        sum.builtinPass += r.builtinPass.length;
        sum.oursPass += r.builtinPass.length - r.oursFail.length;
        sum.oursFail.push(...r.oursFail.map((n) => (folder === 'parallel' ? n : `${folder}/${n}`)));
        sum.json.push(r.json);
      }
      results.push(sum);
    }
  }
  console.log('| Node (tests of 24) | preload | files | pass without it | of those, pass with it |');
  console.log('|---|---|---:|---:|---:|');
  for (const r of results) {
    console.log(`| ${r.line} | ${r.preload} | ${r.files} | ${r.builtinPass} | ${r.oursPass} |`);
  }
  for (const r of results) {
    console.log(`\n${r.line}, ${r.preload} preload: fail only with it (${r.oursFail.length}; output in ${r.json.join(', ')}):`);
    for (const name of r.oursFail) console.log(`  ${name}`);
  }
}

main();
