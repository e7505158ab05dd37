'use strict';
// One parser's native half and its Node-compatibility loop (lib/parser.js is
// its API). The Replay owns the parser's native slot and everything of the
// parser that lives between calls: the commands the core gets with the next
// call, the handler lookups of each Node line (./node-line.js), the window
// of the current message's head. A call borrows a workspace (./workspace.js),
// the core parses the whole buffer into its events, and feed() walks them,
// calling the kOn* handlers exactly as the built-in does, in the async
// context of initialize(). When a handler changes the course of parsing
// (kOnHeadersComplete answering 1 or 2, a handler throwing), the core
// rewinds and re-parses from that event. Also what the built-in does around
// that loop: kOnExecute after a consumed read, execute() or finish() called
// from a handler.

const line = require('./node-line');
const workspace = require('./workspace');

const { MESSAGE_BEGIN, HEADERS, HEADERS_COMPLETE, BODY, MESSAGE_COMPLETE } = workspace.EVENT;
const {
  CMD_RESET, CMD_PAUSE, CMD_RESUME, CMD_HANDLERS, CMD_MAX_PAIRS, HAS_ON_HEADERS,
  HAS_ON_HEADERS_COMPLETE, HC_REPEATS, HC_RECORDED,
} = workspace.layout;
const { REQUEST, kOnMessageBegin, kOnHeaders, kOnHeadersComplete, kOnBody, kOnMessageComplete,
  kOnExecute } = line.statics;
// The running line's behaviours (./node-line.js), as constants of this module.
const { limitsHeaderPairs, keepsHandlers, handlerLookupDropsException, headersThrowIsLate,
  headersThrowHidesResult } = line;

const MAX_INT32 = 2 ** 31 - 1;
const EMPTY = Buffer.alloc(0);

// A finish() called from inside a handler, kept for later (see queueNested()).
const FINISH = Symbol('finish');

const runPendingTicks = typeof process._tickCallback === 'function' ?
  process._tickCallback : () => {};

class Replay {
  constructor(parser) {
    this.parser = parser;         // `this` of the handlers
    this.slot = workspace.create(this); // native state, freed with this object or by close()
    this.scope = null;            // the AsyncResource of initialize()
    this.type = REQUEST;
    this.closed = false;
    this.initCount = 0;
    // What the core gets with the next call: CMD_* bits and their arguments.
    this.commands = 0;
    this.maxHeaderSize = 0;
    this.lenientFlags = 0;
    this.handlers = HAS_ON_HEADERS | HAS_ON_HEADERS_COMPLETE; // as the core knows them
    this.maxPairs = 0;
    this.initStartMs = 0;         // the clock initialize() started (connection tracking)
    // The call being delivered.
    this.ws = null;               // its workspace
    this.input = null;            // its bytes (or, during kOnExecute, the read's)
    this.inputLength = 0;
    this.at = -1;                 // index of the event being delivered
    this.socket = null;           // the consumed socket, during one of its reads
    this.inMessage = false;       // as of the event being delivered, see messageStart()
    this.begunSinceInit = false;
    this.silenced = false;        // remove() from 24 on: no events until initialize()
    this.heldHandlers = null;     // 26 on: see handler()
    this.nested = null;           // what handlers gave execute()/finish(), see queueNested()
    this.whenCompleteArg = null;  // see whenComplete()
    this.whenCompleteFn = null;
    // The current message's head (getAllHeaders()): header and trailer pairs
    // delivered by the call under way (its workspace keeps which) and what
    // earlier calls delivered, frozen (see endCall()).
    this.headersDelivered = false;
    this.hdrFrozen = null;
    this.trlFrozen = null;
    this.flushUrl = null;         // lazy mode: the URL an early flush took
    // The strings made for a message the core recorded, for the next if it
    // repeats (HC_REPEATS): { headers, text, number }, made at the first.
    this.repeat = null;
  }

  // ---- lifecycle (lib/parser.js) -------------------------------------------

