'use strict';
// `npm run bench`: the quick default suite, against the built-in parser in
// the same run, 3-5 minutes on 2 cores. Every parser figure is given for
// the repeated message of Node's benchmarks (vary=0) and for a corpus of
// 1000 distinct realistic requests (vary=1, benchmark/corpus.js) side by side:
//
//   1. compare.js on bench-parser.js (len 4, 8, 16, 32 repeated; the corpus),
//      fresh processes, n=1e5, CPU and wall clock from the same runs
//   2. compare.js on bench-parser-fragmented.js (frags 2, 4, 8 × len 8, 16
//      repeated; frags 2, 4, 8 of the corpus)
//   3. raw llhttp in C on the bytes of bench-parser len 8 (between the phases)
//   4. paired.js: in-process steady-state ratios (alternating batches): the
//      repeated configurations, the distinct requests whole and in 2, 3, 4, 8
//      pieces, the distinct responses whole and in 4 pieces
//   5. cold.js: the distinct corpus with node:http's work and memory traffic
//      between two messages, only the parse timed (the parser as a server
//      runs it, cold)
//   6. server.js: e2e CPU µs/request and nextTicks/emits per request, every
//      workload (hello, browser, post-json, upload, express, fastify)
//   7. idle-memory.js: memory per idle keep-alive connection
//   8. with --headers: headers.js (9 headers, each variant), for information
//   9. with --instructions: instructions.js, repeated and distinct (callgrind;
//      slow, several minutes)
//
// Targets are issue 19's for the running Node line (see TARGETS).
//
// Shows a progress line on stderr, a summary on stdout, and writes
// benchmark/results/latest.md, ratios.svg and latest.json, plus copies named
// after the line (latest-node24.md, latest-node24.json).
//
//   node benchmark/run.js [--runs=8] [--frag-runs=4] [--rounds=4] [--paired-rounds=3] [--duration=2]
//        [--clock=cpu|wall] [--batches=40] [--e2e-rounds=6] [--no-paired] [--no-cold] [--no-e2e] [--no-memory]
//        [--no-c] [--no-distinct] [--headers]
//        [--instructions] [--out=benchmark/results] [--from-json=benchmark/results/latest.json]
//
// Another line: $(node scripts/dev/test-lines.js --print 24) benchmark/run.js

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

// Issue 19's targets by the running line's major (26 and later take 24's
// parser targets); the e2e ones are "never dearer" except on 24, which has
// its own per workload. fragmentedSteady is issue 12's, still tracked.
const MAJOR = Number(process.versions.node.split('.')[0]);
const LINE_TARGETS = MAJOR >= 24 ?
  { distinct: 2.0, parser: 1.8, fragmentedSteady: 2.5 } :
  { distinct: 1.8, parser: 1.8, fragmentedSteady: 2.2 };
const E2E_TARGETS = MAJOR === 24 ?
  { hello: 0.97, browser: 0.97, 'post-json': 0.98, upload: 1.00, express: 1.00, fastify: 0.97 } :
  { hello: 1.00, browser: 1.00, 'post-json': 1.00, upload: 1.00, express: 1.00, fastify: 1.00 };
const TARGETS = {
  ...LINE_TARGETS,  // distinct: paired ratio of the corpus, whole and 2-8 pieces (requests and responses)
                    // parser: bench-parser fresh process, wall clock, each len
                    // fragmentedSteady: paired ratio of the repeated request in pieces
  cold: 1.8,        // cold.js: built-in / ours (at least)
  e2e: E2E_TARGETS, // server CPU per request with install(), ours / built-in (at most), by workload
  e2eUpper: 1.03,   // ... and the upper end of its 95% interval, on every line
  memory: 1.00,     // idle-memory.js: RSS per idle connection, ours / built-in (at most)
  rawFraction: 0.25, // napi bench-parser len 8 ops/s / raw C llhttp ops/s (at least)
};

