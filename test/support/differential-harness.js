'use strict';
// Differential harness: drives the built-in parser
// (require('_http_common').HTTPParser) and ours through the same case, the
// way Node's http does, records everything the handlers see and every
// execute()/finish() result, and compares the two records.
//
// A case: { type: 'request'|'response', chunks: Buffer[], lenient,
//           maxHeaderSize, answers: number[], finish: boolean, input? }
//   answers[k] is what kOnHeadersComplete returns for the k-th message.
//
// How the case is driven (as _http_server/_http_client do):
//   - every chunk is executed in turn;
//   - after an execute that saw an upgrade (upgrade flag, answer 2, status
//     101) no more chunks are executed: the rest belongs to the new protocol;
//   - after an error the remaining chunks are still executed, to check that
//     errors stick; their bytesParsed is not compared (the built-in's is a
//     stale llhttp position there);
//   - finish() at the end when case.finish.
//
// compareCase() returns { status: 'same' }, { status: 'known', note } for a
// known difference (docs/differences.md: one explained by the llhttp 9.2.1
// (ours) / 9.3.1 (Node 20) versions, or the built-in's stale count after an
// upgrade no kOnHeadersComplete saw), or { status: 'mismatch', where,
// builtin, ours }.

const { HTTPParser: BuiltinParser } = require('_http_common');

// --- recording -------------------------------------------------------------

function resultOf(r) {
  if (r instanceof Error) return ['error', r.code, r.reason, r.bytesParsed];
  return ['ok', r];
}

// The chunk as the given kind of ArrayBufferView (Node's sockets hand over
// slices of pooled buffers: a non-zero byteOffset).
function asView(chunk, view) {
  // Empty views over an ArrayBuffer of their own have no data pointer: the
  // built-in takes execute() of those for finish() (see 'empty' ops). Keep
  // empty chunks inside a pool, as sockets hand them over.
  if (chunk.length === 0 && view !== 'buffer') view = 'offset';
  if (view === 'offset') {
    const pool = Buffer.alloc(chunk.length + 7, 0x5a);
    chunk.copy(pool, 3);
    return pool.subarray(3, 3 + chunk.length);
  }
  if (view === 'uint8') return new Uint8Array(chunk);
  if (view === 'dataview') {
    const copy = new Uint8Array(chunk);
    return new DataView(copy.buffer, copy.byteOffset, copy.byteLength);
  }
  return chunk;
}

function call(fn) {
  try {
    return resultOf(fn());
  } catch (err) {
    return ['throw', String(err && err.message)];
  }
}

