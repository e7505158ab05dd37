'use strict';
// HTTPParser: a drop-in for the running Node line's built-in
// `require('_http_common').HTTPParser`, with its names (what differs between
// lines: ./node-line.js).
//
// One native crossing per execute(): the parser borrows a workspace of this
// thread (./workspace.js), the C core parses the whole buffer and records its
// events there, and the parser delivers them to its kOn* handlers as the
// built-in calls them, in the async context of initialize() (one scope per
// call, ./handler-scope.js: entered here, or natively by the addon). When a
// handler changes the course of parsing (kOnHeadersComplete answering 1 or 2, a
// handler throwing), the core rewinds and re-parses up to that event. The
// parser owns its native state (an id of the seam's, ./workspace.js), the
// commands the core gets with the next call and its lifecycle; its current
// message's head is its Head (./head.js); when its message began, its
// MessageClock (./clock.js). A consumed socket's reads reach it through
// ./read-path.js; other modules ask it through the named hooks of
// ./parser-hooks.js.

const workspace = require('./workspace');
const handlerScope = require('./handler-scope');
const { Head } = require('./head');
const { MessageClock, sinceMs } = require('./clock');
const connections = require('./connections');
const readPath = require('./read-path');
const hooks = require('./parser-hooks');
const line = require('./node-line');
const { copyOf } = require('./bytes');

const { MESSAGE_BEGIN, HEADERS, HEADERS_COMPLETE, BODY, MESSAGE_COMPLETE } = workspace.EVENT;
const { CMD_RESET, CMD_PAUSE, CMD_RESUME, CMD_HANDLERS, CMD_MAX_PAIRS, HAS_ON_HEADERS,
  HAS_ON_HEADERS_COMPLETE, HAS_ON_MESSAGE_BEGIN, HAS_ON_BODY, HAS_ON_MESSAGE_COMPLETE, HPE_USER, HC_FIELDS_KNOWN,
  HC_HOST, HC_EXPECT, HC_BODY_FIELDS } = workspace.layout;
// The core's handler bits of a new parser: every handler.
const HAS_ALL = HAS_ON_HEADERS | HAS_ON_HEADERS_COMPLETE | HAS_ON_MESSAGE_BEGIN | HAS_ON_BODY |
  HAS_ON_MESSAGE_COMPLETE;
const { REQUEST, RESPONSE, kOnMessageBegin, kOnHeaders, kOnHeadersComplete, kOnBody,
  kOnMessageComplete, kOnExecute } = line.statics;
// The running line's behaviours (./node-line.js), as constants of this module.
const { limitsHeaderPairs, keepsHandlers, handlerLookupDropsException, headersThrowIsLate,
  headersThrowHidesResult } = line;

const ASYNC_TYPES = ['', 'HTTPINCOMINGMESSAGE', 'HTTPCLIENTREQUEST'];
const MAX_INT32 = 2 ** 31 - 1;
const EMPTY = Buffer.alloc(0);
// A finish() called from inside a handler, kept for later (see queueNested()).
const FINISH = Symbol('finish');

const runPendingTicks = typeof process._tickCallback === 'function' ?
  process._tickCallback : () => {};

let defaultMaxHeaderSize = 0;
function maxHeaderSizeOption() {
  // --max-http-header-size, as the built-in reads it for a size of 0.
  if (defaultMaxHeaderSize === 0) defaultMaxHeaderSize = require('node:http').maxHeaderSize;
  return defaultMaxHeaderSize;
}

function toBytes(data) {
  if (data instanceof Uint8Array) return data;
  if (ArrayBuffer.isView(data)) return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  if (data instanceof ArrayBuffer || data instanceof SharedArrayBuffer) return new Uint8Array(data);
  throw new TypeError('The "buffer" argument must be a Buffer, TypedArray, DataView or ArrayBuffer');
}

