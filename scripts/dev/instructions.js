'use strict';
// Deterministic cost per message: instructions per execute()+initialize()
// counted with valgrind's callgrind, for the built-in, llhttp-napi and raw
// llhttp in C, on the repeated request of benchmark/parser.js (vary=0) and on the
// corpus of 1000 distinct realistic requests (vary=1, benchmark/corpus.js).
// Each is run twice with different n; the difference divided by the
// difference of n is the steady state per message (start-up, module loading,
// corpus generation and JIT warm-up cancel out; n2 - n1 is a multiple of the
// corpus size, so every corpus message counts the same). Per function counts
// are grouped into where the time goes.
//
//   node scripts/dev/instructions.js [len=8] [frags=4] [vary=0,1] [--n1=20000] [--n2=60000] [--top=12] [--json=FILE]
//
// With frags=F it measures benchmark/parser.js frags=F (and raw llhttp fed the
// same F pieces). Raw llhttp is measured on the
// repeated request only.
//
// Needs valgrind (apt-get install valgrind). Takes a few minutes. Under
// valgrind the threads run one at a time, so TurboFan's background compiles
// finish late: with fewer messages (fragmented runs on a busy machine) the
// first run can end before our code is optimised, and the figure is then
// baseline code (twice the instructions).

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawn, execFileSync } = require('node:child_process');
const common = require('../../benchmark/common');
const { build } = require('../../benchmark/raw-llhttp');

// Where each function's instructions go; first match wins.
const BUCKETS = [
  ['llhttp (parsing)', /llhttp__|llparse__|llhttp_(execute|init|reset|settings_init|resume|finish)\b/],
  ['N-API and binding glue', /napi_|Napi::|v8impl|ObjectWrap|\(anonymous namespace\)::Parser::(Execute|Rewind|Finish|ApplyRequests|Publish|GetInput|ExecuteRaw|Initialize)|GetPrivate|ArrayBufferView::|JSTypedArray::|CallApiCallback|CallDepthScope|HandleScope|Isolate::GetCurrentContext|GetNumberOfEmbedderDataFields|Builtins_CEntry|Builtins_AdaptorWith|FunctionCallbackArguments|InvokeFunctionCallback|HandleApiCall/],
  ['core callbacks and state (ours: lhn_*, on_*)', /llhttp_napi\.node\]/],
  ["built-in's C++ callbacks (node_http_parser.cc)", /node::\(anonymous namespace\)::Parser::|node::AsyncWrap|node::AsyncHooks|InternalCallbackScope|node::MakeCallback|node::InternalMakeCallback/],
  ['string creation', /StringSubstring|StringSlice|ParseArrayIndex|ExternString|NewRawOneByteString|NewStringFromOneByte|String::NewFrom|StringBytes::Encode|Factory::AllocateRaw|AllocateRawWithImmortalMap|NewConsString|StringAdd|NewSubString|CopyChars|WriteToFlat/],
  ['GC', /Scaveng|IterateObjectCache|RootScavengeVisitor|Heap::|Sweeper|MarkCompact|GlobalHandles|Evacuat|MemoryChunk|Page::|PagedSpace|NewSpace|SemiSpace|Marking/],
  ['IC misses and runtime property lookups', /LoadIC|StoreIC|Runtime::|Runtime_|LookupIterator|KeyedLoad|KeyedStore|Object::GetProperty|SetProperty|Object::Get\(|Object::Set\(|DefineOwnProperty|PropertyKey|FastPropertyAt|UpdateDescriptorForValue/],
  ['JavaScript (JIT-compiled code)', /^\?\?\?:0x[0-9a-f]+|JIT\?/],
  ['other V8 builtins', /Builtins_/],
  ['libc (malloc, memcpy, ...)', /libc\.so|malloc|memcpy|memmove|memset|strcmp|free\b/],
  ['V8 API and calls (Function::Call, Array::New, ...)', /v8::/],
];

function bucketOf(fn) {
  for (const [name, rx] of BUCKETS) if (rx.test(fn)) return name;
  return 'other';
}

function run(argv, outFile) {
  return new Promise((resolve, reject) => {
    const proc = spawn('valgrind', ['--tool=callgrind', '--smc-check=all-non-file',
      `--callgrind-out-file=${outFile}`, ...argv], { stdio: ['ignore', 'pipe', 'pipe'] });
    let err = '';
    proc.stderr.on('data', (d) => { err += d; });
    proc.stdout.resume();
    proc.on('error', reject);
    proc.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`valgrind exited with ${code}: ${err.slice(-400)}`))));
  });
}