// Runs one case on parser p (already created), appending to steps.
// Step ops: 'execute', 'pausedExecute' (an execute while paused: the
// built-in's bytesParsed is stale there), 'finish', 'pausedFinish'; steps of
// a prelude (the same parser's previous life, as Node's parser FreeList
// reuses parsers) are marked prelude: true.
function drive(P, p, tc, steps, prelude) {
  p.initialize(tc.type === 'request' ? P.REQUEST : P.RESPONSE, {}, tc.maxHeaderSize || 0,
               tc.lenient || 0);
  let events = [];
  let messages = 0;
  let upgraded = false;
  let pausedInCallback = false;
  let current = null;
  let threw = false;
  const pauseAt = new Set(tc.pauseInHeadersComplete || []);
  p[P.kOnMessageBegin] = () => { events.push(['begin']); };
  p[P.kOnHeaders] = (headers, url) => { events.push(['headers', headers && headers.slice(), url]); };
  p[P.kOnHeadersComplete] = function (versionMajor, versionMinor, headers, method, url, statusCode,
                                      statusMessage, upgrade, shouldKeepAlive) {
    const index = messages++;
    const answer = (tc.answers && tc.answers[index]) || 0;
    // (not after a handler threw in this execute: the built-in's native
    // methods fail while that exception is pending, a known difference)
    const cb = threw ? Buffer.alloc(0) : this.getCurrentBuffer();
    events.push(['headersComplete', versionMajor, versionMinor, headers && headers.slice(), method,
                 url, statusCode, statusMessage, upgrade, shouldKeepAlive,
                 cb.length, current !== null && Buffer.compare(cb, current) === 0]);
    if (upgrade || answer === 2 || statusCode === 101) upgraded = true;
    if (pauseAt.has(index)) {
      // deferred by the built-in: the current execute goes on
      this.pause();
      pausedInCallback = true;
    }
    return answer;
  };
  p[P.kOnBody] = (b) => { events.push(['body', Buffer.from(b).toString('latin1')]); };
  p[P.kOnMessageComplete] = () => { events.push(['complete']); };
  for (const name of tc.missing || []) p[P[name]] = null;
  if (tc.throwAt) {
    // the n-th call of one handler throws (after recording its event)
    const { name, n } = tc.throwAt;
    const inner = p[P[name]];
    let calls = 0;
    if (typeof inner === 'function') {
      p[P[name]] = function (...args) {
        const r = inner.apply(this, args);
        if (++calls === n) {
          events.push(['threw', name]);
          threw = true;
          throw new Error('handler threw');
        }
        return r;
      };
    }
  }
  const push = (op, length, result) => {
    steps.push({ op, length, events, result, prelude });
    events = [];
  };
  const ops = tc.ops || [];
  for (let i = 0; i < tc.chunks.length; i++) {
    const chunk = tc.chunks[i];
    const data = asView(chunk, tc.view);
    current = chunk;
    if (ops[i] === 'empty') {
      // An empty execute. Ours gets an empty Buffer of its own (it reaches
      // the core with no data pointer); the built-in an empty slice of a
      // pool, since it takes a view whose data pointer is NULL for finish()
      // and whether Buffer.alloc(0) has one depends on V8's internals.
      const empty = P === BuiltinParser ? Buffer.from('pool').subarray(2, 2) : Buffer.alloc(0);
      push(pausedInCallback ? 'pausedExecute' : 'execute', 0, call(() => p.execute(empty)));
    }
    if (ops[i] === 'pause-resume') {
      p.pause();
      p.resume();
    }
    if (ops[i] === 'paused' || pausedInCallback) {
      if (!pausedInCallback) p.pause();
      pausedInCallback = false;
      push('pausedExecute', chunk.length, call(() => p.execute(data)));
      p.resume();
    }
    const result = call(() => p.execute(data));
    threw = false;
    push('execute', chunk.length, result);
    current = null;
    // without a kOnHeadersComplete handler an upgrade shows as a short count
    if (result[0] === 'ok' && result[1] !== chunk.length) upgraded = true;
    if (upgraded) break;
  }
  if (tc.finish) {
    const finish = () => {
      const r = call(() => p.finish());
      return r[0] === 'ok' && r[1] === undefined ? ['ok'] : r;
    };
    if (pausedInCallback) {
      pausedInCallback = false;
      push('pausedFinish', 0, finish());
      p.resume();
    }
    push('finish', 0, finish());
  }
}

function record(HTTPParser, tc) {
  const p = new HTTPParser();
  const steps = [];
  if (tc.prelude) drive(HTTPParser, p, tc.prelude, steps, true);
  drive(HTTPParser, p, tc, steps, false);
  p.close();
  return steps;
}

// --- comparing ---------------------------------------------------------------

function same(a, b) {
  return JSON.stringify(a) === JSON.stringify(b);
}

// Step by step: events and results exactly, except bytesParsed once an error
// stuck, of an execute while paused, and of some finish() errors.
function strictDiff(a, b) {
  let errored = false;
  let prelude = true;
  const n = Math.max(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a[i];
    const y = b[i];
    if (!x || !y) return { step: i, builtin: x || null, ours: y || null };
    if (x.op !== y.op || x.prelude !== y.prelude || !same(x.events, y.events)) return { step: i, builtin: x, ours: y };
    if (prelude && !x.prelude) {
      prelude = false;
      errored = false; // initialize() clears the error
    }
    const rx = x.result;
    const ry = y.result;
    // A count outside [0, length] from the built-in is a stale llhttp
    // position: the stream was upgraded unseen (no kOnHeadersComplete
    // handler to tell) and Node would not execute this data.
    if (rx[0] === 'ok' && typeof rx[1] === 'number' && (rx[1] < 0 || rx[1] > x.length)) return null;
    if (x.op === 'pausedExecute') {
      if (!same(rx.slice(0, 3), ry.slice(0, 3))) return { step: i, builtin: x, ours: y };
      continue;
    }
    // finish(): the built-in computes bytesParsed as llhttp's error_pos minus
    // a null data pointer; after an earlier pause or error (an upgrade, say)
    // that is a stale address, so it is compared only when the built-in's is 0.
    const garbage = (errored && x.op === 'execute') ||
      ((x.op === 'finish' || x.op === 'pausedFinish') && rx[0] === 'error' && rx[3] !== 0);
    const comparable = (r) => (garbage && r[0] === 'error' ? r.slice(0, 3) : r);
    if (!same(comparable(rx), comparable(ry))) return { step: i, builtin: x, ours: y };
    if ((rx[0] === 'error' || rx[0] === 'throw') && x.op === 'execute') errored = true;
  }
  return null;
}

