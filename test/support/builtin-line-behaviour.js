'use strict';
// Measures, on the running Node's built-in parser, each behaviour that
// lib/node-line.js takes from its table by release, with a few bytes (the
// way lib/node-line.js once did at load); test/parser/node-line.test.js
// asserts the table agrees on every line.
const { HTTPParser: Builtin } = require('_http_common');

const FIELDS = 'X-A: 1\r\n'.repeat(40); // more than the 32 that make a flush
const NOTHING = () => {};

// Runs `input` through a built-in request parser with the given handlers
// (key -> function) and extra properties; returns [what execute() gave or
// threw, the parser]. `then` runs afterwards, before the parser is closed.
function measure(input, handlers, props, then) {
  const parser = new Builtin();
  parser.initialize(Builtin.REQUEST, {});
  for (const key of Object.keys(handlers)) parser[key] = handlers[key];
  Object.assign(parser, props);
  let result;
  try {
    result = parser.execute(Buffer.from(input, 'latin1'));
  } catch (err) {
    result = err;
  }
  const after = then ? then(parser) : undefined;
  parser.close();
  return [result, after];
}

function thrower() {
  throw new Error('probe');
}

const threw = (r) => r instanceof Error && r.message === 'probe';

// A throw in kOnMessageBegin or kOnHeaders lets parsing go on. 20 throws
// the last such exception from execute() at the end; later Nodes drop it at
// the lookup of the next handler (and with an error result).
const handlerLookupDropsException =
  measure('GET / HTTP/1.1\r\n\r\n', { [Builtin.kOnMessageBegin]: thrower,
    [Builtin.kOnHeadersComplete]: NOTHING }, {})[0] === 18;
// After a kOnHeaders throw: execute() returns undefined (22 on) ...
const headersThrowHidesResult =
  measure(`GET / HTTP/1.1\r\n${FIELDS}\r\n`, { [Builtin.kOnHeaders]: thrower,
    [Builtin.kOnHeadersComplete]: NOTHING }, {})[0] === undefined;
// ... and the exception itself reaches the caller when nothing drops it
// (not on 22.23, which drops it at once).
const headersThrowIsLate =
  threw(measure(`GET / HTTP/1.1\r\n${FIELDS}`, { [Builtin.kOnHeaders]: thrower }, {})[0]);

// A request's header or trailer fields beyond maxHeaderPairs / 2 fail with
// HPE_HEADER_OVERFLOW (22.23, 24.21 on).
const overflow = measure('GET / HTTP/1.1\r\nA: 1\r\nB: 2\r\n\r\n', {}, { maxHeaderPairs: 2 })[0];
const limitsHeaderPairs = overflow instanceof Error && overflow.code === 'HPE_HEADER_OVERFLOW';

// remove() (node:http's freeParser()) stops the delivery of events until
// initialize() (24 on).
let removedCalls = 0;
measure('', {}, {}, (parser) => {
  parser[Builtin.kOnMessageComplete] = () => { removedCalls++; };
  parser.remove();
  parser.execute(Buffer.from('GET / HTTP/1.1\r\n\r\n'));
});
const removeSilences = removedCalls === 0;

// The first function found in kOnHeadersComplete, kOnBody or
// kOnMessageComplete is kept until initialize() (26 on; kOnMessageBegin and
// kOnHeaders are looked up anew).
let keptCalls = 0;
measure('GET / HTTP/1.1\r\n\r\n', { [Builtin.kOnMessageComplete]: () => { keptCalls++; } }, {},
  (parser) => {
    parser[Builtin.kOnMessageComplete] = NOTHING;
    parser.execute(Buffer.from('GET / HTTP/1.1\r\n\r\n'));
  });
const keepsHandlers = keptCalls === 2;

function builtinConnectionsList() {
  const { setupConnectionsTracking } = require('_http_server');
  if (typeof setupConnectionsTracking !== 'function') return undefined;
  const stop = Symbol('taken');
  let list;
  const server = new Proxy({}, {
    get() { return undefined; },
    set(target, key, value) {
      if (typeof value?.idle !== 'function') return Reflect.set(target, key, value);
      list = value;
      throw stop;
    },
  });
  try {
    setupConnectionsTracking.call(server);
  } catch (err) {
    if (err !== stop) throw err;
  }
  return list;
}