const { options } = common.parseArgs();
const RUNS = Number(options.runs || 8);
const FRAG_RUNS = Number(options['frag-runs'] || 4);
// CPU time by default: on a shared machine wall time mostly measures the
// other processes; --clock=wall measures as Node's benchmarks do.
const CLOCK = options.clock || 'cpu';
const ROUNDS = Number(options.rounds || 4);
const PAIRED_ROUNDS = Number(options['paired-rounds'] || 3);
const DURATION = Number(options.duration || 2);
const BATCHES = Number(options.batches || 40);
const DISTINCT = !options['no-distinct'];
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
  const result = { machine: info, targets: TARGETS, settings: { RUNS, FRAG_RUNS, ROUNDS, DURATION, CLOCK, BATCHES } };

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
  const vary = DISTINCT ? [0, 1] : [0];
  phase = `bench-parser.js ×${RUNS} runs per parser`;
  result.parser = await compare({
    file: path.join(__dirname, 'bench-parser.js'),
    runs: RUNS,
    overrides: { len: [4, 8, 16, 32], vary },
    clock: 'both',  // CPU and wall clock of the same runs
    onProgress: ({ run, parser }) => progress(`run ${run + 1}/${RUNS} ${parser}`),
  });

  rawRun('between the suites');
  phase = `bench-parser-fragmented.js ×${FRAG_RUNS} runs per parser`;
  result.fragmented = await compare({
    file: path.join(__dirname, 'bench-parser-fragmented.js'),
    runs: FRAG_RUNS,
    overrides: { len: [8, 16], frags: [2, 4, 8], vary },
    clock: 'both',
    onProgress: ({ run, parser }) => progress(`run ${run + 1}/${FRAG_RUNS} ${parser}`),
  });
  rawRun('after the suites');

  // Paired in-process ratios (steady state, alternating batches), one fresh
  // process per configuration.
  if (!options['no-paired']) {
    phase = 'paired.js (in-process, alternating batches)';
    result.paired = [];
    const configs = [...[4, 8, 16, 32].map((len) => ({ len, frags: 1, vary: 0 })),
      ...[8, 16].flatMap((len) => [2, 4, 8].map((frags) => ({ len, frags, vary: 0 })))];
    if (DISTINCT) {
      configs.push(...[1, 2, 3, 4, 8].map((frags) => ({ frags, vary: 1, kind: 'request' })),
                   ...[1, 4].map((frags) => ({ frags, vary: 1, kind: 'response' })));
    }
    for (const [i, conf] of configs.entries()) {
      const args = Object.entries(conf).map(([k, v]) => `${k}=${v}`);
      progress(`${args.join(' ')} (${i + 1}/${configs.length})`);
      const child = spawnSync(process.execPath, [path.join(__dirname, 'paired.js'), ...args,
        '--json', `--batches=${BATCHES}`, `--clock=${CLOCK}`], { encoding: 'utf8' });
      if (child.status === 0) {
        const r = JSON.parse(child.stdout.trim().split('\n').pop());
        delete r.ratios;
        result.paired.push(r);
      } else {
        result.paired.push({ len: null, kind: 'request', vary: 0, ...conf, error: (child.stderr || '').split('\n')[0] });
      }
    }
  }
  if (!options['no-c']) {
    result.raw = rawError ? { error: rawError } :
      { len: 8, n: 1e6, rates: rawRates, median: stats.median(rawRates) };
  }

  if (!options['no-cold']) {
    phase = 'cold.js (the parse alone, cold)';
    progress('alternating batches');
    const child = spawnSync(process.execPath, [path.join(__dirname, 'cold.js'), '--json'], { encoding: 'utf8' });
    result.cold = child.status === 0 ? JSON.parse(child.stdout.trim().split('\n').pop()) :
      { error: (child.stderr || '').split('\n')[0] };
  }

  if (!options['no-e2e']) {
    // server.js: every workload, paired rounds (both servers at once).
    const e2eRounds = Number(options['e2e-rounds'] || 6);
    phase = `server.js e2e, ${e2eRounds} paired rounds × ${DURATION}s per workload`;
    try {
      result.e2e = await e2e({
        workloads: Object.keys(E2E_TARGETS), rounds: e2eRounds, duration: DURATION, warmup: 1, connections: 50,
        countDuration: 1, onProgress: ({ what }) => progress(what),
      });
    } catch (err) {
      result.e2e = { error: String(err.message).split('\n')[0] };
    }
  }

  if (!options['no-memory']) {
    phase = 'idle-memory.js (2000 idle connections, 2 rounds)';
    progress('servers in turn');
    const child = spawnSync(process.execPath, [path.join(__dirname, 'idle-memory.js'), '--connections=2000', '--rounds=2',
      `--json=${path.join(os.tmpdir(), `llhttp-napi-idle-memory-${process.pid}.json`)}`], { encoding: 'utf8' });
    const file = path.join(os.tmpdir(), `llhttp-napi-idle-memory-${process.pid}.json`);
    result.memory = child.status === 0 ? JSON.parse(fs.readFileSync(file, 'utf8')).median :
      { error: (child.stderr || '').split('\n').filter(Boolean).pop() || `exit ${child.status}` };
    fs.rmSync(file, { force: true });
  }
  if (options.headers) {
    phase = 'headers.js ×2 runs';
    result.headers = headersRuns(2);
  }

  if (options.instructions) {
    phase = 'instructions.js (callgrind)';
    result.instructions = await instructions({ len: 8, vary: DISTINCT ? [0, 1] : [0], onProgress: (t) => progress(t) });
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

const verdict = (ok) => (ok === null ? 'n/a' : ok ? 'pass' : 'MISS');

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
    const c = parseConfig(r.config);
    const conf = { kind: 'request', frags: 1, vary: 0, ...c };
    if (Object.keys(want).every((k) => want[k] === undefined || conf[k] === want[k])) return r;
  }
  return null;
}

