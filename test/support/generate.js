'use strict';
// Seeded generator of HTTP/1.x requests and responses, valid and malformed,
// for differential testing against the built-in parser
// (test/parser/differential.test.js, scripts/dev/differential.js).
//
//   generateCase(seed, index) -> {
//     id,            'seed:index', enough to regenerate the case
//     type,          'request' | 'response'
//     input,         Buffer: the whole stream (1 to 3 messages)
//     chunks,        Buffer[]: input cut at random points (empty chunks too)
//     lenient,       lenient flags for initialize()
//     maxHeaderSize, for initialize() (0 = default 16384)
//     answers,       kOnHeadersComplete return values, per message (0 = normal)
//     finish,        call finish() after the last chunk
//     tags,          what went into it, for reports
//   }
//
// Every case depends only on (seed, index), so one case can be regenerated
// without the ones before it.

// One random source and one cutter for tests and benchmarks: benchmark/corpus.js
// owns them (tests may import benchmark/; benchmark/ imports nothing of test/).
const { prng, cutAt } = require('../../benchmark/corpus');

const METHODS = [
  'DELETE', 'GET', 'HEAD', 'POST', 'PUT', 'CONNECT', 'OPTIONS', 'TRACE', 'COPY', 'LOCK',
  'MKCOL', 'MOVE', 'PROPFIND', 'PROPPATCH', 'SEARCH', 'UNLOCK', 'BIND', 'REBIND', 'UNBIND',
  'ACL', 'REPORT', 'MKACTIVITY', 'CHECKOUT', 'MERGE', 'M-SEARCH', 'NOTIFY', 'SUBSCRIBE',
  'UNSUBSCRIBE', 'PATCH', 'PURGE', 'MKCALENDAR', 'LINK', 'UNLINK', 'SOURCE', 'PRI', 'DESCRIBE',
  'ANNOUNCE', 'SETUP', 'PLAY', 'PAUSE', 'TEARDOWN', 'GET_PARAMETER', 'SET_PARAMETER',
  'REDIRECT', 'RECORD', 'FLUSH', 'QUERY',
];
const COMMON_METHODS = ['GET', 'GET', 'GET', 'POST', 'POST', 'PUT', 'HEAD', 'DELETE', 'OPTIONS',
  'PATCH', 'CONNECT', 'QUERY'];
const BAD_METHODS = ['get', 'GETT', 'GE', 'G ET', 'G\x00T', 'FOO', 'P0ST', '', 'POST\t', 'M-', 'PR',
  'PROPFINDX', 'CONNEC', 'HEAD\x7f', '\xc7ET'];

const HEADER_NAMES = ['Host', 'User-Agent', 'Accept', 'Accept-Encoding', 'Cookie', 'Content-Type',
  'X-Forwarded-For', 'Authorization', 'Cache-Control', 'If-None-Match', 'Referer', 'X-Request-Id',
  'Keep-Alive', 'Expect', 'Trailer', 'TE', 'Proxy-Connection', 'content-length', 'CONTENT-LENGTH',
  'transfer-encoding', 'connection', 'upgrade', 'Set-Cookie', 'Date', 'Server', 'ETag', 'Via', 'X'];
const CONNECTION_VALUES = ['close', 'keep-alive', 'Upgrade', 'upgrade', 'Keep-Alive', 'close, upgrade',
  'keep-alive, Upgrade', 'TE, close', 'CLOSE', 'closed', 'upgrade, close', 'Upgrade,keep-alive', ''];
const TE_VALUES = ['chunked', 'Chunked', 'CHUNKED', 'gzip, chunked', 'chunked, gzip', 'gzip',
  'identity', 'chunked, chunked', ' chunked', 'chunked ', 'chunked\t', 'chunked;q=1', 'xchunked',
  'chunkedx', 'gzip,chunked', 'deflate , chunked', '', 'chunked,', ',chunked', 'chun ked'];
