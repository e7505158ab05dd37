'use strict';
// Copies of bytes as node hands them out: a Buffer over an ArrayBuffer of its
// own, exactly its length. node:http's body chunks and getCurrentBuffer() are
// such copies (Buffer::Copy in its C++), and so are node:net's reads.
// Buffer.from(bytes) is not: under half of Buffer.poolSize (32 KiB from Node
// 24) it hands out a slice of a shared pool, so that a kept chunk holds the
// whole pool, `chunk.buffer` is the pool, and every pool used up costs V8 a
// cell in old space (its detach key), which an upload's chunks turn into
// full collections.

// (Module bindings: the global `Buffer` is an accessor.)
const { Buffer } = require('node:buffer');

// A copy of bytes[start, end) (a Uint8Array), in a buffer of its own.
function copyOf(bytes, start, end) {
  const copy = Buffer.allocUnsafeSlow(end - start);
  copy.set(bytes.subarray(start, end));
  return copy;
}

module.exports = { copyOf };