function pairedRow(result, { len, frags = 1, vary = 0, kind = 'request' }) {
  return (result.paired || []).find((x) => !x.error && x.frags === frags && (x.vary || 0) === vary &&
    (x.kind || 'request') === kind && (vary === 1 || kind === 'response' || x.len === len)) || null;
}

const cellOf = (ratio, ci) => (Number.isFinite(ratio) ? `${fmtRatio(ratio)} (${fmtCi(ci)})` : '—');
const freshCell = (r) => (r ? cellOf(r.stats.ratio, r.stats.ci) : '—');
const pairedCell = (r) => (r ? cellOf(r.geoMean, r.ci) : '—');

// Repeated and distinct side by side: [{ figure, repeated, distinct, target, verdict }].
function sideBySide(result) {
  const T = result.targets || TARGETS;
  const clock = result.settings.CLOCK;
  const rows = [];
  const fresh = (list, want) => freshRow(list, want);
  const wallRep = [4, 8, 16, 32].map((len) => fresh(result.parser, { len, vary: 0, clock: 'wall' }));
  const wallOk = wallRep.every((r) => r && r.stats.ratio >= T.parser);
  rows.push({ figure: 'fresh process, whole, wall clock (Node\'s harness)', repeated: freshCell(wallRep[1]),
    distinct: freshCell(fresh(result.parser, { vary: 1, clock: 'wall' })),
    target: `repeated len 4–32 ≥ ${T.parser.toFixed(1)}×`,
    verdict: `${verdict(wallRep.every(Boolean) ? wallOk : null)} (min ${fmtRatio(Math.min(...wallRep.map((r) => (r ? r.stats.ratio : NaN))))})` });
  rows.push({ figure: 'fresh process, whole, CPU clock', repeated: freshCell(fresh(result.parser, { len: 8, vary: 0, clock: 'cpu' })),
    distinct: freshCell(fresh(result.parser, { vary: 1, clock: 'cpu' })), target: '', verdict: '' });
  for (const frags of [2, 4, 8]) {
    rows.push({ figure: `fresh process, ${frags} pieces, ${clock} clock`,
      repeated: freshCell(fresh(result.fragmented, { len: 8, frags, vary: 0, clock })),
      distinct: freshCell(fresh(result.fragmented, { frags, vary: 1, clock })), target: '', verdict: '' });
  }
  for (const frags of [1, 2, 3, 4, 8]) {
    const rep = frags === 3 ? null : pairedRow(result, { len: 8, frags });
    const dist = pairedRow(result, { frags, vary: 1 });
    const checks = [];
    if (dist) checks.push(`distinct ${verdict(dist.geoMean >= T.distinct)}`);
    if (frags > 1 && rep) checks.push(`repeated ${verdict(rep.geoMean >= T.fragmentedSteady)}`);
    rows.push({ figure: `steady state, ${frags === 1 ? 'whole' : `${frags} pieces`}`, repeated: pairedCell(rep),
      distinct: pairedCell(dist),
      target: `distinct ≥ ${T.distinct.toFixed(1)}×` + (frags > 1 && frags !== 3 ? `, repeated ≥ ${T.fragmentedSteady.toFixed(1)}×` : ''),
      verdict: checks.join(', ') });
  }
  for (const frags of [1, 4]) {
    const dist = pairedRow(result, { frags, vary: 1, kind: 'response' });
    rows.push({ figure: `steady state, responses, ${frags === 1 ? 'whole' : `${frags} pieces`}`, repeated: '—',
      distinct: pairedCell(dist), target: `distinct ≥ ${T.distinct.toFixed(1)}×`,
      verdict: dist ? verdict(dist.geoMean >= T.distinct) : '' });
  }
  return rows;
}

