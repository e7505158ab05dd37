'use strict';
// Runs a benchmark file for both parsers, interleaved (builtin, napi, then
// napi, builtin, ...), `runs` times each, every run in fresh processes, and
// prints per configuration the median ops/s of each parser, the ratio
// napi/builtin, a 95 % confidence interval of the ratio (Welch's t-test on
// the means, as Node's compare.R) and significance stars
// (* p < 0.05, ** p < 0.01, *** p < 0.001).
//
//   node benchmark/compare.js [--runs=6] [--clock=wall|cpu] [--json=out.json] benchmark/bench-parser.js [len=8] [n=...]

const path = require('node:path');
const fs = require('node:fs');
const { spawn } = require('node:child_process');
const common = require('./common');
const stats = require('./stats');

function runOnce(file, parser, overrides, clock) {
  return new Promise((resolve, reject) => {
    const args = [file, `--parser=${parser}`];
    if (clock) args.push(`--clock=${clock}`);
    for (const key of Object.keys(overrides)) args.push(`${key}=${[].concat(overrides[key]).join(',')}`);
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => { out += d; });
    child.stderr.on('data', (d) => { err += d; });
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) {
        reject(new Error(`${path.basename(file)} --parser=${parser} exited with ${code}\n${err}${out}`));
        return;
      }
      resolve(out.split('\n').map(common.parseLine).filter(Boolean));
    });
  });
}

function configKey(conf) {
  return Object.keys(conf).filter((k) => k !== 'parser').map((k) => `${k}=${conf[k]}`).join(' ');
}

// Returns [{ name, config, samples: { builtin: [], napi: [] }, stats }] in
// the order the benchmark prints its configurations.
async function compare({ file, runs = 6, overrides = {}, clock, onProgress = () => {} }) {
  file = path.resolve(file);
  const rows = new Map();
  for (let run = 0; run < runs; run++) {
    const order = common.roundOrder(run);
    for (let k = 0; k < order.length; k++) {
      const parser = order[k];
      onProgress({ file, run, runs, parser, step: run * 2 + k, steps: runs * 2 });
      const lines = await runOnce(file, parser, overrides, clock);
      if (lines.length === 0) throw new Error(`${path.basename(file)} printed no result line`);
      for (const line of lines) {
        if (line.conf.parser !== parser) {
          throw new Error(`${path.basename(file)} has no --parser option (it compares its own variants: run it directly)`);
        }
        const key = configKey(line.conf);
        if (!rows.has(key)) {
          rows.set(key, { name: line.name, config: key, samples: Object.fromEntries(common.PARSERS.map((p) => [p, []])) });
        }
        rows.get(key).samples[parser].push(line.rate);
      }
    }
  }
  for (const row of rows.values()) {
    row.stats = stats.compare(row.samples.builtin, row.samples.napi);
  }
  return [...rows.values()];
}

function table(rows) {
  const head = ['benchmark', 'config', 'builtin ops/s', 'napi ops/s', 'napi/builtin', '95% CI', 'p', ''];
  const body = rows.map((r) => [
    r.name, r.config, common.formatRate(Math.round(r.stats.medianA)), common.formatRate(Math.round(r.stats.medianB)),
    common.formatRatio(r.stats.ratio), common.formatInterval(r.stats.ci), common.formatP(r.stats.p),
    r.stats.stars,
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => b[i].length)));
  const line = (cells) => cells.map((c, i) => (i < 2 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  return [line(head), ...body.map(line)].join('\n');
}

module.exports = { compare, table, runOnce };

if (require.main === module) {
  const { options, overrides, rest } = common.parseArgs();
  if (rest.length !== 1) {
    console.error('usage: node benchmark/compare.js [--runs=6] [--json=FILE] BENCHMARK.js [key=value ...]');
    process.exit(2);
  }
  const runs = Number(options.runs || 6);
  const tty = process.stderr.isTTY;
  compare({
    file: rest[0],
    runs,
    overrides,
    clock: options.clock,
    onProgress: ({ run, parser, step, steps }) => {
      const text = `compare ${path.basename(rest[0])}: run ${run + 1}/${runs} ${parser} (${step + 1}/${steps})`;
      process.stderr.write(tty ? `\r\x1b[K${text}` : text + '\n');
    },
  }).then((rows) => {
    if (tty) process.stderr.write('\r\x1b[K');
    console.log(table(rows));
    console.log(`\n${runs} runs per parser, interleaved, each in fresh processes; ratio = median napi / median builtin;` +
                '\n95% CI of mean(napi)/mean(builtin) from Welch\'s t-test; * p<0.05, ** p<0.01, *** p<0.001');
    if (options.json) fs.writeFileSync(options.json, JSON.stringify(rows, null, 2));
  }).catch((err) => {
    console.error(err.message);
    process.exit(1);
  });
}
