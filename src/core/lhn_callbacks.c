/* The llhttp callbacks (see lhn_callbacks.h): what each of llhttp's events
 * records in the workspace, with the built-in's bookkeeping (header byte
 * limits, the 32-field flush, the pair limit). */
#include "lhn_callbacks.h"
#include "lhn_clock.h"
#include "lhn_known.h"
#include "lhn_llhttp.h"
#include "lhn_tables.h"
#include "lhn_text.h"

/* A callback's general path, out of line: its usual case (name_in_order(),
 * value_in_order()) then runs without the registers the general one needs
 * saved and restored. */
#if defined(__GNUC__) || defined(__clang__)
#define LHN_OUT_OF_LINE __attribute__((noinline, cold))
#elif defined(_MSC_VER)
#define LHN_OUT_OF_LINE __declspec(noinline)
#else
#define LHN_OUT_OF_LINE
#endif

/* Chunk extensions allowed per chunk line, as in Node 20. */
#define LHN_MAX_CHUNK_EXTENSIONS 16384

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
 * the built-in does when it hands values over. text: the call's text in one
 * piece (lhn_text_upto()). */
static void trim_values(lhn_parser *p, const uint8_t *text, uint32_t first, uint32_t n) {
  int32_t *pair = lhn_pair_at(p->ws, first);
  for (uint32_t j = 0; j < n; j++, pair += LHN_PAIR_SLOTS) {
    int32_t vs = pair[LHN_PAIR_VALUE_START], ve = pair[LHN_PAIR_VALUE_END];
    while (ve > vs && (text[ve - 1] == ' ' || text[ve - 1] == '\t')) ve--;
    pair[LHN_PAIR_VALUE_END] = ve;
  }
}

/* Gives pairs [first, first+n) the index + 1 of their name among
 * lhn_known_names(), or 0; returns the field bits of their names
 * (lhn_known_field()). text as for trim_values(). */
static int32_t tag_known_names(lhn_parser *p, const uint8_t *text, uint32_t first, uint32_t n) {
  int32_t *pair = lhn_pair_at(p->ws, first);
  int32_t fields = 0;
  for (uint32_t j = 0; j < n; j++, pair += LHN_PAIR_SLOTS) {
    int32_t ns = pair[LHN_PAIR_NAME_START];
    size_t len = (size_t)(pair[LHN_PAIR_NAME_END] - ns);
    int32_t tag = lhn_known_name(text + ns, len);
    pair[LHN_PAIR_KNOWN_NAME] = tag;
    fields |= lhn_known_field(text + ns, len, tag);
  }
  return fields;
}

