/* The repeat record: see lhn_repeat.h. */
#include "lhn_repeat.h"
#include "lhn_contract.h"

#include <string.h>

/* The layout of a head: text start and end, then each pair's four offsets,
 * relative to the head's base; then the head's bytes. */
struct lhn_repeat {
  uint32_t len;     /* head bytes */
  uint32_t slots;   /* layout values */
  uint32_t cap;     /* bytes of the block after this header */
  int valid;
  uint32_t layout[]; /* slots values, then len bytes */
};

#define LAYOUT_SLOTS(pairs) (2u + 4u * (pairs))

static void layout_of(const lhn_head *head, uint32_t *out) {
  out[0] = head->text_start - head->base;
  out[1] = head->text_end - head->base;
  const int32_t *pair = head->pairs;
  uint32_t *at = out + 2;
  for (uint32_t j = 0; j < head->pair_count; j++, pair += LHN_PAIR_SLOTS, at += 4) {
    at[0] = (uint32_t)pair[LHN_PAIR_NAME_START] - head->base;
    at[1] = (uint32_t)pair[LHN_PAIR_NAME_END] - head->base;
    at[2] = (uint32_t)pair[LHN_PAIR_VALUE_START] - head->base;
    at[3] = (uint32_t)pair[LHN_PAIR_VALUE_END] - head->base;
  }
}

static inline uint8_t *record_bytes(lhn_repeat *rec) {
  return (uint8_t *)(rec->layout + rec->slots);
}

void lhn_repeat_init(lhn_repeat_state *rs) {
  rs->record = NULL;
  /* (A connection that sends a few requests records nothing.) */
  rs->skip = LHN_RECORD_EVERY - 1;
}

void lhn_repeat_forget(lhn_repeat_state *rs) {
  if (rs->record) rs->record->valid = 0;
}

enum lhn_repeat_match lhn_repeat_check(lhn_repeat_state *rs, const lhn_head *head,
                                       const lhn_memory *mem) {
  lhn_repeat *rec = rs->record;
  uint32_t n = head->pair_count;
  if (n > LHN_REPEAT_MAX_PAIRS) {
    lhn_repeat_forget(rs);
    return LHN_HEAD_NEW;
  }
  uint32_t slots = LAYOUT_SLOTS(n);
  uint32_t layout[LAYOUT_SLOTS(LHN_REPEAT_MAX_PAIRS)];
  if (rec && rec->valid && rec->len == head->len && rec->slots == slots &&
      (head->len == 0 || memcmp(record_bytes(rec), head->bytes, head->len) == 0)) {
    layout_of(head, layout);
    if (memcmp(rec->layout, layout, (size_t)slots * sizeof(uint32_t)) == 0) return LHN_HEAD_REPEATS;
    /* the same bytes cut differently: record this cut */
    memcpy(rec->layout, layout, (size_t)slots * sizeof(uint32_t));
    return LHN_HEAD_RECORDED;
  }
  if (rs->skip > 0) {
    rs->skip--;
    lhn_repeat_forget(rs);
    return LHN_HEAD_NEW;
  }
  rs->skip = LHN_RECORD_EVERY - 1;
  size_t need = (size_t)slots * sizeof(uint32_t) + head->len;
  if (!rec || rec->cap < need) {
    lhn_repeat *grown = lhn_resize(mem, rec, sizeof(lhn_repeat) + need);
    if (!grown) {
      lhn_repeat_forget(rs);
      return LHN_HEAD_NEW;
    }
    rec = rs->record = grown;
    rec->cap = (uint32_t)need;
  }
  rec->slots = slots;
  rec->len = head->len;
  layout_of(head, rec->layout);
  if (head->len != 0) memcpy(record_bytes(rec), head->bytes, head->len);
  rec->valid = 1;
  return LHN_HEAD_RECORDED;
}

size_t lhn_repeat_bytes(const lhn_repeat_state *rs) {
  return rs->record ? sizeof(lhn_repeat) + rs->record->cap : 0;
}

void lhn_repeat_free(lhn_repeat_state *rs, const lhn_memory *mem) {
  if (rs->record) lhn_resize(mem, rs->record, 0);
  rs->record = NULL;
}
