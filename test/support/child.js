'use strict';
// Runs a snippet in a fresh node process, for calls that may kill the
// process that makes them (the built-in parser aborts or segfaults on some
// misuse): test/parser/conformance.test.js and test/parser/misuse.test.js.
const path = require('node:path');
const { spawnSync } = require('node:child_process');

const ROOT = path.resolve(__dirname, '..', '..');

// Runs `code` in a child node with `HTTPParser` bound to the built-in parser
// when parser === 'builtin', to ours otherwise. Returns spawnSync's result
// (status, signal, stdout, stderr as strings). Through sh so that
// `ulimit -c 0` keeps a deliberate crash from leaving a core file; `exec`
// keeps the child's signal visible.
function runWithParserInChild(parser, code, { timeout = 30000 } = {}) {
  const load = parser === 'builtin' ? "require('_http_common').HTTPParser" :
    `require(${JSON.stringify(ROOT)}).HTTPParser`;
  const src = `'use strict';\nconst HTTPParser = ${load};\n${code}\n`;
  return spawnSync('/bin/sh', ['-c', 'ulimit -c 0 2>/dev/null; exec "$0" -e "$1"', process.execPath, src],
                   { encoding: 'utf8', timeout });
}

// How a child ended, for an assertion's message.
function describeChildExit(r) {
  return `status=${r.status} signal=${r.signal} stderr=${(r.stderr || '').slice(0, 600)}`;
}

module.exports = { runWithParserInChild, describeChildExit };
