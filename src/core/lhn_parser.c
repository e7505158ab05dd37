/* llhttp-napi core: see lhn_parser.h for the contract. */
#define _POSIX_C_SOURCE 199309L

#include "lhn_parser.h"
#include "lhn_clock.h"
#include "lhn_llhttp.h"

#include <stdlib.h>
#include <string.h>
#include <pthread.h>
#include <time.h>

/* Chunk extensions allowed per chunk line, as in Node 20. */
#define LHN_MAX_CHUNK_EXTENSIONS 16384

/* First capacities: an idle connection holds a parser, so they fit a
 * typical message (median browser head about 570 bytes, 10-14 headers, 4
 * events) and grow, once per parser, for bigger ones. */
#define INITIAL_SLAB 1024u
#define INITIAL_PAIRS 16u
#define INITIAL_EVENTS 8u

static lhn_parser *from_llhttp(llhttp_t *h) {
  return (lhn_parser *)((char *)h - offsetof(lhn_parser, st.llhttp));
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
  ev[LHN_EV_KIND] = kind;
  ev[LHN_EV_SERIAL] = (int32_t)p->st.serial;
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
  p->slab_version++;
  return used;
}

static inline int32_t *pair_at(lhn_parser *p, uint32_t index) {
  return p->pairs + (size_t)index * LHN_PAIR_SLOTS;
}

/* Well-known header names, both as usually written and in lower case; see
 * lhn_known_names(). At most 255 (pair tags and known_table hold index + 1
 * in a byte). */
