'use strict';
// The C core's source files (src/core), relative to the package root: the
// one list that binding.gyp, the cross builds (scripts/prebuild.js), the
// core's unit tests and the fuzzer compile.
module.exports = [
  'src/core/lhn_parser.c',
  'src/core/lhn_call.c',
  'src/core/lhn_callbacks.c',
  'src/core/lhn_held.c',
  'src/core/lhn_text.c',
  'src/core/lhn_workspace.c',
  'src/core/lhn_contract.c',
  'src/core/lhn_known.c',
  'src/core/lhn_repeat.c',
  'src/core/lhn_pool.c',
  'src/core/lhn_clock.c',
  'src/core/lhn_llhttp.c',
];
