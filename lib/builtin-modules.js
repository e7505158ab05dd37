'use strict';
// The Node built-ins this package uses for its own work (node:net, node:dns,
// node:fs), loaded as node:http's own code loads them: past require hooks.
// A tool that instruments a module when it is required (require-in-the-middle,
// which OpenTelemetry's instrumentations use, wraps require() and
// process.getBuiltinModule()) would otherwise, loaded before this package,
// instrument node:net for the whole process the moment this package required
// it, and trace every client connection that node:http alone never shows it.
// A module the application requires itself is instrumented as without this
// package. node:http is not loaded here: the server preload has to see the
// node:http a tool has wrapped.
const Module = require('node:module');

// The built-in `id` ('node:net'), the same object require() gives.
function builtinModule(id) {
  return Module._load(id, null, false);
}

module.exports = { builtinModule };
