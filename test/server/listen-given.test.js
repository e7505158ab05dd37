'use strict';
// Every way to listen that node:net takes beside a port and a path, on
// node:http and on llhttp-napi/server's native transport (issue 46): a
// descriptor ({ fd }, TCP and a Unix domain socket, inherited as systemd
// hands one over), a handle (a server, { handle }, { _handle }, the handle
// itself, a bound socket), the descriptors and handles node:net refuses,
// and a cluster worker, round-robin and with the listening socket shared.
// The same assertions on both; on the native transport, the connections
// are its own.
const test = require('node:test');
const assert = require('node:assert');
const http = require('node:http');
const net = require('node:net');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { once } = require('node:events');
const { spawn, spawnSync } = require('node:child_process');
const ours = require('../../lib/server');
const { available, NativeSocket } = require('../../lib/server/native-transport');

const native = (handler) => ours.createServer({ transport: 'native' }, handler);
const FACES = [['node:http', (handler) => http.createServer(handler)], ['native', native]];
const skip = available() ? false : 'this build has no native transport (docs/server.md)';
const SUPPORT = path.join(__dirname, '..', 'support');

// Answers each request with its URL and the kind of its socket.
const tell = (req, res) => res.end(`${req.url} ${req.socket instanceof NativeSocket ? 'native' : 'net'}`);

// `count` requests on one connection to `where` (a port on 127.0.0.1, or
// a path), the last with Connection: close: the bodies, or the error's code.
function request(where, count = 1) {
  return new Promise((resolve) => {
    const socket = typeof where === 'number' ? net.connect(where, '127.0.0.1') : net.connect(where);
    let got = '';
    socket.on('data', (d) => { got += d; });
    socket.on('error', (err) => resolve(err.code));
    socket.on('close', () => resolve(Array.from(got.matchAll(/\r\n\r\n(\/\d+ (?:native|net))/g), (m) => m[1])));
    let text = '';
    for (let i = 0; i < count; i++) text += `GET /${i} HTTP/1.1\r\nHost: x\r\n${i === count - 1 ? 'Connection: close\r\n' : ''}\r\n`;
    socket.end(text);
  });
}

// The bodies' kinds of socket, and the rest with the kinds taken out.
function kinds(value) {
  const found = new Set();
  const text = JSON.stringify(value).replace(/ (native|net)"/g, (_, kind) => {
    found.add(kind);
    return ' -"';
  });
  return { kinds: [...found], rest: JSON.parse(text) };
}

// Each face's results of fn(face name, create), compared with the kinds
// of socket taken out: node:http's are net, the native transport's native
// (none when nothing listened: `served` false).
async function sameOnBoth(fn, served = true) {
  const results = [];
  for (const [name, create] of FACES) results.push(kinds(await fn(name, create)));
  assert.deepStrictEqual(results[0].kinds, served ? ['net'] : []);
  assert.deepStrictEqual(results[1].kinds, served ? ['native'] : []);
  assert.deepStrictEqual(results[1].rest, results[0].rest);
  return results[0].rest;
}

// A message of `child` whose first item is `what`.
function message(child, what) {
  return new Promise((resolve) => {
    const on = (m) => {
      if (m[0] !== what && m[0] !== 'error') return;
      child.off('message', on);
      resolve(m);
    };
    child.on('message', on);
  });
}

// listen({ fd: 3 }) in a child process that inherited `listener`'s
// descriptor (the listener closes here at once); `connectTo`: where to
// reach it.
async function listenOnInherited(face, listener, connectTo) {
  const child = spawn(process.execPath, [path.join(SUPPORT, 'fd-listen.js'), face],
    { stdio: ['ignore', 'inherit', 'inherit', listener._handle.fd, 'ipc'] });
  await new Promise((resolve) => listener.close(resolve));
  const listening = await message(child, 'listening');
  const answers = [await request(connectTo, 2), await request(connectTo)];
  child.send('close');
  const closed = await message(child, 'closed');
  const [code] = await once(child, 'exit');
  return { listening, answers, closed, code, after: await request(connectTo) };
}

