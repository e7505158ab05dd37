/* llhttp-napi core: the llhttp callbacks and the public API. See
 * lhn_parser.h for the contract; the buffers are lhn_buffers.c's, the
 * known-name table lhn_known.c's, the repeat record lhn_repeat.c's. */
#include "lhn_parser.h"
#include "lhn_buffers.h"
#include "lhn_clock.h"
#include "lhn_known.h"
#include "lhn_llhttp.h"

#include <stdlib.h>
#include <string.h>

/* Chunk extensions allowed per chunk line, as in Node 20. */
#define LHN_MAX_CHUNK_EXTENSIONS 16384

static const char OUT_OF_MEMORY_CODE[] = "HPE_OUT_OF_MEMORY";
static const char OUT_OF_MEMORY_REASON[] = "Out of memory";

static lhn_parser *from_llhttp(llhttp_t *h) {
  return (lhn_parser *)((char *)h - offsetof(lhn_parser, st.llhttp));
}

/* ---- callback plumbing ---------------------------------------------------- */

/* llhttp_set_error_reason(): the reason a callback's HPE_USER reports. */
static inline void set_error_reason(lhn_parser *p, const char *reason) {
  p->st.llhttp.reason = reason;
}

/* A buffer could not grow: the call fails with HPE_OUT_OF_MEMORY (report()
 * names it so even where llhttp replaces a callback's reason). */
static int out_of_memory(lhn_parser *p) {
  p->ws->oom = 1;
  set_error_reason(p, "HPE_OUT_OF_MEMORY:Out of memory");
  return HPE_USER;
}

/* Every llhttp callback starts here: counts it, as rewinds name callbacks
 * by their serial. */
static inline lhn_parser *enter(llhttp_t *h) {
  lhn_parser *p = from_llhttp(h);
  p->st.serial++;
  return p;
}

/* Every llhttp callback ends here: applies a rewind's failure (the handler
 * of this callback's event threw). */
static inline int leave(lhn_parser *p, int rv) {
  lhn_workspace *ws = p->ws;
  if (ws->fail_serial != 0 && p->st.serial == ws->fail_serial) {
    ws->fail_serial = 0;
    if (ws->fail_code == HPE_USER) set_error_reason(p, "HPE_JS_EXCEPTION:JS Exception");
    return ws->fail_code;
  }
  return rv;
}

/* The built-in's TrackHeader: a message's header bytes must stay below the
 * limit. */
static inline int track_header(lhn_parser *p, size_t len) {
  p->st.header_nread += len;
  if (p->st.header_nread >= p->max_header_size) {
    set_error_reason(p, "HPE_HEADER_OVERFLOW:Header overflow");
    return HPE_USER;
  }
  return 0;
}

/* A span of the message's head now lies at text offset pos. */
static inline void note_span(lhn_state *st, uint32_t pos, size_t len) {
  if (!st->head_started) {
    st->head_started = 1;
    st->head_start = pos;
  }
  st->span_end = pos + (uint32_t)len;
}

/* The events of this call refer to the text up to the latest span. */
static inline void deliver_text(lhn_parser *p) {
  if (p->st.span_end > p->ws->text_end) p->ws->text_end = p->st.span_end;
}

/* ---- header pairs at the end of a header section ---------------------------- */

/* Trims trailing spaces and tabs of the values of pairs [first, first+n), as
 * the built-in does when it hands values over. */
static void trim_values(lhn_parser *p, uint32_t first, uint32_t n) {
  const uint8_t *text = lhn_text_base(p->ws);
  int32_t *pair = lhn_pair_at(p->ws, first);
  for (uint32_t j = 0; j < n; j++, pair += LHN_PAIR_SLOTS) {
    int32_t vs = pair[LHN_PAIR_VALUE_START], ve = pair[LHN_PAIR_VALUE_END];
    while (ve > vs && (text[ve - 1] == ' ' || text[ve - 1] == '\t')) ve--;
    pair[LHN_PAIR_VALUE_END] = ve;
  }
}

/* Gives pairs [first, first+n) the index + 1 of their name among
 * lhn_known_names(), or 0. */
