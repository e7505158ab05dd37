'use strict';
// IncomingMessage fast paths (lib/incoming.js): the wrappers install() puts on
// IncomingMessage.prototype, and the semantics they must keep. Every
// behaviour runs three ways with the same assertions: Node's built-in parser,
// install({ incoming: false }) (our parser, Node's IncomingMessage) and
// install() (our parser and the wrappers); only where the wrappers are meant
// to differ (no 'resume' on a fast dump, a clean destroy completing at once)
// does the expectation depend on the mode.
//
// Node 24 (24.22) and later: Node's own IncomingMessage takes both fast
// paths (a fully received message is dumped with read(0), a clean destroy
// completes in the call), so every mode is fast and install() leaves
// IncomingMessage.prototype alone: the wrappers are installed on 20 and 22
// only. Which case applies is measured on the running Node's IncomingMessage
// (test/support/line-behaviour.js), as it changed inside the 24 line.
const { test } = require('node:test');
const assert = require('node:assert/strict');
const http = require('node:http');
const net = require('node:net');
const { once } = require('node:events');

const {
  llhttp, OurParser, listen, closeServer, rawRequest, runNode, delay, bodyOf,
} = require('../support/http-modes');
const incoming = require('../../lib/incoming');
const { fastIncoming } = require('../support/line-behaviour');

// Node's IncomingMessage has the fast dump and the one-tick clean destroy.
const NODE_FAST = fastIncoming;
// install() puts lib/incoming.js's wrappers on IncomingMessage.prototype.
const WRAPS = !NODE_FAST;

const { IncomingMessage } = http;
const nodeDump = IncomingMessage.prototype._dump;
const nodeDestroy = IncomingMessage.prototype._destroy;

const MODES = ['builtin', 'incoming:false', 'install()'];

function useMode(mode) {
  llhttp.uninstall();
  if (mode === 'incoming:false') assert.equal(llhttp.install({ incoming: false }), true);
  else if (mode === 'install()') assert.equal(llhttp.install(), true);
}

// test(name) three times, one per mode; `fast` is true where the fast paths
// are taken (with the wrappers, or in every mode on 24+), `wrapped` where
// the wrappers are installed.
function threeWays(name, fn) {
  for (const mode of MODES) {
    test(`${name} [${mode}]`, async (t) => {
      useMode(mode);
      try {
        const wrapped = WRAPS && mode === 'install()';
        await fn({ mode, fast: NODE_FAST || wrapped, wrapped, ours: mode !== 'builtin' }, t);
      } finally {
        llhttp.uninstall();
      }
    });
  }
}

// Records the events of a message (and of its response, when given) in
// order. 'close' notes whether it came synchronously inside an 'end' listener
// or inside the destroy() call that caused it.
function watch(msg, res) {
  const rec = { events: [], closed: null, inEnd: false, closeInsideEnd: false };
  for (const name of ['resume', 'aborted', 'error']) {
    msg.on(name, () => rec.events.push(name));
  }
  msg.on('end', () => {
    rec.events.push('end');
    rec.inEnd = true;
    process.nextTick(() => { rec.inEnd = false; });
  });
  rec.closed = new Promise((resolve) => {
    msg.on('close', () => {
      if (rec.inEnd) rec.closeInsideEnd = true;
      rec.events.push('close');
      resolve();
    });
  });
  if (res) res.on('finish', () => rec.events.push('finish'));
  return rec;
}

// watch(), keeping the message as rec.req, added to recs.
function watchInto(recs, req, res) {
  const rec = watch(req, res);
  rec.req = req;
  recs.push(rec);
  return rec;
}

const GET = 'GET / HTTP/1.1\r\nHost: x\r\n\r\n';

// Counts complete "ok" responses in a raw exchange.
const responses = (n) => (text) => (text.match(/\r\n\r\nok/g) || []).length >= n;

