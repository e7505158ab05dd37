/*
 * llhttp-napi core: an HTTP/1.x message parser over llhttp that records what
 * happened during one execute() as a list of events instead of calling back
 * into a scripting runtime. It mirrors the behaviour of Node's built-in
 * parser binding (src/node_http_parser.cc): the same llhttp callbacks,
 * header byte accounting, 32-field flushes and error reporting. It knows
 * nothing of N-API. The slots and kinds it shares with callers are listed in
 * lhn_contract.h.
 *
 * Memory. Only one call runs at a time on a thread, and almost nothing it
 * writes outlives it, so what a call writes lives in a workspace that the
 * call borrows (one per thread, per nesting depth): the event list, the pair
 * table, the saved state for rewinds and a scratch text. A parser between
 * calls holds its llhttp state, a few counters and, only while a message
 * head is arriving in pieces, the bytes and pairs of that head (its "held
 * head", sized to what arrived and given back when the head completes).
 *
 * Text. Header names and values, the URL and the status text are spans of
 * the call's text (lhn_workspace_text()), given as [start, end) offsets:
 * - when nothing was held at the call's start, the text is the input itself
 *   from the first byte of the first span the call saw ("spans into the
 *   read": nothing is copied);
 * - when a held head continues, the text is the held bytes followed by the
 *   input: the held bytes are copied once, into the workspace's scratch,
 *   and the input's part after them in one copy when the text is needed in
 *   one piece, so that a head's layout is the same however it was cut
 *   (lhn_text.h; the source files are listed in scripts/install/
 *   core-sources.js).
 *
 * Replay protocol: the caller executes a buffer, then walks the events. When
 * the caller's handler for an event changes the course of parsing (a
 * kOnHeadersComplete answer other than 0, a handler that throws), it calls
 * lhn_parser_rewind() with that event's index and the same buffer and
 * workspace: the core restores the state it had when the buffer began,
 * replays llhttp up to that event, applies the action there, and
 * regenerates the events that follow. Events up to the index come out the
 * same (text included), so the caller continues after it. A workspace serves
 * one parser's call and its rewinds until the caller is done with its
 * events: a call made meanwhile (a handler executing another parser) takes
 * another workspace.
 */
#ifndef LHN_PARSER_H
#define LHN_PARSER_H

#include <stddef.h>
#include <stdint.h>

#include <llhttp.h>

#include "lhn_contract.h"
#include "lhn_memory.h"
#include "lhn_repeat.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The built-in parser flushes headers to JavaScript when a message has this
 * many fields pending. */
#define LHN_MAX_PENDING_FIELDS 32

/* Which workspace buffer a memory hook is asked about. */
enum lhn_buffer_id { LHN_BUF_PAIRS = 1, LHN_BUF_EVENTS = 2 };

/*
 * Memory hook of a workspace's event list and pair table: returns a block of
 * at least new_size bytes holding the first old_size bytes of old (NULL when
 * old_size is 0), or NULL when out of memory. The core never frees a block
 * it got from the hook; the hook's owner does (a runtime may keep old blocks
 * alive while views of them exist). With no hook the core uses realloc/free.
 */
typedef void *(*lhn_grow_fn)(void *ctx, enum lhn_buffer_id id, void *old,
                             size_t old_size, size_t new_size);

/* Result of lhn_parser_execute / rewind / finish. */
typedef struct lhn_result {
  int error;           /* llhttp_errno_t; HPE_OK when none to report */
  int upgraded;        /* an upgrade stopped parsing in this call */
  size_t bytes_parsed; /* as the built-in computes it */
  const char *code;    /* error code name, e.g. "HPE_INVALID_METHOD" */
  size_t code_len;
  const char *reason;  /* error reason text */
} lhn_result;

/* Per-message and per-buffer state that rewinds restore. Plain data. Text
 * offsets and pair indices are those of the call under way or, between
 * calls, of the parser's held head. */
