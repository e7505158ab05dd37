'use strict';
// The JavaScript face of llhttp-napi/server's own transport (TCP and Unix domain sockets)
// (src/transport/lhn_transport.c, issue 46): a plain (not TLS) server, unless
// made with `transport: 'net'` (or, for every server of the process,
// LLHTTP_NAPI_TRANSPORT=net), listens, accepts, reads and writes through
// the addon on Node's libuv loop instead of node:net. Its connections are
// NativeSockets: what the connection loop (./connection.js,
// ./loop-events.js) and the two messages use of a net.Socket, over a
// connection of the addon's. The loop and the HTTP rules are the same on
// both transports; only the socket differs.
//
// Each read of a connection is one call from the addon (in the connection's
// async context). The first after the parser consumes the socket
// (parser.consume(), ../read-path.js) hands the bytes, where they lie in the
// addon's one read buffer, to the parser; its answer lets the addon parse
// the next read itself, with the parser's native state, before the call,
// which then delivers what that parse left (heads, body pieces, message
// ends). A command for the parser takes that back until the next read. Writes leave in one call per write (a corked
// response's pieces together); the bytes the kernel did not take are queued
// in the addon, whose count is the socket's writableLength.
//
// A descriptor, a handle and a cluster worker's listen() go through
// node:net's listen(), which checks the arguments and asks the cluster's
// primary, up to its last step (server._listen2()): there the transport
// listens on the descriptor, on a copy of the handle's, or (a round-robin
// worker) takes each connection the primary sends over a copy of its
// descriptor (listenGiven()).
//
// What it does not cover yet takes node:net for that server, decided at
// listen(): TLS, a signal, reusePort off Linux, a Unix domain socket with
// readableAll / writableAll or in the abstract namespace, a server with
// pauseOnConnect or a blockList, an exclusive listen in a cluster worker, a
// build without the transport (docs/server.md, "The native transport"). An
// upgrade or a CONNECT hands its connection over to a net.Socket of node's.

const { EventEmitter } = require('node:events');
const { builtinModule } = require('../builtin-modules');
const net = builtinModule('node:net');
const { nextTick } = require('node:process');
const util = require('node:util');
const binding = require('../native');
const hooks = require('../parser-hooks');
const { copyOf } = require('../bytes');
const { listensWithReusePort } = require('../node-line');
const { kOwnReads, kWithdrawParse, nextReadParser } = require('../read-path');
const { kInSocketContext, kIdleTimer, kHandOver } = require('./seam');
const { defaultFields } = require('./default-fields');

const transport = binding.transport;
const EVENTS = transport === undefined ? {} : transport.events;
const { getDefaultHighWaterMark } = require('node:stream');
const HIGH_WATER_MARK = typeof getDefaultHighWaterMark === 'function' ? getDefaultHighWaterMark(false) : 16384;

// server[kNativeServer]: the state of a server on this transport, set at
// its native listen().
const kNativeServer = Symbol('llhttp-napi/server native transport');
// server[kTransportChoice]: whether the server's options (or the process)
// chose the native transport.
const kTransportChoice = Symbol('llhttp-napi/server transport choice');
// socket[kStandsFor]: on a net.Socket an upgrade was handed to, the
// NativeSocket it goes on from.
const kStandsFor = Symbol('llhttp-napi/server handed from');

// The kinds of string write() takes (lhn_transport.c).
const BYTES = 0;
const UTF8 = 1;
const LATIN1 = 2;

let readBuffer = null;   // a Buffer over the addon's read buffer

// ---- errors, as node:net makes them ----

function systemError(code, syscall, address, port) {
  const known = util.getSystemErrorMap().get(code);
  const [name, message] = known === undefined ? [`Unknown system error ${code}`, 'unknown error'] : known;
  const where = address === undefined ? '' : port === undefined ? ` ${address}` : ` ${address}:${port}`;
  const err = new Error(`${syscall} ${name}: ${message}${where}`);
  err.errno = code;
  err.code = name;
  err.syscall = syscall;
  if (address !== undefined) err.address = address;
  if (port !== undefined) err.port = port;
  return err;
}

// A listen() that failed, as node:net tells it: the address always (null
// for a descriptor or a handle), the port when there is one.
function listenError(code, address, port) {
  const known = util.getSystemErrorMap().get(code);
  const [name, message] = known === undefined ? [`Unknown system error ${code}`, 'unknown error'] : known;
  const where = port > 0 ? ` ${address}:${port}` : address ? ` ${address}` : '';
  const err = new Error(`listen ${name}: ${message}${where}`);
  err.code = name;
  err.errno = code;
  err.syscall = 'listen';
  err.address = address;
  if (port) err.port = port;
  return err;
}

function codedError(code, message) {
  const err = new Error(message);
  err.code = code;
  return err;
}

// ---- the choice ----

// Whether `options.transport` (else LLHTTP_NAPI_TRANSPORT) leaves the
// server on the native transport: 'native' (the default), or 'net'.
function wantsNative(options) {
  const given = options !== null && typeof options === 'object' ? options.transport : undefined;
  if (given !== undefined) {
    if (given !== 'native' && given !== 'net') {
      const err = new TypeError(`The property 'options.transport' must be 'native' or 'net'. Received ${util.inspect(given)}`);
      err.code = 'ERR_INVALID_ARG_VALUE';
      throw err;
    }
    return given === 'native';
  }
  return process.env.LLHTTP_NAPI_TRANSPORT !== 'net';
}

// Called by the Server constructor.
function chooseTransport(server, options) {
  server[kTransportChoice] = wantsNative(options);
}

// Whether this build has the transport (not on Windows, nor in the macOS
// and musl prebuilds: docs/install.md).
function available() {
  return transport !== undefined;
}

// ---- a connection ----

function runCallbacks(callbacks, err) {
  if (typeof callbacks === 'function') callbacks(err);
  else if (Array.isArray(callbacks)) {
    for (let i = 0; i < callbacks.length; i++) if (typeof callbacks[i] === 'function') callbacks[i](err);
  }
}

function kindOf(data, encoding) {
  if (typeof data !== 'string') return BYTES;
  if (encoding === undefined || encoding === null || encoding === 'utf8' || encoding === 'utf-8') return UTF8;
  if (encoding === 'latin1' || encoding === 'binary') return LATIN1;
  return -1;
}

