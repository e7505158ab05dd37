/*
 * The repeat record: whether a message's head repeats the previous message's
 * byte for byte (keep-alive clients that send the same request again), so
 * that a caller may hand out again the strings it made for that one
 * (LHN_HC_REPEATS) instead of cutting new ones.
 *
 * The record holds the bytes and the layout of one head. Heads that do not
 * repeat are recorded one in LHN_RECORD_EVERY, starting with a parser's
 * LHN_RECORD_EVERY-th message: a stream that starts repeating is found
 * within that many messages, a stream that never does costs one record in
 * that many, and a connection that sends a few requests records none. The
 * caller keeps its strings for a recorded head (LHN_HC_RECORDED) and for a
 * repeating one, which stays recorded.
 */
#ifndef LHN_REPEAT_H
#define LHN_REPEAT_H

#include <stdint.h>

#include "lhn_memory.h"

#ifdef __cplusplus
extern "C" {
#endif

#define LHN_RECORD_EVERY 4

/* Heads with more pairs than this are never recorded. */
#define LHN_REPEAT_MAX_PAIRS 64

typedef struct lhn_repeat lhn_repeat;

/* A head as the core sees it at headers complete: bytes[0, len) from its
 * first span to its last, and the text's and pairs' offsets (LHN_PAIR_SLOTS
 * values each) relative to text position `base`. */
typedef struct lhn_head {
  const uint8_t *bytes;
  uint32_t len;
  uint32_t base;
  uint32_t text_start, text_end;
  const int32_t *pairs;
  uint32_t pair_count;
} lhn_head;

/* What lhn_repeat_check() found. */
enum lhn_repeat_match {
  LHN_HEAD_NEW = 0,      /* neither repeats nor was recorded */
  LHN_HEAD_REPEATS = 1,  /* the same bytes and layout as the record */
  LHN_HEAD_RECORDED = 2  /* recorded now */
};

/* State a parser keeps for its repeat record: the record (NULL until the
 * first one), and how many heads to pass over before the next. */
typedef struct lhn_repeat_state {
  lhn_repeat *record;
  uint32_t skip;
} lhn_repeat_state;

/* Sets up *rs for a new parser. */
void lhn_repeat_init(lhn_repeat_state *rs);

/* Whether head repeats the recorded one. When it does not, records it if it
 * is the LHN_RECORD_EVERY-th such head, else forgets the record: the record
 * is always the previous message's or none. Compares the byte counts first,
 * so that a head of another length costs a few instructions. A record that
 * cannot be allocated is none. */
enum lhn_repeat_match lhn_repeat_check(lhn_repeat_state *rs, const lhn_head *head,
                                       const lhn_memory *mem);

/* Forgets the record (the next head cannot repeat it). */
void lhn_repeat_forget(lhn_repeat_state *rs);

/* Bytes the record holds (0 without one). */
size_t lhn_repeat_bytes(const lhn_repeat_state *rs);

/* Frees the record. */
void lhn_repeat_free(lhn_repeat_state *rs, const lhn_memory *mem);

#ifdef __cplusplus
}
#endif

#endif /* LHN_REPEAT_H */