typedef struct lhn_state {
  llhttp_t llhttp;
  uint64_t header_nread;
  uint64_t chunk_ext_nread;
  uint64_t message_start_ns; /* 0 between messages */
  uint32_t serial;           /* llhttp callbacks seen since the reset */
  uint32_t pair_count;       /* pairs in the table (the held head's first) */
  uint32_t pair_base;        /* first pair not yet delivered */
  uint32_t headers_for_trailers; /* after headers complete: pairs from
                                pair_base that are headers kept to leave
                                with the trailers (no kOnHeadersComplete) */
  uint32_t num_fields;       /* fields since pair_base (built-in num_fields_) */
  uint32_t num_values;       /* values since pair_base (built-in num_values_) */
  uint32_t header_fields;    /* fields of the current header or trailer
                                section, for the pair limit */
  uint32_t url_start, url_end;
  uint32_t status_start, status_end;
  uint32_t head_start;       /* text offset of the message's first span */
  uint32_t span_end;         /* end of the latest span */
  uint8_t head_started;      /* a span of the current message was seen */
  uint8_t have_flushed;
  uint8_t headers_completed; /* the current message's headers completed */
  uint8_t in_message;
} lhn_state;

typedef struct lhn_held lhn_held;
typedef struct lhn_parser lhn_parser;

/* A workspace: see the memory paragraph above. Its fields are the core's;
 * callers read them through the lhn_workspace_* functions. */
typedef struct lhn_workspace {
  int32_t *events;
  uint32_t event_count;
  uint32_t event_cap;      /* in events */
  int32_t *pairs;
  uint32_t pair_cap;       /* in pairs */
  uint8_t *scratch;        /* the held bytes the text begins with, and the
                              text wherever it cannot be the input */
  uint32_t scratch_cap;
  int32_t *saved_pairs;    /* the held pairs as the call began, for rewinds */
  uint32_t saved_pairs_cap;
  lhn_grow_fn grow;
  void *grow_ctx;

  /* the call under way */
  lhn_parser *owner;
  const char *input;
  size_t input_len;
  /* The call's text (lhn_text.h): the held bytes, scratch[0, prefix), then
   * the input from `origin` on, or, once a span broke that order (copying),
   * scratch[0, text_len). */
  uint32_t prefix;
  const char *origin;      /* the input at text offset `prefix`: the input's
                              start after held bytes that it continues,
                              else the first span (NULL until then) */
  uintptr_t text_zero;     /* origin's address less prefix: an input byte's
                              address less it is its text offset */
  uint32_t filled;         /* not copying: the scratch holds the text
                              [0, filled) (filled >= prefix) */
  int copying;             /* the text is scratch[0, text_len) */
  uint32_t text_len;
  const char *mirror;      /* copying: the input up to here is in the
                              scratch as it came (the bytes between the
                              spans of a head with them), or NULL: the next
                              span begins a head or trailers */
  uint32_t text_end;       /* the text events refer to: [0, text_end) */
  lhn_state saved;         /* the owner's state as the call began */
  uint32_t saved_pair_count;
  uint32_t regen_limit;    /* events below this index are being regenerated:
                              their stored answers apply again */
  uint32_t fail_serial;    /* serial whose callback fails (0 = none) */
  int fail_code;
  int oom;                 /* a workspace buffer could not grow */
  lhn_result last;         /* what the last call reported */

  uint64_t growths;        /* buffer (re)allocations since init */
} lhn_workspace;

/* The parser. Its fields are the core's own: callers embed the struct but
 * read it only through the lhn_parser_* functions below. */
struct lhn_parser {
  lhn_state st;
  const struct lhn_llhttp *ll; /* the llhttp it calls (lhn_llhttp.h) */
  lhn_workspace *ws;           /* during a call: the workspace it borrows */
  lhn_held *held;              /* the head arriving in pieces, or NULL */
  lhn_repeat_state repeat;     /* LHN_HC_REPEATS */
  lhn_memory mem;              /* for the held head and the repeat record */
  uint32_t max_header_size;
  uint32_t max_header_pairs;   /* lhn_parser_set_max_header_pairs(); 0: none */
  uint32_t message_number;     /* of the last headers-complete event */
  int32_t head_fields;         /* LHN_HC_* field bits of the last head that came with its pairs */
  unsigned handlers;           /* LHN_HAS_* bits, LHN_HAS_ALL after init */
};