static const char *const known_names[] = {
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
#define KNOWN_COUNT (sizeof(known_names) / sizeof(known_names[0]))
#define KNOWN_HASH_SIZE 512
#define KNOWN_PER_BUCKET 4
/* known_table[hash][k]: index + 1 of the names with that hash (0: none);
 * built once from known_names, as are the entries: each name again with its
 * length in 32 bytes of its own, so that a lookup in a server, where these
 * tables are cold, reads one bucket and one entry per candidate. */
#define KNOWN_ENTRY_SIZE 32
typedef struct known_entry {
  uint8_t len;
  uint8_t name[KNOWN_ENTRY_SIZE - 1];
} known_entry;
static uint8_t known_table[KNOWN_HASH_SIZE][KNOWN_PER_BUCKET];
static _Alignas(64) known_entry known_entries[KNOWN_COUNT];
static pthread_once_t known_once = PTHREAD_ONCE_INIT;

/* Of the length and the first and last bytes, ASCII case folded (so that a
 * name's usual spelling and its lower case share a bucket). */
static inline uint32_t known_hash(const uint8_t *bytes, size_t len) {
  uint32_t first = bytes[0] | 0x20, last = bytes[len - 1] | 0x20;
  return ((uint32_t)len * 61u + first * 7u + last * 3u) & (KNOWN_HASH_SIZE - 1);
}

static void index_known_names(void) {
  for (size_t i = 0; i < KNOWN_COUNT; i++) {
    size_t len = strlen(known_names[i]);
    if (len >= KNOWN_ENTRY_SIZE) abort(); /* a name too long for its entry */
    known_entries[i].len = (uint8_t)len;
    memcpy(known_entries[i].name, known_names[i], len);
    uint8_t *bucket = known_table[known_hash(known_entries[i].name, len)];
    for (int k = 0; k < KNOWN_PER_BUCKET; k++) {
      if (bucket[k] == 0) {
        bucket[k] = (uint8_t)(i + 1);
        break;
      }
    }
  }
}

/* Whether the 8 bytes at a + at and b + at are equal. */
static inline int same8(const uint8_t *a, const uint8_t *b, size_t at) {
  uint64_t x, y;
  memcpy(&x, a + at, 8);
  memcpy(&y, b + at, 8);
  return x == y;
}

/* Whether a[0..len) equals b[0..len), len < KNOWN_ENTRY_SIZE: with
 * overlapping loads from each end instead of a call. */
static inline int same_name(const uint8_t *a, const uint8_t *b, size_t len) {
  if (len > 16) {
    return same8(a, b, 0) & same8(a, b, 8) & same8(a, b, len - 16) & same8(a, b, len - 8);
  }
  if (len >= 8) return same8(a, b, 0) & same8(a, b, len - 8);
  if (len >= 4) {
    uint32_t a0, b0, a1, b1;
    memcpy(&a0, a, 4);
    memcpy(&b0, b, 4);
    memcpy(&a1, a + len - 4, 4);
    memcpy(&b1, b + len - 4, 4);
    return ((a0 ^ b0) | (a1 ^ b1)) == 0;
  }
  for (size_t i = 0; i < len; i++) {
    if (a[i] != b[i]) return 0;
  }
  return 1;
}

/* Index + 1 of the well-known name equal to bytes[0..len), or 0. */
static inline int32_t known_name(const uint8_t *bytes, size_t len) {
  if (len == 0 || len >= KNOWN_ENTRY_SIZE) return 0;
  const uint8_t *bucket = known_table[known_hash(bytes, len)];
  for (int k = 0; k < KNOWN_PER_BUCKET && bucket[k] != 0; k++) {
    const known_entry *entry = &known_entries[bucket[k] - 1];
    if (entry->len == len && same_name(entry->name, bytes, len)) return bucket[k];
  }
  return 0;
}

const char *const *lhn_known_names(size_t *count) {
  *count = KNOWN_COUNT;
  return known_names;
}

/* ---- header pairs at the end of a header section ---------------------------- */

/* Trims trailing spaces and tabs of the values of pairs [first, first+n), as
 * the built-in does when it hands values over. */
static void trim_values(lhn_parser *p, uint32_t first, uint32_t n) {
  const uint8_t *slab = p->slab;
  int32_t *pair = pair_at(p, first);
  for (uint32_t j = 0; j < n; j++, pair += LHN_PAIR_SLOTS) {
    int32_t vs = pair[LHN_PAIR_VALUE_START], ve = pair[LHN_PAIR_VALUE_END];
    while (ve > vs && (slab[ve - 1] == ' ' || slab[ve - 1] == '\t')) ve--;
    pair[LHN_PAIR_VALUE_END] = ve;
  }
}

/* Gives pairs [first, first+n) the index + 1 of their name among
 * lhn_known_names(), or 0. */
static void tag_known_names(lhn_parser *p, uint32_t first, uint32_t n) {
  const uint8_t *slab = p->slab;
  int32_t *pair = pair_at(p, first);
  for (uint32_t j = 0; j < n; j++, pair += LHN_PAIR_SLOTS) {
    int32_t ns = pair[LHN_PAIR_NAME_START];
    pair[LHN_PAIR_KNOWN_NAME] = known_name(slab + ns, (size_t)(pair[LHN_PAIR_NAME_END] - ns));
  }
}

/* ---- repeat detection (see LHN_HC_REPEATS) --------------------------------- */

/* A message head's slab bytes (from msg_slab_start), and its layout relative
 * to them: url or status start and end, then the four offsets of each pair. */
static uint32_t head_layout(const lhn_parser *p, uint32_t text_start, uint32_t text_end,
                            uint32_t first, uint32_t n, uint32_t *out) {
  uint32_t base = p->st.msg_slab_start;
  out[0] = text_start - base;
  out[1] = text_end - base;
  const int32_t *pair = p->pairs + (size_t)first * LHN_PAIR_SLOTS;
  uint32_t k = 2;
  for (uint32_t j = 0; j < n; j++, pair += LHN_PAIR_SLOTS, k += 4) {
    out[k] = (uint32_t)pair[0] - base;
    out[k + 1] = (uint32_t)pair[1] - base;
    out[k + 2] = (uint32_t)pair[2] - base;
    out[k + 3] = (uint32_t)pair[3] - base;
  }
  return k;
}

/* What head_repeats() found. */
enum head_match { HEAD_NEW = 0, HEAD_REPEATS = 1, HEAD_RECORDED = 2 };

/* Whether the head of the message whose headers just completed (text and
 * pairs [first, first+n), none flushed earlier) repeats the recorded one byte
 * for byte (HEAD_REPEATS). When it does not, records it if it is the
 * LHN_RECORD_EVERY-th such head (HEAD_RECORDED), else forgets the record
 * (HEAD_NEW): the record is always the previous message's or none. Compares
 * the byte counts first, so that a message that differs in length costs a
 * few instructions. */
static enum head_match head_repeats(lhn_parser *p, uint32_t text_start, uint32_t text_end,
                                    uint32_t first, uint32_t n) {
  lhn_head_record *rec = &p->previous_head;
  uint32_t base = p->st.msg_slab_start;
  uint32_t len = p->st.slab_len - base;
  const uint8_t *bytes = p->slab + base;
  uint32_t slots = 2 + 4 * n;
  if (n > LHN_REPEAT_MAX_PAIRS) {
    rec->valid = 0;
    return HEAD_NEW;
  }
  uint32_t layout[2 + 4 * LHN_REPEAT_MAX_PAIRS];
  if (rec->valid && rec->len == len && rec->slots == slots &&
      (len == 0 || memcmp(rec->bytes, bytes, len) == 0)) {
    head_layout(p, text_start, text_end, first, n, layout);
    if (memcmp(rec->layout, layout, (size_t)slots * sizeof(uint32_t)) == 0) return HEAD_REPEATS;
    memcpy(rec->layout, layout, (size_t)slots * sizeof(uint32_t));
    return HEAD_RECORDED;
  }
  if (p->record_skip > 0) {
    p->record_skip--;
    rec->valid = 0;
    return HEAD_NEW;
  }
  p->record_skip = LHN_RECORD_EVERY - 1;
  if (len > rec->cap) {
    uint32_t cap = rec->cap ? rec->cap : 512;
    while (cap < len) cap *= 2;
    void *block = realloc(rec->bytes, cap);
    if (!block) {
      rec->valid = 0;
      return HEAD_NEW;
    }
    p->allocations++;
    rec->bytes = block;
    rec->cap = cap;
  }
  if (len != 0) memcpy(rec->bytes, bytes, len);
  rec->len = len;
  rec->slots = head_layout(p, text_start, text_end, first, n, rec->layout);
  rec->valid = 1;
  return HEAD_RECORDED;
}

/* The built-in's Flush(): hands pending pairs and the URL to kOnHeaders. */
static int flush_headers(lhn_parser *p) {
  lhn_state *st = &p->st;
  int32_t *ev = event_push(p, LHN_EV_HEADERS);
  if (!ev) return out_of_memory(p);
  p->slab_wanted = 1;
  trim_values(p, st->pair_base, st->num_values);
  tag_known_names(p, st->pair_base, st->num_values);
  ev[LHN_EV_FIRST_PAIR] = (int32_t)st->pair_base;
  ev[LHN_EV_PAIR_COUNT] = (int32_t)st->num_values;
  ev[LHN_EV_TEXT_START] = (int32_t)st->url_start;
  ev[LHN_EV_TEXT_END] = (int32_t)st->url_end;
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
    p->slab_version++;
  }
  st->msg_slab_start = st->slab_len;
  st->pair_base = st->pair_count;
  st->msg_pair_first = st->pair_count;
  st->num_fields = st->num_values = 0;
  st->header_fields = 0;
  st->headers_completed = 0;
  st->chunk_ext_nread = 0;
  st->in_message = 1;
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
  pair_at(p, st->pair_count - 1)[LHN_PAIR_NAME_END] = (int32_t)used;
  return leave(p, 0);
}

