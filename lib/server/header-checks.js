'use strict';
// node:http's checks of a response header's name and value, with its
// errors, made cheap for what a handler gives on every answer: the names
// that passed are remembered (a handler's names are few and the same), a
// number always passes (its text has no character node:http refuses), and
// a string value is looked at here; only what fails goes to node:http's
// own check, which throws its error. A remembered name also keeps its key
// (the name in lower case, as the response's table of headers is keyed):
// `toLowerCase()` makes a new string at every call, which the table then
// has to look up among V8's internalized strings, where the remembered key
// was internalized by its first use.

const { validateHeaderName, validateHeaderValue } = require('node:http');

const REMEMBERED_NAMES = 256;
const keys = new Map(); // a name that passed -> its key

// Checks header `name` as node:http does (throwing its error); returns its
// key.
function checkedKey(name) {
  const key = keys.get(name);
  if (key !== undefined) return key;
  validateHeaderName(name);
  const lower = name.toLowerCase();
  if (keys.size >= REMEMBERED_NAMES) keys.clear();
  keys.set(name, lower);
  return lower;
}

// The key of header `name`, checked or not (what a lookup asks).
function keyOf(name) {
  const key = keys.get(name);
  return key !== undefined ? key : name.toLowerCase();
}

// `head`: the response whose header it is, asked only for a value that
// fails the strict rule whether its server takes lenient values (node:http's
// own check then decides, on the lines that have lenient values). Returns
// whether the value's text is ASCII (a number's is), which the head's line
// for it needs to know.
function checkValue(name, value, head) {
  if (typeof value === 'number') return true;
  const kind = typeof value === 'string' ? fieldValueKind(value) : REFUSED;
  if (kind === REFUSED) validateHeaderValue(name, value, head.lenientValues());
  return kind === ASCII;
}

const REFUSED = 0;
const ASCII = 1;
const LATIN1 = 2;

// node:http's rule for a value: tab, visible ASCII and space, and 0x80-0xff
// (LATIN1 when one of those last is in it).
function fieldValueKind(value) {
  let kind = ASCII;
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c < 0x20 ? c !== 0x09 : c === 0x7f || c > 0xff) return REFUSED;
    if (c > 0x7f) kind = LATIN1;
  }
  return kind;
}

module.exports = { checkedKey, keyOf, checkValue };
