/* Which llhttp the core calls: see lhn_llhttp.h. */
#if defined(_WIN32)
#define WIN32_LEAN_AND_MEAN
#include <windows.h>
#else
#define _GNU_SOURCE /* RTLD_DEFAULT */
#include <dlfcn.h>
#endif

#include "lhn_llhttp.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The first minor of LLHTTP_VERSION_MAJOR whose llhttp_settings_t matches
 * llhttp.h's: 9.3 inserted on_protocol and on_protocol_complete. */
#define LHN_LAYOUT_FIRST_MINOR 3

#if defined(LHN_NO_BUNDLED_LLHTTP)
/* Built with llhttp.h only (the prebuilt binaries for Windows, macOS and
 * musl: no static llhttp of those targets is at hand). Nothing is linked in;
 * the running node's llhttp is the only one. */
static const lhn_llhttp *current = NULL;

const lhn_llhttp *lhn_llhttp_bundled(void) { return NULL; }

void lhn_llhttp_use(const lhn_llhttp *impl) { current = impl; }
#else
/* The stream of llhttp's debug printer in a static llhttp built for
 * executables (scripts/install/llhttp.js renames its stderr to this, which a shared
 * object can refer to). The parser never calls that printer. */
FILE *lhn_llhttp_stderr;

static const lhn_llhttp bundled = {
  .source = "bundled",
  .init = llhttp_init,
  .execute = llhttp_execute,
  .finish = llhttp_finish,
  .pause = llhttp_pause,
  .resume = llhttp_resume,
  .resume_after_upgrade = llhttp_resume_after_upgrade,
  .should_keep_alive = llhttp_should_keep_alive,
  .errno_name = llhttp_errno_name,
};

static const lhn_llhttp *current = &bundled;

const lhn_llhttp *lhn_llhttp_bundled(void) { return &bundled; }

void lhn_llhttp_use(const lhn_llhttp *impl) { current = impl ? impl : &bundled; }
#endif

const lhn_llhttp *lhn_llhttp_current(void) { return current; }

/* Parses "MAJOR.MINOR[...]"; 0 on success. */
static int parse_version(const char *version, long *major, long *minor) {
  char *end;
  if (version == NULL) return -1;
  *major = strtol(version, &end, 10);
  if (end == version || *end != '.') return -1;
  const char *rest = end + 1;
  *minor = strtol(rest, &end, 10);
  return end == rest ? -1 : 0;
}

static lhn_llhttp runtime;

#if defined(_WIN32)
/* node.exe exports its llhttp like any DLL: look in the process's own image. */
static void *look_up(const char *symbol) {
  return (void *)GetProcAddress(GetModuleHandleW(NULL), symbol);
}
#else
/* Linux and macOS: the symbols of the executable and of the libraries loaded
 * globally before this one (a node built with --shared-llhttp). */
static void *look_up(const char *symbol) { return dlsym(RTLD_DEFAULT, symbol); }
#endif

#define LHN_LOOK_UP(field, symbol)                              \
  do {                                                          \
    void *fn = look_up(symbol);                                 \
    if (fn == NULL) return NULL;                                \
    *(void **)&found.field = fn;                                \
  } while (0)

const lhn_llhttp *lhn_llhttp_from_runtime(const char *version) {
  long major, minor;
  if (parse_version(version, &major, &minor) != 0 || major != LLHTTP_VERSION_MAJOR ||
      minor < LHN_LAYOUT_FIRST_MINOR || minor > LLHTTP_VERSION_MINOR) {
    return NULL;
  }
  lhn_llhttp found = {.source = "node"};
  LHN_LOOK_UP(init, "llhttp_init");
  LHN_LOOK_UP(execute, "llhttp_execute");
  LHN_LOOK_UP(finish, "llhttp_finish");
  LHN_LOOK_UP(pause, "llhttp_pause");
  LHN_LOOK_UP(resume, "llhttp_resume");
  LHN_LOOK_UP(resume_after_upgrade, "llhttp_resume_after_upgrade");
  LHN_LOOK_UP(should_keep_alive, "llhttp_should_keep_alive");
  LHN_LOOK_UP(errno_name, "llhttp_errno_name");
#if !defined(LHN_NO_BUNDLED_LLHTTP)
  /* Our own copy is hidden: a lookup that finds it found no runtime copy. */
  if (found.execute == bundled.execute) return NULL;
#endif
  runtime = found;
  return &runtime;
}

void lhn_llhttp_choose(const char *runtime_version, lhn_llhttp_choice *out) {
  const char *force = getenv("LLHTTP_NAPI_LLHTTP");
  int bundled_only = force != NULL && strcmp(force, "bundled") == 0;
  const char *runtime = runtime_version ? runtime_version : "";
  out->message[0] = '\0';
  out->impl = bundled_only ? NULL : lhn_llhttp_from_runtime(runtime);
  if (out->impl != NULL) {
    snprintf(out->version, sizeof(out->version), "%s", runtime);
  } else {
    out->impl = lhn_llhttp_bundled();
    if (out->impl != NULL) {
      snprintf(out->version, sizeof(out->version), "%d.%d.%d", LLHTTP_VERSION_MAJOR,
               LLHTTP_VERSION_MINOR, LLHTTP_VERSION_PATCH);
    } else {
      snprintf(out->version, sizeof(out->version), "%s", runtime);
      if (bundled_only) {
        snprintf(out->message, sizeof(out->message),
                 "this build of llhttp-napi has no llhttp of its own and cannot use the running "
                 "node's (LLHTTP_NAPI_LLHTTP=bundled)");
      } else {
        snprintf(out->message, sizeof(out->message),
                 "this build of llhttp-napi has no llhttp of its own and cannot use the running "
                 "node's (process.versions.llhttp %s: it needs %d.%d to %d.%d, exported by node)",
                 runtime[0] ? runtime : "unknown", LLHTTP_VERSION_MAJOR, LHN_LAYOUT_FIRST_MINOR,
                 LLHTTP_VERSION_MAJOR, LLHTTP_VERSION_MINOR);
      }
    }
  }
  lhn_llhttp_use(out->impl);
}
