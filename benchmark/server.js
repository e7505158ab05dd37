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
//        [--paired-rounds=6] [--duration=2] [--warmup=1] [--connections=50] [--no-count]
//        [--package=DIR] [--json=FILE]

const fs = require('node:fs');
const path = require('node:path');
const common = require('./common');
const workloads = require('./server-workloads');

const MODES = ['solo', 'paired'];

function startServer(parser, workload, { count = false, pkg, nodeFlags = [] }) {
  return common.ipcChild(common.pinned(common.MEASURED_CPU, [process.execPath, ...nodeFlags,
    path.join(__dirname, 'server-child.js'), `--parser=${parser}`, `--workload=${workload}`, `--package=${pkg}`,
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

// Both servers at once, one window. onWindow({ builtin: pid, napi: pid },
// seconds, workload, round) is called as the window opens and may return a
// promise (server-profile.js records the window with perf).
async function pairedRound({ workload, loader, round, warmup, duration, connections, seed, count = false, pkg,
  serverFlags, onWindow }) {
  const order = common.roundOrder(round);
  const servers = Object.fromEntries(order.map((p) => [p, startServer(p, workload, { count, pkg, nodeFlags: serverFlags })]));
  try {
    const hello = {};
    for (const p of order) hello[p] = await servers[p].ready;
    const gone = order.find((p) => hello[p].type === 'unavailable');
    if (gone) return { unavailable: hello[gone].reason };
    const run = await loader.load({ workload, seed, connections, seconds: warmup + duration + 1.5,
      targets: order.map((p) => ({ tag: p, port: hello[p].port })) });
    await common.sleep(warmup * 1000);
    const reports = {};
    for (const p of order) reports[p] = await common.startWindow(servers[p]);
    const recording = onWindow ? onWindow(Object.fromEntries(order.map((p) => [p, servers[p].proc.pid])), duration, workload, round) : null;
    await common.sleep(duration * 1000);
    const out = { order };
    for (const p of order) out[p] = await reports[p]();
    run.stop();
    const loads = await run.done();
    for (const p of order) out[p].loader = loads[p];
    out.ratio = out.napi.cpuUsPerRequest / out.builtin.cpuUsPerRequest;
    if (recording) out.recording = await recording;
    return out;
  } finally {
    await Promise.all(Object.values(servers).map((s) => s.stop()));
  }
}

async function e2e({ workloads: names = workloads.NAMES, modes = MODES, rounds = 8, pairedRounds = 6, duration = 2,
  warmup = 1, connections = 50, seed = 1, count = true, pkg = common.ROOT, serverFlags = [], onWindow = null,
  onProgress = () => {} } = {}) {
  pkg = path.resolve(pkg);
  const result = { settings: { modes, rounds, pairedRounds, duration, warmup, connections, seed },
    identity: common.buildIdentity(pkg), workloads: {} };
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
      const each = { workload, loader, warmup, duration, connections, seed, pkg, serverFlags };
      for (const mode of modes) {
        const list = [];
        for (let round = 0; round < planned[mode]; round++) {
          progress(`${workload}: ${mode} round ${round + 1}/${planned[mode]}`);
          const r = mode === 'paired' ? await pairedRound({ ...each, round, onWindow }) : await common.soloRound({ round, warmup,
            duration, start: (p) => startServer(p, workload, { pkg, nodeFlags: serverFlags }),
            load: (p, hello) => loader.load({ workload, seed, connections, seconds: warmup + duration + 1.5,
              targets: [{ tag: p, port: hello.port }] }) });
          if (r.unavailable) throw new Error(`napi unavailable: ${r.unavailable}`);
          list.push(r);
        }
        w[mode] = { rounds: list, stats: common.seriesStats(list) };
      }
      if (count) {
        progress(`${workload}: nextTicks and emits`);
        const c = await pairedRound({ ...each, round: 0, duration: 1, count: true });
        w.counts = Object.fromEntries(common.PARSERS.map((p) => [p, { ticks: c[p].ticks / c[p].requests,
          emits: c[p].emits / c[p].requests }]));
      }
    }
  } finally {
    await loader.close();
  }
  result.changed = result.identity !== common.buildIdentity(pkg);
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
  const { options } = common.parseArgs();
  const list = (value, all) => (value === undefined || value === 'all' ? all : String(value).split(','));
  const tty = process.stderr.isTTY;
  e2e({
    workloads: list(options.workload, workloads.NAMES), modes: list(options.mode, MODES),
    rounds: Number(options.rounds || 8), pairedRounds: Number(options['paired-rounds'] || 6),
    duration: Number(options.duration || 2), warmup: Number(options.warmup || 1),
    connections: Number(options.connections || 50), count: !options['no-count'], pkg: options.package || common.ROOT,
    onProgress: ({ step, steps, what }) => process.stderr.write(`${tty ? '\r\x1b[K' : ''}server.js: ${what} (${step + 1}/${steps})${tty ? '' : '\n'}`),
  }).then((result) => {
    if (tty) process.stderr.write('\r\x1b[K');
    console.log(describe(result));
    if (options.json) fs.writeFileSync(options.json, JSON.stringify(result, null, 2));
  }, (err) => {
    console.error(err.stack);
    process.exit(1);
  });
}
