// ES module entry of llhttp-napi/server (package.json "exports" → "./server"):
//
//   import { createServer, fastifyServerFactory } from 'llhttp-napi/server';
//
// One instance: everything comes from the CommonJS entry (./index.js).
import server from './index.js';

export const { createServer, listen, prepareExpressApp, Server, SecureServer, fastifyServerFactory,
  IncomingMessage, ServerResponse } = server;
export default server;
