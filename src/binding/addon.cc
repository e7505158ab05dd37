// llhttp-napi binding: marshalling between the C core (src/core) and lib/.
//
// One crossing per execute(): the core fills an event list; lib/ replays it.
// The slab, the pair table, the event list and a small state block are
// ArrayBuffers that JavaScript reads directly. Lifecycle requests
// (initialize, pause, resume) are written by JavaScript into the state block
// and applied here at the next execute() or finish().
#include <napi.h>

#include <cstring>

extern "C" {
#include "../core/lhn_clock.h"
#include "../core/lhn_llhttp.h"
#include "../core/lhn_parser.h"
}

#include <cstdlib>
#include <string>

namespace {

// Int32 slots of the state block that lib/parser.js shares with this file
// (exported by name in `layout`).
enum StateSlot {
  S_REQUEST = 0,      // JS -> native: pending requests, R_* bits
  S_TYPE = 1,         // JS -> native: parser type for R_RESET
  S_MAX_HEADER = 2,   // JS -> native: header byte limit for R_RESET
  S_LENIENT = 3,      // JS -> native: lenient flags for R_RESET
  S_EVENTS = 4,       // native -> JS: events in the list
  S_NREAD = 5,        // native -> JS: bytes parsed
  S_ERROR = 6,        // native -> JS: llhttp error number, 0 when none
  S_GENERATION = 7,   // native -> JS: bumped when a buffer is replaced
  S_HEADERS_DONE = 8, // native -> JS: headers of the current message complete
  S_PAIR_SHIFT = 9,   // native -> JS: pair indices moved down by the last execute
  S_SLAB_SHIFT = 10,  // native -> JS: slab offsets moved down by the last execute
  S_UPGRADED = 11,    // native -> JS: an upgrade stopped the last call
  S_HANDLERS = 12,    // JS -> native: LHN_HAS_* bits for R_HANDLERS
  S_MAX_PAIRS = 13,   // JS -> native: header pair limit for R_MAX_PAIRS
  S_SLOTS = 14        // then one float64: message start in ms, 0 when idle (both ways)
};
// Requests JavaScript leaves in S_REQUEST, applied at the next call.
enum Request {
  R_RESET = 1,
  R_PAUSE = 2,
  R_RESUME = 4,
  R_HANDLERS = 8,
  R_MAX_PAIRS = 16,
  R_SET_START = 32  // the message start slot holds a start set by JavaScript
};
constexpr size_t kStateBytes = S_SLOTS * sizeof(int32_t) + sizeof(double);

class Parser : public Napi::ObjectWrap<Parser> {
 public:
  static Napi::Function Define(Napi::Env env) {
    return DefineClass(env, "NativeParser",
                       {InstanceMethod<&Parser::Executor>("executor"),
                        InstanceMethod<&Parser::Rewind>("rewind"),
                        InstanceMethod<&Parser::Finish>("finish"),
                        InstanceMethod<&Parser::ErrorInfo>("errorInfo"),
                        InstanceMethod<&Parser::Buffers>("buffers"),
                        InstanceMethod<&Parser::Stats>("stats"),
                        InstanceMethod<&Parser::Close>("close")});
  }

  // The core's own buffers (the repeat record) go with the parser; the
  // ArrayBuffers stay with JavaScript's garbage collector.
  ~Parser() override { lhn_parser_destroy(&core_); }

  explicit Parser(const Napi::CallbackInfo& info) : Napi::ObjectWrap<Parser>(info) {
    Napi::Env env = info.Env();
    lhn_parser_init(&core_, &Parser::Grow, this);
    Napi::ArrayBuffer state = Napi::ArrayBuffer::New(env, kStateBytes);
    state_ = static_cast<int32_t*>(state.Data());
    std::memset(state_, 0, kStateBytes);
    state_ref_ = Napi::Persistent(state);
    lhn_parser_reset(&core_, HTTP_REQUEST, 16384, 0);
    env_ = env;
    if (lhn_parser_prepare(&core_) != 0) {
      Napi::Error::New(env, "out of memory").ThrowAsJavaScriptException();
    }
  }

