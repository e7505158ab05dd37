'use strict';
// Paired, in-process comparison: the built-in and llhttp-napi parse the same
// messages (optionally in `frags` pieces) in alternating batches in one
// process (builtin, napi, napi, builtin, ...), after a warm-up, so that both
// see the same moments of a busy machine. The ratio of each pair of batches
// is one sample; reported: the median ratio and the geometric mean with its
// 95 % interval (t on the log ratios). A steady-state figure (JIT warm-up
// excluded), less sensitive to noise than fresh-process runs.
//
// vary=0: the bench-parser request (`len` X-Filler headers) every time, cut
// into equal pieces; vary=1: `count` distinct corpus messages
// (benchmark/corpus.js) round-robin, each parser going through the same
// sequence, cut at pseudo-random points; kind=response for responses.
//
//   node benchmark/paired.js [len=8] [frags=1] [vary=0] [kind=request] [count=1000]
//        [--batches=40] [--batch=4000] [--warmup=30000] [--clock=wall|cpu] [--json]

const common = require('./common');
const stats = require('./stats');

function timeBatch(loop, n, timer) {
  timer.start();
  loop(n);
  return timer.end(n);
}

function paired({ len = 8, frags = 1, vary = 0, kind = 'request', count = 1000, batches = 40, batch = 4000,
  warmup = 30000, clock = 'wall' } = {}) {
  const timer = new common.Timer(clock);
  const work = common.workload({ vary, kind, len, count, frags });
  const loops = {};
  for (const which of common.PARSERS) {
    const HTTPParser = common.loadParser(which);
    common.verifyWorkload(HTTPParser, work);
    const TYPE = HTTPParser[work.type];
    // One loop per parser, each compiled on its own (see common.parseLoop).
    loops[which] = common.parseLoop(which, common.makeParser(HTTPParser, TYPE), work.pieces, TYPE);
  }
  for (let done = 0; done < warmup; done += 1000) {
    loops.builtin(1000);
    loops.napi(1000);
  }
  const rates = { builtin: [], napi: [] };
  const ratios = [];
  for (let b = 0; b < batches; b++) {
    const r = {};
    for (const which of common.roundOrder(b)) r[which] = timeBatch(loops[which], batch, timer);
    rates.builtin.push(r.builtin);
    rates.napi.push(r.napi);
    ratios.push(r.napi / r.builtin);
  }
  const { geoMean, ci } = stats.geoMeanInterval(ratios);
  return {
    len: vary === 1 || kind === 'response' ? null : len, frags, vary, kind, count: vary === 1 ? count : null, batches, batch, warmup, clock,
    builtin: stats.median(rates.builtin),
    napi: stats.median(rates.napi),
    medianRatio: stats.median(ratios),
    geoMean,
    ci,
    ratios,
  };
}

function label(r) {
  const parts = [];
  if (r.len !== null) parts.push(`len=${r.len}`);
  parts.push(`frags=${r.frags}`, `vary=${r.vary}`);
  if (r.kind !== 'request') parts.push(`kind=${r.kind}`);
  if (r.count !== null) parts.push(`count=${r.count}`);
  return parts.join(' ');
}

module.exports = { paired, label };

if (require.main === module) {
  const { options, overrides } = common.parseArgs();
  const seen = new Set();
  const configs = common.product({ len: overrides.len || [8], frags: overrides.frags || [1], vary: overrides.vary || [0],
    kind: overrides.kind || ['request'], count: overrides.count || [1000] });
  for (const conf of configs) {
    const key = JSON.stringify(common.shownParserConf({ ...conf }));
    if (seen.has(key)) continue;
    seen.add(key);
    const r = paired({
      ...conf,
      batches: Number(options.batches || 40), batch: Number(options.batch || 4000),
      warmup: Number(options.warmup || 30000),
      clock: options.clock || 'wall',
    });
    if (options.json) {
      console.log(JSON.stringify(r));
    } else {
      console.log(`paired ${label(r)}: builtin ${common.formatRate(Math.round(r.builtin))} ops/s, ` +
                  `napi ${common.formatRate(Math.round(r.napi))} ops/s, ratio median ${r.medianRatio.toFixed(3)}, ` +
                  `geometric mean ${r.geoMean.toFixed(3)} (95% CI ${common.formatInterval(r.ci, 3)}, ${r.batches} pairs of ${r.batch})`);
    }
  }
}