const CL_ODD = ['+5', '-5', '5, 5', '5,5', ' 5', '5 ', '05', '0x5', '5.0', '', 'five', '18446744073709551615',
  '18446744073709551616', '99999999999999999999999', '\t5', '5\t', '1 2', '4294967296'];
const VERSIONS_REQ = ['HTTP/1.1', 'HTTP/1.1', 'HTTP/1.1', 'HTTP/1.0', 'HTTP/1.0', 'HTTP/0.9', 'HTTP/2.0',
  'HTTP/1.2', 'HTTP/9.9', 'HTTP/1', 'HTTP/1.', 'HTTP/11', 'http/1.1', 'HTTP/1.1x', 'HTTP /1.1',
  'HTTP/1.10', 'HTTP/3.0', 'RTSP/1.0', 'ICE/1.0', 'HTTPS/1.1', 'HTTP/A.1', ''];
const VERSIONS_RES = ['HTTP/1.1', 'HTTP/1.1', 'HTTP/1.1', 'HTTP/1.0', 'HTTP/1.0', 'HTTP/0.9', 'HTTP/2.0',
  'HTTP/1.2', 'HTTP/1', 'http/1.1', 'HTTP/1.1x', 'HTTP/11', 'HTTP/A.1', 'RTSP/1.0', 'ICE/1.0', 'HTTP 1.1'];
const STATUSES = [200, 200, 200, 200, 201, 204, 206, 301, 304, 400, 404, 500, 100, 101, 102, 103, 199,
  299, 999, 600];
const ODD_STATUSES = [0, 99, 1000, 10, '020', '2OO'];
const REASONS = ['OK', 'Not Found', 'Switching Protocols', '', 'Weird reason with spaces',
  'caf\xe9', 'Continue', 'No Content', ' leading', 'tab\there'];
const ODD_REASONS = ['nul\x00byte', 'x\x7f', 'cr\rin', 'lf\nin', '\x01'];
const EOLS = ['\r\n', '\r\n', '\r\n', '\r\n', '\r\n', '\r\n', '\n', '\r', '\r\r\n', '\n\r'];

// --- randomness ---------------------------------------------------------------

function hash32(a, b) {
  let h = (Math.imul(a ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(b + 0x632be5ab, 0xc2b2ae35)) >>> 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x7feb352d) >>> 0;
  h ^= h >>> 15;
  h = Math.imul(h, 0x846ca68b) >>> 0;
  h ^= h >>> 16;
  return h >>> 0;
}

// The random source of the benchmarks' corpus (mulberry32), with the draws
// the generator makes.
class Rng {
  constructor(seed) {
    this.next = prng(seed >>> 0 || 1);
    this.defect = 0;
  }

  int(n) {
    return Math.floor(this.next() * n);
  }

  range(lo, hi) {
    return lo + this.int(hi - lo + 1);
  }

  chance(p) {
    return this.next() < p;
  }

  // A defect of a malformed message, scaled by the case's defect rate.
  bad(p) {
    return this.defect > 0 && this.next() < p * this.defect;
  }

  pick(list) {
    return list[this.int(list.length)];
  }
}

// --- pieces -------------------------------------------------------------------

const TCHARS = "!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
const URLCHARS = 'abcdefghijklmnopqrstuvwxyz0123456789-._~!$&\'()*+,;=:@/?%';

function token(r, min, max) {
  let s = '';
  const n = r.range(min, max);
  for (let i = 0; i < n; i++) s += TCHARS[r.int(TCHARS.length)];
  return s;
}

function text(r, min, max, alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789 -_/.,;=') {
  let s = '';
  const n = r.range(min, max);
  for (let i = 0; i < n; i++) s += alphabet[r.int(alphabet.length)];
  return s;
}

// A byte that is unusual somewhere in an HTTP message.
function oddByte(r) {
  return r.pick(['\x00', '\r', '\n', '\t', ' ', '\x7f', '\x80', '\xff', '\x01', '\x1b', ':', ';',
    '"', '\\', '\x0b', '\x0c', '\xa0', ',']);
}

