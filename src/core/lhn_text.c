/* The text of a call: see lhn_text.h. */
#include "lhn_text.h"

#include <stdlib.h>

/* First capacity of a workspace's scratch: a typical head held in pieces. */
#define FIRST_SCRATCH 4096u

/* Text offsets are int32 for JavaScript's Int32Array views. */
#define MAX_TEXT ((size_t)INT32_MAX)

int lhn_scratch_grow(lhn_workspace *ws, size_t count) {
  if (count > MAX_TEXT) return -1;
  size_t cap = ws->scratch_cap ? ws->scratch_cap : FIRST_SCRATCH;
  while (cap < count) cap *= 2;
  if (cap > MAX_TEXT) cap = MAX_TEXT;
  void *block = realloc(ws->scratch, cap);
  if (!block) return -1;
  ws->growths++;
  ws->scratch = block;
  ws->scratch_cap = (uint32_t)cap;
  return 0;
}

void lhn_text_fill(lhn_workspace *ws, uint32_t end) {
  uint32_t from = ws->filled;
  if (end <= from) return;
  memcpy(ws->scratch + from, ws->origin + (from - ws->prefix), end - from);
  ws->filled = end;
}

void lhn_text_to_scratch(lhn_workspace *ws, uint32_t end) {
  if (ws->prefix == 0) {
    if (end) memcpy(ws->scratch, ws->origin, end);
  } else if (end > ws->filled) {
    lhn_text_fill(ws, end);
  }
  ws->copying = 1;
  ws->text_len = end;
  ws->mirror = NULL;
}

void lhn_text_copy(const lhn_workspace *ws, uint8_t *out, uint32_t from, uint32_t to) {
  if (to <= from) return;
  if (!ws->copying && ws->prefix == 0) {
    memcpy(out, ws->origin + from, to - from);
    return;
  }
  uint32_t in_scratch = ws->copying ? to : ws->filled;
  if (from < in_scratch) {
    uint32_t n = (to < in_scratch ? to : in_scratch) - from;
    memcpy(out, ws->scratch + from, n);
    out += n;
    from += n;
  }
  if (to > from) memcpy(out, ws->origin + (from - ws->prefix), to - from);
}
