'use strict';
// The shape of Node's benchmark/http/bench-parser.js: messages parsed `n`
// times, each time execute() then initialize(), with the handlers Node's
// benchmark sets.
//
//   vary=0  one request (request line, Content-Type, `len` X-Filler headers),
//           the same bytes every time: Node's benchmark, unchanged;
//   vary=1  `count` distinct realistic messages from benchmark/corpus.js
//           (browsers, API clients, bots; cookies, ids, paths, ETags, bodies
//           differ), message i % count at iteration i: real traffic;
//   kind=response  responses instead of requests (vary=0: the corpus's first
//           response repeated).
//
//   node benchmark/bench-parser.js [--parser=builtin|napi] [len=8] [vary=0|1] [kind=request]
//        [count=1000] [n=100000] [--clock=wall|cpu|both]
//
// Prints one line per configuration in Node's format (ops/s):
//   http/bench-parser.js parser=napi n=100000 len=8 vary=0: 1,395,311.5
//   http/bench-parser.js parser=napi n=100000 vary=1 count=1000: 702,113.4

const common = require('./common');

// (The timed loop, common.parseLoop, is paired.js's too.)
common.createBenchmark(__filename, 'http/bench-parser.js',
                       { n: [1e5], len: [4, 8, 16, 32], vary: [0, 1], kind: ['request'], count: [1000] },
                       common.timeParse, { shown: common.shownParserConf });
