'use strict';
// A parser's native half, seen from JavaScript: the one reader of the addon's
// binary layout (binding.layout: src/core/lhn_parser.h, src/binding/addon.cc).
// It owns the state block, the event list and the pair table the core
// shares, and the text of the head: header names, values, URLs and status
// texts cut from one string of the slab (the bytes the C core copied them
// into), which the binding returns from each call that changed the slab.
// lib/parser.js asks it through methods and never sees an offset.
//
// A message whose head repeats the previous message's byte for byte (the
// core's LHN_HC_REPEATS, keep-alive clients sending the same request again)
// gets a copy of the strings made for the previous message instead of new
// ones. The core says which messages' heads it recorded (LHN_HC_RECORDED,
// one in a few of those that do not repeat): their strings are kept. Only a
// private copy is kept: a header array handed out may be changed by its
// receiver (it becomes req.rawHeaders).

const { NativeParser, layout, knownHeaderNames: KNOWN_NAMES } = require('./native');

const {
  EV_MESSAGE_BEGIN, EV_HEADERS, EV_HEADERS_COMPLETE, EV_BODY, EV_MESSAGE_COMPLETE,
  EV_KIND, EV_FIRST_PAIR, EV_PAIR_COUNT, EV_TEXT_START, EV_TEXT_END, EV_FLAGS, EV_STATUS,
  EV_METHOD, EV_HTTP_MAJOR, EV_HTTP_MINOR, EV_MESSAGE_NUMBER, EV_BODY_START, EV_BODY_LENGTH,
  EVENT_SLOTS, HC_UPGRADE, HC_KEEP_ALIVE, HC_REPEATS, HC_RECORDED,
  PAIR_SLOTS, PAIR_NAME_START, PAIR_NAME_END, PAIR_VALUE_START, PAIR_VALUE_END, PAIR_KNOWN_NAME,
  S_REQUEST, S_TYPE, S_MAX_HEADER, S_LENIENT, S_EVENTS, S_NREAD, S_ERROR, S_GENERATION,
  S_HEADERS_DONE, S_PAIR_SHIFT, S_SLAB_SHIFT, S_UPGRADED, S_HANDLERS, S_MAX_PAIRS, S_SLOTS,
  R_RESET, R_PAUSE, R_RESUME, R_HANDLERS, R_MAX_PAIRS, R_SET_START, REWIND_ANSWER, REWIND_FAIL,
  HAS_ON_HEADERS, HAS_ON_HEADERS_COMPLETE, HPE_USER,
} = layout;

const REQUEST = 1; // Node's parser type numbers

function parseError(bytesParsed, code, reason) {
  const err = new Error('Parse Error');
  err.bytesParsed = bytesParsed;
  err.code = code;
  err.reason = reason;
  return err;
}

class Core {
  constructor() {
    this.native = new NativeParser();
    this.exec = this.native.executor();
    this.generation = -1;
    this.state = null;          // Int32Array: the state block
    this.start = null;          // Float64Array: the message start in ms, 0 when idle
    this.events = null;         // Int32Array: the event list
    this.pairs = null;          // Int32Array: the pair table
    this.refresh();
    this.slab = '';             // the slab as a string, as of the last call
    this.handlers = HAS_ON_HEADERS | HAS_ON_HEADERS_COMPLETE; // what the core was told
    this.maxPairs = 0;
    // The current message's header and trailer pairs in the pair table. A
    // count of -1: none available (before headers complete, after a new
    // message began).
    this.headersDelivered = false; // as of the event being delivered
    this.hdrFirst = 0;
    this.hdrCount = -1;
    this.hdrNumber = 0;         // the message's number (EV_MESSAGE_NUMBER)
    this.trlFirst = 0;
    this.trlCount = -1;
    this.flushUrlStart = 0;     // the URL when a flush took it (lazy mode)
    this.flushUrlEnd = 0;
    this.text = undefined;      // URL or status text, made by completeHeaders()
    // The strings of message number keptNumber, for the next one if it repeats.
    this.keptHeaders = null;
    this.keptText = '';
    this.keptNumber = -1;
  }

  // Views of the addon's buffers, again whenever it replaced one.
  refresh() {
    const buffers = this.native.buffers();
    this.pairs = new Int32Array(buffers[1]);
    this.events = new Int32Array(buffers[2]);
    this.state = new Int32Array(buffers[3], 0, S_SLOTS);
    this.start = new Float64Array(buffers[3], S_SLOTS * 4, 1);
    this.generation = this.state[S_GENERATION];
  }