test('install() puts the wrappers on IncomingMessage.prototype (20, 22; 24+ leaves Node\'s); incoming:false and uninstall() leave Node\'s', () => {
  const proto = IncomingMessage.prototype;
  // What install() leaves on the prototype: ours where Node lacks the fast paths.
  const installedDump = WRAPS ? incoming._dump : nodeDump;
  const installedDestroy = WRAPS ? incoming._destroy : nodeDestroy;
  try {
    llhttp.uninstall();
    assert.equal(proto._dump, nodeDump);
    assert.equal(proto._destroy, nodeDestroy);
    assert.equal(llhttp.install({ incoming: false }), true);
    assert.equal(proto._dump, nodeDump, 'incoming: false leaves _dump');
    assert.equal(proto._destroy, nodeDestroy, 'incoming: false leaves _destroy');
    assert.equal(incoming.isPatched(), false);
    llhttp.uninstall();
    assert.equal(llhttp.install(), true);
    assert.equal(proto._dump, installedDump);
    assert.equal(proto._destroy, installedDestroy);
    assert.equal(incoming.isPatched(), WRAPS);
    // Enumerable like Node's (they are assigned in _http_incoming).
    assert.equal(Object.getOwnPropertyDescriptor(proto, '_dump').enumerable, true);
    assert.equal(llhttp.install(), true, 'a second install() changes nothing');
    assert.equal(proto._dump, installedDump);
    assert.equal(llhttp.uninstall(), true);
    assert.equal(proto._dump, nodeDump);
    assert.equal(proto._destroy, nodeDestroy);
    assert.equal(incoming.isPatched(), false);
    // The parser and the wrappers come and go together; again and again.
    for (let i = 0; i < 3; i++) {
      llhttp.install();
      assert.equal(proto._dump, installedDump);
      assert.equal(proto._destroy, installedDestroy);
      llhttp.uninstall();
      assert.equal(proto._dump, nodeDump);
    }
  } finally {
    llhttp.uninstall();
  }
});

test('install() validates options.incoming', () => {
  assert.throws(() => llhttp.install({ incoming: 'yes' }), TypeError);
  assert.throws(() => llhttp.install({ incoming: 0 }), TypeError);
  assert.equal(llhttp.isInstalled(), false);
  assert.equal(IncomingMessage.prototype._dump, nodeDump);
});

test('register: the wrappers by default (20, 22), LLHTTP_NAPI_INCOMING=0 leaves IncomingMessage alone', async () => {
  const probe = "const { IncomingMessage } = require('http');" +
    "console.log(IncomingMessage.prototype._dump === require('./lib/incoming')._dump, require('./').isInstalled())";
  const on = await runNode(['-r', './lib/register.js', '-e', probe]);
  assert.equal(on.stderr, '');
  // 24+: Node's own IncomingMessage has the fast paths; register leaves it alone.
  assert.equal(on.stdout.trim(), WRAPS ? 'true true' : 'false true');
  const off = await runNode(['-r', './lib/register.js', '-e', probe], { env: { LLHTTP_NAPI_INCOMING: '0' } });
  assert.equal(off.stderr, '');
  assert.equal(off.stdout.trim(), 'false true');
});

// 24+: install() puts nothing there; theirs wraps Node's _dump, and
// install()/uninstall() must still leave it in place.
test('a method someone wraps after install() stays after uninstall(); ours then pass through', async () => {
  const proto = IncomingMessage.prototype;
  llhttp.install();
  const ours = proto._dump;
  assert.equal(ours, WRAPS ? incoming._dump : nodeDump);
  let calls = 0;
  proto._dump = function theirDump() {
    calls++;
    return ours.call(this);
  };
  const theirs = proto._dump;
  try {
    llhttp.uninstall();
    assert.equal(proto._dump, theirs, 'uninstall() keeps the other wrapper');
    assert.equal(proto._destroy, nodeDestroy);
    // Ours, still called by theirs, now behave as Node's: resume() on 20
    // and 22; on 24+ theirs calls Node's own, which dumps with read(0).
    const server = http.createServer((req, res) => {
      server.rec = watch(req, res);
      res.end('ok');
    });
    const port = await listen(server);
    try {
      await rawRequest(port, [GET], { until: responses(1) });
      await server.rec.closed;
      assert.equal(calls, 1);
      assert.deepEqual(server.rec.events, NODE_FAST ? ['finish', 'end', 'close'] : ['finish', 'resume', 'end', 'close']);
    } finally {
      await closeServer(server);
    }
    // install() again: ours are active again under theirs (20, 22).
    llhttp.install();
    assert.equal(proto._dump, theirs);
    assert.equal(proto._destroy, WRAPS ? incoming._destroy : nodeDestroy);
    assert.equal(incoming.isPatched(), WRAPS);
    llhttp.uninstall();
  } finally {
    proto._dump = nodeDump;
    llhttp.uninstall();
  }
});

