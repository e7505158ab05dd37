'use strict';
// `npm run bench` (DEFAULT_STEPS: the figures a user decides by) and `npm run
// bench:full` (--full, FULL_STEPS: every figure the docs quote), against
// Node's built-in parser in the same run: one table, each row with its
// interval (benchmark/README.md). --full prints how long it will take first,
// and writes results/node<major>.md (the summary a reader needs) and .json
// (everything; each program prints its own part again).
//
//   node benchmark/run.js [--full] [--rounds=6] [--duration=1.5] [--out=benchmark/results]
//   $(node scripts/dev/test-lines.js --print 24) benchmark/run.js [--full]   (another Node line)

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const common = require('./common');
const workloads = require('./server-workloads');
const { e2e, describe: describeServers } = require('./server');
const { clientBench } = require('./client');
const { memory } = require('./memory');
const { rawLlhttp } = require('./raw-llhttp');

const { option } = common.parseArgs();
const FULL = option('full', false);
const ROUNDS = option('rounds', FULL ? 8 : 6);
const DURATION = option('duration', FULL ? 2 : 1.5);
const OUT = path.resolve(option('out', path.join(__dirname, 'results')));
// The servers of the default run: install() on hello and browser, llhttp-napi/server on browser.
const DEFAULT_SERVERS = ['hello', 'browser', 'server-browser'];
const FULL_SERVERS = workloads.NAMES.filter((name) => name !== 'net-echo');

const started = Date.now();
function progress(text) {
  const s = Math.round((Date.now() - started) / 1000);
  common.progress(`[${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}] ${text}`);
}

// A program of this folder in a fresh process: its output, or its last line as JSON.
function node(file, args) {
  const child = spawnSync(process.execPath, [path.join(__dirname, file), ...args], { encoding: 'utf8' });
  if (child.status !== 0) throw new Error(`${file} ${args.join(' ')}: ${(child.stderr || '').trim().split('\n').pop()}`);
  return child.stdout;
}
const json = (file, args) => JSON.parse(node(file, [...args, '--json']).trim().split('\n').pop());

// Node's shape: parser.js in fresh processes, the parsers interleaved, `runs`
// each; one ratio per run and configuration.
function fresh(settings, runs) {
  const ratios = new Map();
  for (let run = 0; run < runs; run++) {
    const rates = {};
    for (const parser of common.roundOrder(run)) {
      progress(`Node's shape, fresh processes ${settings.join(' ')}: run ${run + 1}/${runs} ${parser}`);
      for (const line of node('parser.js', [`--parser=${parser}`, ...settings]).split('\n').map(common.parseLine).filter(Boolean)) {
        const key = Object.entries(line.conf).filter(([k]) => k !== 'parser' && k !== 'n').map(([k, v]) => `${k}=${v}`).join(' ');
        (rates[key] = rates[key] || {})[parser] = line.rate;
      }
    }
    for (const [key, r] of Object.entries(rates)) ratios.set(key, [...(ratios.get(key) || []), r.napi / r.builtin]);
  }
  return [...ratios].map(([key, list]) => ({ key, stats: common.ratioStats(list) }));
}

// ------------------------------------------------------------ the plan ----

// Each step: what it measures, its seconds on 2 cores (for the estimate), and run(rows) adding table rows:
// { figure, how: 'timed' | 'counted', better: 'higher' | 'lower', stats } or { figure, how, text }.
const steadyRow = (figure, settings) => (rows) => rows.push({ figure, how: 'timed', better: 'higher',
  stats: json('paired.js', settings)[0] });
const serverRows = (names, modes) => async (rows, result) => {
  const r = await e2e({ workloads: names, modes, rounds: ROUNDS, pairedRounds: 6, duration: DURATION, warmup: 1,
    count: FULL, onProgress: ({ what, step, steps }) => progress(`servers, ${what} (${step + 1}/${steps})`) });
  (result.servers = result.servers || []).push(r);
  for (const [name, w] of Object.entries(r.workloads)) {
    const ours = workloads.workload(name).ours;
    const who = ours === 'install' ? 'node:http + install()' : ours === 'server' ? 'llhttp-napi/server' : 'examples/net-server.js';
    for (const mode of modes) {
      rows.push({ figure: `${who} vs node:http, ${name}, CPU per request, ${mode} rounds`, how: 'timed', better: 'lower', stats: w[mode].stats });
    }
    if (w.counts) {
      rows.push({ figure: `${who}, ${name}: nextTicks / emits per request`, how: 'counted',
        text: common.PARSERS.map((p) => `${p} ${w.counts[p].ticks.toFixed(2)} / ${w.counts[p].emits.toFixed(2)}`).join(', ') });
    }
  }
};
const memoryRow = (figure, settings) => async (rows, result) => {
  const m = await memory({ ...settings, onProgress: (what) => progress(`memory per connection, ${what}`) });
  (result.memory = result.memory || []).push(m);
  rows.push({ figure, how: 'counted', better: 'lower', text: `${m.median.toFixed(2)}× (rounds ${m.range.map((x) => x.toFixed(2)).join('–')}), ` +
    `${m.kb.rss.napi.toFixed(1)} against ${m.kb.rss.builtin.toFixed(1)} KB` });
};

