/* The core's clock: see lhn_clock.h. */
#if defined(_WIN32)
#define WIN32_LEAN_AND_MEAN
#include <windows.h>
#else
#define _GNU_SOURCE /* RTLD_DEFAULT; clock_gettime under -std=c11 */
#include <dlfcn.h>
#include <time.h>
#endif

#include "lhn_clock.h"

#include <stddef.h>

static int64_t platform_offset = 0;

#if defined(_WIN32)
static uint64_t platform_raw_ns(void) {
  static LARGE_INTEGER frequency; /* counts per second, fixed at boot */
  LARGE_INTEGER counter;
  if (frequency.QuadPart == 0) QueryPerformanceFrequency(&frequency);
  QueryPerformanceCounter(&counter);
  uint64_t f = (uint64_t)frequency.QuadPart;
  uint64_t c = (uint64_t)counter.QuadPart;
  /* Whole seconds and the remainder apart, so that c * 1e9 cannot overflow. */
  return (c / f) * 1000000000u + (c % f) * 1000000000u / f;
}
#else
static uint64_t platform_raw_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}
#endif

uint64_t lhn_clock_platform_ns(void) { return platform_raw_ns() + (uint64_t)platform_offset; }

void lhn_clock_set_platform_offset(int64_t offset_ns) { platform_offset = offset_ns; }

static lhn_clock_fn installed = NULL;

uint64_t lhn_now_ns(void) { return installed ? installed() : lhn_clock_platform_ns(); }

void lhn_clock_use(lhn_clock_fn clock) { installed = clock; }

int lhn_clock_installed(void) { return installed != NULL; }

const char *lhn_clock_source(void) { return installed ? "uv_hrtime" : "platform"; }

lhn_clock_fn lhn_clock_from_runtime(void) {
  lhn_clock_fn found;
#if defined(_WIN32)
  /* node.exe exports libuv like any DLL: look in the process's own image. */
  *(void **)&found = (void *)GetProcAddress(GetModuleHandleW(NULL), "uv_hrtime");
#else
  *(void **)&found = dlsym(RTLD_DEFAULT, "uv_hrtime");
#endif
  return found;
}

const char *lhn_clock_use_runtime(void) {
  lhn_clock_use(lhn_clock_from_runtime());
  return lhn_clock_source();
}