function url(r, method, tags) {
  if (method === 'CONNECT') {
    tags.add('authority-form');
    return r.pick(['example.com:443', 'example.com', '[::1]:8080', '127.0.0.1:80', 'a:b:c', '/x']);
  }
  const k = r.int(20);
  if (k === 0) { tags.add('asterisk'); return '*'; }
  if (k === 1) {
    tags.add('absolute-form');
    return r.pick(['http://', 'https://', 'HTTP://', 'ftp://', 'http:/', 'ws://', 'rtsp://']) +
      r.pick(['example.com', 'user:pw@example.com', 'example.com:8080', '[::1]', '', 'h.x:']) +
      r.pick(['', '/', '/p?q=1', '/a#frag', '?q']);
  }
  if (k === 2) {
    tags.add('odd-url');
    let u = '/' + text(r, 0, 10, URLCHARS);
    const at = r.int(u.length + 1);
    return u.slice(0, at) + oddByte(r) + u.slice(at);
  }
  if (k === 3 && r.chance(0.3)) {
    tags.add('long-url');
    return '/' + 'a'.repeat(r.pick([100, 1000, 8000, 16383, 16384, 16385, 20000]));
  }
  if (k === 4) return r.pick(['', 'noslash', '//double', '/%zz', '/#', '/?', '/a b', '/\xe9']);
  let u = '/' + text(r, 0, 20, URLCHARS);
  if (r.chance(0.2)) u += '#' + text(r, 0, 5, URLCHARS);
  return u;
}

function eol(r, malformed) {
  return r.bad(0.15) ? r.pick(EOLS) : '\r\n';
}

function headerLine(r, name, value, malformed, tags) {
  let sep = ': ';
  if (r.bad(0.1)) {
    sep = r.pick([':', ' : ', ' :', ':\t', ':  ', '\t:', ' :  ', '::', '']);
    tags.add('odd-separator');
  }
  if (r.bad(0.03)) { name = ' ' + name; tags.add('leading-space-name'); }
  if (r.bad(0.05)) { value += r.pick([' ', '\t', '  \t ', ' \t']); tags.add('trailing-ws'); }
  if (r.bad(0.04)) {
    value += r.pick(['\r\n ', '\r\n\t', '\r\n  ', '\n ']) + text(r, 0, 6);
    tags.add('obs-fold');
  }
  if (r.bad(0.04)) {
    const at = r.int(value.length + 1);
    value = value.slice(0, at) + oddByte(r) + value.slice(at);
    tags.add('odd-value-byte');
  }
  if (r.bad(0.02)) {
    const at = r.int(name.length + 1);
    name = name.slice(0, at) + oddByte(r) + name.slice(at);
    tags.add('odd-name-byte');
  }
  return name + sep + value + eol(r, malformed);
}

// Headers other than framing ones.
function plainHeaders(r, count, malformed, tags) {
  let out = '';
  for (let i = 0; i < count; i++) {
    const name = r.chance(0.6) ? r.pick(HEADER_NAMES.filter((n) => !/length|encoding|connection|upgrade/i.test(n)))
      : r.chance(0.9) ? 'X-' + token(r, 1, 12) : token(r, r.bad(0.3) ? 0 : 1, 3);
    let value;
    const k = r.int(12);
    if (k === 0) value = '';
    else if (k === 1) value = text(r, 0, 3, ' \t') + text(r, 1, 10);
    else if (k === 2 && r.chance(0.15)) { value = 'v'.repeat(r.pick([1000, 4000, 16370, 16384, 20000])); tags.add('huge-header'); }
    else value = text(r, 1, 30);
    out += headerLine(r, name, value, malformed, tags);
  }
  return out;
}