// A NativeSocket's idle timeout, as the connection loop handles node:net's
// timer of a socket: the addon counts it from each read and write, and
// setTimeout() makes another (the one before reads -1).
class IdleTimer {
  constructor(msecs) {
    this._idleTimeout = msecs;
    this._onTimeout = null;       // what replaces the socket's 'timeout', (...this._timerArgs)
    this._timerArgs = undefined;
  }

  // (The addon counts the timeout again from each read and write: the
  // loop refreshes it right after a response's last write.)
  refresh() {
    return this;
  }
}

// A connection of the addon's with what the loop, the messages and most
// servers use of a net.Socket (stage 2 of issue 46 completes it).
class NativeSocket {
  constructor(server, id, listener) {
    // (A net.Socket's listener table: a stream's constructor gives it its
    // usual events as keys (EventEmitter's shape mode), which keeps it an
    // object of fixed shape where a table made on the first listener is a
    // dictionary, five times the size, for the connection's life.)
    this._events = {
      close: undefined, error: undefined, prefinish: undefined, finish: undefined,
      drain: undefined, data: undefined, end: undefined, readable: undefined,
    };
    this._eventsCount = 0;
    EventEmitter.init.call(this);
    this.server = server;
    this._server = server;
    this._listener = listener;    // the NativeServerState that accepted it
    this._id = id;
    this[kOwnReads] = false;
    this.parser = null;
    this._parsedWith = null;      // the parser the addon parses the next read with, or null
    this.destroyed = false;
    this.readable = true;
    this.writable = true;
    this.timeout = undefined;    // (as a net.Socket's until setTimeout())
    this.bytesRead = 0;
    this._queued = 0;             // bytes the addon has queued
    this._pending = null;         // callbacks of the queued writes, one entry per write, once one is queued
    this._needDrain = false;
    this._paused = false;
    this[kIdleTimer] = null;
    const highWaterMark = server.highWaterMark;
    if (highWaterMark !== undefined && highWaterMark !== null && highWaterMark !== HIGH_WATER_MARK) {
      this._writableHighWaterMark = highWaterMark;
    }
  }

  // (Its own: the stream classes its prototype chain holds, net.Socket's,
  // keep these in stream state it does not have. Once handed over, the
  // new socket's.)
  get readable() {
    return this._handedTo === null ? this._readableSide : this._handedTo.readable;
  }

  set readable(value) {
    this._readableSide = value;
  }

  get writable() {
    return this._handedTo === null ? this._writableSide : this._handedTo.writable;
  }

  set writable(value) {
    this._writableSide = value;
  }

  get destroyed() {
    return this._handedTo === null ? this._isDestroyed : this._handedTo.destroyed;
  }

  set destroyed(value) {
    this._isDestroyed = value;
  }

  get errored() {
    return this._error;
  }

  set errored(value) {
    this._error = value;
  }

  get bytesRead() {
    return this._bytesRead;
  }

  set bytesRead(value) {
    this._bytesRead = value;
  }

  // The bytes handed to write() (written, queued, or corked), as node:net
  // counts them.
  get bytesWritten() {
    if (this._handedTo !== null) return this._finalBytesWritten + this._handedTo.bytesWritten;
    if (this._finalBytesWritten >= 0) return this._finalBytesWritten;
    return transport.bytesWritten(this._id) + corkedByteLength(this._corkedChunks);
  }

  // (node:net's deprecated name for writableLength.)
  get bufferSize() {
    return this.writableLength;
  }

  get closed() {
    return this._didClose;
  }

  get localFamily() {
    return this.address().family;
  }

  get readableObjectMode() {
    return false;
  }

  get writableObjectMode() {
    return false;
  }

  get readableEncoding() {
    return null;
  }

  get readableAborted() {
    return this.destroyed && !this._ended;
  }

  // (As a Readable's: whether 'data' was emitted or read() took bytes. A
  // consumed socket's reads go to its parser, which is not reading it.)
  get readableDidRead() {
    return this._didRead;
  }

  // (EventEmitter's: Readable's versions look after stream state.)
  removeListener(event, listener) {
    return EventEmitter.prototype.removeListener.call(this, event, listener);
  }

  off(event, listener) {
    return EventEmitter.prototype.removeListener.call(this, event, listener);
  }

  removeAllListeners(event) {
    return EventEmitter.prototype.removeAllListeners.apply(this, arguments);
  }

  // The bytes handed over and not yet taken by the client.
  get writableLength() {
    return this._queued + this._corkedBytes;
  }

  // The server's highWaterMark option, both ways, as a net.Socket it
  // accepts; the writable one may be changed on its _writableState.
  get writableHighWaterMark() {
    return this._writableHighWaterMark;
  }

  get readableHighWaterMark() {
    return this._server.highWaterMark ?? HIGH_WATER_MARK;
  }

  // What code written for node:net reads and sets of a socket's writable
  // state (node:http's tests set its highWaterMark), over this socket's.
  get _writableState() {
    if (this._writableStateView === null) this._writableStateView = new WritableStateView(this);
    return this._writableStateView;
  }

  get writableNeedDrain() {
    return this._needDrain;
  }

  get writableCorked() {
    return this._corked;
  }

  get writableEnded() {
    return this._endCalled;
  }

  get writableFinished() {
    return this._finished;
  }

  get readableEnded() {
    return this._ended;
  }

  // Nothing read waits in the socket: every read goes to its parser. (The
  // parser runs pending ticks after a head or a body piece only while its
  // socket buffers nothing, as the built-in's callbacks do.)
  get readableLength() {
    return 0;
  }

  get readableFlowing() {
    return this._held !== null ? null : !this._paused;
  }

  // null (node:http's hand-over at an upgrade): the reads are kept until
  // someone listens to 'data' or calls resume(), as a Readable that is
  // neither flowing nor paused keeps them; reading stops once they reach
  // the high-water mark. false and true: pause() and resume().
  set readableFlowing(value) {
    if (value === null) {
      if (this._held === null) this._held = [];
    } else if (value) {
      this.resume();
    } else {
      this.pause();
    }
  }

  on(event, listener) {
    EventEmitter.prototype.on.call(this, event, listener);
    if (event === 'data' && this._held !== null) this.resume();
    return this;
  }

  addListener(event, listener) {
    return this.on(event, listener);
  }

  get pending() {
    return false;
  }