static void tag_known_names(lhn_parser *p, uint32_t first, uint32_t n) {
  const uint8_t *text = lhn_text_base(p->ws);
  int32_t *pair = lhn_pair_at(p->ws, first);
  for (uint32_t j = 0; j < n; j++, pair += LHN_PAIR_SLOTS) {
    int32_t ns = pair[LHN_PAIR_NAME_START];
    pair[LHN_PAIR_KNOWN_NAME] = lhn_known_name(text + ns, (size_t)(pair[LHN_PAIR_NAME_END] - ns));
  }
}

/* The built-in's Flush(): hands pending pairs and the URL to kOnHeaders. */
static int flush_headers(lhn_parser *p) {
  lhn_state *st = &p->st;
  int32_t *ev = lhn_event_push(p->ws, LHN_EV_HEADERS, st->serial);
  if (!ev) return out_of_memory(p);
  trim_values(p, st->pair_base, st->num_values);
  tag_known_names(p, st->pair_base, st->num_values);
  deliver_text(p);
  ev[LHN_EV_FIRST_PAIR] = (int32_t)st->pair_base;
  ev[LHN_EV_PAIR_COUNT] = (int32_t)st->num_values;
  /* (after headers complete: the headers held without kOnHeadersComplete,
   * then the trailers) */
  ev[LHN_EV_HEADER_PAIRS] = (int32_t)(st->headers_complete ? st->held_headers : st->num_values);
  ev[LHN_EV_TEXT_START] = (int32_t)st->url_start;
  ev[LHN_EV_TEXT_END] = (int32_t)st->url_end;
  if (p->handlers & LHN_HAS_ON_HEADERS) {
    st->url_start = st->url_end = st->span_end;
    st->have_flushed = 1;
  }
  return 0;
}

/* ---- llhttp callbacks ----------------------------------------------------- */

static int on_message_begin(llhttp_t *h) {
  lhn_parser *p = enter(h);
  lhn_state *st = &p->st;
  if (!lhn_event_push(p->ws, LHN_EV_MESSAGE_BEGIN, st->serial)) return leave(p, out_of_memory(p));
  p->ws->mirror = NULL;
  st->pair_base = st->pair_count;
  st->num_fields = st->num_values = 0;
  st->held_headers = 0;
  st->header_fields = 0;
  st->headers_complete = 0;
  st->chunk_ext_nread = 0;
  st->in_message = 1;
  st->head_started = 0;
  st->head_start = 0;
  st->message_start_ns = lhn_now_ns();
  st->url_start = st->url_end = 0;
  st->status_start = st->status_end = 0;
  return leave(p, 0);
}

/* The URL or the status text: every piece continues the text so far. */
static int on_text(llhttp_t *h, const char *at, size_t len, uint32_t *start, uint32_t *end) {
  lhn_parser *p = enter(h);
  int rv = track_header(p, len);
  if (rv != 0) return leave(p, rv);
  uint32_t after = *start != *end ? *end : LHN_FRESH;
  if (lhn_span_reserve(p->ws, at, len, after) != 0) return leave(p, out_of_memory(p));
  uint32_t pos = lhn_span_put(p->ws, at, len, after);
  if (after == LHN_FRESH) *start = pos;
  *end = pos + (uint32_t)len;
  note_span(&p->st, pos, len);
  return leave(p, 0);
}

static int on_url(llhttp_t *h, const char *at, size_t len) {
  lhn_state *st = &from_llhttp(h)->st;
  return on_text(h, at, len, &st->url_start, &st->url_end);
}

static int on_status(llhttp_t *h, const char *at, size_t len) {
  lhn_state *st = &from_llhttp(h)->st;
  return on_text(h, at, len, &st->status_start, &st->status_end);
}

/* The built-in's bookkeeping when a header name starts: a 32nd pending field
 * flushes the 31 before it. Then a new pair begins at text offset pos. */
static int new_field(lhn_parser *p, uint32_t pos) {
  lhn_state *st = &p->st;
  if (st->num_fields + 1 == LHN_MAX_PENDING_FIELDS) {
    int rv = flush_headers(p);
    if (rv != 0) return rv;
    st->pair_base += st->num_values;
    st->num_fields = st->num_values = 0;
    st->held_headers = 0;
  }
  if (lhn_pairs_reserve(p->ws, st->pair_count + 1) != 0) return out_of_memory(p);
  st->num_fields++;
  int32_t *pair = lhn_pair_at(p->ws, st->pair_count++);
  pair[LHN_PAIR_NAME_START] = pair[LHN_PAIR_NAME_END] = (int32_t)pos;
  pair[LHN_PAIR_VALUE_START] = pair[LHN_PAIR_VALUE_END] = (int32_t)pos;
  pair[LHN_PAIR_KNOWN_NAME] = 0;
  return 0;
}

