/*
 * The core's private memory: a parser's held head and repeat record, the
 * blocks no caller reads. (A workspace's event list and pair table, which
 * JavaScript reads, grow through lhn_grow_fn instead: lhn_parser.h.)
 */
#ifndef LHN_MEMORY_H
#define LHN_MEMORY_H

#include <stddef.h>
#include <stdlib.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Resizes block (NULL: a new one) to size bytes keeping its first bytes, as
 * realloc; size 0 frees it and returns NULL. Returns NULL when out of memory
 * (block is then unchanged). NULL function: realloc and free. */
typedef void *(*lhn_resize_fn)(void *ctx, void *block, size_t size);

typedef struct lhn_memory {
  lhn_resize_fn resize;
  void *ctx;
} lhn_memory;

/* mem's resize of block to size bytes (see lhn_resize_fn). */
static inline void *lhn_resize(const lhn_memory *mem, void *block, size_t size) {
  if (mem->resize) return mem->resize(mem->ctx, block, size);
  if (size == 0) {
    free(block);
    return NULL;
  }
  return realloc(block, size);
}

#ifdef __cplusplus
}
#endif

#endif /* LHN_MEMORY_H */
