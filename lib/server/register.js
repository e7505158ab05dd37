'use strict';
// Preload entry: `node -r llhttp-napi/server/register app.js` (or `--import`,
// or in NODE_OPTIONS; or `-r llhttp-napi/register` with LLHTTP_NAPI_SERVER=1).
// Every node:http / node:https server the application makes is then
// llhttp-napi/server's (./preload.js). LLHTTP_NAPI_SERVER=0 turns it off.
const { isOff } = require('../env-switch');

if (!isOff(process.env.LLHTTP_NAPI_SERVER)) require('./preload').install();