// The llhttp 9.2 -> 9.3 changes visible through Node's binding (9.3 parses
// the protocol as a token, 'HTTP', 'RTSP' or 'ICE', then checks the method
// against it, then expects '/'):
//  - 9.3 accepts RTSP/ and ICE/ as the protocol of a response (9.2: error
//    'Expected HTTP/');
//  - its protocol error reads 'Expected HTTP/, RTSP/ or ICE/';
//  - it reports a method that does not go with the protocol ('Invalid
//    method for HTTP/x.x request', ...) before the '/', one byte earlier,
//    even when no '/' follows (9.2: 'Expected HTTP/' there, or nothing yet
//    at the end of the input).
const REASON_9_3 = 'Expected HTTP/, RTSP/ or ICE/';
const REASON_9_2 = 'Expected HTTP/';
const METHOD_REASONS = new Set([
  'Invalid method for HTTP/x.x request',
  'Invalid method for RTSP/x.x request',
  'Expected SOURCE method for ICE/x.x request',
]);
const isVersionReason = (reason) => reason === REASON_9_2 || reason === REASON_9_3 || METHOD_REASONS.has(reason);

// One flat stream: events, then the first error with its offset in the
// whole input, or where parsing stopped short (upgrade); finish results.
function flatten(steps) {
  const out = [];
  let consumed = 0;
  for (const s of steps) {
    out.push(...s.events);
    // executes while paused consume nothing (and are compared step by step)
    if (s.op === 'pausedExecute' || s.op === 'pausedFinish') continue;
    const r = s.result;
    if (r[0] === 'error') {
      const at = s.op === 'finish' ? 0 : consumed + r[3];
      out.push([s.op === 'finish' ? 'finishError' : 'error', r[1], r[2], at]);
      if (s.op === 'execute') return out;
      continue;
    }
    if (r[0] === 'throw') {
      // a handler threw: parsing may go on (kOnMessageBegin, kOnHeaders)
      out.push(r);
      consumed += s.length;
      continue;
    }
    if (s.op === 'execute') {
      if (r[1] !== s.length) out.push(['stopped', consumed + r[1]]);
      consumed += s.length;
    } else {
      out.push(['finish']);
    }
  }
  return out;
}

