/* llhttp-napi core: see lhn_parser.h for the contract. */
#define _POSIX_C_SOURCE 199309L

#include "lhn_parser.h"
#include "lhn_llhttp.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Chunk extensions allowed per chunk line, as in Node 20. */
#define LHN_MAX_CHUNK_EXTENSIONS 16384

#define INITIAL_SLAB 1024u
#define INITIAL_PAIRS 64u
#define INITIAL_EVENTS 32u

static lhn_parser *from_llhttp(llhttp_t *h) {
  return (lhn_parser *)((char *)h - offsetof(lhn_parser, st.llhttp));
}

uint64_t lhn_now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* ---- growable buffers ---------------------------------------------------- */

static void *grow_block(lhn_parser *p, enum lhn_buffer_id id, void *old,
                        size_t old_size, size_t new_size) {
  void *block;
  if (p->grow) {
    block = p->grow(p->grow_ctx, id, old, old_size, new_size);
  } else {
    block = realloc(old, new_size);
  }
  if (block) {
    p->allocations++;
    if (id == LHN_BUF_SLAB) p->slab_growths++;
  }
  return block;
}

/* Make room for `extra` more bytes in the slab. 0 on success. */
static int slab_grow(lhn_parser *p, size_t extra) {
  size_t need = (size_t)p->st.slab_len + extra;
  /* offsets are int32 for JavaScript's Int32Array views */
  if (need > INT32_MAX) return -1;
  size_t cap = p->slab_cap ? (size_t)p->slab_cap * 2 : INITIAL_SLAB;
  while (cap < need) cap *= 2;
  if (cap > INT32_MAX) cap = INT32_MAX;
  void *block = grow_block(p, LHN_BUF_SLAB, p->slab, p->st.slab_len, cap);
  if (!block) return -1;
  p->slab = block;
  p->slab_cap = (uint32_t)cap;
  return 0;
}

static inline int slab_reserve(lhn_parser *p, size_t extra) {
  if (extra <= (size_t)(p->slab_cap - p->st.slab_len)) return 0;
  return slab_grow(p, extra);
}

static int pairs_grow(lhn_parser *p, uint32_t count) {
  uint32_t cap = p->pair_cap ? p->pair_cap * 2 : INITIAL_PAIRS;
  while (cap < count) cap *= 2;
  void *block = grow_block(p, LHN_BUF_PAIRS, p->pairs,
                           (size_t)p->pair_cap * LHN_PAIR_SLOTS * sizeof(int32_t),
                           (size_t)cap * LHN_PAIR_SLOTS * sizeof(int32_t));
  if (!block) return -1;
  p->pairs = block;
  p->pair_cap = cap;
  return 0;
}

static inline int pairs_reserve(lhn_parser *p, uint32_t count) {
  return count <= p->pair_cap ? 0 : pairs_grow(p, count);
}

static int events_grow(lhn_parser *p) {
  uint32_t cap = p->event_cap ? p->event_cap * 2 : INITIAL_EVENTS;
  void *block = grow_block(p, LHN_BUF_EVENTS, p->events,
                           (size_t)p->event_cap * LHN_EVENT_SLOTS * sizeof(int32_t),
                           (size_t)cap * LHN_EVENT_SLOTS * sizeof(int32_t));
  if (!block) return -1;
  p->events = block;
  p->event_cap = cap;
  return 0;
}

/* Returns the slots of a new event, or NULL when out of memory. */
static inline int32_t *event_push(lhn_parser *p, int kind) {
  if (p->event_count == p->event_cap && events_grow(p) != 0) return NULL;
  int32_t *ev = p->events + (size_t)p->event_count * LHN_EVENT_SLOTS;
  p->event_count++;
  ev[0] = kind;
  ev[1] = (int32_t)p->st.serial;
  return ev;
}

/* ---- callback plumbing ---------------------------------------------------- */

/* llhttp_set_error_reason(): the reason a callback's HPE_USER reports. */
static inline void set_error_reason(lhn_parser *p, const char *reason) {
  p->st.llhttp.reason = reason;
}

static int out_of_memory(lhn_parser *p) {
  p->oom = 1;
  set_error_reason(p, "HPE_OUT_OF_MEMORY:Out of memory");
  return HPE_USER;
}

/* Every llhttp callback starts here: counts it, as rewinds name callbacks
 * by their serial. */
static inline lhn_parser *enter(llhttp_t *h) {
  lhn_parser *p = from_llhttp(h);
  p->st.serial++;
  return p;
}

/* Every llhttp callback ends here: applies a rewind's failure (the handler
 * of this callback's event threw). */
