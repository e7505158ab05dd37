'use strict';
// Finds the llhttp the addon is compiled against: its llhttp.h fixes the
// struct layout the core shares with the running node's own llhttp (used
// when node exports it, see src/core/lhn_llhttp.h), and its static
// libllhttp.a is linked in as the fallback copy. The layout is that of 9.3
// and 9.4 (9.3 inserted on_protocol into llhttp_settings_t), so the header
// must be one of those; in this order:
//   1. LLHTTP_DIR (a prefix holding include/llhttp.h and a libllhttp.a below it);
//   2. pkg-config libllhttp (9.3 or 9.4) with its static libllhttp.a;
//   3. the project's cache (.llhttp/), filled from Debian's libllhttp-dev 9.4
//      (forky, else sid) with a private apt sources list (nothing on the
//      system is changed).
// Usage: node scripts/install/llhttp.js include|lib|version|describe
// As a module: resolve() -> { include, lib, version, source }, and
// resolveCross('arm64') -> the same for a cross build (scripts/prebuild.js):
// Debian's libllhttp-dev of that architecture, fetched as in 3. into
// .llhttp/<debian arch>/ (its llhttp.h is the same file on every
// architecture, so a build with no static llhttp takes the header from here).

const fs = require('node:fs');
const path = require('node:path');
const { execFileSync } = require('node:child_process');

const ROOT = path.resolve(__dirname, '..', '..');
const CACHE = process.env.LLHTTP_CACHE || path.join(ROOT, '.llhttp');
const MIN = [9, 3];
const MAX = [9, 4];
const DEBIAN_SUITES = ['forky', 'sid'];

function headerVersion(includeDir) {
  const text = fs.readFileSync(path.join(includeDir, 'llhttp.h'), 'latin1');
  const part = (name) => Number((text.match(new RegExp('#define LLHTTP_VERSION_' + name + '\\s+(\\d+)')) || [])[1]);
  return [part('MAJOR'), part('MINOR'), part('PATCH')];
}

function usable(v) {
  const atLeast = (a, b) => a[0] > b[0] || (a[0] === b[0] && a[1] >= b[1]);
  return atLeast(v, MIN) && atLeast(MAX, v);
}

const RANGE = `${MIN.join('.')} to ${MAX.join('.')}`;

function findFile(dir, name, depth = 4) {
  if (depth < 0 || !fs.existsSync(dir)) return null;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isFile() && entry.name === name) return full;
    if (entry.isDirectory()) {
      const found = findFile(full, name, depth - 1);
      if (found) return found;
    }
  }
  return null;
}

function fromPrefix(prefix, source) {
  const header = findFile(prefix, 'llhttp.h');
  const lib = findFile(prefix, 'libllhttp.a');
  if (!header || !lib) return null;
  const include = path.dirname(header);
  const version = headerVersion(include);
  if (!usable(version)) {
    throw new Error(`llhttp ${version.join('.')} in ${prefix} is not ${RANGE}`);
  }
  return { include, lib, version: version.join('.'), source };
}

function fromPkgConfig() {
  try {
    execFileSync('pkg-config', ['--atleast-version=' + MIN.join('.'), '--max-version=' + MAX.join('.') + '.999', 'libllhttp'], { stdio: 'ignore' });
  } catch {
    return null;
  }
  const variable = (v) => execFileSync('pkg-config', ['--variable=' + v, 'libllhttp']).toString().trim();
  const include = variable('includedir');
  const lib = path.join(variable('libdir'), 'libllhttp.a');
  if (!fs.existsSync(path.join(include, 'llhttp.h')) || !fs.existsSync(lib)) return null;
  return { include, lib, version: headerVersion(include).join('.'), source: 'pkg-config' };
}

// Debian's names of the architectures a cross build can fetch llhttp for,
// and the objcopy that edits their objects.
const DEBIAN_ARCH = { x64: 'amd64', arm64: 'arm64' };
const OBJCOPY = { x64: 'objcopy', arm64: 'aarch64-linux-gnu-objcopy' };

