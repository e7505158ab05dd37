'use strict';
// The tables of `npm run bench` (run.js), from its result: what a user
// comparing the parsers reads, each figure with its ratio, its interval and
// what the row measures.
//
//   headlineRows   the figures of issue 23 (memory per connection, the cold
//                  parse, distinct messages in the steady state, e2e CPU per
//                  request one server at a time with the paired figure
//                  beside it, the client, the parser on node:net);
//   sideBySide     repeated and distinct messages, each parser figure;
//   everyRows      every figure of the run, one row each;
//   chartBars      the bars of results/ratios.svg (svg.js).
//
// With `targets` (targets.js, npm run bench -- --targets) the tables also
// carry this project's target of each figure and whether it was met.

const common = require('./common');
const { targetText, verdict } = require('./targets');

const { formatRatio: ratioText, formatInterval: ciText, formatFixed: fixed } = common;
const intText = (x) => (Number.isFinite(x) ? common.formatRate(Math.round(x)) : '—');

const E2E_NAMES = { hello: 'hello world', browser: 'browser-like GETs', 'post-json': 'POST 4 KiB JSON',
  upload: 'PUT 64 KiB upload', express: 'Express 5 app', fastify: 'Fastify 5 app' };
// Which way is better: a cost (CPU, memory) ours / built-in, or a speed.
const COST = 'lower';
const SPEED = 'higher';

// "n=100000 len=8 vary=0 clock=cpu" -> { n: 100000, len: 8, vary: 0, clock: 'cpu' }
function parseConfig(text) {
  const out = {};
  for (const pair of text.split(' ').filter(Boolean)) {
    const at = pair.indexOf('=');
    const v = pair.slice(at + 1);
    out[pair.slice(0, at)] = /^\d+$/.test(v) ? Number(v) : v;
  }
  return out;
}

// The fresh-process row of a compare() list matching `want` (keys absent
// from a config count as their defaults: kind request, clock as run).
function freshRow(list, want) {
  for (const r of list || []) {
    const conf = { kind: 'request', frags: 1, vary: 0, ...parseConfig(r.config) };
    if (Object.keys(want).every((k) => want[k] === undefined || conf[k] === want[k])) return r;
  }
  return null;
}

function pairedRow(result, { len, frags = 1, vary = 0, kind = 'request' }) {
  return (result.paired || []).find((x) => !x.error && x.frags === frags && (x.vary || 0) === vary &&
    (x.kind || 'request') === kind && (vary === 1 || kind === 'response' || x.len === len)) || null;
}

// A row's target columns: empty without targets.
function judged(row, targets, target, value) {
  if (!targets) return row;
  return { ...row, target: targetText(target), verdict: verdict(target, value) };
}

// --------------------------------------------------------- the headline ----

// A memory figure of idle-memory.js: medians of KB RSS per connection, the ratio, the rounds' range.
function memoryRow(figure, mem, targets, target) {
  if (!mem) return null;
  if (mem.error) return { figure, unit: 'KB/conn', means: COST, builtin: '', napi: '', ratio: '—', ci: '', verdict: `error: ${mem.error}` };
  const ratio = mem.median.rss.napi / mem.median.rss.builtin;
  return judged({ figure, unit: 'KB RSS/conn', means: COST, builtin: fixed(mem.median.rss.builtin), napi: fixed(mem.median.rss.napi),
    ratio: ratioText(ratio), ci: `${ciText([Math.min(...mem.ratios), Math.max(...mem.ratios)])} (${mem.ratios.length} rounds)` },
  targets, target, ratio);
}

// An e2e series (rounds.js seriesStats): the median ratio and its interval.
function seriesRow(figure, unit, s, targets, target, beside = null) {
  if (!s) return { figure, unit, means: COST, builtin: '—', napi: '—', ratio: '—', ci: '—' };
  return judged({ figure, unit, means: COST, builtin: fixed(s.builtin), napi: fixed(s.napi), ratio: ratioText(s.median, 3),
    ci: ciText(s.ci, 3), beside: beside ? `${ratioText(beside.median, 3)} (${ciText(beside.ci, 3)})` : '' },
  targets, target, s.median);
}

function pairedParserRow(figure, r, targets, target) {
  if (!r) return null;
  return judged({ figure, unit: 'ops/s', means: SPEED, builtin: intText(r.builtin), napi: intText(r.napi),
    ratio: ratioText(r.geoMean), ci: ciText(r.ci) }, targets, target, r.geoMean);
}

