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
// mounted in a served app chain through it and follow.
//
// While the app is the server's only 'request' listener, the loop makes its
// requests and responses with those prototypes already (expressMakers()):
// Express's Object.setPrototypeOf then finds them set and does nothing,
// where a real change of prototype has V8 rebuild the object's map, on each
// request twice. docs/server.md, "Express".

const http = require('node:http');
const { ServerRequest } = require('./request');
const { ServerResponse } = require('./response');
const { kExpressMakers } = require('./seam');

// Express's shared object -> (the server's prototype -> the copy on it),
// and each copy -> the shared object it copies.
const copies = new WeakMap();
const originals = new WeakMap();

// node:http's own symbol for a response's header store, found on an
// OutgoingMessage: the `cookies` package (cookie-session) calls
// http.OutgoingMessage.prototype.setHeader on an Express response, which
// stores there. Our store (lowercase name -> [name, value]) has that shape.
const kNodeOutHeaders = Object.getOwnPropertySymbols(new http.OutgoingMessage())
  .find((symbol) => symbol.description === 'kOutHeaders');

// What middleware written for Express reads of node:http's response besides
// its public API: the head once made (`_header`: compression, on-headers
// users), the header store above, and (26 on) whether that setHeader()
// accepts obs-text values: this server's setHeader() does not.
const responseExtras = {
  _header: { get() { return this._head; }, configurable: true },
  _isLenientHeaderValidation: { value: function _isLenientHeaderValidation() { return false; }, configurable: true },
};
if (kNodeOutHeaders !== undefined) {
  responseExtras[kNodeOutHeaders] = {
    get() { return this._outHeaders; },
    set(value) { this._outHeaders = value; },
    configurable: true,
  };
}

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
// not lead to node:http's. Returns the makers of the app's messages on the
// server (seam.js, kExpressMakers).
function serveExpressApp(app, options) {
  const RequestClass = (options && options.IncomingMessage) || ServerRequest;
  const ResponseClass = (options && options.ServerResponse) || ServerResponse;
  rebase(app.request, http.IncomingMessage.prototype, RequestClass.prototype, null);
  rebase(app.response, http.ServerResponse.prototype, ResponseClass.prototype, responseExtras);
  return messageMakers(app, RequestClass, ResponseClass);
}

// What the loop makes `app`'s requests and responses with (once per server):
// the server's classes constructed with new.target a function whose
// prototype is the app's. (Constants of a closure: an optimized loop inlines
// the constructors as it does `new RequestClass()`.)
function messageMakers(app, RequestClass, ResponseClass) {
  const requestTarget = targetWith(app.request);
  const responseTarget = targetWith(app.response);
  return {
    app,
    // (A rest parameter, not an array literal: TurboFan makes Reflect.construct
    // of it a plain construct, which it inlines.)
    request: (...args) => Reflect.construct(RequestClass, args, requestTarget),
    response: (...args) => Reflect.construct(ResponseClass, args, responseTarget),
  };
}

// A constructor that is only ever new.target: the object a class constructs
// with it has `prototype` as its prototype.
function targetWith(prototype) {
  function ExpressAppMessage() {}
  ExpressAppMessage.prototype = prototype;
  return ExpressAppMessage;
}

// The makers of `server`'s Express app's messages while the app is its only
// 'request' listener, else null (a listener added before it, or in its
// place, sees the server's own prototypes, as on node:http).
function expressMakers(server) {
  const makers = server[kExpressMakers];
  if (makers === undefined || server.listenerCount('request') !== 1) return null;
  return server.listenerCount('request', makers.app) === 1 ? makers : null;
}

// In the chain from `appProto`, the link to Express's shared object is moved
// to its copy on `ourProto`, which has `extras` (property descriptors)
// besides. A chain that reaches a copy (rebased already, or an app mounted in
// one that is) has the copy take what was added to Express's shared object
// since it was made (express.request.foo = ... before this server was made).
// A chain through a shared object the preload adopted onto `ourProto` is left
// as it is.
function rebase(appProto, nodeProto, ourProto, extras) {
  let below = appProto;
  let next = Object.getPrototypeOf(below);
  while (next !== null) {
    const shared = originals.get(next);
    if (shared !== undefined) {
      if (Object.getPrototypeOf(next) === ourProto) Object.defineProperties(next, Object.getOwnPropertyDescriptors(shared));
      else Object.setPrototypeOf(below, copyOn(shared, ourProto, extras));
      return;
    }
    if (adopted.has(next) && Object.getPrototypeOf(next) === adoptedBase(ourProto, extras)) return;
    if (adopted.has(next) || Object.getPrototypeOf(next) === nodeProto) {
      Object.setPrototypeOf(below, copyOn(next, ourProto, extras));
      return;
    }
    below = next;
    next = Object.getPrototypeOf(next);
  }
  const what = nodeProto === http.IncomingMessage.prototype ? 'request' : 'response';
  const err = new TypeError(`llhttp-napi/server: this Express app's ${what} prototype leads neither to node:http's ` +
    'nor to this server\'s');
  err.code = 'ERR_LLHTTP_NAPI_EXPRESS_APP';
  throw err;
}

