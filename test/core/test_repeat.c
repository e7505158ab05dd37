/* Unit tests of the repeat record (src/core/lhn_repeat.c), on heads made by
 * hand: bytes and the layout of their text and pairs. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "../../src/core/lhn_contract.h"
#include "../../src/core/lhn_repeat.h"

/* A head: "GET /x\r\nA: b\r\n..." with its URL and pairs laid out as given;
 * pairs' offsets are relative to text position base. */
typedef struct {
  char bytes[256];
  int32_t pairs[8 * LHN_PAIR_SLOTS];
  lhn_head head;
} made_head;

/* A head of url and n pairs "Kk: v...", base 100 (offsets are positions in
 * a larger text). */
static void make(made_head *m, const char *url, int n, const char *value) {
  size_t at = 0;
  uint32_t base = 100;
  memset(m, 0, sizeof *m);
  size_t ul = strlen(url);
  memcpy(m->bytes, url, ul);
  m->head.text_start = base;
  m->head.text_end = base + (uint32_t)ul;
  at = ul;
  for (int i = 0; i < n; i++) {
    int32_t *p = m->pairs + i * LHN_PAIR_SLOTS;
    at += 2; /* "\r\n" */
    p[LHN_PAIR_NAME_START] = (int32_t)(base + at);
    m->bytes[at++] = 'K';
    m->bytes[at++] = (char)('a' + i);
    p[LHN_PAIR_NAME_END] = (int32_t)(base + at);
    at += 2; /* ": " */
    p[LHN_PAIR_VALUE_START] = (int32_t)(base + at);
    size_t vl = strlen(value);
    memcpy(m->bytes + at, value, vl);
    at += vl;
    p[LHN_PAIR_VALUE_END] = (int32_t)(base + at);
  }
  m->head.bytes = (const uint8_t *)m->bytes;
  m->head.len = (uint32_t)at;
  m->head.base = base;
  m->head.pairs = m->pairs;
  m->head.pair_count = (uint32_t)n;
}

static const lhn_memory libc = {NULL, NULL};

static void test_record_every(void) {
  lhn_repeat_state rs;
  lhn_repeat_init(&rs);
  made_head a;
  make(&a, "/same", 3, "v");
  /* the first LHN_RECORD_EVERY - 1 heads are neither repeats nor recorded */
  for (int i = 1; i < LHN_RECORD_EVERY; i++) CHECK(lhn_repeat_check(&rs, &a.head, &libc) == LHN_HEAD_NEW);
  CHECK(lhn_repeat_bytes(&rs) == 0);
  CHECK(lhn_repeat_check(&rs, &a.head, &libc) == LHN_HEAD_RECORDED);
  CHECK(lhn_repeat_bytes(&rs) > a.head.len);
  for (int i = 0; i < 5; i++) CHECK(lhn_repeat_check(&rs, &a.head, &libc) == LHN_HEAD_REPEATS);
  /* the same head at another place of its text repeats too (offsets are
   * relative to its base) */
  made_head moved = a;
  moved.head.pairs = moved.pairs;
  moved.head.bytes = (const uint8_t *)moved.bytes;
  moved.head.base += 1000;
  moved.head.text_start += 1000;
  moved.head.text_end += 1000;
  for (int i = 0; i < 3 * LHN_PAIR_SLOTS; i++) {
    if (i % LHN_PAIR_SLOTS != LHN_PAIR_KNOWN_NAME) moved.pairs[i] += 1000;
  }
  CHECK(lhn_repeat_check(&rs, &moved.head, &libc) == LHN_HEAD_REPEATS);
  /* one value differs: new, the record forgotten; it is the first of the
   * heads to pass over before the next record */
  made_head b;
  make(&b, "/same", 3, "w");
  CHECK(lhn_repeat_check(&rs, &b.head, &libc) == LHN_HEAD_NEW);
  for (int i = 2; i < LHN_RECORD_EVERY; i++) CHECK(lhn_repeat_check(&rs, &a.head, &libc) == LHN_HEAD_NEW);
  CHECK(lhn_repeat_check(&rs, &a.head, &libc) == LHN_HEAD_RECORDED);
  lhn_repeat_free(&rs, &libc);
  CHECK(lhn_repeat_bytes(&rs) == 0);
}