class HTTPParser {
  constructor() {
    // The seven handler keys exist from the start: a missing one would be a
    // hole that every lookup resolves through the prototype chain.
    this[0] = null;
    this[1] = null;
    this[2] = null;
    this[3] = null;
    this[4] = null;
    this[5] = null;
    this[6] = null;
    // The properties Node's lib puts on a parser, present from the start so
    // that every parser has the same shape.
    this._headers = [];
    this._url = '';
    this.socket = null;
    this.incoming = null;
    this.outgoing = null;
    this.maxHeaderPairs = 0;
    this.onIncoming = null;
    this.joinDuplicateHeaders = null;
    this._consumed = false;
    // Lazy mode: kOnHeadersComplete gets no header array (docs/api.md).
    this.lazyHeaders = false;
    this._id = workspace.createParser(this); // native state, freed with this object or by close()
    this._head = new Head();
    this._clock = new MessageClock();
    this._type = REQUEST;
    this._closed = false;
    // Handlers run in the async context initialize() was called in, as the
    // built-in's do (AsyncLocalStorage stores included): the addon makes it
    // with initialize()'s resource, which the parser holds meanwhile, or,
    // where no init hook can see it, JavaScript (./handler-scope.js).
    this._resource = null;
    this._scope = null;           // ./handler-scope.js's open(), or null: the addon's
    this._initCount = 0;          // initialize() calls, see deliverAll()
    this._destroyed = true;
    this._silenced = false;       // remove() from 24 on: no events until initialize()
    this._keptHandlers = null;    // 26 on: see handler()
    this._connections = null;     // the ConnectionsList it is in (./connections.js)
    // What the core gets with the next call: CMD_* bits and their arguments.
    this._commands = 0;
    this._maxHeaderSize = 0;
    this._lenientFlags = 0;
    this._handlerBits = HAS_ALL; // as the core knows them
    this._maxPairs = 0;
    // The call being delivered: its workspace and bytes (or, during
    // kOnExecute, the consumed read's).
    this._ws = null;
    this._input = null;
    this._inputLength = 0;
    this._consumedSocket = null;
    this._readingSocket = null;   // the consumed socket, during one of its reads
    this._parsedBy = null;        // the consumed socket that parses its next read with this parser itself
    this._addonContext = false;   // see [hooks.addonContext]
    this._nested = null;          // what handlers gave execute()/finish(), see queueNested()
    this._whenCompleteArg = null; // see [hooks.whenComplete]
    this._whenCompleteFn = null;
  }

  // A new stream of `type`; the core starts over as the next call begins. (A
  // pause or resume still pending is dropped; a new handler set or pair
  // limit is not.)
  initialize(type, resource, maxHeaderSize, lenientFlags, connectionsList, options) {
    if (this._closed) return;
    if (type !== REQUEST && type !== RESPONSE) {
      throw new TypeError('The "type" argument must be HTTPParser.REQUEST or HTTPParser.RESPONSE');
    }
    if (resource === null || typeof resource !== 'object') {
      throw new TypeError('The "resource" argument must be an object');
    }
    let max = maxHeaderSize === undefined ? 0 : Math.trunc(Number(maxHeaderSize));
    if (!(max > 0)) max = maxHeaderSizeOption();
    if (options !== undefined && options !== null) {
      if (typeof options !== 'object') throw new TypeError('The "options" argument must be an object');
      if (options.lazyHeaders !== undefined) this.lazyHeaders = options.lazyHeaders === true;
    }
    // (The native transport's reads enter the addon's context; node:net's
    // connection is itself the parser's resource, as node:http's is.)
    this._scope = resource[hooks.ownContext] === true && !this._addonContext
      ? handlerScope.adopt(this._id, resource, this._scope, !this._destroyed)
      : handlerScope.open(this._id, resource, ASYNC_TYPES[type], this._scope, !this._destroyed,
        this._addonContext);
    this._resource = resource;
    this._initCount++;
    this._destroyed = false;
    // The built-in starts the clock of a parser that joins a connections
    // list here; it runs until a message begins.
    this._untrack();
    if (connectionsList !== undefined && connectionsList !== null && connections.track(this, connectionsList)) {
      this._connections = connectionsList;
    }
    this._clock.initialize(this._connections !== null);
    this._type = type;
    this._silenced = false;
    forgetKeptHandlers(this);
    this._commands = CMD_RESET | (this._commands & (CMD_HANDLERS | CMD_MAX_PAIRS));
    if (this._parsedBy !== null) withdrawParse(this);
    this._maxHeaderSize = max > MAX_INT32 ? MAX_INT32 : max;
    this._lenientFlags = (lenientFlags | 0) & line.lenientMask;
    this._head.clear();
  }

