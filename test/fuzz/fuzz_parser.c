/*
 * libFuzzer harness for the C core (src/core: lhn_parser.h).
 *
 * Built by scripts/dev/fuzz.js with clang -fsanitize=fuzzer,address,undefined.
 *
 * Input layout (see test/fuzz/make-corpus.js, which writes seeds in it):
 *   [0]    mode bits   MODE_*
 *   [1..2] lenient flags (little endian, & 1023); in [2], bit 4 set: the
 *          handlers of bits 2..3 (LHN_HAS_*) exist, the others are missing
 *   [3]    header size selector (max_header_size())
 *   [4..7] answer policy: 4 bits per kOnHeadersComplete (answer_for())
 *   [8]    fail target: the n-th non-body event's handler throws (0 = none)
 *   [9..10] seed of the PRNG that picks fragment sizes and chaos actions;
 *          bit 7 of [10]: a handler parses another stream meanwhile (nested)
 *   [11..] the bytes of the HTTP stream
 *
 * Each input runs the stream through a fresh parser and a fresh workspace
 * twice, the way lib/replay.js drives the core (execute, walk the events,
 * rewind with LHN_REWIND_ANSWER at kOnHeadersComplete when the policy
 * answers non-zero, LHN_REWIND_FAIL where a handler throws, finish at the
 * end):
 *   run A: the whole stream in one execute;
 *   run B: the stream cut into random fragments (empty ones included), with
 *          pause()/resume() between fragments in MODE_PAUSE.
 * After every call the harness takes the call's text as the binding does (a
 * copy, made at once: the input may be gone after the call) and checks the
 * core's invariants: bytes_parsed <= len; a clean result consumed everything
 * unless the parser upgraded; every event has a valid kind and serials
 * never decrease; body slices lie inside the input; pair, URL and status
 * ranges are ordered and inside the call's text; values are trimmed; events
 * up to a rewound index come out identical (text included); errors stick;
 * the core's message under way is the events' (a MESSAGE_BEGIN without a
 * MESSAGE_COMPLETE since), and what a parser holds between calls is nothing
 * between messages and at most the bytes that arrived since the last message
 * completed plus a constant within one. In nested mode another parser, on a
 * workspace of its own, parses another stream at each headers complete: the
 * outer call's events, text and rewinds must not change. A model walks every
 * event list a call leaves and checks LHN_HC_REPEATS claims (same URL or
 * status text and pairs as the message numbered one less, as delivered) and
 * the known-name tag of every pair (see "repeated heads and known names").
 * Then the two runs' logical event logs (strings resolved, bodies merged,
 * error codes and absolute error offsets) must be identical: the outcome
 * must not depend on how the stream was fragmented.
 *
 * MODE_CHAOS adds re-initialisation and finish() between fragments and
 * failures at body events; MODE_OOM makes one allocation fail (a workspace
 * buffer's growth or a parser's held head). Both only check invariants (no
 * A/B comparison).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lhn_known.h"
#include "lhn_parser.h"

#define MODE_RESPONSE 0x01 /* parser type */
#define MODE_FINISH 0x02   /* finish() after the last fragment */
#define MODE_HOOK 0x04     /* buffers through memory hooks (blocks move) */
#define MODE_PAUSE 0x08    /* pause()/resume() between fragments */
#define MODE_SMALLFRAG 0x10/* mostly tiny fragments */
#define MODE_CHAOS 0x20    /* resets, mid-stream finish, body failures */
#define MODE_OOM 0x40      /* one allocation fails */
#define MODE_NOCMP 0x80    /* skip run A (faster, invariants only) */

#define HEADER_BYTES 11

/* What a parser may hold between calls beyond the bytes that arrived: the
 * held head's header and its pairs (at most 2 * 31 pending: headers kept
 * for the trailers, then the trailers). */
#define HELD_CONSTANT (64u + 64u * LHN_PAIR_SLOTS * sizeof(int32_t))

/* ---- coverage feedback on llhttp's own state -------------------------------
 * The static llhttp is not instrumented. Feed libFuzzer the (state, error,
 * flags) llhttp is left in after each execute through its extra counters. */
#define EXTRA 8192
__attribute__((used, section("__libfuzzer_extra_counters")))
static uint8_t extra_counters[EXTRA];

static void note_state(const llhttp_t *h, uint32_t salt) {
  uint64_t x = (uint64_t)(uintptr_t)h->_current * 0x9E3779B97F4A7C15ull;
  x ^= ((uint64_t)h->error << 7) ^ ((uint64_t)h->flags << 13) ^ ((uint64_t)h->header_state << 29) ^
       ((uint64_t)h->finish << 37) ^ ((uint64_t)salt << 41);
  x ^= x >> 29;
  x *= 0xBF58476D1CE4E5B9ull;
  x ^= x >> 32;
  uint8_t *c = &extra_counters[x % EXTRA];
  if (*c != 255) (*c)++;
}

/* ---- failure reporting ------------------------------------------------------ */

static const char *g_what = "";

#define ASSERT(cond)                                                                  \
  do {                                                                                \
    if (!(cond)) {                                                                    \
      fprintf(stderr, "fuzz_parser: invariant failed (%s): %s at %s:%d\n", g_what, #cond, \
              __FILE__, __LINE__);                                                    \
      abort();                                                                        \
    }                                                                                 \
  } while (0)

/* ---- small helpers ---------------------------------------------------------- */

typedef struct {
  uint8_t *d;
  size_t n, cap;
} buf_t;

static void buf_put(buf_t *b, const void *src, size_t n) {
  if (b->n + n > b->cap) {
    size_t cap = b->cap ? b->cap * 2 : 256;
    while (cap < b->n + n) cap *= 2;
    b->d = realloc(b->d, cap);
    if (!b->d) abort();
    b->cap = cap;
  }
  if (n) memcpy(b->d + b->n, src, n);
  b->n += n;
}

static void buf_u32(buf_t *b, uint32_t v) { buf_put(b, &v, sizeof v); }
static void buf_free(buf_t *b) {
  free(b->d);
  memset(b, 0, sizeof *b);
}

static uint32_t rng_next(uint32_t *s) {
  /* xorshift32; never zero */
  uint32_t x = *s;
  x ^= x << 13;
  x ^= x >> 17;
  x ^= x << 5;
  *s = x;
  return x;
}

/* ---- memory hooks -------------------------------------------------------------- */

typedef struct {
  uint32_t calls;   /* allocations so far, of either kind */
  uint32_t fail_at; /* 1-based allocation that fails; 0 = never */
  int failed;       /* an allocation failed since this was last cleared */
} hook_t;

static int hook_fails(hook_t *h) {
  h->calls++;
  if (h->fail_at != 0 && h->calls == h->fail_at) {
    h->failed = 1;
    return 1;
  }
  return 0;
}

/* A workspace's event list and pair table: a new block every time and the
 * old one freed at once, so that any pointer kept into a moved buffer is a
 * use-after-free ASan reports. The new tail is filled with junk. */
