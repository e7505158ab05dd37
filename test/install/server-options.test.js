'use strict';
// The newer node:http options around the parser, each case run with Node's
// built-in parser and after install(), with the same assertions, and the two
// records compared whole (events, statuses, errors):
// - optimizeEmptyRequests (24.12 on, 26): a request without body headers
//   gets an already-ended stream;
// - httpValidation: 'strict' | 'relaxed' | 'insecure' (24.19 on, 26.3 on,
//   server and client), which node:http turns into the parser's lenient
//   flags, and its clash with insecureHTTPParser;
// - joinDuplicateHeaders, requireHostHeader and maxHeaderSize beside them;
// - the client's parser options (insecureHTTPParser, httpValidation,
//   maxHeaderSize, joinDuplicateHeaders).
// Whether the running Node has an option is measured on its http
// (test/support/line-behaviour.js), not keyed by version; a case whose option
// is missing is skipped, saying so.
const { test } = require('node:test');
const assert = require('node:assert/strict');
const http = require('node:http');
const net = require('node:net');
const { once } = require('node:events');

const {
  MODES, useMode, llhttp, assertParser, listen, closeServer, rawRequest, runNode, delay,
} = require('../support/http-modes');
const { serverOptions, clientOptions } = require('../support/line-behaviour');

const lacks = (what, has) => (has ? false : `this Node's http has no ${what}`);

// Runs fn(mode) with the built-in parser, then with ours; asserts that both
// gave the same record and returns it.
async function sameBothWays(fn) {
  const records = {};
  for (const mode of MODES) {
    useMode(mode);
    try {
      records[mode] = await fn(mode);
    } finally {
      llhttp.uninstall();
    }
  }
  assert.deepEqual(records['llhttp-napi'], records.builtin, 'llhttp-napi gives what the built-in gives');
  return records.builtin;
}

// A response as received, without the Date header.
const normalize = (raw) => raw.replace(/\r\nDate: [^\r]*/g, '');

// A server that logs, per request, its state when the handler runs, the
// events of the request and of its response in order, the body it read and
// the headers it got; parse errors are answered with their code and reason
// (the 'clientError' listener replaces node:http's default 400 / 431).
function recordingServer(mode, options) {
  const log = [];
  const server = http.createServer(options, (req, res) => {
    assertParser(mode, req.socket.parser);
    const entry = {
      request: `${req.method} ${req.url} HTTP/${req.httpVersion}`,
      atHandler: { complete: req.complete, readableEnded: req.readableEnded, destroyed: req.destroyed },
      events: [],
      body: '',
    };
    log.push(entry);
    req.on('data', (d) => { entry.events.push('data'); entry.body += d.toString('latin1'); });
    for (const name of ['end', 'close', 'aborted', 'error']) req.on(name, () => entry.events.push(name));
    res.on('finish', () => entry.events.push('response finish'));
    res.on('close', () => entry.events.push('response close'));
    // Answered on a later turn, once the request ended (at once when it is
    // ended already): what the request emits in between is logged.
    const respond = () => setImmediate(() => res.end(JSON.stringify({
      rawHeaders: req.rawHeaders, xa: req.headers['x-a'] === undefined ? null : req.headers['x-a'],
      ua: req.headers['user-agent'] === undefined ? null : req.headers['user-agent'], body: entry.body,
    })));
    if (req.readableEnded) respond();
    else req.on('end', respond);
  });
  server.on('clientError', (err, socket) => {
    log.push({ clientError: err.code, reason: err.reason === undefined ? null : err.reason });
    if (socket.writable) socket.end(`HTTP/1.1 400 Bad Request\r\nX-Code: ${err.code}\r\nConnection: close\r\n\r\n`);
    else socket.destroy();
  });
  return { server, log };
}

