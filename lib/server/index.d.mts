// Types of the ES module entry of llhttp-napi/server (./index.mjs): the same
// names as the CommonJS entry, plus the default export (its exports object).
import * as server from './index.js';

export * from './index.js';
export default server;
