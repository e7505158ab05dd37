'use strict';
// What runs as each of this package's servers is made and starts listening:
// nothing, unless the server preload asked (./preload.js: what tools put on
// node:http's prototypes since, the Express modules loaded since). One
// owner, so that ./index.js need not know the preload.

let hook = null;

// Runs `fn` as each server is made or starts listening, from now on.
function setServerMadeHook(fn) {
  hook = fn;
}

function serverMade() {
  if (hook !== null) hook();
}

module.exports = { setServerMadeHook, serverMade };
