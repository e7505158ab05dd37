'use strict';
// The request of bench-parser.js split into `frags` pieces of (nearly) equal
// size, each fed to its own execute(), then initialize(): the case where
// headers span several execute() calls.
//
//   node benchmark/bench-parser-fragmented.js [--parser=builtin|napi] [len=8] [frags=4] [n=100000]

const common = require('./common');

function main({ parser: which, len, frags, n }, timer) {
  const HTTPParser = common.loadParser(which);
  const REQUEST = HTTPParser.REQUEST;
  const kOnHeaders = HTTPParser.kOnHeaders | 0;
  const kOnHeadersComplete = HTTPParser.kOnHeadersComplete | 0;
  const kOnBody = HTTPParser.kOnBody | 0;
  const kOnMessageComplete = HTTPParser.kOnMessageComplete | 0;

  const header = common.benchRequest(len);
  const size = Math.ceil(header.length / frags);
  const fragments = [];
  for (let at = 0; at < header.length; at += size) {
    fragments.push(header.subarray(at, Math.min(at + size, header.length)));
  }
  if (fragments.length !== frags) throw new Error(`split into ${fragments.length} pieces, not ${frags}`);

  const parser = new HTTPParser();
  parser.initialize(REQUEST, {});
  parser.headers = [];
  parser[kOnHeaders] = function() {};
  let completed = 0;
  parser[kOnHeadersComplete] = function() {};
  parser[kOnBody] = function() {};
  parser[kOnMessageComplete] = function() { completed++; };

  // Check once, outside the timed loop, that the pieces parse whole.
  for (const frag of fragments) {
    const ret = parser.execute(frag, 0, frag.length);
    if (ret !== frag.length) throw new Error(`execute returned ${ret}, expected ${frag.length}`);
  }
  if (completed !== 1) throw new Error('the message did not complete');
  parser.initialize(REQUEST, {});

  timer.start();
  for (let i = 0; i < n; i++) {
    for (let f = 0; f < fragments.length; f++) {
      const frag = fragments[f];
      parser.execute(frag, 0, frag.length);
    }
    parser.initialize(REQUEST, {});
  }
  return timer.end(n);
}

common.createBenchmark(__filename, 'http/bench-parser-fragmented.js',
                       { n: [1e5], len: [8, 16], frags: [2, 4, 8] }, main);
