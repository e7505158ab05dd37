'use strict';
// Preload of scripts/dev/node-server-suite.js: http.createServer and
// https.createServer return llhttp-napi/server's servers, so that Node's own
// tests of node:http's server run against this package's.
const path = require('node:path');
const http = require('node:http');
const https = require('node:https');

const root = process.env.LLHTTP_NAPI_ROOT || path.resolve(__dirname, '..', '..');
const { Server, SecureServer } = require(path.join(root, 'lib', 'server'));

http.createServer = function createServer(options, handler) {
  return new Server(options, handler);
};
https.createServer = function createServer(options, handler) {
  return new SecureServer(options, handler);
};
