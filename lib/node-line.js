'use strict';
// What the built-in HTTP parser of the running Node line looks like and how
// it behaves, where that differs between the supported lines (20, 22, 24,
// 26). Everything the built-in shows (statics, prototype methods) is read
// from it; behaviour that cannot be read is keyed by the line, with the
// change that introduced it.

const builtin = require('_http_common').HTTPParser;

const MAJOR = Number(process.versions.node.split('.')[0]);

// The numeric statics (REQUEST, kOn*, kLenient*), as the built-in has them:
// 24 added kLenientHeaderValueRelaxed.
const statics = {};
for (const name of Object.keys(builtin)) {
  if (typeof builtin[name] === 'number') statics[name] = builtin[name];
}

// The lenient flag bits the built-in's initialize() applies: a bit it has no
// static for is ignored.
let lenientMask = 0;
for (const name of Object.keys(statics)) {
  if (name.startsWith('kLenient')) lenientMask |= statics[name];
}

module.exports = {
  MAJOR,
  statics,
  lenientMask,
  // 22 removed duration() and headersCompleted() (the ConnectionsList reads
  // the parser's state in C++).
  hasDuration: typeof builtin.prototype.duration === 'function',
  hasHeadersCompleted: typeof builtin.prototype.headersCompleted === 'function',
  // A throw in kOnMessageBegin or kOnHeaders lets parsing go on. 20:
  // execute() throws the last such exception at the end. 22 on: the
  // built-in's lookup of the next handler drops it, and so does an error
  // result; 22 drops a kOnHeaders throw at once; from 22 on, execute()
  // returns undefined after a kOnHeaders throw (unless it throws).
  handlerLookupDropsException: MAJOR >= 22,
  headersThrowIsLate: MAJOR !== 22,
  headersThrowHidesResult: MAJOR >= 22,
  // 24 on: remove() (node:http's freeParser()) stops the delivery of events,
  // the rest of the current buffer's included, until initialize().
  removeSilences: MAJOR >= 24,
  // 26 on: the first function found in kOnHeadersComplete, kOnBody or
  // kOnMessageComplete is kept until initialize(); assigning another one
  // later has no effect (kOnMessageBegin and kOnHeaders are looked up anew).
  keepsHandlers: MAJOR >= 26,
  // 22 on: a request whose header (or trailer) pairs exceed the parser's
  // maxHeaderPairs fails with HPE_HEADER_OVERFLOW (a 431 from node:http).
  limitsHeaderPairs: MAJOR >= 22,
  // 24 on: IncomingMessage dumps a fully received message with read(0) and
  // destroys a complete one in the same tick (lib/incoming.js does it for
  // the lines before).
  fastIncoming: MAJOR >= 24,
  idleBeforeFirstRequest: MAJOR >= 26, // 26 on: ConnectionsList idle() also lists a connection that has not begun a request (nodejs/node#63470)
};
