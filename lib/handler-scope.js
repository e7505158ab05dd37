'use strict';
// The async context a parser's kOn* handlers run in: the context its
// initialize() was called in, as the built-in's handlers do (async id and
// trigger, the AsyncLocalStorage frame, initialize()'s resource as
// executionAsyncResource(), init, before, after and destroy hooks).
//
// Contract:
// - open(id, resource, asyncType, previous, live, addon) at each
//   initialize() of parser `id` (its native state, ./workspace.js): ends
//   the context the parser had (`previous`, the scope open() returned last
//   time; `live`: not yet closed) and makes the new one (the addon's when
//   `addon`). Returns a scope to pass to run() and close(), or null: then
//   the context is the addon's, made natively with `resource` and entered
//   by the addon around a delivery.
// - adopt(id, resource, previous, live): as open(), for a resource that is
//   itself an AsyncResource made for the parser: its context is the new
//   one (returned as the scope).
// - run(scope, resource, fn, thisArg, arg): fn.call(thisArg, arg) inside a
//   non-null scope of open() made with `resource`; exceptions leave as
//   thrown.
// - close(id, scope): async_hooks' destroy of parser `id`'s context (once).
//
// Which of the two: where no async_hooks init hook listens, nobody sees the
// init of initialize()'s context, and an AsyncResource entered from
// JavaScript gives the handlers the same as the addon's context would, for
// less (no native scope, no call back into JavaScript). AsyncResource's
// constructor refuses an empty type exactly when an init hook listens: that
// is the probe, and its answer is kept (one exception, not one per
// initialize()); from then on every context is the addon's, whose init
// hook gets initialize()'s resource, as the built-in's does.

const { AsyncResource } = require('node:async_hooks');
const workspace = require('./workspace');

// AsyncResource options, one object for every open().
const MANUAL_DESTROY = Object.freeze({ requireManualDestroy: true });

// Whether an init hook was ever seen listening at an open().
let initHooksSeen = false;

// An AsyncResource for a new context, or null once an init hook was seen.
function jsScope() {
  if (initHooksSeen) return null;
  try {
    return new AsyncResource('', MANUAL_DESTROY);
  } catch {
    initHooksSeen = true;
    return null;
  }
}

function open(id, resource, asyncType, previous, live, addon) {
  if (live && previous !== null) previous.emitDestroy();
  const scope = addon ? null : jsScope();
  // (The addon's context, new or none, replaces its previous one: destroyed.)
  if (scope === null) workspace.initAsyncContext(id, resource, asyncType);
  else if (live && previous === null) workspace.destroyAsyncContext(id);
  return scope;
}

function adopt(id, resource, previous, live) {
  if (live) {
    if (previous !== null) previous.emitDestroy();
    else workspace.destroyAsyncContext(id);
  }
  return resource;
}

function close(id, scope) {
  if (scope !== null) scope.emitDestroy();
  else workspace.destroyAsyncContext(id);
}

// runInAsyncScope() takes the async ids and the AsyncLocalStorage frame from
// its receiver's own symbol properties (an AsyncResource's), and makes the
// receiver executionAsyncResource(): applied to initialize()'s resource
// carrying them, handlers see that resource, as the built-in's do.
const runInAsyncScope = AsyncResource.prototype.runInAsyncScope;

function run(scope, resource, fn, thisArg, arg) {
  return runInAsyncScope.call(holder(scope, resource), fn, thisArg, arg);
}

// An AsyncResource's own symbols, read from the first one: its async id's,
// its trigger's, and the rest (the AsyncLocalStorage frame from 24 on). One
// store each in holder(), so that each store sees one key.
let keysRead = false;
let asyncIdKey;
let triggerIdKey;
let otherKeys;

function readKeys(scope) {
  const keys = Object.getOwnPropertySymbols(scope);
  const id = scope.asyncId();
  const trigger = scope.triggerAsyncId();
  asyncIdKey = keys.find((key) => scope[key] === id);
  triggerIdKey = keys.find((key) => key !== asyncIdKey && scope[key] === trigger);
  otherKeys = keys.filter((key) => key !== asyncIdKey && key !== triggerIdKey);
  keysRead = true;
}

// The receiver of run()'s runInAsyncScope(): the resource, given its scope's
// ids (again, if another parser's initialize() with the same resource gave
// it its own since); the scope itself where the resource takes no
// properties (frozen, sealed, a proxy that refuses) or an AsyncResource
// keeps its ids otherwise. (The async id is stored last: a resource that
// refused a store never answers the check above. A refusal throws, this
// module being strict: no Object.isExtensible() per new resource, a call
// into the runtime.)
function holder(scope, resource) {
  if (!keysRead) readKeys(scope);
  if (asyncIdKey === undefined || triggerIdKey === undefined) return scope;
  if (resource[asyncIdKey] === scope[asyncIdKey]) return resource;
  try {
    resource[triggerIdKey] = scope[triggerIdKey];
    for (let i = 0; i < otherKeys.length; i++) resource[otherKeys[i]] = scope[otherKeys[i]];
    resource[asyncIdKey] = scope[asyncIdKey];
  } catch {
    return scope;
  }
  return resource;
}

module.exports = { open, adopt, run, close };
