'use strict';
// Handlers run in the async context of initialize(), for both parsers:
// AsyncLocalStorage stores and async ids as the built-in gives them.
const test = require('node:test');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const assert = require('node:assert');
const { AsyncLocalStorage, createHook, executionAsyncId, executionAsyncResource } = require('node:async_hooks');
const builtin = require('_http_common').HTTPParser;
const { HTTPParser: napi } = require('../..');
const { runWithParserInChild, describeChildExit } = require('../support/child');

// Ours enters a context made in JavaScript until an init hook was seen,
// natively after that: 'napi' runs before any, 'napi, after an init hook'
// after one.
for (const [name, P] of [['builtin', builtin], ['napi', napi], ['napi, after an init hook', napi]]) {
  if (name === 'napi, after an init hook') {
    test('(an init hook is seen by a parser of ours)', () => {
      const hook = createHook({ init() {} }).enable();
      new napi().initialize(napi.REQUEST, {});
      hook.disable();
    });
  }

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

  // (Ours enters the context only for a call whose events have a handler: a
  // call whose one event with a handler is this one must enter it too.)
  test(`${name}: each handler, alone on a parser fed one byte at a time, runs in the context of initialize()`, () => {
    const als = new AsyncLocalStorage();
    const message = 'POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nok\r\n0\r\nX-Trailer: t\r\n\r\n';
    for (const slot of ['kOnMessageBegin', 'kOnHeaders', 'kOnHeadersComplete', 'kOnBody', 'kOnMessageComplete']) {
      const p = new P();
      als.run('at-initialize', () => p.initialize(P.REQUEST, {}));
      const seen = [];
      p[P[slot]] = () => { seen.push([als.getStore(), executionAsyncId()]); };
      const outside = executionAsyncId();
      als.run('at-execute', () => {
        for (let i = 0; i < message.length; i++) p.execute(Buffer.from(message[i], 'latin1'));
      });
      assert.ok(seen.length > 0, slot);
      for (const [store, id] of seen) {
        assert.strictEqual(store, 'at-initialize', slot);
        assert.notStrictEqual(id, outside, slot);
      }
    }
  });

  test(`${name}: before and after hooks frame the handlers under the id they run with`, () => {
    const p = new P();
    p.initialize(P.REQUEST, {});
    const events = [];
    let inside;
    p[P.kOnHeadersComplete] = () => { inside = executionAsyncId(); events.push(['handler', inside]); };
    const hook = createHook({
      before(id) { events.push(['before', id]); },
      after(id) { events.push(['after', id]); },
    }).enable();
    p.execute(Buffer.from('GET / HTTP/1.1\r\n\r\n'));
    hook.disable();
    assert.deepStrictEqual(events.filter(([, id]) => id === inside).map(([what]) => what), ['before', 'handler', 'after']);
  });

  test(`${name}: handlers see initialize()'s resource as executionAsyncResource(), each parser under its own id`, () => {
    // (Two parsers initialized with one resource: each keeps its own id.)
    const resource = { tag: 'resource' };
    const [a, b] = [new P(), new P()];
    a.initialize(P.REQUEST, resource);
    b.initialize(P.REQUEST, resource);
    const seen = [];
    for (const p of [a, b]) {
      p[P.kOnHeadersComplete] = () => { seen.push([p === a ? 'a' : 'b', executionAsyncResource(), executionAsyncId()]); };
    }
    for (const p of [a, b, a]) p.execute(Buffer.from('GET / HTTP/1.1\r\n\r\n'));
    assert.deepStrictEqual(seen.map(([who, r]) => [who, r === resource]), [['a', true], ['b', true], ['a', true]]);
    assert.strictEqual(seen[0][2], seen[2][2]);
    assert.notStrictEqual(seen[0][2], seen[1][2]);
  });

  // (Last: it enables an init hook, after which ours makes every context
  // natively.)
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
      if (P === napi) assert.strictEqual(destroys.filter((d) => d === id).length, 1);
    });
  });
}

// node:test itself listens with an init hook, so the tests above see ours
// deliver in the addon's context. Without any init hook (a server's usual
// process) ours delivers from JavaScript: the same observations in a plain
// process, both parsers, and ours on that path.
const OBSERVE_WITHOUT_INIT_HOOKS = `
const { AsyncLocalStorage, createHook, executionAsyncId, executionAsyncResource } = require('node:async_hooks');
const als = new AsyncLocalStorage();
const seen = [];
const message = 'POST / HTTP/1.1\\r\\nTransfer-Encoding: chunked\\r\\n\\r\\n2\\r\\nok\\r\\n0\\r\\nX-Trailer: t\\r\\n\\r\\n';
const resource = { tag: 'resource' };
const p = new HTTPParser();
als.run('at-initialize', () => p.initialize(HTTPParser.REQUEST, resource));
// (Before 24 an AsyncLocalStorage listens with an init hook itself.)
let initHook = false;
als.run('probe', () => { try { new (require('node:async_hooks').AsyncResource)(''); } catch { initHook = true; } });
const ids = [];
const hook = createHook({ before(id) { ids.push(['before', id]); }, after(id) { ids.push(['after', id]); } }).enable();
for (const slot of ['kOnMessageBegin', 'kOnHeaders', 'kOnHeadersComplete', 'kOnBody', 'kOnMessageComplete']) {
  p[HTTPParser[slot]] = () => {
    const id = executionAsyncId();
    ids.push(['handler', id]);
    seen.push([slot, als.getStore(), executionAsyncResource() === resource, id !== outside]);
  };
}
const outside = executionAsyncId();
als.run('at-execute', () => {
  for (let i = 0; i < message.length; i += 7) p.execute(Buffer.from(message.slice(i, i + 7), 'latin1'));
});
hook.disable();
const inside = ids.find(([what]) => what === 'handler')[1];
const framing = ids.filter(([, id]) => id === inside).map(([what]) => what).join(' ').replace(/(before (handler )+after ?)+/g, 'framed ').trim();
p[HTTPParser.kOnHeadersComplete] = () => { throw new Error('handler'); };
p.initialize(HTTPParser.REQUEST, resource);
als.run('caller', () => {
  try { p.execute(Buffer.from('GET / HTTP/1.1\\r\\n\\r\\n')); } catch (err) { seen.push(['thrown', err.message, als.getStore(), executionAsyncId() === outside]); }
});
console.log(JSON.stringify({ seen, framing, initHook, jsPath: p._scope === undefined ? 'builtin' : p._scope !== null }));
`;

