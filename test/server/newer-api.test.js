'use strict';
// node:http's newer parts of the server API, asserted alike on node:http and
// llhttp-napi/server: res.setHeaders() (a Headers or a Map), a head whose
// values are not ASCII (latin1 bytes, also beside a utf8 body) and, where
// the line has it, req.signal.
const { test } = require('node:test');
const assert = require('node:assert/strict');
const http = require('node:http');
const net = require('node:net');

const { FACES, withServer, exchange, withClose } = require('../support/both-servers');

const HAS_SIGNAL = Object.getOwnPropertyDescriptor(http.IncomingMessage.prototype, 'signal') !== undefined;

function get(port, path = '/') {
  return exchange(port, [withClose(`GET ${path} HTTP/1.1\r\nHost: x\r\n\r\n`)]);
}

test('res.setHeaders() takes a Headers or a Map, Set-Cookie values kept apart, and refuses the rest', async () => {
  for (const [face, create] of FACES) {
    const refusals = [];
    await withServer(create, {}, (req, res) => {
      for (const bad of [['foo', '1'], { foo: '1' }, null, undefined, 'test', 1]) {
        try {
          res.setHeaders(bad);
          refusals.push('accepted');
        } catch (err) {
          refusals.push(`${err.code}: ${err.message}`);
        }
      }
      if (req.url === '/headers') {
        const headers = new Headers({ foo: '1', bar: '2' });
        headers.append('Set-Cookie', 'a=b');
        headers.append('Set-Cookie', 'c=d');
        res.setHeaders(headers);
        res.writeHead(200, ['foo', '3']);
      } else {
        res.setHeaders(new Map([['foo', '1'], ['set-cookie', ['e=f', 'g=h']]]));
        res.writeHead(200);
        assert.throws(() => res.setHeaders(new Map([['late', '1']])), { code: 'ERR_HTTP_HEADERS_SENT' });
      }
      res.end();
    }, async (port) => {
      const first = (await get(port, '/headers')).text;
      assert.match(first, /\r\nfoo: 3\r\n/, face);
      assert.match(first, /\r\nbar: 2\r\n/, face);
      assert.match(first, /\r\nset-cookie: a=b\r\nset-cookie: c=d\r\n/, face);
      const second = (await get(port, '/map')).text;
      assert.match(second, /\r\nfoo: 1\r\nset-cookie: e=f\r\nset-cookie: g=h\r\n/, face);
    });
    assert.equal(refusals.length, 12, face);
    for (const refusal of refusals) {
      assert.match(refusal, /^ERR_INVALID_ARG_TYPE: The "headers" argument must be an instance of Headers or Map\./, face);
    }
  }
});

// (node:http's own test of this, test-http-server-non-utf8-header.js: a
// value given as a string or in an array, framed by chunks or by a
// Content-Length given before it or by end(), and a status message. Other
// non-ASCII values of a sized head share the body's utf8 write: test/server/
// http.test.js compares those.)
// node:http's private raw write, which Node 22's own tests use for an
// informational answer: its bytes leave before the head, in order, and its
// callback runs.
test('res._writeRaw(): bytes before the head, in order, as node:http\'s', async () => {
  const answers = {};
  for (const [face, create] of FACES) {
    const log = [];
    await withServer(create, {}, (req, res) => {
      log.push(res._writeRaw('HTTP/1.1 102 Processing\r\n'));
      res._writeRaw('Foo: Bar\r\n', 'latin1');
      res._writeRaw('\r\n', () => log.push('written'));
      res.writeHead(200, { 'Content-Type': 'text/plain' });
      res.end('after');
    }, async (port) => {
      const { text } = await get(port);
      answers[face] = { text: text.replace(/\r\nDate: [^\r]*/, ''), log };
    });
  }
  assert.deepEqual(answers['llhttp-napi/server'], answers['node:http']);
  assert.match(answers['node:http'].text, /^HTTP\/1\.1 102 Processing\r\nFoo: Bar\r\n\r\nHTTP\/1\.1 200 OK/);
  assert.deepEqual(answers['node:http'].log, [true, 'written']);
});

test('a Content-Disposition or chunked head that is not ASCII reaches the wire as latin1 before a utf8 body', async () => {
  const value = Buffer.from('bår').toString('latin1');
  const answers = {};
  for (const [face, create] of FACES) {
    answers[face] = [];
    await withServer(create, {}, (req, res) => {
      if (req.url === '/array') res.writeHead(200, ['Content-Disposition', [value]]);
      else if (req.url === '/sized') res.writeHead(200, ['Content-Length', '6', 'Content-Disposition', value]);
      else if (req.url === '/status') res.writeHead(200, 'Åll gööd', ['Content-Disposition', value]);
      else if (req.url === '/implicit') res.setHeader('Content-Disposition', value);
      else res.writeHead(200, ['Content-Disposition', value]);
      res.end('héllo');
    }, async (port) => {
      for (const path of ['/chunked', '/array', '/sized', '/status', '/implicit']) {
        const { text } = await get(port, path);
        answers[face].push(text.replace(/\r\nDate: [^\r]*/, ''));
        assert.ok(text.includes(`Content-Disposition: ${value}\r\n`), `${face} ${path}: ${JSON.stringify(text)}`);
        assert.ok(Buffer.from(text, 'latin1').includes(Buffer.from('héllo', 'utf8')), `${face} ${path}: the body is utf8`);
      }
    });
  }
  assert.deepEqual(answers['llhttp-napi/server'], answers['node:http']);
});

