/*
 * llhttp-napi core: an HTTP/1.x message parser over llhttp that records what
 * happened during one execute() as a list of events instead of calling back
 * into a scripting runtime. Header bytes (names, values, URL, status message)
 * are copied into a per-parser slab and referred to by [start, end) offsets.
 *
 * The core knows nothing of N-API. It mirrors the behaviour of Node's
 * built-in parser binding (src/node_http_parser.cc): the same llhttp
 * callbacks, header byte accounting, 32-field flushes and error reporting.
 *
 * Replay protocol: the caller executes a buffer, then walks the events. When
 * the caller's handler for an event changes the course of parsing (a
 * kOnHeadersComplete answer other than 0, a handler that throws), it calls
 * lhn_parser_rewind() with that event's index and re-executes the same
 * buffer: the core restores the state it had when the buffer began, replays
 * llhttp up to that event, applies the action there, and regenerates the
 * events that follow. Events up to the index come out the
 * same, so the caller continues after it.
 */
#ifndef LHN_PARSER_H
#define LHN_PARSER_H

#include <stddef.h>
#include <stdint.h>

#include <llhttp.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Event kinds, in the first slot of each event. */
enum lhn_event_kind {
  LHN_EV_MESSAGE_BEGIN = 1,
  LHN_EV_HEADERS = 2,          /* early flush or trailers: kOnHeaders */
  LHN_EV_HEADERS_COMPLETE = 3, /* kOnHeadersComplete */
  LHN_EV_BODY = 4,             /* kOnBody: a slice of the input */
  LHN_EV_MESSAGE_COMPLETE = 5  /* kOnMessageComplete */
};

/* Each event is LHN_EVENT_SLOTS int32 values; which slot holds what. Slab
 * offsets are [start, end) into the slab (see below). */
enum lhn_event_slot {
  LHN_EV_KIND = 0,           /* enum lhn_event_kind */
  LHN_EV_SERIAL = 1,         /* llhttp callback serial (used by rewind) */
  /* HEADERS and HEADERS_COMPLETE */
  LHN_EV_FIRST_PAIR = 2,     /* first pair in the pair table */
  LHN_EV_PAIR_COUNT = 3,     /* pairs; -1 at HEADERS_COMPLETE when they were
                                flushed earlier (headers and URL are then
                                undefined for kOnHeadersComplete) */
  LHN_EV_TEXT_START = 4,     /* URL (requests) or status text (responses) */
  LHN_EV_TEXT_END = 5,
  /* HEADERS_COMPLETE only */
  LHN_EV_FLAGS = 6,          /* LHN_HC_* bits */
  LHN_EV_STATUS = 7,         /* status code */
  LHN_EV_METHOD = 8,         /* llhttp method number */
  LHN_EV_HTTP_MAJOR = 9,
  LHN_EV_HTTP_MINOR = 10,
  LHN_EV_ANSWER = 11,        /* the handler's answer, kept for rewinds */
  LHN_EV_MESSAGE_NUMBER = 12, /* numbers messages for LHN_HC_REPEATS */
  /* BODY */
  LHN_EV_BODY_START = 2,     /* offset into the input */
  LHN_EV_BODY_LENGTH = 3,
  LHN_EVENT_SLOTS = 16
};

/* Bits of a HEADERS_COMPLETE event's LHN_EV_FLAGS. */
enum lhn_headers_flag {
  LHN_HC_UPGRADE = 1,
  LHN_HC_KEEP_ALIVE = 2,
  /* The URL or status text and every header pair repeat, byte for byte, those
   * of the message numbered LHN_EV_MESSAGE_NUMBER - 1 (whose headers were
   * not flushed early either). A caller that kept the strings it made for
   * that message may hand them out again. Message numbers only grow (a
   * rewind renumbers the messages it regenerates). */
  LHN_HC_REPEATS = 4,
  /* The core recorded this message's head: if the next message repeats it,
   * that one comes with LHN_HC_REPEATS. A caller keeps its strings for such
   * a message (and for a LHN_HC_REPEATS one, which stays recorded). The core
   * records the head of one message that does not repeat in
   * LHN_RECORD_EVERY, starting with the LHN_RECORD_EVERY-th of a parser: a
   * stream that starts repeating is found within that many messages, and a
   * stream that never does costs one record in that many. */
  LHN_HC_RECORDED = 8
};

