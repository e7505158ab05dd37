'use strict';
// End to end: node:http servers with the built-in parser and with
// llhttp-napi's install(), CPU time per request (utime + stime of all the
// server's threads, /proc/<pid>/stat, over a measured window, divided by the
// requests it answered in it), ours / the built-in. Two ways of running the
// rounds, reported in this order:
//
//   solo    (production-like, reported first) one server at a time, alone on
//           CPU 0, loaded from CPU 1, the two parsers' servers in turn with the
//           order alternating each round, a fresh server each time
//           (rounds.js): one process per core, as servers run in production;
//   paired  both servers at once (fresh children, both pinned to CPU 0), loaded
//           at once from one load process (CPU 1) over the same window, so
//           both see the same moments of a busy machine; the two evict each
//           other's caches between requests, which punishes the larger
//           working set (docs/benchmarks.md).
//
// Each figure is the median over rounds of ours/built-in with its 95% interval
// (distribution-free, from order statistics; the geometric mean with its
// t-interval is shown beside it).
//
// Then one counting round (paired, with async_hooks counting TickObject inits
// and a wrapped EventEmitter.prototype.emit; counters reset after the
// warm-up): nextTicks and emits per request. Counting is separate because the
// hooks cost CPU.
//
// Workloads (benchmark/server-workloads.js): hello, browser, post-json,
// upload, express, fastify, and net-echo (our parser driven directly on
// node:net by examples/net-server.js against a node:http server giving the
// same JSON echo). It measures the node binary that runs it, so per line:
//   $(node scripts/dev/test-lines.js --print 24) benchmark/server.js --workload=browser
//
//   node benchmark/server.js [--workload=hello,browser,post-json,upload,express,fastify,net-echo]
//        [--mode=solo,paired] [--rounds=9] [--paired-rounds=ROUNDS] [--duration=3] [--warmup=1.5]
//        [--connections=50] [--seed=1]
//        [--loader=autocannon|wrk] (default: wrk when installed, else autocannon)
//        [--count-duration=2] [--no-count] [--json=FILE]
//        [--package=DIR]     (the llhttp-napi the napi server requires, default this clone; e.g. a
//                            snapshot: git archive HEAD | tar -x -C DIR, git rev-parse HEAD > DIR/REVISION,
//                            npm run build there, so that edits and rebuilds in the clone do not
//                            change what a long run measures)
//        [--cpu-prof[=DIR]] [--cpu-prof-parser=builtin|napi] (V8 CPU profile of each paired
//                            server child, 100 µs sampling, named <workload>-<parser>-<round>;
//                            node benchmark/server-profile.js RUN.json compares them per request)
//        [--perf[=DIR]]      (perf record -e cpu-clock on both servers over each paired window, JIT
//                            named with --perf-basic-prof: on-CPU µs/request by read-path category
//                            and by symbol, see server-profile.js; use few, long rounds)
//        [--server-flags=--trace-gc,...]  (node flags of the server children)
//
// One workload with the defaults takes about 2½ minutes (9 solo rounds of two
// servers, 9 paired rounds, one counting round).

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const common = require('./common');
const stats = require('./stats');
const processes = require('./processes');
const e2eRounds = require('./rounds');
const workloads = require('./server-workloads');
const profile = require('./server-profile');
const { createLoader } = require('./loaders');

const { ROOT, PARSERS } = common;
const MODES = ['solo', 'paired'];

function startServer(parser, workload, { count = false, nodeFlags = [], pkg = ROOT } = {}) {
  const argv = processes.pinned(processes.MEASURED_CPU, [process.execPath, ...nodeFlags,
    path.join(__dirname, 'server-child.js'), `--parser=${parser}`, `--workload=${workload}`, `--package=${pkg}`]);
  if (count) argv.push('--count');
  return processes.ipcChild(argv, `server (${parser})`);
}