static int on_header_value(llhttp_t *h, const char *at, size_t len) {
  lhn_parser *p = enter(h);
  lhn_state *st = &p->st;
  int rv = track_header(p, len);
  if (rv != 0) return leave(p, rv);
  int32_t *pair = pair_at(p, st->pair_count - 1);
  if (st->num_values != st->num_fields) {
    /* a new value */
    st->num_values++;
    pair[LHN_PAIR_VALUE_START] = (int32_t)st->slab_len;
  }
  uint32_t used = slab_put(p, at, len);
  if (used == SLAB_FULL) return leave(p, out_of_memory(p));
  pair[LHN_PAIR_VALUE_END] = (int32_t)used;
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
    answer = p->events[(size_t)index * LHN_EVENT_SLOTS + LHN_EV_ANSWER];
  }
  int32_t *ev = event_push(p, LHN_EV_HEADERS_COMPLETE);
  if (!ev) return leave(p, out_of_memory(p));
  p->slab_wanted = 1;
  uint32_t text_start = ll->type == HTTP_REQUEST ? st->url_start : st->status_start;
  uint32_t text_end = ll->type == HTTP_REQUEST ? st->url_end : st->status_end;
  int32_t flags = (ll->upgrade ? LHN_HC_UPGRADE : 0) |
                  (p->ll->should_keep_alive(ll) ? LHN_HC_KEEP_ALIVE : 0);
  if (flushed) {
    ev[LHN_EV_FIRST_PAIR] = 0;
    ev[LHN_EV_PAIR_COUNT] = -1;
    p->previous_head.valid = 0;
  } else {
    trim_values(p, st->pair_base, st->num_values);
    if (st->have_flushed) {
      /* (no kOnHeadersComplete: part of the head left with a flush) */
      p->previous_head.valid = 0;
      tag_known_names(p, st->pair_base, st->num_values);
    } else {
      enum head_match match = head_repeats(p, text_start, text_end, st->pair_base, st->num_values);
      if (match == HEAD_REPEATS) {
        flags |= LHN_HC_REPEATS;
      } else {
        if (match == HEAD_RECORDED) flags |= LHN_HC_RECORDED;
        tag_known_names(p, st->pair_base, st->num_values);
      }
    }
    ev[LHN_EV_FIRST_PAIR] = (int32_t)st->pair_base;
    ev[LHN_EV_PAIR_COUNT] = (int32_t)st->num_values;
  }
  ev[LHN_EV_TEXT_START] = (int32_t)text_start;
  ev[LHN_EV_TEXT_END] = (int32_t)text_end;
  ev[LHN_EV_FLAGS] = flags;
  ev[LHN_EV_STATUS] = ll->status_code;
  ev[LHN_EV_METHOD] = ll->method;
  ev[LHN_EV_HTTP_MAJOR] = ll->http_major;
  ev[LHN_EV_HTTP_MINOR] = ll->http_minor;
  ev[LHN_EV_ANSWER] = answer;
  ev[LHN_EV_MESSAGE_NUMBER] = (int32_t)++p->message_number;
  st->headers_completed = 1;

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
    ev[LHN_EV_BODY_START] = (int32_t)(at - p->input);
    ev[LHN_EV_BODY_LENGTH] = (int32_t)len;
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
  pthread_once(&known_once, index_known_names);
  p->handlers = LHN_HAS_ALL;
  p->ll = lhn_llhttp_current();
  /* (A connection that sends one request records nothing.) */
  p->record_skip = LHN_RECORD_EVERY - 1;
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
  p->slab_version++;
  p->slab_wanted = 1;
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
  p->slab_wanted = 0;
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
  uint32_t serial = (uint32_t)ev[LHN_EV_SERIAL];
  if ((actions & LHN_REWIND_ANSWER) && ev[LHN_EV_KIND] == LHN_EV_HEADERS_COMPLETE) {
    ev[LHN_EV_ANSWER] = answer;
  }
  if (actions & LHN_REWIND_FAIL) {
    p->fail_serial = serial;
    p->fail_code = fail_code;
  }
  p->regen_limit = event_index + 1;
  p->st = p->saved;
  p->slab_version++;
  p->slab_wanted = 1;
  p->event_count = 0;
  run(p, data, len, out);
  return 0;
}