/* The same bytes cut into other pairs: no repeat, but recorded as cut now. */
static void test_layout(void) {
  lhn_repeat_state rs;
  lhn_repeat_init(&rs);
  rs.skip = 0;
  made_head a;
  make(&a, "/same", 2, "v");
  CHECK(lhn_repeat_check(&rs, &a.head, &libc) == LHN_HEAD_RECORDED);
  made_head cut = a;
  cut.head.pairs = cut.pairs;
  cut.head.bytes = (const uint8_t *)cut.bytes;
  cut.pairs[LHN_PAIR_NAME_END]--; /* "K" instead of "Ka" */
  CHECK(lhn_repeat_check(&rs, &cut.head, &libc) == LHN_HEAD_RECORDED);
  CHECK(lhn_repeat_check(&rs, &cut.head, &libc) == LHN_HEAD_REPEATS);
  CHECK(lhn_repeat_check(&rs, &a.head, &libc) == LHN_HEAD_RECORDED);
  /* a URL of another length, then a forgotten record */
  made_head other;
  make(&other, "/samf", 2, "v");
  CHECK(lhn_repeat_check(&rs, &other.head, &libc) != LHN_HEAD_REPEATS);
  lhn_repeat_forget(&rs);
  CHECK(lhn_repeat_check(&rs, &other.head, &libc) != LHN_HEAD_REPEATS);
  lhn_repeat_free(&rs, &libc);
}

/* A head of no bytes (a response with no status text and no headers: the
 * parser passes NULL bytes) is recorded and repeats like any other, without
 * handing NULL to memcpy or memcmp (undefined even for 0 bytes: UBSan's
 * nonnull-attribute, under test-core.js --sanitize). */
static void test_empty_head(void) {
  lhn_repeat_state rs;
  lhn_repeat_init(&rs);
  rs.skip = 0;
  lhn_head empty;
  memset(&empty, 0, sizeof empty);
  empty.base = 7;
  empty.text_start = empty.text_end = 7;
  int32_t no_pairs[LHN_PAIR_SLOTS] = {0};
  empty.pairs = no_pairs;
  CHECK(lhn_repeat_check(&rs, &empty, &libc) == LHN_HEAD_RECORDED);
  CHECK(lhn_repeat_check(&rs, &empty, &libc) == LHN_HEAD_REPEATS);
  /* a head with bytes is no repeat of it, nor is the empty one of that */
  made_head a;
  make(&a, "/", 0, "");
  CHECK(lhn_repeat_check(&rs, &a.head, &libc) != LHN_HEAD_REPEATS);
  rs.skip = 0;
  CHECK(lhn_repeat_check(&rs, &a.head, &libc) == LHN_HEAD_RECORDED);
  CHECK(lhn_repeat_check(&rs, &empty, &libc) != LHN_HEAD_REPEATS);
  lhn_repeat_free(&rs, &libc);
}

/* More than LHN_REPEAT_MAX_PAIRS pairs: never recorded. */
static void test_too_many_pairs(void) {
  lhn_repeat_state rs;
  lhn_repeat_init(&rs);
  rs.skip = 0;
  made_head a;
  make(&a, "/", 1, "v");
  a.head.pair_count = LHN_REPEAT_MAX_PAIRS + 1;
  int32_t *many = calloc((size_t)(LHN_REPEAT_MAX_PAIRS + 1) * LHN_PAIR_SLOTS, sizeof(int32_t));
  for (int i = 0; i < (LHN_REPEAT_MAX_PAIRS + 1) * LHN_PAIR_SLOTS; i++) many[i] = (int32_t)a.head.base;
  a.head.pairs = many;
  CHECK(lhn_repeat_check(&rs, &a.head, &libc) == LHN_HEAD_NEW);
  CHECK(lhn_repeat_check(&rs, &a.head, &libc) == LHN_HEAD_NEW);
  CHECK(lhn_repeat_bytes(&rs) == 0);
  free(many);
  lhn_repeat_free(&rs, &libc);
}

/* A record that cannot be allocated is none, and nothing else changes. */
static void *no_memory(void *ctx, void *block, size_t size) {
  (void)ctx;
  if (size == 0) {
    free(block);
    return NULL;
  }
  return NULL;
}

static void test_out_of_memory(void) {
  lhn_repeat_state rs;
  lhn_repeat_init(&rs);
  rs.skip = 0;
  const lhn_memory none = {no_memory, NULL};
  made_head a;
  make(&a, "/x", 2, "v");
  CHECK(lhn_repeat_check(&rs, &a.head, &none) == LHN_HEAD_NEW);
  CHECK(lhn_repeat_check(&rs, &a.head, &none) != LHN_HEAD_REPEATS);
  CHECK(lhn_repeat_bytes(&rs) == 0);
  lhn_repeat_free(&rs, &none);
}

int main(void) {
  test_record_every();
  test_layout();
  test_empty_head();
  test_too_many_pairs();
  test_out_of_memory();
  return report("repeat record");
}
