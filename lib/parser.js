'use strict';
// HTTPParser: a drop-in for the running Node line's built-in
// `require('_http_common').HTTPParser` (what differs between lines: ./node-line.js).
//
// One native crossing per execute(): the C core parses the whole buffer and
// records events (src/core/lhn_parser.h); this file replays them, calling the
// kOn* handlers exactly as the built-in does. When a handler changes the
// course of parsing (kOnHeadersComplete answering 1 or 2, a handler
// throwing), the core rewinds and re-parses from that event.

const { AsyncResource } = require('node:async_hooks');
const binding = require('./native');
const connections = require('./connections');
const incoming = require('./incoming');
const line = require('./node-line');

const { NativeParser } = binding;

const REQUEST = 1;
const RESPONSE = 2;

const kOnMessageBegin = 0;
const kOnHeaders = 1;
const kOnHeadersComplete = 2;
const kOnBody = 3;
const kOnMessageComplete = 4;
const kOnExecute = 5;
const kOnTimeout = 6;

// Event kinds and layout: src/core/lhn_parser.h.
const EV_MESSAGE_BEGIN = 1;
const EV_HEADERS = 2;
const EV_HEADERS_COMPLETE = 3;
const EV_BODY = 4;
const EV_MESSAGE_COMPLETE = 5;
const EVENT_SLOTS = binding.eventSlots;
const PAIR_SLOTS = binding.pairSlots;
const HC_UPGRADE = 1;
const HC_KEEP_ALIVE = 2;
const HC_URL_SAME = 4;
const HC_PAIRS_SAME = 8;
const PAIR_NAME_SAME = 1;
const PAIR_VALUE_SAME = 2;
const PAIR_RECORDED = 4;
const MAX_RECORDED_PAIRS = 128;
// Well-known header names, made once; pair tags name them (bits 16..23).
const KNOWN_NAMES = binding.knownHeaderNames;
const REWIND_ANSWER = 1;
const REWIND_FAIL = 2;
const HPE_USER = 24;

// State block slots: src/binding/addon.cc.
const S_REQUEST = 0;
const S_TYPE = 1;
const S_MAX_HEADER = 2;
const S_LENIENT = 3;
const S_EVENTS = 4;
const S_NREAD = 5;
const S_ERROR = 6;
const S_GENERATION = 7;
const S_HEADERS_DONE = 8;
const S_PAIR_SHIFT = 9;
const S_SLAB_SHIFT = 10;
const S_UPGRADED = 11;
const S_HANDLERS = 12;
const S_MAX_PAIRS = 13;
const S_SLOTS = 14;
const R_RESET = 1;
const R_PAUSE = 2;
const R_RESUME = 4;
const R_HANDLERS = 8;
const R_MAX_PAIRS = 16;
// Which handlers exist, for the core (LHN_HAS_* in src/core/lhn_parser.h).
const HAS_ON_HEADERS = 1;
const HAS_ON_HEADERS_COMPLETE = 2;
const HAS_ALL = HAS_ON_HEADERS | HAS_ON_HEADERS_COMPLETE;

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

const kConsumer = Symbol('llhttp-napi consumer');
// A finish() called from inside a handler, kept for later (see _later()).
const FINISH = Symbol('finish');

// socket.push while a parser consumes the socket (see consume()).
function consumedPush(chunk) {
  // (A string pushed by hand takes the normal path, which makes it a Buffer.)
  if (typeof chunk === 'object' && chunk !== null && this._paused !== true && this.readableFlowing === true &&
      this.readableLength === 0 && !this.destroyed) {
    const parser = this.parser;
    if (parser instanceof HTTPParser) {
      // As with the built-in reading in C++: pending ticks run after each
      // kOnBody and kOnHeaders handler.
      parser._drainTicks = true;
      try {
        this[kConsumer](chunk);
      } finally {
        parser._drainTicks = false;
      }
    } else {
      this[kConsumer](chunk);
    }
    return true;
  }
  return Object.getPrototypeOf(this).push.call(this, chunk);
}