 private:
  // Memory hook of the core: a fresh ArrayBuffer per growth; the old one
  // stays valid for as long as JavaScript holds a view of it.
  static void* Grow(void* ctx, enum lhn_buffer_id id, void* old, size_t old_size,
                    size_t new_size) {
    Parser* self = static_cast<Parser*>(ctx);
    Napi::Env env = self->env_;
    napi_value raw;
    void* data = nullptr;
    if (napi_create_arraybuffer(env, new_size, &data, &raw) != napi_ok) return nullptr;
    if (old_size) std::memcpy(data, old, old_size);
    Napi::ArrayBuffer buffer(env, raw);
    switch (id) {
      case LHN_BUF_SLAB: self->slab_ref_ = Napi::Persistent(buffer); break;
      case LHN_BUF_PAIRS: self->pairs_ref_ = Napi::Persistent(buffer); break;
      case LHN_BUF_EVENTS: self->events_ref_ = Napi::Persistent(buffer); break;
    }
    self->state_[S_GENERATION]++;
    return data;
  }

  // Applies what JavaScript asked for since the last call.
  void ApplyRequests() {
    int32_t req = state_[S_REQUEST];
    if (req == 0) return;
    state_[S_REQUEST] = 0;
    if (req & R_RESET) {
      lhn_parser_reset(&core_, state_[S_TYPE], static_cast<uint32_t>(state_[S_MAX_HEADER]),
                       static_cast<unsigned>(state_[S_LENIENT]));
    }
    if (req & R_HANDLERS) lhn_parser_set_handlers(&core_, static_cast<unsigned>(state_[S_HANDLERS]));
    if (req & R_MAX_PAIRS) {
      lhn_parser_set_max_header_pairs(&core_, static_cast<uint32_t>(state_[S_MAX_PAIRS]));
    }
    if (req & R_SET_START) {
      double start_ms = *reinterpret_cast<const double*>(state_ + S_SLOTS);
      lhn_parser_set_message_start(&core_, static_cast<uint64_t>(start_ms * 1e6));
    }
    if (req & R_PAUSE) lhn_parser_pause(&core_);
    if (req & R_RESUME) lhn_parser_resume(&core_);
  }

  // Writes a call's outcome into the state block, and returns the slab as a
  // latin1 string when the one returned before no longer serves (JavaScript
  // cuts header names, values and URLs out of it: lhn_parser_take_slab()),
  // else undefined.
  napi_value Publish(napi_env env, const lhn_result& result) {
    uint32_t pair_shift, slab_shift;
    lhn_parser_compaction(&core_, &pair_shift, &slab_shift);
    state_[S_EVENTS] = static_cast<int32_t>(lhn_parser_event_count(&core_));
    state_[S_NREAD] = static_cast<int32_t>(result.bytes_parsed);
    state_[S_ERROR] = result.error;
    state_[S_UPGRADED] = result.upgraded;
    state_[S_HEADERS_DONE] = lhn_parser_headers_completed(&core_);
    state_[S_PAIR_SHIFT] = static_cast<int32_t>(pair_shift);
    state_[S_SLAB_SHIFT] = static_cast<int32_t>(slab_shift);
    uint64_t start_ns = lhn_parser_message_start_ns(&core_);
    double* start = reinterpret_cast<double*>(state_ + S_SLOTS);
    *start = start_ns ? static_cast<double>(start_ns) / 1e6 : 0;
    last_ = result;
    size_t len;
    const uint8_t* slab = lhn_parser_take_slab(&core_, &len);
    napi_value text;
    if (slab == nullptr ||
        napi_create_string_latin1(env, reinterpret_cast<const char*>(slab), len, &text) != napi_ok) {
      return nullptr;
    }
    return text;
  }

