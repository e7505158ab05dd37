'use strict';
// The response of llhttp-napi/server: node:http's ServerResponse API on a
// legacy Stream (as OutgoingMessage is), so that pipe(), stream.finished()
// and stream.pipeline() take it. It builds its head once (the status line
// and the fixed lines come prepared, see ./wire.js) and hands its bytes to
// the connection loop (./connection.js), which writes them to the socket
// when this response's turn has come (pipelining) or keeps them until then.
// A response whose body is known when it ends leaves in one write.

// (Module bindings: the globals `process` and `Buffer` are accessors.)
const { nextTick } = require('node:process');
const { Buffer } = require('node:buffer');
const { validateHeaderName, validateHeaderValue, STATUS_CODES } = require('node:http');
// node:http's key of a response's high-water mark (which its tests and
// some libraries read).
const { kHighWaterMark } = require('_http_outgoing');
const { OutgoingHead, isNonAscii } = require('./response-head');
const { defaultFields } = require('./default-fields');
const errors = require('./errors');
const wire = require('./wire');
const { httpObserved, finishRequestEntry } = require('./performance');
const { kOpenResponse, kClosesConnection, kWritten, kFlushFailed, kAllSent, kFinished, kDetached, kClosed,
  kWritable } = require('./seam');

const CRLF = '\r\n';

// Where node:http differs between lines (measured on the built-in).
const line = require('../node-line');
const END_CALLBACKS_FIRST = line.endCallbackBeforeFinishListeners;
const COALESCE_CHUNKS = line.coalescesChunks;
const REFUSE_LATE_INFORMATION = line.hasWriteInformation;
const FINISHED_ONCE_FLUSHED = line.finishedOnceFlushed;
const HEARS_FLUSH_ERROR = line.endCallbackHearsFlushError;
const COUNT_CORKED_FRAMING = !line.holdsCorkedChunks;

function isFlatString(encoding) {
  return encoding === undefined || encoding === null || encoding === 'utf8' || encoding === 'utf-8' ||
    encoding === 'latin1';
}

