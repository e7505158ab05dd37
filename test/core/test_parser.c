/* Unit tests of the parser of the C core (src/core: its API, calls,
 * callbacks, text and held head), without Node. Built and run by
 * scripts/dev/test-core.js, plain and under ASan/UBSan, like the other
 * test_*.c. */
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <ctype.h>

#include "../../src/core/lhn_known.h"
#include "../../src/core/lhn_parser.h"

#include "check.h"
#include "../../src/core/lhn_pool.h"

/* The workspace every test's calls borrow (one thread, depth 0). */
static lhn_workspace W;

static const int32_t *event(uint32_t i) { return lhn_workspace_event(&W, i); }
static const int32_t *pair(int32_t i) { return lhn_workspace_pair(&W, (uint32_t)i); }
static int32_t known_tag(int32_t i) { return pair(i)[LHN_PAIR_KNOWN_NAME]; }
static uint32_t event_count(void) { return lhn_workspace_event_count(&W); }

/* Whether the text range [start, end) of the last call is want. */
static int text_is(int32_t start, int32_t end, const char *want) {
  size_t n = strlen(want), len;
  const uint8_t *text = lhn_workspace_text(&W, &len);
  return start >= 0 && end - start == (int32_t)n && (size_t)end <= len &&
         (n == 0 || memcmp(text + start, want, n) == 0);
}

static void exec(lhn_parser *p, const char *data, size_t len, lhn_result *r) {
  lhn_parser_execute(p, &W, data, len, r);
}

static void new_parser(lhn_parser *p, int type, uint32_t max, unsigned lenient) {
  lhn_parser_init(p, NULL);
  lhn_parser_reset(p, type, max, lenient);
}

static void test_request(void) {
  lhn_parser p;
  lhn_result r;
  const char *msg = "POST /path?q HTTP/1.1\r\nHost: example\r\nContent-Length: 5\r\n"
                    "X-Trim: value \t\r\n\r\nhello";
  new_parser(&p, HTTP_REQUEST, 16384, 0);
  exec(&p, msg, strlen(msg), &r);
  CHECK(r.error == HPE_OK);
  CHECK(r.bytes_parsed == strlen(msg));
  CHECK(event_count() == 4);
  CHECK(event(0)[LHN_EV_KIND] == LHN_EV_MESSAGE_BEGIN);
  const int32_t *hc = event(1);
  CHECK(hc[LHN_EV_KIND] == LHN_EV_HEADERS_COMPLETE);
  CHECK(hc[LHN_EV_PAIR_COUNT] == 3);
  CHECK(text_is(hc[LHN_EV_TEXT_START], hc[LHN_EV_TEXT_END], "/path?q"));
  CHECK(hc[LHN_EV_METHOD] == HTTP_POST && hc[LHN_EV_HTTP_MAJOR] == 1 && hc[LHN_EV_HTTP_MINOR] == 1);
  CHECK((hc[LHN_EV_FLAGS] & LHN_HC_KEEP_ALIVE) != 0);
  CHECK(text_is(pair(hc[LHN_EV_FIRST_PAIR])[0], pair(hc[LHN_EV_FIRST_PAIR])[1], "Host"));
  CHECK(text_is(pair(hc[LHN_EV_FIRST_PAIR])[2], pair(hc[LHN_EV_FIRST_PAIR])[3], "example"));
  CHECK(text_is(pair(hc[LHN_EV_FIRST_PAIR] + 2)[2], pair(hc[LHN_EV_FIRST_PAIR] + 2)[3], "value"));
  const int32_t *body = event(2);
  CHECK(body[LHN_EV_KIND] == LHN_EV_BODY && body[2] == (int32_t)(strlen(msg) - 5) && body[3] == 5);
  CHECK(event(3)[LHN_EV_KIND] == LHN_EV_MESSAGE_COMPLETE);
  lhn_parser_destroy(&p);
}

/* Every split into two executes yields the same headers and body. */
static void test_every_split(void) {
  const char *msg = "GET /a HTTP/1.1\r\nHost: h\r\nAccept: */*\r\nTransfer-Encoding: chunked\r\n\r\n"
                    "3\r\nabc\r\n0\r\nTrailer: t\r\n\r\n";
  size_t len = strlen(msg);
  for (size_t cut = 0; cut <= len; cut++) {
    lhn_parser p;
    lhn_result r;
    char body[16] = {0};
    size_t body_len = 0;
    int complete = 0, host_ok = 0, trailer_ok = 0;
    new_parser(&p, HTTP_REQUEST, 16384, 0);
    const char *parts[2] = {msg, msg + cut};
    size_t sizes[2] = {cut, len - cut};
    for (int k = 0; k < 2; k++) {
      exec(&p, parts[k], sizes[k], &r);
      CHECK(r.error == HPE_OK && r.bytes_parsed == sizes[k]);
      for (uint32_t i = 0; i < event_count(); i++) {
        const int32_t *ev = event(i);
        if (ev[LHN_EV_KIND] == LHN_EV_HEADERS_COMPLETE) {
          const int32_t *first = pair(ev[LHN_EV_FIRST_PAIR]);
          host_ok = ev[LHN_EV_PAIR_COUNT] == 3 && text_is(first[0], first[1], "Host") &&
                    text_is(first[2], first[3], "h");
        } else if (ev[LHN_EV_KIND] == LHN_EV_HEADERS) {
          const int32_t *first = pair(ev[LHN_EV_FIRST_PAIR]);
          trailer_ok = ev[LHN_EV_PAIR_COUNT] == 1 && text_is(first[0], first[1], "Trailer") &&
                       text_is(first[2], first[3], "t");
        } else if (ev[LHN_EV_KIND] == LHN_EV_BODY) {
          memcpy(body + body_len, parts[k] + ev[LHN_EV_FIRST_PAIR], (size_t)ev[LHN_EV_PAIR_COUNT]);
          body_len += (size_t)ev[LHN_EV_PAIR_COUNT];
        } else if (ev[LHN_EV_KIND] == LHN_EV_MESSAGE_COMPLETE) {
          complete++;
        }
      }
    }
    CHECK(host_ok);
    CHECK(trailer_ok);
    CHECK(body_len == 3 && memcmp(body, "abc", 3) == 0);
    CHECK(complete == 1);
    lhn_parser_destroy(&p);
  }
}

