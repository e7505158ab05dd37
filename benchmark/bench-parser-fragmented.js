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

// (The timed loop, common.parseLoop, is paired.js's too.)
common.createBenchmark(__filename, 'http/bench-parser-fragmented.js',
                       { n: [1e5], len: [8, 16], frags: [2, 4, 8], vary: [0, 1], kind: ['request'], count: [1000] },
                       common.timeParse, { shown: common.shownParserConf });