static inline int leave(lhn_parser *p, int rv) {
  if (p->fail_serial != 0 && p->st.serial == p->fail_serial) {
    p->fail_serial = 0;
    if (p->fail_code == HPE_USER) {
      set_error_reason(p, "HPE_JS_EXCEPTION:JS Exception");
    }
    return p->fail_code;
  }
  return rv;
}

/* The built-in's TrackHeader: a message's header bytes must stay below the
 * limit. */
static inline int track_header(lhn_parser *p, size_t len) {
  p->st.header_nread += len;
  if (p->st.header_nread >= p->max_header_size) {
    set_error_reason(p, "HPE_HEADER_OVERFLOW:Header overflow");
    return HPE_USER;
  }
  return 0;
}

/* Copies n bytes; inline for the short spans headers are made of. */
static inline void copy_bytes(uint8_t *to, const uint8_t *from, size_t n) {
  if (n >= 8 && n <= 16) {
    uint64_t head, tail;
    memcpy(&head, from, 8);
    memcpy(&tail, from + n - 8, 8);
    memcpy(to, &head, 8);
    memcpy(to + n - 8, &tail, 8);
  } else if (n >= 4 && n < 8) {
    uint32_t head, tail;
    memcpy(&head, from, 4);
    memcpy(&tail, from + n - 4, 4);
    memcpy(to, &head, 4);
    memcpy(to + n - 4, &tail, 4);
  } else if (n < 4) {
    for (size_t i = 0; i < n; i++) to[i] = from[i];
  } else {
    memcpy(to, from, n);
  }
}

#define SLAB_FULL UINT32_MAX

/* Appends bytes to the slab; returns the new slab length, or SLAB_FULL when
 * out of memory. */
static inline uint32_t slab_put(lhn_parser *p, const char *at, size_t len) {
  uint32_t used = p->st.slab_len;
  if (len > (size_t)(p->slab_cap - used) && slab_grow(p, len) != 0) return SLAB_FULL;
  copy_bytes(p->slab + used, (const uint8_t *)at, len);
  used += (uint32_t)len;
  p->st.slab_len = used;
  return used;
}

static inline int32_t *pair_at(lhn_parser *p, uint32_t index) {
  return p->pairs + (size_t)index * LHN_PAIR_SLOTS;
}

/* Well-known header names, both as usually written and in lower case,
 * sorted by length; see lhn_known_names(). */
static const char *const known_names[138] = {
  "TE", "te", "Age", "DNT", "Via", "age", "dnt", "via", "Date", "ETag", "From", "Host",
  "Link", "Vary", "date", "etag", "from", "host", "link", "vary", "Allow", "Range",
  "allow", "range", "Accept", "Cookie", "Expect", "Origin", "Pragma", "Server", "accept",
  "cookie", "expect", "origin", "pragma", "server", "Expires", "Referer", "Trailer",
  "Upgrade", "Warning", "expires", "referer", "trailer", "upgrade", "warning", "If-Match",
  "If-Range", "Location", "Priority", "if-match", "if-range", "location", "priority",
  "Forwarded", "X-Real-IP", "forwarded", "x-real-ip", "Connection", "Keep-Alive",
  "Set-Cookie", "User-Agent", "connection", "keep-alive", "set-cookie", "user-agent",
  "Retry-After", "retry-after", "Content-Type", "X-Request-ID", "content-type",
  "x-request-id", "Accept-Ranges", "Authorization", "Cache-Control", "Content-Range",
  "If-None-Match", "Last-Modified", "accept-ranges", "authorization", "cache-control",
  "content-range", "if-none-match", "last-modified", "Accept-Charset", "Content-Length",
  "Sec-Fetch-Dest", "Sec-Fetch-Mode", "Sec-Fetch-Site", "Sec-Fetch-User", "accept-charset",
  "content-length", "sec-fetch-dest", "sec-fetch-mode", "sec-fetch-site", "sec-fetch-user",
  "Accept-Encoding", "Accept-Language", "X-Forwarded-For", "accept-encoding",
  "accept-language", "x-forwarded-for", "Content-Encoding", "Content-Language",
  "Content-Location", "WWW-Authenticate", "X-Forwarded-Host", "X-Requested-With",
  "content-encoding", "content-language", "content-location", "www-authenticate",
  "x-forwarded-host", "x-requested-with", "If-Modified-Since", "Sec-WebSocket-Key",
  "Transfer-Encoding", "X-Forwarded-Proto", "if-modified-since", "sec-websocket-key",
  "transfer-encoding", "x-forwarded-proto", "Content-Disposition", "If-Unmodified-Since",
  "Proxy-Authorization", "content-disposition", "if-unmodified-since",
  "proxy-authorization", "Sec-WebSocket-Version", "sec-websocket-version",
  "Sec-WebSocket-Extensions", "sec-websocket-extensions", "Strict-Transport-Security",
  "Upgrade-Insecure-Requests", "strict-transport-security", "upgrade-insecure-requests",
  "Access-Control-Allow-Origin", "access-control-allow-origin",
};
#define KNOWN_MAX_LEN 27
/* known_names[by_length[n] .. by_length[n + 1]) are the names of length n. */
static const uint8_t known_by_length[KNOWN_MAX_LEN + 2] = {
  0, 0, 0, 2, 8, 20, 24, 36, 46, 54, 58, 66, 68, 72, 84, 96, 102, 114, 122, 122, 128, 128, 130, 130, 130, 132, 136, 136, 138,
};

