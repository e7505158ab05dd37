// Types of the ES module entry (lib/index.mjs): the same names as the
// CommonJS entry, plus the default export (the CommonJS exports object).
// If the native addon cannot load, HTTPParser, methods, allMethods and
// versions are undefined at run time here (install() returns false).
import * as llhttp from './index.js';

export * from './index.js';
export default llhttp;