  // What every call leaves: a new slab string, maybe new buffers.
  took(slab) {
    if (slab !== undefined) this.slab = slab;
    if (this.state[S_GENERATION] !== this.generation) this.refresh();
  }

  // ---- calls -------------------------------------------------------------

  // Parses the bytes [offset, offset + length) of an ArrayBuffer. Returns
  // false, without parsing, for a SharedArrayBuffer (the caller copies).
  execute(arrayBuffer, offset, length) {
    const slab = this.exec(arrayBuffer, offset, length);
    if (slab === false) return false;
    this.took(slab);
    const state = this.state;
    if (state[S_PAIR_SHIFT] !== 0 || state[S_SLAB_SHIFT] !== 0) {
      // The message under way moved to the front of the slab and the pair
      // table: what is remembered of it moves along.
      this.hdrFirst -= state[S_PAIR_SHIFT];
      this.trlFirst -= state[S_PAIR_SHIFT];
      this.flushUrlStart -= state[S_SLAB_SHIFT];
      this.flushUrlEnd -= state[S_SLAB_SHIFT];
    }
    return true;
  }

  finish() {
    this.took(this.native.finish());
  }

  // Re-parses bytes[0, length) (the last executed) from the start, the
  // handler of event `index` having answered `answer` (lhn_parser_rewind()).
  // (Bytes a handler detached or shrank are re-parsed as they are now.)
  rewindAnswer(bytes, length, index, answer) {
    this.took(this.native.rewind(bytes.buffer, bytes.byteOffset, Math.min(length, bytes.length), index,
      REWIND_ANSWER, answer, 0));
  }

  // The same, the handler of event `index` having thrown.
  rewindFail(bytes, length, index) {
    const code = this.events[index * EVENT_SLOTS + EV_KIND] === EV_BODY ? HPE_USER : -1;
    this.took(this.native.rewind(bytes.buffer, bytes.byteOffset, Math.min(length, bytes.length), index,
      REWIND_FAIL, 0, code));
  }

  close() {
    this.native.close();
  }

  stats() {
    return this.native.stats();
  }

  // ---- requests, applied at the next call ----------------------------------

  // initialize(): a new parser of `type`; the message clock starts at
  // startMs unless it is 0. (A pause or resume still pending is dropped; a
  // new handler set or pair limit is not.)
  reset(type, maxHeaderSize, lenientFlags, startMs) {
    const state = this.state;
    state[S_TYPE] = type;
    state[S_MAX_HEADER] = maxHeaderSize;
    state[S_LENIENT] = lenientFlags;
    state[S_REQUEST] = R_RESET | (state[S_REQUEST] & (R_HANDLERS | R_MAX_PAIRS));
    this.hdrCount = -1;
    this.trlCount = -1;
    if (startMs !== 0) {
      this.start[0] = startMs;
      state[S_REQUEST] |= R_SET_START;
    }
  }

  pause() {
    this.state[S_REQUEST] = (this.state[S_REQUEST] & ~R_RESUME) | R_PAUSE;
  }

  resume() {
    this.state[S_REQUEST] = (this.state[S_REQUEST] & ~R_PAUSE) | R_RESUME;
  }

  // Which of kOnHeaders and kOnHeadersComplete exist.
  noteHandlers(onHeaders, onHeadersComplete) {
    const has = (onHeaders ? HAS_ON_HEADERS : 0) | (onHeadersComplete ? HAS_ON_HEADERS_COMPLETE : 0);
    if (has === this.handlers) return;
    this.handlers = has;
    this.state[S_HANDLERS] = has;
    this.state[S_REQUEST] |= R_HANDLERS;
  }

  // The request header pair limit (0: none).
  noteMaxPairs(pairs) {
    if (pairs === this.maxPairs) return;
    this.maxPairs = pairs;
    this.state[S_MAX_PAIRS] = pairs;
    this.state[S_REQUEST] |= R_MAX_PAIRS;
  }

  // An upgrade stopped the last call: the built-in resumes llhttp then,
  // which also undoes a pause() made by a handler of that call.
  resumeAfterUpgrade() {
    if (this.state[S_UPGRADED] !== 0) this.state[S_REQUEST] &= ~R_PAUSE;
  }

  // ---- what the last call left ---------------------------------------------

  eventCount() {
    return this.state[S_EVENTS];
  }

  failed() {
    return this.state[S_ERROR] !== 0;
  }

  // What execute() returns: the bytes parsed, or the error.
  result() {
    const state = this.state;
    return state[S_ERROR] === 0 ? state[S_NREAD] : this.error();
  }

