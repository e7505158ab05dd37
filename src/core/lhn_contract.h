/*
 * The contract between the core and its callers, written once: every slot,
 * kind, flag and command that crosses from C to JavaScript is one line of a
 * list below. The core's enums are made from these lists, and so is the
 * `layout` object the binding exports (src/binding/addon.cc): lib/ reads
 * every number by name from it and refuses to load when a name it needs is
 * missing (lib/workspace.js). Adding a slot is one line here plus its use.
 *
 * Each list is X(NAME, value, what it is). The JavaScript name is the
 * list's prefix and NAME: EV_ + KIND_HEADERS is EV_HEADERS.
 */
#ifndef LHN_CONTRACT_H
#define LHN_CONTRACT_H

/* Event kinds, in the KIND slot of each event (prefix EV_). */
#define LHN_EVENT_KINDS(X)                                                      \
  X(MESSAGE_BEGIN, 1, "kOnMessageBegin")                                        \
  X(HEADERS, 2, "kOnHeaders: a flush of header pairs, or trailers")             \
  X(HEADERS_COMPLETE, 3, "kOnHeadersComplete")                                  \
  X(BODY, 4, "kOnBody: a slice of the input")                                   \
  X(MESSAGE_COMPLETE, 5, "kOnMessageComplete")

/* Slots of an event, LHN_EVENT_SLOTS int32 values each (prefix EV_). Text
 * offsets are [start, end) into the text of the call (lhn_workspace_text()).
 * BODY reuses slots 2 and 3. */
#define LHN_EVENT_SLOT_LIST(X)                                                  \
  X(KIND, 0, "the event kind")                                                  \
  X(SERIAL, 1, "llhttp callback serial, for rewinds")                           \
  X(FIRST_PAIR, 2, "HEADERS, HEADERS_COMPLETE: first pair in the pair table")   \
  X(PAIR_COUNT, 3, "their pairs; -1 at HEADERS_COMPLETE when flushed earlier")  \
  X(HEADER_PAIRS, 4, "HEADERS: how many of the pairs are the message's headers" \
                     " (the rest are trailers)")                               \
  X(TEXT_START, 5, "URL (requests) or status text (responses)")                 \
  X(TEXT_END, 6, "")                                                            \
  X(FLAGS, 7, "HEADERS_COMPLETE: HC_* bits")                                    \
  X(STATUS, 8, "HEADERS_COMPLETE: status code")                                 \
  X(METHOD, 9, "HEADERS_COMPLETE: llhttp method number")                        \
  X(HTTP_MAJOR, 10, "")                                                         \
  X(HTTP_MINOR, 11, "")                                                         \
  X(ANSWER, 12, "HEADERS_COMPLETE: the handler's answer, kept for rewinds")     \
  X(MESSAGE_NUMBER, 13, "HEADERS_COMPLETE: numbers messages for HC_REPEATS")    \
  X(BODY_START, 2, "BODY: offset into the input")                               \
  X(BODY_LENGTH, 3, "BODY: its length")
#define LHN_EVENT_SLOTS 16

/* Bits of a HEADERS_COMPLETE event's FLAGS slot (prefix HC_). */
#define LHN_HEADERS_FLAGS(X)                                                    \
  X(UPGRADE, 1, "")                                                             \
  X(KEEP_ALIVE, 2, "")                                                          \
  X(REPEATS, 4, "the head repeats the message numbered one less (lhn_repeat.h)")\
  X(RECORDED, 8, "the core recorded this head: record its strings (lhn_repeat.h)")\
  X(FIELDS_KNOWN, 16, "the head came with its pairs (none flushed before): "    \
                      "the three bits below tell its fields")                  \
  X(HOST, 32, "a Host field, its name in any case")                             \
  X(EXPECT, 64, "an Expect field")                                              \
  X(BODY_FIELDS, 128, "a Content-Length or Transfer-Encoding field")

/* Slots of a header pair, LHN_PAIR_SLOTS int32 values each (prefix PAIR_):
 * name and value as text offsets (the value's trailing spaces and tabs
 * trimmed), and the well-known name it has (lhn_known.h) as index + 1, or 0.
 * The pairs of a HEADERS_COMPLETE with HC_REPEATS are not looked up: their
 * KNOWN_NAME is 0 (the caller hands out the previous message's strings),
 * unless the caller has no kOnHeadersComplete, when they stay pending and
 * the trailers' flush, handing them over again, gives them their names. */
#define LHN_PAIR_SLOT_LIST(X)                                                   \
  X(NAME_START, 0, "") X(NAME_END, 1, "")                                       \
  X(VALUE_START, 2, "") X(VALUE_END, 3, "")                                     \
  X(KNOWN_NAME, 4, "index + 1 in lhn_known_names(), or 0")