/* The pair limit of lhn_parser_set_max_header_pairs(), as a field starts. */
static inline int count_field(lhn_parser *p) {
  lhn_state *st = &p->st;
  uint32_t max = p->max_header_pairs;
  if (max != 0 && st->llhttp.type == HTTP_REQUEST && (uint64_t)(st->header_fields + 1) * 2 > max) {
    set_error_reason(p, "HPE_HEADER_OVERFLOW:Header overflow");
    return HPE_USER;
  }
  st->header_fields++;
  return 0;
}

static int on_header_field(llhttp_t *h, const char *at, size_t len) {
  lhn_parser *p = enter(h);
  lhn_state *st = &p->st;
  int rv = track_header(p, len);
  if (rv != 0) return leave(p, rv);
  int starts = st->num_fields == st->num_values;
  if (starts) {
    rv = count_field(p);
    if (rv != 0) return leave(p, rv);
  } else if (st->pair_count == st->pair_base) {
    /* (a name goes on only after its start) */
    set_error_reason(p, "HPE_INTERNAL:Header name without its start");
    return leave(p, HPE_USER);
  }
  uint32_t after = starts ? LHN_FRESH
                          : (uint32_t)lhn_pair_at(p->ws, st->pair_count - 1)[LHN_PAIR_NAME_END];
  /* (room for the span, the pair and a flush first: nothing changes when
   * one cannot be had) */
  if (lhn_span_reserve(p->ws, at, len, after) != 0 ||
      (starts && (lhn_pairs_reserve(p->ws, st->pair_count + 1) != 0 ||
                  lhn_events_reserve(p->ws, 1) != 0))) {
    return leave(p, out_of_memory(p));
  }
  uint32_t pos = lhn_span_put(p->ws, at, len, after);
  if (starts) {
    rv = new_field(p, pos);
    if (rv != 0) return leave(p, rv);
  }
  lhn_pair_at(p->ws, st->pair_count - 1)[LHN_PAIR_NAME_END] = (int32_t)(pos + len);
  note_span(st, pos, len);
  return leave(p, 0);
}

static int on_header_value(llhttp_t *h, const char *at, size_t len) {
  lhn_parser *p = enter(h);
  lhn_state *st = &p->st;
  int rv = track_header(p, len);
  if (rv != 0) return leave(p, rv);
  if (st->pair_count == st->pair_base) {
    /* (llhttp hands a value over only after its name) */
    set_error_reason(p, "HPE_INTERNAL:Header value without a name");
    return leave(p, HPE_USER);
  }
  int starts = st->num_values != st->num_fields;
  uint32_t after = starts ? LHN_FRESH
                          : (uint32_t)lhn_pair_at(p->ws, st->pair_count - 1)[LHN_PAIR_VALUE_END];
  if (lhn_span_reserve(p->ws, at, len, after) != 0) return leave(p, out_of_memory(p));
  uint32_t pos = lhn_span_put(p->ws, at, len, after);
  int32_t *pair = lhn_pair_at(p->ws, st->pair_count - 1);
  if (starts) {
    st->num_values++;
    pair[LHN_PAIR_VALUE_START] = (int32_t)pos;
  }
  pair[LHN_PAIR_VALUE_END] = (int32_t)(pos + len);
  note_span(st, pos, len);
  return leave(p, 0);
}

static int on_chunk_extension(llhttp_t *h, const char *at, size_t len) {
  lhn_parser *p = enter(h);
  (void)at;
  p->st.chunk_ext_nread += len;
  if (p->st.chunk_ext_nread > LHN_MAX_CHUNK_EXTENSIONS) {
    set_error_reason(p, "HPE_CHUNK_EXTENSIONS_OVERFLOW:Chunk extensions overflow");
    return leave(p, HPE_USER);
  }
  return leave(p, 0);
}

