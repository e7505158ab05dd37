'use strict';
// What the running Node's built-in does, where the tests' expectations
// depend on it: measured here on the built-in itself, not keyed by version
// (behaviour changes inside a line too: 22.22 and 22.23 differ on the header
// pair limit, 24.21 and 24.22 on IncomingMessage's fast dump). The suites
// run every expectation on the built-in as well, so a wrong measurement
// fails there. Independent of lib/ (lib/node-line.js measures for lib).
const http = require('node:http');
const { HTTPParser } = require('_http_common');
const { IncomingMessage } = require('_http_incoming');

// Node's own IncomingMessage dumps a fully received message with read(0)
// (and destroys a clean one in the call): 24.22 on, 20 and 22 do not.
// Measured with Node's _dump as loaded, before any install().
const nodeDump = IncomingMessage.prototype._dump;
const msg = new IncomingMessage(null);
msg.complete = true;
msg.push(null);
nodeDump.call(msg);
const fastIncoming = msg.readableFlowing === null;

// A request with more header fields than maxHeaderPairs / 2 fails with
// HPE_HEADER_OVERFLOW (node:http answers 431): 22.23 and 24.21 on.
function measureHeaderPairLimit() {
  const parser = new HTTPParser();
  parser.initialize(HTTPParser.REQUEST, {});
  parser.maxHeaderPairs = 2;
  parser[HTTPParser.kOnHeadersComplete] = () => 0;
  try {
    const r = parser.execute(Buffer.from('GET / HTTP/1.1\r\nA: 1\r\nB: 2\r\n\r\n'));
    return r instanceof Error && r.code === 'HPE_HEADER_OVERFLOW';
  } finally {
    parser.close();
  }
}
const limitsHeaderPairs = measureHeaderPairLimit();

// The server's ConnectionsList lists a connection that has not begun a
// request as idle (nodejs/node#63470, 26 on). Measured on a list of the
// server's list's class and a built-in parser.
function freshIsIdle(list) {
  const probe = new list.constructor();
  const parser = new HTTPParser();
  parser.initialize(HTTPParser.REQUEST, {}, 0, 0, probe);
  try {
    return probe.idle().length === 1;
  } finally {
    parser.remove();
    parser.close();
  }
}

// The newer options of http.createServer() and http.request() the running
// Node has: one it knows rejects a value of the wrong type or outside its set
// (optimizeEmptyRequests from 24.12, httpValidation from 24.19 and 26.3,
// server and client); one it does not know is ignored.
function rejects(fn) {
  try {
    fn();
    return false;
  } catch (err) {
    return err.code === 'ERR_INVALID_ARG_TYPE' || err.code === 'ERR_INVALID_ARG_VALUE';
  }
}
const serverOptions = {
  optimizeEmptyRequests: rejects(() => http.createServer({ optimizeEmptyRequests: 'not a boolean' })),
  httpValidation: rejects(() => http.createServer({ httpValidation: 'not a mode' })),
};
const clientOptions = {
  httpValidation: rejects(() => {
    const req = http.request({ host: '127.0.0.1', port: 9, agent: false, httpValidation: 'not a mode' });
    req.on('error', () => {});
    req.destroy();
  }),
};

module.exports = { fastIncoming, limitsHeaderPairs, freshIsIdle, serverOptions, clientOptions };