// Self instructions per function of one callgrind output.
function selfCosts(file) {
  const out = execFileSync('callgrind_annotate', ['--threshold=100', file], { encoding: 'utf8', maxBuffer: 256 << 20 });
  const costs = new Map();
  let started = false;
  for (const line of out.split('\n')) {
    if (!started) {
      if (line.includes('file:function')) started = true;
      continue;
    }
    const m = /^\s*([\d,]+)\s+\([^)]*\)\s+(.*)$/.exec(line);
    if (!m) continue;
    const fn = m[2].replace(/'\d+/g, '').replace(/^\?\?\?:0x[0-9a-f]+ \[\?\?\?\]$/, 'JIT?');
    costs.set(fn, (costs.get(fn) || 0) + Number(m[1].replace(/,/g, '')));
  }
  return costs;
}

function perOp(a, b, dn) {
  const out = new Map();
  for (const fn of new Set([...a.keys(), ...b.keys()])) {
    const v = ((b.get(fn) || 0) - (a.get(fn) || 0)) / dn;
    if (Math.abs(v) >= 0.5) out.set(fn, v);
  }
  return out;
}

function summarise(costs, top) {
  let total = 0;
  const buckets = new Map();
  for (const [fn, v] of costs) {
    total += v;
    const b = bucketOf(fn);
    buckets.set(b, (buckets.get(b) || 0) + v);
  }
  return {
    total,
    buckets: [...buckets].sort((x, y) => y[1] - x[1]).map(([name, v]) => ({ name, instructions: v })),
    top: [...costs].sort((x, y) => y[1] - x[1]).slice(0, top)
      .map(([fn, v]) => ({ fn: fn.replace(/^\?\?\?:/, '').slice(0, 110), instructions: v })),
  };
}

const CORPUS_COUNT = 1000;

// One workload (vary 0 or 1): { vary, parsers: { builtin, napi, raw? }, builtinOverNapi, rawOverNapi }.
async function measureWorkload({ dir, len, frags, vary, n1, n2, top, onProgress }) {
  const bench = path.join(common.ROOT, 'benchmark', 'parser.js');
  const extra = [`frags=${frags}`];
  extra.push(`vary=${vary}`);
  if (vary === 1) extra.push(`count=${CORPUS_COUNT}`);
  const what = vary === 1 ? 'distinct' : 'repeated';
  const out = { vary, parsers: {} };
  for (const parser of ['builtin', 'napi']) {
    onProgress(`callgrind ${parser}, ${what} (n=${n1} and n=${n2})`);
    const files = [n1, n2].map((n) => path.join(dir, `${parser}.${vary}.${n}.out`));
    await Promise.all([n1, n2].map((n, i) =>
      run([process.execPath, bench, `--parser=${parser}`, `len=${len}`, ...extra, `n=${n}`], files[i])));
    out.parsers[parser] = summarise(perOp(selfCosts(files[0]), selfCosts(files[1]), n2 - n1), top);
  }
  let binary = null;
  if (vary === 0) {
    try {
      binary = build();
    } catch (err) {
      out.rawError = `raw-llhttp does not build: ${String(err.message).split('\n')[0]}`;
    }
  }
  if (binary) {
    onProgress('callgrind raw llhttp (C)');
    const req = path.join(dir, `req${len}.http`);
    fs.writeFileSync(req, common.benchRequest(len));
    const rn1 = n1 * 2, rn2 = n2 * 2;
    const rawFiles = [rn1, rn2].map((n) => path.join(dir, `raw.${n}.out`));
    await Promise.all([rn1, rn2].map((n, i) => run([binary, req, String(n), '1', 'raw', String(frags)], rawFiles[i])));
    out.parsers.raw = summarise(perOp(selfCosts(rawFiles[0]), selfCosts(rawFiles[1]), rn2 - rn1), top);
  }
  const p = out.parsers;
  out.builtinOverNapi = p.builtin.total / p.napi.total;
  out.rawOverNapi = p.raw ? p.raw.total / p.napi.total : null;
  return out;
}