  execute(data) {
    if (this._closed) return undefined;
    const bytes = data instanceof Uint8Array ? data : toBytes(data);
    return call(this, bytes, bytes.length);
  }

  finish() {
    if (this._closed) return undefined;
    // (The consumed socket ended: the timer refresh of its last read is due.)
    if (this._consumedSocket !== null) readPath.endOfStream(this._consumedSocket);
    return call(this, null, 0);
  }

  // ---- the current message's head (./head.js, docs/api.md) ----

  getAllHeaders() {
    return this._head.getAllHeaders(this._ws);
  }

  getAllTrailers() {
    return this._head.getAllTrailers(this._ws);
  }

  getHeader(name) {
    if (typeof name !== 'string') throw new TypeError('The "name" argument must be a string');
    return this._head.getHeader(this._ws, name);
  }

  // ---- lifecycle ----

  pause() {
    if (!this._closed) this._command(CMD_PAUSE, CMD_RESUME);
  }

  resume() {
    if (!this._closed) this._command(CMD_RESUME, CMD_PAUSE);
  }

  // Command `bit` for the next call, in place of `cancelled`.
  _command(bit, cancelled) {
    this._commands = (this._commands & ~cancelled) | bit;
    if (this._parsedBy !== null) withdrawParse(this);
  }

  // The native state goes now, or when the call under way ends.
  close() {
    if (this._closed) return;
    this.unconsume();
    this._closed = true;
    this._untrack();
    // (Not this.free(): node:http's tests replace it on a parser.)
    this._emitDestroy();
    if (this._ws === null) workspace.closeParser(this._id);
  }

  free() {
    this._emitDestroy();
  }

  _emitDestroy() {
    if (this._destroyed) return;
    this._destroyed = true;
    this._resource = null;
    handlerScope.close(this._id, this._scope);
    this._scope = null;
  }

  remove() {
    if (this._closed) return;
    if (line.removeSilences) this._silenced = true;
    this._untrack();
  }

  // Leaves the ConnectionsList the parser is in, if any.
  _untrack() {
    const list = this._connections;
    if (list === null) return;
    this._connections = null;
    connections.untrack(this, list);
  }

  // Reads the socket's chunks straight into this parser (./read-path.js).
  consume(handle) {
    if (this._closed || this._consumedSocket !== null) return;
    if (readPath.consume(this, this.socket, handle)) this._consumedSocket = this.socket;
  }

  // (No more ticks drained during a read under way.)
  unconsume() {
    const socket = this._consumedSocket;
    if (socket === null) return;
    this._consumedSocket = null;
    this._readingSocket = null;
    if (this._parsedBy !== null) withdrawParse(this);
    readPath.unconsume(socket);
  }

  // A copy of the bytes being parsed (or of the consumed read being
  // reported to kOnExecute), as the built-in's.
  getCurrentBuffer() {
    if (this._closed) return undefined;
    const bytes = this._input;
    if (bytes === null) return Buffer.alloc(0);
    // (Bytes a handler detached or shrank are copied as they are now.)
    const length = Math.min(this._inputLength, bytes.length);
    return length === 0 ? Buffer.alloc(0) : copyOf(bytes, 0, length);
  }

  // ---- the named hooks of the other modules of lib/ (./parser-hooks.js) ----

  // The built-in's headersCompleted() (public where the line has it, see the
  // end of this file): whether the current message's headers completed, as
  // of the event being delivered during a call.
  [hooks.headersCompleted]() {
    if (this._closed) return undefined;
    if (this._ws !== null) return this._head.completed;
    if ((this._commands & CMD_RESET) !== 0) return false;
    return workspace.headersCompleted(this._id);
  }

