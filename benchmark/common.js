'use strict';
// Shared helpers of the benchmark programs: arguments, the parsers and how a
// benchmark makes and drives one, timing, the build being measured, and
// output in the format of Node's own benchmarks:
//   http/bench-parser.js parser=napi n=100000 len=8: 1,395,311.5
//
// A benchmark declares its configurations (each key a list of values). When
// every key has one value (after `key=value` overrides on the command line)
// it runs in this process; otherwise it runs each combination in a fresh
// child process, like Node's benchmark/common.js does.
//
// The benchmarks use llhttp-napi's public API only (the package root,
// install(), HTTPParser); coreStats() below is the one place that reaches
// into lib/.

const fs = require('node:fs');
const path = require('node:path');
const crypto = require('node:crypto');
const { spawnSync, execFileSync } = require('node:child_process');
// Seeded, so that both parsers parse exactly the same bytes in every process.
const { prng } = require('./corpus');

const ROOT = path.resolve(__dirname, '..');
// The two sides of every comparison: Node's built-in parser and ours.
const PARSERS = ['builtin', 'napi'];

// The order of the two sides in round (or batch) `i`: built-in first in even
// rounds, ours first in odd ones, so that neither always goes first.
function roundOrder(i) {
  return i % 2 === 0 ? PARSERS : [...PARSERS].reverse();
}

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

// In a process that measures node:http (a server, a client): makes `name`
// the parser node:http uses. 'builtin' changes nothing; 'napi' requires the
// llhttp-napi at `pkg` and calls install(). Returns null, or why ours could
// not be installed.
function useParser(name, pkg = ROOT) {
  if (name !== 'napi') return null;
  let mod;
  try {
    mod = require(pkg);
  } catch (err) {
    return `the addon does not load: ${err.message}`;
  }
  return mod.install() === false ? 'install() returned false (see its warning)' : null;
}

// Which parser node:http gave a socket ('builtin', 'napi', or what else it
// is); `ours` is llhttp-napi's HTTPParser where it was installed.
function whichParser(parser, ours) {
  if (!parser) return 'unknown (socket.parser unset)';
  if (ours) return parser instanceof ours ? 'napi' : `not ours (${parser.constructor.name})`;
  return parser.constructor.name === 'HTTPParser' && typeof parser.getAllHeaders !== 'function' ? 'builtin' :
    parser.constructor.name;
}

// The core's counters of a parser of ours (lib/parser-hooks.js coreStats: the
// bytes it holds), or null where the parser is not ours or this version of
// lib/ has no such hook. The one place a benchmark reads lib/'s internals.
function coreStats(parser, pkg = ROOT) {
  let hooks;
  try {
    hooks = require(path.join(pkg, 'lib', 'parser-hooks.js'));
  } catch {
    try {
      hooks = require(path.join(pkg, 'lib', 'hooks.js')); // (before the rename)
    } catch {
      return null;
    }
  }
  const read = hooks.coreStats && parser ? parser[hooks.coreStats] : undefined;
  return typeof read === 'function' ? read.call(parser) : null;
}

const SLOTS = ['kOnHeaders', 'kOnHeadersComplete', 'kOnBody', 'kOnMessageComplete'];

// A parser as Node's benchmark/http/bench-parser.js makes one: initialized
// for `type`, `headers` set, each of the four callbacks a no-op of its own
// unless `handlers` gives it ({ kOnHeadersComplete() {...} }).
function makeParser(HTTPParser, type, handlers = {}) {
  const parser = new HTTPParser();
  parser.initialize(type, {});
  parser.headers = [];
  for (const slot of SLOTS) parser[HTTPParser[slot]] = handlers[slot] || function() {};
  return parser;
}

// The timed loop of the parser benchmarks: loop(n) parses n messages, each
// piece of a message with one execute(), then initialize(). `pieces[i]` is
// message i in its pieces; a loop over several messages keeps its place
// between calls. Compiled for each parser (new Function, `which` in its
// name), so that its call sites see one parser class only: closures made
// from the same source would share type feedback and make both parsers'
// calls polymorphic where both run in one process (paired.js).
function parseLoop(which, parser, pieces, type) {
  // A whole message is one buffer (`message`), one in pieces an array of them.
  const whole = pieces.every((p) => p.length === 1);
  const messages = whole ? pieces.map((p) => p[0]) : pieces;
  const parse = whole ? 'parser.execute(message, 0, message.length);' :
    'for (let f = 0; f < message.length; f++) parser.execute(message[f], 0, message[f].length);';
  // One message: fetched once, outside the loop (Node's shape); several: in turn.
  const [once, each] = messages.length === 1 ? ['const message = messages[0];', ''] :
    ['let j = 0;', 'const message = messages[j];\n        if (++j === messages.length) j = 0;'];
  const body = `
    ${once}
    return function loop_${which}(n) {
      for (let i = 0; i < n; i++) {
        ${each}
        ${parse}
        parser.initialize(TYPE, {});
      }
    };`;
  // eslint-disable-next-line no-new-func
  return new Function('parser', 'messages', 'TYPE', `'use strict'; // ${which}\n${body}`)(parser, messages, type);
}

// bench-parser.js and bench-parser-fragmented.js: n messages of the workload
// (in `frags` pieces), timed; returns ops/s. The first message is checked
// before the clock starts and the others after it, so that the check does not
// warm up the JIT on the corpus first.
function timeParse({ parser: which, len, frags = 1, n, vary, kind, count }, timer) {
  const HTTPParser = loadParser(which);
  // All buffers and pieces made before the timed loop.
  const work = workload({ vary, kind, len, count, frags });
  const TYPE = HTTPParser[work.type];
  verifyWorkload(HTTPParser, { type: work.type, pieces: work.pieces.slice(0, 1) });
  const loop = parseLoop(which, makeParser(HTTPParser, TYPE), work.pieces, TYPE);
  timer.start();
  loop(n);
  const rate = timer.end(n);
  verifyWorkload(HTTPParser, work);
  return rate;
}