/* Whether the head whose headers just completed repeats the recorded one
 * (lhn_repeat.h): its bytes from its first span to its last. */
static enum lhn_repeat_match check_repeat(lhn_parser *p, uint32_t text_start, uint32_t text_end) {
  lhn_state *st = &p->st;
  lhn_head head;
  head.base = st->head_started ? st->head_start : 0;
  head.len = st->head_started ? st->span_end - head.base : 0;
  head.bytes = head.len ? lhn_text_base(p->ws) + head.base : NULL;
  /* (an empty text has no place of its own) */
  head.text_start = text_start != text_end ? text_start : head.base;
  head.text_end = text_start != text_end ? text_end : head.base;
  head.pairs = lhn_pair_at(p->ws, st->pair_base);
  head.pair_count = st->num_values;
  return lhn_repeat_check(&p->repeat, &head, &p->mem);
}

static int on_headers_complete(llhttp_t *h) {
  lhn_parser *p = enter(h);
  lhn_state *st = &p->st;
  lhn_workspace *ws = p->ws;
  llhttp_t *ll = &st->llhttp;

  /* without a handler the built-in returns before its flush: the pairs
   * stay pending */
  int held = (p->handlers & LHN_HAS_ON_HEADERS_COMPLETE) == 0;
  int flushed = st->have_flushed && !held;
  if (flushed && flush_headers(p) != 0) return leave(p, HPE_USER);

  uint32_t index = ws->event_count;
  int answer = 0;
  if (index < ws->regen_limit && !held) {
    answer = ws->events[(size_t)index * LHN_EVENT_SLOTS + LHN_EV_ANSWER];
  }
  int32_t *ev = lhn_event_push(ws, LHN_EV_HEADERS_COMPLETE, st->serial);
  if (!ev) return leave(p, out_of_memory(p));
  ws->mirror = NULL; /* (the trailers, if any, come after the body) */
  st->header_nread = 0;
  st->header_fields = 0;
  deliver_text(p);
  int request = ll->type == HTTP_REQUEST;
  uint32_t text_start = request ? st->url_start : st->status_start;
  uint32_t text_end = request ? st->url_end : st->status_end;
  int32_t flags = (ll->upgrade ? LHN_HC_UPGRADE : 0) |
                  (p->ll->should_keep_alive(ll) ? LHN_HC_KEEP_ALIVE : 0);
  if (flushed) {
    ev[LHN_EV_FIRST_PAIR] = 0;
    ev[LHN_EV_PAIR_COUNT] = -1;
    lhn_repeat_forget(&p->repeat);
  } else {
    trim_values(p, st->pair_base, st->num_values);
    if (st->have_flushed) {
      /* (no kOnHeadersComplete: part of the head left with a flush) */
      lhn_repeat_forget(&p->repeat);
      tag_known_names(p, st->pair_base, st->num_values);
    } else {
      enum lhn_repeat_match match = check_repeat(p, text_start, text_end);
      if (match == LHN_HEAD_REPEATS) {
        flags |= LHN_HC_REPEATS;
      } else {
        if (match == LHN_HEAD_RECORDED) flags |= LHN_HC_RECORDED;
        tag_known_names(p, st->pair_base, st->num_values);
      }
    }
    ev[LHN_EV_FIRST_PAIR] = (int32_t)st->pair_base;
    ev[LHN_EV_PAIR_COUNT] = (int32_t)st->num_values;
  }
  ev[LHN_EV_TEXT_START] = (int32_t)text_start;
  ev[LHN_EV_TEXT_END] = (int32_t)text_end;
  ev[LHN_EV_FLAGS] = flags;
  ev[LHN_EV_STATUS] = ll->status_code;
  ev[LHN_EV_METHOD] = ll->method;
  ev[LHN_EV_HTTP_MAJOR] = ll->http_major;
  ev[LHN_EV_HTTP_MINOR] = ll->http_minor;
  ev[LHN_EV_ANSWER] = answer;
  ev[LHN_EV_MESSAGE_NUMBER] = (int32_t)++p->message_number;
  st->headers_complete = 1;

  if (held) {
    st->held_headers = st->num_values;
  } else {
    st->pair_base = st->pair_count;
    st->num_fields = st->num_values = 0;
  }
  return leave(p, answer);
}

