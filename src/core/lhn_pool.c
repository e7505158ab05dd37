/* A thread's pool of small blocks: see lhn_pool.h. */
#include "lhn_pool.h"

#include <stdlib.h>
#include <string.h>

/* Each block starts with its header; callers get what follows. */
typedef struct block_header {
  union {
    struct {
      uint32_t cls;  /* size class, or LHN_POOL_CLASSES: a malloc of its own */
      uint32_t size; /* bytes after the header */
    } info;
    void *next;      /* in a free list */
    max_align_t align;
  } u;
} block_header;

static inline uint32_t class_of(size_t size) {
  uint32_t cls = 0;
  size_t cap = LHN_POOL_MIN;
  while (cap < size && cls < LHN_POOL_CLASSES) {
    cap *= 2;
    cls++;
  }
  return cls;
}

static inline size_t class_size(uint32_t cls) { return (size_t)LHN_POOL_MIN << cls; }

void lhn_pool_init(lhn_pool *pool) { memset(pool, 0, sizeof(*pool)); }

void lhn_pool_destroy(lhn_pool *pool) {
  for (int cls = 0; cls < LHN_POOL_CLASSES; cls++) {
    void *b = pool->free[cls];
    while (b) {
      void *next = ((block_header *)b)->u.next;
      free(b);
      b = next;
    }
    pool->free[cls] = NULL;
    pool->kept[cls] = 0;
  }
}

static block_header *take(lhn_pool *pool, size_t size) {
  uint32_t cls = class_of(size);
  block_header *h;
  size_t bytes = cls < LHN_POOL_CLASSES ? class_size(cls) : size;
  if (cls < LHN_POOL_CLASSES && pool->free[cls]) {
    h = pool->free[cls];
    pool->free[cls] = h->u.next;
    pool->kept[cls] -= bytes;
  } else {
    h = malloc(sizeof(block_header) + bytes);
    if (!h) return NULL;
    pool->mallocs++;
  }
  h->u.info.cls = cls;
  h->u.info.size = (uint32_t)bytes;
  pool->in_use += bytes;
  return h;
}

static void give_back(lhn_pool *pool, block_header *h) {
  uint32_t cls = h->u.info.cls;
  size_t bytes = h->u.info.size;
  pool->in_use -= bytes;
  if (cls < LHN_POOL_CLASSES && pool->kept[cls] + bytes <= LHN_POOL_KEEP) {
    h->u.next = pool->free[cls];
    pool->free[cls] = h;
    pool->kept[cls] += bytes;
  } else {
    free(h);
  }
}

void *lhn_pool_resize(void *ctx, void *block, size_t size) {
  lhn_pool *pool = ctx;
  block_header *old = block ? (block_header *)block - 1 : NULL;
  if (size == 0) {
    if (old) give_back(pool, old);
    return NULL;
  }
  if (size > UINT32_MAX) return NULL;
  if (old && size <= old->u.info.size && class_of(size) == old->u.info.cls) return block;
  block_header *h = take(pool, size);
  if (!h) return NULL;
  if (old) {
    size_t keep = old->u.info.size < size ? old->u.info.size : size;
    memcpy(h + 1, old + 1, keep);
    give_back(pool, old);
  }
  return h + 1;
}