function chunkSize(r, n, malformed, tags) {
  let s = n.toString(16);
  if (r.chance(0.2)) s = s.toUpperCase();
  if (r.chance(0.05)) s = '000' + s;
  if (r.bad(0.06)) {
    tags.add('odd-chunk-size');
    s = r.pick(['-1', '0x' + s, s + ' ', s + '\t', ' ' + s, 'g', '', s + 'z', 'fffffffffffffffff',
      'FFFFFFFFFFFFFFFF', '10000000000000000', '7fffffffffffffff', '+' + s, s + '  ']);
  }
  if (r.chance(0.15)) {
    tags.add('chunk-ext');
    const ext = r.pick([';a=b', ';a', ';a="quoted value"', ';a=b;c=d', '; a=b', ';a = b', ';', ';=',
      ';a="unterminated', ';a="q\\"x"', ';a=\x00', ';a=\xff']);
    s += ext;
    if (r.chance(0.05)) { s += ';x=' + 'e'.repeat(r.pick([16380, 16384, 16385, 20000])); tags.add('huge-chunk-ext'); }
  }
  return s;
}

function chunkedBody(r, malformed, tags) {
  let out = '';
  const chunks = r.range(0, 4);
  for (let i = 0; i < chunks; i++) {
    const n = r.chance(0.05) ? r.pick([1000, 5000]) : r.range(1, 40);
    const data = text(r, n, n, 'abcdefghijklmnopqrstuvwxyz\r\n0123456789');
    out += chunkSize(r, n, malformed, tags) + eol(r, malformed) + data;
    if (r.bad(0.05)) { out += r.pick(['', '\r', '\n', 'XX', '\r\r\n']); tags.add('bad-chunk-end'); }
    else out += '\r\n';
  }
  out += (r.bad(0.05) ? r.pick(['00', '0 ', '0;ext', '000']) : '0') + eol(r, malformed);
  if (r.chance(0.2)) {
    tags.add('trailers');
    const n = r.chance(0.1) ? r.range(30, 66) : r.range(1, 3);
    for (let i = 0; i < n; i++) out += headerLine(r, 'T-' + token(r, 1, 6), text(r, 0, 10), malformed, tags);
  }
  out += eol(r, malformed);
  return out;
}

// Framing headers and body of one message.
function framing(r, type, malformed, tags, ctx) {
  let headers = '';
  let body = '';
  const k = r.int(14);
  const bodyText = (n) => text(r, n, n, 'abcdefghijklmnopqrstuvwxyz0123456789\r\n :');
  if (k <= 3) {
    // no framing header
    if (type === 'response' && r.chance(0.3)) { body = bodyText(r.range(0, 30)); tags.add('eof-body'); }
  } else if (k <= 6) {
    const n = r.range(0, 40);
    headers += headerLine(r, r.pick(['Content-Length', 'content-length', 'CONTENT-LENGTH']), String(n), malformed, tags);
    body = bodyText(n);
    if (r.bad(0.1)) { body = body.slice(0, r.int(n + 1)); tags.add('short-body'); }
    if (r.bad(0.1)) { body += bodyText(r.range(1, 5)); tags.add('long-body'); }
  } else if (k <= 9) {
    headers += headerLine(r, r.pick(['Transfer-Encoding', 'transfer-encoding']), 'chunked', malformed, tags);
    body = chunkedBody(r, malformed, tags);
    tags.add('chunked');
  } else if (k === 10) {
    // conflicting or odd Content-Length
    tags.add('odd-content-length');
    const n = r.range(0, 10);
    const values = r.chance(0.5) ? [String(n), String(n + r.range(0, 2))] : [r.pick(CL_ODD)];
    for (const v of values) headers += headerLine(r, 'Content-Length', v, malformed, tags);
    body = bodyText(n);
  } else if (k === 11) {
    // CL and TE together, in either order (CL.TE / TE.CL)
    tags.add('cl-and-te');
    const n = r.range(0, 10);
    const cl = headerLine(r, 'Content-Length', String(n), malformed, tags);
    const te = headerLine(r, 'Transfer-Encoding', r.pick(TE_VALUES), malformed, tags);
    headers += r.chance(0.5) ? cl + te : te + cl;
    body = r.chance(0.5) ? chunkedBody(r, malformed, tags) : bodyText(n);
  } else {
    // odd Transfer-Encoding
    tags.add('odd-transfer-encoding');
    const count = r.chance(0.2) ? 2 : 1;
    for (let i = 0; i < count; i++) headers += headerLine(r, 'Transfer-Encoding', r.pick(TE_VALUES), malformed, tags);
    body = r.chance(0.6) ? chunkedBody(r, malformed, tags) : bodyText(r.range(0, 10));
  }
  if (r.chance(0.25)) headers += headerLine(r, 'Connection', r.pick(CONNECTION_VALUES), malformed, tags);
  if (r.chance(0.08)) {
    headers += headerLine(r, 'Upgrade', r.pick(['websocket', 'h2c', '', 'foo/1']), malformed, tags);
    tags.add('upgrade-header');
    ctx.upgrade = true;
  }
  return { headers, body };
}