static int on_body(llhttp_t *h, const char *at, size_t len) {
  lhn_parser *p = enter(h);
  if (len != 0) {
    int32_t *ev = lhn_event_push(p->ws, LHN_EV_BODY, p->st.serial);
    if (!ev) return leave(p, out_of_memory(p));
    ev[LHN_EV_BODY_START] = (int32_t)(at - p->ws->input);
    ev[LHN_EV_BODY_LENGTH] = (int32_t)len;
  }
  return leave(p, 0);
}

static int on_message_complete(llhttp_t *h) {
  lhn_parser *p = enter(h);
  lhn_state *st = &p->st;
  /* (room for a trailers flush and this event first) */
  if (lhn_events_reserve(p->ws, 2) != 0) return leave(p, out_of_memory(p));
  if (st->num_fields != 0 && flush_headers(p) != 0) return leave(p, HPE_USER);
  lhn_event_push(p->ws, LHN_EV_MESSAGE_COMPLETE, st->serial);
  st->message_start_ns = 0;
  st->in_message = 0;
  return leave(p, 0);
}

static int on_chunk_header(llhttp_t *h) {
  lhn_parser *p = enter(h);
  p->st.header_nread = 0;
  p->st.chunk_ext_nread = 0;
  return leave(p, 0);
}

static int on_chunk_complete(llhttp_t *h) {
  lhn_parser *p = enter(h);
  p->st.header_nread = 0;
  return leave(p, 0);
}

static const llhttp_settings_t lhn_settings = {
  .on_message_begin = on_message_begin,
  .on_url = on_url,
  .on_status = on_status,
  .on_header_field = on_header_field,
  .on_header_value = on_header_value,
  .on_chunk_extension_name = on_chunk_extension,
  .on_chunk_extension_value = on_chunk_extension,
  .on_headers_complete = on_headers_complete,
  .on_body = on_body,
  .on_message_complete = on_message_complete,
  .on_chunk_header = on_chunk_header,
  .on_chunk_complete = on_chunk_complete,
};

/* ---- a call: borrowing the workspace, holding what is pending --------------- */

/* Whether llhttp's error stops the parser for good (a pause does not, nor
 * an upgrade, which report() resumes). (What a call returns may differ:
 * llhttp_finish() reports an unfinished message without keeping it.) */
static int fatal(llhttp_errno_t err) {
  return err != HPE_OK && err != HPE_PAUSED && err != HPE_PAUSED_UPGRADE;
}

/* Whether a header or trailer section is under way (not only a URL or
 * headers kept for the trailers' flush). */
static int section_in_progress(const lhn_state *st) {
  return !st->headers_complete || st->pair_count - st->pair_base > st->held_headers;
}

/* The call borrows ws: the held head (if any) moves in, the state is saved
 * for rewinds. -1 when out of memory. */
static int begin_call(lhn_parser *p, lhn_workspace *ws, const char *data, size_t len) {
  lhn_state *st = &p->st;
  p->ws = ws;
  ws->owner = p;
  ws->input = data;
  ws->input_len = len;
  ws->origin = NULL;
  ws->event_count = 0;
  ws->text_end = 0;
  ws->oom = 0;
  ws->regen_limit = 0;
  ws->fail_serial = 0;
  ws->copying = p->held != NULL;
  ws->text_len = 0;
  ws->saved_pair_count = 0;
  ws->mirror = NULL;
  /* (a workspace never used has no tables yet) */
  if ((ws->events == NULL || ws->pairs == NULL) && lhn_workspace_reserve(ws, 1, 1) != 0) return -1;
  if (p->held) {
    if (lhn_held_restore(p, ws) != 0) return -1;
    ws->saved_pair_count = st->pair_count;
    /* (a head or trailers under way go on as they came) */
    if (section_in_progress(st)) ws->mirror = data;
  } else {
    /* (nothing pending: the pair table and the text start empty) */
    st->pair_count = st->pair_base = 0;
    st->url_start = st->url_end = 0;
    st->status_start = st->status_end = 0;
    st->head_start = st->span_end = 0;
  }
  ws->saved_text_len = ws->text_len;
  ws->saved = *st;
  return 0;
}

