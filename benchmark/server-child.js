'use strict';
// The measured server of benchmark/server.js, one child process per server:
// a node:http server with the built-in parser (--parser=builtin) or with
// llhttp-napi's install() (--parser=napi), answering one workload of
// server-workloads.js; for the net-echo workload, --parser=napi is instead
// examples/net-server.js (our parser driven directly on node:net) and
// --parser=builtin a node:http server giving the same JSON echo. It speaks
// the protocol of processes.js; its report adds body chunks and bytes, the
// parser it saw, and with --count the nextTicks and emits (by name) since the
// reset.
//
//   node benchmark/server-child.js --parser=builtin|napi --workload=NAME [--package=DIR] [--count]

const net = require('node:net');
const path = require('node:path');
const common = require('./common');
const workloads = require('./server-workloads');

function counters(enabled) {
  const c = { ticks: 0, emits: 0, tickNames: new Map(), emitNames: new Map() };
  if (!enabled) return c;
  // By tick callback name and by event name, to tell where two runs differ.
  const add = (map, key) => map.set(key, (map.get(key) || 0) + 1);
  require('node:async_hooks').createHook({
    init(id, type, trigger, resource) {
      if (type !== 'TickObject') return;
      c.ticks++;
      add(c.tickNames, (resource && resource.callback && resource.callback.name) || '(anonymous)');
    },
  }).enable();
  const EventEmitter = require('node:events');
  const emit = EventEmitter.prototype.emit;
  EventEmitter.prototype.emit = function countedEmit(...args) {
    c.emits++;
    add(c.emitNames, `${this.constructor && this.constructor.name}:${String(args[0])}`);
    return emit.apply(this, args);
  };
  return c;
}

// examples/net-server.js writes each response with one socket.write() (its
// header says so): counting those counts the requests it answered.
const kTally = Symbol('tally');
function countedWrite(...args) {
  this[kTally].requests++;
  return net.Socket.prototype.write.apply(this, args);
}

// The example's server, each of its sockets counting its writes.
function netExampleServer(pkg, tally) {
  const server = require(path.join(pkg, 'examples', 'net-server.js')).createServer({ keepAliveTimeout: 60000 });
  server.on('connection', (socket) => {
    socket[kTally] = tally;
    socket.write = countedWrite;
  });
  return server;
}

function httpServer(handle, ours) {
  const http = require('node:http');
  let seen = null;
  const server = http.createServer((req, res) => {
    if (seen === null) seen = common.whichParser(req.socket.parser, ours);
    handle(req, res);
  });
  server.keepAliveTimeout = 60000;
  server.parserSeen = () => seen;
  return server;
}

function main({ parser, workload, count, pkg }) {
  const send = (msg) => process.send(msg);
  const netExample = workload === 'net-echo' && parser === 'napi';
  const unavailable = netExample ? null : common.useParser(parser, pkg);
  if (unavailable) {
    send({ type: 'unavailable', reason: unavailable });
    return;
  }
  const tally = { requests: 0, chunks: 0, bytes: 0 };
  const c = counters(count);
  let server;
  let ready = null;
  if (netExample) {
    server = netExampleServer(pkg, tally);
    server.parserSeen = () => 'napi';
  } else {
    const handle = workloads.handler(workload, tally);
    // (A workload whose app is set up asynchronously says when it is ready.)
    ready = handle.ready;
    server = httpServer(handle, parser === 'napi' ? require(pkg).HTTPParser : null);
  }
  let windowStart = process.hrtime.bigint();
  process.on('message', (msg) => {
    if (msg.type === 'reset') {
      tally.requests = tally.chunks = tally.bytes = 0;
      Object.assign(c, { ticks: 0, emits: 0, tickNames: new Map(), emitNames: new Map() });
      windowStart = process.hrtime.bigint();
      send({ type: 'reset' });
    } else if (msg.type === 'report') {
      // Read the counters before sending: sending itself emits and ticks.
      // The window in µs of the monotonic clock, the clock of V8's CPU profiles (see server-profile.js).
      const window = [Number(windowStart / 1000n), Number(process.hrtime.bigint() / 1000n)];
      send({ type: 'report', requests: tally.requests, chunks: tally.chunks, bytes: tally.bytes, ticks: c.ticks,
        emits: c.emits, window, parser: server.parserSeen(), tickNames: Object.fromEntries(c.tickNames),
        emitNames: Object.fromEntries(c.emitNames) });
    } else if (msg.type === 'exit') {
      process.exit(0);
    }
  });
  Promise.resolve(ready).then(() => {
    server.listen(0, '127.0.0.1', () => send({ type: 'listening', port: server.address().port }));
  });
}

const { options } = common.parseArgs();
main({ parser: options.parser, workload: options.workload || 'hello', count: Boolean(options.count),
  pkg: path.resolve(options.package || common.ROOT) });
