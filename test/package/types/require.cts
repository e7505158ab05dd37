// Type test of the CommonJS form (lib/index.d.ts through "exports" → "require" → "types"):
// checked by test/package/packaging.test.js with tsc.
import llhttp = require('llhttp-napi');
const { HTTPParser, install, isInstalled, versions, methods, allMethods } = llhttp;
const ok: boolean = install({ strict: false });
const p = new HTTPParser();
p.initialize(HTTPParser.REQUEST, {});
const r = p.execute(Buffer.from('GET / HTTP/1.1\r\n\r\n'));
const v: string = versions.llhttp;
const m: readonly string[] = methods; const am: readonly string[] = allMethods;
console.log(ok, isInstalled(), r, v, m.length, am.length);