// A Link header as node:http checks writeEarlyHints()' `link` (RFC 8288's
// link-value): `<target>`, then `; name`, `; name=value` or `; name="value"`
// parameters. A string, or an array of them (joined by ', ').
const LINK_VALUE = /^<[^>\x00-\x1f\x7f]*>(?:\s*;\s*[^\s;"=]+(?:=(?:"[^\s;"]*"|[^\s;"]*))?)*$/;

function linkValue(link) {
  if (typeof link === 'string') {
    if (!LINK_VALUE.test(link)) throw errors.badLink(link);
    return link;
  }
  if (!Array.isArray(link)) throw errors.badLink(link);
  for (const item of link) {
    if (typeof item !== 'string' || !LINK_VALUE.test(item)) throw errors.badLink(item);
  }
  return link.join(', ');
}

class ServerResponse extends OutgoingHead {
  constructor(req) {
    super(req);
    this.req = req;
    this._loop = null;
    this._detached = false;         // its turn is over: no socket
    this.writable = true;
    this.destroyed = false;
    this.finished = false;          // end() called (writableEnded)
    this._finishEmitted = false;    // its bytes went to the socket: 'finish' emitted
    this._headerSent = false;       // the head was handed to the loop
    this._closed = false;           // 'close' emitted
  }

  [kOpenResponse](loop, keepAlive) {
    this._loop = loop;
    this.shouldKeepAlive = keepAlive;
  }

  // (As node:http's: null while an earlier response holds the connection.)
  get socket() {
    return this._loop === null || this._detached || !this._loop.holdsSocketFor(this) ? null : this._loop.socket;
  }

  get connection() {
    return this.socket;
  }

  // 'close' was emitted.
  get closed() {
    return this._closed;
  }

  get writableEnded() {
    return this.finished;
  }

  // (Before 24 it reads whether any of its bytes are still held.)
  get writableFinished() {
    if (!FINISHED_ONCE_FLUSHED) return this._finishEmitted;
    return this.finished && this._chunkBytes === 0 && (this._detached || this._loop.pendingBytes(this) === 0);
  }

  // (node:http's: what the response holds that is not on the socket yet:
  // the bytes of a response whose turn has not come, and corked chunks.)
  get outputSize() {
    const held = this._detached || this._loop.isTurnOf(this) ? 0 : this._loop.pendingBytes(this);
    return held + this._chunkBytes + this._chunkFraming;
  }

  get writableObjectMode() {
    return false;
  }

  get writableHighWaterMark() {
    return this._loop.socket.writableHighWaterMark;
  }

  // (node:http's: the socket's, the server's highWaterMark option.)
  get [kHighWaterMark]() {
    return this._loop.socket.writableHighWaterMark;
  }

  get writableLength() {
    return this._chunkBytes + this._chunkFraming + (this._detached ? 0 : this._loop.pendingBytes(this));
  }

  get writableCorked() {
    return this._loop.socket.writableCorked;
  }

  get writableNeedDrain() {
    return this._needDrain;
  }

  cork() {
    this._corked++;
    if (this._loop.corkFor(this)) this._socketCorks++;
  }

  uncork() {
    if (this._corked === 0) return;
    this._corked--;
    if (this._corked === 0 && this._chunks !== null) this._flushChunks(false);
    // (The socket's own corks, even when the next response's turn has come.)
    if (this._socketCorks !== 0 && (this._corked < this._socketCorks)) {
      this._socketCorks--;
      this._loop.uncork();
    }
  }

  _releaseCorks() {
    this._corked = 0;
    for (; this._socketCorks !== 0; this._socketCorks--) this._loop.uncork();
  }

  // The chunks written while corked, as one chunk (and, `last`, the end).
  _flushChunks(last) {
    const chunks = this._chunks;
    const total = this._chunkBytes;
    this._chunks = null;
    this._chunkBytes = 0;
    this._chunkFraming = 0;
    const loop = this._loop;
    const head = this._headerSent ? '' : this._head;
    this._headerSent = true;
    loop.send(this, head + total.toString(16) + CRLF, 'latin1', false, undefined);
    for (let i = 0; i < chunks.length; i += 3) loop.send(this, chunks[i], chunks[i + 1], false, chunks[i + 2]);
    return loop.send(this, last ? '\r\n0\r\n' + this._trailer + CRLF : CRLF, 'latin1', last, undefined);
  }

  setTimeout(msecs, callback) {
    if (callback) this.on('timeout', callback);
    this._loop.socket.setTimeout(msecs);
    return this;
  }

  flushHeaders() {
    if (this._head === null) this._implicitHeader();
    if (!this._headerSent) this._sendHead();
  }

  // node:http's OutgoingMessage._send(), which modules call: `data` goes to
  // the connection as it is (no chunk framing), after the head if it has
  // not left yet.
  _send(data, encoding, callback) {
    if (typeof encoding === 'function') {
      callback = encoding;
      encoding = undefined;
    }
    if (this.destroyed) return false;
    if (!this._headerSent && this._head !== null) this._sendHead();
    return this._loop.send(this, data, encoding, false, typeof callback === 'function' ? callback : undefined);
  }

  _sendHead() {
    this._headerSent = true;
    this._loop.send(this, this._head, 'latin1', false, undefined);
  }

  // ---- informational answers ----

  writeContinue(cb) {
    this._writeInformational(wire.CONTINUE, cb);
    this._sent100 = true;
  }

  writeProcessing(cb) {
    this._writeInformational(wire.PROCESSING, cb);
  }

  writeEarlyHints(hints, cb) {
    if (hints === null || typeof hints !== 'object' || Array.isArray(hints)) throw errors.notAnObject('hints', hints);
    if (hints.link === null || hints.link === undefined) return;
    const link = linkValue(hints.link);
    if (link.length === 0) return;
    let head = 'HTTP/1.1 103 Early Hints\r\nLink: ' + link + CRLF;
    for (const key of Object.keys(hints)) {
      if (key === 'link') continue;
      validateHeaderName(key);
      validateHeaderValue(key, hints[key]);
      head += key + ': ' + hints[key] + CRLF;
    }
    this._writeInformational(head + CRLF, cb);
  }

  // A 1xx answer goes before the head; once the head is made, lines that
  // have writeInformation() refuse it (older ones send it anyway).
  // writeInformation(status[, headers][, cb]): any 1xx but 101, where the
  // line has it (24.22 on).
  _writeAnyInformation(statusCode, headers, cb) {
    if (this._head !== null) throw errors.headersSent('write');
    if (typeof statusCode !== 'number') throw errors.notANumber('statusCode', statusCode);
    if (!Number.isInteger(statusCode) || statusCode < 100 || statusCode > 199) {
      throw errors.outOfRange('statusCode', '>= 100 && <= 199', statusCode);
    }
    if (statusCode === 101) throw errors.invalidStatusCode(statusCode);
    let head = `HTTP/1.1 ${statusCode} ${STATUS_CODES[statusCode] || 'unknown'}\r\n`;
    const pairs = headers === undefined || headers === null ? [] :
      Array.isArray(headers) ? (headers.length !== 0 && Array.isArray(headers[0]) ? headers : pairsOf(headers)) :
        Object.entries(headers);
    for (const [name, value] of pairs) {
      validateHeaderName(name);
      validateHeaderValue(name, value);
      head += name + ': ' + value + CRLF;
    }
    return this._loop.send(this, head + CRLF, 'latin1', false, cb);
  }

  _writeInformational(bytes, cb) {
    if (REFUSE_LATE_INFORMATION && this._head !== null) throw errors.headersSent('write');
    this._loop.send(this, bytes, 'latin1', false, cb);
  }

  // ---- the body ----

  write(chunk, encoding, callback) {
    if (typeof encoding === 'function') {
      callback = encoding;
      encoding = null;
    }
    if (chunk === null) throw errors.nullValues();
    if (typeof chunk !== 'string' && !(chunk instanceof Uint8Array)) throw errors.invalidChunk(chunk);
    if (this.finished || this.destroyed) {
      misuse(this, this.finished ? errors.writeAfterEnd() : errors.streamDestroyed('write'), callback);
      return false;
    }
    if (typeof chunk === 'string' && !isFlatString(encoding)) chunk = Buffer.from(chunk, encoding);
    const length = typeof chunk === 'string' ? Buffer.byteLength(chunk, encoding || 'utf8') : chunk.length;
    if (this.strictContentLength) this._countStrictly(length, false);
    if (this._head === null) this._implicitHeader();
    if (!this._hasBody) {
      if (this._loop.server.rejectNonStandardBodyWrites === true) throw errors.bodyNotAllowed();
      if (typeof callback === 'function') nextTick(callback);
      return true;
    }
    if (length === 0) {
      if (!this._headerSent) this._sendHead();
      if (typeof callback === 'function') nextTick(callback);
      return !this._needDrain;
    }
    // (As node:http: what a tick writes leaves together. From 24 on the
    // response corks itself, and a chunked one's chunks become one chunk;
    // before, the socket is corked.)
    if (this._loop.isTurnOf(this) && !this._loop.socket.writableCorked) {
      if (COALESCE_CHUNKS) {
        this.cork();
        nextTick(uncorkNT, this);
      } else {
        this._loop.socket.cork();
        nextTick(uncorkSocketNT, this._loop.socket);
      }
    }
    if (this._corked !== 0 && this.chunkedEncoding) {
      if (this._chunks === null) this._chunks = [];
      this._chunks.push(chunk, encoding, callback);
      this._chunkBytes += length;
      if (COUNT_CORKED_FRAMING) this._chunkFraming += length.toString(16).length + 4;
      const below = this.writableLength < this.writableHighWaterMark;
      if (!below) this._needDrain = true;
      return below;
    }
    const ok = this._sendBody(chunk, encoding, length, false, callback);
    if (!ok) this._needDrain = true;
    return ok;
  }

  end(chunk, encoding, callback) {
    if (typeof chunk === 'function') {
      callback = chunk;
      chunk = null;
      encoding = null;
    } else if (typeof encoding === 'function') {
      callback = encoding;
      encoding = null;
    }
    if (this.finished) {
      // (A chunk after the end is a write after end; a callback waits for
      // 'finish', or hears at once that it came.)
      if (chunk) misuse(this, errors.writeAfterEnd(), callback);
      else if (typeof callback === 'function') this._onFinished(callback);
      return this;
    }
    if (this.destroyed) {
      // (As node:http: ended, and its callback never runs, unless the
      // socket failed: then from 24 on it hears why, and before, the
      // response finishes as if its bytes were written.)
      this.finished = true;
      const failed = this._loop !== null ? this._loop.socket.errored : null;
      if (failed && HEARS_FLUSH_ERROR) {
        if (typeof callback === 'function') nextTick(callback, this._flushError || failed);
      } else if (failed) {
        if (typeof callback === 'function') this.once('finish', callback);
        nextTick(finishAnyway, this);
      }
      return this;
    }
    let length = 0;
    if (chunk !== null && chunk !== undefined) {
      if (typeof chunk !== 'string' && !(chunk instanceof Uint8Array)) throw errors.invalidChunk(chunk);
      if (typeof chunk === 'string' && !isFlatString(encoding)) chunk = Buffer.from(chunk, encoding);
      length = typeof chunk === 'string' ? Buffer.byteLength(chunk, encoding || 'utf8') : chunk.length;
      if (this.strictContentLength) this._countStrictly(length, true);
      if (this._head === null) this._contentLength = length;
    } else if (this._head === null) {
      this._contentLength = 0;
    }
    if (this._head === null) this._implicitHeader();
    if (chunk && !this._hasBody && this._loop.server.rejectNonStandardBodyWrites === true) throw errors.bodyNotAllowed();
    if (typeof callback === 'function') this._onFinished(callback);
    if (this.strictContentLength && this._declaresLength() && this._strictBytes !== this._contentLength) {
      // (As node:http's: the chunk given leaves before the end is refused.)
      if (length !== 0 && this._hasBody) this._sendBody(chunk, encoding, length, false, undefined);
      throw errors.contentLengthMismatch(this._strictBytes, this._contentLength);
    }
    this.finished = true;
    if (!this._hasBody) length = 0;
    if (this._chunks !== null && this.chunkedEncoding) {
      if (length !== 0) {
        this._chunks.push(chunk, encoding, undefined);
        this._chunkBytes += length;
      }
      this._flushChunks(true);
    } else {
      this._sendBody(chunk, encoding, length, true, undefined);
    }
    // (The end releases every cork of the response, as node:http's.)
    if (this._corked !== 0) this._releaseCorks();
    if (this._loop.isTurnOf(this)) {
      // (... and the socket's whole, as node:http's: what this tick wrote
      // leaves now, before what the rest of the read may do to the socket.)
      const socket = this._loop.socket;
      while (socket.writableCorked > 0) socket.uncork();
      this[kAllSent]();
    }
    if (httpObserved()) finishRequestEntry(this);
    return this;
  }

  // strictContentLength: `length` more bytes of body, which may not go
  // beyond the head's Content-Length, nor (`ending`) fall short of it.
  _countStrictly(length, ending) {
    const total = this._strictBytes + length;
    if (this._declaresLength() && (ending ? total !== this._contentLength : total > this._contentLength)) {
      throw errors.contentLengthMismatch(total, this._contentLength);
    }
    this._strictBytes = total;
  }

  // Hands the head (if not sent yet), `chunk` (framed when chunked) and, at
  // the end, the last chunk to the connection: one write for strings,
  // one corked sequence for bytes.
  // Is what _sendBody() writes of `chunk` (a string of `length` bytes in
  // `encoding`), after `head` (and the trailers), all ASCII? Then its UTF-8
  // bytes are its latin1 bytes, which the socket encodes for less (no
  // flattening copy of the string tree first). A UTF-8 string is ASCII
  // when its byte length is its length; the head keeps whether it is.
  _asciiOut(chunk, encoding, length, head, trailers) {
    return length === chunk.length && encoding !== 'latin1' && (head === '' || this._headAscii) &&
      (!trailers || !isNonAscii(this._trailer));
  }

  _sendBody(chunk, encoding, length, last, callback) {
    const loop = this._loop;
    const chunked = this.chunkedEncoding && this._hasBody;
    const head = this._headerSent ? '' : this._head;
    this._headerSent = true;
    if (length === 0 || typeof chunk === 'string') {
      let out = head;
      // (As node:http: a chunked answer's head goes with the first size
      // line, in latin1, so a head that is not ASCII cannot share the
      // chunk's utf8 write; a sized answer's head shares the body's write
      // and encoding, see the Content-Disposition rule in ./response-head.js.)
      if (chunked && length !== 0 && head !== '' && encoding !== 'latin1' && isNonAscii(head)) {
        loop.send(this, head + length.toString(16) + CRLF, 'latin1', false, undefined);
        out = chunk + CRLF;
        if (last) out += '0\r\n' + this._trailer + CRLF;
        return loop.send(this, out, encoding || 'utf8', last, callback);
      }
      if (length !== 0) out += chunked ? length.toString(16) + CRLF + chunk + CRLF : chunk;
      if (last && chunked) out += '0\r\n' + this._trailer + CRLF;
      return loop.send(this, out, length === 0 || this._asciiOut(chunk, encoding, length, head, last && chunked) ?
        'latin1' : encoding || 'utf8', last, callback);
    }
    const corked = loop.corkFor(this);
    if (head !== '' || chunked) loop.send(this, chunked ? head + length.toString(16) + CRLF : head, 'latin1', false, undefined);
    let ok;
    if (chunked) {
      loop.send(this, chunk, undefined, false, callback);
      ok = loop.send(this, last ? '\r\n0\r\n' + this._trailer + CRLF : CRLF, 'latin1', last, undefined);
    } else {
      ok = loop.send(this, chunk, undefined, last, callback);
    }
    if (corked) loop.uncork();
    return ok;
  }

  // end()'s callback: called when 'finish' comes (from 24 on before its
  // listeners), at once with ERR_STREAM_ALREADY_FINISHED when it came.
  _onFinished(callback) {
    if (this.writableFinished) callback(errors.alreadyFinished('end'));
    else if (this._flushError !== null) nextTick(callback, this._flushError);
    else if (!END_CALLBACKS_FIRST) this.once('finish', callback);
    else if (this._endCallbacks === null) this._endCallbacks = [callback];
    else this._endCallbacks.push(callback);
  }

  // node:http's private raw write, which code written for it calls (Node
  // 22's tests send an informational answer with it): `data` goes to the
  // connection as it is, in order with the response's other bytes.
  _writeRaw(data, encoding, callback) {
    if (typeof encoding === 'function') {
      callback = encoding;
      encoding = undefined;
    }
    if (this.destroyed || this._loop === null) return false;
    return this._loop.send(this, data, encoding, false, callback);
  }

  // A response is write-only: piping from it is an 'error', as node:http's.
  pipe() {
    this.emit('error', errors.cannotPipe());
  }

  destroy(err) {
    if (this.destroyed) return this;
    this.destroyed = true;
    this.errored = err;
    if (!this._detached) this._loop.socket.destroy(err);
    return this;
  }

  // An async listener's rejection (captureRejections): the response goes,
  // as node:http's.
  [Symbol.for('nodejs.rejection')](err) {
    this.destroy(err);
  }

  // ---- the loop's calls ----

  get [kClosesConnection]() {
    return this._last;
  }

  // (The client ended its side: the connection ends after this answer.)
  set [kClosesConnection](closes) {
    this._last = closes;
  }

  [kWritten]() {
    this._finishEmitted = true;
    const callbacks = this._endCallbacks;
    if (callbacks !== null) {
      this._endCallbacks = null;
      for (let i = 0; i < callbacks.length; i++) callbacks[i](null);
    }
  }

  // Its last bytes could not be written: from 24 on no 'finish', and
  // end()'s callbacks hear why, those given later too (returns true);
  // before, it finishes as if they were (returns false).
  [kFlushFailed](err) {
    if (!HEARS_FLUSH_ERROR) return false;
    this._flushError = err;
    const callbacks = this._endCallbacks;
    if (callbacks !== null) {
      this._endCallbacks = null;
      for (let i = 0; i < callbacks.length; i++) callbacks[i](err);
    }
    return true;
  }

  // ('prefinish': node:http's, when an ended response's bytes have all been
  // handed to its socket, at end() or when its turn comes.)
  [kAllSent]() {
    this.emit('prefinish');
  }

  [kFinished]() {
    this.emit('finish');
  }

  [kDetached]() {
    this._detached = true;
  }

  [kClosed]() {
    if (this._closed) return;
    this.destroyed = true;
    this._closed = true;
    this.emit('close');
  }

  [kWritable]() {
    if (!this._needDrain) return;
    this._needDrain = false;
    this.emit('drain');
  }
}

// A flat [name, value, ...] list as pairs.
function pairsOf(flat) {
  if (flat.length % 2 !== 0) throw errors.invalidArgValue('headers', flat);
  const pairs = [];
  for (let i = 0; i < flat.length; i += 2) pairs.push([flat[i], flat[i + 1]]);
  return pairs;
}

if (REFUSE_LATE_INFORMATION) {
  Object.defineProperty(ServerResponse.prototype, 'writeInformation', {
    value: function writeInformation(statusCode, headers, cb) {
      if (typeof headers === 'function') {
        cb = headers;
        headers = undefined;
      }
      return this._writeAnyInformation(statusCode, headers, cb);
    },
    writable: true,
    configurable: true,
  });
}

function finishAnyway(res) {
  res[kFinished]();
}

function uncorkSocketNT(socket) {
  socket.uncork();
}

function uncorkNT(res) {
  if (res._corked === 0) return;
  res._corked = 1;
  res.uncork();
  // Flushed into a socket that takes more: the writer may go on.
  if (res._loop.isTurnOf(res) && !res._loop.socket.writableNeedDrain) res[kWritable]();
}

// A write after end() (or after destroy()): the callback hears of it on the
// next tick, and the response emits it as 'error' unless destroyed, as
// node:http's does (with no 'error' listener that is an uncaught exception
// there too).
function misuse(res, err, callback) {
  if (res.destroyed) {
    if (typeof callback === 'function') nextTick(callback, err);
  } else {
    nextTick(emitMisuse, res, err, callback);
  }
}

function emitMisuse(res, err, callback) {
  if (typeof callback === 'function') callback(err);
  if (!res.destroyed) res.emit('error', err);
}

// (What most responses never change: ./default-fields.js.)
defaultFields(ServerResponse.prototype, {
  errored: null,                    // what destroy() was given
  _endCallbacks: null,              // end()'s callbacks (24 on)
  _flushError: null,                // why its last bytes could not be written (end()'s callbacks hear it, 24 on)
  _socketCorks: 0,                  // how many of the response's corks corked the socket
  _chunks: null,                    // chunks written while corked: [data, encoding, callback, ...]
  _chunkBytes: 0,
  _chunkFraming: 0,                 // ... and the size lines and CRLFs the line's node:http counts for them
  strictContentLength: false,
  _strictBytes: 0,                  // the body's bytes written while strictContentLength was on
  _needDrain: false,
  _corked: 0,                       // its own corks (cork() less uncork())
});

module.exports = { ServerResponse };