/* Writes a GET of url with 33 header fields H0: v0 .. H32: v32 into msg
 * (2048 bytes); returns its length. */
static size_t request_with_33_fields(char *msg, const char *url) {
  size_t n = (size_t)sprintf(msg, "GET %s HTTP/1.1\r\n", url);
  for (int i = 0; i < 33; i++) n += (size_t)sprintf(msg + n, "H%d: v%d\r\n", i, i);
  n += (size_t)sprintf(msg + n, "\r\n");
  return n;
}

/* 33 fields: the 32nd field flushes 31 pairs, as the built-in does. */
static void test_flush_at_32(void) {
  char msg[2048];
  size_t n = request_with_33_fields(msg, "/");
  lhn_parser p;
  lhn_result r;
  new_parser(&p, HTTP_REQUEST, 16384, 0);
  exec(&p, msg, n, &r);
  CHECK(r.error == HPE_OK);
  CHECK(event_count() == 5);
  CHECK(event(1)[LHN_EV_KIND] == LHN_EV_HEADERS && event(1)[LHN_EV_PAIR_COUNT] == 31);
  CHECK(text_is(event(1)[LHN_EV_TEXT_START], event(1)[LHN_EV_TEXT_END], "/"));
  CHECK(event(2)[LHN_EV_KIND] == LHN_EV_HEADERS && event(2)[LHN_EV_PAIR_COUNT] == 2);
  CHECK(event(2)[LHN_EV_TEXT_START] == event(2)[LHN_EV_TEXT_END]); /* URL went with the first flush */
  CHECK(event(3)[LHN_EV_KIND] == LHN_EV_HEADERS_COMPLETE && event(3)[LHN_EV_PAIR_COUNT] == -1);
  lhn_parser_destroy(&p);
}

/* 62 fields, then a 63rd name that llhttp rejects (a byte above 0x7f). The
 * 32nd field's flush comes with the first piece of its name that llhttp
 * hands over: whole, the rejected name is never handed over, so one flush
 * (the 32nd field's), then the error; cut inside the name, its first piece
 * flushes the 31 pairs before it, then the rest fails at the same byte. No
 * pair of the rejected name is ever delivered. (The fuzz harness's finding
 * headers-flushed-then-bad-name-in-pieces: the core was right.) */
static void test_rejected_name_after_flushes(void) {
  char msg[2048];
  size_t n = (size_t)sprintf(msg, "GET /u HTTP/1.1\r\n");
  for (int i = 0; i < 62; i++) n += (size_t)sprintf(msg + n, "H%d: v%d\r\n", i, i);
  size_t bad = n + 3;
  n += (size_t)sprintf(msg + n, "Bad\x86name: x\r\n\r\n");
  /* cut: 0 whole; before the name; after its first byte; before the bad byte */
  const size_t cuts[] = {0, bad - 3, bad - 2, bad};
  for (size_t c = 0; c < sizeof cuts / sizeof cuts[0]; c++) {
    size_t cut = cuts[c];
    int in_name = cut > bad - 3;
    lhn_parser p;
    lhn_result r;
    new_parser(&p, HTTP_REQUEST, 16384, 0);
    uint32_t flushes = 0;
    int last_pair_ok = 1;
    size_t from = 0;
    const size_t ends[2] = {cut, n};
    for (int k = cut == 0 ? 1 : 0; k < 2; k++) {
      exec(&p, msg + from, ends[k] - from, &r);
      for (uint32_t i = 0; i < event_count(); i++) {
        const int32_t *ev = event(i);
        if (ev[LHN_EV_KIND] != LHN_EV_HEADERS) continue;
        flushes++;
        CHECK(ev[LHN_EV_PAIR_COUNT] == 31);
        /* the flush's last pair: H30, then H61 */
        const int32_t *last = pair(ev[LHN_EV_FIRST_PAIR] + 30);
        last_pair_ok &= text_is(last[LHN_PAIR_NAME_START], last[LHN_PAIR_NAME_END], flushes == 1 ? "H30" : "H61");
      }
      if (k == 0) CHECK(r.error == HPE_OK && r.bytes_parsed == cut);
      from = ends[k];
    }
    CHECK(flushes == (in_name ? 2u : 1u));
    CHECK(last_pair_ok);
    CHECK(r.error == HPE_INVALID_HEADER_TOKEN);
    CHECK(r.code && strcmp(r.code, "HPE_INVALID_HEADER_TOKEN") == 0);
    CHECK(cut + r.bytes_parsed == bad);
    lhn_parser_destroy(&p);
  }
}

/* Without kOnHeaders the 32nd field's flush hands nothing over: the URL
 * stays and the message keeps the fast path (pairs and URL at headers
 * complete), as in the built-in. */
static void test_without_on_headers(void) {
  char msg[2048];
  size_t n = request_with_33_fields(msg, "/u");
  lhn_parser p;
  lhn_result r;
  new_parser(&p, HTTP_REQUEST, 16384, 0);
  lhn_parser_set_handlers(&p, LHN_HAS_ON_HEADERS_COMPLETE);
  exec(&p, msg, n, &r);
  CHECK(r.error == HPE_OK);
  CHECK(event_count() == 4);
  CHECK(event(1)[LHN_EV_KIND] == LHN_EV_HEADERS && event(1)[LHN_EV_PAIR_COUNT] == 31);
  CHECK(event(2)[LHN_EV_KIND] == LHN_EV_HEADERS_COMPLETE && event(2)[LHN_EV_PAIR_COUNT] == 2);
  CHECK(text_is(event(2)[LHN_EV_TEXT_START], event(2)[LHN_EV_TEXT_END], "/u"));
  CHECK(text_is(pair((uint32_t)event(2)[LHN_EV_FIRST_PAIR])[0], pair((uint32_t)event(2)[LHN_EV_FIRST_PAIR])[1], "H31"));
  lhn_parser_destroy(&p);
}

/* Without kOnHeadersComplete the headers stay pending: they leave with the
 * trailers (and the URL) at message complete. */