function fetchFromDebian(suite, arch) {
  const apt = (args, opts) => execFileSync('apt-get', args, { stdio: ['ignore', 'ignore', 'pipe'], ...opts });
  const cache = arch ? path.join(CACHE, DEBIAN_ARCH[arch]) : CACHE;
  const dir = path.join(cache, suite);
  const lists = path.join(dir, 'apt-lists');
  fs.mkdirSync(path.join(lists, 'partial'), { recursive: true });
  const sources = path.join(dir, 'sources.list');
  const only = arch ? `[arch=${DEBIAN_ARCH[arch]}] ` : '';
  fs.writeFileSync(sources, `deb ${only}http://deb.debian.org/debian ${suite} main\n`);
  const opts = ['-o', 'Dir::Etc::sourcelist=' + sources, '-o', 'Dir::Etc::sourceparts=-',
    '-o', 'Dir::State::Lists=' + lists, '-o', 'APT::Get::List-Cleanup=0',
    '-o', 'APT::Sandbox::User=root'];
  if (arch) opts.push('-o', 'APT::Architectures::=' + DEBIAN_ARCH[arch]);
  process.stderr.write(`llhttp-napi: fetching llhttp${arch ? ' (' + DEBIAN_ARCH[arch] + ')' : ''} from Debian ${suite} into ${cache}\n`);
  apt([...opts, 'update']);
  const debs = path.join(dir, 'debs');
  fs.rmSync(debs, { recursive: true, force: true });
  fs.mkdirSync(debs, { recursive: true });
  apt([...opts, 'download', 'libllhttp-dev' + (arch ? ':' + DEBIAN_ARCH[arch] : '')], { cwd: debs });
  const root = path.join(cache, 'root');
  fs.rmSync(root, { recursive: true, force: true });
  for (const deb of fs.readdirSync(debs).filter((f) => f.endsWith('.deb'))) {
    execFileSync('dpkg-deb', ['-x', path.join(debs, deb), root]);
  }
  const found = fromPrefix(root, `Debian ${suite}'s libllhttp-dev${arch ? ':' + DEBIAN_ARCH[arch] : ''} (cached in ${cache})`);
  // Debian builds its static library for executables: the one reference to a
  // data symbol of another library, stderr in llhttp's debug printer (which
  // the parser never calls), cannot be linked into a shared object. It is
  // pointed at a variable of the addon (src/core/lhn_llhttp.c) instead.
  execFileSync(OBJCOPY[arch || 'x64'], ['--redefine-sym', 'stderr=lhn_llhttp_stderr', found.lib]);
  return found;
}

// llhttp for a cross build to arch (x64 or arm64): LLHTTP_DIR_<ARCH> (a
// prefix as for LLHTTP_DIR), else Debian's libllhttp-dev of that
// architecture, cached.
function resolveCross(arch) {
  if (!DEBIAN_ARCH[arch]) throw new Error(`no static llhttp for ${arch} can be had here`);
  const given = process.env['LLHTTP_DIR_' + arch.toUpperCase()];
  if (given) {
    const found = fromPrefix(given, 'LLHTTP_DIR_' + arch.toUpperCase());
    if (!found) throw new Error(`LLHTTP_DIR_${arch.toUpperCase()}=${given} holds no llhttp.h and libllhttp.a`);
    return found;
  }
  const root = path.join(CACHE, DEBIAN_ARCH[arch], 'root');
  try {
    const found = fromPrefix(root, `cache ${path.dirname(root)}`);
    if (found) return found;
  } catch {
    fs.rmSync(root, { recursive: true, force: true });
  }
  const errors = [];
  for (const suite of DEBIAN_SUITES) {
    try {
      const fetched = fetchFromDebian(suite, arch);
      if (fetched) return fetched;
    } catch (err) {
      errors.push(`${suite}: ` + String(err.stderr || err.message).trim().split('\n')[0]);
    }
  }
  throw new Error(`llhttp ${RANGE} for ${arch} could not be fetched from Debian (${errors.join('; ')})`);
}

function resolve() {
  if (process.env.LLHTTP_DIR) {
    const found = fromPrefix(process.env.LLHTTP_DIR, 'LLHTTP_DIR');
    if (!found) throw new Error(`LLHTTP_DIR=${process.env.LLHTTP_DIR} holds no llhttp.h and libllhttp.a`);
    return found;
  }
  const found = fromPkgConfig() || cached();
  if (found) return found;
  const errors = [];
  for (const suite of DEBIAN_SUITES) {
    try {
      const fetched = fetchFromDebian(suite);
      if (fetched) return fetched;
    } catch (err) {
      errors.push(`${suite}: ` + String(err.stderr || err.message).trim().split('\n')[0]);
    }
  }
  throw new Error(`llhttp ${RANGE} was not found and could not be fetched from Debian (` +
    errors.join('; ') + ').\n' + HELP);
}

// The cache, if it holds a usable llhttp (an older one is fetched again).
function cached() {
  try {
    return fromPrefix(path.join(CACHE, 'root'), `cache ${CACHE}`);
  } catch {
    fs.rmSync(path.join(CACHE, 'root'), { recursive: true, force: true });
    return null;
  }
}

const HELP = `Install llhttp ${RANGE} with its static library, then run npm install again:
  Debian forky / sid:        apt-get install libllhttp-dev
  macOS:                     brew install llhttp
  anywhere:                  build llhttp and set LLHTTP_DIR=<prefix holding include/ and lib/>`;

module.exports = { resolve, resolveCross };

if (require.main === module) {
  try {
    const found = resolve();
    const what = process.argv[2] || 'describe';
    if (what === 'describe') console.log(`llhttp ${found.version} from ${found.source}: ${found.lib}`);
    else console.log(found[what]);
  } catch (err) {
    console.error('llhttp-napi: ' + err.message);
    process.exit(1);
  }
}