/* Index + 1 of the well-known name equal to bytes[0..len), or 0. */
static inline int32_t known_name(const uint8_t *bytes, size_t len) {
  if (len == 0 || len > KNOWN_MAX_LEN) return 0;
  for (uint32_t i = known_by_length[len]; i < known_by_length[len + 1]; i++) {
    const char *name = known_names[i];
    if ((uint8_t)name[0] == bytes[0] && memcmp(name, bytes, len) == 0) return (int32_t)i + 1;
  }
  return 0;
}

const char *const *lhn_known_names(size_t *count) {
  *count = sizeof(known_names) / sizeof(known_names[0]);
  return known_names;
}

/* ---- reuse tags (see lhn_parser.h) --------------------------------------- */

static int byteset_grow(lhn_parser *p, lhn_byteset *set, size_t bytes, uint32_t pairs) {
  if (set->len + bytes > set->cap) {
    size_t cap = set->cap ? set->cap : 256;
    while (cap < set->len + bytes) cap *= 2;
    void *block = realloc(set->bytes, cap);
    if (!block) return -1;
    p->allocations++;
    set->bytes = block;
    set->cap = (uint32_t)cap;
  }
  if (pairs > set->span_cap) {
    uint32_t cap = set->span_cap ? set->span_cap * 2 : 16;
    while (cap < pairs) cap *= 2;
    void *block = realloc(set->spans, (size_t)cap * 4 * sizeof(uint32_t));
    if (!block) return -1;
    p->allocations++;
    set->spans = block;
    set->span_cap = cap;
  }
  return 0;
}

static inline int byteset_reserve(lhn_parser *p, lhn_byteset *set, size_t bytes,
                                  uint32_t pairs) {
  if (set->len + bytes <= set->cap && pairs <= set->span_cap) return 0;
  return byteset_grow(p, set, bytes, pairs);
}

/* Copies slab bytes [start, end) into set; returns their offset there. */
static uint32_t byteset_add(lhn_byteset *set, const uint8_t *slab, int32_t start, int32_t end) {
  uint32_t at = set->len;
  if (end > start) memcpy(set->bytes + at, slab + start, (size_t)(end - start));
  set->len += (uint32_t)(end - start);
  return at;
}

static inline int equal_bytes(const uint8_t *a, const uint8_t *b, size_t n) {
  for (; n >= 8; n -= 8, a += 8, b += 8) {
    uint64_t x, y;
    memcpy(&x, a, 8);
    memcpy(&y, b, 8);
    if (x != y) return 0;
  }
  if (n >= 4) {
    uint32_t x, y;
    memcpy(&x, a, 4);
    memcpy(&y, b, 4);
    if (x != y) return 0;
    n -= 4;
    a += 4;
    b += 4;
  }
  for (; n > 0; n--) {
    if (*a++ != *b++) return 0;
  }
  return 1;
}

static inline int same_bytes(const lhn_byteset *set, uint32_t start, uint32_t end,
                             const uint8_t *slab, int32_t from, int32_t to) {
  if (end - start != (uint32_t)(to - from)) return 0;
  return to == from || equal_bytes(set->bytes + start, slab + from, (size_t)(to - from));
}

/* Trims trailing spaces and tabs of the values of pairs [first, first+n), as
 * the built-in does when it hands values over, and tags them for reuse:
 * header pairs are compared with the previous message's and recorded.
 * Returns LHN_HC_PAIRS_SAME when all n pairs repeat the previous message's. */
