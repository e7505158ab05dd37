'use strict';
// A plain node:http app under test/support/emit-patching-tool.js: two
// keep-alive requests; prints what the tool saw and whether the server was
// llhttp-napi/server's.
const http = require('node:http');
const { Server: OurServer } = require('llhttp-napi/server');

const server = http.createServer((req, res) => res.end('ok'));
server.listen(0, '127.0.0.1', async () => {
  const agent = new http.Agent({ keepAlive: true });
  for (let i = 0; i < 2; i++) {
    await new Promise((resolve, reject) => {
      http.get({ port: server.address().port, host: '127.0.0.1', agent }, (res) => {
        res.resume();
        res.on('end', resolve);
      }).on('error', reject);
    });
  }
  agent.destroy();
  server.close(() => {
    // (The last response's 'close' comes with its connection's.)
    setImmediate(() => process.stdout.write(JSON.stringify({
      ours: OurServer.prototype.isPrototypeOf(server), saw: globalThis.emitPatchingToolSaw,
    })));
  });
});
