'use strict';
// The socket read path of a consumed connection (parser.consume()).
//
// The built-in parser reads a consumed socket in C++, into one buffer it
// owns. Node's JavaScript read path instead hands every read to JavaScript
// in a fresh ArrayBuffer (a malloc, a free on a worker thread, cold pages,
// and for uploads external memory that starts major GCs). Ours does what
// `net.Socket`'s `onread` option does: the socket's handle reads into one
// buffer shared by every consumed connection (handle.useUserBuffer()), and
// each read goes straight to the server's own 'data' handler (which calls
// execute()), without the Readable buffering, the 'data' emit and the
// read-more tick per read.
//
// A read is a view of the shared buffer, valid until the next read of any
// connection. The parser copies what it keeps (header bytes into its slab,
// bodies for kOnBody), so nothing else may hold the view after the handler
// returns, except what node:http gives away when parsing stops early: an
// upgrade's or CONNECT's head bytes (`d.slice(ret)`) and a parse error's
// rawPacket. The parser copies rawPacket (see sharedBytes()); after an
// upgrade that left bytes over, the shared buffer is retired and every
// consumed connection moves to a new one.
//
// Anything unusual (a paused or non-flowing socket, buffered data, other
// 'data' listeners, end of stream, a socket no longer consumed) takes the
// stream's normal path, with a copy of the bytes. A socket whose handle
// cannot read into a buffer of ours (TLS) keeps Node's reads, taken at its
// push() instead.

const net = require('node:net');

const kConsumer = Symbol('llhttp-napi consumer');
const READ_BUFFER_SIZE = 65536;

// node:net's own symbols for the `onread` option, read off a socket (every
// net.Socket has them, set to null). Without them: push() only.
const netSymbols = (() => {
  const found = {};
  for (const symbol of Object.getOwnPropertySymbols(new net.Socket())) {
    if (symbol.description === 'kBuffer') found.buffer = symbol;
    else if (symbol.description === 'kBufferCb') found.callback = symbol;
    else if (symbol.description === 'kBufferGen') found.generator = symbol;
  }
  return found.buffer && found.callback && found.generator ? found : null;
})();

let readBuffer = null;          // the shared buffer, made at first use
// The sockets whose handle reads into it, held weakly (no listener on the
// socket: node:http checks a detached socket's listener counts).
const readers = new Set();      // WeakRefs
const forgetReader = new FinalizationRegistry((ref) => readers.delete(ref));

// The shared read buffer's ArrayBuffer (null before any socket uses it), for
// the parser to recognise bytes it must copy before they leave.
function sharedBytes() {
  return readBuffer === null ? null : readBuffer.buffer;
}

// Hands a chunk to the socket's consumer (the server's 'data' handler). As
// with the built-in reading in C++: pending ticks run after each kOnBody and
// kOnHeaders handler (see the parser's replay).
function deliver(socket, chunk) {
  const parser = socket.parser;
  if (parser !== null && typeof parser === 'object' && parser._consumedSocket === socket) {
    parser._drainTicks = true;
    try {
      socket[kConsumer](chunk);
    } finally {
      parser._drainTicks = false;
    }
  } else {
    socket[kConsumer](chunk);
  }
}

function takesDirect(socket) {
  return socket[kConsumer] !== undefined && socket._paused !== true && socket.readableFlowing === true &&
    socket.readableLength === 0 && !socket.destroyed;
}

// socket.push while a parser consumes a socket whose reads are Node's.
function consumedPush(chunk) {
  // (A string pushed by hand takes the normal path, which makes it a Buffer.)
  if (typeof chunk === 'object' && chunk !== null && takesDirect(this)) {
    deliver(this, chunk);
    return true;
  }
  return Object.getPrototypeOf(this).push.call(this, chunk);
}

// node:net's onread callback (`this` is the socket): nread bytes are in buf,
// the shared buffer. Returns false to stop reading (backpressure).
function onSharedRead(nread, buf) {
  const chunk = buf.subarray(0, nread);
  if (!takesDirect(this)) return Object.getPrototypeOf(this).push.call(this, Buffer.from(chunk));
  const parser = this.parser;
  let done = false;
  try {
    deliver(this, chunk);
    done = true;
  } finally {
    // An upgrade unconsumes the socket and hands the bytes after the
    // request's head (a view of this read) to the 'upgrade' listener.
    if (!done || (this[kConsumer] === undefined && leftOver(parser, nread))) retire();
  }
  return true;
}

// Did the last execute() of `parser` stop before the end of the read?
function leftOver(parser, nread) {
  return parser === null || typeof parser !== 'object' || parser._lastResult !== nread;
}

// Moves every reader to a new shared buffer: the old one may be referenced.
function retire() {
  readBuffer = Buffer.allocUnsafeSlow(READ_BUFFER_SIZE);
  for (const ref of readers) {
    const socket = ref.deref();
    if (socket === undefined || socket.destroyed) {
      readers.delete(ref);
      continue;
    }
    if (socket._handle !== null && socket._handle !== undefined) socket._handle.useUserBuffer(readBuffer);
    socket[netSymbols.buffer] = readBuffer;
  }
}

// Takes over the reads of `socket` (whose handle is `handle`) for its one
// 'data' listener. Returns whether it did.
function consume(socket, handle) {
  if (socket === null || typeof socket !== 'object' || socket._handle !== handle) return false;
  const listeners = socket.listeners('data');
  if (listeners.length !== 1) return false;
  socket[kConsumer] = listeners[0];
  // (A socket consumed before reads into the shared buffer already.)
  if (netSymbols !== null && socket[netSymbols.callback] === onSharedRead) return true;
  if (netSymbols !== null && socket.encrypted !== true && typeof handle.useUserBuffer === 'function' &&
      socket[netSymbols.buffer] === null && socket[netSymbols.generator] === null) {
    if (readBuffer === null) readBuffer = Buffer.allocUnsafeSlow(READ_BUFFER_SIZE);
    handle.useUserBuffer(readBuffer);
    socket[netSymbols.buffer] = readBuffer;
    socket[netSymbols.callback] = onSharedRead;
    const ref = new WeakRef(socket);
    readers.add(ref);
    forgetReader.register(socket, ref);
  } else {
    socket.push = consumedPush;
  }
  return true;
}

// Gives the socket's reads back to the stream machinery. (A handle that
// reads into the shared buffer keeps doing so: onSharedRead() then pushes a
// copy of each read.)
function unconsume(socket) {
  if (socket.push === consumedPush) delete socket.push;
  socket[kConsumer] = undefined;
}

module.exports = { consume, unconsume, sharedBytes };
