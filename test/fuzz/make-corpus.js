'use strict';
// Writes the seed corpus of the libFuzzer harness (test/fuzz/fuzz_parser.c)
// into test/fuzz/corpus/: representative requests and responses, each
// behind the harness's 11-byte configuration header, in a few
// configurations (strict / lenient, fragment seeds, answers, finish).
// Also seeds every vector of test/vectors/smuggling.json.
//
// Usage: node test/fuzz/make-corpus.js [outdir]

const fs = require('node:fs');
const path = require('node:path');
const crypto = require('node:crypto');

const MODE_RESPONSE = 0x01;
const MODE_FINISH = 0x02;
const MODE_HOOK = 0x04;
const MODE_PAUSE = 0x08;
const MODE_SMALLFRAG = 0x10;

const REQUESTS = [
  'GET / HTTP/1.1\r\nHost: a\r\n\r\n',
  'GET /path?q=1#f HTTP/1.1\r\nHost: example.com\r\nAccept: */*\r\nUser-Agent: x\r\n\r\n',
  'GET http://example.com:8080/abs?x HTTP/1.1\r\nHost: example.com\r\n\r\n',
  'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\nrest',
  'OPTIONS * HTTP/1.1\r\nHost: a\r\n\r\n',
  'POST /p HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\n\r\nhello',
  'POST /p HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n',
  'POST /p HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n3;ext=1;q="v"\r\nabc\r\n0;last\r\nTrailer-A: 1\r\nTrailer-B: 2\r\n\r\n',
  'POST /p HTTP/1.1\r\nTransfer-Encoding: gzip, chunked\r\n\r\n1\r\na\r\n0\r\n\r\n',
  'POST /p HTTP/1.1\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
  'POST /p HTTP/1.1\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\nabcd',
  'POST /p HTTP/1.1\r\nContent-Length: +3\r\n\r\nabc',
  'POST /p HTTP/1.1\r\nTransfer-Encoding: chunked, gzip\r\n\r\n',
  'POST /p HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nFFFFFFFFFFFFFFFFF\r\n',
  'GET / HTTP/1.1\r\nHost : a\r\n\r\n',
  'GET / HTTP/1.1\r\nHost: a\rX: b\r\n\r\n',
  'GET / HTTP/1.1\r\nX: a\r\n  folded\r\n\r\n',
  'GET / HTTP/1.1\nHost: a\n\n',
  'GET / HTTP/1.0\r\nConnection: keep-alive\r\n\r\nGET /2 HTTP/1.0\r\n\r\n',
  'GET / HTTP/1.1\r\nConnection: close\r\n\r\nGET /after HTTP/1.1\r\n\r\n',
  'GET / HTTP/1.1\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\r\n\x81\x00',
  'GET / HTTP/1.1\r\nX: a\x00b\r\n\r\n',
  'GET / HTTP/1.1\r\nX: caf\xe9\r\n\r\n',
  'GET /\x7f HTTP/1.1\r\n\r\n',
  'GET /\r\n\r\n',
  'GET / HTTP/2.0\r\n\r\n',
  'PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n',
  'QUERY /q HTTP/1.1\r\nContent-Length: 2\r\n\r\nab',
  'M-SEARCH * HTTP/1.1\r\nHost: a\r\n\r\n',
  'SOURCE /s ICE/1.0\r\n\r\n',
  'DESCRIBE rtsp://a/ RTSP/1.0\r\nCSeq: 1\r\n\r\n',
  'GET / HTTP/1.1\r\nHost: a\r\n\r\nGET /b HTTP/1.1\r\nHost: b\r\n\r\nPOST /c HTTP/1.1\r\nContent-Length: 1\r\n\r\nx',
  'GET / HTTP/1.1\r\n' + Array.from({ length: 40 }, (_, i) => `H${i}: v${i}`).join('\r\n') + '\r\n\r\n',
  'POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n1\r\na\r\n0\r\n' +
    Array.from({ length: 35 }, (_, i) => `T${i}: t`).join('\r\n') + '\r\n\r\n',
  'POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n1 \r\na\r\n0  \r\n\r\n',
  'POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n1\r\naX0\r\n\r\n',
  'GET / HTTP/1.1\r\nContent-Length: 18446744073709551616\r\n\r\n',
];

