'use strict';
// The current message's head, one per parser (./parser.js): what
// getAllHeaders(), getAllTrailers() and getHeader() answer, and the header
// array and URL kOnHeadersComplete receives (docs/api.md).
//
// Its pairs are where the call under way delivered them, a window of that
// call's pair table (./workspace.js cuts their strings), and, in lazy mode,
// what earlier calls delivered, frozen: the text and a copy of the pair
// records, no string cut, so that they outlive the workspace. Out of lazy
// mode nothing of a head outlives the call that delivered it: an idle
// connection, or one whose body is still arriving, holds no header bytes of
// ours. The strings made for the head the core recorded (HC_RECORDED, its
// repeat record: src/core/lhn_repeat.h) are recorded here too, for the next
// message, whose head the core may find to repeat it (HC_REPEATS), as a
// client that sends the same head again and again makes it.

const workspace = require('./workspace');

const { HC_REPEATS, HC_RECORDED, PAIR_SLOTS } = workspace.layout;
const { pairStrings, pairValue } = workspace;

class Head {
  constructor() {
    // kOnHeadersComplete's event was delivered for the current message.
    this.completed = false;
    // The pairs the call under way delivered: its headers are pairs
    // [headerFirst, headerFirst + headerCount) of its workspace, its
    // trailers [trailerFirst, trailerFirst + trailerCount) (a call's are
    // contiguous).
    this.headerFirst = 0;
    this.headerCount = 0;
    this.trailerFirst = 0;
    this.trailerCount = 0;
    // Lazy mode: the pairs earlier calls delivered (see freeze()), and the
    // URL an early flush took.
    this.frozenHeaders = null;
    this.frozenTrailers = null;
    this.flushUrl = null;
    // The strings made for the recorded head: { headers, text, number },
    // made at the first.
    this.recorded = null;
  }

  // A message begins, or the parser starts over: nothing of the last head
  // is answered any more.
  clear() {
    this.completed = false;
    this.headerCount = 0;
    this.trailerCount = 0;
    this.frozenHeaders = null;
    this.frozenTrailers = null;
    this.flushUrl = null;
  }

  // A call begins: it has delivered no pairs yet.
  clearWindow() {
    this.headerCount = 0;
    this.trailerCount = 0;
  }

  // ---- the events that deliver pairs ----

  // kOnHeaders' event `i` of `ws`: an early flush of header pairs (lazy
  // mode keeps the URL so far, which the built-in passes with the first
  // flush), or the trailers. (Headers kept pending for want of a
  // kOnHeadersComplete handler leave with the trailers: they are headers.)
  flushed(ws, i, lazy) {
    const first = ws.firstPair(i);
    const count = ws.pairCount(i);
    if (!this.completed) {
      this.addHeaders(first, count);
      if (lazy && this.flushUrl === null) this.flushUrl = ws.eventText(i);
    } else {
      const headers = ws.headerPairs(i);
      this.addTrailers(first + headers, count - headers);
    }
  }

  // kOnHeadersComplete's event `i` of `ws` (its pair count is -1 when early
  // flushes delivered them all).
  complete(ws, i) {
    const count = ws.pairCount(i);
    if (count !== -1) this.addHeaders(ws.firstPair(i), count);
    this.completed = true;
  }

  addHeaders(first, count) {
    if (this.headerCount === 0) this.headerFirst = first;
    this.headerCount += count;
  }

  addTrailers(first, count) {
    if (this.trailerCount === 0) this.trailerFirst = first;
    this.trailerCount += count;
  }

