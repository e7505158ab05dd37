'use strict';
// Shared helpers of the benchmark programs: arguments, parser loading, timing,
// output in the format of Node's own benchmarks:
//   http/bench-parser.js parser=napi n=100000 len=8: 1,395,311.5
//
// A benchmark declares its configurations (each key a list of values). When
// every key has one value (after `key=value` overrides on the command line)
// it runs in this process; otherwise it runs each combination in a fresh
// child process, like Node's benchmark/common.js does.

const path = require('node:path');
const { spawnSync } = require('node:child_process');

const ROOT = path.resolve(__dirname, '..');
const PARSERS = ['builtin', 'napi'];

// Arguments: `--parser=builtin|napi`, `--clock=wall|cpu`, `--key=value` options, `key=value`
// configuration overrides (comma-separated lists allowed: len=4,8).
function parseArgs(argv = process.argv.slice(2)) {
  const options = {};
  const overrides = {};
  const rest = [];
  for (const arg of argv) {
    let m;
    if ((m = /^--([\w-]+)(?:=(.*))?$/.exec(arg))) options[m[1]] = m[2] === undefined ? true : m[2];
    else if ((m = /^(\w+)=(.*)$/.exec(arg))) overrides[m[1]] = m[2].split(',');
    else rest.push(arg);
  }
  return { options, overrides, rest };
}

function convert(value) {
  if (typeof value !== 'string') return value;
  const num = Number(value);
  return value !== '' && Number.isFinite(num) ? num : value;
}

// Which parser class to measure.
function loadParser(name) {
  if (name === 'builtin') {
    // The object node:http uses (the same as the internal binding's).
    return require('_http_common').HTTPParser;
  }
  if (name === 'napi') return require(ROOT).HTTPParser;
  throw new Error(`unknown parser "${name}" (use --parser=builtin or --parser=napi)`);
}

// Node's number format: thousands separators (one decimal kept here).
function formatRate(rate) {
  const parts = (Math.round(rate * 10) / 10).toString().split('.');
  parts[0] = parts[0].replace(/(\d)(?=(?:\d\d\d)+(?!\d))/g, '$1,');
  return parts[1] ? parts.join('.') : parts[0];
}

function formatLine(name, conf, rate) {
  let text = name;
  for (const key of Object.keys(conf)) text += ` ${key}=${conf[key]}`;
  return `${text}: ${formatRate(rate)}`;
}

// Parses one output line back: { name, conf, rate } or null.
function parseLine(line) {
  const m = /^(\S+\.(?:js|c))((?: [\w-]+=[^\s:]+)*): ([\d,]+(?:\.\d+)?)\s*$/.exec(line);
  if (!m) return null;
  const conf = {};
  for (const pair of m[2].trim().split(' ').filter(Boolean)) {
    const at = pair.indexOf('=');
    conf[pair.slice(0, at)] = pair.slice(at + 1);
  }
  return { name: m[1], conf, rate: Number(m[3].replace(/,/g, '')) };
}

function product(configs) {
  let out = [{}];
  for (const key of Object.keys(configs)) {
    const next = [];
    for (const partial of out) {
      for (const value of configs[key]) next.push({ ...partial, [key]: convert(value) });
    }
    out = next;
  }
  return out;
}

// Wall clock by default, as Node's benchmarks. With clock 'cpu' the time is
// the process's CPU time (user + system, all threads: JIT compiler and GC
// threads included), which leaves out the time the process waited for a CPU
// on a busy machine.
class Timer {
  constructor(clock = 'wall') {
    if (clock !== 'wall' && clock !== 'cpu') throw new Error(`unknown clock "${clock}" (wall or cpu)`);
    this.clock = clock;
  }

  _now() {
    if (this.clock === 'wall') return Number(process.hrtime.bigint());
    const u = process.cpuUsage();
    return (u.user + u.system) * 1000;
  }

  start() {
    this._t0 = this._now();
  }

  // Operations per second over `ops` operations since start().
  end(ops) {
    const ns = this._now() - this._t0;
    return ops / (ns / 1e9);
  }
}

// Runs `main(conf, timer)` (which returns ops/s) for each configuration.
// `name` is Node's benchmark name (http/bench-parser.js); `file` this script.
// With { parserOption: false } the script has no --parser option (its
// configurations say which parser each one measures).
function createBenchmark(file, name, configs, main, { parserOption = true } = {}) {
  const { options, overrides } = parseArgs();
  const parser = parserOption ? options.parser || 'napi' : null;
  if (parserOption && !PARSERS.includes(parser)) {
    console.error(`unknown parser "${parser}" (use --parser=builtin or --parser=napi)`);
    process.exit(2);
  }
  const effective = { ...configs };
  for (const key of Object.keys(overrides)) {
    if (!(key in effective)) {
      console.error(`${name}: unknown parameter ${key} (known: ${Object.keys(configs).join(', ')})`);
      process.exit(2);
    }
    effective[key] = overrides[key];
  }
  const combos = product(effective);
  if (combos.length === 1) {
    const conf = combos[0];
    const rate = main({ ...conf, parser }, new Timer(options.clock || 'wall'));
    // main() returns null for a configuration it skipped (and said why).
    if (rate !== null) console.log(formatLine(name, parserOption ? { parser, ...conf } : conf, rate));
    return;
  }
  // One fresh process per configuration.
  let failed = 0;
  for (const conf of combos) {
    const args = [...process.execArgv, file];
    if (parserOption) args.push(`--parser=${parser}`);
    if (options.clock) args.push(`--clock=${options.clock}`);
    for (const key of Object.keys(conf)) args.push(`${key}=${conf[key]}`);
    const child = spawnSync(process.execPath, args, { stdio: 'inherit' });
    if (child.status !== 0) failed++;
  }
  if (failed) process.exit(1);
}

// A deterministic pseudo-random generator (mulberry32), so that both parsers
// parse exactly the same bytes in every process.
function prng(seed) {
  let a = seed >>> 0;
  return function next() {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// The request of Node's benchmark/http/bench-parser.js: a request line,
// Content-Type, `len` X-Filler headers with random digits, a final CRLF.
function benchRequest(len) {
  const random = prng(0x5eed + len);
  let header = 'GET /hello HTTP/1.1\r\nContent-Type: text/plain\r\n';
  for (let i = 0; i < len; i++) {
    let digits = '';
    for (let j = 0; j < 16; j++) digits += Math.floor(random() * 10);
    header += `X-Filler${i}: ${digits}\r\n`;
  }
  header += '\r\n';
  return Buffer.from(header, 'latin1');
}

module.exports = {
  ROOT,
  PARSERS,
  parseArgs,
  loadParser,
  formatRate,
  formatLine,
  parseLine,
  product,
  createBenchmark,
  prng,
  benchRequest,
  Timer,
};
