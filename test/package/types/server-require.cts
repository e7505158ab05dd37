// Type test of llhttp-napi/server's CommonJS form (lib/server/index.d.ts through "exports"
// → "./server" → "require" → "types"): checked by test/package/packaging.test.js with tsc.
import server = require('llhttp-napi/server');
const s: server.Server = server.createServer({ headersTimeout: 1000 }, (req, res) => {
  const host: string | undefined = req.getHeader('host');
  res.setHeader('content-type', 'text/plain');
  res.end(host ?? '', () => {});
});
s.keepAliveTimeout = 5000;
s.closeIdleConnections();
s.listen(0, () => s.close());
const factory: typeof server.fastifyServerFactory = server.fastifyServerFactory;
// @ts-expect-error: the request is node:http's IncomingMessage with getHeader(), nothing else
server.createServer((req) => req.notAMethod());
console.log(factory.length);