  // When the message under way began (./clock.js).
  [hooks.messageStart]() {
    if (this._closed) return 0;
    return this._clock.startMs(this._id, this._ws !== null, (this._commands & CMD_RESET) !== 0);
  }

  [hooks.readConsumed](bytes, length) {
    if (this._closed || this._consumedSocket === null) return;
    if (this._ws !== null) {
      queueNested(this, copyOf(bytes, 0, length));
      return;
    }
    // As the built-in's C++ handles a read: parse, then kOnExecute(result),
    // during which getCurrentBuffer() is the read (node:http's rawPacket of
    // a parse error, the head of an upgrade). Pending ticks run after each
    // kOnBody and kOnHeaders handler, as they do after the built-in's
    // callbacks.
    let result;
    this._readingSocket = this._consumedSocket;
    try {
      result = call(this, bytes, length);
    } finally {
      this._readingSocket = null;
    }
    reportRead(this, bytes, length, result);
  }

  // A read of the consumed socket that the socket parsed already, with this
  // parser, in the outermost workspace (the native transport, which asked
  // [parseNextRead]() first): `text` is that call's text. What follows is
  // readConsumed()'s: the events delivered, then kOnExecute.
  [hooks.readParsed](bytes, length, text) {
    let result;
    this._readingSocket = this._consumedSocket;
    try {
      result = parsedCall(this, bytes, length, text);
    } finally {
      this._readingSocket = null;
    }
    reportRead(this, bytes, length, result);
  }

  [hooks.addonContext]() {
    this._addonContext = true;
  }

  // Whether `socket`, which this parser consumes, may parse its next read
  // with this parser itself before it calls JavaScript: this parser's id
  // when nothing has to reach the core first (commands, new handlers); else
  // -1. A yes stands until the parser's next command, initialize(),
  // unconsume() or close() withdraws it (readPath.withdrawParse()).
  [hooks.parseNextRead](socket) {
    this._parsedBy = null;
    if (this._closed || this._consumedSocket !== socket || this._ws !== null) return -1;
    noteSettings(this);
    if (this._commands !== 0) return -1;
    this._parsedBy = socket;
    return this._id;
  }

  [hooks.begunSinceInit]() {
    return this._clock.begunSinceInit;
  }

  // For callers that act on a message once it has completed: when `msg` is
  // the parser's incoming message, being delivered, and its end is among the
  // events of this call, fn(msg) is called once it completes, or at the end
  // of this call in any case. Returns whether it took it on.
  [hooks.whenComplete](msg, fn) {
    const ws = this._ws;
    if (ws === null || this.incoming !== msg || this._whenCompleteArg !== null) return false;
    if (!ws.completesAfter(ws.at)) return false;
    this._whenCompleteArg = msg;
    this._whenCompleteFn = fn;
    return true;
  }

  [hooks.headFields]() {
    const ws = this._ws;
    if (ws === null || ws.at < 0 || ws.kind(ws.at) !== HEADERS_COMPLETE) return -1;
    const flags = ws.flags(ws.at);
    return (flags & HC_FIELDS_KNOWN) === 0 ? -1 : flags & (HC_HOST | HC_EXPECT | HC_BODY_FIELDS);
  }

  [hooks.coreStats]() {
    return workspace.parserStats(this._id);
  }
}

// The built-in's duration(): how long ago the message under way began.
function duration() {
  if (this._closed) return undefined;
  return sinceMs(this[hooks.messageStart]());
}

// The running line's statics and prototype: 24 added
// kLenientHeaderValueRelaxed, 22 removed duration() and headersCompleted().
for (const name of Object.keys(line.statics)) {
  Object.defineProperty(HTTPParser, name, { value: line.statics[name], enumerable: true });
}
for (const [name, has, method] of [['duration', line.hasDuration, duration],
  ['headersCompleted', line.hasHeadersCompleted, HTTPParser.prototype[hooks.headersCompleted]]]) {
  if (!has) continue;
  Object.defineProperty(HTTPParser.prototype, name,
    { value: method, writable: true, configurable: true, enumerable: false });
}