/* The built-in's Flush(): hands pending pairs and the URL to kOnHeaders. */
static int flush_headers(lhn_parser *p) {
  lhn_state *st = &p->st;
  if (lhn_text_reserve(p->ws, st->span_end) != 0) return out_of_memory(p);
  int32_t *ev = lhn_event_push(p->ws, LHN_EV_HEADERS, st->serial);
  if (!ev) return out_of_memory(p);
  const uint8_t *text = lhn_text_upto(p->ws, st->span_end);
  trim_values(p, text, st->pair_base, st->num_values);
  tag_known_names(p, text, st->pair_base, st->num_values);
  deliver_text(p);
  ev[LHN_EV_FIRST_PAIR] = (int32_t)st->pair_base;
  ev[LHN_EV_PAIR_COUNT] = (int32_t)st->num_values;
  /* (after headers complete: the headers kept for the trailers, there
   * being no kOnHeadersComplete, then the trailers) */
  ev[LHN_EV_HEADER_PAIRS] = (int32_t)(st->headers_completed ? st->headers_for_trailers : st->num_values);
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
  st->headers_for_trailers = 0;
  st->header_fields = 0;
  st->headers_completed = 0;
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
    st->headers_for_trailers = 0;
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

/* The usual field: a name whose first piece lies in the input, in order
 * after the text's earlier spans, with room for its pair, no flush due, no
 * limit reached and no rewind failing here. Records it and returns 1; else
 * changes nothing and returns 0 (the general path then runs). */
static inline int name_in_order(lhn_parser *p, const char *at, size_t len) {
  lhn_state *st = &p->st;
  lhn_workspace *ws = p->ws;
  uint32_t count = st->pair_count;
  uint32_t fields = st->header_fields;
  uint32_t max = p->max_header_pairs;
  if (st->num_fields != st->num_values || ws->copying || ws->origin == NULL || ws->fail_serial != 0 ||
      !st->head_started || st->num_fields + 1 == LHN_MAX_PENDING_FIELDS || count >= ws->pair_cap ||
      st->header_nread + len >= p->max_header_size ||
      (max != 0 && st->llhttp.type == HTTP_REQUEST && (uint64_t)(fields + 1) * 2 > max)) {
    return 0;
  }
  uint32_t pos = lhn_text_offset(ws, at);
  int32_t end = (int32_t)(pos + (uint32_t)len);
  st->header_nread += len;
  st->header_fields = fields + 1;
  st->num_fields++;
  st->pair_count = count + 1;
  st->span_end = (uint32_t)end;
  int32_t *pair = ws->pairs + (size_t)count * LHN_PAIR_SLOTS;
  pair[LHN_PAIR_NAME_START] = (int32_t)pos;
  pair[LHN_PAIR_NAME_END] = end;
  pair[LHN_PAIR_VALUE_START] = (int32_t)pos;
  pair[LHN_PAIR_VALUE_END] = (int32_t)pos;
  pair[LHN_PAIR_KNOWN_NAME] = 0;
  return 1;
}

static LHN_OUT_OF_LINE int header_field(lhn_parser *p, const char *at, size_t len) {
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
  /* (room for the span, the pair and a flush's event first: nothing
   * changes when one cannot be had; a flush's text, only ever wanting room
   * after held bytes, fails before the pair begins) */
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

/* The usual value: the first piece of the current pair's value, in the
 * input in order, no limit reached and no rewind failing here. Records it
 * and returns 1; else changes nothing and returns 0. */
static inline int value_in_order(lhn_parser *p, const char *at, size_t len) {
  lhn_state *st = &p->st;
  lhn_workspace *ws = p->ws;
  if (st->num_values == st->num_fields || ws->copying || ws->origin == NULL || ws->fail_serial != 0 ||
      st->header_nread + len >= p->max_header_size) {
    return 0;
  }
  uint32_t pos = lhn_text_offset(ws, at);
  int32_t end = (int32_t)(pos + (uint32_t)len);
  st->header_nread += len;
  st->num_values++;
  st->span_end = (uint32_t)end;
  int32_t *pair = ws->pairs + (size_t)(st->pair_count - 1) * LHN_PAIR_SLOTS;
  pair[LHN_PAIR_VALUE_START] = (int32_t)pos;
  pair[LHN_PAIR_VALUE_END] = end;
  return 1;
}

static LHN_OUT_OF_LINE int header_value(lhn_parser *p, const char *at, size_t len) {
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

static int on_header_field(llhttp_t *h, const char *at, size_t len) {
  lhn_parser *p = enter(h);
  return name_in_order(p, at, len) ? 0 : header_field(p, at, len);
}

static int on_header_value(llhttp_t *h, const char *at, size_t len) {
  lhn_parser *p = enter(h);
  return value_in_order(p, at, len) ? 0 : header_value(p, at, len);
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
 * (lhn_repeat.h): its bytes from its first span to its last. text as for
 * trim_values(). */
static enum lhn_repeat_match check_repeat(lhn_parser *p, const uint8_t *text, uint32_t text_start,
                                          uint32_t text_end) {
  lhn_state *st = &p->st;
  lhn_head head;
  head.base = st->head_started ? st->head_start : 0;
  head.len = st->head_started ? st->span_end - head.base : 0;
  head.bytes = head.len ? text + head.base : NULL;
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
  int no_handler = (p->handlers & LHN_HAS_ON_HEADERS_COMPLETE) == 0;
  int flushed = st->have_flushed && !no_handler;
  if (lhn_text_reserve(ws, st->span_end) != 0) return leave(p, out_of_memory(p));
  if (flushed && flush_headers(p) != 0) return leave(p, HPE_USER);

  uint32_t index = ws->event_count;
  int answer = 0;
  if (index < ws->regen_limit && !no_handler) {
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
    const uint8_t *text = lhn_text_upto(ws, st->span_end);
    trim_values(p, text, st->pair_base, st->num_values);
    if (st->have_flushed) {
      /* (no kOnHeadersComplete: part of the head left with a flush) */
      lhn_repeat_forget(&p->repeat);
      tag_known_names(p, text, st->pair_base, st->num_values);
    } else {
      enum lhn_repeat_match match = check_repeat(p, text, text_start, text_end);
      if (match == LHN_HEAD_REPEATS) {
        /* (its fields are the last head's, whose bytes it repeats) */
        flags |= LHN_HC_REPEATS;
      } else {
        if (match == LHN_HEAD_RECORDED) flags |= LHN_HC_RECORDED;
        p->head_fields = tag_known_names(p, text, st->pair_base, st->num_values);
      }
      flags |= LHN_HC_FIELDS_KNOWN | p->head_fields;
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
  st->headers_completed = 1;

  if (no_handler) {
    st->headers_for_trailers = st->num_values;
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

const llhttp_settings_t lhn_callbacks = {
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
