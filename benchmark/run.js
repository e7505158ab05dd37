'use strict';
// `npm run bench`: the default suite, against the built-in parser in the
// same run. Every parser figure is given for the repeated message of Node's
// benchmarks (vary=0) and for a corpus of 1000 distinct realistic requests
// (vary=1, benchmark/corpus.js) side by side:
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
//   6. server.js: e2e CPU µs/request, one server at a time (solo rounds) and
//      both at once (paired rounds), nextTicks/emits per request, every
//      workload (hello, browser, post-json, upload, express, fastify); then
//      net-echo (examples/net-server.js against node:http), solo rounds
//   7. client.js: node:http client CPU µs/response (1 KiB JSON, chunked)
//   8. idle-memory.js: RSS per idle keep-alive connection (4,000) and per
//      connection holding 8 KiB of an unfinished head (2,000, --partial), and
//      what one connection holds by object (--breakdown), both modes
//   9. with --headers: headers.js (9 headers, each variant), for information
//  10. with --instructions: instructions.js, repeated and distinct (callgrind;
//      slow, several minutes)
//
// About 12½ minutes on 2 cores with the defaults (the e2e rounds take 9 of them).
// Prints issue 23's figures first (ratios with their intervals and what each
// row measures), then repeated and distinct messages, then every figure;
// with --targets each table also shows this project's target of the running
// line and whether it was met (targets.js). Shows a progress line on stderr,
// and writes benchmark/results/latest.md, ratios.svg and latest.json, plus
// copies named after the line (latest-node24.md, latest-node24.json).
//
//   node benchmark/run.js [--targets] [--runs=8] [--frag-runs=4] [--clock=cpu|wall] [--batches=40]
//        [--e2e-rounds=8] [--paired-rounds=6] [--client-rounds=8] [--duration=2] [--warmup=1]
//        [--connections=4000] (idle connections of idle-memory.js; --partial opens half as many)
//        [--no-paired] [--no-cold] [--no-e2e] [--no-client] [--no-memory] [--no-c] [--no-distinct]
//        [--headers] [--instructions] [--out=benchmark/results] [--from-json=benchmark/results/latest.json]
//
// Another line: $(node scripts/dev/test-lines.js --print 24) benchmark/run.js

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const common = require('./common');
const stats = require('./stats');
const report = require('./report');
const { compare } = require('./compare');
const { rawLlhttp } = require('./raw-llhttp');
const { e2e, describe: describeE2e } = require('./server');
const { clientBench, describe: describeClient } = require('./client');
const { renderSvg } = require('./svg');
const { targetsFor } = require('./targets');
const { instructions, describe: describeInstructions } = require('./instructions');

const { options } = common.parseArgs();
const RUNS = Number(options.runs || 8);
const FRAG_RUNS = Number(options['frag-runs'] || 4);
// CPU time by default: on a shared machine wall time mostly measures the
// other processes; --clock=wall measures as Node's benchmarks do.
const CLOCK = options.clock || 'cpu';
const BATCHES = Number(options.batches || 40);
const E2E_ROUNDS = Number(options['e2e-rounds'] || 8);
const PAIRED_ROUNDS = Number(options['paired-rounds'] || 6);
const CLIENT_ROUNDS = Number(options['client-rounds'] || 8);
const DURATION = Number(options.duration || 2);
const WARMUP = Number(options.warmup || 1);
const CONNECTIONS = Number(options.connections || 4000);
const DISTINCT = !options['no-distinct'];
const OUT = path.resolve(options.out || path.join(__dirname, 'results'));
// The e2e workloads with both kinds of rounds; net-echo has solo rounds only.
const E2E_WORKLOADS = ['hello', 'browser', 'post-json', 'upload', 'express', 'fastify'];

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
    build: common.buildIdentity(),
  };
}

// A program of this folder with --json=FILE: its result, or { error }.
function runJson(file, args) {
  const out = path.join(os.tmpdir(), `llhttp-napi-${path.basename(file, '.js')}-${process.pid}.json`);
  const child = spawnSync(process.execPath, [path.join(__dirname, file), ...args, `--json=${out}`], { encoding: 'utf8' });
  try {
    return child.status === 0 ? JSON.parse(fs.readFileSync(out, 'utf8')) :
      { error: (child.stderr || '').split('\n').filter(Boolean).pop() || `exit ${child.status}` };
  } finally {
    fs.rmSync(out, { force: true });
  }
}

