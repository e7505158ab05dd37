'use strict';
// The options of llhttp-napi/server's servers: node:http's names, checks,
// errors and defaults on the running line, got from node:http itself. Each
// server's options are first handed to a reference node:http Server, which
// throws what node:http throws for them (ERR_INVALID_ARG_TYPE for options
// that are not an object, ERR_INVALID_ARG_VALUE for an unknown
// httpValidation, ERR_OUT_OF_RANGE for a negative timeout or a
// headersTimeout above requestTimeout...), and the values it stored, its
// defaults included, are taken from it. docs/server.md, "Options".

const http = require('node:http');
const { kIncomingMessage, kServerResponse, kUniqueHeaders, kOptimizeEmptyRequests } = require('./seam');

// Taken before anyone (a preload, a test) replaces http.Server with ours.
const ReferenceServer = http.Server;

// What node:http keeps on a server under these public names, where the
// running line has them (keepAliveTimeoutBuffer: 22 on; shouldUpgradeCallback:
// 22 on; httpValidation: 24 on).
const PUBLIC = ['maxHeaderSize', 'insecureHTTPParser', 'httpValidation', 'requestTimeout', 'headersTimeout',
  'keepAliveTimeout', 'keepAliveTimeoutBuffer', 'connectionsCheckingInterval', 'requireHostHeader',
  'joinDuplicateHeaders', 'rejectNonStandardBodyWrites', 'shouldUpgradeCallback'];

// What node:http keeps under private symbols, under ours (./seam.js).
const PRIVATE = [['kUniqueHeaders', kUniqueHeaders], ['OptimizeEmptyRequestsOption', kOptimizeEmptyRequests]];

// The options argument of new Server(options, handler) / createServer():
// the options object (validated as node:http validates it) and the handler.
// A handler may come first.
function splitArguments(options, handler) {
  if (typeof options === 'function') [options, handler] = [{}, options];
  else if (options === undefined || options === null) options = {};
  return [options, handler];
}

// node:http's reading of `options` (its checks: throws node:http's error for
// options it refuses), for applyOptions() once the server exists.
function readOptions(options) {
  return new ReferenceServer(options);
}

// Stores on `server` what node:http stored on `reference` for `options`.
function applyOptions(server, reference, options) {
  for (const name of PUBLIC) {
    if (name in reference) server[name] = reference[name];
  }
  for (const symbol of Object.getOwnPropertySymbols(reference)) {
    const ours = PRIVATE.find(([description]) => description === symbol.description);
    if (ours !== undefined) server[ours[1]] = reference[symbol];
  }
  // The classes the loop makes requests and responses of (./seam.js).
  server[kIncomingMessage] = messageClass(options, 'IncomingMessage', require('./request').ServerRequest);
  server[kServerResponse] = messageClass(options, 'ServerResponse', require('./response').ServerResponse);
  // Set by node:http's constructor, not taken from options.
  server.timeout = 0;
  server.maxHeadersCount = null;
  server.maxRequestsPerSocket = 0;
  server.httpAllowHalfOpen = false;
}

// The class given as option `name`, or undefined. The loop talks to its
// messages through the methods of our bases (./seam.js): another class
// (node:http's own IncomingMessage, a subclass of it) would fail on the first
// request, so it is refused here (node:http takes any value).
function messageClass(options, name, Base) {
  const given = options[name];
  if (given === undefined || given === null || given === Base) return undefined;
  if (!extendsOurs(given, Base)) {
    const err = new TypeError(`The "options.${name}" class must extend llhttp-napi/server's ${name} ` +
      `(require('llhttp-napi/server').${name}); node:http's cannot run on this server. See docs/server.md.`);
    err.code = 'ERR_INVALID_ARG_VALUE';
    throw err;
  }
  return given;
}

function extendsOurs(given, Base) {
  return typeof given === 'function' && given.prototype instanceof Base;
}

// The name of the message class option ('IncomingMessage', 'ServerResponse')
// that this server would refuse, or null (the server preload then makes the
// server node:http's).
function refusedMessageClass(options) {
  if (options === null || typeof options !== 'object') return null;
  const bases = { IncomingMessage: require('./request').ServerRequest, ServerResponse: require('./response').ServerResponse };
  for (const name of ['IncomingMessage', 'ServerResponse']) {
    const given = options[name];
    if (given !== undefined && given !== null && given !== bases[name] && !extendsOurs(given, bases[name])) return name;
  }
  return null;
}

module.exports = { splitArguments, readOptions, applyOptions, refusedMessageClass };
