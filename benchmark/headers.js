'use strict';
// Header delivery for a request with 9 headers, per message, every variant
// reading every header name and value (what a consumer that needs them does):
//
//   variant=builtin          the built-in parser; headers given to kOnHeadersComplete
//   variant=napi             ours; headers given to kOnHeadersComplete (the drop-in)
//   variant=napi-getall      ours; kOnHeadersComplete calls parser.getAllHeaders()
//                            (lazy mode on when the parser has it, so headers are
//                            built once); skipped while getAllHeaders() does not exist
//   variant=napi-per-header  ours; one native crossing per header: a loop calling a
//                            per-name native method (getHeader) for each of the 9
//                            names; skipped while no such native method exists
//   variant=napi-lazy-one    ours in lazy mode reading one header with
//                            parser.getHeader('content-type'); skipped until it exists
//
//   node benchmark/headers.js [variant=napi] [n=100000]

const common = require('./common');

const REQUEST_TEXT = [
  'GET /api/items?page=2&sort=desc HTTP/1.1',
  'Host: shop.example.com',
  'User-Agent: Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0',
  'Accept: text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
  'Accept-Language: en-US,en;q=0.5',
  'Accept-Encoding: gzip, deflate, br, zstd',
  'Connection: keep-alive',
  'Cookie: session=4f2a9c81d07e4b55a3c1; theme=dark',
  'Cache-Control: no-cache',
  'Content-Type: text/plain',
  '',
  '',
].join('\r\n');
const NAMES = ['Host', 'User-Agent', 'Accept', 'Accept-Language', 'Accept-Encoding',
  'Connection', 'Cookie', 'Cache-Control', 'Content-Type'];
const EXPECTED_CHARS = (() => {
  let total = 0;
  for (const line of REQUEST_TEXT.split('\r\n').slice(1)) {
    const at = line.indexOf(': ');
    if (at > 0) total += at + (line.length - at - 2);
  }
  return total;
})();

// The per-name native method of our binding, if there is one.
function perHeaderNative(parser) {
  const native = parser._native;
  if (!native) return null;
  for (const name of ['getHeader', 'header', 'headerValue', 'getHeaderValue']) {
    if (typeof native[name] === 'function') return name;
  }
  return null;
}

function skip(variant, why) {
  console.log(`# http/headers.js variant=${variant}: skipped: ${why}`);
  return null;
}

function main({ variant, n }, timer) {
  const which = variant === 'builtin' ? 'builtin' : 'napi';
  const HTTPParser = common.loadParser(which);
  const REQUEST = HTTPParser.REQUEST;
  const buf = Buffer.from(REQUEST_TEXT, 'latin1');
  const parser = new HTTPParser();
  parser.initialize(REQUEST, {});

  let chars = 0;
  let lazy = false;
  function consume(headers) {
    for (let i = 0; i < headers.length; i++) chars += headers[i].length;
  }

  let onHeadersComplete;
  if (variant === 'builtin' || variant === 'napi') {
    onHeadersComplete = function(major, minor, headers) { consume(headers); };
  } else if (variant === 'napi-getall') {
    if (typeof parser.getAllHeaders !== 'function') {
      return skip(variant, 'parser.getAllHeaders() does not exist yet (issue #6)');
    }
    if ('lazyHeaders' in parser) { parser.lazyHeaders = true; lazy = true; }
    onHeadersComplete = function() { consume(this.getAllHeaders()); };
  } else if (variant === 'napi-per-header') {
    const method = perHeaderNative(parser);
    if (!method) {
      return skip(variant, 'the binding has no per-header native method (getHeader) to cross with');
    }
    if ('lazyHeaders' in parser) { parser.lazyHeaders = true; lazy = true; }
    const native = parser._native;
    onHeadersComplete = function() {
      for (let i = 0; i < NAMES.length; i++) {
        const value = native[method](NAMES[i]);
        chars += NAMES[i].length + (value === undefined ? 0 : value.length);
      }
    };
  } else if (variant === 'napi-lazy-one') {
    if (typeof parser.getHeader !== 'function' || !('lazyHeaders' in parser)) {
      return skip(variant, 'lazy mode and parser.getHeader() do not exist yet (issue #6)');
    }
    parser.lazyHeaders = true;
    lazy = true;
    onHeadersComplete = function() { chars += this.getHeader('content-type').length; };
  } else {
    throw new Error(`unknown variant ${variant}`);
  }
  parser[HTTPParser.kOnHeaders] = function() {};
  parser[HTTPParser.kOnHeadersComplete] = onHeadersComplete;
  parser[HTTPParser.kOnBody] = function() {};
  parser[HTTPParser.kOnMessageComplete] = function() {};

  // Check once that every variant sees the whole header set.
  parser.execute(buf);
  parser.initialize(REQUEST, {});
  if (lazy) parser.lazyHeaders = true;
  const want = variant === 'napi-lazy-one' ? 'text/plain'.length : EXPECTED_CHARS;
  if (chars !== want) throw new Error(`${variant}: read ${chars} header chars, expected ${want}`);

  timer.start();
  for (let i = 0; i < n; i++) {
    parser.execute(buf);
    parser.initialize(REQUEST, {});
    if (lazy) parser.lazyHeaders = true; // in case initialize() resets it
  }
  const rate = timer.end(n);
  if (chars !== want * (n + 1)) throw new Error(`${variant}: headers were not all read`);
  return rate;
}

common.createBenchmark(__filename, 'http/headers.js', {
  n: [1e5],
  variant: ['builtin', 'napi', 'napi-getall', 'napi-per-header', 'napi-lazy-one'],
}, main, { parserOption: false });
