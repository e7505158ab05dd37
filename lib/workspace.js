'use strict';
// The native seam: the one module of lib/ that talks to the addon
// (./native.js loads it), and the one reader of its layout
// (src/core/lhn_contract.h, exported by src/binding/addon.cc). The other
// modules ask it: the parser (./parser.js) for its calls and its native
// state, the head (./head.js) for its strings, the clock (./clock.js) for
// the core's clock.
//
// A call of the core borrows a workspace: the state block, event list and
// pair table of one nesting depth of this thread, which the core writes and
// JavaScript reads through typed arrays made once per thread. The parser
// (./parser.js) makes its calls and delivers their events through it, and
// the head (./head.js) cuts its strings here, until the parser gives the
// workspace back; a handler that executes another parser meanwhile borrows
// the next depth. Nothing here belongs to one parser: a parser's native
// state is its id, which ./parser.js owns. How the pieces fit:
// docs/architecture.md.

const binding = require('./native');

// Every name of the layout lib/ uses: a build whose contract lacks one
// refuses to load, naming it (see checkLayout()).
const NEEDED = [
  'EV_MESSAGE_BEGIN', 'EV_HEADERS', 'EV_HEADERS_COMPLETE', 'EV_BODY', 'EV_MESSAGE_COMPLETE',
  'EV_KIND', 'EV_FIRST_PAIR', 'EV_PAIR_COUNT', 'EV_HEADER_PAIRS', 'EV_TEXT_START', 'EV_TEXT_END',
  'EV_FLAGS', 'EV_STATUS', 'EV_METHOD', 'EV_HTTP_MAJOR', 'EV_HTTP_MINOR', 'EV_MESSAGE_NUMBER',
  'EV_BODY_START', 'EV_BODY_LENGTH', 'EVENT_SLOTS',
  'HC_UPGRADE', 'HC_KEEP_ALIVE', 'HC_REPEATS', 'HC_RECORDED', 'HC_FIELDS_KNOWN', 'HC_HOST', 'HC_EXPECT',
  'HC_BODY_FIELDS',
  'PAIR_NAME_START', 'PAIR_NAME_END', 'PAIR_VALUE_START', 'PAIR_VALUE_END', 'PAIR_KNOWN_NAME', 'PAIR_SLOTS',
  'WS_COMMANDS', 'WS_TYPE', 'WS_MAX_HEADER', 'WS_LENIENT', 'WS_HANDLERS', 'WS_MAX_PAIRS',
  'WS_EVENTS', 'WS_NREAD', 'WS_ERROR', 'WS_UPGRADED', 'WS_GENERATION', 'WS_ADDRESS', 'WS_LENGTH',
  'CMD_RESET', 'CMD_PAUSE', 'CMD_RESUME', 'CMD_HANDLERS', 'CMD_MAX_PAIRS',
  'HAS_ON_HEADERS', 'HAS_ON_HEADERS_COMPLETE', 'HAS_ON_MESSAGE_BEGIN', 'HAS_ON_BODY', 'HAS_ON_MESSAGE_COMPLETE', 'REWIND_ANSWER', 'REWIND_FAIL', 'HPE_USER', 'MAX_DEPTH',
];

// The layout's numbers by name, or an error naming the first one missing.
function checkLayout(layout, needed = NEEDED) {
  const out = {};
  for (const name of needed) {
    const value = layout[name];
    if (!Number.isInteger(value)) {
      throw new Error(`llhttp-napi: the addon's layout has no ${name} (src/core/lhn_contract.h and ` +
        'lib/workspace.js disagree: rebuild the addon, or fix the name)');
    }
    out[name] = value;
  }
  return out;
}

