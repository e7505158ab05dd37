'use strict';
// The client side: a node:http client through a keep-alive Agent
// (client-child.js) reading 1 KiB JSON responses under realistic, all
// different heads from a node:net peer on the other core (client-peer.js),
// with the built-in parser and after install(). CPU per response of the
// client process, ours / the built-in (lower is better), in solo rounds as
// server.js runs them (common.soloRound); the median of the rounds with its
// 95% interval. Kinds: json (Content-Length) and chunked (1-3 chunks).
//
//   node benchmark/client.js [--kind=json,chunked] [--rounds=8] [--duration=2] [--warmup=1]
//        [--concurrency=16] [--package=DIR]

const path = require('node:path');
const common = require('./common');
const { KINDS } = require('./client-peer');

async function clientBench({ kinds = KINDS, rounds = 8, duration = 2, warmup = 1, concurrency = 16, seed = 1,
  pkg = common.ROOT, onProgress = () => {} } = {}) {
  pkg = path.resolve(pkg);
  const result = { settings: { rounds, duration, warmup, concurrency }, identity: common.buildIdentity(pkg), kinds: {} };
  let step = 0;
  for (const kind of kinds) {
    const peer = common.ipcChild(common.pinned(common.LOAD_CPU, [process.execPath, path.join(__dirname, 'client-peer.js'),
      `--kind=${kind}`, `--seed=${seed}`]), 'peer');
    const list = [];
    try {
      const { port } = await peer.ready;
      for (let round = 0; round < rounds; round++) {
        onProgress({ step: step++, steps: kinds.length * rounds, what: `${kind}: solo round ${round + 1}/${rounds}` });
        const r = await common.soloRound({ round, warmup, duration, load: () => null,
          start: (p) => common.ipcChild(common.pinned(common.MEASURED_CPU, [process.execPath, path.join(__dirname, 'client-child.js'),
            `--parser=${p}`, `--port=${port}`, `--concurrency=${concurrency}`, `--package=${pkg}`]), `client (${p})`) });
        if (r.unavailable) throw new Error(`napi unavailable: ${r.unavailable}`);
        list.push(r);
      }
    } finally {
      await peer.stop();
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
  clientBench({ kinds: options.kind ? String(options.kind).split(',') : KINDS, rounds: Number(options.rounds || 8),
    duration: Number(options.duration || 2), warmup: Number(options.warmup || 1),
    concurrency: Number(options.concurrency || 16), pkg: options.package || common.ROOT,
    onProgress: ({ what }) => process.stderr.write(`client.js: ${what}\n`) })
    .then((r) => console.log(describe(r)), (err) => { console.error(err.stack); process.exit(1); });
}
