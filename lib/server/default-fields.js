'use strict';
// Fields most instances of a class never change (a request's, a response's,
// a connection's or its socket's) start on the class's prototype: each
// instance is a smaller object to make, to keep and to collect, and one that
// sets such a field gets its own. Data properties, writable, not enumerable
// (as a prototype's methods are not).

function defaultFields(prototype, fields) {
  for (const name of Object.keys(fields)) {
    Object.defineProperty(prototype, name, { value: fields[name], writable: true, enumerable: false, configurable: true });
  }
}

module.exports = { defaultFields };
