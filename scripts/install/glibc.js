'use strict';
// binding.gyp asks: does this build link against glibc 2.34 or later on
// x86-64? Prints 1 or 0. Then src/binding/glibc_compat.h is force-included,
// so that the addon asks for the dlsym every glibc since 2.2.5 exports
// instead of dlsym@GLIBC_2.34, and a prebuilt binary made here loads on the
// older glibc the official Node binaries support. musl and other systems: 0.
//
// The glibc built against is the one this machine runs (node reports it).
function glibc() {
  if (process.platform !== 'linux' || !process.report) return null;
  const header = process.report.getReport().header;
  return header.glibcVersionRuntime || null;
}

const v = glibc();
const [major, minor] = v ? v.split('.').map(Number) : [0, 0];
console.log(process.arch === 'x64' && (major > 2 || (major === 2 && minor >= 34)) ? 1 : 0);