static void test_without_on_headers_complete(void) {
  static const char msg[] = "POST /t HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n0\r\nT: 1\r\n\r\n";
  lhn_parser p;
  lhn_result r;
  new_parser(&p, HTTP_REQUEST, 16384, 0);
  lhn_parser_set_handlers(&p, LHN_HAS_ON_HEADERS);
  exec(&p, msg, sizeof msg - 1, &r);
  CHECK(r.error == HPE_OK);
  CHECK(event_count() == 4);
  CHECK(event(1)[LHN_EV_KIND] == LHN_EV_HEADERS_COMPLETE && event(1)[LHN_EV_PAIR_COUNT] == 1);
  CHECK(event(2)[LHN_EV_KIND] == LHN_EV_HEADERS && event(2)[LHN_EV_PAIR_COUNT] == 2);
  CHECK(event(2)[LHN_EV_FIRST_PAIR] == event(1)[LHN_EV_FIRST_PAIR]);
  CHECK(text_is(event(2)[LHN_EV_TEXT_START], event(2)[LHN_EV_TEXT_END], "/t"));
  CHECK(event(3)[LHN_EV_KIND] == LHN_EV_MESSAGE_COMPLETE);
  lhn_parser_destroy(&p);
}

static void test_header_overflow(void) {
  /* URL "/abc" + "Ab" + "cd  " = 10 header bytes (trailing spaces count):
   * a limit of 10 overflows, 11 does not. */
  const char *msg = "GET /abc HTTP/1.1\r\nAb: cd  \r\n\r\n";
  lhn_parser p;
  lhn_result r;
  new_parser(&p, HTTP_REQUEST, 10, 0);
  exec(&p, msg, strlen(msg), &r);
  CHECK(r.error == HPE_USER);
  CHECK(r.code_len == strlen("HPE_HEADER_OVERFLOW") &&
        memcmp(r.code, "HPE_HEADER_OVERFLOW", r.code_len) == 0);
  CHECK(r.reason && strcmp(r.reason, "Header overflow") == 0);
  lhn_parser_reset(&p, HTTP_REQUEST, 11, 0);
  exec(&p, msg, strlen(msg), &r);
  CHECK(r.error == HPE_OK);
  lhn_parser_destroy(&p);
}

static void test_errors(void) {
  lhn_parser p;
  lhn_result r;
  new_parser(&p, HTTP_REQUEST, 16384, 0);
  exec(&p, "G@T / HTTP/1.1\r\n\r\n", 18, &r);
  CHECK(r.error == HPE_INVALID_METHOD);
  CHECK(r.code && strcmp(r.code, "HPE_INVALID_METHOD") == 0);
  CHECK(r.bytes_parsed == 1);
  const char *te_cl = "POST / HTTP/1.1\r\nContent-Length: 1\r\nTransfer-Encoding: chunked\r\n\r\n";
  lhn_parser_reset(&p, HTTP_REQUEST, 16384, 0);
  exec(&p, te_cl, strlen(te_cl), &r);
  CHECK(r.error == HPE_INVALID_TRANSFER_ENCODING || r.error == HPE_UNEXPECTED_CONTENT_LENGTH);
  /* the same message is accepted with kLenientChunkedLength */
  lhn_parser_reset(&p, HTTP_REQUEST, 16384, LENIENT_CHUNKED_LENGTH);
  exec(&p, te_cl, strlen(te_cl), &r);
  CHECK(r.error == HPE_OK);
  lhn_parser_destroy(&p);
}

/* A HEAD response: answer 1 at headers complete skips the body. */
static void test_rewind_answer(void) {
  const char *msg = "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nHTTP/1.1 204 No Content\r\n\r\n";
  lhn_parser p;
  lhn_result r;
  new_parser(&p, HTTP_RESPONSE, 16384, 0);
  exec(&p, msg, strlen(msg), &r);
  /* without the answer the second response is read as body, then fails */
  CHECK(r.error != HPE_OK);
  CHECK(event(2)[LHN_EV_KIND] == LHN_EV_BODY);
  CHECK(lhn_parser_rewind(&p, &W, msg, strlen(msg), 1, LHN_REWIND_ANSWER, 1, 0, &r) == 0);
  CHECK(r.error == HPE_OK && r.bytes_parsed == strlen(msg));
  CHECK(event_count() == 6);
  CHECK(event(1)[LHN_EV_ANSWER] == 1);
  CHECK(event(2)[LHN_EV_KIND] == LHN_EV_MESSAGE_COMPLETE);
  CHECK(event(4)[LHN_EV_KIND] == LHN_EV_HEADERS_COMPLETE && event(4)[LHN_EV_STATUS] == 204);
  CHECK(lhn_parser_rewind(&p, &W, msg, strlen(msg), 99, LHN_REWIND_ANSWER, 1, 0, &r) == -1);
  lhn_parser_destroy(&p);
}

static void test_rewind_fail(void) {
  const char *msg = "GET / HTTP/1.1\r\n\r\nGET / HTTP/1.1\r\n\r\n";
  lhn_parser p;
  lhn_result r;
  new_parser(&p, HTTP_REQUEST, 16384, 0);
  exec(&p, msg, strlen(msg), &r);
  CHECK(event_count() == 6);
  CHECK(lhn_parser_rewind(&p, &W, msg, strlen(msg), 1, LHN_REWIND_FAIL, 0, -1, &r) == 0);
  CHECK(r.error == HPE_CB_HEADERS_COMPLETE);
  CHECK(event_count() == 2);
  lhn_parser_destroy(&p);
}

static void test_upgrade(void) {
  const char *msg = "GET / HTTP/1.1\r\nConnection: Upgrade\r\nUpgrade: ws\r\n\r\nRAW";
  lhn_parser p;
  lhn_result r;
  new_parser(&p, HTTP_REQUEST, 16384, 0);
  exec(&p, msg, strlen(msg), &r);
  CHECK(r.error == HPE_OK);
  CHECK(r.bytes_parsed == strlen(msg) - 3);
  CHECK((event(1)[LHN_EV_FLAGS] & LHN_HC_UPGRADE) != 0);
  lhn_parser_destroy(&p);
}

/* Warm: no allocation per message, whole or fragmented (the held heads'
 * blocks come from a pool), and an idle parser holds no head. */
