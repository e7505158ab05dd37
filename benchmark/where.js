'use strict';
// Where a process's instructions (callgrind.js) or CPU samples
// (server-profile.js) go: the one table of categories of this folder.
// A function is { name, object }: its symbol, and the binary it is in
// (callgrind's object, perf's DSO; 'JIT' or '' for generated code). JIT'd
// JavaScript is named `JS <function> <file>` from node's --perf-basic-prof map
// (jsName), other generated code `JIT <stub>`. The first category that matches
// wins, so the order matters: llhttp before our addon (llhttp is linked into
// it), our addon before N-API (its C++ binding calls node-addon-api inline).

const ADDON = /llhttp_napi[^/]*\.node$/;
const COMPILERS = 'V8 compilers (TurboFan, Maglev, parser)';

const CATEGORIES = [
  ['llhttp', (f) => /^llhttp|^llparse/.test(f.name)],
  // The core is C (lhn_*, its llhttp callbacks on_*): plain symbols; the
  // binding (src/binding/addon.cc) is C++: scoped names.
  ['our core (src/core, C)', (f) => ADDON.test(f.object) && !/::|\(/.test(f.name)],
  ['our binding (src/binding, N-API glue)', (f) => ADDON.test(f.object)],
  ['JS ours: lib/', (f) => /^JS .* lib\/\S+\.js$/.test(f.name)],
  ['JS node:http', (f) => /^JS .*node:_?http/.test(f.name)],
  ['JS net, streams, events, timers, async hooks, ticks', (f) => /^JS .*node:(net|stream|events|timers|buffer|async_hooks|internal\/(streams|timers|async|process|stream_base|event|util|net|validators|buffer|linkedlist))/.test(f.name)],
  ['JS the app (handler, Express, Fastify)', (f) => /^JS .* (benchmark|node_modules)\//.test(f.name)],
  ['JS other, RegExp, stubs', (f) => /^(JS|JIT) /.test(f.name)],
  ['N-API', (f) => /napi_|v8impl|Napi::/.test(f.name)],
  // (node::http_parser::Parser on 24 and 26, node::(anonymous namespace)::Parser before.)
  ['built-in parser C++ (node_http_parser.cc, ConnectionsList)', (f) => /http_parser|ConnectionsList|^node::\(anonymous namespace\)::Parser::/.test(f.name)],
  ['node streams C++ (reads, writes, onread)', (f) => /StreamBase|StreamResource|StreamListener|StreamWrap|WriteWrap|StreamReq|EmitRead|OnUvRead|OnUvAlloc|CallJSOnread|TCPWrap|ShutdownWrap/.test(f.name)],
  ['callback scopes, async hooks C++', (f) => /InternalCallbackScope|MakeCallback|AsyncWrap|AsyncHooks|async_context|CallbackScope|TickInfo|RunMicrotasks|MicrotaskQueue/.test(f.name)],
  ['libuv', (f) => /^uv_|^uv__/.test(f.name)],
  ['GC', (f) => /Heap::|Scaveng|MarkCompact|Marking|Sweep|Evacuat|Remembered|GCTracer|MemoryChunk|SemiSpace|NewSpace|PagedSpace|MinorMC|ConcurrentMark|IncrementalMark|GlobalHandles|MemoryAllocator|IterateObjectCache|RootScavenge/.test(f.name)],
  [COMPILERS, (f) => /compiler::|maglev::|Maglev|Turbofan|Zone|Parser::|Scanner|BytecodeGenerator|baseline::|interpreter::|Compiler::|OptimizingCompile/.test(f.name)],
  ['V8 builtins (ICs, interpreter, stubs)', (f) => /^Builtins_/.test(f.name)],
  ['JIT code not in the perf map', (f) => /^0x[0-9a-f]+$/.test(f.name) || f.object === 'JIT'],
  ['libc (malloc, memcpy, syscall wrappers)', (f) => /libc[.-]|ld-linux|libstdc/.test(f.object)],
  ['kernel: syscalls, TCP', (f) => /kernel/.test(f.object)],
  ['V8 runtime (runtime calls, strings, API)', (f) => /v8::|Runtime_|Builtins::/.test(f.name)],
  ['other node C++', () => true],
];

const categoryOf = (f) => CATEGORIES.find(([, test]) => test(f))[0];

// A name of node's perf map as the table reads it: `JS <function> <file>`,
// without tier marks, position, or the path before lib/, benchmark/,
// node_modules/; other generated code `JIT <name>`.
function jsName(raw) {
  if (!/^JS:/.test(raw)) return `JIT ${raw}`;
  return raw.replace(/^JS:[*~^+]?'?/, 'JS ').replace(/:\d+:\d+$/, '')
    .replace(/ \S*?\/(node_modules\/\S+|lib\/\S+\.js|benchmark\/\S+)$/, ' $1');
}

module.exports = { CATEGORIES, COMPILERS, categoryOf, jsName };
