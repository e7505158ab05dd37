'use strict';
// The node:http request handlers of benchmark/server.js's plain workloads
// (server-workloads.js): createApp(workload) returns the one of `workload`.

const HELLO = 'Hello World';

const HANDLERS = {
  hello(req, res) {
    res.writeHead(200, { 'Content-Type': 'text/plain', 'Content-Length': HELLO.length });
    res.end(HELLO);
  },
  // What an application does with a request: read a few headers.
  browser(req, res) {
    const h = req.headers;
    const body = `ok ${req.url.length} ${(h['user-agent'] || '').length} ${(h.cookie || '').length} ` +
      `${(h['accept-language'] || '').slice(0, 5)}`;
    res.writeHead(200, { 'Content-Type': 'text/plain; charset=utf-8', 'Content-Length': Buffer.byteLength(body),
      'Cache-Control': 'no-store' });
    res.end(body);
  },
  'post-json'(req, res) {
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => {
      let answer = '{"ok":false}';
      try {
        const doc = JSON.parse((chunks.length === 1 ? chunks[0] : Buffer.concat(chunks)).toString());
        answer = JSON.stringify({ ok: true, id: doc.id, items: doc.items.length });
      } catch {}
      res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(answer) });
      res.end(answer);
    });
  },
  upload(req, res) {
    let bytes = 0;
    req.on('data', (chunk) => { bytes += chunk.length; });
    req.on('end', () => {
      const answer = `stored ${bytes}`;
      res.writeHead(201, { 'Content-Type': 'text/plain', 'Content-Length': answer.length });
      res.end(answer);
    });
  },
  // The answer of examples/net-server.js. A request that announces no body is
  // answered at once (reading its empty body would cost node:http a stream's
  // machinery the example does not have).
  'net-echo'(req, res) {
    const h = req.headers;
    let bodyLength = 0;
    const answer = () => {
      const body = JSON.stringify({ method: req.method, url: req.url, host: h.host ?? null,
        userAgent: h['user-agent'] ?? null, bodyLength });
      res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) });
      res.end(body);
    };
    if (h['content-length'] === undefined && h['transfer-encoding'] === undefined) return answer();
    req.on('data', (chunk) => { bodyLength += chunk.length; });
    req.on('end', answer);
  },
};

// (A llhttp-napi/server row, server-NAME, serves NAME's handler.)
function createApp(workload) {
  workload = workload.replace(/^server-/, '');
  if (!HANDLERS[workload]) throw new Error(`handlers.js has no handler for "${workload}"`);
  return HANDLERS[workload];
}

module.exports = { createApp };
