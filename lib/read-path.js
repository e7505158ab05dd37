'use strict';
// The socket read path of a consumed connection (parser.consume()).
//
// The built-in parser reads a consumed socket in C++, into one buffer it
// owns, parses each read and reports it to the parser's kOnExecute handler
// (node:http's onParserExecute). Node's JavaScript read path instead hands
// every read to JavaScript in a fresh ArrayBuffer (a malloc, a free on a
// worker thread, cold pages, and for uploads external memory that starts
// major GCs), buffers it in the Readable, emits 'data' and schedules the next
// read. Ours does what `net.Socket`'s `onread` option does: the socket's
// handle reads into one buffer shared by every consumed connection
// (handle.useUserBuffer()), and each read goes straight to the parser, which
// parses it and calls kOnExecute as the built-in does.
//
// A read is the start of the shared buffer, valid until the next read of any
// connection. The parser copies what it hands out: header strings are made
// from the read, bodies go to kOnBody as copies, and getCurrentBuffer() (what node:http
// makes a parse error's rawPacket and an upgrade's head of) is a copy.
//
// Anything unusual (a paused or non-flowing socket, buffered data, end of
// stream, a socket no longer consumed) takes the stream's normal path, with a
// copy of the bytes. A socket whose handle cannot read into a buffer of ours
// (TLS) keeps Node's reads, taken at its push() instead.

const net = require('node:net');
const hooks = require('./parser-hooks');

const kParser = Symbol('llhttp-napi consuming parser');
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

function takesDirect(socket) {
  return socket._paused !== true && socket.readableFlowing === true && socket.readableLength === 0 &&
    !socket.destroyed;
}

// socket.push while a parser consumes a socket whose reads are Node's.
function consumedPush(chunk) {
  const parser = this[kParser];
  // (A string pushed by hand takes the normal path, which makes it a Buffer.)
  if (parser !== undefined && typeof chunk === 'object' && chunk !== null && takesDirect(this)) {
    parser[hooks.readConsumed](chunk, chunk.length);
    return true;
  }
  return Object.getPrototypeOf(this).push.call(this, chunk);
}

// node:net's onread callback (`this` is the socket): nread bytes are at the
// start of buf, the shared buffer. Returns false to stop reading
// (backpressure).
function onSharedRead(nread, buf) {
  const parser = this[kParser];
  if (parser === undefined || !takesDirect(this)) {
    return Object.getPrototypeOf(this).push.call(this, Buffer.from(buf.subarray(0, nread)));
  }
  parser[hooks.readConsumed](buf, nread);
  return true;
}

// Takes over the reads of `socket` (whose handle is `handle`) for `parser`.
// Returns whether it did.
function consume(parser, socket, handle) {
  if (socket === null || typeof socket !== 'object' || socket._handle !== handle) return false;
  socket[kParser] = parser;
  // (A socket consumed before reads into the shared buffer already.)
  if (netSymbols !== null && socket[netSymbols.callback] === onSharedRead) return true;
  if (netSymbols !== null && socket.encrypted !== true && typeof handle.useUserBuffer === 'function' &&
      socket[netSymbols.buffer] === null && socket[netSymbols.generator] === null) {
    if (readBuffer === null) readBuffer = Buffer.allocUnsafeSlow(READ_BUFFER_SIZE);
    handle.useUserBuffer(readBuffer);
    socket[netSymbols.buffer] = readBuffer;
    socket[netSymbols.callback] = onSharedRead;
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
  socket[kParser] = undefined;
}

module.exports = { consume, unconsume };