test('listen({ fd }) on an inherited TCP socket: address, answers, and close closes it, as node:http', { skip }, async () => {
  const r = await sameOnBoth(async (face) => {
    const listener = net.createServer();
    await new Promise((resolve) => listener.listen(0, '127.0.0.1', resolve));
    const { port } = listener.address();
    const out = await listenOnInherited(face, listener, port);
    const given = out.listening[1];
    out.listening[1] = { ...given, port: given.port === port ? 'the inherited socket\'s' : given.port };
    return out;
  });
  assert.deepStrictEqual(r.listening, ['listening', { address: '127.0.0.1', family: 'IPv4', port: 'the inherited socket\'s' }, true]);
  assert.deepStrictEqual(r.answers, [['/0 -', '/1 -'], ['/0 -']]);
  // (The descriptor is the server's: closed with it.)
  assert.deepStrictEqual(r.closed, ['closed', false, false]);
  assert.strictEqual(r.after, 'ECONNREFUSED');
});

test('listen({ fd }) on an inherited Unix domain socket, as node:http', { skip }, async () => {
  const r = await sameOnBoth(async (face) => {
    const bound = path.join(os.tmpdir(), `llhttp-napi-fd-${process.pid}.sock`);
    const reached = `${bound}.moved`;
    for (const p of [bound, reached]) fs.rmSync(p, { force: true });
    const listener = net.createServer();
    await new Promise((resolve) => listener.listen(bound, resolve));
    // (Moved first: the listener's close here unlinks the path it bound.)
    fs.renameSync(bound, reached);
    const out = await listenOnInherited(face, listener, reached);
    fs.rmSync(reached, { force: true });
    return out;
  });
  // (node:net's handle over a descriptor cannot tell a Unix domain socket's name.)
  assert.deepStrictEqual(r.listening, ['listening', null, true]);
  assert.deepStrictEqual(r.answers, [['/0 -', '/1 -'], ['/0 -']]);
  assert.deepStrictEqual(r.closed, ['closed', false, false]);
  assert.strictEqual(r.after, 'ECONNREFUSED');
});

// What listen() did: 'listening' (then a request, then close()), or the
// error thrown or emitted, with every field node:net gives it.
async function outcome(create, arg) {
  const server = create(tell);
  try {
    server.listen(arg);
  } catch (err) {
    return ['throw', err.code, err.message];
  }
  const [kind, err] = await new Promise((resolve) => {
    server.once('listening', () => resolve(['listening']));
    server.once('error', (e) => resolve(['error', e]));
  });
  if (kind === 'error') {
    return ['error', err.code, err.errno, err.syscall, 'address' in err, err.address, 'port' in err, err.message, server.listening];
  }
  const where = server.address();
  const answers = await request(typeof where === 'string' ? where : where.port);
  await new Promise((resolve) => server.close(resolve));
  return ['listening', answers];
}

test('descriptors and handles node:net refuses: the same error, thrown or emitted, as node:http', { skip }, async () => {
  const r = await sameOnBoth(async (face, create) => {
    const live = net.createServer((socket) => socket.resume().end());
    await new Promise((resolve) => live.listen(0, '127.0.0.1', resolve));
    const file = fs.openSync(__filename, 'r');
    const where = path.join(os.tmpdir(), `llhttp-napi-refused-${process.pid}.sock`);
    fs.rmSync(where, { force: true });
    const onPath = net.createServer();
    await new Promise((resolve) => onPath.listen(where, resolve));
    const connected = net.connect(live.address().port, '127.0.0.1');
    await once(connected, 'connect');
    const out = {};
    for (const [name, arg] of [['a live server\'s descriptor', { fd: live._handle.fd }], ['a file', { fd: file }],
      ['a connected socket', connected],
      ['not open', { fd: 0x7fff }], ['not an integer', { fd: 1.5 }], ['too big', { fd: 2 ** 31 }],
      ['negative', { fd: -1 }], ['a string', { fd: '3' }], ['a listening Unix domain socket server', onPath],
      ['its descriptor', { fd: onPath._handle.fd }]]) {
      out[name] = await outcome(create, arg);
    }
    let fileOpen = true;
    try {
      fs.fstatSync(file);
    } catch {
      fileOpen = false;
    }
    out.fileOpen = fileOpen;
    connected.destroy();
    // (Still there, and still its own.)
    out.liveStill = await request(live.address().port);
    fs.closeSync(file);
    await new Promise((resolve) => onPath.close(resolve));
    await new Promise((resolve) => live.close(resolve));
    return out;
  }, false);
  assert.deepStrictEqual(r['a file'].slice(0, 4), ['error', 'EINVAL', r['a file'][2], 'listen']);
  assert.deepStrictEqual(r['a live server\'s descriptor'].slice(0, 2), ['error', 'EEXIST']);
  assert.strictEqual(r.negative[1], 'ERR_INVALID_ARG_VALUE');
  assert.deepStrictEqual(r['a connected socket'].slice(0, 2), ['error', 'EINVAL']);
  assert.strictEqual(r.fileOpen, true);
  assert.deepStrictEqual(r.liveStill, []);
});

