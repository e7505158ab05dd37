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
// A consumed socket holds no property of ours but node:net's timer refresh:
// which parser consumes it is node:http's link (socket.parser, checked when
// the parser consumes it), and that a parser consumes it is node:net's read
// callback being onSharedRead (onCopiedRead once given back).
//
// A read is the start of the shared buffer, valid until the next read of any
// connection. The parser copies what it hands out: header strings are made
// from the read, bodies go to kOnBody as copies, and getCurrentBuffer() (what node:http
// makes a parse error's rawPacket and an upgrade's head of) is a copy.
//
// Anything unusual (a paused or non-flowing socket, buffered data, end of
// stream, a socket no longer consumed) takes the stream's normal path, with a
// copy of the bytes.
//
// node:net refreshes a socket's timeout before it hands over each read
// (kUpdateTimer); the built-in's C++ reads of a consumed socket do not, and
// node:http's onParserExecute refreshes it after the parse. A consumed
// socket's refresh therefore waits (see deferRefresh()): dropped for a read
// that goes straight to the parser, done before the stream gets any other
// read, and at the end of the stream when the parser finishes.
//
// A socket whose handle cannot read into a buffer of ours (TLS) keeps
// Node's reads, taken at its push() instead.

const { builtinModule } = require('./builtin-modules');
const net = builtinModule('node:net');
const hooks = require('./parser-hooks');
const { copyOf } = require('./bytes');

const READ_BUFFER_SIZE = 65536;

// node:net's own symbols for the `onread` option, read off a socket (every
// net.Socket has them, set to null), and its timer refresh's (a getter of
// net.Socket.prototype). Without them: push() only.
const netSymbols = (() => {
  const found = {};
  for (const symbol of Object.getOwnPropertySymbols(new net.Socket())) {
    if (symbol.description === 'kBuffer') found.buffer = symbol;
    else if (symbol.description === 'kBufferCb') found.callback = symbol;
    else if (symbol.description === 'kBufferGen') found.generator = symbol;
  }
  for (const symbol of Object.getOwnPropertySymbols(net.Socket.prototype)) {
    if (symbol.description === 'kUpdateTimer') found.updateTimer = symbol;
  }
  return found.buffer && found.callback && found.generator && found.updateTimer ? found : null;
})();

// socket[kOwnReads]: on a socket that hands its reads to its parser itself
// (llhttp-napi/server's native transport, ./server/native-transport.js):
// false, and true while a parser consumes it. Such a socket may also parse
// a read itself, with the parser's native state, before it calls
// JavaScript: after each read it asks nextReadParser() whether it may do
// so with the next, and socket[kWithdrawParse]() takes a yes back.
const kOwnReads = Symbol('llhttp-napi reads handed to the parser by the socket');
const kWithdrawParse = Symbol('llhttp-napi the socket parses its next read in JavaScript');

let readBuffer = null;          // the shared buffer, made at first use
// The consumed socket whose read is being handed over, its timer refresh
// not done yet (see deferRefresh()).
let refreshDue = null;

function takesDirect(socket) {
  return socket._paused !== true && socket.readableFlowing === true && socket.readableLength === 0 &&
    !socket.destroyed;
}

// The same for a read node:net hands to onSharedRead(), which it does only
// for a socket not destroyed: the stream's state read once, not through
// three getters.
function readsDirect(socket) {
  const state = socket._readableState;
  return socket._paused !== true && state.flowing === true && state.length === 0;
}

// The parser consuming `socket` (whose reads it was given), or null when
// node:http's link no longer names one.
function parserOf(socket) {
  const parser = socket.parser;
  return parser !== null && typeof parser === 'object' && typeof parser[hooks.readConsumed] === 'function' ?
    parser : null;
}

// socket.push while a parser consumes a socket whose reads are Node's.
function consumedPush(chunk) {
  const parser = parserOf(this);
  // (A string pushed by hand takes the normal path, which makes it a Buffer.)
  if (parser !== null && typeof chunk === 'object' && chunk !== null && takesDirect(this)) {
    parser[hooks.readConsumed](chunk, chunk.length);
    return true;
  }
  return Object.getPrototypeOf(this).push.call(this, chunk);
}

