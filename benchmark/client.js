'use strict';
// The client side: a node:http client through a keep-alive Agent, 16
// requests in flight, each response read whole and JSON-parsed, with the
// built-in parser and after install(), reading from a node:net peer on the
// other core that answers each request with the next of its responses: 1 KiB
// JSON documents under heads from corpus.js's 200 responses (all different),
// by Content-Length (json) or chunked in 1-3 chunks (chunked). CPU per
// response of the client process, ours / the built-in (lower is better), in
// solo rounds (common.soloRound); the median of the rounds with its 95%
// interval. One file, three roles: the driver, --child (the measured client)
// and --peer.
//
//   node benchmark/client.js [--kind=json,chunked] [--rounds=8] [--duration=2] [--warmup=1]
//        [--concurrency=16] [--package=DIR]

const net = require('node:net');
const path = require('node:path');
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
function child({ parser, port, concurrency, pkg }) {
  const unavailable = common.useParser(parser, pkg);
  if (unavailable) return process.send({ type: 'unavailable', reason: unavailable });
  const http = require('node:http');
  const ours = parser === 'napi' ? require(pkg).HTTPParser : null;
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
  process.on('message', (msg) => {
    if (msg.type === 'reset') tally.requests = tally.errors = 0;
    if (msg.type === 'exit') process.exit(0);
    process.send(msg.type === 'report' ? { type: 'report', ...tally, parser: seen } : { type: msg.type });
  });
  for (let i = 0; i < concurrency; i++) request();
  process.send({ type: 'ready' });
}

async function clientBench({ kinds = KINDS, rounds = 8, duration = 2, warmup = 1, concurrency = 16, seed = 1,
  pkg = common.ROOT, onProgress = () => {} } = {}) {
  pkg = path.resolve(pkg);
  const result = { settings: { rounds, duration, warmup, concurrency }, identity: common.buildIdentity(pkg), kinds: {} };
  let step = 0;
  for (const kind of kinds) {
    const peerChild = common.ipcChild(common.pinned(common.LOAD_CPU, [process.execPath, __filename, '--peer',
      `--kind=${kind}`, `--seed=${seed}`]), 'peer');
    const list = [];
    try {
      const { port } = await peerChild.ready;
      for (let round = 0; round < rounds; round++) {
        onProgress({ step: step++, steps: kinds.length * rounds, what: `${kind}: solo round ${round + 1}/${rounds}` });
        const r = await common.soloRound({ round, warmup, duration, load: () => null,
          start: (p) => common.ipcChild(common.pinned(common.MEASURED_CPU, [process.execPath, __filename, '--child',
            `--parser=${p}`, `--port=${port}`, `--concurrency=${concurrency}`, `--package=${pkg}`]), `client (${p})`) });
        if (r.unavailable) throw new Error(`napi unavailable: ${r.unavailable}`);
        list.push(r);
      }
    } finally {
      await peerChild.stop();
    }
    result.kinds[kind] = { rounds: list, stats: common.seriesStats(list) };
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
  const { options } = common.parseArgs();
  if (options.peer) {
    peer(options.kind, Number(options.seed || 1));
  } else if (options.child) {
    child({ parser: options.parser, port: Number(options.port), concurrency: Number(options.concurrency),
      pkg: path.resolve(options.package) });
  } else {
    clientBench({ kinds: options.kind ? String(options.kind).split(',') : KINDS, rounds: Number(options.rounds || 8),
      duration: Number(options.duration || 2), warmup: Number(options.warmup || 1),
      concurrency: Number(options.concurrency || 16), pkg: options.package || common.ROOT,
      onProgress: ({ what }) => process.stderr.write(`client.js: ${what}\n`) })
      .then((r) => console.log(describe(r)), (err) => { console.error(err.stack); process.exit(1); });
  }
}