/* The pending spans' first byte, or span_end when none: the pairs not yet
 * delivered, the status text until headers complete, and the URL until the
 * message completes (a trailers flush hands it to kOnHeaders again, as the
 * built-in's does) unless a flush took it. */
static uint32_t pending_from(const lhn_parser *p) {
  const lhn_state *st = &p->st;
  uint32_t from = st->span_end;
  if (st->llhttp.type == HTTP_REQUEST) {
    if (st->url_start != st->url_end && st->url_start < from) from = st->url_start;
  } else if (!st->headers_complete) {
    if (st->status_start != st->status_end && st->status_start < from) from = st->status_start;
  }
  if (st->pair_count > st->pair_base) {
    uint32_t name = (uint32_t)lhn_pair_at(p->ws, st->pair_base)[LHN_PAIR_NAME_START];
    if (name < from) from = name;
  }
  return from;
}

/* Moves an offset of the pending part [from, to) to its held place (an
 * offset outside it is of no use any more: it goes to an end). */
static inline uint32_t rebase(uint32_t offset, uint32_t from, uint32_t to) {
  return offset < from ? 0 : offset > to ? to - from : offset - from;
}

/* As a call ends: a head still arriving (or headers held for the trailers,
 * or the URL a trailers flush will pass) keeps its spans and pairs in the
 * parser, sized to what is pending; else the parser holds nothing. -1 when
 * out of memory. */
static int end_call(lhn_parser *p, llhttp_errno_t err) {
  lhn_state *st = &p->st;
  lhn_workspace *ws = p->ws;
  uint32_t pairs = st->pair_count - st->pair_base;
  uint32_t from = pending_from(p);
  /* (after a message completes with fields pending, as the trailers' flush
   * leaves them, the built-in flushes them again at another message
   * complete without a begin: they stay until the next message begins) */
  int live = st->in_message || st->num_fields != 0;
  int pending = live && !fatal((llhttp_errno_t)st->llhttp.error) && (pairs > 0 || from < st->span_end);
  if (!pending) {
    lhn_held_free(p);
    return 0;
  }
  /* (where llhttp stopped, as report() counts it: a pause leaves the rest
   * of the input unread, one made before the call all of it) */
  const char *end = ws->input ? ws->input + ws->input_len : NULL; /* (NULL: finish) */
  const char *pos = st->llhttp.error_pos;
  if (end && err != HPE_OK) end = pos >= ws->input && pos <= end ? pos : ws->input;
  uint32_t to;
  if (!section_in_progress(st)) {
    /* (headers held for the trailers, or the URL only) */
    to = pairs > 0 ? st->span_end : st->url_end;
  } else if (!ws->copying) {
    /* a head or trailers under way: what came of them, to the end of the
     * input, so that the next bytes follow on */
    to = ws->origin && end && end >= ws->origin ? (uint32_t)(end - ws->origin) : st->span_end;
  } else {
    if (ws->mirror && end && end > ws->mirror) {
      if (lhn_span_reserve(ws, end, 0, LHN_FRESH) != 0) return -1;
      lhn_span_put(ws, end, 0, LHN_FRESH);
    }
    to = ws->text_len;
  }
  if (to < st->span_end) to = st->span_end;
  if (lhn_held_store(p, ws, st->pair_base, pairs, from, to) != 0) {
    lhn_held_free(p);
    return -1;
  }
  st->pair_base = 0;
  st->pair_count = pairs;
  if (st->url_start == st->url_end) st->url_start = st->url_end = from;
  if (st->status_start == st->status_end) st->status_start = st->status_end = from;
  st->url_start = rebase(st->url_start, from, to);
  st->url_end = rebase(st->url_end, from, to);
  st->status_start = rebase(st->status_start, from, to);
  st->status_end = rebase(st->status_end, from, to);
  st->head_start = rebase(st->head_start, from, to);
  st->span_end = rebase(st->span_end, from, to);
  return 0;
}

