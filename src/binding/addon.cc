// llhttp-napi binding: the C core (src/core) seen from JavaScript (lib/).
//
// One crossing per execute(): the core fills the event list and pair table
// of a workspace; lib/ replays them. A workspace (lhn_parser.h) belongs to
// the thread (to this addon instance: each worker thread has its own), one
// per nesting depth, and its state block, event list and pair table are
// ArrayBuffers that JavaScript reads directly. A parser is an id (a number):
// JavaScript passes it with each call, and its native state (little more
// than llhttp's) is freed with its owner object or by close(). Commands for
// a parser (initialize, pause, resume, handlers, pair limit) are written by
// JavaScript into the workspace's state block and taken by the core as its
// next call begins. Every slot and number that crosses is listed once, in
// src/core/lhn_contract.h; `layout` exports them by name.
//
// This file only translates: what to parse, with which llhttp and clock,
// every capacity and how a call names its parser are the core's. It uses node-addon-api throughout, except
// where that has no equivalent (latin1 strings) and in execute(), rewind()
// and finish(), the calls of every read, whose raw callbacks skip the
// wrapper's CallbackInfo.

// (A worker being terminated cannot take an exception: node-addon-api then
// drops it instead of aborting the process.)
#define NODE_API_SWALLOW_UNTHROWABLE_EXCEPTIONS
#include <napi.h>

#include <cstdlib>
#include <algorithm>
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
#ifdef LHN_TRANSPORT
#include "../transport/lhn_transport.h"
#endif

namespace {

struct Instance;

// A parser of JavaScript's: its core state, its id and the async context its
// events are delivered in (asyncInit()). It lives until its owner is
// collected; close() gives back its memory and its id earlier.
struct ParserRecord {
  lhn_parser core;
  napi_async_context async;
  uint32_t id;
  bool closed;
};

// A workspace and the ArrayBuffers JavaScript reads it through.
struct Workspace {
  lhn_workspace core;
  Instance* instance = nullptr;
  int32_t* state = nullptr;
  Napi::Reference<Napi::ArrayBuffer> state_buffer;
  Napi::Reference<Napi::ArrayBuffer> events_buffer;
  Napi::Reference<Napi::ArrayBuffer> pairs_buffer;
};

// What a thread's addon instance holds.
struct Instance {
  Napi::Env env;
  lhn_pool pool;                                       // the parsers' held heads
  std::vector<std::unique_ptr<Workspace>> workspaces;  // by depth
  std::vector<ParserRecord*> parsers;                  // by id; null: free
  std::vector<uint32_t> free_ids;
  size_t live_parsers = 0;
  Napi::Reference<Napi::Array> known_names;            // lhn_known_names() as strings
  napi_ref delivery = nullptr;                         // setDelivery()'s function
  int32_t* calls = nullptr;                            // the call block: depth 0's state
#ifdef LHN_TRANSPORT
  lhn_transport_parsing parsing = {};                  // how the transport parses its reads
#endif

  explicit Instance(Napi::Env e) : env(e) { lhn_pool_init(&pool); }

