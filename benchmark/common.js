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
// Seeded, so that both parsers parse exactly the same bytes in every process.
const { prng } = require('./corpus');

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
// on a busy machine. With clock 'both' one run measures both: end() returns
// the wall-clock rate and `rates` holds { wall, cpu }.
class Timer {
  constructor(clock = 'wall') {
    if (clock !== 'wall' && clock !== 'cpu' && clock !== 'both') {
      throw new Error(`unknown clock "${clock}" (wall, cpu or both)`);
    }
    this.clock = clock;
    this.rates = null;
  }

  static _wall() {
    return Number(process.hrtime.bigint());
  }

  static _cpu() {
    const u = process.cpuUsage();
    return (u.user + u.system) * 1000;
  }

  start() {
    this._w0 = this.clock === 'cpu' ? 0 : Timer._wall();
    this._c0 = this.clock === 'wall' ? 0 : Timer._cpu();
  }

  // Operations per second over `ops` operations since start().
  end(ops) {
    const c1 = this.clock === 'wall' ? 0 : Timer._cpu();
    const w1 = this.clock === 'cpu' ? 0 : Timer._wall();
    this.rates = {};
    if (this.clock !== 'cpu') this.rates.wall = ops / ((w1 - this._w0) / 1e9);
    if (this.clock !== 'wall') this.rates.cpu = ops / ((c1 - this._c0) / 1e9);
    return this.clock === 'cpu' ? this.rates.cpu : this.rates.wall;
  }
}

// Runs `main(conf, timer)` (which returns ops/s) for each configuration.
// `name` is Node's benchmark name (http/bench-parser.js); `file` this script.
// With { parserOption: false } the script has no --parser option (its
// configurations say which parser each one measures). `shown(conf)` gives
// the keys a configuration is printed (and told apart) with: a key that does
// not apply to it (len for the corpus) is left out, and configurations that
// print the same run once.
function createBenchmark(file, name, configs, main, { parserOption = true, shown = (conf) => conf } = {}) {
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
  const combos = [];
  const seen = new Set();
  for (const conf of product(effective)) {
    const key = JSON.stringify(shown({ ...conf }));
    if (!seen.has(key)) {
      seen.add(key);
      combos.push(conf);
    }
  }
  const clock = options.clock || 'wall';
  if (combos.length === 1) {
    const conf = combos[0];
    const timer = new Timer(clock);
    const rate = main({ ...conf, parser }, timer);
    // main() returns null for a configuration it skipped (and said why).
    if (rate === null) return;
    const printed = shown({ ...conf });
    const base = parserOption ? { parser, ...printed } : printed;
    if (clock === 'both') {
      // One line per clock, told apart by a clock key (compare.js keeps them apart).
      console.log(formatLine(name, { ...base, clock: 'cpu' }, timer.rates.cpu));
      console.log(formatLine(name, { ...base, clock: 'wall' }, timer.rates.wall));
    } else {
      console.log(formatLine(name, base, rate));
    }
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

// The messages a parser benchmark parses, and how it cuts them:
//   vary=0  one message parsed again and again, as in Node's benchmarks: the
//           bench-parser request (len X-Filler headers) or, for responses,
//           the corpus's first response;
//   vary=1  `count` distinct realistic messages (benchmark/corpus.js, seed 1),
//           parsed round-robin: what a server or client sees.
// Returns { type: 'REQUEST' | 'RESPONSE', buffers, pieces } where pieces[i]
// is buffers[i] cut into `frags` pieces: equal sizes for vary=0 (as Node's
// bench-parser-fragmented), pseudo-random cut points for vary=1.
const KINDS = ['request', 'response'];
function workload({ vary = 0, kind = 'request', len = 8, count = 1000, frags = 1, seed = 1 } = {}) {
  if (!KINDS.includes(kind)) throw new Error(`unknown kind "${kind}" (request or response)`);
  vary = Number(vary);
  if (vary !== 0 && vary !== 1) throw new Error(`vary must be 0 or 1, not ${vary}`);
  const corpus = require('./corpus');
  let buffers;
  if (vary === 1) {
    if (!(count >= 1)) throw new Error(`count must be at least 1, not ${count}`);
    buffers = corpus.corpusBuffers(kind, count, seed);
  } else {
    buffers = [kind === 'request' ? benchRequest(len) : corpus.corpusBuffers('response', 1, seed)[0]];
  }
  const pieces = buffers.map((buf) => {
    if (frags <= 1) return [buf];
    if (vary === 1) return corpus.splitPoints(buf, frags, seed);
    const size = Math.ceil(buf.length / frags);
    const out = [];
    for (let at = 0; at < buf.length; at += size) out.push(buf.subarray(at, Math.min(at + size, buf.length)));
    if (out.length !== frags) throw new Error(`split into ${out.length} pieces, not ${frags}`);
    return out;
  });
  return { type: kind === 'request' ? 'REQUEST' : 'RESPONSE', buffers, pieces };
}

// Parses every message of a workload once with a fresh parser (outside any
// timed loop) and throws unless each piece parses whole and each message
// completes: the benchmark measured what it claims to.
function verifyWorkload(HTTPParser, work) {
  const TYPE = HTTPParser[work.type];
  const parser = new HTTPParser();
  parser.initialize(TYPE, {});
  let completed = 0;
  parser[HTTPParser.kOnHeaders] = function() {};
  parser[HTTPParser.kOnHeadersComplete] = function() {};
  parser[HTTPParser.kOnBody] = function() {};
  parser[HTTPParser.kOnMessageComplete] = function() { completed++; };
  for (let i = 0; i < work.pieces.length; i++) {
    for (const piece of work.pieces[i]) {
      const ret = parser.execute(piece, 0, piece.length);
      if (ret !== piece.length) {
        throw new Error(`message ${i}: execute returned ${ret instanceof Error ? `${ret.code} ${ret.reason}` : ret}, expected ${piece.length}`);
      }
    }
    if (completed !== i + 1) throw new Error(`message ${i} did not complete`);
    parser.initialize(TYPE, {});
  }
  if (typeof parser.close === 'function') parser.close();
}

// The keys a parser benchmark's line shows: len only for the repeated
// request, count and kind only where they apply.
function shownParserConf(conf) {
  if (Number(conf.vary) === 1 || conf.kind === 'response') delete conf.len;
  if (Number(conf.vary) !== 1) delete conf.count;
  if (conf.kind === 'request') delete conf.kind;
  return conf;
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
  benchRequest,
  workload,
  verifyWorkload,
  shownParserConf,
  Timer,
};
