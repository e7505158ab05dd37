// Type test of llhttp-napi/server's ES module form (lib/server/index.d.mts through "exports"
// → "./server" → "import" → "types"): checked by test/package/packaging.test.js with tsc.
import { createServer, Server, SecureServer, fastifyServerFactory } from 'llhttp-napi/server';
import type { ServerRequest, ServerResponse, ServerOptions } from 'llhttp-napi/server';
import server from 'llhttp-napi/server';
import * as ns from 'llhttp-napi/server';
const options: ServerOptions = { requestTimeout: 0, joinDuplicateHeaders: true };
const handler = (req: ServerRequest, res: ServerResponse): void => { res.end(req.getHeader('x') ?? req.url); };
const s: Server = new Server(options, handler);
const same: boolean = server.createServer === createServer && ns.Server === Server && ns.SecureServer === SecureServer;
const either: Server | SecureServer = fastifyServerFactory(handler, { keepAliveTimeout: 72000 });
console.log(s.headersTimeout, same, either.listening);
// @ts-expect-error: not an export
import { nothing } from 'llhttp-napi/server';
