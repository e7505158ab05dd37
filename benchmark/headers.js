'use strict';
// Header delivery for a request with 9 headers, per message, every variant
// reading every header name and value (what a consumer that needs them does):
//
//   variant=builtin          the built-in parser; headers given to kOnHeadersComplete
//   variant=napi             ours; headers given to kOnHeadersComplete (the drop-in)
//   variant=napi-getall      ours; kOnHeadersComplete calls parser.getAllHeaders()
//                            (lazy mode on when the parser has it, so headers are
//                            built once); skipped while getAllHeaders() does not exist
//   variant=napi-lazy-one    ours in lazy mode reading one header with
//                            parser.getHeader('content-type'); skipped until it exists
//   variant=napi-getheader-each  ours in lazy mode calling parser.getHeader(name) for
//                            each of the 9 names (a lookup per header, in JavaScript:
//                            no crossing); skipped until it exists
//
// With vary=0 the request is the same every message, as in Node's
// benchmarks: a parser that reuses the previous message's strings when the
// bytes repeat hits every time. With vary=1 the messages cycle through 16
// requests whose URL, Cookie and Referer-free values differ (same lengths):
// names repeat, some values do not, as on a real keep-alive connection.
//
//   node benchmark/headers.js [variant=napi] [vary=0] [n=100000]

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

// 16 requests of the same shape and lengths, differing in the URL, the
// session cookie and the user agent's version.
function varied(k) {
  const hex = (k * 0x9e3779b1 >>> 0).toString(16).padStart(8, '0');
  return REQUEST_TEXT
    .replace('page=2', `page=${'0123456789abcdef'[k]}`)
    .replace('session=4f2a9c81d07e4b55a3c1', `session=${hex}${hex}${hex.slice(0, 4)}`)
    .replace('rv:128.0', `rv:12${'0123456789abcdef'[k]}.0`);
}

function skip(variant, why) {
  console.log(`# http/headers.js variant=${variant}: skipped: ${why}`);
  return null;
}

function main({ variant, vary, n }, timer) {
  const which = variant === 'builtin' ? 'builtin' : 'napi';
  const HTTPParser = common.loadParser(which);
  const REQUEST = HTTPParser.REQUEST;
  const buf = Buffer.from(REQUEST_TEXT, 'latin1');
  const bufs = [];
  for (let k = 0; k < 16; k++) bufs.push(vary ? Buffer.from(varied(k), 'latin1') : buf);
  for (const b of bufs) if (b.length !== buf.length) throw new Error('varied requests must keep their length');
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
  } else if (variant === 'napi-lazy-one') {
    if (typeof parser.getHeader !== 'function' || !('lazyHeaders' in parser)) {
      return skip(variant, 'lazy mode and parser.getHeader() do not exist yet (issue #6)');
    }
    parser.lazyHeaders = true;
    lazy = true;
    onHeadersComplete = function() { chars += this.getHeader('content-type').length; };
  } else if (variant === 'napi-getheader-each') {
    if (typeof parser.getHeader !== 'function' || !('lazyHeaders' in parser)) {
      return skip(variant, 'lazy mode and parser.getHeader() do not exist yet (issue #6)');
    }
    parser.lazyHeaders = true;
    lazy = true;
    onHeadersComplete = function() {
      for (let i = 0; i < NAMES.length; i++) {
        const value = this.getHeader(NAMES[i]);
        chars += NAMES[i].length + (value === undefined ? 0 : value.length);
      }
    };
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
    parser.execute(bufs[i & 15]);
    parser.initialize(REQUEST, {});
    if (lazy) parser.lazyHeaders = true; // in case initialize() resets it
  }
  const rate = timer.end(n);
  if (chars !== want * (n + 1)) throw new Error(`${variant}: headers were not all read`);
  return rate;
}

common.createBenchmark(__filename, 'http/headers.js', {
  n: [1e5],
  vary: [0, 1],
  variant: ['builtin', 'napi', 'napi-getall', 'napi-lazy-one', 'napi-getheader-each'],
}, main, { parserOption: false });
