/*
 * A workspace's event list and pair table (internal to src/core), the two
 * tables JavaScript reads. Every function that can fail for lack of memory
 * changes nothing when it fails, so that a callback runs out of memory
 * before it changes any state ("reserve, then commit").
 */
#ifndef LHN_TABLES_H
#define LHN_TABLES_H

#include "lhn_parser.h"

/* Room for `count` events in all: the slow path of lhn_events_reserve().
 * 0, or -1 when out of memory (nothing changed). */
int lhn_events_grow(lhn_workspace *ws, uint32_t count);

/* Room for `count` pairs in all: the slow path of lhn_pairs_reserve(). 0,
 * or -1 when out of memory (nothing changed). */
int lhn_pairs_grow(lhn_workspace *ws, uint32_t count);

/* Room for `count` pairs in the copy of the held pairs that rewinds
 * restore. */
int lhn_saved_pairs_reserve(lhn_workspace *ws, uint32_t count);

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

/* The slots of pair `index` (below pair_cap). */
static inline int32_t *lhn_pair_at(lhn_workspace *ws, uint32_t index) {
  return ws->pairs + (size_t)index * LHN_PAIR_SLOTS;
}

#endif /* LHN_TABLES_H */