const DEFAULT_STEPS = [
  { seconds: 10, what: 'the parser, distinct requests, whole and in 3 pieces', run: async (rows) => {
    progress('the parser, distinct requests, steady state');
    steadyRow('parser, distinct requests, whole: speed, steady state', ['vary=1', 'frags=1'])(rows);
    steadyRow('parser, distinct requests in 3 pieces: speed, steady state', ['vary=1', 'frags=3'])(rows);
  } },
  { seconds: DEFAULT_SERVERS.length * ROUNDS * 2 * (DURATION + 0.9), what: `servers (${DEFAULT_SERVERS.join(', ')}), solo rounds`,
    run: serverRows(DEFAULT_SERVERS, ['solo']) },
  { seconds: 20, what: 'memory per idle keep-alive connection', run: memoryRow('RSS per idle keep-alive connection (4,000)', { rounds: 2 }) },
];

const FULL_STEPS = [
  { seconds: 10, what: 'the parser, distinct requests, whole and in 3 pieces', run: DEFAULT_STEPS[0].run },
  { seconds: 70, what: 'the parser, steady state: repeated, pieces 2-8, responses', run: async (rows) => {
    const configs = [...[4, 8, 16, 32].map((len) => [`len=${len}`]), ...[8, 16].flatMap((len) => [2, 4, 8].map((f) => [`len=${len}`, `frags=${f}`])),
      ...[2, 4, 8].map((f) => ['vary=1', `frags=${f}`]), ['vary=1', 'kind=response'], ['vary=1', 'kind=response', 'frags=4']];
    for (const settings of configs) {
      progress(`the parser, steady state, ${settings.join(' ')}`);
      steadyRow(`parser, steady state, ${settings.join(' ')}`, settings)(rows);
    }
  } },
  { seconds: 240, what: 'the parser in fresh processes (Node\'s shape) and raw llhttp in C', run: async (rows, result) => {
    for (const [settings, runs] of [[['len=4,8,16,32', 'vary=0,1'], 6], [['len=8,16', 'frags=2,4,8', 'vary=0,1'], 4]]) {
      for (const r of fresh(settings, runs)) rows.push({ figure: `parser, fresh process, ${r.key}`, how: 'timed', better: 'higher', stats: r.stats });
    }
    progress('raw llhttp in C');
    result.raw = rawLlhttp({ len: 8 });
    const ours = common.parseLine(node('parser.js', ['len=8', 'vary=0']).trim()).rate;
    rows.push({ figure: 'parser, repeated request (len 8), one fresh process / raw llhttp in C', how: 'timed',
      text: `${(ours / result.raw.median).toFixed(3)} (raw ${common.formatRate(result.raw.median)} ops/s)` });
  } },
  { seconds: 15, what: 'the cold parse', run: async (rows) => {
    progress('the cold parse');
    rows.push({ figure: 'parser, distinct requests, cold (cold.js): speed', how: 'timed', better: 'higher', stats: json('cold.js', []) });
  } },
  { seconds: FULL_SERVERS.length * (ROUNDS * 2 * (DURATION + 2) + 6 * (DURATION + 3) + 5), what: `servers (${FULL_SERVERS.join(', ')}), solo and paired rounds, nextTicks and emits`,
    run: serverRows(FULL_SERVERS, ['solo', 'paired']) },
  { seconds: ROUNDS * 2 * (DURATION + 2), what: 'the parser on node:net (net-echo), solo rounds', run: serverRows(['net-echo'], ['solo']) },
  { seconds: 2 * ROUNDS * 2 * (DURATION + 2), what: 'the node:http client (JSON, chunked), solo rounds', run: async (rows, result) => {
    result.client = await clientBench({ rounds: ROUNDS, duration: DURATION, onProgress: ({ what }) => progress(`client, ${what}`) });
    for (const [kind, k] of Object.entries(result.client.kinds)) {
      rows.push({ figure: `node:http client + install(), ${kind}, CPU per response, solo rounds`, how: 'timed', better: 'lower', stats: k.stats });
    }
  } },
  { seconds: 70, what: 'memory per connection, idle and holding a pending head, by object',
    run: async (rows, result) => {
      await memoryRow('RSS per idle keep-alive connection (4,000)', { rounds: 2, breakdown: [200, 1200] })(rows, result);
      await memoryRow('RSS per connection holding 8 KiB of an unfinished head (2,000)', { partial: true, rounds: 2,
        breakdown: [200, 1200] })(rows, result);
    } },
  { seconds: 540, what: 'instructions per message under callgrind (instructions.js)', run: async (rows, result) => {
    const { instructions } = require('./instructions');
    result.instructions = await instructions({ len: 8, vary: [0, 1], onProgress: (t) => progress(t) });
    for (const w of result.instructions.workloads || []) {
      const p = w.parsers;
      rows.push({ figure: `instructions per ${w.vary ? 'distinct' : 'repeated'} request, builtin / ours`, how: 'counted',
        text: `${Math.round(p.builtin.total)} / ${Math.round(p.napi.total)} = ${w.builtinOverNapi.toFixed(2)}×` });
    }
    if (result.instructions.error) rows.push({ figure: 'instructions per message', how: 'counted', text: `not run: ${result.instructions.error}` });
  } },
];

