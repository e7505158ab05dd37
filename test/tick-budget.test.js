'use strict';
// Tick budget (issue #5): a keep-alive hello-world server with install() may
// spend at most TICK_BUDGET nextTicks per request, and fewer emits than with
// Node's built-in parser. Deterministic: the server runs in a child process
// and counts only its own ticks (test/support/tick-server.js) over a window of
// whole request cycles; the client is a raw socket in this process that sends
// one request at a time, so every cycle is the same.
//
// Node 20's built-in: 10 nextTicks and 9 emits per request. With install():
// 5 and 8 (README, "IncomingMessage fast paths", lists what each remaining
// tick is). The issue asked for at most 6; the budget is what is reached.
const { test } = require('node:test');
const assert = require('node:assert/strict');
const net = require('node:net');
const path = require('node:path');
const readline = require('node:readline');
const { spawn } = require('node:child_process');
const { once } = require('node:events');

const TICK_BUDGET = 5;
const WARMUP = 50;
const COUNT = 200;
const SERVER = path.join(__dirname, 'support', 'tick-server.js');
const REQUEST = 'GET / HTTP/1.1\r\nHost: localhost\r\nUser-Agent: tick-budget\r\nAccept: */*\r\n\r\n';

// Runs the server in `mode`, sends WARMUP + COUNT + 1 requests one after the
// other on one keep-alive connection, returns the server's counts.
async function census(mode) {
  const child = spawn(process.execPath, [SERVER, mode, String(WARMUP), String(COUNT)], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  try {
    const lines = readline.createInterface({ input: child.stdout });
    const iterator = lines[Symbol.asyncIterator]();
    const { port } = JSON.parse((await iterator.next()).value);
    const socket = net.connect(port, '127.0.0.1');
    await once(socket, 'connect');
    let pending = '';
    let answered = 0;
    const total = WARMUP + COUNT + 1;
    const done = new Promise((resolve, reject) => {
      socket.on('error', reject);
      socket.on('data', (data) => {
        pending += data.toString('latin1');
        let at;
        while ((at = pending.indexOf('Hello World')) !== -1) {
          pending = pending.slice(at + 11);
          answered++;
          if (answered === total) return resolve();
          socket.write(REQUEST);
        }
      });
    });
    socket.write(REQUEST);
    const [, result] = await Promise.all([done, iterator.next()]);
    socket.destroy();
    return JSON.parse(result.value);
  } finally {
    child.stdin.end();
    if (child.exitCode === null) await once(child, 'exit');
  }
}

function perRequest(counts) {
  const out = {};
  for (const [name, n] of Object.entries(counts)) out[name] = n / COUNT;
  return out;
}

test('tick budget: keep-alive hello world with install()', async (t) => {
  const results = {};
  for (const mode of ['builtin', 'incoming:false', 'install()']) {
    const r = await census(mode);
    assert.equal(r.ours, mode !== 'builtin', `${mode}: the server used the expected parser`);
    results[mode] = r;
    t.diagnostic(`${mode}: ${r.ticks / COUNT} nextTicks, ${r.emits / COUNT} emits per request; ` +
                 `ticks ${JSON.stringify(perRequest(r.tickNames))}`);
  }
  const napi = results['install()'];
  const builtin = results.builtin;
  assert.ok(napi.ticks / COUNT <= TICK_BUDGET,
            `${napi.ticks / COUNT} nextTicks per request with install(), budget ${TICK_BUDGET}: ` +
            JSON.stringify(perRequest(napi.tickNames)));
  assert.ok(napi.emits < builtin.emits,
            `emits per request: install() ${napi.emits / COUNT}, built-in ${builtin.emits / COUNT}`);
  // Whole cycles: every count is a multiple of COUNT.
  for (const r of Object.values(results)) assert.equal(r.ticks % COUNT, 0, `${r.mode}: whole cycles`);
  // The wrappers are what removes the ticks: without them, ours costs what the built-in does.
  assert.ok(results['incoming:false'].ticks <= builtin.ticks,
            `incoming:false ${results['incoming:false'].ticks / COUNT} vs built-in ${builtin.ticks / COUNT}`);
  // No 'resume' emitted for a dumped request with the wrappers.
  assert.equal(napi.emitNames['IncomingMessage:resume'], undefined);
  assert.equal(builtin.emitNames['IncomingMessage:resume'], COUNT);
});