static void test_zero_alloc_when_warm(void) {
  const char *msg = "GET /zero HTTP/1.1\r\nHost: localhost\r\nUser-Agent: test\r\nAccept: */*\r\n"
                    "X-Filler-1: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\r\nX-Filler-2: bbbbbbbbbbbbbbbbbbbbbbbbbbbb\r\n\r\n";
  size_t len = strlen(msg);
  lhn_pool pool;
  lhn_pool_init(&pool);
  lhn_memory mem = lhn_pool_memory(&pool);
  lhn_parser p;
  lhn_result r;
  lhn_parser_init(&p, &mem);
  lhn_parser_reset(&p, HTTP_REQUEST, 16384, 0);
  uint64_t growths = 0, mallocs = 0;
  for (int round = 0; round < 2; round++) {
    for (int i = 0; i < 10000; i++) {
      size_t frags = (size_t)(i % 4) + 1, step = len / frags, off = 0;
      for (size_t f = 0; f < frags; f++) {
        size_t n = f + 1 == frags ? len - off : step;
        exec(&p, msg + off, n, &r);
        CHECK(r.error == HPE_OK);
        CHECK((f + 1 == frags) == (lhn_parser_held_bytes(&p) == 0));
        off += n;
      }
    }
    if (round == 0) {
      growths = lhn_workspace_growths(&W);
      mallocs = pool.mallocs;
    }
  }
  CHECK(lhn_workspace_growths(&W) == growths);
  CHECK(pool.mallocs == mallocs && mallocs <= 3);
  CHECK(pool.in_use == lhn_parser_record_bytes(&p) || pool.in_use > 0);
  lhn_parser_destroy(&p);
  CHECK(pool.in_use == 0);
  lhn_pool_destroy(&pool);
}

/* LHN_HC_REPEATS: a head that repeats the previous message's byte for byte
 * (and laid out the same way), whole or in pieces; known-name tags otherwise. */
static void test_repeats(void) {
  const char *a = "GET /same HTTP/1.1\r\nHost: h\r\nCookie: one\r\n\r\n";
  const char *b = "GET /same HTTP/1.1\r\nHost: h\r\nCookie: two\r\n\r\n";
  /* same bytes in the slab as a, laid out differently */
  const char *a2 = "GET /same HTTP/1.1\r\nHostC: h\r\nookie: one\r\n\r\n";
  lhn_parser p;
  lhn_result r;
  new_parser(&p, HTTP_REQUEST, 16384, 0);
  size_t n_known;
  const char *const *known = lhn_known_names(&n_known);
  /* A new parser records the head of the LHN_RECORD_EVERY-th message that
   * does not repeat, and none before: the same request sent again is found
   * after that one. */
  const int32_t *hc;
  int32_t number_a = 0;
  for (int i = 1; i <= LHN_RECORD_EVERY; i++) {
    exec(&p, a, strlen(a), &r);
    hc = event(1);
    CHECK((hc[LHN_EV_FLAGS] & LHN_HC_REPEATS) == 0);
    CHECK(((hc[LHN_EV_FLAGS] & LHN_HC_RECORDED) != 0) == (i == LHN_RECORD_EVERY));
    CHECK(known_tag(hc[LHN_EV_FIRST_PAIR]) > 0 && strcmp(known[known_tag(hc[LHN_EV_FIRST_PAIR]) - 1], "Host") == 0);
    CHECK(known_tag(hc[LHN_EV_FIRST_PAIR] + 1) > 0 && strcmp(known[known_tag(hc[LHN_EV_FIRST_PAIR] + 1) - 1], "Cookie") == 0);
    number_a = hc[LHN_EV_MESSAGE_NUMBER];
  }
  exec(&p, a, strlen(a), &r);
  hc = event(1);
  CHECK(hc[LHN_EV_MESSAGE_NUMBER] == number_a + 1);
  CHECK((hc[LHN_EV_FLAGS] & LHN_HC_REPEATS) != 0);
  CHECK((hc[LHN_EV_FLAGS] & LHN_HC_RECORDED) == 0);
  /* a repeating head's pairs are not looked up (lhn_contract.h) */
  CHECK(known_tag(hc[LHN_EV_FIRST_PAIR]) == 0 && known_tag(hc[LHN_EV_FIRST_PAIR] + 1) == 0);
  /* in pieces: the same */
  exec(&p, a, 20, &r);
  exec(&p, a + 20, strlen(a) - 20, &r);
  hc = event(0);
  CHECK(hc[LHN_EV_KIND] == LHN_EV_HEADERS_COMPLETE && (hc[LHN_EV_FLAGS] & LHN_HC_REPEATS) != 0);
  /* one value differs: not recorded (the first such head after a record),
   * and the record is forgotten: a after it is no repeat */
  exec(&p, b, strlen(b), &r);
  hc = event(1);
  CHECK((hc[LHN_EV_FLAGS] & (LHN_HC_REPEATS | LHN_HC_RECORDED)) == 0);
  CHECK(known_tag(hc[LHN_EV_FIRST_PAIR]) > 0);
  exec(&p, a, strlen(a), &r);
  CHECK((event(1)[LHN_EV_FLAGS] & LHN_HC_REPEATS) == 0);
  /* the slab bytes of a, laid out as other pairs: a recorded (the 4th head
   * that did not repeat since the last record), then a2 */
  exec(&p, b, strlen(b), &r);
  exec(&p, a, strlen(a), &r);
  CHECK((event(1)[LHN_EV_FLAGS] & LHN_HC_RECORDED) != 0);
  exec(&p, a2, strlen(a2), &r);
  hc = event(1);
  CHECK((hc[LHN_EV_FLAGS] & LHN_HC_REPEATS) == 0);
  /* a flush (33 fields) breaks the chain for the message and the next */
  char big[2048];
  size_t n = (size_t)snprintf(big, sizeof big, "GET /same HTTP/1.1\r\n");
  for (int i = 0; i < 33; i++) n += (size_t)snprintf(big + n, sizeof big - n, "X%d: v\r\n", i);
  n += (size_t)snprintf(big + n, sizeof big - n, "\r\n");
  for (int round = 0; round < 2; round++) {
    exec(&p, big, n, &r);
    CHECK(r.error == HPE_OK);
    hc = event(3); /* begin, the 32nd field's flush, the rest's flush, headers complete */
    CHECK(hc[LHN_EV_KIND] == LHN_EV_HEADERS_COMPLETE && hc[LHN_EV_PAIR_COUNT] == -1);
    CHECK((hc[LHN_EV_FLAGS] & LHN_HC_REPEATS) == 0);
  }
  exec(&p, a, strlen(a), &r);
  CHECK((event(1)[LHN_EV_FLAGS] & LHN_HC_REPEATS) == 0);
  /* trailers carry known-name tags */
  lhn_parser_reset(&p, HTTP_REQUEST, 16384, 0);
  const char *t = "POST /same HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n0\r\nHost: h\r\n\r\n";
  exec(&p, t, strlen(t), &r);
  CHECK(r.error == HPE_OK);
  const int32_t *tr = event(2);
  CHECK(tr[LHN_EV_KIND] == LHN_EV_HEADERS && tr[LHN_EV_PAIR_COUNT] == 1);
  CHECK(known_tag(tr[LHN_EV_FIRST_PAIR]) > 0 && strcmp(known[known_tag(tr[LHN_EV_FIRST_PAIR]) - 1], "Host") == 0);
  lhn_parser_destroy(&p);
}