const layout = checkLayout(binding.layout);
const {
  EV_HEADERS, EV_HEADERS_COMPLETE, EV_MESSAGE_BEGIN, EV_MESSAGE_COMPLETE, EV_KIND, EV_FIRST_PAIR, EV_PAIR_COUNT,
  EV_HEADER_PAIRS, EV_TEXT_START, EV_TEXT_END, EV_FLAGS, EV_STATUS, EV_METHOD, EV_HTTP_MAJOR,
  EV_HTTP_MINOR, EV_MESSAGE_NUMBER, EV_BODY_START, EV_BODY_LENGTH, EVENT_SLOTS, HC_UPGRADE,
  HC_KEEP_ALIVE, PAIR_NAME_START, PAIR_NAME_END, PAIR_VALUE_START, PAIR_VALUE_END, PAIR_KNOWN_NAME,
  PAIR_SLOTS, WS_EVENTS, WS_NREAD, WS_ERROR, WS_UPGRADED, WS_GENERATION, WS_COMMANDS, WS_TYPE,
  WS_MAX_HEADER, WS_LENIENT, WS_HANDLERS, WS_MAX_PAIRS, WS_ADDRESS, WS_LENGTH,
  REWIND_ANSWER, REWIND_FAIL, EV_BODY, MAX_DEPTH, HAS_ON_MESSAGE_BEGIN,
} = layout;

// The well-known header names by the core's tag (PAIR_KNOWN_NAME - 1), as
// internalized strings (what property keys are): node:http compares header
// names with its string literals, which are internalized too, and two such
// strings compare by identity instead of by their characters. (Replaced in
// place: the addon's flat header arrays take them from the same array.)
const KNOWN_NAMES = binding.knownHeaderNames;
for (let i = 0; i < KNOWN_NAMES.length; i++) KNOWN_NAMES[i] = internalized(KNOWN_NAMES[i]);

// llhttp's method names by number, internalized as the names above: what
// req.method is compared with (=== 'GET', a switch, a router's table keyed
// by method) then compares by identity, as node:http's own names do.
const METHODS = binding.methods.map(internalized);
const ALL_METHODS = binding.allMethods.map(internalized);

// The call block (lhn_contract.h): the numbers the addon's calls take,
// written here just before each call. (Depth 0's state block, which never
// moves.)
const calls = new Int32Array(binding.workspace(0).state);

function internalized(s) {
  return Object.keys({ [s]: 0 })[0];
}

function parseError(bytesParsed, code, reason) {
  const err = new Error('Parse Error');
  err.bytesParsed = bytesParsed;
  err.code = code;
  err.reason = reason;
  return err;
}

// One nesting depth's workspace.
class Workspace {
  constructor(depth) {
    this.depth = depth;
    this.generation = -1;
    this.state = null;   // Int32Array: the state block
    this.events = null;  // Int32Array: the event list
    this.pairs = null;   // Int32Array: the pair table
    this.text = undefined; // the text of the last call (undefined: none)
    this.at = -1;        // the event being delivered
    this.delivered = false; // whether the addon delivered the last call's events (see parse())
    this.views();
  }

  // Views of the workspace's buffers, again whenever the core replaced one.
  views() {
    const buffers = binding.workspace(this.depth);
    this.state = new Int32Array(buffers.state);
    this.events = new Int32Array(buffers.events);
    this.pairs = new Int32Array(buffers.pairs);
    this.generation = this.state[WS_GENERATION];
  }

  // What every call leaves: its text, maybe new buffers.
  called(text) {
    this.text = text;
    if (this.state[WS_GENERATION] !== this.generation) this.views();
  }

  // ---- calls of parser `id` ----

  // The address of a call of parser `id` in this workspace: the one number
  // the addon's calls name both by (lhn_contract.h).
  address(id) {
    return id * MAX_DEPTH + this.depth;
  }

  // Commands (CMD_* bits) and their arguments for the parser about to be
  // called: applied as its call begins.
  commands(bits, type, maxHeaderSize, lenientFlags, handlers, maxPairs) {
    const state = this.state;
    state[WS_TYPE] = type;
    state[WS_MAX_HEADER] = maxHeaderSize;
    state[WS_LENIENT] = lenientFlags;
    state[WS_HANDLERS] = handlers;
    state[WS_MAX_PAIRS] = maxPairs;
    state[WS_COMMANDS] = bits;
  }

