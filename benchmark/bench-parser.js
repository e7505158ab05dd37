'use strict';
// The shape of Node's benchmark/http/bench-parser.js: one request (request
// line, Content-Type, `len` X-Filler headers) parsed `n` times, each time
// execute() then initialize(), with the handlers Node's benchmark sets.
//
//   node benchmark/bench-parser.js [--parser=builtin|napi] [len=8] [n=100000]
//
// Prints one line per configuration in Node's format (ops/s):
//   http/bench-parser.js parser=napi n=100000 len=8: 1,395,311.5

const common = require('./common');

function main({ parser: which, len, n }, timer) {
  const HTTPParser = common.loadParser(which);
  const REQUEST = HTTPParser.REQUEST;
  const kOnHeaders = HTTPParser.kOnHeaders | 0;
  const kOnHeadersComplete = HTTPParser.kOnHeadersComplete | 0;
  const kOnBody = HTTPParser.kOnBody | 0;
  const kOnMessageComplete = HTTPParser.kOnMessageComplete | 0;

  const header = common.benchRequest(len);

  const parser = new HTTPParser();
  parser.initialize(REQUEST, {});
  parser.headers = [];
  parser[kOnHeaders] = function() {};
  parser[kOnHeadersComplete] = function() {};
  parser[kOnBody] = function() {};
  parser[kOnMessageComplete] = function() {};

  // Check once, outside the timed loop, that the message parses whole.
  const first = parser.execute(header, 0, header.length);
  if (first !== header.length) throw new Error(`execute returned ${first}, expected ${header.length}`);
  parser.initialize(REQUEST, {});

  timer.start();
  for (let i = 0; i < n; i++) {
    parser.execute(header, 0, header.length);
    parser.initialize(REQUEST, {});
  }
  return timer.end(n);
}

common.createBenchmark(__filename, 'http/bench-parser.js', { n: [1e5], len: [4, 8, 16, 32] }, main);
