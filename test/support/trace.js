'use strict';
// Recording harness shared by the conformance suite.  It drives an
// HTTPParser (the built-in one from `_http_common` or ours) through the
// low-level protocol used by Node's `_http_server` / `_http_client` and
// returns a flat array of events that can be compared with literal
// expectations or with the trace produced by another parser.
//
// Event shapes:
//   ['begin']
//   ['headers', headers[], url]                kOnHeaders (flush / trailers)
//   ['headersComplete', {versionMajor, versionMinor, headers, method, url,
//                        statusCode, statusMessage, upgrade,
//                        shouldKeepAlive}]      method as a NAME when a number
//   ['body', latin1 string]
//   ['complete']
//   ['execute', n]                             execute() returned a number
//   ['error', {code, reason, bytesParsed}]     execute() returned an Error
//   ['finish', undefined]                      finish() returned undefined
//   ['finishError', {code, reason, bytesParsed}]

const { allMethods, methods: builtinMethods } = require('./builtin');
const { toBuffer } = require('./chunks');

function methodName(m) {
  if (typeof m !== 'number') return m;
  const name = allMethods[m];
  return name === undefined ? m : name;
}

function errorInfo(e) {
  return { code: e.code, reason: e.reason, bytesParsed: e.bytesParsed };
}

function recorder(HTTPParser, events, opts, state = {}) {
  return {
    [HTTPParser.kOnMessageBegin]() {
      events.push(['begin']);
    },
    [HTTPParser.kOnHeaders](headers, url) {
      events.push(['headers', Array.isArray(headers) ? headers.slice() : headers, url]);
    },
    [HTTPParser.kOnHeadersComplete](versionMajor, versionMinor, headers, method,
                                     url, statusCode, statusMessage, upgrade,
                                     shouldKeepAlive) {
      events.push(['headersComplete', {
        versionMajor,
        versionMinor,
        headers: Array.isArray(headers) ? headers.slice() : headers,
        method: methodName(method),
        url,
        statusCode,
        statusMessage,
        upgrade,
        shouldKeepAlive,
      }]);
      const o = opts.onHeadersCompleteReturn;
      const r = typeof o === 'function' ? o.call(this, events) : o;
      if (upgrade || r === 2 || statusCode === 101) state.upgrading = true;
      return r;
    },
    [HTTPParser.kOnBody](b) {
      events.push(['body', Buffer.from(b).toString('latin1')]);
    },
    [HTTPParser.kOnMessageComplete]() {
      events.push(['complete']);
      if (state.upgrading) state.upgraded = true;
    },
  };
}

function parserType(HTTPParser, type) {
  if (type === 'request' || type === HTTPParser.REQUEST) return HTTPParser.REQUEST;
  if (type === 'response' || type === HTTPParser.RESPONSE) return HTTPParser.RESPONSE;
  throw new Error(`bad parser type ${type}`);
}

function createParser(HTTPParser, type, opts = {}) {
  const p = new HTTPParser();
  p.initialize(parserType(HTTPParser, type), {}, opts.maxHeaderSize || 0,
               opts.lenient || 0, undefined);
  return p;
}

// trace(HTTPParser, type, chunks, opts) -> events
//   type: 'request' | 'response' | HTTPParser.REQUEST | HTTPParser.RESPONSE
//   chunks: Buffer | string | Array<Buffer|string>   (strings are latin1)
//   opts.finish: call finish() after the last chunk
//   opts.onHeadersCompleteReturn: number, or function(events) with this = parser
//   opts.lenient: lenient flags;  opts.maxHeaderSize: 0 = default (16384)
//   opts.stopOnError: do not execute the remaining chunks after an error
//   opts.stopAfterUpgrade: do not execute the remaining chunks once a message
//     that upgrades the connection (upgrade flag, kOnHeadersComplete returned
//     2, or status 101) has completed -- as Node's http does.  What the
//     builtin returns for data executed after an upgrade is only meaningful
//     for the first such call (later ones report a stale llhttp error_pos).
//   opts.install(parser, events): called after the callbacks are installed
//   opts.keep(parser, events): called at the end instead of parser.close()
function trace(HTTPParser, type, chunks, opts = {}) {
  const events = [];
  const p = createParser(HTTPParser, type, opts);
  const state = {};
  const cbs = recorder(HTTPParser, events, opts, state);
  for (const k of Object.keys(cbs)) p[k] = cbs[k];
  if (opts.install) opts.install(p, events);
  if (!Array.isArray(chunks)) chunks = [chunks];
  for (const c of chunks) {
    if (opts.stopAfterUpgrade && state.upgraded) break;
    const r = p.execute(toBuffer(c));
    if (r instanceof Error) {
      events.push(['error', errorInfo(r)]);
      if (opts.stopOnError) break;
    } else {
      events.push(['execute', r]);
    }
  }
  if (opts.finish) {
    const r = p.finish();
    if (r instanceof Error) events.push(['finishError', errorInfo(r)]);
    else events.push(['finish', r]);
  }
  if (opts.keep) opts.keep(p, events);
  else p.close();
  return events;
}

// Normalization used to compare a chunked trace with a one-chunk trace.
//  - 'execute' results are dropped; their running sum is kept and reported
//    once at the end as ['executed', total];
//  - adjacent 'body' events are merged;
//  - an 'error' becomes ['error', {code, reason, at}] where `at` is the
//    absolute offset (bytes executed before + bytesParsed), and nothing
//    after the first error is kept (later executes repeat the error with a
//    meaningless bytesParsed);
//  - with {foldHeaders: true}, kOnHeaders flushes that precede a
//    'headersComplete' are folded into it (header arrays prepended in order,
//    url pieces concatenated) and flushes that precede a 'complete' become a
//    single ['trailers', headers] event.  Without it (the default) flushes
//    are kept verbatim, which asserts that the number and position of flushes
//    does not depend on how the input was chunked.
function normalize(events, { foldHeaders = false } = {}) {
  const out = [];
  let executed = 0;
  let pendingHeaders = null;
  let pendingUrl = '';
  for (const ev of events) {
    const kind = ev[0];
    if (kind === 'execute') {
      executed += ev[1];
      continue;
    }
    if (kind === 'error') {
      out.push(['error', { code: ev[1].code, reason: ev[1].reason, at: executed + ev[1].bytesParsed }]);
      return out;
    }
    if (foldHeaders && kind === 'headers') {
      pendingHeaders = [...(pendingHeaders || []), ...ev[1]];
      pendingUrl += ev[2] || '';
      continue;
    }
    if (foldHeaders && kind === 'headersComplete') {
      const info = { ...ev[1] };
      if (pendingHeaders) {
        info.headers = [...pendingHeaders, ...(info.headers || [])];
        if (info.method !== undefined) info.url = pendingUrl + (info.url || '');
      }
      pendingHeaders = null;
      pendingUrl = '';
      out.push(['headersComplete', info]);
      continue;
    }
    if (foldHeaders && kind === 'complete' && pendingHeaders) {
      out.push(['trailers', pendingHeaders]);
      pendingHeaders = null;
      pendingUrl = '';
    }
    if (kind === 'body' && out.length && out[out.length - 1][0] === 'body') {
      out[out.length - 1] = ['body', out[out.length - 1][1] + ev[1]];
      continue;
    }
    out.push(ev);
  }
  if (pendingHeaders) out.push(['danglingHeaders', pendingHeaders, pendingUrl]);
  out.push(['executed', executed]);
  return out;
}

module.exports = {
  trace,
  normalize,
  createParser,
  recorder,
  methodName,
  errorInfo,
  allMethods,
  builtinMethods,
};
