'use strict';
// HTTPParser: a drop-in for the running Node line's built-in
// `require('_http_common').HTTPParser` (what differs between lines: ./node-line.js).
//
// One native crossing per execute(): the C core parses the whole buffer and
// records events in a workspace of this thread (./workspace.js, the one
// reader of the addon's layout), and ./replay.js, which owns the parser's
// native half, calls the kOn* handlers from them as the built-in does. This
// file is the parser's API and its lifecycle. A consumed socket's reads
// reach it through ./read-path.js; other modules ask it through the named
// hooks of ./parser-hooks.js.

const { AsyncResource } = require('node:async_hooks');
const binding = require('./native');
const { Replay } = require('./replay');
const connections = require('./connections');
const readPath = require('./read-path');
const hooks = require('./parser-hooks');
const line = require('./node-line');

const { REQUEST, RESPONSE } = line.statics;

const ASYNC_TYPES = ['', 'HTTPINCOMINGMESSAGE', 'HTTPCLIENTREQUEST'];
// AsyncResource options, one object for every initialize().
const MANUAL_DESTROY = Object.freeze({ requireManualDestroy: true });
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
    this._replay = new Replay(this);
    // Handlers run in the async context initialize() was called in, as the
    // built-in's do (AsyncLocalStorage stores included).
    this._asyncResource = null;
    this._destroyed = true;
    this._closed = false;
    this._consumedSocket = null;
    this._connections = null;     // the ConnectionsList it is in (./connections.js)
    // Lazy mode: kOnHeadersComplete gets no header array (docs/api.md).
    this.lazyHeaders = false;
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
    if (options !== undefined && options !== null) {
      if (typeof options !== 'object') throw new TypeError('The "options" argument must be an object');
      if (options.lazyHeaders !== undefined) this.lazyHeaders = options.lazyHeaders === true;
    }
    if (!this._destroyed && this._asyncResource !== null) this._asyncResource.emitDestroy();
    this._asyncResource = new AsyncResource(ASYNC_TYPES[type], MANUAL_DESTROY);
    this._destroyed = false;
    // The built-in starts the clock of a parser that joins a connections
    // list here; it runs until a message begins.
    this._untrack();
    if (connectionsList !== undefined && connectionsList !== null && connections.track(this, connectionsList)) {
      this._connections = connectionsList;
    }
    const startMs = this._connections !== null ? connections.nowMs() : 0;
    this._replay.reset(type, this._asyncResource, max > MAX_INT32 ? MAX_INT32 : max,
      (lenientFlags | 0) & line.lenientMask, startMs);
  }

  execute(data) {
    if (this._closed) return undefined;
    const bytes = data instanceof Uint8Array ? data : toBytes(data);
    return this._replay.feed(bytes, bytes.length);
  }

  finish() {
    if (this._closed) return undefined;
    return this._replay.finish();
  }

  // ---- header access without materialising everything (docs/api.md) ----

  // All headers of the current message as [name, value, ...], or [] outside
  // the window from headers complete to the next message's begin.
  getAllHeaders() {
    return this._replay.allHeaders();
  }

  // The trailers of the current message, with the same rules.
  getAllTrailers() {
    return this._replay.allTrailers();
  }

  // The first value whose name matches `name` (ASCII case-insensitive), or
  // undefined. Makes no string but the value.
  getHeader(name) {
    if (typeof name !== 'string') throw new TypeError('The "name" argument must be a string');
    return this._replay.header(name);
  }

  // ---- lifecycle ----

  pause() {
    if (!this._closed) this._replay.pause();
  }

  resume() {
    if (!this._closed) this._replay.resume();
  }

  close() {
    if (this._closed) return;
    this.unconsume();
    this._closed = true;
    this._untrack();
    // (Not this.free(): node:http's tests replace it on a parser.)
    this._emitDestroy();
    this._replay.close();
  }

  free() {
    this._emitDestroy();
  }

  _emitDestroy() {
    if (this._destroyed) return;
    this._destroyed = true;
    if (this._asyncResource !== null) this._asyncResource.emitDestroy();
  }

  remove() {
    if (this._closed) return;
    if (line.removeSilences) this._replay.silence();
    this._untrack();
  }

  // Leaves the ConnectionsList the parser is in, if any.
  _untrack() {
    const list = this._connections;
    if (list === null) return;
    this._connections = null;
    connections.untrack(this, list);
  }

  // Reads the socket's chunks straight into this parser (./read-path.js).
  consume(handle) {
    if (this._closed || this._consumedSocket !== null) return;
    if (readPath.consume(this, this.socket, handle)) this._consumedSocket = this.socket;
  }

  unconsume() {
    const socket = this._consumedSocket;
    if (socket === null) return;
    this._consumedSocket = null;
    this._replay.unconsumed();
    readPath.unconsume(socket);
  }

  // A copy of the bytes being parsed (or of the consumed read being
  // reported to kOnExecute), as the built-in's.
  getCurrentBuffer() {
    if (this._closed) return undefined;
    return this._replay.currentBuffer();
  }

  // duration() where the line has it (see the end of this file).
  _duration() {
    if (this._closed) return undefined;
    const start = this._replay.messageStart(connections.nowMs);
    // The core stamps message starts with the clock nowMs() reads.
    return start === 0 ? 0 : connections.nowMs() - start;
  }

  // headersCompleted() where the line has it; lib/connections.js asks it too.
  _headersCompleted() {
    if (this._closed) return undefined;
    return this._replay.headersCompleted();
  }

  // ---- hooks for the other modules of lib/ (./hooks.js) ----

  // bytes[0, length), read from the consumed socket (./read-path.js).
  [hooks.readConsumed](bytes, length) {
    if (!this._closed && this._consumedSocket !== null) this._replay.consumedRead(this._consumedSocket, bytes, length);
  }

  [hooks.messageStart]() {
    return this._replay.messageStart(connections.nowMs);
  }

  [hooks.begunSinceInit]() {
    return this._replay.begunSinceInit;
  }

  [hooks.whenComplete](msg, fn) {
    return this._replay.whenComplete(msg, fn);
  }

  [hooks.coreStats]() {
    return this._replay.stats();
  }
}

HTTPParser.prototype[hooks.headersComplete] = HTTPParser.prototype._headersCompleted;

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