// Every figure: figure, measure, builtin, napi, ratio, CI, p, stars, target, verdict (+ chart bar).
function summaryRows(result) {
  const T = result.targets || TARGETS;
  const clock = result.settings.CLOCK;
  const rows = [];
  const label = (c) => (c.vary === 1 ? `${c.kind === 'response' ? 'distinct responses' : 'distinct'}` : `repeated len=${c.len}`) +
    (c.frags > 1 ? ` frags=${c.frags}` : '');
  // Fresh processes: bench-parser in both clocks, fragmented in the run's clock.
  for (const [group, list, clocks] of [['bench-parser', result.parser, ['wall', 'cpu']],
    ['fragmented', result.fragmented, [clock]]]) {
    // repeated first, then distinct, each in the benchmark's order
    const ordered = [...(list || [])].sort((x, y) => (parseConfig(x.config).vary || 0) - (parseConfig(y.config).vary || 0));
    for (const want of clocks) {
      for (const r of ordered) {
        const c = { kind: 'request', frags: 1, vary: 0, ...parseConfig(r.config) };
        if (c.clock !== undefined && c.clock !== want) continue;
        const target = group === 'bench-parser' && want === 'wall' && c.vary === 0 ? T.parser : null;
        const pr = pairedRow(result, c);
        rows.push({
          figure: `${group} ${label(c)}`, measure: `fresh, ${want}`, unit: 'ops/s',
          builtin: fmtInt(r.stats.medianA), napi: fmtInt(r.stats.medianB),
          ratio: fmtRatio(r.stats.ratio), ci: fmtCi(r.stats.ci), p: fmtP(r.stats.p), stars: r.stats.stars,
          target: target ? `≥ ${target.toFixed(1)}×` : '', verdict: target ? verdict(r.stats.ratio >= target) : '',
          chart: (group === 'bench-parser' && want === 'wall' && c.vary === 0) ?
            { group: 'bench-parser', label: `len ${c.len}`, value: r.stats.ratio, ci: r.stats.ci, target: T.parser,
              paired: pr ? pr.geoMean : null } :
            (group === 'fragmented' && c.vary === 0) ?
              { group: 'fragmented', label: `${c.len}/f${c.frags}`, value: r.stats.ratio, ci: r.stats.ci,
                target: T.fragmentedSteady, paired: pr ? pr.geoMean : null } :
              (c.vary === 1 && want === clock) ?
                { group: 'distinct', label: c.frags > 1 ? `f${c.frags}` : 'whole', value: r.stats.ratio, ci: r.stats.ci,
                  target: T.distinct, paired: pr ? pr.geoMean : null } : null,
        });
      }
    }
  }
  // Steady state (paired.js).
  for (const r of result.paired || []) {
    const c = { kind: 'request', vary: 0, ...r };
    const target = c.vary === 1 ? T.distinct : c.frags > 1 ? T.fragmentedSteady : null;
    rows.push({
      figure: `paired ${label(c)}`, measure: `steady, ${r.clock || clock}`, unit: 'ops/s',
      builtin: r.error ? '' : fmtInt(r.builtin), napi: r.error ? '' : fmtInt(r.napi),
      ratio: r.error ? '—' : fmtRatio(r.geoMean), ci: r.error ? '' : fmtCi(r.ci), p: '', stars: '',
      target: target ? `≥ ${target.toFixed(1)}×` : '',
      verdict: r.error ? `error: ${r.error}` : target ? verdict(r.geoMean >= target) : '',
    });
  }
  const cold = result.cold;
  if (cold) {
    rows.push({
      figure: 'cold parse, distinct corpus (cold.js)', measure: 'steady, other work between', unit: 'µs/msg',
      builtin: cold.error ? '' : cold.builtinUs.toFixed(2), napi: cold.error ? '' : cold.napiUs.toFixed(2),
      ratio: cold.error ? '—' : fmtRatio(cold.median), ci: cold.error ? '' : fmtCi(cold.ci), p: '', stars: '',
      target: `≥ ${T.cold.toFixed(1)}×`, verdict: cold.error ? `error: ${cold.error}` : verdict(cold.median >= T.cold),
    });
  }
  const e = result.e2e;
  if (e && !e.error) {
    for (const [name, w] of Object.entries(e.workloads || {})) {
      const s = w.stats;
      const target = (T.e2e || {})[name];
      rows.push({
        figure: `e2e ${name} CPU`, measure: 'paired rounds', unit: 'µs/req',
        builtin: s ? s.builtin.toFixed(1) : '—', napi: e.unavailable ? 'unavailable' : s ? s.napi.toFixed(1) : '—',
        ratio: s ? fmtRatio(s.median, 3) : '—', ci: s ? fmtCi(s.ci, 3) : '—', p: s ? fmtP(s.p) : '—',
        stars: s ? s.stars : '', target: target ? `≤ ${target}×, CI ≤ ${T.e2eUpper}` : '',
        verdict: verdict(s && target ? s.median <= target && (!s.ci || s.ci[1] <= T.e2eUpper) : null),
        chart: s && name === 'hello' ? { group: 'e2e', label: 'req per CPU-s', value: 1 / s.median,
          // the inverse of an interval reaching 0 or below is unbounded above
          ci: s.ci ? [1 / s.ci[1], s.ci[0] > 0 ? 1 / s.ci[0] : Infinity] : null, target: target ? 1 / target : null,
          paired: s.geoMean ? 1 / s.geoMean : null } : null,
      });
    }
    const c = e.workloads && e.workloads.hello && e.workloads.hello.counts;
    for (const [what, key] of [['nextTicks', 'ticksPerRequest'], ['emits', 'emitsPerRequest']]) {
      const b = c && !c.unavailable ? c.builtin : null;
      const n = c && !c.unavailable ? c.napi : null;
      rows.push({
        figure: `e2e hello ${what} per request`, unit: 'count', builtin: b ? b[key].toFixed(2) : '—',
        napi: n ? n[key].toFixed(2) : e.unavailable ? 'unavailable' : '—',
        ratio: b && n ? fmtRatio(n[key] / b[key]) : '—', ci: '', p: '', stars: '', target: '', verdict: '',
      });
    }
  } else if (e) {
    rows.push({ figure: 'e2e CPU', unit: 'µs/req', builtin: '—', napi: '—', ratio: '—', ci: '',
      p: '', stars: '', target: '', verdict: `error: ${e.error}` });
  }
  const mem = result.memory;
  if (mem) {
    rows.push({
      figure: 'memory per idle keep-alive connection (RSS)', measure: 'idle-memory.js', unit: 'KB',
      builtin: mem.error ? '' : mem.rss.builtin.toFixed(1), napi: mem.error ? '' : mem.rss.napi.toFixed(1),
      ratio: mem.error ? '—' : fmtRatio(mem.rss.napi / mem.rss.builtin), ci: '', p: '', stars: '',
      target: `≤ ${T.memory.toFixed(2)}×`, verdict: mem.error ? `error: ${mem.error}` : verdict(mem.rss.napi / mem.rss.builtin <= T.memory),
    });
  }
  const raw = result.raw;
  if (raw && !raw.error) {
    const len8 = freshRow(result.parser, { len: 8, vary: 0, clock: result.settings.CLOCK });
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
    const p8 = pairedRow(result, { len: 8, frags: 1 });
    if (p8) {
      rows.push({
        figure: 'JS-visible / raw C, len 8, steady (info)', unit: 'fraction', builtin: (p8.builtin / raw.median).toFixed(3),
        napi: (p8.napi / raw.median).toFixed(3), ratio: '', ci: '', p: '', stars: '', target: '', verdict: '',
      });
    }
  } else if (raw) {
    rows.push({ figure: 'raw llhttp C, len 8', unit: 'ops/s', builtin: '', napi: '—', ratio: '', ci: '', p: '',
      stars: '', target: `≥ ${TARGETS.rawFraction}`, verdict: `error: ${raw.error.slice(0, 60)}${raw.error.length > 60 ? '…' : ''}` });
  }
  return rows;
}