// Each request (an array of chunks) on a connection of its own, in turn; the
// responses received and the server's log, once the connections closed and
// the events after them ran.
async function exchange(mode, options, requests) {
  const { server, log } = recordingServer(mode, options);
  const port = await listen(server);
  try {
    const responses = [];
    for (const chunks of requests) responses.push(normalize(await rawRequest(port, chunks, { timeout: 10000 })));
    await delay(20);
    return { responses, log };
  } finally {
    await closeServer(server);
  }
}

const CLOSE = 'Connection: close\r\n';

// ---- optimizeEmptyRequests ---------------------------------------------------

const EMPTY_CASES = [
  ['GET', [`GET /get HTTP/1.1\r\nHost: x\r\n${CLOSE}\r\n`]],
  ['HEAD', [`HEAD /head HTTP/1.1\r\nHost: x\r\n${CLOSE}\r\n`]],
  ['GET with a body', [`GET /body HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\n${CLOSE}\r\nabcd`]],
  ['GET with a body that comes later', [`GET /later HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\n${CLOSE}\r\n`,
    () => delay(30), 'ab', () => delay(30), 'cd']],
  ['chunked POST', [`POST /chunked HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n${CLOSE}\r\n2\r\nok\r\n0\r\n\r\n`]],
  ['pipelined', ['GET /1 HTTP/1.1\r\nHost: x\r\n\r\nHEAD /2 HTTP/1.1\r\nHost: x\r\n\r\n' +
    'POST /3 HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\nokDELETE /4 HTTP/1.1\r\nHost: x\r\n\r\n' +
    `GET /5 HTTP/1.0\r\n\r\n`]],
];

test('optimizeEmptyRequests: GET, HEAD, bodies, pipelining; end and close as with the built-in',
  { skip: lacks('optimizeEmptyRequests', serverOptions.optimizeEmptyRequests) }, async () => {
    const record = await sameBothWays(async (mode) => {
      const out = {};
      for (const optimize of [true, false]) {
        out[optimize] = await exchange(mode, { optimizeEmptyRequests: optimize }, EMPTY_CASES.map(([, c]) => c));
      }
      return out;
    });
    // What the option does, on either parser: a request without body
    // headers is ended when its handler runs; one with a body is not.
    const at = (optimize, request) => record[optimize].log.find((e) => e.request.startsWith(request));
    for (const request of ['GET /get ', 'HEAD /head ', 'GET /1 ', 'HEAD /2 ', 'DELETE /4 ', 'GET /5 ']) {
      assert.equal(at(true, request).atHandler.readableEnded, true, `${request}: an ended stream`);
      assert.equal(at(false, request).atHandler.readableEnded, false, `${request}: without the option`);
    }
    for (const request of ['GET /body ', 'GET /later ', 'POST /chunked ', 'POST /3 ']) {
      const entry = at(true, request);
      assert.equal(entry.atHandler.readableEnded, false, request);
      assert.ok(entry.events.includes('end'), `${request}: 'end' (${entry.events})`);
      assert.ok(entry.body.length > 0, `${request}: its body was read`);
    }
    assert.equal(record[true].responses[5].match(/HTTP\/1\.1 200 OK/g).length, 5, 'five pipelined responses');
  });

// ---- httpValidation ----------------------------------------------------------

// Requests that strict validation rejects and relaxed or insecure accept
// (and a plain one), each alone on its connection.
const VALIDATION_CASES = {
  plain: `GET / HTTP/1.1\r\nHost: x\r\nX-A: a\r\n${CLOSE}\r\n`,
  'obs-fold': `GET / HTTP/1.1\r\nHost: x\r\nX-A: a\r\n b\r\n${CLOSE}\r\n`,
  'control character in a value': `GET / HTTP/1.1\r\nHost: x\r\nX-A: a\x01b\r\n${CLOSE}\r\n`,
  'DEL in a value': `GET / HTTP/1.1\r\nHost: x\r\nX-A: a\x7fb\r\n${CLOSE}\r\n`,
  'NUL in a value': `GET / HTTP/1.1\r\nHost: x\r\nX-A: a\x00b\r\n${CLOSE}\r\n`,
  'bare LF': 'GET / HTTP/1.1\nHost: x\nX-A: a\nConnection: close\n\n',
  'bare LF after a header': `GET / HTTP/1.1\r\nHost: x\nX-A: a\r\n${CLOSE}\r\n`,
  'duplicate Content-Length': `POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nContent-Length: 2\r\n${CLOSE}\r\nok`,
  'conflicting Content-Length': `POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nContent-Length: 3\r\n${CLOSE}\r\nokk`,
  'Content-Length and chunked': `POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n${CLOSE}\r\n2\r\nok\r\n0\r\n\r\n`,
};

