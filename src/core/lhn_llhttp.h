/*
 * Which llhttp the core calls.
 *
 * Node's built-in parser is the llhttp compiled into the running node binary,
 * and every official node binary exports it (the llhttp_* symbols). Calling
 * that one gives the built-in's behaviour byte for byte on every Node line,
 * security fixes included. The core is compiled against an llhttp.h of one
 * major.minor; the runtime's llhttp is used only when its version has the
 * same struct layout (llhttp_t and llhttp_settings_t). Otherwise, and where
 * the runtime exports no llhttp, the core uses the copy linked into it (its
 * symbols hidden, so that neither copy can interpose on the other). A build
 * with LHN_NO_BUNDLED_LLHTTP needs llhttp.h only and links no copy: it has
 * the runtime's llhttp or none (the addon then refuses to load, saying why).
 */
#ifndef LHN_LLHTTP_H
#define LHN_LLHTTP_H

#include <llhttp.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The llhttp functions the core calls. (Error reason and position and the
 * lenient flags are plain fields of llhttp_t that the core reads and writes
 * directly, as llhttp's own accessors do.) */
typedef struct lhn_llhttp {
  const char *source;  /* "node" (the running runtime's) or "bundled" */
  void (*init)(llhttp_t *parser, llhttp_type_t type, const llhttp_settings_t *settings);
  llhttp_errno_t (*execute)(llhttp_t *parser, const char *data, size_t len);
  llhttp_errno_t (*finish)(llhttp_t *parser);
  void (*pause)(llhttp_t *parser);
  void (*resume)(llhttp_t *parser);
  void (*resume_after_upgrade)(llhttp_t *parser);
  int (*should_keep_alive)(const llhttp_t *parser);
  const char *(*errno_name)(llhttp_errno_t err);
} lhn_llhttp;

/* The copy of llhttp linked into this program (version: llhttp.h's); NULL
 * in a build with LHN_NO_BUNDLED_LLHTTP. */
const lhn_llhttp *lhn_llhttp_bundled(void);

/*
 * The llhttp the running process exports, looked up by symbol name, given the
 * version the runtime reports for it ("9.4.4": process.versions.llhttp).
 * Returns NULL when that version's layout differs from llhttp.h's (a major
 * other than llhttp.h's, a minor before 9.3 or after llhttp.h's), when a
 * symbol is missing. Looked up with dlsym(RTLD_DEFAULT) on Linux and macOS,
 * with GetProcAddress on the process's executable (node.exe) on Windows.
 */
const lhn_llhttp *lhn_llhttp_from_runtime(const char *version);

/* Makes impl the llhttp of parsers reset from now on (NULL: the bundled
 * one, the default; none in a build without one). */
void lhn_llhttp_use(const lhn_llhttp *impl);

/* The llhttp parsers reset now use. */
const lhn_llhttp *lhn_llhttp_current(void);

/* What lhn_llhttp_choose() chose. */
typedef struct lhn_llhttp_choice {
  const lhn_llhttp *impl; /* NULL: none at hand, `message` says why */
  char version[32];       /* impl's version, or the runtime's when none */
  char message[256];      /* why there is none, or "" */
} lhn_llhttp_choice;

/*
 * Chooses the llhttp of every parser of the process and makes it current
 * (lhn_llhttp_use()): the runtime's own (lhn_llhttp_from_runtime() given
 * runtime_version, process.versions.llhttp; NULL or "" when unknown) when
 * it has a compatible layout, else the bundled copy. The environment
 * variable LLHTTP_NAPI_LLHTTP=bundled forces the bundled copy. Call it once
 * per process, before any parser is reset.
 */
void lhn_llhttp_choose(const char *runtime_version, lhn_llhttp_choice *out);

#ifdef __cplusplus
}
#endif

#endif /* LHN_LLHTTP_H */
