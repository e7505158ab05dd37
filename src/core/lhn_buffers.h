/*
 * The core's buffers (internal to src/core): a workspace's event list, pair
 * table and scratch text, and a parser's held head. Every function that can
 * fail for lack of memory changes nothing when it fails, so that a callback
 * runs out of memory before it changes any state ("reserve, then commit").
 */
#ifndef LHN_BUFFERS_H
#define LHN_BUFFERS_H

#include "lhn_parser.h"

#include <string.h>

/* Slow paths of the inline functions below; 0 on success, -1 when out of
 * memory (nothing changed). */
int lhn_events_grow(lhn_workspace *ws, uint32_t count);
int lhn_pairs_grow(lhn_workspace *ws, uint32_t count);
int lhn_scratch_grow(lhn_workspace *ws, size_t count);

/* Room for `extra` more events. */
static inline int lhn_events_reserve(lhn_workspace *ws, uint32_t extra) {
  uint32_t need = ws->event_count + extra;
  return need <= ws->event_cap ? 0 : lhn_events_grow(ws, need);
}

/* Appends an event of `kind`; its other slots keep what they held (a
 * rewind's regenerated events find their answers there). NULL when out of
 * memory. */
static inline int32_t *lhn_event_push(lhn_workspace *ws, int kind, uint32_t serial) {
  if (lhn_events_reserve(ws, 1) != 0) return NULL;
  int32_t *ev = ws->events + (size_t)ws->event_count * LHN_EVENT_SLOTS;
  ws->event_count++;
  ev[LHN_EV_KIND] = kind;
  ev[LHN_EV_SERIAL] = (int32_t)serial;
  return ev;
}

/* Room for `count` pairs in all. */
static inline int lhn_pairs_reserve(lhn_workspace *ws, uint32_t count) {
  return count <= ws->pair_cap ? 0 : lhn_pairs_grow(ws, count);
}

static inline int32_t *lhn_pair_at(lhn_workspace *ws, uint32_t index) {
  return ws->pairs + (size_t)index * LHN_PAIR_SLOTS;
}

/* The bytes text offsets of the call under way refer to. */
static inline const uint8_t *lhn_text_base(const lhn_workspace *ws) {
  return ws->copying ? ws->scratch : (const uint8_t *)ws->origin;
}

/* Copies n bytes: inline for the short spans headers are made of (a call
 * of memcpy costs more than the copy). */
static inline void lhn_copy(uint8_t *to, const uint8_t *from, size_t n) {
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

/* The `end` of a span that continues no earlier one. */
#define LHN_FRESH UINT32_MAX

/* Turns a call whose text is the input into one that copies it: the input
 * up to text offset `end` becomes the scratch's first bytes (offsets keep
 * their meaning), so that a piece that continues the span ending there can
 * follow it (an obs-fold value's next line). After lhn_span_reserve(). */
void lhn_text_to_scratch(lhn_workspace *ws, uint32_t end);

/* Whether a span at `at` continuing the span that ends at `end` needs the
 * text copied: the input's bytes do not follow on. */
static inline int lhn_span_breaks(const lhn_workspace *ws, const char *at, uint32_t end) {
  return !ws->copying && end != LHN_FRESH && (uint32_t)(at - ws->origin) != end;
}

/* The bytes of the input before `at` that a fresh span copied into the
 * scratch brings with it: those since the last span of its head. */
static inline size_t lhn_span_gap(const lhn_workspace *ws, const char *at, uint32_t end) {
  return end == LHN_FRESH && ws->mirror != NULL && at >= ws->mirror ? (size_t)(at - ws->mirror) : 0;
}

/* Room for the span at[0, len) in the call's text, `end` as for
 * lhn_span_put(): in the scratch when the call copies (or must start to),
 * none needed when the text is the input. */
static inline int lhn_span_reserve(lhn_workspace *ws, const char *at, size_t len, uint32_t end) {
  size_t used = ws->copying ? (end != LHN_FRESH ? end : ws->text_len + lhn_span_gap(ws, at, end))
                            : lhn_span_breaks(ws, at, end) ? end : SIZE_MAX;
  if (used == SIZE_MAX || (used <= ws->scratch_cap && len <= ws->scratch_cap - used)) return 0;
  return lhn_scratch_grow(ws, used + len);
}

/* The text offset of the span at[0, len) (after lhn_span_reserve()): where
 * it lies in the input, or where it is copied to in the scratch. `end`: the
 * end of the span it continues (LHN_FRESH: none), which it then follows. */
static inline uint32_t lhn_span_put(lhn_workspace *ws, const char *at, size_t len, uint32_t end) {
  if (!ws->copying) {
    if (ws->origin == NULL) ws->origin = at;
    if (!lhn_span_breaks(ws, at, end)) return (uint32_t)(at - ws->origin);
    lhn_text_to_scratch(ws, end);
  }
  /* (a piece that continues a span follows it: what was copied after the
   * span's end, an obs-fold line break, goes) */
  if (end != LHN_FRESH) ws->text_len = end;
  /* (the bytes since the head's last span and the span, in one copy) */
  size_t gap = lhn_span_gap(ws, at, end);
  lhn_copy(ws->scratch + ws->text_len, (const uint8_t *)at - gap, gap + len);
  uint32_t pos = ws->text_len + (uint32_t)gap;
  ws->text_len = pos + (uint32_t)len;
  ws->mirror = at + len;
  return pos;
}

/* ---- the held head ---------------------------------------------------------- */

/* Stores the head arriving in pieces: the pairs [first, first + count) of
 * the workspace's table and the text bytes [from, to), with offsets made
 * relative to `from`. Resizes the parser's held head to fit (or allocates
 * it). 0, or -1 when out of memory (the held head is then unchanged). */
int lhn_held_store(lhn_parser *p, lhn_workspace *ws, uint32_t first, uint32_t count,
                   uint32_t from, uint32_t to);

/* Copies the held head into the workspace as a call begins: its pairs to the
 * front of the pair table (and to the rewind copy), its bytes to the front
 * of the scratch. 0, or -1 when out of memory. */
int lhn_held_restore(lhn_parser *p, lhn_workspace *ws);

/* Restores the pair table and scratch a rewind starts from. */
void lhn_held_rewind(lhn_workspace *ws);

/* Gives the held head back. */
void lhn_held_free(lhn_parser *p);

/* Bytes the held head takes (0 without one). */
size_t lhn_held_bytes(const lhn_parser *p);

#endif /* LHN_BUFFERS_H */