#define LHN_PAIR_SLOTS 5

/* Int32 slots of a workspace's state block, shared with JavaScript
 * (prefix WS_): commands and their arguments that JavaScript writes for the
 * parser it is about to call, and what the call left. Depth 0's block is
 * also the thread's call block: the numbers a call of the addon takes
 * (ADDRESS, LENGTH), written just before it, where a typed-array store costs
 * less than an N-API argument read. */
#define LHN_WORKSPACE_SLOT_LIST(X)                                              \
  X(COMMANDS, 0, "JS -> native: CMD_* bits, applied as the call begins")       \
  X(TYPE, 1, "JS -> native: parser type for CMD_RESET")                         \
  X(MAX_HEADER, 2, "JS -> native: header byte limit for CMD_RESET")             \
  X(LENIENT, 3, "JS -> native: lenient flags for CMD_RESET")                    \
  X(HANDLERS, 4, "JS -> native: HAS_* bits for CMD_HANDLERS")                   \
  X(MAX_PAIRS, 5, "JS -> native: header pair limit for CMD_MAX_PAIRS")          \
  X(EVENTS, 6, "native -> JS: events the call left")                            \
  X(NREAD, 7, "native -> JS: bytes parsed, as the built-in counts them")        \
  X(ERROR, 8, "native -> JS: llhttp error number, 0 when none")                 \
  X(UPGRADED, 9, "native -> JS: an upgrade stopped the call")                   \
  X(GENERATION, 10, "native -> JS: bumped when the event list or pair table moved") \
  X(ADDRESS, 11, "JS -> native, depth 0's block only: the next call's address") \
  X(LENGTH, 12, "JS -> native, depth 0's block only: execute()'s byte count")
#define LHN_WORKSPACE_SLOTS 14

/* Commands a caller leaves for a parser (prefix CMD_). */
#define LHN_COMMAND_LIST(X)                                                     \
  X(RESET, 1, "lhn_parser_reset() with TYPE, MAX_HEADER, LENIENT")              \
  X(PAUSE, 2, "lhn_parser_pause()")                                             \
  X(RESUME, 4, "lhn_parser_resume()")                                           \
  X(HANDLERS, 8, "lhn_parser_set_handlers() with HANDLERS")                     \
  X(MAX_PAIRS, 16, "lhn_parser_set_max_header_pairs() with MAX_PAIRS")

/* Which of the caller's handlers exist (prefix HAS_): the first two change
 * how the core keeps headers; all of them tell whether a call's events call
 * a handler (lhn_parser_calls_handlers()). */
#define LHN_HANDLER_LIST(X)                                                     \
  X(ON_HEADERS, 1, "kOnHeaders")                                                \
  X(ON_HEADERS_COMPLETE, 2, "kOnHeadersComplete")                               \
  X(ON_MESSAGE_BEGIN, 4, "kOnMessageBegin")                                     \
  X(ON_BODY, 8, "kOnBody")                                                      \
  X(ON_MESSAGE_COMPLETE, 16, "kOnMessageComplete")

/* What a rewind changes at its event (prefix REWIND_). */
#define LHN_REWIND_LIST(X)                                                      \
  X(ANSWER, 1, "kOnHeadersComplete at the event returned the answer")           \
  X(FAIL, 2, "the event's handler threw")

/* Numbers of the seam itself (no prefix). */
#define LHN_SEAM_LIST(X)                                                        \
  X(MAX_DEPTH, 64, "nesting depths of calls a thread may reach (a handler "     \
                   "executing another parser, whose handler executes a third)") \
  X(HPE_USER, 24, "llhttp's HPE_USER: a rewind's FAIL code for a handler that " \
                  "threw in kOnBody (checked against llhttp in lhn_contract.c)")

#define LHN_ENUM_ITEM(prefix, name, value) prefix##name = value,
#define LHN_X_EVENT_KIND(name, value, what) LHN_ENUM_ITEM(LHN_EV_, name, value)
#define LHN_X_EVENT_SLOT(name, value, what) LHN_ENUM_ITEM(LHN_EV_, name, value)
#define LHN_X_HC(name, value, what) LHN_ENUM_ITEM(LHN_HC_, name, value)
#define LHN_X_PAIR(name, value, what) LHN_ENUM_ITEM(LHN_PAIR_, name, value)
#define LHN_X_WS(name, value, what) LHN_ENUM_ITEM(LHN_WS_, name, value)
#define LHN_X_CMD(name, value, what) LHN_ENUM_ITEM(LHN_CMD_, name, value)
#define LHN_X_HAS(name, value, what) LHN_ENUM_ITEM(LHN_HAS_, name, value)
#define LHN_X_REWIND(name, value, what) LHN_ENUM_ITEM(LHN_REWIND_, name, value)
#define LHN_X_SEAM(name, value, what) LHN_ENUM_ITEM(LHN_, name, value)