function startLine(r, type, malformed, tags, ctx) {
  if (type === 'request') {
    let method = r.chance(0.85) ? r.pick(COMMON_METHODS) : r.pick(METHODS);
    if (r.bad(0.05)) { method = r.pick(BAD_METHODS); tags.add('bad-method'); }
    ctx.method = method;
    const u = url(r, method, tags);
    let version = r.pick(VERSIONS_REQ.slice(0, 5));
    if (r.bad(0.1)) { version = r.pick(VERSIONS_REQ); tags.add('odd-version'); }
    let sp1 = ' ';
    let sp2 = ' ';
    if (r.bad(0.05)) { sp1 = r.pick(['  ', '\t', '']); tags.add('odd-request-line-space'); }
    if (r.bad(0.05)) { sp2 = r.pick(['  ', '\t', '']); tags.add('odd-request-line-space'); }
    if (r.bad(0.03)) { tags.add('http09'); return method + sp1 + u + eol(r, malformed); }
    if (version === 'HTTP/1.0') ctx.http10 = true;
    return method + sp1 + u + sp2 + version + eol(r, malformed);
  }
  let version = r.pick(VERSIONS_RES.slice(0, 5));
  if (r.bad(0.08)) { version = r.pick(VERSIONS_RES); tags.add('odd-version'); }
  let status = String(r.bad(0.05) ? r.pick(ODD_STATUSES) : r.pick(STATUSES));
  if (r.bad(0.05)) { status = r.pick(['20', '2000', 'abc', '', '2 0', '-1', '0200']); tags.add('odd-status'); }
  ctx.status = Number(status);
  let line = version + ' ' + status;
  const k = r.int(10);
  if (k === 0) { /* no reason, no space */ } else if (k === 1) line += ' ';
  else line += ' ' + (r.bad(0.05) ? r.pick(ODD_REASONS) : r.pick(REASONS));
  if (r.bad(0.03)) { line = version + '  ' + status + ' OK'; tags.add('odd-status-line-space'); }
  return line + eol(r, malformed);
}

function message(r, type, malformed, tags) {
  const ctx = {};
  const start = startLine(r, type, malformed, tags, ctx);
  const f = framing(r, type, malformed, tags, ctx);
  let headers = '';
  let count = r.int(6);
  if (r.chance(0.05)) { count = r.range(28, 70); tags.add('many-headers'); }
  const all = plainHeaders(r, count, malformed, tags);
  // framing headers somewhere among the others
  const lines = all.length ? all.split(/(?<=\r\n)/) : [];
  const at = r.int(lines.length + 1);
  headers = lines.slice(0, at).join('') + f.headers + lines.slice(at).join('');
  if (type === 'request' && r.chance(0.7)) headers = 'Host: example.com\r\n' + headers;
  let end = eol(r, malformed);
  if (r.bad(0.03)) { end = r.pick(['', '\r', '\n', ' \r\n', '\r\n\r\n']); tags.add('odd-header-end'); }
  return { bytes: start + headers + end + f.body, ctx };
}