/* See LHN_HC_RECORDED. */
#define LHN_RECORD_EVERY 4

/*
 * Slab and pair table only grow during one execute (pipelined messages are
 * appended), so every message of a buffer stays readable until the caller
 * has replayed the buffer. At the next execute, a message still under way is
 * moved to the front; otherwise the next message begin empties them.
 *
 * Each header pair is LHN_PAIR_SLOTS int32 values: its name and value as slab
 * offsets (trailing spaces and tabs of the value trimmed), and which
 * well-known name (lhn_known_names()) it has, as index + 1, or 0. The pairs
 * of a message whose headers repeat (LHN_HC_REPEATS) are not looked up: they
 * carry 0, or (after a rewind) the tag an earlier pass gave them.
 */
enum lhn_pair_slot {
  LHN_PAIR_NAME_START = 0,
  LHN_PAIR_NAME_END = 1,
  LHN_PAIR_VALUE_START = 2,
  LHN_PAIR_VALUE_END = 3,
  LHN_PAIR_KNOWN_NAME = 4,
  LHN_PAIR_SLOTS = 5
};

/* Messages with more header pairs than this are never LHN_HC_REPEATS. */
#define LHN_REPEAT_MAX_PAIRS 64

/* The built-in parser flushes headers to JavaScript when a message has this
 * many fields pending. */
#define LHN_MAX_PENDING_FIELDS 32

/* Which of the caller's handlers exist (lhn_parser_set_handlers). The
 * built-in skips a missing kOnHeaders or kOnHeadersComplete function, and
 * that changes what it keeps pending, so the core has to know. */
#define LHN_HAS_ON_HEADERS 1
#define LHN_HAS_ON_HEADERS_COMPLETE 2
#define LHN_HAS_ALL (LHN_HAS_ON_HEADERS | LHN_HAS_ON_HEADERS_COMPLETE)

/* Which growable buffer a memory hook is asked about. */
enum lhn_buffer_id { LHN_BUF_SLAB = 0, LHN_BUF_PAIRS = 1, LHN_BUF_EVENTS = 2 };

/*
 * Memory hook: returns a block of at least new_size bytes holding the first
 * old_size bytes of old (which may be NULL when old_size is 0), or NULL when
 * out of memory. The core never frees a block it got from the hook; the hook
 * owns them (a runtime may keep old blocks alive while views of them exist).
 * With no hook the core uses realloc/free itself.
 */
typedef void *(*lhn_grow_fn)(void *ctx, enum lhn_buffer_id id, void *old,
                             size_t old_size, size_t new_size);

/* Rewind actions, bits for lhn_parser_rewind(). */
#define LHN_REWIND_ANSWER 1 /* kOnHeadersComplete at the event returned answer */
#define LHN_REWIND_FAIL 2   /* the event's handler threw */

/* Result of lhn_parser_execute / lhn_parser_finish. */
typedef struct lhn_result {
  int error;           /* llhttp_errno_t; HPE_OK when none to report */
  int upgraded;        /* an upgrade stopped parsing in this call */
  size_t bytes_parsed; /* as the built-in computes it */
  const char *code;    /* error code name, e.g. "HPE_INVALID_METHOD" */
  size_t code_len;
  const char *reason;  /* error reason text */
} lhn_result;

typedef struct lhn_parser lhn_parser;

/* The slab bytes and layout of the last message head, for LHN_HC_REPEATS. */
typedef struct lhn_head_record {
  uint8_t *bytes;
  uint32_t len, cap;
  uint32_t layout[2 + 4 * LHN_REPEAT_MAX_PAIRS]; /* text, then each pair */
  uint32_t slots;         /* layout values in use */
  int valid;
} lhn_head_record;

