'use strict';
// perf_hooks' 'http' entries for this server's requests, as node:http makes
// them for its own: while some PerformanceObserver observes type 'http',
// each request makes one entry named 'HttpRequest' that spans from its head
// to its response's end, with detail { req: { method, url, headers },
// res: { statusCode, statusMessage, headers } }, handed to those observers
// (docs/server.md, "Observability").
//
// Node makes these entries only from its internals: its observers' list and
// its entry class are private. So the observers of 'http' are noted as they
// call observe() and disconnect() (the methods of PerformanceObserver's
// prototype, wrapped when this module loads: an observer that began to
// observe before that is not seen), and an entry is handed to each through
// the observer's own buffering method (the prototype's symbol named
// kMaybeBuffer, Node 16 on), so that it reaches the observer's callback in
// the same list, order and tick as Node's own entries. Without that symbol
// the entries are not made.

const { PerformanceObserver, PerformanceEntry, performance } = require('node:perf_hooks');
const { inspect } = require('node:util');

const kMaybeBuffer = Object.getOwnPropertySymbols(PerformanceObserver.prototype)
  .find((symbol) => symbol.description === 'kMaybeBuffer');
const kEntry = Symbol('llhttp-napi/server performance entry');

// The observers that asked for 'http' and did not disconnect since.
const httpObservers = new Set();

function asksForHttp(options) {
  if (options === null || typeof options !== 'object') return false;
  return options.type === 'http' || (Array.isArray(options.entryTypes) && options.entryTypes.includes('http'));
}

if (kMaybeBuffer !== undefined) {
  const { observe, disconnect } = PerformanceObserver.prototype;
  Object.defineProperty(PerformanceObserver.prototype, 'observe', {
    value: function observeNoting(options) {
      const result = Reflect.apply(observe, this, arguments);
      if (asksForHttp(options)) httpObservers.add(this);
      return result;
    },
    writable: true,
    configurable: true,
  });
  Object.defineProperty(PerformanceObserver.prototype, 'disconnect', {
    value: function disconnectNoting() {
      httpObservers.delete(this);
      return Reflect.apply(disconnect, this, arguments);
    },
    writable: true,
    configurable: true,
  });
}

// One 'http' entry (an object of PerformanceEntry's class, whose own fields
// are private to Node, so this one carries its values itself: as fields,
// which stand over the prototype's getters).
class HttpEntry {
  name;
  entryType;
  startTime;
  duration;
  detail;

  constructor(name, startTime, duration, detail) {
    this.name = name;
    this.entryType = 'http';
    this.startTime = startTime;
    this.duration = duration;
    this.detail = detail;
  }

  toJSON() {
    return { name: this.name, entryType: this.entryType, startTime: this.startTime, duration: this.duration,
      detail: this.detail };
  }

  [inspect.custom](depth, options) {
    if (depth < 0) return this;
    return `PerformanceEntry ${inspect(this.toJSON(), { ...options, depth: options.depth == null ? null : options.depth - 1 })}`;
  }
}
Object.setPrototypeOf(HttpEntry.prototype, PerformanceEntry.prototype);

// Is some observer waiting for 'http' entries?
function httpObserved() {
  return httpObservers.size !== 0;
}

// A request's entry begins (its response `res` is made).
function startRequestEntry(res, req) {
  res[kEntry] = { startTime: performance.now(), req: { method: req.method, url: req.url, headers: req.headers } };
}

// `res` ended: its request's entry, if one began, goes to the observers.
function finishRequestEntry(res) {
  const started = res[kEntry];
  if (started === undefined) return;
  res[kEntry] = undefined;
  if (httpObservers.size === 0) return;
  const detail = { req: started.req,
    res: { statusCode: res.statusCode, statusMessage: res.statusMessage, headers: res.getHeaders() } };
  const entry = new HttpEntry('HttpRequest', started.startTime, performance.now() - started.startTime, detail);
  for (const observer of httpObservers) observer[kMaybeBuffer](entry);
}

module.exports = { httpObserved, startRequestEntry, finishRequestEntry };
