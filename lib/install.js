'use strict';
// install() / uninstall() / isInstalled(): makes node:http and node:https
// parse with llhttp-napi.
//
// Node's lib takes every HTTP parser (server requests and client responses)
// from one pool, the `parsers` FreeList exported by `_http_common`; its
// constructor makes a built-in parser and sets the four module-private
// callbacks. install() swaps that constructor for one that makes our parser
// with the same callbacks (copied from one parser made by the original
// constructor) and sets the pooled built-in parsers aside. _http_server and
// _http_client keep a reference to that same FreeList object, so this works
// whether node:http was loaded before or after install(). uninstall() puts
// the original constructor and the pooled built-in parsers back.
//
// Connection tracking (closeAllConnections, closeIdleConnections,
// headersTimeout, requestTimeout) for our parsers is in ./connections.js.
//
// options.incoming (default true) also puts the IncomingMessage fast paths
// of ./incoming.js in place (fast dump, one-tick clean destroy) on the lines
// whose IncomingMessage lacks them (before 24.22: lib/node-line.js fastIncoming);
// uninstall() takes them off.

let installed = false;
let warned = false;
let loadError = null;
let Parser = null;
let common = null;
let origCtor = null;
let ourCtor = null;
let template = null; // own properties a fresh pooled parser carries
const stash = []; // the pooled built-in parsers while installed

const ownHasInstance = Function.prototype[Symbol.hasInstance];

function loadParser() {
  if (Parser !== null) return Parser;
  if (loadError !== null) return null;
  try {
    Parser = require('./parser').HTTPParser;
    return Parser;
  } catch (err) {
    loadError = err;
    return null;
  }
}

function warnFallback(err) {
  if (warned) return;
  warned = true;
  const reason = err && err.message ? err.message.split('\n')[0] : String(err);
  process.emitWarning(
    `llhttp-napi could not load its native addon (${reason}); ` +
    'node:http keeps using the built-in HTTP parser.',
    { code: 'LLHTTP_NAPI_FALLBACK' });
}

function validateOptions(options) {
  if (options === undefined || options === null) return {};
  if (typeof options !== 'object') {
    throw new TypeError('llhttp-napi: install(options): options must be an object');
  }
  for (const key of ['warn', 'strict', 'incoming']) {
    if (options[key] !== undefined && typeof options[key] !== 'boolean') {
      throw new TypeError(`llhttp-napi: install(options): options.${key} must be a boolean`);
    }
  }
  return options;
}

function isOurs(parser) {
  return Parser !== null && ownHasInstance.call(Parser, parser);
}

// Takes what the original pool constructor puts on a parser: the cleaned
// fields and the four private callbacks of _http_common.
function captureTemplate() {
  const sample = Reflect.apply(origCtor, common.parsers, []);
  const props = [];
  for (const key of Reflect.ownKeys(sample)) {
    if (typeof key === 'symbol') continue; // async_hooks resource symbol
    props.push([key, sample[key]]);
  }
  sample.close();
  return props;
}

function makeCtor() {
  const props = template;
  return function llhttpNapiParser() {
    const parser = new Parser();
    for (let i = 0; i < props.length; i++) {
      const entry = props[i];
      parser[entry[0]] = Array.isArray(entry[1]) ? [] : entry[1];
    }
    return parser;
  };
}

// parsers.free() is patched once: while installed, a built-in parser coming
// back from a connection that began before install() is not pooled (lib then
// closes it, as for a full pool), and after uninstall() ours are not either,
// so that every new connection gets the parser of the current mode.
function patchFree(parsers) {
  if (Object.prototype.hasOwnProperty.call(parsers, 'free')) return;
  const originalFree = parsers.free;
  Object.defineProperty(parsers, 'free', {
    value: function free(parser) {
      if (isOurs(parser) !== installed) return false;
      return Reflect.apply(originalFree, this, [parser]);
    },
    writable: true,
    configurable: true,
    enumerable: false,
  });
}

// internal/child_process checks `socket.parser instanceof HTTPParser` (the
// built-in class, looked up lazily) before sending a server socket to a
// child: our parsers must pass that check too.
function patchInstanceof(NativeParser) {
  if (Object.prototype.hasOwnProperty.call(NativeParser, Symbol.hasInstance)) return;
  Object.defineProperty(NativeParser, Symbol.hasInstance, {
    value: function hasInstance(value) {
      return ownHasInstance.call(this, value) || (this === NativeParser && isOurs(value));
    },
    configurable: true,
    writable: true,
    enumerable: false,
  });
}

function install(options) {
  const opts = validateOptions(options);
  if (installed) return true;
  if (loadParser() === null) {
    if (opts.strict) throw loadError;
    if (opts.warn !== false) warnFallback(loadError);
    return false;
  }
  if (common === null) {
    common = require('_http_common');
    origCtor = common.parsers.ctor;
    template = captureTemplate();
    ourCtor = makeCtor();
  }
  const parsers = common.parsers;
  patchFree(parsers);
  patchInstanceof(common.HTTPParser);
  // Built-in parsers pooled so far wait for uninstall().
  const list = parsers.list;
  for (let i = 0; i < list.length; i++) {
    if (isOurs(list[i])) list[i].close();
    else stash.push(list[i]);
  }
  list.length = 0;
  parsers.ctor = ourCtor;
  if (opts.incoming !== false && !require('./node-line').fastIncoming) require('./incoming').patch();
  installed = true;
  return true;
}

function uninstall() {
  if (!installed) return false;
  const parsers = common.parsers;
  const list = parsers.list;
  for (let i = 0; i < list.length; i++) {
    if (isOurs(list[i])) list[i].close();
  }
  list.length = 0;
  for (let i = 0; i < stash.length && list.length < parsers.max; i++) list.push(stash[i]);
  stash.length = 0;
  if (parsers.ctor === ourCtor) parsers.ctor = origCtor;
  require('./incoming').unpatch();
  installed = false;
  return true;
}

function isInstalled() {
  return installed;
}

module.exports = { install, uninstall, isInstalled };
