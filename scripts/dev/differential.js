'use strict';
// Long differential run: generated requests and responses (test/support/
// generate.js) through the built-in parser and ours; reports mismatches,
// grouped, each with a minimised reproduction.
//
//   node scripts/dev/differential.js --cases 200000 --seed 1 [--start 0]
//        [--show 3]        cases shown per kind of mismatch
//        [--no-minimize]   skip minimising
//        [--case SEED:IDX] run one case and print both records
//        [--json FILE]     write the summary as JSON
//        [--no-empty-executes] no empty executes between chunks
//        [--no-throwing]   no handler throws
// Exit status 1 when there was a mismatch.

const fs = require('node:fs');
const path = require('node:path');
const { generateCase } = require('../../test/support/generate');
const { compareCase, reproSnippet } = require('../../test/support/differential-harness');
const { HTTPParser } = require(path.resolve(__dirname, '..', '..'));

function parseArgs(argv) {
  const o = { cases: 10000, seed: 1, start: 0, show: 3, minimize: true, one: null, json: null, empty: true, throwing: true };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--cases') o.cases = Number(argv[++i]);
    else if (a === '--seed') o.seed = Number(argv[++i]);
    else if (a === '--start') o.start = Number(argv[++i]);
    else if (a === '--show') o.show = Number(argv[++i]);
    else if (a === '--no-minimize') o.minimize = false;
    else if (a === '--case') o.one = argv[++i];
    else if (a === '--json') o.json = argv[++i];
    else if (a === '--no-empty-executes') o.empty = false;
    else if (a === '--no-throwing') o.throwing = false;
    else throw new Error(`differential: unknown argument ${a}`);
  }
  return o;
}

// What kind of mismatch: the first differing step's outcomes.
function signature(res) {
  const brief = (s) => {
    if (!s) return 'none';
    const r = s.result;
    const first = (s.events[0] || [''])[0];
    return `${s.op}:${r[0]}${r[0] === 'error' ? ':' + r[1] : ''}${first ? '/' + first : ''}`;
  };
  return `builtin ${brief(res.builtin)} | ours ${brief(res.ours)}`;
}

// --- minimising ---------------------------------------------------------------

function withInput(tc, input, cuts) {
  const chunks = [];
  let prev = 0;
  for (const c of cuts) {
    if (c < prev || c > input.length) continue;
    chunks.push(input.subarray(prev, c));
    prev = c;
  }
  chunks.push(input.subarray(prev));
  return { ...tc, input, chunks, cuts };
}

function cutsOf(tc) {
  const cuts = [];
  let at = 0;
  for (let i = 0; i < tc.chunks.length - 1; i++) {
    at += tc.chunks[i].length;
    cuts.push(at);
  }
  return cuts;
}

function minimize(tc, stillFails) {
  let best = withInput(tc, tc.input, cutsOf(tc));
  const attempt = (cand) => {
    if (stillFails(cand)) {
      best = cand;
      return true;
    }
    return false;
  };
  // simpler settings first
  if (best.prelude) attempt({ ...best, prelude: null });
  attempt(withInput(best, best.input, []));
  if ((best.ops || []).some(Boolean)) attempt({ ...best, ops: [] });
  if (best.view !== 'buffer') attempt({ ...best, view: 'buffer' });
  if (best.missing && best.missing.length) attempt({ ...best, missing: [] });
  if (best.answers.length > 1) attempt({ ...best, answers: best.answers.slice(0, 1) });
  if ((best.pauseInHeadersComplete || []).length) attempt({ ...best, pauseInHeadersComplete: [] });
  if (best.finish) attempt({ ...best, finish: false });
  if (best.answers.some((x) => x)) attempt({ ...best, answers: [] });
  if (best.maxHeaderSize) attempt({ ...best, maxHeaderSize: 0 });
  if (best.lenient) {
    attempt({ ...best, lenient: 0 });
    for (let bit = 512; bit >= 1 && best.lenient; bit >>= 1) {
      if (best.lenient & bit) attempt({ ...best, lenient: best.lenient & ~bit });
    }
  }
  // fewer cuts
  for (let i = best.cuts.length - 1; i >= 0; i--) {
    attempt(withInput(best, best.input, best.cuts.filter((_, k) => k !== i)));
  }
  // fewer bytes
  for (let size = Math.max(1, best.input.length >> 1); size >= 1; size = size >> 1) {
    for (let at = 0; at + size <= best.input.length;) {
      const input = Buffer.concat([best.input.subarray(0, at), best.input.subarray(at + size)]);
      const cuts = best.cuts.map((c) => (c <= at ? c : Math.max(at, c - size)));
      if (!attempt(withInput(best, input, cuts))) at += size;
    }
    if (size === 1) break;
  }
  // fewer cuts again
  for (let i = best.cuts.length - 1; i >= 0; i--) {
    attempt(withInput(best, best.input, best.cuts.filter((_, k) => k !== i)));
  }
  return best;
}