// ---- one call of the core, and the delivery of its events ----

// Parses bytes[0, length) (null: finish()) and delivers the events; returns
// what execute() (finish()) does.
function call(parser, bytes, length) {
  if (parser._ws !== null) return queueNested(parser, bytes === null ? FINISH : copyOf(bytes, 0, length));
  noteSettings(parser);
  const ws = workspace.borrow();
  if (parser._commands !== 0) {
    ws.commands(parser._commands, parser._type, parser._maxHeaderSize, parser._lenientFlags, parser._handlerBits,
      parser._maxPairs);
  }
  parser._head.clearWindow();
  parser._ws = ws;
  parser._input = bytes === null ? EMPTY : bytes;
  parser._inputLength = length;
  let result;
  let delivered = false;
  try {
    // (In the addon's async context, events a handler sees are delivered
    // inside, see deliverCall(); those no handler sees need none. A parser
    // whose context is JavaScript's names no owner: the call returns its
    // text, and the events are delivered here, see deliverText().)
    const owner = parser._scope === null ? parser : undefined;
    result = bytes === null ? ws.finish(parser._id, owner) : ws.parse(parser._id, bytes, length, owner);
    result = deliverText(parser, ws, bytes !== null, result);
    delivered = true;
  } finally {
    settleCall(parser, ws, delivered);
  }
  return parser._nested === null ? result : runNested(parser, result);
}

// call() of a read parsed already, in the outermost workspace, with no
// commands left for it ([hooks.parseNextRead]): its text is `text`.
function parsedCall(parser, bytes, length, text) {
  const ws = workspace.borrow();
  parser._head.clearWindow();
  parser._ws = ws;
  parser._input = bytes;
  parser._inputLength = length;
  ws.delivered = false;
  let result;
  let delivered = false;
  try {
    result = deliverText(parser, ws, true, text);
    delivered = true;
  } finally {
    settleCall(parser, ws, delivered);
  }
  return parser._nested === null ? result : runNested(parser, result);
}

// What a call that parsed (`parsed`; else finished) returns, its events
// delivered unless the addon did: in the parser's context, unless its one
// event is a message begin no handler sees (the first piece of a head),
// which is noted here with no delivery at all.
function deliverText(parser, ws, parsed, text) {
  if (ws.eventCount() === 0) {
    parser._commands = 0;
    return parsed ? ws.result() : ws.failed() ? ws.error() : undefined;
  }
  if (ws.delivered) return text;
  if (parsed && ws.quietBegin(parser._handlerBits)) return beginQuietly(parser, ws, text);
  const scope = parser._scope;
  return scope === null ? deliverCall.call(parser, text) :
    handlerScope.run(scope, parser._resource, deliverCall, parser, text);
}

// A call whose one event is a message begin without a kOnMessageBegin (the
// handlers were sampled as the call began, and no JavaScript has run since):
// what deliverCall() would do for it, without the loop of deliverAll(), as
// the piece of a head that completes nothing should cost little. (No event
// after the begin: the call cannot have upgraded, failed at a handler or
// left a late exception.)
function beginQuietly(parser, ws, text) {
  ws.called(text);
  parser._commands = 0;
  if (!parser._silenced && !parser._closed) {
    parser._clock.begin();
    parser._head.clear();
  }
  return ws.result();
}

// The end of a call, delivered or not (a handler threw).
function settleCall(parser, ws, delivered) {
  endCall(parser, ws);
  if (!delivered) parser._nested = null;
  if (parser._whenCompleteArg !== null) runWhenComplete(parser);
}