/* Responses with no status text and no headers: heads of no bytes, which
 * the repeat record records and finds repeated like others (the fuzz
 * harness's empty-head-repeats, under test-core.js --sanitize). */
static void test_empty_heads_repeat(void) {
  static const char msg[] = "HTTP/1.1 200 \r\nContent-Length: 0\r\n\r\n";
  static const char bare[] = "HTTP/1.1 204 \r\n\r\n";
  lhn_parser p;
  lhn_result r;
  new_parser(&p, HTTP_RESPONSE, 16384, 0);
  int32_t flags = 0;
  for (int i = 1; i <= LHN_RECORD_EVERY + 1; i++) {
    exec(&p, bare, sizeof bare - 1, &r);
    CHECK(r.error == HPE_OK && event_count() == 3);
    flags = event(1)[LHN_EV_FLAGS];
    CHECK(text_is(event(1)[LHN_EV_TEXT_START], event(1)[LHN_EV_TEXT_END], ""));
    CHECK(event(1)[LHN_EV_PAIR_COUNT] == 0);
    CHECK(((flags & LHN_HC_RECORDED) != 0) == (i == LHN_RECORD_EVERY));
  }
  CHECK((flags & LHN_HC_REPEATS) != 0);
  /* a head with a header after it: no repeat */
  exec(&p, msg, sizeof msg - 1, &r);
  CHECK(r.error == HPE_OK && (event(1)[LHN_EV_FLAGS] & LHN_HC_REPEATS) == 0);
  lhn_parser_destroy(&p);
}

/* Every well-known name is found as itself, and a near miss is not (names
 * given as trailers, which llhttp does not interpret). */
static void test_known_names(void) {
  size_t n_known;
  const char *const *known = lhn_known_names(&n_known);
  lhn_parser p;
  lhn_result r;
  new_parser(&p, HTTP_REQUEST, 1 << 20, 0);
  CHECK(n_known > 100 && n_known < 256);
  for (size_t i = 0; i < n_known; i++) {
    char msg[200];
    /* (llhttp refuses these two as trailers: given as headers instead) */
    int framing = strcasecmp(known[i], "content-length") == 0 ||
                  strcasecmp(known[i], "transfer-encoding") == 0;
    int len = framing ?
      snprintf(msg, sizeof msg, "POST / HTTP/1.1\r\n%s: %s\r\nHosT: v\r\n\r\n%s", known[i],
               tolower((unsigned char)known[i][0]) == 'c' ? "0" : "chunked",
               tolower((unsigned char)known[i][0]) == 'c' ? "" : "0\r\n\r\n") :
      snprintf(msg, sizeof msg,
               "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n%s: v\r\nHosT: v\r\n\r\n",
               known[i]);
    /* (a new parser state each time: after trailers, the next message's
     * headers would be flushed early, as the built-in does) */
    lhn_parser_reset(&p, HTTP_REQUEST, 1 << 20, 0);
    exec(&p, msg, (size_t)len, &r);
    const int32_t *ev = event(framing ? 1 : 2);
    CHECK(r.error == HPE_OK && ev[LHN_EV_PAIR_COUNT] == 2);
    CHECK(known_tag(ev[LHN_EV_FIRST_PAIR]) == (int32_t)i + 1);
    CHECK(known_tag(ev[LHN_EV_FIRST_PAIR] + 1) == 0); /* "HosT" is no well-known spelling */
  }
  lhn_parser_destroy(&p);
}

/* An empty buffer with no data pointer in the middle of a header keeps the
 * header (llhttp would drop a span under way on a NULL buffer). */
static void test_null_empty_fragment(void) {
  lhn_parser p;
  lhn_result r;
  new_parser(&p, HTTP_REQUEST, 16384, 0);
  exec(&p, "GET / HTTP/1.1\r\nHo", 18, &r);
  CHECK(r.error == HPE_OK);
  exec(&p, NULL, 0, &r);
  CHECK(r.error == HPE_OK && r.bytes_parsed == 0);
  exec(&p, "st: a\r\n\r\n", 9, &r);
  CHECK(r.error == HPE_OK);
  const int32_t *hc = event(0);
  CHECK(hc[LHN_EV_KIND] == LHN_EV_HEADERS_COMPLETE && hc[LHN_EV_PAIR_COUNT] == 1);
  CHECK(text_is(pair(hc[LHN_EV_FIRST_PAIR])[0], pair(hc[LHN_EV_FIRST_PAIR])[1], "Host"));
  CHECK(text_is(pair(hc[LHN_EV_FIRST_PAIR])[2], pair(hc[LHN_EV_FIRST_PAIR])[3], "a"));
  lhn_parser_destroy(&p);
}

/* Header spans point into the input when a head lies whole in it: the
 * call's text is the input itself, from the first span on. */
static void test_spans_into_the_input(void) {
  const char *msg = "GET /spans HTTP/1.1\r\nHost: h\r\n\r\nGET /two HTTP/1.1\r\nA: b\r\n\r\n";
  lhn_parser p;
  lhn_result r;
  new_parser(&p, HTTP_REQUEST, 16384, 0);
  exec(&p, msg, strlen(msg), &r);
  CHECK(r.error == HPE_OK && event_count() == 6);
  size_t len;
  const uint8_t *text = lhn_workspace_text(&W, &len);
  CHECK(text == (const uint8_t *)msg + 4);                 /* "/spans ..." */
  CHECK(len == strlen(msg) - 4 - strlen("\r\n\r\n"));     /* to the last value */
  CHECK(text_is(event(1)[LHN_EV_TEXT_START], event(1)[LHN_EV_TEXT_END], "/spans"));
  CHECK(text_is(event(4)[LHN_EV_TEXT_START], event(4)[LHN_EV_TEXT_END], "/two"));
  CHECK(text_is(pair(event(4)[LHN_EV_FIRST_PAIR])[2], pair(event(4)[LHN_EV_FIRST_PAIR])[3], "b"));
  CHECK(lhn_parser_held_bytes(&p) == 0);
  /* a call with a body only refers to no text */
  exec(&p, "POST / HTTP/1.1\r\nContent-Length: 3\r\n\r\n", 38, &r);
  exec(&p, "abc", 3, &r);
  CHECK(r.error == HPE_OK && event_count() == 2);
  CHECK(lhn_workspace_text(&W, &len) == NULL && len == 0);
  lhn_parser_destroy(&p);
}