  // Parses bytes[0, length) (a Uint8Array) with parser `id`. When `owner`
  // (the parser) is given and the call left events of which one calls a
  // handler, the addon calls the delivery (setDelivery()) on it with the
  // call's text, in the parser's async context (initAsyncContext()), and
  // this returns what it returns (the delivery sets `delivered`); otherwise
  // it returns the call's text.
  parse(id, bytes, length, owner) {
    calls[WS_ADDRESS] = this.address(id);
    calls[WS_LENGTH] = length;
    this.delivered = false;
    return owner === undefined ? binding.execute(bytes) : binding.execute(bytes, owner);
  }

  finish(id, owner) {
    calls[WS_ADDRESS] = this.address(id);
    this.delivered = false;
    return owner === undefined ? binding.finish() : binding.finish(owner);
  }

  // Re-parses bytes[0, length) (the last parsed) from the start, the
  // handler of event `index` having answered `answer` (lhn_parser_rewind()).
  // (Bytes a handler detached or shrank are re-parsed as they are now.)
  rewindAnswer(id, bytes, length, index, answer) {
    this.rewind(id, bytes, length, index, REWIND_ANSWER, answer, 0);
  }

  // The same, the handler of event `index` having thrown: that callback fails
  // with `code` (HPE_USER, or -1 for llhttp's callback error).
  rewindFail(id, bytes, length, index, code) {
    this.rewind(id, bytes, length, index, REWIND_FAIL, 0, code);
  }

  rewind(id, bytes, length, index, action, answer, code) {
    calls[WS_ADDRESS] = this.address(id);
    calls[WS_LENGTH] = Math.min(length, bytes.length);
    this.called(binding.rewind(bytes, index, action, answer, code));
  }

  // ---- what the last call left ----

  eventCount() {
    return this.state[WS_EVENTS];
  }

  failed() {
    return this.state[WS_ERROR] !== 0;
  }

  upgraded() {
    return this.state[WS_UPGRADED] !== 0;
  }

  // What execute() returns: the bytes parsed, or the error.
  result() {
    const state = this.state;
    return state[WS_ERROR] === 0 ? state[WS_NREAD] : this.error();
  }

  error() {
    const info = binding.errorInfo(this.depth);
    return parseError(this.state[WS_NREAD], info.code, info.reason);
  }

  // ---- events ----

  // Whether the last call's one event is a message begin without a
  // handler among `handlers` (HAS_* bits, those the core was told).
  quietBegin(handlers) {
    return this.state[WS_EVENTS] === 1 && this.events[EV_KIND] === EV_MESSAGE_BEGIN &&
      (handlers & HAS_ON_MESSAGE_BEGIN) === 0;
  }

  kind(i) {
    return this.events[i * EVENT_SLOTS + EV_KIND];
  }

  // Whether a message completes after event `i` and before the next begins.
  completesAfter(i) {
    return this.comesAfter(i, EV_MESSAGE_COMPLETE, EV_MESSAGE_COMPLETE);
  }

  // Whether the head (or the trailers) that event `i` flushes part of ends
  // in this call: its strings may then share the call's text, as the rest
  // of the head's do.
  headEndsAfter(i) {
    return this.comesAfter(i, EV_HEADERS_COMPLETE, EV_MESSAGE_COMPLETE);
  }

  // Whether an event of kind `a` or `b` follows event `i` before the next
  // message begins.
  comesAfter(i, a, b) {
    const events = this.events;
    const count = this.state[WS_EVENTS];
    for (let k = i + 1; k < count; k++) {
      const kind = events[k * EVENT_SLOTS + EV_KIND];
      if (kind === a || kind === b) return true;
      if (kind === EV_MESSAGE_BEGIN) return false;
    }
    return false;
  }

  // A body event's bytes: [bodyStart, bodyStart + bodyLength) of the input.
  bodyStart(i) {
    return this.events[i * EVENT_SLOTS + EV_BODY_START];
  }

  bodyLength(i) {
    return this.events[i * EVENT_SLOTS + EV_BODY_LENGTH];
  }

  // HEADERS and HEADERS_COMPLETE: the pairs the event delivers (a count of
  // -1 at HEADERS_COMPLETE: flushed earlier), and how many of a HEADERS
  // event's pairs are the message's headers (the rest are trailers).
  firstPair(i) {
    return this.events[i * EVENT_SLOTS + EV_FIRST_PAIR];
  }