  // execute(arrayBuffer, byteOffset, byteLength), as a function bound to this
  // parser (executor()): parses those bytes; results in the state block and
  // the event list, returns what Publish() does. An object that is not an
  // ArrayBuffer (a SharedArrayBuffer) returns false without parsing: the
  // caller copies the bytes into one.
  static napi_value ExecuteBound(napi_env env, napi_callback_info info) {
    size_t argc = 3;
    napi_value args[3];
    void* data = nullptr;
    if (napi_get_cb_info(env, info, &argc, args, nullptr, &data) != napi_ok) return nullptr;
    Parser* parser = static_cast<Parser*>(data);
    void* bytes = nullptr;
    size_t size = 0;
    uint32_t offset = 0, len = 0;
    if (argc < 3 || napi_get_arraybuffer_info(env, args[0], &bytes, &size) != napi_ok) {
      napi_valuetype type = napi_undefined;
      if (argc >= 1) napi_typeof(env, args[0], &type);
      if (type != napi_object) {
        napi_throw_type_error(env, nullptr, "execute() takes an ArrayBuffer, an offset and a length");
        return nullptr;
      }
      napi_value no;
      napi_get_boolean(env, false, &no);
      return no;
    }
    if (napi_get_value_uint32(env, args[1], &offset) != napi_ok ||
        napi_get_value_uint32(env, args[2], &len) != napi_ok || offset > size ||
        len > size - offset) {
      napi_throw_range_error(env, nullptr, "execute(): bytes out of range");
      return nullptr;
    }
    if (len > INT32_MAX) {
      napi_throw_range_error(env, nullptr, "buffer too large");
      return nullptr;
    }
    if (parser->closed_) {
      napi_throw_error(env, nullptr, "the parser is closed");
      return nullptr;
    }
    parser->env_ = Napi::Env(env);
    parser->ApplyRequests();
    lhn_result result;
    lhn_parser_execute(&parser->core_, static_cast<const char*>(bytes) + offset, len, &result);
    return parser->Publish(env, result);
  }

  // executor(): a function that executes on this parser, found in its
  // callback data without the cost of unwrapping `this`. It keeps the
  // wrapper alive through its `owner` property, so it can never outlive it.
  Napi::Value Executor(const Napi::CallbackInfo& info) {
    napi_env env = info.Env();
    napi_value fn;
    if (napi_create_function(env, "execute", NAPI_AUTO_LENGTH, &Parser::ExecuteBound, this, &fn) !=
            napi_ok ||
        napi_set_named_property(env, fn, "owner", info.This()) != napi_ok) {
      return Napi::Value();
    }
    return Napi::Value(env, fn);
  }

  bool Usable(const Napi::CallbackInfo& info) {
    if (!closed_) return true;
    Napi::Error::New(info.Env(), "the parser is closed").ThrowAsJavaScriptException();
    return false;
  }

  // rewind(arrayBuffer, byteOffset, length, eventIndex, actions, answer,
  // failCode): see lhn_parser_rewind; the bytes are those the last execute
  // parsed. Returns what Publish() does.
  Napi::Value Rewind(const Napi::CallbackInfo& info) {
    if (!Usable(info)) return Napi::Value();
    Napi::Env env = info.Env();
    if (!info[0].IsArrayBuffer()) {
      Napi::TypeError::New(env, "rewind() takes the ArrayBuffer last executed").ThrowAsJavaScriptException();
      return Napi::Value();
    }
    for (size_t i = 1; i <= 6; i++) {
      if (!info[i].IsNumber()) {
        Napi::TypeError::New(env, "rewind() takes numbers").ThrowAsJavaScriptException();
        return Napi::Value();
      }
    }
    Napi::ArrayBuffer buffer = info[0].As<Napi::ArrayBuffer>();
    uint32_t offset = info[1].As<Napi::Number>().Uint32Value();
    uint32_t len = info[2].As<Napi::Number>().Uint32Value();
    if (offset > buffer.ByteLength() || len > buffer.ByteLength() - offset) {
      Napi::RangeError::New(env, "rewind(): bytes out of range").ThrowAsJavaScriptException();
      return Napi::Value();
    }
    env_ = env;
    lhn_result result;
    if (lhn_parser_rewind(&core_, static_cast<const char*>(buffer.Data()) + offset, len,
                          info[3].As<Napi::Number>().Uint32Value(),
                          info[4].As<Napi::Number>().Uint32Value(),
                          info[5].As<Napi::Number>().Int32Value(),
                          info[6].As<Napi::Number>().Int32Value(), &result) != 0) {
      Napi::RangeError::New(env, "no such event").ThrowAsJavaScriptException();
      return Napi::Value();
    }
    return Napi::Value(env, Publish(env, result));
  }

