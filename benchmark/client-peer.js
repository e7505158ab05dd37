'use strict';
// The peer of benchmark/client.js: a node:net server, on the load CPU, that
// answers every request (each ends at its blank line: the client sends GETs)
// with the next of its canned responses, so that the client, not the peer,
// is what the load depends on. Speaks common.ipcChild's protocol (it only
// says where it listens).
//
// The responses (clientResponses): heads from benchmark/corpus.js's 200
// responses (node, nginx, Cloudflare and Express servers: Date, ETag,
// Cache-Control, Vary, Set-Cookie, request ids ...; all different) with a
// 1 KiB JSON document each (distinct), framed
//   json     by Content-Length;
//   chunked  by Transfer-Encoding: chunked, in 1-3 chunks (corpus.js).
//
//   node benchmark/client-peer.js --kind=json|chunked [--seed=1]

const net = require('node:net');
const common = require('./common');
const corpus = require('./corpus');
const { jsonDocument } = require('./server-workloads');

const KINDS = ['json', 'chunked'];
const DISTINCT = 64;
const BODY_BYTES = 1024;
const REPLACED = new Set(['connection', 'content-length', 'transfer-encoding', 'content-type']);

function clientResponses(kind, { count = DISTINCT, seed = 1 } = {}) {
  if (!KINDS.includes(kind)) throw new Error(`unknown kind "${kind}" (json or chunked)`);
  const random = corpus.prng(seed * 7927 + 5);
  const out = [];
  for (const msg of corpus.responseCorpus({ count: count * 8, seed })) {
    if (out.length === count) break;
    if (msg.statusCode !== 200) continue;
    const headers = msg.headers.filter(([name]) => !REPLACED.has(name.toLowerCase()));
    headers.push(['Content-Type', 'application/json; charset=utf-8'], ['Connection', 'keep-alive'],
      kind === 'chunked' ? ['Transfer-Encoding', 'chunked'] : ['Content-Length', String(BODY_BYTES)]);
    out.push(corpus.serializeResponse({ statusCode: 200, statusMessage: 'OK', headers,
      body: jsonDocument(random, BODY_BYTES), chunked: kind === 'chunked' }));
  }
  if (out.length < count) throw new Error(`corpus.js gave only ${out.length} 200 responses (wanted ${count})`);
  return out;
}

// Answers each request whose end (CR LF CR LF) arrives, across reads too.
function serve(responses) {
  let next = 0;
  return net.createServer({ noDelay: true }, (socket) => {
    let matched = 0; // bytes of CR LF CR LF seen so far
    socket.on('error', () => {}); // a client that exits mid-request
    socket.on('data', (chunk) => {
      const answers = [];
      for (let i = 0; i < chunk.length; i++) {
        const byte = chunk[i];
        if (byte === (matched % 2 === 0 ? 13 : 10)) matched++;
        else matched = byte === 13 ? 1 : 0;
        if (matched === 4) {
          matched = 0;
          answers.push(responses[next]);
          next = next + 1 === responses.length ? 0 : next + 1;
        }
      }
      if (answers.length) socket.write(answers.length === 1 ? answers[0] : Buffer.concat(answers));
    });
  });
}

module.exports = { KINDS, clientResponses };

if (require.main === module) {
  const { options } = common.parseArgs();
  const server = serve(clientResponses(options.kind || 'json', { seed: Number(options.seed || 1) }));
  process.on('message', (msg) => {
    if (msg.type === 'exit') process.exit(0);
  });
  server.listen(0, '127.0.0.1', () => process.send({ type: 'listening', port: server.address().port }));
}
