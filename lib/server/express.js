'use strict';
// Express apps on llhttp-napi/server. Express gives each request and
// response its app's prototypes (app.request / app.response, set with
// Object.setPrototypeOf when the app handles them), and those chains end in
// Express's shared request / response objects, which inherit from
// node:http's IncomingMessage / ServerResponse prototypes. For an app this
// server serves, the link from the app's chain to Express's shared object
// is moved to a copy of that object (the same property descriptors) whose
// prototype is this server's request / response prototype. Express's shared
// objects, and every app that node:http serves, stay as they were; apps
// mounted in a served app chain through it and follow. docs/server.md, "Express".

const http = require('node:http');
const { ServerRequest } = require('./request');
const { ServerResponse } = require('./response');

// Express's shared object -> (the server's prototype -> the copy on it).
const copies = new WeakMap();

// Is `handler` an Express (4 or 5) application?
function isExpressApp(handler) {
  return typeof handler === 'function' && typeof handler.handle === 'function' &&
    typeof handler.set === 'function' && typeof handler.use === 'function' &&
    isObject(handler.request) && isObject(handler.response);
}

function isObject(value) {
  return value !== null && typeof value === 'object';
}

// Makes `app`'s requests and responses inherit from the classes of a server
// made with `options` (its IncomingMessage / ServerResponse, else ours)
// instead of node:http's. Idempotent; throws when the app's prototypes do
// not lead to node:http's.
function serveExpressApp(app, options) {
  const RequestClass = (options && options.IncomingMessage) || ServerRequest;
  const ResponseClass = (options && options.ServerResponse) || ServerResponse;
  rebase(app.request, http.IncomingMessage.prototype, RequestClass.prototype, 'request');
  rebase(app.response, http.ServerResponse.prototype, ResponseClass.prototype, 'response');
}

// In the chain from `appProto`, the object whose prototype is `nodeProto`
// (Express's shared object) is replaced by its copy on `ourProto`.
function rebase(appProto, nodeProto, ourProto, what) {
  let below = appProto;
  let shared = Object.getPrototypeOf(below);
  while (shared !== null && shared !== ourProto && Object.getPrototypeOf(shared) !== nodeProto) {
    below = shared;
    shared = Object.getPrototypeOf(shared);
  }
  if (shared === null) {
    const err = new TypeError(`llhttp-napi/server: this Express app's ${what} prototype does not lead to node:http's ` +
      '(an app served by another server, or not an Express app)');
    err.code = 'ERR_LLHTTP_NAPI_EXPRESS_APP';
    throw err;
  }
  // (Reached this server's prototype first: rebased already, or mounted in an app that is.)
  if (shared === ourProto) return;
  Object.setPrototypeOf(below, copyOn(shared, ourProto));
}

function copyOn(shared, ourProto) {
  let byBase = copies.get(shared);
  if (byBase === undefined) {
    byBase = new Map();
    copies.set(shared, byBase);
  }
  let copy = byBase.get(ourProto);
  if (copy === undefined) {
    copy = Object.create(ourProto, Object.getOwnPropertyDescriptors(shared));
    byBase.set(ourProto, copy);
  }
  return copy;
}

module.exports = { isExpressApp, serveExpressApp };
