// Type test of the ES module form (lib/index.d.mts through "exports" → "import" → "types"):
// checked by test/package/packaging.test.js with tsc.
import { HTTPParser, install, isInstalled, versions, uninstall, methods } from 'llhttp-napi';
import llhttp from 'llhttp-napi';
import * as ns from 'llhttp-napi';
const ok: boolean = install();
const p = new HTTPParser();
p.initialize(HTTPParser.RESPONSE, {}, 0, HTTPParser.kLenientAll);
const headers: string[] = p.getAllHeaders();
const v: string = versions.napi;
const same: boolean = llhttp.HTTPParser === HTTPParser && ns.install === install && llhttp.isInstalled();
console.log(ok, isInstalled(), uninstall(), headers, v, same, methods[0]);
// @ts-expect-error: not an export
import { nothing } from 'llhttp-napi';