function headlineRows(result, targets = null) {
  const T = targets || {};
  const rows = [
    memoryRow('RSS per idle keep-alive connection (idle-memory.js)', result.memory, targets, T.idleMemory),
    memoryRow('RSS per connection holding 8 KiB of an unfinished head (--partial)', result.partialMemory,
      targets, T.partialMemory),
  ];
  const cold = result.cold;
  if (cold) {
    rows.push(cold.error ? { figure: 'cold parse, distinct requests (cold.js)', verdict: `error: ${cold.error}` } :
      judged({ figure: 'cold parse, distinct requests (cold.js)', unit: 'µs/msg', means: SPEED, builtin: fixed(cold.builtinUs, 2),
        napi: fixed(cold.napiUs, 2), ratio: ratioText(cold.geoMean), ci: ciText(cold.ci) }, targets, T.cold, cold.geoMean));
  }
  for (const frags of [1, 3]) {
    rows.push(pairedParserRow(`distinct requests, steady state, ${frags === 1 ? 'whole' : 'in 3 pieces'} (paired.js)`,
      pairedRow(result, { frags, vary: 1 }), targets, T.distinct && T.distinct(frags)));
  }
  const e = result.e2e;
  if (e && e.error) rows.push({ figure: 'e2e CPU per request', verdict: `error: ${e.error}` });
  for (const [name, w] of Object.entries((e && e.workloads) || {})) {
    rows.push(seriesRow(`server CPU per request, ${E2E_NAMES[name] || name} (server.js)`, 'µs/req',
      w.solo && w.solo.stats, targets, T.e2e && T.e2e(name), w.paired && w.paired.stats));
  }
  const c = result.client;
  if (c && c.error) rows.push({ figure: 'node:http client CPU per response', verdict: `error: ${c.error}` });
  for (const [kind, k] of Object.entries((c && c.kinds) || {})) {
    rows.push(seriesRow(`client CPU per response, 1 KiB JSON${kind === 'chunked' ? ', chunked' : ''} (client.js)`,
      'µs/resp', k.stats, targets, T.client));
  }
  const net = result.netEcho && result.netEcho.workloads && result.netEcho.workloads['net-echo'];
  if (result.netEcho && result.netEcho.error) rows.push({ figure: 'examples/net-server.js', verdict: `error: ${result.netEcho.error}` });
  if (net) {
    rows.push(seriesRow('parser on node:net vs node:http, JSON echo (server.js net-echo)',
      'µs/req', net.solo && net.solo.stats, targets, null));
  }
  return rows.filter(Boolean);
}

// ----------------------------------------------- repeated and distinct ----

const cellOf = (ratio, ci) => (Number.isFinite(ratio) ? `${ratioText(ratio)} (${ciText(ci)})` : '—');
const freshCell = (r) => (r ? cellOf(r.stats.ratio, r.stats.ci) : '—');
const pairedCell = (r) => (r ? cellOf(r.geoMean, r.ci) : '—');