  pairCount(i) {
    return this.events[i * EVENT_SLOTS + EV_PAIR_COUNT];
  }

  headerPairs(i) {
    return this.events[i * EVENT_SLOTS + EV_HEADER_PAIRS];
  }

  // The URL or status text an event carries.
  eventText(i) {
    const at = i * EVENT_SLOTS;
    return this.text === undefined ? '' :
      this.text.slice(this.events[at + EV_TEXT_START], this.events[at + EV_TEXT_END]);
  }

  // The same as a flat copy (see flatHeaderArray()).
  flatEventText(i) {
    const at = i * EVENT_SLOTS;
    const start = this.events[at + EV_TEXT_START];
    const end = this.events[at + EV_TEXT_END];
    return start === end || this.text === undefined ? '' : binding.flatString(this.text, start, end);
  }

  flags(i) {
    return this.events[i * EVENT_SLOTS + EV_FLAGS];
  }

  messageNumber(i) {
    return this.events[i * EVENT_SLOTS + EV_MESSAGE_NUMBER];
  }

  major(i) {
    return this.events[i * EVENT_SLOTS + EV_HTTP_MAJOR];
  }

  minor(i) {
    return this.events[i * EVENT_SLOTS + EV_HTTP_MINOR];
  }

  method(i) {
    return this.events[i * EVENT_SLOTS + EV_METHOD];
  }

  statusCode(i) {
    return this.events[i * EVENT_SLOTS + EV_STATUS];
  }

  upgrade(i) {
    return (this.events[i * EVENT_SLOTS + EV_FLAGS] & HC_UPGRADE) !== 0;
  }

  keepAlive(i) {
    return (this.events[i * EVENT_SLOTS + EV_FLAGS] & HC_KEEP_ALIVE) !== 0;
  }

  // ---- header strings ----

  // [name, value, ...] of pairs [first, first + count). Well-known names
  // come from a table made once.
  headerArray(first, count) {
    return pairStrings(this.text, this.pairs, first * PAIR_SLOTS, (first + count) * PAIR_SLOTS);
  }

  // The same with every string a flat copy of its own (made natively): for
  // the flush of a head still arriving, whose strings node:http keeps.
  flatHeaderArray(first, count) {
    return count === 0 ? [] : binding.headerStrings(this.depth, first, count, this.text);
  }

  // The records of pairs [first, first + count) (slots PAIR_*) copied into
  // `into` (an Int32Array) from `at` on, their text offsets moved by
  // `shift`: for pairs read after the call, in a text that has `shift`
  // characters before this call's. Returns `into`.
  copyPairs(first, count, into, at, shift) {
    const pairs = this.pairs;
    const from = first * PAIR_SLOTS;
    const length = count * PAIR_SLOTS;
    for (let k = 0; k < length; k++) {
      into[at + k] = k % PAIR_SLOTS === PAIR_KNOWN_NAME ? pairs[from + k] : pairs[from + k] + shift;
    }
    return into;
  }

  // The first value among pairs [first, first + count) whose name is `name`
  // (ASCII case-insensitive), or undefined.
  headerValue(first, count, name) {
    return pairValue(this.text, this.pairs, first * PAIR_SLOTS, (first + count) * PAIR_SLOTS, name);
  }
}

// ---- the one decoder of pair records ----------------------------------------
// `pairs`: an Int32Array of records (PAIR_SLOTS values each), `text` the
// string their offsets refer to: a workspace's, or a head's frozen copy of
// them (./head.js). (Strings are cut with slice(): the offsets are in order
// and in range, and V8's substring() spends more to find that out.)

