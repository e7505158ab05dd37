'use strict';
// What a build from source needs that this machine's PATH lacks. Used by
// scripts/install/build.js before it starts, and by ./native.js to name what
// is missing when no addon can be loaded. Only looks at files on PATH (no
// process is spawned), so it is cheap enough for an error path.
const fs = require('node:fs');
const path = require('node:path');

const WIN = process.platform === 'win32';

function onPath(name) {
  const dirs = (process.env.PATH || '').split(path.delimiter).filter(Boolean);
  const exts = WIN ? (process.env.PATHEXT || '.EXE;.CMD;.BAT').split(';') : [''];
  for (const dir of dirs) {
    for (const ext of exts) {
      try {
        const file = path.join(dir, name + ext);
        fs.accessSync(file, fs.constants.X_OK);
        if (fs.statSync(file).isFile()) return file;
      } catch {
        // not there
      }
    }
  }
  return null;
}

// A tool given by an environment variable (CC=/opt/bin/gcc-13, or with
// arguments: CC="ccache gcc") counts when its first word is found.
function fromEnv(value) {
  if (!value) return false;
  const first = value.trim().split(/\s+/)[0];
  return path.isAbsolute(first) ? fs.existsSync(first) : onPath(first) !== null;
}

// Each need: a label for messages, the environment variables that name it,
// the commands that satisfy it. On Windows node-gyp finds Visual Studio by
// itself, so only python is checked there.
const NEEDS = [
  { label: 'a C compiler (cc, gcc or clang)', env: ['CC'], names: ['cc', 'gcc', 'clang'], posix: true },
  { label: 'a C++ compiler (c++, g++ or clang++)', env: ['CXX'], names: ['c++', 'g++', 'clang++'], posix: true },
  { label: 'make', env: [], names: ['make', 'gmake'], posix: true },
  { label: 'python3', env: ['PYTHON', 'npm_config_python'], names: ['python3', 'python'], posix: false },
];

function missingTools() {
  const missing = [];
  for (const need of NEEDS) {
    if (WIN && need.posix) continue;
    if (need.env.some((v) => fromEnv(process.env[v]))) continue;
    if (need.names.some((n) => onPath(n) !== null)) continue;
    missing.push(need.label);
  }
  return missing;
}

module.exports = { missingTools, onPath };
