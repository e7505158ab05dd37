'use strict';
// The parser when it runs cold, as in a server: between two parses a
// server runs about 20 µs of other code (node:http, the application, the
// kernel), which pushes the parser's code, objects and tables out of the
// caches. Here each message of the distinct corpus (benchmark/corpus.js) is
// preceded by that kind of work, untimed:
//
//   - node:http's own per-request objects: an IncomingMessage given the
//     previous message's headers (_addHeaderLines, as parserOnHeadersComplete
//     does) and a ServerResponse whose head is made (setHeader, _storeHeader);
//   - memory traffic: a 256 KiB window of a 64 MiB buffer, written and read
//     one cache line at a time, the window moving on each message (what the
//     kernel's socket buffers and the application's own data do to the caches);
//
// and only execute() + initialize() of the message is timed (performance.now()
// around it, less the cost of an empty timed region measured the same way).
// Both parsers run in one process, in alternating batches (builtin, napi,
// napi, builtin, ...), each through the same messages; the figure is the
// median of the per-pair ratios (built-in time / ours: above 1, ours is
// cheaper), with the geometric mean and its 95% interval.
//
//   node benchmark/cold.js [--batches=16] [--batch=1000] [--warmup=4000] [--json]

const http = require('node:http');
const { performance } = require('node:perf_hooks');
const common = require('./common');
const corpus = require('./corpus');
const stats = require('./stats');

const MEMORY = 64 << 20;
const WINDOW = 256 << 10;
const LINE = 64;

const memory = new Uint8Array(MEMORY);
let windowAt = 0;

// Touches the next window of `memory`, one byte per cache line.
function memoryTraffic() {
  let sum = 0;
  const end = windowAt + WINDOW;
  for (let i = windowAt; i < end; i += LINE) {
    memory[i] = (memory[i] + 1) & 0xff;
    sum += memory[i + 32];
  }
  windowAt = end >= MEMORY ? 0 : end;
  return sum;
}

// node:http's work for one request, on the headers of the previous message.
const fakeSocket = { readable: true, writable: true, on() {}, once() {}, removeListener() {}, destroy() {} };
let lastHeaders = [];
function nodeHttpWork() {
  const req = new http.IncomingMessage(fakeSocket);
  req._addHeaderLines(lastHeaders, lastHeaders.length);
  const res = new http.ServerResponse(req);
  res.setHeader('Content-Type', 'text/html; charset=utf-8');
  res.setHeader('Cache-Control', 'no-store');
  res._storeHeader('HTTP/1.1 200 OK\r\n', res[Object.getOwnPropertySymbols(res).find((s) => s.description === 'kOutHeaders')] || null);
  return req.headers.host;
}

function otherWork() {
  return memoryTraffic() + (nodeHttpWork() ? 1 : 0);
}

// The headers the next message's node:http work is given.
function onHeadersComplete(major, minor, headers) {
  if (headers !== undefined) lastHeaders = headers;
  return 0;
}

// One loop per parser, compiled separately (as in paired.js) so that its call
// sites see one parser class only. Returns the ms spent parsing `n` messages.
function makeLoop(which, parser, messages, REQUEST) {
  const body = `
    let j = 0;
    let sink = 0;
    return function cold_${which}(n) {
      let total = 0;
      for (let i = 0; i < n; i++) {
        sink += otherWork();
        const message = messages[j];
        j = j + 1 === messages.length ? 0 : j + 1;
        const t0 = performance.now();
        parser.execute(message);
        parser.initialize(REQUEST, {});
        total += performance.now() - t0;
      }
      if (sink === -1) console.log(sink);
      return total;
    };`;
  return new Function('parser', 'messages', 'REQUEST', 'otherWork', 'performance', body)(
    parser, messages, REQUEST, otherWork, performance);
}

// The cost of an empty timed region, in the same cold conditions.
function makeEmptyLoop() {
  return function empty(n) {
    let total = 0;
    let sink = 0;
    for (let i = 0; i < n; i++) {
      sink += otherWork();
      const t0 = performance.now();
      total += performance.now() - t0;
    }
    if (sink === -1) console.log(sink);
    return total;
  };
}

function main() {
  const { options } = common.parseArgs();
  const batches = Number(options.batches || 16);
  const batch = Number(options.batch || 1000);
  const warmup = Number(options.warmup || 4000);
  const messages = corpus.corpusBuffers('request', 1000, 1);
  const loops = {};
  for (const name of common.PARSERS) {
    const HTTPParser = common.loadParser(name);
    loops[name] = makeLoop(name, common.makeParser(HTTPParser, HTTPParser.REQUEST, { kOnHeadersComplete: onHeadersComplete }),
      messages, HTTPParser.REQUEST);
  }
  const empty = makeEmptyLoop();
  for (const name of common.PARSERS) loops[name](warmup);
  empty(warmup);
  const ratios = [];
  const per = { builtin: [], napi: [], empty: [] };
  for (let b = 0; b < batches; b++) {
    const e = empty(batch) / batch;
    per.empty.push(e);
    const t = {};
    for (const name of common.roundOrder(b)) t[name] = loops[name](batch) / batch;
    per.builtin.push(t.builtin - e);
    per.napi.push(t.napi - e);
    ratios.push((t.builtin - e) / (t.napi - e));
  }
  const { geoMean, ci } = stats.geoMeanInterval(ratios);
  const out = {
    batches, batch, median: stats.median(ratios), geoMean, ci,
    builtinUs: stats.median(per.builtin) * 1000, napiUs: stats.median(per.napi) * 1000,
    emptyUs: stats.median(per.empty) * 1000,
  };
  if (options.json) {
    console.log(JSON.stringify(out));
  } else {
    console.log(`cold: distinct corpus, node:http work and 256 KiB of memory traffic between two messages, parse timed only; ` +
      `${batches} pairs of ${batch} messages`);
    console.log(`  µs per message (execute + initialize): builtin ${out.builtinUs.toFixed(2)}, napi ${out.napiUs.toFixed(2)} ` +
      `(timer ${out.emptyUs.toFixed(2)} subtracted)`);
    console.log(`  builtin / napi: median ${common.formatRatio(out.median, 3)}, geometric mean ${common.formatRatio(out.geoMean, 3)} ` +
      `(95% CI ${common.formatInterval(out.ci, 3)})`);
  }
}

main();
