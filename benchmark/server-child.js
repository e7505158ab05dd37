'use strict';
// The measured server of benchmark/server.js, one process per server: the
// app of a workload (server-workloads.js) on node:http with the built-in
// parser (--parser=builtin) or on ours (--parser=napi): node:http after
// install(), llhttp-napi/server, or examples/net-server.js, as the workload's
// row says. It speaks common.ipcChild's protocol; its report counts the
// requests answered since the reset, the parser node:http used, and with
// --count the nextTicks and emits (counting costs CPU: a round of its own).
//
//   node benchmark/server-child.js --parser=builtin|napi --workload=NAME [--package=DIR] [--count]

const net = require('node:net');
const path = require('node:path');
const common = require('./common');
const workloads = require('./server-workloads');

const tally = { requests: 0, ticks: 0, emits: 0 };

function countTicksAndEmits() {
  require('node:async_hooks').createHook({ init(id, type) { if (type === 'TickObject') tally.ticks++; } }).enable();
  const EventEmitter = require('node:events');
  const emit = EventEmitter.prototype.emit;
  EventEmitter.prototype.emit = function countedEmit(...args) {
    tally.emits++;
    return emit.apply(this, args);
  };
}

// examples/net-server.js answers each request with one socket.write().
function countedWrite(...args) {
  tally.requests++;
  return net.Socket.prototype.write.apply(this, args);
}

async function createServer({ parser, name, pkg }) {
  const w = workloads.workload(name);
  if (parser === 'napi' && w.ours === 'net') {
    const server = require(path.join(pkg, 'examples', 'net-server.js')).createServer({ keepAliveTimeout: 60000 });
    server.on('connection', (socket) => { socket.write = countedWrite; });
    return { server, seen: () => 'napi' };
  }
  const app = require(path.join(__dirname, 'apps', w.app));
  const handle = await (app.createApp ? app.createApp(name) : app.createHandler(name));
  let seen = null;
  const ours = parser === 'napi' ? require(pkg).HTTPParser : null;
  const counted = (req, res) => {
    tally.requests++;
    if (seen === null) seen = req.socket.parser ? common.whichParser(req.socket.parser, ours) : parser;
    handle(req, res);
  };
  const options = { keepAliveTimeout: 60000 };
  if (parser === 'napi' && w.ours === 'server') {
    return { server: require(common.packageEntry(pkg, './server')).createServer(options, counted), seen: () => 'napi' };
  }
  const unavailable = common.useParser(parser, pkg);
  if (unavailable) throw Object.assign(new Error(unavailable), { unavailable: true });
  const server = require('node:http').createServer(counted);
  server.keepAliveTimeout = options.keepAliveTimeout;
  return { server, seen: () => seen };
}

const { options } = common.parseArgs();
if (options.count) countTicksAndEmits();
createServer({ parser: options.parser, name: options.workload || 'hello', pkg: path.resolve(options.package || common.ROOT) })
  .then(({ server, seen }) => {
    process.on('message', (msg) => {
      if (msg.type === 'reset') {
        tally.requests = tally.ticks = tally.emits = 0;
        process.send({ type: 'reset' });
      } else if (msg.type === 'report') {
        // (The tally is read before sending: sending itself emits and ticks.)
        process.send({ type: 'report', ...tally, parser: seen() });
      } else if (msg.type === 'exit') {
        process.exit(0);
      }
    });
    server.listen(0, '127.0.0.1', () => process.send({ type: 'listening', port: server.address().port }));
  }, (err) => {
    if (!err.unavailable) throw err;
    process.send({ type: 'unavailable', reason: err.message });
  });
