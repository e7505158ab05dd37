'use strict';
// Tick budget (issue #5): a keep-alive hello-world server with llhttp-napi
// never spends more nextTicks or emits per request than with the built-in
// parser of the running line, and spends exactly what is expected there.
// Deterministic: the server runs in a child process and counts only its own
// ticks (test/support/tick-server.js) over a window of whole request cycles;
// the client is a raw socket in this process that sends one request at a
// time, so every cycle is the same.
//
// Node 20 and 22's built-in: 10 nextTicks and 9 emits per request. With
// install() (lib/incoming.js's wrappers): 5 and 8 (docs/node-http.md,
// "IncomingMessage fast paths", lists what each remaining tick is). The issue asked for at
// most 6; the budget is what is reached.
// Node 24 (24.22) and later: Node's own IncomingMessage takes those fast
// paths (measured, test/support/line-behaviour.js), the
// built-in costs 4 and 7, and install() leaves IncomingMessage alone: ours
// costs the same 4 and 7.
const { test } = require('node:test');
const assert = require('node:assert/strict');
const net = require('node:net');
const path = require('node:path');
const readline = require('node:readline');
const { spawn } = require('node:child_process');
const { once } = require('node:events');

const { LINE } = require('../support/builtin');
const { fastIncoming } = require('../support/line-behaviour');

// Per request, by mode, on the running Node.
const EXPECTED = fastIncoming ? {
  builtin: { ticks: 4, emits: 7 },
  'incoming:false': { ticks: 4, emits: 7 },
  'install()': { ticks: 4, emits: 7 },
} : {
  builtin: { ticks: 10, emits: 9 },
  'incoming:false': { ticks: 10, emits: 9 },
  'install()': { ticks: 5, emits: 8 },
};
// install() puts lib/incoming.js's wrappers on IncomingMessage (20, 22).
const WRAPS = !fastIncoming;
const WARMUP = 50;
const COUNT = 200;
const SERVER = path.join(__dirname, '..', 'support', 'tick-server.js');
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

test('tick budget: keep-alive hello world, never more than the built-in of this line', async (t) => {
  const results = {};
  for (const mode of ['builtin', 'incoming:false', 'install()']) {
    const r = await census(mode);
    assert.equal(r.ours, mode !== 'builtin', `${mode}: the server used the expected parser`);
    assert.equal(r.incomingPatched, mode === 'install()' && WRAPS,
                 `${mode}: IncomingMessage wrapped only by install() on 20 and 22`);
    results[mode] = r;
    t.diagnostic(`${mode}: ${r.ticks / COUNT} nextTicks, ${r.emits / COUNT} emits per request; ` +
                 `ticks ${JSON.stringify(perRequest(r.tickNames))}`);
  }
  const builtin = results.builtin;
  // Whole cycles: every count is a multiple of COUNT.
  for (const r of Object.values(results)) {
    assert.equal(r.ticks % COUNT, 0, `${r.mode}: whole cycles (ticks)`);
    assert.equal(r.emits % COUNT, 0, `${r.mode}: whole cycles (emits)`);
  }
  for (const mode of ['incoming:false', 'install()']) {
    const r = results[mode];
    assert.ok(r.ticks <= builtin.ticks,
              `${mode}: ${r.ticks / COUNT} nextTicks per request, built-in ${builtin.ticks / COUNT}: ` +
              JSON.stringify(perRequest(r.tickNames)));
    assert.ok(r.emits <= builtin.emits,
              `${mode}: ${r.emits / COUNT} emits per request, built-in ${builtin.emits / COUNT}: ` +
              JSON.stringify(perRequest(r.emitNames)));
  }
  for (const [mode, r] of Object.entries(results)) {
    assert.deepEqual({ ticks: r.ticks / COUNT, emits: r.emits / COUNT }, EXPECTED[mode], `${mode} on Node ${LINE}`);
  }
  // No 'resume' emitted for a dumped request on the fast path (the wrappers,
  // or Node's own IncomingMessage on 24+).
  assert.equal(results['install()'].emitNames['IncomingMessage:resume'], undefined);
  assert.equal(builtin.emitNames['IncomingMessage:resume'], fastIncoming ? undefined : COUNT);
});
