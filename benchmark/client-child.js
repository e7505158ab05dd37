'use strict';
// The measured client of benchmark/client.js: node:http requests through a
// keep-alive Agent to the peer (client-peer.js), `concurrency` of them in
// flight, each response's body read whole and (JSON) parsed, the next request
// sent as one ends; with --parser=napi after llhttp-napi's install(). Starts
// at once and speaks common.ipcChild's protocol; a report counts the
// responses read since the reset (`requests`), with the errors and the parser
// node:http used.
//
//   node benchmark/client-child.js --parser=builtin|napi --port=N [--concurrency=16] [--package=DIR]

const path = require('node:path');
const common = require('./common');

function main({ parser, port, concurrency, pkg }) {
  const send = (msg) => process.send(msg);
  const unavailable = common.useParser(parser, pkg);
  if (unavailable) {
    send({ type: 'unavailable', reason: unavailable });
    return;
  }
  const http = require('node:http');
  const ours = parser === 'napi' ? require(pkg).HTTPParser : null;
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  const tally = { responses: 0, bytes: 0, errors: 0 };
  let parserSeen = null;
  let id = 0;

  function request() {
    const req = http.get({ agent, host: '127.0.0.1', port, path: `/api/v1/items/${++id}`,
      headers: { Accept: 'application/json', 'User-Agent': 'node-client-bench/1.0' } }, onResponse);
    req.on('error', onError);
  }

  function onResponse(res) {
    if (parserSeen === null) parserSeen = common.whichParser(res.socket.parser, ours);
    const chunks = [];
    res.on('data', (chunk) => chunks.push(chunk));
    res.on('end', () => {
      const body = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks);
      if (typeof JSON.parse(body.toString('latin1')).id !== 'string') tally.errors++;
      tally.responses++;
      tally.bytes += body.length;
      request();
    });
  }

  function onError() {
    tally.errors++;
    setImmediate(request);
  }

  process.on('message', (msg) => {
    if (msg.type === 'reset') {
      tally.responses = tally.bytes = tally.errors = 0;
      send({ type: 'reset' });
    } else if (msg.type === 'report') {
      send({ type: 'report', requests: tally.responses, bytes: tally.bytes, errors: tally.errors, parser: parserSeen });
    } else if (msg.type === 'exit') {
      process.exit(0);
    }
  });
  for (let i = 0; i < concurrency; i++) request();
  send({ type: 'ready' });
}

const { options } = common.parseArgs();
main({ parser: options.parser, port: Number(options.port), concurrency: Number(options.concurrency || 16),
  pkg: path.resolve(options.package || common.ROOT) });
