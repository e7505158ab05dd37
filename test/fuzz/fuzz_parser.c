/*
 * libFuzzer harness for the C core (src/core/lhn_parser.{h,c}).
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
 *   [9..10] seed of the PRNG that picks fragment sizes and chaos actions
 *   [11..] the bytes of the HTTP stream
 *
 * Each input runs the stream through a fresh parser twice, the way
 * lib/parser.js drives the core (execute, walk the events, rewind with
 * LHN_REWIND_ANSWER at kOnHeadersComplete when the policy answers non-zero,
 * LHN_REWIND_FAIL where a handler throws, finish at the end):
 *   run A: the whole stream in one execute;
 *   run B: the stream cut into random fragments (empty ones included), with
 *          pause()/resume() between fragments in MODE_PAUSE.
 * Both runs check the core's invariants after every execute/rewind/finish:
 * bytes_parsed <= len; a clean result consumed everything unless the parser
 * upgraded; every event has a valid kind and serials never decrease; body
 * slices lie inside the input; pair, URL and status ranges are ordered and
 * inside slab_len; pair tables inside pair_count; values are trimmed; events
 * up to a rewound index come out identical (text included); errors stick;
 * the copy of the slab the caller last took (lhn_parser_take_slab()) holds
 * the bytes the call's events and the current message's delivered pairs
 * refer to (see "the caller's copy of the slab"). A model walks every event
 * list a call leaves and checks LHN_HC_REPEATS claims (same URL or status
 * text and pairs as the message numbered one less, as delivered) and the
 * known-name tag of every pair (see "repeated heads and known names").
 * Then the two runs' logical event logs (strings resolved, bodies merged,
 * error codes and absolute error offsets) must be identical: the outcome
 * must not depend on how the stream was fragmented.
 *
 * MODE_CHAOS adds re-initialisation and finish() between fragments and
 * failures at body events; MODE_OOM makes the memory hook fail once. Both
 * only check invariants (no A/B comparison).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lhn_parser.h" /* src/core, or the tree given to scripts/dev/fuzz.js --rev */

#define MODE_RESPONSE 0x01 /* parser type */
#define MODE_FINISH 0x02   /* finish() after the last fragment */
#define MODE_HOOK 0x04     /* buffers through a memory hook (moves blocks) */
#define MODE_PAUSE 0x08    /* pause()/resume() between fragments */
#define MODE_SMALLFRAG 0x10/* mostly tiny fragments */
#define MODE_CHAOS 0x20    /* resets, mid-stream finish, body failures */
#define MODE_OOM 0x40      /* the memory hook fails once */
#define MODE_NOCMP 0x80    /* skip run A (faster, invariants only) */

#define HEADER_BYTES 11

/* Cores from before LHN_HC_REPEATS (scripts/dev/fuzz.js --rev of an older
 * revision): the same slots under their names, the accessors over the
 * struct, and no repeat / known-name model (their pair tags meant something
 * else). */
#ifdef LHN_REPEAT_MAX_PAIRS
#define HAVE_REPEATS 1
#define HC_REPEATS LHN_HC_REPEATS
#ifdef LHN_RECORD_EVERY
#define HC_HINTS (LHN_HC_REPEATS | LHN_HC_RECORDED) /* what the core compared with */
#else
#define HC_HINTS LHN_HC_REPEATS
#endif
#else
#define HAVE_REPEATS 0
#define HC_REPEATS (4 | 8) /* URL_SAME | PAIRS_SAME: reuse hints, as REPEATS */
#define HC_HINTS HC_REPEATS
#define LHN_REPEAT_MAX_PAIRS 0
enum {
  LHN_EV_KIND = 0, LHN_EV_SERIAL = 1, LHN_EV_FIRST_PAIR = 2, LHN_EV_PAIR_COUNT = 3,
  LHN_EV_TEXT_START = 4, LHN_EV_TEXT_END = 5, LHN_EV_FLAGS = 6, LHN_EV_STATUS = 7,
  LHN_EV_METHOD = 8, LHN_EV_HTTP_MAJOR = 9, LHN_EV_HTTP_MINOR = 10, LHN_EV_ANSWER = 11,
  LHN_EV_MESSAGE_NUMBER = 12, LHN_EV_BODY_START = 2, LHN_EV_BODY_LENGTH = 3
};
enum {
  LHN_PAIR_NAME_START = 0, LHN_PAIR_NAME_END = 1, LHN_PAIR_VALUE_START = 2,
  LHN_PAIR_VALUE_END = 3, LHN_PAIR_KNOWN_NAME = 4
};
static uint32_t lhn_parser_event_count(const lhn_parser *p) { return p->event_count; }
static const uint8_t *lhn_parser_take_slab(lhn_parser *p, size_t *len) {
  *len = p->st.slab_len; /* always taken: claims nothing */
  return p->slab;
}
static void lhn_parser_compaction(const lhn_parser *p, uint32_t *pairs, uint32_t *bytes) {
  *pairs = p->compacted_pairs;
  *bytes = p->compacted_bytes;
}
#endif

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

