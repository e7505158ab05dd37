'use strict';
// One clock with node:http's timeouts. Our parsers' message starts are stamped
// by the C core; lib/connections.js compares them with process.hrtime (libuv's
// uv_hrtime(), node:http's clock) to expire headersTimeout and requestTimeout.
// The addon installs the running node's uv_hrtime as the core's clock
// (src/core/lhn_clock.h), so the two are one clock on every platform, not two
// clock APIs that happen to agree on Linux.
//
// A platform whose clock API disagrees with libuv's is simulated by shifting
// the core's own platform clock (the clock the core read before, and still
// reads where node exports no uv_hrtime) with the addon's test hook: the
// checks below pass because that clock is not used, and the last test shows
// that they fail when it is (the old clock).
//
// Runs in npm test on every line, and on linux-arm64 (qemu) and win32-x64
// (wine) in scripts/dev/test-package.js.
const { test } = require('node:test');
const assert = require('node:assert/strict');
const http = require('node:http');
const path = require('node:path');

const {
  ROOT, OurParser, bothWays, assertParser, listen, closeServer, rawRequest,
} = require('../support/http-modes');

const native = require(path.join(ROOT, 'lib', 'native'));
const hooks = require(path.join(ROOT, 'lib', 'parser-hooks'));

const hrtimeMs = () => Number(process.hrtime.bigint()) / 1e6;

// Offsets of a platform clock of another origin: an hour ahead (timeouts
// would never fire) and behind by as much as the clock allows, up to an hour
// (they would fire at once).
const AHEAD_MS = 3600e3;
const BEHIND_MS = -Math.min(3600e3, Math.floor(hrtimeMs() / 2));
const OFFSETS = [['ahead of', AHEAD_MS], ['behind', BEHIND_MS]];

// Runs fn with the core on the runtime's clock (runtime = true) or on its
// platform clock, the platform clock shifted by offsetMs; puts the
// runtime's clock back (the addon's default) afterwards.
async function withCoreClock(runtime, offsetMs, fn) {
  native.clockForTesting(runtime, offsetMs);
  try {
    return await fn();
  } finally {
    native.clockForTesting(true, 0);
  }
}

// A message that begins now: process.hrtime before and after, and the
// core's stamp of its start, in ms.
function stampNow() {
  const parser = new OurParser();
  parser.initialize(OurParser.REQUEST, {});
  const before = hrtimeMs();
  const ret = parser.execute(Buffer.from('GET / HTTP/1.1\r\n', 'latin1'));
  const after = hrtimeMs();
  const start = parser[hooks.messageStart]();
  // duration(), where the line has it (20): on the same clock
  const duration = typeof parser.duration === 'function' ? parser.duration() : null;
  parser.close();
  assert.equal(ret, 16);
  return { before, start, after, duration };
}

const agrees = ({ before, start, after }) => start >= before - 1 && start <= after + 1;

test('the addon stamps message starts with the running node\'s uv_hrtime', () => {
  assert.equal(native.clockSource, 'uv_hrtime', 'node exports uv_hrtime and the addon found it');
  // Bracketed by process.hrtime, not compared with a later reading: under
  // emulation (qemu) or load, the gap between two calls can exceed 1 ms.
  const before = hrtimeMs();
  const now = native.nowMs();
  const after = hrtimeMs();
  assert.ok(agrees({ before, start: now, after }),
    `the core's clock is process.hrtime's: ${now} ms, process.hrtime ${before}..${after} ms`);
});

test('a message that begins now is stamped within 1 ms of process.hrtime', () => {
  assert.ok(Math.abs(BEHIND_MS) >= 2000, `process.hrtime is ${hrtimeMs()} ms: too early to shift a clock back`);
  for (const [what, offset] of [['no offset', 0], ...OFFSETS]) {
    native.clockForTesting(true, offset);
    try {
      for (let i = 0; i < 5; i++) {
        const s = stampNow();
        assert.ok(agrees(s), `${what}: stamped ${s.start} ms, process.hrtime ${s.before}..${s.after} ms`);
        if (s.duration !== null) assert.ok(s.duration >= 0 && s.duration < 1000, `duration() ${s.duration}`);
      }
    } finally {
      native.clockForTesting(true, 0);
    }
  }
});

// A slowloris head (request line and one header, then nothing): node:http's
// answer and when it came, in ms after the connection was opened.
async function slowHead(port, timeout) {
  const started = hrtimeMs();
  let out;
  try {
    out = await rawRequest(port, ['GET / HTTP/1.1\r\nHost: x\r\n'], { timeout });
  } catch {
    out = null; // nothing came
  }
  return { out, elapsed: hrtimeMs() - started };
}

const HEADERS_TIMEOUT = 600;
const TIMEOUT_408 = 'HTTP/1.1 408 Request Timeout\r\nConnection: close\r\n\r\n';

function timeoutServer(mode) {
  const server = http.createServer({
    headersTimeout: HEADERS_TIMEOUT, requestTimeout: 10000, connectionsCheckingInterval: 50,
  }, (req, res) => res.end('ok'));
  server.on('connection', (socket) => assertParser(mode, socket.parser));
  return server;
}

// The core's platform clock shifted ahead or behind: our parsers' stamps do
// not read it, so headersTimeout fires when it should, as the built-in's.
for (const [what, offset] of OFFSETS) {
  bothWays(`headersTimeout fires on time with a platform clock ${what} node's`, async (mode) => {
    await withCoreClock(true, offset, async () => {
      const server = timeoutServer(mode);
      const port = await listen(server);
      try {
        const { out, elapsed } = await slowHead(port, 15000);
        assert.equal(out, TIMEOUT_408, `no 408 within 15 s (${what})`);
        assert.ok(elapsed >= HEADERS_TIMEOUT - 50, `408 after ${elapsed.toFixed(0)} ms, before headersTimeout (${HEADERS_TIMEOUT} ms)`);
        assert.ok(elapsed < 12000, `408 after ${elapsed.toFixed(0)} ms`);
      } finally {
        await closeServer(server);
      }
    });
  });
}

// The same checks with the core on its platform clock, shifted: what the
// core did before it read node's clock, on a platform whose clock API
// disagreed with libuv's. Both checks see it.
test('the checks fail when the core reads a clock of another origin (the old clock)', async () => {
  const llhttp = require(ROOT);
  for (const [what, offset] of OFFSETS) {
    await withCoreClock(false, offset, async () => {
      const s = stampNow();
      assert.ok(!agrees(s), `${what}: the stamp ${s.start} ms still agrees with ${s.before}..${s.after} ms`);
    });
  }
  // headersTimeout with the clock behind: the 408 comes at the first check,
  // long before headersTimeout (ahead, it would never come: not waited for).
  assert.equal(llhttp.install(), true);
  try {
    await withCoreClock(false, BEHIND_MS, async () => {
      const server = timeoutServer('llhttp-napi');
      const port = await listen(server);
      try {
        const { out, elapsed } = await slowHead(port, 3000);
        assert.ok(out !== TIMEOUT_408 || elapsed < HEADERS_TIMEOUT - 50,
          `with the old clock the 408 still came on time (${elapsed.toFixed(0)} ms)`);
      } finally {
        await closeServer(server);
      }
    });
  } finally {
    llhttp.uninstall();
  }
});
