'use strict';
// HTTPParser: a drop-in for the running Node line's built-in
// `require('_http_common').HTTPParser` (what differs between lines: ./node-line.js).
//
// One native crossing per execute(): the C core parses the whole buffer and
// records events (src/core/lhn_parser.h); this file replays them, calling the
// kOn* handlers exactly as the built-in does. When a handler changes the
// course of parsing (kOnHeadersComplete answering 1 or 2, a handler
// throwing), the core rewinds and re-parses from that event. The strings
// handed to handlers come from ./header-strings.js; a consumed socket's reads
// reach execute() through ./read-path.js.

const { AsyncResource } = require('node:async_hooks');
const binding = require('./native');
const connections = require('./connections');
const readPath = require('./read-path');
const { HeaderStrings } = require('./header-strings');
const line = require('./node-line');

const { NativeParser } = binding;
// The binary layout shared with the addon, by name (src/binding/addon.cc).
const {
  EV_MESSAGE_BEGIN, EV_HEADERS, EV_HEADERS_COMPLETE, EV_BODY, EV_MESSAGE_COMPLETE,
  EV_KIND, EV_FIRST_PAIR, EV_PAIR_COUNT, EV_TEXT_START, EV_TEXT_END, EV_FLAGS, EV_STATUS,
  EV_METHOD, EV_HTTP_MAJOR, EV_HTTP_MINOR, EV_MESSAGE_NUMBER, EV_BODY_START, EV_BODY_LENGTH,
  EVENT_SLOTS, HC_UPGRADE, HC_KEEP_ALIVE, HC_REPEATS,
  S_REQUEST, S_TYPE, S_MAX_HEADER, S_LENIENT, S_EVENTS, S_NREAD, S_ERROR, S_GENERATION,
  S_HEADERS_DONE, S_PAIR_SHIFT, S_SLAB_SHIFT, S_UPGRADED, S_HANDLERS, S_MAX_PAIRS, S_SLOTS,
  R_RESET, R_PAUSE, R_RESUME, R_HANDLERS, R_MAX_PAIRS, R_SET_START, REWIND_ANSWER, REWIND_FAIL,
  HAS_ON_HEADERS, HAS_ON_HEADERS_COMPLETE, HPE_USER,
} = binding.layout;
const HAS_ALL = HAS_ON_HEADERS | HAS_ON_HEADERS_COMPLETE;

// Node's numbers: parser types and handler slots.
const REQUEST = 1;
const RESPONSE = 2;
const kOnMessageBegin = 0;
const kOnHeaders = 1;
const kOnHeadersComplete = 2;
const kOnBody = 3;
const kOnMessageComplete = 4;

const ASYNC_TYPES = ['', 'HTTPINCOMINGMESSAGE', 'HTTPCLIENTREQUEST'];
// AsyncResource options, one object for every initialize().
const MANUAL_DESTROY = Object.freeze({ requireManualDestroy: true });
const EMPTY = Buffer.alloc(0);
const MAX_INT32 = 2 ** 31 - 1;

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

// A finish() called from inside a handler, kept for later (see _queueNested()).
const FINISH = Symbol('finish');

const runPendingTicks = typeof process._tickCallback === 'function' ?
  process._tickCallback : () => {};

// err.rawPacket = view (node:http's prepareError()) stores a copy of a view
// of the shared read buffer, as an ordinary property.
function copyRawPacket(err) {
  Object.defineProperty(err, 'rawPacket', {
    configurable: true,
    enumerable: false,
    get() { return undefined; },
    set(value) {
      const shared = value instanceof Uint8Array && value.buffer === readPath.sharedBytes();
      Object.defineProperty(this, 'rawPacket', {
        value: shared ? Buffer.from(value) : value, writable: true, enumerable: true, configurable: true,
      });
    },
  });
}

function parseError(bytesParsed, code, reason) {
  const err = new Error('Parse Error');
  err.bytesParsed = bytesParsed;
  err.code = code;
  err.reason = reason;
  return err;
}

