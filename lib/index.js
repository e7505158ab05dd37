'use strict';
// llhttp-napi: a faster drop-in for Node's built-in HTTP parser.
//
// install() must work (and fall back) even when the native addon cannot
// load, so the parser and everything that needs the addon load on first use.
const { install, uninstall, isInstalled } = require('./install');
const pkg = require('../package.json');

let parserModule = null;
let versions = null;

function parser() {
  if (parserModule === null) parserModule = require('./parser');
  return parserModule;
}

module.exports = { install, uninstall, isInstalled };
for (const name of ['HTTPParser', 'methods', 'allMethods']) {
  Object.defineProperty(module.exports, name, {
    enumerable: true,
    get() { return parser()[name]; },
  });
}
Object.defineProperty(module.exports, 'versions', {
  enumerable: true,
  get() {
    if (versions === null) {
      const seam = require('./workspace');
      versions = Object.freeze({
        addon: pkg.version,
        llhttp: seam.llhttpVersion,
        napi: String(seam.napiVersion),
      });
    }
    return versions;
  },
});