// Repeated and distinct side by side: [{ figure, repeated, distinct, target, verdict }].
function sideBySide(result, targets = null) {
  const clock = result.settings.CLOCK;
  const rows = [];
  const wallRep = [4, 8, 16, 32].map((len) => freshRow(result.parser, { len, vary: 0, clock: 'wall' }));
  const minWall = Math.min(...wallRep.map((r) => (r ? r.stats.ratio : NaN)));
  rows.push(judged({ figure: 'fresh process, whole, wall clock (Node\'s harness)', repeated: freshCell(wallRep[1]),
    distinct: freshCell(freshRow(result.parser, { vary: 1, clock: 'wall' })) }, targets, targets && targets.freshParser, minWall));
  if (targets) {
    rows[0].target = `repeated len 4–32 ${rows[0].target}`;
    rows[0].verdict = `${rows[0].verdict} (min ${ratioText(minWall)})`;
  }
  rows.push({ figure: 'fresh process, whole, CPU clock', repeated: freshCell(freshRow(result.parser, { len: 8, vary: 0, clock: 'cpu' })),
    distinct: freshCell(freshRow(result.parser, { vary: 1, clock: 'cpu' })) });
  for (const frags of [2, 4, 8]) {
    rows.push({ figure: `fresh process, ${frags} pieces, ${clock} clock`,
      repeated: freshCell(freshRow(result.fragmented, { len: 8, frags, vary: 0, clock })),
      distinct: freshCell(freshRow(result.fragmented, { frags, vary: 1, clock })) });
  }
  for (const [kind, list] of [['request', [1, 2, 3, 4, 8]], ['response', [1, 4]]]) {
    for (const frags of list) {
      const rep = kind === 'request' && frags !== 3 ? pairedRow(result, { len: 8, frags }) : null;
      const dist = pairedRow(result, { frags, vary: 1, kind });
      const row = { figure: `steady state${kind === 'response' ? ', responses' : ''}, ${frags === 1 ? 'whole' : `${frags} pieces`}`,
        repeated: pairedCell(rep), distinct: pairedCell(dist) };
      if (targets) {
        const checks = [[`distinct ${targetText(targets.distinct(frags))}`, dist && `distinct ${verdict(targets.distinct(frags), dist.geoMean)}`]];
        if (frags > 1 && kind === 'request' && frags !== 3) {
          checks.push([`repeated ${targetText(targets.fragmentedSteady)}`, rep && `repeated ${verdict(targets.fragmentedSteady, rep.geoMean)}`]);
        }
        row.target = checks.map((c) => c[0]).join(', ');
        row.verdict = checks.map((c) => c[1]).filter(Boolean).join(', ');
      }
      rows.push(row);
    }
  }
  return rows;
}

// ------------------------------------------------------- every figure ----