static void *grow_hook(void *ctx, enum lhn_buffer_id id, void *old, size_t old_size,
                       size_t new_size) {
  hook_t *h = ctx;
  (void)id;
  if (hook_fails(h)) return NULL;
  uint8_t *block = malloc(new_size ? new_size : 1);
  if (!block) return NULL;
  ASSERT(old_size <= new_size);
  ASSERT(old_size == 0 || old != NULL);
  if (old_size) memcpy(block, old, old_size);
  memset(block + old_size, 0xA5, new_size - old_size);
  free(old);
  return block;
}

/* A parser's held head and repeat record, the same way (the block's size
 * is unknown here: it moves with realloc, which may or may not move it). */
static void *resize_hook(void *ctx, void *block, size_t size) {
  hook_t *h = ctx;
  if (size == 0) {
    free(block);
    return NULL;
  }
  if (hook_fails(h)) return NULL;
  return realloc(block, size);
}

/* ---- configuration --------------------------------------------------------- */

typedef struct {
  uint8_t mode;
  int type;
  unsigned lenient;
  uint32_t max_header;
  uint32_t answers;
  uint32_t fail_at;   /* ordinal of the non-body event whose handler throws */
  int fail_headers;   /* HEADERS events may be failure targets */
  uint32_t seed;
  uint32_t oom_at;
  unsigned handlers;  /* LHN_HAS_* bits: which handlers the caller has */
  int nested;         /* a handler parses another stream meanwhile */
} cfg_t;

static uint32_t max_header_size(uint8_t v, size_t len) {
  if (v < 48) return (uint32_t)v + 1;           /* 1..48: overflow everywhere */
  if (v < 112) return (uint32_t)(v - 48) * 24 + 49; /* 49..1561 */
  if (v < 200) return 16384;                    /* Node's default */
  if (v < 230) return (uint32_t)len / 2 + 1;    /* overflow half way */
  if (v < 250) return UINT32_MAX;               /* never */
  return (uint32_t)(v - 249) * 65536;
}

/* Whether the caller has the handler of an event of this kind (the missing
 * ones neither answer nor throw). */
static int handler_exists(const cfg_t *c, int kind) {
  if (kind == LHN_EV_HEADERS) return (c->handlers & 1) != 0;
  if (kind == LHN_EV_HEADERS_COMPLETE) return (c->handlers & 2) != 0;
  return 1;
}

/* kOnHeadersComplete's answer for the k-th (1-based) headers-complete event
 * of the stream. */
static int answer_for(const cfg_t *c, uint32_t k) {
  unsigned v = (c->answers >> (4 * ((k - 1) % 8))) & 15;
  if (v <= 9) return 0;
  if (v <= 11) return 1;
  if (v <= 13) return 2;
  if (v == 14) return (k & 1) ? -1 : 3; /* handler error */
  return HPE_PAUSED;                      /* 21: a real pause */
}

/* ---- invariants -------------------------------------------------------------- */

/* The call's text as the binding takes it. */
typedef struct {
  buf_t bytes;
} text_t;

static void take_text(text_t *t, const lhn_workspace *ws) {
  size_t len;
  const uint8_t *text = lhn_workspace_text(ws, &len);
  t->bytes.n = 0;
  if (len) buf_put(&t->bytes, text, len);
}

static const int32_t *ev_at(const lhn_workspace *ws, uint32_t i) { return lhn_workspace_event(ws, i); }

static const int32_t *pair_at(const lhn_workspace *ws, int32_t i) {
  return lhn_workspace_pair(ws, (uint32_t)i);
}

static void check_range(const text_t *t, int32_t start, int32_t end) {
  ASSERT(start >= 0);
  ASSERT(start <= end);
  ASSERT((size_t)end <= t->bytes.n || start == end);
}

static void check_pairs(const lhn_workspace *ws, const text_t *t, int32_t first, int32_t count) {
  ASSERT(first >= 0);
  ASSERT(count >= 0);
  ASSERT((uint64_t)first + (uint64_t)count <= lhn_workspace_pair_capacity(ws));
  int32_t prev_end = -1;
  for (int32_t i = first; i < first + count; i++) {
    const int32_t *pr = pair_at(ws, i);
    int32_t ns = pr[LHN_PAIR_NAME_START], ne = pr[LHN_PAIR_NAME_END];
    int32_t vs = pr[LHN_PAIR_VALUE_START], ve = pr[LHN_PAIR_VALUE_END];
    check_range(t, ns, ne);
    check_range(t, vs, ve);
    if (ve > vs) {
      ASSERT(ne <= vs); /* the value follows its name */
      uint8_t last = t->bytes.d[ve - 1];
      ASSERT(last != ' ' && last != '\t'); /* trimmed */
    }
    ASSERT(ns >= prev_end); /* pairs in stream order */
    prev_end = ve > vs ? ve : ne;
  }
}

/* The LHN_HC_* field bits pairs [first, first + count) call for: a name
 * that is Host, Expect, Content-Length or Transfer-Encoding in any case. */
static int32_t fields_of(const lhn_workspace *ws, const text_t *t, int32_t first, int32_t count) {
  static const struct {
    const char *name;
    int32_t bit;
  } fields[] = {{"host", LHN_HC_HOST},
                {"expect", LHN_HC_EXPECT},
                {"content-length", LHN_HC_BODY_FIELDS},
                {"transfer-encoding", LHN_HC_BODY_FIELDS}};
  int32_t bits = 0;
  for (int32_t i = first; i < first + count; i++) {
    const int32_t *pr = pair_at(ws, i);
    const uint8_t *name = t->bytes.d + pr[LHN_PAIR_NAME_START];
    size_t len = (size_t)(pr[LHN_PAIR_NAME_END] - pr[LHN_PAIR_NAME_START]);
    for (size_t f = 0; f < sizeof fields / sizeof fields[0]; f++) {
      if (strlen(fields[f].name) != len) continue;
      size_t j = 0;
      while (j < len && (name[j] >= 'A' && name[j] <= 'Z' ? name[j] + 0x20 : name[j]) == fields[f].name[j]) j++;
      if (j == len) bits |= fields[f].bit;
    }
  }
  return bits;
}