const COLUMNS = [['figure', 'figure'], ['measure', 'measure'], ['unit', 'unit'], ['builtin', 'builtin'], ['napi', 'napi'],
  ['ratio', 'napi/builtin'], ['ci', '95% CI'], ['p', 'p'], ['stars', ''], ['target', 'target'], ['verdict', 'result'],
  ['paired', 'e2e paired ratio (95% CI)']];
const LEFT = new Set(['figure', 'measure', 'unit', 'verdict', 'paired']);
const cell = (r, key) => (r[key] === undefined || r[key] === null ? '' : String(r[key]));

function plainTable(columns, rows) {
  const widths = columns.map(([key, head]) => Math.max(head.length, ...rows.map((r) => cell(r, key).length)));
  const used = columns.map(([key], i) => i === 0 || rows.some((r) => cell(r, key) !== ''));
  const line = (cells) => cells.map((c, i) => (!used[i] ? null : LEFT.has(columns[i][0]) || i === 0 ?
    String(c).padEnd(widths[i]) : String(c).padStart(widths[i]))).filter((c) => c !== null).join('  ').trimEnd();
  return [line(columns.map((c) => c[1])), line(widths.map((w) => '-'.repeat(w))),
    ...rows.map((r) => line(columns.map(([key]) => cell(r, key))))].join('\n');
}

