'use strict';
// Preload of scripts/dev/fastify-suite.js: http.createServer and
// https.createServer return llhttp-napi/server's servers, so that every
// server Fastify (or a test) creates is this package's.
const path = require('node:path');
const http = require('node:http');
const https = require('node:https');

const root = process.env.LLHTTP_NAPI_ROOT || path.resolve(__dirname, '..', '..');
const { Server, SecureServer } = require(path.join(root, 'lib', 'server'));

http.createServer = function createServer(options, handler) {
  return typeof options === 'function' ? new Server(options) : new Server(options, handler);
};
https.createServer = function createServer(options, handler) {
  return typeof options === 'function' ? new SecureServer({}, options) : new SecureServer(options || {}, handler);
};