  // initialize(): a new stream of `type`, its handlers run in `scope`; the
  // core starts over as the next call begins. (A pause or resume still
  // pending is dropped; a new handler set or pair limit is not.)
  reset(type, scope, maxHeaderSize, lenientFlags, startMs) {
    this.type = type;
    this.scope = scope;
    this.initCount++;
    this.silenced = false;
    this.begunSinceInit = false;
    this.heldHandlers = null;
    this.commands = CMD_RESET | (this.commands & (CMD_HANDLERS | CMD_MAX_PAIRS));
    this.maxHeaderSize = maxHeaderSize;
    this.lenientFlags = lenientFlags;
    this.initStartMs = startMs;
    this.clearHead();
  }

  pause() {
    this.commands = (this.commands & ~CMD_RESUME) | CMD_PAUSE;
  }

  resume() {
    this.commands = (this.commands & ~CMD_PAUSE) | CMD_RESUME;
  }

  // remove() from 24 on: no events until initialize().
  silence() {
    this.silenced = true;
  }

  // unconsume(): no more ticks drained during a read under way.
  unconsumed() {
    this.socket = null;
  }

  // The native state goes now (or when the call under way ends).
  close() {
    if (this.closed) return;
    this.closed = true;
    if (this.ws === null) workspace.close(this.slot);
  }

  // ---- calls -------------------------------------------------------------------

