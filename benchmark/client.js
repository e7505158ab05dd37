'use strict';
// The client side: a node:http client through a keep-alive Agent
// (client-child.js) reading responses from a peer on the other core
// (client-peer.js: 1 KiB JSON documents under realistic, all different
// heads), with the built-in parser and with llhttp-napi's install(). CPU time
// per response of the client process (/proc/<pid>/stat over the window), ours
// / the built-in, measured as server.js's solo rounds are (rounds.js): one
// client at a time, alone on CPU 0, the peer on CPU 1, the order alternating
// each round, a fresh client each time. The figure is the median over rounds
// with its 95% interval (order statistics), the geometric mean beside it.
//
// Kinds: json (Content-Length) and chunked (Transfer-Encoding: chunked, 1-3
// chunks). It measures the node binary that runs it, so per line:
//   $(node scripts/dev/test-lines.js --print 24) benchmark/client.js
//
//   node benchmark/client.js [--kind=json,chunked] [--rounds=9] [--duration=3] [--warmup=1.5]
//        [--concurrency=16] [--seed=1] [--package=DIR] [--json=FILE]

const os = require('node:os');
const path = require('node:path');
const common = require('./common');
const processes = require('./processes');
const e2eRounds = require('./rounds');
const { KINDS, clientResponses } = require('./client-peer');

const DESCRIPTIONS = {
  json: '1 KiB JSON responses, Content-Length',
  chunked: '1 KiB JSON responses, Transfer-Encoding: chunked (1-3 chunks)',
};

function startClient(parser, { port, concurrency, pkg }) {
  return processes.ipcChild(processes.pinned(processes.MEASURED_CPU, [process.execPath,
    path.join(__dirname, 'client-child.js'), `--parser=${parser}`, `--port=${port}`,
    `--concurrency=${concurrency}`, `--package=${pkg}`]), `client (${parser})`);
}

function clientFigures(w) {
  return { requests: w.requests, cpuSeconds: w.cpuSeconds, wallSeconds: w.wallSeconds, cpuUsPerRequest: w.cpuUsPerRequest,
    requestsPerSecond: w.requestsPerSecond, bytesPerResponse: w.requests ? w.report.bytes / w.requests : 0,
    parserSeen: w.report.parser, loaderErrors: w.report.errors ? `errors=${w.report.errors}` : null };
}

async function clientBench({ kinds = KINDS, rounds = 9, duration = 3, warmup = 1.5, concurrency = 16, seed = 1,
  pkg = common.ROOT, onProgress = () => {} } = {}) {
  pkg = path.resolve(pkg);
  for (const kind of kinds) if (!KINDS.includes(kind)) throw new Error(`unknown kind "${kind}" (${KINDS.join(', ')})`);
  const result = {
    pinned: processes.PINNED,
    settings: { rounds, duration, warmup, concurrency, seed },
    started: new Date().toISOString(),
    identity: common.buildIdentity(pkg),
    loadavg: [os.loadavg()[0]],
    kinds: {},
    unavailable: null,
  };
  const steps = kinds.length * rounds;
  let step = 0;
  for (const kind of kinds) {
    const responses = clientResponses(kind, { seed });
    const k = { description: DESCRIPTIONS[kind], distinct: responses.length,
      responseBytes: Math.round(responses.reduce((sum, r) => sum + r.length, 0) / responses.length), rounds: [], stats: null };
    result.kinds[kind] = k;
    const peer = processes.ipcChild(processes.pinned(processes.LOAD_CPU, [process.execPath,
      path.join(__dirname, 'client-peer.js'), `--kind=${kind}`, `--seed=${seed}`]), 'peer');
    try {
      const { port } = await peer.ready;
      for (let i = 0; i < rounds && !result.unavailable; i++) {
        onProgress({ step: step++, steps, what: `${kind}: solo round ${i + 1}/${rounds}` });
        const r = await e2eRounds.soloRound({ round: i, warmup, duration,
          start: (p) => startClient(p, { port, concurrency, pkg }),
          load: () => null,
          figures: (p, w) => clientFigures(w) });
        if (r.unavailable) result.unavailable = r.unavailable;
        else k.rounds.push(r);
      }
    } finally {
      await peer.stop();
    }
    k.stats = e2eRounds.seriesStats(k.rounds);
  }
  result.loadavg.push(os.loadavg()[0]);
  result.warning = common.identityChange(result.identity, common.buildIdentity(pkg));
  return result;
}

// A client that did not parse with the parser it should have.
function roundNotes(r) {
  const seen = common.PARSERS.filter((p) => r[p].parserSeen !== p).map((p) => `${p} client saw ${r[p].parserSeen}`);
  return seen.length ? `  (${seen.join('; ')})` : '';
}

function describe(result) {
  const set = result.settings;
  const lines = [common.describeIdentity(result.identity),
    `node:http client, keep-alive Agent, ${set.concurrency} requests in flight; ` +
    (result.pinned ? `client on CPU ${processes.MEASURED_CPU}, peer on CPU ${processes.LOAD_CPU} (taskset)` : 'not pinned') +
    `; ${set.rounds} solo rounds × ${set.duration} s after ${set.warmup} s warm-up; ` +
    `load average ${result.loadavg.map((x) => x.toFixed(1)).join(' → ')}`];
  if (result.warning) lines.push(`WARNING: ${result.warning}`);
  if (result.unavailable) lines.push(`napi unavailable: ${result.unavailable}`);
  for (const [kind, k] of Object.entries(result.kinds)) {
    lines.push('', `== ${kind}: ${k.description}`, `   ${k.distinct} distinct responses, ${k.responseBytes} bytes on average`);
    lines.push(...e2eRounds.describeSeries('solo rounds (one client at a time, alone on its core):', k,
      { unit: 'resp', extra: roundNotes }));
  }
  return lines.join('\n');
}

module.exports = { clientBench, describe, KINDS };

if (require.main === module) {
  const { options } = common.parseArgs();
  common.runProgram('client.js', (onProgress) => clientBench({
    kinds: options.kind ? String(options.kind).split(',') : KINDS,
    rounds: Number(options.rounds || 9),
    duration: Number(options.duration || 3),
    warmup: Number(options.warmup || 1.5),
    concurrency: Number(options.concurrency || 16),
    seed: Number(options.seed || 1),
    pkg: options.package || common.ROOT,
    onProgress,
  }), describe, options.json);
}
