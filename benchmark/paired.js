'use strict';
// The steady state: the built-in and llhttp-napi parse the same messages in
// one process, after a warm-up, in alternating batches (builtin, napi, napi,
// builtin, ...), so that both see the same moments of a busy machine. Each
// pair of batches gives one ratio, ours / the built-in in ops/s (higher is
// better); the figure is their median with its 95% interval
// (common.ratioStats). The settings are parser.js's (len, vary, frags, kind,
// count); with vary=1 each parser goes through the same corpus sequence.
//
//   node benchmark/paired.js [len=8] [vary=1] [frags=1,3] [kind=request] [count=1000]
//        [--batches=40] [--clock=cpu|wall] [--json]

const common = require('./common');
const { shown } = require('./parser');

const CONFIGS = { len: [8], vary: [0], frags: [1], kind: ['request'], count: [1000] };

function paired({ len = 8, frags = 1, vary = 0, kind = 'request', count = 1000, batches = 40, batch = 4000,
  warmup = 30000, clock = 'cpu' } = {}) {
  const work = common.workload({ vary, kind, len, count, frags });
  const loops = {};
  for (const which of common.PARSERS) {
    const HTTPParser = common.loadParser(which);
    common.verifyWorkload(HTTPParser, work);
    const TYPE = HTTPParser[work.type];
    loops[which] = common.parseLoop(which, common.makeParser(HTTPParser, TYPE), work.pieces, TYPE);
  }
  for (let done = 0; done < warmup; done += 1000) {
    loops.builtin(1000);
    loops.napi(1000);
  }
  const t = common.timer(clock);
  const ratios = [];
  for (let b = 0; b < batches; b++) {
    const rate = {};
    for (const which of common.roundOrder(b)) {
      t.start();
      loops[which](batch);
      rate[which] = t.end(batch);
    }
    ratios.push(rate.napi / rate.builtin);
  }
  return { config: shown({ len, vary, frags, kind, count }), batches, batch, clock, ...common.ratioStats(ratios) };
}

module.exports = { paired };

if (require.main === module) {
  common.main(({ overrides, option }) => common.configurations(CONFIGS, overrides, shown).map((conf) =>
    paired({ ...conf, batches: option('batches', 40), clock: option('clock', 'cpu') })), (list) => list.map((r) =>
    `paired ${Object.entries(r.config).map(([k, v]) => `${k}=${v}`).join(' ')}: napi/builtin ${r.median.toFixed(3)} ` +
    `(95% CI ${r.ci[0].toFixed(3)}–${r.ci[1].toFixed(3)}, ${r.n} pairs of ${r.batch}, ${r.clock} clock)`).join('\n'));
}
