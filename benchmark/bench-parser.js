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

function main({ parser: which, len, n, vary, kind, count }, timer) {
  const HTTPParser = common.loadParser(which);
  const kOnHeaders = HTTPParser.kOnHeaders | 0;
  const kOnHeadersComplete = HTTPParser.kOnHeadersComplete | 0;
  const kOnBody = HTTPParser.kOnBody | 0;
  const kOnMessageComplete = HTTPParser.kOnMessageComplete | 0;

  // All buffers made before the timed loop.
  const work = common.workload({ vary, kind, len, count });
  const TYPE = HTTPParser[work.type];
  const messages = work.buffers;
  const header = messages[0];

  const parser = new HTTPParser();
  parser.initialize(TYPE, {});
  parser.headers = [];
  parser[kOnHeaders] = function() {};
  parser[kOnHeadersComplete] = function() {};
  parser[kOnBody] = function() {};
  parser[kOnMessageComplete] = function() {};

  // Check once, outside the timed loop, that the first message parses whole
  // (the others are checked after the loop, so as not to warm up the JIT on
  // the corpus before the clock starts).
  const first = parser.execute(header, 0, header.length);
  if (first !== header.length) throw new Error(`execute returned ${first}, expected ${header.length}`);
  parser.initialize(TYPE, {});

  let rate;
  if (messages.length === 1) {
    timer.start();
    for (let i = 0; i < n; i++) {
      parser.execute(header, 0, header.length);
      parser.initialize(TYPE, {});
    }
    rate = timer.end(n);
  } else {
    const m = messages.length;
    timer.start();
    for (let i = 0; i < n; i++) {
      const buf = messages[i % m];
      parser.execute(buf, 0, buf.length);
      parser.initialize(TYPE, {});
    }
    rate = timer.end(n);
    common.verifyWorkload(HTTPParser, work);
  }
  return rate;
}

common.createBenchmark(__filename, 'http/bench-parser.js',
                       { n: [1e5], len: [4, 8, 16, 32], vary: [0, 1], kind: ['request'], count: [1000] }, main,
                       { shown: common.shownParserConf });
