'use strict';
// llhttp-napi/server: createServer([options], handler) returns a net.Server
// (a tls.Server when TLS options are given) whose connections are parsed by
// llhttp-napi's HTTPParser (./connection.js), with node:http's options,
// defaults, events and shutdown methods. docs/server.md.

const net = require('node:net');
const tls = require('node:tls');
const http = require('node:http');
const { onConnection, kConnectionsSet } = require('./connection');
const { nowMs } = require('../connections');

// node:http's defaults on the running line (keepAliveTimeoutBuffer: 22 on).
const defaults = (() => {
  const sample = new http.Server();
  return {
    keepAliveTimeout: sample.keepAliveTimeout,
    keepAliveTimeoutBuffer: sample.keepAliveTimeoutBuffer === undefined ? 0 : sample.keepAliveTimeoutBuffer,
    requestTimeout: sample.requestTimeout,
    connectionsCheckingInterval: sample.connectionsCheckingInterval,
  };
})();

const kCheckTimer = Symbol('llhttp-napi/server timeout checker');
const kKeepAliveLines = Symbol('llhttp-napi/server keep-alive lines');

const TLS_KEYS = ['key', 'cert', 'pfx', 'ca', 'SNICallback', 'secureContext', 'passphrase'];

function checkInteger(value, name) {
  if (!Number.isInteger(value) || value < 0) {
    const err = new RangeError(`The value of "${name}" is out of range. It must be >= 0 && <= 9007199254740991. Received ${value}`);
    err.code = typeof value === 'number' ? 'ERR_OUT_OF_RANGE' : 'ERR_INVALID_ARG_TYPE';
    throw err;
  }
  return value;
}

function checkBoolean(value, name) {
  if (typeof value !== 'boolean') {
    const err = new TypeError(`The "${name}" property must be of type boolean. Received ${typeof value}`);
    err.code = 'ERR_INVALID_ARG_TYPE';
    throw err;
  }
  return value;
}

// The options node:http's Server takes, with its defaults.
function configure(server, options, handler) {
  const opt = (name, check, fallback) => (options[name] === undefined ? fallback : check(options[name], name));
  server.maxHeaderSize = opt('maxHeaderSize', checkInteger, undefined);
  server.insecureHTTPParser = opt('insecureHTTPParser', checkBoolean, undefined);
  server.httpValidation = options.httpValidation;
  server.requestTimeout = opt('requestTimeout', checkInteger, defaults.requestTimeout);
  server.headersTimeout = opt('headersTimeout', checkInteger, Math.min(60000, server.requestTimeout));
  if (server.requestTimeout > 0 && server.headersTimeout > 0 && server.headersTimeout > server.requestTimeout) {
    const err = new RangeError('The value of "headersTimeout" is out of range. It must be <= requestTimeout.');
    err.code = 'ERR_OUT_OF_RANGE';
    throw err;
  }
  server.keepAliveTimeout = opt('keepAliveTimeout', checkInteger, defaults.keepAliveTimeout);
  server.keepAliveTimeoutBuffer = opt('keepAliveTimeoutBuffer', checkInteger, defaults.keepAliveTimeoutBuffer);
  server.connectionsCheckingInterval = opt('connectionsCheckingInterval', checkInteger,
    defaults.connectionsCheckingInterval);
  server.requireHostHeader = opt('requireHostHeader', checkBoolean, true);
  server.joinDuplicateHeaders = opt('joinDuplicateHeaders', checkBoolean, undefined);
  server.maxRequestsPerSocket = 0;
  server.timeout = 0;
  server.maxHeadersCount = null;
  server.httpAllowHalfOpen = false;
  server[kConnectionsSet] = new Set();
  server[kCheckTimer] = null;
  server[kKeepAliveLines] = null;
  server.on(server instanceof tls.Server ? 'secureConnection' : 'connection', onConnection);
  server.on('listening', startChecking);
  if (typeof handler === 'function') server.on('request', handler);
}

// Every connectionsCheckingInterval ms: headersTimeout and requestTimeout.
function startChecking() {
  if (this[kCheckTimer] !== null) clearInterval(this[kCheckTimer]);
  this[kCheckTimer] = setInterval(checkConnections, this.connectionsCheckingInterval, this).unref();
}

function checkConnections(server) {
  const headersTimeout = Number.isFinite(server.headersTimeout) && server.headersTimeout >= 0 ? server.headersTimeout : 0;
  const requestTimeout = Number.isFinite(server.requestTimeout) && server.requestTimeout >= 0 ? server.requestTimeout : 0;
  if (headersTimeout === 0 && requestTimeout === 0) return;
  const now = nowMs();
  const headersDeadline = headersTimeout > 0 ? now - headersTimeout : 0;
  const requestDeadline = requestTimeout > 0 ? now - requestTimeout : 0;
  for (const conn of server[kConnectionsSet]) conn.checkTimeout(headersDeadline, requestDeadline);
}

