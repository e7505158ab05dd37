'use strict';
// What the built-in HTTP parser of the running Node looks like and how it
// behaves, where that differs between Node versions. It changes between
// lines and within them (22.22 and 22.23 differ, so do 24.21 and 24.22).
// What the built-in shows (statics, prototype) is read from it; what needs
// a built-in parser run is taken from a table by release (below); the
// rest is measured at load on stand-ins that make no async resource.

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

// How the built-in parser behaves where lines differ, by release. Measuring
// it here would make built-in parsers (async resources) while a preload
// loads, which an application's async hook enabled first would see; so the
// behaviours are read from this table, and test/parser/node-line.test.js
// measures each on the built-in of every line and asserts the table agrees.
const [major, minor, patch] = process.versions.node.split('.').map(Number);
const from = (line, release, fix = 0) => major === line && (minor > release || (minor === release && patch >= fix));

// A throw in kOnMessageBegin or kOnHeaders lets parsing go on. 20 throws
// the last such exception from execute() at the end; later Nodes drop it at
// the lookup of the next handler (and with an error result).
const handlerLookupDropsException = major >= 22;
// After a kOnHeaders throw: execute() returns undefined (22 on) ...
const headersThrowHidesResult = major >= 22;
// ... and the exception itself reaches the caller when nothing drops it
// (not on 22.23 on, nor on 24.19 and 24.20, which drop it at once).
const headersThrowIsLate = !(from(22, 23) || (major === 24 && (minor === 19 || minor === 20)));
// A request's header or trailer fields beyond maxHeaderPairs / 2 fail with
// HPE_HEADER_OVERFLOW (22.23, 24.19 on).
const limitsHeaderPairs = from(22, 23) || from(24, 19) || major >= 25;
// remove() (node:http's freeParser()) stops the delivery of events until
// initialize() (24.15 on).
const removeSilences = from(24, 15) || major >= 25;
// Three response behaviours came together in 24.20 (below).
const responsesOf2420 = from(24, 20) || major >= 25;
// The first function found in kOnHeadersComplete, kOnBody or
// kOnMessageComplete is kept until initialize() (26 on; kOnMessageBegin and
// kOnHeaders are looked up anew).
const keepsHandlers = major >= 26;

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
// From the same table, for the same reason: a measure would run built-in
// responses at load, whose events and diagnostics_channel messages a tool
// loaded before (an APM wrapping ServerResponse.prototype.emit) would take
// for the application's. test/parser/node-line.test.js measures each.

const http = require('node:http');

const coalescesChunks = from(24, 22) || major >= 26;

Object.assign(module.exports, {
  // A connection that has not begun a request counts as idle for
  // closeIdleConnections() (26 on).
  freshConnectionIsIdle: major >= 26,
  // end()'s callback runs before the 'finish' listeners (24.20 on; before,
  // it was a 'finish' listener itself, after those added earlier).
  endCallbackBeforeFinishListeners: responsesOf2420,
  // The chunks a chunked response writes within one tick leave as one chunk
  // (24.22 and 26 on: the response corks itself until the next tick).
  coalescesChunks,
  // writableFinished is true once the socket holds nothing of an ended
  // response, before 'finish' (before 24.20; from then on it turns with
  // 'finish').
  finishedOnceFlushed: !responsesOf2420,
  // A chunk written while the response is corked is held by the response and
  // counted in writableLength without its chunked framing (22, and 24 before
  // 24.22, where it began to coalesce); elsewhere it goes to the corked
  // socket, framing and all.
  holdsCorkedChunks: major >= 22 && !coalescesChunks,
  // end()'s callback hears why the response's last bytes could not be
  // written, and there is no 'finish' (24.20 on; before, it waited for
  // 'finish').
  endCallbackHearsFlushError: responsesOf2420,
  // node:http publishes 'http.server.response.created' (22 on).
  publishesResponseCreated: major >= 22,
  // The pairs a long head flushes before its end (kOnHeaders) are collected
  // up to maxHeadersCount exactly, the rest of a batch dropped (22.22.1 and
  // 24.14 on); before, each batch whole while fewer were held.
  collectsToCapacity: from(22, 22, 1) || from(24, 14) || major >= 25,
  // node:http's server reads a request's `headers` before its 'request'
  // (before 26): what a handler does to rawHeaders never reaches them. From
  // 26 on they are made when first read, of rawHeaders as it is then, up to
  // the count of entries it had.
  headersMadeAtOpen: major < 26,
  // writeInformation(): informational answers, refused once the head is made (24.22 on).
  hasWriteInformation: typeof http.ServerResponse.prototype.writeInformation === 'function',
  // listen({ reusePort }) shares a port between listeners (SO_REUSEPORT;
  // 22.12 and 23.1 on); before, node:net ignores the option.
  listensWithReusePort: from(22, 12) || major >= 23,
});
