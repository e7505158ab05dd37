// llhttp-napi binding: the C core (src/core) seen from JavaScript (lib/).
//
// One crossing per execute(): the core fills the event list and pair table
// of a workspace; lib/ replays them. A workspace (lhn_parser.h) belongs to
// the thread (to this addon instance: each worker thread has its own), one
// per nesting depth, and its state block, event list and pair table are
// ArrayBuffers that JavaScript reads directly. A parser is a slot number:
// JavaScript passes it with each call, and its native state (little more
// than llhttp's) is freed with its owner object or by close(). Commands for
// a parser (initialize, pause, resume, handlers, pair limit) are written by
// JavaScript into the workspace's state block and applied as its next call
// begins. Every slot and number that crosses is listed once, in
// src/core/lhn_contract.h; `layout` exports them by name.
#include <napi.h>

#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

extern "C" {
#include "../core/lhn_clock.h"
#include "../core/lhn_known.h"
#include "../core/lhn_llhttp.h"
#include "../core/lhn_parser.h"
#include "../core/lhn_pool.h"
}

namespace {

// Nesting depths a thread may reach (a handler executing another parser,
// whose handler executes a third, ...). (JavaScript reads it as MAX_DEPTH.)
constexpr uint32_t kMaxDepth = 64;
// First room of a workspace (it grows as calls need).
constexpr uint32_t kFirstEvents = 32;
constexpr uint32_t kFirstPairs = 64;

struct Instance;

// A parser of JavaScript's: its core state and its slot. It lives until its
// owner is collected; close() gives back its memory and its slot earlier.
struct ParserRecord {
  lhn_parser core;
  uint32_t slot;
  bool closed;
};

// A workspace and the ArrayBuffers JavaScript reads it through.
struct Workspace {
  lhn_workspace core;
  Instance* instance = nullptr;
  int32_t* state = nullptr;
  napi_ref state_ref = nullptr;
  napi_ref events_ref = nullptr;
  napi_ref pairs_ref = nullptr;
};

// What a thread's addon instance holds.
struct Instance {
  napi_env env = nullptr;
  lhn_pool pool;                                       // the parsers' held heads
  std::vector<std::unique_ptr<Workspace>> workspaces;  // by depth
  std::vector<ParserRecord*> parsers;                  // by slot; null: free
  std::vector<uint32_t> free_slots;
  size_t live_parsers = 0;
  napi_ref known_names = nullptr;                      // the JS array of lhn_known_names()