/* A head in pieces is held, sized to what arrived, and given back when it
 * completes; the continuing call's text is the held bytes, then the input
 * as it came: the same bytes and layout however the head was cut, in two
 * pieces or in three. */
static void test_held_head(void) {
  const char *msg = "GET /held/url HTTP/1.1\r\nHost: example\r\nX-Long: 0123456789abcdef\r\n\r\n";
  size_t len = strlen(msg);
  const char *url = strstr(msg, "/held");
  size_t text_len = (size_t)(strstr(msg, "\r\n\r\n") - url);
  for (size_t a = 1; a < len; a++) {
    for (size_t b = a; b < len; b += (a % 5 == 0 ? 1 : len)) {
      lhn_parser p;
      lhn_result r;
      new_parser(&p, HTTP_REQUEST, 16384, 0);
      exec(&p, msg, a, &r);
      CHECK(r.error == HPE_OK);
      /* what is held: at most the bytes that arrived, plus a small constant */
      CHECK(lhn_parser_held_bytes(&p) <= a + 2 * LHN_PAIR_SLOTS * sizeof(int32_t) + 16);
      if (b > a) {
        exec(&p, msg + a, b - a, &r);
        CHECK(r.error == HPE_OK);
        CHECK(lhn_parser_held_bytes(&p) <= b + 2 * LHN_PAIR_SLOTS * sizeof(int32_t) + 16);
      }
      exec(&p, msg + b, len - b, &r);
      CHECK(r.error == HPE_OK);
      CHECK(lhn_parser_held_bytes(&p) == 0);
      const int32_t *hc = event(event(0)[LHN_EV_KIND] == LHN_EV_MESSAGE_BEGIN ? 1 : 0);
      CHECK(hc[LHN_EV_KIND] == LHN_EV_HEADERS_COMPLETE && hc[LHN_EV_PAIR_COUNT] == 2);
      CHECK(text_is(hc[LHN_EV_TEXT_START], hc[LHN_EV_TEXT_END], "/held/url"));
      CHECK(text_is(pair(hc[LHN_EV_FIRST_PAIR])[0], pair(hc[LHN_EV_FIRST_PAIR])[1], "Host"));
      CHECK(text_is(pair(hc[LHN_EV_FIRST_PAIR])[2], pair(hc[LHN_EV_FIRST_PAIR])[3], "example"));
      CHECK(text_is(pair(hc[LHN_EV_FIRST_PAIR] + 1)[0], pair(hc[LHN_EV_FIRST_PAIR] + 1)[1], "X-Long"));
      CHECK(text_is(pair(hc[LHN_EV_FIRST_PAIR] + 1)[2], pair(hc[LHN_EV_FIRST_PAIR] + 1)[3], "0123456789abcdef"));
      size_t n;
      const uint8_t *text = lhn_workspace_text(&W, &n);
      CHECK(n == text_len && memcmp(text, url, n) == 0);
      lhn_parser_destroy(&p);
    }
  }
}

/* The URL stays with a request until it completes: a trailers flush hands
 * it to kOnHeaders again, as the built-in does, however the body arrives. */
static void test_url_until_trailers(void) {
  const char *head = "POST /some/url HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n";
  const char *rest[] = {"3\r\nabc\r\n", "0\r\nT: x\r\n\r\n"};
  lhn_parser p;
  lhn_result r;
  new_parser(&p, HTTP_REQUEST, 16384, 0);
  exec(&p, head, strlen(head), &r);
  CHECK(lhn_parser_held_bytes(&p) > 0 && lhn_parser_held_bytes(&p) < 64);
  exec(&p, rest[0], strlen(rest[0]), &r);
  exec(&p, rest[1], strlen(rest[1]), &r);
  CHECK(r.error == HPE_OK && event_count() == 2);
  const int32_t *tr = event(0);
  CHECK(tr[LHN_EV_KIND] == LHN_EV_HEADERS && tr[LHN_EV_PAIR_COUNT] == 1 && tr[LHN_EV_HEADER_PAIRS] == 0);
  CHECK(text_is(tr[LHN_EV_TEXT_START], tr[LHN_EV_TEXT_END], "/some/url"));
  CHECK(text_is(pair(tr[LHN_EV_FIRST_PAIR])[0], pair(tr[LHN_EV_FIRST_PAIR])[1], "T"));
  /* (the trailers' fields stay pending, as in the built-in, which flushes
   * them again at a message complete without a begin; the next message
   * drops them) */
  CHECK(lhn_parser_held_bytes(&p) > 0);
  exec(&p, "GET / HTTP/1.1\r\n\r\n", 18, &r);
  CHECK(r.error == HPE_OK && lhn_parser_held_bytes(&p) == 0);
  lhn_parser_destroy(&p);
}

/* While a request's body arrives, the parser holds its URL (for a
 * trailers flush) and nothing else of its head: not the header bytes, which
 * every call of the body would otherwise copy in and out. */