// Node 26.12's llhttp (9.4.3) never returns from a NUL in a header value with
// the relaxed flag (kLenientHeaderValueRelaxed), with either parser (ours
// calls node's llhttp); 9.4.4 rejects it. Not sent in relaxed mode.
function casesFor(validation) {
  return Object.entries(VALIDATION_CASES).filter(([name]) => !(validation === 'relaxed' && name.startsWith('NUL')));
}

const statusOf = (response) => response.split('\r\n')[0];

test('httpValidation: strict, relaxed and insecure against malformed requests',
  { skip: lacks('httpValidation', serverOptions.httpValidation) }, async () => {
    const record = await sameBothWays(async (mode) => {
      const out = {};
      for (const validation of [undefined, 'strict', 'relaxed', 'insecure']) {
        const cases = casesFor(validation);
        const { responses, log } = await exchange(mode, validation ? { httpValidation: validation } : {},
          cases.map(([, request]) => [request]));
        out[validation || 'default'] = { statuses: Object.fromEntries(cases.map(([name], i) => [name, statusOf(responses[i])])), responses, log };
      }
      return out;
    });
    const ok = 'HTTP/1.1 200 OK';
    for (const [name, status] of Object.entries(record.strict.statuses)) {
      assert.equal(status, name === 'plain' ? ok : 'HTTP/1.1 400 Bad Request', `strict: ${name}`);
      assert.equal(record.default.statuses[name], status, `the default is strict: ${name}`);
    }
    // Each lenient mode accepts something strict rejects.
    assert.equal(record.relaxed.statuses['control character in a value'], ok);
    for (const name of ['obs-fold', 'control character in a value', 'bare LF']) {
      assert.equal(record.insecure.statuses[name], ok, `insecure: ${name}`);
    }
  });

test('httpValidation with insecureHTTPParser throws, server and client, as the built-in does',
  { skip: lacks('httpValidation', serverOptions.httpValidation) }, async () => {
    await sameBothWays(async () => {
      const thrown = [];
      for (const validation of ['strict', 'relaxed', 'insecure']) {
        for (const insecure of [true, false]) {
          assert.throws(() => http.createServer({ httpValidation: validation, insecureHTTPParser: insecure }),
            (err) => { thrown.push(['server', err.code, err.message]); return err.code === 'ERR_INVALID_ARG_VALUE'; });
          if (!clientOptions.httpValidation) continue;
          assert.throws(() => http.request({ host: '127.0.0.1', port: 9, agent: false, httpValidation: validation, insecureHTTPParser: insecure }),
            (err) => { thrown.push(['client', err.code, err.message]); return err.code === 'ERR_INVALID_ARG_VALUE'; });
        }
      }
      return thrown;
    });
  });

