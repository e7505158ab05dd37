'use strict';
// llhttp-napi/server as a drop-in for node:http's createServer: the same
// options, events and handler API (docs/server.md).
//
//   node examples/server.js [port]      (default 8080; 0 picks a free port)
//   curl -s localhost:8080/hello
//   {"method":"GET","url":"/hello","host":"localhost:8080"}

const { createServer } = require('llhttp-napi/server');

function makeServer(options = {}) {
  return createServer({ keepAliveTimeout: 5000, headersTimeout: 10000, ...options }, (req, res) => {
    // getHeader(): one header without building req.headers.
    const body = JSON.stringify({ method: req.method, url: req.url, host: req.getHeader('host') });
    res.setHeader('Content-Type', 'application/json');
    res.end(body);
  });
}

module.exports = makeServer;

if (require.main === module) {
  const server = makeServer();
  server.listen(Number(process.argv[2] ?? 8080), () => {
    console.log(`listening on http://127.0.0.1:${server.address().port}/`);
  });
}