/* ---- memory hook ------------------------------------------------------------- */

typedef struct {
  uint32_t calls;
  uint32_t fail_at; /* 1-based call that fails; 0 = never */
  int failed;       /* a call failed since this was last cleared */
} hook_t;

/* Gives a new block every time and frees the old one at once, so that any
 * pointer kept into a moved buffer is a use-after-free ASan reports. The
 * new tail is filled with junk. */
static void *grow_hook(void *ctx, enum lhn_buffer_id id, void *old, size_t old_size,
                       size_t new_size) {
  hook_t *h = ctx;
  (void)id;
  h->calls++;
  if (h->fail_at != 0 && h->calls == h->fail_at) {
    h->failed = 1;
    return NULL;
  }
  uint8_t *block = malloc(new_size ? new_size : 1);
  if (!block) return NULL;
  ASSERT(old_size <= new_size);
  ASSERT(old_size == 0 || old != NULL);
  if (old_size) memcpy(block, old, old_size);
  memset(block + old_size, 0xA5, new_size - old_size);
  free(old);
  return block;
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

static const int32_t *ev_at(const lhn_parser *p, uint32_t i) {
  return p->events + (size_t)i * LHN_EVENT_SLOTS;
}

static const int32_t *pair_at(const lhn_parser *p, int32_t i) {
  return p->pairs + (size_t)i * LHN_PAIR_SLOTS;
}

static void check_range(const lhn_parser *p, int32_t start, int32_t end) {
  ASSERT(start >= 0);
  ASSERT(start <= end);
  ASSERT((uint32_t)end <= p->st.slab_len);
}

static void check_pairs(const lhn_parser *p, int32_t first, int32_t count) {
  ASSERT(first >= 0);
  ASSERT(count >= 0);
  ASSERT((uint64_t)first + (uint64_t)count <= p->st.pair_count);
  int32_t prev_end = -1;
  for (int32_t i = first; i < first + count; i++) {
    const int32_t *pr = pair_at(p, i);
    int32_t ns = pr[LHN_PAIR_NAME_START], ne = pr[LHN_PAIR_NAME_END];
    int32_t vs = pr[LHN_PAIR_VALUE_START], ve = pr[LHN_PAIR_VALUE_END];
    check_range(p, ns, ne);
    check_range(p, vs, ve);
    if (ve > vs) {
      ASSERT(ne <= vs); /* the value follows its name */
      uint8_t last = p->slab[ve - 1];
      ASSERT(last != ' ' && last != '\t'); /* trimmed */
    }
    ASSERT(ns >= prev_end); /* pairs in stream order */
    prev_end = ve > vs ? ve : ne;
  }
}

static void check_state(const lhn_parser *p) {
  const lhn_state *st = &p->st;
  ASSERT(st->slab_len <= p->slab_cap);
  ASSERT(st->pair_count <= p->pair_cap);
  ASSERT(lhn_parser_event_count(p) == p->event_count);
  ASSERT(p->event_count <= p->event_cap);
  ASSERT(st->pair_base <= st->pair_count);
  ASSERT(st->msg_pair_first <= st->pair_count);
  ASSERT(st->msg_slab_start <= st->slab_len);
  ASSERT(st->url_start <= st->url_end && st->url_end <= st->slab_len);
  ASSERT(st->status_start <= st->status_end && st->status_end <= st->slab_len);
  ASSERT(st->num_values <= st->num_fields);
  ASSERT(st->num_fields < LHN_MAX_PENDING_FIELDS);
#if HAVE_REPEATS
  ASSERT(lhn_parser_headers_completed(p) == st->headers_completed);
  ASSERT(lhn_parser_message_start_ns(p) == st->message_start_ns);
  /* 0 between messages (the harness never calls lhn_parser_set_message_start()) */
  ASSERT((lhn_parser_message_start_ns(p) != 0) == (st->in_message != 0));
  lhn_stats stats;
  lhn_parser_stats(p, &stats);
  ASSERT(stats.slab_capacity == p->slab_cap);
  ASSERT(stats.slab_growths <= stats.allocations);
#endif
}

/* Checks every event of the list and the result of one call. */
static void check_events(const lhn_parser *p, const cfg_t *c, size_t input_len,
                         const lhn_result *r, int finishing) {
  (void)c; /* the parser's own type is checked: chaos resets change it */
  check_state(p);
  uint32_t count = lhn_parser_event_count(p);
  ASSERT(r->bytes_parsed <= input_len);
  if (r->error == HPE_OK) {
    ASSERT(r->code == NULL && r->reason == NULL);
    /* a clean execute consumes everything, unless it stopped for an upgrade
     * (which also hides errors while the upgrade flag is set) */
    if (!finishing && !p->st.llhttp.upgrade && r->bytes_parsed != input_len) {
      ASSERT(r->upgraded);
      ASSERT(count > 0 && ev_at(p, count - 1)[LHN_EV_KIND] == LHN_EV_MESSAGE_COMPLETE);
    }
  } else {
    ASSERT(r->code != NULL && r->code_len > 0 && r->reason != NULL);
    ASSERT(memchr(r->code, ':', r->code_len) == NULL);
    ASSERT(r->error != HPE_PAUSED_UPGRADE);
  }
  int32_t prev_serial = 0;
  for (uint32_t i = 0; i < count; i++) {
    const int32_t *ev = ev_at(p, i);
    ASSERT(ev[LHN_EV_SERIAL] >= prev_serial);
    ASSERT((uint32_t)ev[LHN_EV_SERIAL] <= p->st.serial);
    prev_serial = ev[LHN_EV_SERIAL];
    switch (ev[LHN_EV_KIND]) {
      case LHN_EV_MESSAGE_BEGIN:
      case LHN_EV_MESSAGE_COMPLETE:
        break;
      case LHN_EV_HEADERS:
        /* may be empty: with have_flushed every headers complete flushes */
        check_pairs(p, ev[LHN_EV_FIRST_PAIR], ev[LHN_EV_PAIR_COUNT]);
        ASSERT(ev[LHN_EV_PAIR_COUNT] < LHN_MAX_PENDING_FIELDS);
        check_range(p, ev[LHN_EV_TEXT_START], ev[LHN_EV_TEXT_END]);
        /* the parser's own type: a chaos reset may have changed it */
        if (p->st.llhttp.type == HTTP_RESPONSE) {
          ASSERT(ev[LHN_EV_TEXT_START] == ev[LHN_EV_TEXT_END]);
        }
        break;
      case LHN_EV_HEADERS_COMPLETE:
        if (ev[LHN_EV_PAIR_COUNT] != -1) {
          check_pairs(p, ev[LHN_EV_FIRST_PAIR], ev[LHN_EV_PAIR_COUNT]);
        } else {
          ASSERT(!HAVE_REPEATS || (ev[LHN_EV_FLAGS] & HC_HINTS) == 0);
        }
        ASSERT(ev[LHN_EV_PAIR_COUNT] < LHN_MAX_PENDING_FIELDS);
        check_range(p, ev[LHN_EV_TEXT_START], ev[LHN_EV_TEXT_END]);
        ASSERT((ev[LHN_EV_FLAGS] & ~(LHN_HC_UPGRADE | LHN_HC_KEEP_ALIVE | HC_HINTS)) == 0);
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
 * 0 or the right tag: the core does not tag them, but a pair may keep the
 * tag it got before a rewind (a pair of an earlier buffer), or get one from
 * the trailers' flush when kOnHeadersComplete is missing (its pairs stay
 * pending and leave with the trailers). A caller that cannot reuse the
 * previous strings (lib/header-strings.js when it kept none) makes them of
 * these pairs, tags included: a wrong tag would name a header wrongly. */

typedef struct {
  int after_hc;      /* the current message's headers completed: flushes are trailers */
  int flushed_early; /* a flush handed part of the current message's head to kOnHeaders */
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
static uint64_t g_repeats_checked, g_repeats_possible, g_known_tags, g_copy_kept;

#if HAVE_REPEATS
static int32_t known_index(const uint8_t *name, size_t len) {
  size_t n_known;
  const char *const *names = lhn_known_names(&n_known);
  for (size_t k = 0; k < n_known; k++) {
    if (strlen(names[k]) == len && memcmp(names[k], name, len) == 0) return (int32_t)k + 1;
  }
  return 0;
}

/* Pairs [first, first + count) with their known-name tags. repeats: the pairs
 * of a LHN_HC_REPEATS event; held: its pairs may be tagged by a later flush. */
static void check_known_tags(const lhn_parser *p, int32_t first, int32_t count, int repeats,
                             int held) {
  size_t n_known;
  lhn_known_names(&n_known);
  ASSERT(n_known <= 255);
  (void)held;
  for (int32_t i = first; i < first + count; i++) {
    const int32_t *pr = pair_at(p, i);
    int32_t tag = pr[LHN_PAIR_KNOWN_NAME];
    int32_t want = known_index(p->slab + pr[LHN_PAIR_NAME_START],
                               (size_t)(pr[LHN_PAIR_NAME_END] - pr[LHN_PAIR_NAME_START]));
    if (!repeats) ASSERT(tag == want);
#ifdef FUZZ_STRICT_REPEAT_TAGS
    else if (!held) ASSERT(tag == 0); /* as lhn_parser.h words it; see known/README.md */
#endif
    else ASSERT(tag == 0 || tag == want);
    if (tag) g_known_tags++;
  }
}
#endif

static void put_bytes(buf_t *b, const lhn_parser *p, int32_t start, int32_t end) {
  buf_u32(b, (uint32_t)(end - start));
  buf_put(b, p->slab + start, (size_t)(end - start));
}

static void model_event(model_t *mo, const lhn_parser *p, const cfg_t *c, const int32_t *ev) {
#if HAVE_REPEATS
  int held = (c->handlers & LHN_HAS_ON_HEADERS_COMPLETE) == 0;
  switch (ev[LHN_EV_KIND]) {
    case LHN_EV_MESSAGE_BEGIN:
      mo->msg.after_hc = 0;
      mo->msg.flushed_early = 0;
      break;
    case LHN_EV_HEADERS:
      check_known_tags(p, ev[LHN_EV_FIRST_PAIR], ev[LHN_EV_PAIR_COUNT], 0, 0);
      /* without kOnHeaders a flush hands nothing over (the pairs are dropped
       * and the head that comes with headers complete is all there is) */
      if (!mo->msg.after_hc && (c->handlers & LHN_HAS_ON_HEADERS)) mo->msg.flushed_early = 1;
      break;
    case LHN_EV_HEADERS_COMPLETE: {
      int32_t number = ev[LHN_EV_MESSAGE_NUMBER];
      int32_t count = ev[LHN_EV_PAIR_COUNT];
      int repeats = (ev[LHN_EV_FLAGS] & HC_REPEATS) != 0;
      ASSERT(number > mo->last_number); /* numbers only grow */
      buf_t *h = &mo->head;
      h->n = 0;
      put_bytes(h, p, ev[LHN_EV_TEXT_START], ev[LHN_EV_TEXT_END]);
      if (count != -1) {
        buf_u32(h, (uint32_t)count);
        for (int32_t i = ev[LHN_EV_FIRST_PAIR]; i < ev[LHN_EV_FIRST_PAIR] + count; i++) {
          const int32_t *pr = pair_at(p, i);
          put_bytes(h, p, pr[LHN_PAIR_NAME_START], pr[LHN_PAIR_NAME_END]);
          put_bytes(h, p, pr[LHN_PAIR_VALUE_START], pr[LHN_PAIR_VALUE_END]);
        }
        check_known_tags(p, ev[LHN_EV_FIRST_PAIR], count, repeats, held);
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
#else
  (void)mo; (void)p; (void)c; (void)ev;
#endif
}

/* Walks the event list a call left. */
static void model_list(model_t *mo, const lhn_parser *p, const cfg_t *c) {
  uint32_t count = lhn_parser_event_count(p);
  for (uint32_t i = 0; i < count; i++) model_event(mo, p, c, ev_at(p, i));
}

/* Before an execute: the state a rewind of this buffer goes back to. */
static void model_buffer_begins(model_t *mo) { mo->at_buffer_start = mo->msg; }

/* After a rewind: the list is regenerated from the buffer's start. */
static void model_rewound(model_t *mo, const lhn_parser *p, const cfg_t *c) {
  mo->msg = mo->at_buffer_start;
  model_list(mo, p, c);
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
          "known-name tags checked, %llu calls kept the slab copy with spans to check\n",
          (unsigned long long)g_repeats_checked, (unsigned long long)g_repeats_possible,
          (unsigned long long)g_known_tags, (unsigned long long)g_copy_kept);
}

/* ---- the caller's copy of the slab ---------------------------------------------
 * The binding takes the slab after every execute, rewind and finish
 * (lhn_parser_take_slab()) and cuts strings from its copy. When the core
 * says the last copy will do (NULL), that copy must hold every byte that the
 * events of the call and the pairs and texts already delivered for the
 * current message refer to, as they are in the slab now. The harness keeps
 * the copy and those delivered spans (shifted by lhn_parser_compaction(),
 * restored for a rewind as the model is) and checks them after every call. */

typedef struct {
  uint32_t start, end;
} span_t;

typedef struct {
  span_t *d;
  size_t n, cap;
} spans_t;

typedef struct {
  buf_t copy;     /* the slab as last taken */
  int taken;      /* taken at least once */
  spans_t spans;  /* delivered for the current message */
  spans_t at_buffer_start;
} slab_copy_t;

enum call_kind { CALL_EXECUTE, CALL_REWIND, CALL_FINISH };

static void spans_add(spans_t *s, int32_t start, int32_t end) {
  if (s->n == s->cap) {
    s->cap = s->cap ? s->cap * 2 : 64;
    s->d = realloc(s->d, s->cap * sizeof *s->d);
    if (!s->d) abort();
  }
  s->d[s->n].start = (uint32_t)start;
  s->d[s->n].end = (uint32_t)end;
  s->n++;
}

static void spans_copy(spans_t *to, const spans_t *from) {
  to->n = 0;
  for (size_t i = 0; i < from->n; i++) {
    spans_add(to, (int32_t)from->d[i].start, (int32_t)from->d[i].end);
  }
}

static void spans_free(spans_t *s) {
  free(s->d);
  memset(s, 0, sizeof *s);
}

static void copy_holds(const slab_copy_t *sc, const lhn_parser *p, uint32_t start, uint32_t end) {
  if (start == end) return;
  ASSERT(sc->taken && end <= sc->copy.n && end <= p->st.slab_len);
  ASSERT(memcmp(sc->copy.d + start, p->slab + start, end - start) == 0);
}

/* The spans of a HEADERS or HEADERS_COMPLETE event: text, then each pair. */
static void event_spans(spans_t *out, const lhn_parser *p, const int32_t *ev) {
  int kind = ev[LHN_EV_KIND];
  if (kind != LHN_EV_HEADERS && kind != LHN_EV_HEADERS_COMPLETE) return;
  spans_add(out, ev[LHN_EV_TEXT_START], ev[LHN_EV_TEXT_END]);
  for (int32_t i = 0; i < ev[LHN_EV_PAIR_COUNT]; i++) {
    const int32_t *pr = pair_at(p, ev[LHN_EV_FIRST_PAIR] + i);
    spans_add(out, pr[LHN_PAIR_NAME_START], pr[LHN_PAIR_NAME_END]);
    spans_add(out, pr[LHN_PAIR_VALUE_START], pr[LHN_PAIR_VALUE_END]);
  }
}

/* After a call: takes the slab as the binding does and checks the copy. */
static void slab_after_call(slab_copy_t *sc, lhn_parser *p, enum call_kind kind) {
  if (kind == CALL_EXECUTE) {
    /* the message under way moved down: so did what was delivered of it */
    uint32_t pairs, bytes;
    lhn_parser_compaction(p, &pairs, &bytes);
    for (size_t i = 0; i < sc->spans.n; i++) {
      ASSERT(sc->spans.d[i].start >= bytes);
      sc->spans.d[i].start -= bytes;
      sc->spans.d[i].end -= bytes;
    }
    spans_copy(&sc->at_buffer_start, &sc->spans);
  } else if (kind == CALL_REWIND) {
    spans_copy(&sc->spans, &sc->at_buffer_start);
  }
  size_t len = 0;
  const uint8_t *slab = lhn_parser_take_slab(p, &len);
  if (slab) {
    ASSERT(slab == p->slab && len == p->st.slab_len);
    sc->copy.n = 0;
    buf_put(&sc->copy, slab, len);
    sc->taken = 1;
  }
  uint32_t count = lhn_parser_event_count(p);
  spans_t now = {0};
  for (uint32_t i = 0; i < count; i++) {
    const int32_t *ev = ev_at(p, i);
    if (ev[LHN_EV_KIND] == LHN_EV_MESSAGE_BEGIN) sc->spans.n = 0; /* a new current message */
    event_spans(&now, p, ev);
    event_spans(&sc->spans, p, ev);
  }
  if (!slab && (now.n || sc->spans.n)) g_copy_kept++;
  for (size_t i = 0; i < now.n; i++) copy_holds(sc, p, now.d[i].start, now.d[i].end);
  for (size_t i = 0; i < sc->spans.n; i++) {
    copy_holds(sc, p, sc->spans.d[i].start, sc->spans.d[i].end);
  }
  spans_free(&now);
}

/* After lhn_parser_reset(): no current message. */
static void slab_reset(slab_copy_t *sc) {
  sc->spans.n = 0;
  sc->at_buffer_start.n = 0;
}

static void slab_free(slab_copy_t *sc) {
  buf_free(&sc->copy);
  spans_free(&sc->spans);
  spans_free(&sc->at_buffer_start);
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

static void put_pairs(buf_t *b, const lhn_parser *p, int32_t first, int32_t count) {
  buf_u32(b, (uint32_t)count);
  for (int32_t i = first; i < first + count; i++) {
    const int32_t *pr = pair_at(p, i);
    put_bytes(b, p, pr[LHN_PAIR_NAME_START], pr[LHN_PAIR_NAME_END]);
    put_bytes(b, p, pr[LHN_PAIR_VALUE_START], pr[LHN_PAIR_VALUE_END]);
  }
}

/* What the handlers of event i see (answer and message number excluded,
 * and LHN_HC_REPEATS: a hint that depends on what the core compared with,
 * which a rewind or another cut of the stream changes). */
static void describe_event(buf_t *b, const lhn_parser *p, uint32_t i, const char *input) {
  const int32_t *ev = ev_at(p, i);
  buf_u32(b, (uint32_t)ev[LHN_EV_KIND]);
  switch (ev[LHN_EV_KIND]) {
    case LHN_EV_HEADERS:
      put_pairs(b, p, ev[LHN_EV_FIRST_PAIR], ev[LHN_EV_PAIR_COUNT]);
      put_bytes(b, p, ev[LHN_EV_TEXT_START], ev[LHN_EV_TEXT_END]);
      break;
    case LHN_EV_HEADERS_COMPLETE:
      if (ev[LHN_EV_PAIR_COUNT] == -1) buf_u32(b, UINT32_MAX);
      else put_pairs(b, p, ev[LHN_EV_FIRST_PAIR], ev[LHN_EV_PAIR_COUNT]);
      put_bytes(b, p, ev[LHN_EV_TEXT_START], ev[LHN_EV_TEXT_END]);
      {
        int32_t slots[5] = {ev[LHN_EV_FLAGS] & ~HC_HINTS, ev[LHN_EV_STATUS], ev[LHN_EV_METHOD],
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

static void log_event(log_t *l, const lhn_parser *p, uint32_t i, const char *input) {
  const int32_t *ev = ev_at(p, i);
  if (ev[LHN_EV_KIND] == LHN_EV_BODY) {
    buf_put(&l->body, input + ev[LHN_EV_BODY_START], (size_t)ev[LHN_EV_BODY_LENGTH]);
    return;
  }
  buf_t b = {0};
  describe_event(&b, p, i, input);
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

typedef struct {
  lhn_parser p;
  hook_t hook;
  const cfg_t *c;
  log_t log;
  uint32_t hc_seen;      /* headers-complete events delivered */
  uint32_t nonbody_seen; /* non-body events delivered */
  uint32_t body_seen;
  uint32_t fail_body_at; /* chaos: the n-th body event throws */
  int stopped;           /* the stream ended for the caller: error, upgrade, throw */
  int threw;
  int compare;           /* the log is fragmentation independent */
  int dead;              /* lhn_parser_prepare() failed */
  model_t model;         /* repeated heads, known names */
  slab_copy_t slab;      /* the caller's copy of the slab */
} run_t;

static void run_init(run_t *r, const cfg_t *c, int use_hook) {
  memset(r, 0, sizeof *r);
  r->c = c;
  r->compare = 1;
  if (use_hook) {
    r->hook.fail_at = c->oom_at;
    lhn_parser_init(&r->p, grow_hook, &r->hook);
  } else {
    lhn_parser_init(&r->p, NULL, NULL);
  }
  if (lhn_parser_prepare(&r->p) != 0) {
    /* the binding throws from its constructor then: the parser is never used */
    ASSERT(r->hook.failed);
    r->dead = 1;
    r->compare = 0;
  }
  lhn_parser_reset(&r->p, c->type, c->max_header, c->lenient);
#ifdef LHN_HAS_ALL
  lhn_parser_set_handlers(&r->p, c->handlers);
#endif
}

static void run_destroy(run_t *r, int use_hook) {
  if (use_hook) {
    free(r->p.slab);
    free(r->p.pairs);
    free(r->p.events);
  }
  lhn_parser_destroy(&r->p);
  model_free(&r->model);
  slab_free(&r->slab);
  buf_free(&r->log.out);
  buf_free(&r->log.body);
}

/* Rewinds at event i, checking that events 0..i come out the same. */
static void rewind_checked(run_t *r, const char *data, size_t len, uint32_t i, unsigned actions,
                           int answer, int fail_code, lhn_result *res) {
  lhn_parser *p = &r->p;
  buf_t before = {0}, after = {0};
  int32_t serials[64];
  uint32_t keep = i + 1 < 64 ? i + 1 : 64;
  for (uint32_t k = 0; k <= i; k++) describe_event(&before, p, k, data);
  for (uint32_t k = 0; k < keep; k++) serials[k] = ev_at(p, k)[LHN_EV_SERIAL];
  int32_t old_answer = ev_at(p, i)[LHN_EV_ANSWER];
  uint32_t old_calls = r->hook.calls;
  ASSERT(lhn_parser_rewind(p, data, len, i, actions, answer, fail_code, res) == 0);
  check_events(p, r->c, len, res, 0);
  slab_after_call(&r->slab, p, CALL_REWIND);
  model_rewound(&r->model, p, r->c);
  (void)old_calls;
  if (r->hook.failed) { /* out of memory while regenerating: no promise */
    buf_free(&before);
    buf_free(&after);
    return;
  }
  ASSERT(lhn_parser_event_count(p) > i);
  for (uint32_t k = 0; k <= i; k++) describe_event(&after, p, k, data);
  ASSERT(before.n == after.n && memcmp(before.d, after.d, before.n) == 0);
  for (uint32_t k = 0; k < keep; k++) ASSERT(ev_at(p, k)[LHN_EV_SERIAL] == serials[k]);
  if (actions & LHN_REWIND_ANSWER) ASSERT(ev_at(p, i)[LHN_EV_ANSWER] == answer);
  else ASSERT(ev_at(p, i)[LHN_EV_ANSWER] == old_answer);
  if (actions & LHN_REWIND_FAIL) ASSERT(res->error != HPE_OK || p->st.llhttp.upgrade);
  buf_free(&before);
  buf_free(&after);
}

/* Executes one buffer as lib/parser.js does, logging what the handlers see. */
static void run_execute(run_t *r, const char *data, size_t len, uint32_t *rng) {
  lhn_parser *p = &r->p;
  lhn_result res;
  const cfg_t *c = r->c;
  int was_error = p->st.llhttp.error != HPE_OK && p->st.llhttp.error != HPE_PAUSED &&
                  p->st.llhttp.error != HPE_PAUSED_UPGRADE;
  int was_error_code = p->st.llhttp.error;
  r->hook.failed = 0;
  model_buffer_begins(&r->model);
  lhn_parser_execute(p, data, len, &res);
  note_state(&p->st.llhttp, (uint32_t)c->type);
  check_events(p, c, len, &res, 0);
  slab_after_call(&r->slab, p, CALL_EXECUTE);
  model_list(&r->model, p, c);
  if (was_error) {
    /* errors stick: nothing happens, the same error comes back */
    ASSERT(lhn_parser_event_count(p) == 0);
    ASSERT(res.error == was_error_code || p->st.llhttp.upgrade);
  }
  int paused_answer = 0;
  int threw = 0;
  for (uint32_t i = 0; i < lhn_parser_event_count(p); i++) {
    int kind = ev_at(p, i)[LHN_EV_KIND];
    if (kind == LHN_EV_BODY) {
      r->body_seen++;
      log_event(&r->log, p, i, data);
      if (r->fail_body_at && r->body_seen == r->fail_body_at) {
        rewind_checked(r, data, len, i, LHN_REWIND_FAIL, 0, HPE_USER, &res);
        threw = 1;
        break;
      }
      continue;
    }
    r->nonbody_seen++;
    log_event(&r->log, p, i, data);
    if (c->fail_at && r->nonbody_seen == c->fail_at && handler_exists(c, kind) &&
        (kind != LHN_EV_HEADERS || c->fail_headers)) {
      rewind_checked(r, data, len, i, LHN_REWIND_FAIL, 0,
                     kind == LHN_EV_HEADERS ? HPE_USER : -1, &res);
      threw = 1;
      break;
    }
    if (kind == LHN_EV_HEADERS_COMPLETE && handler_exists(c, kind)) {
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
  if (r->hook.failed) {
    /* out of memory: reported as an error, unless an upgrade hides it */
    r->compare = 0;
    ASSERT(res.error != HPE_OK || p->st.llhttp.upgrade || threw || p->oom == 0 ||
           p->st.llhttp.error != HPE_OK);
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
  lhn_result res;
  r->hook.failed = 0;
  lhn_parser_finish(p, &res);
  note_state(&p->st.llhttp, 3u + (uint32_t)r->c->type);
  check_events(p, r->c, 0, &res, 1);
  slab_after_call(&r->slab, p, CALL_FINISH);
  model_list(&r->model, p, r->c);
  ASSERT(res.bytes_parsed == 0);
  for (uint32_t i = 0; i < lhn_parser_event_count(p); i++) {
    int kind = ev_at(p, i)[LHN_EV_KIND];
    ASSERT(kind != LHN_EV_HEADERS_COMPLETE && kind != LHN_EV_MESSAGE_BEGIN);
    log_event(&r->log, p, i, NULL);
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
  if (r->dead) return;
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
      lhn_parser_pause(&r->p);
      model_buffer_begins(&r->model);
      lhn_parser_execute(&r->p, pass, n, &res);
      check_events(&r->p, c, n, &res, 0);
      slab_after_call(&r->slab, &r->p, CALL_EXECUTE);
      model_list(&r->model, &r->p, c);
      ASSERT(lhn_parser_event_count(&r->p) == 0);
      if (err_before == HPE_OK) ASSERT(res.error == HPE_PAUSED || r->p.st.llhttp.upgrade);
      lhn_parser_resume(&r->p);
    }
    if (chaos) {
      uint32_t x = rng_next(&rng);
      if ((x & 31) == 0) {
        lhn_parser_reset(&r->p, (x >> 5) & 1 ? HTTP_RESPONSE : HTTP_REQUEST,
                         max_header_size((uint8_t)(x >> 8), len), (x >> 16) & 1023);
        model_reset(&r->model);
        slab_reset(&r->slab);
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
    lhn_parser_execute(&r->p, data, len, &res);
    check_events(&r->p, c, len, &res, 0);
    slab_after_call(&r->slab, &r->p, CALL_EXECUTE);
    ASSERT(lhn_parser_event_count(&r->p) == 0 && res.error == err);
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
 * llhttp hands over: when the name is rejected (a bad token, the header
 * limit), only a stream cut inside the name has the flush. Drop flushes
 * right before an error. */
static void normalise(recs_t *rs) {
  for (uint32_t i = 0; i < rs->n; i++) {
    if (rec_tag(rs->rec[i]) != 'E') continue;
    uint32_t j = i;
    while (j > 0 && rec_tag(rs->rec[j - 1]) == '0' + LHN_EV_HEADERS) j--;
    if (j < i) {
      memmove(&rs->rec[j], &rs->rec[i], (rs->n - i) * sizeof rs->rec[0]);
      rs->n -= i - j;
      i = j;
    }
  }
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
  normalise(&ra);
  normalise(&rb);
  uint32_t n = ra.n < rb.n ? ra.n : rb.n;
  uint32_t i = 0;
  while (i < n && same_record(ra.rec[i], rb.rec[i])) i++;
  if (i == n && ra.n == rb.n) return;
  /* The header limit counts span pieces as llhttp hands them over: a cut
   * stream can overflow inside a span that the whole stream rejects for
   * another reason before handing it over (the built-in does the same). */
  if (i < n && rec_tag(ra.rec[i]) == 'E' && rec_is_user_error(rb.rec[i]) &&
      same_tails(&ra, i + 1, &rb, i + 1))
    return;
  /* The same cut name, with a handler throwing at that flush: the cut
   * stream throws at the 31-pair flush of a 32nd name that the whole stream
   * never reaches, as it rejects the name first. Both runs stop there: what
   * follows (the end record) must match. */
  if (i < ra.n && i + 1 < rb.n && rec_tag(ra.rec[i]) == 'E' &&
      rec_tag(rb.rec[i]) == '0' + LHN_EV_HEADERS && rec_is_full_flush(rb.rec[i]) &&
      rec_tag(rb.rec[i + 1]) == 'X' && same_tails(&ra, i + 1, &rb, i + 2))
    return;
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
  c.seed = (uint32_t)in[9] | ((uint32_t)in[10] << 8) | 0x10000u;
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