threeWays('an unread body-less request: end then close, both asynchronous; fast dump without resume', async ({ mode, fast }) => {
  const recs = [];
  const server = http.createServer((req, res) => {
    if (mode !== 'builtin') assert.ok(req.socket.parser instanceof OurParser);
    watchInto(recs, req, res);
    res.end('ok');
  });
  const port = await listen(server);
  try {
    // Keep-alive: two requests one after the other, then two pipelined.
    const out = await rawRequest(port, [
      GET, () => delay(30), GET, () => delay(30), GET + GET,
    ], { until: responses(4) });
    assert.equal((out.match(/HTTP\/1\.1 200 OK/g) || []).length, 4);
    await Promise.all(recs.map((r) => r.closed));
    for (const rec of recs) {
      // 'finish' first: 'end' is never emitted inside the response's
      // 'finish' (where node:http dumps the request).
      assert.deepEqual(rec.events, fast ? ['finish', 'end', 'close'] : ['finish', 'resume', 'end', 'close'],
                       mode);
      assert.equal(rec.closeInsideEnd, false, "'close' is not emitted synchronously after 'end'");
      const { req } = rec;
      assert.equal(req.complete, true);
      assert.equal(req.aborted, false);
      assert.equal(req.readableEnded, true);
      assert.equal(req.destroyed, true);
      assert.equal(req._dumped, true);
      assert.equal(req.readableFlowing, fast ? null : true, 'flowing only when resumed');
    }
  } finally {
    await closeServer(server);
  }
});

threeWays('a request dumped mid-body still drains (keep-alive goes on)', async ({ fast }) => {
  const recs = [];
  const server = http.createServer((req, res) => {
    watchInto(recs, req, res);
    // Answer at once, before the body arrives; never read it.
    res.end('ok');
  });
  const port = await listen(server);
  try {
    const size = 1 << 20;
    const socket = net.connect(port, '127.0.0.1');
    let text = '';
    socket.setEncoding('latin1');
    socket.on('data', (d) => { text += d; });
    await once(socket, 'connect');
    socket.write(`POST /big HTTP/1.1\r\nHost: x\r\nContent-Length: ${size}\r\n\r\n`);
    // Wait for the answer before sending the body.
    while (!responses(1)(text)) await delay(5);
    const chunk = Buffer.alloc(64 * 1024, 'x');
    for (let sent = 0; sent < size; sent += chunk.length) {
      if (!socket.write(chunk)) await once(socket, 'drain');
    }
    // The connection is still usable: the body was pulled off the wire.
    socket.write(GET);
    while (!responses(2)(text)) await delay(5);
    socket.end();
    await Promise.all(recs.map((r) => r.closed));
    assert.equal(recs.length, 2);
    // The dump of a message still receiving its body takes resume() in every mode.
    assert.deepEqual(recs[0].events, ['finish', 'resume', 'end', 'close']);
    assert.equal(recs[0].req.aborted, false);
    assert.equal(recs[0].req.complete, true);
    assert.deepEqual(recs[1].events, fast ? ['finish', 'end', 'close'] : ['finish', 'resume', 'end', 'close']);
  } finally {
    await closeServer(server);
  }
});

