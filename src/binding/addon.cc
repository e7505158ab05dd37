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
#include "../core/lhn_llhttp.h"
#include "../core/lhn_parser.h"
}

#include <cstdlib>
#include <string>

namespace {

// Int32 slots of the state block shared with lib/native.js.
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
  S_SLOTS = 14        // then one float64: message start in ms, 0 when idle
};
enum Request { R_RESET = 1, R_PAUSE = 2, R_RESUME = 4, R_HANDLERS = 8, R_MAX_PAIRS = 16 };
constexpr size_t kStateBytes = S_SLOTS * sizeof(int32_t) + sizeof(double);

class Parser : public Napi::ObjectWrap<Parser> {
 public:
  static Napi::Function Define(Napi::Env env) {
    // execute() is the hot path: a plain N-API callback, without the
    // CallbackInfo object and the extra type queries of the C++ wrappers.
    napi_property_descriptor execute = {"execute", nullptr, &Parser::ExecuteRaw, nullptr,
                                        nullptr, nullptr, napi_default_method, nullptr};
    return DefineClass(env, "NativeParser",
                       {Napi::ClassPropertyDescriptor<Parser>(execute),
                        InstanceMethod<&Parser::Rewind>("rewind"),
                        InstanceMethod<&Parser::Finish>("finish"),
                        InstanceMethod<&Parser::ErrorInfo>("errorInfo"),
                        InstanceMethod<&Parser::Executor>("executor"),
                        InstanceMethod<&Parser::PairStrings>("pairStrings"),
                        InstanceMethod<&Parser::Buffers>("buffers"),
                        InstanceMethod<&Parser::Stats>("stats"),
                        InstanceMethod<&Parser::Close>("close")});
  }