/* Checks every event of the list and the result of one call. */
static void check_events(const lhn_parser *p, const lhn_workspace *ws, const text_t *t,
                         size_t input_len, const lhn_result *r, int finishing) {
  uint32_t count = lhn_workspace_event_count(ws);
  ASSERT(count <= ws->event_cap);
  ASSERT(lhn_workspace_result(ws)->error == r->error);
  ASSERT(r->bytes_parsed <= input_len);
  if (r->error == HPE_OK) {
    ASSERT(r->code == NULL && r->reason == NULL);
    /* a clean execute consumes everything, unless it stopped for an upgrade
     * (which also hides errors while the upgrade flag is set) */
    if (!finishing && !p->st.llhttp.upgrade && r->bytes_parsed != input_len) {
      ASSERT(r->upgraded);
      ASSERT(count > 0 && ev_at(ws, count - 1)[LHN_EV_KIND] == LHN_EV_MESSAGE_COMPLETE);
    }
  } else {
    ASSERT(r->code != NULL && r->code_len > 0 && r->reason != NULL);
    ASSERT(memchr(r->code, ':', r->code_len) == NULL);
    ASSERT(r->error != HPE_PAUSED_UPGRADE);
  }
  int32_t prev_serial = 0;
  for (uint32_t i = 0; i < count; i++) {
    const int32_t *ev = ev_at(ws, i);
    ASSERT(ev[LHN_EV_SERIAL] >= prev_serial);
    ASSERT((uint32_t)ev[LHN_EV_SERIAL] <= p->st.serial);
    prev_serial = ev[LHN_EV_SERIAL];
    switch (ev[LHN_EV_KIND]) {
      case LHN_EV_MESSAGE_BEGIN:
      case LHN_EV_MESSAGE_COMPLETE:
        break;
      case LHN_EV_HEADERS:
        /* may be empty: with have_flushed every headers complete flushes */
        check_pairs(ws, t, ev[LHN_EV_FIRST_PAIR], ev[LHN_EV_PAIR_COUNT]);
        ASSERT(ev[LHN_EV_PAIR_COUNT] < LHN_MAX_PENDING_FIELDS);
        ASSERT(ev[LHN_EV_HEADER_PAIRS] >= 0 && ev[LHN_EV_HEADER_PAIRS] <= ev[LHN_EV_PAIR_COUNT]);
        check_range(t, ev[LHN_EV_TEXT_START], ev[LHN_EV_TEXT_END]);
        /* the parser's own type: a chaos reset may have changed it */
        if (p->st.llhttp.type == HTTP_RESPONSE) {
          ASSERT(ev[LHN_EV_TEXT_START] == ev[LHN_EV_TEXT_END]);
        }
        break;
      case LHN_EV_HEADERS_COMPLETE:
        if (ev[LHN_EV_PAIR_COUNT] != -1) {
          check_pairs(ws, t, ev[LHN_EV_FIRST_PAIR], ev[LHN_EV_PAIR_COUNT]);
        } else {
          ASSERT((ev[LHN_EV_FLAGS] & (LHN_HC_REPEATS | LHN_HC_RECORDED)) == 0);
        }
        /* The head's fields, told when its pairs came with it (a repeated
         * head's as the last, whose bytes it has), and then right. */
        if ((ev[LHN_EV_FLAGS] & LHN_HC_FIELDS_KNOWN) != 0) {
          ASSERT(ev[LHN_EV_PAIR_COUNT] != -1);
          ASSERT((ev[LHN_EV_FLAGS] & (LHN_HC_HOST | LHN_HC_EXPECT | LHN_HC_BODY_FIELDS)) ==
                 fields_of(ws, t, ev[LHN_EV_FIRST_PAIR], ev[LHN_EV_PAIR_COUNT]));
        } else {
          ASSERT((ev[LHN_EV_FLAGS] & (LHN_HC_HOST | LHN_HC_EXPECT | LHN_HC_BODY_FIELDS)) == 0);
        }
        ASSERT(ev[LHN_EV_PAIR_COUNT] < LHN_MAX_PENDING_FIELDS);
        check_range(t, ev[LHN_EV_TEXT_START], ev[LHN_EV_TEXT_END]);
        ASSERT((ev[LHN_EV_FLAGS] & ~(LHN_HC_UPGRADE | LHN_HC_KEEP_ALIVE | LHN_HC_REPEATS | LHN_HC_RECORDED |
                                      LHN_HC_FIELDS_KNOWN | LHN_HC_HOST | LHN_HC_EXPECT |
                                      LHN_HC_BODY_FIELDS)) == 0);
        ASSERT(ev[LHN_EV_STATUS] >= 0 && ev[LHN_EV_STATUS] <= 999);
        ASSERT(ev[LHN_EV_METHOD] >= 0 && ev[LHN_EV_METHOD] <= 46);
        ASSERT(ev[LHN_EV_HTTP_MAJOR] >= 0 && ev[LHN_EV_HTTP_MAJOR] <= 9);
        ASSERT(ev[LHN_EV_HTTP_MINOR] >= 0 && ev[LHN_EV_HTTP_MINOR] <= 9);
        break;
      case LHN_EV_BODY:
        ASSERT(!finishing);
        ASSERT(ev[LHN_EV_BODY_START] >= 0 && ev[LHN_EV_BODY_LENGTH] > 0);
        ASSERT((uint64_t)ev[LHN_EV_BODY_START] + (uint64_t)ev[LHN_EV_BODY_LENGTH] <= input_len);
        break;
      default:
        ASSERT(!"event kind");
    }
  }
}

/* ---- repeated heads and known names ----------------------------------------
 * LHN_HC_REPEATS lets the caller hand out again the strings it made for the
 * message numbered LHN_EV_MESSAGE_NUMBER - 1: a wrong claim would give
 * JavaScript the previous message's headers. The model keeps what the last
 * headers-complete event delivered (URL or status text and every pair, as
 * the handler sees them), under its number, and checks every claim against
 * it: this one's number is the last one's plus 1, neither message had its
 * head flushed early, and the heads are the same byte for byte. The core may
 * decline to claim (nothing requires the flag).
 *
 * The model walks every event list a call leaves, whether or not the caller
 * gets to its events: message numbers only grow, also across rewinds, which
 * renumber the events they regenerate. A rewind re-walks the list from the
 * state the model had when the buffer began (the record of the last head
 * stays: the core's does too).
 *
 * Known-name tags: a pair of a flush, of trailers or of a headers complete
 * without the flag carries index + 1 of its name in lhn_known_names() when
 * the name is exactly one of them, else 0. A repeating message's pairs carry
 * 0 (the core does not tag them, lhn_contract.h), except that without
 * kOnHeadersComplete they stay pending and the trailers' flush, later in the
 * same call, tags them as it hands them over again. A caller that cannot reuse the
 * previous strings (lib/replay.js when it kept none) makes them of
 * these pairs, tags included: a wrong tag would name a header wrongly. */

typedef struct {
  int after_hc;      /* the current message's headers completed: flushes are trailers */
  int flushed_early; /* a flush handed part of the current message's head to kOnHeaders */
  int in_message;    /* a message began and has not completed */
} model_msg_t;

typedef struct {
  model_msg_t msg;
  model_msg_t at_buffer_start; /* msg when the current buffer began */
  int32_t last_number;         /* of the last headers complete seen; 0: none */
  int last_reusable;           /* its head was delivered whole with it */
  buf_t last_head;             /* text and pairs, length-prefixed */
  buf_t head;                  /* scratch */
} model_t;

/* Counted per process, printed at exit with FUZZ_PARSER_STATS=1. */
static uint64_t g_repeats_checked, g_repeats_possible, g_known_tags, g_held_checked, g_nested;

static int32_t known_index(const uint8_t *name, size_t len) {
  size_t n_known;
  const char *const *names = lhn_known_names(&n_known);
  for (size_t k = 0; k < n_known; k++) {
    if (strlen(names[k]) == len && memcmp(names[k], name, len) == 0) return (int32_t)k + 1;
  }
  return 0;
}

/* Pairs [first, first + count) with their known-name tags. repeats: the pairs
 * of a LHN_HC_REPEATS event; held: there is no kOnHeadersComplete, so its
 * pairs may be tagged by the trailers' flush. */
