'use strict';
// The Node-compatibility loop of one parser (lib/parser.js): after the core
// parsed a buffer (./core.js), walks its events and calls the parser's kOn*
// handlers exactly as the built-in does, in the async context of
// initialize(). When a handler changes the course of parsing
// (kOnHeadersComplete answering 1 or 2, a handler throwing), the core
// rewinds and re-parses from that event. Also what the built-in does around
// that loop: kOnExecute after a consumed read, execute() or finish() called
// from a handler, the handler lookups of each Node line (./node-line.js).

const line = require('./node-line');
const { Core } = require('./core');

const { MESSAGE_BEGIN, HEADERS, HEADERS_COMPLETE, BODY, MESSAGE_COMPLETE } = Core;

// Node's parser type and handler slots.
const REQUEST = 1;
const kOnMessageBegin = 0;
const kOnHeaders = 1;
const kOnHeadersComplete = 2;
const kOnBody = 3;
const kOnMessageComplete = 4;
const kOnExecute = 5;
const MAX_INT32 = 2 ** 31 - 1;
const EMPTY = Buffer.alloc(0);

// A finish() called from inside a handler, kept for later (see queueNested()).
const FINISH = Symbol('finish');

const runPendingTicks = typeof process._tickCallback === 'function' ?
  process._tickCallback : () => {};

class Replay {
  constructor(parser) {
    this.parser = parser;         // `this` of the handlers
    this.core = new Core();
    this.scope = null;            // the AsyncResource of initialize()
    this.type = 1;
    this.closed = false;
    this.initCount = 0;
    this.input = null;            // the bytes whose events are being delivered
    this.inputLength = 0;
    this.read = null;             // a consumed read, during its kOnExecute
    this.readLength = 0;
    this.at = -1;                 // index of the event being delivered
    this.inMessage = false;       // as of the event being delivered, see messageStart()
    this.begunSinceInit = false;
    this.silenced = false;        // remove() from 24 on: no events until initialize()
    this.kept = [null, null, null, null, null, null, null]; // see handler()
    this.keptAny = false;
    this.nested = null;           // what handlers gave execute()/finish(), see queueNested()
    this.whenCompleteArg = null;  // see whenComplete()
    this.whenCompleteFn = null;
    this.socket = null;           // the consumed socket, during one of its reads
  }

  // initialize(): a new parser of `type`, its handlers run in `scope`.
  reset(type, scope) {
    this.type = type;
    this.scope = scope;
    this.initCount++;
    this.silenced = false;
    this.begunSinceInit = false;
    if (this.keptAny) {
      this.kept.fill(null);
      this.keptAny = false;
    }
  }

  // Parses bytes[0, length) and delivers their events; returns what
  // execute() does.
  execute(bytes, length) {
    if (this.input !== null) return this.queueNested(Buffer.from(bytes.subarray(0, length)));
    const core = this.core;
    this.noteSettings();
    if (!core.execute(bytes.buffer, bytes.byteOffset, length)) {
      // (Bytes in a SharedArrayBuffer: parsed from a copy.)
      bytes = Buffer.from(bytes.subarray(0, length));
      core.execute(bytes.buffer, bytes.byteOffset, length);
    }
    if (core.eventCount() === 0) return core.result();
    this.input = bytes;
    this.inputLength = length;
    let result;
    let delivered = false;
    // (finish() has the same try/finally. One helper for both cost 400-700
    // instructions per message here, callgrind len=8: kept inline.)
    try {
      const scope = this.scope;
      result = scope === null ? this.replay() : scope.runInAsyncScope(this.replay, this);
      delivered = true;
    } finally {
      this.input = null;
      this.inMessage = core.messageStart() !== 0;
      if (!delivered) this.nested = null;
      if (this.whenCompleteArg !== null) this.runWhenComplete();
    }
    return this.nested === null ? result : this.runNested(result);
  }

  finish() {
    if (this.input !== null) return this.queueNested(FINISH);
    const core = this.core;
    this.noteSettings();
    core.finish();
    if (core.eventCount() !== 0) {
      this.input = EMPTY;
      this.inputLength = 0;
      let delivered = false;
      try {
        const scope = this.scope;
        if (scope === null) this.replay();
        else scope.runInAsyncScope(this.replay, this);
        delivered = true;
      } finally {
        this.input = null;
        this.inMessage = core.messageStart() !== 0;
        if (!delivered) this.nested = null;
        if (this.whenCompleteArg !== null) this.runWhenComplete();
      }
    }
    const result = core.failed() ? core.error() : undefined;
    return this.nested === null ? result : this.runNested(result);
  }