static int32_t finish_pairs(lhn_parser *p, uint32_t first, uint32_t n) {
  lhn_state *st = &p->st;
  const uint8_t *slab = p->slab;
  int32_t *pairs = p->pairs + (size_t)first * LHN_PAIR_SLOTS;
  for (uint32_t j = 0; j < n; j++) {
    int32_t *pair = pairs + (size_t)j * LHN_PAIR_SLOTS;
    int32_t vs = pair[2], ve = pair[3];
    while (ve > vs && (slab[ve - 1] == ' ' || slab[ve - 1] == '\t')) ve--;
    pair[3] = ve;
    pair[4] = 0;
  }
  lhn_byteset *cur = &p->seen[p->seen_prev ^ 1];
  uint32_t k0 = first - st->msg_pair_first;
  if (n == 0 || st->headers_completed || cur->count != k0 || k0 >= LHN_REUSE_MAX_PAIRS) return 0;
  int32_t all_same = LHN_PAIR_NAME_SAME | LHN_PAIR_VALUE_SAME;
  if (n > LHN_REUSE_MAX_PAIRS - k0) {
    n = LHN_REUSE_MAX_PAIRS - k0;
    all_same = 0;
  }
  /* the pairs' bytes are one run of the slab: record it with one copy */
  int32_t lo = pairs[0];
  int32_t hi = pairs[(size_t)(n - 1) * LHN_PAIR_SLOTS + 3];
  if (byteset_reserve(p, cur, (size_t)(hi - lo), k0 + n) != 0) return 0;
  uint32_t shift = byteset_add(cur, slab, lo, hi) - (uint32_t)lo;
  const lhn_byteset *prev = &p->seen[p->seen_prev];
  const uint8_t *prev_bytes = prev->bytes;
  uint32_t same_count = prev->count > k0 ? prev->count - k0 : 0;
  uint32_t *span = cur->spans + (size_t)k0 * 4;
  uint32_t j = 0;
  if (same_count >= n) {
    /* The usual keep-alive case: the whole run repeats the previous
     * message's, laid out the same way. One compare covers every pair. */
    const uint32_t *ps = prev->spans + (size_t)k0 * 4;
    uint32_t plo = ps[0];
    if (ps[(size_t)(n - 1) * 4 + 3] - plo == (uint32_t)(hi - lo) &&
        equal_bytes(prev_bytes + plo, slab + lo, (size_t)(hi - lo))) {
      uint32_t d = (uint32_t)lo - plo;
      int32_t tag = (int32_t)(k0 << 3) | LHN_PAIR_RECORDED | LHN_PAIR_NAME_SAME |
                    LHN_PAIR_VALUE_SAME;
      for (; j < n; j++, span += 4, ps += 4, tag += 8) {
        int32_t *pair = pairs + (size_t)j * LHN_PAIR_SLOTS;
        uint32_t ns = (uint32_t)pair[0], ne = (uint32_t)pair[1];
        uint32_t vs = (uint32_t)pair[2], ve = (uint32_t)pair[3];
        if (((ps[0] + d) ^ ns) | ((ps[1] + d) ^ ne) | ((ps[2] + d) ^ vs) | ((ps[3] + d) ^ ve)) break;
        span[0] = ns + shift;
        span[1] = ne + shift;
        span[2] = vs + shift;
        span[3] = ve + shift;
        pair[4] = tag;
      }
    }
  }
  for (; j < n; j++, span += 4) {
    int32_t *pair = pairs + (size_t)j * LHN_PAIR_SLOTS;
    int32_t ns = pair[0], ne = pair[1], vs = pair[2], ve = pair[3];
    int32_t tag = (int32_t)((k0 + j) << 3) | LHN_PAIR_RECORDED;
    if (j < same_count) {
      const uint32_t *prev_span = prev->spans + (size_t)(k0 + j) * 4;
      if (prev_span[1] - prev_span[0] == (uint32_t)(ne - ns) &&
          (ne == ns || equal_bytes(prev_bytes + prev_span[0], slab + ns, (size_t)(ne - ns)))) {
        tag |= LHN_PAIR_NAME_SAME;
      }
      if (prev_span[3] - prev_span[2] == (uint32_t)(ve - vs) &&
          (ve == vs || equal_bytes(prev_bytes + prev_span[2], slab + vs, (size_t)(ve - vs)))) {
        tag |= LHN_PAIR_VALUE_SAME;
      }
    }
    if ((tag & LHN_PAIR_NAME_SAME) == 0) {
      tag |= known_name(slab + ns, (size_t)(ne - ns)) << LHN_PAIR_KNOWN_SHIFT;
    }
    span[0] = (uint32_t)ns + shift;
    span[1] = (uint32_t)ne + shift;
    span[2] = (uint32_t)vs + shift;
    span[3] = (uint32_t)ve + shift;
    pair[4] = tag;
    all_same &= tag & (LHN_PAIR_NAME_SAME | LHN_PAIR_VALUE_SAME);
  }
  cur->count = k0 + n;
  return all_same == (LHN_PAIR_NAME_SAME | LHN_PAIR_VALUE_SAME) ? LHN_HC_PAIRS_SAME : 0;
}

