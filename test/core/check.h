/* The checks of the core's unit tests (test/core/test_*.c): each program
 * counts its checks and failures and reports them from main(). */
#ifndef LHN_TEST_CHECK_H
#define LHN_TEST_CHECK_H

#include <stdio.h>

static int failures;
static int checks;

#define CHECK(cond)                                                        \
  do {                                                                     \
    checks++;                                                              \
    if (!(cond)) {                                                         \
      failures++;                                                          \
      fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
    }                                                                      \
  } while (0)

/* main()'s last words. */
static int report(const char *what) {
  printf("core %s: %d passed, %d failed\n", what, checks - failures, failures);
  return failures ? 1 : 0;
}

#endif /* LHN_TEST_CHECK_H */