  get readyState() {
    if (this.destroyed) return 'closed';
    if (this.readable && this.writable) return 'open';
    return this.readable ? 'readOnly' : this.writable ? 'writeOnly' : 'closed';
  }

  write(data, encoding, callback) {
    if (this._handedTo !== null) return this._handedTo.write(data, encoding, callback);
    if (typeof encoding === 'function') {
      callback = encoding;
      encoding = undefined;
    }
    if (this._endCalled || this.destroyed) {
      const err = this.destroyed ? codedError('ERR_STREAM_DESTROYED', 'Cannot call write after a stream was destroyed') :
        codedError('ERR_STREAM_WRITE_AFTER_END', 'write after end');
      if (typeof callback === 'function') nextTick(callback, err);
      if (!this.destroyed) this.destroy(err);
      return false;
    }
    let kind = kindOf(data, encoding);
    if (kind < 0) {
      data = Buffer.from(data, encoding);
      kind = BYTES;
    } else if (kind === BYTES && !(data instanceof Uint8Array)) {
      const err = new TypeError('The "chunk" argument must be of type string or an instance of Buffer or Uint8Array');
      err.code = 'ERR_INVALID_ARG_TYPE';
      throw err;
    }
    if (this._corked > 0) {
      if (this._corkedChunks === null) {
        this._corkedChunks = [];
        this._corkedCallbacks = [];
      }
      this._corkedChunks.push(data, kind);
      this._corkedCallbacks.push(callback);
      this._corkedBytes += data.length;
      return this.writableLength < this._writableHighWaterMark;
    }
    return this._submit(transport.write(this._id, data, kind), callback, data.length);
  }

  // What follows a write of the addon's (`queued`: its answer) of about
  // `length` bytes, with `callbacks` (a function, an array of them, or
  // undefined) once they are written. As a stream counts a write until its
  // callback (on the next tick when it was written at once), a write that
  // reaches the high-water mark returns false and 'drain' follows.
  _submit(queued, callbacks, length) {
    if (queued < 0) {
      const err = systemError(queued, 'write');
      nextTick(runCallbacks, callbacks, err);
      this.destroy(err);
      return false;
    }
    this._queued = queued;
    const limit = this._writableHighWaterMark;
    const full = queued + length >= limit || queued >= limit;
    if (full) this._needDrain = true;
    if (queued === 0) {
      if (callbacks !== undefined || full) nextTick(writtenAtOnce, this, callbacks);
    } else {
      if (this._pending === null) this._pending = [];
      this._pending.push(callbacks);
    }
    return !full;
  }

  cork() {
    this._corked++;
  }

  uncork() {
    if (this._corked === 0 || --this._corked !== 0) return;
    const chunks = this._corkedChunks;
    if (chunks === null) return;
    const callbacks = this._corkedCallbacks;
    const length = this._corkedBytes;
    this._corkedChunks = null;
    this._corkedCallbacks = null;
    this._corkedBytes = 0;
    if (!this.destroyed) this._submit(transport.write(this._id, chunks), callbacks, length);
  }

  end(data, encoding, callback) {
    if (this._handedTo !== null) {
      this._handedTo.end(data, encoding, callback);
      return this;
    }
    if (typeof data === 'function') {
      callback = data;
      data = undefined;
    } else if (typeof encoding === 'function') {
      callback = encoding;
      encoding = undefined;
    }
    if (data !== undefined && data !== null) this.write(data, encoding);
    if (typeof callback === 'function') this.once('finish', callback);
    if (this._endCalled) return this;
    if (this._corked > 0) {
      this._corked = 1;
      this.uncork();
    }
    this._endCalled = true;
    this.writable = false;
    if (this.destroyed) return this;
    const status = transport.shutdown(this._id);
    if (status < 0) this.destroy();
    return this;
  }

  // node:net's: ends our side, then goes once the bytes are written.
  destroySoon() {
    if (this.writable) this.end();
    if (this._finished) this.destroy();
    else this._destroyAfterFinish = true;
  }

  destroy(err) {
    if (this._handedTo !== null) {
      this._handedTo.destroy(err);
      return this;
    }
    if (this.destroyed) return this;
    this._finalBytesWritten = transport.bytesWritten(this._id);
    this.destroyed = true;
    this.readable = false;
    this.writable = false;
    if (err) this.errored = err;
    transport.close(this._id);
    return this;
  }

  // An upgrade or a CONNECT: the connection goes on as a net.Socket of
  // node's over a copy of its descriptor (once what is queued is written:
  // meanwhile nothing is read), which this socket stands for from then on:
  // its 'close' is this one's, and end(), destroy(), write() and the read
  // side's read(), unshift(), pipe() and unpipe() go to it.
  [kHandOver](then) {
    if (this.destroyed) return then(null);
    transport.readStop(this._id);
    // (What a response wrote under a cork goes before what the listener
    // writes, as on one net.Socket.)
    if (this._corked > 0) {
      this._corked = 1;
      this.uncork();
    }
    if (this._queued > 0) {
      this._handOverWhenFlushed = then;
      return;
    }
    this._peerAddress();
    const local = this.address();
    const written = transport.bytesWritten(this._id);
    const fd = transport.handOver(this._id);
    if (fd < 0) {
      if (!this._paused) transport.readStart(this._id);
      return then(null);
    }
    // (As node:http's server makes its sockets: half-open allowed.)
    const socket = new net.Socket({ fd, readable: true, writable: true, allowHalfOpen: true });
    socket.server = socket._server = this.server;
    // (node:http frees the parser before 'upgrade'.)
    socket.parser = null;
    socket[kStandsFor] = this;
    // (Its 'close' is heard without a listener: 'upgrade' and 'connect'
    // listeners get a socket with none, as node:http's.)
    socket.emit = emitHanded;
    this._handedTo = socket;
    this._local = local;
    this._finalBytesWritten = written;
    // (Ended before, as the loop ends a connection whose last answer closes
    // it: the shutdown asked of the addon went with its handle, so the new
    // socket is ended as node:net's would be, before its listener has it.)
    if (this._destroyAfterFinish) socket.destroySoon();
    else if (this._endCalled) socket.end();
    then(socket);
  }

  _handedClosed(hadError) {
    this._didClose = true;
    this.destroyed = true;
    this.readable = false;
    this.writable = false;
    this.emit('close', hadError);
    socketGone(this);
  }

