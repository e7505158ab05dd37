'use strict';
// The request of llhttp-napi/server: what node:http's IncomingMessage gives a
// request handler, opened by the connection loop (./connection.js) at the
// end of each head. Its headers come from the parser in one batch
// (getAllHeaders()) when first read; `rawHeaders` is that batch. The body is
// a Readable fed by the loop; a reader that falls behind stops the socket's
// reads until it asks for more.

const { Readable } = require('node:stream');
const { addHeaderLine } = require('./headers');
const { kOpenRequest, kBodyChunk, kBodyEnd, kAnswered } = require('./seam');

const HTTP_1_1 = '1.1';

class ServerRequest extends Readable {
  constructor(socket) {
    super();
    this.socket = socket;
    this.httpVersionMajor = 1;
    this.httpVersionMinor = 1;
    this.httpVersion = HTTP_1_1;
    this.method = null;
    this.url = '';
    this.upgrade = false;
    this.complete = false;
    this.aborted = false;
    this.joinDuplicateHeaders = false;
    this._loop = null;
    this._rawHeaders = null;      // [name, value, ...] once taken (see rawPairs())
    this._headers = null;
    this._rawTrailers = null;
    this._trailers = null;
    this._reading = false;        // someone read (node:http's _consuming)
    this._discarding = false;     // the body goes unread (node:http's _dumped)
  }

  [kOpenRequest](loop, major, minor, method, url, upgrade) {
    this._loop = loop;
    this.httpVersionMajor = major;
    this.httpVersionMinor = minor;
    if (major !== 1 || minor !== 1) this.httpVersion = `${major}.${minor}`;
    this.method = method;
    this.url = url;
    this.upgrade = upgrade;
    this.joinDuplicateHeaders = loop.server.joinDuplicateHeaders === true;
  }

  // ---- the loop's calls ----

  // A piece of the body; false when the reader is behind.
  [kBodyChunk](chunk) {
    return this._discarding || this.push(chunk);
  }

  [kBodyEnd](rawHeaders, rawTrailers) {
    if (this._rawHeaders === null) this._rawHeaders = rawHeaders;
    if (rawTrailers !== null && rawTrailers.length !== 0) this._rawTrailers = rawTrailers;
    this.complete = true;
    this.push(null);
  }

  // The response finished: a body nobody reads is discarded. One fully
  // received and never read just ends (no flowing tick); one still
  // arriving is dropped as it arrives.
  [kAnswered]() {
    if (this._reading || this._readableState.resumeScheduled || this._discarding) return;
    this._discarding = true;
    this.removeAllListeners('data');
    const state = this._readableState;
    if (this.complete && state.flowing === null && state.ended && state.length === 0 && !state.destroyed) {
      this.read(0);
    } else {
      this.resume();
    }
  }

  // ---- the head ----

  // The head's pairs: from the parser while it is on this message, kept
  // from the message's end on.
  rawPairs() {
    if (this._rawHeaders === null) this._rawHeaders = this._loop.headPairs();
    return this._rawHeaders;
  }

  get rawHeaders() {
    return this.rawPairs();
  }

  set rawHeaders(value) {
    this._rawHeaders = value;
  }

  get headers() {
    if (this._headers === null) {
      const raw = this.rawPairs();
      // (node:http's maxHeadersCount: the pairs beyond it stay out of
      // `headers`; lines whose parser refuses them never have them.)
      const max = this._loop.headerPairLimit();
      this._headers = headersObject(raw, max > 0 && raw.length > max ? max : raw.length, this.joinDuplicateHeaders);
    }
    return this._headers;
  }

  set headers(value) {
    this._headers = value;
  }

  get headersDistinct() {
    const raw = this.rawPairs();
    const out = { __proto__: null };
    for (let i = 0; i < raw.length; i += 2) {
      const name = raw[i].toLowerCase();
      if (out[name] === undefined) out[name] = [raw[i + 1]];
      else out[name].push(raw[i + 1]);
    }
    return out;
  }

  // The first value of header `name` (any case), or undefined; makes no
  // other string while the parser is on this message.
  getHeader(name) {
    if (this._rawHeaders === null && this._loop.isParsing(this)) return this._loop.headerValue(name);
    const raw = this.rawPairs();
    const lower = String(name).toLowerCase();
    for (let i = 0; i < raw.length; i += 2) {
      if (raw[i].length === lower.length && raw[i].toLowerCase() === lower) return raw[i + 1];
    }
    return undefined;
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
      const socket = this.socket;
      if (socket !== null && !socket.destroyed) socket.destroy(err);
    }
    cb(err !== null && err !== undefined && this.listenerCount('error') > 0 ? err : null);
  }
}

function headersObject(raw, end, join) {
  const out = {};
  for (let i = 0; i < end; i += 2) addHeaderLine(out, raw[i], raw[i + 1], join);
  return out;
}

module.exports = { ServerRequest };