// An async phase whose failure is a figure's error, not the run's.
async function orError(fn) {
  try {
    return await fn();
  } catch (err) {
    return { error: String(err.message).split('\n')[0] };
  }
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
  const result = { machine: info, settings: { RUNS, FRAG_RUNS, CLOCK, BATCHES, E2E_ROUNDS, PAIRED_ROUNDS, CLIENT_ROUNDS,
    DURATION, WARMUP, CONNECTIONS } };

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

  const timing = { duration: DURATION, warmup: WARMUP, onProgress: ({ what }) => progress(what) };
  if (!options['no-e2e']) {
    phase = `server.js e2e, ${E2E_ROUNDS} solo and ${PAIRED_ROUNDS} paired rounds × ${DURATION}s per workload`;
    result.e2e = await orError(() => e2e({ ...timing, workloads: E2E_WORKLOADS, rounds: E2E_ROUNDS,
      pairedRounds: PAIRED_ROUNDS, connections: 50, countDuration: 1 }));
    phase = `server.js net-echo, ${E2E_ROUNDS} solo rounds × ${DURATION}s`;
    result.netEcho = await orError(() => e2e({ ...timing, workloads: ['net-echo'], modes: ['solo'], rounds: E2E_ROUNDS,
      connections: 50, countDuration: 1 }));
  }
  if (!options['no-client']) {
    phase = `client.js, ${CLIENT_ROUNDS} solo rounds × ${DURATION}s per kind`;
    result.client = await orError(() => clientBench({ ...timing, rounds: CLIENT_ROUNDS }));
  }

  if (!options['no-memory']) {
    phase = 'idle-memory.js';
    // The breakdown between 1/20 and 3/10 of the connections (200 and 1200 of 4000).
    const breakdown = `--breakdown=${Math.round(CONNECTIONS / 20)},${Math.round(CONNECTIONS * 0.3)}`;
    progress(`${CONNECTIONS} idle keep-alive connections, 2 rounds, and the breakdown`);
    result.memory = runJson('idle-memory.js', [`--connections=${CONNECTIONS}`, '--rounds=2', breakdown]);
    progress(`${CONNECTIONS / 2} connections holding 8 KiB of an unfinished head, 2 rounds, and the breakdown`);
    result.partialMemory = runJson('idle-memory.js', ['--partial', `--connections=${CONNECTIONS / 2}`, '--rounds=2', breakdown]);
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
  result.machine.buildEnd = common.buildIdentity();
  result.warning = common.identityChange(info.build, result.machine.buildEnd);
  result.elapsedSeconds = (Date.now() - started) / 1000;
  return result;
}

// ------------------------------------------------------------- output ----

const { describeMedian, describeBreakdown } = require('./idle-memory');

// The memory programs' own reports: the medians, then the breakdown by object.
function describeMemory(mem) {
  if (!mem || mem.error) return null;
  return [describeMedian(mem), ...(mem.breakdown ? ['', describeBreakdown(mem.breakdown)] : [])].join('\n');
}

const HEADLINE_NOTE = 'ratio: ours / the built-in of CPU and memory per request, response or connection (lower is ' +
  'better), ours / the built-in of speed for the parse (built-in time / ours: higher is better). 95% CI: of the median ' +
  'of the rounds (order statistics) for CPU, of the geometric mean of the pair ratios (t) for the parse; for memory the ' +
  'rounds\' range. CPU per request: one server (or client) at a time, alone on its core, its load on the other, the order ' +
  'alternating each round (solo rounds); paired rounds: both servers at once on one core, loaded together. net-echo: ' +
  'examples/net-server.js (our parser on node:net, no node:http) against a node:http server giving the same JSON echo.';

function markdown(result, targets) {
  const m = result.machine;
  const lines = [];
  const fence = (text) => ['```', text, '```', ''];
  lines.push('# llhttp-napi benchmark results (`npm run bench`)', '');
  lines.push(`- date: ${m.date}`);
  lines.push(`- machine: ${m.cpu}, ${m.cores} cores, ${m.os}`);
  lines.push(`- Node ${m.node} (built-in parser: llhttp ${m.builtinLlhttp})`);
  lines.push(`- llhttp-napi ${m.addon.addon || '?'}, linked llhttp ${m.addon.llhttp || '?'}, N-API ${m.addon.napi || '?'}; ` +
    common.describeIdentity(m.build).replace(/^node \S+ \(llhttp \S+\); /, ''));
  if (result.warning) lines.push(`- **warning: ${result.warning}**`);
  lines.push(`- suite time: ${Math.round(result.elapsedSeconds)} s; load average (1 min) ` +
             `${m.loadavgStart[0].toFixed(2)} at the start, ${m.loadavgEnd[0].toFixed(2)} at the end ` +
             '(other work on the machine adds noise; the interleaving spreads it over both parsers)');
  if (targets) lines.push(`- with this project's targets for Node ${targets.line} (\`--targets\`, docs/benchmarks.md)`);
  lines.push('');
  lines.push(`## Where users run it, Node ${m.node}`, '');
  lines.push(report.markdownTable(report.HEADLINE_COLUMNS, report.headlineRows(result, targets)), '');
  lines.push(HEADLINE_NOTE, '');
  lines.push(`## Repeated and distinct messages, Node ${m.node}`, '');
  lines.push('*Repeated*: the request of Node\'s `bench-parser.js` (len 8) parsed again and again, the best case for');
  lines.push('llhttp-napi (it reuses the previous message\'s header strings when the bytes repeat). *Distinct*: 1000');
  lines.push('different realistic requests (`benchmark/corpus.js`: browsers, API clients, bots, proxies; paths,');
  lines.push('cookies, ids, ETags and bodies differ), round-robin, cut at pseudo-random points for the pieces. Real');
  lines.push('traffic does not repeat: **the distinct column is the one to believe for your traffic.**', '');
  lines.push(report.markdownTable(report.SIDE_COLUMNS, report.sideBySide(result, targets)), '');
  lines.push('## Every figure', '');
  lines.push('*fresh*: medians of interleaved runs, each in a fresh process (builtin, napi, then napi, builtin, ...),');
  lines.push('n=100000 messages per run as in Node\'s benchmarks, so the JIT warm-up of lib/ is inside the figure; the');
  lines.push('95% CI is that of mean(napi)/mean(builtin) from Welch\'s t-test, as Node\'s `benchmark/compare.R`');
  lines.push('computes it; * p<0.05, ** p<0.01, *** p<0.001. *wall* is wall-clock time as Node\'s harness measures;');
  lines.push('*cpu* the CPU time of the benchmark process (user + system, all threads, JIT and GC included), which leaves');
  lines.push('out the time spent waiting for a core on a busy machine; both come from the same runs.');
  lines.push(`${result.settings.RUNS} runs per parser for bench-parser, ${result.settings.FRAG_RUNS} for fragmented.`);
  lines.push('*steady*: `benchmark/paired.js`, both parsers in one process after a warm-up, alternating batches of');
  lines.push(`4,000 messages (${result.settings.BATCHES} pairs, ${result.settings.CLOCK} clock), geometric mean of the pair ratios with its 95% interval:`);
  lines.push('much less exposed to the machine\'s noise (both parsers see the same moments). e2e and client: CPU per');
  lines.push('request, napi/builtin (lower is better; the chart shows its inverse), median of the rounds with its');
  lines.push('interval; *solo rounds*: one process at a time alone on its core, *paired rounds*: both servers at once.', '');
  lines.push(report.markdownTable(report.EVERY_COLUMNS, report.everyRows(result, targets)), '');
  lines.push('![ratios napi/builtin](ratios.svg)', '');
  for (const [title, set] of [['End to end', result.e2e], ['Our parser on node:net', result.netEcho]]) {
    if (set && !set.error) lines.push(`## ${title}`, '', ...fence(describeE2e(set)));
  }
  if (result.client && !result.client.error) lines.push('## The client', '', ...fence(describeClient(result.client)));
  for (const [title, mem] of [['Memory per idle connection', result.memory],
    ['Memory per connection holding an unfinished head', result.partialMemory]]) {
    const text = describeMemory(mem);
    if (text) lines.push(`## ${title}`, '', ...fence(text));
  }
  if (result.raw && !result.raw.error) {
    lines.push('## Raw llhttp', '');
    lines.push(`\`benchmark/c/raw-llhttp.c\`: \`llhttp_init\` + \`llhttp_execute\` on the bench-parser len 8 bytes, ` +
               `same callbacks set as no-ops, ${result.raw.n} iterations × ${result.raw.rates.length} ` +
               '(3 before bench-parser, 3 between the suites, 3 after them): ' +
               result.raw.rates.map((x) => common.formatRate(Math.round(x))).join(', ') +
               ` ops/s (median ${common.formatRate(Math.round(result.raw.median))}).`, '');
  }
  if (result.headers && !result.headers.error) {
    lines.push('## Headers (`benchmark/headers.js`, 9 headers, every name and value read)', '');
    lines.push('vary=1: the messages cycle through 16 requests whose URL, cookie and user agent differ (same lengths);');
    lines.push('otherwise every message is the same bytes, as in Node\'s benchmarks. Ratios are to the built-in with the');
    lines.push('same messages. One process per variant, not interleaved: noisier than the tables above.', '');
    lines.push('| variant | ops/s (median of ' + result.headers.runs + ') | / builtin |');
    lines.push('|---|--:|--:|');
    for (const v of result.headers.variants) {
      lines.push(`| ${v.variant} | ${common.formatRate(Math.round(v.median))} | ${common.formatRatio(v.ratio)} |`);
    }
    for (const note of result.headers.notes) lines.push(`\n- ${note}`);
    lines.push('');
  }
  if (result.instructions) {
    lines.push('## Instructions per message (callgrind, deterministic)', '', ...fence(describeInstructions(result.instructions)));
  }
  lines.push('## Reproduce', '');
  lines.push(...fence([
    'npm run bench                                   # this file, on the system node (-- --targets: with the targets)',
    '$(node scripts/dev/test-lines.js --print 24) benchmark/run.js   # on another line (22, 24, 26)',
    'node benchmark/compare.js --runs=10 --clock=both benchmark/bench-parser.js len=8 vary=0,1',
    'node benchmark/paired.js vary=1 frags=1,3 [kind=response]  # distinct corpus, steady state',
    'node benchmark/bench-parser.js --parser=builtin  # Node\'s format, one process per config',
    'node benchmark/corpus.js --check                 # the corpus, parsed by the built-in',
    'node benchmark/server.js --rounds=9 --duration=3 # e2e, solo then paired rounds, every workload',
    'node benchmark/client.js --rounds=9              # node:http client, JSON and chunked',
    'node benchmark/idle-memory.js [--partial] [--breakdown]',
    'node benchmark/raw-llhttp.js len=8',
    'node benchmark/headers.js',
    'node benchmark/instructions.js len=8 vary=0,1       # callgrind, needs valgrind',
  ].join('\n')));
  return lines.join('\n');
}

// --from-json=FILE: rewrite the tables, latest.md and ratios.svg from a saved run.
const runOrLoad = options['from-json'] ?
  () => Promise.resolve(JSON.parse(fs.readFileSync(options['from-json'], 'utf8'))) : main;

runOrLoad().then((result) => {
  const targets = options.targets ? targetsFor(result.machine.node) : null;
  console.log(`Where users run it, Node ${result.machine.node}:\n`);
  console.log(report.plainTable(report.HEADLINE_COLUMNS, report.headlineRows(result, targets)));
  console.log(`\n(${HEADLINE_NOTE})`);
  console.log(`\nRepeated vs distinct messages (napi/builtin; the distinct column is real traffic):\n`);
  console.log(report.plainTable(report.SIDE_COLUMNS, report.sideBySide(result, targets)));
  console.log('\nEvery figure:\n');
  console.log(report.plainTable(report.EVERY_COLUMNS, report.everyRows(result, targets)));
  console.log(`\n(${Math.round(result.elapsedSeconds)} s; fresh: medians of interleaved fresh-process runs, CI: Welch, of mean ratio, ` +
              `* p<0.05 ** p<0.01 *** p<0.001; steady: paired.js, ${result.settings.CLOCK} clock, geometric mean and 95% CI)`);
  if (result.headers && !result.headers.error) {
    console.log('\nheaders.js (9 headers): ' + result.headers.variants
      .map((v) => `${v.variant} ${common.formatRate(Math.round(v.median))} ops/s (${common.formatRatio(v.ratio)})`).join(', '));
    for (const note of result.headers.notes) console.log(`  ${note}`);
  }
  if (result.instructions) console.log('\n' + describeInstructions(result.instructions));
  fs.mkdirSync(OUT, { recursive: true });
  const md = markdown(result, targets);
  const line = `node${String(result.machine.node).replace(/^v/, '').split('.')[0]}`;
  fs.writeFileSync(path.join(OUT, 'latest.md'), md);
  fs.writeFileSync(path.join(OUT, `latest-${line}.md`), md.replace('](ratios.svg)', `](ratios-${line}.svg)`));
  const svg = renderSvg(report.chartBars(result, targets), result.machine);
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