  [kInSocketContext](fn, arg) {
    return transport.callIn(this._id, fn, arg);
  }

  resetAndDestroy() {
    return this.destroy();
  }

  // (As a net.Socket: 'pause' when it stops reading, which node:http's
  // readStop() makes a socket say when a body's reader falls behind.)
  pause() {
    if (!this._paused) {
      this._paused = true;
      if (!this.destroyed) transport.readStop(this._id);
      this.emit('pause');
    }
    return this;
  }

  resume() {
    if (this._held !== null) {
      const held = this._held;
      this._held = null;
      this._heldBytes = 0;
      if (held.length > 0) nextTick(emitHeld, this, held);
    }
    this._readAgain();
    return this;
  }

  // Reading goes on after a pause() (or the reads kept reaching the
  // high-water mark).
  _readAgain() {
    if (this._paused) {
      this._paused = false;
      if (!this.destroyed && !this._ended) transport.readStart(this._id);
    }
  }

  isPaused() {
    return this._paused;
  }

  setTimeout(msecs, callback) {
    const ms = Number(msecs);
    if (!Number.isFinite(ms) || ms < 0) {
      const err = new RangeError(`The value of "msecs" is out of range. It must be a non-negative finite number. Received ${msecs}`);
      err.code = 'ERR_OUT_OF_RANGE';
      throw err;
    }
    this.timeout = ms;
    const previous = this[kIdleTimer];
    if (previous !== null) previous._idleTimeout = -1;
    this[kIdleTimer] = ms > 0 ? new IdleTimer(ms) : null;
    if (!this.destroyed) transport.setTimeout(this._id, ms);
    if (typeof callback === 'function') {
      if (ms === 0) this.removeListener('timeout', callback);
      else this.once('timeout', callback);
    }
    return this;
  }

  // (The addon restarts the timeout at each read and write itself.)
  _unrefTimer() {}

  // The idle timeout passed: its timer's handler (the loop's), else 'timeout'.
  _timedOut() {
    const timer = this[kIdleTimer];
    if (timer !== null && timer._onTimeout !== null) Reflect.apply(timer._onTimeout, timer, timer._timerArgs || []);
    else this._onTimeout();
  }

  // (node:net's name: what a timer's handler calls for the socket to time out.)
  _onTimeout() {
    this.emit('timeout');
  }

  setNoDelay(noDelay = true) {
    if (!this.destroyed) transport.setOption(this._id, 1, Boolean(noDelay), 0);
    return this;
  }

  setKeepAlive(enable = false, initialDelay = 0) {
    if (!this.destroyed) transport.setOption(this._id, 2, Boolean(enable), Math.floor(~~initialDelay / 1000));
    return this;
  }

  ref() {
    return this;
  }

  unref() {
    return this;
  }

  address() {
    if (this._handedTo !== null) return this._local;
    const local = this.destroyed ? undefined : transport.local(this._id);
    return local === undefined ? {} : { address: local[0], family: `IPv${local[1]}`, port: local[2] };
  }

  _peerAddress() {
    if (this._peer === null && !this.destroyed) this._peer = transport.peer(this._id) || undefined;
    return this._peer || undefined;
  }

  get remoteAddress() {
    const peer = this._peerAddress();
    return peer === undefined ? undefined : peer[0];
  }

  get remoteFamily() {
    const peer = this._peerAddress();
    return peer === undefined ? undefined : `IPv${peer[1]}`;
  }

  get remotePort() {
    const peer = this._peerAddress();
    return peer === undefined ? undefined : peer[2];
  }

  get localAddress() {
    return this.address().address;
  }

  get localPort() {
    return this.address().port;
  }

  // What the addon tells (see dispatch()).

  // A read; returns the id of the parser the addon may parse the next
  // with, or -1.
  _read(nread) {
    this.bytesRead += nread;
    if (this[kOwnReads] !== true) {
      this._received(copyOf(readBuffer, 0, nread));
      return -1;
    }
    const parser = this.parser;
    parser[hooks.readConsumed](readBuffer, nread);
    return this._parseNextWith(parser);
  }

  // Bytes read that the parser does not consume: 'data', or kept for a
  // reader to come.
  _received(data) {
    if (this._held === null) {
      this._didRead = true;
      this.emit('data', data);
      return;
    }
    this._held.push(data);
    this._heldBytes += data.length;
    if (this._heldBytes >= this.readableHighWaterMark && !this._paused) {
      this._paused = true;
      if (!this.destroyed) transport.readStop(this._id);
    }
  }

  // A Readable's push(): bytes given as if read (on the next tick, as a
  // flowing net.Socket's), which the connection parses as a read it did
  // not consume; null, the end.
  push(chunk, encoding) {
    if (chunk === null) {
      nextTick(pushedEnd, this);
      return false;
    }
    nextTick(pushed, this, typeof chunk === 'string' ? Buffer.from(chunk, encoding) : chunk);
    return true;
  }

  // A Readable's unshift(): bytes put back, first of the reads kept for a
  // reader to come, else 'data' at once, as a flowing stream with nothing
  // buffered emits them (node:http's socket, flowing for its parser, whose
  // connection parses them).
  unshift(chunk, encoding) {
    if (this._handedTo !== null) return this._handedTo.unshift(chunk, encoding);
    if (chunk === null) return this.push(chunk, encoding);
    const data = typeof chunk === 'string' ? Buffer.from(chunk, encoding) : chunk;
    if (this._held === null) {
      if (!this.destroyed) this._received(data);
      return true;
    }
    this._held.unshift(data);
    this._heldBytes += data.length;
    return true;
  }