static void check_known_tags(const lhn_workspace *ws, const text_t *t, int32_t first, int32_t count,
                             int repeats, int held) {
  size_t n_known;
  lhn_known_names(&n_known);
  ASSERT(n_known <= 255);
  for (int32_t i = first; i < first + count; i++) {
    const int32_t *pr = pair_at(ws, i);
    int32_t tag = pr[LHN_PAIR_KNOWN_NAME];
    int32_t want = known_index(t->bytes.d + pr[LHN_PAIR_NAME_START],
                               (size_t)(pr[LHN_PAIR_NAME_END] - pr[LHN_PAIR_NAME_START]));
    if (!repeats) ASSERT(tag == want);
    else if (!held) ASSERT(tag == 0);
    else ASSERT(tag == 0 || tag == want);
    if (tag) g_known_tags++;
  }
}

static void put_bytes(buf_t *b, const text_t *t, int32_t start, int32_t end) {
  buf_u32(b, (uint32_t)(end - start));
  if (end > start) buf_put(b, t->bytes.d + start, (size_t)(end - start));
}

static void model_event(model_t *mo, const lhn_parser *p, const lhn_workspace *ws, const text_t *t,
                        const cfg_t *c, const int32_t *ev) {
  int held = (c->handlers & LHN_HAS_ON_HEADERS_COMPLETE) == 0;
  switch (ev[LHN_EV_KIND]) {
    case LHN_EV_MESSAGE_BEGIN:
      mo->msg.after_hc = 0;
      mo->msg.flushed_early = 0;
      mo->msg.in_message = 1;
      break;
    case LHN_EV_MESSAGE_COMPLETE:
      mo->msg.in_message = 0;
      break;
    case LHN_EV_HEADERS:
      check_known_tags(ws, t, ev[LHN_EV_FIRST_PAIR], ev[LHN_EV_PAIR_COUNT], 0, 0);
      /* without kOnHeaders a flush hands nothing over (the pairs are dropped
       * and the head that comes with headers complete is all there is) */
      if (!mo->msg.after_hc && (c->handlers & LHN_HAS_ON_HEADERS)) mo->msg.flushed_early = 1;
      break;
    case LHN_EV_HEADERS_COMPLETE: {
      int32_t number = ev[LHN_EV_MESSAGE_NUMBER];
      int32_t count = ev[LHN_EV_PAIR_COUNT];
      int repeats = (ev[LHN_EV_FLAGS] & LHN_HC_REPEATS) != 0;
      ASSERT(number > mo->last_number); /* numbers only grow */
      buf_t *h = &mo->head;
      h->n = 0;
      put_bytes(h, t, ev[LHN_EV_TEXT_START], ev[LHN_EV_TEXT_END]);
      if (count != -1) {
        buf_u32(h, (uint32_t)count);
        for (int32_t i = ev[LHN_EV_FIRST_PAIR]; i < ev[LHN_EV_FIRST_PAIR] + count; i++) {
          const int32_t *pr = pair_at(ws, i);
          put_bytes(h, t, pr[LHN_PAIR_NAME_START], pr[LHN_PAIR_NAME_END]);
          put_bytes(h, t, pr[LHN_PAIR_VALUE_START], pr[LHN_PAIR_VALUE_END]);
        }
        check_known_tags(ws, t, ev[LHN_EV_FIRST_PAIR], count, repeats, held);
      }
      int reusable = count != -1 && count <= LHN_REPEAT_MAX_PAIRS && !mo->msg.flushed_early;
      int same = reusable && mo->last_reusable && mo->last_number == number - 1 &&
                 h->n == mo->last_head.n && memcmp(h->d, mo->last_head.d, h->n) == 0;
      if (repeats) {
        ASSERT(count != -1 && count <= LHN_REPEAT_MAX_PAIRS);
        ASSERT(!mo->msg.flushed_early);
        ASSERT(mo->last_number == number - 1);
        ASSERT(mo->last_reusable);
        ASSERT(same);
        g_repeats_checked++;
        note_state(&p->st.llhttp, 0xfeed0000u | (uint32_t)held);
      }
      if (same) g_repeats_possible++;
      mo->last_number = number;
      mo->last_reusable = reusable;
      buf_t t = mo->last_head;
      mo->last_head = *h;
      *h = t;
      mo->msg.after_hc = 1;
      break;
    }
    default:
      break;
  }
}

/* Walks the event list a call left. */
static void model_list(model_t *mo, const lhn_parser *p, const lhn_workspace *ws, const text_t *t,
                       const cfg_t *c) {
  uint32_t count = lhn_workspace_event_count(ws);
  for (uint32_t i = 0; i < count; i++) model_event(mo, p, ws, t, c, ev_at(ws, i));
}

/* Before an execute: the state a rewind of this buffer goes back to. */
static void model_buffer_begins(model_t *mo) { mo->at_buffer_start = mo->msg; }

/* After a rewind: the list is regenerated from the buffer's start. */
static void model_rewound(model_t *mo, const lhn_parser *p, const lhn_workspace *ws, const text_t *t,
                          const cfg_t *c) {
  mo->msg = mo->at_buffer_start;
  model_list(mo, p, ws, t, c);
}

static void model_free(model_t *mo) {
  buf_free(&mo->last_head);
  buf_free(&mo->head);
}

/* After lhn_parser_reset(): a new stream, but message numbers go on (the
 * core keeps the last head; a repeat of it would still be true). */
static void model_reset(model_t *mo) {
  memset(&mo->msg, 0, sizeof mo->msg);
  mo->at_buffer_start = mo->msg;
}

static void print_stats(void) {
  if (!getenv("FUZZ_PARSER_STATS")) return;
  fprintf(stderr, "fuzz_parser: %llu repeats checked (%llu heads the model saw repeat), %llu "
          "known-name tags checked, %llu held heads checked, %llu nested calls\n",
          (unsigned long long)g_repeats_checked, (unsigned long long)g_repeats_possible,
          (unsigned long long)g_known_tags, (unsigned long long)g_held_checked,
          (unsigned long long)g_nested);
}

/* ---- logical log --------------------------------------------------------------
 * A sequence of records: [u32 length][u8 tag][bytes]. Body bytes are merged
 * until the next record. */

typedef struct {
  buf_t out;
  buf_t body;
  uint64_t consumed; /* stream bytes handed over before the current execute */
  int frozen;        /* nothing more is comparable */
} log_t;

static void log_record(log_t *l, char tag, const void *data, size_t n) {
  if (l->frozen) return;
  if (tag != 'b' && l->body.n) {
    log_record(l, 'b', l->body.d, l->body.n);
    l->body.n = 0;
  }
  buf_u32(&l->out, (uint32_t)(n + 1));
  buf_put(&l->out, &tag, 1);
  buf_put(&l->out, data, n);
}