  // finish(): see lhn_parser_finish. Returns what Publish() does.
  Napi::Value Finish(const Napi::CallbackInfo& info) {
    if (!Usable(info)) return Napi::Value();
    env_ = info.Env();
    ApplyRequests();
    lhn_result result;
    lhn_parser_finish(&core_, &result);
    return Napi::Value(info.Env(), Publish(info.Env(), result));
  }

  // errorInfo(): [code, reason] of the last reported error.
  Napi::Value ErrorInfo(const Napi::CallbackInfo& info) {
    Napi::Env env = info.Env();
    Napi::Array out = Napi::Array::New(env, 2);
    if (last_.error == 0) return out;
    out[0u] = Napi::String::New(env, last_.code, last_.code_len);
    out[1u] = Napi::String::New(env, last_.reason);
    return out;
  }

  // buffers(): [slab, pairs, events, state] ArrayBuffers, current ones.
  Napi::Value Buffers(const Napi::CallbackInfo& info) {
    if (!Usable(info)) return Napi::Value();
    Napi::Env env = info.Env();
    env_ = env;
    Napi::Array out = Napi::Array::New(env, 4);
    out[0u] = slab_ref_.Value();
    out[1u] = pairs_ref_.Value();
    out[2u] = events_ref_.Value();
    out[3u] = state_ref_.Value();
    return out;
  }

  // stats(): the core's allocation counters.
  Napi::Value Stats(const Napi::CallbackInfo& info) {
    Napi::Env env = info.Env();
    lhn_stats stats;
    lhn_parser_stats(&core_, &stats);
    Napi::Object out = Napi::Object::New(env);
    out["allocations"] = Napi::Number::New(env, static_cast<double>(stats.allocations));
    out["slabGrowths"] = Napi::Number::New(env, static_cast<double>(stats.slab_growths));
    out["slabCapacity"] = Napi::Number::New(env, stats.slab_capacity);
    return out;
  }

  // close(): drops the buffers now instead of at garbage collection.
  Napi::Value Close(const Napi::CallbackInfo& info) {
    lhn_parser_destroy(&core_);
    slab_ref_.Reset();
    pairs_ref_.Reset();
    events_ref_.Reset();
    closed_ = true;
    return info.Env().Undefined();
  }

