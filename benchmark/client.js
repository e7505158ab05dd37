'use strict';
// The client side: a node:http client through a keep-alive Agent, 16
// requests in flight, each response read whole and JSON-parsed, with the
// built-in parser and after install(), reading from a node:net peer on the
// other core that answers each request with the next of its responses: 1 KiB
// JSON documents under heads from corpus.js's 200 responses (all different),
// by Content-Length (json) or chunked in 1-3 chunks (chunked). CPU per
// response of the client process, ours / the built-in (lower is better), in
// solo rounds (common.round); the median of the rounds with its 95%
// interval. One file, three roles: the driver, --child (the measured client)
// and --peer.
//
//   node benchmark/client.js [--kind=json,chunked] [--rounds=8] [--duration=2] [--json]

const net = require('node:net');
const common = require('./common');
const corpus = require('./corpus');
const { jsonDocument } = require('./server-workloads');

const KINDS = ['json', 'chunked'];
const REPLACED = new Set(['connection', 'content-length', 'transfer-encoding', 'content-type']);

// The peer's 64 responses, seeded.
function clientResponses(kind, seed) {
  const random = corpus.prng(seed * 7927 + 5);
  const out = [];
  for (const msg of corpus.responseCorpus({ count: 64 * 8, seed })) {
    if (out.length === 64) break;
    if (msg.statusCode !== 200) continue;
    const headers = msg.headers.filter(([name]) => !REPLACED.has(name.toLowerCase()));
    headers.push(['Content-Type', 'application/json; charset=utf-8'], ['Connection', 'keep-alive'],
      kind === 'chunked' ? ['Transfer-Encoding', 'chunked'] : ['Content-Length', '1024']);
    out.push(corpus.serializeResponse({ statusCode: 200, statusMessage: 'OK', headers,
      body: jsonDocument(random, 1024), chunked: kind === 'chunked' }));
  }
  return out;
}

// The peer: answers each request whose end (CR LF CR LF) arrives, across reads too.
function peer(kind, seed) {
  const responses = clientResponses(kind, seed);
  let next = 0;
  const server = net.createServer({ noDelay: true }, (socket) => {
    let matched = 0; // bytes of CR LF CR LF seen so far
    socket.on('error', () => {}); // a client that exits mid-request
    socket.on('data', (chunk) => {
      const answers = [];
      for (let i = 0; i < chunk.length; i++) {
        if (chunk[i] === (matched % 2 === 0 ? 13 : 10)) matched++;
        else matched = chunk[i] === 13 ? 1 : 0;
        if (matched === 4) {
          matched = 0;
          answers.push(responses[next]);
          next = next + 1 === responses.length ? 0 : next + 1;
        }
      }
      if (answers.length) socket.write(answers.length === 1 ? answers[0] : Buffer.concat(answers));
    });
  });
  process.on('message', (msg) => msg.type === 'exit' && process.exit(0));
  server.listen(0, '127.0.0.1', () => process.send({ type: 'listening', port: server.address().port }));
}

// The measured client; its report counts responses read since the reset as `requests`.
function child({ parser, port, concurrency }) {
  const unavailable = common.useParser(parser);
  if (unavailable) return process.send({ type: 'unavailable', reason: unavailable });
  const http = require('node:http');
  const ours = parser === 'napi' ? require('llhttp-napi').HTTPParser : null;
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  const tally = { requests: 0, errors: 0 };
  let seen = null;
  let id = 0;
  const request = () => http.get({ agent, host: '127.0.0.1', port, path: `/api/v1/items/${++id}`,
    headers: { Accept: 'application/json', 'User-Agent': 'node-client-bench/1.0' } }, onResponse)
    .on('error', () => { tally.errors++; setImmediate(request); });
  function onResponse(res) {
    if (seen === null) seen = common.whichParser(res.socket.parser, ours);
    const chunks = [];
    res.on('data', (chunk) => chunks.push(chunk));
    res.on('end', () => {
      const body = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks);
      if (typeof JSON.parse(body.toString('latin1')).id !== 'string') tally.errors++;
      tally.requests++;
      request();
    });
  }
  common.answerIpc(tally, () => ({ parser: seen }));
  for (let i = 0; i < concurrency; i++) request();
  process.send({ type: 'ready' });
}

async function clientBench({ kinds = KINDS, rounds = 8, duration = 2, warmup = 1, concurrency = 16, seed = 1,
  onProgress = () => {} } = {}) {
  const result = { settings: { rounds, duration, warmup, concurrency }, identity: common.buildIdentity(), kinds: {} };
  let step = 0;
  for (const kind of kinds) {
    const peerChild = common.ipcChild(common.pinned(common.LOAD_CPU, [process.execPath, __filename, '--peer',
      `--kind=${kind}`, `--seed=${seed}`]), 'peer');
    try {
      const { port } = await peerChild.ready;
      result.kinds[kind] = await common.series(rounds, (round) => {
        onProgress({ step: step++, steps: kinds.length * rounds, what: `${kind}: solo round ${round + 1}/${rounds}` });
        return common.round({ round, warmup, duration, load: () => null,
          start: (p) => common.ipcChild(common.pinned(common.MEASURED_CPU, [process.execPath, __filename, '--child',
            `--parser=${p}`, `--port=${port}`, `--concurrency=${concurrency}`]), `client (${p})`) });
      });
    } finally {
      await peerChild.stop();
    }
  }
  return result;
}

function describe(result) {
  const s = result.settings;
  return [`node:http client, keep-alive Agent, ${s.concurrency} requests in flight, ${s.rounds} solo rounds × ${s.duration} s; ` +
    'CPU per response, napi / builtin (lower is better), median of the rounds (95% interval)',
  ...Object.entries(result.kinds).map(([kind, k]) => `${kind}: µs/resp builtin ${k.stats.builtin.toFixed(1)}, napi ` +
    `${k.stats.napi.toFixed(1)}; ${k.stats.median.toFixed(3)} (${k.stats.ci[0].toFixed(3)}–${k.stats.ci[1].toFixed(3)})` +
    k.rounds.flatMap((r) => common.PARSERS.filter((p) => r[p].parser !== p).map((p) => ` WARNING: ${p} saw ${r[p].parser}`)).join(''))]
    .join('\n');
}

module.exports = { clientBench, describe };

if (require.main === module) {
  const { option } = common.parseArgs();
  if (option('peer')) peer(option('kind'), option('seed', 1));
  else if (option('child')) child({ parser: option('parser'), port: option('port', 0), concurrency: option('concurrency', 16) });
  else {
    common.main(() => clientBench({ kinds: option('kind', KINDS), rounds: option('rounds', 8), duration: option('duration', 2),
      onProgress: ({ what }) => common.progress(`client.js: ${what}`) }), describe);
  }
}
