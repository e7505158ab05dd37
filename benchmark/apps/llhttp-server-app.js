'use strict';
// The llhttp-napi/server side of the server benchmarks: a workload's
// node:http handler (server-workloads.js handler()) served by
// llhttp-napi/server (lib/server) instead of node:http, and the Fastify app
// of ./fastify-app.js on it through Fastify's serverFactory. The keep-alive
// timeout is the one server-child.js gives its node:http server.

const path = require('node:path');

// `pkg`: the package directory to load llhttp-napi/server from.
function createServer(handle, pkg = path.join(__dirname, '..', '..')) {
  const { createServer: create } = require(path.join(pkg, 'lib', 'server'));
  const server = create({ keepAliveTimeout: 60000 }, handle);
  // (Every request reaches `handle`, the workload's handler, which counts it.)
  return server;
}

module.exports = { createServer };
