'use strict';
// End to end: CPU time per request of a server with Node's built-in parser
// and of ours (server-workloads.js: node:http after install(),
// llhttp-napi/server, or the parser on node:net), ours / the built-in (lower
// is better): the server's utime + stime, all threads, over a measured
// window, divided by the requests it answered. Servers on CPU 0, autocannon
// (server-load.js) on CPU 1. Two ways of running the rounds:
//
//   solo    one server at a time, alone on its core, the two in turn with the
//           order alternating each round, a fresh server each time: one
//           process per core, as servers run in production (reported first);
//   paired  both servers at once on CPU 0, loaded together over the same
//           window: both see the same moments of a busy machine, but evict
//           each other's caches, which punishes the larger working set.
//
// Each figure is the median of the rounds' ratios with its 95% interval
// (common.ratioStats). Then one counting round (paired, with nextTicks and
// emits counted): per request. It measures the node that runs it:
//   $(node scripts/dev/test-lines.js --print 24) benchmark/server.js --workload=browser
//
//   node benchmark/server.js [--workload=hello,browser,...|all] [--mode=solo,paired] [--rounds=8]
//        [--duration=2] [--json]

const path = require('node:path');
const common = require('./common');
const workloads = require('./server-workloads');

const MODES = ['solo', 'paired'];

function startServer(parser, workload, { count = false, nodeFlags = [] } = {}) {
  return common.ipcChild(common.pinned(common.MEASURED_CPU, [process.execPath, ...nodeFlags,
    path.join(__dirname, 'server-child.js'), `--parser=${parser}`, `--workload=${workload}`,
    ...(count ? ['--count'] : [])]), `server (${parser})`);
}

// autocannon in one load process for the session: load({ workload, seed,
// connections, seconds, targets: [{ tag, port }] }) resolves once the load
// runs, with stop() and done() (the counts per tag).
function createLoader() {
  const child = common.ipcChild(common.pinned(common.LOAD_CPU, [process.execPath, path.join(__dirname, 'server-load.js')]),
    'load process');
  let next = 0;
  return {
    async load(run) {
      await child.ready;
      const id = ++next;
      const started = child.expect((m) => m.id === id && (m.type === 'started' || m.type === 'done'));
      const done = child.expect((m) => m.id === id && m.type === 'done');
      child.send({ type: 'run', id, ...run });
      const first = await started;
      if (first.type === 'done') throw new Error(`load process: ${first.error}`);
      return { stop: () => child.send({ type: 'stop', id }), done: () => done.then((m) => m.results) };
    },
    close: () => child.stop(),
  };
}

// Rounds of each workload and mode; onWindow(pids, seconds, workload, round)
// as each paired window opens (common.round).
async function e2e({ workloads: names = workloads.NAMES, modes = MODES, rounds = 8, pairedRounds = 6, duration = 2,
  warmup = 1, connections = 50, seed = 1, count = true, serverFlags = [], onWindow = null, onProgress = () => {} } = {}) {
  const result = { settings: { modes, rounds, pairedRounds, duration, warmup, connections, seed },
    identity: common.buildIdentity(), workloads: {} };
  const run = names.map((name) => workloads.workload(name).name);
  const planned = { solo: rounds, paired: pairedRounds };
  const steps = run.length * (modes.reduce((sum, m) => sum + planned[m], 0) + (count ? 1 : 0));
  let step = 0;
  const progress = (what) => onProgress({ step: step++, steps, what });
  const loader = createLoader();
  try {
    for (const workload of run) {
      const w = { description: workloads.workload(workload).description, digest: workloads.digest(workloads.requests(workload, { seed })) };
      result.workloads[workload] = w;
      const each = (round, mode, seconds = duration, counted = false) => common.round({ round, paired: mode === 'paired',
        warmup, duration: seconds, start: (p) => startServer(p, workload, { count: counted, nodeFlags: serverFlags }),
        load: (targets) => loader.load({ workload, seed, connections, seconds: warmup + seconds + 1.5, targets }),
        onWindow: mode === 'paired' && !counted && onWindow && ((pids, s) => onWindow(pids, s, workload, round)) });
      for (const mode of modes) {
        w[mode] = await common.series(planned[mode], (round) => {
          progress(`${workload}: ${mode} round ${round + 1}/${planned[mode]}`);
          return each(round, mode);
        });
      }
      if (count) {
        progress(`${workload}: nextTicks and emits`);
        const c = await each(0, 'paired', 1, true);
        w.counts = Object.fromEntries(common.PARSERS.map((p) => [p, { ticks: c[p].ticks / c[p].requests,
          emits: c[p].emits / c[p].requests }]));
      }
    }
  } finally {
    await loader.close();
  }
  result.changed = result.identity !== common.buildIdentity();
  return result;
}

// One line per workload: CPU µs per request, the solo ratio, the paired one, the counts.
function describe(result) {
  const f = (x, d = 3) => (Number.isFinite(x) ? x.toFixed(d) : '—');
  const s = result.settings;
  const lines = [`llhttp-napi at ${result.identity}; ${s.connections} keep-alive connections, ` +
    `${s.modes.map((m) => `${m === 'solo' ? s.rounds : s.pairedRounds} ${m} rounds`).join(', ')} × ${s.duration} s ` +
    `after ${s.warmup} s; CPU per request, napi / builtin (lower is better), median of the rounds (95% interval)`];
  if (result.changed) lines.push('WARNING: lib/ or src/ changed during the run');
  for (const [name, w] of Object.entries(result.workloads)) {
    const part = (mode) => {
      const st = w[mode] && w[mode].stats;
      return st ? `${mode} ${f(st.median)} (${f(st.ci[0])}–${f(st.ci[1])}) [rounds ${w[mode].rounds.map((r) => f(r.ratio)).join(' ')}]` : null;
    };
    const st = (w.solo || w.paired).stats;
    lines.push(`${name}: µs/req builtin ${f(st.builtin, 1)}, napi ${f(st.napi, 1)}; ${[part('solo'), part('paired')].filter(Boolean).join('; ')}` +
      (w.counts ? `; per request builtin ${f(w.counts.builtin.ticks, 2)} nextTicks ${f(w.counts.builtin.emits, 2)} emits, ` +
        `napi ${f(w.counts.napi.ticks, 2)} / ${f(w.counts.napi.emits, 2)}` : ''));
    for (const mode of MODES) {
      for (const r of (w[mode] && w[mode].rounds) || []) {
        for (const p of common.PARSERS) if (r[p].parser !== p) lines.push(`  WARNING: the ${p} server parsed with ${r[p].parser}`);
      }
    }
  }
  return lines.join('\n');
}

module.exports = { e2e, describe };

if (require.main === module) {
  common.main(({ option }) => e2e({ workloads: option('workload', workloads.NAMES), modes: option('mode', MODES),
    rounds: option('rounds', 8), duration: option('duration', 2),
    onProgress: ({ step, steps, what }) => common.progress(`server.js: ${what} (${step + 1}/${steps})`) }), describe);
}
