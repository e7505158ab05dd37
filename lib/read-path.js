'use strict';
// The socket read path of a consumed connection (parser.consume()).
//
// The built-in parser reads the socket in C++ once the server consumes it.
// Ours takes the socket's reads at its push(), before the stream machinery:
// each chunk goes straight to the server's own 'data' handler (which calls
// execute()), without the Readable buffering, the 'data' emit and the
// read-more tick per read. Anything unusual (a paused or non-flowing socket,
// buffered data, other 'data' listeners, end of stream, a string pushed by
// hand) takes the normal path.

const kConsumer = Symbol('llhttp-napi consumer');

// socket.push while a parser consumes the socket.
function consumedPush(chunk) {
  if (typeof chunk === 'object' && chunk !== null && this._paused !== true && this.readableFlowing === true &&
      this.readableLength === 0 && !this.destroyed) {
    const parser = this.parser;
    if (parser !== null && typeof parser === 'object' && parser._consumedSocket === this) {
      // As with the built-in reading in C++: pending ticks run after each
      // kOnBody and kOnHeaders handler (see the parser's replay).
      parser._drainTicks = true;
      try {
        this[kConsumer](chunk);
      } finally {
        parser._drainTicks = false;
      }
    } else {
      this[kConsumer](chunk);
    }
    return true;
  }
  return Object.getPrototypeOf(this).push.call(this, chunk);
}

// Takes over the reads of `socket` (whose handle is `handle`) for its one
// 'data' listener. Returns whether it did.
function consume(socket, handle) {
  if (socket === null || typeof socket !== 'object' || socket._handle !== handle) return false;
  const listeners = socket.listeners('data');
  if (listeners.length !== 1) return false;
  socket[kConsumer] = listeners[0];
  socket.push = consumedPush;
  return true;
}

// Gives the socket's reads back to the stream machinery.
function unconsume(socket) {
  if (socket.push === consumedPush) delete socket.push;
  socket[kConsumer] = undefined;
}

module.exports = { consume, unconsume };
