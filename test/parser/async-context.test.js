'use strict';
// Handlers run in the async context of initialize(), for both parsers:
// AsyncLocalStorage stores and async ids as the built-in gives them.
const test = require('node:test');
const assert = require('node:assert');
const { AsyncLocalStorage, createHook, executionAsyncId, executionAsyncResource } = require('node:async_hooks');
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

  test(`${name}: async_hooks see initialize()'s resource, at init and in the handlers`, () => {
    const p = new P();
    const resource = { tag: 'resource' };
    const inits = [];
    const destroys = [];
    const hook = createHook({
      init(id, type, trigger, r) { if (r === resource) inits.push([id, type]); },
      destroy(id) { destroys.push(id); },
    }).enable();
    p.initialize(P.REQUEST, resource);
    let seen;
    let id;
    p[P.kOnHeadersComplete] = () => { seen = executionAsyncResource(); id = executionAsyncId(); };
    p.execute(Buffer.from('GET / HTTP/1.1\r\n\r\n'));
    p.free();
    p.close();
    // (destroy hooks run in a later turn of the loop)
    return new Promise((resolve) => setTimeout(resolve, 10)).then(() => {
      hook.disable();
      assert.deepStrictEqual(inits, [[id, 'HTTPINCOMINGMESSAGE']]);
      assert.strictEqual(seen, resource);
      // ours: free() destroys that context, once (close() after it does not
      // again). (The built-in's destroy comes at node:http's free() too, not
      // with this lone parser.)
      if (name === 'napi') assert.strictEqual(destroys.filter((d) => d === id).length, 1);
    });
  });

  test(`${name}: a handler that executes another parser: each delivers in its own context`, () => {
    const als = new AsyncLocalStorage();
    const outer = new P();
    const inner = new P();
    als.run('outer', () => outer.initialize(P.REQUEST, {}));
    als.run('inner', () => inner.initialize(P.REQUEST, {}));
    const seen = [];
    inner[P.kOnHeadersComplete] = () => { seen.push(['inner', als.getStore(), executionAsyncId()]); };
    outer[P.kOnHeadersComplete] = () => {
      seen.push(['outer', als.getStore(), executionAsyncId()]);
      inner.execute(Buffer.from('GET /in HTTP/1.1\r\n\r\n'));
      seen.push(['outer again', als.getStore(), executionAsyncId()]);
    };
    outer.execute(Buffer.from('GET /out HTTP/1.1\r\n\r\n'));
    assert.deepStrictEqual(seen.map((s) => s.slice(0, 2)),
      [['outer', 'outer'], ['inner', 'inner'], ['outer again', 'outer']]);
    assert.strictEqual(seen[0][2], seen[2][2]);
    assert.notStrictEqual(seen[0][2], seen[1][2]);
  });

  test(`${name}: a handler's exception leaves execute() and the caller's context as it was`, () => {
    const als = new AsyncLocalStorage();
    const p = new P();
    als.run('at-initialize', () => p.initialize(P.REQUEST, {}));
    p[P.kOnHeadersComplete] = () => { throw new Error('handler'); };
    const before = executionAsyncId();
    als.run('caller', () => {
      assert.throws(() => p.execute(Buffer.from('GET / HTTP/1.1\r\n\r\n')), /handler/);
      assert.strictEqual(als.getStore(), 'caller');
    });
    assert.strictEqual(executionAsyncId(), before);
  });
}
