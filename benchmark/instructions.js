'use strict';
// Instructions per message of the parser alone, counted with callgrind
// (callgrind.js): benchmark/parser.js with the built-in and with llhttp-napi,
// and raw llhttp in C (repeated request only), on the repeated request of
// parser.js (vary=0) and on the corpus of 1000 distinct requests (vary=1,
// corpus.js). Each runs twice, with n1 and n2 messages: the difference divided
// by n2 - n1 is the steady state per message (start-up, module loading, corpus
// generation and JIT warm-up cancel out; n2 - n1 is a multiple of the corpus
// size, so every corpus message counts the same). By where.js's categories
// and by function; with frags=F, parser.js frags=F (raw llhttp fed the same F
// pieces).
//
//   node benchmark/instructions.js [len=8] [frags=4] [vary=0,1] [--n1=20000] [--n2=60000] [--json]
//
// Takes a few minutes. Under valgrind the threads run one at a time, so
// TurboFan's background compiles finish late: with fewer messages (fragmented
// runs on a busy machine) the first run can end before our code is optimised,
// and the figure is then baseline code (twice the instructions).

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const callgrind = require('./callgrind');
const common = require('./common');
const { build } = require('./c-programs');

const CORPUS_COUNT = 1000;
const TOP = 12; // functions listed per parser

// argvOf(n) run with n1 and n2 messages: per message, by category and function.
async function perMessage({ dir, tag, argvOf, n1, n2 }) {
  const outs = [n1, n2].map((n) => path.join(dir, `${tag}.${n}.out`));
  await Promise.all([n1, n2].map((n, i) => callgrind.run(argvOf(n), outs[i])));
  const [a, b] = outs.map((out) => {
    const acc = callgrind.account(out);
    fs.rmSync(`/tmp/perf-${callgrind.readDump(out).pid}.map`, { force: true });
    return new Map(acc.fns.map((f) => [f.name, f]));
  });
  const fns = [...new Set([...a.keys(), ...b.keys()])].map((name) => {
    const f = b.get(name) || a.get(name);
    return { name, category: f.category, Ir: ((b.get(name) || { Ir: 0 }).Ir - (a.get(name) || { Ir: 0 }).Ir) / (n2 - n1) };
  }).filter((f) => Math.abs(f.Ir) >= 0.5);
  const categories = Object.entries(callgrind.byCategory(fns)).map(([name, c]) => ({ name, instructions: c.Ir }));
  return {
    total: fns.reduce((sum, f) => sum + f.Ir, 0),
    categories: categories.sort((x, y) => y.instructions - x.instructions),
    top: fns.sort((x, y) => y.Ir - x.Ir).slice(0, TOP).map((f) => ({ fn: f.name.slice(0, 110), instructions: f.Ir })),
  };
}

// One workload (vary 0 or 1): { vary, parsers: { builtin, napi, raw? }, builtinOverNapi, rawOverNapi }.
async function measureWorkload({ dir, len, frags, vary, n1, n2, onProgress }) {
  const bench = path.join(__dirname, 'parser.js');
  const settings = [`len=${len}`, `frags=${frags}`, `vary=${vary}`, ...(vary === 1 ? [`count=${CORPUS_COUNT}`] : [])];
  const out = { vary, parsers: {} };
  for (const parser of common.PARSERS) {
    onProgress(`callgrind ${parser}, ${vary ? 'distinct' : 'repeated'} (n=${n1} and n=${n2})`);
    out.parsers[parser] = await perMessage({ dir, tag: `${parser}.${vary}`, n1, n2,
      argvOf: (n) => [process.execPath, '--single-threaded', '--perf-basic-prof', bench, `--parser=${parser}`, ...settings, `n=${n}`] });
  }
  if (vary === 0) {
    try {
      const binary = build('raw-llhttp');
      const req = path.join(dir, `req${len}.http`);
      fs.writeFileSync(req, common.benchRequest(len));
      onProgress('callgrind raw llhttp (C)');
      out.parsers.raw = await perMessage({ dir, tag: 'raw', n1: n1 * 2, n2: n2 * 2,
        argvOf: (n) => [binary, req, String(n), '1', 'raw', String(frags)] });
    } catch (err) {
      out.rawError = `raw-llhttp: ${String(err.message).split('\n')[0]}`;
    }
  }
  const p = out.parsers;
  out.builtinOverNapi = p.builtin.total / p.napi.total;
  out.rawOverNapi = p.raw ? p.raw.total / p.napi.total : null;
  return out;
}

async function instructions({ len = 8, frags = 1, vary = [0, 1], n1 = 20000, n2 = 60000, onProgress = () => {} } = {}) {
  const why = callgrind.unavailable();
  if (why) return { error: why };
  const varies = [].concat(vary).map(Number);
  if (varies.includes(1) && (n2 - n1) % CORPUS_COUNT !== 0) {
    throw new Error(`n2 - n1 must be a multiple of the corpus size (${CORPUS_COUNT}) for vary=1`);
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'llhttp-napi-cg-'));
  const result = { len, frags, n1, n2, count: CORPUS_COUNT, workloads: [] };
  try {
    for (const v of varies) result.workloads.push(await measureWorkload({ dir, len, frags, vary: v, n1, n2, onProgress }));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  return result;
}

function describe(result) {
  if (result.error) return `instructions: ${result.error}`;
  const n = (x) => common.formatRate(Math.round(x));
  const name = (w) => (w.vary === 1 ? `distinct (corpus of ${result.count})` : `repeated (len=${result.len})`);
  const lines = [`instructions per message (execute() calls + initialize()), benchmark/parser.js` +
    `${result.frags > 1 ? ` frags=${result.frags}` : ''} (callgrind, difference of n=${result.n1} and n=${result.n2}):`];
  for (const w of result.workloads) if (w.rawError) lines.push(`  (${w.rawError})`);
  const head = ['', ...result.workloads.map(name)];
  const rows = [
    ...['builtin', 'napi', 'raw'].map((p) => [p === 'raw' ? 'raw llhttp C' : p, ...result.workloads.map((w) => (w.parsers[p] ? n(w.parsers[p].total) : '—'))]),
    ['builtin/napi (speed-up if time followed instructions)', ...result.workloads.map((w) => `${w.builtinOverNapi.toFixed(2)}×`)],
    ['raw/napi', ...result.workloads.map((w) => (w.rawOverNapi === null ? '—' : w.rawOverNapi.toFixed(2)))],
  ];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  for (const r of [head, ...rows]) lines.push('  ' + r.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('   '));
  for (const w of result.workloads) {
    for (const parser of ['napi', 'builtin']) {
      const p = w.parsers[parser];
      lines.push('', `  ${parser}, ${name(w)}: where the ${n(p.total)} instructions go (where.js)`);
      for (const c of p.categories) {
        if (Math.abs(c.instructions) >= 1) lines.push(`    ${n(c.instructions).padStart(7)}  ${(100 * c.instructions / p.total).toFixed(1).padStart(5)}%  ${c.name}`);
      }
      lines.push('    top functions:', ...p.top.map((t) => `    ${n(t.instructions).padStart(7)}  ${t.fn}`));
    }
  }
  return lines.join('\n');
}

module.exports = { instructions, describe };

if (require.main === module) {
  common.main(({ option, setting }) => instructions({ len: setting('len', 8), frags: setting('frags', 1),
    vary: setting('vary', [0, 1]), n1: option('n1', 20000), n2: option('n2', 60000), onProgress: common.progress }), describe);
}