static void test_body_holds_url_only(void) {
  char head[1200];
  snprintf(head, sizeof head, "POST /u/rl HTTP/1.1\r\nTransfer-Encoding: chunked\r\nX-Big: %01000d\r\n\r\n", 0);
  const char *rest[] = {"3\r\nabc\r\n", "3\r\ndef\r\n", "0\r\nT: x\r\n\r\n"};
  lhn_parser p;
  lhn_result r;
  new_parser(&p, HTTP_REQUEST, 16384, 0);
  exec(&p, head, strlen(head), &r);
  CHECK(r.error == HPE_OK);
  CHECK(lhn_parser_held_bytes(&p) > 0 && lhn_parser_held_bytes(&p) <= strlen("/u/rl") + 16);
  exec(&p, rest[0], strlen(rest[0]), &r);
  CHECK(lhn_parser_held_bytes(&p) > 0 && lhn_parser_held_bytes(&p) <= strlen("/u/rl") + 16);
  /* (cut in the chunk's data: the same) */
  exec(&p, rest[1], 4, &r);
  CHECK(lhn_parser_held_bytes(&p) > 0 && lhn_parser_held_bytes(&p) <= strlen("/u/rl") + 16);
  exec(&p, rest[1] + 4, strlen(rest[1]) - 4, &r);
  exec(&p, rest[2], strlen(rest[2]), &r);
  CHECK(r.error == HPE_OK && event_count() == 2);
  const int32_t *tr = event(0);
  CHECK(tr[LHN_EV_KIND] == LHN_EV_HEADERS && tr[LHN_EV_PAIR_COUNT] == 1);
  CHECK(text_is(tr[LHN_EV_TEXT_START], tr[LHN_EV_TEXT_END], "/u/rl"));
  CHECK(text_is(pair(tr[LHN_EV_FIRST_PAIR])[0], pair(tr[LHN_EV_FIRST_PAIR])[1], "T"));
  CHECK(text_is(pair(tr[LHN_EV_FIRST_PAIR])[2], pair(tr[LHN_EV_FIRST_PAIR])[3], "x"));
  lhn_parser_destroy(&p);
}

/* An obs-fold value (lenient headers) comes in pieces with the line break
 * between them: its pieces are joined, whether the head lies whole in the
 * input or not, cut anywhere in two or three pieces (the join copies the
 * text, from the held bytes on when there are some). */
static void test_folded_value(void) {
  const char *msg = "GET / HTTP/1.1\r\nX: one\r\n two\r\nY: z\r\n\r\n";
  size_t len = strlen(msg);
  for (size_t a = 0; a < len; a++) {
    for (size_t b = a; b < len; b++) {
      lhn_parser p;
      lhn_result r;
      new_parser(&p, HTTP_REQUEST, 16384, LENIENT_HEADERS);
      if (a) exec(&p, msg, a, &r);
      if (b > a) exec(&p, msg + a, b - a, &r);
      exec(&p, msg + b, len - b, &r);
      CHECK(r.error == HPE_OK);
      const int32_t *hc = event(event(0)[LHN_EV_KIND] == LHN_EV_MESSAGE_BEGIN ? 1 : 0);
      CHECK(hc[LHN_EV_KIND] == LHN_EV_HEADERS_COMPLETE && hc[LHN_EV_PAIR_COUNT] == 2);
      CHECK(text_is(pair(hc[LHN_EV_FIRST_PAIR])[0], pair(hc[LHN_EV_FIRST_PAIR])[1], "X"));
      CHECK(text_is(pair(hc[LHN_EV_FIRST_PAIR])[2], pair(hc[LHN_EV_FIRST_PAIR])[3], "one two"));
      CHECK(text_is(pair(hc[LHN_EV_FIRST_PAIR] + 1)[0], pair(hc[LHN_EV_FIRST_PAIR] + 1)[1], "Y"));
      CHECK(text_is(pair(hc[LHN_EV_FIRST_PAIR] + 1)[2], pair(hc[LHN_EV_FIRST_PAIR] + 1)[3], "z"));
      lhn_parser_destroy(&p);
    }
  }
}

/* A handler's call on another parser takes another workspace: the first
 * call's events, text and rewinds are untouched by it. */
static void test_nested_workspaces(void) {
  static lhn_workspace inner;
  lhn_workspace_init(&inner, NULL, NULL);
  const char *outer_msg = "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nHTTP/1.1 204 No Content\r\n\r\n";
  const char *inner_msg = "GET /inner HTTP/1.1\r\nHost: i\r\n\r\n";
  lhn_parser a, b;
  lhn_result r;
  new_parser(&a, HTTP_RESPONSE, 16384, 0);
  new_parser(&b, HTTP_REQUEST, 16384, 0);
  exec(&a, outer_msg, strlen(outer_msg), &r);
  /* (at a's headers complete a handler parses b) */
  lhn_parser_execute(&b, &inner, inner_msg, strlen(inner_msg), &r);
  CHECK(r.error == HPE_OK && lhn_workspace_event_count(&inner) == 3);
  /* a's answer 1 (a HEAD response) rewinds in a's workspace */
  CHECK(lhn_parser_rewind(&a, &inner, outer_msg, strlen(outer_msg), 1, LHN_REWIND_ANSWER, 1, 0, &r) == -1);
  CHECK(lhn_parser_rewind(&a, &W, outer_msg, strlen(outer_msg), 1, LHN_REWIND_ANSWER, 1, 0, &r) == 0);
  CHECK(r.error == HPE_OK && event_count() == 6);
  CHECK(event(4)[LHN_EV_KIND] == LHN_EV_HEADERS_COMPLETE && event(4)[LHN_EV_STATUS] == 204);
  CHECK(text_is(event(1)[LHN_EV_TEXT_START], event(1)[LHN_EV_TEXT_END], "OK"));
  lhn_parser_destroy(&a);
  lhn_parser_destroy(&b);
  lhn_workspace_destroy(&inner);
}

/* llhttp_finish() in the middle of a head reports HPE_INVALID_EOF_STATE
 * without keeping it: the head arriving goes on with the next bytes, so
 * the parser keeps it held (found by the fuzzer). */
static void test_finish_mid_head(void) {
  lhn_parser p;
  lhn_result r;
  new_parser(&p, HTTP_REQUEST, 16384, 0);
  exec(&p, "GET /a HTTP/1.1\r\nHo", 19, &r);
  CHECK(r.error == HPE_OK && lhn_parser_held_bytes(&p) > 0);
  lhn_parser_finish(&p, &W, &r);
  CHECK(r.error == HPE_INVALID_EOF_STATE);
  CHECK(lhn_parser_held_bytes(&p) > 0);
  exec(&p, "st: x\r\n\r\n", 9, &r);
  CHECK(r.error == HPE_OK);
  const int32_t *hc = event(0);
  CHECK(hc[LHN_EV_KIND] == LHN_EV_HEADERS_COMPLETE && hc[LHN_EV_PAIR_COUNT] == 1);
  CHECK(text_is(hc[LHN_EV_TEXT_START], hc[LHN_EV_TEXT_END], "/a"));
  CHECK(text_is(pair(hc[LHN_EV_FIRST_PAIR])[0], pair(hc[LHN_EV_FIRST_PAIR])[1], "Host"));
  CHECK(text_is(pair(hc[LHN_EV_FIRST_PAIR])[2], pair(hc[LHN_EV_FIRST_PAIR])[3], "x"));
  CHECK(lhn_parser_held_bytes(&p) == 0);
  lhn_parser_destroy(&p);
}

