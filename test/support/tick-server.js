'use strict';
// A hello-world node:http server that counts its own nextTicks (async_hooks
// TickObject inits, by callback name) and emits (by emitter:event) over a
// window of requests, for test/install/tick-budget.test.js.
//
//   node test/support/tick-server.js <builtin|incoming:false|install()> <warmup> <count>
//
// Prints {"port": N} once listening, then, when request warmup + count
// arrives, one JSON line with the counts over the window from request
// `warmup`'s handler to request `warmup + count`'s handler: exactly `count`
// request cycles of this process. The client lives in another process, so
// none of its ticks are counted; nothing else (no IPC, no timers that tick)
// runs in this process meanwhile.
const path = require('node:path');
const { createHook } = require('node:async_hooks');
const EventEmitter = require('node:events');

const [mode, warmupArg, countArg] = process.argv.slice(2);
const warmup = Number(warmupArg);
const count = Number(countArg);
const llhttp = require(path.resolve(__dirname, '..', '..'));
if (mode === 'incoming:false') llhttp.install({ incoming: false });
else if (mode === 'install()') llhttp.install();
else if (mode !== 'builtin') throw new Error(`unknown mode ${mode}`);

let counting = false;
let ticks = 0;
let emits = 0;
const tickNames = Object.create(null);
const emitNames = Object.create(null);

createHook({
  init(asyncId, type, triggerAsyncId, resource) {
    if (!counting || type !== 'TickObject') return;
    ticks++;
    const name = (resource.callback && resource.callback.name) || '(anonymous)';
    tickNames[name] = (tickNames[name] || 0) + 1;
  },
}).enable();

const emit = EventEmitter.prototype.emit;
EventEmitter.prototype.emit = function countedEmit(type, ...args) {
  if (counting) {
    emits++;
    const name = `${this.constructor && this.constructor.name}:${String(type)}`;
    emitNames[name] = (emitNames[name] || 0) + 1;
  }
  return Reflect.apply(emit, this, [type, ...args]);
};

const http = require('node:http');

let requests = 0;
const server = http.createServer((req, res) => {
  requests++;
  if (requests === warmup) {
    counting = true;
  } else if (requests === warmup + count) {
    counting = false;
    const parser = req.socket.parser;
    process.stdout.write(JSON.stringify({
      mode,
      ours: Boolean(parser && typeof parser.getAllHeaders === 'function'),
      incomingPatched: require(path.resolve(__dirname, '..', '..', 'lib', 'incoming')).isPatched(),
      ticks, emits, tickNames, emitNames,
    }) + '\n');
  }
  res.writeHead(200, { 'Content-Type': 'text/plain', 'Content-Length': 11 });
  res.end('Hello World');
});
server.keepAliveTimeout = 60000;
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(JSON.stringify({ port: server.address().port }) + '\n');
});
process.stdin.on('end', () => process.exit(0)).resume();