  // (At teardown, after the owners' finalizers.)
  ~Instance() {
    if (delivery != nullptr) napi_delete_reference(env, delivery);
    for (ParserRecord* r : parsers) {
      if (r != nullptr) lhn_parser_destroy(&r->core);
    }
    for (auto& ws : workspaces) lhn_workspace_destroy(&ws->core);
    lhn_pool_destroy(&pool);
  }
};

// Memory hook of a workspace's event list and pair table: a fresh
// ArrayBuffer per growth; the old one stays valid for as long as JavaScript
// holds a view of it.
void* Grow(void* ctx, enum lhn_buffer_id id, void* old, size_t old_size, size_t new_size) {
  Workspace* ws = static_cast<Workspace*>(ctx);
  Napi::Env env = ws->instance->env;
  Napi::ArrayBuffer buffer = Napi::ArrayBuffer::New(env, new_size);
  if (env.IsExceptionPending()) {
    env.GetAndClearPendingException();
    return nullptr;
  }
  if (old_size) std::memcpy(buffer.Data(), old, old_size);
  (id == LHN_BUF_EVENTS ? ws->events_buffer : ws->pairs_buffer) = Napi::Persistent(buffer);
  if (ws->state) ws->state[LHN_WS_GENERATION]++;
  return buffer.Data();
}

// The workspace of `depth`, made when first asked for. Null past
// LHN_MAX_DEPTH or out of memory.
Workspace* WorkspaceAt(Instance* in, uint32_t depth) {
  if (depth < in->workspaces.size()) return in->workspaces[depth].get();
  if (depth != in->workspaces.size() || depth >= LHN_MAX_DEPTH) return nullptr;
  auto ws = std::make_unique<Workspace>();
  ws->instance = in;
  lhn_workspace_init(&ws->core, &Grow, ws.get());
  Napi::ArrayBuffer state = Napi::ArrayBuffer::New(in->env, LHN_WORKSPACE_SLOTS * sizeof(int32_t));
  if (in->env.IsExceptionPending()) return nullptr;
  std::memset(state.Data(), 0, state.ByteLength());
  ws->state = static_cast<int32_t*>(state.Data());
  ws->state_buffer = Napi::Persistent(state);
  if (lhn_workspace_prepare(&ws->core) != 0) return nullptr;
  in->workspaces.push_back(std::move(ws));
  return in->workspaces.back().get();
}

// The live parser of id `id`, or null (none, or closed).
ParserRecord* RecordOf(Instance* in, uint32_t id) {
  return id < in->parsers.size() ? in->parsers[id] : nullptr;
}

lhn_parser* ParserOf(Instance* in, uint32_t id) {
  ParserRecord* r = RecordOf(in, id);
  return r != nullptr ? &r->core : nullptr;
}

// ---- the calls of every read: raw N-API ----------------------------------------

bool ThrowType(napi_env env, const char* message) {
  napi_throw_type_error(env, nullptr, message);
  return false;
}

bool ThrowRange(napi_env env, const char* message) {
  napi_throw_range_error(env, nullptr, message);
  return false;
}

// The workspace and the parser the call block's address names
// (lhn_contract.h). On false an exception is pending; *ws is set whenever
// the depth is good.
bool AddressArg(napi_env env, Instance* in, Workspace** ws, ParserRecord** parser) {
  uint32_t address = static_cast<uint32_t>(in->calls[LHN_WS_ADDRESS]);
  *ws = WorkspaceAt(in, lhn_address_depth(address));
  if (*ws == nullptr) return ThrowRange(env, "workspaces nested too deeply");
  *parser = RecordOf(in, lhn_address_id(address));
  if (*parser == nullptr) {
    napi_throw_error(env, nullptr, "the parser is closed");
    return false;
  }
  return true;
}

// The first `length` bytes of a Uint8Array (of any buffer, shared or not).
// (Its element type is not asked for, a chain of queries every call would
// pay: lib/ passes a Uint8Array, and another typed array is read within its
// first `count` bytes, fewer than it has.)
bool BytesArg(napi_env env, napi_value view, uint32_t length, const char** data, size_t* len) {
  size_t count = 0;
  void* bytes = nullptr;
  // (napi_invalid_arg for a value that is no typed array)
  if (napi_get_typedarray_info(env, view, nullptr, &count, &bytes, nullptr, nullptr) != napi_ok) {
    return ThrowType(env, "execute() takes a Uint8Array and a length");
  }
  if (length > count) return ThrowRange(env, "execute(): bytes out of range");
  if (length > INT32_MAX) return ThrowRange(env, "buffer too large");
  *data = static_cast<const char*>(bytes);
  *len = length;
  return true;
}

// Writes a call's outcome into the workspace's state block and returns the
// call's text as a latin1 string (JavaScript cuts header names, values and
// URLs out of it), or null when its events refer to none: a callback's null
// is undefined to JavaScript, and a call that completes nothing (a head's
// first piece) then asks V8 for nothing.
napi_value Publish(napi_env env, Workspace* ws, const lhn_result& result) {
  int32_t* state = ws->state;
  state[LHN_WS_EVENTS] = static_cast<int32_t>(lhn_workspace_event_count(&ws->core));
  state[LHN_WS_NREAD] = static_cast<int32_t>(result.bytes_parsed);
  state[LHN_WS_ERROR] = result.error;
  state[LHN_WS_UPGRADED] = result.upgraded;
  size_t len;
  const uint8_t* text = lhn_workspace_text(&ws->core, &len);
  napi_value out = nullptr;
  if (len != 0 &&
      napi_create_string_latin1(env, reinterpret_cast<const char*>(text), len, &out) != napi_ok) {
    out = nullptr;
  }
  return out;
}

// The end of execute() and finish(): publishes the call's outcome. When the
// call left events of which one has a handler to call and JavaScript named
// the parser's owner (an object), calls the delivery (setDelivery()) on the
// owner with the call's text, in the async scope of the parser's
// initialize() (no scope without one: none yet, or destroyed), and returns
// what it returns (an exception it throws stays pending); else returns what
// Publish() does (JavaScript then delivers the events itself: no handler
// runs, no scope is needed).
napi_value Deliver(napi_env env, Instance* in, ParserRecord* r, Workspace* ws, const lhn_result& result,
                   napi_value owner) {
  napi_value text = Publish(env, ws, result);
  if (owner == nullptr || in->delivery == nullptr || ws->state[LHN_WS_EVENTS] == 0 ||
      !lhn_parser_calls_handlers(&r->core, &ws->core)) {
    return text;
  }
  napi_value fn, out = nullptr;
  if (text == nullptr && napi_get_undefined(env, &text) != napi_ok) return nullptr;
  if (napi_get_reference_value(env, in->delivery, &fn) != napi_ok) return nullptr;
  napi_status status = r->async != nullptr ? napi_make_callback(env, r->async, owner, fn, 1, &text, &out)
                                           : napi_call_function(env, owner, fn, 1, &text, &out);
  // (An owner that is no object is found here, not checked on every call.)
  if (status != napi_ok && status != napi_pending_exception) ThrowType(env, "the parser's owner is an object");
  return out;
}

// execute(bytes[, owner]): parses bytes[0, LENGTH) (a Uint8Array) with the
// parser and in the workspace the call block's ADDRESS names, after the
// commands left for it; returns what Deliver() does.
napi_value Execute(napi_env env, napi_callback_info info) {
  size_t argc = 2;
  napi_value args[2];
  void* data = nullptr;
  if (napi_get_cb_info(env, info, &argc, args, nullptr, &data) != napi_ok) return nullptr;
  Instance* in = static_cast<Instance*>(data);
  ParserRecord* r;
  Workspace* ws = nullptr;
  const char* bytes = nullptr;
  size_t len = 0;
  napi_value owner = argc >= 2 ? args[1] : nullptr;
  bool ok = argc >= 1 && AddressArg(env, in, &ws, &r) &&
            BytesArg(env, args[0], static_cast<uint32_t>(in->calls[LHN_WS_LENGTH]), &bytes, &len);
  if (ws != nullptr) lhn_parser_take_commands(ok ? &r->core : nullptr, ws->state);
  if (!ok) return nullptr;
  lhn_result result;
  lhn_parser_execute(&r->core, &ws->core, bytes, len, &result);
  return Deliver(env, in, r, ws, result, owner);
}

// rewind(bytes, eventIndex, actions, answer, failCode): see
// lhn_parser_rewind, for the parser and workspace of the call block's
// ADDRESS; the bytes, bytes[0, LENGTH), are those the parser's last execute
// parsed. Returns what Publish() does.
napi_value Rewind(napi_env env, napi_callback_info info) {
  size_t argc = 5;
  napi_value args[5];
  void* data = nullptr;
  if (napi_get_cb_info(env, info, &argc, args, nullptr, &data) != napi_ok) return nullptr;
  Instance* in = static_cast<Instance*>(data);
  ParserRecord* r;
  Workspace* ws;
  const char* bytes = nullptr;
  size_t len = 0;
  if (argc < 5 || !AddressArg(env, in, &ws, &r) ||
      !BytesArg(env, args[0], static_cast<uint32_t>(in->calls[LHN_WS_LENGTH]), &bytes, &len)) {
    return nullptr;
  }
  uint32_t index, actions;
  int32_t answer, fail_code;
  if (napi_get_value_uint32(env, args[1], &index) != napi_ok ||
      napi_get_value_uint32(env, args[2], &actions) != napi_ok ||
      napi_get_value_int32(env, args[3], &answer) != napi_ok ||
      napi_get_value_int32(env, args[4], &fail_code) != napi_ok) {
    ThrowType(env, "rewind() takes the bytes last executed and numbers");
    return nullptr;
  }
  lhn_result result;
  if (lhn_parser_rewind(&r->core, &ws->core, bytes, len, index, actions, answer, fail_code, &result) != 0) {
    ThrowRange(env, "no such event");
    return nullptr;
  }
  return Publish(env, ws, result);
}

// finish([owner]): see lhn_parser_finish, for the parser and workspace of
// the call block's ADDRESS, after the commands left for the parser. Returns
// what Deliver() does.
napi_value Finish(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value args[1];
  void* data = nullptr;
  if (napi_get_cb_info(env, info, &argc, args, nullptr, &data) != napi_ok) return nullptr;
  Instance* in = static_cast<Instance*>(data);
  ParserRecord* r;
  Workspace* ws = nullptr;
  napi_value owner = argc >= 1 ? args[0] : nullptr;
  bool ok = AddressArg(env, in, &ws, &r);
  if (ws != nullptr) lhn_parser_take_commands(ok ? &r->core : nullptr, ws->state);
  if (!ok) return nullptr;
  lhn_result result;
  lhn_parser_finish(&r->core, &ws->core, &result);
  return Deliver(env, in, r, ws, result, owner);
}

// asyncInit(resource, type): the events of the parser the call block's
// ADDRESS names are delivered from now on in a new async context, of `type`
// (a string) with `resource` (an object: the built-in's initialize() makes
// the same); the previous one is destroyed. (Raw: one call per
// initialize(), as often as a message in a benchmark's loop.)
napi_value AsyncInit(napi_env env, napi_callback_info info) {
  size_t argc = 2;
  napi_value args[2];
  void* data = nullptr;
  if (napi_get_cb_info(env, info, &argc, args, nullptr, &data) != napi_ok) return nullptr;
  Instance* in = static_cast<Instance*>(data);
  ParserRecord* r = RecordOf(in, lhn_address_id(static_cast<uint32_t>(in->calls[LHN_WS_ADDRESS])));
  if (r == nullptr || argc < 2) {
    ThrowType(env, "asyncInit() takes a live parser's object and type");
    return nullptr;
  }
  if (r->async != nullptr) napi_async_destroy(env, r->async);
  r->async = nullptr;
  if (napi_async_init(env, args[0], args[1], &r->async) != napi_ok) r->async = nullptr;
  return nullptr;
}

// ---- the rest: node-addon-api -------------------------------------------------

Instance* InstanceOf(const Napi::CallbackInfo& info) { return static_cast<Instance*>(info.Data()); }

// The live parser of id argument info[0], or null (an exception pending).
lhn_parser* LiveParser(const Napi::CallbackInfo& info) {
  if (!info[0].IsNumber()) {
    Napi::TypeError::New(info.Env(), "a parser id").ThrowAsJavaScriptException();
    return nullptr;
  }
  lhn_parser* p = ParserOf(InstanceOf(info), info[0].As<Napi::Number>().Uint32Value());
  if (p == nullptr) Napi::Error::New(info.Env(), "the parser is closed").ThrowAsJavaScriptException();
  return p;
}

// The workspace of depth argument info[0], or null (an exception pending).
Workspace* WorkspaceOf(const Napi::CallbackInfo& info) {
  if (!info[0].IsNumber()) {
    Napi::TypeError::New(info.Env(), "a workspace depth").ThrowAsJavaScriptException();
    return nullptr;
  }
  Workspace* ws = WorkspaceAt(InstanceOf(info), info[0].As<Napi::Number>().Uint32Value());
  if (ws == nullptr) Napi::RangeError::New(info.Env(), "workspaces nested too deeply").ThrowAsJavaScriptException();
  return ws;
}

// Gives back a live parser's memory and id (its record stays for the
// finalizer).
void CloseRecord(Instance* in, ParserRecord* r) {
  if (r->closed) return;
  r->closed = true;
  if (r->async != nullptr) napi_async_destroy(in->env, r->async);
  r->async = nullptr;
  lhn_parser_destroy(&r->core);
  in->parsers[r->id] = nullptr;
  in->free_ids.push_back(r->id);
  in->live_parsers--;
}

// The owner of a parser was collected. (At teardown the instance may
// already be gone: it destroyed every live parser itself.)
void FinalizeRecord(napi_env env, void* data, void* hint) {
  ParserRecord* r = static_cast<ParserRecord*>(data);
  Instance* in = Napi::Env(env).GetInstanceData<Instance>();
  if (in != nullptr) CloseRecord(in, r);
  std::free(r);
}

// create(owner): a parser id whose native state lives until owner is
// collected (or close()).
Napi::Value Create(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  Instance* in = InstanceOf(info);
  if (!info[0].IsObject()) {
    Napi::TypeError::New(env, "create() takes the parser's owner object").ThrowAsJavaScriptException();
    return Napi::Value();
  }
  ParserRecord* r = static_cast<ParserRecord*>(std::malloc(sizeof(ParserRecord)));
  if (r == nullptr) {
    Napi::Error::New(env, "out of memory").ThrowAsJavaScriptException();
    return Napi::Value();
  }
  lhn_memory mem = lhn_pool_memory(&in->pool);
  lhn_parser_init(&r->core, &mem);
  r->async = nullptr;
  r->closed = false;
  if (!in->free_ids.empty()) {
    r->id = in->free_ids.back();
    in->free_ids.pop_back();
    in->parsers[r->id] = r;
  } else {
    r->id = static_cast<uint32_t>(in->parsers.size());
    in->parsers.push_back(r);
  }
  in->live_parsers++;
  // (raw: Object::AddFinalizer would allocate a record of its own per parser)
  if (napi_add_finalizer(env, info[0], r, FinalizeRecord, nullptr, nullptr) != napi_ok) {
    CloseRecord(in, r);
    std::free(r);
    return Napi::Value();
  }
  return Napi::Number::New(env, r->id);
}

// close(id): frees the parser now instead of with its owner (a closed one:
// nothing).
Napi::Value Close(const Napi::CallbackInfo& info) {
  Instance* in = InstanceOf(info);
  if (!info[0].IsNumber()) {
    Napi::TypeError::New(info.Env(), "a parser id").ThrowAsJavaScriptException();
    return Napi::Value();
  }
  uint32_t id = info[0].As<Napi::Number>().Uint32Value();
  if (ParserOf(in, id) != nullptr) CloseRecord(in, in->parsers[id]);
  return info.Env().Undefined();
}

#ifdef LHN_TRANSPORT
// The transport's parse of a read (lhn_transport_parsing): the parse of
// execute(), in the outermost workspace, for a caller that delivers the
// events itself (no owner: no delivery from here).
int ParseRead(void* ctx, napi_env env, uint32_t parser_id, const char* bytes, size_t len, napi_value* text,
              napi_async_context* async) {
  Instance* in = static_cast<Instance*>(ctx);
  ParserRecord* r = RecordOf(in, parser_id);
  Workspace* ws = WorkspaceAt(in, 0);
  if (r == nullptr || ws == nullptr || len > INT32_MAX) return -1;
  lhn_parser_take_commands(&r->core, ws->state);
  lhn_result result;
  lhn_parser_execute(&r->core, &ws->core, bytes, len, &result);
  *text = Publish(env, ws, result);
  if (*text == nullptr && napi_get_undefined(env, text) != napi_ok) return -1;
  *async = r->async;
  return 0;
}
#endif

// asyncDestroy(id): destroys the parser's async context (async_hooks'
// destroy), none then (asyncInit() makes it).
Napi::Value AsyncDestroy(const Napi::CallbackInfo& info) {
  ParserRecord* r = info[0].IsNumber() ? RecordOf(InstanceOf(info), info[0].As<Napi::Number>().Uint32Value()) : nullptr;
  if (r != nullptr && r->async != nullptr) {
    napi_async_destroy(info.Env(), r->async);
    r->async = nullptr;
  }
  return info.Env().Undefined();
}

// setDelivery(fn): the function execute() and finish() call on a parser's
// owner with the call's text to deliver its events (Deliver()).
Napi::Value SetDelivery(const Napi::CallbackInfo& info) {
  Instance* in = InstanceOf(info);
  if (!info[0].IsFunction()) {
    Napi::TypeError::New(info.Env(), "setDelivery() takes a function").ThrowAsJavaScriptException();
    return Napi::Value();
  }
  if (in->delivery != nullptr) napi_delete_reference(info.Env(), in->delivery);
  napi_create_reference(info.Env(), info[0], 1, &in->delivery);
  return info.Env().Undefined();
}

// messageStart(id): when the parser's message under way began, in ms of
// the core's clock, 0 between messages.
Napi::Value MessageStart(const Napi::CallbackInfo& info) {
  lhn_parser* p = LiveParser(info);
  if (p == nullptr) return Napi::Value();
  return Napi::Number::New(info.Env(), static_cast<double>(lhn_parser_message_start_ns(p)) / 1e6);
}

// headersCompleted(id): whether the current message's headers completed
// (the built-in's headersCompleted()).
Napi::Value HeadersCompleted(const Napi::CallbackInfo& info) {
  lhn_parser* p = LiveParser(info);
  if (p == nullptr) return Napi::Value();
  return Napi::Boolean::New(info.Env(), lhn_parser_headers_completed(p) != 0);
}

// errorInfo(depth): { code, reason } of the error the last call in that
// workspace reported.
Napi::Value ErrorInfo(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  Workspace* ws = WorkspaceOf(info);
  if (ws == nullptr) return Napi::Value();
  const lhn_result* last = lhn_workspace_result(&ws->core);
  Napi::Object out = Napi::Object::New(env);
  if (last->error != 0) {
    out["code"] = Napi::String::New(env, last->code, last->code_len);
    out["reason"] = Napi::String::New(env, last->reason);
  }
  return out;
}

// The first `limit` bytes of a string read as latin1 (node-addon-api has
// UTF-8 and UTF-16 only); *length: the string's whole length.
std::vector<char> Latin1(Napi::Env env, Napi::Value value, size_t limit, size_t* length) {
  napi_get_value_string_latin1(env, value, nullptr, 0, length);
  std::vector<char> out(std::min(limit, *length) + 1);
  size_t copied;
  napi_get_value_string_latin1(env, value, out.data(), out.size(), &copied);
  return out;
}

// A latin1 string of bytes[0, len) (node-addon-api has none).
Napi::Value Latin1String(Napi::Env env, const char* bytes, size_t len) {
  napi_value out;
  napi_create_string_latin1(env, bytes, len, &out);
  return Napi::Value(env, out);
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
  Instance* in = InstanceOf(info);
  Workspace* ws = WorkspaceOf(info);
  if (ws == nullptr) return Napi::Value();
  if (!info[1].IsNumber() || !info[2].IsNumber() || !info[3].IsString()) {
    Napi::TypeError::New(env, "headerStrings() takes a depth, two numbers and the call's text")
        .ThrowAsJavaScriptException();
    return Napi::Value();
  }
  uint32_t first = info[1].As<Napi::Number>().Uint32Value();
  uint32_t count = info[2].As<Napi::Number>().Uint32Value();
  if (static_cast<uint64_t>(first) + count > lhn_workspace_pair_capacity(&ws->core)) {
    Napi::RangeError::New(env, "no such pairs").ThrowAsJavaScriptException();
    return Napi::Value();
  }
  size_t len;
  std::vector<char> text = Latin1(env, info[3], SIZE_MAX - 1, &len);
  Napi::Array known = in->known_names.Value();
  Napi::Array out = Napi::Array::New(env, 2 * count);
  for (uint32_t i = 0; i < count; i++) {
    const int32_t* pair = lhn_workspace_pair(&ws->core, first + i);
    const int32_t ranges[2][2] = {{pair[LHN_PAIR_NAME_START], pair[LHN_PAIR_NAME_END]},
                                  {pair[LHN_PAIR_VALUE_START], pair[LHN_PAIR_VALUE_END]}};
    for (uint32_t k = 0; k < 2; k++) {
      if (k == 0 && pair[LHN_PAIR_KNOWN_NAME] != 0) {
        out[2 * i] = known.Get(static_cast<uint32_t>(pair[LHN_PAIR_KNOWN_NAME] - 1));
        continue;
      }
      int32_t start = ranges[k][0], end = ranges[k][1];
      if (start < 0 || end < start || static_cast<size_t>(end) > len) {
        Napi::RangeError::New(env, "a pair outside the call's text").ThrowAsJavaScriptException();
        return Napi::Value();
      }
      out[2 * i + k] = Latin1String(env, text.data() + start, static_cast<size_t>(end - start));
    }
  }
  return out;
}

// flatString(text, start, end): text.substring(start, end) as a flat copy
// (a substring of 13 characters or more would be a slice, holding text).
Napi::Value FlatString(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  if (!info[0].IsString() || !info[1].IsNumber() || !info[2].IsNumber()) {
    Napi::TypeError::New(env, "flatString() takes a string and two numbers").ThrowAsJavaScriptException();
    return Napi::Value();
  }
  uint32_t start = info[1].As<Napi::Number>().Uint32Value();
  uint32_t end = info[2].As<Napi::Number>().Uint32Value();
  size_t len;
  std::vector<char> text = Latin1(env, info[0], end, &len);
  if (end < start || end > len) {
    Napi::RangeError::New(env, "flatString(): out of range").ThrowAsJavaScriptException();
    return Napi::Value();
  }
  return Latin1String(env, text.data() + start, end - start);
}

// workspace(depth): { state, events, pairs }, the ArrayBuffers of that
// workspace as they are now.
Napi::Value WorkspaceBuffers(const Napi::CallbackInfo& info) {
  Workspace* ws = WorkspaceOf(info);
  if (ws == nullptr) return Napi::Value();
  Napi::Object out = Napi::Object::New(info.Env());
  out["state"] = ws->state_buffer.Value();
  out["events"] = ws->events_buffer.Value();
  out["pairs"] = ws->pairs_buffer.Value();
  return out;
}

// stats(id): what the parser holds between calls (tests, benchmarks).
Napi::Value Stats(const Napi::CallbackInfo& info) {
  lhn_parser* p = LiveParser(info);
  if (p == nullptr) return Napi::Value();
  Napi::Object out = Napi::Object::New(info.Env());
  out["heldBytes"] = static_cast<double>(lhn_parser_held_bytes(p));
  out["recordBytes"] = static_cast<double>(lhn_parser_record_bytes(p));
  return out;
}

// memory(): what the addon holds and how often it asked malloc, for the
// tests' budgets (tests, benchmarks).
Napi::Value Memory(const Napi::CallbackInfo& info) {
  Instance* in = InstanceOf(info);
  size_t held = 0, records = 0;
  for (ParserRecord* r : in->parsers) {
    if (r == nullptr) continue;
    held += lhn_parser_held_bytes(&r->core);
    records += lhn_parser_record_bytes(&r->core);
  }
  size_t workspace_bytes = 0;
  uint64_t growths = 0;
  for (auto& ws : in->workspaces) {
    workspace_bytes += sizeof(Workspace) + LHN_WORKSPACE_SLOTS * sizeof(int32_t) + lhn_workspace_bytes(&ws->core);
    growths += lhn_workspace_growths(&ws->core);
  }
  Napi::Object out = Napi::Object::New(info.Env());
  out["parsers"] = static_cast<double>(in->live_parsers);
  out["parserBytes"] = static_cast<double>(sizeof(ParserRecord) + sizeof(ParserRecord*));
  out["heldBytes"] = static_cast<double>(held);
  out["recordBytes"] = static_cast<double>(records);
  out["workspaces"] = static_cast<double>(in->workspaces.size());
  out["workspaceBytes"] = static_cast<double>(workspace_bytes);
  out["workspaceGrowths"] = static_cast<double>(growths);
  out["poolBytes"] = static_cast<double>(in->pool.in_use);
  out["poolMallocs"] = static_cast<double>(in->pool.mallocs);
  return out;
}

// nowMs(): the core's clock, in ms.
Napi::Value NowMs(const Napi::CallbackInfo& info) {
  return Napi::Number::New(info.Env(), static_cast<double>(lhn_now_ns()) / 1e6);
}

// clockForTesting(runtime, platformOffsetMs): tests only (test/parser/clock.test.js).
// The runtime's clock or the platform's, the latter shifted by an offset that
// stands in for a clock API of another origin.
Napi::Value ClockForTesting(const Napi::CallbackInfo& info) {
  lhn_clock_use(info[0].ToBoolean().Value() ? lhn_clock_from_runtime() : nullptr);
  lhn_clock_set_platform_offset(static_cast<int64_t>(info[1].ToNumber().DoubleValue() * 1e6));
  return Napi::String::New(info.Env(), lhn_clock_source());
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

// Every name of src/core/lhn_contract.h (EV_HEADERS, PAIR_NAME_START,
// WS_EVENTS, MAX_DEPTH, ...) with its number, and the slot counts. Frozen.
Napi::Object Layout(Napi::Env env) {
  Napi::Object out = Napi::Object::New(env);
  unsigned count;
  const lhn_layout_entry* entries = lhn_layout(&count);
  for (unsigned i = 0; i < count; i++) out[entries[i].name] = Napi::Number::New(env, entries[i].value);
  out.Freeze();
  return out;
}

Napi::Object Init(Napi::Env env, Napi::Object exports) {
  // (the core's choices hold for the process: made by the first environment
  // that loads the addon)
  static const lhn_llhttp_choice llhttp = [env] {
    lhn_llhttp_choice choice;
    lhn_llhttp_choose(RuntimeLlhttpVersion(env).c_str(), &choice);
    return choice;
  }();
  static const char* const clock_source = lhn_clock_use_runtime();
  if (llhttp.impl == nullptr) {
    Napi::Error::New(env, llhttp.message).ThrowAsJavaScriptException();
    return exports;
  }
  Instance* in = new Instance(env);
  env.SetInstanceData(in);
  if (WorkspaceAt(in, 0) == nullptr) {
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
  in->known_names = Napi::Persistent(known);
  in->calls = in->workspaces[0]->state;
  for (auto [name, cb] : {std::pair<const char*, napi_callback>{"execute", Execute}, {"rewind", Rewind},
                          {"finish", Finish}, {"asyncInit", AsyncInit}}) {
    napi_value fn;
    napi_create_function(env, name, NAPI_AUTO_LENGTH, cb, in, &fn);
    exports[name] = Napi::Value(env, fn);
  }
  auto method = [&](const char* name, Napi::Value (*cb)(const Napi::CallbackInfo&)) {
    exports[name] = Napi::Function::New(env, cb, name, in);
  };
  method("create", Create);
  method("close", Close);
  method("asyncDestroy", AsyncDestroy);
  method("setDelivery", SetDelivery);
  method("messageStart", MessageStart);
  method("headersCompleted", HeadersCompleted);
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
  exports["clockSource"] = Napi::String::New(env, clock_source);
  exports["nowMs"] = Napi::Function::New(env, NowMs, "nowMs");
  exports["clockForTesting"] = Napi::Function::New(env, ClockForTesting, "clockForTesting");
#ifdef LHN_TRANSPORT
  // (llhttp-napi/server's own transport, exports.transport: src/transport.)
  in->parsing = lhn_transport_parsing{in, &ParseRead};
  if (lhn_transport_register(env, exports, &in->parsing) != napi_ok) env.GetAndClearPendingException();
#endif
  return exports;
}

}  // namespace

NODE_API_MODULE(llhttp_napi, Init)
