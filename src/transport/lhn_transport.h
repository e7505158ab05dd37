/* llhttp-napi's own TCP transport for llhttp-napi/server (issue 46): see
 * the design comment at the top of lhn_transport.c. Built only where libuv's
 * header is at hand and its symbols come from the node binary (the gyp
 * build: LHN_TRANSPORT defined); elsewhere the server uses node:net. */
#ifndef LHN_TRANSPORT_H
#define LHN_TRANSPORT_H

#include <node_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Adds the transport's functions to `exports` as exports.transport, with
 * state of its own for this environment (its loop, its read buffer, its
 * handles), closed by the environment's cleanup. Returns napi_ok, or the
 * status of the N-API call that failed. */
napi_status lhn_transport_register(napi_env env, napi_value exports);

#ifdef __cplusplus
}
#endif

#endif /* LHN_TRANSPORT_H */
