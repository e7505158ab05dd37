/*
 * A thread's pool of small blocks for the parsers' held heads and repeat
 * records (an lhn_memory): a head that arrives in pieces takes a block and
 * gives it back when it completes, so that in steady state no message costs
 * a malloc, while an idle parser holds none. Blocks come in size classes
 * (powers of two, LHN_POOL_MIN to LHN_POOL_MAX bytes); a class keeps at most
 * LHN_POOL_KEEP bytes of free blocks; larger blocks are malloc's. Not
 * thread-safe: one pool per thread (per addon instance).
 */
#ifndef LHN_POOL_H
#define LHN_POOL_H

#include <stddef.h>
#include <stdint.h>

#include "lhn_memory.h"

#ifdef __cplusplus
extern "C" {
#endif

#define LHN_POOL_MIN 128u
#define LHN_POOL_MAX 32768u
#define LHN_POOL_CLASSES 9 /* 128, 256, ..., 32768 */
#define LHN_POOL_KEEP 65536u

typedef struct lhn_pool {
  void *free[LHN_POOL_CLASSES]; /* free blocks of each class, linked */
  size_t kept[LHN_POOL_CLASSES]; /* bytes of them */
  uint64_t mallocs;             /* blocks the pool got from malloc */
  size_t in_use;                /* bytes of blocks handed out */
} lhn_pool;

/* An empty pool (caller-owned memory). */
void lhn_pool_init(lhn_pool *pool);

/* Frees the free blocks (blocks in use stay their holders'). */
void lhn_pool_destroy(lhn_pool *pool);

/* lhn_resize_fn over a pool (ctx: the lhn_pool). */
void *lhn_pool_resize(void *ctx, void *block, size_t size);

/* An lhn_memory that takes its blocks from pool. */
static inline lhn_memory lhn_pool_memory(lhn_pool *pool) {
  lhn_memory mem = {lhn_pool_resize, pool};
  return mem;
}

#ifdef __cplusplus
}
#endif

#endif /* LHN_POOL_H */
