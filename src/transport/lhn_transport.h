/* llhttp-napi's own transport for llhttp-napi/server (issue 46): see
 * the design comment at the top of lhn_transport.c. Built only where libuv's
 * header is at hand and its symbols come from the node binary (the gyp
 * build: LHN_TRANSPORT defined); elsewhere the server uses node:net. */
#ifndef LHN_TRANSPORT_H
#define LHN_TRANSPORT_H

#include <node_api.h>

#ifdef __cplusplus
extern "C" {
#endif

#include <stddef.h>
#include <stdint.h>

/* How the transport parses a read where it lies, with the parser of the
 * connection (the parser binding's, src/binding/addon.cc): parse() runs
 * parser `parser_id` over bytes[0, len) in the thread's outermost
 * workspace, after the commands left for it, and publishes the outcome
 * there as the binding's execute() does; *text is the call's text (a
 * latin1 string, or undefined), *async the parser's async context (NULL:
 * none of the addon's). Returns 0, or -1 when that parser is gone (nothing
 * parsed). Called on the loop, with no JavaScript on the stack (the
 * outermost workspace is free). */
typedef struct lhn_transport_parsing {
  void *ctx;
  int (*parse)(void *ctx, napi_env env, uint32_t parser_id, const char *bytes, size_t len, napi_value *text,
               napi_async_context *async);
} lhn_transport_parsing;

/* Adds the transport's functions to `exports` as exports.transport, with
 * state of its own for this environment (its loop, its read buffer, its
 * handles), closed by the environment's cleanup; `parsing` (kept, not
 * copied: it lives as long as the environment) is how its reads are parsed.
 * Returns napi_ok, or the status of the N-API call that failed. */
napi_status lhn_transport_register(napi_env env, napi_value exports, const lhn_transport_parsing *parsing);

#ifdef __cplusplus
}
#endif

#endif /* LHN_TRANSPORT_H */