  // The core's own buffers (the reuse memory) go with the parser; the
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
    if (req & R_PAUSE) lhn_parser_pause(&core_);
    if (req & R_RESUME) lhn_parser_resume(&core_);
  }

  void Publish(const lhn_result& result) {
    state_[S_EVENTS] = static_cast<int32_t>(core_.event_count);
    state_[S_NREAD] = static_cast<int32_t>(result.bytes_parsed);
    state_[S_ERROR] = result.error;
    state_[S_UPGRADED] = result.upgraded;
    state_[S_HEADERS_DONE] = core_.st.headers_completed;
    state_[S_PAIR_SHIFT] = static_cast<int32_t>(core_.compacted_pairs);
    state_[S_SLAB_SHIFT] = static_cast<int32_t>(core_.compacted_bytes);
    double* start = reinterpret_cast<double*>(state_ + S_SLOTS);
    *start = core_.st.message_start_ns ? static_cast<double>(core_.st.message_start_ns) / 1e6 : 0;
    last_ = result;
  }

  bool Usable(const Napi::CallbackInfo& info) {
    if (!closed_) return true;
    Napi::Error::New(info.Env(), "the parser is closed").ThrowAsJavaScriptException();
    return false;
  }

  bool GetInput(const Napi::CallbackInfo& info, const char** data, size_t* len) {
    if (!Usable(info)) return false;
    Napi::Value arg = info[0];
    if (!arg.IsTypedArray() || arg.As<Napi::TypedArray>().TypedArrayType() != napi_uint8_array) {
      Napi::TypeError::New(info.Env(), "The \"buffer\" argument must be a Buffer or Uint8Array")
          .ThrowAsJavaScriptException();
      return false;
    }
    Napi::Uint8Array bytes = arg.As<Napi::Uint8Array>();
    *data = reinterpret_cast<const char*>(bytes.Data());
    *len = bytes.ByteLength();
    if (*len > INT32_MAX) {
      Napi::RangeError::New(info.Env(), "buffer too large").ThrowAsJavaScriptException();
      return false;
    }
    return true;
  }

  // execute(buffer) on the wrapper: parses it; results in the state block and
  // the event list.
  static napi_value ExecuteRaw(napi_env env, napi_callback_info info) {
    size_t argc = 1;
    napi_value arg;
    napi_value self;
    void* wrapped = nullptr;
    if (napi_get_cb_info(env, info, &argc, &arg, &self, nullptr) != napi_ok ||
        napi_unwrap(env, self, &wrapped) != napi_ok) {
      return nullptr;
    }
    return DoExecute(env, static_cast<Parser*>(static_cast<Napi::ObjectWrap<Parser>*>(wrapped)),
                     argc, arg);
  }

  // The same as a function bound to this parser (executor()): it finds the
  // parser in its callback data, without the cost of unwrapping `this`.
  static napi_value ExecuteBound(napi_env env, napi_callback_info info) {
    size_t argc = 1;
    napi_value arg;
    void* data = nullptr;
    if (napi_get_cb_info(env, info, &argc, &arg, nullptr, &data) != napi_ok) return nullptr;
    return DoExecute(env, static_cast<Parser*>(data), argc, arg);
  }

  static napi_value DoExecute(napi_env env, Parser* parser, size_t argc, napi_value arg) {
    napi_typedarray_type type;
    size_t len = 0;
    void* data = nullptr;
    if (argc < 1 ||
        napi_get_typedarray_info(env, arg, &type, &len, &data, nullptr, nullptr) != napi_ok ||
        type != napi_uint8_array) {
      napi_throw_type_error(env, nullptr, "The \"buffer\" argument must be a Buffer or Uint8Array");
      return nullptr;
    }
    if (parser->closed_) {
      napi_throw_error(env, nullptr, "the parser is closed");
      return nullptr;
    }
    if (len > INT32_MAX) {
      napi_throw_range_error(env, nullptr, "buffer too large");
      return nullptr;
    }
    parser->env_ = Napi::Env(env);
    parser->ApplyRequests();
    lhn_result result;
    lhn_parser_execute(&parser->core_, static_cast<const char*>(data), len, &result);
    parser->Publish(result);
    return nullptr;
  }

  // executor(): a function that executes on this parser. It keeps the
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

  // rewind(buffer, eventIndex, actions, answer, failCode): see lhn_parser_rewind.
  Napi::Value Rewind(const Napi::CallbackInfo& info) {
    const char* data;
    size_t len;
    if (!GetInput(info, &data, &len)) return Napi::Value();
    env_ = info.Env();
    for (size_t i = 1; i <= 4; i++) {
      if (!info[i].IsNumber()) {
        Napi::TypeError::New(info.Env(), "rewind() takes numbers").ThrowAsJavaScriptException();
        return Napi::Value();
      }
    }
    lhn_result result;
    if (lhn_parser_rewind(&core_, data, len, info[1].As<Napi::Number>().Uint32Value(),
                          info[2].As<Napi::Number>().Uint32Value(),
                          info[3].As<Napi::Number>().Int32Value(),
                          info[4].As<Napi::Number>().Int32Value(), &result) != 0) {
      Napi::RangeError::New(info.Env(), "no such event").ThrowAsJavaScriptException();
      return Napi::Value();
    }
    Publish(result);
    return Napi::Value();
  }

  Napi::Value Finish(const Napi::CallbackInfo& info) {
    if (!Usable(info)) return Napi::Value();
    env_ = info.Env();
    ApplyRequests();
    lhn_result result;
    lhn_parser_finish(&core_, &result);
    Publish(result);
    return Napi::Value();
  }

  // pairStrings(index): [name, value] of pair `index` of the pair table, made
  // here: one crossing per header, the way per-header native getters work.
  // benchmark/headers.js measures getAllHeaders() against it.
  Napi::Value PairStrings(const Napi::CallbackInfo& info) {
    Napi::Env env = info.Env();
    uint32_t index = info[0].As<Napi::Number>().Uint32Value();
    if (closed_ || index >= core_.st.pair_count) return env.Undefined();
    const int32_t* pair = core_.pairs + static_cast<size_t>(index) * LHN_PAIR_SLOTS;
    const char* slab = reinterpret_cast<const char*>(core_.slab);
    napi_value name, value, out;
    napi_create_string_latin1(env, slab + pair[0], static_cast<size_t>(pair[1] - pair[0]), &name);
    napi_create_string_latin1(env, slab + pair[2], static_cast<size_t>(pair[3] - pair[2]), &value);
    napi_create_array_with_length(env, 2, &out);
    napi_set_element(env, out, 0, name);
    napi_set_element(env, out, 1, value);
    return Napi::Value(env, out);
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
    Napi::Object out = Napi::Object::New(env);
    out["allocations"] = Napi::Number::New(env, static_cast<double>(core_.allocations));
    out["slabGrowths"] = Napi::Number::New(env, static_cast<double>(core_.slab_growths));
    out["slabCapacity"] = Napi::Number::New(env, core_.slab_cap);
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
    return LlhttpChoice{lhn_llhttp_bundled(), std::to_string(LLHTTP_VERSION_MAJOR) + "." +
                                                   std::to_string(LLHTTP_VERSION_MINOR) + "." +
                                                   std::to_string(LLHTTP_VERSION_PATCH)};
  }();
  return choice;
}

Napi::Object Init(Napi::Env env, Napi::Object exports) {
  const LlhttpChoice& llhttp = ChooseLlhttp(env);
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
  exports["eventSlots"] = Napi::Number::New(env, LHN_EVENT_SLOTS);
  exports["pairSlots"] = Napi::Number::New(env, LHN_PAIR_SLOTS);
  return exports;
}

}  // namespace

NODE_API_MODULE(llhttp_napi, Init)