function measureFreshConnectionIsIdle() {
  const list = builtinConnectionsList();
  if (list === undefined || typeof list.idle !== 'function') return false;
  const parser = new Builtin();
  try {
    parser.initialize(Builtin.REQUEST, {}, 0, 0, list);
    return list.idle().length === 1;
  } finally {
    parser.remove();
    parser.close();
  }
}

// ---- node:http's response, on a stand-in socket ----

const http = require('node:http');
const dc = require('node:diagnostics_channel');
const { EventEmitter } = require('node:events');

// A built-in ServerResponse on a socket that takes every write at once
// (completeWrites false: never; an Error: fails them with it);
// `act(res, writes)` runs on it, returning what it found.
function onBuiltinResponse(act, completeWrites = true) {
  const writes = [];
  const socket = Object.assign(new EventEmitter(), {
    writable: true, destroyed: false, writableLength: 0, writableHighWaterMark: 16384, writableCorked: 0,
    _writableState: { corked: 0 },
    cork() { this.writableCorked++; },
    uncork() { if (this.writableCorked > 0) this.writableCorked--; },
    write(data, encoding, callback) {
      writes.push(String(data));
      if (!completeWrites) return true;
      const failure = completeWrites instanceof Error ? completeWrites : undefined;
      if (typeof encoding === 'function') encoding(failure);
      else if (typeof callback === 'function') callback(failure);
      return true;
    },
  });
  const res = new http.ServerResponse({ method: 'GET', httpVersionMajor: 1, httpVersionMinor: 1, headers: {} });
  res.sendDate = false;
  res.insecureHTTPParser = false;
  res.assignSocket(socket);
  return act(res, writes);
}

function measureResponses() {
  const flushFailure = new Error('write failed');
  let created = false;
  const hear = () => { created = true; };
  dc.subscribe('http.server.response.created', hear);
  onBuiltinResponse(() => {});
  dc.unsubscribe('http.server.response.created', hear);
  return {
    endCallbackBeforeFinishListeners: onBuiltinResponse((res) => {
      const order = [];
      res.on('finish', () => order.push('listener'));
      res.end(() => order.push('callback'));
      return order[0] === 'callback';
    }),
    coalescesChunks: onBuiltinResponse((res, writes) => {
      res.write('a');
      res.write('b');
      res.uncork(); // (what the next tick would do)
      return writes.some((w) => w.endsWith('\r\n\r\n2'));
    }),
    finishedOnceFlushed: onBuiltinResponse((res) => {
      res.end('x');
      return res.writableFinished === true;
    }, false),
    holdsCorkedChunks: onBuiltinResponse((res) => {
      res.write('');
      res.cork();
      res.write('asd');
      return res.writableLength === 3;
    }),
    endCallbackHearsFlushError: onBuiltinResponse((res) => {
      let heard;
      res.end('x', (err) => { heard = err; });
      return heard === flushFailure;
    }, flushFailure),
    publishesResponseCreated: created,
  };
}

// How node:http collects the pairs a long head flushes (its kOnHeaders
// handler on a built-in parser of its pool): up to maxHeaderPairs exactly,
// or each batch whole while fewer are held.
function measureCollectsToCapacity() {
  const { parsers, HTTPParser: Builtin } = require('_http_common');
  const parser = parsers.alloc();
  parser._headers = [];
  parser._url = '';
  parser.maxHeaderPairs = 10;
  const onHeaders = parser[Builtin.kOnHeaders];
  onHeaders.call(parser, new Array(8).fill('a'), '');
  onHeaders.call(parser, new Array(8).fill('b'), '');
  const collected = parser._headers.length;
  parser._headers = [];
  parsers.free(parser);
  return collected === 10;
}

module.exports = () => ({
  handlerLookupDropsException,
  headersThrowHidesResult,
  headersThrowIsLate,
  limitsHeaderPairs,
  removeSilences,
  keepsHandlers,
  freshConnectionIsIdle: measureFreshConnectionIsIdle(),
  collectsToCapacity: measureCollectsToCapacity(),
  ...measureResponses(),
});