test('without an init hook, handlers see what the built-in\'s see (store, resource, ids, before/after, a throw)', () => {
  const [theirs, ours] = ['builtin', 'napi'].map((which) => {
    const r = runWithParserInChild(which, OBSERVE_WITHOUT_INIT_HOOKS);
    assert.strictEqual(r.status, 0, describeChildExit(r));
    return JSON.parse(r.stdout);
  });
  assert.ok(theirs.seen.length > 5, JSON.stringify(theirs));
  // (From 24 on nothing listens with an init hook here.)
  assert.strictEqual(ours.initHook, Number(process.versions.node.split('.')[0]) < 24);
  assert.strictEqual(ours.jsPath, !ours.initHook);
  assert.deepStrictEqual(ours.seen, theirs.seen);
  assert.strictEqual(ours.framing, 'framed');
});

// Ours gives initialize()'s resource its context's ids where it takes them:
// one that refuses must still get the context, and no exception.
const REFUSING_RESOURCES = `
const { AsyncLocalStorage, executionAsyncId } = require('node:async_hooks');
const als = new AsyncLocalStorage();
const refusing = new Proxy({}, { set() { return false; }, defineProperty() { return false; } });
const seen = [];
let jsPath = true;
for (const resource of [Object.freeze({}), Object.seal({}), Object.preventExtensions({}), refusing]) {
  const p = new HTTPParser();
  als.run('at-initialize', () => p.initialize(HTTPParser.REQUEST, resource));
  const ids = [];
  p[HTTPParser.kOnHeadersComplete] = () => { ids.push(executionAsyncId()); seen.push(als.getStore()); };
  const outside = executionAsyncId();
  for (let i = 0; i < 2; i++) als.run('at-execute', () => p.execute(Buffer.from('GET / HTTP/1.1\\r\\n\\r\\n')));
  seen.push(ids.length === 2 && ids[0] === ids[1] && ids[0] !== outside);
  if (p._scope !== undefined) jsPath = jsPath && p._scope !== null;
}
console.log(JSON.stringify({ seen, jsPath }));
`;

// (Before 24 an AsyncLocalStorage stores on the resource itself: a frozen one
// throws there, for either parser.)
test('without an init hook, a resource that takes no properties (frozen, sealed, a refusing proxy) still gives the handlers its context',
  { skip: Number(process.versions.node.split('.')[0]) < 24 && 'AsyncLocalStorage stores on the resource before 24' }, () => {
    const [theirs, ours] = ['builtin', 'napi'].map((which) => {
      const r = runWithParserInChild(which, REFUSING_RESOURCES);
      assert.strictEqual(r.status, 0, describeChildExit(r));
      return JSON.parse(r.stdout);
    });
    assert.deepStrictEqual(theirs.seen, Array(4).fill(['at-initialize', 'at-initialize', true]).flat());
    assert.deepStrictEqual(ours.seen, theirs.seen);
    assert.strictEqual(ours.jsPath, true);
  });

// (In a process of its own: no init hook there, ours delivers from JavaScript.)
test('an uncaught exception of a handler is reported at the handler\'s line, as the built-in\'s', () => {
  const file = path.join(os.tmpdir(), `llhttp-napi-throw-${process.pid}.js`);
  fs.writeFileSync(file, [
    `const { HTTPParser } = process.argv[2] === 'napi' ? require(${JSON.stringify(path.join(__dirname, '..', '..'))}) :`,
    "  require('_http_common');",
    'const p = new HTTPParser();',
    'p.initialize(HTTPParser.REQUEST, {});',
    "p[HTTPParser.kOnHeadersComplete] = () => { throw new Error('from the handler'); };",
    "p.execute(Buffer.from('GET / HTTP/1.1\\r\\n\\r\\n'));",
    '',
  ].join('\n'));
  try {
    for (const which of ['builtin', 'napi']) {
      const r = spawnSync(process.execPath, [file, which], { encoding: 'utf8' });
      assert.strictEqual(r.stderr.split('\n')[0], `${file}:5`, `${which}: ${r.stderr}`);
      assert.match(r.stderr, /Error: from the handler/);
    }
  } finally {
    fs.rmSync(file, { force: true });
  }
});
