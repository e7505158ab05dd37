'use strict';
// The async context a request handler runs in, asserted alike on node:http
// and llhttp-napi/server: the connection's HTTPINCOMINGMESSAGE resource,
// triggered by the connection's socket (not the listening server), as
// triggerAsyncId() in the handler and an init hook see it. Node's
// test/async-hooks/test-graph.http.js.
const { test } = require('node:test');
const assert = require('node:assert/strict');
const asyncHooks = require('node:async_hooks');

const { FACES, withServer, exchange, withClose } = require('../support/both-servers');
const { kInSocketContext } = require('../../lib/server/seam');

// A socket's async id: its handle's (node:net), else the one of the native
// transport's socket (the execution id inside its context).
function socketAsyncId(socket) {
  return socket._handle ? socket._handle.getAsyncId() : socket[kInSocketContext](asyncHooks.executionAsyncId);
}

async function handlerContexts(withHook) {
  const results = [];
  for (const [, create] of FACES) {
    const inits = new Map(); // async id -> [type, trigger]
    const hook = withHook ? asyncHooks.createHook({ init(id, type, trigger) { inits.set(id, [type, trigger]); } }) : null;
    if (hook !== null) hook.enable();
    const seen = [];
    await withServer(create, {}, (req, res) => {
      const socketId = socketAsyncId(req.socket);
      seen.push('trigger is the socket', asyncHooks.triggerAsyncId() === socketId);
      const init = inits.get(asyncHooks.executionAsyncId());
      if (hook !== null) seen.push('init', init && init[0], init !== undefined && init[1] === socketId);
      res.end();
    }, async (port) => {
      await exchange(port, [withClose('GET / HTTP/1.1\r\nHost: a\r\n\r\n')]);
    });
    if (hook !== null) hook.disable();
    results.push(seen);
  }
  assert.deepStrictEqual(results[1], results[0]);
  return results[0];
}

test('a handler runs in a context triggered by its socket, as node:http\'s', async () => {
  assert.deepStrictEqual(await handlerContexts(false), ['trigger is the socket', true]);
});

test('with an init hook: the handler\'s context is an HTTPINCOMINGMESSAGE triggered by its socket, as node:http\'s', async () => {
  assert.deepStrictEqual(await handlerContexts(true),
    ['trigger is the socket', true, 'init', 'HTTPINCOMINGMESSAGE', true]);
});
