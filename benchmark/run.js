'use strict';
// `npm run bench`: the quick default suite, against the built-in parser in
// the same run (interleaved, fresh processes), under 3 minutes on 2 cores:
//
//   1. compare.js on bench-parser.js (len 4, 8, 16, 32)
//   2. compare.js on bench-parser-fragmented.js (frags 2, 4, 8 × len 8, 16)
//   3. raw llhttp in C on the bytes of bench-parser len 8
//   4. server.js: e2e CPU µs/request and nextTicks/emits per request
//   4b. paired.js: in-process steady-state ratios (alternating batches)
//   5. with --headers: headers.js (9 headers, each variant), for information
//   6. with --instructions: instructions.js (callgrind; slow, ~1-3 minutes)
//
// Shows a progress line on stderr, a summary table on stdout, and writes
// benchmark/results/latest.md, ratios.svg and latest.json (not committed).
//
//   node benchmark/run.js [--runs=5] [--frag-runs=4] [--rounds=4] [--paired-rounds=3] [--duration=2]
//        [--clock=cpu|wall] [--no-paired] [--no-e2e] [--no-c] [--headers] [--instructions]
//        [--out=benchmark/results] [--from-json=benchmark/results/latest.json]

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const common = require('./common');
const stats = require('./stats');
const { compare } = require('./compare');
const { rawLlhttp } = require('./raw-llhttp');
const { e2e, describe: describeE2e } = require('./server');
const { renderSvg } = require('./svg');
const { instructions, describe: describeInstructions } = require('./instructions');
const { spawnSync } = require('node:child_process');

const TARGETS = {
  parser: 2.0,      // bench-parser ops/s ratio, each len
  fragmented: 2.5,  // bench-parser-fragmented ops/s ratio, each config
  e2eCpu: 0.85,     // e2e CPU µs/request ratio (at most)
  rawFraction: 0.25, // napi bench-parser len 8 ops/s / raw C llhttp ops/s (at least)
};

const { options } = common.parseArgs();
const RUNS = Number(options.runs || 5);
const FRAG_RUNS = Number(options['frag-runs'] || 4);
// CPU time by default: on a shared machine wall time mostly measures the
// other processes; --clock=wall measures as Node's benchmarks do.
const CLOCK = options.clock || 'cpu';
const ROUNDS = Number(options.rounds || 4);
const PAIRED_ROUNDS = Number(options['paired-rounds'] || 3);
const DURATION = Number(options.duration || 2);
const OUT = path.resolve(options.out || path.join(__dirname, 'results'));

// ------------------------------------------------------------ progress ----

const started = Date.now();
const tty = process.stderr.isTTY;
let phase = '';
function progress(text) {
  const s = Math.round((Date.now() - started) / 1000);
  const line = `[${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}] ${phase}${text ? ': ' + text : ''}`;
  process.stderr.write(tty ? `\r\x1b[K${line}` : line + '\n');
}
function clearProgress() {
  if (tty) process.stderr.write('\r\x1b[K');
}

// ------------------------------------------------------------- machine ----