enum lhn_event_kind { LHN_EVENT_KINDS(LHN_X_EVENT_KIND) };
enum lhn_event_slot { LHN_EVENT_SLOT_LIST(LHN_X_EVENT_SLOT) };
enum lhn_headers_flag { LHN_HEADERS_FLAGS(LHN_X_HC) };
enum lhn_pair_slot { LHN_PAIR_SLOT_LIST(LHN_X_PAIR) };
enum lhn_workspace_slot { LHN_WORKSPACE_SLOT_LIST(LHN_X_WS) };
enum lhn_command { LHN_COMMAND_LIST(LHN_X_CMD) };
enum lhn_handler { LHN_HANDLER_LIST(LHN_X_HAS) };
enum lhn_rewind_action { LHN_REWIND_LIST(LHN_X_REWIND) };
enum lhn_seam_number { LHN_SEAM_LIST(LHN_X_SEAM) };

#define LHN_HAS_ALL (LHN_HAS_ON_HEADERS | LHN_HAS_ON_HEADERS_COMPLETE | LHN_HAS_ON_MESSAGE_BEGIN | \
                     LHN_HAS_ON_BODY | LHN_HAS_ON_MESSAGE_COMPLETE)

/* A call names the parser it parses with (its id) and the workspace it
 * borrows (its depth) by one number, its address: id * LHN_MAX_DEPTH +
 * depth (one argument, read without an object). lib/workspace.js makes it
 * (Workspace.address()); these read it. */
static inline unsigned lhn_address_id(unsigned address) { return address / LHN_MAX_DEPTH; }
static inline unsigned lhn_address_depth(unsigned address) { return address % LHN_MAX_DEPTH; }

/* One name of the contract and its number, as callers export it: the
 * lists' prefix and NAME (EV_HEADERS, MAX_DEPTH), and the record sizes
 * (EVENT_SLOTS, PAIR_SLOTS, WORKSPACE_SLOTS). */
typedef struct lhn_layout_entry {
  const char *name;
  int value;
} lhn_layout_entry;

#ifdef __cplusplus
extern "C" {
#endif

/* Every entry of every list above, and the record sizes: *count entries
 * (lhn_contract.c). */
const lhn_layout_entry *lhn_layout(unsigned *count);

#ifdef __cplusplus
}
#endif

/* Every slot of a list fits the record it describes. */
#define LHN_X_EVENT_FITS(name, value, what) (value) < LHN_EVENT_SLOTS &&
#define LHN_X_PAIR_FITS(name, value, what) (value) < LHN_PAIR_SLOTS &&
#define LHN_X_WS_FITS(name, value, what) (value) < LHN_WORKSPACE_SLOTS &&
#ifdef __cplusplus
static_assert(LHN_EVENT_SLOT_LIST(LHN_X_EVENT_FITS) 1, "an event slot past LHN_EVENT_SLOTS");
static_assert(LHN_PAIR_SLOT_LIST(LHN_X_PAIR_FITS) 1, "a pair slot past LHN_PAIR_SLOTS");
static_assert(LHN_WORKSPACE_SLOT_LIST(LHN_X_WS_FITS) 1, "a workspace slot past LHN_WORKSPACE_SLOTS");
static_assert(LHN_EVENT_SLOTS * 4 == 64, "an event is one cache line");
static_assert((LHN_WORKSPACE_SLOTS * 4) % 8 == 0, "the state block keeps 8-byte alignment");
#else
_Static_assert(LHN_EVENT_SLOT_LIST(LHN_X_EVENT_FITS) 1, "an event slot past LHN_EVENT_SLOTS");
_Static_assert(LHN_PAIR_SLOT_LIST(LHN_X_PAIR_FITS) 1, "a pair slot past LHN_PAIR_SLOTS");
_Static_assert(LHN_WORKSPACE_SLOT_LIST(LHN_X_WS_FITS) 1, "a workspace slot past LHN_WORKSPACE_SLOTS");
_Static_assert(LHN_EVENT_SLOTS * 4 == 64, "an event is one cache line");
_Static_assert((LHN_WORKSPACE_SLOTS * 4) % 8 == 0, "the state block keeps 8-byte alignment");
#endif

#endif /* LHN_CONTRACT_H */