/* Per-message and per-buffer state that rewind restores. Plain data. */
typedef struct lhn_state {
  llhttp_t llhttp;
  uint32_t slab_len;
  uint32_t pair_count;   /* pairs in the table */
  uint32_t msg_slab_start;   /* first slab byte of the current message */
  uint32_t pair_base;    /* first pair not yet flushed */
  uint32_t num_fields;   /* fields since pair_base (built-in num_fields_) */
  uint32_t num_values;   /* values since pair_base (built-in num_values_) */
  uint32_t url_start, url_end;
  uint32_t status_start, status_end;
  uint32_t msg_pair_first;   /* first pair of the current message */
  uint64_t header_nread;
  uint32_t header_fields;    /* fields of the current header or trailer
                                section, for the pair limit */
  uint64_t chunk_ext_nread;
  uint64_t message_start_ns; /* 0 between messages */
  uint32_t serial;           /* llhttp callbacks seen since init */
  uint8_t have_flushed;
  uint8_t headers_completed;
  uint8_t in_message;
  uint8_t reset_on_begin;    /* the next message begin empties the slab */
} lhn_state;

/* The parser. Its fields are the core's own: callers embed the struct but
 * read it only through the lhn_parser_* functions below. */
struct lhn_parser {
  const struct lhn_llhttp *ll; /* the llhttp it calls (lhn_llhttp.h) */
  lhn_state st;
  lhn_state saved;        /* state when the current buffer began */
  const char *input;      /* current buffer */

  /* growable buffers */
  uint8_t *slab;
  uint32_t slab_cap;
  uint32_t slab_version;  /* changes whenever the slab's bytes do */
  uint32_t slab_version_taken; /* as of the last lhn_parser_take_slab() */
  int slab_wanted;        /* the last call recorded strings or moved bytes */
  int32_t *pairs;
  uint32_t pair_cap;      /* in pairs */
  int32_t *events;
  uint32_t event_count;
  uint32_t event_cap;     /* in events */
  uint32_t max_header_size;
  uint32_t compacted_pairs; /* pairs the last execute moved out of the way:
                               earlier pair indices shift down by this */
  uint32_t compacted_bytes; /* the same for slab offsets */
  int oom;
  unsigned handlers;      /* LHN_HAS_* bits, LHN_HAS_ALL after init */
  uint32_t max_header_pairs; /* lhn_parser_set_max_header_pairs(); 0: none */

  /* rewind control, for the current buffer */
  uint32_t regen_limit;   /* events below this index are being regenerated:
                             their stored answers apply again */
  uint32_t fail_serial;   /* serial whose callback fails (0 = none) */
  int fail_code;

  lhn_grow_fn grow;
  void *grow_ctx;

  lhn_head_record previous_head; /* for LHN_HC_REPEATS */
  uint32_t record_skip;          /* heads that do not repeat to skip before
                                    the next record (LHN_HC_RECORDED) */
  uint32_t message_number;       /* of the last headers-complete event */

  uint64_t allocations;   /* buffer (re)allocations since creation */
  uint64_t slab_growths;
};

/*
 * Initialise p (caller-owned memory) with no buffers. grow may be NULL to use
 * realloc. Call lhn_parser_reset() before the first execute.
 */
void lhn_parser_init(lhn_parser *p, lhn_grow_fn grow, void *grow_ctx);

/*
 * Allocate the first slab, pair table and event list through the memory hook
 * (so that views of them exist before the first execute; execute prepares
 * them itself otherwise). Returns 0, or -1 when out of memory.
 */
int lhn_parser_prepare(lhn_parser *p);

/*
 * Start over as a parser of type (HTTP_REQUEST or HTTP_RESPONSE) with the
 * given header byte limit (a message's header bytes reaching it is
 * HPE_HEADER_OVERFLOW) and Node's lenient flag bits (kLenient*, same values
 * as llhttp's lenient flags). Keeps the buffers.
 */
void lhn_parser_reset(lhn_parser *p, int type, uint32_t max_header_size,
                      unsigned lenient_flags);

/*
 * Tell the core which handlers the caller has (LHN_HAS_* bits), as the
 * built-in looks them up at each callback; applies from the next execute,
 * rewind or finish on. Without kOnHeaders a flush hands nothing over and
 * leaves the URL and the "flushed" state as they were: the pairs of a 32nd
 * field's flush are dropped. Without kOnHeadersComplete the headers stay
 * pending (no flush, the headers-complete event still comes, with its pairs)
 * and leave with the trailers at message complete, counting towards their
 * 32-field flush.
 */
void lhn_parser_set_handlers(lhn_parser *p, unsigned handlers);