threeWays("Node's dump-when-res-ends case: a paused request with a 'data' listener is resumed and drained", async () => {
  let resumed = 0;
  let dataAfterResume = 0;
  const server = http.createServer((req, res) => {
    req.socket.once('data', () => res.end('ok'));
    req.on('resume', () => {
      resumed++;
      assert.equal(req.listenerCount('data'), 0, "the dump removed the 'data' listeners");
      req.on('data', () => { dataAfterResume++; });
    });
    req.pause();
    req.on('data', () => {});
    res.flushHeaders();
  });
  const port = await listen(server);
  try {
    const req = http.request({ method: 'POST', port, host: '127.0.0.1', agent: false });
    req.flushHeaders();
    const [res] = await once(req, 'response');
    req.on('error', () => {});
    req.end(Buffer.alloc(200 * 1024, 'y'));
    res.resume();
    await once(res, 'close');
    assert.equal(resumed, 1);
    assert.ok(dataAfterResume >= 1, "'data' after the dump's resume");
  } finally {
    await closeServer(server);
  }
});

threeWays("'aborted' and req.aborted only for incomplete messages", async () => {
  const recs = [];
  const server = http.createServer((req, res) => {
    const rec = watchInto(recs, req);
    if (req.url === '/read') {
      req.resume();
      req.on('end', () => res.end('ok'));
    } else if (req.url === '/destroy-complete') {
      req.resume();
      req.on('end', () => {
        res.end('ok');
        // Fully received and ended: no 'aborted'.
        req.destroy();
      });
    } else if (req.url === '/destroy-early') {
      // Body still arriving: 'aborted'.
      req.destroy();
      rec.abortedAtOnce = req.aborted;
    }
    // '/cut': the client goes away mid-body.
  });
  const port = await listen(server);
  try {
    await rawRequest(port, ['POST /read HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello'],
                     { until: responses(1) });
    await rawRequest(port, ['POST /destroy-complete HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello'],
                     { until: responses(1) });
    await rawRequest(port, ['POST /destroy-early HTTP/1.1\r\nHost: x\r\nContent-Length: 50\r\n\r\nhel']);
    const cutter = net.connect(port, '127.0.0.1');
    cutter.on('error', () => {});
    cutter.write('POST /cut HTTP/1.1\r\nHost: x\r\nContent-Length: 50\r\n\r\nhel');
    while (recs.length < 4) await delay(5);
    await delay(10);
    cutter.destroy();
    await Promise.all(recs.map((r) => r.closed));
    const [read, complete, early, cut] = recs;
    assert.deepEqual(read.events, ['resume', 'end', 'close']);
    assert.equal(read.req.aborted, false);
    assert.deepEqual(complete.events, ['resume', 'end', 'close']);
    assert.equal(complete.req.aborted, false);
    assert.equal(early.abortedAtOnce, true);
    assert.deepEqual(early.events, ['aborted', 'close']);
    assert.equal(early.req.aborted, true);
    assert.equal(cut.req.aborted, true);
    assert.deepEqual(cut.events.filter((e) => e !== 'error'), ['aborted', 'close']);
  } finally {
    await closeServer(server);
  }
});

threeWays('destroy(err) delivers err to a listener attached right after', async () => {
  const seen = [];
  const server = http.createServer((req, res) => {
    const err = new Error(`boom ${req.url}`);
    const check = () => {
      req.destroy(err);
      req.on('error', (e) => seen.push([req.url, e === err, req.aborted]));
      req.on('close', () => { if (!res.writableEnded) res.end('ok'); });
    };
    if (req.url === '/at-headers') check();
    else if (req.url === '/after-end') {
      req.resume();
      // Fully received and ended: the error still reaches a late listener.
      req.on('end', check);
    } else {
      req.on('data', check);
    }
  });
  const port = await listen(server);
  try {
    await rawRequest(port, ['GET /at-headers HTTP/1.1\r\nHost: x\r\n\r\n'], { until: () => seen.length === 1 });
    await rawRequest(port, ['POST /after-end HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\nhi'],
                     { until: () => seen.length === 2 });
    await rawRequest(port, ['POST /mid-body HTTP/1.1\r\nHost: x\r\nContent-Length: 20\r\n\r\nhi'],
                     { until: () => seen.length === 3 });
    await delay(10);
    assert.deepEqual(seen, [
      ['/at-headers', true, true],
      ['/after-end', true, false],
      ['/mid-body', true, true],
    ]);
  } finally {
    await closeServer(server);
  }
});

