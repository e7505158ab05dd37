// Type test of docs/server.md's Fastify recipe: fastifyServerFactory is what
// Fastify's serverFactory option takes (checked by test/server/types.test.js with tsc).
import fastify = require('fastify');
import server = require('llhttp-napi/server');

const app = fastify({ serverFactory: server.fastifyServerFactory, keepAliveTimeout: 10000, http: { headersTimeout: 20000 } });
app.get('/', async () => ({ hello: 'world' }));
const s = app.server;
s.closeIdleConnections();
const headersTimeout: number = s.headersTimeout;

const typed = fastify({
  serverFactory: (handler) => server.createServer((req, res) => handler(req, res)),
});
console.log(headersTimeout, typed.server.requestTimeout);

const secure = fastify({ https: { key: 'k', cert: 'c' }, serverFactory: server.fastifyServerFactory });
const direct: server.SecureServer = server.fastifyServerFactory(() => {}, { https: true });
console.log(secure.server.headersTimeout, direct.maxHeadersCount);
