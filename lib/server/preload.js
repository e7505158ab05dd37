'use strict';
// The server preload (./register.js): node:http's and node:https's server
// entry points (createServer, Server with and without `new`) make this
// package's servers, and instanceof answers for them as for node:http's
// objects, so that code written for node:http (Express's app.listen, plain
// fastify(), Koa, @hono/node-server, ws) runs on this server unchanged.
// docs/server.md, "The server preload".
//
// A server whose options this server cannot honour is node:http's, with one
// warning per reason; `{ llhttpNapi: false }` in a server's options asks for
// node:http's without a warning.

const http = require('node:http');
const https = require('node:https');
const { syncBuiltinESMExports } = require('node:module');
const server = require('./index');
const { ServerRequest } = require('./request');
const { ServerResponse } = require('./response');
const { refusedMessageClass } = require('./options');
const { adoptLoadedExpress, keepOnNodeHttp } = require('./express');
const { takeNodePatches } = require('./node-patches');
const { setServerMadeHook } = require('./server-made');

// node:http's own, taken before they are replaced.
const node = {
  createServer: http.createServer, Server: http.Server,
  createSecureServer: https.createServer, SecureServer: https.Server,
};

const ordinaryHasInstance = Function.prototype[Symbol.hasInstance];
const warned = new Set();

// Why `options` needs node:http's server, or null when this package's serves.
function fallbackReason(options) {
  const name = refusedMessageClass(options);
  if (name === null) return null;
  return `options.${name} is not a subclass of llhttp-napi/server's ${name} (node:http's cannot run on it)`;
}

// The options argument, whichever place it was given in (a handler may come first).
function optionsOf(options) {
  return typeof options === 'function' ? undefined : options;
}

// true when this server is to be node:http's (opted out, or options it cannot honour).
function toNodeHttp(options) {
  options = optionsOf(options);
  if (options?.llhttpNapi === false) return true;
  const reason = fallbackReason(options);
  if (reason === null) return false;
  if (!warned.has(reason)) {
    warned.add(reason);
    process.emitWarning(`${reason}: this server is node:http's, not llhttp-napi/server's`,
      { code: 'LLHTTP_NAPI_SERVER_FALLBACK' });
  }
  return true;
}

// A server that is node:http's, its Express app (if given) kept on node:http's prototypes.
function nodeServer(create, options, handler) {
  keepOnNodeHttp(typeof options === 'function' ? options : handler);
  return create(options, handler);
}

function createServer(options, handler) {
  if (toNodeHttp(options)) return nodeServer(node.createServer, options, handler);
  return typeof options === 'function' ? new server.Server(options) : new server.Server(options, handler);
}

function createSecureServer(options, handler) {
  if (toNodeHttp(options)) return nodeServer(node.createSecureServer, options, handler);
  if (typeof options === 'function') [options, handler] = [{}, options];
  return new server.SecureServer(options ?? {}, handler);
}

// What http.Server / https.Server become: called or constructed, a server as
// create(); a subclass (class X extends http.Server) is built on this
// package's class, whose prototype it inherits, and so is an ES5-style one
// (util.inherits(X, http.Server), then http.Server.call(this, ...)).
// instanceof holds for this package's servers and node:http's (the fallback).
function front(Ours, NodeClass, create, name) {
  const Front = {
    [name]: function (options, handler) {
      if (new.target === undefined) {
        return ordinaryHasInstance.call(Ours, this) ? server.initializeServer(this, options, handler) : create(options, handler);
      }
      if (new.target === Front) return create(options, handler);
      return Reflect.construct(Ours, [options, handler], new.target);
    },
  }[name];
  Front.prototype = Ours.prototype;
  Object.setPrototypeOf(Front, Object.getPrototypeOf(NodeClass));
  Object.defineProperty(Front, Symbol.hasInstance, {
    value: function hasInstance(value) {
      return ordinaryHasInstance.call(this, value) || (this === Front && ordinaryHasInstance.call(NodeClass, value));
    },
    configurable: true,
  });
  return Front;
}

// `value instanceof NodeClass` is also true for this package's `Ours`
// (NodeClass's subclasses keep the ordinary rule).
function alsoInstances(NodeClass, Ours) {
  Object.defineProperty(NodeClass, Symbol.hasInstance, {
    value: function hasInstance(value) {
      return ordinaryHasInstance.call(this, value) || (this === NodeClass && ordinaryHasInstance.call(Ours, value));
    },
    configurable: true,
  });
}

// What tools put on node:http's prototypes (./node-patches.js) and the
// Express modules loaded (./express.js), taken again as each server is made.
function takeWhatLoaded() {
  takeNodePatches(node.Server, server.Server);
  takeNodePatches(node.SecureServer, server.SecureServer);
  takeNodePatches(http.ServerResponse, ServerResponse);
  takeNodePatches(http.IncomingMessage, ServerRequest);
  adoptLoadedExpress();
}

let installed = false;

function install() {
  if (installed) return;
  installed = true;
  takeWhatLoaded();
  setServerMadeHook(takeWhatLoaded);
  http.createServer = createServer;
  http.Server = front(server.Server, node.Server, createServer, 'Server');
  https.createServer = createSecureServer;
  https.Server = front(server.SecureServer, node.SecureServer, createSecureServer, 'Server');
  alsoInstances(http.IncomingMessage, ServerRequest);
  alsoInstances(http.ServerResponse, ServerResponse);
  alsoInstances(http.OutgoingMessage, ServerResponse);
  // `import { createServer } from 'node:http'` sees these too.
  syncBuiltinESMExports();
}

module.exports = { install };
