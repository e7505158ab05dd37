'use strict';
// The request of llhttp-napi/server: what node:http's IncomingMessage gives a
// request handler, opened by the connection loop (./connection.js) at the
// end of each head, with the head's pairs (`rawHeaders`): `headers` is made
// of them when first read. The body is a Readable fed by the loop; a reader
// that falls behind stops the socket's reads until it asks for more. A request pays for the Readable only when
// used: its state is made on the first piece of body or the first use of
// the stream (a listener, read(), pipe(), for await, setEncoding(), a
// readable* or destroyed property); until then the request is a plain
// event emitter with the Readable's methods, and a body-less request
// answered without that never makes one.

// (Module bindings: the globals `process` and `Buffer` are accessors.)
const { nextTick } = require('node:process');
const Stream = require('node:stream');
const { Readable } = Stream;
const { headersObject, rawValue } = require('./headers');
const { eventsOnFirstListener } = require('./events');
const { fastIncoming, headersMadeAtOpen } = require('../node-line');
const { kOpenRequest, kBodyChunk, kBodyEnd, kAnswered, kAnswerClosed, kDumpedAtOnce } = require('./seam');
const { defaultFields } = require('./default-fields');

const HTTP_1_1 = '1.1';
// req.signal, where the line's IncomingMessage has it (24 on).
const HAS_SIGNAL = Object.getOwnPropertyDescriptor(require('node:http').IncomingMessage.prototype, 'signal') !== undefined;

// (Neither a Readable nor an event emitter is constructed: see
// makeReadable() below and ./events.js.)
// Every value of each header, by lower-case name ([name, value, ...] pairs in).
function distinctObject(raw) {
  const out = { __proto__: null };
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i].toLowerCase();
    if (out[name] === undefined) out[name] = [raw[i + 1]];
    else out[name].push(raw[i + 1]);
  }
  return out;
}

class ServerRequest {
  constructor(socket) {
    eventsOnFirstListener(this);
    this.socket = socket;
    this.httpVersionMajor = 1;
    this.httpVersionMinor = 1;
    this.httpVersion = HTTP_1_1;
    this.method = null;
    this.url = '';
    this.upgrade = false;
    this.complete = false;
    this._loop = null;
    this._headPairs = null;       // the head's [name, value, ...], as it came (never handed out before 26)
    this._headEntries = 0;        // the head's entries (pairs * 2)
    this._headers = null;
    this._discarding = false;     // the body goes unread (node:http's _dumped)
    this._settled = false;        // unused, discarded, and as node:http's would be by now: ended and closed
    this._settlesWithAnswer = false; // ... from its response's close on (answered complete and unused)
    this._answered = false;       // its response finished
  }

  [kOpenRequest](loop, major, minor, method, url, upgrade, rawHeaders) {
    this._loop = loop;
    this._headPairs = rawHeaders;
    this._headEntries = rawHeaders.length;
    this.httpVersionMajor = major;
    this.httpVersionMinor = minor;
    if (major !== 1 || minor !== 1) this.httpVersion = `${major}.${minor}`;
    this.method = method;
    this.url = url;
    this.upgrade = upgrade;
    if (loop.server.joinDuplicateHeaders === true) this.joinDuplicateHeaders = true;
  }

  // ---- the loop's calls ----

  // A piece of the body; false when the reader is behind.
  [kBodyChunk](chunk) {
    return this._discarding || this.push(chunk);
  }

  [kBodyEnd](rawTrailers) {
    if (rawTrailers !== null && rawTrailers.length !== 0) this._rawTrailers = rawTrailers;
    this.complete = true;
    // (Without a Readable yet, makeReadable() ends the one it makes.)
    if (this._hasReadable) this.push(null);
    else if (this._discarding) settleSoon(this);
  }

  [kDumpedAtOnce]() {
    this._discarding = true;
    this._settled = true;
  }

  // (node:http's name for it, which optimizeEmptyRequests' users read.)
  get _dumped() {
    return this._discarding;
  }

