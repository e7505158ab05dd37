'use strict';
// llhttp-napi/server: createServer([options], handler) returns a net.Server
// (a tls.Server when TLS options are given) whose connections are parsed by
// llhttp-napi's HTTPParser (./connection.js), with node:http's options,
// defaults, events and shutdown methods. docs/server.md.

const EventEmitter = require('node:events');
const { builtinModule } = require('../builtin-modules');
const net = builtinModule('node:net');
const { STATUS_CODES } = require('node:http');
const { onConnection, kConnectionsSet } = require('./connection');
const { ServerRequest } = require('./request');
const { ServerResponse } = require('./response');
const { splitArguments, readOptions, applyOptions } = require('./options');
const { timeoutDeadlines } = require('../connection-rules');
const { isExpressApp, serveExpressApp, prepareExpressApp } = require('./express');
const { serverMade } = require('./server-made');
const { kExpressMakers } = require('./seam');
const nativeTransport = require('./native-transport');

// node:http's own key of the timeout checker's timer (which tests read), so
// that a server's checker is found where node:http's is.
const { kConnectionsCheckingInterval: kCheckTimer } = require('_http_server');
const kKeepAliveLines = Symbol('llhttp-napi/server keep-alive lines');

const TLS_KEYS = ['key', 'cert', 'pfx', 'ca', 'SNICallback', 'secureContext', 'passphrase'];

// What both constructors do once the base exists.
function configure(server, reference, options, handler, connectionEvent) {
  serverMade();
  applyOptions(server, reference, options);
  server[kConnectionsSet] = new Set();
  server[kKeepAliveLines] = null;
  server.on(connectionEvent, onConnection);
  server.on('listening', startChecking);
  if (isExpressApp(handler)) server[kExpressMakers] = serveExpressApp(handler, options);
  if (typeof handler === 'function') server.on('request', handler);
}

// Every connectionsCheckingInterval ms: headersTimeout and requestTimeout,
// as they are at that moment (node:http's rule: ../connection-rules.js).
function startChecking() {
  if (this[kCheckTimer] !== undefined) clearInterval(this[kCheckTimer]);
  this[kCheckTimer] = setInterval(checkConnections, this.connectionsCheckingInterval, this).unref();
}

// A limit that is not a finite number >= 0 is off.
function limitOf(ms) {
  return Number.isFinite(ms) && ms >= 0 ? ms : 0;
}

function checkConnections(server) {
  const deadlines = timeoutDeadlines(limitOf(server.headersTimeout), limitOf(server.requestTimeout));
  if (deadlines === null) return;
  for (const conn of server[kConnectionsSet]) conn.checkTimeout(deadlines.headers, deadlines.request);
}

