'use strict';
// Loads the compiled addon. Exports the addon, or throws with the reason.
const path = require('node:path');

module.exports = require('node-gyp-build')(path.resolve(__dirname, '..'));