/* At headers complete: compares and records the URL (status text for
 * responses), then makes the recorded message the previous one. Returns
 * LHN_HC_URL_SAME or 0. */
static int32_t finish_message_reuse(lhn_parser *p, int32_t from, int32_t to) {
  lhn_byteset *prev = &p->seen[p->seen_prev];
  lhn_byteset *cur = &p->seen[p->seen_prev ^ 1];
  int32_t same = same_bytes(prev, prev->url_start, prev->url_end, p->slab, from, to) ?
                 LHN_HC_URL_SAME : 0;
  if (byteset_reserve(p, cur, (size_t)(to - from), 0) == 0) {
    cur->url_start = byteset_add(cur, p->slab, from, to);
    cur->url_end = cur->len;
  } else {
    cur->url_start = cur->url_end = 0;
    cur->count = 0;
  }
  p->seen_prev ^= 1;
  p->epoch++;
  lhn_byteset *next = &p->seen[p->seen_prev ^ 1];
  next->count = 0;
  next->len = 0;
  return same;
}

/* The built-in's Flush(): hands pending pairs and the URL to kOnHeaders. */
static int flush_headers(lhn_parser *p) {
  lhn_state *st = &p->st;
  int32_t *ev = event_push(p, LHN_EV_HEADERS);
  if (!ev) return out_of_memory(p);
  ev[7] = finish_pairs(p, st->pair_base, st->num_values);
  ev[2] = (int32_t)st->pair_base;
  ev[3] = (int32_t)st->num_values;
  ev[4] = (int32_t)st->url_start;
  ev[5] = (int32_t)st->url_end;
  ev[6] = p->epoch;
  if (p->handlers & LHN_HAS_ON_HEADERS) {
    st->url_start = st->url_end = st->slab_len;
    st->have_flushed = 1;
  }
  return 0;
}

/* ---- llhttp callbacks ----------------------------------------------------- */

static int on_message_begin(llhttp_t *h) {
  lhn_parser *p = enter(h);
  lhn_state *st = &p->st;
  if (st->reset_on_begin) {
    st->reset_on_begin = 0;
    st->slab_len = 0;
    st->pair_count = 0;
  }
  st->msg_slab_start = st->slab_len;
  st->pair_base = st->pair_count;
  st->msg_pair_first = st->pair_count;
  st->num_fields = st->num_values = 0;
  st->header_fields = 0;
  st->headers_completed = 0;
  st->chunk_ext_nread = 0;
  st->in_message = 1;
  lhn_byteset *cur = &p->seen[p->seen_prev ^ 1];
  cur->count = 0;
  cur->len = 0;
  st->message_start_ns = lhn_now_ns();
  st->url_start = st->url_end = st->slab_len;
  st->status_start = st->status_end = st->slab_len;
  if (!event_push(p, LHN_EV_MESSAGE_BEGIN)) return leave(p, out_of_memory(p));
  return leave(p, 0);
}

static int on_url(llhttp_t *h, const char *at, size_t len) {
  lhn_parser *p = enter(h);
  lhn_state *st = &p->st;
  int rv = track_header(p, len);
  if (rv != 0) return leave(p, rv);
  if (st->url_end != st->slab_len) st->url_start = st->slab_len;
  uint32_t used = slab_put(p, at, len);
  if (used == SLAB_FULL) return leave(p, out_of_memory(p));
  st->url_end = used;
  return leave(p, 0);
}

static int on_status(llhttp_t *h, const char *at, size_t len) {
  lhn_parser *p = enter(h);
  lhn_state *st = &p->st;
  int rv = track_header(p, len);
  if (rv != 0) return leave(p, rv);
  if (st->status_end != st->slab_len) st->status_start = st->slab_len;
  uint32_t used = slab_put(p, at, len);
  if (used == SLAB_FULL) return leave(p, out_of_memory(p));
  st->status_end = used;
  return leave(p, 0);
}

/* The built-in's bookkeeping when a header name starts: after 31 complete
 * pairs it flushes them. Then a new pair begins at the slab's end. */
static int new_field(lhn_parser *p) {
  lhn_state *st = &p->st;
  st->num_fields++;
  if (st->num_fields == LHN_MAX_PENDING_FIELDS) {
    int rv = flush_headers(p);
    if (rv != 0) return rv;
    st->pair_base += st->num_values;
    st->num_fields = 1;
    st->num_values = 0;
  }
  if (pairs_reserve(p, st->pair_count + 1) != 0) return out_of_memory(p);
  int32_t *pair = pair_at(p, st->pair_count++);
  int32_t at = (int32_t)st->slab_len;
  pair[0] = pair[1] = pair[2] = pair[3] = at;
  pair[4] = 0;
  return 0;
}