// Node's number format: thousands separators (one decimal kept here).
function formatRate(rate) {
  const parts = (Math.round(rate * 10) / 10).toString().split('.');
  parts[0] = parts[0].replace(/(\d)(?=(?:\d\d\d)+(?!\d))/g, '$1,');
  return parts[1] ? parts.join('.') : parts[0];
}

// The reports' figures: '—' where there is none.
function formatFixed(x, digits = 1) {
  return Number.isFinite(x) ? x.toFixed(digits) : '—';
}

// A ratio of ours to the built-in: 1.23×.
function formatRatio(x, digits = 2) {
  return Number.isFinite(x) ? `${x.toFixed(digits)}×` : '—';
}

// An interval [lo, hi]: 1.20–1.26.
function formatInterval(ci, digits = 2) {
  return ci ? `${ci[0].toFixed(digits)}–${ci[1].toFixed(digits)}` : '—';
}

// A p-value: 0.0123, or 1.2e-5 below 1e-4.
function formatP(p) {
  if (p === null || p === undefined) return '—';
  return p < 1e-4 ? p.toExponential(1) : p.toFixed(4);
}

// What is being measured: the node binary, the checkout's revision (or the
// REVISION file of a snapshot made with `git archive <rev> | tar -x`), its
// uncommitted changes under lib/ src/, and digests of lib/*.js and of the
// addon binary (a shared checkout may be rebuilt mid-run: compare the
// identity at the start and at the end).
function buildIdentity(pkg = ROOT) {
  const out = { node: process.version, llhttp: process.versions.llhttp, execPath: process.execPath, package: pkg,
    revision: null, dirty: null, lib: null, addon: null };
  try {
    out.revision = fs.readFileSync(path.join(pkg, 'REVISION'), 'utf8').trim();
    out.dirty = [];
  } catch {
    try {
      const git = (args) => execFileSync('git', args, { cwd: pkg, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
      out.revision = git(['rev-parse', '--short=10', 'HEAD']);
      out.dirty = git(['status', '--porcelain', '--', 'lib', 'src', 'binding.gyp']).split('\n').filter(Boolean);
    } catch {}
  }
  const digest = (files) => {
    const hash = crypto.createHash('sha1');
    for (const f of files) {
      try {
        hash.update(fs.readFileSync(f));
      } catch {
        hash.update('missing');
      }
    }
    return hash.digest('hex').slice(0, 10);
  };
  const libDir = path.join(pkg, 'lib');
  let libFiles = [];
  try {
    libFiles = fs.readdirSync(libDir).filter((f) => f.endsWith('.js')).sort().map((f) => path.join(libDir, f));
  } catch {}
  out.lib = digest(libFiles);
  const addon = path.join(pkg, 'build', 'Release', 'llhttp_napi.node');
  out.addon = fs.existsSync(addon) ? digest([addon]) : 'missing';
  return out;
}

// Why two identities differ (lib/ or the addon rebuilt during a run), or null.
function identityChange(start, end) {
  if (start.lib === end.lib && start.addon === end.addon) return null;
  return `lib/ or the addon changed during the run (lib ${start.lib} → ${end.lib}, addon ${start.addon} → ${end.addon}): ` +
    'the figures mix code versions; run again';
}

// One line naming it: node v24.22.3 (llhttp 9.4.4); llhttp-napi at <rev> + 1 uncommitted file(s) ...; lib <digest>, addon <digest>
function describeIdentity(id) {
  return `node ${id.node} (llhttp ${id.llhttp}); llhttp-napi at ${id.revision}` +
    (id.package && id.package !== ROOT ? ` (${id.package})` : '') +
    (id.dirty && id.dirty.length ? ` + ${id.dirty.length} uncommitted file(s) in lib/src (${id.dirty.map((l) => l.slice(3)).join(', ')})` : '') +
    `; lib ${id.lib}, addon ${id.addon}`;
}

// The end of a measuring program (server.js, client.js): run(onProgress)
// measures, with a progress line on stderr (rewritten in place on a
// terminal) that reads `name: what (step/steps)`; then describe(result) is
// printed and the result written to `jsonFile` when one is given.
function runProgram(name, run, describe, jsonFile) {
  const tty = process.stderr.isTTY;
  const onProgress = ({ step, steps, what }) => {
    const text = `${name}: ${what} (${step + 1}/${steps})`;
    process.stderr.write(tty ? `\r\x1b[K${text}` : text + '\n');
  };
  run(onProgress).then((result) => {
    if (tty) process.stderr.write('\r\x1b[K');
    console.log(describe(result));
    if (jsonFile) fs.writeFileSync(jsonFile, JSON.stringify(result, null, 2));
  }).catch((err) => {
    console.error(err.stack || err.message);
    process.exit(1);
  });
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
  let completed = 0;
  const parser = makeParser(HTTPParser, TYPE, { kOnMessageComplete() { completed++; } });
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
  roundOrder,
  parseArgs,
  loadParser,
  useParser,
  whichParser,
  coreStats,
  makeParser,
  parseLoop,
  timeParse,
  formatRate,
  formatFixed,
  formatRatio,
  formatInterval,
  formatP,
  buildIdentity,
  identityChange,
  describeIdentity,
  runProgram,
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
