'use strict';
// Fields most requests or responses never change start on their class's
// prototype: each message is a smaller object to make and to collect, and
// one that sets such a field gets its own. Data properties, writable, not
// enumerable (as a prototype's methods are not).

function defaultFields(prototype, fields) {
  for (const name of Object.keys(fields)) {
    Object.defineProperty(prototype, name, { value: fields[name], writable: true, enumerable: false, configurable: true });
  }
}

module.exports = { defaultFields };
