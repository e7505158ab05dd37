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
// (common.ratioStats), with each side's median µs per request (user +
// system, then each) and requests per second. Then one counting round
// (paired, with nextTicks and emits counted): per request. It measures the
// node that runs it:
//   $(node scripts/dev/test-lines.js --print 24) benchmark/server.js --workload=browser
//
// --client=c loads the servers with benchmark/c/load-client.c instead of
// autocannon: autocannon spends more CPU per request than a fast server, so
// that on two cores it sets the pace and the server idles between reads;
// load-client keeps the server's core busy (it needs a C compiler). --floor
// (solo rounds, workloads without bodies) adds benchmark/c/floor-server.c
// after each round's pair: one read and one fixed answer a request, in C,
// what the kernel's share alone costs, reported ÷ the built-in's round.
//
//   node benchmark/server.js [--workload=hello,browser,...|all] [--mode=solo,paired] [--rounds=8]
//        [--duration=2] [--client=autocannon|c] [--floor] [--json]

const path = require('node:path');
const { spawn } = require('node:child_process');
const { build } = require('./c-programs');
const ss = require('simple-statistics');
const common = require('./common');
const workloads = require('./server-workloads');

const MODES = ['solo', 'paired'];

function startServer(parser, workload, { count = false, nodeFlags = [] } = {}) {
  return common.ipcChild(common.pinned(common.MEASURED_CPU, [process.execPath, ...nodeFlags,
    path.join(__dirname, 'server-child.js'), `--parser=${parser}`, `--workload=${workload}`,
    ...(count ? ['--count'] : [])]), `server (${parser})`);
}

// floor-server.c alone on the measured CPU under the same load for one
// window: { cpuUsPerRequest, userUsPerRequest, systemUsPerRequest,
// requestsPerSecond }, its answers counted by itself (at SIGUSR1).
async function floorWindow(loader, { workload, seed, connections, warmup, duration, client }) {
  const [file, ...args] = common.pinned(common.MEASURED_CPU, [build('floor-server')]);
  const proc = spawn(file, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  const lines = [];
  let waiting = null;
  let out = '';
  proc.stdout.setEncoding('utf8').on('data', (text) => {
    out += text;
    for (let end; (end = out.indexOf('\n')) >= 0; out = out.slice(end + 1)) lines.push(JSON.parse(out.slice(0, end)));
    if (waiting && lines.length) waiting(lines.shift());
  });
  const line = () => new Promise((resolve) => {
    if (lines.length) resolve(lines.shift());
    else waiting = (l) => { waiting = null; resolve(l); };
  });
  const answered = async () => {
    proc.kill('SIGUSR1');
    return (await line()).answered;
  };
  try {
    const { port } = await line();
    const run = await loader.load({ workload, seed, connections, seconds: warmup + duration + 1.5,
      targets: [{ tag: 'floor', port }], client });
    await common.sleep(warmup * 1000);
    const first = await answered();
    const cpu0 = common.cpuSeconds(proc.pid);
    const t0 = process.hrtime.bigint();
    await common.sleep(duration * 1000);
    const cpu = common.cpuSeconds(proc.pid);
    const requests = (await answered()) - first;
    const wall = Number(process.hrtime.bigint() - t0) / 1e9;
    run.stop();
    await run.done();
    return common.perRequest(cpu0, cpu, requests, wall);
  } finally {
    proc.kill('SIGKILL');
  }
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
  warmup = 1, connections = 50, seed = 1, count = true, client = 'autocannon', floor = false, serverFlags = [], onWindow = null,
  onProgress = () => {} } = {}) {
  const result = { settings: { modes, rounds, pairedRounds, duration, warmup, connections, seed, client },
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
        load: (targets) => loader.load({ workload, seed, connections, seconds: warmup + seconds + 1.5, targets, client }),
        onWindow: mode === 'paired' && !counted && onWindow && ((pids, s) => onWindow(pids, s, workload, round)) });
      const floored = floor && workloads.requests(workload, { seed }).every((req) => !req.body);
      for (const mode of modes) {
        w[mode] = await common.series(planned[mode], async (round) => {
          progress(`${workload}: ${mode} round ${round + 1}/${planned[mode]}`);
          const r = await each(round, mode);
          if (floored && mode === 'solo' && !r.unavailable) {
            r.floor = await floorWindow(loader, { workload, seed, connections, warmup, duration, client });
            r.floor.ratio = r.floor.cpuUsPerRequest / r.builtin.cpuUsPerRequest;
          }
          return r;
        });
        if (floored && mode === 'solo') w.floor = common.ratioStats(w.solo.rounds.map((r) => r.floor.ratio));
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
  const lines = [`llhttp-napi at ${result.identity}; ${s.connections} keep-alive connections (${s.client || 'autocannon'}), ` +
    `${s.modes.map((m) => `${m === 'solo' ? s.rounds : s.pairedRounds} ${m} rounds`).join(', ')} × ${s.duration} s ` +
    `after ${s.warmup} s; CPU per request, napi / builtin (lower is better), median of the rounds (95% interval)`];
  if (result.changed) lines.push('WARNING: lib/ or src/ changed during the run');
  for (const [name, w] of Object.entries(result.workloads)) {
    const part = (mode) => {
      const st = w[mode] && w[mode].stats;
      return st ? `${mode} ${f(st.median)} (${f(st.ci[0])}–${f(st.ci[1])}) [rounds ${w[mode].rounds.map((r) => f(r.ratio)).join(' ')}]` : null;
    };
    const st = (w.solo || w.paired).stats;
    const side = (p) => `${p} ${f(st[p], 1)} (user ${f(st[`${p}User`], 1)}, system ${f(st[`${p}System`], 1)}; ` +
      `${f(st[`${p}Rps`] / 1000, 1)}k req/s)`;
    lines.push(`${name}: µs/req ${side('builtin')}, ${side('napi')}; ${[part('solo'), part('paired')].filter(Boolean).join('; ')}` +
      (w.counts ? `; per request builtin ${f(w.counts.builtin.ticks, 2)} nextTicks ${f(w.counts.builtin.emits, 2)} emits, ` +
        `napi ${f(w.counts.napi.ticks, 2)} / ${f(w.counts.napi.emits, 2)}` : ''));
    if (w.floor) {
      const floors = w.solo.rounds.map((r) => r.floor);
      const median = (key) => ss.median(floors.map((x) => x[key]));
      lines.push(`  floor (floor-server.c): ${f(median('cpuUsPerRequest'), 1)} µs/req (user ${f(median('userUsPerRequest'), 1)}, ` +
        `system ${f(median('systemUsPerRequest'), 1)}; ${f(median('requestsPerSecond') / 1000, 1)}k req/s), ÷ builtin ` +
        `${f(w.floor.median)} (${f(w.floor.ci[0])}–${f(w.floor.ci[1])})`);
    }
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
    rounds: option('rounds', 8), duration: option('duration', 2), client: option('client', 'autocannon'),
    floor: option('floor', false),
    onProgress: ({ step, steps, what }) => common.progress(`server.js: ${what} (${step + 1}/${steps})`) }), describe);
}
