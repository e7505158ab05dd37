/* Unit tests of a thread's block pool (src/core/lhn_pool.c). */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "../../src/core/lhn_pool.h"

static void test_reuse(void) {
  lhn_pool pool;
  lhn_pool_init(&pool);
  lhn_memory mem = lhn_pool_memory(&pool);
  void *a = lhn_resize(&mem, NULL, 100);
  CHECK(a != NULL && pool.mallocs == 1 && pool.in_use == LHN_POOL_MIN);
  memset(a, 7, 100);
  /* within its class: the same block */
  CHECK(lhn_resize(&mem, a, LHN_POOL_MIN) == a);
  /* a larger class: a new block holding the old bytes */
  unsigned char *b = lhn_resize(&mem, a, 1000);
  CHECK(b != NULL && b[0] == 7 && b[99] == 7 && pool.mallocs == 2);
  /* given back, then taken again: no malloc */
  lhn_resize(&mem, b, 0);
  CHECK(pool.in_use == 0);
  void *c = lhn_resize(&mem, NULL, 900);
  CHECK(c == b && pool.mallocs == 2);
  void *d = lhn_resize(&mem, NULL, 50);
  CHECK(pool.mallocs == 2); /* the 128-byte block given back earlier */
  /* shrinking to a smaller class moves the bytes to a smaller block */
  memset(c, 9, 900);
  unsigned char *e = lhn_resize(&mem, c, 10);
  CHECK(e != NULL && e[0] == 9 && e[9] == 9);
  lhn_resize(&mem, d, 0);
  lhn_resize(&mem, e, 0);
  CHECK(pool.in_use == 0);
  lhn_pool_destroy(&pool);
}

/* Blocks over LHN_POOL_MAX are malloc's of their own; a class keeps at
 * most LHN_POOL_KEEP bytes of free blocks. */
static void test_limits(void) {
  lhn_pool pool;
  lhn_pool_init(&pool);
  lhn_memory mem = lhn_pool_memory(&pool);
  void *big = lhn_resize(&mem, NULL, LHN_POOL_MAX + 1);
  CHECK(big != NULL && pool.mallocs == 1);
  lhn_resize(&mem, big, 0);
  void *again = lhn_resize(&mem, NULL, LHN_POOL_MAX + 1);
  CHECK(pool.mallocs == 2);
  lhn_resize(&mem, again, 0);
  enum { N = 2 * LHN_POOL_KEEP / LHN_POOL_MAX };
  void *blocks[N];
  for (int i = 0; i < N; i++) blocks[i] = lhn_resize(&mem, NULL, LHN_POOL_MAX);
  for (int i = 0; i < N; i++) lhn_resize(&mem, blocks[i], 0);
  CHECK(pool.kept[LHN_POOL_CLASSES - 1] == LHN_POOL_KEEP);
  CHECK(pool.in_use == 0);
  lhn_pool_destroy(&pool);
  CHECK(pool.kept[LHN_POOL_CLASSES - 1] == 0);
}

int main(void) {
  test_reuse();
  test_limits();
  return report("pool");
}
