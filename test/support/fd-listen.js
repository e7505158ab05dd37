'use strict';
// A server that listens on the descriptor it inherited as its fd 3 (as
// systemd's socket activation hands one over), with node:http or
// llhttp-napi/server on the native transport (test/server/listen-given.test.js):
// `node fd-listen.js <face>`, face 'node:http' or 'native'. Over IPC it
// tells ['listening', address(), listening], answers each request with its
// URL and the kind of its socket, and at 'close' closes the server and
// tells ['closed', whether fd 3 is still open, listening].
const fs = require('node:fs');
const http = require('node:http');
const path = require('node:path');
const ours = require(path.join(__dirname, '..', '..', 'lib', 'server'));
const { NativeSocket } = require(path.join(__dirname, '..', '..', 'lib', 'server', 'native-transport'));

const handler = (req, res) => res.end(`${req.url} ${req.socket instanceof NativeSocket ? 'native' : 'net'}`);
const server = process.argv[2] === 'native' ? ours.createServer({ transport: 'native' }, handler) : http.createServer(handler);
server.on('error', (err) => process.send(['error', err.code, err.syscall]));
server.listen({ fd: 3 }, () => process.send(['listening', server.address(), server.listening]));
process.on('message', (m) => {
  if (m !== 'close') return;
  server.close(() => {
    let open = true;
    try {
      fs.fstatSync(3);
    } catch {
      open = false;
    }
    process.send(['closed', open, server.listening]);
    process.disconnect();
  });
});
