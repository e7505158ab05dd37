'use strict';
// Handlers run in the async context of initialize(), for both parsers:
// AsyncLocalStorage stores and async ids as the built-in gives them.
const test = require('node:test');
const assert = require('node:assert');
const { AsyncLocalStorage, executionAsyncId } = require('node:async_hooks');
const builtin = require('_http_common').HTTPParser;
const { HTTPParser: napi } = require('../..');

for (const [name, P] of [['builtin', builtin], ['napi', napi]]) {
  test(`${name}: handlers see the AsyncLocalStorage store of initialize()`, () => {
    const als = new AsyncLocalStorage();
    const p = new P();
    als.run('at-initialize', () => p.initialize(P.RESPONSE, {}));
    const seen = [];
    p[P.kOnMessageBegin] = () => seen.push(als.getStore());
    p[P.kOnHeadersComplete] = () => { seen.push(als.getStore()); };
    p[P.kOnBody] = () => seen.push(als.getStore());
    p[P.kOnMessageComplete] = () => seen.push(als.getStore());
    als.run('at-execute', () => p.execute(Buffer.from('HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok')));
    assert.deepStrictEqual(seen, ['at-initialize', 'at-initialize', 'at-initialize', 'at-initialize']);
    // a new initialize() takes the store of its own context
    als.run('second', () => p.initialize(P.RESPONSE, {}));
    seen.length = 0;
    p.execute(Buffer.from('HTTP/1.1 204 No Content\r\n\r\n'));
    assert.deepStrictEqual(seen, ['second', 'second', 'second']);
  });

  test(`${name}: handlers run under their own async id, not the caller's`, () => {
    const p = new P();
    p.initialize(P.REQUEST, {});
    let inside;
    p[P.kOnHeadersComplete] = () => { inside = executionAsyncId(); };
    const outside = executionAsyncId();
    p.execute(Buffer.from('GET / HTTP/1.1\r\n\r\n'));
    assert.notStrictEqual(inside, outside);
    assert.ok(inside > 0);
  });
}