/* ---- workspaces ----------------------------------------------------------- */

/* Initialise ws (caller-owned memory) with no buffers; grow may be NULL to
 * use realloc for the event list and pair table. */
void lhn_workspace_init(lhn_workspace *ws, lhn_grow_fn grow, void *grow_ctx);

/* Give ws its event list and pair table now, at their first capacities (so
 * that views of them exist before the first call; a call does it too).
 * Returns 0, or -1 when out of memory. */
int lhn_workspace_prepare(lhn_workspace *ws);

/* Make room for at least `events` events and `pairs` pairs now. Returns 0,
 * or -1 when out of memory. */
int lhn_workspace_reserve(lhn_workspace *ws, uint32_t events, uint32_t pairs);

/* Free the buffers the workspace allocated itself (those of the memory hook
 * stay with the hook's owner). */
void lhn_workspace_destroy(lhn_workspace *ws);

/* Events the last call on ws left. */
uint32_t lhn_workspace_event_count(const lhn_workspace *ws);

/* The slots of event i (below lhn_workspace_event_count()) of the last
 * call on ws. */
const int32_t *lhn_workspace_event(const lhn_workspace *ws, uint32_t i);

/* The slots of pair i of the last call's pair table (i below
 * lhn_workspace_pair_capacity()). */
const int32_t *lhn_workspace_pair(const lhn_workspace *ws, uint32_t i);

/* How many pairs the pair table has room for: every pair an event names
 * lies below it. */
uint32_t lhn_workspace_pair_capacity(const lhn_workspace *ws);

/* The text the last call's events and pairs refer to: *len bytes from the
 * result (NULL when *len is 0). Valid while the input of that call is, and
 * until the next call on ws. */
const uint8_t *lhn_workspace_text(const lhn_workspace *ws, size_t *len);

/* What the last call on ws reported. */
const lhn_result *lhn_workspace_result(const lhn_workspace *ws);

/* Bytes of the buffers ws holds: its tables, the scratch, the copy for
 * rewinds. */
size_t lhn_workspace_bytes(const lhn_workspace *ws);

/* How many times one of ws's buffers was (re)allocated since init: a warm
 * workspace allocates nothing more. */
uint64_t lhn_workspace_growths(const lhn_workspace *ws);

/* ---- parsers -------------------------------------------------------------- */

/*
 * Initialise p (caller-owned memory) as a request parser with no held head.
 * mem may be NULL to use realloc/free for the held head and the repeat
 * record (a thread's lhn_pool keeps them from costing a malloc each:
 * lhn_pool.h). Call lhn_parser_reset() before the first call to choose its type.
 */
void lhn_parser_init(lhn_parser *p, const lhn_memory *mem);

/*
 * Start over as a parser of type (HTTP_REQUEST or HTTP_RESPONSE) with the
 * given header byte limit (a message's header bytes reaching it is
 * HPE_HEADER_OVERFLOW) and Node's lenient flag bits (kLenient*, same values
 * as llhttp's lenient flags). Gives back a held head; keeps the repeat record
 * (message numbers go on).
 */
void lhn_parser_reset(lhn_parser *p, int type, uint32_t max_header_size,
                      unsigned lenient_flags);

/*
 * Tell the core which handlers the caller has (LHN_HAS_* bits), as the
 * built-in looks them up at each callback; applies from the next call on.
 * Without kOnHeaders a flush hands nothing over and leaves the URL and the
 * "flushed" state as they were: the pairs of a 32nd field's flush are
 * dropped. Without kOnHeadersComplete the headers stay pending (no flush, the
 * headers-complete event still comes, with its pairs) and leave with the
 * trailers at message complete, counting towards their 32-field flush.
 */
void lhn_parser_set_handlers(lhn_parser *p, unsigned handlers);

/*
 * Whether one of the events the parser's last call left in `ws` has a
 * handler to call (by the LHN_HAS_* bits it was told): when none has, a
 * caller may deliver them without entering the parser's async context.
 */
int lhn_parser_calls_handlers(const lhn_parser *p, const lhn_workspace *ws);

