'use strict';
// What each prebuilt binary is, read from the file alone (llvm-readobj and
// llvm-objdump, Debian's llvm): for every target of scripts/prebuild.js, its
// format and architecture, what it imports (N-API, and libuv where it has
// the server's native transport, from node; otherwise only
// the C library and system libraries; on Linux with glibc no symbol version
// newer than GLIBC_2.17, the oldest glibc of any official Node binary's
// platforms), that it exports the N-API entry points, and that no llhttp
// symbol of its own can interpose on node's.
//
//   node scripts/dev/check-prebuilds.js [prebuilds-dir]   (default: ./prebuilds)
// As a module: check(dir, report) with report(name, ok, detail) for each
// check; returns the targets found.
const fs = require('node:fs');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const { TARGETS } = require('../prebuild');

const GLIBC_MAX = [2, 17];

function tool(names) {
  for (const name of names) {
    const r = spawnSync(name, ['--version'], { encoding: 'utf8' });
    if (r.status === 0) return name;
  }
  throw new Error(`none of ${names.join(', ')} is installed (apt-get install llvm)`);
}

let readobj, objdump;
function llvm(which, args) {
  if (!readobj) {
    readobj = tool(['llvm-readobj', 'llvm-readobj-14']);
    objdump = tool(['llvm-objdump', 'llvm-objdump-14']);
  }
  const r = spawnSync(which === 'readobj' ? readobj : objdump, args, { encoding: 'utf8', maxBuffer: 64 << 20 });
  if (r.status !== 0) throw new Error(`${which} ${args.join(' ')}: ${r.stderr}`);
  return r.stdout;
}

const EXPECT = {
  'linux-x64': { format: 'elf64-x86-64' },
  'linux-arm64': { format: 'elf64-littleaarch64' },
  'linux-x64-musl': { format: 'elf64-x86-64' },
  'linux-arm64-musl': { format: 'elf64-littleaarch64' },
  'win32-x64': { format: 'COFF-x86-64' },
  'darwin-x64': { format: 'Mach-O 64-bit x86-64' },
  'darwin-arm64': { format: 'Mach-O arm64' },
};

const ELF_GLIBC_LIBS = /^(libc\.so\.6|libm\.so\.6|libdl\.so\.2|libpthread\.so\.0|libstdc\+\+\.so\.6|libgcc_s\.so\.1|ld-linux-[\w-]+\.so\.\d)$/;
const ELF_MUSL_LIBS = /^(libc\.so|libc\.musl-[\w]+\.so\.1)$/;
const PE_DLLS = /^(node\.exe|kernel32\.dll|msvcrt\.dll|ucrtbase\.dll|api-ms-win-[\w-]+\.dll)$/i;
const MACHO_LIBS = /^\/usr\/lib\/(libSystem\.B\.dylib|libc\+\+\.1\.dylib|libc\+\+abi\.dylib)$/;
const NAPI = /^_?(napi_|node_api_)/;
const LIBUV = /^uv_/;

function elfSymbols(file) {
  const text = llvm('readobj', ['--dyn-syms', file]);
  const syms = [];
  for (const block of text.split(/\n\s*Symbol \{/).slice(1)) {
    const name = (block.match(/Name: (\S*)/) || [])[1] || '';
    const undef = /Section: Undefined/.test(block);
    if (name) syms.push({ name, undef });
  }
  return syms;
}

function checkElf(name, file, musl, report) {
  const libs = (llvm('readobj', ['--needed-libs', file]).match(/NeededLibraries \[([^\]]*)\]/) || [, ''])[1]
    .split('\n').map((l) => l.trim()).filter(Boolean);
  const allowed = musl ? ELF_MUSL_LIBS : ELF_GLIBC_LIBS;
  report(`${name}: links only ${musl ? 'musl libc' : 'glibc and libstdc++'} (${libs.join(', ')})`,
    libs.length > 0 && libs.every((l) => allowed.test(l)), libs.join('\n'));
  const syms = elfSymbols(file);
  const undef = syms.filter((s) => s.undef);
  const napi = undef.filter((s) => NAPI.test(s.name));
  report(`${name}: N-API symbols are left for node (${napi.length} undefined, none versioned)`,
    napi.length > 20 && napi.every((s) => !s.name.includes('@')), napi.map((s) => s.name).join(' '));
  // The native transport's libuv is the node binary's, like N-API.
  const uv = undef.filter((s) => LIBUV.test(s.name));
  if (TARGETS[name].transport) {
    report(`${name}: has the native transport, libuv's symbols left for node (${uv.length} undefined, none versioned)`,
      uv.length > 10 && uv.every((s) => !s.name.includes('@')), uv.map((s) => s.name).join(' '));
  } else {
    report(`${name}: no native transport (llhttp-napi/server on node:net), no libuv symbol`, uv.length === 0,
      uv.map((s) => s.name).join(' '));
  }
  const versions = undef.map((s) => (s.name.match(/@(GLIBC|GLIBCXX|CXXABI)_([\d.]+)/) || []))
    .filter((m) => m.length);
  if (musl) {
    report(`${name}: no glibc symbol version`, versions.length === 0, versions.map((m) => m[0]).join(' '));
  } else {
    const glibc = versions.filter((m) => m[1] === 'GLIBC').map((m) => m[2].split('.').map(Number));
    const newest = glibc.sort((a, b) => a[0] - b[0] || (a[1] || 0) - (b[1] || 0)).pop() || [0, 0];
    report(`${name}: needs glibc ${newest.join('.')} (at most ${GLIBC_MAX.join('.')})`,
      newest[0] < GLIBC_MAX[0] || (newest[0] === GLIBC_MAX[0] && (newest[1] || 0) <= GLIBC_MAX[1]),
      versions.map((m) => m[0]).join(' '));
  }
  const defined = syms.filter((s) => !s.undef).map((s) => s.name.split('@')[0]);
  report(`${name}: exports napi_register_module_v1 and no llhttp_ symbol`,
    defined.includes('napi_register_module_v1') && !defined.some((n) => n.startsWith('llhttp_')),
    defined.filter((n) => n.startsWith('llhttp_')).join(' '));
}

