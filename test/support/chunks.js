'use strict';
// Ways to cut one input into the chunks a parser is given, one execute()
// each: for tests that check that an outcome does not depend on how the
// bytes arrive (test/parser/conformance.test.js, test/parser/smuggling.test.js).

// A Buffer as is; a string as its Latin-1 bytes.
function toBuffer(input) {
  return Buffer.isBuffer(input) ? input : Buffer.from(input, 'latin1');
}

// The input cut in two, [input[0, i), input[i, len)], at every offset i from
// 0 to len inclusive (so an empty first or last chunk is included), or every
// `step` bytes; emptyEnds: false leaves out the cuts at 0 and len.
function cutsInTwo(input, { step = 1, emptyEnds = true } = {}) {
  const buf = toBuffer(input);
  const out = [];
  const first = emptyEnds ? 0 : 1;
  const last = emptyEnds ? buf.length : buf.length - 1;
  for (let i = first; i <= last; i += step) out.push([buf.subarray(0, i), buf.subarray(i)]);
  return out;
}

// One chunk per byte.
function byteByByte(input) {
  const buf = toBuffer(input);
  const out = [];
  for (let i = 0; i < buf.length; i++) out.push(buf.subarray(i, i + 1));
  return out;
}

// The chunkings the smuggling vectors run through: the whole input in one
// chunk; byte by byte (inputs up to 2,000 bytes); cut in two at every inner
// offset (inputs up to 300 bytes), or at about 24 of them.
function wholeByteByByteAndCuts(input) {
  const buf = toBuffer(input);
  const out = [[buf]];
  if (buf.length <= 2000) out.push(byteByByte(buf));
  const step = buf.length <= 300 ? 1 : Math.ceil(buf.length / 24);
  out.push(...cutsInTwo(buf, { step, emptyEnds: false }));
  return out;
}

module.exports = { toBuffer, cutsInTwo, byteByByte, wholeByteByByteAndCuts };