void lhn_parser_finish(lhn_parser *p, lhn_result *out) {
  p->event_count = 0;
  p->slab_wanted = 0;
  p->input = NULL;
  llhttp_errno_t err = p->ll->finish(&p->st.llhttp);
  report(p, NULL, 0, err, out);
}

uint32_t lhn_parser_event_count(const lhn_parser *p) { return p->event_count; }

const uint8_t *lhn_parser_take_slab(lhn_parser *p, size_t *len) {
  if (!p->slab_wanted || p->slab_version == p->slab_version_taken) return NULL;
  p->slab_version_taken = p->slab_version;
  *len = p->st.slab_len;
  return p->slab;
}
void lhn_parser_compaction(const lhn_parser *p, uint32_t *pairs, uint32_t *bytes) {
  *pairs = p->compacted_pairs;
  *bytes = p->compacted_bytes;
}

int lhn_parser_headers_completed(const lhn_parser *p) { return p->st.headers_completed; }

uint64_t lhn_parser_message_start_ns(const lhn_parser *p) { return p->st.message_start_ns; }

void lhn_parser_set_message_start(lhn_parser *p, uint64_t start_ns) {
  p->st.message_start_ns = start_ns;
}

void lhn_parser_stats(const lhn_parser *p, lhn_stats *out) {
  out->allocations = p->allocations;
  out->slab_growths = p->slab_growths;
  out->slab_capacity = p->slab_cap;
}

void lhn_parser_pause(lhn_parser *p) { p->ll->pause(&p->st.llhttp); }

void lhn_parser_resume(lhn_parser *p) { p->ll->resume(&p->st.llhttp); }

void lhn_parser_destroy(lhn_parser *p) {
  free(p->previous_head.bytes);
  memset(&p->previous_head, 0, sizeof(p->previous_head));
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
