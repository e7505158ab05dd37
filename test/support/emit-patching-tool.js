'use strict';
// A stand-in for an APM that patches node:http as dd-trace does (its
// http server instrumentation): it wraps http.Server.prototype.emit and
// http.ServerResponse.prototype.emit, both inherited from EventEmitter, to
// see each 'request' and each response's 'finish' and 'close'. Loaded with
// -r before or after the server preload (test/server/node-patches.test.js).
const http = require('node:http');

const seen = [];
globalThis.emitPatchingToolSaw = seen;
for (const [Class, events] of [[http.Server, ['request']], [http.ServerResponse, ['finish', 'close']]]) {
  const inherited = Class.prototype.emit;
  Class.prototype.emit = function emit(event, ...args) {
    if (events.includes(event)) seen.push(`${Class.name} ${event}`);
    return inherited.call(this, event, ...args);
  };
}