const RESPONSES = [
  'HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello',
  'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5;a=b\r\nhello\r\n0\r\nX-T: 1\r\n\r\n',
  'HTTP/1.1 200 OK\r\n\r\nbody until close',
  'HTTP/1.0 200 OK\r\n\r\nbody',
  'HTTP/1.1 204 No Content\r\n\r\nHTTP/1.1 304 Not Modified\r\nContent-Length: 10\r\n\r\n',
  'HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n',
  'HTTP/1.1 101 Switching Protocols\r\nConnection: upgrade\r\nUpgrade: websocket\r\n\r\ndata',
  'HTTP/1.1 200\r\nContent-Length: 0\r\n\r\n',
  'HTTP/1.1 999 Weird\r\n\r\n',
  'HTTP/1.1 200 OK\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab',
  'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\n0\r\n\r\n',
  'HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip\r\n\r\nraw',
  'RTSP/1.0 200 OK\r\nCSeq: 1\r\n\r\n',
  'ICE/1.0 200 OK\r\n\r\n',
  'HTTP/1.1 200 OK\nContent-Length: 2\n\nok',
];

// Streams of messages whose heads repeat (LHN_HC_REPEATS) or nearly do,
// and names that are or are not well known in some spelling. Each is seeded
// with every configuration and with a handler missing. The core records one
// head in LHN_RECORD_EVERY (src/core/lhn_repeat.h): a stream repeats a head
// REPEATED times so that the last ones are claimed to repeat.
const many = (n, f) => Array.from({ length: n }, (_, i) => f(i)).join('');
const LHN_RECORD_EVERY = 4;
const REPEATED = LHN_RECORD_EVERY + 2;
const REPEATING = [
  { type: 'request', data: many(REPEATED, () => 'GET /r HTTP/1.1\r\nHost: a\r\nAccept: */*\r\nUser-Agent: u\r\n\r\n') },
  // the same bytes laid out differently, then trailing blanks that trimming hides
  { type: 'request', data: 'GET / HTTP/1.1\r\nab: c\r\n\r\nGET / HTTP/1.1\r\na: bc\r\n\r\n' +
    'GET / HTTP/1.1\r\na: bc \r\n\r\nGET / HTTP/1.1\r\na: bc\t\r\n\r\n' +
    many(REPEATED, () => 'GET / HTTP/1.1\r\na: bc\r\n\r\n') },
  { type: 'request', data: many(REPEATED, () => 'POST /p HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n' +
    '1\r\na\r\n0\r\nTrailer-A: 1\r\n\r\n') },
  // more than 31 fields: flushed early, never repeating (nor is the next one);
  // then a short head, repeated
  { type: 'request', data: many(2, () => 'GET /f HTTP/1.1\r\n' + many(33, (i) => `H${i}: v\r\n`) + '\r\n') +
    many(REPEATED, () => 'GET /f HTTP/1.1\r\nH: v\r\n\r\n') },
  { type: 'request', data: 'GET / HTTP/1.1\r\nhost: a\r\nHOST: b\r\nContent-Type: x\r\ncontent-type: y\r\n' +
    'Content-type: z\r\nX-Unknown: z\r\nAccess-Control-Allow-Origin: *\r\nTE: t\r\n\r\n' },
  { type: 'response', data: many(REPEATED, () => 'HTTP/1.1 200 OK\r\nContent-Length: 2\r\nServer: s\r\n\r\nok') },
  { type: 'response', data: 'HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n' +
    many(REPEATED, () => 'HTTP/1.1 200 Fine\r\nContent-Length: 0\r\n\r\n') },
];

