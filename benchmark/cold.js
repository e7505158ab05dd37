'use strict';
// The parse cold, as in a server: before each message of the distinct corpus
// runs, untimed, what a server does between two parses, which pushes the
// parser's code and data out of the caches: node:http's own per-request work
// (an IncomingMessage given the previous message's headers, a ServerResponse
// whose head is made) and a 256 KiB window of a 64 MiB buffer written and
// read one cache line at a time. Only execute() + initialize() is timed
// (performance.now() around it, less an empty timed region). Both parsers in
// one process, alternating batches; the figure is the median of the
// per-pair ratios, built-in time / ours (higher is better), with its 95%
// interval (common.ratioStats).
//
//   node benchmark/cold.js [--batches=16] [--json]

const http = require('node:http');
const { performance } = require('node:perf_hooks');
const { median } = require('simple-statistics');
const common = require('./common');
const corpus = require('./corpus');

const memory = new Uint8Array(64 << 20);
const WINDOW = 256 << 10;
let windowAt = 0;
const fakeSocket = { readable: true, writable: true, on() {}, once() {}, removeListener() {}, destroy() {} };
let lastHeaders = [];

// What a server does between two parses (untimed).
function otherWork() {
  let sum = 0;
  const end = windowAt + WINDOW;
  for (let i = windowAt; i < end; i += 64) {
    memory[i] = (memory[i] + 1) & 0xff;
    sum += memory[i + 32];
  }
  windowAt = end >= memory.length ? 0 : end;
  const req = new http.IncomingMessage(fakeSocket);
  req._addHeaderLines(lastHeaders, lastHeaders.length);
  const res = new http.ServerResponse(req);
  res.setHeader('Content-Type', 'text/html; charset=utf-8');
  res.setHeader('Cache-Control', 'no-store');
  res._storeHeader('HTTP/1.1 200 OK\r\n', res[Object.getOwnPropertySymbols(res).find((s) => s.description === 'kOutHeaders')] || null);
  return sum + (req.headers.host ? 1 : 0);
}

// The headers the next message's node:http work is given.
function onHeadersComplete(major, minor, headers) {
  if (headers !== undefined) lastHeaders = headers;
  return 0;
}

// One loop per parser, compiled apart (see common.parseLoop); `parser` null
// times an empty region. Returns the ms spent in the timed regions of n messages.
function makeLoop(which, parser, messages, REQUEST) {
  const parse = parser ? 'parser.execute(messages[j]); parser.initialize(REQUEST, {});' : '';
  return new Function('parser', 'messages', 'REQUEST', 'otherWork', 'performance', `
    let j = 0;
    let sink = 0;
    return function cold_${which}(n) {
      let total = 0;
      for (let i = 0; i < n; i++) {
        sink += otherWork();
        const t0 = performance.now();
        ${parse}
        total += performance.now() - t0;
        j = j + 1 === messages.length ? 0 : j + 1;
      }
      if (sink === -1) console.log(sink);
      return total;
    };`)(parser, messages, REQUEST, otherWork, performance);
}

function cold({ batches = 16, batch = 1000, warmup = 4000 } = {}) {
  const messages = corpus.corpusBuffers('request', 1000, 1);
  const loops = { empty: makeLoop('empty', null, messages, 0) };
  for (const which of common.PARSERS) {
    const HTTPParser = common.loadParser(which);
    loops[which] = makeLoop(which, common.makeParser(HTTPParser, HTTPParser.REQUEST, { kOnHeadersComplete: onHeadersComplete }),
      messages, HTTPParser.REQUEST);
  }
  for (const loop of Object.values(loops)) loop(warmup);
  const ratios = [];
  const us = { builtin: [], napi: [] };
  for (let b = 0; b < batches; b++) {
    const empty = loops.empty(batch) / batch;
    const t = {};
    for (const which of common.roundOrder(b)) t[which] = loops[which](batch) / batch - empty;
    for (const which of common.PARSERS) us[which].push(t[which] * 1000);
    ratios.push(t.builtin / t.napi);
  }
  return { batches, batch, builtinUs: median(us.builtin), napiUs: median(us.napi), ...common.ratioStats(ratios) };
}

module.exports = { cold };

if (require.main === module) {
  common.main(({ option }) => cold({ batches: option('batches', 16) }), (r) => `cold: distinct requests, µs per parse ` +
    `builtin ${r.builtinUs.toFixed(2)}, napi ${r.napiUs.toFixed(2)}; builtin/napi ${r.median.toFixed(3)} ` +
    `(95% CI ${r.ci[0].toFixed(3)}–${r.ci[1].toFixed(3)}, ${r.n} pairs of ${r.batch})`);
}
