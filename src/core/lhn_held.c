/* A parser's held head: see lhn_held.h. */
#include "lhn_held.h"
#include "lhn_tables.h"
#include "lhn_text.h"

#include <stdlib.h>
#include <string.h>

struct lhn_held {
  uint32_t cap;        /* bytes asked for after this header */
  uint32_t pair_count;
  uint32_t text_len;
  int32_t pairs[];     /* pair_count * LHN_PAIR_SLOTS values, then text_len bytes */
};

static inline uint8_t *held_text(lhn_held *held) {
  return (uint8_t *)(held->pairs + (size_t)held->pair_count * LHN_PAIR_SLOTS);
}

int lhn_held_store(lhn_parser *p, lhn_workspace *ws, uint32_t first, uint32_t count,
                   uint32_t from, uint32_t to) {
  size_t pair_bytes = (size_t)count * LHN_PAIR_SLOTS * sizeof(int32_t);
  size_t need = pair_bytes + (to - from);
  /* (sized to what is pending: a flush may have delivered most of it) */
  lhn_held *held = lhn_resize(&p->mem, p->held, sizeof(lhn_held) + need);
  if (!held) return -1;
  p->held = held;
  held->cap = (uint32_t)need;
  held->pair_count = count;
  held->text_len = to - from;
  const int32_t *pair = count ? lhn_pair_at(ws, first) : NULL;
  int32_t shift = (int32_t)from;
  /* (a head's first span is usually the text's first byte: nothing moves) */
  if (shift == 0 && count) memcpy(held->pairs, pair, pair_bytes);
  for (size_t i = 0; shift != 0 && i < (size_t)count * LHN_PAIR_SLOTS; i += LHN_PAIR_SLOTS) {
    held->pairs[i + LHN_PAIR_NAME_START] = pair[i + LHN_PAIR_NAME_START] - shift;
    held->pairs[i + LHN_PAIR_NAME_END] = pair[i + LHN_PAIR_NAME_END] - shift;
    held->pairs[i + LHN_PAIR_VALUE_START] = pair[i + LHN_PAIR_VALUE_START] - shift;
    held->pairs[i + LHN_PAIR_VALUE_END] = pair[i + LHN_PAIR_VALUE_END] - shift;
    held->pairs[i + LHN_PAIR_KNOWN_NAME] = pair[i + LHN_PAIR_KNOWN_NAME];
  }
  lhn_text_copy(ws, held_text(held), from, to);
  return 0;
}

int64_t lhn_held_restore(lhn_parser *p, lhn_workspace *ws) {
  lhn_held *held = p->held;
  uint32_t n = held->pair_count;
  if (lhn_pairs_reserve(ws, n) != 0 || lhn_saved_pairs_reserve(ws, n) != 0) return -1;
  if (held->text_len > ws->scratch_cap && lhn_scratch_grow(ws, held->text_len) != 0) return -1;
  size_t pair_bytes = (size_t)n * LHN_PAIR_SLOTS * sizeof(int32_t);
  if (n) {
    memcpy(ws->pairs, held->pairs, pair_bytes);
    memcpy(ws->saved_pairs, held->pairs, pair_bytes);
  }
  if (held->text_len) memcpy(ws->scratch, held_text(held), held->text_len);
  ws->saved_pair_count = n;
  return held->text_len;
}

void lhn_held_rewind(lhn_workspace *ws) {
  if (ws->saved_pair_count) {
    memcpy(ws->pairs, ws->saved_pairs, (size_t)ws->saved_pair_count * LHN_PAIR_SLOTS * sizeof(int32_t));
  }
}

void lhn_held_free(lhn_parser *p) {
  if (p->held) lhn_resize(&p->mem, p->held, 0);
  p->held = NULL;
}

size_t lhn_parser_held_bytes(const lhn_parser *p) {
  return p->held ? sizeof(lhn_held) + p->held->cap : 0;
}