const runPendingTicks = typeof process._tickCallback === 'function' ?
  process._tickCallback : () => {};

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
    this._generation = -1;
    this._slab = EMPTY;
    this._pairs = null;
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
    this._input = null;
    this._replayHeadersDone = false;
    this._replayInMessage = false; // as of the event being delivered, see _messageStartNow()
    this._replayAt = -1;          // index of the event being delivered
    this._nested = null;          // what handlers gave execute()/finish(), see _later()
    this._silenced = false;       // remove() from 24 on: no events until initialize()
    this._kept = [null, null, null, null, null, null, null]; // see _handler()
    this._dumpAtComplete = null;  // see _deferDump()
    // Which of kOnHeaders / kOnHeadersComplete the core was told exist.
    this._handlers = HAS_ALL;
    this._maxPairs = 0;           // header pair limit the core was given
    // Strings of the previous message's header pairs, URL or status text, by
    // position, for reuse when the core sees the same bytes again.
    this._prevPairs = [];   // [name0, value0, name1, value1, ...] by position
    this._curPairs = [];
    this._prevEpoch = 0;
    this._unrecorded = 0;
    this._msgCopied = false;
    this._msgRecorded = false;
    this._prevText = '';
    this._prevTextEpoch = 0;
    // The current message's header and trailer pairs in the pair table, for
    // getAllHeaders(), getHeader() and getAllTrailers(). A count of -1 means
    // no headers are available (before headers complete, after a new message
    // began).
    this._hdrFirst = 0;
    this._hdrCount = -1;
    this._hdrEpoch = 0;
    this._trlFirst = 0;
    this._trlCount = -1;
    this._flushUrlStart = 0;
    this._flushUrlEnd = 0;
    // Lazy mode: kOnHeadersComplete gets no header array (see README).
    this.lazyHeaders = false;
    this._connections = null;
    this._consumedSocket = null;
    this._drainTicks = false;
    this._initCount = 0;
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

  _refreshViews() {
    const buffers = this._native.buffers();
    this._slab = Buffer.from(buffers[0]);
    this._pairs = new Int32Array(buffers[1]);
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
    this._kept.fill(null);
    this._hdrCount = -1;
    this._trlCount = -1;
    if (options !== undefined && options !== null) {
      if (typeof options !== 'object') throw new TypeError('The "options" argument must be an object');
      if (options.lazyHeaders !== undefined) this.lazyHeaders = options.lazyHeaders === true;
    }
    if (!this._destroyed && this._asyncResource !== null) this._asyncResource.emitDestroy();
    this._asyncResource = new AsyncResource(ASYNC_TYPES[type], MANUAL_DESTROY);
    this._destroyed = false;
    connections.track(this, connectionsList);
  }

  execute(data) {
    if (this._closed) return undefined;
    const bytes = toBytes(data);
    if (this._input !== null && this._input !== undefined) return this._later(Buffer.from(bytes));
    this._noteSettings();
    this._exec(bytes);
    const state = this._state;
    if (state[S_GENERATION] !== this._generation) this._refreshViews();
    if (state[S_PAIR_SHIFT] !== 0 || state[S_SLAB_SHIFT] !== 0) this._shift();
    if (this._state[S_EVENTS] === 0) return this._result();
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
      if (this._dumpAtComplete !== null) this._settleDump();
    }
    return this._nested === null ? result : this._runLater(result);
  }

  // execute() or finish() called from inside one of this parser's handlers,
  // as a stream that emits 'data' synchronously does when a handler's event
  // pushes to it (Node's test-http-parser-multiple-execute). The bytes come
  // after the buffer whose events are being delivered: they are parsed (or
  // the finish done) once those are delivered, before the outer call
  // returns. What it returns now: the length, as if parsed (or undefined).
  _later(what) {
    if (this._nested === null) this._nested = [];
    this._nested.push(what);
    return what === FINISH ? undefined : what.length;
  }

  // Runs what _later() kept, in order. The outer call's result stands unless
  // it is clean and one of these fails: then that error is the result (it
  // reaches the connection as if the bytes had come in the next read), and
  // what was kept after it is dropped, as the parser stays failed.
  _runLater(result) {
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
  // pair table: move what lib/ remembers of it along.
  _shift() {
    const state = this._state;
    this._hdrFirst -= state[S_PAIR_SHIFT];
    this._trlFirst -= state[S_PAIR_SHIFT];
    this._flushUrlStart -= state[S_SLAB_SHIFT];
    this._flushUrlEnd -= state[S_SLAB_SHIFT];
  }

  finish() {
    if (this._closed) return undefined;
    if (this._input !== null && this._input !== undefined) return this._later(FINISH);
    this._noteSettings();
    this._native.finish();
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
        if (this._dumpAtComplete !== null) this._settleDump();
      }
    }
    const result = this._state[S_ERROR] === 0 ? undefined : this._error();
    return this._nested === null ? result : this._runLater(result);
  }

  // For lib/incoming.js: a message dumped while its headers are delivered
  // (a client response nobody listens to) whose end is already among this
  // replay's events is dumped when it completes, without resume(). Returns
  // true when the parser takes it on; it then settles the dump by the end of
  // this execute() in any case (resume() if the message did not complete).
  _deferDump(msg) {
    if (this._input === null || this.incoming !== msg || this._dumpAtComplete !== null) return false;
    const events = this._events;
    const count = this._state[S_EVENTS];
    for (let i = this._replayAt + 1; i < count; i++) {
      const kind = events[i * EVENT_SLOTS];
      if (kind === EV_MESSAGE_COMPLETE) {
        this._dumpAtComplete = msg;
        return true;
      }
      if (kind === EV_MESSAGE_BEGIN) break;
    }
    return false;
  }

  _settleDump() {
    const msg = this._dumpAtComplete;
    this._dumpAtComplete = null;
    incoming.finishDump(msg);
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
    if (typeof cb === 'function') this._kept[slot] = cb;
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
      const kind = events[at];
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
        if (input !== EMPTY) this._native.rewind(input, i, REWIND_FAIL, 0, kind === EV_BODY ? HPE_USER : -1);
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
        this._native.rewind(input, i, REWIND_ANSWER, answer, 0);
        if (this._state[S_GENERATION] !== this._generation) this._refreshViews();
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
        this._replayHeadersDone = false;
        this._msgCopied = false;
        this._msgRecorded = false;
        this._hdrCount = -1;
        this._trlCount = -1;
        const cb = this._handler(kOnMessageBegin);
        if (typeof cb === 'function') cb.call(this);
        return 0;
      }
      case EV_HEADERS: {
        this._notePairs(events[at + 2], events[at + 3], events[at + 4], events[at + 5]);
        if (this.lazyHeaders) {
          // Header flushes are not delivered; trailers are, without an array.
          if (this._replayHeadersDone) {
            const cb = this._handler(kOnHeaders);
            if (typeof cb === 'function') cb.call(this, undefined, this._string(events[at + 4], events[at + 5]));
          }
          // Header pairs are made (and recorded) by getAllHeaders() if asked.
          return 0;
        }
        const cb = this._handler(kOnHeaders);
        if (typeof cb === 'function') {
          const first = events[at + 2];
          const count = events[at + 3];
          const headers = this._replayHeadersDone ?
            this._headerArray(first, count, events[at + 6]) :
            this._pairsFor(first, count, events[at + 6], events[at + 7]);
          cb.call(this, headers, this._string(events[at + 4], events[at + 5]));
        } else if (events[at + 3] !== 0) {
          this._unrecorded = events[at + 6];
        }
        return 0;
      }
      case EV_HEADERS_COMPLETE:
        return this._headersComplete(events, at);
      case EV_BODY: {
        const cb = this._handler(kOnBody);
        if (typeof cb === 'function') {
          const start = events[at + 2];
          // The built-in hands over a copy: the input may be reused.
          cb.call(this, Buffer.from(input.subarray(start, start + events[at + 3])));
        }
        return 0;
      }
      case EV_MESSAGE_COMPLETE: {
        this._replayInMessage = false;
        const cb = this._handler(kOnMessageComplete);
        if (typeof cb === 'function') cb.call(this);
        if (this._dumpAtComplete !== null) this._settleDump();
        return 0;
      }
    }
    return 0;
  }

  _headersComplete(events, at) {
    const cb = this._handler(kOnHeadersComplete);
    const epoch = events[at + 12];
    const flushed = events[at + 3] === -1;
    if (!flushed) this._notePairs(events[at + 2], events[at + 3], 0, 0);
    else if (this._hdrCount < 0) this._hdrCount = 0;
    this._hdrEpoch = epoch;
    this._replayHeadersDone = true;
    if (this.lazyHeaders && typeof cb === 'function') return this._lazyHeadersComplete(cb, events, at, flushed);
    if (typeof cb !== 'function') {
      // (The core keeps the pairs pending: they leave with the trailers.)
      this._unrecorded = epoch;
      return 0;
    }
    const flags = events[at + 6];
    let headers;
    let url;
    let method;
    let statusCode;
    let statusMessage;
    if (!flushed) headers = this._pairsFor(events[at + 2], events[at + 3], epoch, flags & HC_PAIRS_SAME);
    if (this._type === REQUEST) {
      if (!flushed) url = this._text(events[at + 4], events[at + 5], flags, epoch);
      method = events[at + 8];
    } else {
      statusCode = events[at + 7];
      statusMessage = this._text(events[at + 4], events[at + 5], flags, epoch);
    }
    this._endRecording(epoch);
    const ret = cb.call(this, events[at + 9], events[at + 10], headers, method, url,
                        statusCode, statusMessage, (flags & HC_UPGRADE) !== 0,
                        (flags & HC_KEEP_ALIVE) !== 0);
    // The built-in converts with IntegerValue() and keeps 32 bits.
    return (+ret) | 0;
  }

  // Lazy mode: the same call without a header array; the URL is there even
  // when an early flush took it.
  _lazyHeadersComplete(cb, events, at, flushed) {
    const flags = events[at + 6];
    let url;
    let method;
    let statusCode;
    let statusMessage;
    if (this._type === REQUEST) {
      url = flushed ? this._string(this._flushUrlStart, this._flushUrlEnd) :
        this._string(events[at + 4], events[at + 5]);
      method = events[at + 8];
    } else {
      statusCode = events[at + 7];
      statusMessage = this._string(events[at + 4], events[at + 5]);
    }
    const ret = cb.call(this, events[at + 9], events[at + 10], undefined, method, url,
                        statusCode, statusMessage, (flags & HC_UPGRADE) !== 0,
                        (flags & HC_KEEP_ALIVE) !== 0);
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

  // ---- header access without materialising everything (see README) ----

  // All headers of the current message as [name, value, ...], or [] outside
  // the window from headers complete to the next message's begin.
  getAllHeaders() {
    if (!this._replayHeadersDone || this._hdrCount <= 0) return [];
    const epoch = this._hdrEpoch;
    const count = this._hdrCount;
    // The strings made for this message already (kOnHeadersComplete's array).
    if (this._prevEpoch === epoch && count <= MAX_RECORDED_PAIRS) return this._prevPairs.slice(0, 2 * count);
    if (this.lazyHeaders && this._unrecorded !== epoch && this._prevEpoch !== epoch) {
      // Lazy mode: make them now, reusing and recording as at headers complete.
      const out = this._headerArray(this._hdrFirst, count, epoch);
      this._endRecording(epoch);
      return out;
    }
    return this._plainArray(this._hdrFirst, count);
  }

  // The trailers of the current message, with the same rules.
  getAllTrailers() {
    if (this._trlCount <= 0) return [];
    return this._plainArray(this._trlFirst, this._trlCount);
  }

  // The first value whose name matches `name` (ASCII case-insensitive), or
  // undefined. Makes no string but the value.
  getHeader(name) {
    if (typeof name !== 'string') throw new TypeError('The "name" argument must be a string');
    if (!this._replayHeadersDone || this._hdrCount <= 0) return undefined;
    const pairs = this._pairs;
    const slab = this._slab;
    const length = name.length;
    const end = (this._hdrFirst + this._hdrCount) * PAIR_SLOTS;
    for (let p = this._hdrFirst * PAIR_SLOTS; p < end; p += PAIR_SLOTS) {
      const start = pairs[p];
      if (pairs[p + 1] - start !== length) continue;
      let j = 0;
      for (; j < length; j++) {
        let a = slab[start + j];
        let b = name.charCodeAt(j);
        if (a === b) continue;
        if (a >= 0x41 && a <= 0x5a) a += 0x20;
        if (b >= 0x41 && b <= 0x5a) b += 0x20;
        if (a !== b) break;
      }
      if (j === length) {
        const tag = pairs[p + 4];
        if (this._prevEpoch === this._hdrEpoch && (tag & PAIR_RECORDED) !== 0) {
          return this._prevPairs[((tag >> 3) & 0x1fff) * 2 + 1];
        }
        return this._string(pairs[p + 2], pairs[p + 3]);
      }
    }
    return undefined;
  }

  // [name, value, ...] of pairs [first, first + count), straight from the
  // slab.
  _plainArray(first, count) {
    const out = new Array(count * 2);
    const pairs = this._pairs;
    const lo = pairs[first * PAIR_SLOTS];
    const block = this._block(first, count);
    for (let i = 0, p = first * PAIR_SLOTS; i < count; i++, p += PAIR_SLOTS) {
      out[2 * i] = block.slice(pairs[p] - lo, pairs[p + 1] - lo);
      out[2 * i + 1] = block.slice(pairs[p + 2] - lo, pairs[p + 3] - lo);
    }
    return out;
  }

  // The URL or status text of a message, reusing the previous message's
  // string when the core saw the same bytes.
  _text(start, end, flags, epoch) {
    const text = (flags & HC_URL_SAME) !== 0 && this._prevTextEpoch === epoch - 1 ?
      this._prevText : this._string(start, end);
    this._prevText = text;
    this._prevTextEpoch = epoch;
    return text;
  }

  // The strings made for this message's header pairs become the ones to
  // reuse for the next message, unless some pairs were never made.
  _endRecording(epoch) {
    const copied = this._msgCopied;
    const recorded = this._msgRecorded;
    this._msgCopied = false;
    this._msgRecorded = false;
    if (this._unrecorded === epoch || (copied && recorded)) {
      this._prevEpoch = 0;
      return;
    }
    if (copied) {
      // Every pair repeated the previous message's: its strings are this
      // message's too.
      this._prevEpoch = epoch;
      return;
    }
    const pairs = this._prevPairs;
    this._prevPairs = this._curPairs;
    this._curPairs = pairs;
    this._prevEpoch = epoch;
  }

  _string(start, end) {
    return end > start ? this._slab.latin1Slice(start, end) : '';
  }

  // The header array of header pairs [first, first + count) of a message:
  // when the core says they all repeat the previous message's, a copy of
  // the previous strings; otherwise made (and recorded) pair by pair.
  _pairsFor(first, count, epoch, same) {
    if (same !== 0 && count > 0 && this._prevEpoch === epoch - 1) {
      const k = ((this._pairs[first * PAIR_SLOTS + 4] >> 3) & 0x1fff) * 2;
      this._msgCopied = true;
      return this._prevPairs.slice(k, k + 2 * count);
    }
    if (count > 0) this._msgRecorded = true;
    return this._headerArray(first, count, epoch);
  }

  // A flat [name, value, ...] array of pairs [first, first + count). Names
  // and values whose bytes repeat the previous message's (same position)
  // reuse its strings; the others are cut from one string of the block.
  _headerArray(first, count, epoch) {
    const out = new Array(count * 2);
    if (count === 0) return out;
    const pairs = this._pairs;
    const reuse = this._prevEpoch === epoch - 1;
    const prev = this._prevPairs;
    const cur = this._curPairs;
    const lo = pairs[first * PAIR_SLOTS];
    let block = null;
    for (let i = 0, p = first * PAIR_SLOTS; i < count; i++, p += PAIR_SLOTS) {
      const tag = pairs[p + 4];
      const k = ((tag >> 3) & 0x1fff) * 2;
      let name;
      let value;
      if (reuse && (tag & PAIR_NAME_SAME) !== 0) {
        name = prev[k];
      } else if (tag >= 0x10000) {
        name = KNOWN_NAMES[(tag >> 16) - 1];
      } else {
        if (block === null) block = this._block(first, count);
        name = block.slice(pairs[p] - lo, pairs[p + 1] - lo);
      }
      if (reuse && (tag & PAIR_VALUE_SAME) !== 0) {
        value = prev[k + 1];
      } else {
        if (block === null) block = this._block(first, count);
        value = block.slice(pairs[p + 2] - lo, pairs[p + 3] - lo);
      }
      if ((tag & PAIR_RECORDED) !== 0) {
        cur[k] = name;
        cur[k + 1] = value;
      }
      out[2 * i] = name;
      out[2 * i + 1] = value;
    }
    return out;
  }

  // One string of the slab bytes of pairs [first, first + count).
  _block(first, count) {
    const pairs = this._pairs;
    const lo = pairs[first * PAIR_SLOTS];
    const hi = pairs[(first + count - 1) * PAIR_SLOTS + 3];
    return hi > lo ? this._slab.latin1Slice(lo, hi) : '';
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

  // The built-in reads the socket in C++ once the server consumes it. Ours
  // takes the socket's reads at its push(), before the stream machinery:
  // each chunk goes straight to the server's own 'data' handler, without the
  // Readable buffering, the 'data' emit and the read-more tick per read.
  // Anything unusual (a paused or non-flowing socket, buffered data, other
  // 'data' listeners, end of stream) takes the normal path.
  consume(handle) {
    if (this._closed) return;
    const socket = this.socket;
    if (socket === null || typeof socket !== 'object' || socket._handle !== handle ||
        this._consumedSocket !== null) {
      return;
    }
    const listeners = socket.listeners('data');
    if (listeners.length !== 1) return;
    socket[kConsumer] = listeners[0];
    socket.push = consumedPush;
    this._consumedSocket = socket;
  }

  unconsume() {
    const socket = this._consumedSocket;
    if (socket === null) return;
    this._consumedSocket = null;
    if (socket.push === consumedPush) delete socket.push;
    socket[kConsumer] = undefined;
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
    return start === 0 ? 0 : Number(process.hrtime.bigint()) / 1e6 - start;
  }

  // The start of the message under way in ms (0: none), for lib/connections.js:
  // the core publishes it as of the end of the buffer; during a replay it is
  // as of the event being delivered, as the built-in's is (a request handler
  // runs before its message completes: not idle for closeIdleConnections()).
  _messageStartNow() {
    const published = this._messageStart[0];
    if (this._input === null) return published;
    if (!this._replayInMessage) return 0;
    return published !== 0 ? published : Number(process.hrtime.bigint()) / 1e6;
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