  // A read of the consumed `socket`, as the built-in's C++ handles one:
  // parse, then kOnExecute(result), during which currentBuffer() is the
  // read (node:http's rawPacket of a parse error, the head of an upgrade).
  // Pending ticks run after each kOnBody and kOnHeaders handler, as they do
  // after the built-in's callbacks.
  consumedRead(socket, bytes, length) {
    if (this.input !== null) {
      this.queueNested(Buffer.from(bytes.subarray(0, length)));
      return;
    }
    let result;
    this.socket = socket;
    try {
      result = this.execute(bytes, length);
    } finally {
      this.socket = null;
    }
    const cb = this.parser[kOnExecute];
    if (typeof cb !== 'function') return;
    this.read = bytes;
    this.readLength = length;
    try {
      cb.call(this.parser, result);
    } finally {
      this.read = null;
    }
  }

  // The bytes being parsed, or the consumed read being reported.
  currentBuffer() {
    const replaying = this.input !== null;
    const bytes = replaying ? this.input : this.read;
    if (bytes === null) return Buffer.alloc(0);
    // (Bytes a handler detached or shrank are copied as they are now.)
    const length = Math.min(replaying ? this.inputLength : this.readLength, bytes.length);
    return length === 0 ? Buffer.alloc(0) : Buffer.from(bytes.subarray(0, length));
  }

  // execute() or finish() called from inside one of this parser's handlers,
  // as a stream that emits 'data' synchronously does when a handler's event
  // pushes to it (Node's test-http-parser-multiple-execute). The bytes come
  // after the buffer whose events are being delivered: they are parsed (or
  // the finish done) once those are delivered, before the outer call
  // returns. What it returns now: the length, as if parsed (or undefined).
  queueNested(what) {
    if (this.nested === null) this.nested = [];
    this.nested.push(what);
    return what === FINISH ? undefined : what.length;
  }

  // Runs what queueNested() kept, in order. The outer call's result stands
  // unless it is clean and one of these fails: then that error is the
  // result (it reaches the connection as if the bytes had come in the next
  // read), and what was kept after it is dropped, as the parser stays failed.
  runNested(result) {
    const queue = this.nested;
    this.nested = null;
    if (result instanceof Error) return result;
    for (let i = 0; i < queue.length && !this.closed; i++) {
      const what = queue[i];
      const r = what === FINISH ? this.finish() : this.execute(what, what.length);
      if (r instanceof Error) return r;
    }
    return result;
  }

  // For callers that act on a message once it has completed: when `arg` is
  // the parser's incoming message, being delivered, and its end is among the
  // events of this execute(), fn(arg) is called once it completes, or at the
  // end of this execute() in any case. Returns whether it took it on.
  whenComplete(arg, fn) {
    if (this.input === null || this.parser.incoming !== arg || this.whenCompleteArg !== null) return false;
    if (!this.core.completesAfter(this.at)) return false;
    this.whenCompleteArg = arg;
    this.whenCompleteFn = fn;
    return true;
  }

  runWhenComplete() {
    const arg = this.whenCompleteArg;
    const fn = this.whenCompleteFn;
    this.whenCompleteArg = null;
    this.whenCompleteFn = null;
    fn(arg);
  }

  // The start of the message under way in ms (0: none): the core publishes
  // it as of the end of the buffer; during a replay it is as of the event
  // being delivered, as the built-in's is (a request handler runs before its
  // message completes: not idle for closeIdleConnections()).
  messageStart(nowMs) {
    const published = this.core.messageStart();
    if (this.input === null) return published;
    if (!this.inMessage) return 0;
    return published !== 0 ? published : nowMs();
  }

  // Whether the current message's headers completed, as of the event being
  // delivered during a replay.
  headersCompleted() {
    return this.input !== null ? this.core.headersDelivered : this.core.headersCompleted();
  }

  // The built-in looks its handlers up at each callback, and without a
  // kOnHeaders or kOnHeadersComplete function it keeps headers pending
  // differently: tell the core which exist. From 22 on it also limits a
  // request's header pairs to the parser's maxHeaderPairs. (Both sampled
  // once per call.)
  noteSettings() {
    const core = this.core;
    core.noteHandlers(typeof this.peekHandler(kOnHeaders) === 'function',
      typeof this.peekHandler(kOnHeadersComplete) === 'function');
    if (line.limitsHeaderPairs) {
      const max = this.parser.maxHeaderPairs;
      core.noteMaxPairs(typeof max === 'number' && max > 0 ? Math.min(Math.floor(max), MAX_INT32) : 0);
    }
  }

  // The handler in a slot, looked up as the built-in does: from 26 on, the
  // first function found in kOnHeadersComplete, kOnBody or kOnMessageComplete
  // stays until initialize().
  handler(slot) {
    if (!line.keepsHandlers || slot < kOnHeadersComplete) return this.parser[slot];
    const kept = this.kept[slot];
    if (kept !== null) return kept;
    const cb = this.parser[slot];
    if (typeof cb === 'function') {
      this.kept[slot] = cb;
      this.keptAny = true;
    }
    return cb;
  }

  // The same without keeping what it finds.
  peekHandler(slot) {
    return line.keepsHandlers && slot >= kOnHeadersComplete && this.kept[slot] !== null ?
      this.kept[slot] : this.parser[slot];
  }