/* Fills out with what the built-in's Execute()/Finish() would report. */
static void report(lhn_parser *p, const char *data, size_t len, llhttp_errno_t err,
                   lhn_result *out) {
  llhttp_t *ll = &p->st.llhttp;
  size_t nread = len;
  int upgraded = 0;
  if (err != HPE_OK) {
    const char *pos = ll->error_pos;
    nread = (data && pos >= data && pos <= data + len) ? (size_t)(pos - data) : 0;
    if (err == HPE_PAUSED_UPGRADE) {
      err = HPE_OK;
      p->ll->resume_after_upgrade(ll);
      upgraded = 1;
    }
  }
  out->bytes_parsed = nread;
  out->upgraded = upgraded;
  out->error = HPE_OK;
  out->code = NULL;
  out->code_len = 0;
  out->reason = NULL;
  if (ll->upgrade || err == HPE_OK) return;
  const char *reason = ll->reason;
  if (!reason) reason = "";
  out->error = err;
  if (p->ws->oom) {
    /* (llhttp names a failed on_message_begin, on_headers_complete or
     * on_message_complete by the callback: the error sticks as what it is) */
    ll->error = HPE_USER;
    ll->reason = "HPE_OUT_OF_MEMORY:Out of memory";
    out->error = HPE_USER;
    out->code = OUT_OF_MEMORY_CODE;
    out->code_len = sizeof(OUT_OF_MEMORY_CODE) - 1;
    out->reason = OUT_OF_MEMORY_REASON;
    return;
  }
  if (err == HPE_USER) {
    const char *colon = strchr(reason, ':');
    if (colon) {
      out->code = reason;
      out->code_len = (size_t)(colon - reason);
      out->reason = colon + 1;
      return;
    }
  }
  out->code = p->ll->errno_name(err);
  out->code_len = strlen(out->code);
  out->reason = reason;
}

/* A call that ran out of memory before parsing: a sticky HPE_OUT_OF_MEMORY. */
static void fail_out_of_memory(lhn_parser *p) {
  llhttp_t *ll = &p->st.llhttp;
  p->ws->oom = 1;
  if (ll->error == HPE_OK || !fatal(ll->error)) {
    ll->error = HPE_USER;
    ll->reason = "HPE_OUT_OF_MEMORY:Out of memory";
    ll->error_pos = NULL;
  }
}

/* Parses the call's input (NULL: finish) and reports. */
static void run(lhn_parser *p, const char *data, size_t len, lhn_result *out) {
  lhn_workspace *ws = p->ws;
  llhttp_errno_t err;
  if (data == NULL && ws->input == NULL) {
    err = p->ll->finish(&p->st.llhttp);
  } else {
    /* llhttp takes a NULL buffer as "no span under way" and drops a header
     * split across calls: an empty view (which may have no data pointer)
     * must still be a real position. */
    if (data == NULL) data = "";
    ws->input = data;
    err = p->ll->execute(&p->st.llhttp, data, len);
  }
  if (end_call(p, err) != 0) {
    fail_out_of_memory(p);
    if (err == HPE_OK) {
      p->st.llhttp.error_pos = data ? data + len : NULL;
      err = HPE_USER;
    }
  }
  ws->regen_limit = 0;
  report(p, data, len, err, out);
  ws->last = *out;
}

void lhn_parser_execute(lhn_parser *p, lhn_workspace *ws, const char *data, size_t len,
                        lhn_result *out) {
  if (begin_call(p, ws, data ? data : "", len) != 0) {
    fail_out_of_memory(p);
    report(p, NULL, 0, HPE_USER, out);
    ws->last = *out;
    return;
  }
  run(p, data ? data : "", len, out);
}

int lhn_parser_rewind(lhn_parser *p, lhn_workspace *ws, const char *data, size_t len,
                      uint32_t event_index, unsigned actions, int answer, int fail_code,
                      lhn_result *out) {
  if (ws->owner != p || p->ws != ws || event_index >= ws->event_count) return -1;
  int32_t *ev = ws->events + (size_t)event_index * LHN_EVENT_SLOTS;
  uint32_t serial = (uint32_t)ev[LHN_EV_SERIAL];
  if ((actions & LHN_REWIND_ANSWER) && ev[LHN_EV_KIND] == LHN_EV_HEADERS_COMPLETE) {
    ev[LHN_EV_ANSWER] = answer;
  }
  p->st = ws->saved;
  lhn_held_rewind(ws);
  ws->input = data ? data : "";
  ws->input_len = len;
  ws->mirror = ws->copying && section_in_progress(&p->st) ? ws->input : NULL;
  ws->origin = NULL;
  ws->event_count = 0;
  ws->text_end = 0;
  ws->oom = 0;
  ws->fail_serial = (actions & LHN_REWIND_FAIL) ? serial : 0;
  ws->fail_code = fail_code;
  ws->regen_limit = event_index + 1;
  run(p, data ? data : "", len, out);
  return 0;
}

