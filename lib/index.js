'use strict';
// llhttp-napi: a faster drop-in for Node's built-in HTTP parser.
const { HTTPParser, methods, allMethods } = require('./parser');
const binding = require('./native');
const pkg = require('../package.json');
const { install, uninstall, isInstalled } = require('./install');

const versions = Object.freeze({
  addon: pkg.version,
  llhttp: binding.llhttpVersion,
  napi: String(binding.napiVersion),
});

module.exports = { HTTPParser, methods, allMethods, versions, install, uninstall, isInstalled };