static void put_pairs(buf_t *b, const lhn_workspace *ws, const text_t *t, int32_t first, int32_t count) {
  buf_u32(b, (uint32_t)count);
  for (int32_t i = first; i < first + count; i++) {
    const int32_t *pr = pair_at(ws, i);
    put_bytes(b, t, pr[LHN_PAIR_NAME_START], pr[LHN_PAIR_NAME_END]);
    put_bytes(b, t, pr[LHN_PAIR_VALUE_START], pr[LHN_PAIR_VALUE_END]);
  }
}

/* What the handlers of event i see (answer and message number excluded,
 * and LHN_HC_REPEATS: a hint that depends on what the core compared with,
 * which a rewind or another cut of the stream changes). */
static void describe_event(buf_t *b, const lhn_workspace *ws, const text_t *t, uint32_t i,
                           const char *input) {
  const int32_t *ev = ev_at(ws, i);
  buf_u32(b, (uint32_t)ev[LHN_EV_KIND]);
  switch (ev[LHN_EV_KIND]) {
    case LHN_EV_HEADERS:
      put_pairs(b, ws, t, ev[LHN_EV_FIRST_PAIR], ev[LHN_EV_PAIR_COUNT]);
      buf_u32(b, (uint32_t)ev[LHN_EV_HEADER_PAIRS]);
      put_bytes(b, t, ev[LHN_EV_TEXT_START], ev[LHN_EV_TEXT_END]);
      break;
    case LHN_EV_HEADERS_COMPLETE:
      if (ev[LHN_EV_PAIR_COUNT] == -1) buf_u32(b, UINT32_MAX);
      else put_pairs(b, ws, t, ev[LHN_EV_FIRST_PAIR], ev[LHN_EV_PAIR_COUNT]);
      put_bytes(b, t, ev[LHN_EV_TEXT_START], ev[LHN_EV_TEXT_END]);
      {
        int32_t slots[5] = {ev[LHN_EV_FLAGS] & ~(LHN_HC_REPEATS | LHN_HC_RECORDED), ev[LHN_EV_STATUS], ev[LHN_EV_METHOD],
                            ev[LHN_EV_HTTP_MAJOR], ev[LHN_EV_HTTP_MINOR]};
        buf_put(b, slots, sizeof slots);
      }
      break;
    case LHN_EV_BODY:
      buf_u32(b, (uint32_t)ev[LHN_EV_BODY_LENGTH]);
      buf_put(b, input + ev[LHN_EV_BODY_START], (size_t)ev[LHN_EV_BODY_LENGTH]);
      break;
  }
}

static void log_event(log_t *l, const lhn_workspace *ws, const text_t *t, uint32_t i, const char *input) {
  const int32_t *ev = ev_at(ws, i);
  if (ev[LHN_EV_KIND] == LHN_EV_BODY) {
    buf_put(&l->body, input + ev[LHN_EV_BODY_START], (size_t)ev[LHN_EV_BODY_LENGTH]);
    return;
  }
  buf_t b = {0};
  describe_event(&b, ws, t, i, input);
  log_record(l, (char)('0' + ev[LHN_EV_KIND]), b.d, b.n);
  buf_free(&b);
  /* With the upgrade flag set, the caller stops feeding at the end of the
   * execute that saw it (Node's http does): how much of the message was
   * parsed by then depends on where the stream was cut. */
  if (ev[LHN_EV_KIND] == LHN_EV_HEADERS_COMPLETE && (ev[LHN_EV_FLAGS] & LHN_HC_UPGRADE)) {
    log_record(l, 'u', NULL, 0);
    l->frozen = 1;
  }
}

/* Errors whose offset depends on where span callbacks are cut. */
static int offset_is_stable(int error) { return error != HPE_USER; }

static void log_error(log_t *l, char tag, const lhn_result *r, int with_offset) {
  buf_t b = {0};
  buf_u32(&b, (uint32_t)r->error);
  buf_put(&b, r->code, r->code_len);
  buf_put(&b, "|", 1);
  buf_put(&b, r->reason, strlen(r->reason));
  if (with_offset && offset_is_stable(r->error)) {
    uint64_t at = l->consumed + r->bytes_parsed;
    buf_put(&b, "@", 1);
    buf_put(&b, &at, sizeof at);
  }
  log_record(l, tag, b.d, b.n);
  buf_free(&b);
}

/* ---- one run ----------------------------------------------------------------- */

/* Another stream a handler parses meanwhile (nested mode): a keep-alive
 * request in pieces, on a workspace of its own. */
static const char NESTED_STREAM[] =
    "GET /nested/path HTTP/1.1\r\nHost: other\r\nX-Long-Value: 0123456789abcdefghij\r\n\r\n";

typedef struct {
  lhn_workspace ws;      /* the run's calls borrow it (depth 0) */
  lhn_workspace inner;   /* nested mode: the other parser's (depth 1) */
  lhn_parser p;
  lhn_parser other;
  size_t other_at;       /* how far the other stream got */
  hook_t hook;
  const cfg_t *c;
  text_t text;           /* the text of the run's last call */
  log_t log;
  uint32_t hc_seen;      /* headers-complete events delivered */
  uint32_t nonbody_seen; /* non-body events delivered */
  uint32_t body_seen;
  uint32_t fail_body_at; /* chaos: the n-th body event throws */
  uint64_t since_complete; /* bytes handed over since a message last completed */
  int stopped;           /* the stream ended for the caller: error, upgrade, throw */
  int threw;
  int compare;           /* the log is fragmentation independent */
  int nested;
  model_t model;         /* repeated heads, known names, the message under way */
} run_t;

static void run_init(run_t *r, const cfg_t *c, int use_hook) {
  memset(r, 0, sizeof *r);
  r->c = c;
  r->compare = 1;
  r->nested = c->nested;
  r->hook.fail_at = c->oom_at;
  lhn_memory mem = {resize_hook, &r->hook};
  lhn_workspace_init(&r->ws, use_hook ? grow_hook : NULL, &r->hook);
  lhn_workspace_init(&r->inner, NULL, NULL);
  lhn_parser_init(&r->p, use_hook ? &mem : NULL);
  lhn_parser_reset(&r->p, c->type, c->max_header, c->lenient);
  lhn_parser_set_handlers(&r->p, c->handlers);
  lhn_parser_init(&r->other, NULL);
}

static void run_destroy(run_t *r, int use_hook) {
  lhn_parser_destroy(&r->p);
  lhn_parser_destroy(&r->other);
  if (use_hook) {
    /* (the hook's blocks are its owner's) */
    free(r->ws.events);
    free(r->ws.pairs);
  }
  lhn_workspace_destroy(&r->ws);
  lhn_workspace_destroy(&r->inner);
  model_free(&r->model);
  buf_free(&r->text.bytes);
  buf_free(&r->log.out);
  buf_free(&r->log.body);
}

/* After every call of the run's parser: the text as the binding takes it,
 * the invariants, what the parser holds now. */
static void after_call(run_t *r, size_t input_len, const lhn_result *res, int finishing) {
  take_text(&r->text, &r->ws);
  check_events(&r->p, &r->ws, &r->text, input_len, res, finishing);
}