  error() {
    const info = this.native.errorInfo();
    return parseError(this.state[S_NREAD], info[0], info[1]);
  }

  // When the message under way began (ms), 0 between messages: as of the
  // end of the last call.
  messageStart() {
    return this.start[0];
  }

  // Whether the current message's headers completed, as of the last call.
  headersCompleted() {
    const state = this.state;
    return (state[S_REQUEST] & R_RESET) === 0 && state[S_HEADERS_DONE] === 1;
  }

  // ---- events ----------------------------------------------------------------

  kind(index) {
    return this.events[index * EVENT_SLOTS + EV_KIND];
  }

  // A body event's bytes: [bodyStart, bodyStart + bodyLength) of the input.
  bodyStart(index) {
    return this.events[index * EVENT_SLOTS + EV_BODY_START];
  }

  bodyLength(index) {
    return this.events[index * EVENT_SLOTS + EV_BODY_LENGTH];
  }

  // Whether a message completes after event `index` and before the next
  // message begins.
  completesAfter(index) {
    const events = this.events;
    const count = this.state[S_EVENTS];
    for (let i = index + 1; i < count; i++) {
      const kind = events[i * EVENT_SLOTS + EV_KIND];
      if (kind === EV_MESSAGE_COMPLETE) return true;
      if (kind === EV_MESSAGE_BEGIN) return false;
    }
    return false;
  }

  // ---- the head ----------------------------------------------------------------

  // A message began: nothing of the last one's head is available.
  beginMessage() {
    this.headersDelivered = false;
    this.hdrCount = -1;
    this.trlCount = -1;
  }

  // A flush of header pairs (with the URL so far) or trailers, event `index`.
  noteFlush(index) {
    const at = index * EVENT_SLOTS;
    const events = this.events;
    this.notePairs(events[at + EV_FIRST_PAIR], events[at + EV_PAIR_COUNT], events[at + EV_TEXT_START],
      events[at + EV_TEXT_END]);
  }

  // The header array of flush event `index`.
  flushHeaders(index) {
    const at = index * EVENT_SLOTS;
    return this.array(this.events[at + EV_FIRST_PAIR], this.events[at + EV_PAIR_COUNT]);
  }

  // The URL (so far) of flush event `index`.
  flushText(index) {
    const at = index * EVENT_SLOTS;
    return this.slab.substring(this.events[at + EV_TEXT_START], this.events[at + EV_TEXT_END]);
  }

  // Headers complete, event `index`: notes the pairs, and, when there is a
  // handler to call, returns its header array (undefined in lazy mode, or
  // when an early flush took the headers) and leaves the URL or status text
  // in this.text (lazy: the URL even when an early flush took it). The other
  // arguments come from the event (major(), method(), ...): values handed
  // over in fields would cost a write barrier each.
  completeHeaders(index, forHandler, lazy, type) {
    const events = this.events;
    const at = index * EVENT_SLOTS;
    const count = events[at + EV_PAIR_COUNT];
    const flushed = count === -1;
    if (!flushed) this.notePairs(events[at + EV_FIRST_PAIR], count, 0, 0);
    else if (this.hdrCount < 0) this.hdrCount = 0;
    const number = events[at + EV_MESSAGE_NUMBER];
    this.hdrNumber = number;
    this.headersDelivered = true;
    if (!forHandler) return undefined;
    const start = events[at + EV_TEXT_START];
    const end = events[at + EV_TEXT_END];
    if (lazy || flushed) {
      this.text = type !== REQUEST ? this.slab.substring(start, end) :
        !lazy ? undefined :
          flushed ? this.slab.substring(this.flushUrlStart, this.flushUrlEnd) : this.slab.substring(start, end);
      return undefined;
    }
    const flags = events[at + EV_FLAGS];
    if ((flags & HC_REPEATS) !== 0 && this.keptNumber === number - 1) {
      this.keptNumber = number;
      this.text = this.keptText;
      return this.keptHeaders.slice();
    }
    const headers = this.array(events[at + EV_FIRST_PAIR], count);
    const text = this.slab.substring(start, end);
    this.text = text;
    // (The next message may repeat this one: the core recorded its head.)
    if ((flags & (HC_RECORDED | HC_REPEATS)) !== 0) this.keep(headers, text, number);
    return headers;
  }

  // The rest of a headers-complete event's arguments.
  major(index) {
    return this.events[index * EVENT_SLOTS + EV_HTTP_MAJOR];
  }

  minor(index) {
    return this.events[index * EVENT_SLOTS + EV_HTTP_MINOR];
  }