// --insecure-http-parser: httpValidation decides over the flag.
test('httpValidation over --insecure-http-parser',
  { skip: lacks('httpValidation', serverOptions.httpValidation) }, async () => {
    const script = `
      if (process.argv[1] === 'llhttp-napi') require('./').install();
      const http = require('http'); const net = require('net');
      const request = 'GET / HTTP/1.1\\r\\nHost: x\\r\\nX-A: a\\x01b\\r\\nConnection: close\\r\\n\\r\\n';
      const statuses = [];
      const next = (list) => {
        if (list.length === 0) return console.log(JSON.stringify(statuses));
        const server = http.createServer(list[0], (req, res) => res.end(req.headers['x-a']));
        server.listen(0, '127.0.0.1', () => {
          const s = net.connect(server.address().port, '127.0.0.1', () => s.end(request));
          let out = ''; s.setEncoding('latin1'); s.on('data', (d) => { out += d; });
          s.on('close', () => { statuses.push(out.split('\\r\\n')[0]); server.close(); next(list.slice(1)); });
        });
      };
      next([{ httpValidation: 'strict' }, { httpValidation: 'relaxed' }, {}]);`;
    const out = {};
    for (const mode of MODES) {
      const r = await runNode(['--insecure-http-parser', '-e', script, mode]);
      assert.equal(r.code, 0, r.stderr);
      out[mode] = JSON.parse(r.stdout);
    }
    assert.deepEqual(out['llhttp-napi'], out.builtin);
    assert.deepEqual(out.builtin, ['HTTP/1.1 400 Bad Request', 'HTTP/1.1 200 OK', 'HTTP/1.1 200 OK']);
  });

// ---- beside joinDuplicateHeaders, requireHostHeader, maxHeaderSize ---------

const BESIDE_CASES = [
  `GET /dup HTTP/1.1\r\nHost: x\r\nUser-Agent: 1\r\nUser-Agent: 2\r\nuser-agent: 3\r\n${CLOSE}\r\n`,
  `GET /dup-relaxed HTTP/1.1\r\nHost: x\r\nUser-Agent: a\x01b\r\nUser-Agent: 2\r\n${CLOSE}\r\n`,
  `GET /no-host HTTP/1.1\r\n${CLOSE}\r\n`,
  `GET /no-host-1.0 HTTP/1.0\r\n\r\n`,
  `GET /big HTTP/1.1\r\nHost: x\r\nX-A: ${'a'.repeat(400)}\r\n${CLOSE}\r\n`,
  `POST /body HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n${CLOSE}\r\nabc`,
];

test('optimizeEmptyRequests and httpValidation beside joinDuplicateHeaders, requireHostHeader and maxHeaderSize', async () => {
  const extra = {};
  if (serverOptions.optimizeEmptyRequests) extra.optimizeEmptyRequests = true;
  if (serverOptions.httpValidation) extra.httpValidation = 'relaxed';
  const record = await sameBothWays(async (mode) => {
    const out = [];
    for (const requireHostHeader of [true, false]) {
      for (const joinDuplicateHeaders of [true, false]) {
        const options = { ...extra, joinDuplicateHeaders, requireHostHeader, maxHeaderSize: 300 };
        out.push({ options, ...await exchange(mode, options, BESIDE_CASES.map((r) => [r])) });
      }
    }
    return out;
  });
  const [strictHost, , lenientHost, lenientNoJoin] = record;
  assert.match(strictHost.responses[0], /"ua":"1, 2, 3"/, 'joined');
  assert.match(lenientNoJoin.responses[0], /"ua":"1"/, 'first kept');
  assert.match(strictHost.responses[2], /^HTTP\/1\.1 400 Bad Request/, 'requireHostHeader');
  assert.match(lenientHost.responses[2], /^HTTP\/1\.1 200 OK/, 'requireHostHeader: false');
  assert.match(strictHost.responses[3], /^HTTP\/1\.1 200 OK/, 'HTTP/1.0 needs no Host');
  assert.match(strictHost.responses[4], /^HTTP\/1\.1 400 Bad Request\r\nX-Code: HPE_HEADER_OVERFLOW/, 'maxHeaderSize');
  if (extra.httpValidation) assert.match(strictHost.responses[1], /"ua":"a\\u0001b, 2"/, 'relaxed, joined');
  else assert.match(strictHost.responses[1], /X-Code: HPE_INVALID_HEADER_TOKEN/, 'strict');
});

// ---- the client -------------------------------------------------------------

