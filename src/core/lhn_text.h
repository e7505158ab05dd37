/*
 * The text of a call (internal to src/core): the bytes its spans (header
 * names and values, the URL, the status text) are offsets into.
 *
 * A call's text is two texts end to end: the parser's held bytes (the head
 * that arrived in earlier calls, as it came, copied into the workspace's
 * scratch once as the call begins; none when nothing was held) and then the
 * input, from its first byte after held bytes, from the first span
 * otherwise. A span of the input lies where it lies: nothing is copied per
 * span, and a head cut anywhere gets the layout it has whole. Only where the
 * core or the caller needs the bytes in one piece (at a head's end, when the
 * call hands its text over) is the input's part copied after the held bytes,
 * in one copy ("filled").
 *
 * One case breaks the order: a piece that continues a span away from that
 * span's end (an obs-fold value's next line). The text is then copied into
 * the scratch up to the span's end, and from there on every span is copied
 * after it ("copying"), the bytes between a head's spans too.
 *
 * The span functions are inline: they run once per llhttp callback.
 */
#ifndef LHN_TEXT_H
#define LHN_TEXT_H

#include "lhn_parser.h"

#include <string.h>

/* The `end` of a span that continues no earlier one. */
#define LHN_FRESH UINT32_MAX

/* Grows the scratch to at least count bytes. 0, or -1 when out of memory
 * (nothing changed). */
int lhn_scratch_grow(lhn_workspace *ws, size_t count);

/* Copies the input's part of the text up to offset `end` after the held
 * bytes (after lhn_text_reserve(ws, end)). */
void lhn_text_fill(lhn_workspace *ws, uint32_t end);

/* Turns the text into the scratch's copy, up to offset `end`, so that a
 * piece continuing the span that ends there can follow it. After
 * lhn_span_reserve(). */
void lhn_text_to_scratch(lhn_workspace *ws, uint32_t end);

/* Copies text bytes [from, to) of the call under way to out. */
void lhn_text_copy(const lhn_workspace *ws, uint8_t *out, uint32_t from, uint32_t to);

/* Makes `at` the input byte at text offset `prefix`. */
static inline void lhn_text_place(lhn_workspace *ws, const char *at) {
  ws->origin = at;
  ws->text_zero = (uintptr_t)at - ws->prefix;
}

/* Starts the text of a call: `held` bytes already at the scratch's front
 * (0: none), followed by the input from `data` on, when the held bytes are
 * a head (or trailers) that the input continues, else (NULL) from the
 * call's first span on. */
static inline void lhn_text_begin(lhn_workspace *ws, uint32_t held, const char *data) {
  ws->prefix = held;
  ws->filled = held;
  ws->origin = NULL;
  if (held && data) lhn_text_place(ws, data);
  ws->copying = 0;
  ws->text_len = 0;
  ws->mirror = NULL;
  ws->text_end = 0;
}

/* The text offset of input byte `at`, when the input is the text. */
static inline uint32_t lhn_text_offset(const lhn_workspace *ws, const char *at) {
  return (uint32_t)((uintptr_t)at - ws->text_zero);
}

/* Room for the text [0, end) in one piece, where that takes the scratch
 * (held bytes, then the input's part): before a callback that needs it
 * changes anything. 0, or -1 when out of memory. */
static inline int lhn_text_reserve(lhn_workspace *ws, uint32_t end) {
  if (ws->prefix == 0 || ws->copying || end <= ws->scratch_cap) return 0;
  return lhn_scratch_grow(ws, end);
}

/* The bytes text offsets [0, end) of the call under way refer to, in one
 * piece (after lhn_text_reserve(ws, end)). */
static inline const uint8_t *lhn_text_upto(lhn_workspace *ws, uint32_t end) {
  if (ws->copying) return ws->scratch;
  if (ws->prefix == 0) return (const uint8_t *)ws->origin;
  if (end > ws->filled) lhn_text_fill(ws, end);
  return ws->scratch;
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

/* Copying: the bytes of the input before `at` that a fresh span brings
 * with it, those since the last span of its head. */
static inline size_t lhn_span_gap(const lhn_workspace *ws, const char *at, uint32_t end) {
  return end == LHN_FRESH && ws->mirror != NULL && at >= ws->mirror ? (size_t)(at - ws->mirror) : 0;
}

/* Room for the span at[0, len), `end` as for lhn_span_put(), where it
 * needs the scratch: copying, or a break (the text up to `end` is copied).
 * Spans in order need none: the text is filled in one piece later. */
static inline int lhn_span_reserve(lhn_workspace *ws, const char *at, size_t len, uint32_t end) {
  size_t used;
  if (end == LHN_FRESH) {
    if (!ws->copying) return 0;
    used = ws->text_len + lhn_span_gap(ws, at, end);
  } else if (!ws->copying && ws->origin != NULL && lhn_text_offset(ws, at) == end) {
    return 0;
  } else {
    used = end;
  }
  if (used <= ws->scratch_cap && len <= ws->scratch_cap - used) return 0;
  return lhn_scratch_grow(ws, used + len);
}

/* The text offset of the span at[0, len) (after lhn_span_reserve()): where
 * it lies in the input, or where it is copied to. `end`: the end of the
 * span it continues (LHN_FRESH: none), which it then follows. */
static inline uint32_t lhn_span_put(lhn_workspace *ws, const char *at, size_t len, uint32_t end) {
  if (!ws->copying) {
    if (ws->origin == NULL) lhn_text_place(ws, at);
    uint32_t pos = lhn_text_offset(ws, at);
    if (end == LHN_FRESH || pos == end) return pos;
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

#endif /* LHN_TEXT_H */
