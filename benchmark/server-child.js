'use strict';
// The measured server of benchmark/server.js, one process per server: the
// app of a workload (server-workloads.js) on node:http with the built-in
// parser (--parser=builtin) or on ours (--parser=napi): node:http after
// install(), llhttp-napi/server, or examples/net-server.js, as the workload's
// row says. It answers common.answerIpc; its report counts the requests
// answered since the reset, the parser node:http used, and with --count the
// nextTicks and emits (counting costs CPU: a round of its own).
//
//   node benchmark/server-child.js --parser=builtin|napi --workload=NAME [--count]

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

// { server, seen() }: the server of `name` for `parser`, and which parser it used.
async function createServer(parser, name) {
  const w = workloads.workload(name);
  if (parser === 'napi' && w.ours === 'net') {
    const server = require(path.join(common.ROOT, 'examples', 'net-server.js')).createServer({ keepAliveTimeout: 60000 });
    server.on('connection', (socket) => { socket.write = countedWrite; });
    return { server, seen: () => 'napi' };
  }
  const handle = await workloads.handler(name);
  let seen = null;
  const ours = parser === 'napi' ? require('llhttp-napi').HTTPParser : null;
  const counted = (req, res) => {
    tally.requests++;
    if (seen === null) seen = req.socket.parser ? common.whichParser(req.socket.parser, ours) : parser;
    handle(req, res);
  };
  if (parser === 'napi' && w.ours === 'server') {
    return { server: require('llhttp-napi/server').createServer({ keepAliveTimeout: 60000 }, counted), seen: () => 'napi' };
  }
  const unavailable = common.useParser(parser);
  if (unavailable) throw Object.assign(new Error(unavailable), { unavailable: true });
  const server = require('node:http').createServer(counted);
  server.keepAliveTimeout = 60000;
  return { server, seen: () => seen };
}

const { option } = common.parseArgs();
if (option('count')) countTicksAndEmits();
createServer(option('parser'), option('workload', 'hello')).then(({ server, seen }) => {
  common.answerIpc(tally, () => ({ parser: seen() }));
  server.listen(0, '127.0.0.1', () => process.send({ type: 'listening', port: server.address().port }));
}, (err) => {
  if (!err.unavailable) throw err;
  process.send({ type: 'unavailable', reason: err.message });
});
