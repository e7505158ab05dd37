'use strict';
// The strings a parser hands out: header names and values, URLs and status
// texts, cut from one string of the slab (the bytes the C core copied them
// into). The binding returns that string from each call that changed the
// slab; pair and event offsets index into it.
//
// A message whose head repeats the previous message's byte for byte (the
// core's LHN_HC_REPEATS, keep-alive clients sending the same request again)
// gets a copy of the strings made for the previous message instead of new
// ones. Only a private copy is kept: a header array handed out may be changed
// by its receiver (it becomes req.rawHeaders).

const { layout, knownHeaderNames: KNOWN_NAMES } = require('./native');

const {
  PAIR_SLOTS, PAIR_NAME_START, PAIR_NAME_END, PAIR_VALUE_START, PAIR_VALUE_END, PAIR_KNOWN_NAME,
} = layout;

const KEEP_EVERY = 4;

class HeaderStrings {
  constructor() {
    this.slab = '';        // the slab as a string, as of the last call
    this.pairs = null;     // Int32Array view of the pair table (the parser keeps it current)
    // What forMessage() made, for the parser to hand over.
    this.headers = null;
    this.text = '';
    // The strings of message number `_keptNumber`, for the next one if it repeats.
    this._keptHeaders = null;
    this._keptText = '';
    this._keptNumber = -1;
    this._skipKeeps = 0;   // messages that differ before the next copy is kept
  }

  // The string of slab bytes [start, end).
  slice(start, end) {
    return this.slab.substring(start, end);
  }

  // Makes the header array (pairs [first, first + count)) and the URL or
  // status text (slab [start, end)) of message `number` (kOnHeadersComplete),
  // into this.headers and this.text, and keeps a copy for the next message.
  forMessage(first, count, start, end, repeats, number) {
    if (repeats && this._keptNumber === number - 1) {
      this._keptNumber = number;
      this.headers = this._keptHeaders.slice();
      this.text = this._keptText;
      return;
    }
    this.headers = this.array(first, count);
    this.text = this.slab.substring(start, end);
    // Keeping a copy costs about as much as making the strings saves: on a
    // stream of messages that differ, copy only every KEEP_EVERY-th one, so
    // that a stream that starts repeating is found within a few messages.
    if (this._skipKeeps === 0) {
      this.keep(this.headers, this.text, number);
      this._skipKeeps = KEEP_EVERY - 1;
    } else {
      this._skipKeeps--;
    }
  }

  // Keeps what was made for message `number` (see forMessage()).
  keep(headers, text, number) {
    this._keptHeaders = headers.slice();
    this._keptText = text;
    this._keptNumber = number;
  }

  // The kept copy of message `number`'s header array, or null.
  keptHeaders(number) {
    return this._keptNumber === number ? this._keptHeaders.slice() : null;
  }

  // [name, value, ...] of pairs [first, first + count). Well-known names
  // come from a table made once.
  array(first, count) {
    const out = new Array(count * 2);
    const pairs = this.pairs;
    const slab = this.slab;
    for (let i = 0, p = first * PAIR_SLOTS; i < count; i++, p += PAIR_SLOTS) {
      const known = pairs[p + PAIR_KNOWN_NAME];
      out[2 * i] = known !== 0 ? KNOWN_NAMES[known - 1] :
        slab.substring(pairs[p + PAIR_NAME_START], pairs[p + PAIR_NAME_END]);
      out[2 * i + 1] = slab.substring(pairs[p + PAIR_VALUE_START], pairs[p + PAIR_VALUE_END]);
    }
    return out;
  }

  // The value of the first of pairs [first, first + count) whose name is
  // `name` (ASCII case-insensitive), or undefined. Makes no string but the
  // value.
  find(first, count, name) {
    const pairs = this.pairs;
    const slab = this.slab;
    const length = name.length;
    const end = (first + count) * PAIR_SLOTS;
    for (let p = first * PAIR_SLOTS; p < end; p += PAIR_SLOTS) {
      const start = pairs[p + PAIR_NAME_START];
      if (pairs[p + PAIR_NAME_END] - start !== length) continue;
      let j = 0;
      for (; j < length; j++) {
        let a = slab.charCodeAt(start + j);
        let b = name.charCodeAt(j);
        if (a === b) continue;
        if (a >= 0x41 && a <= 0x5a) a += 0x20;
        if (b >= 0x41 && b <= 0x5a) b += 0x20;
        if (a !== b) break;
      }
      if (j === length) return slab.substring(pairs[p + PAIR_VALUE_START], pairs[p + PAIR_VALUE_END]);
    }
    return undefined;
  }
}

module.exports = { HeaderStrings };