/* The pair limit of lhn_parser_set_max_header_pairs(), as a field starts. */
static inline int count_field(lhn_parser *p) {
  lhn_state *st = &p->st;
  uint32_t max = p->max_header_pairs;
  if (max != 0 && st->llhttp.type == HTTP_REQUEST && (uint64_t)++st->header_fields * 2 > max) {
    set_error_reason(p, "HPE_HEADER_OVERFLOW:Header overflow");
    return HPE_USER;
  }
  return 0;
}

static int on_header_field(llhttp_t *h, const char *at, size_t len) {
  lhn_parser *p = enter(h);
  lhn_state *st = &p->st;
  int rv = track_header(p, len);
  if (rv == 0 && st->num_fields == st->num_values) {
    rv = count_field(p);
    if (rv == 0) rv = new_field(p);
  }
  if (rv != 0) return leave(p, rv);
  uint32_t used = slab_put(p, at, len);
  if (used == SLAB_FULL) return leave(p, out_of_memory(p));
  p->pairs[(size_t)(st->pair_count - 1) * LHN_PAIR_SLOTS + 1] = (int32_t)used;
  return leave(p, 0);
}

static int on_header_value(llhttp_t *h, const char *at, size_t len) {
  lhn_parser *p = enter(h);
  lhn_state *st = &p->st;
  int rv = track_header(p, len);
  if (rv != 0) return leave(p, rv);
  int32_t *pair = p->pairs + (size_t)(st->pair_count - 1) * LHN_PAIR_SLOTS;
  if (st->num_values != st->num_fields) {
    /* a new value */
    st->num_values++;
    pair[2] = (int32_t)st->slab_len;
  }
  uint32_t used = slab_put(p, at, len);
  if (used == SLAB_FULL) return leave(p, out_of_memory(p));
  pair[3] = (int32_t)used;
  return leave(p, 0);
}

static int on_chunk_extension(llhttp_t *h, const char *at, size_t len) {
  lhn_parser *p = enter(h);
  (void)at;
  p->st.chunk_ext_nread += len;
  if (p->st.chunk_ext_nread > LHN_MAX_CHUNK_EXTENSIONS) {
    set_error_reason(p, "HPE_CHUNK_EXTENSIONS_OVERFLOW:Chunk extensions overflow");
    return leave(p, HPE_USER);
  }
  return leave(p, 0);
}

static int on_headers_complete(llhttp_t *h) {
  lhn_parser *p = enter(h);
  lhn_state *st = &p->st;
  llhttp_t *ll = &st->llhttp;
  st->header_nread = 0;
  st->header_fields = 0;

  /* without a handler the built-in returns before its flush: the pairs
   * stay pending */
  int held = (p->handlers & LHN_HAS_ON_HEADERS_COMPLETE) == 0;
  uint32_t flushed = st->have_flushed && !held;
  if (flushed && flush_headers(p) != 0) return leave(p, HPE_USER);

  uint32_t index = p->event_count;
  int answer = 0;
  if (index < p->regen_limit && !held) {
    answer = p->events[(size_t)index * LHN_EVENT_SLOTS + 11];
  }
  int32_t *ev = event_push(p, LHN_EV_HEADERS_COMPLETE);
  if (!ev) return leave(p, out_of_memory(p));
  int32_t pairs_same = 0;
  if (flushed) {
    ev[2] = 0;
    ev[3] = -1;
  } else {
    pairs_same = finish_pairs(p, st->pair_base, st->num_values);
    ev[2] = (int32_t)st->pair_base;
    ev[3] = (int32_t)st->num_values;
  }
  if (ll->type == HTTP_REQUEST) {
    ev[4] = (int32_t)st->url_start;
    ev[5] = (int32_t)st->url_end;
  } else {
    ev[4] = (int32_t)st->status_start;
    ev[5] = (int32_t)st->status_end;
  }
  ev[12] = p->epoch;
  st->headers_completed = 1;
  ev[6] = finish_message_reuse(p, ev[4], ev[5]) | pairs_same | (ll->upgrade ? LHN_HC_UPGRADE : 0) |
          (p->ll->should_keep_alive(ll) ? LHN_HC_KEEP_ALIVE : 0);
  ev[7] = ll->status_code;
  ev[8] = ll->method;
  ev[9] = ll->http_major;
  ev[10] = ll->http_minor;
  ev[11] = answer;

  if (!held) {
    st->pair_base = st->pair_count;
    st->num_fields = st->num_values = 0;
  }
  return leave(p, answer);
}

static int on_body(llhttp_t *h, const char *at, size_t len) {
  lhn_parser *p = enter(h);
  if (len != 0) {
    int32_t *ev = event_push(p, LHN_EV_BODY);
    if (!ev) return leave(p, out_of_memory(p));
    ev[2] = (int32_t)(at - p->input);
    ev[3] = (int32_t)len;
  }
  return leave(p, 0);
}

