'use strict';
// `npm pack` / `npm publish` (prepack): makes the prebuilt binary the
// published package carries, prebuilds/<platform>-<arch>/llhttp-napi.napi.<libc>.node,
// which node-gyp-build loads when there is no build from source. One N-API
// build (NAPI_VERSION=8) serves every supported Node line.
//
// The addon is built from a clean tree in the temp directory (what the
// package publishes to build from source, copied; node_modules/ linked), so the checkout's
// build/Release is left alone, with scripts/install/build.js's toolchain and
// llhttp (the static copy linked in is Debian's libllhttp-dev, see
// scripts/install/llhttp.js), and node-gyp given the headers of the node
// running this script (no download). Then stripped, checked to load in this
// node, and its glibc symbol versions reported: the newest one is the
// oldest glibc it runs on.
//
//   node scripts/prebuild.js           build prebuilds/ for this platform
//   node scripts/prebuild.js --clean   remove prebuilds/ (postpack)
// Prebuilds are build products: .gitignore keeps them out of git.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawnSync, execFileSync } = require('node:child_process');

const ROOT = path.resolve(__dirname, '..');
const OUT = path.join(ROOT, 'prebuilds');
const PREFIX = 'prebuild:';

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

function main(argv) {
  if (argv.includes('--clean')) {
    fs.rmSync(OUT, { recursive: true, force: true });
    return;
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
      { cwd: tree, stdio: 'inherit', env });
    if (r.status !== 0) throw new Error('the build failed');
    const built = path.join(tree, 'build', 'Release', 'llhttp_napi.node');
    const tuple = `${process.platform}-${process.arch}`;
    const tags = ['llhttp-napi', 'napi', libc()].filter(Boolean).join('.');
    const dest = path.join(OUT, tuple, tags + '.node');
    fs.rmSync(OUT, { recursive: true, force: true });
    fs.mkdirSync(path.dirname(dest), { recursive: true });
    fs.copyFileSync(built, dest);
    if (process.platform === 'linux') execFileSync('strip', ['--strip-all', dest]);
    else if (process.platform === 'darwin') execFileSync('strip', ['-Sx', dest]);
    // It loads in this node and reports its llhttp.
    const check = spawnSync(process.execPath, ['-p', `require(${JSON.stringify(dest)}).llhttpVersion`],
      { encoding: 'utf8' });
    if (check.status !== 0) throw new Error(`${dest} does not load: ${check.stderr}`);
    const size = fs.statSync(dest).size;
    let glibc = '';
    if (libc() === 'glibc') {
      const v = symbolVersions(dest);
      const newest = (name) => (v[name] ? v[name][v[name].length - 1] : null);
      glibc = `; needs glibc >= ${newest('GLIBC')}` +
        (v.GLIBCXX ? `, libstdc++ GLIBCXX_${newest('GLIBCXX')}` : ', no libstdc++ symbol') +
        (v.CXXABI ? `, CXXABI_${newest('CXXABI')}` : '');
    }
    console.log(`${PREFIX} ${path.relative(ROOT, dest)} (${(size / 1024).toFixed(1)} KiB, llhttp ${check.stdout.trim()}${glibc})`);
  } finally {
    fs.rmSync(tree, { recursive: true, force: true });
  }
}

try {
  main(process.argv.slice(2));
} catch (err) {
  console.error(`${PREFIX} ${err.message}`);
  process.exit(1);
}
