/* The core's buffers: see lhn_buffers.h. */
#include "lhn_buffers.h"

#include <stdlib.h>

/* First capacities of a workspace, one per thread and nesting depth: enough
 * for a typical call (a median browser head has 10-14 headers and makes 4
 * events; a pipelined batch a few times that). */
#define FIRST_EVENTS 32u
#define FIRST_PAIRS 64u
#define FIRST_SCRATCH 4096u

/* Text offsets are int32 for JavaScript's Int32Array views. */
#define MAX_TEXT ((size_t)INT32_MAX)

struct lhn_held {
  uint32_t cap;        /* bytes asked for after this header */
  uint32_t pair_count;
  uint32_t text_len;
  int32_t pairs[];     /* pair_count * LHN_PAIR_SLOTS values, then text_len bytes */
};

static void *grow_block(lhn_workspace *ws, enum lhn_buffer_id id, void *old, size_t old_size,
                        size_t new_size) {
  void *block = ws->grow ? ws->grow(ws->grow_ctx, id, old, old_size, new_size)
                         : realloc(old, new_size);
  if (block) ws->growths++;
  return block;
}

static uint32_t next_cap(uint32_t cap, uint32_t first, size_t need) {
  size_t c = cap ? cap : first;
  while (c < need) c *= 2;
  return c > UINT32_MAX ? UINT32_MAX : (uint32_t)c;
}

int lhn_events_grow(lhn_workspace *ws, uint32_t count) {
  uint32_t cap = next_cap(ws->event_cap, FIRST_EVENTS, count);
  size_t slot = LHN_EVENT_SLOTS * sizeof(int32_t);
  void *block = grow_block(ws, LHN_BUF_EVENTS, ws->events, (size_t)ws->event_cap * slot, (size_t)cap * slot);
  if (!block) return -1;
  ws->events = block;
  ws->event_cap = cap;
  return 0;
}

int lhn_pairs_grow(lhn_workspace *ws, uint32_t count) {
  uint32_t cap = next_cap(ws->pair_cap, FIRST_PAIRS, count);
  size_t slot = LHN_PAIR_SLOTS * sizeof(int32_t);
  void *block = grow_block(ws, LHN_BUF_PAIRS, ws->pairs, (size_t)ws->pair_cap * slot, (size_t)cap * slot);
  if (!block) return -1;
  ws->pairs = block;
  ws->pair_cap = cap;
  return 0;
}

int lhn_scratch_grow(lhn_workspace *ws, size_t count) {
  if (count > MAX_TEXT) return -1;
  uint32_t cap = next_cap(ws->scratch_cap, FIRST_SCRATCH, count);
  if (cap > MAX_TEXT) cap = (uint32_t)MAX_TEXT;
  void *block = realloc(ws->scratch, cap);
  if (!block) return -1;
  ws->growths++;
  ws->scratch = block;
  ws->scratch_cap = cap;
  return 0;
}

void lhn_text_to_scratch(lhn_workspace *ws, uint32_t end) {
  if (end) memcpy(ws->scratch, ws->origin, end);
  ws->copying = 1;
  ws->text_len = end;
  ws->mirror = NULL;
}

static int saved_pairs_reserve(lhn_workspace *ws, uint32_t count) {
  if (count <= ws->saved_pairs_cap) return 0;
  uint32_t cap = next_cap(ws->saved_pairs_cap, 32u, count);
  void *block = realloc(ws->saved_pairs, (size_t)cap * LHN_PAIR_SLOTS * sizeof(int32_t));
  if (!block) return -1;
  ws->growths++;
  ws->saved_pairs = block;
  ws->saved_pairs_cap = cap;
  return 0;
}

void lhn_workspace_init(lhn_workspace *ws, lhn_grow_fn grow, void *grow_ctx) {
  memset(ws, 0, sizeof(*ws));
  ws->grow = grow;
  ws->grow_ctx = grow_ctx;
}

int lhn_workspace_reserve(lhn_workspace *ws, uint32_t events, uint32_t pairs) {
  if (events > ws->event_cap && lhn_events_grow(ws, events) != 0) return -1;
  if (pairs > ws->pair_cap && lhn_pairs_grow(ws, pairs) != 0) return -1;
  return 0;
}

void lhn_workspace_destroy(lhn_workspace *ws) {
  if (!ws->grow) {
    free(ws->events);
    free(ws->pairs);
  }
  free(ws->scratch);
  free(ws->saved_pairs);
  lhn_workspace_init(ws, ws->grow, ws->grow_ctx);
}

/* ---- the held head ---------------------------------------------------------- */

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
  for (size_t i = 0; i < (size_t)count * LHN_PAIR_SLOTS; i += LHN_PAIR_SLOTS) {
    held->pairs[i + LHN_PAIR_NAME_START] = pair[i + LHN_PAIR_NAME_START] - shift;
    held->pairs[i + LHN_PAIR_NAME_END] = pair[i + LHN_PAIR_NAME_END] - shift;
    held->pairs[i + LHN_PAIR_VALUE_START] = pair[i + LHN_PAIR_VALUE_START] - shift;
    held->pairs[i + LHN_PAIR_VALUE_END] = pair[i + LHN_PAIR_VALUE_END] - shift;
    held->pairs[i + LHN_PAIR_KNOWN_NAME] = pair[i + LHN_PAIR_KNOWN_NAME];
  }
  if (to > from) memcpy(held_text(held), lhn_text_base(ws) + from, to - from);
  return 0;
}

int lhn_held_restore(lhn_parser *p, lhn_workspace *ws) {
  lhn_held *held = p->held;
  uint32_t n = held->pair_count;
  if (lhn_pairs_reserve(ws, n) != 0 || saved_pairs_reserve(ws, n) != 0) return -1;
  if (held->text_len > ws->scratch_cap && lhn_scratch_grow(ws, held->text_len) != 0) return -1;
  size_t pair_bytes = (size_t)n * LHN_PAIR_SLOTS * sizeof(int32_t);
  if (n) {
    memcpy(ws->pairs, held->pairs, pair_bytes);
    memcpy(ws->saved_pairs, held->pairs, pair_bytes);
  }
  if (held->text_len) memcpy(ws->scratch, held_text(held), held->text_len);
  ws->text_len = held->text_len;
  return 0;
}

void lhn_held_rewind(lhn_workspace *ws) {
  ws->text_len = ws->saved_text_len;
  if (ws->saved_pair_count) {
    memcpy(ws->pairs, ws->saved_pairs, (size_t)ws->saved_pair_count * LHN_PAIR_SLOTS * sizeof(int32_t));
  }
}

void lhn_held_free(lhn_parser *p) {
  if (p->held) lhn_resize(&p->mem, p->held, 0);
  p->held = NULL;
}

size_t lhn_held_bytes(const lhn_parser *p) {
  return p->held ? sizeof(lhn_held) + p->held->cap : 0;
}