  // The response finished: a body nobody reads is discarded.
  [kAnswered]() {
    this._answered = true;
    if (this._signal !== null) this._signal.stop();
    if (!this._hasReadable) {
      // Nobody used the stream: what body comes is dropped as it comes.
      this._discarding = true;
      this._settlesWithAnswer = this.complete;
      return;
    }
    if (this._reading || this._readableState.resumeScheduled || this._discarding) return;
    this._discarding = true;
    this.removeAllListeners('data');
    this._drain();
  }

  // Its response closes, the tick after kAnswered.
  [kAnswerClosed]() {
    if (this._settlesWithAnswer) this._settled = true;
  }

  // A body fully received just ends (no flowing tick) where node:http's
  // dump does so (fastIncoming: 24.22 on); one still arriving flows away.
  _drain() {
    const state = this._readableState;
    if (fastIncoming && this.complete && state.flowing === null && state.ended && state.length === 0 &&
        !state.destroyed) {
      this.read(0);
    } else {
      this.resume();
    }
  }

  // ---- the head ----

  // What a handler does to rawHeaders reaches `headers` as node:http of
  // the line lets it: before 26 not at all (its server makes `headers`
  // before 'request'), so rawHeaders is a copy of the head's pairs, made
  // when first read; from 26 on they are the same array, and `headers`,
  // made when first read, takes as many entries of it as the head had.
  get rawHeaders() {
    if (this._rawHeaders === null) {
      const pairs = this._headPairs;
      this._rawHeaders = headersMadeAtOpen && pairs !== null ? pairs.slice() : pairs;
    }
    return this._rawHeaders;
  }

  set rawHeaders(value) {
    this._rawHeaders = value;
  }

  get headers() {
    if (this._headers === null) {
      const pairs = this._headPairs;
      const raw = headersMadeAtOpen || this._rawHeaders === null ? pairs : this._rawHeaders;
      // (node:http's maxHeadersCount: the pairs beyond it stay out of
      // `headers`; lines whose parser refuses them never have them.)
      const max = this._loop.headerPairLimit();
      let end = Math.min(this._headEntries, raw.length);
      if (max > 0 && end > max) end = max;
      this._headers = headersObject(raw, end, this.joinDuplicateHeaders);
    }
    return this._headers;
  }

  set headers(value) {
    this._headers = value;
  }

  get headersDistinct() {
    return distinctObject(this.rawHeaders);
  }

  // The first value of header `name` (any case) in the head as it came, or
  // undefined.
  getHeader(name) {
    return rawValue(this._headPairs, String(name));
  }

  get rawTrailers() {
    return this._rawTrailers === null ? [] : this._rawTrailers;
  }

  get trailers() {
    if (this._trailers === null) {
      const raw = this.rawTrailers;
      this._trailers = headersObject(raw, raw.length, this.joinDuplicateHeaders);
    }
    return this._trailers;
  }

  get trailersDistinct() {
    return distinctObject(this.rawTrailers);
  }

  get connection() {
    return this.socket;
  }

  setTimeout(msecs, callback) {
    if (callback) this.on('timeout', callback);
    this.socket.setTimeout(msecs);
    return this;
  }

  // ---- the Readable ----

  // A reader wants more: the loop may read the socket again.
  _read() {
    if (!this._reading) {
      this._readableState.readingMore = false;
      this._reading = true;
    }
    this._loop.bodyWanted();
  }

  // Destroyed before its message was complete and read: aborted, and the
  // connection goes with it. (As node:http: an error nobody listens for is
  // not raised.)
  _destroy(err, cb) {
    if (!this.readableEnded || !this.complete) {
      this.aborted = true;
      this.emit('aborted');
      if (this._signal !== null) this._signal.abort();
      const socket = this.socket;
      if (socket !== null && !socket.destroyed) socket.destroy(err);
    } else if (this._answered) {
      // (Its end, the stream's automatic destroy follows it at once.)
      this._loop.requestEnded(this);
    }
    cb(err !== null && err !== undefined && this.listenerCount('error') > 0 ? err : null);
  }
}

