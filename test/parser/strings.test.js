'use strict';
// What the strings a parse hands out are, beyond their characters: the kind
// of V8 string decides how fast node:http and the application use them. Read
// in a child with V8's %DebugPrint.
const test = require('node:test');
const assert = require('node:assert/strict');
const path = require('node:path');
const { spawnSync } = require('node:child_process');

const ROOT = path.resolve(__dirname, '..', '..');

// The V8 string types of the strings `body` passes to show(), in order.
function stringTypes(body) {
  const r = spawnSync(process.execPath, ['--allow-natives-syntax', '-e', `
    const show = (s) => { %DebugPrint(s); };
    ${body}`], { cwd: ROOT, encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  return [...r.stdout.matchAll(/^ - type: (\w+)$/gm)].map((m) => m[1]);
}

// node:http's matchKnownFields() compares each name with its literals
// ('Host', 'host', ...): internalized on both sides, that is identity.
test('well-known header names come as internalized strings, in every way a head is handed out', () => {
  const types = stringTypes(`
    const { HTTPParser } = require('./lib/parser');
    const head = 'GET / HTTP/1.1\\r\\nHost: h\\r\\nuser-agent: u\\r\\nAccept-Language: en\\r\\n';
    const p = new HTTPParser();
    p.initialize(HTTPParser.REQUEST, {});
    p[HTTPParser.kOnHeadersComplete] = function (major, minor, headers) {
      for (let i = 0; i < headers.length; i += 2) show(headers[i]);
      const all = this.getAllHeaders();
      for (let i = 0; i < all.length; i += 2) show(all[i]);
    };
    p.execute(Buffer.from(head + '\\r\\n', 'latin1'));
    // (a head in pieces is flushed with strings of their own)
    const q = new HTTPParser();
    q.initialize(HTTPParser.REQUEST, {});
    q[HTTPParser.kOnHeaders] = function (headers) {
      for (let i = 0; i < 6; i += 2) show(headers[i]);
    };
    q[HTTPParser.kOnHeadersComplete] = () => {};
    q.execute(Buffer.from(head + 'X-A: 1\\r\\n'.repeat(40), 'latin1'));`);
  assert.equal(types.length, 9);
  for (const type of types) assert.match(type, /INTERNALIZED/);
});
