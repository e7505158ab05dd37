/*
 * A parser's held head (internal to src/core): what of a message's head
 * (or trailers) has arrived when a call ends before it completes, kept
 * between calls in one block of the parser's memory, sized to what is
 * pending and given back once nothing is: its pairs (offsets relative to
 * its bytes) and its bytes as they came. Also the URL a trailers' flush
 * passes again, and headers kept for the trailers.
 */
#ifndef LHN_HELD_H
#define LHN_HELD_H

#include "lhn_parser.h"

/* Stores the pending part of the call under way: pairs [first, first +
 * count) of the workspace's table and text bytes [from, to), offsets made
 * relative to `from`, in p's held head (resized to fit, or made). 0, or -1
 * when out of memory (the held head is then unchanged). */
int lhn_held_store(lhn_parser *p, lhn_workspace *ws, uint32_t first, uint32_t count,
                   uint32_t from, uint32_t to);

/* As a call begins: copies p's held pairs to the front of the workspace's
 * pair table (and to its copy for rewinds) and its bytes to the front of
 * the scratch. Returns how many bytes, or -1 when out of memory. */
int64_t lhn_held_restore(lhn_parser *p, lhn_workspace *ws);

/* As a rewind begins: the pair table as the call began. */
void lhn_held_rewind(lhn_workspace *ws);

/* Gives the held head back (none: nothing). */
void lhn_held_free(lhn_parser *p);

#endif /* LHN_HELD_H */
