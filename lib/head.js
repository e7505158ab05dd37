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
// ours. The strings made for a head the core recorded are kept for the next
// message, whose head the core may find to repeat it (HC_REPEATS), as a
// client that sends the same head again and again makes it.

const workspace = require('./workspace');

const { HC_REPEATS, HC_RECORDED } = workspace.layout;
const { PAIR_NAME_START, PAIR_NAME_END, PAIR_VALUE_START, PAIR_VALUE_END, PAIR_KNOWN_NAME,
  PAIR_SLOTS } = workspace.layout;
const { sameName, knownName } = workspace;

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
    // The strings made for a recorded head: { headers, text, number }, made
    // at the first.
    this.repeat = null;
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
  // delivers: copies of the strings kept for the previous message when its
  // head repeats that one, else cut from the call's text (and kept, when the
  // core recorded the head, with the URL or status text).
  headersFor(ws, i) {
    const flags = ws.flags(i);
    const number = ws.messageNumber(i);
    const repeat = this.repeat;
    if ((flags & HC_REPEATS) !== 0 && repeat !== null && repeat.number === number - 1) {
      repeat.number = number;
      return repeat.headers.slice();
    }
    const headers = ws.headerArray(ws.firstPair(i), ws.pairCount(i));
    // (A private copy: the array handed out becomes req.rawHeaders, which its
    // receiver may change.)
    if ((flags & (HC_RECORDED | HC_REPEATS)) !== 0) this.keep(headers.slice(), ws.eventText(i), number);
    return headers;
  }

  // kOnHeadersComplete's URL (request) or status text (response) for event
  // `i` of `ws`. The built-in passes no URL when an early flush took it,
  // except in lazy mode, which passes the flush's.
  textFor(ws, i, lazy, request) {
    if (ws.pairCount(i) === -1) return !request ? ws.eventText(i) : lazy ? this.flushUrl : undefined;
    // (headersFor() kept the text of a recorded head.)
    if (!lazy && (ws.flags(i) & (HC_RECORDED | HC_REPEATS)) !== 0) return this.repeat.text;
    return ws.eventText(i);
  }

  keep(headers, text, number) {
    const repeat = this.repeat;
    if (repeat === null) {
      this.repeat = { headers, text, number };
    } else {
      repeat.headers = headers;
      repeat.text = text;
      repeat.number = number;
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
  if (before === null) return { text: ws.text, pairs: ws.copyPairs(first, count, 0) };
  const text = before.text;
  return { text: text + ws.text, pairs: before.pairs.concat(ws.copyPairs(first, count, text.length)) };
}

// [name, value, ...] of the frozen pairs, then of pairs [first, first +
// count) of ws (null: no call under way).
function pairArray(frozenPairs, ws, first, count) {
  const live = ws === null ? 0 : count;
  if (frozenPairs === null) return live === 0 ? [] : ws.headerArray(first, live);
  const { text, pairs } = frozenPairs;
  const out = new Array(pairs.length / PAIR_SLOTS * 2);
  for (let p = 0, i = 0; p < pairs.length; p += PAIR_SLOTS, i += 2) {
    const known = pairs[p + PAIR_KNOWN_NAME];
    out[i] = known !== 0 ? knownName(known) : text.substring(pairs[p + PAIR_NAME_START], pairs[p + PAIR_NAME_END]);
    out[i + 1] = text.substring(pairs[p + PAIR_VALUE_START], pairs[p + PAIR_VALUE_END]);
  }
  return live === 0 ? out : out.concat(ws.headerArray(first, live));
}

// The first value among the frozen pairs whose name is `name`, or undefined.
function frozenValue(frozenPairs, name) {
  if (frozenPairs === null) return undefined;
  const { text, pairs } = frozenPairs;
  for (let p = 0; p < pairs.length; p += PAIR_SLOTS) {
    const start = pairs[p + PAIR_NAME_START];
    if (pairs[p + PAIR_NAME_END] - start === name.length && sameName(text, start, name)) {
      return text.substring(pairs[p + PAIR_VALUE_START], pairs[p + PAIR_VALUE_END]);
    }
  }
  return undefined;
}

module.exports = { Head };
