'use strict';
// The request of llhttp-napi/server: what node:http's IncomingMessage gives a
// request handler, made by the connection loop (./connection.js) at the end
// of each head. Its headers come from the parser in one batch
// (getAllHeaders()) when first read; `rawHeaders` is that batch. The body is
// a Readable fed by the loop; a consumer that falls behind stops the
// socket's reads (see _read()).

const { Readable } = require('node:stream');
const { addHeaderLine } = require('./headers');

const HTTP_1_1 = '1.1';
const ABORTED = 'aborted';

class ServerRequest extends Readable {
  // `conn`: the connection loop's state (./connection.js).
  constructor(conn, major, minor, method, url, upgrade) {
    super();
    this.socket = conn.socket;
    this.httpVersionMajor = major;
    this.httpVersionMinor = minor;
    this.httpVersion = major === 1 && minor === 1 ? HTTP_1_1 : `${major}.${minor}`;
    this.method = method;
    this.url = url;
    this.upgrade = upgrade;
    this.complete = false;
    this.aborted = false;
    this.joinDuplicateHeaders = conn.server.joinDuplicateHeaders === true;
    this._conn = conn;
    // [name, value, ...] once taken from the parser (see rawPairs()).
    this._rawHeaders = null;
    this._headers = null;
    this._rawTrailers = null;
    this._trailers = null;
    this._consuming = false;
    this._dumped = false;
  }

  // The head's pairs. While the parser is still on this message they come
  // from it (lazy mode keeps them until the next message begins); the loop
  // takes them at the message's end for later readers.
  rawPairs() {
    if (this._rawHeaders === null) this._rawHeaders = this._conn.parser.getAllHeaders();
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
      const headers = {};
      const join = this.joinDuplicateHeaders;
      // (node:http's maxHeadersCount: the pairs beyond it stay out of
      // `headers`; lines whose parser refuses them never have them.)
      const max = this._conn.parser.maxHeaderPairs;
      const end = max > 0 && raw.length > max ? max : raw.length;
      for (let i = 0; i < end; i += 2) addHeaderLine(headers, raw[i], raw[i + 1], join);
      this._headers = headers;
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
    if (this._rawHeaders === null && this._conn.current === this) return this._conn.parser.getHeader(name);
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
      const trailers = {};
      for (let i = 0; i < raw.length; i += 2) addHeaderLine(trailers, raw[i], raw[i + 1], this.joinDuplicateHeaders);
      this._trailers = trailers;
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

  // Reading again: the socket may go on (it stopped when a push() found the
  // buffer full).
  _read() {
    if (!this._consuming) {
      this._readableState.readingMore = false;
      this._consuming = true;
    }
    this._conn.bodyWanted();
  }

  // The response ended and nobody read this body: what is left is
  // discarded. A body fully received and never read just ends (no flowing
  // tick); one still arriving is dropped as it arrives.
  _dump() {
    if (this._dumped) return;
    this._dumped = true;
    this.removeAllListeners('data');
    const state = this._readableState;
    if (this.complete && state.flowing === null && state.ended && state.length === 0 && !state.destroyed) {
      this.read(0);
    } else {
      this.resume();
    }
  }

  _destroy(err, cb) {
    if (!this.readableEnded || !this.complete) {
      this.aborted = true;
      this.emit(ABORTED);
      const socket = this.socket;
      if (socket !== null && !socket.destroyed) socket.destroy(err);
    }
    // (As node:http: an error nobody listens for is not raised.)
    cb(err !== null && err !== undefined && this.listenerCount('error') > 0 ? err : null);
  }
}

module.exports = { ServerRequest };