function everyRows(result, targets = null) {
  const clock = result.settings.CLOCK;
  const rows = [];
  const label = (c) => (c.vary === 1 ? `${c.kind === 'response' ? 'distinct responses' : 'distinct'}` : `repeated len=${c.len}`) +
    (c.frags > 1 ? ` frags=${c.frags}` : '');
  // Fresh processes: bench-parser in both clocks, fragmented in the run's clock.
  for (const [group, list, clocks] of [['bench-parser', result.parser, ['wall', 'cpu']], ['fragmented', result.fragmented, [clock]]]) {
    // repeated first, then distinct, each in the benchmark's order
    const ordered = [...(list || [])].sort((x, y) => (parseConfig(x.config).vary || 0) - (parseConfig(y.config).vary || 0));
    for (const want of clocks) {
      for (const r of ordered) {
        const c = { kind: 'request', frags: 1, vary: 0, ...parseConfig(r.config) };
        if (c.clock !== undefined && c.clock !== want) continue;
        const target = targets && group === 'bench-parser' && want === 'wall' && c.vary === 0 ? targets.freshParser : null;
        rows.push(judged({ figure: `${group} ${label(c)}`, measure: `fresh, ${want}`, unit: 'ops/s',
          builtin: intText(r.stats.medianA), napi: intText(r.stats.medianB), ratio: ratioText(r.stats.ratio),
          ci: ciText(r.stats.ci), p: common.formatP(r.stats.p), stars: r.stats.stars }, targets, target, r.stats.ratio));
      }
    }
  }
  for (const r of result.paired || []) {
    const c = { kind: 'request', vary: 0, ...r };
    const target = !targets ? null : c.vary === 1 ? targets.distinct(c.frags) : c.frags > 1 ? targets.fragmentedSteady : null;
    rows.push(r.error ? { figure: `paired ${label(c)}`, measure: `steady, ${r.clock || clock}`, verdict: `error: ${r.error}` } :
      judged({ figure: `paired ${label(c)}`, measure: `steady, ${r.clock || clock}`, unit: 'ops/s', builtin: intText(r.builtin),
        napi: intText(r.napi), ratio: ratioText(r.geoMean), ci: ciText(r.ci) }, targets, target, r.geoMean));
  }
  const cold = result.cold;
  if (cold && !cold.error) {
    rows.push(judged({ figure: 'cold parse, distinct corpus (cold.js)', measure: 'steady, other work between', unit: 'µs/msg',
      builtin: fixed(cold.builtinUs, 2), napi: fixed(cold.napiUs, 2), ratio: ratioText(cold.geoMean), ci: ciText(cold.ci) },
    targets, targets && targets.cold, cold.geoMean));
  }
  const e2eRow = (figure, measure, unit, s, target) => (s ? judged({ figure, measure, unit, builtin: fixed(s.builtin),
    napi: fixed(s.napi), ratio: ratioText(s.median, 3), ci: ciText(s.ci, 3), p: common.formatP(s.p), stars: s.stars },
  targets, target, s.median) : { figure, measure, unit, ratio: '—' });
  for (const [set, names] of [[result.e2e, null], [result.netEcho, ['net-echo']]]) {
    for (const [name, w] of Object.entries((set && set.workloads) || {})) {
      if (names && !names.includes(name)) continue;
      const target = targets ? targets.e2e(name) : null;
      if (w.solo) rows.push(e2eRow(`e2e ${name} CPU`, 'solo rounds', 'µs/req', w.solo.stats, target));
      if (w.paired) rows.push(e2eRow(`e2e ${name} CPU`, 'paired rounds', 'µs/req', w.paired.stats, null));
      const c = w.counts && !w.counts.unavailable ? w.counts : null;
      for (const [what, key] of [['nextTicks', 'ticksPerRequest'], ['emits', 'emitsPerRequest']]) {
        if (!c) continue;
        rows.push({ figure: `e2e ${name} ${what} per request`, measure: 'counted', unit: 'count', builtin: fixed(c.builtin[key], 2),
          napi: fixed(c.napi[key], 2), ratio: ratioText(c.napi[key] / c.builtin[key]) });
      }
    }
  }
  for (const [kind, k] of Object.entries((result.client && result.client.kinds) || {})) {
    rows.push(e2eRow(`client ${kind} CPU`, 'solo rounds', 'µs/resp', k.stats, targets && targets.client));
  }
  for (const [what, mem, target] of [['idle keep-alive', result.memory, targets && targets.idleMemory],
    ['8 KiB unfinished head', result.partialMemory, targets && targets.partialMemory]]) {
    if (!mem || mem.error) continue;
    for (const key of ['rss', 'heapUsed', 'external', 'arrayBuffers']) {
      const { builtin: b, napi: n } = mem.median[key];
      rows.push(judged({ figure: `memory per ${what} connection, ${key}`, measure: `${mem.connections} connections`, unit: 'KB',
        builtin: fixed(b), napi: fixed(n), ratio: Math.abs(b) >= 0.1 ? ratioText(n / b) : '—' },
      targets, key === 'rss' ? target : null, n / b));
    }
  }
  const raw = result.raw;
  if (raw && !raw.error) {
    const len8 = freshRow(result.parser, { len: 8, vary: 0, clock: result.settings.CLOCK });
    const napi = len8 ? len8.stats.medianB : NaN;
    rows.push({ figure: 'raw llhttp C, len 8', unit: 'ops/s', napi: intText(raw.median) });
    rows.push(judged({ figure: 'JS-visible / raw C, len 8', unit: 'fraction', builtin: fixed((len8 ? len8.stats.medianA : NaN) / raw.median, 3),
      napi: fixed(napi / raw.median, 3) }, targets, targets && targets.rawFraction, napi / raw.median));
    const p8 = pairedRow(result, { len: 8, frags: 1 });
    if (p8) {
      rows.push({ figure: 'JS-visible / raw C, len 8, steady', unit: 'fraction', builtin: fixed(p8.builtin / raw.median, 3),
        napi: fixed(p8.napi / raw.median, 3) });
    }
  } else if (raw) {
    rows.push({ figure: 'raw llhttp C, len 8', unit: 'ops/s', napi: '—', verdict: `error: ${raw.error.slice(0, 60)}` });
  }
  return rows;
}

// ------------------------------------------------------------- the chart ----