function textTable(rows) {
  return plainTable(COLUMNS, rows);
}

const SIDE_COLUMNS = [['figure', 'figure'], ['repeated', 'repeated: ratio (95% CI)'],
  ['distinct', 'distinct: ratio (95% CI)'], ['target', 'target'], ['verdict', 'result']];

function sideText(rows) {
  return plainTable(SIDE_COLUMNS, rows);
}

function sideMarkdown(rows) {
  const esc = (s) => String(s).replace(/\|/g, '\\|');
  const out = [`| ${SIDE_COLUMNS.map((c) => c[1]).join(' | ')} |`, '|---|--:|--:|---|---|'];
  for (const r of rows) {
    out.push(`| ${SIDE_COLUMNS.map(([key]) => esc(cell(r, key).replace(/MISS(?: \([^)]*\))?/g, '**$&**'))).join(' | ')} |`);
  }
  return out.join('\n');
}

function markdownTable(rows) {
  const esc = (s) => String(s).replace(/\|/g, '\\|');
  const head = COLUMNS.map((c) => c[1] || 'sig.');
  const out = [`| ${head.join(' | ')} |`, `|${COLUMNS.map((c) => (LEFT.has(c[0]) ? '---' : '--:')).join('|')}|`];
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
  const T = result.targets || TARGETS;
  lines.push(`## Repeated and distinct messages, Node ${m.node}`);
  lines.push('');
  lines.push('*Repeated*: the request of Node\'s `bench-parser.js` (len 8) parsed again and again, the best case for');
  lines.push('llhttp-napi (it reuses the previous message\'s header strings when the bytes repeat). *Distinct*: 1000');
  lines.push('different realistic requests (`benchmark/corpus.js`: browsers, API clients, bots, proxies; paths,');
  lines.push('cookies, ids, ETags and bodies differ), round-robin, cut at pseudo-random points for the pieces. Real');
  lines.push('traffic does not repeat: **the distinct column is the one to believe for your traffic.**');
  lines.push('');
  lines.push(sideMarkdown(sideBySide(result)));
  lines.push('');
  lines.push(`Targets (issue 19, Node ${T.distinct === 2.0 ? '24 and later' : '20 and 22'}): distinct ≥ ${T.distinct.toFixed(1)}× ` +
             `(steady state, requests and responses, whole and in 2–8 pieces), bench-parser fresh process ≥ ${T.parser.toFixed(1)}× ` +
             `(wall clock, len 4–32), cold parse ≥ ${(T.cold || 1.8).toFixed(1)}×, fragmented steady state ≥ ${T.fragmentedSteady.toFixed(1)}× ` +
             '(issue 12); repeated: no worse than before. End to end and memory: see every figure below.');
  lines.push('');
  lines.push('## Every figure');
  lines.push('');
  lines.push('*fresh*: medians of interleaved runs, each in a fresh process (builtin, napi, then napi, builtin, ...),');
  lines.push('n=100000 messages per run as in Node\'s benchmarks, so the JIT warm-up of lib/ is inside the figure; the');
  lines.push('95% CI is that of mean(napi)/mean(builtin) from Welch\'s t-test, as Node\'s `benchmark/compare.R`');
  lines.push('computes it; * p<0.05, ** p<0.01, *** p<0.001. *wall* is wall-clock time as Node\'s harness measures;');
  lines.push('*cpu* the CPU time of the benchmark process (user + system, all threads, JIT and GC included), which leaves');
  lines.push('out the time spent waiting for a core on a busy machine; both come from the same runs.');
  lines.push(`${result.settings.RUNS} runs per parser for bench-parser, ${result.settings.FRAG_RUNS} for fragmented.`);
  lines.push('*steady*: `benchmark/paired.js`, both parsers in one process after a warm-up, alternating batches of');
  lines.push(`4,000 messages (${result.settings.BATCHES || 30} pairs, ${result.settings.CLOCK} clock), geometric mean of the pair ratios with its 95% interval:`);
  lines.push('much less exposed to the machine\'s noise (both parsers see the same moments). e2e: the CPU ratio is');
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
  lines.push('npm run bench                                   # this file, on the system node');
  lines.push('$(node scripts/dev/test-lines.js --print 24) benchmark/run.js   # on another line (22, 24, 26)');
  lines.push('node benchmark/compare.js --runs=10 --clock=both benchmark/bench-parser.js len=8 vary=0,1');
  lines.push('node benchmark/paired.js vary=1 frags=1,3 [kind=response]  # distinct corpus, steady state');
  lines.push('node benchmark/bench-parser.js --parser=builtin  # Node\'s format, one process per config');
  lines.push('node benchmark/corpus.js --check                 # the corpus, parsed by the built-in');
  lines.push('node benchmark/server.js --rounds=8 --duration=5');
  lines.push('node benchmark/raw-llhttp.js len=8');
  lines.push('node benchmark/headers.js');
  lines.push('node benchmark/instructions.js len=8 vary=0,1       # callgrind, needs valgrind');
  lines.push('```');
  lines.push('');
  return lines.join('\n');
}