// --- main ----------------------------------------------------------------------

// JSON with long strings shortened.
function brief(value) {
  return JSON.stringify(value, (k, v) => (typeof v === 'string' && v.length > 200
    ? `${v.slice(0, 80)}<...${v.length - 160} bytes...>${v.slice(-80)}` : v));
}

function showCase(tc, res) {
  const lines = [];
  lines.push(`  case ${tc.id} ${tc.type} lenient=${tc.lenient} maxHeaderSize=${tc.maxHeaderSize} ` +
    `answers=${JSON.stringify(tc.answers)} finish=${tc.finish} view=${tc.view} ` +
    `missing=${JSON.stringify(tc.missing || [])} ops=${JSON.stringify(tc.ops || [])} ` +
    `pauseInHeadersComplete=${JSON.stringify(tc.pauseInHeadersComplete || [])} prelude=${tc.prelude ? tc.prelude.id : 'none'} ` +
    `throwAt=${JSON.stringify(tc.throwAt || null)} ` +
    `tags=${(tc.tags || []).join(',')}`);
  lines.push(`  chunks: ${brief(tc.chunks.map((c) => c.toString('latin1')))}`);
  if (res.status === 'mismatch') {
    lines.push(`  first difference at step ${res.where}:`);
    lines.push(`    builtin: ${brief(res.builtin)}`);
    lines.push(`    ours:    ${brief(res.ours)}`);
  }
  return lines.join('\n');
}

function main() {
  const o = parseArgs(process.argv.slice(2));
  if (o.one) {
    const [seed, idx] = o.one.split(':').map(Number);
    const tc = generateCase(seed, idx, { emptyExecutes: o.empty, throwing: o.throwing });
    const res = compareCase(HTTPParser, tc);
    console.log(showCase(tc, res));
    console.log('status:', res.status, res.note || '');
    console.log('builtin:', JSON.stringify(res.records.builtin));
    console.log('ours:   ', JSON.stringify(res.records.ours));
    return;
  }
  const started = Date.now();
  const counts = { same: 0, known: 0, mismatch: 0 };
  const known = new Map();
  const groups = new Map();
  for (let i = o.start; i < o.start + o.cases; i++) {
    const tc = generateCase(o.seed, i, { emptyExecutes: o.empty, throwing: o.throwing });
    const res = compareCase(HTTPParser, tc);
    counts[res.status]++;
    if (res.status === 'known') known.set(res.note, (known.get(res.note) || 0) + 1);
    if (res.status === 'mismatch') {
      const sig = signature(res);
      if (!groups.has(sig)) groups.set(sig, []);
      groups.get(sig).push({ tc, res });
    }
    if ((i - o.start + 1) % 20000 === 0) {
      process.stderr.write(`differential: ${i - o.start + 1} cases, ${counts.mismatch} mismatches, ` +
        `${((Date.now() - started) / 1000).toFixed(0)} s\n`);
    }
  }
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  console.log(`differential: seed ${o.seed}, cases ${o.start}..${o.start + o.cases - 1}: ` +
    `${counts.same} same, ${counts.known} known differences, ${counts.mismatch} mismatches (${seconds} s)`);
  for (const [note, n] of known) console.log(`  known (${n}): ${note}`);
  const summary = { seed: o.seed, start: o.start, cases: o.cases, counts, known: Object.fromEntries(known), groups: [] };
  for (const [sig, list] of groups) {
    console.log(`\nmismatch kind (${list.length} cases): ${sig}`);
    const group = { signature: sig, count: list.length, cases: list.slice(0, 20).map((x) => x.tc.id), examples: [] };
    for (const { tc, res } of list.slice(0, o.show)) {
      console.log(showCase(tc, res));
      if (o.minimize) {
        const small = minimize(tc, (cand) => compareCase(HTTPParser, cand).status === 'mismatch');
        const sres = compareCase(HTTPParser, small);
        console.log('  minimised:');
        console.log(showCase(small, sres).replace(/^/gm, '  '));
        console.log('  reproduction:\n' + reproSnippet(small).replace(/^/gm, '    '));
        group.examples.push({ id: tc.id, type: small.type, lenient: small.lenient,
          maxHeaderSize: small.maxHeaderSize, answers: small.answers, finish: small.finish,
          chunks: small.chunks.map((c) => c.toString('latin1')), builtin: sres.builtin, ours: sres.ours });
      }
    }
    summary.groups.push(group);
  }
  if (o.json) fs.writeFileSync(o.json, JSON.stringify(summary, null, 2));
  process.exit(counts.mismatch ? 1 : 0);
}

main();