  // A Readable's read(n): of the reads kept for a reader to come (an
  // upgrade's hand-over), all, or `n` bytes when that many are there;
  // null when none is (every other read goes to the parser, as a consumed
  // socket's).
  read(n) {
    if (this._handedTo !== null) return this._handedTo.read(n);
    const held = this._held;
    if (n === 0 || held === null || this._heldBytes === 0) return null;
    if (n !== undefined && n > this._heldBytes) return null;
    const chunks = [];
    let taken = 0;
    while (held.length > 0 && held[0] !== null && (n === undefined || taken < n)) {
      const chunk = held.shift();
      const want = n === undefined ? chunk.length : Math.min(chunk.length, n - taken);
      if (want < chunk.length) held.unshift(chunk.subarray(want));
      chunks.push(want < chunk.length ? chunk.subarray(0, want) : chunk);
      taken += want;
    }
    this._heldBytes -= taken;
    this._didRead = true;
    if (this._heldBytes < this.readableHighWaterMark && !this.destroyed && !this._ended) this._readAgain();
    return chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, taken);
  }

  // A Readable's pipe(): the socket's 'data' written to `dest`, reading
  // paused while `dest` is full, and its end (unless options.end is false).
  // A consumed socket's reads go to its parser: `dest` gets what is pushed
  // or put back, and what is read once the parser lets the socket go.
  pipe(dest, options) {
    if (this._handedTo !== null) return this._handedTo.pipe(dest, options);
    const ends = !options || options.end !== false;
    const pipe = new Pipe(this, dest, ends);
    if (this._pipes === null) this._pipes = [];
    this._pipes.push(pipe);
    dest.emit('pipe', this);
    // (A socket whose end was read ends `dest` on the next tick, as a
    // Readable that emitted its 'end' does.)
    if (ends && this._ended) nextTick(pipe.onEnd);
    if (this._held !== null) this.resume();
    return dest;
  }

  // A Readable's unpipe(): from `dest`, or from every destination.
  unpipe(dest) {
    if (this._handedTo !== null) return this._handedTo.unpipe(dest);
    const pipes = this._pipes;
    if (pipes === null) return this;
    for (let i = pipes.length - 1; i >= 0; i--) {
      const pipe = pipes[i];
      if (dest !== undefined && pipe.dest !== dest) continue;
      pipes.splice(i, 1);
      pipe.stop();
      pipe.dest.emit('unpipe', this, { hasUnpiped: false });
    }
    return this;
  }

  // A read the addon parsed with _parsedWith, `text` the call's text.
  _readParsed(nread, text) {
    this.bytesRead += nread;
    const parser = this._parsedWith;
    parser[hooks.readParsed](readBuffer, nread, text);
    return this._parseNextWith(parser);
  }

  _parseNextWith(parser) {
    const id = this.destroyed ? -1 : nextReadParser(this, parser);
    this._parsedWith = id < 0 ? null : parser;
    return id;
  }

  [kWithdrawParse]() {
    this._parsedWith = null;
    if (!this.destroyed) transport.parseWith(this._id, -1);
  }

  _written(queued) {
    this._queued = queued;
    // (None pending once the connection closed.)
    if (this._pending !== null) runCallbacks(this._pending.shift(), null);
    // (The hand-over first: what a writer writes at 'drain' then goes to the
    // new socket, after what the listener wrote, as on one net.Socket.)
    const then = this._handOverWhenFlushed;
    if (queued === 0 && then !== null) {
      this._handOverWhenFlushed = null;
      this[kHandOver](then);
    }
    if (queued === 0 && this._needDrain) {
      this._needDrain = false;
      this.emit('drain');
    }
  }

  _readEnded() {
    // (After the reads kept for a reader to come, if any.)
    if (this._held !== null && this._held.length > 0) {
      this._held.push(null);
      return;
    }
    this._ended = true;
    this.readable = false;
    this.emit('end');
    if (this._finished) this.destroy();
  }

  _writeFinished(status) {
    this._finished = true;
    this.emit('finish');
    if (status < 0 || this._ended || this._destroyAfterFinish) this.destroy();
  }

  // (`written`: the bytes it was handed, the addon's count.)
  _closed(written) {
    // (Handed over: the connection goes on, and its close is the net.Socket's.)
    if (this._handedTo !== null) return;
    this._finalBytesWritten = written;
    this._didClose = true;
    const waiting = this._handOverWhenFlushed;
    this._handOverWhenFlushed = null;
    if (waiting !== null) waiting(null);
    this.destroyed = true;
    this.readable = false;
    this.writable = false;
    const pending = this._pending;
    this._pending = null;
    if (pending !== null && pending.length > 0) {
      const err = codedError('ERR_STREAM_DESTROYED', 'Cannot call write after a stream was destroyed');
      for (let i = 0; i < pending.length; i++) runCallbacks(pending[i], err);
    }
    const err = this.errored;
    if (err) this.emit('error', err);
    this.emit('close', Boolean(err));
    socketGone(this);
  }
}

// The bytes of corked chunks [data, kind, ...] once encoded.
function corkedByteLength(chunks) {
  let bytes = 0;
  if (chunks === null) return bytes;
  for (let i = 0; i < chunks.length; i += 2) {
    const data = chunks[i];
    bytes += typeof data !== 'string' ? data.length : Buffer.byteLength(data, chunks[i + 1] === LATIN1 ? 'latin1' : 'utf8');
  }
  return bytes;
}

function pushed(socket, data) {
  if (!socket.destroyed) socket._received(data);
}

function pushedEnd(socket) {
  if (!socket.destroyed && !socket._ended) socket._readEnded();
}

// The emit() of a socket handed over (`this`): its 'close' is also that of
// the NativeSocket it went on from.
function emitHanded(event, hadError) {
  const heard = Reflect.apply(net.Socket.prototype.emit, this, arguments);
  if (event === 'close') this[kStandsFor]._handedClosed(hadError);
  return heard;
}

// The reads kept while nobody read (readableFlowing = null), once someone does.
function emitHeld(socket, held) {
  for (let i = 0; i < held.length; i++) {
    if (held[i] === null) {
      socket._readEnded();
    } else {
      socket._didRead = true;
      socket.emit('data', held[i]);
    }
  }
}

// A NativeSocket piped to a writable stream (NativeSocket's pipe()).
class Pipe {
  constructor(source, dest, ends) {
    this.source = source;
    this.dest = dest;
    this.onData = (chunk) => {
      if (dest.write(chunk) === false) source.pause();
    };
    this.onDrain = () => source.resume();
    this.onEnd = () => dest.end();
    this.onClose = () => source.unpipe(dest);
    source.on('data', this.onData);
    dest.on('drain', this.onDrain);
    if (ends) source.once('end', this.onEnd);
    dest.once('close', this.onClose);
    dest.once('finish', this.onClose);
  }

  stop() {
    this.source.removeListener('data', this.onData);
    this.source.removeListener('end', this.onEnd);
    this.dest.removeListener('drain', this.onDrain);
    this.dest.removeListener('close', this.onClose);
    this.dest.removeListener('finish', this.onClose);
  }
}