/*
 * Limit the header fields of a request's header section, and of its trailer
 * section, to max_pairs / 2 (max_pairs counts names and values, as node:http's
 * parser.maxHeaderPairs does): the field after that fails with
 * HPE_HEADER_OVERFLOW at its name's first piece, as the built-in of Node 22
 * and later does. 0 (the default) sets no limit; responses have none.
 * Applies from the next execute or finish on.
 */
void lhn_parser_set_max_header_pairs(lhn_parser *p, uint32_t max_pairs);

/*
 * Parse data[0..len) as the next bytes of the stream, appending events.
 * Clears the event list first. Never calls out except through the memory
 * hook. out receives the error, if any, and bytes parsed with the built-in's
 * rules (an upgrade stops early without an error).
 */
void lhn_parser_execute(lhn_parser *p, const char *data, size_t len,
                        lhn_result *out);

/*
 * Rewind to the start of the current buffer and re-execute it, changing what
 * happens at the event with index event_index according to actions
 * (LHN_REWIND_* bits): ANSWER makes that headers-complete callback return
 * answer (answers given to earlier events of the buffer are kept); FAIL makes
 * that callback fail with fail_code (-1 for a callback error, HPE_USER for a
 * JavaScript exception). Events up to event_index come out identical, except
 * for their message numbers, which only grow. data/len must be the buffer
 * given to the last execute. Returns 0, or -1 if event_index is not an event
 * of the current buffer.
 */
int lhn_parser_rewind(lhn_parser *p, const char *data, size_t len,
                      uint32_t event_index, unsigned actions, int answer,
                      int fail_code, lhn_result *out);

/* Signal end of input (llhttp_finish). out as for execute. */
void lhn_parser_finish(lhn_parser *p, lhn_result *out);

/* Pause (the next execute fails with HPE_PAUSED, as llhttp_pause) or resume
 * the parser. The built-in applies pause() called inside a handler only after
 * the current execute; callers get the same by calling this afterwards. */
void lhn_parser_pause(lhn_parser *p);
void lhn_parser_resume(lhn_parser *p);

/* ---- what a call left, for the caller --------------------------------- */

/* Events recorded by the last execute, rewind or finish. */
uint32_t lhn_parser_event_count(const lhn_parser *p);

/* The slab, the bytes slab offsets in events and pairs refer to, for a
 * caller that keeps a copy of it to cut strings from: NULL when the copy
 * taken last still holds every byte that the events of the last call and the
 * current message's pairs refer to, else the slab (its length in *len), which
 * then counts as taken. */
const uint8_t *lhn_parser_take_slab(lhn_parser *p, size_t *len);

/* How far the last execute moved the message under way down the pair table
 * and the slab (indices and offsets a caller kept shift down by these). */
void lhn_parser_compaction(const lhn_parser *p, uint32_t *pairs, uint32_t *bytes);

/* Whether the headers of the current message have completed. */
int lhn_parser_headers_completed(const lhn_parser *p);

/* When the message under way began (lhn_now_ns()), or 0 between messages. */
uint64_t lhn_parser_message_start_ns(const lhn_parser *p);

/* Sets when the message under way began, before any of it arrived: Node's
 * parser starts that clock when it joins a connections list at initialize
 * (so that a connection that sends nothing, or only empty lines, times out).
 * It holds until a message begins or completes. */
void lhn_parser_set_message_start(lhn_parser *p, uint64_t start_ns);

/* Counters for tests and benchmarks. */
typedef struct lhn_stats {
  uint64_t allocations;  /* buffer (re)allocations since init */
  uint64_t slab_growths;
  uint32_t slab_capacity;
} lhn_stats;
void lhn_parser_stats(const lhn_parser *p, lhn_stats *out);

/* Free the buffers the core allocated itself (those of the memory hook stay
 * with the hook's owner). */
void lhn_parser_destroy(lhn_parser *p);

/* Names of llhttp methods in enum order: the 35 of HTTP_METHOD_MAP when
 * all is 0, the 47 of HTTP_ALL_METHOD_MAP when all is 1. */
const char *const *lhn_method_names(int all, size_t *count);

/* The well-known header names reuse tags refer to, in index order. */
const char *const *lhn_known_names(size_t *count);

#ifdef __cplusplus
}
#endif

#endif /* LHN_PARSER_H */
