'use strict';
// Preload entry: `node -r llhttp-napi/register app.js` (or `--import`).
// Installs llhttp-napi into node:http and node:https before the application
// runs. LLHTTP_NAPI=0 turns it off; LLHTTP_NAPI=strict makes a missing native
// addon a startup error instead of a warning and a fallback.
// LLHTTP_NAPI_INCOMING=0 leaves IncomingMessage alone (install({ incoming: false })).
// LLHTTP_NAPI_SERVER=1 also makes every server llhttp-napi/server's
// (llhttp-napi/server/register).
const { isOff, isOn } = require('./env-switch');

const mode = process.env.LLHTTP_NAPI;
if (!isOff(mode)) {
  require('./install').install({
    strict: mode === 'strict',
    incoming: !isOff(process.env.LLHTTP_NAPI_INCOMING),
  });
}
if (isOn(process.env.LLHTTP_NAPI_SERVER)) require('./server/register');