static int on_message_complete(llhttp_t *h) {
  lhn_parser *p = enter(h);
  lhn_state *st = &p->st;
  st->message_start_ns = 0;
  st->in_message = 0;
  if (st->num_fields != 0 && flush_headers(p) != 0) return leave(p, HPE_USER);
  if (!event_push(p, LHN_EV_MESSAGE_COMPLETE)) return leave(p, out_of_memory(p));
  return leave(p, 0);
}

static int on_chunk_header(llhttp_t *h) {
  lhn_parser *p = enter(h);
  p->st.header_nread = 0;
  p->st.chunk_ext_nread = 0;
  return leave(p, 0);
}

static int on_chunk_complete(llhttp_t *h) {
  lhn_parser *p = enter(h);
  p->st.header_nread = 0;
  return leave(p, 0);
}

static const llhttp_settings_t lhn_settings = {
  .on_message_begin = on_message_begin,
  .on_url = on_url,
  .on_status = on_status,
  .on_header_field = on_header_field,
  .on_header_value = on_header_value,
  .on_chunk_extension_name = on_chunk_extension,
  .on_chunk_extension_value = on_chunk_extension,
  .on_headers_complete = on_headers_complete,
  .on_body = on_body,
  .on_message_complete = on_message_complete,
  .on_chunk_header = on_chunk_header,
  .on_chunk_complete = on_chunk_complete,
};

/* ---- public API ----------------------------------------------------------- */

void lhn_parser_init(lhn_parser *p, lhn_grow_fn grow, void *grow_ctx) {
  memset(p, 0, sizeof(*p));
  p->grow = grow;
  p->grow_ctx = grow_ctx;
  p->epoch = 1;
  p->handlers = LHN_HAS_ALL;
  p->ll = lhn_llhttp_current();
}

void lhn_parser_set_max_header_pairs(lhn_parser *p, uint32_t max_pairs) {
  p->max_header_pairs = max_pairs;
}

void lhn_parser_set_handlers(lhn_parser *p, unsigned handlers) {
  p->handlers = handlers & LHN_HAS_ALL;
}

int lhn_parser_prepare(lhn_parser *p) {
  if (slab_reserve(p, INITIAL_SLAB) != 0 || pairs_reserve(p, INITIAL_PAIRS) != 0) return -1;
  if (p->event_cap == 0) {
    if (!event_push(p, 0)) return -1;
    p->event_count = 0;
  }
  return 0;
}

void lhn_parser_reset(lhn_parser *p, int type, uint32_t max_header_size,
                      unsigned lenient) {
  memset(&p->st, 0, sizeof(p->st));
  p->ll = lhn_llhttp_current();
  p->ll->init(&p->st.llhttp, (llhttp_type_t)type, &lhn_settings);
  /* What each llhttp_set_lenient_*() does: Node's kLenient* bits are
   * llhttp's lenient flags. */
  p->st.llhttp.lenient_flags = (uint16_t)lenient;
  p->max_header_size = max_header_size;
  p->event_count = 0;
  p->oom = 0;
}

/* Fills out with what the built-in's Execute()/Finish() would report. */
static void report(lhn_parser *p, const char *data, size_t len, llhttp_errno_t err,
                   lhn_result *out) {
  llhttp_t *ll = &p->st.llhttp;
  size_t nread = len;
  int upgraded = 0;
  if (err != HPE_OK) {
    const char *pos = ll->error_pos;
    nread = (data && pos >= data && pos <= data + len) ? (size_t)(pos - data) : 0;
    if (err == HPE_PAUSED_UPGRADE) {
      err = HPE_OK;
      p->ll->resume_after_upgrade(ll);
      upgraded = 1;
    }
  }
  out->bytes_parsed = nread;
  out->upgraded = upgraded;
  out->error = HPE_OK;
  out->code = NULL;
  out->code_len = 0;
  out->reason = NULL;
  if (ll->upgrade || err == HPE_OK) return;
  const char *reason = ll->reason;
  if (!reason) reason = "";
  out->error = err;
  if (err == HPE_USER) {
    const char *colon = strchr(reason, ':');
    if (colon) {
      out->code = reason;
      out->code_len = (size_t)(colon - reason);
      out->reason = colon + 1;
      return;
    }
  }
  out->code = p->ll->errno_name(err);
  out->code_len = strlen(out->code);
  out->reason = reason;
}

