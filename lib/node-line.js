'use strict';
// What the built-in HTTP parser of the running Node looks like and how it
// behaves, where that differs between Node versions. It changes between
// lines and within them (22.22 and 22.23 differ, so do 24.21 and 24.22), so
// nothing here is keyed by version: what the built-in shows (statics,
// prototype) is read from it, and each behaviour is measured once on the
// built-in itself, with a few bytes, at first use (a few built-in parsers,
// well under a millisecond).

const { HTTPParser: Builtin } = require('_http_common');

// The numeric statics (REQUEST, kOn*, kLenient*), as the built-in has them:
// 24 added kLenientHeaderValueRelaxed.
const statics = {};
for (const name of Object.keys(Builtin)) {
  if (typeof Builtin[name] === 'number') statics[name] = Builtin[name];
}

// The lenient flag bits the built-in's initialize() applies: a bit it has no
// static for is ignored.
let lenientMask = 0;
for (const name of Object.keys(statics)) {
  if (name.startsWith('kLenient')) lenientMask |= statics[name];
}

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

// IncomingMessage dumps a fully received message with read(0) and destroys
// a complete one in the same tick (24.22 on): lib/incoming.js is then not
// needed. Asked of the built-in's _dump() on a stand-in message, which
// records which road it took: a real stream would schedule ticks, and a
// preload must leave nothing queued behind it (docs/server.md).
function hasFastIncoming() {
  const { IncomingMessage } = require('_http_incoming');
  let road = null;
  const message = {
    _dumped: false, complete: true, destroyed: false, readableLength: 0,
    removeAllListeners() {},
    read() { road = 'read'; },
    resume() { road = 'resume'; },
  };
  IncomingMessage.prototype._dump.call(message);
  return road === 'read';
}

module.exports = {
  statics,
  lenientMask,
  // 22 removed duration() and headersCompleted().
  hasDuration: typeof Builtin.prototype.duration === 'function',
  hasHeadersCompleted: typeof Builtin.prototype.headersCompleted === 'function',
  handlerLookupDropsException,
  headersThrowHidesResult,
  headersThrowIsLate,
  limitsHeaderPairs,
  removeSilences,
  keepsHandlers,
  fastIncoming: hasFastIncoming(),
};

// ---- node:http's server, where llhttp-napi/server follows the line ----

const http = require('node:http');
const { EventEmitter } = require('node:events');

// A connection that has not begun a request counts as idle for
// closeIdleConnections() (26 on). Measured on a built-in ConnectionsList
// with a built-in parser in it. The list is taken where node:http's
// setupConnectionsTracking() stores it, and the function stopped there,
// before it starts its checker's timer, which loading a preload must not
// leave behind (docs/server.md).
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

// A built-in ServerResponse on a socket that takes every write at once
// (completeWrites false: never; an Error: fails them with it);
// `act(res, writes, order)` runs on it, returning what it found.
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
  // (the lenient-header question answered here, not by the process's
  // --insecure-http-parser, whose one warning this must not use up)
  res.insecureHTTPParser = false;
  res.assignSocket(socket);
  return withStandInTicksDropped([res, socket], () => act(res, writes));
}

// Runs fn() with the ticks scheduled for the stand-ins (the response's
// uncork of its socket) dropped: they concern only those, and a
// queued tick would run after the application has begun, where an async
// hook the application enables would see it with no init. Any other tick
// is scheduled as it would have been.
function withStandInTicksDropped(standIns, fn) {
  const nextTick = process.nextTick;
  const others = [];
  process.nextTick = function held(callback, ...args) {
    if (!args.some((arg) => standIns.includes(arg))) others.push([callback, args]);
  };
  try {
    return fn();
  } finally {
    process.nextTick = nextTick;
    for (const [callback, args] of others) nextTick(callback, ...args);
  }
}

// end()'s callback runs before the 'finish' listeners (24 on; before, it
// was a 'finish' listener itself, after those added earlier).
const endCallbackBeforeFinishListeners = onBuiltinResponse((res) => {
  const order = [];
  res.on('finish', () => order.push('listener'));
  res.end(() => order.push('callback'));
  return order[0] === 'callback';
});

// The chunks a chunked response writes within one tick leave as one chunk
// (24 on: the response corks itself until the next tick).
const coalescesChunks = onBuiltinResponse((res, writes) => {
  res.write('a');
  res.write('b');
  res.uncork(); // (what the next tick would do)
  return writes.some((w) => w.endsWith('\r\n\r\n2'));
});

// writableFinished is true once the socket holds nothing of an ended
// response, before 'finish' (before 24; from 24 on it turns with 'finish').
const finishedOnceFlushed = onBuiltinResponse((res) => {
  res.end('x');
  return res.writableFinished === true;
}, false);

// A chunk written while the response is corked is held by the response and
// counted in writableLength without its chunked framing (22); elsewhere it
// goes to the corked socket, framing and all.
const holdsCorkedChunks = onBuiltinResponse((res) => {
  res.write('');
  res.cork();
  res.write('asd');
  return res.writableLength === 3;
});

// end()'s callback hears why the response's last bytes could not be
// written, and there is no 'finish' (24 on; before, it waited for 'finish').
const endCallbackHearsFlushError = (() => {
  const failure = new Error('write failed');
  return onBuiltinResponse((res) => {
    let heard;
    res.end('x', (err) => { heard = err; });
    return heard === failure;
  }, failure);
})();

Object.assign(module.exports, {
  freshConnectionIsIdle: measureFreshConnectionIsIdle(),
  endCallbackBeforeFinishListeners,
  coalescesChunks,
  finishedOnceFlushed,
  holdsCorkedChunks,
  endCallbackHearsFlushError,
  // writeInformation(): informational answers, refused once the head is made (24.22 on).
  hasWriteInformation: typeof http.ServerResponse.prototype.writeInformation === 'function',
});