  // (At teardown, after the owners' finalizers. References an addon made
  // are the addon's to delete.)
  ~Instance() {
    for (ParserRecord* r : parsers) {
      if (r != nullptr) lhn_parser_destroy(&r->core);
    }
    if (known_names != nullptr) napi_delete_reference(env, known_names);
    for (auto& ws : workspaces) {
      for (napi_ref ref : {ws->state_ref, ws->events_ref, ws->pairs_ref}) {
        if (ref != nullptr) napi_delete_reference(env, ref);
      }
      lhn_workspace_destroy(&ws->core);
    }
    lhn_pool_destroy(&pool);
  }
};

Instance* InstanceOf(napi_env env) {
  void* data = nullptr;
  napi_get_instance_data(env, &data);
  return static_cast<Instance*>(data);
}

// Replaces a reference with one to `value`.
void Retarget(napi_env env, napi_ref* ref, napi_value value) {
  if (*ref) napi_delete_reference(env, *ref);
  napi_create_reference(env, value, 1, ref);
}

// Memory hook of a workspace's event list and pair table: a fresh
// ArrayBuffer per growth; the old one stays valid for as long as JavaScript
// holds a view of it.
void* Grow(void* ctx, enum lhn_buffer_id id, void* old, size_t old_size, size_t new_size) {
  Workspace* ws = static_cast<Workspace*>(ctx);
  napi_env env = ws->instance->env;
  napi_value buffer;
  void* data = nullptr;
  if (napi_create_arraybuffer(env, new_size, &data, &buffer) != napi_ok) return nullptr;
  if (old_size) std::memcpy(data, old, old_size);
  Retarget(env, id == LHN_BUF_EVENTS ? &ws->events_ref : &ws->pairs_ref, buffer);
  if (ws->state) ws->state[LHN_WS_GENERATION]++;
  return data;
}

// The workspace of `depth`, made when first asked for. Null past kMaxDepth
// or out of memory.
Workspace* WorkspaceAt(Instance* in, uint32_t depth) {
  if (depth < in->workspaces.size()) return in->workspaces[depth].get();
  if (depth != in->workspaces.size() || depth >= kMaxDepth) return nullptr;
  auto ws = std::make_unique<Workspace>();
  ws->instance = in;
  lhn_workspace_init(&ws->core, &Grow, ws.get());
  napi_value state;
  void* data = nullptr;
  if (napi_create_arraybuffer(in->env, LHN_WORKSPACE_SLOTS * sizeof(int32_t), &data, &state) != napi_ok) {
    return nullptr;
  }
  std::memset(data, 0, LHN_WORKSPACE_SLOTS * sizeof(int32_t));
  ws->state = static_cast<int32_t*>(data);
  napi_create_reference(in->env, state, 1, &ws->state_ref);
  if (lhn_workspace_reserve(&ws->core, kFirstEvents, kFirstPairs) != 0) return nullptr;
  in->workspaces.push_back(std::move(ws));
  return in->workspaces.back().get();
}

// ---- arguments ----------------------------------------------------------------

bool ThrowType(napi_env env, const char* message) {
  napi_throw_type_error(env, nullptr, message);
  return false;
}

bool ThrowRange(napi_env env, const char* message) {
  napi_throw_range_error(env, nullptr, message);
  return false;
}

// The parser and the workspace a call names: slot * kMaxDepth + depth, in
// one number (one conversion less per call).
bool CallArg(napi_env env, Instance* in, napi_value arg, lhn_parser** parser, Workspace** ws) {
  uint32_t call;
  if (napi_get_value_uint32(env, arg, &call) != napi_ok) return ThrowType(env, "a parser slot and depth");
  uint32_t slot = call / kMaxDepth;
  if (slot >= in->parsers.size() || in->parsers[slot] == nullptr) {
    napi_throw_error(env, nullptr, "the parser is closed");
    return false;
  }
  *parser = &in->parsers[slot]->core;
  *ws = WorkspaceAt(in, call % kMaxDepth);
  if (*ws == nullptr) return ThrowRange(env, "workspaces nested too deeply");
  return true;
}

// The live parser in slot argument `arg`.
bool ParserArg(napi_env env, Instance* in, napi_value arg, lhn_parser** out) {
  uint32_t slot;
  if (napi_get_value_uint32(env, arg, &slot) != napi_ok) return ThrowType(env, "a parser slot");
  if (slot >= in->parsers.size() || in->parsers[slot] == nullptr) {
    napi_throw_error(env, nullptr, "the parser is closed");
    return false;
  }
  *out = &in->parsers[slot]->core;
  return true;
}

bool WorkspaceArg(napi_env env, Instance* in, napi_value arg, Workspace** out) {
  uint32_t depth;
  if (napi_get_value_uint32(env, arg, &depth) != napi_ok) return ThrowType(env, "a workspace depth");
  *out = WorkspaceAt(in, depth);
  if (*out == nullptr) return ThrowRange(env, "workspaces nested too deeply");
  return true;
}

// The first `length` bytes of a Uint8Array (of any buffer, shared or not).
bool BytesArg(napi_env env, napi_value view, napi_value length_arg, const char** data, size_t* len) {
  bool is_view = false;
  napi_typedarray_type type;
  size_t count = 0;
  void* bytes = nullptr;
  if (napi_is_typedarray(env, view, &is_view) != napi_ok || !is_view ||
      napi_get_typedarray_info(env, view, &type, &count, &bytes, nullptr, nullptr) != napi_ok ||
      type != napi_uint8_array) {
    return ThrowType(env, "execute() takes a Uint8Array and a length");
  }
  uint32_t length = 0;
  if (napi_get_value_uint32(env, length_arg, &length) != napi_ok || length > count) {
    return ThrowRange(env, "execute(): bytes out of range");
  }
  if (length > INT32_MAX) return ThrowRange(env, "buffer too large");
  *data = static_cast<const char*>(bytes);
  *len = length;
  return true;
}

// ---- calls ----------------------------------------------------------------------

// Takes the commands JavaScript left in the workspace for the parser it
// calls (so that none outlives a call that fails its arguments).
int32_t TakeCommands(Workspace* ws) {
  int32_t commands = ws->state[LHN_WS_COMMANDS];
  ws->state[LHN_WS_COMMANDS] = 0;
  return commands;
}

void ApplyCommands(lhn_parser* p, int32_t commands, const int32_t* state) {
  if (commands == 0) return;
  if (commands & LHN_CMD_RESET) {
    lhn_parser_reset(p, state[LHN_WS_TYPE], static_cast<uint32_t>(state[LHN_WS_MAX_HEADER]),
                     static_cast<unsigned>(state[LHN_WS_LENIENT]));
  }
  if (commands & LHN_CMD_HANDLERS) lhn_parser_set_handlers(p, static_cast<unsigned>(state[LHN_WS_HANDLERS]));
  if (commands & LHN_CMD_MAX_PAIRS) {
    lhn_parser_set_max_header_pairs(p, static_cast<uint32_t>(state[LHN_WS_MAX_PAIRS]));
  }
  if (commands & LHN_CMD_PAUSE) lhn_parser_pause(p);
  if (commands & LHN_CMD_RESUME) lhn_parser_resume(p);
}

// Writes a call's outcome into the workspace's state block and returns the
// call's text as a latin1 string (JavaScript cuts header names, values and
// URLs out of it), or undefined when its events refer to none.
napi_value Publish(napi_env env, Workspace* ws, const lhn_result& result) {
  int32_t* state = ws->state;
  state[LHN_WS_EVENTS] = static_cast<int32_t>(lhn_workspace_event_count(&ws->core));
  state[LHN_WS_NREAD] = static_cast<int32_t>(result.bytes_parsed);
  state[LHN_WS_ERROR] = result.error;
  state[LHN_WS_UPGRADED] = result.upgraded;
  size_t len;
  const uint8_t* text = lhn_workspace_text(&ws->core, &len);
  napi_value out = nullptr;
  if (len == 0 ||
      napi_create_string_latin1(env, reinterpret_cast<const char*>(text), len, &out) != napi_ok) {
    napi_get_undefined(env, &out);
  }
  return out;
}

// execute(call, bytes, length): parses bytes[0, length) (a Uint8Array)
// with the parser and in the workspace `call` names (CallArg()); returns
// what Publish() does.
napi_value Execute(napi_env env, napi_callback_info info) {
  size_t argc = 3;
  napi_value args[3];
  void* data = nullptr;
  if (napi_get_cb_info(env, info, &argc, args, nullptr, &data) != napi_ok) return nullptr;
  Instance* in = static_cast<Instance*>(data);
  lhn_parser* p;
  Workspace* ws;
  const char* bytes = nullptr;
  size_t len = 0;
  if (argc < 3 || !CallArg(env, in, args[0], &p, &ws)) return nullptr;
  int32_t commands = TakeCommands(ws);
  if (!BytesArg(env, args[1], args[2], &bytes, &len)) return nullptr;
  ApplyCommands(p, commands, ws->state);
  lhn_result result;
  lhn_parser_execute(p, &ws->core, bytes, len, &result);
  return Publish(env, ws, result);
}

// rewind(call, bytes, length, eventIndex, actions, answer, failCode): see
// lhn_parser_rewind; the bytes are those the parser's last execute parsed.
// Returns what Publish() does.
napi_value Rewind(napi_env env, napi_callback_info info) {
  size_t argc = 7;
  napi_value args[7];
  void* data = nullptr;
  if (napi_get_cb_info(env, info, &argc, args, nullptr, &data) != napi_ok) return nullptr;
  Instance* in = static_cast<Instance*>(data);
  lhn_parser* p;
  Workspace* ws;
  const char* bytes = nullptr;
  size_t len = 0;
  if (argc < 7 || !CallArg(env, in, args[0], &p, &ws) || !BytesArg(env, args[1], args[2], &bytes, &len)) {
    return nullptr;
  }
  uint32_t index, actions;
  int32_t answer, fail_code;
  if (napi_get_value_uint32(env, args[3], &index) != napi_ok ||
      napi_get_value_uint32(env, args[4], &actions) != napi_ok ||
      napi_get_value_int32(env, args[5], &answer) != napi_ok ||
      napi_get_value_int32(env, args[6], &fail_code) != napi_ok) {
    ThrowType(env, "rewind() takes the bytes last executed and numbers");
    return nullptr;
  }
  lhn_result result;
  if (lhn_parser_rewind(p, &ws->core, bytes, len, index, actions, answer, fail_code, &result) != 0) {
    ThrowRange(env, "no such event");
    return nullptr;
  }
  return Publish(env, ws, result);
}

// finish(call): see lhn_parser_finish. Returns what Publish() does.
napi_value Finish(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value args[1];
  void* data = nullptr;
  if (napi_get_cb_info(env, info, &argc, args, nullptr, &data) != napi_ok) return nullptr;
  Instance* in = static_cast<Instance*>(data);
  lhn_parser* p;
  Workspace* ws;
  if (argc < 1 || !CallArg(env, in, args[0], &p, &ws)) return nullptr;
  int32_t commands = TakeCommands(ws);
  ApplyCommands(p, commands, ws->state);
  lhn_result result;
  lhn_parser_finish(p, &ws->core, &result);
  return Publish(env, ws, result);
}

// ---- parser slots -------------------------------------------------------------

// Gives back a live parser's memory and slot (its record stays for the
// finalizer).
void CloseRecord(Instance* in, ParserRecord* r) {
  if (r->closed) return;
  r->closed = true;
  lhn_parser_destroy(&r->core);
  in->parsers[r->slot] = nullptr;
  in->free_slots.push_back(r->slot);
  in->live_parsers--;
}

// The owner of a parser was collected.
void FinalizeRecord(napi_env env, void* data, void* hint) {
  ParserRecord* r = static_cast<ParserRecord*>(data);
  Instance* in = InstanceOf(env);
  // (at teardown the instance may already be gone: it destroyed every
  // live parser itself)
  if (in != nullptr) CloseRecord(in, r);
  std::free(r);
}

Napi::Value Create(const Napi::CallbackInfo& info) {
  napi_env env = info.Env();
  Instance* in = static_cast<Instance*>(info.Data());
  if (!info[0].IsObject()) {
    ThrowType(env, "create() takes the parser's owner object");
    return Napi::Value();
  }
  ParserRecord* r = static_cast<ParserRecord*>(std::malloc(sizeof(ParserRecord)));
  if (r == nullptr) {
    Napi::Error::New(env, "out of memory").ThrowAsJavaScriptException();
    return Napi::Value();
  }
  lhn_memory mem = lhn_pool_memory(&in->pool);
  lhn_parser_init(&r->core, &mem);
  r->closed = false;
  if (!in->free_slots.empty()) {
    r->slot = in->free_slots.back();
    in->free_slots.pop_back();
    in->parsers[r->slot] = r;
  } else {
    r->slot = static_cast<uint32_t>(in->parsers.size());
    in->parsers.push_back(r);
  }
  in->live_parsers++;
  if (napi_add_finalizer(env, info[0], r, FinalizeRecord, nullptr, nullptr) != napi_ok) {
    CloseRecord(in, r);
    std::free(r);
    return Napi::Value();
  }
  return Napi::Number::New(env, r->slot);
}

// close(slot): frees the parser now instead of with its owner.
Napi::Value Close(const Napi::CallbackInfo& info) {
  Instance* in = static_cast<Instance*>(info.Data());
  if (!info[0].IsNumber()) {
    ThrowType(info.Env(), "a parser slot");
    return Napi::Value();
  }
  uint32_t slot = info[0].As<Napi::Number>().Uint32Value();
  if (slot < in->parsers.size() && in->parsers[slot] != nullptr) CloseRecord(in, in->parsers[slot]);
  return info.Env().Undefined();
}

lhn_parser* LiveParser(const Napi::CallbackInfo& info) {
  Instance* in = static_cast<Instance*>(info.Data());
  lhn_parser* p;
  return ParserArg(info.Env(), in, info[0], &p) ? p : nullptr;
}

// messageStart(slot): when the parser's message under way began, in ms of
// the core's clock, 0 between messages.
Napi::Value MessageStart(const Napi::CallbackInfo& info) {
  lhn_parser* p = LiveParser(info);
  if (p == nullptr) return Napi::Value();
  return Napi::Number::New(info.Env(), static_cast<double>(lhn_parser_message_start_ns(p)) / 1e6);
}

// headersComplete(slot): whether the current message's headers completed.
Napi::Value HeadersComplete(const Napi::CallbackInfo& info) {
  lhn_parser* p = LiveParser(info);
  if (p == nullptr) return Napi::Value();
  return Napi::Boolean::New(info.Env(), lhn_parser_headers_completed(p) != 0);
}

// errorInfo(depth): { code, reason } of the error the last call in that
// workspace reported.
Napi::Value ErrorInfo(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  Instance* in = static_cast<Instance*>(info.Data());
  Workspace* ws;
  if (!WorkspaceArg(env, in, info[0], &ws)) return Napi::Value();
  const lhn_result* last = lhn_workspace_result(&ws->core);
  Napi::Object out = Napi::Object::New(env);
  if (last->error != 0) {
    out["code"] = Napi::String::New(env, last->code, last->code_len);
    out["reason"] = Napi::String::New(env, last->reason);
  }
  return out;
}

// headerStrings(depth, first, count, text): [name, value, ...] of pairs
// [first, first + count) of the last call in that workspace, cut from that
// call's text (the string the call returned), each string a flat copy of its
// bytes (well-known names the table's). For a flush of a head that is still
// arriving, whose strings node:http keeps until the message is done: slices
// of the call's one string would cost 32 bytes each on top of it. (Copied
// from the string, not from the input: a handler may have detached that.)
Napi::Value HeaderStrings(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  Instance* in = static_cast<Instance*>(info.Data());
  Workspace* ws;
  if (!WorkspaceArg(env, in, info[0], &ws)) return Napi::Value();
  if (!info[1].IsNumber() || !info[2].IsNumber() || !info[3].IsString()) {
    ThrowType(env, "headerStrings() takes a depth, two numbers and the call's text");
    return Napi::Value();
  }
  uint32_t first = info[1].As<Napi::Number>().Uint32Value();
  uint32_t count = info[2].As<Napi::Number>().Uint32Value();
  if (static_cast<uint64_t>(first) + count > ws->core.pair_cap) {
    ThrowRange(env, "no such pairs");
    return Napi::Value();
  }
  size_t len = 0;
  napi_get_value_string_latin1(env, info[3], nullptr, 0, &len);
  std::vector<char> text(len + 1);
  napi_get_value_string_latin1(env, info[3], text.data(), text.size(), &len);
  napi_value known;
  napi_get_reference_value(env, in->known_names, &known);
  napi_value out;
  napi_create_array_with_length(env, 2 * count, &out);
  for (uint32_t i = 0; i < count; i++) {
    const int32_t* pair = lhn_workspace_pair(&ws->core, first + i);
    const int32_t ranges[2][2] = {{pair[LHN_PAIR_NAME_START], pair[LHN_PAIR_NAME_END]},
                                  {pair[LHN_PAIR_VALUE_START], pair[LHN_PAIR_VALUE_END]}};
    for (uint32_t k = 0; k < 2; k++) {
      napi_value str;
      if (k == 0 && pair[LHN_PAIR_KNOWN_NAME] != 0) {
        napi_get_element(env, known, static_cast<uint32_t>(pair[LHN_PAIR_KNOWN_NAME] - 1), &str);
      } else {
        int32_t start = ranges[k][0], end = ranges[k][1];
        if (start < 0 || end < start || static_cast<size_t>(end) > len) {
          ThrowRange(env, "a pair outside the call's text");
          return Napi::Value();
        }
        napi_create_string_latin1(env, text.data() + start, static_cast<size_t>(end - start), &str);
      }
      napi_set_element(env, out, 2 * i + k, str);
    }
  }
  return Napi::Value(env, out);
}

// flatString(text, start, end): text.substring(start, end) as a flat copy
// (a substring of 13 characters or more would be a slice, holding text).
Napi::Value FlatString(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  if (!info[0].IsString() || !info[1].IsNumber() || !info[2].IsNumber()) {
    ThrowType(env, "flatString() takes a string and two numbers");
    return Napi::Value();
  }
  uint32_t start = info[1].As<Napi::Number>().Uint32Value();
  uint32_t end = info[2].As<Napi::Number>().Uint32Value();
  size_t len = 0;
  napi_get_value_string_latin1(env, info[0], nullptr, 0, &len);
  if (end < start || end > len) {
    ThrowRange(env, "flatString(): out of range");
    return Napi::Value();
  }
  std::vector<char> text(end + 1);
  napi_get_value_string_latin1(env, info[0], text.data(), text.size(), &len);
  napi_value out;
  napi_create_string_latin1(env, text.data() + start, end - start, &out);
  return Napi::Value(env, out);
}

// workspace(depth): { state, events, pairs }, the ArrayBuffers of that
// workspace as they are now.
Napi::Value WorkspaceBuffers(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  Instance* in = static_cast<Instance*>(info.Data());
  Workspace* ws;
  if (!WorkspaceArg(env, in, info[0], &ws)) return Napi::Value();
  auto value = [&](napi_ref ref) {
    napi_value v;
    napi_get_reference_value(env, ref, &v);
    return Napi::Value(env, v);
  };
  Napi::Object out = Napi::Object::New(env);
  out["state"] = value(ws->state_ref);
  out["events"] = value(ws->events_ref);
  out["pairs"] = value(ws->pairs_ref);
  return out;
}

// stats(slot): what the parser holds between calls; memory(): what the
// addon holds and how often it asked malloc, for the tests' budgets
// (tests, benchmarks).
Napi::Value Stats(const Napi::CallbackInfo& info) {
  lhn_parser* p = LiveParser(info);
  if (p == nullptr) return Napi::Value();
  Napi::Object out = Napi::Object::New(info.Env());
  out["headBytes"] = Napi::Number::New(info.Env(), static_cast<double>(lhn_parser_head_bytes(p)));
  out["recordBytes"] = Napi::Number::New(info.Env(), static_cast<double>(lhn_parser_record_bytes(p)));
  return out;
}

Napi::Value Memory(const Napi::CallbackInfo& info) {
  Instance* in = static_cast<Instance*>(info.Data());
  size_t held = 0;
  for (ParserRecord* r : in->parsers) {
    if (r != nullptr) held += lhn_parser_head_bytes(&r->core) + lhn_parser_record_bytes(&r->core);
  }
  size_t workspace_bytes = 0;
  uint64_t growths = 0;
  for (auto& ws : in->workspaces) {
    const lhn_workspace& c = ws->core;
    workspace_bytes += sizeof(Workspace) + LHN_WORKSPACE_SLOTS * sizeof(int32_t) +
                       static_cast<size_t>(c.event_cap) * LHN_EVENT_SLOTS * sizeof(int32_t) +
                       static_cast<size_t>(c.pair_cap) * LHN_PAIR_SLOTS * sizeof(int32_t) + c.scratch_cap +
                       static_cast<size_t>(c.saved_pairs_cap) * LHN_PAIR_SLOTS * sizeof(int32_t);
    growths += c.growths;
  }
  Napi::Env env = info.Env();
  Napi::Object out = Napi::Object::New(env);
  out["parsers"] = Napi::Number::New(env, static_cast<double>(in->live_parsers));
  out["parserBytes"] = Napi::Number::New(env, static_cast<double>(sizeof(ParserRecord) + sizeof(ParserRecord*)));
  out["heldBytes"] = Napi::Number::New(env, static_cast<double>(held));
  out["workspaces"] = Napi::Number::New(env, static_cast<double>(in->workspaces.size()));
  out["workspaceBytes"] = Napi::Number::New(env, static_cast<double>(workspace_bytes));
  out["workspaceGrowths"] = Napi::Number::New(env, static_cast<double>(growths));
  out["poolBytes"] = Napi::Number::New(env, static_cast<double>(in->pool.in_use));
  out["poolMallocs"] = Napi::Number::New(env, static_cast<double>(in->pool.mallocs));
  return out;
}

// ---- module ---------------------------------------------------------------------

Napi::Array Strings(Napi::Env env, const char* const* names, size_t count) {
  Napi::Array out = Napi::Array::New(env, count);
  for (size_t i = 0; i < count; i++) out[static_cast<uint32_t>(i)] = Napi::String::New(env, names[i]);
  return out;
}

// process.versions.llhttp, or "" where it cannot be read.
std::string RuntimeLlhttpVersion(Napi::Env env) {
  Napi::Value process = env.Global().Get("process");
  if (!process.IsObject()) return "";
  Napi::Value versions = process.As<Napi::Object>().Get("versions");
  if (!versions.IsObject()) return "";
  Napi::Value version = versions.As<Napi::Object>().Get("llhttp");
  return version.IsString() ? version.As<Napi::String>().Utf8Value() : "";
}

// The llhttp every parser of the process calls: the runtime's own when it
// exports one of a compatible layout (LLHTTP_NAPI_LLHTTP=bundled forces the
// addon's copy). Chosen once per process, by the first environment to load
// the addon; the version string goes with it.
struct LlhttpChoice {
  const lhn_llhttp* impl;
  std::string version;
};

const LlhttpChoice& ChooseLlhttp(Napi::Env env) {
  static const LlhttpChoice choice = [env]() {
    const char* force = std::getenv("LLHTTP_NAPI_LLHTTP");
    std::string runtime = RuntimeLlhttpVersion(env);
    const lhn_llhttp* impl = nullptr;
    if (force == nullptr || std::strcmp(force, "bundled") != 0) {
      impl = lhn_llhttp_from_runtime(runtime.c_str());
    }
    if (impl != nullptr) {
      lhn_llhttp_use(impl);
      return LlhttpChoice{impl, runtime};
    }
    if (lhn_llhttp_bundled() == nullptr) return LlhttpChoice{nullptr, runtime};
    return LlhttpChoice{lhn_llhttp_bundled(), std::to_string(LLHTTP_VERSION_MAJOR) + "." +
                                                   std::to_string(LLHTTP_VERSION_MINOR) + "." +
                                                   std::to_string(LLHTTP_VERSION_PATCH)};
  }();
  return choice;
}

// The clock message starts are stamped with: the running node's uv_hrtime(),
// process.hrtime's and node:http's own (src/core/lhn_clock.h), installed once
// per process; "platform" where node exports none (lib/ then reads nowMs()).
const char* InstallClock() {
  static const bool installed = [] {
    lhn_clock_use(lhn_clock_from_runtime());
    return lhn_clock_installed() != 0;
  }();
  return installed ? "uv_hrtime" : "platform";
}

// nowMs(): the core's clock, in ms.
Napi::Value NowMs(const Napi::CallbackInfo& info) {
  return Napi::Number::New(info.Env(), static_cast<double>(lhn_now_ns()) / 1e6);
}

// clockForTesting(runtime, platformOffsetMs): tests only (test/clock.test.js).
// The runtime's clock or the platform's, the latter shifted by an offset that
// stands in for a clock API of another origin.
Napi::Value ClockForTesting(const Napi::CallbackInfo& info) {
  lhn_clock_use(info[0].ToBoolean().Value() ? lhn_clock_from_runtime() : nullptr);
  lhn_clock_set_platform_offset(static_cast<int64_t>(info[1].ToNumber().DoubleValue() * 1e6));
  return Napi::String::New(info.Env(), lhn_clock_installed() ? "uv_hrtime" : "platform");
}

// Every list of src/core/lhn_contract.h by name (EV_HEADERS, PAIR_NAME_START,
// WS_EVENTS, ...), the slot counts, and the llhttp error number lib/ needs.
// Frozen.
Napi::Object Layout(Napi::Env env) {
  struct Entry {
    const char* name;
    int32_t value;
  };
#define LHN_ENTRY(prefix, name, value, what) {prefix #name, value},
#define LHN_EV_ENTRY(name, value, what) LHN_ENTRY("EV_", name, value, what)
#define LHN_HC_ENTRY(name, value, what) LHN_ENTRY("HC_", name, value, what)
#define LHN_PAIR_ENTRY(name, value, what) LHN_ENTRY("PAIR_", name, value, what)
#define LHN_WS_ENTRY(name, value, what) LHN_ENTRY("WS_", name, value, what)
#define LHN_CMD_ENTRY(name, value, what) LHN_ENTRY("CMD_", name, value, what)
#define LHN_HAS_ENTRY(name, value, what) LHN_ENTRY("HAS_", name, value, what)
#define LHN_REWIND_ENTRY(name, value, what) LHN_ENTRY("REWIND_", name, value, what)
  static const Entry entries[] = {
      LHN_EVENT_KINDS(LHN_EV_ENTRY) LHN_EVENT_SLOT_LIST(LHN_EV_ENTRY) LHN_HEADERS_FLAGS(LHN_HC_ENTRY)
      LHN_PAIR_SLOT_LIST(LHN_PAIR_ENTRY) LHN_WORKSPACE_SLOT_LIST(LHN_WS_ENTRY)
      LHN_COMMAND_LIST(LHN_CMD_ENTRY) LHN_HANDLER_LIST(LHN_HAS_ENTRY) LHN_REWIND_LIST(LHN_REWIND_ENTRY)
      {"EVENT_SLOTS", LHN_EVENT_SLOTS},
      {"PAIR_SLOTS", LHN_PAIR_SLOTS},
      {"WORKSPACE_SLOTS", LHN_WORKSPACE_SLOTS},
      {"MAX_DEPTH", static_cast<int32_t>(kMaxDepth)},
      {"HPE_USER", HPE_USER},
  };
#undef LHN_ENTRY
  Napi::Object out = Napi::Object::New(env);
  for (const Entry& e : entries) out[e.name] = Napi::Number::New(env, e.value);
  out.Freeze();
  return out;
}

void DeleteInstance(napi_env env, void* data, void* hint) { delete static_cast<Instance*>(data); }

Napi::Object Init(Napi::Env env, Napi::Object exports) {
  const LlhttpChoice& llhttp = ChooseLlhttp(env);
  if (llhttp.impl == nullptr) {  // a build with no llhttp of its own (LHN_NO_BUNDLED_LLHTTP)
    const char* force = std::getenv("LLHTTP_NAPI_LLHTTP");
    Napi::Error::New(env, "this build of llhttp-napi has no llhttp of its own and cannot use the running node's " +
                              (force != nullptr && std::strcmp(force, "bundled") == 0
                                   ? std::string("(LLHTTP_NAPI_LLHTTP=bundled)")
                                   : "(process.versions.llhttp " + (llhttp.version.empty() ? "unknown" : llhttp.version) +
                                         ": it needs 9.3 or 9.4, exported by node)")).ThrowAsJavaScriptException();
    return exports;
  }
  Instance* in = new Instance();
  in->env = env;
  lhn_pool_init(&in->pool);
  if (napi_set_instance_data(env, in, DeleteInstance, nullptr) != napi_ok || WorkspaceAt(in, 0) == nullptr) {
    Napi::Error::New(env, "llhttp-napi: out of memory").ThrowAsJavaScriptException();
    return exports;
  }
  size_t count;
  const char* const* names = lhn_method_names(0, &count);
  exports["methods"] = Strings(env, names, count);
  names = lhn_method_names(1, &count);
  exports["allMethods"] = Strings(env, names, count);
  names = lhn_known_names(&count);
  Napi::Array known = Strings(env, names, count);
  exports["knownHeaderNames"] = known;
  napi_create_reference(env, known, 1, &in->known_names);
  auto raw = [&](const char* name, napi_callback cb) {
    napi_value fn;
    napi_create_function(env, name, NAPI_AUTO_LENGTH, cb, in, &fn);
    exports[name] = Napi::Value(env, fn);
  };
  raw("execute", Execute);
  raw("rewind", Rewind);
  raw("finish", Finish);
  auto method = [&](const char* name, Napi::Value (*cb)(const Napi::CallbackInfo&)) {
    exports[name] = Napi::Function::New(env, cb, name, in);
  };
  method("create", Create);
  method("close", Close);
  method("messageStart", MessageStart);
  method("headersComplete", HeadersComplete);
  method("errorInfo", ErrorInfo);
  method("workspace", WorkspaceBuffers);
  method("headerStrings", HeaderStrings);
  method("flatString", FlatString);
  method("stats", Stats);
  method("memory", Memory);
  exports["llhttpVersion"] = Napi::String::New(env, llhttp.version);
  exports["llhttpSource"] = Napi::String::New(env, llhttp.impl->source);
  exports["napiVersion"] = Napi::Number::New(env, NAPI_VERSION);
  exports["layout"] = Layout(env);
  exports["clockSource"] = Napi::String::New(env, InstallClock());
  exports["nowMs"] = Napi::Function::New(env, NowMs, "nowMs");
  exports["clockForTesting"] = Napi::Function::New(env, ClockForTesting, "clockForTesting");
  return exports;
}

}  // namespace

NODE_API_MODULE(llhttp_napi, Init)
