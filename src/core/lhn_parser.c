/* A parser's life outside its calls: made, reset, told its handlers and
 * limits, asked its state, given back (see lhn_parser.h). Its calls are
 * lhn_call.c's, its callbacks lhn_callbacks.c's. */
#include "lhn_parser.h"
#include "lhn_callbacks.h"
#include "lhn_held.h"
#include "lhn_known.h"
#include "lhn_llhttp.h"

#include <string.h>

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
  p->ll->init(&p->st.llhttp, (llhttp_type_t)type, &lhn_callbacks);
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

int lhn_parser_calls_handlers(const lhn_parser *p, const lhn_workspace *ws) {
  static const unsigned handler_of[] = {
      [LHN_EV_MESSAGE_BEGIN] = LHN_HAS_ON_MESSAGE_BEGIN,
      [LHN_EV_HEADERS] = LHN_HAS_ON_HEADERS,
      [LHN_EV_HEADERS_COMPLETE] = LHN_HAS_ON_HEADERS_COMPLETE,
      [LHN_EV_BODY] = LHN_HAS_ON_BODY,
      [LHN_EV_MESSAGE_COMPLETE] = LHN_HAS_ON_MESSAGE_COMPLETE,
  };
  uint32_t count = lhn_workspace_event_count(ws);
  for (uint32_t i = 0; i < count; i++) {
    if (p->handlers & handler_of[lhn_workspace_event(ws, i)[LHN_EV_KIND]]) return 1;
  }
  return 0;
}

void lhn_parser_pause(lhn_parser *p) { p->ll->pause(&p->st.llhttp); }

void lhn_parser_resume(lhn_parser *p) { p->ll->resume(&p->st.llhttp); }

void lhn_parser_take_commands(lhn_parser *p, int32_t *state) {
  int32_t commands = state[LHN_WS_COMMANDS];
  state[LHN_WS_COMMANDS] = 0;
  if (p == NULL || commands == 0) return;
  if (commands & LHN_CMD_RESET) {
    lhn_parser_reset(p, state[LHN_WS_TYPE], (uint32_t)state[LHN_WS_MAX_HEADER], (unsigned)state[LHN_WS_LENIENT]);
  }
  if (commands & LHN_CMD_HANDLERS) lhn_parser_set_handlers(p, (unsigned)state[LHN_WS_HANDLERS]);
  if (commands & LHN_CMD_MAX_PAIRS) lhn_parser_set_max_header_pairs(p, (uint32_t)state[LHN_WS_MAX_PAIRS]);
  if (commands & LHN_CMD_PAUSE) lhn_parser_pause(p);
  if (commands & LHN_CMD_RESUME) lhn_parser_resume(p);
}

int lhn_parser_headers_completed(const lhn_parser *p) { return p->st.headers_completed; }

uint64_t lhn_parser_message_start_ns(const lhn_parser *p) { return p->st.message_start_ns; }

size_t lhn_parser_record_bytes(const lhn_parser *p) { return lhn_repeat_bytes(&p->repeat); }

void lhn_parser_destroy(lhn_parser *p) {
  lhn_held_free(p);
  lhn_repeat_free(&p->repeat, &p->mem);
}

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