threeWays('a clean destroy of a fully received message: one tick with the wrappers, close stays asynchronous', async ({ fast }) => {
  const result = {};
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      // Inside 'end' (endEmitted is set): destroy() explicitly.
      let closeSync = false;
      let inCall = true;
      req.on('close', () => { closeSync = inCall; });
      req.destroy();
      inCall = false;
      result.closedAtOnce = req.closed;
      result.destroyed = req.destroyed;
      res.end('ok');
      req.on('close', () => {
        result.closeSync = closeSync;
        result.aborted = req.aborted;
      });
    });
  });
  const port = await listen(server);
  try {
    await rawRequest(port, ['POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\nhi'], { until: responses(1) });
    await delay(10);
    assert.deepEqual(result, {
      closedAtOnce: fast, // the stream's destroy() completed within the call
      destroyed: true,
      closeSync: false,
      aborted: false,
    });
  } finally {
    await closeServer(server);
  }
});

threeWays('pipelined keep-alive requests: ignored bodies, read bodies, late answers', async () => {
  const server = http.createServer(async (req, res) => {
    if (req.method === 'POST' && req.url === '/read') {
      const body = await bodyOf(req);
      res.end(`ok ${req.url} ${body.length}`);
    } else if (req.url === '/late') {
      setTimeout(() => res.end(`ok ${req.url}`), 20);
    } else {
      res.end(`ok ${req.url}`);
    }
  });
  const port = await listen(server);
  try {
    const body = 'b'.repeat(3000);
    const wire = [
      'GET /1 HTTP/1.1\r\nHost: x\r\n\r\n',
      `POST /ignored HTTP/1.1\r\nHost: x\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
      'GET /late HTTP/1.1\r\nHost: x\r\n\r\n',
      `POST /read HTTP/1.1\r\nHost: x\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
      'POST /chunked HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n',
      'GET /last HTTP/1.1\r\nHost: x\r\n\r\n',
    ].join('');
    const out = await rawRequest(port, [wire], { until: responses(6) });
    const bodies = out.split(/HTTP\/1\.1 200 OK\r\n/).slice(1).map((r) => r.slice(r.indexOf('\r\n\r\n') + 4));
    assert.deepEqual(bodies, ['ok /1', 'ok /ignored', 'ok /late', 'ok /read 3000', 'ok /chunked', 'ok /last']);
  } finally {
    await closeServer(server);
  }
});

threeWays('a handler that reads the body is unaffected (data/end, async iteration, pipe)', async () => {
  const { Writable } = require('node:stream');
  const server = http.createServer(async (req, res) => {
    const rec = watch(req, res);
    let length = 0;
    if (req.url === '/events') {
      req.on('data', (d) => { length += d.length; });
      await once(req, 'end');
    } else if (req.url === '/iterate') {
      for await (const d of req) length += d.length;
    } else {
      const sink = new Writable({ write(chunk, enc, cb) { length += chunk.length; cb(); } });
      req.pipe(sink);
      await once(sink, 'finish');
    }
    res.end(`ok ${length} ${req.complete} ${req.aborted}`);
    await rec.closed;
    server.events.push(rec.events.join(','));
  });
  server.events = [];
  const port = await listen(server);
  try {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    for (const path of ['/events', '/iterate', '/pipe']) {
      for (const size of [0, 10, 300000]) {
        const req = http.request({ port, host: '127.0.0.1', method: 'POST', path, agent });
        req.end(Buffer.alloc(size, 'z'));
        const [res] = await once(req, 'response');
        assert.equal(await bodyOf(res), `ok ${size} true false`, `${path} ${size}`);
      }
    }
    agent.destroy();
    while (server.events.length < 9) await delay(5);
    for (const events of server.events) {
      assert.ok(!events.includes('aborted') && !events.includes('error'), events);
      assert.match(events, /end.*close/);
    }
  } finally {
    await closeServer(server);
  }
});