test('req.signal: aborted when the connection goes before the answer, never after a finished one',
  { skip: !HAS_SIGNAL && 'this line\'s IncomingMessage has no signal' }, async () => {
    for (const [face, create] of FACES) {
      const seen = [];
      let closedEarly;
      const early = new Promise((resolve) => { closedEarly = resolve; });
      await withServer(create, {}, (req, res) => {
        const { signal } = req;
        assert.ok(signal instanceof AbortSignal, face);
        assert.equal(req.signal, signal, `${face}: one signal`);
        assert.equal(signal.aborted, false, face);
        if (req.url === '/hang') {
          signal.onabort = () => {
            seen.push(`hang aborted ${req.aborted}`);
            closedEarly();
          };
          res.flushHeaders();
          return;
        }
        if (req.url === '/destroy') {
          signal.onabort = () => seen.push('destroy aborted');
          res.destroy();
          return;
        }
        signal.onabort = () => seen.push('finished aborted');
        req.resume();
        req.on('end', () => res.end('ok', () => {
          setImmediate(() => {
            seen.push(`finished ${signal.aborted}`);
            res.socket?.destroy();
          });
        }));
      }, async (port) => {
        await exchange(port, ['POST /ok HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\nhi'], { end: false, idleMs: 300 });
        await exchange(port, [withClose('GET /destroy HTTP/1.1\r\nHost: x\r\n\r\n')]);
        await new Promise((resolve) => {
          const socket = net.connect(port, '127.0.0.1', () => socket.write('GET /hang HTTP/1.1\r\nHost: x\r\n\r\n'));
          socket.once('data', () => socket.destroy());
          socket.on('close', resolve);
        });
        await early;
      });
      assert.deepEqual(seen.sort(), ['destroy aborted', 'finished false', 'hang aborted true'], face);
    }
  });

test('req.signal read after the request was destroyed unfinished is aborted already',
  { skip: !HAS_SIGNAL && 'this line\'s IncomingMessage has no signal' }, async () => {
    for (const [face, create] of FACES) {
      let aborted;
      await withServer(create, {}, (req) => {
        req.destroy();
        aborted = req.signal.aborted;
      }, (port) => exchange(port, ['POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\nab'], { idleMs: 300 }));
      assert.equal(aborted, true, face);
    }
  });

// (node:http validates the option where it has it, 24 on.)
const HAS_OPTIMIZE_EMPTY = (() => {
  try {
    new http.Server({ optimizeEmptyRequests: 'not a boolean' });
    return false;
  } catch {
    return true;
  }
})();

test('optimizeEmptyRequests: a request without body headers comes ended, closed and dumped',
  { skip: !HAS_OPTIMIZE_EMPTY && 'this line\'s node:http has no optimizeEmptyRequests' }, async () => {
    const heads = ['GET / HTTP/1.1', 'HEAD / HTTP/1.1', 'POST / HTTP/1.1', 'DELETE / HTTP/1.1',
      'POST / HTTP/1.1\r\nContent-Length: 0', 'GET / HTTP/1.1\r\nContent-Length: 0',
      'POST / HTTP/1.1\r\nTransfer-Encoding: chunked', 'GET / HTTP/1.1\r\ntransfer-encoding: chunked'];
    const seen = {};
    for (const [face, create] of FACES) {
      seen[face] = [];
      await withServer(create, { optimizeEmptyRequests: true }, (req, res) => {
        seen[face].push([req.method, req._dumped === true, req.readableEnded, req.destroyed]);
        res.end('ok');
      }, async (port) => {
        for (const head of heads) {
          const body = head.includes('chunked') ? '0\r\n\r\n' : '';
          await exchange(port, [`${head}\r\nHost: x\r\nConnection: close\r\n\r\n${body}`]);
        }
      });
    }
    const dumped = seen['node:http'].map((entry) => entry[1]);
    assert.deepEqual(dumped, [true, true, true, true, false, false, false, false]);
    assert.deepEqual(seen['llhttp-napi/server'], seen['node:http']);
  });

// The classes' names, which `constructor.name` and stacks show (frameworks
// hand them on: @hono/node-server's env.incoming / env.outgoing).
test('the request\'s and the response\'s constructor names, as node:http\'s', async () => {
  const names = [];
  for (const [, create] of FACES) {
    await withServer(create, {}, (req, res) => {
      names.push([req.constructor.name, res.constructor.name]);
      res.end();
    }, (port) => get(port));
  }
  assert.deepStrictEqual(names[1], names[0]);
  assert.deepStrictEqual(names[0], ['IncomingMessage', 'ServerResponse']);
});
