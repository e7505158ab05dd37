/* A call of the core, from the workspace it borrows to what it reports:
 * lhn_parser_execute(), lhn_parser_rewind() and lhn_parser_finish() (see
 * lhn_parser.h), and the parser's held head at the call's end. */
#include "lhn_parser.h"
#include "lhn_held.h"
#include "lhn_llhttp.h"
#include "lhn_tables.h"
#include "lhn_text.h"

#include <string.h>

static const char OUT_OF_MEMORY_CODE[] = "HPE_OUT_OF_MEMORY";
static const char OUT_OF_MEMORY_REASON[] = "Out of memory";


/* Whether llhttp's error stops the parser for good (a pause does not, nor
 * an upgrade, which report() resumes). (What a call returns may differ:
 * llhttp_finish() reports an unfinished message without keeping it.) */
static int fatal(llhttp_errno_t err) {
  return err != HPE_OK && err != HPE_PAUSED && err != HPE_PAUSED_UPGRADE;
}

/* Whether a header or trailer section is under way (not only a URL or
 * headers kept for the trailers' flush). */
static int section_in_progress(const lhn_state *st) {
  return !st->headers_completed || st->pair_count - st->pair_base > st->headers_for_trailers;
}

/* The call borrows ws: the held head (if any) moves in, the state is saved
 * for rewinds. -1 when out of memory. */
static int begin_call(lhn_parser *p, lhn_workspace *ws, const char *data, size_t len) {
  lhn_state *st = &p->st;
  p->ws = ws;
  ws->owner = p;
  ws->input = data;
  ws->input_len = len;
  ws->event_count = 0;
  ws->oom = 0;
  ws->regen_limit = 0;
  ws->fail_serial = 0;
  ws->saved_pair_count = 0;
  /* (a workspace never used has no tables yet) */
  if (lhn_workspace_prepare(ws) != 0) return -1;
  if (p->held) {
    int64_t held = lhn_held_restore(p, ws);
    if (held < 0) return -1;
    /* (a head or trailers under way go on in the input's first byte) */
    lhn_text_begin(ws, (uint32_t)held, section_in_progress(st) ? data : NULL);
  } else {
    /* (nothing pending: the pair table and the text start empty) */
    st->pair_count = st->pair_base = 0;
    st->url_start = st->url_end = 0;
    st->status_start = st->status_end = 0;
    st->head_start = st->span_end = 0;
    lhn_text_begin(ws, 0, NULL);
  }
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
  } else if (!st->headers_completed) {
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

/* As a call ends: a head still arriving (or headers kept for the trailers,
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
    /* (headers kept for the trailers, or the URL only: not the head's
     * other bytes, which a body arriving in many calls would otherwise
     * keep and copy in and out of every call) */
    to = pairs > 0 ? st->span_end : st->url_end;
  } else if (!ws->copying) {
    /* a head or trailers under way: what came of them, to the end of the
     * input, so that the next call's input follows on */
    to = ws->origin && end && end >= ws->origin ? lhn_text_offset(ws, end) : st->span_end;
  } else {
    if (ws->mirror && end && end > ws->mirror) {
      if (lhn_span_reserve(ws, end, 0, LHN_FRESH) != 0) return -1;
      lhn_span_put(ws, end, 0, LHN_FRESH);
    }
    to = ws->text_len;
  }
  if (section_in_progress(st) && to < st->span_end) to = st->span_end;
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
  /* (the text handed over is in one piece) */
  lhn_text_upto(ws, ws->text_end);
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
  lhn_text_begin(ws, ws->prefix, ws->prefix && section_in_progress(&p->st) ? ws->input : NULL);
  ws->event_count = 0;
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