threeWays('client: an unread response dumped by req.destroy() after it arrived', async ({ fast }) => {
  const server = http.createServer((req, res) => res.end(req.url === '/empty' ? '' : 'body'));
  const port = await listen(server);
  try {
    const agent = new http.Agent({ keepAlive: true });
    for (const path of ['/empty', '/body']) {
      const req = http.get({ port, host: '127.0.0.1', path, agent });
      const [res] = await once(req, 'response');
      const rec = watch(res);
      while (!res.complete) await delay(5);
      await delay(5);
      req.destroy();
      await rec.closed;
      // Fully received with nothing buffered: read(0) instead of resume().
      const fastPath = fast && path === '/empty';
      assert.deepEqual(rec.events, fastPath ? ['end', 'close'] : ['resume', 'end', 'close'], path);
      assert.equal(res.aborted, false);
      assert.equal(rec.closeInsideEnd, false);
    }
    agent.destroy();
  } finally {
    await closeServer(server);
  }
});

// The response is dumped inside its headers' delivery. When its end is in
// the same read (/empty), ours dumps it at completion without resume(); a
// body still arriving (/big) takes resume(). Node's own _dump (every mode on
// 24+) finds the message incomplete there and resumes it: only the wrappers
// defer the dump to the parser.
threeWays('client: a response nobody listens to is dumped and its socket reused', async ({ wrapped }) => {
  const server = http.createServer((req, res) => res.end(req.url === '/empty' ? '' : 'x'.repeat(100000)));
  const port = await listen(server);
  try {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const sockets = new Set();
    for (const path of ['/empty', '/big', '/empty', '/big']) {
      const req = http.get({ port, host: '127.0.0.1', path, agent });
      req.on('socket', (s) => sockets.add(s));
      req.removeAllListeners('response');
      await once(agent, 'free');
      const res = req.res;
      assert.equal(res._dumped, true, path);
      assert.equal(res.readableEnded, true, path);
      assert.equal(res.complete, true, path);
      assert.equal(res.readableFlowing, wrapped && path === '/empty' ? null : true, `${path}: flowing only when resumed`);
    }
    assert.equal(sockets.size, 1, 'one keep-alive socket for all');
    agent.destroy();
  } finally {
    await closeServer(server);
  }
});

// The parser settles a dump it deferred by the end of the execute() in any
// case: a handler that throws before the message completes gets resume().
// Only the wrappers' _dump asks the parser to defer a dump.
test('a deferred client dump falls back to resume() when the message does not complete in that execute()', {
  skip: WRAPS ? false : 'Node 24.22+ IncomingMessage has its own fast dump: install() does not put the _dump wrapper on IncomingMessage, so no dump is deferred to the parser',
}, () => {
  llhttp.install();
  try {
    for (const throwInBody of [false, true]) {
      const p = new OurParser();
      p.initialize(OurParser.RESPONSE, {});
      const msg = new IncomingMessage({ parser: p });
      let deferred = null;
      p[OurParser.kOnHeadersComplete] = function() {
        this.incoming = msg;
        msg._dump();
        // Taken on: dumped, and not by resume() (which sets it flowing).
        deferred = msg._dumped === true && msg.readableFlowing === null;
        return 0;
      };
      p[OurParser.kOnBody] = function() { if (throwInBody) throw new Error('boom'); };
      p[OurParser.kOnMessageComplete] = function() {
        msg.complete = true;
        msg.push(null);
      };
      const input = Buffer.from('HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\nabc');
      if (throwInBody) assert.throws(() => p.execute(input), /boom/);
      else assert.equal(p.execute(input), input.length);
      assert.equal(deferred, true, 'the end was among the events: the parser took the dump on');
      assert.equal(msg._dumped, true);
      assert.equal(msg.readableFlowing, throwInBody ? true : null, throwInBody ? 'resume()' : 'read(0)');
      p.close();
    }
  } finally {
    llhttp.uninstall();
  }
});

