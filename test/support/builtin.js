'use strict';
// The running Node's built-in HTTP parser binding, as the tests compare with.
const { execFileSync } = require('node:child_process');

const common = require('_http_common');

// `allMethods` of the built-in binding, indexed by llhttp method number
// (`methods` is not: it skips the RTSP methods, so QUERY (46) is at 34).
// process.binding('http_parser') is gone from 22 on: the internal binding is
// then read in a child started with --expose-internals.
function loadAllMethods() {
  const saved = process.noDeprecation;
  process.noDeprecation = true;
  try {
    return process.binding('http_parser').allMethods;
  } catch {
    const script = "const { internalBinding } = require('internal/test/binding');" +
      "process.stdout.write(JSON.stringify(internalBinding('http_parser').allMethods))";
    return JSON.parse(execFileSync(process.execPath,
      ['--expose-internals', '--no-warnings', '-e', script], { encoding: 'utf8' }));
  } finally {
    process.noDeprecation = saved;
  }
}

module.exports = {
  HTTPParser: common.HTTPParser,
  methods: common.methods,
  allMethods: loadAllMethods(),
  // The running Node's major version, for expectations that changed between lines.
  LINE: Number(process.versions.node.split('.')[0]),
};
