'use strict';
// A cluster whose one worker listens with node:http or llhttp-napi/server
// on the native transport (test/server/listen-given.test.js):
// `node cluster-listen.js <face> <rr|none> <how>`, face 'node:http' or
// 'native'; how 'close' (the worker's server.close(), then the worker's
// disconnect) or 'disconnect' (the disconnect while it listens). The
// primary prints one JSON line: what each side saw, in order.
const cluster = require('node:cluster');
const http = require('node:http');
const net = require('node:net');
const path = require('node:path');

const [face, policy, how] = process.argv.slice(2);
cluster.schedulingPolicy = policy === 'none' ? cluster.SCHED_NONE : cluster.SCHED_RR;

// One request on a connection of its own, or `count` on one kept alive:
// the bodies, or the error's code.
function get(port, count) {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    let got = '';
    socket.on('data', (d) => { got += d; });
    socket.on('error', (err) => resolve(err.code));
    socket.on('close', () => resolve(Array.from(got.matchAll(/\r\n\r\n(\/\d+ (?:native|net))/g), (m) => m[1])));
    let request = '';
    for (let i = 0; i < count; i++) request += `GET /${i} HTTP/1.1\r\nHost: x\r\n${i === count - 1 ? 'Connection: close\r\n' : ''}\r\n`;
    socket.end(request);
  });
}

if (cluster.isPrimary) {
  const log = [];
  cluster.setupPrimary({ args: process.argv.slice(2) });
  const worker = cluster.fork();
  cluster.on('listening', async (w, address) => {
    log.push(['primary listening', address.addressType, address.address, typeof address.port]);
    log.push(['requests', await get(address.port, 3), await get(address.port, 1)]);
    if (how === 'close') {
      worker.send('close');
      await new Promise((resolve) => worker.on('message', (m) => { if (m[0] === 'closed') resolve(); }));
      log.push(['after close', await get(address.port, 1)]);
    }
    worker.disconnect();
  });
  worker.on('message', (m) => log.push(m));
  worker.on('exit', (code, signal) => {
    log.push(['exit', code, signal, worker.exitedAfterDisconnect]);
    process.stdout.write(`${JSON.stringify(log)}\n`);
  });
} else {
  const ours = require(path.join(__dirname, '..', '..', 'lib', 'server'));
  const { NativeSocket } = require(path.join(__dirname, '..', '..', 'lib', 'server', 'native-transport'));
  const handler = (req, res) => res.end(`${req.url} ${req.socket instanceof NativeSocket ? 'native' : 'net'}`);
  const server = face === 'native' ? ours.createServer({ transport: 'native' }, handler) : http.createServer(handler);
  server.on('close', () => process.send(['worker server close event']));
  server.listen(0, '127.0.0.1', () => {
    const { address, family } = server.address();
    process.send(['worker listening', address, family, server.listening]);
  });
  process.on('message', (m) => {
    if (m === 'close') server.close((err) => process.send(['closed', err ? err.code : null, server.listening]));
  });
}
