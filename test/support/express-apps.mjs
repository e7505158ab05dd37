// Express apps served in every way a program may serve one, run with or
// without the server preload (test/server/preload-express.test.js): an app
// given to createServer, apps only called by a served app as plain handlers
// (as vhost() calls them, and from a plain handler), and an app on a server
// that stays node:http's. Express comes in by an ES module import (the
// preload finds it in the CommonJS module cache all the same). Prints, per
// case, the answer and whether the request was llhttp-napi/server's
// (its ServerRequest's prototype in the request's chain).
import http from 'node:http';
import express from 'express';
import { IncomingMessage as ServerRequest } from 'llhttp-napi/server';

function appSaying(word, app = express()) {
  app.get('/', (req, res) => res.set('x-ours', String(ServerRequest.prototype.isPrototypeOf(req))).send(word));
  return app;
}

const byHost = { 'a.example': appSaying('vhost a'), 'b.example': appSaying('vhost b') };
const outer = express();
outer.use((req, res, next) => {
  const inner = byHost[req.headers.host];
  return inner === undefined ? next() : inner(req, res, next);
});
appSaying('outer', outer);
const called = appSaying('called');
const optedOut = appSaying('opted out');

const servers = {
  given: http.createServer(outer),
  called: http.createServer((req, res) => called(req, res)),
  optedOut: http.createServer({ llhttpNapi: false }, optedOut),
};

function get(server, host) {
  return new Promise((resolve, reject) => {
    const req = http.get({ port: server.address().port, host: '127.0.0.1', headers: { host }, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => { body += chunk; });
      res.on('end', () => resolve({ status: res.statusCode, body, ours: res.headers['x-ours'] }));
    });
    req.on('error', reject);
    req.setTimeout(5000, () => req.destroy(new Error(`no answer from ${host}`)));
  });
}

for (const server of Object.values(servers)) await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const out = {
  given: await get(servers.given, 'example'),
  vhostA: await get(servers.given, 'a.example'),
  vhostB: await get(servers.given, 'b.example'),
  called: await get(servers.called, 'example'),
  optedOut: await get(servers.optedOut, 'example'),
};
for (const server of Object.values(servers)) server.close();
process.stdout.write(JSON.stringify(out));