async function instructions({ len = 8, frags = 1, vary = [0, 1], n1 = 20000, n2 = 60000, top = 12, onProgress = () => {} } = {}) {
  try {
    execFileSync('valgrind', ['--version'], { stdio: 'ignore' });
  } catch {
    return { error: 'valgrind is not installed (apt-get install valgrind)' };
  }
  const varies = [].concat(vary).map(Number);
  if (varies.includes(1) && (n2 - n1) % CORPUS_COUNT !== 0) {
    throw new Error(`n2 - n1 must be a multiple of the corpus size (${CORPUS_COUNT}) for vary=1`);
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'llhttp-napi-cg-'));
  const result = { len, frags, n1, n2, count: CORPUS_COUNT, workloads: [] };
  try {
    for (const v of varies) {
      result.workloads.push(await measureWorkload({ dir, len, frags, vary: v, n1, n2, top, onProgress }));
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  return result;
}

function describe(result) {
  if (result.error) return `instructions: ${result.error}`;
  // Results saved before vary existed: one repeated workload at the top level.
  const workloads = result.workloads || [{ vary: 0, parsers: result.parsers, builtinOverNapi: result.builtinOverNapi,
    rawOverNapi: result.rawOverNapi }];
  const lines = [];
  const n = (x) => common.formatRate(Math.round(x));
  const name = (w) => (w.vary === 1 ? `distinct (corpus of ${result.count || CORPUS_COUNT})` : `repeated (len=${result.len})`);
  const what = `benchmark/parser.js${result.frags > 1 ? ` frags=${result.frags}` : ''}`;
  lines.push(`instructions per message (execute() calls + initialize()), ${what} (callgrind, ` +
             `difference of n=${result.n1} and n=${result.n2}):`);
  for (const w of workloads) if (w.rawError) lines.push(`  (${w.rawError})`);
  const head = ['', ...workloads.map(name)];
  const rows = [
    ['builtin', ...workloads.map((w) => n(w.parsers.builtin.total))],
    ['napi', ...workloads.map((w) => n(w.parsers.napi.total))],
    ['raw llhttp C', ...workloads.map((w) => (w.parsers.raw ? n(w.parsers.raw.total) : '—'))],
    ['builtin/napi (speed-up if time followed instructions)', ...workloads.map((w) => `${w.builtinOverNapi.toFixed(2)}×`)],
    ['raw/napi', ...workloads.map((w) => (w.rawOverNapi === null ? '—' : w.rawOverNapi.toFixed(2)))],
  ];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  for (const r of [head, ...rows]) lines.push('  ' + r.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('   '));
  for (const w of workloads) {
    const p = w.parsers;
    for (const parser of ['napi', 'builtin']) {
      lines.push('');
      lines.push(`  ${parser}, ${name(w)}: where the ${n(p[parser].total)} instructions go`);
      for (const b of p[parser].buckets) {
        if (Math.abs(b.instructions) < 1) continue;
        lines.push(`    ${n(b.instructions).padStart(7)}  ${(100 * b.instructions / p[parser].total).toFixed(1).padStart(5)}%  ${b.name}`);
      }
      lines.push('    top functions:');
      for (const t of p[parser].top) lines.push(`    ${n(t.instructions).padStart(7)}  ${t.fn}`);
    }
  }
  return lines.join('\n');
}

module.exports = { instructions, describe };

if (require.main === module) {
  const { options, overrides } = common.parseArgs();
  const tty = process.stderr.isTTY;
  instructions({
    len: Number((overrides.len || [8])[0]),
    frags: Number((overrides.frags || [1])[0]),
    vary: (overrides.vary || [0, 1]).map(Number),
    n1: Number(options.n1 || 20000),
    n2: Number(options.n2 || 60000),
    top: Number(options.top || 12),
    onProgress: (text) => process.stderr.write(tty ? `\r\x1b[K${text}` : text + '\n'),
  }).then((result) => {
    if (tty) process.stderr.write('\r\x1b[K');
    console.log(describe(result));
    if (options.json) fs.writeFileSync(options.json, JSON.stringify(result, null, 2));
    if (result.error) process.exit(1);
  }).catch((err) => {
    console.error(err.stack || err.message);
    process.exit(1);
  });
}