static void run(lhn_parser *p, const char *data, size_t len, lhn_result *out) {
  /* llhttp takes a NULL buffer as "no span under way" and drops a header
   * split across calls: an empty view (which may have no data pointer)
   * must still be a real position. */
  if (data == NULL) data = "";
  p->input = data;
  p->input_len = len;
  llhttp_errno_t err = p->ll->execute(&p->st.llhttp, data, len);
  report(p, data, len, err, out);
  p->regen_limit = 0;
}

/* Moves the message under way to the front of the slab and pair table, or
 * arranges for the next message to start from empty ones. */
static void compact(lhn_parser *p) {
  lhn_state *st = &p->st;
  p->compacted_pairs = 0;
  p->compacted_bytes = 0;
  if (!st->in_message) {
    st->reset_on_begin = 1;
    return;
  }
  uint32_t shift = st->msg_slab_start;
  uint32_t first = st->msg_pair_first;
  if (shift == 0 && first == 0) return;
  memmove(p->slab, p->slab + shift, st->slab_len - shift);
  st->slab_len -= shift;
  memmove(p->pairs, pair_at(p, first),
          (size_t)(st->pair_count - first) * LHN_PAIR_SLOTS * sizeof(int32_t));
  st->pair_count -= first;
  st->pair_base -= first;
  st->msg_pair_first = 0;
  p->compacted_pairs = first;
  p->compacted_bytes = shift;
  for (uint32_t i = 0; i < st->pair_count; i++) {
    int32_t *pair = pair_at(p, i);
    for (int k = 0; k < 4; k++) pair[k] -= (int32_t)shift; /* offsets, not the tag */
  }
  st->msg_slab_start = 0;
  st->url_start -= shift;
  st->url_end -= shift;
  st->status_start -= shift;
  st->status_end -= shift;
}

void lhn_parser_execute(lhn_parser *p, const char *data, size_t len, lhn_result *out) {
  if ((p->slab == NULL || p->pairs == NULL || p->events == NULL) && lhn_parser_prepare(p) != 0) {
    /* out of memory before anything was parsed */
    memset(out, 0, sizeof(*out));
    out->error = HPE_USER;
    out->code = "HPE_OUT_OF_MEMORY";
    out->code_len = strlen(out->code);
    out->reason = "Out of memory";
    p->event_count = 0;
    return;
  }
  compact(p);
  p->saved = p->st;
  p->event_count = 0;
  p->regen_limit = 0;
  p->fail_serial = 0;
  run(p, data, len, out);
}

int lhn_parser_rewind(lhn_parser *p, const char *data, size_t len,
                      uint32_t event_index, unsigned actions, int answer,
                      int fail_code, lhn_result *out) {
  if (event_index >= p->event_count) return -1;
  int32_t *ev = p->events + (size_t)event_index * LHN_EVENT_SLOTS;
  uint32_t serial = (uint32_t)ev[1];
  if ((actions & LHN_REWIND_ANSWER) && ev[0] == LHN_EV_HEADERS_COMPLETE) ev[11] = answer;
  if (actions & LHN_REWIND_FAIL) {
    p->fail_serial = serial;
    p->fail_code = fail_code;
  }
  p->regen_limit = event_index + 1;
  p->st = p->saved;
  p->event_count = 0;
  run(p, data, len, out);
  return 0;
}

void lhn_parser_finish(lhn_parser *p, lhn_result *out) {
  p->event_count = 0;
  p->input = NULL;
  p->input_len = 0;
  llhttp_errno_t err = p->ll->finish(&p->st.llhttp);
  report(p, NULL, 0, err, out);
}

void lhn_parser_pause(lhn_parser *p) { p->ll->pause(&p->st.llhttp); }

void lhn_parser_resume(lhn_parser *p) { p->ll->resume(&p->st.llhttp); }

void lhn_parser_destroy(lhn_parser *p) {
  for (int i = 0; i < 2; i++) {
    free(p->seen[i].bytes);
    free(p->seen[i].spans);
    memset(&p->seen[i], 0, sizeof(p->seen[i]));
  }
  if (!p->grow) {
    free(p->slab);
    free(p->pairs);
    free(p->events);
  }
  p->slab = NULL;
  p->pairs = NULL;
  p->events = NULL;
  p->slab_cap = p->pair_cap = p->event_cap = 0;
}

#define LHN_NAME(num, name, string) #string,
static const char *const method_names[] = {HTTP_METHOD_MAP(LHN_NAME)};
static const char *const all_method_names[] = {HTTP_ALL_METHOD_MAP(LHN_NAME)};
#undef LHN_NAME

const char *const *lhn_method_names(int all, size_t *count) {
  if (all) {
    *count = sizeof(all_method_names) / sizeof(all_method_names[0]);
    return all_method_names;
  }
  *count = sizeof(method_names) / sizeof(method_names[0]);
  return method_names;
}