/* What the parser holds between calls (after the model saw the call). */
static void check_held(run_t *r) {
  size_t held = lhn_parser_held_bytes(&r->p);
  int in_message = r->model.msg.in_message;
  /* the core's message under way is the events' */
  ASSERT((lhn_parser_message_start_ns(&r->p) != 0) == in_message);
  if (!in_message) {
    /* (nothing, or the fields a message complete flushed, which the next
     * message's begin drops) */
    ASSERT(held == 0 || r->p.st.num_fields != 0);
    ASSERT(held <= r->since_complete + HELD_CONSTANT + 4096);
  } else {
    ASSERT(held <= r->since_complete + HELD_CONSTANT);
    if (held) g_held_checked++;
  }
}

/* Nested mode, from a headers-complete handler: the other parser goes on
 * with its stream in the other workspace; the run's call is untouched. */
static void nested_call(run_t *r, uint32_t upto, const char *data) {
  buf_t before = {0}, after = {0};
  for (uint32_t k = 0; k <= upto; k++) describe_event(&before, &r->ws, &r->text, k, data);
  size_t left = sizeof NESTED_STREAM - 1 - r->other_at;
  size_t n = left < 23 ? left : 23;
  lhn_result res;
  lhn_parser_execute(&r->other, &r->inner, NESTED_STREAM + r->other_at, n, &res);
  ASSERT(res.error == HPE_OK);
  r->other_at = r->other_at + n == sizeof NESTED_STREAM - 1 ? 0 : r->other_at + n;
  g_nested++;
  for (uint32_t k = 0; k <= upto; k++) describe_event(&after, &r->ws, &r->text, k, data);
  ASSERT(before.n == after.n && memcmp(before.d, after.d, before.n) == 0);
  buf_free(&before);
  buf_free(&after);
}

/* Rewinds at event i, checking that events 0..i come out the same. */
static void rewind_checked(run_t *r, const char *data, size_t len, uint32_t i, unsigned actions,
                           int answer, int fail_code, lhn_result *res) {
  lhn_workspace *ws = &r->ws;
  buf_t before = {0}, after = {0};
  int32_t serials[64];
  uint32_t keep = i + 1 < 64 ? i + 1 : 64;
  for (uint32_t k = 0; k <= i; k++) describe_event(&before, ws, &r->text, k, data);
  for (uint32_t k = 0; k < keep; k++) serials[k] = ev_at(ws, k)[LHN_EV_SERIAL];
  int32_t old_answer = ev_at(ws, i)[LHN_EV_ANSWER];
  ASSERT(lhn_parser_rewind(&r->p, ws, data, len, i, actions, answer, fail_code, res) == 0);
  after_call(r, len, res, 0);
  model_rewound(&r->model, &r->p, ws, &r->text, r->c);
  if (r->hook.failed) { /* out of memory while regenerating: no promise */
    buf_free(&before);
    buf_free(&after);
    return;
  }
  ASSERT(lhn_workspace_event_count(ws) > i);
  for (uint32_t k = 0; k <= i; k++) describe_event(&after, ws, &r->text, k, data);
  ASSERT(before.n == after.n && memcmp(before.d, after.d, before.n) == 0);
  for (uint32_t k = 0; k < keep; k++) ASSERT(ev_at(ws, k)[LHN_EV_SERIAL] == serials[k]);
  if (actions & LHN_REWIND_ANSWER) ASSERT(ev_at(ws, i)[LHN_EV_ANSWER] == answer);
  else ASSERT(ev_at(ws, i)[LHN_EV_ANSWER] == old_answer);
  if (actions & LHN_REWIND_FAIL) ASSERT(res->error != HPE_OK || r->p.st.llhttp.upgrade);
  buf_free(&before);
  buf_free(&after);
}

/* The bytes since a message last completed, for check_held(), from the
 * call's final event list. */
static void count_arrivals(run_t *r, size_t len) {
  uint32_t count = lhn_workspace_event_count(&r->ws);
  int completed = 0;
  for (uint32_t i = 0; i < count; i++) {
    if (ev_at(&r->ws, i)[LHN_EV_KIND] == LHN_EV_MESSAGE_COMPLETE) completed = 1;
  }
  r->since_complete = completed ? len : r->since_complete + len;
}

/* Executes one buffer as lib/replay.js does, logging what the handlers see. */
static void run_execute(run_t *r, const char *data, size_t len, uint32_t *rng) {
  lhn_parser *p = &r->p;
  lhn_workspace *ws = &r->ws;
  lhn_result res;
  const cfg_t *c = r->c;
  int was_error = p->st.llhttp.error != HPE_OK && p->st.llhttp.error != HPE_PAUSED &&
                  p->st.llhttp.error != HPE_PAUSED_UPGRADE;
  int was_error_code = p->st.llhttp.error;
  r->hook.failed = 0;
  model_buffer_begins(&r->model);
  lhn_parser_execute(p, ws, data, len, &res);
  note_state(&p->st.llhttp, (uint32_t)c->type);
  after_call(r, len, &res, 0);
  model_list(&r->model, p, ws, &r->text, c);
  if (was_error) {
    /* errors stick: nothing happens, the same error comes back */
    ASSERT(lhn_workspace_event_count(ws) == 0);
    ASSERT(res.error == was_error_code || p->st.llhttp.upgrade ||
           (res.error == HPE_USER && was_error_code == HPE_USER));
  }
  int paused_answer = 0;
  int threw = 0;
  for (uint32_t i = 0; i < lhn_workspace_event_count(ws); i++) {
    int kind = ev_at(ws, i)[LHN_EV_KIND];
    if (kind == LHN_EV_BODY) {
      r->body_seen++;
      log_event(&r->log, ws, &r->text, i, data);
      if (r->fail_body_at && r->body_seen == r->fail_body_at) {
        rewind_checked(r, data, len, i, LHN_REWIND_FAIL, 0, HPE_USER, &res);
        threw = 1;
        break;
      }
      continue;
    }
    r->nonbody_seen++;
    log_event(&r->log, ws, &r->text, i, data);
    if (c->fail_at && r->nonbody_seen == c->fail_at && handler_exists(c, kind) &&
        (kind != LHN_EV_HEADERS || c->fail_headers)) {
      rewind_checked(r, data, len, i, LHN_REWIND_FAIL, 0,
                     kind == LHN_EV_HEADERS ? HPE_USER : -1, &res);
      threw = 1;
      break;
    }
    if (kind == LHN_EV_HEADERS_COMPLETE && handler_exists(c, kind)) {
      if (r->nested) nested_call(r, i, data);
      r->hc_seen++;
      int answer = answer_for(c, r->hc_seen);
      if (answer != 0) {
        rewind_checked(r, data, len, i, LHN_REWIND_ANSWER, answer, 0, &res);
        if (answer == HPE_PAUSED) paused_answer = 1;
        if (r->hook.failed) {
          r->compare = 0;
          break;
        }
      }
    }
  }
  /* (counted on the list the call ends with: a rewind may take back a
   * message complete its first pass delivered) */
  count_arrivals(r, len);
  check_held(r);
  if (r->hook.failed) {
    /* out of memory: reported as such (unless an upgrade hides it or a
     * handler threw first), or not at all where the core can do without
     * (a repeat record: then there is none, which the model checks) */
    r->compare = 0;
    if (ws->oom && res.error != HPE_OK && !threw && !p->st.llhttp.upgrade) {
      ASSERT(res.code_len == 17 && memcmp(res.code, "HPE_OUT_OF_MEMORY", 17) == 0);
    }
  }
  if (threw) {
    r->threw = 1;
    log_record(&r->log, 'X', NULL, 0);
    r->stopped = 1;
    return;
  }
  if (paused_answer && res.error == HPE_PAUSED) {
    /* kOnHeadersComplete answered HPE_PAUSED: resume and go on with the rest */
    log_error(&r->log, 'P', &res, 1);
    size_t done = res.bytes_parsed;
    lhn_parser_resume(p);
    r->log.consumed += done;
    r->since_complete -= len - done; /* (those come again) */
    run_execute(r, done ? data + done : data, len - done, rng);
    return;
  }
  if (res.error != HPE_OK) {
    log_error(&r->log, 'E', &res, 1);
    r->stopped = 1;
    r->log.consumed += len;
    return;
  }
  if (p->st.llhttp.upgrade || res.upgraded) {
    /* the caller hands the rest of the stream to the upgrade */
    buf_t b = {0};
    uint64_t at = r->log.consumed + res.bytes_parsed;
    int err = p->st.llhttp.error;
    buf_u32(&b, (uint32_t)err);
    if (err == HPE_OK || offset_is_stable(err)) buf_put(&b, &at, sizeof at);
    log_record(&r->log, 'U', b.d, b.n);
    buf_free(&b);
    r->stopped = 1;
    r->log.consumed += len;
    return;
  }
  r->log.consumed += len;
}