  method(index) {
    return this.events[index * EVENT_SLOTS + EV_METHOD];
  }

  statusCode(index) {
    return this.events[index * EVENT_SLOTS + EV_STATUS];
  }

  upgrade(index) {
    return (this.events[index * EVENT_SLOTS + EV_FLAGS] & HC_UPGRADE) !== 0;
  }

  keepAlive(index) {
    return (this.events[index * EVENT_SLOTS + EV_FLAGS] & HC_KEEP_ALIVE) !== 0;
  }

  // Notes where the current message's header pairs (before headers
  // complete) or trailer pairs (after) are; they are contiguous.
  notePairs(first, count, urlStart, urlEnd) {
    if (this.headersDelivered) {
      // Headers kept pending (no kOnHeadersComplete) leave with the trailers.
      const headersEnd = this.hdrFirst + this.hdrCount;
      if (this.hdrCount > 0 && first < headersEnd) {
        count -= Math.min(count, headersEnd - first);
        first = headersEnd;
      }
      if (this.trlCount < 0) {
        this.trlFirst = first;
        this.trlCount = count;
      } else {
        this.trlCount += count;
      }
    } else if (this.hdrCount < 0) {
      this.hdrFirst = first;
      this.hdrCount = count;
      this.flushUrlStart = urlStart;
      this.flushUrlEnd = urlEnd;
    } else {
      this.hdrCount += count;
    }
  }

  // Keeps what was made for message `number` (see completeHeaders()).
  keep(headers, text, number) {
    this.keptHeaders = headers.slice();
    this.keptText = text;
    this.keptNumber = number;
  }

  // All headers of the current message as [name, value, ...], or [] outside
  // the window from headers complete to the next message's begin.
  allHeaders() {
    if (!this.headersDelivered || this.hdrCount <= 0) return [];
    if (this.keptNumber === this.hdrNumber && this.keptHeaders.length === 2 * this.hdrCount) {
      return this.keptHeaders.slice();
    }
    return this.array(this.hdrFirst, this.hdrCount);
  }

  // The trailers of the current message, with the same rules.
  allTrailers() {
    if (this.trlCount <= 0) return [];
    return this.array(this.trlFirst, this.trlCount);
  }

  // The first header value whose name is `name` (ASCII case-insensitive), or
  // undefined. Makes no string but the value.
  header(name) {
    if (!this.headersDelivered || this.hdrCount <= 0) return undefined;
    const pairs = this.pairs;
    const slab = this.slab;
    const length = name.length;
    const end = (this.hdrFirst + this.hdrCount) * PAIR_SLOTS;
    for (let p = this.hdrFirst * PAIR_SLOTS; p < end; p += PAIR_SLOTS) {
      const start = pairs[p + PAIR_NAME_START];
      if (pairs[p + PAIR_NAME_END] - start !== length) continue;
      let j = 0;
      for (; j < length; j++) {
        let a = slab.charCodeAt(start + j);
        let b = name.charCodeAt(j);
        if (a === b) continue;
        if (a >= 0x41 && a <= 0x5a) a += 0x20;
        if (b >= 0x41 && b <= 0x5a) b += 0x20;
        if (a !== b) break;
      }
      if (j === length) return slab.substring(pairs[p + PAIR_VALUE_START], pairs[p + PAIR_VALUE_END]);
    }
    return undefined;
  }

  // [name, value, ...] of pairs [first, first + count). Well-known names
  // come from a table made once.
  array(first, count) {
    const out = new Array(count * 2);
    const pairs = this.pairs;
    const slab = this.slab;
    for (let i = 0, p = first * PAIR_SLOTS; i < count; i++, p += PAIR_SLOTS) {
      const known = pairs[p + PAIR_KNOWN_NAME];
      out[2 * i] = known !== 0 ? KNOWN_NAMES[known - 1] :
        slab.substring(pairs[p + PAIR_NAME_START], pairs[p + PAIR_NAME_END]);
      out[2 * i + 1] = slab.substring(pairs[p + PAIR_VALUE_START], pairs[p + PAIR_VALUE_END]);
    }
    return out;
  }
}

// The event kinds, for the replay's switch.
Object.assign(Core, { MESSAGE_BEGIN: EV_MESSAGE_BEGIN, HEADERS: EV_HEADERS, HEADERS_COMPLETE: EV_HEADERS_COMPLETE,
  BODY: EV_BODY, MESSAGE_COMPLETE: EV_MESSAGE_COMPLETE });

module.exports = { Core };