// One server's figures over a window (processes.windowReport), with the
// loader's errors for it.
function serverFigures(w, load, count) {
  const { report, requests: n } = w;
  const l = load || {};
  return {
    requests: n, cpuSeconds: w.cpuSeconds, wallSeconds: w.wallSeconds, parserSeen: report.parser, window: report.window,
    cpuUsPerRequest: w.cpuUsPerRequest,
    requestsPerSecond: w.requestsPerSecond,
    chunksPerRequest: n ? report.chunks / n : 0,
    bytesPerRequest: n ? report.bytes / n : 0,
    ticksPerRequest: count && n ? report.ticks / n : null,
    emitsPerRequest: count && n ? report.emits / n : null,
    tickNames: count ? perRequest(report.tickNames, n) : null,
    emitNames: count ? perRequest(report.emitNames, n) : null,
    loaderErrors: l.error || (l.errors || l.non2xx || l.timeouts ?
      `errors=${l.errors || 0} non2xx=${l.non2xx || 0} timeouts=${l.timeouts || 0}` : null),
  };
}

// ------------------------------------------------------------ the rounds ----

// One server at a time, alone on its core (rounds.js).
function soloRound({ workload, loader, round, warmup, duration, connections, seed, pkg, serverFlags }) {
  return e2eRounds.soloRound({
    round, warmup, duration,
    start: (p) => startServer(p, workload, { nodeFlags: serverFlags, pkg }),
    load: (p, hello) => loader.start({ workload, seed, connections, seconds: warmup + duration + 1.5,
      targets: [{ tag: p, port: hello.port }] }),
    figures: (p, w, loads) => serverFigures(w, loads[p], false),
  });
}

// Both servers at once, one window: CPU µs per request for each.
async function pairedRound({ workload, loader, round, warmup, duration, connections, seed, count = false,
  nodeFlagsFor = () => [], pkg, perfDir = null }) {
  // Alternate which server starts (and is loaded) first.
  const order = common.roundOrder(round);
  const servers = {};
  for (const p of order) servers[p] = startServer(p, workload, { count, nodeFlags: nodeFlagsFor(p, round), pkg });
  try {
    const hello = {};
    for (const p of order) hello[p] = await servers[p].ready;
    if (hello.napi.type === 'unavailable') return { unavailable: hello.napi.reason };
    const run = await loader.start({ workload, seed, connections, seconds: warmup + duration + 1.5,
      targets: order.map((p) => ({ tag: p, port: hello[p].port })) });
    await processes.sleep(warmup * 1000);
    const cpu0 = {};
    const t0 = {};
    for (const p of order) {
      await servers[p].request('reset');
      cpu0[p] = processes.cpuSeconds(servers[p].proc.pid);
      t0[p] = process.hrtime.bigint();
    }
    const recording = perfDir ? profile.perfRecord(order.map((p) => servers[p].proc.pid), duration,
      path.join(perfDir, `${workload}-${round}.perf.data`)) : null;
    await processes.sleep(duration * 1000);
    const windows = {};
    for (const p of order) windows[p] = await processes.windowReport(servers[p], cpu0[p], t0[p]);
    run.stop();
    const loads = await run.done();
    const out = { order };
    for (const p of order) out[p] = serverFigures(windows[p], loads[p], count);
    out.ratio = out.napi.cpuUsPerRequest / out.builtin.cpuUsPerRequest;
    if (recording) {
      // perf records `duration` seconds from just after the reset: requests at the window's rate.
      const rec = await recording;
      out.perf = { recording: rec, servers: {} };
      for (const p of order) {
        out.perf.servers[p] = { pid: servers[p].proc.pid, requests: out[p].requestsPerSecond * rec.seconds };
      }
      out.perf.report = profile.perfReport(rec, out.perf.servers);
    }
    return out;
  } finally {
    await Promise.all(Object.values(servers).map((s) => s.stop()));
  }
}

function perRequest(counts, requests) {
  const out = {};
  for (const key of Object.keys(counts || {})) out[key] = requests ? counts[key] / requests : 0;
  return out;
}

// Names whose per-request counts differ between the two parsers (by 0.05 or more).
function differences(a, b) {
  const out = [];
  for (const key of new Set([...Object.keys(a || {}), ...Object.keys(b || {})])) {
    const x = (a && a[key]) || 0, y = (b && b[key]) || 0;
    if (Math.abs(x - y) >= 0.05) out.push({ key, builtin: x, napi: y });
  }
  return out.sort((p, q) => Math.abs(q.napi - q.builtin) - Math.abs(p.napi - p.builtin));
}