// Higher is better everywhere: the e2e bar is requests per CPU-second, the
// inverse of the CPU ratio, with the paired figure as the diamond.
function chartBars(result, targets = null) {
  const bars = [];
  const t = (target) => (target ? target.atLeast : null);
  // Repeated messages: bench-parser by len (wall clock), fragmented by len and
  // pieces; distinct messages whole and in pieces (the run's clock).
  for (const [group, list] of [['bench-parser', result.parser], ['fragmented', result.fragmented]]) {
    for (const r of list || []) {
      const c = { kind: 'request', frags: 1, vary: 0, ...parseConfig(r.config) };
      const p = pairedRow(result, c);
      const bar = { value: r.stats.ratio, ci: r.stats.ci, paired: p ? p.geoMean : null };
      if (c.vary === 1 && c.clock === result.settings.CLOCK) {
        bars.push({ ...bar, group: 'distinct', label: c.frags > 1 ? `f${c.frags}` : 'whole', target: t(targets && targets.distinct(c.frags)) });
      } else if (c.vary === 0 && group === 'bench-parser' && c.clock === 'wall') {
        bars.push({ ...bar, group, label: `len ${c.len}`, target: t(targets && targets.freshParser) });
      } else if (c.vary === 0 && group === 'fragmented' && c.clock === result.settings.CLOCK) {
        bars.push({ ...bar, group, label: `${c.len}/f${c.frags}`, target: t(targets && targets.fragmentedSteady) });
      }
    }
  }
  const hello = result.e2e && result.e2e.workloads && result.e2e.workloads.hello;
  const s = hello && hello.solo && hello.solo.stats;
  if (s) {
    const paired = hello.paired && hello.paired.stats;
    const target = targets && targets.e2e('hello');
    // the inverse of an interval reaching 0 or below is unbounded above
    bars.push({ group: 'e2e', label: 'req per CPU-s', value: 1 / s.median,
      ci: s.ci ? [1 / s.ci[1], s.ci[0] > 0 ? 1 / s.ci[0] : Infinity] : null,
      target: target ? 1 / target.atMost : null, paired: paired ? 1 / paired.median : null });
  }
  return bars;
}

// -------------------------------------------------------------- tables ----

const HEADLINE_COLUMNS = [['figure', 'figure'], ['unit', 'unit'], ['builtin', 'builtin'], ['napi', 'napi'],
  ['ratio', 'ratio'], ['ci', '95% CI'], ['means', 'better'], ['beside', 'paired rounds (95% CI)'],
  ['target', 'target'], ['verdict', 'result']];
const SIDE_COLUMNS = [['figure', 'figure'], ['repeated', 'repeated: ratio (95% CI)'],
  ['distinct', 'distinct: ratio (95% CI)'], ['target', 'target'], ['verdict', 'result']];
const EVERY_COLUMNS = [['figure', 'figure'], ['measure', 'measure'], ['unit', 'unit'], ['builtin', 'builtin'], ['napi', 'napi'],
  ['ratio', 'napi/builtin'], ['ci', '95% CI'], ['p', 'p'], ['stars', 'sig.'], ['target', 'target'], ['verdict', 'result']];
const LEFT = new Set(['figure', 'measure', 'unit', 'means', 'verdict', 'beside', 'target']);
const cell = (r, key) => (r[key] === undefined || r[key] === null ? '' : String(r[key]));

// Columns no row fills are left out (the target columns without targets).
function usedColumns(columns, rows) {
  return columns.filter(([key], i) => i === 0 || rows.some((r) => cell(r, key) !== ''));
}

function plainTable(columns, rows) {
  const used = usedColumns(columns, rows);
  const widths = used.map(([key, head]) => Math.max(head.length, ...rows.map((r) => cell(r, key).length)));
  const line = (cells) => cells.map((c, i) => (LEFT.has(used[i][0]) ? String(c).padEnd(widths[i]) :
    String(c).padStart(widths[i]))).join('  ').trimEnd();
  return [line(used.map((c) => c[1])), line(widths.map((w) => '-'.repeat(w))),
    ...rows.map((r) => line(used.map(([key]) => cell(r, key))))].join('\n');
}

function markdownTable(columns, rows) {
  const used = usedColumns(columns, rows);
  const esc = (s) => String(s).replace(/\|/g, '\\|');
  const strong = (s) => s.replace(/^MISS\b.*$|\bMISS\b/g, '**$&**');
  return [`| ${used.map((c) => c[1]).join(' | ')} |`, `|${used.map(([key]) => (LEFT.has(key) ? '---' : '--:')).join('|')}|`,
    ...rows.map((r) => `| ${used.map(([key]) => esc(key === 'verdict' ? strong(cell(r, key)) : cell(r, key))).join(' | ')} |`)]
    .join('\n');
}

module.exports = {
  headlineRows, sideBySide, everyRows, chartBars, plainTable, markdownTable,
  HEADLINE_COLUMNS, SIDE_COLUMNS, EVERY_COLUMNS,
};
