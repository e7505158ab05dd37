// ES module entry of llhttp-napi (package.json "exports" → "import"):
//
//   import { HTTPParser, install, isInstalled, versions } from 'llhttp-napi';
//   import llhttp from 'llhttp-napi';   // the CommonJS exports object
//
// One package instance: everything comes from the CommonJS entry (./index.js),
// so install() state is shared with require('llhttp-napi').
//
// ES named exports are bindings fixed when this module is evaluated, not
// getters: a name cannot load the native addon on first use as the CommonJS
// getters do. So importing this module reads HTTPParser, methods, allMethods
// and versions once, and that loads the addon. A load failure is never thrown
// here: those four are then undefined, and install() returns false with the
// fallback warning, exactly as from CommonJS (its own load attempt reports the
// reason). Programs that must not load the addon before install() decides
// (e.g. LLHTTP_NAPI=0 deployments) use `--import llhttp-napi/register`, or
// the default import, whose getters stay lazy.
import llhttp from './index.js';

function settled(name) {
  try {
    return llhttp[name];
  } catch {
    return undefined;
  }
}

export const { install, uninstall, isInstalled } = llhttp;
export const HTTPParser = settled('HTTPParser');
export const methods = settled('methods');
export const allMethods = settled('allMethods');
export const versions = settled('versions');
export default llhttp;
