/*
 * The clock the core stamps message starts with.
 *
 * node:http expires headersTimeout and requestTimeout by comparing those
 * stamps with its own clock: uv_hrtime(), which is also process.hrtime's. Two
 * clock APIs of one platform agree only by implementation detail (libuv on
 * macOS reads mach_continuous_time(), on Windows it does its own
 * QueryPerformanceCounter arithmetic), and when they differ in origin, rate or
 * rounding a message's age comes out wrong: the timeouts fire late, never, or
 * at once. So the core reads the runtime's own clock where it can: the
 * binding installs the running node's uv_hrtime (lhn_clock_from_runtime(),
 * looked up by name as lhn_llhttp.c looks up node's llhttp), and the core
 * still knows nothing of Node. Until a clock is installed, and where the
 * runtime exports none, it reads the platform's monotonic clock
 * (CLOCK_MONOTONIC; QueryPerformanceCounter on Windows); a runtime that
 * compares stamps must then read lhn_now_ns() itself.
 *
 * The clock is process-wide: install it once, before parsing starts (a
 * plain pointer, not an atomic: changing it while other threads parse is
 * not supported).
 */
#ifndef LHN_CLOCK_H
#define LHN_CLOCK_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A monotonic clock in nanoseconds. */
typedef uint64_t (*lhn_clock_fn)(void);

/* Now, in nanoseconds, on the installed clock (the platform's until one is
 * installed). */
uint64_t lhn_now_ns(void);

/* The running process's uv_hrtime(), looked up by symbol name: with
 * dlsym(RTLD_DEFAULT) on Linux and macOS (the executable's exported symbols,
 * or a libuv loaded globally before this library), with GetProcAddress on the
 * process's executable (node.exe) on Windows. NULL where there is none. */
lhn_clock_fn lhn_clock_from_runtime(void);

/* Makes clock the one lhn_now_ns() reads (NULL: the platform's). */
void lhn_clock_use(lhn_clock_fn clock);

/* Whether lhn_now_ns() reads an installed clock (1) or the platform's (0). */
int lhn_clock_installed(void);

/* The name of the clock lhn_now_ns() reads: "uv_hrtime" (an installed
 * runtime clock) or "platform". */
const char *lhn_clock_source(void);

/* Installs the runtime's clock where it has one (lhn_clock_from_runtime());
 * returns lhn_clock_source(). Once per process, before parsing starts. */
const char *lhn_clock_use_runtime(void);

/* The platform's monotonic clock, in nanoseconds, plus the test offset. */
uint64_t lhn_clock_platform_ns(void);

/* Tests only: shifts the platform's clock by offset_ns, so that a test can
 * stand in for a platform whose clock API disagrees with the runtime's
 * (another origin). It changes nothing while a runtime clock is installed. */
void lhn_clock_set_platform_offset(int64_t offset_ns);

#ifdef __cplusplus
}
#endif

#endif /* LHN_CLOCK_H */