// The built-in looks its handlers up at each callback, and without a
// kOnHeaders or kOnHeadersComplete function it keeps headers pending
// differently: tell the core which exist (all of them: events no handler
// sees are delivered without entering the async context). From 22 on it
// also limits a request's header pairs to the parser's maxHeaderPairs.
// (Both sampled once per call.)
function noteSettings(parser) {
  // (A handler kept from 26 on (handler()) is a function: its bit is set
  // whatever its key holds now.)
  const kept = parser._keptHandlers;
  const has = (typeof parser[kOnHeaders] === 'function' ? HAS_ON_HEADERS : 0) |
    (typeof parser[kOnHeadersComplete] === 'function' ? HAS_ON_HEADERS_COMPLETE : 0) |
    (typeof parser[kOnMessageBegin] === 'function' ? HAS_ON_MESSAGE_BEGIN : 0) |
    (typeof parser[kOnBody] === 'function' ? HAS_ON_BODY : 0) |
    (typeof parser[kOnMessageComplete] === 'function' ? HAS_ON_MESSAGE_COMPLETE : 0) |
    (kept === null ? 0 : keptBits(kept));
  if (has !== parser._handlerBits) {
    parser._handlerBits = has;
    parser._commands |= CMD_HANDLERS;
  }
  if (limitsHeaderPairs) {
    const max = parser.maxHeaderPairs;
    // (An option equal to the core's limit is that limit: node:http's is an
    // integer that stays, not converted again at every call.)
    const pairs = max === parser._maxPairs ? max :
      typeof max === 'number' && max > 0 ? Math.min(Math.floor(max), MAX_INT32) : 0;
    if (pairs !== parser._maxPairs) {
      parser._maxPairs = pairs;
      parser._commands |= CMD_MAX_PAIRS;
    }
  }
}

// The call is over: the workspace goes back. What getAllHeaders() must
// still answer is frozen in lazy mode, until the next message begins;
// otherwise nothing of the head outlives the call (docs/api.md).
function endCall(parser, ws) {
  if (parser.lazyHeaders) parser._head.freeze(ws);
  parser._ws = null;
  parser._input = null;
  workspace.giveBack(ws);
  if (parser._closed) workspace.closeParser(parser._id);
}

// execute() or finish() called from inside one of this parser's handlers,
// as a stream that emits 'data' synchronously does when a handler's event
// pushes to it (Node's test-http-parser-multiple-execute). The bytes come
// after the buffer whose events are being delivered: they are parsed (or
// the finish done) once those are delivered, before the outer call
// returns. What it returns now: the length, as if parsed (or undefined).
function queueNested(parser, what) {
  if (parser._nested === null) parser._nested = [];
  parser._nested.push(what);
  return what === FINISH ? undefined : what.length;
}

// Runs what queueNested() kept, in order. The outer call's result stands
// unless it is clean and one of these fails: then that error is the
// result (it reaches the connection as if the bytes had come in the next
// read), and what was kept after it is dropped, as the parser stays failed.
function runNested(parser, result) {
  const queue = parser._nested;
  parser._nested = null;
  if (result instanceof Error) return result;
  for (let i = 0; i < queue.length && !parser._closed; i++) {
    const what = queue[i];
    const r = what === FINISH ? parser.finish() : parser.execute(what);
    if (r instanceof Error) return r;
  }
  return result;
}

function runWhenComplete(parser) {
  const arg = parser._whenCompleteArg;
  const fn = parser._whenCompleteFn;
  parser._whenCompleteArg = null;
  parser._whenCompleteFn = null;
  fn(arg);
}

// The built-in's kOnExecute(result) after a consumed read was parsed,
// during which getCurrentBuffer() is the read (node:http's rawPacket of a
// parse error, the head of an upgrade).
function reportRead(parser, bytes, length, result) {
  const cb = parser[kOnExecute];
  if (typeof cb !== 'function') return;
  parser._input = bytes;
  parser._inputLength = length;
  try {
    cb.call(parser, result);
  } finally {
    parser._input = null;
  }
}

function withdrawParse(parser) {
  const socket = parser._parsedBy;
  parser._parsedBy = null;
  readPath.withdrawParse(socket);
}

// ---- delivery ----

// The delivery of a call that left events (this: the parser), which the
// addon calls in the parser's async context (./workspace.js, parse()):
// returns what execute() (finish()) does.
function deliverCall(text) {
  const ws = this._ws;
  ws.delivered = true;
  ws.called(text);
  // (The commands went with the call; handlers may leave new ones.)
  this._commands = 0;
  if (this._input !== EMPTY) return deliverAll(this);
  // finish() answers what the core left before any handler ran: it has no
  // bytes to re-parse.
  const result = ws.failed() ? ws.error() : undefined;
  deliverAll(this);
  return result;
}
workspace.setDelivery(deliverCall);