function checkPe(name, file, report) {
  const text = llvm('readobj', ['--coff-imports', '--coff-exports', file]);
  const dlls = [...text.matchAll(/Import \{\s*Name: (\S+)/g)].map((m) => m[1]);
  report(`${name}: imports only from node.exe and Windows' own DLLs (${dlls.join(', ')})`,
    dlls.includes('node.exe') && dlls.every((d) => PE_DLLS.test(d)), dlls.join('\n'));
  const fromNode = (text.split(/Import \{/).find((b) => /Name: node\.exe/.test(b)) || '')
    .match(/Symbol: (\S+)/g) || [];
  report(`${name}: everything it takes from node.exe is N-API (${fromNode.length} functions)`,
    fromNode.length > 20 && fromNode.every((s) => NAPI.test(s.slice(8))), fromNode.join(' '));
  const exports = [...text.matchAll(/Export \{[^}]*Name: (\S+)/g)].map((m) => m[1]);
  report(`${name}: exports napi_register_module_v1 (${exports.join(', ')})`,
    exports.includes('napi_register_module_v1') && !exports.some((n) => n.startsWith('llhttp_')), exports.join(' '));
}

function checkMachO(name, file, report) {
  const id = llvm('objdump', ['--macho', '--dylib-id', file]).split('\n').slice(1).join('').trim();
  const used = llvm('objdump', ['--macho', '--dylibs-used', file]).split('\n').slice(1)
    .map((l) => l.trim().split(' ')[0]).filter((l) => l && l !== id);
  report(`${name}: links only system libraries (${used.join(', ')})`,
    used.length > 0 && used.every((l) => MACHO_LIBS.test(l)), used.join('\n'));
  const text = llvm('objdump', ['--macho', '--syms', file]);
  const undef = [...text.matchAll(/\*UND\*\s+(\S+)/g)].map((m) => m[1]);
  const napi = undef.filter((n) => NAPI.test(n));
  report(`${name}: N-API symbols are left for node (${napi.length} undefined)`, napi.length > 20, undef.join(' '));
  if (name === 'darwin-arm64') {
    // Apple silicon loads no unsigned code: the linker's ad-hoc signature.
    const headers = llvm('objdump', ['--macho', '--private-headers', file]);
    report(`${name}: carries a code signature (LC_CODE_SIGNATURE; arm64 macOS loads no unsigned code)`,
      /cmd LC_CODE_SIGNATURE/.test(headers));
  }
  const defined = llvm('objdump', ['--macho', '--exports-trie', file]);
  report(`${name}: exports _napi_register_module_v1 and no llhttp_ symbol`,
    /\b_napi_register_module_v1\b/.test(defined) && !/\b_llhttp_/.test(defined), defined.slice(0, 2000));
}

// Checks every prebuild in dir; report(name, ok, detail). Returns the
// targets it found.
function check(dir, report) {
  const found = [];
  for (const [name, t] of Object.entries(TARGETS)) {
    const file = path.join(dir, t.dir, t.file);
    if (!fs.existsSync(file)) continue;
    found.push(name);
    const format = (llvm('readobj', ['--file-headers', file]).match(/Format: (.*)/) || [])[1];
    report(`${name}: ${t.dir}/${t.file} is ${EXPECT[name].format}`, format === EXPECT[name].format, format);
    if (format !== EXPECT[name].format) continue;
    if (name.startsWith('linux')) checkElf(name, file, name.endsWith('musl'), report);
    else if (name.startsWith('win32')) checkPe(name, file, report);
    else checkMachO(name, file, report);
  }
  return found;
}

module.exports = { check };

if (require.main === module) {
  let failed = 0;
  let passed = 0;
  const dir = path.resolve(process.argv[2] || path.join(__dirname, '..', '..', 'prebuilds'));
  const found = check(dir, (name, ok, detail) => {
    if (ok) passed++; else failed++;
    console.log(`${ok ? 'ok  ' : 'FAIL'}  ${name}${!ok && detail ? '\n      ' + String(detail).slice(0, 3000).split('\n').join('\n      ') : ''}`);
  });
  console.log(`prebuilds found: ${found.join(', ') || 'none'}`);
  console.log(`prebuilds: ${passed} passed, ${failed} failed`);
  process.exitCode = failed || !found.length ? 1 : 0;
}
