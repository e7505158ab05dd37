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
// needed. A dump that leaves the stream not flowing took that road.
function hasFastIncoming() {
  const { IncomingMessage } = require('_http_incoming');
  const msg = new IncomingMessage(null);
  msg.complete = true;
  msg.push(null);
  msg._dump();
  return msg.readableFlowing === null;
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
