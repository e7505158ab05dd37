'use strict';
// Connection tracking for llhttp-napi parsers on an HTTP server: a JavaScript
// parser cannot join the server's native ConnectionsList, so this module
// keeps a membership beside it (list -> Map<parser, start reported by
// expired()>) and patches ConnectionsList.prototype.{all,idle,active,expired}
// to merge the native answer with ours, with the built-in's semantics of the
// running line. Nothing is done per request: a parser's message start and
// headers state are asked for only when the list is queried. The rules and
// where lines differ: docs/node-http.md, "Connection tracking".

const hooks = require('./parser-hooks');
const { nowMs } = require('./clock');

const lists = new WeakMap();
const patched = new WeakSet();

function startOf(parser) {
  return parser[hooks.messageStart]();
}

// Is `proto` the prototype of Node's native ConnectionsList?
function isConnectionsListPrototype(proto) {
  return proto !== null && proto !== Object.prototype &&
    typeof proto.all === 'function' && typeof proto.idle === 'function' &&
    typeof proto.active === 'function' && typeof proto.expired === 'function' &&
    typeof proto.constructor === 'function' && proto.constructor.name === 'ConnectionsList';
}

function patchPrototype(proto) {
  if (patched.has(proto)) return;
  patched.add(proto);
  const nativeAll = proto.all;
  const nativeIdle = proto.idle;
  const nativeActive = proto.active;
  const nativeExpired = proto.expired;
  if (nativeIdleOf === null) nativeIdleOf = { Ctor: proto.constructor, idle: nativeIdle };

  function all() {
    const result = Reflect.apply(nativeAll, this, []);
    const members = lists.get(this);
    if (members !== undefined) {
      for (const parser of members.keys()) result.push(parser);
    }
    return result;
  }

  function idle() {
    const result = Reflect.apply(nativeIdle, this, []);
    const members = lists.get(this);
    if (members !== undefined) {
      const freshIsIdle = idleBeforeFirstRequest();
      for (const parser of members.keys()) {
        const start = startOf(parser);
        if (start === 0 || (freshIsIdle && !parser[hooks.begunSinceInit]())) result.push(parser);
      }
    }
    return result;
  }

  function active() {
    const result = Reflect.apply(nativeActive, this, []);
    const members = lists.get(this);
    if (members !== undefined) {
      for (const [parser, reported] of members) {
        const start = startOf(parser);
        if (start !== 0 && start !== reported) result.push(parser);
      }
    }
    return result;
  }

  function expired(headersTimeout, requestTimeout) {
    // The native method validates its arguments (a CHECK, as with the
    // built-in) and reports the built-in parsers of the list.
    const result = Reflect.apply(nativeExpired, this, [headersTimeout, requestTimeout]);
    const members = lists.get(this);
    if (members === undefined || members.size === 0) return result;
    // As<Uint32>()->Value(), in milliseconds.
    let headersMs = headersTimeout >>> 0;
    let requestMs = requestTimeout >>> 0;
    if (headersMs === 0 && requestMs === 0) return result;
    if (requestMs > 0 && headersMs > requestMs) {
      const swap = headersMs;
      headersMs = requestMs;
      requestMs = swap;
    }
    const now = nowMs();
    const headersDeadline = headersMs > 0 && now > headersMs ? now - headersMs : 0;
    const requestDeadline = requestMs > 0 && now > requestMs ? now - requestMs : 0;
    if (headersDeadline === 0 && requestDeadline === 0) return result;
    for (const [parser, reported] of members) {
      const start = startOf(parser);
      if (start === 0 || start === reported) continue; // not active
      if ((headersDeadline > 0 && start < headersDeadline && !parser[hooks.headersCompleted]()) ||
          (requestDeadline > 0 && start < requestDeadline)) {
        result.push(parser);
        // Erased from "active": reported once per message.
        members.set(parser, start);
      }
    }
    return result;
  }

  for (const [name, fn] of [['all', all], ['idle', idle], ['active', active], ['expired', expired]]) {
    const desc = Object.getOwnPropertyDescriptor(proto, name);
    Object.defineProperty(proto, name, {
      value: fn,
      writable: desc ? desc.writable : true,
      enumerable: desc ? desc.enumerable : false,
      configurable: desc ? desc.configurable : true,
    });
  }
}

// Does the built-in's ConnectionsList call a connection that has not begun a
// request idle? Measured once, on a list of its own and a built-in parser
// (before the prototype is patched, or through the native method).
let freshIdle = null;
let nativeIdleOf = null;
function idleBeforeFirstRequest() {
  if (freshIdle !== null) return freshIdle;
  if (nativeIdleOf === null) return false; // no ConnectionsList seen yet
  const { HTTPParser: Builtin } = require('_http_common');
  const list = new nativeIdleOf.Ctor();
  const parser = new Builtin();
  try {
    parser.initialize(Builtin.REQUEST, {}, 0, 0, list);
    freshIdle = Reflect.apply(nativeIdleOf.idle, list, []).length === 1;
  } finally {
    parser.remove();
    parser.close();
  }
  return freshIdle;
}

// Makes the JS-side list know about a ConnectionsList (patching its prototype
// on first sight). Returns false for something that is not a ConnectionsList.
function adopt(list) {
  if (lists.has(list)) return true;
  if (list === null || typeof list !== 'object') return false;
  const proto = Object.getPrototypeOf(list);
  if (!patched.has(proto)) {
    if (!isConnectionsListPrototype(proto)) return false;
    patchPrototype(proto);
  }
  lists.set(list, new Map());
  return true;
}

// initialize(..., list): joins `list` (the parser left any earlier one).
// Returns whether the parser is now in a ConnectionsList (the parser keeps
// which, and starts its message clock, as the built-in does).
function track(parser, list) {
  if (!adopt(list)) return false;
  lists.get(list).set(parser, 0);
  return true;
}

// remove() / close(): `parser` leaves `list`.
function untrack(parser, list) {
  const members = lists.get(list);
  if (members !== undefined) members.delete(parser);
}

module.exports = { track, untrack, nowMs, idleBeforeFirstRequest };