class HTTPParser {
  constructor() {
    // The seven handler slots exist from the start: a missing slot would be
    // a hole that every lookup resolves through the prototype chain.
    this[0] = null;
    this[1] = null;
    this[2] = null;
    this[3] = null;
    this[4] = null;
    this[5] = null;
    this[6] = null;
    this._native = new NativeParser();
    this._exec = this._native.executor();
    this._strings = new HeaderStrings();
    this._generation = -1;
    this._events = null;
    this._state = null;
    this._messageStart = null;
    this._refreshViews();
    this._type = REQUEST;
    // Handlers run in the async context initialize() was called in, as the
    // built-in's do (AsyncLocalStorage stores included).
    this._asyncResource = null;
    this._destroyed = true;
    this._closed = false;
    this._input = null;           // the buffer whose events are being delivered
    this._replayHeadersDone = false;
    this._replayInMessage = false; // as of the event being delivered, see _messageStartNow()
    this._replayAt = -1;          // index of the event being delivered
    this._nested = null;          // what handlers gave execute()/finish(), see _queueNested()
    this._silenced = false;       // remove() from 24 on: no events until initialize()
    this._kept = [null, null, null, null, null, null, null]; // see _handler()
    this._keptAny = false;
    this._whenCompleteArg = null; // see _whenComplete()
    this._whenCompleteFn = null;
    // Which of kOnHeaders / kOnHeadersComplete the core was told exist.
    this._handlers = HAS_ALL;
    this._maxPairs = 0;           // header pair limit the core was given
    // The current message's header and trailer pairs in the pair table, for
    // getAllHeaders(), getHeader() and getAllTrailers(). A count of -1 means
    // no headers are available (before headers complete, after a new message
    // began).
    this._hdrFirst = 0;
    this._hdrCount = -1;
    this._hdrNumber = 0;          // the message's number (EV_MESSAGE_NUMBER)
    this._trlFirst = 0;
    this._trlCount = -1;
    this._flushUrlStart = 0;      // the URL when a flush took it (lazy mode)
    this._flushUrlEnd = 0;
    // Lazy mode: kOnHeadersComplete gets no header array (docs/api.md).
    this.lazyHeaders = false;
    this._connections = null;
    this._consumedSocket = null;
    this._drainTicks = false;
    this._lastResult = 0;         // what the last execute() returned, for ./read-path.js
    this._initCount = 0;
    this._begunSinceInit = false; // for lib/connections.js
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
  }

