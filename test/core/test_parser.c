/* Unit tests of the C core (src/core), without Node. Built and run by
 * scripts/dev/test-core.js, plain and under ASan/UBSan. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <ctype.h>

#include "../../src/core/lhn_parser.h"

static int failures;
static int checks;

#define CHECK(cond)                                                        \
  do {                                                                     \
    checks++;                                                              \
    if (!(cond)) {                                                         \
      failures++;                                                          \
      fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
    }                                                                      \
  } while (0)

/* Text of slab range [start, end). */
static int slab_is(const lhn_parser *p, int32_t start, int32_t end, const char *want) {
  size_t n = strlen(want);
  return end - start == (int32_t)n && memcmp(p->slab + start, want, n) == 0;
}

static int32_t *event(lhn_parser *p, uint32_t i) { return p->events + (size_t)i * LHN_EVENT_SLOTS; }
static int32_t *pair(lhn_parser *p, uint32_t i) { return p->pairs + (size_t)i * LHN_PAIR_SLOTS; }
static int32_t known_tag(lhn_parser *p, uint32_t i) { return pair(p, i)[LHN_PAIR_KNOWN_NAME]; }

static void new_parser(lhn_parser *p, int type, uint32_t max, unsigned lenient) {
  lhn_parser_init(p, NULL, NULL);
  CHECK(lhn_parser_prepare(p) == 0);
  lhn_parser_reset(p, type, max, lenient);
}