// The copy of `shared` on `ourProto` (made once), as `shared` is now.
function copyOn(shared, ourProto, extras) {
  let byBase = copies.get(shared);
  if (byBase === undefined) {
    byBase = new Map();
    copies.set(shared, byBase);
  }
  let copy = byBase.get(ourProto);
  if (copy === undefined) {
    copy = Object.create(ourProto, Object.getOwnPropertyDescriptors(shared));
    if (extras !== null) Object.defineProperties(copy, extras);
    byBase.set(ourProto, copy);
    originals.set(copy, shared);
  } else {
    Object.defineProperties(copy, Object.getOwnPropertyDescriptors(shared));
  }
  return copy;
}

// ---- the server preload: Express's shared objects on this server's prototypes ----
//
// Under the preload every server the process makes is this package's but
// the few that fall back to node:http. There an Express app that no server
// is given, only called by a served app as a plain handler (vhost(host,
// app), (req, res) => app(req, res)), still hands this server's requests
// and responses to node:http's methods. So the preload moves each loaded
// Express's shared request and response themselves onto this server's
// prototypes (adoptLoadedExpress(), at each server made or listening), and a
// server that falls back to node:http keeps its app on node:http's
// (keepOnNodeHttp()).

// Express's shared objects moved so, and the base each response one now has.
const adopted = new WeakSet();
const adoptedBases = new Map();

// What an adopted shared object inherits from for `ourProto`: `ourProto`, or
// one object over it with `extras`, so that the shared object's own
// properties stay Express's alone (a copy of it onto node:http's prototype
// never takes them).
function adoptedBase(ourProto, extras) {
  if (extras === null) return ourProto;
  let base = adoptedBases.get(ourProto);
  if (base === undefined) {
    base = Object.create(ourProto, extras);
    adoptedBases.set(ourProto, base);
  }
  return base;
}

// Is `exports` Express's main module (4 or 5), its shared objects still node:http's?
function isExpressModule(exports) {
  return typeof exports === 'function' && isObject(exports.application) &&
    isObject(exports.request) && Object.getPrototypeOf(exports.request) === http.IncomingMessage.prototype &&
    isObject(exports.response) && Object.getPrototypeOf(exports.response) === http.ServerResponse.prototype;
}

// Every Express loaded so far (the CommonJS module cache, where ES modules'
// imports of Express are too) has its shared request and response inherit
// from this server's. Cheap when there is none: one pass over the cache.
function adoptLoadedExpress() {
  for (const id of Object.keys(require.cache)) {
    const exports = require.cache[id]?.exports;
    if (!isExpressModule(exports)) continue;
    Object.setPrototypeOf(exports.request, adoptedBase(ServerRequest.prototype, null));
    Object.setPrototypeOf(exports.response, adoptedBase(ServerResponse.prototype, responseExtras));
    adopted.add(exports.request);
    adopted.add(exports.response);
  }
}

// For a server that is node:http's under the preload: `handler`, if an
// Express app, keeps node:http's prototypes whatever becomes of Express's
// shared objects (its chain is moved to copies of them on node:http's).
function keepOnNodeHttp(handler) {
  if (!isExpressApp(handler)) return;
  rebase(handler.request, http.IncomingMessage.prototype, http.IncomingMessage.prototype, null);
  rebase(handler.response, http.ServerResponse.prototype, http.ServerResponse.prototype, null);
}

// prepareExpressApp(app): what createServer(app) does to the app it is
// given, for an app a served app calls as a plain handler instead of
// mounting it (vhost(host, otherApp)). Returns the app.
function prepareExpressApp(app, options) {
  if (!isExpressApp(app)) throw new TypeError('llhttp-napi/server: prepareExpressApp() takes an Express app');
  serveExpressApp(app, options);
  return app;
}

module.exports = {
  isExpressApp, serveExpressApp, prepareExpressApp, expressMakers,
  adoptLoadedExpress, keepOnNodeHttp,
};