// The handler under `key` (kOn*), looked up as the built-in does: from 26
// on, the first function found in kOnHeadersComplete, kOnBody or
// kOnMessageComplete is kept until initialize().
function handler(parser, key) {
  if (!keepsHandlers || key < kOnHeadersComplete) return parser[key];
  const kept = parser._keptHandlers;
  if (kept !== null && kept[key] !== null) return kept[key];
  const cb = parser[key];
  if (typeof cb === 'function') {
    if (kept === null) parser._keptHandlers = [null, null, null, null, null];
    parser._keptHandlers[key] = cb;
  }
  return cb;
}

// initialize(): nothing is kept any more (the array stays for the next).
function forgetKeptHandlers(parser) {
  const kept = parser._keptHandlers;
  if (kept === null) return;
  for (let key = kOnHeadersComplete; key < kept.length; key++) kept[key] = null;
}

// The handler bits (HAS_*) of what handler() kept.
function keptBits(kept) {
  return (kept[kOnHeadersComplete] !== null ? HAS_ON_HEADERS_COMPLETE : 0) |
    (kept[kOnBody] !== null ? HAS_ON_BODY : 0) |
    (kept[kOnMessageComplete] !== null ? HAS_ON_MESSAGE_COMPLETE : 0);
}

// Delivers the call's events to the kOn* handlers; returns what execute()
// does. A handler that throws stops parsing there (the core rewinds and
// fails at that event), except kOnMessageBegin and kOnHeaders: the
// built-in goes on parsing after those and may throw at the end (see
// lateError below and ./node-line.js).
function deliverAll(parser) {
  const ws = parser._ws;
  const input = parser._input;
  let count = ws.eventCount();
  // The exception of the last kOnMessageBegin / kOnHeaders that threw, as
  // long as the built-in would still throw it from execute().
  let late = false;
  let lateError;
  let headersThrew = false;
  for (let i = 0; i < count; i++) {
    // (A parser removed by a handler delivers nothing more, from 24 on; nor
    // does one a handler closed, as its socket closed under it.)
    if (parser._silenced || parser._closed) break;
    const kind = ws.kind(i);
    // (22 on: the built-in's lookup of the next handler drops it.)
    if (handlerLookupDropsException) late = false;
    let answer = 0;
    ws.at = i;
    if (kind === MESSAGE_BEGIN || kind === HEADERS) {
      try {
        answer = deliver(parser, kind, i, input);
      } catch (err) {
        if (kind === MESSAGE_BEGIN || headersThrowIsLate) {
          late = true;
          lateError = err;
        }
        if (kind === HEADERS) headersThrew = true;
        continue;
      }
    } else {
      // (A finally, not a catch: the exception goes on as thrown, and an
      // uncaught one is reported at the handler's line, as the built-in's.
      // finish() has no buffer to re-parse: the built-in leaves the parser
      // where it was then. A throw in kOnBody is the built-in's HPE_USER; in
      // the others, llhttp's callback error.)
      let threw = true;
      try {
        answer = deliver(parser, kind, i, input);
        threw = false;
      } finally {
        if (threw && input !== EMPTY) {
          ws.rewindFail(parser._id, input, parser._inputLength, i, kind === BODY ? HPE_USER : -1);
        }
      }
    }
    // (Not while the socket holds buffered data: a tick resuming it would
    // hand that data to this parser's execute() in the middle of this one.)
    const socket = parser._readingSocket;
    if (socket !== null && (kind === BODY || kind === HEADERS) && socket.readableLength === 0) {
      const inits = parser._initCount;
      runPendingTicks();
      // A tick may have closed the parser or given it to a new connection.
      if (parser._closed || parser._initCount !== inits) return ws.result();
    }
    if (answer !== 0) {
      ws.rewindAnswer(parser._id, input, parser._inputLength, i, answer);
      count = ws.eventCount();
    }
  }
  // (An upgrade resumes llhttp, which also undoes a pause() made by a
  // handler of this call.)
  if (ws.upgraded()) parser._commands &= ~CMD_PAUSE;
  if (headersThrew && headersThrowHidesResult) {
    if (late) throw lateError;
    return undefined;
  }
  if (late && (!ws.failed() || !handlerLookupDropsException)) throw lateError;
  return ws.result();
}