  // Views of the addon's buffers, again whenever it replaced one.
  _refreshViews() {
    const buffers = this._native.buffers();
    this._strings.pairs = new Int32Array(buffers[1]);
    this._events = new Int32Array(buffers[2]);
    this._state = new Int32Array(buffers[3], 0, S_SLOTS);
    this._messageStart = new Float64Array(buffers[3], S_SLOTS * 4, 1);
    this._generation = this._state[S_GENERATION];
  }

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
    const state = this._state;
    state[S_TYPE] = type;
    state[S_MAX_HEADER] = max > MAX_INT32 ? MAX_INT32 : max;
    state[S_LENIENT] = (lenientFlags | 0) & line.lenientMask;
    // (A pause or resume still pending is dropped; a new handler set is not.)
    state[S_REQUEST] = R_RESET | (state[S_REQUEST] & (R_HANDLERS | R_MAX_PAIRS));
    this._type = type;
    this._initCount++;
    this._silenced = false;
    if (this._keptAny) {
      this._kept.fill(null);
      this._keptAny = false;
    }
    this._hdrCount = -1;
    this._trlCount = -1;
    if (options !== undefined && options !== null) {
      if (typeof options !== 'object') throw new TypeError('The "options" argument must be an object');
      if (options.lazyHeaders !== undefined) this.lazyHeaders = options.lazyHeaders === true;
    }
    if (!this._destroyed && this._asyncResource !== null) this._asyncResource.emitDestroy();
    this._asyncResource = new AsyncResource(ASYNC_TYPES[type], MANUAL_DESTROY);
    this._destroyed = false;
    this._begunSinceInit = false;
    if (connections.track(this, connectionsList)) {
      // The built-in starts the clock of a parser that joins a connections
      // list here; the core keeps it until a message begins.
      this._messageStart[0] = connections.nowMs();
      state[S_REQUEST] |= R_SET_START;
    }
  }

  execute(data) {
    if (this._closed) return undefined;
    let bytes = data instanceof Uint8Array ? data : toBytes(data);
    if (this._input !== null) return this._queueNested(Buffer.from(bytes));
    this._noteSettings();
    let slab = this._exec(bytes.buffer, bytes.byteOffset, bytes.length);
    if (slab === false) {
      // (Bytes in a SharedArrayBuffer: parsed from a copy.)
      bytes = Buffer.from(bytes);
      slab = this._exec(bytes.buffer, bytes.byteOffset, bytes.length);
    }
    if (slab !== undefined) this._strings.slab = slab;
    const state = this._state;
    if (state[S_GENERATION] !== this._generation) this._refreshViews();
    if (state[S_PAIR_SHIFT] !== 0 || state[S_SLAB_SHIFT] !== 0) this._shift();
    if (this._state[S_EVENTS] === 0) return this._executed(bytes, this._result());
    this._input = bytes;
    let result;
    let delivered = false;
    // (finish() has the same try/finally. One helper for both cost 400-700
    // instructions per message here, callgrind len=8: kept inline.)
    try {
      // Handlers run in the async context of initialize() (none before it).
      const scope = this._asyncResource;
      result = scope === null ? this._replay() : scope.runInAsyncScope(this._replay, this);
      delivered = true;
    } finally {
      this._input = null;
      this._replayInMessage = this._messageStart[0] !== 0;
      if (!delivered) this._nested = null;
      if (this._whenCompleteArg !== null) this._runWhenComplete();
    }
    return this._executed(bytes, this._nested === null ? result : this._runNested(result));
  }

  // What execute() of `bytes` returns, noted for ./read-path.js. A parse
  // error of bytes read into the shared read buffer gets the rawPacket
  // node:http gives it as a copy: the buffer is reused at the next read.
  _executed(bytes, result) {
    this._lastResult = result;
    if (typeof result !== 'number' && result instanceof Error && bytes.buffer === readPath.sharedBytes()) {
      copyRawPacket(result);
    }
    return result;
  }

  // execute() or finish() called from inside one of this parser's handlers,
  // as a stream that emits 'data' synchronously does when a handler's event
  // pushes to it (Node's test-http-parser-multiple-execute). The bytes come
  // after the buffer whose events are being delivered: they are parsed (or
  // the finish done) once those are delivered, before the outer call
  // returns. What it returns now: the length, as if parsed (or undefined).
  _queueNested(what) {
    if (this._nested === null) this._nested = [];
    this._nested.push(what);
    return what === FINISH ? undefined : what.length;
  }

  // Runs what _queueNested() kept, in order. The outer call's result stands unless
  // it is clean and one of these fails: then that error is the result (it
  // reaches the connection as if the bytes had come in the next read), and
  // what was kept after it is dropped, as the parser stays failed.
  _runNested(result) {
    const queue = this._nested;
    this._nested = null;
    if (result instanceof Error) return result;
    for (let i = 0; i < queue.length; i++) {
      const r = queue[i] === FINISH ? this.finish() : this.execute(queue[i]);
      if (r instanceof Error) return r;
    }
    return result;
  }

  // The core moved the message under way to the front of the slab and the
  // pair table: move what this parser remembers of it along.
  _shift() {
    const state = this._state;
    this._hdrFirst -= state[S_PAIR_SHIFT];
    this._trlFirst -= state[S_PAIR_SHIFT];
    this._flushUrlStart -= state[S_SLAB_SHIFT];
    this._flushUrlEnd -= state[S_SLAB_SHIFT];
  }

  finish() {
    if (this._closed) return undefined;
    if (this._input !== null) return this._queueNested(FINISH);
    this._noteSettings();
    const slab = this._native.finish();
    if (slab !== undefined) this._strings.slab = slab;
    if (this._state[S_GENERATION] !== this._generation) this._refreshViews();
    if (this._state[S_EVENTS] !== 0) {
      this._input = EMPTY;
      let delivered = false;
      try {
        const scope = this._asyncResource;
        if (scope === null) this._replay();
        else scope.runInAsyncScope(this._replay, this);
        delivered = true;
      } finally {
        this._input = null;
        this._replayInMessage = this._messageStart[0] !== 0;
        if (!delivered) this._nested = null;
        if (this._whenCompleteArg !== null) this._runWhenComplete();
      }
    }
    const result = this._state[S_ERROR] === 0 ? undefined : this._error();
    return this._nested === null ? result : this._runNested(result);
  }

  // For callers that act on a message once it has completed (lib/incoming.js
  // dumps a client response nobody listens to that way): when `arg` is this
  // parser's incoming message, being delivered, and its end is among the
  // events of this execute(), fn(arg) is called once it completes, or at the
  // end of this execute() in any case. Returns whether the parser took it on.
  _whenComplete(arg, fn) {
    if (this._input === null || this.incoming !== arg || this._whenCompleteArg !== null) return false;
    const events = this._events;
    const count = this._state[S_EVENTS];
    for (let i = this._replayAt + 1; i < count; i++) {
      const kind = events[i * EVENT_SLOTS + EV_KIND];
      if (kind === EV_MESSAGE_COMPLETE) {
        this._whenCompleteArg = arg;
        this._whenCompleteFn = fn;
        return true;
      }
      if (kind === EV_MESSAGE_BEGIN) break;
    }
    return false;
  }

  _runWhenComplete() {
    const arg = this._whenCompleteArg;
    const fn = this._whenCompleteFn;
    this._whenCompleteArg = null;
    this._whenCompleteFn = null;
    fn(arg);
  }

  // The built-in looks its handlers up at each callback, and without a
  // kOnHeaders or kOnHeadersComplete function it keeps headers pending
  // differently: tell the core which exist. From 22 on it also limits a
  // request's header pairs to the parser's maxHeaderPairs. (Both sampled
  // once per call.)
  _noteSettings() {
    const has = (typeof this._peekHandler(kOnHeaders) === 'function' ? HAS_ON_HEADERS : 0) |
      (typeof this._peekHandler(kOnHeadersComplete) === 'function' ? HAS_ON_HEADERS_COMPLETE : 0);
    if (has !== this._handlers) {
      this._handlers = has;
      this._state[S_HANDLERS] = has;
      this._state[S_REQUEST] |= R_HANDLERS;
    }
    if (line.limitsHeaderPairs) {
      const max = this.maxHeaderPairs;
      const pairs = typeof max === 'number' && max > 0 ? Math.min(Math.floor(max), MAX_INT32) : 0;
      if (pairs !== this._maxPairs) {
        this._maxPairs = pairs;
        this._state[S_MAX_PAIRS] = pairs;
        this._state[S_REQUEST] |= R_MAX_PAIRS;
      }
    }
  }

  // The handler in a slot, looked up as the built-in does: from 26 on, the
  // first function found in kOnHeadersComplete, kOnBody or kOnMessageComplete
  // stays until initialize().
  _handler(slot) {
    if (!line.keepsHandlers || slot < kOnHeadersComplete) return this[slot];
    const kept = this._kept[slot];
    if (kept !== null) return kept;
    const cb = this[slot];
    if (typeof cb === 'function') {
      this._kept[slot] = cb;
      this._keptAny = true;
    }
    return cb;
  }

  // The same without keeping what it finds.
  _peekHandler(slot) {
    return line.keepsHandlers && slot >= kOnHeadersComplete && this._kept[slot] !== null ?
      this._kept[slot] : this[slot];
  }

  // What execute() returns once every event has been delivered.
  _result() {
    const state = this._state;
    if (state[S_ERROR] === 0) return state[S_NREAD];
    return this._error();
  }

  _error() {
    const info = this._native.errorInfo();
    return parseError(this._state[S_NREAD], info[0], info[1]);
  }

  // Re-parses the buffer being delivered from its start, changing what
  // happens at event `index` (see lhn_parser_rewind()).
  _rewind(index, actions, answer, failCode) {
    const slab = this._native.rewind(this._input, index, actions, answer, failCode);
    if (slab !== undefined) this._strings.slab = slab;
    if (this._state[S_GENERATION] !== this._generation) this._refreshViews();
  }

  // Delivers the recorded events to the kOn* handlers. A handler that throws
  // stops parsing there (the core rewinds and fails at that event), except
  // kOnMessageBegin and kOnHeaders: the built-in goes on parsing after those
  // and may throw at the end (see lateException below and ./node-line.js).
  _replay() {
    const input = this._input;
    let events = this._events;
    let count = this._state[S_EVENTS];
    // The exception of the last kOnMessageBegin / kOnHeaders that threw, as
    // long as the built-in would still throw it from execute().
    let late = false;
    let lateError;
    let headersThrew = false;
    for (let i = 0; i < count; i++) {
      // (A parser removed by a handler delivers nothing more, from 24 on.)
      if (this._silenced) break;
      const at = i * EVENT_SLOTS;
      const kind = events[at + EV_KIND];
      // (22 on: the built-in's lookup of the next handler drops it.)
      if (line.handlerLookupDropsException) late = false;
      let answer = 0;
      try {
        this._replayAt = i;
        answer = this._deliver(kind, events, at, input);
      } catch (err) {
        if (kind === EV_MESSAGE_BEGIN || (kind === EV_HEADERS && line.headersThrowIsLate)) {
          late = true;
          lateError = err;
        }
        if (kind === EV_HEADERS) headersThrew = true;
        if (kind === EV_MESSAGE_BEGIN || kind === EV_HEADERS) continue;
        // (finish() has no buffer to re-parse: the built-in leaves the
        // parser where it was then.)
        if (input !== EMPTY) this._rewind(i, REWIND_FAIL, 0, kind === EV_BODY ? HPE_USER : -1);
        throw err;
      }
      // (Not while the socket holds buffered data: a tick resuming it would
      // hand that data to this parser's execute() in the middle of this one.)
      if (this._drainTicks && (kind === EV_BODY || kind === EV_HEADERS) &&
          this._consumedSocket !== null && this._consumedSocket.readableLength === 0) {
        const initCount = this._initCount;
        runPendingTicks();
        // A tick may have closed the parser or given it to a new connection.
        if (this._closed || this._initCount !== initCount) return this._result();
      }
      if (answer !== 0) {
        this._rewind(i, REWIND_ANSWER, answer, 0);
        events = this._events;
        count = this._state[S_EVENTS];
      }
    }
    // The built-in resumes llhttp after an upgrade stops it, which also
    // undoes a pause() made by a handler of this execute().
    if (this._state[S_UPGRADED] !== 0) this._state[S_REQUEST] &= ~R_PAUSE;
    if (headersThrew && line.headersThrowHidesResult) {
      if (late) throw lateError;
      return undefined;
    }
    if (late && (this._state[S_ERROR] === 0 || !line.handlerLookupDropsException)) throw lateError;
    return this._result();
  }

  // Calls the handler of one event; returns kOnHeadersComplete's answer.
  _deliver(kind, events, at, input) {
    switch (kind) {
      case EV_MESSAGE_BEGIN: {
        this._replayInMessage = true;
        this._begunSinceInit = true;
        this._replayHeadersDone = false;
        this._hdrCount = -1;
        this._trlCount = -1;
        const cb = this._handler(kOnMessageBegin);
        if (typeof cb === 'function') cb.call(this);
        return 0;
      }
      case EV_HEADERS:
        return this._headersFlushed(events, at);
      case EV_HEADERS_COMPLETE:
        return this._headersComplete(events, at);
      case EV_BODY: {
        const cb = this._handler(kOnBody);
        if (typeof cb === 'function') {
          const start = events[at + EV_BODY_START];
          // The built-in hands over a copy: the input may be reused.
          cb.call(this, Buffer.from(input.subarray(start, start + events[at + EV_BODY_LENGTH])));
        }
        return 0;
      }
      case EV_MESSAGE_COMPLETE: {
        this._replayInMessage = false;
        const cb = this._handler(kOnMessageComplete);
        if (typeof cb === 'function') cb.call(this);
        if (this._whenCompleteArg !== null) this._runWhenComplete();
        return 0;
      }
    }
    return 0;
  }

  // kOnHeaders: an early flush of header pairs (with the URL so far), or
  // trailers.
  _headersFlushed(events, at) {
    const first = events[at + EV_FIRST_PAIR];
    const count = events[at + EV_PAIR_COUNT];
    const start = events[at + EV_TEXT_START];
    const end = events[at + EV_TEXT_END];
    this._notePairs(first, count, start, end);
    const cb = this._handler(kOnHeaders);
    if (typeof cb !== 'function') return 0;
    if (!this.lazyHeaders) {
      cb.call(this, this._strings.array(first, count), this._strings.slice(start, end));
    } else if (this._replayHeadersDone) {
      // Lazy mode: header flushes are not delivered; trailers are, without
      // an array.
      cb.call(this, undefined, this._strings.slice(start, end));
    }
    return 0;
  }

  _headersComplete(events, at) {
    const cb = this._handler(kOnHeadersComplete);
    const count = events[at + EV_PAIR_COUNT];
    const flushed = count === -1;
    if (!flushed) this._notePairs(events[at + EV_FIRST_PAIR], count, 0, 0);
    else if (this._hdrCount < 0) this._hdrCount = 0;
    this._hdrNumber = events[at + EV_MESSAGE_NUMBER];
    this._replayHeadersDone = true;
    // (Without a handler the core keeps the pairs pending: they leave with
    // the trailers.)
    if (typeof cb !== 'function') return 0;
    const flags = events[at + EV_FLAGS];
    const strings = this._strings;
    let headers;
    let url;
    let method;
    let statusCode;
    let statusMessage;
    if (this.lazyHeaders) {
      // The same call without a header array; the URL is there even when an
      // early flush took it.
      if (this._type === REQUEST) {
        url = flushed ? strings.slice(this._flushUrlStart, this._flushUrlEnd) :
          strings.slice(events[at + EV_TEXT_START], events[at + EV_TEXT_END]);
        method = events[at + EV_METHOD];
      } else {
        statusCode = events[at + EV_STATUS];
        statusMessage = strings.slice(events[at + EV_TEXT_START], events[at + EV_TEXT_END]);
      }
    } else if (flushed) {
      if (this._type === REQUEST) {
        method = events[at + EV_METHOD];
      } else {
        statusCode = events[at + EV_STATUS];
        statusMessage = strings.slice(events[at + EV_TEXT_START], events[at + EV_TEXT_END]);
      }
    } else {
      strings.forMessage(events[at + EV_FIRST_PAIR], count, events[at + EV_TEXT_START],
                         events[at + EV_TEXT_END], (flags & HC_REPEATS) !== 0, this._hdrNumber);
      headers = strings.headers;
      if (this._type === REQUEST) {
        url = strings.text;
        method = events[at + EV_METHOD];
      } else {
        statusCode = events[at + EV_STATUS];
        statusMessage = strings.text;
      }
    }
    const ret = cb.call(this, events[at + EV_HTTP_MAJOR], events[at + EV_HTTP_MINOR], headers, method,
                        url, statusCode, statusMessage, (flags & HC_UPGRADE) !== 0,
                        (flags & HC_KEEP_ALIVE) !== 0);
    // The built-in converts with IntegerValue() and keeps 32 bits.
    return (+ret) | 0;
  }

  // Notes where the current message's header pairs (before headers
  // complete) or trailer pairs (after) are; they are contiguous.
  _notePairs(first, count, urlStart, urlEnd) {
    if (this._replayHeadersDone) {
      // Headers kept pending (no kOnHeadersComplete) leave with the trailers.
      const headersEnd = this._hdrFirst + this._hdrCount;
      if (this._hdrCount > 0 && first < headersEnd) {
        count -= Math.min(count, headersEnd - first);
        first = headersEnd;
      }
      if (this._trlCount < 0) {
        this._trlFirst = first;
        this._trlCount = count;
      } else {
        this._trlCount += count;
      }
    } else if (this._hdrCount < 0) {
      this._hdrFirst = first;
      this._hdrCount = count;
      this._flushUrlStart = urlStart;
      this._flushUrlEnd = urlEnd;
    } else {
      this._hdrCount += count;
    }
  }

  // ---- header access without materialising everything (docs/api.md) ----

  // All headers of the current message as [name, value, ...], or [] outside
  // the window from headers complete to the next message's begin.
  getAllHeaders() {
    if (!this._replayHeadersDone || this._hdrCount <= 0) return [];
    const kept = this._strings.keptHeaders(this._hdrNumber);
    if (kept !== null && kept.length === 2 * this._hdrCount) return kept;
    return this._strings.array(this._hdrFirst, this._hdrCount);
  }

  // The trailers of the current message, with the same rules.
  getAllTrailers() {
    if (this._trlCount <= 0) return [];
    return this._strings.array(this._trlFirst, this._trlCount);
  }

  // The first value whose name matches `name` (ASCII case-insensitive), or
  // undefined. Makes no string but the value.
  getHeader(name) {
    if (typeof name !== 'string') throw new TypeError('The "name" argument must be a string');
    if (!this._replayHeadersDone || this._hdrCount <= 0) return undefined;
    return this._strings.find(this._hdrFirst, this._hdrCount, name);
  }

  pause() {
    if (this._closed) return;
    this._state[S_REQUEST] = (this._state[S_REQUEST] & ~R_RESUME) | R_PAUSE;
  }

  resume() {
    if (this._closed) return;
    this._state[S_REQUEST] = (this._state[S_REQUEST] & ~R_PAUSE) | R_RESUME;
  }

  close() {
    if (this._closed) return;
    this.unconsume();
    this._closed = true;
    connections.untrack(this);
    if (!this._destroyed) {
      this._destroyed = true;
      if (this._asyncResource !== null) this._asyncResource.emitDestroy();
    }
    this._native.close();
  }

  free() {
    if (this._closed) return;
    if (!this._destroyed) {
      this._destroyed = true;
      if (this._asyncResource !== null) this._asyncResource.emitDestroy();
    }
  }

  remove() {
    if (this._closed) return;
    if (line.removeSilences) this._silenced = true;
    connections.untrack(this);
  }

  // Reads the socket's chunks straight into execute() (./read-path.js).
  consume(handle) {
    if (this._closed || this._consumedSocket !== null) return;
    if (readPath.consume(this.socket, handle)) this._consumedSocket = this.socket;
  }

  unconsume() {
    const socket = this._consumedSocket;
    if (socket === null) return;
    this._consumedSocket = null;
    readPath.unconsume(socket);
  }

  getCurrentBuffer() {
    if (this._closed) return undefined;
    const input = this._input;
    return input === null || input.length === 0 ? Buffer.alloc(0) : Buffer.from(input);
  }

  // duration() where the line has it (see the end of this file).
  _duration() {
    if (this._closed) return undefined;
    const start = this._messageStart[0];
    // The core stamps message starts with CLOCK_MONOTONIC, like hrtime.
    return start === 0 ? 0 : connections.nowMs() - start;
  }

  // The start of the message under way in ms (0: none), for lib/connections.js:
  // the core publishes it as of the end of the buffer; during a replay it is
  // as of the event being delivered, as the built-in's is (a request handler
  // runs before its message completes: not idle for closeIdleConnections()).
  _messageStartNow() {
    const published = this._messageStart[0];
    if (this._input === null) return published;
    if (!this._replayInMessage) return 0;
    return published !== 0 ? published : connections.nowMs();
  }

  // headersCompleted() where the line has it; lib/connections.js asks it too.
  _headersCompleted() {
    if (this._closed) return undefined;
    // During a replay, as of the event being delivered.
    if (this._input !== null) return this._replayHeadersDone;
    if (this._state[S_REQUEST] & R_RESET) return false;
    return this._state[S_HEADERS_DONE] === 1;
  }
}

// The running line's statics and prototype: 24 added
// kLenientHeaderValueRelaxed, 22 removed duration() and headersCompleted().
for (const name of Object.keys(line.statics)) {
  Object.defineProperty(HTTPParser, name, { value: line.statics[name], enumerable: true });
}
for (const [name, has, method] of [['duration', line.hasDuration, '_duration'],
  ['headersCompleted', line.hasHeadersCompleted, '_headersCompleted']]) {
  if (!has) continue;
  Object.defineProperty(HTTPParser.prototype, name,
    { value: HTTPParser.prototype[method], writable: true, configurable: true, enumerable: false });
}

module.exports = {
  HTTPParser,
  methods: binding.methods,
  allMethods: binding.allMethods,
};