// A keep-alive neighbour of a message: the same head with a small change
// (one value byte, a header added, dropped or moved, the URL or status text
// changed), so that header reuse between messages gets exercised.
function variant(r, text, tags) {
  const end = text.indexOf('\r\n\r\n');
  if (end < 0) return text;
  const head = text.slice(0, end);
  const rest = text.slice(end);
  const lines = head.split('\r\n');
  const k = r.int(7);
  if (k === 0 && lines.length > 1) {
    const i = 1 + r.int(lines.length - 1);
    const at = lines[i].indexOf(':') + 2 + r.int(4);
    if (at > 1 && at < lines[i].length) lines[i] = lines[i].slice(0, at) + text[r.int(text.length)] + lines[i].slice(at + 1);
  } else if (k === 1) {
    lines.splice(1 + r.int(lines.length), 0, 'X-' + token(r, 1, 5) + ': ' + text.slice(0, 0) + 'v' + r.int(9));
  } else if (k === 2 && lines.length > 2) {
    lines.splice(1 + r.int(lines.length - 1), 1);
  } else if (k === 3 && lines.length > 2) {
    const i = 1 + r.int(lines.length - 1);
    const j = 1 + r.int(lines.length - 1);
    [lines[i], lines[j]] = [lines[j], lines[i]];
  } else if (k === 4) {
    lines[0] = lines[0].replace(/ (\S*) /, (m, u) => ` ${u}${r.pick(['x', '', '/'])} `);
  } else if (k === 5) {
    lines[0] = lines[0] + r.pick(['', 'x', ' ']);
  }
  tags.add('keep-alive-variant');
  return lines.join('\r\n') + rest;
}

// A few random byte-level edits.
function mutate(r, s, tags) {
  const n = r.range(1, 3);
  for (let i = 0; i < n; i++) {
    const at = r.int(s.length + 1);
    const k = r.int(5);
    if (k === 0) s = s.slice(0, at) + oddByte(r) + s.slice(at);
    else if (k === 1) s = s.slice(0, at) + s.slice(at + 1);
    else if (k === 2 && s.length) s = s.slice(0, at) + String.fromCharCode(r.int(256)) + s.slice(at + 1);
    else if (k === 3) { const len = r.range(1, 8); s = s.slice(0, at) + s.slice(at, at + len) + s.slice(at); }
    else s = s.slice(0, at) + r.pick(['\r\n', '\r\n\r\n', ' ', ':', '0\r\n\r\n', '\r', '\n']) + s.slice(at);
  }
  tags.add('mutated');
  return s;
}

function split(r, buf, tags) {
  const k = r.int(10);
  const cuts = [];
  if (k === 0 || buf.length === 0) {
    // one chunk
  } else if (k === 1 && buf.length <= 600) {
    tags.add('byte-by-byte');
    for (let i = 1; i < buf.length; i++) cuts.push(i);
  } else {
    const n = r.range(1, Math.min(8, buf.length + 1));
    for (let i = 0; i < n; i++) cuts.push(r.int(buf.length + 1));
    cuts.sort((a, b) => a - b);
  }
  return cutAt(buf, cuts);
}

const LENIENT_BITS = [1, 2, 4, 8, 16, 32, 64, 128, 256, 512];

