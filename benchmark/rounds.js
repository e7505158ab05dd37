'use strict';
// The production-like rounds of the end-to-end benchmarks (server.js,
// client.js) and how a series of rounds is summed up and printed.
//
// A solo round measures each side (the built-in, ours) in turn, the order
// alternating from round to round: a fresh measured process alone on the
// measured CPU, loaded from the other CPU, warmed up, then its CPU time over
// the window per request it reported (processes.js); one process per core, as
// a server runs in production. The round's figure is ours / the built-in.

const common = require('./common');
const stats = require('./stats');
const processes = require('./processes');

// start(side) → an ipcChild (processes.js); load(side, hello) → what loads it,
// { stop(), done() → loader counts } or null (a client loads itself);
// figures(side, window, loaderCounts) → the side's entry in the round.
async function soloRound({ round, start, load, warmup, duration, figures }) {
  const out = { order: common.roundOrder(round) };
  for (const side of out.order) {
    const child = start(side);
    try {
      const hello = await child.ready;
      if (hello.type === 'unavailable') return { unavailable: hello.reason };
      const run = await load(side, hello);
      await processes.sleep(warmup * 1000);
      const window = await processes.measureWindow(child, duration);
      if (run) run.stop();
      out[side] = figures(side, window, run ? await run.done() : null);
    } finally {
      await child.stop();
    }
  }
  out.ratio = out.napi.cpuUsPerRequest / out.builtin.cpuUsPerRequest;
  return out;
}

// A series of rounds: the ratio's statistics (stats.ratioStats) and each
// side's median CPU µs per request; null without a finite ratio.
function seriesStats(rounds) {
  const ratios = rounds.map((r) => r.ratio).filter(Number.isFinite);
  if (!ratios.length) return null;
  const out = stats.ratioStats(ratios);
  for (const p of common.PARSERS) out[p] = stats.median(rounds.map((r) => r[p].cpuUsPerRequest));
  return out;
}

// "ratio napi/builtin: median 0.958 (95% CI 0.948–0.964, order statistics, coverage 96.9%); geometric mean ..."
function describeStats(s) {
  const f = common.formatFixed;
  return `ratio napi/builtin: median ${f(s.median, 3)} (95% CI ${common.formatInterval(s.ci, 3)}` +
    (s.coverage ? `, order statistics, coverage ${(s.coverage * 100).toFixed(1)}%` : ', needs ≥ 6 rounds') +
    `); geometric mean ${f(s.geoMean, 3)} (95% CI ${common.formatInterval(s.geoCi, 3)}, ` +
    `p ${s.p === null ? '—' : s.p.toPrecision(2)}) ${s.stars}`;
}

// The lines of a series: one per round (CPU µs per `unit`, the ratio,
// `unit`s per second, and the column `extraHead` with `extra(round)`), then
// its statistics.
function describeSeries(title, series, { unit = 'req', indent = '   ', extraHead = '', extra = () => '' } = {}) {
  const f = common.formatFixed;
  const lines = [`${indent}${title}`,
    `${indent}round  CPU µs/${unit} builtin   napi   ratio   ${unit}/s builtin / napi${extraHead}`];
  series.rounds.forEach((r, i) => {
    const notes = common.PARSERS.filter((p) => r[p].loaderErrors).map((p) => `${p}: ${r[p].loaderErrors}`);
    lines.push(`${indent}${String(i + 1).padStart(5)}  ${f(r.builtin.cpuUsPerRequest).padStart(15 + unit.length)}  ` +
      `${f(r.napi.cpuUsPerRequest).padStart(6)}  ${f(r.ratio, 3).padStart(6)}   ` +
      `${f(r.builtin.requestsPerSecond, 0).padStart(4 + unit.length)} / ${f(r.napi.requestsPerSecond, 0).padEnd(6)}` +
      extra(r) + (notes.length ? `  (${notes.join('; ')})` : ''));
  });
  const s = series.stats;
  if (s) {
    lines.push(`${indent}${describeStats(s)}`);
    lines.push(`${indent}CPU µs/${unit}, medians: builtin ${f(s.builtin)}, napi ${f(s.napi)}`);
  }
  return lines;
}

module.exports = { soloRound, seriesStats, describeSeries };