// req.signal: aborted when the request is (destroyed unfinished: aborted),
// or when its connection closes before its response finished; after that
// it never aborts. Made on first read, so a request that never reads it
// pays nothing.
class RequestSignal {
  constructor(req) {
    this.controller = new AbortController();
    this.socket = null;
    this.onClose = null;
    const socket = req.socket;
    if (req._hasReadable && req.destroyed && (!req.readableEnded || !req.complete)) {
      this.controller.abort();
    } else if (!req._answered && socket !== null) {
      if (socket.destroyed) {
        this.controller.abort();
      } else {
        this.socket = socket;
        this.onClose = () => this.abort();
        socket.once('close', this.onClose);
      }
    }
  }

  abort() {
    this.stop();
    this.controller.abort();
  }

  // Its response finished: the signal stays as it is.
  stop() {
    if (this.socket !== null) {
      this.socket.removeListener('close', this.onClose);
      this.socket = null;
    }
  }
}

if (HAS_SIGNAL) {
  Object.defineProperty(ServerRequest.prototype, 'signal', {
    get() {
      if (this._signal === null) this._signal = new RequestSignal(this);
      return this._signal.controller.signal;
    },
    configurable: true,
  });
}

// The options of each request's Readable (read by its constructor at once:
// one object for all).
const readableOptions = { highWaterMark: undefined };

// The Readable behind a request, made on first use: Readable's constructor
// runs on the request (its listeners stay), and what the loop said before
// is said again (the end of the body, an unread body discarded).
function makeReadable(req) {
  req._hasReadable = true;
  // (Its buffer is the socket's size, as node:http's: the server's
  // highWaterMark option.)
  const socket = req.socket;
  readableOptions.highWaterMark = socket !== null && socket !== undefined ? socket.readableHighWaterMark : undefined;
  Readable.call(req, readableOptions);
  const state = req._readableState;
  // (As node:http's: the Readable does not call _read() to fill itself up
  // ahead, so only a reader marks the request read, and a request answered
  // unread is drained by the loop.)
  state.readingMore = true;
  if (req._settled) {
    // (node:http's emitted 'end' and 'close' to nobody ticks ago.)
    state.ended = state.endEmitted = true;
    state.destroyed = state.closed = state.closeEmitted = true;
  } else {
    if (req.complete) req.push(null);
    if (req._discarding) req._drain();
  }
  return state;
}

// A request answered, its body complete and unused, is settled on the
// next tick (with its response's close; one whose body completes after the
// answer, in one tick for all of those of a tick): a Readable made after
// that is ended and closed already, as node:http's request is by then.
// (One array for all ticks: a new one grew its store on every request.)
const settling = [];
let settlingCount = 0;

function settleSoon(req) {
  if (settlingCount === 0) nextTick(settleAll);
  settling[settlingCount++] = req;
}

function settleAll() {
  const count = settlingCount;
  settlingCount = 0;
  for (let i = 0; i < count; i++) {
    settling[i]._settled = true;
    settling[i] = undefined;
  }
}

Object.setPrototypeOf(ServerRequest.prototype, Readable.prototype);
Object.setPrototypeOf(ServerRequest, Stream);
// (What most requests never change: ./default-fields.js.)
defaultFields(ServerRequest.prototype, {
  aborted: false,
  joinDuplicateHeaders: null,       // true when the server's option is (node:http's null otherwise)
  _rawHeaders: null,                // rawHeaders, once read or set
  _rawTrailers: null,
  _trailers: null,
  _reading: false,                  // someone read (node:http's _consuming)
  _hasReadable: false,              // its Readable state is made
  _signal: null,                    // req.signal's watch, once read (see RequestSignal)
});
// (node:http's name for its class, which `req.constructor.name` and stacks
// show: @hono/node-server hands it on to apps.)
Object.defineProperty(ServerRequest, 'name', { value: 'IncomingMessage' });
Object.defineProperty(ServerRequest.prototype, '_readableState', {
  get() {
    return makeReadable(this);
  },
  // (Readable's constructor assigns it: from then on it is the request's own.)
  set(state) {
    Object.defineProperty(this, '_readableState', { value: state, writable: true, enumerable: true, configurable: true });
  },
  configurable: true,
});

module.exports = { ServerRequest };