// What both server classes add to their base.
const methods = {
  closeAllConnections() {
    for (const conn of this[kConnectionsSet]) conn.socket.destroy();
  },

  closeIdleConnections() {
    for (const conn of this[kConnectionsSet]) {
      if (conn.isIdle()) conn.socket.destroy();
    }
  },

  setTimeout(msecs, callback) {
    this.timeout = msecs;
    if (callback) this.on('timeout', callback);
    return this;
  },

  // 'Connection: keep-alive' and 'Keep-Alive: timeout=...' lines of this
  // server's answers, made once for the current settings.
  keepAliveLines() {
    const timeout = this.keepAliveTimeout;
    const max = ~~this.maxRequestsPerSocket;
    let cached = this[kKeepAliveLines];
    if (cached === null || cached.timeout !== timeout || cached.max !== max) {
      const lines = timeout ?
        `Connection: keep-alive\r\nKeep-Alive: timeout=${Math.floor(timeout / 1000)}${max > 0 ? `, max=${max}` : ''}\r\n` :
        'Connection: keep-alive\r\n';
      cached = { timeout, max, lines };
      this[kKeepAliveLines] = cached;
    }
    return cached.lines;
  },
};

class Server extends net.Server {
  constructor(options, handler) {
    if (typeof options === 'function') {
      handler = options;
      options = {};
    } else if (options === undefined || options === null) {
      options = {};
    }
    super({ allowHalfOpen: true, noDelay: options.noDelay ?? true, keepAlive: options.keepAlive,
      keepAliveInitialDelay: options.keepAliveInitialDelay, highWaterMark: options.highWaterMark });
    configure(this, options, handler);
  }
}

class SecureServer extends tls.Server {
  constructor(options, handler) {
    const tlsOptions = { ALPNProtocols: ['http/1.1'], ...options, allowHalfOpen: true, noDelay: options.noDelay ?? true };
    super(tlsOptions);
    configure(this, options, handler);
  }
}

// close(): idle connections go, the timeout checker stops, then the base's close().
function closeFor(Base) {
  return function close(...args) {
    this.closeIdleConnections();
    if (this[kCheckTimer] !== null) {
      clearInterval(this[kCheckTimer]);
      this[kCheckTimer] = null;
    }
    Base.prototype.close.apply(this, args);
    return this;
  };
}

for (const [Class, Base] of [[Server, net.Server], [SecureServer, tls.Server]]) {
  Object.defineProperty(Class.prototype, 'close', { value: closeFor(Base), writable: true, configurable: true });
  for (const name of Object.keys(methods)) {
    Object.defineProperty(Class.prototype, name, { value: methods[name], writable: true, configurable: true });
  }
  Object.defineProperty(Class.prototype, Symbol.asyncDispose, {
    value: function asyncDispose() {
      return new Promise((resolve, reject) => this.close((err) => (err ? reject(err) : resolve())));
    },
    configurable: true,
  });
}

function isTlsOptions(options) {
  return options !== null && typeof options === 'object' && TLS_KEYS.some((key) => options[key] !== undefined);
}

// createServer([options][, handler]).
function createServer(options, handler) {
  if (typeof options === 'function') return new Server(options);
  if (isTlsOptions(options)) return new SecureServer(options, handler);
  return new Server(options, handler);
}

// Fastify's serverFactory: fastify({ serverFactory: fastifyServerFactory }).
// Fastify hands over its options; the ones node:http's server takes apply.
function fastifyServerFactory(handler, opts = {}) {
  if (opts.http2) throw new Error('llhttp-napi/server: http2 is not supported');
  const options = {};
  for (const name of ['maxHeaderSize', 'insecureHTTPParser', 'requestTimeout', 'keepAliveTimeout',
    'requireHostHeader', 'joinDuplicateHeaders', 'noDelay']) {
    if (opts[name] !== undefined && opts[name] !== null) options[name] = opts[name];
  }
  const https = opts.https !== null && typeof opts.https === 'object' ? opts.https : null;
  const server = https !== null ? new SecureServer({ ...https, ...options }, handler) : new Server(options, handler);
  if (typeof opts.connectionTimeout === 'number') server.setTimeout(opts.connectionTimeout);
  if (typeof opts.maxRequestsPerSocket === 'number') server.maxRequestsPerSocket = opts.maxRequestsPerSocket;
  return server;
}

module.exports = { createServer, Server, SecureServer, fastifyServerFactory };
