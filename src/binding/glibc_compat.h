/*
 * Force-included into every file of the addon by binding.gyp when it is
 * built against glibc 2.34 or later on x86-64 (scripts/install/glibc.js):
 * the published prebuilt binary should load wherever the official Node
 * binaries run (glibc >= 2.28), not only on the glibc it was built with.
 *
 * glibc 2.34 moved dlsym from libdl into libc under a new symbol version,
 * dlsym@GLIBC_2.34, which a build on 2.34 or later asks for. The older
 * version, dlsym@GLIBC_2.2.5 (x86-64's base version), is the same function
 * and is still exported by every later libc; before 2.34 it is found in
 * libdl.so.2, which node itself links on those systems. pthread_once (the
 * core's one-time index of known header names) moved from libpthread.so.0
 * into libc the same way, and node links libpthread before 2.34 too.
 * Asking for the old versions makes GLIBC_2.17 (clock_gettime) the newest
 * version the addon needs (scripts/dev/check-prebuilds.js checks it).
 *
 * Only an assembler directive: no header is included here, so the feature
 * test macros each source file defines first still take effect.
 */
#ifndef LHN_GLIBC_COMPAT_H
#define LHN_GLIBC_COMPAT_H
#if defined(__x86_64__)
__asm__(".symver dlsym,dlsym@GLIBC_2.2.5");
__asm__(".symver pthread_once,pthread_once@GLIBC_2.2.5");
#elif defined(__aarch64__)
/* The same on arm64 (the linux-arm64 prebuild, scripts/prebuild.js), whose
 * base version is GLIBC_2.17. */
__asm__(".symver dlsym,dlsym@GLIBC_2.17");
__asm__(".symver pthread_once,pthread_once@GLIBC_2.17");
#endif
#endif