  // Parses bytes[0, length) and delivers their events; returns what
  // execute() does.
  feed(bytes, length) {
    if (this.ws !== null) return this.queueNested(Buffer.from(bytes.subarray(0, length)));
    if (this.closed) return undefined;
    this.noteSettings();
    const ws = workspace.borrow();
    if (this.commands !== 0) this.sendCommands(ws);
    ws.clearWindow();
    try {
      ws.parse(this.slot, bytes, length);
      this.commands = 0;
    } catch (err) {
      workspace.giveBack(ws);
      throw err;
    }
    if (ws.eventCount() === 0) {
      const result = ws.result();
      workspace.giveBack(ws);
      return result;
    }
    this.ws = ws;
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
      this.endCall(ws);
      if (!delivered) this.nested = null;
      if (this.whenCompleteArg !== null) this.runWhenComplete();
    }
    return this.nested === null ? result : this.runNested(result);
  }

  finish() {
    if (this.ws !== null) return this.queueNested(FINISH);
    if (this.closed) return undefined;
    this.noteSettings();
    const ws = workspace.borrow();
    if (this.commands !== 0) this.sendCommands(ws);
    ws.clearWindow();
    try {
      ws.finish(this.slot);
      this.commands = 0;
    } catch (err) {
      workspace.giveBack(ws);
      throw err;
    }
    const result = ws.failed() ? ws.error() : undefined;
    if (ws.eventCount() !== 0) {
      this.ws = ws;
      this.input = EMPTY;
      this.inputLength = 0;
      let delivered = false;
      try {
        const scope = this.scope;
        if (scope === null) this.replay();
        else scope.runInAsyncScope(this.replay, this);
        delivered = true;
      } finally {
        this.endCall(ws);
        if (!delivered) this.nested = null;
        if (this.whenCompleteArg !== null) this.runWhenComplete();
      }
    } else {
      workspace.giveBack(ws);
    }
    return this.nested === null ? result : this.runNested(result);
  }

  // Hands the pending commands to the core with the call about to be made
  // (they stay pending here until a call took them).
  sendCommands(ws) {
    ws.commands(this.commands, this.type, this.maxHeaderSize, this.lenientFlags, this.handlers, this.maxPairs);
  }

  // The built-in looks its handlers up at each callback, and without a
  // kOnHeaders or kOnHeadersComplete function it keeps headers pending
  // differently: tell the core which exist. From 22 on it also limits a
  // request's header pairs to the parser's maxHeaderPairs. (Both sampled
  // once per call.)
  noteSettings() {
    const has = (typeof this.peekHandler(kOnHeaders) === 'function' ? HAS_ON_HEADERS : 0) |
      (typeof this.peekHandler(kOnHeadersComplete) === 'function' ? HAS_ON_HEADERS_COMPLETE : 0);
    if (has !== this.handlers) {
      this.handlers = has;
      this.commands |= CMD_HANDLERS;
    }
    if (limitsHeaderPairs) {
      const max = this.parser.maxHeaderPairs;
      const pairs = typeof max === 'number' && max > 0 ? Math.min(Math.floor(max), MAX_INT32) : 0;
      if (pairs !== this.maxPairs) {
        this.maxPairs = pairs;
        this.commands |= CMD_MAX_PAIRS;
      }
    }
  }

  // The call is over: the workspace goes back. What getAllHeaders() must
  // still answer is frozen in lazy mode, until the next message begins;
  // otherwise nothing of the head outlives the call (docs/api.md: an idle or
  // waiting connection holds no header bytes of ours).
  endCall(ws) {
    if (this.parser.lazyHeaders) {
      this.hdrFrozen = workspace.freezePairs(this.hdrFrozen, ws, ws.headerFirst, ws.headerCount);
      this.trlFrozen = workspace.freezePairs(this.trlFrozen, ws, ws.trailerFirst, ws.trailerCount);
    }
    this.ws = null;
    this.input = null;
    workspace.giveBack(ws);
    if (this.closed) workspace.close(this.slot);
  }

  // A read of the consumed `socket`, as the built-in's C++ handles one:
  // parse, then kOnExecute(result), during which currentBuffer() is the
  // read (node:http's rawPacket of a parse error, the head of an upgrade).
  // Pending ticks run after each kOnBody and kOnHeaders handler, as they do
  // after the built-in's callbacks.
  consumedRead(socket, bytes, length) {
    if (this.ws !== null) {
      this.queueNested(Buffer.from(bytes.subarray(0, length)));
      return;
    }
    let result;
    this.socket = socket;
    try {
      result = this.feed(bytes, length);
    } finally {
      this.socket = null;
    }
    const cb = this.parser[kOnExecute];
    if (typeof cb !== 'function') return;
    this.input = bytes;
    this.inputLength = length;
    try {
      cb.call(this.parser, result);
    } finally {
      this.input = null;
    }
  }

  // The bytes being parsed, or the consumed read being reported.
  currentBuffer() {
    const bytes = this.input;
    if (bytes === null) return Buffer.alloc(0);
    // (Bytes a handler detached or shrank are copied as they are now.)
    const length = Math.min(this.inputLength, bytes.length);
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
      const r = what === FINISH ? this.finish() : this.feed(what, what.length);
      if (r instanceof Error) return r;
    }
    return result;
  }

  // For callers that act on a message once it has completed: when `arg` is
  // the parser's incoming message, being delivered, and its end is among the
  // events of this execute(), fn(arg) is called once it completes, or at the
  // end of this execute() in any case. Returns whether it took it on.
  whenComplete(arg, fn) {
    if (this.ws === null || this.parser.incoming !== arg || this.whenCompleteArg !== null) return false;
    if (!this.ws.completesAfter(this.at)) return false;
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

  // ---- what other modules ask ---------------------------------------------------

  // The start of the message under way in ms (0: none). During a replay it
  // is as of the event being delivered, as the built-in's is (a request
  // handler runs before its message completes: not idle for
  // closeIdleConnections()); else as of the end of the last call, or the
  // clock initialize() started while no message has begun.
  messageStart(nowMs) {
    if (this.closed) return 0;
    if (this.ws !== null) {
      if (!this.inMessage) return 0;
      const start = workspace.messageStart(this.slot);
      return start !== 0 ? start : nowMs();
    }
    const start = (this.commands & CMD_RESET) !== 0 ? 0 : workspace.messageStart(this.slot);
    return start !== 0 ? start : this.begunSinceInit ? 0 : this.initStartMs;
  }

  // Whether the current message's headers completed, as of the event being
  // delivered during a replay.
  headersCompleted() {
    if (this.ws !== null) return this.headersDelivered;
    if (this.closed || (this.commands & CMD_RESET) !== 0) return false;
    return workspace.headersComplete(this.slot);
  }

  stats() {
    return workspace.stats(this.slot);
  }

  // ---- the current message's head (docs/api.md) ---------------------------

  clearHead() {
    this.headersDelivered = false;
    this.hdrFrozen = null;
    this.trlFrozen = null;
    this.flushUrl = null;
    if (this.ws !== null) this.ws.clearWindow();
  }

  // All headers of the current message as [name, value, ...].
  allHeaders() {
    if (!this.headersDelivered) return [];
    const ws = this.ws;
    return ws === null ? workspace.pairArray(this.hdrFrozen, null, 0, 0) :
      workspace.pairArray(this.hdrFrozen, ws, ws.headerFirst, ws.headerCount);
  }

  allTrailers() {
    const ws = this.ws;
    return ws === null ? workspace.pairArray(this.trlFrozen, null, 0, 0) :
      workspace.pairArray(this.trlFrozen, ws, ws.trailerFirst, ws.trailerCount);
  }

  // The first header value whose name is `name`, or undefined.
  header(name) {
    if (!this.headersDelivered) return undefined;
    const ws = this.ws;
    return ws === null ? workspace.pairValue(this.hdrFrozen, null, 0, 0, name) :
      workspace.pairValue(this.hdrFrozen, ws, ws.headerFirst, ws.headerCount, name);
  }

  // ---- the handlers ---------------------------------------------------------

  // The handler in a slot, looked up as the built-in does: from 26 on, the
  // first function found in kOnHeadersComplete, kOnBody or kOnMessageComplete
  // stays until initialize().
  handler(slot) {
    if (!keepsHandlers || slot < kOnHeadersComplete) return this.parser[slot];
    const held = this.heldHandlers;
    if (held !== null && held[slot] !== null) return held[slot];
    const cb = this.parser[slot];
    if (typeof cb === 'function') {
      if (held === null) this.heldHandlers = [null, null, null, null, null];
      this.heldHandlers[slot] = cb;
    }
    return cb;
  }

  // The same without keeping what it finds.
  peekHandler(slot) {
    const held = this.heldHandlers;
    return held !== null && slot >= kOnHeadersComplete && held[slot] !== null ? held[slot] : this.parser[slot];
  }

  // Delivers the recorded events to the kOn* handlers. A handler that throws
  // stops parsing there (the core rewinds and fails at that event), except
  // kOnMessageBegin and kOnHeaders: the built-in goes on parsing after those
  // and may throw at the end (see lateError below and ./node-line.js).
  replay() {
    const ws = this.ws;
    const input = this.input;
    let count = ws.eventCount();
    // The exception of the last kOnMessageBegin / kOnHeaders that threw, as
    // long as the built-in would still throw it from execute().
    let late = false;
    let lateError;
    let headersThrew = false;
    for (let i = 0; i < count; i++) {
      // (A parser removed by a handler delivers nothing more, from 24 on.)
      if (this.silenced) break;
      const kind = ws.kind(i);
      // (22 on: the built-in's lookup of the next handler drops it.)
      if (handlerLookupDropsException) late = false;
      let answer = 0;
      try {
        this.at = i;
        answer = this.deliver(kind, i, input);
      } catch (err) {
        if (kind === MESSAGE_BEGIN || (kind === HEADERS && headersThrowIsLate)) {
          late = true;
          lateError = err;
        }
        if (kind === HEADERS) headersThrew = true;
        if (kind === MESSAGE_BEGIN || kind === HEADERS) continue;
        // (finish() has no buffer to re-parse: the built-in leaves the
        // parser where it was then.)
        if (input !== EMPTY) ws.rewindFail(this.slot, input, this.inputLength, i);
        throw err;
      }
      // (Not while the socket holds buffered data: a tick resuming it would
      // hand that data to this parser's execute() in the middle of this one.)
      if (this.socket !== null && (kind === BODY || kind === HEADERS) && this.socket.readableLength === 0) {
        const initCount = this.initCount;
        runPendingTicks();
        // A tick may have closed the parser or given it to a new connection.
        if (this.closed || this.initCount !== initCount) return ws.result();
      }
      if (answer !== 0) {
        ws.rewindAnswer(this.slot, input, this.inputLength, i, answer);
        count = ws.eventCount();
      }
    }
    // (An upgrade resumes llhttp, which also undoes a pause() made by a
    // handler of this call.)
    if (ws.upgraded()) this.commands &= ~CMD_PAUSE;
    if (headersThrew && headersThrowHidesResult) {
      if (late) throw lateError;
      return undefined;
    }
    if (late && (!ws.failed() || !handlerLookupDropsException)) throw lateError;
    return ws.result();
  }

  // Calls the handler of event `i`; returns kOnHeadersComplete's answer.
  deliver(kind, i, input) {
    const parser = this.parser;
    switch (kind) {
      case MESSAGE_BEGIN: {
        this.inMessage = true;
        this.begunSinceInit = true;
        this.clearHead();
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
          const start = this.ws.bodyStart(i);
          // The built-in hands over a copy: the input may be reused.
          cb.call(parser, Buffer.from(input.subarray(start, start + this.ws.bodyLength(i))));
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
    const ws = this.ws;
    const parser = this.parser;
    const first = ws.firstPair(i);
    const count = ws.pairCount(i);
    if (!this.headersDelivered) {
      ws.addHeaders(first, count);
      if (parser.lazyHeaders && this.flushUrl === null) this.flushUrl = ws.eventText(i);
    } else {
      // (headers held without kOnHeadersComplete leave with the trailers)
      const headers = ws.headerPairs(i);
      ws.addTrailers(first + headers, count - headers);
    }
    const cb = this.handler(kOnHeaders);
    if (typeof cb !== 'function') return 0;
    // (Flat strings when the head is still arriving after this call:
    // node:http keeps a flush's strings meanwhile, maybe long, and slices of
    // the call's text would cost more. Made natively, they cost more time:
    // only then.)
    if (!parser.lazyHeaders) {
      if (ws.headEndsAfter(i)) cb.call(parser, ws.headerArray(first, count), ws.eventText(i));
      else cb.call(parser, ws.flatHeaderArray(first, count), ws.flatEventText(i));
    }
    // Lazy mode: header flushes are not delivered; trailers are, without an
    // array.
    else if (this.headersDelivered) cb.call(parser, undefined, ws.eventText(i));
    return 0;
  }

  keepForRepeat(headers, text, number) {
    if (this.repeat === null) {
      this.repeat = { headers, text, number };
    } else {
      this.repeat.headers = headers;
      this.repeat.text = text;
      this.repeat.number = number;
    }
  }

  // kOnHeadersComplete; returns its answer. Its arguments come from the
  // event: values handed over in fields would cost a write barrier each.
  // (Without a handler the core keeps the pairs pending: they leave with the
  // trailers.)
  headersComplete(i) {
    const ws = this.ws;
    const parser = this.parser;
    const count = ws.pairCount(i);
    const flushed = count === -1;
    if (!flushed) ws.addHeaders(ws.firstPair(i), count);
    this.headersDelivered = true;
    const cb = this.handler(kOnHeadersComplete);
    if (typeof cb !== 'function') return 0;
    const request = this.type === REQUEST;
    const lazy = parser.lazyHeaders;
    let headers;
    let text;
    if (lazy || flushed) {
      // (the built-in passes no URL when an early flush took it)
      text = !request ? ws.eventText(i) : !lazy ? undefined : flushed ? this.flushUrl : ws.eventText(i);
    } else {
      const flags = ws.flags(i);
      const number = ws.messageNumber(i);
      const repeat = this.repeat;
      if ((flags & HC_REPEATS) !== 0 && repeat !== null && repeat.number === number - 1) {
        repeat.number = number;
        text = repeat.text;
        headers = repeat.headers.slice();
      } else {
        headers = ws.headerArray(ws.firstPair(i), count);
        text = ws.eventText(i);
        // (The next message may repeat this one: the core recorded its head.
        // A private copy: the array handed out becomes req.rawHeaders, which
        // its receiver may change.)
        if ((flags & (HC_RECORDED | HC_REPEATS)) !== 0) this.keepForRepeat(headers.slice(), text, number);
      }
    }
    const ret = cb.call(parser, ws.major(i), ws.minor(i), headers,
      request ? ws.method(i) : undefined, request ? text : undefined,
      request ? undefined : ws.statusCode(i), request ? undefined : text,
      ws.upgrade(i), ws.keepAlive(i));
    // The built-in converts with IntegerValue() and keeps 32 bits.
    return (+ret) | 0;
  }
}

module.exports = { Replay };