// The tick after a write the kernel took at once: its callbacks, then
// 'drain' when it was asked for and nothing is queued.
function writtenAtOnce(socket, callbacks) {
  runCallbacks(callbacks, null);
  if (socket._needDrain && socket._queued === 0 && !socket.destroyed) {
    socket._needDrain = false;
    socket.emit('drain');
  }
}

// A NativeSocket's _writableState: the fields of a Writable's state, read
// from the socket (highWaterMark may be set).
class WritableStateView {
  constructor(socket) {
    this._socket = socket;
  }

  get highWaterMark() {
    return this._socket._writableHighWaterMark;
  }

  set highWaterMark(value) {
    this._socket._writableHighWaterMark = value;
  }

  get length() {
    return this._socket.writableLength;
  }

  get needDrain() {
    return this._socket.writableNeedDrain;
  }

  get corked() {
    return this._socket.writableCorked;
  }

  get ending() {
    return this._socket.writableEnded;
  }

  get ended() {
    return this._socket.writableEnded;
  }

  get finished() {
    return this._socket.writableFinished;
  }

  get destroyed() {
    return this._socket.destroyed;
  }

  get objectMode() {
    return false;
  }
}

// ---- a server ----

// server._handle while it listens on the transport: what code written for
// node:net reads of a listening server's handle (supertest closes a server
// only if it has one), over the addon's listener.
class NativeListenHandle {
  constructor(id) {
    this._id = id;
    this.fd = -1;
  }

  getsockname(out) {
    const where = transport.serverAddress(this._id);
    if (where === undefined || typeof where === 'string') return -1;
    out.address = where[0];
    out.family = `IPv${where[1]}`;
    out.port = where[2];
    return 0;
  }

  ref() {
    transport.refServer(this._id, true);
  }

  unref() {
    transport.refServer(this._id, false);
  }
}

// The state of a server listening on the transport.
// (The addon's listener dispatches its events to it: a server that listens
// again while its last listener closes has two.)
class NativeServerState {
  constructor(server) {
    this.server = server;
    this.id = -1;                 // the addon's listener, -1: none (yet, or any more)
    this.sockets = new Set();
    this.closing = false;
    this.closed = false;
    // The handle node:net's listen() set (server._handle: a handle given
    // to listen(), a cluster's), which node:net's rules read and close,
    // or null (the server's _handle is a NativeListenHandle).
    this.nodeHandle = null;
    this.addressless = false;     // a Unix domain socket listened on by descriptor: address() is null
  }
}

// The dispatch of the addon's events (`this`: the listener's
// NativeServerState or the socket);
// a read's answer names the parser of the next (lhn_transport.c).
function dispatch(kind, value, text) {
  switch (kind) {
    case EVENTS.READ_PARSED: return this._readParsed(value, text);
    case EVENTS.READ: return this._read(value);
    case EVENTS.WRITTEN: this._written(value); break;
    case EVENTS.END: this._readEnded(); break;
    case EVENTS.FINISHED: this._writeFinished(value); break;
    case EVENTS.TIMEOUT: this._timedOut(); break;
    case EVENTS.READ_ERROR: this.destroy(systemError(value, 'read')); break;
    case EVENTS.WRITE_ERROR: this.destroy(systemError(value, 'write')); break;
    case EVENTS.CLOSE: this._closed(value); break;
    case EVENTS.CONNECTION: takeConnection(this, value); break;
    case EVENTS.ACCEPT_ERROR: this.server.emit('error', systemError(value, 'accept')); break;
    case EVENTS.SERVER_CLOSE: listenerClosed(this); break;
  }
}

function prepare() {
  if (readBuffer === null) readBuffer = Buffer.from(transport.init(dispatch));
}

// Connection `id` of the addon's for the listener `state`: its socket,
// 'connection', then its reads; false when the server does not take it
// (closing, or at maxConnections: 'drop', as node:net says it), for the
// caller to close it. (_connections: node:net's count, which
// getConnections() and a cluster worker read.)
function takeConnection(state, id) {
  const server = state.server;
  if (state.closing) return false;
  if (server.maxConnections != null && server._connections >= server.maxConnections) {
    const data = dropped(id);
    if (data === undefined) server.emit('drop');
    else server.emit('drop', data);
    return false;
  }
  const socket = new NativeSocket(server, id, state);
  if (!transport.accept(id, socket)) return false;
  // (The server's keepAlive option, as node:net sets it on each connection:
  // its initial delay kept in seconds.)
  if (server.keepAlive) transport.setOption(id, 2, true, server.keepAliveInitialDelay);
  state.sockets.add(socket);
  server._connections++;
  server.emit('connection', socket);
  if (!socket.destroyed && !socket._paused) transport.readStart(id);
  return true;
}

// The addresses of connection `id`, which the server dropped, as node:net
// tells them with 'drop' (a Unix domain socket's: none).
function dropped(id) {
  const local = transport.local(id);
  const peer = transport.peer(id);
  if (local === undefined && peer === undefined) return undefined;
  const data = { __proto__: null };
  if (local !== undefined) {
    data.localAddress = local[0];
    data.localPort = local[2];
    data.localFamily = `IPv${local[1]}`;
  }
  if (peer !== undefined) {
    data.remoteAddress = peer[0];
    data.remotePort = peer[2];
    data.remoteFamily = `IPv${peer[1]}`;
  }
  return data;
}

function socketGone(socket) {
  const state = socket._listener;
  if (!state.sockets.delete(socket)) return;
  state.server._connections--;
  if (state.closing && state.sockets.size === 0) emitClose(state.server, state);
}

function listenerClosed(state) {
  state.id = -1;
  const server = state.server;
  if (state.nodeHandle === null && server[kNativeServer] === state) server._handle = null;
  if (state.closing && state.sockets.size === 0) emitClose(server, state);
}

function emitClose(server, state) {
  if (state.closed) return;
  state.closed = true;
  nextTick(() => server.emit('close'));
}