// Whether the first difference between the flat streams is one of the
// llhttp version differences above: returns a note, or null.
function versionDifference(tc, fb, fo) {
  let i = 0;
  while (i < fb.length && i < fo.length && same(fb[i], fo[i])) i++;
  const b = fb[i];
  const o = fo[i];
  const isErr = (x) => x && x[0] === 'error';
  const input = tc.input || Buffer.concat(tc.chunks);
  if (isErr(b) && isErr(o) && b[1] === o[1] && isVersionReason(b[2]) && isVersionReason(o[2]) &&
      Math.abs(b[3] - o[3]) <= 5) {
    if (b[2] === REASON_9_3 && o[2] === REASON_9_2 && b[3] === o[3]) return `reason '${REASON_9_3}' (llhttp 9.3) vs '${REASON_9_2}' (9.2)`;
    if (METHOD_REASONS.has(b[2])) return `'${b[2]}' is reported before the '/' by llhttp 9.3`;
    return `protocol token parsed differently by llhttp 9.3 ('${b[2]}') and 9.2 ('${o[2]}')`;
  }
  if (isErr(b) && !isErr(o) && METHOD_REASONS.has(b[2]) && b[3] >= input.length - 1) {
    return `'${b[2]}' is reported before the '/' by llhttp 9.3 (input ends there)`;
  }
  if (tc.type === 'response' && isErr(o) && o[2] === REASON_9_2 && !(isErr(b) && b[3] === o[3])) {
    const rest = input.subarray(o[3], o[3] + 5).toString('latin1');
    const atEnd = o[3] + rest.length === input.length;
    if (/^(RTSP|ICE)\//.test(rest) || (atEnd && rest.length > 0 && ['RTSP/', 'ICE/'].some((t) => t.startsWith(rest)))) {
      return 'RTSP/ and ICE/ responses are accepted by llhttp 9.3 only';
    }
  }
  if (tc.type === 'response' && isErr(o) && o[2] === REASON_9_2 && isErr(b) && b[2] === REASON_9_3 &&
      b[3] > o[3] && b[3] - o[3] <= 4) {
    const token = input.subarray(o[3], b[3]).toString('latin1');
    if (['RTSP', 'ICE', 'HTTP'].some((t) => t.startsWith(token))) {
      return `response protocol '${token}...' is matched further by llhttp 9.3`;
    }
  }
  return null;
}

function comparePart(tc, builtin, ours) {
  const d = strictDiff(builtin, ours);
  if (!d) return { status: 'same' };
  const fb = flatten(builtin);
  const fo = flatten(ours);
  const note = versionDifference(tc, fb, fo);
  if (note) return { status: 'known', note };
  return { status: 'mismatch', where: d.step, builtin: d.builtin, ours: d.ours, flat: { builtin: fb, ours: fo } };
}

// A case with a prelude (the parser's previous life) compares both parts
// separately: initialize() starts the parser over.
function compareRecords(tc, builtin, ours) {
  if (!tc.prelude) return comparePart(tc, builtin, ours);
  const pre = comparePart(tc.prelude, builtin.filter((s) => s.prelude), ours.filter((s) => s.prelude));
  const main = comparePart(tc, builtin.filter((s) => !s.prelude), ours.filter((s) => !s.prelude));
  if (pre.status === 'mismatch') return { ...pre, note: 'in the prelude' };
  if (main.status === 'mismatch') return main;
  if (pre.status === 'known') return pre;
  return main;
}

// After an upgrade (CONNECT, or Upgrade the server takes) llhttp pauses
// with HPE_PAUSED_UPGRADE; the built-in resumes it and reports
// error_pos - data. Without a kOnHeadersComplete handler nobody sees the
// upgrade flag, so a caller may execute more bytes: llhttp then parses them
// as after a message that closes the connection (an error, hidden because
// the upgrade flag is set), and from then on returns that lingering error
// at once, leaving error_pos where it was, in an earlier buffer. The
// built-in's count is then the distance between two unrelated buffers,
// truncated to 32 bits (1, 337, -7: whatever the allocator gave); ours is
// how much of this buffer llhttp parsed, 0. The harness's rule for counts
// outside [0, length] misses the ones that fall inside by chance.
//
// Whether an upgrade went unseen is learnt from a probe: the same part of
// the case on the built-in with a kOnHeadersComplete that records the flag
// and returns 0, as a missing handler does (llhttp goes the same way).
const STALE_AFTER_UPGRADE = 'the built-in\'s count after an upgrade no kOnHeadersComplete saw is a stale ' +
  'pointer difference (ours: what llhttp parsed of the buffer, 0)';

function unseenUpgradeStep(part, inPrelude) {
  if (!(part.missing || []).includes('kOnHeadersComplete')) return -1;
  const probePart = {
    ...part, missing: part.missing.filter((n) => n !== 'kOnHeadersComplete'), answers: [],
    pauseInHeadersComplete: [],
    throwAt: part.throwAt && part.throwAt.name === 'kOnHeadersComplete' ? null : part.throwAt,
  };
  const probe = record(BuiltinParser, inPrelude ? { ...probePart, prelude: null } : probePart)
    .filter((s) => !s.prelude);
  return probe.findIndex((s) => s.events.some((e) => e[0] === 'headersComplete' && e[8] === true));
}

