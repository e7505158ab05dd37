'use strict';
// Preload entry: `node -r llhttp-napi/register app.js` (or `--import`).
// Installs llhttp-napi into node:http and node:https before the application
// runs. LLHTTP_NAPI=0 turns it off; LLHTTP_NAPI=strict makes a missing native
// addon a startup error instead of a warning and a fallback.
const mode = process.env.LLHTTP_NAPI;
if (mode !== '0' && mode !== 'off' && mode !== 'false') {
  require('./install').install({ strict: mode === 'strict' });
}
