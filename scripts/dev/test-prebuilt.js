'use strict';
// The release workflow's test of a packed tarball on the machine it runs on
// (.github/workflows/release.yml runs it on macOS, Windows, Alpine and
// linux-arm64 runners, on every Node line); it runs here too, on linux-x64.
// Portable: no /proc, no compiler, no shell.
//
// 1. `npm install <tarball>` into an empty application: at most 3 packages,
//    nothing compiled, no warning.
// 2. The prebuild node-gyp-build picks for this platform is the one the
//    package carries, it loads, and it parses with this node's own llhttp
//    (versions.llhttp === process.versions.llhttp).
// 3. An application served by llhttp-napi with `node -r llhttp-napi/register`
//    (server connection and client response both use its parser).
// 4. test/parser/conformance.test.js, test/install/install.test.js,
//    test/parser/clock.test.js (node:http's timeouts with this platform's
//    clock) and test/server/native-transport.test.js (skipped where the
//    prebuild has no transport), or the files given
//    after --, in a copy of the installed package (its lib/ and prebuilds/,
//    this checkout's test/ and node_modules/).
//
//   node scripts/dev/test-prebuilt.js <llhttp-napi-x.y.z.tgz | folder holding it> [-- test files]
// Closes with "N passed, M failed".
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const { INSTALLED_TESTS } = require('./test-files');

const ROOT = path.resolve(__dirname, '..', '..');
const results = [];
function check(name, ok, detail) {
  results.push(!!ok);
  console.log(`${ok ? 'ok  ' : 'FAIL'}  ${name}${!ok && detail ? '\n      ' + String(detail).slice(-4000).split('\n').join('\n      ') : ''}`);
  return ok;
}

function run(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, {
    encoding: 'utf8', maxBuffer: 64 << 20, timeout: 900000,
    shell: process.platform === 'win32' && cmd === 'npm', ...opts,
  });
  r.output = (r.stdout || '') + (r.stderr || '') + (r.error ? String(r.error) : '');
  return r;
}

const APP = `
const http = require('node:http');
const llhttp = require('llhttp-napi');
const ours = (p) => llhttp.isInstalled() && p instanceof llhttp.HTTPParser;
const server = http.createServer((req, res) => res.end(String(ours(req.socket.parser))));
server.listen(0, '127.0.0.1', () => {
  let client = null;
  const req = http.get({ port: server.address().port, host: '127.0.0.1', agent: false }, (res) => {
    let body = '';
    res.on('data', (d) => { body += d; });
    res.on('end', () => {
      server.close();
      console.log(JSON.stringify({ server: body === 'true', client }));
    });
  });
  req.on('socket', (s) => { client = ours(s.parser); });
});`;

function main(argv) {
  const dash = argv.indexOf('--');
  const files = dash < 0 ? INSTALLED_TESTS : argv.slice(dash + 1);
  let tarball = path.resolve((dash < 0 ? argv : argv.slice(0, dash))[0] || '');
  // A folder: the one llhttp-napi-*.tgz in it (the workflow's artifact).
  if (fs.existsSync(tarball) && fs.statSync(tarball).isDirectory()) {
    const found = fs.readdirSync(tarball).filter((f) => /^llhttp-napi-.*\.tgz$/.test(f));
    tarball = found.length === 1 ? path.join(tarball, found[0]) : tarball;
  }
  if (!check(`the tarball exists (${tarball})`, fs.existsSync(tarball) && tarball.endsWith('.tgz'))) return;
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'llhttp-napi-prebuilt-'));
  try {
    const app = path.join(tmp, 'app');
    fs.mkdirSync(app);
    fs.writeFileSync(path.join(app, 'package.json'), JSON.stringify({ name: 'app', version: '1.0.0', private: true }));
    fs.writeFileSync(path.join(app, 'app.js'), APP);
    const install = run('npm', ['install', '--no-audit', '--no-fund', tarball], { cwd: app });
    const added = Number((install.output.match(/added (\d+) packages?/) || [])[1]);
    check(`npm install of the tarball adds ${added} packages (at most 3), no warning`,
      install.status === 0 && added <= 3 && !/warn/i.test(install.output), install.output);
    const pkgDir = path.join(app, 'node_modules', 'llhttp-napi');
    check('nothing was compiled at install (no build/)', !fs.existsSync(path.join(pkgDir, 'build')));

    const probe = run(process.execPath, ['-e', `
      const file = require('node-gyp-build').resolve(${JSON.stringify(pkgDir)});
      const llhttp = require('llhttp-napi');
      console.log(JSON.stringify({ file, versions: llhttp.versions, own: process.versions.llhttp }));`], { cwd: app });
    let p = {};
    try { p = JSON.parse(probe.stdout.trim().split('\n').pop()); } catch { /* below */ }
    const rel = p.file ? path.relative(pkgDir, p.file).split(path.sep).join('/') : '?';
    check(`node ${process.version} ${process.platform}-${process.arch}: loads ${rel}`,
      probe.status === 0 && rel.startsWith(`prebuilds/${process.platform}-${process.arch}/`), probe.output);
    check(`it parses with this node's own llhttp (${p.versions && p.versions.llhttp}, node's ${p.own})`,
      p.versions && p.versions.llhttp === p.own, probe.output);

    const served = run(process.execPath, ['-r', 'llhttp-napi/register', 'app.js'], { cwd: app });
    let s = {};
    try { s = JSON.parse(served.stdout.trim().split('\n').pop()); } catch { /* below */ }
    check('node -r llhttp-napi/register: server and client served by llhttp-napi',
      served.status === 0 && s.server && s.client && served.stderr === '', served.output);

    const tree = path.join(tmp, 'tree');
    for (const name of ['lib', 'prebuilds', 'package.json']) {
      fs.cpSync(path.join(pkgDir, name), path.join(tree, name), { recursive: true });
    }
    fs.cpSync(path.join(ROOT, 'test'), path.join(tree, 'test'), { recursive: true });
    fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(tree, 'node_modules'), 'junction');
    const t = run(process.execPath, ['--test', '--test-concurrency=2', '--test-reporter=tap', ...files], { cwd: tree });
    const count = (name) => Number((t.stdout.match(new RegExp(`^# ${name} (\\d+)`, 'm')) || [])[1]);
    check(`${files.join(', ')} on the installed prebuild (${count('pass')} passed, ${count('fail')} failed)`,
      t.status === 0 && count('fail') === 0 && count('pass') > 0,
      t.stdout.split('\n').filter((l) => /^\s*not ok|^# /.test(l)).join('\n') + '\n' + t.stderr);
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

try {
  main(process.argv.slice(2));
} catch (err) {
  check('test-prebuilt ran', false, err.stack);
}
const failed = results.filter((ok) => !ok).length;
console.log(`prebuilt: ${results.length - failed} passed, ${failed} failed`);
process.exitCode = failed === 0 ? 0 : 1;
