'use strict';
// Preload entry: `node -r llhttp-napi/register app.js` (or `--import`).
// Installs llhttp-napi into node:http and node:https before the application
// runs. LLHTTP_NAPI=0 turns it off; LLHTTP_NAPI=strict makes a missing native
// addon a startup error instead of a warning and a fallback.
// LLHTTP_NAPI_INCOMING=0 leaves IncomingMessage alone (install({ incoming: false })).
const mode = process.env.LLHTTP_NAPI;
if (mode !== '0' && mode !== 'off' && mode !== 'false') {
  const incoming = process.env.LLHTTP_NAPI_INCOMING;
  require('./install').install({
    strict: mode === 'strict',
    incoming: incoming !== '0' && incoming !== 'off' && incoming !== 'false',
  });
}
