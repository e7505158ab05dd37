'use strict';
// node:http's checks of a response header's name and value, with its
// errors, made cheap for what a handler gives on every answer: the names
// that passed are remembered (a handler's names are few and the same), a
// number always passes (its text has no character node:http refuses), and
// a string value is looked at here; only what fails goes to node:http's
// own check, which throws its error.

const { validateHeaderName, validateHeaderValue } = require('node:http');

const REMEMBERED_NAMES = 256;
const validNames = new Set();

function checkName(name) {
  if (validNames.has(name)) return;
  validateHeaderName(name);
  if (validNames.size >= REMEMBERED_NAMES) validNames.clear();
  validNames.add(name);
}

// `head`: the response whose header it is, asked only for a value that
// fails the strict rule whether its server takes lenient values (node:http's
// own check then decides, on the lines that have lenient values).
function checkValue(name, value, head) {
  if (typeof value === 'number') return;
  if (typeof value !== 'string' || !isFieldValue(value)) validateHeaderValue(name, value, head.lenientValues());
}

// node:http's rule for a value: tab, visible ASCII and space, and 0x80-0xff.
function isFieldValue(value) {
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c < 0x20 ? c !== 0x09 : c === 0x7f || c > 0xff) return false;
  }
  return true;
}

module.exports = { checkName, checkValue };