// What listen()'s arguments ask for, where the transport covers it: { port,
// host, backlog, ipv6Only, reusePort, callback } for a TCP port, { path, backlog,
// callback } for a Unix domain socket, or null (anything else: node:net
// decides).
function listenTarget(args) {
  let callback;
  let rest = args;
  if (typeof args[args.length - 1] === 'function') {
    callback = args[args.length - 1];
    rest = args.slice(0, -1);
  }
  let port;
  let host;
  let backlog;
  let ipv6Only = false;
  let reusePort = false;
  const first = rest[0];
  if (first !== null && typeof first === 'object') {
    // (A descriptor, a handle, a bound socket: node:net's listen() first, then listenGiven().)
    for (const key of ['fd', 'handle', '_handle', 'signal']) if (first[key] !== undefined) return null;
    if (net.BoundSocket !== undefined && first instanceof net.BoundSocket) return null;
    // (SO_REUSEPORT, a port shared between listeners, where the line has
    // it: the addon's on Linux, node:net's elsewhere. Before, node:net
    // ignores the option, and so does this.)
    if (first.reusePort && listensWithReusePort) {
      if (process.platform !== 'linux') return null;
      reusePort = true;
    }
    if (first.path !== undefined) {
      // (node:net sets the permissions readableAll / writableAll ask for.)
      return first.readableAll || first.writableAll ? null : pathTarget(first.path, first.backlog, callback);
    }
    ({ port, host, backlog } = first);
    ipv6Only = Boolean(first.ipv6Only);
  } else if (typeof first === 'string' && !/^[0-9]+$/.test(first)) {
    return pathTarget(first, rest[1], callback);
  } else {
    port = first;
    if (typeof rest[1] === 'string' || rest[1] === null) {
      host = rest[1];
      backlog = rest[2];
    } else {
      backlog = rest[1];
    }
  }
  if (port === undefined || port === null) port = 0;
  else if (typeof port === 'string' && /^[0-9]+$/.test(port)) port = Number(port);
  if (typeof port !== 'number' || !Number.isInteger(port) || port < 0 || port > 65535) return null;
  if (host !== undefined && host !== null && typeof host !== 'string') return null;
  return { port, host: host || undefined, backlog: Number.isInteger(backlog) ? backlog : 511, ipv6Only, reusePort, callback };
}

// (A name in Linux's abstract namespace, a leading NUL, takes node:net.)
function pathTarget(path, backlog, callback) {
  if (typeof path !== 'string' || path === '' || path.charCodeAt(0) === 0) return null;
  return { path, backlog: Number.isInteger(backlog) ? backlog : 511, callback };
}

// listen(...args) on the native transport when the server chose it and it
// covers the case; returns false for node:net to take it.
function listenNative(server, args) {
  // (In a cluster worker, node:net's listen() asks the primary first:
  // listenGiven() takes it from there.)
  if (!server[kTransportChoice] || !available() || builtinModule('node:cluster').isWorker) return false;
  if (!coversServer(server)) return false;
  const target = listenTarget(args);
  if (target === null) return false;
  const previous = server[kNativeServer];
  // (A server whose last listener is closing may listen again, as on node:net.)
  if (previous !== undefined && previous.id !== -1 && !previous.closing) {
    throw codedError('ERR_SERVER_ALREADY_LISTEN', 'Listen method has been called more than once without closing.');
  }
  prepare();
  const state = new NativeServerState(server);
  server[kNativeServer] = state;
  if (typeof target.callback === 'function') server.once('listening', target.callback);
  if (target.path !== undefined) {
    listening(server, state, transport.listenPath(state, target.path, target.backlog), target.path, undefined);
    return true;
  }
  const flags = (target.ipv6Only ? 1 : 0) | (server.noDelay === false ? 0 : 2) | (target.reusePort ? 4 : 0);
  const start = (host, fallback) => {
    let id = transport.listen(state, host, target.port, target.backlog, flags);
    let at = host;
    if (id < 0 && fallback !== undefined) {
      at = fallback;
      id = transport.listen(state, fallback, target.port, target.backlog, flags);
    }
    listening(server, state, id, at, target.port);
  };
  if (target.host === undefined) start('::', '0.0.0.0');
  else if (net.isIP(target.host) !== 0) start(target.host);
  else {
    builtinModule('node:dns').lookup(target.host, (err, address) => {
      if (err) server.emit('error', err);
      else start(address);
    });
  }
  return true;
}

// The addon's answer to a listen() at `at` (and `port`): the server
// listens, or says why not, on the next tick.
function listening(server, state, id, at, port) {
  if (id < 0) {
    state.closed = true;
    nextTick(() => server.emit('error', listenError(id, at, port)));
    return;
  }
  state.id = id;
  server._handle = new NativeListenHandle(id);
  // (An unref() before listen(): node:net applies it to the handle it makes.)
  if (server._unref) transport.refServer(id, false);
  nextTick(() => server.emit('listening'));
}

// The server's address() on this transport (a Unix domain socket's: its
// path), or undefined when it is not on it.
function nativeAddress(server) {
  const state = server[kNativeServer];
  if (state === undefined || state.nodeHandle !== null) return undefined;
  if (state.addressless) return null;
  const where = state.id === -1 ? undefined : transport.serverAddress(state.id);
  if (typeof where === 'string') return where;
  return where === undefined ? null : { address: where[0], family: `IPv${where[1]}`, port: where[2] };
}

function isListeningNatively(server) {
  const state = server[kNativeServer];
  return state === undefined || state.nodeHandle !== null ? undefined : state.id !== -1 && !state.closing;
}

// The server's close(callback) on this transport; false when it is not on it.
function closeNative(server, callback) {
  const state = server[kNativeServer];
  if (state === undefined) return false;
  if (state.closing || (state.id === -1 && state.nodeHandle === null)) {
    if (typeof callback === 'function') {
      server.once('close', () => callback(codedError('ERR_SERVER_NOT_RUNNING', 'Server is not running.')));
    }
    state.closed = false;
    emitClose(server, state);
    return true;
  }
  if (typeof callback === 'function') server.once('close', callback);
  state.closing = true;
  // (node:net's handle, closed as node:net closes it: a given handle's
  // descriptor goes, a cluster's tells the primary.)
  const handle = state.nodeHandle;
  server._handle = null;
  if (state.id !== -1) transport.closeServer(state.id);
  if (handle !== null) handle.close();
  // (As node:net's: 'close' on the next tick when no connection is left,
  // while the listener's handle closes.)
  if (state.sockets.size === 0) emitClose(server, state);
  return true;
}

// ref() / unref(); false when node:net's handle takes it too (its ref is
// what keeps a round-robin cluster worker alive).
function refNative(server, ref) {
  const state = server[kNativeServer];
  if (state === undefined) return false;
  if (state.id !== -1) transport.refServer(state.id, ref);
  return state.nodeHandle === null;
}