// options.emptyExecutes: also execute empty buffers between chunks (default on)
// options.missingHandlers: handlers a case may leave unset (default all five)
const MISSABLE = ['kOnHeaders', 'kOnHeadersComplete', 'kOnBody', 'kOnMessageComplete', 'kOnMessageBegin'];
function generateCase(seed, index, nested = false, options = {}) {
  if (typeof nested === 'object') {
    options = nested;
    nested = false;
  }
  const r = new Rng(hash32(seed >>> 0, index >>> 0));
  const tags = new Set();
  const type = r.chance(0.55) ? 'request' : 'response';
  const malformed = r.chance(0.6);
  if (malformed) {
    tags.add('malformed');
    r.defect = r.pick([0.1, 0.25, 0.5, 1, 1, 2]);
  }
  const count = r.chance(0.65) ? 1 : r.chance(0.7) ? r.range(2, 3) : r.range(4, 8);
  let text = '';
  const answers = [];
  let prev = null;
  for (let i = 0; i < count; i++) {
    const m = message(r, type, malformed, tags);
    const bytes = prev !== null && r.chance(0.6) ? variant(r, prev, tags) : m.bytes;
    prev = bytes;
    text += bytes;
    let answer = 0;
    if (type === 'response' && r.chance(0.1)) answer = r.pick([1, 1, 2]);
    else if (type === 'request' && r.chance(0.03)) answer = r.pick([1, 2]);
    answers.push(answer);
  }
  if (r.bad(0.25)) text = mutate(r, text, tags);
  if (r.chance(0.05)) { text += text.slice(0, r.int(text.length)); tags.add('trailing-garbage'); }
  const input = Buffer.from(text, 'latin1');
  let lenient = 0;
  const lk = r.int(10);
  if (lk === 0 || lk === 1) lenient = 1023;
  else if (lk === 2) lenient = r.pick(LENIENT_BITS);
  else if (lk === 3) lenient = r.int(1024);
  let maxHeaderSize = 0;
  if (r.chance(0.1)) maxHeaderSize = r.pick([1, 10, 20, 50, 100, 200, 1000, 16385, 100000]);
  const chunks = split(r, input, tags);
  // between executes: pause()+resume(), or an execute while paused
  const opKinds = options.emptyExecutes !== false ? ['pause-resume', 'paused', 'empty', 'empty'] : ['pause-resume', 'paused'];
  const ops = chunks.map(() => (r.chance(0.03) ? r.pick(opKinds) : null));
  if (ops.some((o) => o && o.startsWith('pause'))) tags.add('pause');
  if (ops.includes('empty')) tags.add('empty-execute');
  // kOnHeadersComplete calls this.pause() (deferred to the next execute)
  const pauseInHeadersComplete = r.chance(0.04) ? [r.int(count)] : [];
  if (pauseInHeadersComplete.length) tags.add('pause-in-callback');
  const view = r.chance(0.85) ? 'buffer' : r.pick(['offset', 'offset', 'uint8', 'dataview']);
  // handlers that are not functions (the built-in skips them, with effects)
  const missable = options.missingHandlers || MISSABLE;
  const missing = r.chance(0.05) && missable.length ? [r.pick(missable)] : [];
  if (missing.length) tags.add('missing-handler');
  // one handler throws (options.throwing, default on)
  let throwAt = null;
  if (r.chance(0.04) && options.throwing !== false) {
    // Not kOnMessageBegin / kOnHeaders: the built-in goes on parsing after
    // those threw and calls the later handlers with the exception still
    // pending in V8, where every native call (Buffer#toString,
    // Buffer.compare, parser methods) throws; ours calls them cleanly.
    throwAt = { name: r.pick(['kOnHeadersComplete', 'kOnBody', 'kOnMessageComplete']), n: r.range(1, 3) };
    tags.add('handler-throws');
  }
  // the same parser lived before (Node reuses parsers through a FreeList)
  let prelude = null;
  if (!nested && r.chance(0.05)) {
    prelude = generateCase(seed ^ 0x5bd1e995, index, true, options);
    tags.add('reused-parser');
  }
  return {
    id: `${seed}:${index}`,
    type,
    input,
    chunks,
    lenient,
    maxHeaderSize,
    answers,
    finish: r.chance(0.5),
    ops,
    pauseInHeadersComplete,
    view,
    missing,
    throwAt,
    prelude,
    tags: [...tags],
  };
}

module.exports = { generateCase, Rng, hash32 };