// What is being measured: the addon binary's digest and the checkout's
// revision (others may rebuild the addon in a shared checkout mid-run).
function buildIdentity() {
  const crypto = require('node:crypto');
  const { execFileSync } = require('node:child_process');
  const out = { addon: null, revision: null, dirty: null };
  try {
    const file = path.join(common.ROOT, 'build', 'Release', 'llhttp_napi.node');
    out.addon = crypto.createHash('sha1').update(fs.readFileSync(file)).digest('hex').slice(0, 12);
  } catch {
    out.addon = 'missing';
  }
  try {
    const git = (args) => execFileSync('git', args, { cwd: common.ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    out.revision = git(['rev-parse', '--short', 'HEAD']);
    out.dirty = git(['status', '--porcelain', '--', 'lib', 'src', 'binding.gyp']).split('\n').filter(Boolean).length;
  } catch {}
  return out;
}

function machine() {
  const cpus = os.cpus();
  let addon = {};
  try {
    addon = require(common.ROOT).versions;
  } catch (err) {
    addon = { error: err.message };
  }
  return {
    cpu: cpus.length ? cpus[0].model.trim() : 'unknown',
    cores: cpus.length,
    os: `${os.type()} ${os.release()} ${os.arch()}`,
    node: process.version,
    builtinLlhttp: process.versions.llhttp,
    addon,
    date: new Date().toISOString(),
    loadavgStart: os.loadavg(),
    build: buildIdentity(),
  };
}

// headers.js `runs` times (fresh processes); medians per variant.
function headersRuns(runs) {
  const samples = new Map();
  const notes = new Set();
  for (let i = 0; i < runs; i++) {
    progress(`run ${i + 1}/${runs}`);
    const child = spawnSync(process.execPath, [path.join(__dirname, 'headers.js')], { encoding: 'utf8' });
    if (child.status !== 0) return { error: (child.stderr || '').split('\n')[0] || `exit ${child.status}` };
    for (const text of child.stdout.split('\n')) {
      const line = common.parseLine(text);
      if (line) {
        const v = `${line.conf.variant}${line.conf.vary === '1' ? ' (vary=1)' : ''}`;
        if (!samples.has(v)) samples.set(v, []);
        samples.get(v).push(line.rate);
      } else if (text.startsWith('#')) {
        notes.add(text.replace(/^#\s*/, ''));
      }
    }
  }
  const variants = [...samples].map(([variant, rates]) => ({ variant, rates, median: stats.median(rates) }));
  for (const v of variants) {
    const base = variants.find((b) => b.variant === (v.variant.endsWith('(vary=1)') ? 'builtin (vary=1)' : 'builtin'));
    v.ratio = base ? v.median / base.median : NaN;
  }
  return { runs, variants, notes: [...notes] };
}

// --------------------------------------------------------------- runs ----

async function main() {
  const info = machine();
  if (info.addon.error || info.build.addon === 'missing') {
    throw new Error(`the addon does not load (${info.addon.error || 'no build/Release/llhttp_napi.node'}): run npm run build first`);
  }
  const result = { machine: info, targets: TARGETS, settings: { RUNS, FRAG_RUNS, ROUNDS, DURATION, CLOCK } };

  // Raw llhttp runs between the JavaScript phases, so that it sees the
  // machine in the same states they do.
  const rawRates = [];
  let rawError = null;
  const rawRun = (when) => {
    if (options['no-c'] || rawError) return;
    phase = 'raw llhttp (C)';
    progress(when);
    try {
      rawRates.push(...rawLlhttp({ len: 8, n: 1e6, repeats: 3, clock: CLOCK }).rates);
    } catch (err) {
      rawError = String(err.message).split('\n')[0];
    }
  };

  rawRun('before bench-parser');
  phase = `bench-parser.js ×${RUNS} runs per parser`;
  result.parser = await compare({
    file: path.join(__dirname, 'bench-parser.js'),
    runs: RUNS,
    clock: CLOCK,
    onProgress: ({ run, parser }) => progress(`run ${run + 1}/${RUNS} ${parser}`),
  });

  rawRun('between the suites');
  phase = `bench-parser-fragmented.js ×${FRAG_RUNS} runs per parser`;
  result.fragmented = await compare({
    file: path.join(__dirname, 'bench-parser-fragmented.js'),
    runs: FRAG_RUNS,
    clock: CLOCK,
    onProgress: ({ run, parser }) => progress(`run ${run + 1}/${FRAG_RUNS} ${parser}`),
  });
  rawRun('after the suites');

  // Paired in-process ratios (steady state, alternating batches), one fresh
  // process per configuration.
  if (!options['no-paired']) {
    phase = 'paired.js (in-process, alternating batches)';
    result.paired = [];
    const configs = [...[4, 8, 16, 32].map((len) => ({ len, frags: 1 })),
      ...[8, 16].flatMap((len) => [2, 4, 8].map((frags) => ({ len, frags })))];
    for (const [i, conf] of configs.entries()) {
      progress(`len=${conf.len} frags=${conf.frags} (${i + 1}/${configs.length})`);
      const child = spawnSync(process.execPath, [path.join(__dirname, 'paired.js'), `len=${conf.len}`,
        `frags=${conf.frags}`, '--json', '--batches=30', `--clock=${CLOCK}`], { encoding: 'utf8' });
      if (child.status === 0) {
        const r = JSON.parse(child.stdout.trim().split('\n').pop());
        delete r.ratios;
        result.paired.push(r);
      } else {
        result.paired.push({ ...conf, error: (child.stderr || '').split('\n')[0] });
      }
    }
  }
  if (!options['no-c']) {
    result.raw = rawError ? { error: rawError } :
      { len: 8, n: 1e6, rates: rawRates, median: stats.median(rawRates) };
  }

  if (!options['no-e2e']) {
    // server.js: hello world and the browser-like corpus requests, paired rounds (both servers at once).
    const e2eRounds = Number(options['e2e-rounds'] || 6);
    phase = `server.js e2e hello + browser, ${e2eRounds} paired rounds × ${DURATION}s`;
    try {
      result.e2e = await e2e({
        workloads: ['hello', 'browser'], rounds: e2eRounds, duration: DURATION, warmup: 1, connections: 50, countDuration: 1,
        onProgress: ({ what }) => progress(what),
      });
    } catch (err) {
      result.e2e = { error: String(err.message).split('\n')[0] };
    }
  }
  if (options.headers) {
    phase = 'headers.js ×2 runs';
    result.headers = headersRuns(2);
  }

  if (options.instructions) {
    phase = 'instructions.js (callgrind)';
    result.instructions = await instructions({ len: 8, onProgress: (t) => progress(t) });
  }
  clearProgress();
  result.machine.loadavgEnd = os.loadavg();
  result.machine.buildEnd = buildIdentity();
  if (result.machine.buildEnd.addon !== info.build.addon) {
    result.warning = `the addon changed during the run (${info.build.addon} → ${result.machine.buildEnd.addon}): ` +
      'someone rebuilt it; the figures mix builds (and may include failures): run again';
  }
  result.elapsedSeconds = (Date.now() - started) / 1000;
  return result;
}

// ------------------------------------------------------------- summary ----

const fmtInt = (x) => (Number.isFinite(x) ? common.formatRate(Math.round(x)) : '—');
const fmtRatio = (x, d = 2) => (Number.isFinite(x) ? x.toFixed(d) + '×' : '—');
const fmtCi = (ci, d = 2) => (ci ? `${ci[0].toFixed(d)}–${ci[1].toFixed(d)}` : '—');
const fmtP = (p) => (p === null || p === undefined ? '—' : p < 1e-4 ? p.toExponential(1) : p.toFixed(4));

// Rows of the summary: figure, builtin, napi, ratio, CI, p, stars, target, verdict.
function summaryRows(result) {
  const rows = [];
  const verdict = (ok) => (ok === null ? 'n/a' : ok ? 'pass' : 'MISS');
  for (const [group, list, target] of [['bench-parser', result.parser, TARGETS.parser],
    ['fragmented', result.fragmented, TARGETS.fragmented]]) {
    for (const r of list) {
      const label = `${group} ${r.config.replace(/n=\d+ ?/, '')}`;
      const lenM = /len=(\d+)/.exec(r.config), fragM = /frags=(\d+)/.exec(r.config);
      const pr = (result.paired || []).find((x) => !x.error && lenM && x.len === Number(lenM[1]) &&
        x.frags === (fragM ? Number(fragM[1]) : 1));
      rows.push({
        paired: pr ? `${fmtRatio(pr.geoMean)} (${fmtCi(pr.ci)})` : '—',
        figure: label, unit: 'ops/s', builtin: fmtInt(r.stats.medianA), napi: fmtInt(r.stats.medianB),
        ratio: fmtRatio(r.stats.ratio), ci: fmtCi(r.stats.ci), p: fmtP(r.stats.p), stars: r.stats.stars,
        target: `≥ ${target.toFixed(1)}×`, verdict: verdict(r.stats.ratio >= target),
        chart: { group, label: r.config.replace(/n=\d+ ?/, '').replace('len=', 'len ').replace(' frags=', '/f'),
          value: r.stats.ratio, ci: r.stats.ci, target, paired: pr ? pr.geoMean : null },
      });
    }
  }
  const e = result.e2e;
  if (e && !e.error) {
    const med = (xs) => (xs.length ? stats.median(xs) : NaN);
    const s = e.stats;
    rows.push({
      figure: 'e2e hello-world CPU', unit: 'µs/req', builtin: med(e.builtin).toFixed(1),
      napi: e.unavailable ? 'unavailable' : med(e.napi).toFixed(1),
      ratio: s ? fmtRatio(s.ratio, 3) : '—', ci: s ? fmtCi(s.ci, 3) : '—', p: s ? fmtP(s.p) : '—',
      stars: s ? s.stars : '', target: `≤ ${TARGETS.e2eCpu}×`, verdict: verdict(s ? s.ratio <= TARGETS.e2eCpu : null),
      paired: e.pairedStats ? `${fmtRatio(e.pairedStats.geoMean, 3)}` +
        (e.pairedStats.ci ? ` (${fmtCi(e.pairedStats.ci, 3)})` : '') : '—',
      chart: s ? { group: 'e2e', label: 'req per CPU-s', value: 1 / s.ratio,
        // the inverse of an interval reaching 0 or below is unbounded above
        ci: s.ci ? [1 / s.ci[1], s.ci[0] > 0 ? 1 / s.ci[0] : Infinity] : null, target: 1 / TARGETS.e2eCpu,
        paired: e.pairedStats ? 1 / e.pairedStats.geoMean : null } : null,
    });
    for (const [what, key] of [['nextTicks', 'ticksPerRequest'], ['emits', 'emitsPerRequest']]) {
      const b = e.counts.builtin, n = e.counts.napi;
      rows.push({
        figure: `e2e ${what} per request`, unit: 'count', builtin: b ? b[key].toFixed(2) : '—',
        napi: n ? n[key].toFixed(2) : e.unavailable ? 'unavailable' : '—',
        ratio: b && n ? fmtRatio(n[key] / b[key]) : '—', ci: '', p: '', stars: '', target: '', verdict: '',
      });
    }
  } else if (e) {
    rows.push({ figure: 'e2e hello-world CPU', unit: 'µs/req', builtin: '—', napi: '—', ratio: '—', ci: '',
      p: '', stars: '', target: `≤ ${TARGETS.e2eCpu}×`, verdict: `error: ${e.error}` });
  }
  const raw = result.raw;
  if (raw && !raw.error) {
    const len8 = result.parser.find((r) => /\blen=8\b/.test(r.config));
    const napi = len8 ? len8.stats.medianB : NaN;
    const builtin = len8 ? len8.stats.medianA : NaN;
    rows.push({
      figure: 'raw llhttp C, len 8', unit: 'ops/s', builtin: '', napi: fmtInt(raw.median), ratio: '', ci: '',
      p: '', stars: '', target: '', verdict: '',
    });
    rows.push({
      figure: 'JS-visible / raw C, len 8', unit: 'fraction', builtin: (builtin / raw.median).toFixed(3),
      napi: (napi / raw.median).toFixed(3), ratio: '', ci: '', p: '', stars: '',
      target: `≥ ${TARGETS.rawFraction}`, verdict: verdict(napi / raw.median >= TARGETS.rawFraction),
    });
    const p8 = (result.paired || []).find((x) => !x.error && x.len === 8 && x.frags === 1);
    if (p8) {
      rows.push({
        figure: 'JS-visible / raw C, len 8, steady (info)', unit: 'fraction', builtin: (p8.builtin / raw.median).toFixed(3),
        napi: (p8.napi / raw.median).toFixed(3), ratio: '', ci: '', p: '', stars: '', target: '', verdict: '',
      });
    }
  } else if (raw) {
    rows.push({ figure: 'raw llhttp C, len 8', unit: 'ops/s', builtin: '', napi: '—', ratio: '', ci: '', p: '',
      stars: '', target: `≥ ${TARGETS.rawFraction}`, verdict: `error: ${raw.error}` });
  }
  return rows;
}

const COLUMNS = [['figure', 'figure'], ['unit', 'unit'], ['builtin', 'builtin'], ['napi', 'napi'],
  ['ratio', 'napi/builtin'], ['ci', '95% CI'], ['p', 'p'], ['stars', ''], ['target', 'target'], ['verdict', 'result'],
  ['paired', 'paired steady-state ratio (95% CI)']];
const cell = (r, key) => (r[key] === undefined || r[key] === null ? '' : String(r[key]));

function textTable(rows) {
  const widths = COLUMNS.map(([key, head]) => Math.max(head.length, ...rows.map((r) => cell(r, key).length)));
  const line = (cells) => cells.map((c, i) => (i < 2 || i >= 9 ? String(c).padEnd(widths[i]) : String(c).padStart(widths[i])))
    .join('  ').trimEnd();
  return [line(COLUMNS.map((c) => c[1])), line(widths.map((w) => '-'.repeat(w))),
    ...rows.map((r) => line(COLUMNS.map(([key]) => cell(r, key))))].join('\n');
}

function markdownTable(rows) {
  const esc = (s) => String(s).replace(/\|/g, '\\|');
  const head = COLUMNS.map((c) => c[1] || 'sig.');
  const out = [`| ${head.join(' | ')} |`, `|${COLUMNS.map((c, i) => (i < 2 ? '---' : '--:')).join('|')}|`];
  for (const r of rows) {
    out.push(`| ${COLUMNS.map(([key]) => esc(key === 'verdict' && r[key] === 'MISS' ? '**miss**' : cell(r, key))).join(' | ')} |`);
  }
  return out.join('\n');
}

function markdown(result, rows) {
  const m = result.machine;
  const e = result.e2e;
  const lines = [];
  lines.push('# llhttp-napi benchmark results (`npm run bench`)');
  lines.push('');
  lines.push(`- date: ${m.date}`);
  lines.push(`- machine: ${m.cpu}, ${m.cores} cores, ${m.os}`);
  lines.push(`- Node ${m.node} (built-in parser: llhttp ${m.builtinLlhttp})`);
  lines.push(`- llhttp-napi ${m.addon.addon || '?'}, linked llhttp ${m.addon.llhttp || '?'}, N-API ${m.addon.napi || '?'}` +
             (m.build ? `; revision ${m.build.revision}${m.build.dirty ? ` with ${m.build.dirty} uncommitted change(s) in lib/src` : ''}, ` +
               `addon binary sha1 ${m.build.addon}` : ''));
  if (result.warning) lines.push(`- **warning: ${result.warning}**`);
  lines.push(`- suite time: ${Math.round(result.elapsedSeconds)} s; load average (1 min) ` +
             `${m.loadavgStart[0].toFixed(2)} at the start, ${m.loadavgEnd[0].toFixed(2)} at the end ` +
             '(other work on the machine adds noise; the interleaving spreads it over both parsers)');
  lines.push('');
  lines.push('Ratios are napi / built-in measured in the same run: medians of interleaved runs, each in a fresh');
  lines.push('process (builtin, napi, then napi, builtin, ...). The 95% CI is that of mean(napi)/mean(builtin) from');
  lines.push("Welch's t-test, as Node's `benchmark/compare.R` computes it; * p<0.05, ** p<0.01, *** p<0.001.");
  lines.push(`Parser figures are ops per ${result.settings.CLOCK === 'cpu' ? 'CPU second of the benchmark process (user + system, all ' +
    'threads, JIT and GC threads included; `--clock=wall` for wall time as Node\'s benchmarks)' : 'wall-clock second, as Node\'s benchmarks'};`);
  lines.push(`${result.settings.RUNS} runs per parser for bench-parser, ${result.settings.FRAG_RUNS} for`);
  lines.push('fragmented, n=100000 messages per run as in Node\'s benchmarks (so the JIT warm-up of lib/parser.js is');
  lines.push('inside the figure). A result passes when the median ratio meets the target. The last column is');
  lines.push('`benchmark/paired.js`: both parsers in one process after a warm-up, alternating batches of 4,000');
  lines.push('messages (30 pairs), geometric mean of the pair ratios with its 95% interval: the steady state, much');
  lines.push('less exposed to the machine\'s noise (both parsers see the same moments). e2e: the CPU ratio is');
  lines.push('napi/builtin (lower is better; the chart shows its inverse); its paired figure comes from rounds');
  lines.push('running both servers at once, each with its own load generator, over the same window.');
  lines.push('');
  lines.push(markdownTable(rows));
  lines.push('');
  lines.push('![ratios napi/builtin](ratios.svg)');
  lines.push('');
  if (e && !e.error) {
    lines.push('## End to end');
    lines.push('');
    lines.push('```');
    lines.push(describeE2e(e));
    lines.push('```');
    lines.push('');
  }
  if (result.raw && !result.raw.error) {
    lines.push('## Raw llhttp');
    lines.push('');
    lines.push(`\`benchmark/c/raw-llhttp.c\`: \`llhttp_init\` + \`llhttp_execute\` on the bench-parser len 8 bytes, ` +
               `same callbacks set as no-ops, ${result.raw.n} iterations × ${result.raw.rates.length} ` +
               '(3 before bench-parser, 3 between the suites, 3 after them): ' +
               result.raw.rates.map(fmtInt).join(', ') + ' ops/s (median ' + fmtInt(result.raw.median) + ').');
    lines.push('');
  }
  if (result.headers && !result.headers.error) {
    lines.push('## Headers (`benchmark/headers.js`, 9 headers, every name and value read)');
    lines.push('');
    lines.push('vary=1: the messages cycle through 16 requests whose URL, cookie and user agent differ (same lengths);');
    lines.push('otherwise every message is the same bytes, as in Node\'s benchmarks. Ratios are to the built-in with the');
    lines.push('same messages. One process per variant, not interleaved: noisier than the tables above.');
    lines.push('');
    lines.push('| variant | ops/s (median of ' + result.headers.runs + ') | / builtin |');
    lines.push('|---|--:|--:|');
    for (const v of result.headers.variants) lines.push(`| ${v.variant} | ${fmtInt(v.median)} | ${fmtRatio(v.ratio)} |`);
    for (const note of result.headers.notes) lines.push(`\n- ${note}`);
    lines.push('');
  }
  if (result.instructions) {
    lines.push('## Instructions per message (callgrind, deterministic)');
    lines.push('');
    lines.push('```');
    lines.push(describeInstructions(result.instructions));
    lines.push('```');
    lines.push('');
  }
  lines.push('## Reproduce');
  lines.push('');
  lines.push('```');
  lines.push('npm run bench                                   # this file');
  lines.push('node benchmark/compare.js --runs=10 --clock=cpu benchmark/bench-parser.js len=8');
  lines.push('node benchmark/bench-parser.js --parser=builtin  # Node\'s format, one process per config');
  lines.push('node benchmark/server.js --rounds=8 --duration=5');
  lines.push('node benchmark/raw-llhttp.js len=8');
  lines.push('node benchmark/headers.js');
  lines.push('node benchmark/instructions.js len=8               # callgrind, needs valgrind');
  lines.push('```');
  lines.push('');
  return lines.join('\n');
}

// --from-json=FILE: rewrite the table, latest.md and ratios.svg from a saved run.
const runOrLoad = options['from-json'] ?
  () => Promise.resolve(JSON.parse(fs.readFileSync(options['from-json'], 'utf8'))) : main;

runOrLoad().then((result) => {
  const rows = summaryRows(result);
  console.log(textTable(rows));
  console.log(`\n(${Math.round(result.elapsedSeconds)} s; ${CLOCK} clock; medians of interleaved fresh-process runs; ` +
              "CI: Welch, of mean ratio; * p<0.05 ** p<0.01 *** p<0.001)");
  if (result.headers && !result.headers.error) {
    console.log('\nheaders.js (9 headers): ' + result.headers.variants
      .map((v) => `${v.variant} ${fmtInt(v.median)} ops/s (${fmtRatio(v.ratio)})`).join(', '));
    for (const note of result.headers.notes) console.log(`  ${note}`);
  }
  if (result.instructions) console.log('\n' + describeInstructions(result.instructions));
  fs.mkdirSync(OUT, { recursive: true });
  fs.writeFileSync(path.join(OUT, 'latest.md'), markdown(result, rows));
  fs.writeFileSync(path.join(OUT, 'ratios.svg'), renderSvg(rows.map((r) => r.chart).filter(Boolean), result.machine));
  if (!options['from-json']) fs.writeFileSync(path.join(OUT, 'latest.json'), JSON.stringify(result, null, 2));
  console.log(`written: ${path.relative(process.cwd(), path.join(OUT, 'latest.md'))}, ratios.svg, latest.json`);
  if (result.warning) console.log(`WARNING: ${result.warning}`);
}).catch((err) => {
  clearProgress();
  console.error(err.stack || err.message);
  process.exit(1);
});