static void run_finish(run_t *r) {
  lhn_parser *p = &r->p;
  lhn_workspace *ws = &r->ws;
  lhn_result res;
  r->hook.failed = 0;
  model_buffer_begins(&r->model);
  lhn_parser_finish(p, ws, &res);
  note_state(&p->st.llhttp, 3u + (uint32_t)r->c->type);
  after_call(r, 0, &res, 1);
  model_list(&r->model, p, ws, &r->text, r->c);
  count_arrivals(r, 0);
  check_held(r);
  ASSERT(res.bytes_parsed == 0);
  for (uint32_t i = 0; i < lhn_workspace_event_count(ws); i++) {
    int kind = ev_at(ws, i)[LHN_EV_KIND];
    ASSERT(kind != LHN_EV_HEADERS_COMPLETE && kind != LHN_EV_MESSAGE_BEGIN);
    log_event(&r->log, ws, &r->text, i, NULL);
  }
  if (r->hook.failed) r->compare = 0;
  if (res.error != HPE_OK) log_error(&r->log, 'F', &res, 0);
  else log_record(&r->log, 'f', NULL, 0);
}

/* Fragment sizes: a mix of empty, tiny and larger pieces. */
static size_t next_fragment(uint32_t *rng, size_t left, int small) {
  uint32_t x = rng_next(rng);
  size_t n;
  switch (x & 7) {
    case 0: n = 0; break;
    case 1: case 2: n = 1; break;
    case 3: n = 1 + ((x >> 3) & 3); break;
    case 4: n = 1 + ((x >> 3) & 15); break;
    case 5: n = small ? 2 : 1 + ((x >> 3) & 127); break;
    case 6: n = small ? 1 : 1 + ((x >> 3) % 1024); break;
    default: n = small ? 3 : left; break;
  }
  return n > left ? left : n;
}

/* Stream in fragments (run B), or whole (run A, fragmented == 0). */
static void run_stream(run_t *r, const char *data, size_t len, int fragmented) {
  const cfg_t *c = r->c;
  uint32_t rng = c->seed ? c->seed : 0x1234567u;
  int chaos = fragmented && (c->mode & MODE_CHAOS);
  if (chaos) {
    r->compare = 0;
    r->fail_body_at = (rng_next(&rng) & 3) == 0 ? 1 + (rng_next(&rng) & 7) : 0;
  }
  size_t off = 0;
  int first = 1;
  while (first || off < len) {
    first = 0;
    if (r->stopped && !chaos) break;
    size_t n = fragmented ? next_fragment(&rng, len - off, c->mode & MODE_SMALLFRAG) : len;
    /* copy each fragment to its own allocation: reads past it are caught */
    char *frag = malloc(n ? n : 1);
    memcpy(frag, data + off, n);
    /* the binding hands over NULL for an empty view with no ArrayBuffer data */
    char *pass = frag;
#ifndef FUZZ_NO_NULL_EMPTY
    if (n == 0 && (rng_next(&rng) & 1)) pass = NULL;
#endif
    if (fragmented && (c->mode & MODE_PAUSE) && (rng_next(&rng) & 3) == 0) {
      lhn_result res;
      int err_before = r->p.st.llhttp.error;
      r->hook.failed = 0;
      lhn_parser_pause(&r->p);
      model_buffer_begins(&r->model);
      lhn_parser_execute(&r->p, &r->ws, pass, n, &res);
      after_call(r, n, &res, 0);
      model_list(&r->model, &r->p, &r->ws, &r->text, c);
      check_held(r);
      ASSERT(lhn_workspace_event_count(&r->ws) == 0);
      if (err_before == HPE_OK) ASSERT(res.error == HPE_PAUSED || r->p.st.llhttp.upgrade || r->hook.failed);
      if (r->hook.failed) r->compare = 0;
      lhn_parser_resume(&r->p);
    }
    if (chaos) {
      uint32_t x = rng_next(&rng);
      if ((x & 31) == 0) {
        lhn_parser_reset(&r->p, (x >> 5) & 1 ? HTTP_RESPONSE : HTTP_REQUEST,
                         max_header_size((uint8_t)(x >> 8), len), (x >> 16) & 1023);
        model_reset(&r->model);
        r->since_complete = 0;
        ASSERT(lhn_parser_held_bytes(&r->p) == 0);
        r->stopped = 0;
      } else if ((x & 31) == 1) {
        run_finish(r);
      }
    }
    if (!r->stopped || chaos) run_execute(r, pass, n, &rng);
    free(frag);
    off += n;
    if (!fragmented) break;
  }
  if (c->mode & MODE_FINISH) run_finish(r);
  /* after an error, executing more changes nothing */
  if (r->stopped && !r->threw && r->p.st.llhttp.error != HPE_OK &&
      r->p.st.llhttp.error != HPE_PAUSED && !r->p.st.llhttp.upgrade) {
    lhn_result res;
    int err = r->p.st.llhttp.error;
    lhn_parser_execute(&r->p, &r->ws, data, len, &res);
    after_call(r, len, &res, 0);
    ASSERT(lhn_workspace_event_count(&r->ws) == 0 && (res.error == err || res.error == HPE_USER));
    ASSERT(lhn_parser_held_bytes(&r->p) == 0);
  }
  log_record(&r->log, '.', NULL, 0);
}

/* ---- comparing logs ------------------------------------------------------------- */

typedef struct {
  const uint8_t *rec[16384];
  uint32_t n;
  int truncated;
} recs_t;