const RESPONSES = {
  plain: 'HTTP/1.1 200 OK\r\nX-A: a\r\nContent-Length: 2\r\n\r\nok',
  'control character in a value': 'HTTP/1.1 200 OK\r\nX-A: a\x01b\r\nContent-Length: 2\r\n\r\nok',
  'obs-fold': 'HTTP/1.1 200 OK\r\nX-A: a\r\n b\r\nContent-Length: 2\r\n\r\nok',
  'bare LF': 'HTTP/1.1 200 OK\nX-A: a\nContent-Length: 2\n\nok',
  duplicates: 'HTTP/1.1 200 OK\r\nLocation: /1\r\nLocation: /2\r\nContent-Length: 2\r\n\r\nok',
  'big header': `HTTP/1.1 200 OK\r\nX-A: ${'a'.repeat(400)}\r\nContent-Length: 2\r\n\r\nok`,
};

// A raw server answering each connection with RESPONSES[its request's path].
async function rawResponder() {
  const server = net.createServer((socket) => {
    let head = '';
    socket.setEncoding('latin1');
    socket.on('data', (d) => {
      head += d;
      if (!head.includes('\r\n\r\n')) return;
      const name = decodeURIComponent(head.split(' ')[1].slice(1));
      socket.end(RESPONSES[name], 'latin1');
    });
    socket.on('error', () => {});
  });
  return { server, port: await listen(server) };
}

function get(port, name, options) {
  return new Promise((resolve) => {
    const req = http.get({ host: '127.0.0.1', port, path: '/' + encodeURIComponent(name), agent: false, ...options });
    req.on('response', (res) => {
      let body = '';
      res.setEncoding('latin1');
      res.on('data', (d) => { body += d; });
      res.on('end', () => resolve({ status: res.statusCode, rawHeaders: res.rawHeaders, location: res.headers.location || null, body }));
    });
    req.on('error', (err) => resolve({ error: err.code, reason: err.reason === undefined ? null : err.reason }));
  });
}

test('the client: insecureHTTPParser, httpValidation, maxHeaderSize and joinDuplicateHeaders of http.request', async () => {
  const configs = [{}, { insecureHTTPParser: true }, { joinDuplicateHeaders: true }, { maxHeaderSize: 300 }];
  if (clientOptions.httpValidation) {
    for (const v of ['strict', 'relaxed', 'insecure']) configs.push({ httpValidation: v });
  }
  const { server, port } = await rawResponder();
  try {
    const record = await sameBothWays(async (mode) => {
      const out = [];
      for (const options of configs) {
        const results = {};
        for (const name of Object.keys(RESPONSES)) {
          const req = get(port, name, options);
          results[name] = await req;
        }
        out.push({ options, results });
      }
      // The client's parser was ours (or the built-in): one more request.
      const req = http.get({ host: '127.0.0.1', port, path: '/plain', agent: false });
      let parser = null;
      req.on('response', () => { parser = req.socket.parser; });
      const [res] = await once(req, 'response');
      assertParser(mode, parser);
      res.resume();
      await once(res, 'end');
      return out;
    });
    const byOptions = (o) => record.find((r) => JSON.stringify(r.options) === JSON.stringify(o)).results;
    assert.equal(byOptions({})['control character in a value'].error, 'HPE_INVALID_HEADER_TOKEN');
    assert.equal(byOptions({ insecureHTTPParser: true })['control character in a value'].status, 200);
    assert.equal(byOptions({ joinDuplicateHeaders: true }).duplicates.location, '/1, /2');
    assert.equal(byOptions({}).duplicates.location, '/1');
    assert.equal(byOptions({ maxHeaderSize: 300 })['big header'].error, 'HPE_HEADER_OVERFLOW');
    if (clientOptions.httpValidation) {
      assert.equal(byOptions({ httpValidation: 'strict' })['control character in a value'].error, 'HPE_INVALID_HEADER_TOKEN');
      assert.equal(byOptions({ httpValidation: 'relaxed' })['control character in a value'].status, 200);
      assert.equal(byOptions({ httpValidation: 'insecure' })['obs-fold'].status, 200);
    }
  } finally {
    await closeServer(server);
  }
});