// The note for a mismatch that is only that stale count, or null: an unseen
// upgrade came before the first difference, and from there on the steps
// differ in nothing but an 'ok' count. (drive() stops at a short count, as
// a caller would: ours's record may end there while the built-in's, whose
// stale count looked whole, goes on, delivering nothing.)
function staleCountAfterUnseenUpgrade(tc, res, builtin, ours) {
  const inPrelude = res.note === 'in the prelude';
  const part = inPrelude ? tc.prelude : tc;
  const b = builtin.filter((s) => s.prelude === inPrelude);
  const o = ours.filter((s) => s.prelude === inPrelude);
  const upgrade = unseenUpgradeStep(part, inPrelude);
  if (upgrade < 0 || res.where <= upgrade) return null;
  for (let i = res.where; i < Math.max(b.length, o.length); i++) {
    const x = b[i];
    const y = o[i];
    if (!x) return null;
    if (x.events.length !== 0 || x.result[0] !== 'ok') return null;
    if (!y) continue;
    if (x.op !== y.op || !same(x.events, y.events)) return null;
    if (same(x.result, y.result)) continue;
    if (y.result[0] !== 'ok' || !(y.result[1] >= 0 && y.result[1] <= y.length)) return null;
  }
  return STALE_AFTER_UPGRADE;
}

function compareCase(OursParser, tc) {
  const builtin = record(BuiltinParser, tc);
  const ours = record(OursParser, tc);
  let res = compareRecords(tc, builtin, ours);
  if (res.status === 'mismatch') {
    const note = staleCountAfterUnseenUpgrade(tc, res, builtin, ours);
    if (note) res = { status: 'known', note };
  }
  return { ...res, records: { builtin, ours } };
}

// A JavaScript snippet that shows a mismatch by itself.
function reproSnippet(tc) {
  const chunks = tc.chunks.map((c) => JSON.stringify(c.toString('latin1')));
  return [
    "const { HTTPParser: B } = require('_http_common');",
    "const { HTTPParser: O } = require('llhttp-napi');",
    'for (const P of [B, O]) {',
    '  const p = new P(); const ev = [];',
    `  p.initialize(P.${tc.type === 'request' ? 'REQUEST' : 'RESPONSE'}, {}, ${tc.maxHeaderSize || 0}, ${tc.lenient || 0});`,
    '  p[P.kOnHeaders] = (h, u) => ev.push([\'headers\', h, u]);',
    `  let k = 0; const answers = ${JSON.stringify(tc.answers || [])};`,
    '  p[P.kOnHeadersComplete] = (...a) => { ev.push([\'hc\', ...a]); return answers[k++] || 0; };',
    '  p[P.kOnBody] = (b) => ev.push([\'body\', b.toString(\'latin1\')]);',
    '  p[P.kOnMessageComplete] = () => ev.push([\'complete\']);',
    ...(tc.missing || []).map((name) => `  p[P.${name}] = null;`),
    `  for (const c of [${chunks.join(', ')}]) {`,
    "    const r = p.execute(Buffer.from(c, 'latin1'));",
    "    ev.push(r instanceof Error ? ['error', r.code, r.reason, r.bytesParsed] : ['ok', r]);",
    '  }',
    tc.finish ? "  { const r = p.finish(); ev.push(r instanceof Error ? ['finishError', r.code, r.reason] : ['finish']); }" : '',
    (tc.ops || []).some(Boolean) || (tc.pauseInHeadersComplete || []).length || tc.prelude || (tc.view && tc.view !== 'buffer')
      ? '  // (also needs: ' + JSON.stringify({ ops: tc.ops, pauseInHeadersComplete: tc.pauseInHeadersComplete, view: tc.view, prelude: tc.prelude && tc.prelude.id }) + ')' : '',
    tc.throwAt ? '  // (and the handler ' + JSON.stringify(tc.throwAt) + ' throws on that call, after recording)' : '',
    "  console.log(P === B ? 'builtin' : 'ours   ', JSON.stringify(ev));",
    '}',
  ].filter(Boolean).join('\n');
}

module.exports = {
  record, compareRecords, compareCase, strictDiff, flatten, reproSnippet, BuiltinParser, STALE_AFTER_UPGRADE,
  staleCountAfterUnseenUpgrade,
};