// ------------------------------------------------------------- session ----

async function e2e({ workloads: names = workloads.NAMES, modes = MODES, rounds = 9, pairedRounds = rounds, duration = 3,
  warmup = 1.5, connections = 50, seed = 1, loader: wanted, countDuration = 2, count = true, cpuProf = null,
  cpuProfParser = null, pkg = ROOT, serverFlags = [], perf = null, onProgress = () => {} } = {}) {
  pkg = path.resolve(pkg);
  for (const mode of modes) if (!MODES.includes(mode)) throw new Error(`unknown mode "${mode}" (solo, paired)`);
  for (const name of names) {
    if (!workloads.NAMES.includes(name)) throw new Error(`unknown workload "${name}" (one of ${workloads.NAMES.join(', ')})`);
  }
  const pairedFlags = [...serverFlags];
  if (perf) {
    if (!profile.havePerf()) throw new Error('--perf needs perf (apt-get install linux-perf)');
    fs.mkdirSync(perf, { recursive: true });
    pairedFlags.push('--perf-basic-prof');
  }
  const nodeFlagsFor = (workload) => (parser, round) => {
    if (!cpuProf || (cpuProfParser && parser !== cpuProfParser)) return pairedFlags;
    return [...pairedFlags, '--cpu-prof', '--cpu-prof-interval=100', `--cpu-prof-dir=${cpuProf}`,
      `--cpu-prof-name=${workload}-${parser}-${round}.cpuprofile`];
  };
  const loader = createLoader(wanted);
  const result = {
    loader: loader.name,
    pinned: processes.PINNED,
    settings: { modes, rounds, pairedRounds, duration, warmup, connections, seed, countDuration, count },
    started: new Date().toISOString(),
    identity: common.buildIdentity(pkg),
    loadavg: [os.loadavg()[0]],
    workloads: {},
    unavailable: null,
  };
  const planned = { solo: rounds, paired: pairedRounds };
  const steps = names.length * (modes.reduce((sum, mode) => sum + planned[mode], 0) + (count ? 1 : 0));
  let step = 0;
  // A series of rounds of one mode: { rounds, stats }.
  const series = async (workload, mode, runRound) => {
    const out = { rounds: [], stats: null };
    for (let i = 0; i < planned[mode] && !result.unavailable; i++) {
      onProgress({ step: step++, steps, what: `${workload}: ${mode} round ${i + 1}/${planned[mode]}` });
      const r = await runRound(i);
      if (r.unavailable) result.unavailable = r.unavailable;
      else out.rounds.push(r);
    }
    out.stats = e2eRounds.seriesStats(out.rounds);
    return out;
  };
  try {
    for (const workload of names) {
      const list = workloads.requests(workload, { seed });
      const w = {
        description: workloads.DESCRIPTIONS[workload],
        distinct: list.length,
        headerLines: [Math.min(...list.map(workloads.headerCount)), Math.max(...list.map(workloads.headerCount))],
        requestBytes: Math.round(stats.mean(list.map((r) => workloads.serialize(r).length))),
        digest: workloads.digest(list),
        solo: null,
        paired: null,
        counts: null,
        parsePath: null,
      };
      result.workloads[workload] = w;
      const each = { workload, loader, warmup, duration, connections, seed, pkg };
      if (modes.includes('solo')) w.solo = await series(workload, 'solo', (round) => soloRound({ ...each, round, serverFlags }));
      if (modes.includes('paired')) {
        w.paired = await series(workload, 'paired', (round) => pairedRound({ ...each, round,
          nodeFlagsFor: nodeFlagsFor(workload), perfDir: perf }));
        w.parsePath = parsePathOf(w.paired.rounds);
      }
      if (count && !result.unavailable) {
        onProgress({ step: step++, steps, what: `${workload}: tick/emit count` });
        w.counts = await pairedRound({ ...each, round: 0, warmup: Math.min(warmup, 1), duration: countDuration, count: true });
        if (w.counts.unavailable) result.unavailable = w.counts.unavailable;
      }
    }
  } finally {
    await loader.close();
  }
  result.loadavg.push(os.loadavg()[0]);
  result.warning = common.identityChange(result.identity, common.buildIdentity(pkg));
  return result;
}