// The harness's handler bits ride in the high byte of the lenient flags
// (bit 12 on: bits 10..11 say which of kOnHeaders, kOnHeadersComplete exist).
const HANDLERS_ONLY_ON_HEADERS = 0x1000 | (1 << 10);
const HANDLERS_ONLY_ON_HEADERS_COMPLETE = 0x1000 | (2 << 10);

function header({ mode = 0, lenient = 0, size = 150, answers = 0, fail = 0, seed = 1 }) {
  const h = Buffer.alloc(11);
  h[0] = mode;
  h.writeUInt16LE(lenient, 1);
  h[3] = size;
  h.writeUInt32LE(answers >>> 0, 4);
  h[8] = fail;
  h.writeUInt16LE(seed, 9);
  return h;
}

const CONFIGS = [
  {},
  { mode: MODE_FINISH, seed: 7 },
  { lenient: 1023, seed: 99 },
  { mode: MODE_SMALLFRAG | MODE_PAUSE, seed: 3 },
  { mode: MODE_HOOK, size: 20, seed: 5 },
  { answers: 0xabcdabcd, seed: 11 },
  { fail: 3, seed: 13 },
];

function loadVectors() {
  const file = path.join(__dirname, '..', 'vectors', 'smuggling.json');
  if (!fs.existsSync(file)) return [];
  const { vectors } = JSON.parse(fs.readFileSync(file, 'utf8'));
  return vectors.map((v) => ({ type: v.type, data: Buffer.from(v.input, 'latin1') }));
}

function main() {
  const out = process.argv[2] || path.join(__dirname, 'corpus');
  fs.mkdirSync(out, { recursive: true });
  const messages = [
    ...REQUESTS.map((m) => ({ type: 'request', data: Buffer.from(m, 'latin1') })),
    ...RESPONSES.map((m) => ({ type: 'response', data: Buffer.from(m, 'latin1') })),
  ];
  let written = 0;
  messages.forEach((m, i) => {
    // every message once plainly, plus one rotating configuration
    for (const cfg of [CONFIGS[0], CONFIGS[1 + (i % (CONFIGS.length - 1))]]) {
      const mode = (cfg.mode || 0) | (m.type === 'response' ? MODE_RESPONSE : 0);
      const bytes = Buffer.concat([header({ ...cfg, mode }), m.data]);
      const name = crypto.createHash('sha1').update(bytes).digest('hex').slice(0, 16);
      fs.writeFileSync(path.join(out, `seed-${m.type}-${name}`), bytes);
      written++;
    }
  });
  for (const m of REPEATING) {
    const data = Buffer.from(m.data, 'latin1');
    const configs = [...CONFIGS, { lenient: HANDLERS_ONLY_ON_HEADERS, seed: 19 },
      { lenient: HANDLERS_ONLY_ON_HEADERS_COMPLETE, seed: 23 }];
    for (const cfg of configs) {
      const mode = (cfg.mode || 0) | (m.type === 'response' ? MODE_RESPONSE : 0);
      const bytes = Buffer.concat([header({ ...cfg, mode }), data]);
      const name = crypto.createHash('sha1').update(bytes).digest('hex').slice(0, 16);
      fs.writeFileSync(path.join(out, `seed-repeat-${name}`), bytes);
      written++;
    }
  }
  for (const v of loadVectors()) {
    for (const lenient of [0, 1023]) {
      const mode = MODE_FINISH | (v.type === 'response' ? MODE_RESPONSE : 0);
      const bytes = Buffer.concat([header({ mode, lenient, seed: 17 }), v.data]);
      const name = crypto.createHash('sha1').update(bytes).digest('hex').slice(0, 16);
      fs.writeFileSync(path.join(out, `vector-${name}`), bytes);
      written++;
    }
  }
  console.log(`make-corpus: ${written} seeds in ${out}`);
}

main();
