/* Unit tests of the core's clock (src/core/lhn_clock.c), without Node. Built
 * and run by scripts/dev/test-core.js, plain and under ASan/UBSan. That the
 * parser stamps message starts with it, and that it agrees with node's
 * process.hrtime, is tested from Node: test/parser/clock.test.js. */
#include "check.h"
#include "../../src/core/lhn_clock.h"

static uint64_t fake_now;
static uint64_t fake_clock(void) { return fake_now; }

#define HOUR_NS (3600ull * 1000000000ull)

/* The platform's clock until one is installed; monotonic. */
static void test_platform(void) {
  CHECK(!lhn_clock_installed());
  uint64_t a = lhn_now_ns();
  uint64_t b = lhn_now_ns();
  uint64_t c = lhn_clock_platform_ns();
  CHECK(a > 0);
  CHECK(b >= a);
  CHECK(c >= b);
  CHECK(c - a < HOUR_NS);
}

/* An installed clock is the one read; NULL gives the platform's back. */
static void test_installed(void) {
  lhn_clock_use(fake_clock);
  CHECK(lhn_clock_installed());
  fake_now = 12345;
  CHECK(lhn_now_ns() == 12345);
  fake_now = 99999999999ull;
  CHECK(lhn_now_ns() == 99999999999ull);
  lhn_clock_use(NULL);
  CHECK(!lhn_clock_installed());
  uint64_t now = lhn_now_ns();
  uint64_t platform = lhn_clock_platform_ns();
  CHECK(platform >= now && platform - now < 1000000000ull);
}

/* The test offset shifts the platform's clock, never an installed one. */
static void test_offset(void) {
  uint64_t before = lhn_clock_platform_ns();
  lhn_clock_set_platform_offset((int64_t)HOUR_NS);
  uint64_t ahead = lhn_now_ns();
  CHECK(ahead - before >= HOUR_NS && ahead - before < HOUR_NS + 1000000000ull);
  lhn_clock_use(fake_clock);
  fake_now = 7;
  CHECK(lhn_now_ns() == 7);
  lhn_clock_use(NULL);
  lhn_clock_set_platform_offset(0);
  uint64_t back = lhn_now_ns();
  CHECK(back >= before && back - before < 1000000000ull);
}

/* A program that is not node exports no uv_hrtime (this one links no libuv). */
static void test_runtime(void) { CHECK(lhn_clock_from_runtime() == NULL); }

int main(void) {
  test_platform();
  test_installed();
  test_offset();
  test_runtime();
  return report("clock");
}