// ------------------------------------------------------------- reports -----

const fmt = common.formatFixed;

// Body chunks per request, and a server that did not parse with the parser it should have.
function roundNotes(r) {
  const seen = PARSERS.filter((p) => r[p].parserSeen !== p).map((p) => `${p} server saw ${r[p].parserSeen}`);
  return (r.builtin.chunksPerRequest ? `   ${fmt(r.builtin.chunksPerRequest, 2)} / ${fmt(r.napi.chunksPerRequest, 2)}` : '') +
    (seen.length ? `  (${seen.join('; ')})` : '');
}

const SERIES_TITLES = {
  solo: 'solo rounds (production-like: one server at a time, alone on its core):',
  paired: 'paired rounds (both servers at once on one core):',
};

function describe(result) {
  const lines = [];
  const set = result.settings;
  lines.push(common.describeIdentity(result.identity || {}));
  lines.push(`load: ${result.loader}, ${set.connections} keep-alive connections per server; ` +
    (result.pinned ? `servers on CPU ${processes.MEASURED_CPU}, load on CPU ${processes.LOAD_CPU} (taskset)` :
      'not pinned (no taskset or one CPU)') +
    `; ${set.modes.map((m) => `${m === 'solo' ? set.rounds : set.pairedRounds} ${m} rounds`).join(', ')}` +
    ` × ${set.duration} s after ${set.warmup} s warm-up; load average ${result.loadavg.map((x) => x.toFixed(1)).join(' → ')}`);
  if (result.warning) lines.push(`WARNING: ${result.warning}`);
  if (result.unavailable) lines.push(`napi unavailable: ${result.unavailable}`);
  for (const [name, w] of Object.entries(result.workloads)) {
    lines.push('');
    lines.push(`== ${name}: ${w.description}`);
    lines.push(`   ${w.distinct} distinct request(s), ${w.headerLines[0]}–${w.headerLines[1]} header lines, ` +
      `${w.requestBytes} bytes on average (digest ${w.digest})`);
    for (const mode of MODES) {
      const s = w[mode];
      if (!s) continue;
      lines.push(...e2eRounds.describeSeries(SERIES_TITLES[mode], s, { extra: roundNotes,
        extraHead: s.rounds.some((r) => r.builtin.chunksPerRequest) ? '   body chunks/req' : '' }));
    }
    (w.paired ? w.paired.rounds : []).forEach((r, i) => {
      if (r.perf && r.perf.report) {
        lines.push(`   paired round ${i + 1}, ${profile.perfTable(r.perf.report, 25).split('\n').join('\n   ')}`);
      }
    });
    const pp = w.parsePath;
    if (pp) {
      lines.push(`   parse path by perf, µs/request, median of ${pp.rounds} paired round(s): builtin ${fmt(pp.builtin, 2)}, ` +
        `napi ${fmt(pp.napi, 2)}; ratio ${fmt(pp.ratio, 3)} (rounds ${fmt(pp.ratioRange[0], 3)}–${fmt(pp.ratioRange[1], 3)}); ` +
        `whole request ${fmt(pp.wholeBuiltin, 2)} / ${fmt(pp.wholeNapi, 2)}`);
    }
    const c = w.counts;
    if (c && !c.unavailable) {
      lines.push(`   per request: builtin ${fmt(c.builtin.ticksPerRequest, 2)} nextTicks, ${fmt(c.builtin.emitsPerRequest, 2)} emits; ` +
        `napi ${fmt(c.napi.ticksPerRequest, 2)} nextTicks, ${fmt(c.napi.emitsPerRequest, 2)} emits ` +
        `(${c.builtin.requests} / ${c.napi.requests} requests counted)`);
      for (const [what, key] of [['nextTicks by callback', 'tickNames'], ['emits by emitter:event', 'emitNames']]) {
        const diff = differences(c.builtin[key], c.napi[key]);
        if (diff.length) {
          lines.push(`   ${what} where they differ (builtin → napi): ` +
            diff.map((d) => `${d.key} ${fmt(d.builtin, 2)} → ${fmt(d.napi, 2)}`).join(', '));
        }
      }
    }
  }
  lines.push('');
  lines.push(summary(result));
  return lines.join('\n');
}

