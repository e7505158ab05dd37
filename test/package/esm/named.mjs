// Imported by test/package/esm.test.js (node test/package/esm/named.mjs): the package's ES
// entry by name (a self-reference through package.json "exports"), with named
// imports; prints what it saw as one JSON line.
import { HTTPParser, install, uninstall, isInstalled, versions, methods, allMethods } from 'llhttp-napi';
import llhttp from 'llhttp-napi';
import * as namespace from 'llhttp-napi';
import { createRequire } from 'node:module';
import http from 'node:http';
import { once } from 'node:events';

const require = createRequire(import.meta.url);
const cjs = require('llhttp-napi');

const result = {
  names: Object.keys(namespace).sort(),
  types: {
    HTTPParser: typeof HTTPParser, install: typeof install, uninstall: typeof uninstall,
    isInstalled: typeof isInstalled, versions: typeof versions, methods: typeof methods,
    allMethods: typeof allMethods,
  },
  versions,
  // One instance: the default export is the CommonJS exports object, and the
  // named exports are its values.
  sameInstance: llhttp === cjs && HTTPParser === cjs.HTTPParser && install === cjs.install &&
    versions === cjs.versions && methods === cjs.methods && allMethods === cjs.allMethods,
  installed: install(),
  isInstalled: isInstalled(),
  sharedState: cjs.isInstalled(),
};

const server = http.createServer((req, res) => res.end(String(req.socket.parser instanceof HTTPParser)));
server.listen(0, '127.0.0.1');
await once(server, 'listening');
const req = http.get({ port: server.address().port, host: '127.0.0.1', agent: false });
let client = null;
req.on('socket', (socket) => { client = socket.parser instanceof HTTPParser; });
const [res] = await once(req, 'response');
let body = '';
for await (const chunk of res) body += chunk;
result.server = body === 'true';
result.client = client;
server.close();
result.uninstalled = uninstall();
console.log(JSON.stringify(result));