void lhn_parser_finish(lhn_parser *p, lhn_workspace *ws, lhn_result *out) {
  if (begin_call(p, ws, NULL, 0) != 0) {
    fail_out_of_memory(p);
    report(p, NULL, 0, HPE_USER, out);
    ws->last = *out;
    return;
  }
  run(p, NULL, 0, out);
}

/* ---- the rest of the public API ------------------------------------------- */

void lhn_parser_init(lhn_parser *p, const lhn_memory *mem) {
  memset(p, 0, sizeof(*p));
  if (mem) p->mem = *mem;
  lhn_known_init();
  lhn_repeat_init(&p->repeat);
  p->handlers = LHN_HAS_ALL;
  lhn_parser_reset(p, HTTP_REQUEST, 16384, 0);
}

void lhn_parser_reset(lhn_parser *p, int type, uint32_t max_header_size, unsigned lenient) {
  memset(&p->st, 0, sizeof(p->st));
  lhn_held_free(p);
  p->ws = NULL;
  p->ll = lhn_llhttp_current();
  p->ll->init(&p->st.llhttp, (llhttp_type_t)type, &lhn_settings);
  /* What each llhttp_set_lenient_*() does: Node's kLenient* bits are
   * llhttp's lenient flags. */
  p->st.llhttp.lenient_flags = (uint16_t)lenient;
  p->max_header_size = max_header_size;
}

void lhn_parser_set_max_header_pairs(lhn_parser *p, uint32_t max_pairs) {
  p->max_header_pairs = max_pairs;
}

void lhn_parser_set_handlers(lhn_parser *p, unsigned handlers) {
  p->handlers = handlers & LHN_HAS_ALL;
}

void lhn_parser_pause(lhn_parser *p) { p->ll->pause(&p->st.llhttp); }

void lhn_parser_resume(lhn_parser *p) { p->ll->resume(&p->st.llhttp); }

int lhn_parser_headers_complete(const lhn_parser *p) { return p->st.headers_complete; }

uint64_t lhn_parser_message_start_ns(const lhn_parser *p) { return p->st.message_start_ns; }

size_t lhn_parser_head_bytes(const lhn_parser *p) { return lhn_held_bytes(p); }

size_t lhn_parser_record_bytes(const lhn_parser *p) { return lhn_repeat_bytes(&p->repeat); }

void lhn_parser_destroy(lhn_parser *p) {
  lhn_held_free(p);
  lhn_repeat_free(&p->repeat, &p->mem);
}

uint32_t lhn_workspace_event_count(const lhn_workspace *ws) { return ws->event_count; }

const int32_t *lhn_workspace_event(const lhn_workspace *ws, uint32_t i) {
  return ws->events + (size_t)i * LHN_EVENT_SLOTS;
}

const int32_t *lhn_workspace_pair(const lhn_workspace *ws, uint32_t i) {
  return ws->pairs + (size_t)i * LHN_PAIR_SLOTS;
}

const uint8_t *lhn_workspace_text(const lhn_workspace *ws, size_t *len) {
  *len = ws->text_end;
  return ws->text_end ? lhn_text_base(ws) : NULL;
}

const lhn_result *lhn_workspace_result(const lhn_workspace *ws) { return &ws->last; }

#define LHN_NAME(num, name, string) #string,
static const char *const method_names[] = {HTTP_METHOD_MAP(LHN_NAME)};
static const char *const all_method_names[] = {HTTP_ALL_METHOD_MAP(LHN_NAME)};
#undef LHN_NAME

const char *const *lhn_method_names(int all, size_t *count) {
  if (all) {
    *count = sizeof(all_method_names) / sizeof(all_method_names[0]);
    return all_method_names;
  }
  *count = sizeof(method_names) / sizeof(method_names[0]);
  return method_names;
}
