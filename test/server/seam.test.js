'use strict';
// The connection loop makes the server's request and response classes
// (node:http's IncomingMessage / ServerResponse options): subclasses of
// llhttp-napi/server's own get every request of the connection.
const test = require('node:test');
const assert = require('node:assert');
const { withServer, exchange } = require('../support/both-servers');
const ours = require('../../lib/server');
const { kIncomingMessage, kServerResponse } = require('../../lib/server/connection');
const { ServerRequest } = require('../../lib/server/request');
const { ServerResponse } = require('../../lib/server/response');

test('the server\'s request and response classes make every request and response', async () => {
  class Request extends ServerRequest {
    get who() { return `${this.method} ${this.url}`; }
  }
  class Response extends ServerResponse {
    json(value) { this.setHeader('Content-Type', 'application/json'); this.end(JSON.stringify(value)); }
  }
  const seen = [];
  const create = (options, handler) => {
    const server = ours.createServer(options, handler);
    server[kIncomingMessage] = Request;
    server[kServerResponse] = Response;
    return server;
  };
  const r = await withServer(create, {}, (req, res) => {
    seen.push(req instanceof Request, res instanceof Response, req.who);
    res.json({ url: req.url });
  }, (port) => exchange(port, ['GET /a HTTP/1.1\r\nHost: a\r\n\r\nGET /b HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n']));
  assert.deepStrictEqual(seen, [true, true, 'GET /a', true, true, 'GET /b']);
  assert.match(r.text, /Content-Type: application\/json\r\n[^]*\{"url":"\/a"\}[^]*\{"url":"\/b"\}$/);
});