test('shapes: the wrappers leave messages with the maps Node gives them; parsers keep one map (--allow-natives-syntax)', async () => {
  // The same traffic in four phases: warm-up (built-in), built-in,
  // install({ incoming: false }), install(). Message i of a phase must have
  // the map of message i of the others: V8 gives a message one of a few maps
  // depending on where it sat in a read, so position matters.
  const script = `
    const llhttp = require(${JSON.stringify(require('node:path').resolve(__dirname, '..', '..'))});
    const http = require('http');
    const net = require('net');
    const phases = { warmup: [], builtin: [], noinc: [], fast: [] };
    let phase = 'warmup';
    const server = http.createServer((req, res) => {
      phases[phase].push({ req, parser: req.socket.parser });
      if (req.url === '/read') req.on('data', () => {}).on('end', () => res.end('ok'));
      else res.end('ok');
    });
    function exchange(port, text, n) {
      return new Promise((resolve) => {
        const s = net.connect(port, '127.0.0.1', () => s.write(text));
        let got = '';
        s.on('data', (d) => { got += d; if ((got.match(/ok/g) || []).length >= n) { s.end(); resolve(); } });
      });
    }
    const GET = 'GET / HTTP/1.1\\r\\nHost: x\\r\\n\\r\\n';
    const POST = (url) => 'POST ' + url + ' HTTP/1.1\\r\\nHost: x\\r\\nContent-Length: 3\\r\\n\\r\\nabc';
    async function traffic(port) {
      await exchange(port, GET.repeat(3), 3);
      await exchange(port, GET, 1);
      await exchange(port, POST('/unread').repeat(2), 2);
      await exchange(port, POST('/read').repeat(2), 2);
      await new Promise((r) => setTimeout(r, 30));
    }
    server.listen(0, '127.0.0.1', async () => {
      const port = server.address().port;
      await traffic(port);
      phase = 'builtin';
      await traffic(port);
      llhttp.install({ incoming: false });
      phase = 'noinc';
      await traffic(port);
      llhttp.uninstall();
      llhttp.install();
      phase = 'fast';
      await traffic(port);
      const same = (a, b) => %HaveSameMap(a, b);
      const out = { n: phases.fast.length, req: [], state: [], parser: true, dumpedFast: 0 };
      for (let i = 0; i < phases.fast.length; i++) {
        const f = phases.fast[i].req;
        out.req.push(same(f, phases.noinc[i].req) && same(f, phases.builtin[i].req));
        out.state.push(same(f._readableState, phases.noinc[i].req._readableState) &&
                       same(f._readableState, phases.builtin[i].req._readableState));
        if (f._dumped && f.readableFlowing === null) out.dumpedFast++;
      }
      const parsers = [...phases.noinc, ...phases.fast].map((x) => x.parser);
      out.parser = parsers.every((p) => same(p, parsers[0]));
      console.log(JSON.stringify(out));
      server.close();
    });
  `;
  const r = await runNode(['--allow-natives-syntax', '-e', script]);
  assert.equal(r.stderr, '');
  const out = JSON.parse(r.stdout);
  assert.equal(out.n, 8);
  assert.equal(out.dumpedFast, 4, 'the four GETs took the fast dump');
  assert.deepEqual(out.req, new Array(8).fill(true), 'message maps as with Node\'s methods');
  assert.deepEqual(out.state, new Array(8).fill(true), 'readable state maps as with Node\'s methods');
  assert.equal(out.parser, true, 'one parser map');
});
