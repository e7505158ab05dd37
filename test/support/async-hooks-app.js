'use strict';
// The application of test/server/preload-async.test.js: it enables an async
// hook first thing, as Node's test/async-hooks files do, then makes a
// request to a node:http server. Every before, after and destroy its hook
// sees must be of a resource whose init it saw. Prints JSON: the callbacks
// without an init, the resources the preload made while loading (when
// test/support/async-load-recorder.js came before it), and the handles
// active when the application began.
const { createHook } = require('node:async_hooks');

const loaded = global.stopAsyncLoadRecorder ? global.stopAsyncLoadRecorder() : null;
const handlesAtStart = process._getActiveHandles().map((h) => h.constructor.name);
const requestsAtStart = process._getActiveRequests().length;

const known = new Set();
const withoutInit = [];
function check(name) {
  return (asyncId) => {
    if (!known.has(asyncId)) withoutInit.push(name);
  };
}
createHook({
  init(asyncId) { known.add(asyncId); },
  before: check('before'),
  after: check('after'),
  destroy: check('destroy'),
  promiseResolve: check('promiseResolve'),
}).enable();

const http = require('node:http');

const server = http.createServer((req, res) => res.end('ok'));
server.listen(0, '127.0.0.1', () => {
  http.get({ port: server.address().port, host: '127.0.0.1', agent: false }, (res) => {
    res.resume();
    res.on('end', () => server.close());
  });
});

process.on('exit', () => {
  require('node:fs').writeSync(1, JSON.stringify({ withoutInit, loaded, handlesAtStart, requestsAtStart }));
});