  // kOnHeadersComplete's header array for event `i` of `ws`, whose pairs it
  // delivers: copies of the strings made for the previous message when its
  // head repeats that one, else cut from the call's text (and, when the
  // core recorded the head, recorded here with the URL or status text).
  headersFor(ws, i) {
    const flags = ws.flags(i);
    const number = ws.messageNumber(i);
    const recorded = this.recorded;
    if ((flags & HC_REPEATS) !== 0 && recorded !== null && recorded.number === number - 1) {
      recorded.number = number;
      return recorded.headers.slice();
    }
    const headers = ws.headerArray(ws.firstPair(i), ws.pairCount(i));
    // (A private copy: the array handed out becomes req.rawHeaders, which its
    // receiver may change.)
    if ((flags & (HC_RECORDED | HC_REPEATS)) !== 0) this.record(headers.slice(), ws.eventText(i), number);
    return headers;
  }

  // kOnHeadersComplete's URL (request) or status text (response) for event
  // `i` of `ws`. The built-in passes no URL when an early flush took it,
  // except in lazy mode, which passes the flush's.
  textFor(ws, i, lazy, request) {
    if (ws.pairCount(i) === -1) return !request ? ws.eventText(i) : lazy ? this.flushUrl : undefined;
    // (headersFor() recorded the text of a recorded head.)
    if (!lazy && (ws.flags(i) & (HC_RECORDED | HC_REPEATS)) !== 0) return this.recorded.text;
    return ws.eventText(i);
  }

  record(headers, text, number) {
    const recorded = this.recorded;
    if (recorded === null) {
      this.recorded = { headers, text, number };
    } else {
      recorded.headers = headers;
      recorded.text = text;
      recorded.number = number;
    }
  }

  // ---- what outlives the call (lazy mode) ----

  // The call is over and lazy mode answers until the next message begins:
  // the pairs it delivered join the frozen ones.
  freeze(ws) {
    this.frozenHeaders = frozen(this.frozenHeaders, ws, this.headerFirst, this.headerCount);
    this.frozenTrailers = frozen(this.frozenTrailers, ws, this.trailerFirst, this.trailerCount);
  }

  // ---- the answers (`ws`: the workspace of the call under way, or null) ----

  // All headers of the current message as [name, value, ...].
  getAllHeaders(ws) {
    if (!this.completed) return [];
    return pairArray(this.frozenHeaders, ws, this.headerFirst, this.headerCount);
  }

  getAllTrailers(ws) {
    return pairArray(this.frozenTrailers, ws, this.trailerFirst, this.trailerCount);
  }

  // The first header value whose name is `name` (ASCII case-insensitive),
  // or undefined. Makes no string but the value.
  getHeader(ws, name) {
    if (!this.completed) return undefined;
    const value = frozenValue(this.frozenHeaders, name);
    if (value !== undefined || ws === null || this.headerCount === 0) return value;
    return ws.headerValue(this.headerFirst, this.headerCount, name);
  }
}

// Pairs [first, first + count) of ws's last call after the frozen pairs
// `before` (null: none): the texts joined and the pair records copied, so
// that they are still read after the workspace serves other calls.
function frozen(before, ws, first, count) {
  if (count === 0) return before;
  const length = count * PAIR_SLOTS;
  if (before === null) return { text: ws.text, pairs: ws.copyPairs(first, count, new Int32Array(length), 0, 0) };
  const { text, pairs } = before;
  const joined = new Int32Array(pairs.length + length);
  joined.set(pairs);
  return { text: text + ws.text, pairs: ws.copyPairs(first, count, joined, pairs.length, text.length) };
}

// [name, value, ...] of the frozen pairs, then of pairs [first, first +
// count) of ws (null: no call under way).
function pairArray(frozenPairs, ws, first, count) {
  const live = ws === null ? 0 : count;
  if (frozenPairs === null) return live === 0 ? [] : ws.headerArray(first, live);
  const { text, pairs } = frozenPairs;
  const out = pairStrings(text, pairs, 0, pairs.length);
  return live === 0 ? out : out.concat(ws.headerArray(first, live));
}

// The first value among the frozen pairs whose name is `name`, or undefined.
function frozenValue(frozenPairs, name) {
  return frozenPairs === null ? undefined :
    pairValue(frozenPairs.text, frozenPairs.pairs, 0, frozenPairs.pairs.length, name);
}

module.exports = { Head };
