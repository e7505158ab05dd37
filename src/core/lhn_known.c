/* Well-known header names: see lhn_known.h. */
#include "lhn_known.h"
#include "lhn_contract.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* Each name once, as usually written; the table adds its lower case. */
static const char *const usual_names[] = {
  "TE", "Age", "DNT", "Via", "Date", "ETag", "From", "Host", "Link", "Vary", "Allow",
  "Range", "Accept", "Cookie", "Expect", "Origin", "Pragma", "Server", "Expires", "Referer",
  "Trailer", "Upgrade", "Warning", "If-Match", "If-Range", "Location", "Priority",
  "Forwarded", "X-Real-IP", "Connection", "Keep-Alive", "Set-Cookie", "User-Agent",
  "Retry-After", "Content-Type", "X-Request-ID", "Accept-Ranges", "Authorization",
  "Cache-Control", "Content-Range", "If-None-Match", "Last-Modified", "Accept-Charset",
  "Content-Length", "Sec-Fetch-Dest", "Sec-Fetch-Mode", "Sec-Fetch-Site", "Sec-Fetch-User",
  "Accept-Encoding", "Accept-Language", "X-Forwarded-For", "Content-Encoding",
  "Content-Language", "Content-Location", "WWW-Authenticate", "X-Forwarded-Host",
  "X-Requested-With", "If-Modified-Since", "Sec-WebSocket-Key", "Transfer-Encoding",
  "X-Forwarded-Proto", "Content-Disposition", "If-Unmodified-Since", "Proxy-Authorization",
  "Sec-WebSocket-Version", "Sec-WebSocket-Extensions", "Strict-Transport-Security",
  "Upgrade-Insecure-Requests", "Access-Control-Allow-Origin",
};
#define USUAL_COUNT (sizeof(usual_names) / sizeof(usual_names[0]))
#define KNOWN_COUNT (2 * USUAL_COUNT)
/* An open-addressed table of the names themselves, each with its length and
 * tag in 32 bytes of its own, linear probing, at most half full: a lookup
 * in a server, where the table is cold, mostly reads one cache line (a name
 * and its lower case hash to the same place, and so sit side by side). */
#define KNOWN_SLOTS 512
#define KNOWN_ENTRY_SIZE 32

typedef struct known_entry {
  uint8_t len; /* 0: an empty slot */
  uint8_t tag; /* index + 1 in names[] */
  char name[KNOWN_ENTRY_SIZE - 2]; /* NUL-terminated: lhn_known_names() */
} known_entry;

_Static_assert(KNOWN_COUNT <= 255, "tags are index + 1 in a byte");
_Static_assert(2 * KNOWN_COUNT <= KNOWN_SLOTS, "the table stays at most half full");
_Static_assert(sizeof(known_entry) == KNOWN_ENTRY_SIZE, "an entry is 32 bytes");

static _Alignas(64) known_entry slots[KNOWN_SLOTS];
static const char *names[KNOWN_COUNT];

/* The names a request's way in looks for (lhn_known_field()), in lower
 * case, with their field bits (their usual spellings and lower case are
 * well-known names too, found by tag). */
#define FIELD(name, bit) {name, sizeof(name) - 1, bit}
static const struct {
  const char *name;
  uint8_t len;
  uint8_t bit;
} fields[] = {
  FIELD("host", LHN_HC_HOST),
  FIELD("expect", LHN_HC_EXPECT),
  FIELD("content-length", LHN_HC_BODY_FIELDS),
  FIELD("transfer-encoding", LHN_HC_BODY_FIELDS),
};
#define FIELD_COUNT (sizeof(fields) / sizeof(fields[0]))
/* The field bit of each tag (index + 1 in names[]), 0 for most. */
static uint8_t field_of_tag[KNOWN_COUNT + 1];
/* Bit n: a name of length n may be one of fields[] (most names are of
 * other lengths, all under 32). */
static uint32_t field_lengths;
static pthread_once_t built = PTHREAD_ONCE_INIT;

/* Of the length and the first and last bytes, ASCII case folded (so that a
 * name's usual spelling and its lower case share a bucket). */
static inline uint32_t known_hash(const uint8_t *bytes, size_t len) {
  uint32_t first = bytes[0] | 0x20, last = bytes[len - 1] | 0x20;
  return ((uint32_t)len * 61u + first * 7u + last * 3u) & (KNOWN_SLOTS - 1);
}

static void add(size_t index, const char *name, int lower) {
  size_t len = strlen(name);
  if (len >= KNOWN_ENTRY_SIZE - 2) abort(); /* a name too long for its entry */
  uint8_t folded[KNOWN_ENTRY_SIZE];
  for (size_t i = 0; i < len; i++) {
    char c = name[i];
    folded[i] = (uint8_t)(lower && c >= 'A' && c <= 'Z' ? c + 0x20 : c);
  }
  uint32_t at = known_hash(folded, len);
  while (slots[at].len != 0) at = (at + 1) & (KNOWN_SLOTS - 1);
  known_entry *entry = &slots[at];
  entry->len = (uint8_t)len;
  entry->tag = (uint8_t)(index + 1);
  memcpy(entry->name, folded, len);
  names[index] = entry->name;
}

/* Whether a[0..len) is b[0..len) (lower case) in any ASCII case. */
static int same_folded(const uint8_t *a, const char *b, size_t len) {
  for (size_t i = 0; i < len; i++) {
    uint8_t c = a[i];
    if (c >= 'A' && c <= 'Z') c += 0x20;
    if (c != (uint8_t)b[i]) return 0;
  }
  return 1;
}

static void build(void) {
  for (size_t i = 0; i < USUAL_COUNT; i++) {
    add(2 * i, usual_names[i], 0);
    add(2 * i + 1, usual_names[i], 1);
  }
  for (size_t f = 0; f < FIELD_COUNT; f++) {
    field_lengths |= 1u << fields[f].len;
    for (size_t i = 0; i < KNOWN_COUNT; i++) {
      if (strlen(names[i]) == fields[f].len && same_folded((const uint8_t *)names[i], fields[f].name, fields[f].len)) {
        field_of_tag[i + 1] = fields[f].bit;
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

void lhn_known_init(void) { pthread_once(&built, build); }

int32_t lhn_known_name(const uint8_t *bytes, size_t len) {
  if (len == 0 || len >= KNOWN_ENTRY_SIZE - 2) return 0;
  for (uint32_t at = known_hash(bytes, len);; at = (at + 1) & (KNOWN_SLOTS - 1)) {
    const known_entry *entry = &slots[at];
    if (entry->len == 0) return 0;
    if (entry->len == len && same_name((const uint8_t *)entry->name, bytes, len)) return entry->tag;
  }
}

int32_t lhn_known_field(const uint8_t *bytes, size_t len, int32_t tag) {
  if (tag != 0) return field_of_tag[tag];
  /* (a name in another case than its usual spelling or lower case) */
  if (len >= 32 || ((field_lengths >> len) & 1u) == 0) return 0;
  for (size_t f = 0; f < FIELD_COUNT; f++) {
    if (fields[f].len == len && same_folded(bytes, fields[f].name, len)) return fields[f].bit;
  }
  return 0;
}

const char *const *lhn_known_names(size_t *count) {
  lhn_known_init();
  *count = KNOWN_COUNT;
  return names;
}