// The kUpdateTimer of a socket reading into the shared buffer (`this`),
// which node:net calls as a read arrives, before it hands the read over.
// (A read that will not go to the parser is refreshed now, as node:net does.)
function deferRefresh() {
  if (this[netSymbols.callback] === onSharedRead && readsDirect(this)) refreshDue = this;
  else this._unrefTimer();
}

// The end of the stream: node:http's socketOnEnd() finishes the parser,
// which settles the refresh its read left waiting (the built-in's was done
// as the end was read; in between only the stream's end ran, on the same
// loop time).
function endOfStream(socket) {
  if (refreshDue === socket) {
    refreshDue = null;
    socket._unrefTimer();
  }
}

// node:net's onread callback (`this` is the socket): nread bytes are at the
// start of buf, the shared buffer. Returns false to stop reading
// (backpressure).
function onSharedRead(nread, buf) {
  const due = refreshDue === this;
  refreshDue = null;
  const parser = parserOf(this);
  if (parser === null || !readsDirect(this)) {
    if (due) this._unrefTimer();
    return onCopiedRead.call(this, nread, buf);
  }
  parser[hooks.readConsumed](buf, nread);
  return true;
}

// node:net's onread callback of a socket no longer consumed: its handle
// still reads into the shared buffer, the stream gets a copy.
function onCopiedRead(nread, buf) {
  return Object.getPrototypeOf(this).push.call(this, copyOf(buf, 0, nread));
}

// Takes over the reads of `socket` (whose handle is `handle`) for `parser`.
// Returns whether it did.
function consume(parser, socket, handle) {
  if (socket === null || typeof socket !== 'object' || socket._handle !== handle || socket.parser !== parser) {
    return false;
  }
  if (socket[kOwnReads] !== undefined) {
    socket[kOwnReads] = true;
    return true;
  }
  // (A socket consumed before reads into the shared buffer already.)
  if (netSymbols !== null && (socket[netSymbols.callback] === onSharedRead ||
      socket[netSymbols.callback] === onCopiedRead)) {
    socket[netSymbols.callback] = onSharedRead;
    return true;
  }
  if (netSymbols !== null && socket.encrypted !== true && typeof handle.useUserBuffer === 'function' &&
      socket[netSymbols.buffer] === null && socket[netSymbols.generator] === null) {
    if (readBuffer === null) readBuffer = Buffer.allocUnsafeSlow(READ_BUFFER_SIZE);
    handle.useUserBuffer(readBuffer);
    socket[netSymbols.buffer] = readBuffer;
    socket[netSymbols.callback] = onSharedRead;
    Object.defineProperty(socket, netSymbols.updateTimer, { value: deferRefresh, writable: true, configurable: true });
  } else {
    socket.push = consumedPush;
  }
  return true;
}

// Gives the socket's reads back to the stream machinery. (A handle that
// reads into the shared buffer keeps doing so: onCopiedRead() pushes a copy
// of each read.)
function unconsume(socket) {
  if (socket[kOwnReads] === true) socket[kOwnReads] = false;
  else if (socket.push === consumedPush) delete socket.push;
  else if (netSymbols !== null && socket[netSymbols.callback] === onSharedRead) socket[netSymbols.callback] = onCopiedRead;
  if (refreshDue === socket) refreshDue = null;
}

// Whether the socket of `kOwnReads` may parse its next read with `parser`
// (its consumer, or null) itself: the parser's id, or -1.
function nextReadParser(socket, parser) {
  if (parser === null || socket[kOwnReads] !== true || typeof parser[hooks.parseNextRead] !== 'function') return -1;
  return parser[hooks.parseNextRead](socket);
}

// The parser has something to do before its next parse (a command,
// initialize(), unconsume()): the socket's next read comes to JavaScript.
function withdrawParse(socket) {
  socket[kWithdrawParse]();
}

module.exports = { consume, unconsume, endOfStream, nextReadParser, withdrawParse, kOwnReads, kWithdrawParse };
