/* Workspaces: their buffers and what callers read of them (lhn_parser.h). */
#include "lhn_parser.h"
#include "lhn_tables.h"

#include <stdlib.h>
#include <string.h>

/* First capacities of a workspace, one per thread and nesting depth: enough
 * for a typical call (a median browser head has 10-14 headers and makes 4
 * events; a pipelined batch a few times that). */
#define FIRST_EVENTS 32u
#define FIRST_PAIRS 64u
#define FIRST_SAVED_PAIRS 32u

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

static const size_t EVENT_BYTES = LHN_EVENT_SLOTS * sizeof(int32_t);
static const size_t PAIR_BYTES = LHN_PAIR_SLOTS * sizeof(int32_t);

int lhn_events_grow(lhn_workspace *ws, uint32_t count) {
  uint32_t cap = next_cap(ws->event_cap, FIRST_EVENTS, count);
  void *block = grow_block(ws, LHN_BUF_EVENTS, ws->events, ws->event_cap * EVENT_BYTES, cap * EVENT_BYTES);
  if (!block) return -1;
  ws->events = block;
  ws->event_cap = cap;
  return 0;
}

int lhn_pairs_grow(lhn_workspace *ws, uint32_t count) {
  uint32_t cap = next_cap(ws->pair_cap, FIRST_PAIRS, count);
  void *block = grow_block(ws, LHN_BUF_PAIRS, ws->pairs, ws->pair_cap * PAIR_BYTES, cap * PAIR_BYTES);
  if (!block) return -1;
  ws->pairs = block;
  ws->pair_cap = cap;
  return 0;
}

int lhn_saved_pairs_reserve(lhn_workspace *ws, uint32_t count) {
  if (count <= ws->saved_pairs_cap) return 0;
  uint32_t cap = next_cap(ws->saved_pairs_cap, FIRST_SAVED_PAIRS, count);
  void *block = realloc(ws->saved_pairs, cap * PAIR_BYTES);
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

int lhn_workspace_prepare(lhn_workspace *ws) {
  if (ws->event_cap == 0 && lhn_events_grow(ws, FIRST_EVENTS) != 0) return -1;
  if (ws->pair_cap == 0 && lhn_pairs_grow(ws, FIRST_PAIRS) != 0) return -1;
  return 0;
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

uint32_t lhn_workspace_event_count(const lhn_workspace *ws) { return ws->event_count; }

const int32_t *lhn_workspace_event(const lhn_workspace *ws, uint32_t i) {
  return ws->events + (size_t)i * LHN_EVENT_SLOTS;
}

const int32_t *lhn_workspace_pair(const lhn_workspace *ws, uint32_t i) {
  return ws->pairs + (size_t)i * LHN_PAIR_SLOTS;
}

uint32_t lhn_workspace_pair_capacity(const lhn_workspace *ws) { return ws->pair_cap; }

const uint8_t *lhn_workspace_text(const lhn_workspace *ws, size_t *len) {
  *len = ws->text_end;
  if (ws->text_end == 0) return NULL;
  /* (the call filled the scratch up to text_end as it ended: lhn_call.c) */
  return ws->copying || ws->prefix != 0 ? ws->scratch : (const uint8_t *)ws->origin;
}

const lhn_result *lhn_workspace_result(const lhn_workspace *ws) { return &ws->last; }

size_t lhn_workspace_bytes(const lhn_workspace *ws) {
  return ws->event_cap * EVENT_BYTES + ws->pair_cap * PAIR_BYTES + ws->scratch_cap +
         ws->saved_pairs_cap * PAIR_BYTES;
}

uint64_t lhn_workspace_growths(const lhn_workspace *ws) { return ws->growths; }