test('listen(handle): a server, { handle }, { _handle }, the handle: its address, its connections, and close closes it, as node:http',
  { skip }, async () => {
    const r = await sameOnBoth(async (face, create) => {
      const out = {};
      for (const form of ['server', '{ handle }', '{ _handle }', 'handle', 'server, backlog']) {
        const original = net.createServer(() => assert.fail('a connection went to the handle\'s first server'));
        await new Promise((resolve) => original.listen(0, '127.0.0.1', resolve));
        const handle = original._handle;
        const arg = form === '{ handle }' ? { handle } : form === '{ _handle }' ? { _handle: handle } :
          form === 'handle' ? handle : original;
        const server = create(tell);
        const closed = once(server, 'close');
        await new Promise((resolve) => (form === 'server, backlog' ? server.listen(arg, 7, resolve) : server.listen(arg, resolve)));
        const same = JSON.stringify(server.address()) === JSON.stringify(original.address());
        const { port } = server.address();
        const answers = [await request(port, 2), await request(port)];
        server.close();
        const listening = server.listening;
        await closed;
        let after;
        try {
          after = original.address();
        } catch (err) {
          after = err.code;
        }
        out[form] = { same, answers, listening, after, refused: await request(port) };
      }
      return out;
    });
    assert.deepStrictEqual(r.server, { same: true, answers: [['/0 -', '/1 -'], ['/0 -']], listening: false, after: 'EBADF',
      refused: 'ECONNREFUSED' });
    for (const form of Object.keys(r)) assert.deepStrictEqual(r[form], r.server, form);
  });

// The cluster (test/support/cluster-listen.js) with `face`'s worker.
function clusterRun(face, policy, how) {
  const result = spawnSync(process.execPath, [path.join(SUPPORT, 'cluster-listen.js'), face, policy, how],
    { encoding: 'utf8', timeout: 30000 });
  assert.strictEqual(result.status, 0, result.stderr);
  return JSON.parse(result.stdout);
}

for (const policy of ['rr', 'none']) {
  test(`a cluster worker (${policy === 'rr' ? 'round-robin' : 'shared handle'}): the primary's address, its connections, ` +
    'close() and disconnect, as node:http', { skip, timeout: 60000 }, async () => {
    const r = await sameOnBoth(async (face) => ({ close: clusterRun(face, policy, 'close'),
      disconnect: clusterRun(face, policy, 'disconnect') }));
    assert.deepStrictEqual(r.close, [['worker listening', '127.0.0.1', 'IPv4', true], ['primary listening', 4, '127.0.0.1', 'number'],
      ['requests', ['/0 -', '/1 -', '/2 -'], ['/0 -']], ['worker server close event'], ['closed', null, false],
      ['after close', 'ECONNREFUSED'], ['exit', 0, null, true]]);
    assert.deepStrictEqual(r.disconnect.at(-1), ['exit', 0, null, true]);
  });
}

// (Node 26's net.BoundSocket: a socket bound, not yet listening, that
// listen() takes over.)
test('listen(boundSocket) and listen({ handle: boundSocket }), TCP and a Unix domain socket, as node:http',
  { skip: skip || (net.BoundSocket === undefined && 'this Node has no net.BoundSocket') }, async () => {
    const r = await sameOnBoth(async (face, create) => {
      const out = {};
      const where = path.join(os.tmpdir(), `llhttp-napi-bound-${process.pid}.sock`);
      for (const [form, options] of [['TCP', { port: 0, host: '127.0.0.1' }], ['path', { path: where }]]) {
        fs.rmSync(where, { force: true });
        const bound = new net.BoundSocket(options);
        const server = create(tell);
        await new Promise((resolve) => server.listen(form === 'TCP' ? bound : { handle: bound }, resolve));
        const address = server.address();
        const answers = await request(typeof address === 'string' ? address : address.port, 2);
        await new Promise((resolve) => server.close(resolve));
        out[form] = { address: typeof address === 'string' ? address === where : address.address, answers,
          after: server.address(), gone: !fs.existsSync(where) };
      }
      return out;
    });
    assert.deepStrictEqual(r.TCP, { address: '127.0.0.1', answers: ['/0 -', '/1 -'], after: null, gone: true });
    assert.deepStrictEqual(r.path.address, true);
  });