// Calls the handler of event `i`; returns kOnHeadersComplete's answer.
function deliver(parser, kind, i, input) {
  switch (kind) {
    case MESSAGE_BEGIN: {
      parser._clock.begin();
      parser._head.clear();
      const cb = handler(parser, kOnMessageBegin);
      if (typeof cb === 'function') cb.call(parser);
      return 0;
    }
    case HEADERS:
      return onHeaders(parser, i);
    case HEADERS_COMPLETE:
      return onHeadersComplete(parser, i);
    case BODY: {
      const cb = handler(parser, kOnBody);
      if (typeof cb === 'function') {
        const start = parser._ws.bodyStart(i);
        // A copy of its own, as the built-in's (the input may be reused).
        cb.call(parser, copyOf(input, start, start + parser._ws.bodyLength(i)));
      }
      return 0;
    }
    case MESSAGE_COMPLETE: {
      parser._clock.complete();
      const cb = handler(parser, kOnMessageComplete);
      if (typeof cb === 'function') cb.call(parser);
      if (parser._whenCompleteArg !== null) runWhenComplete(parser);
      return 0;
    }
  }
  return 0;
}

// kOnHeaders: an early flush of header pairs (with the URL so far), or
// trailers. (Out of deliver(), which stays small enough to be inlined.)
function onHeaders(parser, i) {
  const ws = parser._ws;
  const lazy = parser.lazyHeaders;
  parser._head.flushed(ws, i, lazy);
  const cb = handler(parser, kOnHeaders);
  if (typeof cb !== 'function') return 0;
  if (!lazy) {
    const first = ws.firstPair(i);
    const count = ws.pairCount(i);
    // (Flat strings when the head is still arriving after this call:
    // node:http keeps a flush's strings meanwhile, maybe long, and slices
    // of the call's text would keep that text. Made natively, they cost
    // more time: only then.)
    if (ws.headEndsAfter(i)) cb.call(parser, ws.headerArray(first, count), ws.eventText(i));
    else cb.call(parser, ws.flatHeaderArray(first, count), ws.flatEventText(i));
  }
  // Lazy mode: header flushes are not delivered; trailers are, without an
  // array.
  else if (parser._head.completed) cb.call(parser, undefined, ws.eventText(i));
  return 0;
}

// kOnHeadersComplete; returns its answer. Its arguments come from the
// event: values handed over in fields would cost a write barrier each.
// (Without a handler the core keeps the pairs pending: they leave with the
// trailers.)
function onHeadersComplete(parser, i) {
  const ws = parser._ws;
  const head = parser._head;
  head.complete(ws, i);
  const cb = handler(parser, kOnHeadersComplete);
  if (typeof cb !== 'function') return 0;
  const request = parser._type === REQUEST;
  const lazy = parser.lazyHeaders;
  const headers = lazy || ws.pairCount(i) === -1 ? undefined : head.headersFor(ws, i);
  const text = head.textFor(ws, i, lazy, request);
  const ret = cb.call(parser, ws.major(i), ws.minor(i), headers,
    request ? ws.method(i) : undefined, request ? text : undefined,
    request ? undefined : ws.statusCode(i), request ? undefined : text,
    ws.upgrade(i), ws.keepAlive(i));
  // The built-in converts with IntegerValue() and keeps 32 bits.
  return (+ret) | 0;
}


module.exports = {
  HTTPParser,
  // The bits of [hooks.headFields]().
  headFields: { HOST: HC_HOST, EXPECT: HC_EXPECT, BODY_FIELDS: HC_BODY_FIELDS },
  methods: workspace.methods,
  allMethods: workspace.allMethods,
};