// [name, value, ...] of the records pairs[from, to). Well-known names come
// from a table made once.
function pairStrings(text, pairs, from, to) {
  const out = new Array((to - from) / PAIR_SLOTS * 2);
  for (let p = from, i = 0; p < to; p += PAIR_SLOTS, i += 2) {
    const known = pairs[p + PAIR_KNOWN_NAME];
    out[i] = known !== 0 ? KNOWN_NAMES[known - 1] :
      text.slice(pairs[p + PAIR_NAME_START], pairs[p + PAIR_NAME_END]);
    out[i + 1] = text.slice(pairs[p + PAIR_VALUE_START], pairs[p + PAIR_VALUE_END]);
  }
  return out;
}

// The value of the first of the records pairs[from, to) whose name is
// `name` (ASCII case-insensitive), or undefined. Makes no string but the
// value.
function pairValue(text, pairs, from, to, name) {
  const length = name.length;
  for (let p = from; p < to; p += PAIR_SLOTS) {
    const start = pairs[p + PAIR_NAME_START];
    if (pairs[p + PAIR_NAME_END] - start === length && sameName(text, start, name)) {
      return text.slice(pairs[p + PAIR_VALUE_START], pairs[p + PAIR_VALUE_END]);
    }
  }
  return undefined;
}

// Whether text[start, start + name.length) is `name`, ASCII case-insensitive.
function sameName(text, start, name) {
  for (let j = 0; j < name.length; j++) {
    let a = text.charCodeAt(start + j);
    let b = name.charCodeAt(j);
    if (a === b) continue;
    if (a >= 0x41 && a <= 0x5a) a += 0x20;
    if (b >= 0x41 && b <= 0x5a) b += 0x20;
    if (a !== b) return false;
  }
  return true;
}

function initAsyncContext(id, resource, type) {
  calls[WS_ADDRESS] = id * MAX_DEPTH;
  binding.asyncInit(resource, type);
}

// ---- borrowing ----------------------------------------------------------------

const workspaces = [];
let depth = 0;

// The workspace of the next call on this thread, until giveBack(): the
// calls of one parser's execute() or finish() (the parse, its rewinds) use
// it; a call made meanwhile by a handler takes the next one.
function borrow() {
  const d = depth++;
  const ws = workspaces[d];
  return ws !== undefined ? ws : (workspaces[d] = new Workspace(d));
}

function giveBack(ws) {
  depth = ws.depth;
}

module.exports = {
  borrow,
  giveBack,
  pairStrings,
  pairValue,
  sameName,
  checkLayout,
  layout,
  EVENT: { MESSAGE_BEGIN: EV_MESSAGE_BEGIN, HEADERS: EV_HEADERS, HEADERS_COMPLETE: EV_HEADERS_COMPLETE,
    BODY: EV_BODY, MESSAGE_COMPLETE: EV_MESSAGE_COMPLETE },
  // A parser's native state, by id (./parser.js owns it): createParser(owner)
  // gives an id whose state lives until owner is collected or
  // closeParser(id); the queries of a parser between calls, as of the end
  // of its last call: headersCompleted(id), messageStart(id) (ms of the
  // core's clock, 0: none), parserStats(id) (what it holds: { heldBytes,
  // recordBytes }, tests and benchmarks).
  createParser: binding.create,
  closeParser: binding.close,
  // initAsyncContext(id, resource, type): parser `id`'s events are delivered
  // from now on in a new async context (async_hooks' init with `type` and
  // `resource`), made natively: the previous one is destroyed.
  // destroyAsyncContext(id): async_hooks' destroy of it.
  initAsyncContext,
  destroyAsyncContext: binding.asyncDestroy,
  // setDelivery(fn): fn.call(parser, text) delivers the events of a call of
  // parse() or finish() (./parser.js), `text` what called() takes.
  setDelivery: binding.setDelivery,
  headersCompleted: binding.headersCompleted,
  messageStart: binding.messageStart,
  parserStats: binding.stats,
  // The core's clock (./clock.js): which it reads, and now on it, in ms.
  clockSource: binding.clockSource,
  coreNowMs: binding.nowMs,
  // The thread's working memory: its workspaces and pool (tests, benchmarks).
  memory: binding.memory,
  // What the addon was built with, and llhttp's method names by number.
  llhttpVersion: binding.llhttpVersion,
  napiVersion: binding.napiVersion,
  methods: METHODS,
  allMethods: ALL_METHODS,
};
