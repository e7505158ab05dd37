'use strict';
// The diagnostics_channel channels node:http publishes for a server's
// requests, published by llhttp-napi/server at the same moments with the
// same message fields, so that tools that subscribe to them (APM agents,
// docs/server.md "Observability") see this server's requests too. The loop
// (./connection.js) publishes only when a channel has subscribers:
//   'http.server.response.created' {request, response}: the response is made
//       (node:http: in its constructor; from 22 on);
//   'http.server.request.start' {request, response, socket, server}: before
//       the loop's own checks and 'request';
//   'http.server.response.finish' {request, response, socket, server}: at
//       'finish', before the handler's 'finish' listeners.

const dc = require('node:diagnostics_channel');
const line = require('../node-line');

const requestStart = dc.channel('http.server.request.start');
const responseFinish = dc.channel('http.server.response.finish');
const responseCreatedChannel = dc.channel('http.server.response.created');

// (A channel nobody publishes to on a line whose node:http does not, 20:
// hasSubscribers stays false.)
const responseCreated = line.publishesResponseCreated ? responseCreatedChannel : { hasSubscribers: false };

module.exports = { requestStart, responseCreated, responseFinish };
