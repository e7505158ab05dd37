'use strict';
// Loads the compiled addon. Exports the addon, or throws with the reason.
//
// LLHTTP_NAPI_ADDON=/path/to/llhttp_napi.node loads that file in place of the
// build node-gyp-build finds (`npm run test:asan` uses it to run the suites
// against a sanitizer build kept apart from build/Release). A package without
// a build of its own still fails to load, so the fallback stays testable.
const path = require('node:path');
const load = require('node-gyp-build');

const ROOT = path.resolve(__dirname, '..');
const override = process.env.LLHTTP_NAPI_ADDON;

module.exports = override ? (load.resolve(ROOT), require(path.resolve(override))) : load(ROOT);
