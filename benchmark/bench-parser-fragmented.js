'use strict';
// Messages split into `frags` pieces, each piece fed to its own execute(),
// then initialize(): the case where headers span several execute() calls.
//
//   vary=0  the request of bench-parser.js (`len` X-Filler headers) cut into
//           `frags` pieces of (nearly) equal size, the same every time;
//   vary=1  `count` distinct realistic messages (benchmark/corpus.js), each
//           cut at `frags - 1` pseudo-random points (corpus.splitPoints:
//           inside names, values, the request line or the body), message
//           i % count at iteration i;
//   kind=response  responses instead of requests.
//
//   node benchmark/bench-parser-fragmented.js [--parser=builtin|napi] [len=8] [frags=4] [vary=0|1]
//        [kind=request] [count=1000] [n=100000] [--clock=wall|cpu|both]

const common = require('./common');

function main({ parser: which, len, frags, n, vary, kind, count }, timer) {
  const HTTPParser = common.loadParser(which);
  const kOnHeaders = HTTPParser.kOnHeaders | 0;
  const kOnHeadersComplete = HTTPParser.kOnHeadersComplete | 0;
  const kOnBody = HTTPParser.kOnBody | 0;
  const kOnMessageComplete = HTTPParser.kOnMessageComplete | 0;

  // All pieces made before the timed loop.
  const work = common.workload({ vary, kind, len, count, frags });
  const TYPE = HTTPParser[work.type];
  const fragments = work.pieces[0];

  const parser = new HTTPParser();
  parser.initialize(TYPE, {});
  parser.headers = [];
  parser[kOnHeaders] = function() {};
  let completed = 0;
  parser[kOnHeadersComplete] = function() {};
  parser[kOnBody] = function() {};
  parser[kOnMessageComplete] = function() { completed++; };

  // Check once, outside the timed loop, that the first message's pieces
  // parse whole (the rest of a corpus is checked after the loop).
  for (const frag of fragments) {
    const ret = parser.execute(frag, 0, frag.length);
    if (ret !== frag.length) throw new Error(`execute returned ${ret}, expected ${frag.length}`);
  }
  if (completed !== 1) throw new Error('the message did not complete');
  parser.initialize(TYPE, {});

  let rate;
  if (work.pieces.length === 1) {
    timer.start();
    for (let i = 0; i < n; i++) {
      for (let f = 0; f < fragments.length; f++) {
        const frag = fragments[f];
        parser.execute(frag, 0, frag.length);
      }
      parser.initialize(TYPE, {});
    }
    rate = timer.end(n);
  } else {
    const all = work.pieces;
    const m = all.length;
    timer.start();
    for (let i = 0; i < n; i++) {
      const pieces = all[i % m];
      for (let f = 0; f < pieces.length; f++) {
        const frag = pieces[f];
        parser.execute(frag, 0, frag.length);
      }
      parser.initialize(TYPE, {});
    }
    rate = timer.end(n);
    common.verifyWorkload(HTTPParser, work);
  }
  return rate;
}

common.createBenchmark(__filename, 'http/bench-parser-fragmented.js',
                       { n: [1e5], len: [8, 16], frags: [2, 4, 8], vary: [0, 1], kind: ['request'], count: [1000] },
                       main, { shown: common.shownParserConf });