// A TLS error before the connection reached HTTP (plaintext to the TLS port,
// a client that refused the certificate): 'clientError', as node:https.
function onTlsClientError(err, socket) {
  if (!this.emit('clientError', err, socket)) socket.destroy(err);
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

  // A rejected promise of an async listener, with captureRejections on: a
  // 'request' handler's gets a 500 with no header of its own when no answer
  // has begun, else the response is destroyed; other events, as net.Server.
  [EventEmitter.captureRejectionSymbol](err, event, ...args) {
    if (event !== 'request') {
      Reflect.apply(net.Server.prototype[EventEmitter.captureRejectionSymbol], this, [err, event, ...args]);
      return;
    }
    const res = args[1];
    if (res.headersSent || res.writableEnded) {
      res.destroy();
      return;
    }
    for (const name of res.getHeaderNames()) res.removeHeader(name);
    res.statusCode = 500;
    res.end(STATUS_CODES[500]);
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

// The net.Server options of a Server made with `options`.
function netOptions(options) {
  return { allowHalfOpen: true, noDelay: options.noDelay ?? true, keepAlive: options.keepAlive,
    keepAliveInitialDelay: options.keepAliveInitialDelay, highWaterMark: options.highWaterMark };
}

class Server extends net.Server {
  constructor(options, handler) {
    [options, handler] = splitArguments(options, handler);
    const reference = readOptions(options);
    super(netOptions(options));
    nativeTransport.chooseTransport(this, options);
    configure(this, reference, options, handler, 'connection');
  }

  // On the native transport when the options chose it and it covers the
  // case (./native-transport.js), else node:net's.
  listen(...args) {
    serverMade();
    if (nativeTransport.listenNative(this, args)) return this;
    return super.listen(...args);
  }

  // node:net's last step of listen() (its name, which cluster workers and
  // code that wraps it call): the native transport listens on a handle or
  // a descriptor given to listen(), or a cluster's, where it covers it.
  _listen2(...args) {
    return nativeTransport.listenGiven(this, args, super._listen2);
  }

  address() {
    const address = nativeTransport.nativeAddress(this);
    return address === undefined ? super.address() : address;
  }

  get listening() {
    const listening = nativeTransport.isListeningNatively(this);
    return listening === undefined ? Reflect.get(net.Server.prototype, 'listening', this) : listening;
  }

  ref() {
    return nativeTransport.refNative(this, true) ? this : super.ref();
  }

  unref() {
    return nativeTransport.refNative(this, false) ? this : super.unref();
  }
}

// close(): idle connections go, the timeout checker stops, then the base's close().
function closeFor(Base) {
  return function close(...args) {
    this.closeIdleConnections();
    if (this[kCheckTimer] !== undefined) clearInterval(this[kCheckTimer]);
    if (!nativeTransport.closeNative(this, args[0])) Base.prototype.close.apply(this, args);
    return this;
  };
}

// What both server classes add to their base.
function addServerMethods(Class, Base) {
  Object.defineProperty(Class.prototype, 'close', { value: closeFor(Base), writable: true, configurable: true });
  for (const name of Reflect.ownKeys(methods)) {
    Object.defineProperty(Class.prototype, name, { value: methods[name], writable: true, configurable: true });
  }
  Object.defineProperty(Class.prototype, Symbol.asyncDispose, {
    value: function asyncDispose() {
      return new Promise((resolve, reject) => this.close((err) => (err ? reject(err) : resolve())));
    },
    configurable: true,
  });
}
addServerMethods(Server, net.Server);

// SecureServer is made on first use: node:tls (and with it node:crypto) is
// most of what loading this module would page in and allocate, and a
// plaintext server never needs it.
let SecureServer = null;
function secureServerClass() {
  if (SecureServer !== null) return SecureServer;
  const tls = require('node:tls');
  SecureServer = class SecureServer extends tls.Server {
    constructor(options, handler) {
      [options, handler] = splitArguments(options, handler);
      const reference = readOptions(options);
      super(tlsOptions(options));
      configure(this, reference, options, handler, 'secureConnection');
      this.on('tlsClientError', onTlsClientError);
    }
  };
  addServerMethods(SecureServer, tls.Server);
  return SecureServer;
}

// As node:https: the options as given over these defaults (not half-open;
// ALPN http/1.1 unless the options choose the protocol themselves).
function tlsOptions(options) {
  return { noDelay: true, ...(options.ALPNCallback ? {} : { ALPNProtocols: ['http/1.1'] }), ...options };
}

// Makes `server`, an object whose prototype chain leads to Server.prototype
// or SecureServer.prototype but that no constructor made (an ES5-style
// subclass's `http.Server.call(this, ...)` under the server preload), a
// server in place, as the class's constructor would.
function initializeServer(server, options, handler) {
  [options, handler] = splitArguments(options, handler);
  const reference = readOptions(options);
  if (SecureServer !== null && server instanceof SecureServer) {
    require('node:tls').Server.call(server, tlsOptions(options));
    configure(server, reference, options, handler, 'secureConnection');
    server.on('tlsClientError', onTlsClientError);
  } else {
    net.Server.call(server, netOptions(options));
    nativeTransport.chooseTransport(server, options);
    configure(server, reference, options, handler, 'connection');
  }
  return server;
}

function isTlsOptions(options) {
  return options !== null && typeof options === 'object' && TLS_KEYS.some((key) => options[key] !== undefined);
}

// createServer([options][, handler]).
function createServer(options, handler) {
  if (typeof options === 'function') return new Server(options);
  if (isTlsOptions(options)) return new (secureServerClass())(options, handler);
  return new Server(options, handler);
}

// Express's app.listen(...args) on this server: createServer(app), then
// listen(...args); a callback also hears a listen error. Returns the server.
function listen(app, ...args) {
  const server = createServer(app);
  const last = args.length - 1;
  if (typeof args[last] === 'function') {
    const callback = args[last];
    let called = false;
    args[last] = function done(err) {
      if (called) return;
      called = true;
      server.removeListener('error', done);
      callback.call(this, err);
    };
    server.once('error', args[last]);
  }
  return server.listen(...args);
}

// Fastify's serverFactory: fastify({ serverFactory: fastifyServerFactory }).
// The server Fastify would build on node:http, on this package's: made from
// Fastify's `https` options (`true`: none) or else its `http` options, then
// given the timeouts Fastify sets after construction (so node:http's rule
// for timeouts set late applies, as on node:http).
function fastifyServerFactory(handler, opts = {}) {
  if (opts.http2) throw new Error('llhttp-napi/server: http2 is not supported');
  const https = opts.https === true ? {} : opts.https;
  const server = https !== null && typeof https === 'object' ?
    new (secureServerClass())(https, handler) : new Server(opts.http, handler);
  if (opts.keepAliveTimeout !== undefined) server.keepAliveTimeout = opts.keepAliveTimeout;
  if (opts.requestTimeout !== undefined) server.requestTimeout = opts.requestTimeout;
  if (opts.connectionTimeout !== undefined) server.setTimeout(opts.connectionTimeout);
  if (opts.maxRequestsPerSocket > 0) server.maxRequestsPerSocket = opts.maxRequestsPerSocket;
  return server;
}

module.exports = { createServer, listen, prepareExpressApp, Server, fastifyServerFactory, initializeServer,
  // The base classes of the IncomingMessage / ServerResponse options.
  IncomingMessage: ServerRequest, ServerResponse };
Object.defineProperty(module.exports, 'SecureServer', { get: secureServerClass, enumerable: true });
