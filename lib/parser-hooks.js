'use strict';
// The named hooks through which lib/ modules talk to a parser (lib/parser.js)
// instead of reading its fields. Symbols: invisible to users, one per
// question a module asks.

module.exports = {
  // parser[readConsumed](bytes, length): bytes[0, length) read from the
  // consumed socket: parse them and call kOnExecute, as the built-in does in
  // C++ (lib/read-path.js).
  readConsumed: Symbol('llhttp-napi readConsumed'),
  // parser[readParsed](bytes, length, text): the same for a read its socket
  // parsed already with this parser (`text`: the call's text), and
  // parser[parseNextRead](socket): whether the socket may do so with its
  // next read, this parser's id or -1 (lib/read-path.js).
  readParsed: Symbol('llhttp-napi readParsed'),
  parseNextRead: Symbol('llhttp-napi parseNextRead'),
  // parser[addonContext](): from its next initialize() on, the async
  // context of its handlers is the addon's (./handler-scope.js), which a
  // socket that parses its reads itself enters for each read
  // (lib/server/connection.js).
  addonContext: Symbol('llhttp-napi addonContext'),
  // parser[messageStart](): when the message under way began, in ms (0: none),
  // as of the event being delivered (lib/connections.js; the clock:
  // lib/clock.js).
  messageStart: Symbol('llhttp-napi messageStart'),
  // parser[headersCompleted](): the built-in's query of that name: whether the
  // current message's headers completed, as of the event being delivered
  // (lib/connections.js).
  headersCompleted: Symbol('llhttp-napi headersCompleted'),
  // parser[begunSinceInit](): whether a message began since initialize().
  begunSinceInit: Symbol('llhttp-napi begunSinceInit'),
  // parser[whenComplete](msg, fn): fn(msg) once the message being delivered
  // completes in this call; whether it took that on (lib/incoming.js).
  whenComplete: Symbol('llhttp-napi whenComplete'),
  // resource[ownContext] === true: initialize()'s resource is an
  // AsyncResource (of the parser's async type) whose context the handlers
  // run in, instead of one the parser makes: its trigger is its maker's
  // choice (lib/server/connection.js: the socket's, as node:http's).
  ownContext: Symbol('llhttp-napi ownContext'),
  // parser[headFields](): during kOnHeadersComplete, which of Host, Expect
  // and Content-Length or Transfer-Encoding the head has, as the core's
  // HC_HOST, HC_EXPECT and HC_BODY_FIELDS bits; -1 when it cannot tell (the
  // head's pairs were flushed before its end).
  headFields: Symbol('llhttp-napi headFields'),
  // parser[coreStats](): what the core holds for this parser between calls,
  // in bytes: { heldBytes: its held head (a head arriving in pieces),
  // recordBytes: its repeat record } (tests, benchmarks).
  coreStats: Symbol('llhttp-napi coreStats'),
};