// The parse path by perf (server-profile.js PARSE_PATH) over the rounds
// that were recorded: medians of each parser's µs/request and of the
// per-round ratios, with their range; null without --perf.
function parsePathOf(rounds) {
  const reports = rounds.map((r) => r.perf && r.perf.report).filter(Boolean);
  if (reports.length === 0) return null;
  const range = (xs) => [Math.min(...xs), Math.max(...xs)];
  const ratios = reports.map((x) => x.napi.parsePath / x.builtin.parsePath);
  return {
    rounds: reports.length,
    builtin: stats.median(reports.map((x) => x.builtin.parsePath)),
    napi: stats.median(reports.map((x) => x.napi.parsePath)),
    ratio: stats.median(ratios),
    ratioRange: range(ratios),
    wholeBuiltin: stats.median(reports.map((x) => x.builtin.total)),
    wholeNapi: stats.median(reports.map((x) => x.napi.total)),
  };
}

// One table over the workloads: the solo figure first, the paired beside it.
function summary(result) {
  const ci = (x) => common.formatInterval(x, 3);
  const rows = [['workload', 'µs/req builtin', 'napi', 'solo ratio (median)', '95% CI', 'paired ratio (95% CI)',
    'ticks b/n', 'emits b/n', 'parse path b/n (ratio)']];
  for (const [name, w] of Object.entries(result.workloads)) {
    const solo = (w.solo && w.solo.stats) || {};
    const paired = w.paired && w.paired.stats;
    const cpu = w.solo && w.solo.stats ? solo : paired || {};
    const c = w.counts && !w.counts.unavailable ? w.counts : null;
    rows.push([name, fmt(cpu.builtin), fmt(cpu.napi), fmt(solo.median, 3), ci(solo.ci),
      paired ? `${fmt(paired.median, 3)} (${ci(paired.ci)})` : '—',
      c ? `${fmt(c.builtin.ticksPerRequest, 2)}/${fmt(c.napi.ticksPerRequest, 2)}` : '—',
      c ? `${fmt(c.builtin.emitsPerRequest, 2)}/${fmt(c.napi.emitsPerRequest, 2)}` : '—',
      w.parsePath ? `${fmt(w.parsePath.builtin, 2)}/${fmt(w.parsePath.napi, 2)} (${fmt(w.parsePath.ratio, 3)})` : '—']);
  }
  const widths = rows[0].map((_, j) => Math.max(...rows.map((r) => String(r[j]).length)));
  return rows.map((r) => r.map((cell, j) => (j === 0 ? String(cell).padEnd(widths[j]) : String(cell).padStart(widths[j])))
    .join('  ')).join('\n');
}

module.exports = { e2e, describe };

if (require.main === module) {
  const { options } = common.parseArgs();
  const listOf = (value, all) => (value === undefined || value === 'all' ? all :
    String(value).split(',').map((s) => s.trim()).filter(Boolean));
  const rounds = Number(options.rounds || 9);
  common.runProgram('server.js', (onProgress) => e2e({
    workloads: listOf(options.workload || options.workloads, workloads.NAMES),
    modes: listOf(options.mode, MODES),
    rounds,
    pairedRounds: Number(options['paired-rounds'] || rounds),
    duration: Number(options.duration || 3),
    warmup: Number(options.warmup || 1.5),
    connections: Number(options.connections || 50),
    seed: Number(options.seed || 1),
    countDuration: Number(options['count-duration'] || 2),
    count: !options['no-count'],
    loader: options.loader,
    cpuProf: options['cpu-prof'] ?
      path.resolve(options['cpu-prof'] === true ? path.join(__dirname, 'results', 'prof') : options['cpu-prof']) : null,
    cpuProfParser: options['cpu-prof-parser'] || null,
    pkg: options.package || ROOT,
    serverFlags: options['server-flags'] ? String(options['server-flags']).split(',') : [],
    perf: options.perf ? path.resolve(options.perf === true ? path.join(__dirname, 'results', 'perf') : options.perf) : null,
    onProgress,
  }), describe, options.json);
}