static void split_records(const buf_t *b, recs_t *out) {
  out->n = 0;
  out->truncated = 0;
  size_t off = 0;
  while (off < b->n) {
    uint32_t len;
    memcpy(&len, b->d + off, 4);
    if (out->n == 16384) {
      out->truncated = 1;
      return;
    }
    out->rec[out->n++] = b->d + off;
    off += 4 + len;
  }
}

static uint32_t rec_len(const uint8_t *r) {
  uint32_t len;
  memcpy(&len, r, 4);
  return len;
}
static char rec_tag(const uint8_t *r) { return (char)r[4]; }

static int rec_is_user_error(const uint8_t *r) {
  uint32_t code;
  if (rec_tag(r) != 'E' || rec_len(r) < 5) return 0;
  memcpy(&code, r + 5, 4);
  return code == HPE_USER;
}

/* A HEADERS record of LHN_MAX_PENDING_FIELDS - 1 pairs: the flush a 32nd
 * field makes (record: tag, event kind, pair count, ...). */
static int rec_is_full_flush(const uint8_t *r) {
  uint32_t count;
  if (rec_len(r) < 9) return 0;
  memcpy(&count, r + 9, 4);
  return count == LHN_MAX_PENDING_FIELDS - 1;
}

/* The 32nd field's flush is emitted by the first piece of its name that
 * llhttp hands over. When llhttp rejects that name (a bad token, the header
 * limit), a stream cut inside it has the flush, right before its error or
 * before the throw of a handler at that flush, and the whole stream, which
 * rejects the name before handing any of it over, has not (the built-in does
 * the same). Whether record i of the cut run's log is such a flush. Only
 * that one: the flushes of earlier fields are in both logs, and one may come
 * right before the error too (a 32nd field's flush, then fields that make
 * no event up to a rejected 63rd). */
static int cut_name_flush_at(const recs_t *rs, uint32_t i) {
  return i + 1 < rs->n && rec_tag(rs->rec[i]) == '0' + LHN_EV_HEADERS && rec_is_full_flush(rs->rec[i]) &&
         (rec_tag(rs->rec[i + 1]) == 'E' || rec_tag(rs->rec[i + 1]) == 'X');
}

static void dump_record(const uint8_t *r) {
  uint32_t len = rec_len(r);
  fprintf(stderr, "  [%c] ", rec_tag(r));
  for (uint32_t k = 1; k < len && k < 200; k++) {
    uint8_t ch = r[4 + k];
    if (ch >= 32 && ch < 127) fputc(ch, stderr);
    else fprintf(stderr, "\\x%02x", ch);
  }
  fputc('\n', stderr);
}

static int same_record(const uint8_t *x, const uint8_t *y) {
  return rec_len(x) == rec_len(y) && memcmp(x, y, 4 + rec_len(x)) == 0;
}

/* Records a[ia..] and b[ib..] are the same, one for one. */
static int same_tails(const recs_t *a, uint32_t ia, const recs_t *b, uint32_t ib) {
  if (a->n - ia != b->n - ib) return 0;
  for (; ia < a->n; ia++, ib++) {
    if (!same_record(a->rec[ia], b->rec[ib])) return 0;
  }
  return 1;
}

static void compare_logs(const buf_t *a, const buf_t *b) {
  static recs_t ra, rb;
  split_records(a, &ra);
  split_records(b, &rb);
  if (ra.truncated || rb.truncated) return;
  uint32_t n = ra.n < rb.n ? ra.n : rb.n;
  uint32_t i = 0;
  while (i < n && same_record(ra.rec[i], rb.rec[i])) i++;
  if (i == n && ra.n == rb.n) return;
  if (i < ra.n && rec_tag(ra.rec[i]) == 'E') {
    /* the cut run's record facing the whole run's error, past the flush of
     * a cut name that the whole run rejects */
    uint32_t j = cut_name_flush_at(&rb, i) ? i + 1 : i;
    /* A handler throwing at that flush: both runs stop there; what follows
     * (the end record) must match. */
    if (j > i && rec_tag(rb.rec[j]) == 'X' && same_tails(&ra, i + 1, &rb, j + 1)) return;
    /* The same error, or the header limit: it counts span pieces as llhttp
     * hands them over, so a cut stream can overflow inside a span that the
     * whole stream rejects for another reason before handing it over (the
     * built-in does the same). */
    if (j < rb.n && (same_record(ra.rec[i], rb.rec[j]) || rec_is_user_error(rb.rec[j])) &&
        same_tails(&ra, i + 1, &rb, j + 1))
      return;
  }
  fprintf(stderr, "fuzz_parser: whole and fragmented runs differ at record %u\n", i);
  fprintf(stderr, " whole:\n");
  for (uint32_t k = i > 3 ? i - 3 : 0; k < ra.n && k < i + 3; k++) dump_record(ra.rec[k]);
  fprintf(stderr, " fragmented:\n");
  for (uint32_t k = i > 3 ? i - 3 : 0; k < rb.n && k < i + 3; k++) dump_record(rb.rec[k]);
  abort();
}

/* ---- entry point ---------------------------------------------------------------- */

int LLVMFuzzerTestOneInput(const uint8_t *in, size_t size) {
  static int registered;
  if (!registered) {
    registered = 1;
    atexit(print_stats);
  }
  if (size < HEADER_BYTES) return 0;
  cfg_t c;
  memset(&c, 0, sizeof c);
  c.mode = in[0];
  c.type = (c.mode & MODE_RESPONSE) ? HTTP_RESPONSE : HTTP_REQUEST;
  c.lenient = ((unsigned)in[1] | ((unsigned)in[2] << 8)) & 1023;
  c.handlers = (in[2] & 0x10) ? (in[2] >> 2) & 3u : 3u;
  const char *data = (const char *)in + HEADER_BYTES;
  size_t len = size - HEADER_BYTES;
  c.max_header = max_header_size(in[3], len);
  c.answers = (uint32_t)in[4] | ((uint32_t)in[5] << 8) | ((uint32_t)in[6] << 16) |
              ((uint32_t)in[7] << 24);
  c.fail_at = in[8] & 0x3f;
  c.fail_headers = c.max_header > len; /* no overflow can cut a name */
  c.seed = (uint32_t)in[9] | ((uint32_t)(in[10] & 0x7f) << 8) | 0x10000u;
  c.nested = (in[10] & 0x80) != 0;
  int use_hook = (c.mode & (MODE_HOOK | MODE_OOM)) != 0;
  if (c.mode & MODE_OOM) c.oom_at = 1 + (uint32_t)(in[8] >> 6) * 4 + (in[9] & 15);

  static run_t a, b;
  int compare = !(c.mode & (MODE_NOCMP | MODE_OOM | MODE_CHAOS));
  if (compare) {
    g_what = "whole";
    run_init(&a, &c, use_hook);
    run_stream(&a, data, len, 0);
  }
  g_what = "fragmented";
  run_init(&b, &c, use_hook);
  run_stream(&b, data, len, 1);
  if (compare && a.compare && b.compare) compare_logs(&a.log.out, &b.log.out);
  if (compare) run_destroy(&a, use_hook);
  run_destroy(&b, use_hook);
  return 0;
}
