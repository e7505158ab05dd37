'use strict';
// node:http's rules for a server's connections, one owner for both paths:
// install() (lib/connections.js answers the built-in ConnectionsList's
// queries for our parsers) and llhttp-napi/server (lib/server/index.js checks
// its connections itself). Times are ms on lib/clock.js's clock, the one the
// core stamps message begins with. docs/node-http.md, "Connection tracking".

const { nowMs } = require('./clock');

// The deadlines headersTimeout and requestTimeout (ms) give now: a message
// that began before `headers` without a complete head, or before `request`,
// has timed out (0: that limit is off). null when neither limit is on.
// node:http takes each as an unsigned 32-bit count of ms, and when
// requestTimeout is on and below headersTimeout (as happens when one of them
// is set after the server was built) the two trade places: the smaller limit
// is the one on the head.
function timeoutDeadlines(headersTimeout, requestTimeout, now = nowMs()) {
  let headersMs = headersTimeout >>> 0;
  let requestMs = requestTimeout >>> 0;
  if (headersMs === 0 && requestMs === 0) return null;
  if (requestMs > 0 && headersMs > requestMs) [headersMs, requestMs] = [requestMs, headersMs];
  const headers = headersMs > 0 && now > headersMs ? now - headersMs : 0;
  const request = requestMs > 0 && now > requestMs ? now - requestMs : 0;
  return headers === 0 && request === 0 ? null : { headers, request };
}

// Has the message that began at `start` (a connection that has begun none:
// when it was opened) timed out by the deadlines timeoutDeadlines() gave?
function hasTimedOut(start, headersCompleted, headersDeadline, requestDeadline) {
  return (headersDeadline > 0 && start < headersDeadline && !headersCompleted) ||
    (requestDeadline > 0 && start < requestDeadline);
}

// Is a connection idle for closeIdleConnections()? One between two messages
// is; one that has begun none is where the running line says so (26 on).
function isIdle(betweenMessages, begunOne) {
  return begunOne ? betweenMessages : idleBeforeFirstRequest();
}

// Whether the built-in's ConnectionsList calls a connection that has not
// begun a request idle: measured once on the running node, with a list of
// its own (the one a node:http server makes when it starts listening) and
// one built-in parser in it.
let freshIdle = null;
function idleBeforeFirstRequest() {
  if (freshIdle !== null) return freshIdle;
  const sample = new (require('node:http').Server)();
  sample.emit('listening'); // makes its ConnectionsList (and an unref'd checker close() stops)
  const key = Object.getOwnPropertySymbols(sample).find((s) => s.description === 'http.server.connections');
  const list = key === undefined ? undefined : sample[key];
  sample.close(() => {});
  if (list === undefined) return (freshIdle = false);
  const { HTTPParser: Builtin } = require('_http_common');
  const parser = new Builtin();
  try {
    parser.initialize(Builtin.REQUEST, {}, 0, 0, list);
    freshIdle = list.idle().length === 1;
  } finally {
    parser.remove();
    parser.close();
  }
  return freshIdle;
}

module.exports = { timeoutDeadlines, hasTimedOut, isIdle, idleBeforeFirstRequest };
