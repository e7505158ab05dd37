'use strict';
// The parser alone, in the shape of Node's benchmark/http/bench-parser.js:
// n messages, each with execute() (one per piece) then initialize(), timed.
//
//   len    X-Filler headers of the repeated request (vary=0)
//   vary   0: one message again and again (Node's benchmark); 1: `count`
//          distinct realistic messages of corpus.js, round-robin (real traffic)
//   frags  pieces per message, one execute() each: equal sizes for vary=0 (as
//          Node's bench-parser-fragmented.js), pseudo-random cuts for vary=1
//   kind   request or response
//
//   node benchmark/parser.js [--parser=builtin|napi] [len=8] [vary=0,1] [frags=1] [kind=request]
//        [count=1000] [n=100000] [--clock=wall|cpu]
//
// One line per configuration in Node's format (ops/s), each in a fresh
// process when there are several:
//   http/bench-parser.js parser=napi n=100000 len=8 vary=0: 1,395,311.5

const common = require('./common');

// The keys a line shows: len only for the repeated request, count only for
// the corpus, frags only for pieces.
function shown(conf) {
  if (Number(conf.vary) === 1 || conf.kind === 'response') delete conf.len;
  if (Number(conf.vary) !== 1) delete conf.count;
  if (conf.kind === 'request') delete conf.kind;
  if (Number(conf.frags) === 1) delete conf.frags;
  return conf;
}

// The first message is checked before the clock starts and all after it, so
// that the check does not warm the JIT up on the corpus first.
function main({ parser: which, len, frags, n, vary, kind, count, clock }) {
  const HTTPParser = common.loadParser(which);
  const work = common.workload({ vary, kind, len, count, frags });
  const TYPE = HTTPParser[work.type];
  common.verifyWorkload(HTTPParser, { type: work.type, pieces: work.pieces.slice(0, 1) });
  const loop = common.parseLoop(which, common.makeParser(HTTPParser, TYPE), work.pieces, TYPE);
  const t = common.timer(clock);
  t.start();
  loop(n);
  const rate = t.end(n);
  common.verifyWorkload(HTTPParser, work);
  return rate;
}

module.exports = { shown };

if (require.main === module) {
  common.createBenchmark(__filename, 'http/bench-parser.js',
    { n: [1e5], len: [8], vary: [0, 1], frags: [1], kind: ['request'], count: [1000] }, main, shown);
}