  // Delivers the recorded events to the kOn* handlers. A handler that throws
  // stops parsing there (the core rewinds and fails at that event), except
  // kOnMessageBegin and kOnHeaders: the built-in goes on parsing after those
  // and may throw at the end (see lateError below and ./node-line.js).
  replay() {
    const core = this.core;
    const input = this.input;
    let count = core.eventCount();
    // The exception of the last kOnMessageBegin / kOnHeaders that threw, as
    // long as the built-in would still throw it from execute().
    let late = false;
    let lateError;
    let headersThrew = false;
    for (let i = 0; i < count; i++) {
      // (A parser removed by a handler delivers nothing more, from 24 on.)
      if (this.silenced) break;
      const kind = core.kind(i);
      // (22 on: the built-in's lookup of the next handler drops it.)
      if (line.handlerLookupDropsException) late = false;
      let answer = 0;
      try {
        this.at = i;
        answer = this.deliver(kind, i, input);
      } catch (err) {
        if (kind === MESSAGE_BEGIN || (kind === HEADERS && line.headersThrowIsLate)) {
          late = true;
          lateError = err;
        }
        if (kind === HEADERS) headersThrew = true;
        if (kind === MESSAGE_BEGIN || kind === HEADERS) continue;
        // (finish() has no buffer to re-parse: the built-in leaves the
        // parser where it was then.)
        if (input !== EMPTY) core.rewindFail(input, this.inputLength, i);
        throw err;
      }
      // (Not while the socket holds buffered data: a tick resuming it would
      // hand that data to this parser's execute() in the middle of this one.)
      if (this.socket !== null && (kind === BODY || kind === HEADERS) && this.socket.readableLength === 0) {
        const initCount = this.initCount;
        runPendingTicks();
        // A tick may have closed the parser or given it to a new connection.
        if (this.closed || this.initCount !== initCount) return core.result();
      }
      if (answer !== 0) {
        core.rewindAnswer(input, this.inputLength, i, answer);
        count = core.eventCount();
      }
    }
    core.resumeAfterUpgrade();
    if (headersThrew && line.headersThrowHidesResult) {
      if (late) throw lateError;
      return undefined;
    }
    if (late && (!core.failed() || !line.handlerLookupDropsException)) throw lateError;
    return core.result();
  }

  // Calls the handler of event `i`; returns kOnHeadersComplete's answer.
  deliver(kind, i, input) {
    const core = this.core;
    const parser = this.parser;
    switch (kind) {
      case MESSAGE_BEGIN: {
        this.inMessage = true;
        this.begunSinceInit = true;
        core.beginMessage();
        const cb = this.handler(kOnMessageBegin);
        if (typeof cb === 'function') cb.call(parser);
        return 0;
      }
      case HEADERS:
        return this.headersFlushed(i);
      case HEADERS_COMPLETE:
        return this.headersComplete(i);
      case BODY: {
        const cb = this.handler(kOnBody);
        if (typeof cb === 'function') {
          const start = core.bodyStart(i);
          // The built-in hands over a copy: the input may be reused.
          cb.call(parser, Buffer.from(input.subarray(start, start + core.bodyLength(i))));
        }
        return 0;
      }
      case MESSAGE_COMPLETE: {
        this.inMessage = false;
        const cb = this.handler(kOnMessageComplete);
        if (typeof cb === 'function') cb.call(parser);
        if (this.whenCompleteArg !== null) this.runWhenComplete();
        return 0;
      }
    }
    return 0;
  }

  // kOnHeaders: an early flush of header pairs (with the URL so far), or
  // trailers. (Out of deliver(), which stays small enough to be inlined.)
  headersFlushed(i) {
    const core = this.core;
    const parser = this.parser;
    core.noteFlush(i);
    const cb = this.handler(kOnHeaders);
    if (typeof cb !== 'function') return 0;
    if (!parser.lazyHeaders) cb.call(parser, core.flushHeaders(i), core.flushText(i));
    // Lazy mode: header flushes are not delivered; trailers are, without an
    // array.
    else if (core.headersDelivered) cb.call(parser, undefined, core.flushText(i));
    return 0;
  }

  // kOnHeadersComplete; returns its answer. (Without a handler the core
  // keeps the pairs pending: they leave with the trailers.)
  headersComplete(i) {
    const core = this.core;
    const parser = this.parser;
    const cb = this.handler(kOnHeadersComplete);
    const has = typeof cb === 'function';
    const headers = core.completeHeaders(i, has, parser.lazyHeaders, this.type);
    if (!has) return 0;
    const request = this.type === REQUEST;
    const ret = cb.call(parser, core.major(i), core.minor(i), headers,
      request ? core.method(i) : undefined, request ? core.text : undefined,
      request ? undefined : core.statusCode(i), request ? undefined : core.text,
      core.upgrade(i), core.keepAlive(i));
    // The built-in converts with IntegerValue() and keeps 32 bits.
    return (+ret) | 0;
  }
}

module.exports = { Replay };
