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
const rules = require('./connection-rules');

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
      for (const parser of members.keys()) {
        if (rules.isIdle(startOf(parser) === 0, parser[hooks.begunSinceInit]())) result.push(parser);
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
    const deadlines = rules.timeoutDeadlines(headersTimeout, requestTimeout);
    if (deadlines === null) return result;
    for (const [parser, reported] of members) {
      const start = startOf(parser);
      if (start === 0 || start === reported) continue; // not active
      if (rules.hasTimedOut(start, parser[hooks.headersCompleted](), deadlines.headers, deadlines.request)) {
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

// (nowMs: until lib/server/ takes it from ./clock.)
module.exports = { track, untrack, nowMs };