static void test_request(void) {
  lhn_parser p;
  lhn_result r;
  const char *msg = "POST /path?q HTTP/1.1\r\nHost: example\r\nContent-Length: 5\r\n"
                    "X-Trim: value \t\r\n\r\nhello";
  new_parser(&p, HTTP_REQUEST, 16384, 0);
  lhn_parser_execute(&p, msg, strlen(msg), &r);
  CHECK(r.error == HPE_OK);
  CHECK(r.bytes_parsed == strlen(msg));
  CHECK(p.event_count == 4);
  CHECK(event(&p, 0)[0] == LHN_EV_MESSAGE_BEGIN);
  int32_t *hc = event(&p, 1);
  CHECK(hc[0] == LHN_EV_HEADERS_COMPLETE);
  CHECK(hc[3] == 3);
  CHECK(slab_is(&p, hc[4], hc[5], "/path?q"));
  CHECK(hc[8] == HTTP_POST && hc[9] == 1 && hc[10] == 1);
  CHECK((hc[6] & LHN_HC_KEEP_ALIVE) != 0);
  CHECK(slab_is(&p, pair(&p, hc[2])[0], pair(&p, hc[2])[1], "Host"));
  CHECK(slab_is(&p, pair(&p, hc[2])[2], pair(&p, hc[2])[3], "example"));
  CHECK(slab_is(&p, pair(&p, hc[2] + 2)[2], pair(&p, hc[2] + 2)[3], "value"));
  int32_t *body = event(&p, 2);
  CHECK(body[0] == LHN_EV_BODY && body[2] == (int32_t)(strlen(msg) - 5) && body[3] == 5);
  CHECK(event(&p, 3)[0] == LHN_EV_MESSAGE_COMPLETE);
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
      lhn_parser_execute(&p, parts[k], sizes[k], &r);
      CHECK(r.error == HPE_OK && r.bytes_parsed == sizes[k]);
      for (uint32_t i = 0; i < p.event_count; i++) {
        int32_t *ev = event(&p, i);
        if (ev[0] == LHN_EV_HEADERS_COMPLETE) {
          int32_t *first = pair(&p, ev[2]);
          host_ok = ev[3] == 3 && slab_is(&p, first[0], first[1], "Host") &&
                    slab_is(&p, first[2], first[3], "h");
        } else if (ev[0] == LHN_EV_HEADERS) {
          int32_t *first = pair(&p, ev[2]);
          trailer_ok = ev[3] == 1 && slab_is(&p, first[0], first[1], "Trailer") &&
                       slab_is(&p, first[2], first[3], "t");
        } else if (ev[0] == LHN_EV_BODY) {
          memcpy(body + body_len, parts[k] + ev[2], (size_t)ev[3]);
          body_len += (size_t)ev[3];
        } else if (ev[0] == LHN_EV_MESSAGE_COMPLETE) {
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
  lhn_parser_execute(&p, msg, n, &r);
  CHECK(r.error == HPE_OK);
  CHECK(p.event_count == 5);
  CHECK(event(&p, 1)[0] == LHN_EV_HEADERS && event(&p, 1)[3] == 31);
  CHECK(slab_is(&p, event(&p, 1)[4], event(&p, 1)[5], "/"));
  CHECK(event(&p, 2)[0] == LHN_EV_HEADERS && event(&p, 2)[3] == 2);
  CHECK(event(&p, 2)[4] == event(&p, 2)[5]); /* URL went with the first flush */
  CHECK(event(&p, 3)[0] == LHN_EV_HEADERS_COMPLETE && event(&p, 3)[3] == -1);
  lhn_parser_destroy(&p);
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
  lhn_parser_execute(&p, msg, n, &r);
  CHECK(r.error == HPE_OK);
  CHECK(p.event_count == 4);
  CHECK(event(&p, 1)[0] == LHN_EV_HEADERS && event(&p, 1)[3] == 31);
  CHECK(event(&p, 2)[0] == LHN_EV_HEADERS_COMPLETE && event(&p, 2)[3] == 2);
  CHECK(slab_is(&p, event(&p, 2)[4], event(&p, 2)[5], "/u"));
  CHECK(slab_is(&p, pair(&p, (uint32_t)event(&p, 2)[2])[0], pair(&p, (uint32_t)event(&p, 2)[2])[1], "H31"));
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
  lhn_parser_execute(&p, msg, sizeof msg - 1, &r);
  CHECK(r.error == HPE_OK);
  CHECK(p.event_count == 4);
  CHECK(event(&p, 1)[0] == LHN_EV_HEADERS_COMPLETE && event(&p, 1)[3] == 1);
  CHECK(event(&p, 2)[0] == LHN_EV_HEADERS && event(&p, 2)[3] == 2);
  CHECK(event(&p, 2)[2] == event(&p, 1)[2]);
  CHECK(slab_is(&p, event(&p, 2)[4], event(&p, 2)[5], "/t"));
  CHECK(event(&p, 3)[0] == LHN_EV_MESSAGE_COMPLETE);
  lhn_parser_destroy(&p);
}

static void test_header_overflow(void) {
  /* URL "/abc" + "Ab" + "cd  " = 10 header bytes (trailing spaces count):
   * a limit of 10 overflows, 11 does not. */
  const char *msg = "GET /abc HTTP/1.1\r\nAb: cd  \r\n\r\n";
  lhn_parser p;
  lhn_result r;
  new_parser(&p, HTTP_REQUEST, 10, 0);
  lhn_parser_execute(&p, msg, strlen(msg), &r);
  CHECK(r.error == HPE_USER);
  CHECK(r.code_len == strlen("HPE_HEADER_OVERFLOW") &&
        memcmp(r.code, "HPE_HEADER_OVERFLOW", r.code_len) == 0);
  CHECK(r.reason && strcmp(r.reason, "Header overflow") == 0);
  lhn_parser_reset(&p, HTTP_REQUEST, 11, 0);
  lhn_parser_execute(&p, msg, strlen(msg), &r);
  CHECK(r.error == HPE_OK);
  lhn_parser_destroy(&p);
}

static void test_errors(void) {
  lhn_parser p;
  lhn_result r;
  new_parser(&p, HTTP_REQUEST, 16384, 0);
  lhn_parser_execute(&p, "G@T / HTTP/1.1\r\n\r\n", 18, &r);
  CHECK(r.error == HPE_INVALID_METHOD);
  CHECK(r.code && strcmp(r.code, "HPE_INVALID_METHOD") == 0);
  CHECK(r.bytes_parsed == 1);
  const char *te_cl = "POST / HTTP/1.1\r\nContent-Length: 1\r\nTransfer-Encoding: chunked\r\n\r\n";
  lhn_parser_reset(&p, HTTP_REQUEST, 16384, 0);
  lhn_parser_execute(&p, te_cl, strlen(te_cl), &r);
  CHECK(r.error == HPE_INVALID_TRANSFER_ENCODING || r.error == HPE_UNEXPECTED_CONTENT_LENGTH);
  /* the same message is accepted with kLenientChunkedLength */
  lhn_parser_reset(&p, HTTP_REQUEST, 16384, LENIENT_CHUNKED_LENGTH);
  lhn_parser_execute(&p, te_cl, strlen(te_cl), &r);
  CHECK(r.error == HPE_OK);
  lhn_parser_destroy(&p);
}

/* A HEAD response: answer 1 at headers complete skips the body. */
static void test_rewind_answer(void) {
  const char *msg = "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nHTTP/1.1 204 No Content\r\n\r\n";
  lhn_parser p;
  lhn_result r;
  new_parser(&p, HTTP_RESPONSE, 16384, 0);
  lhn_parser_execute(&p, msg, strlen(msg), &r);
  /* without the answer the second response is read as body, then fails */
  CHECK(r.error != HPE_OK);
  CHECK(event(&p, 2)[0] == LHN_EV_BODY);
  CHECK(lhn_parser_rewind(&p, msg, strlen(msg), 1, LHN_REWIND_ANSWER, 1, 0, &r) == 0);
  CHECK(r.error == HPE_OK && r.bytes_parsed == strlen(msg));
  CHECK(p.event_count == 6);
  CHECK(event(&p, 1)[11] == 1);
  CHECK(event(&p, 2)[0] == LHN_EV_MESSAGE_COMPLETE);
  CHECK(event(&p, 4)[0] == LHN_EV_HEADERS_COMPLETE && event(&p, 4)[7] == 204);
  CHECK(lhn_parser_rewind(&p, msg, strlen(msg), 99, LHN_REWIND_ANSWER, 1, 0, &r) == -1);
  lhn_parser_destroy(&p);
}

static void test_rewind_fail(void) {
  const char *msg = "GET / HTTP/1.1\r\n\r\nGET / HTTP/1.1\r\n\r\n";
  lhn_parser p;
  lhn_result r;
  new_parser(&p, HTTP_REQUEST, 16384, 0);
  lhn_parser_execute(&p, msg, strlen(msg), &r);
  CHECK(p.event_count == 6);
  CHECK(lhn_parser_rewind(&p, msg, strlen(msg), 1, LHN_REWIND_FAIL, 0, -1, &r) == 0);
  CHECK(r.error == HPE_CB_HEADERS_COMPLETE);
  CHECK(p.event_count == 2);
  lhn_parser_destroy(&p);
}

static void test_upgrade(void) {
  const char *msg = "GET / HTTP/1.1\r\nConnection: Upgrade\r\nUpgrade: ws\r\n\r\nRAW";
  lhn_parser p;
  lhn_result r;
  new_parser(&p, HTTP_REQUEST, 16384, 0);
  lhn_parser_execute(&p, msg, strlen(msg), &r);
  CHECK(r.error == HPE_OK);
  CHECK(r.bytes_parsed == strlen(msg) - 3);
  CHECK((event(&p, 1)[6] & LHN_HC_UPGRADE) != 0);
  lhn_parser_destroy(&p);
}

/* Counting grow hook: every buffer growth goes through it. */
static size_t hook_calls;
static void *counting_grow(void *ctx, enum lhn_buffer_id id, void *old, size_t old_size,
                           size_t new_size) {
  (void)ctx;
  (void)id;
  hook_calls++;
  void *block = malloc(new_size);
  if (block && old_size) memcpy(block, old, old_size);
  /* blocks are kept by the hook's owner; this test leaks nothing it keeps */
  free(old);
  return block;
}

/* Warm parser: no allocation per message, whole or fragmented. */
static void test_zero_alloc_when_warm(void) {
  const char *msg = "GET /zero HTTP/1.1\r\nHost: localhost\r\nUser-Agent: test\r\nAccept: */*\r\n"
                    "X-Filler-1: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\r\nX-Filler-2: bbbbbbbbbbbbbbbbbbbbbbbbbbbb\r\n\r\n";
  size_t len = strlen(msg);
  lhn_parser p;
  lhn_result r;
  lhn_parser_init(&p, counting_grow, NULL);
  CHECK(lhn_parser_prepare(&p) == 0);
  lhn_parser_reset(&p, HTTP_REQUEST, 16384, 0);
  for (int i = 0; i < 100; i++) lhn_parser_execute(&p, msg, len, &r);
  uint64_t warm = p.allocations;
  size_t calls = hook_calls;
  for (int i = 0; i < 10000; i++) {
    size_t frags = (size_t)(i % 4) + 1, step = len / frags, off = 0;
    for (size_t f = 0; f < frags; f++) {
      size_t n = f + 1 == frags ? len - off : step;
      lhn_parser_execute(&p, msg + off, n, &r);
      CHECK(r.error == HPE_OK);
      off += n;
    }
  }
  CHECK(p.allocations == warm);
  CHECK(hook_calls == calls);
  free(p.slab);
  free(p.pairs);
  free(p.events);
  lhn_parser_destroy(&p);
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
  int32_t *hc;
  int32_t number_a = 0;
  for (int i = 1; i <= LHN_RECORD_EVERY; i++) {
    lhn_parser_execute(&p, a, strlen(a), &r);
    hc = event(&p, 1);
    CHECK((hc[LHN_EV_FLAGS] & LHN_HC_REPEATS) == 0);
    CHECK(((hc[LHN_EV_FLAGS] & LHN_HC_RECORDED) != 0) == (i == LHN_RECORD_EVERY));
    CHECK(known_tag(&p, hc[2]) > 0 && strcmp(known[known_tag(&p, hc[2]) - 1], "Host") == 0);
    CHECK(known_tag(&p, hc[2] + 1) > 0 && strcmp(known[known_tag(&p, hc[2] + 1) - 1], "Cookie") == 0);
    number_a = hc[LHN_EV_MESSAGE_NUMBER];
  }
  lhn_parser_execute(&p, a, strlen(a), &r);
  hc = event(&p, 1);
  CHECK(hc[LHN_EV_MESSAGE_NUMBER] == number_a + 1);
  CHECK((hc[LHN_EV_FLAGS] & LHN_HC_REPEATS) != 0);
  CHECK((hc[LHN_EV_FLAGS] & LHN_HC_RECORDED) == 0);
  /* in pieces: the same */
  lhn_parser_execute(&p, a, 20, &r);
  lhn_parser_execute(&p, a + 20, strlen(a) - 20, &r);
  hc = event(&p, 0);
  CHECK(hc[LHN_EV_KIND] == LHN_EV_HEADERS_COMPLETE && (hc[LHN_EV_FLAGS] & LHN_HC_REPEATS) != 0);
  /* one value differs: not recorded (the first such head after a record),
   * and the record is forgotten: a after it is no repeat */
  lhn_parser_execute(&p, b, strlen(b), &r);
  hc = event(&p, 1);
  CHECK((hc[LHN_EV_FLAGS] & (LHN_HC_REPEATS | LHN_HC_RECORDED)) == 0);
  CHECK(known_tag(&p, hc[2]) > 0);
  lhn_parser_execute(&p, a, strlen(a), &r);
  CHECK((event(&p, 1)[LHN_EV_FLAGS] & LHN_HC_REPEATS) == 0);
  /* the slab bytes of a, laid out as other pairs: a recorded (the 4th head
   * that did not repeat since the last record), then a2 */
  lhn_parser_execute(&p, b, strlen(b), &r);
  lhn_parser_execute(&p, a, strlen(a), &r);
  CHECK((event(&p, 1)[LHN_EV_FLAGS] & LHN_HC_RECORDED) != 0);
  lhn_parser_execute(&p, a2, strlen(a2), &r);
  hc = event(&p, 1);
  CHECK((hc[LHN_EV_FLAGS] & LHN_HC_REPEATS) == 0);
  /* a flush (33 fields) breaks the chain for the message and the next */
  char big[2048];
  size_t n = (size_t)snprintf(big, sizeof big, "GET /same HTTP/1.1\r\n");
  for (int i = 0; i < 33; i++) n += (size_t)snprintf(big + n, sizeof big - n, "X%d: v\r\n", i);
  n += (size_t)snprintf(big + n, sizeof big - n, "\r\n");
  for (int round = 0; round < 2; round++) {
    lhn_parser_execute(&p, big, n, &r);
    CHECK(r.error == HPE_OK);
    hc = event(&p, 3); /* begin, the 32nd field's flush, the rest's flush, headers complete */
    CHECK(hc[LHN_EV_KIND] == LHN_EV_HEADERS_COMPLETE && hc[LHN_EV_PAIR_COUNT] == -1);
    CHECK((hc[LHN_EV_FLAGS] & LHN_HC_REPEATS) == 0);
  }
  lhn_parser_execute(&p, a, strlen(a), &r);
  CHECK((event(&p, 1)[LHN_EV_FLAGS] & LHN_HC_REPEATS) == 0);
  /* trailers carry known-name tags */
  lhn_parser_reset(&p, HTTP_REQUEST, 16384, 0);
  const char *t = "POST /same HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n0\r\nHost: h\r\n\r\n";
  lhn_parser_execute(&p, t, strlen(t), &r);
  CHECK(r.error == HPE_OK);
  int32_t *tr = event(&p, 2);
  CHECK(tr[LHN_EV_KIND] == LHN_EV_HEADERS && tr[LHN_EV_PAIR_COUNT] == 1);
  CHECK(known_tag(&p, tr[2]) > 0 && strcmp(known[known_tag(&p, tr[2]) - 1], "Host") == 0);
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
    lhn_parser_execute(&p, msg, (size_t)len, &r);
    int32_t *ev = event(&p, framing ? 1 : 2);
    CHECK(r.error == HPE_OK && ev[LHN_EV_PAIR_COUNT] == 2);
    CHECK(known_tag(&p, ev[2]) == (int32_t)i + 1);
    CHECK(known_tag(&p, ev[2] + 1) == 0); /* "HosT" is no well-known spelling */
  }
  lhn_parser_destroy(&p);
}

/* The index + 1 of name among the well-known names, by a plain search, or 0. */
static int32_t known_index_of(const char *name) {
  size_t n_known;
  const char *const *known = lhn_known_names(&n_known);
  for (size_t i = 0; i < n_known; i++) {
    if (strcmp(known[i], name) == 0) return (int32_t)i + 1;
  }
  return 0;
}

/* A well-known name with any one letter's case changed, or one byte
 * changed, is tagged as the name it then is (another well-known spelling,
 * or none): every byte of every name takes part in the comparison. */
static void test_known_name_near_misses(void) {
  size_t n_known;
  const char *const *known = lhn_known_names(&n_known);
  lhn_parser p;
  lhn_result r;
  new_parser(&p, HTTP_REQUEST, 1 << 20, 0);
  for (size_t i = 0; i < n_known; i++) {
    size_t len = strlen(known[i]);
    /* (their case-changed spellings frame the message: tested above) */
    int framing = strcasecmp(known[i], "content-length") == 0 ||
                  strcasecmp(known[i], "transfer-encoding") == 0;
    for (size_t j = 0; j < len; j++) {
      for (int how = 0; how < 2; how++) {
        char name[64], msg[200];
        memcpy(name, known[i], len + 1);
        if (how == 0) {
          if (framing || !isalpha((unsigned char)name[j])) continue;
          name[j] ^= 0x20;
        } else {
          name[j] = name[j] == 'x' ? 'y' : 'x';
        }
        int n = snprintf(msg, sizeof msg, "GET / HTTP/1.1\r\n%s: v\r\n\r\n", name);
        lhn_parser_reset(&p, HTTP_REQUEST, 1 << 20, 0);
        lhn_parser_execute(&p, msg, (size_t)n, &r);
        int32_t *ev = event(&p, 1);
        CHECK(r.error == HPE_OK && ev[LHN_EV_KIND] == LHN_EV_HEADERS_COMPLETE);
        CHECK(known_tag(&p, ev[2]) == known_index_of(name));
      }
    }
  }
  lhn_parser_destroy(&p);
}

/* An empty buffer with no data pointer in the middle of a header keeps the
 * header (llhttp would drop a span under way on a NULL buffer). */
static void test_null_empty_fragment(void) {
  lhn_parser p;
  lhn_result r;
  new_parser(&p, HTTP_REQUEST, 16384, 0);
  lhn_parser_execute(&p, "GET / HTTP/1.1\r\nHo", 18, &r);
  CHECK(r.error == HPE_OK);
  lhn_parser_execute(&p, NULL, 0, &r);
  CHECK(r.error == HPE_OK && r.bytes_parsed == 0);
  lhn_parser_execute(&p, "st: a\r\n\r\n", 9, &r);
  CHECK(r.error == HPE_OK);
  int32_t *hc = event(&p, 0);
  CHECK(hc[0] == LHN_EV_HEADERS_COMPLETE && hc[3] == 1);
  CHECK(slab_is(&p, pair(&p, hc[2])[0], pair(&p, hc[2])[1], "Host"));
  CHECK(slab_is(&p, pair(&p, hc[2])[2], pair(&p, hc[2])[3], "a"));
  lhn_parser_destroy(&p);
}

/* execute() without lhn_parser_prepare() allocates what it needs (fuzz F3). */
static void test_execute_without_prepare(void) {
  lhn_parser p;
  lhn_result r;
  lhn_parser_init(&p, NULL, NULL);
  lhn_parser_reset(&p, HTTP_REQUEST, 16384, 0);
  lhn_parser_execute(&p, "GET / HTTP/1.1\r\n\r\nGET /x", 23, &r);
  CHECK(r.error == HPE_OK);
  lhn_parser_execute(&p, " HTTP/1.1\r\n\r\n", 13, &r);
  CHECK(r.error == HPE_OK && p.event_count == 2);
  lhn_parser_destroy(&p);
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

int main(void) {
  test_request();
  test_every_split();
  test_flush_at_32();
  test_without_on_headers();
  test_without_on_headers_complete();
  test_header_overflow();
  test_errors();
  test_rewind_answer();
  test_rewind_fail();
  test_upgrade();
  test_zero_alloc_when_warm();
  test_repeats();
  test_known_names();
  test_known_name_near_misses();
  test_method_names();
  test_null_empty_fragment();
  test_execute_without_prepare();
  printf("core: %d passed, %d failed\n", checks - failures, failures);
  return failures ? 1 : 0;
}
