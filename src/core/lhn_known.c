/* Well-known header names: see lhn_known.h. */
#include "lhn_known.h"

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
#define KNOWN_HASH_SIZE 512
#define KNOWN_PER_BUCKET 4
/* Each name with its length in 32 bytes of its own, so that a lookup in a
 * server, where these tables are cold, reads one bucket and one entry per
 * candidate. */
#define KNOWN_ENTRY_SIZE 32

typedef struct known_entry {
  uint8_t len;
  char name[KNOWN_ENTRY_SIZE - 1]; /* NUL-terminated: lhn_known_names() */
} known_entry;

_Static_assert(KNOWN_COUNT <= 255, "tags are index + 1 in a byte of the hash table");

static _Alignas(64) known_entry entries[KNOWN_COUNT];
static const char *names[KNOWN_COUNT];
/* bucket[hash][k]: index + 1 of the names with that hash (0: none) */
static uint8_t buckets[KNOWN_HASH_SIZE][KNOWN_PER_BUCKET];
static pthread_once_t built = PTHREAD_ONCE_INIT;

/* Of the length and the first and last bytes, ASCII case folded (so that a
 * name's usual spelling and its lower case share a bucket). */
static inline uint32_t known_hash(const uint8_t *bytes, size_t len) {
  uint32_t first = bytes[0] | 0x20, last = bytes[len - 1] | 0x20;
  return ((uint32_t)len * 61u + first * 7u + last * 3u) & (KNOWN_HASH_SIZE - 1);
}

static void add(size_t index, const char *name, int lower) {
  size_t len = strlen(name);
  if (len >= KNOWN_ENTRY_SIZE) abort(); /* a name too long for its entry */
  known_entry *entry = &entries[index];
  entry->len = (uint8_t)len;
  for (size_t i = 0; i < len; i++) {
    char c = name[i];
    entry->name[i] = lower && c >= 'A' && c <= 'Z' ? (char)(c + 0x20) : c;
  }
  names[index] = entry->name;
  uint8_t *bucket = buckets[known_hash((const uint8_t *)entry->name, len)];
  for (int k = 0; k < KNOWN_PER_BUCKET; k++) {
    if (bucket[k] == 0) {
      bucket[k] = (uint8_t)(index + 1);
      return;
    }
  }
  abort(); /* a bucket too small for the names that hash there */
}

static void build(void) {
  for (size_t i = 0; i < USUAL_COUNT; i++) {
    add(2 * i, usual_names[i], 0);
    add(2 * i + 1, usual_names[i], 1);
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
  if (len == 0 || len >= KNOWN_ENTRY_SIZE) return 0;
  const uint8_t *bucket = buckets[known_hash(bytes, len)];
  for (int k = 0; k < KNOWN_PER_BUCKET && bucket[k] != 0; k++) {
    const known_entry *entry = &entries[bucket[k] - 1];
    if (entry->len == len && same_name((const uint8_t *)entry->name, bytes, len)) return bucket[k];
  }
  return 0;
}

const char *const *lhn_known_names(size_t *count) {
  lhn_known_init();
  *count = KNOWN_COUNT;
  return names;
}