// What the default run leaves out, and how to get it.
const NOT_RUN = 'not run (npm run bench:full, about %d min): every other server workload (POST, upload, Express, Fastify) ' +
  'and paired rounds, nextTicks and emits, net-echo, the client, the repeated request, pieces 2-8, responses, ' +
  'Node\'s fresh-process shape, raw llhttp, the cold parse, memory with a pending head and by object, callgrind counts';

// ------------------------------------------------------------ the table ----

function cell(row) {
  return row.text || common.verdict(row.stats, row.better);
}

function table(rows) {
  const head = ['figure (llhttp-napi / built-in)', 'how', 'result (95% interval)'];
  const body = rows.map((r) => [r.figure, r.how, cell(r)]);
  const widths = [0, 1].map((i) => Math.max(head[i].length, ...body.map((b) => b[i].length)));
  return [head, ...body].map((r) => `${r[0].padEnd(widths[0])}  ${r[1].padEnd(widths[1])}  ${r[2]}`).join('\n');
}

const minutes = (steps) => Math.ceil(steps.reduce((sum, s) => sum + s.seconds, 0) / 60);

function notes(result) {
  const load = result.loadavg.map((x) => x.toFixed(1)).join(' → ');
  return [
    'timed: CPU or wall time, which other work on the machine disturbs (ratios of interleaved runs; a result is given only',
    'where its interval does not straddle 1.00); counted: bytes of memory or instructions, which it does not.',
    'speed figures: ours / built-in ops/s, higher is better; CPU and memory figures: ours / built-in, lower is better.',
    `load average ${load} on ${os.cpus().length} cores${result.loadavg[0] > os.cpus().length / 2 ? ' (loaded by other work: timed intervals are wide)' : ''}; ` +
      `llhttp-napi at ${common.buildIdentity()}, Node ${process.version}; ${Math.round((Date.now() - started) / 1000)} s.`,
    ...(FULL ? [] : [NOT_RUN.replace('%d', minutes(FULL_STEPS))]),
  ];
}

// The summary a reader needs; the rounds, the client, memory by object and
// instructions by function are in the JSON, and each program prints them.
function markdown(result) {
  const fence = (text) => ['```', text, '```', ''];
  return [`# llhttp-napi benchmark summary, Node ${process.version} (\`npm run bench:full\`)`, '',
    `${new Date().toISOString().slice(0, 10)}, ${os.cpus()[0].model.trim()}, ${os.cpus().length} cores.`, '',
    ...fence(table(result.rows)), ...notes(result), '',
    ...(result.servers || []).flatMap((s) => ['## Servers', '', ...fence(describeServers(s))]),
    'Again, by part: `node benchmark/server.js`, `client.js`, `memory.js --breakdown`, `instructions.js` ' +
      '([benchmark/README.md](../README.md)).', '',
  ].join('\n');
}

async function main() {
  try {
    require(common.ROOT);
  } catch (err) {
    throw new Error(`the addon does not load (${err.message.split('\n')[0]}): run npm run build first`);
  }
  const steps = FULL ? FULL_STEPS : DEFAULT_STEPS;
  process.stderr.write(`llhttp-napi ${FULL ? 'full' : 'default'} benchmark on Node ${process.version}: about ${minutes(steps)} min on 2 cores ` +
    `(${steps.map((s) => s.what).join('; ')})\n`);
  const result = { rows: [], loadavg: [os.loadavg()[0]] };
  for (const step of steps) {
    try {
      await step.run(result.rows, result);
    } catch (err) {
      result.rows.push({ figure: step.what, how: '—', text: `failed: ${err.message.split('\n')[0]}` });
    }
  }
  result.loadavg.push(os.loadavg()[0]);
  if (process.stderr.isTTY) process.stderr.write('\r\x1b[K');
  console.log(`\n${table(result.rows)}\n\n${notes(result).join('\n')}`);
  if (FULL) {
    const line = `node${process.versions.node.split('.')[0]}`;
    fs.mkdirSync(OUT, { recursive: true });
    fs.writeFileSync(path.join(OUT, `${line}.md`), markdown(result));
    fs.writeFileSync(path.join(OUT, `${line}.json`), JSON.stringify(result, null, 2));
    console.log(`\nwritten: ${path.relative(process.cwd(), path.join(OUT, `${line}.md`))} and ${line}.json`);
  }
}

main().catch((err) => {
  console.error(err.stack);
  process.exit(1);
});
