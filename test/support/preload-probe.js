'use strict';
// Run by test/server/preload.test.js in a child process, with and without
// the server preload: what a node:http program can see of its servers,
// printed as JSON. `ours` says which were llhttp-napi/server's.
const http = require('node:http');
const https = require('node:https');
const ours = require('../../lib/server');

const isOurs = (server) => server instanceof ours.Server || server instanceof ours.SecureServer;

class Custom extends http.IncomingMessage {}

// A subclass as pre-class code makes one.
function Es5Server() {
  http.Server.call(this, () => {});
}
require('node:util').inherits(Es5Server, http.Server);

function made() {
  const servers = {
    createServer: http.createServer(),
    createServerHandlerFirst: http.createServer(() => {}),
    newServer: new http.Server(),
    callServer: http.Server(),
    httpsCreateServer: https.createServer(),
    newHttpsServer: new https.Server(),
    callHttpsServer: https.Server(),
    subclass: new (class extends http.Server {})(),
    es5Subclass: new Es5Server(),
    optedOut: http.createServer({ llhttpNapi: false }),
    nodeIncomingMessage: http.createServer({ IncomingMessage: Custom }),
    nodeIncomingMessageAgain: http.createServer({ IncomingMessage: Custom }),
  };
  const out = {};
  for (const [name, server] of Object.entries(servers)) {
    const secure = name.toLowerCase().includes('https');
    out[name] = { ours: isOurs(server), instance: server instanceof (secure ? https.Server : http.Server) };
  }
  return out;
}

async function request() {
  const seen = {};
  const server = http.createServer((req, res) => {
    seen.ours = isOurs(server);
    seen.request = req instanceof http.IncomingMessage;
    seen.response = res instanceof http.ServerResponse;
    seen.requestNotResponse = req instanceof http.ServerResponse;
    res.end('ok');
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  await new Promise((resolve, reject) => {
    http.get({ port: server.address().port, host: '127.0.0.1' }, (res) => {
      seen.clientResponse = res instanceof http.IncomingMessage;
      res.resume().on('end', resolve);
    }).on('error', reject);
  });
  server.close();
  return seen;
}

(async () => {
  const warnings = [];
  process.on('warning', (w) => warnings.push(w.code));
  const result = { made: made(), request: await request() };
  await new Promise((resolve) => setImmediate(resolve));
  result.warnings = warnings;
  console.log(JSON.stringify(result));
})();