/*
 * Limit the header fields of a request's header section, and of its trailer
 * section, to max_pairs / 2 (max_pairs counts names and values, as node:http's
 * parser.maxHeaderPairs does): the field after that fails with
 * HPE_HEADER_OVERFLOW at its name's first piece, as the built-in of Node 22
 * and later does. 0 (the default) sets no limit; responses have none.
 * Applies from the next call on.
 */
void lhn_parser_set_max_header_pairs(lhn_parser *p, uint32_t max_pairs);

/*
 * Parse data[0..len) as the next bytes of p's stream, with ws as the call's
 * workspace: the events replace those ws held. Never calls out except
 * through the memory hooks. Also the result in ws (lhn_workspace_result()).
 * A head still arriving when the data ends is copied into p (its held
 * head); one that cannot be is HPE_USER "HPE_OUT_OF_MEMORY", as is a
 * workspace buffer that cannot grow.
 */
void lhn_parser_execute(lhn_parser *p, lhn_workspace *ws, const char *data, size_t len,
                        lhn_result *out);

/*
 * Rewind to the start of the current buffer and re-execute it, changing what
 * happens at the event with index event_index according to actions
 * (LHN_REWIND_* bits): ANSWER makes that headers-complete callback return
 * answer (answers given to earlier events of the buffer are kept); FAIL makes
 * that callback fail with fail_code (-1 for a callback error, HPE_USER for a
 * JavaScript exception). Events up to event_index come out identical, except
 * for their message numbers, which only grow. ws and data/len must be those
 * of p's last execute. Returns 0, or -1 if ws did not serve p's last call or
 * event_index is not one of its events.
 */
int lhn_parser_rewind(lhn_parser *p, lhn_workspace *ws, const char *data, size_t len,
                      uint32_t event_index, unsigned actions, int answer, int fail_code,
                      lhn_result *out);

/* Signal end of input (llhttp_finish), with ws as the call's workspace. out
 * as for execute. */
void lhn_parser_finish(lhn_parser *p, lhn_workspace *ws, lhn_result *out);

/* Pause the parser: the next execute fails with HPE_PAUSED, as after
 * llhttp_pause(). The built-in applies pause() called inside a handler only
 * after the current execute; callers get the same by calling this
 * afterwards. */
void lhn_parser_pause(lhn_parser *p);

/* Undo lhn_parser_pause() (llhttp_resume()). */
void lhn_parser_resume(lhn_parser *p);

/*
 * Take the commands a caller left for the parser it calls in a workspace's
 * state block (LHN_WORKSPACE_SLOTS values): the LHN_WS_COMMANDS bits
 * (LHN_CMD_*) are cleared whatever happens, so that none outlives the call
 * they came with, and applied to p in one order: reset (with LHN_WS_TYPE,
 * LHN_WS_MAX_HEADER, LHN_WS_LENIENT), the handler set, the pair limit, pause,
 * resume. p NULL drops them: the call was refused for its arguments.
 */
void lhn_parser_take_commands(lhn_parser *p, int32_t *state);

/* Whether the headers of the current message have completed (the
 * built-in's headersCompleted()). */
int lhn_parser_headers_completed(const lhn_parser *p);

/* When the message under way began (lhn_now_ns()), or 0 between messages. */
uint64_t lhn_parser_message_start_ns(const lhn_parser *p);

/* Bytes of p's held head between calls: 0 unless a head is arriving in
 * pieces (or a URL or headers wait for the trailers). (lhn_held.c) */
size_t lhn_parser_held_bytes(const lhn_parser *p);

/* Bytes of p's repeat record (lhn_repeat.h). */
size_t lhn_parser_record_bytes(const lhn_parser *p);

/* Give back the held head and the repeat record. */
void lhn_parser_destroy(lhn_parser *p);

/* Names of llhttp methods in enum order: the 35 of HTTP_METHOD_MAP when
 * all is 0, the 47 of HTTP_ALL_METHOD_MAP when all is 1. */
const char *const *lhn_method_names(int all, size_t *count);


#ifdef __cplusplus
}
#endif

#endif /* LHN_PARSER_H */