// --from-json=FILE: rewrite the table, latest.md and ratios.svg from a saved run.
const runOrLoad = options['from-json'] ?
  () => Promise.resolve(JSON.parse(fs.readFileSync(options['from-json'], 'utf8'))) : main;

runOrLoad().then((result) => {
  const rows = summaryRows(result);
  console.log(`Repeated vs distinct messages, Node ${result.machine.node} (napi/builtin; the distinct column is real traffic):\n`);
  console.log(sideText(sideBySide(result)));
  console.log('\nEvery figure:\n');
  console.log(textTable(rows));
  console.log(`\n(${Math.round(result.elapsedSeconds)} s; fresh: medians of interleaved fresh-process runs, CI: Welch, of mean ratio, ` +
              `* p<0.05 ** p<0.01 *** p<0.001; steady: paired.js, ${result.settings.CLOCK} clock, geometric mean and 95% CI)`);
  if (result.headers && !result.headers.error) {
    console.log('\nheaders.js (9 headers): ' + result.headers.variants
      .map((v) => `${v.variant} ${fmtInt(v.median)} ops/s (${fmtRatio(v.ratio)})`).join(', '));
    for (const note of result.headers.notes) console.log(`  ${note}`);
  }
  if (result.instructions) console.log('\n' + describeInstructions(result.instructions));
  fs.mkdirSync(OUT, { recursive: true });
  const md = markdown(result, rows);
  const line = `node${String(result.machine.node).replace(/^v/, '').split('.')[0]}`;
  fs.writeFileSync(path.join(OUT, 'latest.md'), md);
  fs.writeFileSync(path.join(OUT, `latest-${line}.md`), md.replace('](ratios.svg)', `](ratios-${line}.svg)`));
  const svg = renderSvg(rows.map((r) => r.chart).filter(Boolean), result.machine);
  fs.writeFileSync(path.join(OUT, 'ratios.svg'), svg);
  fs.writeFileSync(path.join(OUT, `ratios-${line}.svg`), svg);
  if (!options['from-json']) {
    fs.writeFileSync(path.join(OUT, 'latest.json'), JSON.stringify(result, null, 2));
    fs.writeFileSync(path.join(OUT, `latest-${line}.json`), JSON.stringify(result, null, 2));
  }
  console.log(`written: ${path.relative(process.cwd(), path.join(OUT, 'latest.md'))}, ratios.svg, latest.json ` +
              `(and latest-${line}.md, ratios-${line}.svg, latest-${line}.json)`);
  if (result.warning) console.log(`WARNING: ${result.warning}`);
}).catch((err) => {
  clearProgress();
  console.error(err.stack || err.message);
  process.exit(1);
});