  lhn_parser core_;
  Napi::Env env_ = Napi::Env(nullptr);
  int32_t* state_ = nullptr;
  bool closed_ = false;
  lhn_result last_ = {};
  Napi::Reference<Napi::ArrayBuffer> state_ref_, slab_ref_, pairs_ref_, events_ref_;
};

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

// The binary layout lib/parser.js reads, by name: event kinds and slots,
// pair slots, header flags (src/core/lhn_parser.h), the state block's slots
// and requests (above), rewind actions and handler bits. Frozen.
Napi::Object Layout(Napi::Env env) {
  struct Entry {
    const char* name;
    int32_t value;
  };
  static const Entry entries[] = {
      {"EV_MESSAGE_BEGIN", LHN_EV_MESSAGE_BEGIN}, {"EV_HEADERS", LHN_EV_HEADERS},
      {"EV_HEADERS_COMPLETE", LHN_EV_HEADERS_COMPLETE}, {"EV_BODY", LHN_EV_BODY},
      {"EV_MESSAGE_COMPLETE", LHN_EV_MESSAGE_COMPLETE},
      {"EV_KIND", LHN_EV_KIND}, {"EV_FIRST_PAIR", LHN_EV_FIRST_PAIR},
      {"EV_PAIR_COUNT", LHN_EV_PAIR_COUNT}, {"EV_TEXT_START", LHN_EV_TEXT_START},
      {"EV_TEXT_END", LHN_EV_TEXT_END}, {"EV_FLAGS", LHN_EV_FLAGS}, {"EV_STATUS", LHN_EV_STATUS},
      {"EV_METHOD", LHN_EV_METHOD}, {"EV_HTTP_MAJOR", LHN_EV_HTTP_MAJOR},
      {"EV_HTTP_MINOR", LHN_EV_HTTP_MINOR}, {"EV_MESSAGE_NUMBER", LHN_EV_MESSAGE_NUMBER},
      {"EV_BODY_START", LHN_EV_BODY_START}, {"EV_BODY_LENGTH", LHN_EV_BODY_LENGTH},
      {"EVENT_SLOTS", LHN_EVENT_SLOTS},
      {"HC_UPGRADE", LHN_HC_UPGRADE}, {"HC_KEEP_ALIVE", LHN_HC_KEEP_ALIVE},
      {"HC_REPEATS", LHN_HC_REPEATS}, {"HC_RECORDED", LHN_HC_RECORDED},
      {"PAIR_NAME_START", LHN_PAIR_NAME_START}, {"PAIR_NAME_END", LHN_PAIR_NAME_END},
      {"PAIR_VALUE_START", LHN_PAIR_VALUE_START}, {"PAIR_VALUE_END", LHN_PAIR_VALUE_END},
      {"PAIR_KNOWN_NAME", LHN_PAIR_KNOWN_NAME}, {"PAIR_SLOTS", LHN_PAIR_SLOTS},
      {"S_REQUEST", S_REQUEST}, {"S_TYPE", S_TYPE}, {"S_MAX_HEADER", S_MAX_HEADER},
      {"S_LENIENT", S_LENIENT}, {"S_EVENTS", S_EVENTS}, {"S_NREAD", S_NREAD},
      {"S_ERROR", S_ERROR}, {"S_GENERATION", S_GENERATION}, {"S_HEADERS_DONE", S_HEADERS_DONE},
      {"S_PAIR_SHIFT", S_PAIR_SHIFT}, {"S_SLAB_SHIFT", S_SLAB_SHIFT}, {"S_UPGRADED", S_UPGRADED},
      {"S_HANDLERS", S_HANDLERS}, {"S_MAX_PAIRS", S_MAX_PAIRS}, {"S_SLOTS", S_SLOTS},
      {"R_RESET", R_RESET}, {"R_PAUSE", R_PAUSE}, {"R_RESUME", R_RESUME},
      {"R_HANDLERS", R_HANDLERS}, {"R_MAX_PAIRS", R_MAX_PAIRS}, {"R_SET_START", R_SET_START},
      {"REWIND_ANSWER", LHN_REWIND_ANSWER}, {"REWIND_FAIL", LHN_REWIND_FAIL},
      {"HAS_ON_HEADERS", LHN_HAS_ON_HEADERS}, {"HAS_ON_HEADERS_COMPLETE", LHN_HAS_ON_HEADERS_COMPLETE},
      {"HPE_USER", HPE_USER},
  };
  Napi::Object out = Napi::Object::New(env);
  for (const Entry& e : entries) out[e.name] = Napi::Number::New(env, e.value);
  out.Freeze();
  return out;
}

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
  size_t count;
  const char* const* names = lhn_method_names(0, &count);
  exports["methods"] = Strings(env, names, count);
  names = lhn_method_names(1, &count);
  exports["allMethods"] = Strings(env, names, count);
  names = lhn_known_names(&count);
  exports["knownHeaderNames"] = Strings(env, names, count);
  exports["NativeParser"] = Parser::Define(env);
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
