'use strict';
// Finds an llhttp >= 9.2 to link statically, in this order:
//   1. LLHTTP_DIR (a prefix holding include/llhttp.h and a libllhttp.a below it);
//   2. pkg-config libllhttp >= 9.2 with its static libllhttp.a;
//   3. the project's cache (.llhttp/), filled from Debian 13 (trixie) packages
//      libllhttp-dev + libllhttp9.2 with a private apt sources list (nothing on
//      the system is changed).
// Usage: node scripts/llhttp.js include|lib|version|describe
// As a module: resolve() -> { include, lib, version, source }.

const fs = require('node:fs');
const path = require('node:path');
const { execFileSync } = require('node:child_process');

const ROOT = path.resolve(__dirname, '..');
const CACHE = process.env.LLHTTP_CACHE || path.join(ROOT, '.llhttp');
const MIN = [9, 2];
const DEBIAN_SUITE = 'trixie';

function headerVersion(includeDir) {
  const text = fs.readFileSync(path.join(includeDir, 'llhttp.h'), 'latin1');
  const part = (name) => Number((text.match(new RegExp('#define LLHTTP_VERSION_' + name + '\\s+(\\d+)')) || [])[1]);
  return [part('MAJOR'), part('MINOR'), part('PATCH')];
}

function recentEnough(v) {
  return v[0] > MIN[0] || (v[0] === MIN[0] && v[1] >= MIN[1]);
}

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
  if (!recentEnough(version)) {
    throw new Error(`llhttp ${version.join('.')} in ${prefix} is older than ${MIN.join('.')}`);
  }
  return { include, lib, version: version.join('.'), source };
}

function fromPkgConfig() {
  try {
    execFileSync('pkg-config', ['--atleast-version=' + MIN.join('.'), 'libllhttp'], { stdio: 'ignore' });
  } catch {
    return null;
  }
  const variable = (v) => execFileSync('pkg-config', ['--variable=' + v, 'libllhttp']).toString().trim();
  const include = variable('includedir');
  const lib = path.join(variable('libdir'), 'libllhttp.a');
  if (!fs.existsSync(path.join(include, 'llhttp.h')) || !fs.existsSync(lib)) return null;
  return { include, lib, version: headerVersion(include).join('.'), source: 'pkg-config' };
}

function fetchFromDebian() {
  const apt = (args, opts) => execFileSync('apt-get', args, { stdio: ['ignore', 'ignore', 'pipe'], ...opts });
  const lists = path.join(CACHE, 'apt-lists');
  fs.mkdirSync(path.join(lists, 'partial'), { recursive: true });
  const sources = path.join(CACHE, 'sources.list');
  fs.writeFileSync(sources, `deb http://deb.debian.org/debian ${DEBIAN_SUITE} main\n`);
  const opts = ['-o', 'Dir::Etc::sourcelist=' + sources, '-o', 'Dir::Etc::sourceparts=-',
    '-o', 'Dir::State::Lists=' + lists, '-o', 'APT::Get::List-Cleanup=0',
    '-o', 'APT::Sandbox::User=root'];
  process.stderr.write(`llhttp-napi: fetching llhttp from Debian ${DEBIAN_SUITE} into ${CACHE}\n`);
  apt([...opts, 'update']);
  const debs = path.join(CACHE, 'debs');
  fs.mkdirSync(debs, { recursive: true });
  apt([...opts, 'download', 'libllhttp-dev', 'libllhttp9.2'], { cwd: debs });
  const root = path.join(CACHE, 'root');
  for (const deb of fs.readdirSync(debs).filter((f) => f.endsWith('.deb'))) {
    execFileSync('dpkg-deb', ['-x', path.join(debs, deb), root]);
  }
  return fromPrefix(root, `Debian ${DEBIAN_SUITE} packages (cached in ${CACHE})`);
}

function resolve() {
  if (process.env.LLHTTP_DIR) {
    const found = fromPrefix(process.env.LLHTTP_DIR, 'LLHTTP_DIR');
    if (!found) throw new Error(`LLHTTP_DIR=${process.env.LLHTTP_DIR} holds no llhttp.h and libllhttp.a`);
    return found;
  }
  const found = fromPkgConfig() || fromPrefix(path.join(CACHE, 'root'), `cache ${CACHE}`);
  if (found) return found;
  try {
    const fetched = fetchFromDebian();
    if (fetched) return fetched;
  } catch (err) {
    throw new Error('llhttp >= 9.2 was not found and could not be fetched from Debian: ' +
      String(err.stderr || err.message).trim() + '\n' + HELP);
  }
  throw new Error('llhttp >= 9.2 was not found.\n' + HELP);
}

const HELP = `Install llhttp >= 9.2 with its static library, then run npm install again:
  Debian 13 / Ubuntu 24.04+: apt-get install libllhttp-dev
  macOS:                     brew install llhttp
  anywhere:                  build llhttp and set LLHTTP_DIR=<prefix holding include/ and lib/>`;

module.exports = { resolve };

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