/* Memory that runs out at any one allocation: the call fails with
 * HPE_OUT_OF_MEMORY, the error sticks, nothing leaks, and the events before
 * the failure stay as they were. */
static int fail_at, allocs;
static void *failing_resize(void *ctx, void *block, size_t size) {
  (void)ctx;
  if (size == 0) {
    free(block);
    return NULL;
  }
  if (++allocs == fail_at) return NULL;
  return realloc(block, size);
}

static void *failing_grow(void *ctx, enum lhn_buffer_id id, void *old, size_t old_size, size_t new_size) {
  (void)ctx;
  (void)id;
  (void)old_size;
  if (++allocs == fail_at) return NULL;
  return realloc(old, new_size);
}

static void test_out_of_memory(void) {
  char msg[4096];
  size_t n = (size_t)sprintf(msg, "GET /oom HTTP/1.1\r\n");
  for (int i = 0; i < 40; i++) n += (size_t)sprintf(msg + n, "Header-%d: value-%d\r\n", i, i);
  n += (size_t)sprintf(msg + n, "\r\n");
  int failed = 0;
  for (fail_at = 1; fail_at < 40; fail_at++) {
    lhn_workspace ws;
    lhn_workspace_init(&ws, failing_grow, NULL);
    const lhn_memory mem = {failing_resize, NULL};
    lhn_parser p;
    lhn_result r;
    allocs = 0;
    lhn_parser_init(&p, &mem);
    lhn_parser_reset(&p, HTTP_REQUEST, 1 << 20, 0);
    int error = 0;
    for (size_t off = 0; off < n && !error; off += 100) {
      size_t len = n - off < 100 ? n - off : 100;
      lhn_parser_execute(&p, &ws, msg + off, len, &r);
      if (r.error != HPE_OK) {
        error = r.error;
        CHECK(r.error == HPE_USER && r.code_len == 17 && memcmp(r.code, "HPE_OUT_OF_MEMORY", 17) == 0);
        /* every event up to the failure is whole */
        for (uint32_t i = 0; i < lhn_workspace_event_count(&ws); i++) {
          int kind = lhn_workspace_event(&ws, i)[0];
          CHECK(kind >= LHN_EV_MESSAGE_BEGIN && kind <= LHN_EV_MESSAGE_COMPLETE);
        }
        lhn_parser_execute(&p, &ws, "x", 1, &r);
        CHECK(r.error == HPE_USER && lhn_workspace_event_count(&ws) == 0);
        CHECK(r.code_len == 17 && memcmp(r.code, "HPE_OUT_OF_MEMORY", 17) == 0);
      }
    }
    if (error) failed++;
    if (!error && allocs < fail_at) {
      /* fewer allocations than fail_at: all went well */
      CHECK(r.error == HPE_OK);
    }
    lhn_parser_destroy(&p);
    /* (the hook's blocks are its owner's: realloc's, the last of each) */
    free(ws.events);
    free(ws.pairs);
    lhn_workspace_destroy(&ws);
  }
  CHECK(failed > 3);
}

static void test_method_names(void) {
  size_t n;
  const char *const *names = lhn_method_names(1, &n);
  CHECK(n == 47);
  CHECK(strcmp(names[HTTP_GET], "GET") == 0);
  CHECK(strcmp(names[HTTP_QUERY], "QUERY") == 0);
  names = lhn_method_names(0, &n);
  CHECK(n == 35);
}

/* Whether a call's events call a handler: by the kinds of the call's
 * events and the handlers the caller said it has. */
static void test_calls_handlers(void) {
  static const char head[] = "POST / HTTP/1.1\r\nContent-Length: 2\r\n";
  static const char end[] = "\r\n";
  static const char body[] = "ok";
  static const struct {
    unsigned handlers;
    int head, end, body; /* what each piece's call answers */
  } cases[] = {
      {LHN_HAS_ON_HEADERS_COMPLETE, 0, 1, 0},
      {LHN_HAS_ON_HEADERS_COMPLETE | LHN_HAS_ON_MESSAGE_BEGIN, 1, 1, 0},
      {LHN_HAS_ON_HEADERS_COMPLETE | LHN_HAS_ON_BODY, 0, 1, 1},
      {LHN_HAS_ON_HEADERS_COMPLETE | LHN_HAS_ON_MESSAGE_COMPLETE, 0, 1, 1},
      {LHN_HAS_ALL, 1, 1, 1},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    lhn_parser p;
    lhn_result r;
    new_parser(&p, HTTP_REQUEST, 16384, 0);
    lhn_parser_set_handlers(&p, cases[i].handlers);
    exec(&p, head, sizeof head - 1, &r);
    CHECK(event_count() == 1 && lhn_parser_calls_handlers(&p, &W) == cases[i].head);
    exec(&p, end, sizeof end - 1, &r);
    CHECK(event_count() == 1 && lhn_parser_calls_handlers(&p, &W) == cases[i].end);
    exec(&p, body, sizeof body - 1, &r);
    CHECK(event_count() == 2 && lhn_parser_calls_handlers(&p, &W) == cases[i].body);
    lhn_parser_destroy(&p);
  }
}

int main(void) {
  lhn_workspace_init(&W, NULL, NULL);
  test_request();
  test_every_split();
  test_flush_at_32();
  test_rejected_name_after_flushes();
  test_without_on_headers();
  test_without_on_headers_complete();
  test_header_overflow();
  test_errors();
  test_rewind_answer();
  test_rewind_fail();
  test_upgrade();
  test_zero_alloc_when_warm();
  test_repeats();
  test_empty_heads_repeat();
  test_known_names();
  test_method_names();
  test_null_empty_fragment();
  test_spans_into_the_input();
  test_held_head();
  test_url_until_trailers();
  test_body_holds_url_only();
  test_folded_value();
  test_nested_workspaces();
  test_finish_mid_head();
  test_out_of_memory();
  test_calls_handlers();
  lhn_workspace_destroy(&W);
  return report("parser");
}
