'use strict';
// The named hooks through which lib/ modules talk to a parser (lib/parser.js)
// instead of reading its fields. Symbols: invisible to users, one per
// question a module asks.

module.exports = {
  // parser[readConsumed](bytes, length): bytes[0, length) read from the
  // consumed socket: parse them and call kOnExecute, as the built-in does in
  // C++ (lib/read-path.js).
  readConsumed: Symbol('llhttp-napi readConsumed'),
  // parser[messageStart](): when the message under way began, in ms (0: none),
  // as of the event being delivered (lib/connections.js).
  messageStart: Symbol('llhttp-napi messageStart'),
  // parser[headersComplete](): whether its headers have completed, as of the
  // event being delivered (lib/connections.js).
  headersComplete: Symbol('llhttp-napi headersComplete'),
  // parser[begunSinceInit](): whether a message began since initialize().
  begunSinceInit: Symbol('llhttp-napi begunSinceInit'),
  // parser[whenComplete](msg, fn): see HTTPParser (lib/incoming.js).
  whenComplete: Symbol('llhttp-napi whenComplete'),
  // parser[coreStats](): the core's counters for this parser: allocations,
  // held bytes (tests, benchmarks).
  coreStats: Symbol('llhttp-napi coreStats'),
};