// ---- a descriptor, a handle, a cluster's ----

// server[kAdoptedBy] on a handle of node's whose connections go to the
// server (adoptConnection()).
const kAdoptedBy = Symbol('llhttp-napi/server adopted by');

// node:net's last step of listen(), server._listen2(address, port,
// addressType, backlog, fd) (`args`; `nodeListen`: node:net's), on the
// native transport where it covers it. node:net's listen() has checked the
// arguments and, in a cluster worker, asked the primary; server._handle is
// then a handle given to listen() (a TCP server's or socket's, a bound
// socket's), the listening socket a cluster's primary shares, or, in a
// round-robin worker, node's stand-in for the primary's listener; else `fd`
// is a descriptor to listen on.
function listenGiven(server, args, nodeListen) {
  if (!server[kTransportChoice] || !available() || !coversServer(server)) return Reflect.apply(nodeListen, server, args);
  const handle = server._handle;
  const backlog = args[3];
  const fd = args[4];
  if (handle !== null && handle !== undefined) {
    if (typeof handle.listen !== 'function' || typeof handle.close !== 'function') return Reflect.apply(nodeListen, server, args);
    // node:net's rules run (the handle's owner, its 'listening', its
    // errors, unref() before listen()) with the handle's listen() ours.
    const listen = handle.listen;
    handle.listen = function listenNatively(...listenArgs) {
      handle.listen = listen;
      return listenOnHandle(server, handle, listen, listenArgs);
    };
    return Reflect.apply(nodeListen, server, args);
  }
  if (typeof fd === 'number' && fd >= 0) {
    listenOnFd(server, fd, backlog);
    return undefined;
  }
  return Reflect.apply(nodeListen, server, args);
}

// (What node:net does with each connection before it is a socket, the
// transport does not: pauseOnConnect, a blockList.)
function coversServer(server) {
  return !server.pauseOnConnect && server.blockList === undefined;
}

function flagsOf(server) {
  return server.noDelay === false ? 0 : 2;
}

// The listener `state` stands for node's `handle`, whose connections it
// takes.
function adopting(state, handle) {
  state.nodeHandle = handle;
  state.server[kNativeServer] = state;
  handle[kAdoptedBy] = state;
  handle.onconnection = adoptConnection;
  return state;
}

// The handle's listen(backlog) for node:net's listen(): a socket's handle
// (a descriptor): the transport listens on a copy of it, and takes what the
// handle accepts itself (it may have listened before); the primary's
// stand-in in a round-robin cluster worker (no descriptor): it listens as
// node's, and the transport takes each connection the primary sends.
// Returns 0 or a libuv error code, as the handle's.
function listenOnHandle(server, handle, listen, listenArgs) {
  prepare();
  const fd = handle.fd;
  if (typeof fd !== 'number') {
    const err = Reflect.apply(listen, handle, listenArgs);
    if (err === 0) adopting(new NativeServerState(server), handle);
    return err;
  }
  const backlog = listenArgs[0];
  const state = new NativeServerState(server);
  const id = transport.listenFd(state, fd, Number.isInteger(backlog) && backlog > 0 ? backlog : 511, flagsOf(server) | 4);
  if (id < 0) return id;
  adopting(state, handle).id = id;
  return 0;
}

// A connection a handle of node's accepted, or a round-robin cluster's
// primary sent (`this`: the handle): the transport goes on with a copy of
// its descriptor, and node's handle closes.
function adoptConnection(err, clientHandle) {
  const state = this[kAdoptedBy];
  if (err) {
    state.server.emit('error', systemError(err, 'accept'));
    return;
  }
  const id = transport.adopt(clientHandle.fd, flagsOf(state.server));
  clientHandle.close();
  // (No copy, out of descriptors: the connection goes, as a failed accept.)
  if (id >= 0 && !takeConnection(state, id)) transport.close(id);
}

// listen({ fd }): the transport listens on the descriptor itself, as
// node:net does (it is the listener's from then on: close() closes it).
function listenOnFd(server, fd, backlog) {
  prepare();
  const state = new NativeServerState(server);
  server[kNativeServer] = state;
  const id = transport.listenFd(state, fd, Number.isInteger(backlog) && backlog > 0 ? backlog : 511, flagsOf(server));
  // (node:net's handle over a Unix domain socket cannot tell its name.)
  if (id >= 0 && typeof transport.serverAddress(id) === 'string') state.addressless = true;
  listening(server, state, id, null, null);
}

// (node:net's name for its class, which `req.socket.constructor.name` and
// stacks show; and its prototype chain, so that it is an instanceof
// net.Socket, as diagnostics_channel subscribers and applications check.)
Object.defineProperty(NativeSocket, 'name', { value: 'Socket' });
Object.setPrototypeOf(NativeSocket.prototype, net.Socket.prototype);
// (What most connections never change until they close: ./default-fields.js.
// An idle keep-alive connection is this object, its connection and its
// parser. What a busy connection changes, its writes' backpressure, stays
// its own from the start: one shape for the functions that write.)
defaultFields(NativeSocket.prototype, {
  connecting: false,
  _error: null,                     // errored
  _didClose: false,
  _corked: 0,
  _corkedChunks: null,              // [data, kind, ...] written while corked
  _corkedCallbacks: null,
  _corkedBytes: 0,
  _endCalled: false,
  _finished: false,
  _ended: false,                    // the peer's end was read
  _held: null,                      // reads kept for a reader to come (readableFlowing = null), or null
  _heldBytes: 0,
  _didRead: false,                  // readableDidRead
  _pipes: null,                     // the Pipes of pipe(), once piped
  allowHalfOpen: true,              // (a node:http server's sockets are half-open)
  _destroyAfterFinish: false,
  _peer: null,
  _handedTo: null,                  // the net.Socket the connection went on as (kHandOver), or null
  _handOverWhenFlushed: null,
  _local: null,                     // address() once handed over
  _finalBytesWritten: -1,           // bytesWritten once the connection is gone
  _writableHighWaterMark: HIGH_WATER_MARK, // the server's highWaterMark where it has one
  _writableStateView: null,
});

module.exports = { chooseTransport, available, listenNative, listenGiven, nativeAddress, isListeningNatively, closeNative,
  refNative, NativeSocket };
