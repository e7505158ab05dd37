'use strict';
// Paired, in-process comparison: the built-in and llhttp-napi parse the
// bench-parser request (optionally in `frags` pieces) in alternating batches
// in one process (builtin, napi, napi, builtin, ...), after a warm-up, so
// that both see the same moments of a busy machine. The ratio of each pair of
// batches is one sample; reported: the median ratio and the geometric mean
// with its 95 % interval (t on the log ratios). A steady-state figure (JIT
// warm-up excluded), less sensitive to noise than fresh-process runs.
//
//   node benchmark/paired.js [len=8] [frags=1] [--batches=40] [--batch=4000] [--warmup=30000]
//        [--clock=wall|cpu] [--json]

const common = require('./common');
const stats = require('./stats');

function makeParser(HTTPParser) {
  const parser = new HTTPParser();
  parser.initialize(HTTPParser.REQUEST, {});
  parser.headers = [];
  parser[HTTPParser.kOnHeaders] = function() {};
  parser[HTTPParser.kOnHeadersComplete] = function() {};
  parser[HTTPParser.kOnBody] = function() {};
  parser[HTTPParser.kOnMessageComplete] = function() {};
  return parser;
}

function pieces(buf, frags) {
  const size = Math.ceil(buf.length / frags);
  const out = [];
  for (let at = 0; at < buf.length; at += size) out.push(buf.subarray(at, Math.min(at + size, buf.length)));
  return out;
}

// One loop per parser, compiled separately (new Function), so that its call
// sites see one parser class only: closures made from the same source would
// share type feedback and make both parsers' calls polymorphic.
function makeLoop(which, parser, fragments, REQUEST) {
  const body = fragments.length === 1 ? `
    const one = fragments[0];
    return function loop_${which}(n) {
      for (let i = 0; i < n; i++) {
        parser.execute(one, 0, one.length);
        parser.initialize(REQUEST, {});
      }
    };` : `
    return function loop_${which}(n) {
      for (let i = 0; i < n; i++) {
        for (let f = 0; f < fragments.length; f++) parser.execute(fragments[f], 0, fragments[f].length);
        parser.initialize(REQUEST, {});
      }
    };`;
  // eslint-disable-next-line no-new-func
  return new Function('parser', 'fragments', 'REQUEST', `'use strict'; // ${which}\n${body}`)(parser, fragments, REQUEST);
}

function timeBatch(loop, n, timer) {
  timer.start();
  loop(n);
  return timer.end(n);
}

function paired({ len = 8, frags = 1, batches = 40, batch = 4000, warmup = 30000, clock = 'wall' } = {}) {
  const timer = new common.Timer(clock);
  const buf = common.benchRequest(len);
  const fragments = pieces(buf, frags);
  const loops = {};
  for (const which of ['builtin', 'napi']) {
    const HTTPParser = common.loadParser(which);
    loops[which] = makeLoop(which, makeParser(HTTPParser), fragments, HTTPParser.REQUEST);
  }
  for (let done = 0; done < warmup; done += 1000) {
    loops.builtin(1000);
    loops.napi(1000);
  }
  const rates = { builtin: [], napi: [] };
  const ratios = [];
  for (let b = 0; b < batches; b++) {
    const order = b % 2 === 0 ? ['builtin', 'napi'] : ['napi', 'builtin'];
    const r = {};
    for (const which of order) r[which] = timeBatch(loops[which], batch, timer);
    rates.builtin.push(r.builtin);
    rates.napi.push(r.napi);
    ratios.push(r.napi / r.builtin);
  }
  const logs = ratios.map(Math.log);
  const m = stats.mean(logs);
  const se = Math.sqrt(stats.variance(logs) / logs.length);
  const q = stats.tQuantile(0.975, logs.length - 1);
  return {
    len, frags, batches, batch, warmup, clock,
    builtin: stats.median(rates.builtin),
    napi: stats.median(rates.napi),
    medianRatio: stats.median(ratios),
    geoMean: Math.exp(m),
    ci: [Math.exp(m - q * se), Math.exp(m + q * se)],
    ratios,
  };
}

module.exports = { paired };

if (require.main === module) {
  const { options, overrides } = common.parseArgs();
  const configs = common.product({ len: overrides.len || [8], frags: overrides.frags || [1] });
  for (const conf of configs) {
    const r = paired({
      len: conf.len, frags: conf.frags,
      batches: Number(options.batches || 40), batch: Number(options.batch || 4000),
      warmup: Number(options.warmup || 30000),
      clock: options.clock || 'wall',
    });
    if (options.json) {
      console.log(JSON.stringify(r));
    } else {
      console.log(`paired len=${r.len} frags=${r.frags}: builtin ${common.formatRate(Math.round(r.builtin))} ops/s, ` +
                  `napi ${common.formatRate(Math.round(r.napi))} ops/s, ratio median ${r.medianRatio.toFixed(3)}, ` +
                  `geometric mean ${r.geoMean.toFixed(3)} (95% CI ${r.ci[0].toFixed(3)}–${r.ci[1].toFixed(3)}, ${r.batches} pairs of ${r.batch})`);
    }
  }
}
