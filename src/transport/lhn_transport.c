/*
 * llhttp-napi's own transport (issue 46): the sockets of a llhttp-napi/server
 * made with `transport: 'native'`, TCP or Unix domain sockets, accepted,
 * read and written here on the libuv loop Node already runs
 * (napi_get_uv_event_loop; libuv's symbols come from the node binary),
 * instead of by node:net.
 *
 * Design.
 * - State per environment (a worker thread has its own): its loop, one read
 *   buffer (an ArrayBuffer JavaScript sees once), the table of its servers
 *   and connections by id, and a scratch for the strings of a write. The
 *   environment's async cleanup hook closes every handle it still has.
 * - Every read lands in the one read buffer (a read is handed over before
 *   the next read of any connection begins: nothing is allocated per read)
 *   and makes one call into JavaScript, in the connection's async context
 *   (napi_make_callback: ticks and microtasks run after it as after any of
 *   Node's callbacks). When JavaScript named the parser to parse it with
 *   (the answer of its last read, see on_read()), the read is parsed here
 *   first, where it lies, in the core's outermost workspace
 *   (lhn_transport_parsing, the parser binding's), and the one call
 *   delivers what it completed (heads, body pieces, message ends: the
 *   workspace's events, src/core/lhn_contract.h) with the call's text.
 *   Otherwise lib/server/native-transport.js hands the bytes to the
 *   connection's parser, which parses them itself.
 * - A response's bytes come here once per write (a corked response's pieces
 *   together): strings are encoded into the scratch, buffers are read where
 *   they are, and uv_try_write() writes what the kernel takes at once. The
 *   rest is copied into one request queued with uv_write(); JavaScript is
 *   told the bytes still queued after each write and each completion, which
 *   is its backpressure (the loop stops reading a client that does not read
 *   its answers; a handler's writes wait for 'drain'). Reads stop and start
 *   on request (uv_read_stop / uv_read_start).
 * - Each connection has one libuv timer, its idle timeout (socket.setTimeout:
 *   keepAliveTimeout between requests, the server's timeout during one),
 *   restarted by each read and write as node:net's is. A read or a write
 *   only notes the loop's time: the timer, once started, runs to its due
 *   time and, if the connection was busy since, starts again for what is
 *   left, so that a request does not stop and start a timer of libuv's.
 *   Setting a shorter timeout starts it again at once; none (0) leaves it
 *   to find that when it is due.
 * - A listener or a connection may also start from a descriptor of
 *   someone else's (listenFd(), adopt()): one node:net's listen() was given
 *   (the listener's from then on, as node:net's), or a copy of one that a
 *   handle of node's keeps (a server's or a cluster's, whose owner closes
 *   it), TCP or a Unix domain socket by the socket's family.
 * - The calls into JavaScript go through one function (init()'s dispatch),
 *   called on a listener's or a connection's object with an event kind
 *   (TX_EVENT_*, exported as `events`), one number and, for a parsed read,
 *   the call's text; a read's answer is the parser of the next read.
 */
/* (libuv's header needs POSIX's types, which -std=c11 hides) */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "lhn_transport.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>
#include <uv.h>

#define TX_READ_BUFFER_SIZE 65536
#define TX_INLINE_CHUNKS 16
#define NO_ID UINT32_MAX

/* What the dispatch hears, and the one number that comes with it. */
enum tx_event {
  TX_EVENT_CONNECTION = 1,  /* on a server: a connection's id (accept() it) */
  TX_EVENT_READ = 2,        /* bytes at the read buffer's start */
  TX_EVENT_END = 3,         /* the peer ended its side */
  TX_EVENT_READ_ERROR = 4,  /* a libuv error code */
  TX_EVENT_WRITTEN = 5,     /* a queued write completed: the bytes still queued */
  TX_EVENT_WRITE_ERROR = 6, /* a libuv error code */
  TX_EVENT_FINISHED = 7,    /* the shutdown after the last write: its status */
  TX_EVENT_TIMEOUT = 8,     /* the idle timeout passed */
  TX_EVENT_CLOSE = 9,       /* the connection's handles are closed: the bytes it was handed to write */
  TX_EVENT_ACCEPT_ERROR = 10, /* on a server: a libuv error code */
  TX_EVENT_SERVER_CLOSE = 11, /* on a server: its handle is closed */
  TX_EVENT_READ_PARSED = 12, /* bytes at the read buffer's start, parsed: the call's text follows */
};

typedef struct tx_slots {
  void **items;
  uint32_t count, cap;
  uint32_t *free_ids;
  uint32_t free_count, free_cap;
} tx_slots;

typedef struct tx_state {
  napi_env env;
  uv_loop_t *loop;
  napi_ref dispatch;
  napi_ref read_buffer;
  char *read_data;
  tx_slots conns;
  tx_slots servers;
  char *scratch;
  size_t scratch_cap;
  uint32_t open;            /* handles not yet closed (servers + connections) */
  int tearing_down;
  napi_async_cleanup_hook_handle cleanup;
  const lhn_transport_parsing *parsing;
} tx_state;

/* A connection's or a listener's handle: TCP, or a Unix domain socket. */
typedef union tx_io {
  uv_handle_t handle;
  uv_stream_t stream;
  uv_tcp_t tcp;
  uv_pipe_t pipe;
} tx_io;

typedef struct tx_conn {
  tx_io io;
  int is_pipe;
  uv_timer_t timer;
  tx_state *tx;
  napi_ref object;          /* the JavaScript socket, strong from accept() to close */
  napi_async_context async;
  uint32_t id;
  uint64_t timeout_ms;      /* 0: none */
  uint64_t active_at;       /* the loop's time of the last read or write, or of setTimeout() */
  size_t queued;            /* bytes handed to uv_write() not yet written */
  double handed;            /* bytes handed to write() since accept (socket.bytesWritten) */
  uint32_t parser_id;       /* the parser to parse the next read with, or NO_ID */
  int parse_withdrawn;      /* parseWith(id, -1) during the read's call */
  int closing;
  int parts_open;           /* of io and timer */
} tx_conn;

typedef struct tx_server {
  tx_io io;
  int is_pipe;
  tx_state *tx;
  napi_ref object;
  napi_async_context async;
  uint32_t id;
  int no_delay;
  int closing;
} tx_server;

typedef struct tx_write {
  uv_write_t req;
  tx_conn *conn;
  size_t len;
  char bytes[];
} tx_write;

static void end_cleanup(tx_state *tx);

/* ---- ids ------------------------------------------------------------------ */

static int slot_add(tx_slots *s, void *item, uint32_t *id) {
  if (s->free_count > 0) {
    *id = s->free_ids[--s->free_count];
    s->items[*id] = item;
    return 0;
  }
  if (s->count == s->cap) {
    uint32_t cap = s->cap ? s->cap * 2 : 16;
    void **items = realloc(s->items, cap * sizeof(void *));
    if (items == NULL) return -1;
    s->items = items;
    s->cap = cap;
  }
  *id = s->count;
  s->items[s->count++] = item;
  return 0;
}

static void slot_free(tx_slots *s, uint32_t id) {
  s->items[id] = NULL;
  if (s->free_count == s->free_cap) {
    uint32_t cap = s->free_cap ? s->free_cap * 2 : 16;
    uint32_t *ids = realloc(s->free_ids, cap * sizeof(uint32_t));
    if (ids == NULL) return; /* (the id is not used again) */
    s->free_ids = ids;
    s->free_cap = cap;
  }
  s->free_ids[s->free_count++] = id;
}

static void *slot_get(const tx_slots *s, uint32_t id) {
  return id < s->count ? s->items[id] : NULL;
}

/* ---- into JavaScript ------------------------------------------------------ */

/* dispatch.call(target, kind, value[, text]) in `async` (text: NULL for
 * none); an exception it throws is the process's uncaught exception, as a
 * callback of Node's own would be. *answer (when not NULL): what it
 * returned, as a uint32 (NO_ID for anything else). */
static void dispatch_with(tx_state *tx, napi_ref target, napi_async_context async, int kind, double value,
                          napi_value text, uint32_t *answer) {
  napi_env env = tx->env;
  napi_value recv, fn, argv[3], out = NULL;
  if (napi_get_reference_value(env, target, &recv) == napi_ok &&
      napi_get_reference_value(env, tx->dispatch, &fn) == napi_ok &&
      napi_create_int32(env, kind, &argv[0]) == napi_ok &&
      napi_create_double(env, value, &argv[1]) == napi_ok) {
    argv[2] = text;
    if (napi_make_callback(env, async, recv, fn, text == NULL ? 2 : 3, argv, &out) == napi_pending_exception) {
      napi_value err;
      out = NULL;
      if (napi_get_and_clear_last_exception(env, &err) == napi_ok) napi_fatal_exception(env, err);
    }
  }
  if (answer != NULL && (out == NULL || napi_get_value_uint32(env, out, answer) != napi_ok)) *answer = NO_ID;
}

static void dispatch(tx_state *tx, napi_ref target, napi_async_context async, int kind, double value) {
  napi_handle_scope scope;
  if (tx->tearing_down || target == NULL || napi_open_handle_scope(tx->env, &scope) != napi_ok) return;
  dispatch_with(tx, target, async, kind, value, NULL, NULL);
  napi_close_handle_scope(tx->env, scope);
}

/* A read of `nread` bytes: parsed here first when JavaScript named a parser
 * for it, then the call in the parser's async context (the connection's
 * when it has none of the addon's). JavaScript's answer names the parser
 * of the next read (-1, read as NO_ID: none), unless parseWith() withdrew
 * it during the call. */
static void dispatch_read(tx_conn *c, ssize_t nread) {
  tx_state *tx = c->tx;
  napi_env env = tx->env;
  napi_handle_scope scope;
  if (tx->tearing_down || c->object == NULL || napi_open_handle_scope(env, &scope) != napi_ok) return;
  napi_value text = NULL;
  napi_async_context async = NULL;
  int kind = TX_EVENT_READ;
  if (c->parser_id != NO_ID &&
      tx->parsing->parse(tx->parsing->ctx, env, c->parser_id, tx->read_data, (size_t)nread, &text, &async) == 0) {
    kind = TX_EVENT_READ_PARSED;
  }
  c->parse_withdrawn = 0;
  uint32_t next = NO_ID;
  /* (A parsed read's call is in the parser's context, where its handlers
   * run, as the built-in's kOnExecute is.) */
  dispatch_with(tx, c->object, async != NULL ? async : c->async, kind, (double)nread, text, &next);
  c->parser_id = c->parse_withdrawn ? NO_ID : next;
  napi_close_handle_scope(env, scope);
}

/* ---- connections ------------------------------------------------------------ */

static void on_timeout(uv_timer_t *timer) {
  tx_conn *c = timer->data;
  if (c->closing || c->timeout_ms == 0) return;
  uint64_t idle = uv_now(c->tx->loop) - c->active_at;
  if (idle < c->timeout_ms) {
    uv_timer_start(&c->timer, on_timeout, c->timeout_ms - idle, 0);
    return;
  }
  dispatch(c->tx, c->object, c->async, TX_EVENT_TIMEOUT, 0);
}

/* A read or a write: the idle timeout counts from now (started again if it
 * fired, or was set while stopped). */
static void conn_refresh(tx_conn *c) {
  c->active_at = uv_now(c->tx->loop);
  if (c->timeout_ms != 0 && !c->closing && !uv_is_active((uv_handle_t *)&c->timer)) {
    uv_timer_start(&c->timer, on_timeout, c->timeout_ms, 0);
  }
}

static void on_conn_part_closed(uv_handle_t *handle) {
  tx_conn *c = handle->data;
  if (--c->parts_open > 0) return;
  tx_state *tx = c->tx;
  if (c->object != NULL) {
    /* (At the environment's end: no word to JavaScript, but what N-API made
     * for the connection goes.) */
    if (!tx->tearing_down) dispatch(tx, c->object, c->async, TX_EVENT_CLOSE, c->handed);
    napi_async_destroy(tx->env, c->async);
    napi_delete_reference(tx->env, c->object);
  }
  if (c->id != NO_ID) slot_free(&tx->conns, c->id);
  tx->open--;
  free(c);
  if (tx->tearing_down && tx->open == 0) end_cleanup(tx);
}

/* Closes the connection's handles; TX_EVENT_CLOSE follows (queued writes
 * and a pending shutdown are cancelled without a word). */
static void conn_close(tx_conn *c) {
  if (c->closing) return;
  c->closing = 1;
  uv_close((uv_handle_t *)&c->timer, on_conn_part_closed);
  uv_close(&c->io.handle, on_conn_part_closed);
}

static void on_alloc(uv_handle_t *handle, size_t suggested, uv_buf_t *buf) {
  (void)suggested;
  tx_conn *c = handle->data;
  *buf = uv_buf_init(c->tx->read_data, TX_READ_BUFFER_SIZE);
}

static void on_read(uv_stream_t *stream, ssize_t nread, const uv_buf_t *buf) {
  (void)buf;
  tx_conn *c = stream->data;
  if (c->closing || nread == 0) return;
  if (nread > 0) {
    conn_refresh(c);
    dispatch_read(c, nread);
  } else if (nread == UV_EOF) {
    dispatch(c->tx, c->object, c->async, TX_EVENT_END, 0);
  } else {
    uv_read_stop(stream);
    dispatch(c->tx, c->object, c->async, TX_EVENT_READ_ERROR, (double)nread);
  }
}

static void on_written(uv_write_t *req, int status) {
  tx_write *w = (tx_write *)req;
  tx_conn *c = w->conn;
  c->queued -= w->len;
  free(w);
  if (c->closing) return;
  conn_refresh(c);
  if (status < 0) dispatch(c->tx, c->object, c->async, TX_EVENT_WRITE_ERROR, status);
  else dispatch(c->tx, c->object, c->async, TX_EVENT_WRITTEN, (double)c->queued);
}

static void on_shutdown(uv_shutdown_t *req, int status) {
  tx_conn *c = req->data;
  free(req);
  if (status == UV_ECANCELED || c->closing) return;
  dispatch(c->tx, c->object, c->async, TX_EVENT_FINISHED, status);
}

/* A connection with its handles initialized (a Unix domain socket's when
 * is_pipe, else TCP's) and an id, not yet connected to anything; NULL when
 * out of memory. conn_close() takes it back. */
static tx_conn *conn_new(tx_state *tx, int is_pipe) {
  tx_conn *c = calloc(1, sizeof(*c));
  if (c == NULL) return NULL;
  c->tx = tx;
  c->parser_id = NO_ID;
  c->is_pipe = is_pipe;
  if (c->is_pipe) uv_pipe_init(tx->loop, &c->io.pipe, 0);
  else uv_tcp_init(tx->loop, &c->io.tcp);
  uv_timer_init(tx->loop, &c->timer);
  uv_unref((uv_handle_t *)&c->timer);
  c->io.handle.data = c;
  c->timer.data = c;
  c->parts_open = 2;
  tx->open++;
  if (slot_add(&tx->conns, c, &c->id) != 0) {
    c->id = NO_ID;
    conn_close(c);
    return NULL;
  }
  return c;
}

static void on_connection(uv_stream_t *listener, int status) {
  tx_server *s = listener->data;
  tx_state *tx = s->tx;
  if (status < 0) {
    dispatch(tx, s->object, s->async, TX_EVENT_ACCEPT_ERROR, status);
    return;
  }
  tx_conn *c = conn_new(tx, s->is_pipe);
  if (c == NULL) return;
  if (uv_accept(listener, &c->io.stream) != 0) {
    conn_close(c);
    return;
  }
  if (s->no_delay && !c->is_pipe) uv_tcp_nodelay(&c->io.tcp, 1);
  dispatch(tx, s->object, s->async, TX_EVENT_CONNECTION, c->id);
  /* (JavaScript that did not take it, or is gone: the connection goes) */
  if (c->object == NULL) conn_close(c);
}

/* ---- descriptors from elsewhere ------------------------------------------- */

/* A copy of descriptor `fd` that a child process does not inherit, or a
 * libuv error code (< 0). (dup() and FIOCLEX rather than
 * fcntl(F_DUPFD_CLOEXEC): a build on a newer glibc asks for
 * fcntl64@GLIBC_2.28, which the prebuilt binary may not need,
 * scripts/dev/check-prebuilds.js) */
static int copy_fd(int fd) {
  int copy = dup(fd);
  if (copy < 0) return uv_translate_sys_error(errno);
  ioctl(copy, FIOCLEX);
  return copy;
}

/* Whether descriptor `fd` is a stream socket the transport opens: 0 for
 * TCP (v4 or v6), 1 for a Unix domain socket, or UV_EINVAL for anything
 * else (a file, a datagram socket, a descriptor not open), as node:net
 * tells them apart (libuv's guess, which reads the socket's family). */
static int socket_kind(int fd) {
  switch (uv_guess_handle(fd)) {
    case UV_TCP: return 0;
    case UV_NAMED_PIPE: return 1;
    default: return UV_EINVAL;
  }
}

/* ---- servers ------------------------------------------------------------------ */

static void on_server_closed(uv_handle_t *handle) {
  tx_server *s = handle->data;
  tx_state *tx = s->tx;
  if (!tx->tearing_down) dispatch(tx, s->object, s->async, TX_EVENT_SERVER_CLOSE, 0);
  napi_async_destroy(tx->env, s->async);
  napi_delete_reference(tx->env, s->object);
  slot_free(&tx->servers, s->id);
  tx->open--;
  free(s);
  if (tx->tearing_down && tx->open == 0) end_cleanup(tx);
}

/* A listener that never listened: closed with nothing to tell. */
static void on_failed_listener_closed(uv_handle_t *handle) {
  free(handle->data);
}

/* ---- the functions JavaScript calls ---------------------------------------- */

static tx_state *state_of(napi_env env, napi_callback_info info, size_t *argc, napi_value *argv) {
  void *data = NULL;
  if (napi_get_cb_info(env, info, argc, argv, NULL, &data) != napi_ok) return NULL;
  return data;
}

static napi_value number(napi_env env, double value) {
  napi_value out;
  napi_create_double(env, value, &out);
  return out;
}

static uint32_t uint_arg(napi_env env, napi_value v) {
  uint32_t out = UINT32_MAX;
  if (napi_get_value_uint32(env, v, &out) != napi_ok) return UINT32_MAX;
  return out;
}

/* The live (not closing) connection of id argv[0], or NULL. */
static tx_conn *conn_arg(tx_state *tx, napi_env env, napi_value v) {
  tx_conn *c = slot_get(&tx->conns, uint_arg(env, v));
  return c != NULL && !c->closing ? c : NULL;
}

/* init(dispatch): the function every event calls (see the top); returns the
 * read buffer, an ArrayBuffer whose first bytes are each TX_EVENT_READ's. */
static napi_value Init(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1];
  tx_state *tx = state_of(env, info, &argc, argv);
  if (tx == NULL || argc < 1) return NULL;
  if (tx->dispatch != NULL) napi_delete_reference(env, tx->dispatch);
  napi_create_reference(env, argv[0], 1, &tx->dispatch);
  napi_value buffer;
  if (tx->read_buffer != NULL) {
    napi_get_reference_value(env, tx->read_buffer, &buffer);
    return buffer;
  }
  void *data;
  if (napi_create_arraybuffer(env, TX_READ_BUFFER_SIZE, &data, &buffer) != napi_ok) return NULL;
  tx->read_data = data;
  napi_create_reference(env, buffer, 1, &tx->read_buffer);
  return buffer;
}

/* SO_REUSEPORT on a listener's socket before its bind: 0 or a libuv error. */
static int share_port(uv_tcp_t *tcp) {
#if defined(__linux__) && defined(SO_REUSEPORT)
  uv_os_fd_t fd;
  int err = uv_fileno((const uv_handle_t *)tcp, &fd);
  if (err != 0) return err;
  int on = 1;
  return setsockopt(fd, SOL_SOCKET, SO_REUSEPORT, &on, sizeof(on)) == 0 ? 0 : -errno;
#else
  (void)tcp;
  return UV_ENOTSUP;
#endif
}

/* The end of listen() and listenPath(): listener `s`, bound (`err`: how),
 * listens for `listener`. Returns its id, or a libuv error code (< 0). */
static napi_value listening(napi_env env, tx_server *s, napi_value listener, int err, int32_t backlog) {
  tx_state *tx = s->tx;
  if (err == 0) err = uv_listen(&s->io.stream, backlog > 0 ? backlog : 511, on_connection);
  if (err == 0 && slot_add(&tx->servers, s, &s->id) != 0) err = UV_ENOMEM;
  if (err != 0) {
    uv_close(&s->io.handle, on_failed_listener_closed);
    return number(env, err);
  }
  napi_value type;
  napi_create_string_utf8(env, "LLHTTP_NAPI_SERVER", NAPI_AUTO_LENGTH, &type);
  napi_create_reference(env, listener, 1, &s->object);
  napi_async_init(env, listener, type, &s->async);
  tx->open++;
  return number(env, s->id);
}

/* listen(listener, host, port, backlog, flags): a listener on host (an IP
 * address) and port, whose events the dispatch hears on the object
 * `listener` (lib/server/native-transport.js: one per listen()); flags
 * bit 1: IPv6 only, bit 2: no delay on its connections, bit 3: the port
 * shared with other listeners that ask so (SO_REUSEPORT: the kernel spreads
 * the connections; Linux only, else UV_ENOTSUP). Returns its id, or a libuv
 * error code (< 0). */
static napi_value Listen(napi_env env, napi_callback_info info) {
  size_t argc = 5;
  napi_value argv[5];
  tx_state *tx = state_of(env, info, &argc, argv);
  if (tx == NULL || argc < 5 || tx->dispatch == NULL) return number(env, UV_EINVAL);
  char host[64];
  size_t host_len;
  int32_t port, backlog, flags;
  if (napi_get_value_string_utf8(env, argv[1], host, sizeof(host), &host_len) != napi_ok ||
      napi_get_value_int32(env, argv[2], &port) != napi_ok || napi_get_value_int32(env, argv[3], &backlog) != napi_ok ||
      napi_get_value_int32(env, argv[4], &flags) != napi_ok || port < 0 || port > 65535) {
    return number(env, UV_EINVAL);
  }
  struct sockaddr_storage addr;
  int err = strchr(host, ':') != NULL ? uv_ip6_addr(host, port, (struct sockaddr_in6 *)&addr)
                                      : uv_ip4_addr(host, port, (struct sockaddr_in *)&addr);
  if (err != 0) return number(env, err);
  tx_server *s = calloc(1, sizeof(*s));
  if (s == NULL) return number(env, UV_ENOMEM);
  s->tx = tx;
  s->no_delay = (flags & 2) != 0;
  /* (The socket made now, of the address's family, for its option before
   * the bind; libuv's own flag for it is younger than some nodes' libuv.) */
  err = uv_tcp_init_ex(tx->loop, &s->io.tcp, addr.ss_family);
  if (err != 0) {
    free(s);
    return number(env, err);
  }
  s->io.handle.data = s;
  if (flags & 4) err = share_port(&s->io.tcp);
  if (err == 0) err = uv_tcp_bind(&s->io.tcp, (const struct sockaddr *)&addr, (flags & 1) ? UV_TCP_IPV6ONLY : 0);
  return listening(env, s, argv[0], err, backlog);
}

/* listenPath(listener, path, backlog): a listener on the Unix domain socket
 * at `path` for `listener`, as listen(). Returns its id, or a libuv error
 * code (< 0). */
static napi_value ListenPath(napi_env env, napi_callback_info info) {
  size_t argc = 3;
  napi_value argv[3];
  tx_state *tx = state_of(env, info, &argc, argv);
  if (tx == NULL || argc < 3 || tx->dispatch == NULL) return number(env, UV_EINVAL);
  char path[4096];
  size_t path_len;
  int32_t backlog;
  if (napi_get_value_string_utf8(env, argv[1], path, sizeof(path), &path_len) != napi_ok ||
      napi_get_value_int32(env, argv[2], &backlog) != napi_ok) {
    return number(env, UV_EINVAL);
  }
  if (path_len == 0 || path_len >= sizeof(path) - 1) return number(env, UV_EINVAL);
  tx_server *s = calloc(1, sizeof(*s));
  if (s == NULL) return number(env, UV_ENOMEM);
  s->tx = tx;
  s->is_pipe = 1;
  uv_pipe_init(tx->loop, &s->io.pipe, 0);
  s->io.handle.data = s;
  return listening(env, s, argv[0], uv_pipe_bind(&s->io.pipe, path), backlog);
}

/* listenFd(listener, fd, backlog, flags): a listener for `listener` on
 * descriptor `fd`, a TCP or Unix domain socket (bound or not: listen()
 * binds an unbound one to a port of the kernel's), as listen() does on a
 * port; flags bit 2: no delay on its connections, bit 4: listen on a copy
 * of fd (fd stays its owner's), else the listener owns fd once it opened
 * it and closes it when it closes, also when it fails to listen. Returns its id, or a libuv
 * error code (< 0): UV_EINVAL for a descriptor that is no such socket,
 * UV_EEXIST for one that a handle of this loop already watches. */
static napi_value ListenFd(napi_env env, napi_callback_info info) {
  size_t argc = 4;
  napi_value argv[4];
  tx_state *tx = state_of(env, info, &argc, argv);
  double given;
  int32_t fd, backlog, flags;
  /* (A descriptor that is no int32, as node:net: no such socket.) */
  if (tx == NULL || argc < 4 || tx->dispatch == NULL || napi_get_value_double(env, argv[1], &given) != napi_ok ||
      napi_get_value_int32(env, argv[2], &backlog) != napi_ok || napi_get_value_int32(env, argv[3], &flags) != napi_ok ||
      !(given >= 0 && given <= INT32_MAX) || (double)(int32_t)given != given) {
    return number(env, UV_EINVAL);
  }
  fd = (int32_t)given;
  int kind = socket_kind(fd);
  if (kind < 0) return number(env, kind);
  if (flags & 4) {
    fd = copy_fd(fd);
    if (fd < 0) return number(env, fd);
  }
  tx_server *s = calloc(1, sizeof(*s));
  if (s == NULL) {
    if (flags & 4) close(fd);
    return number(env, UV_ENOMEM);
  }
  s->tx = tx;
  s->is_pipe = kind == 1;
  s->no_delay = (flags & 2) != 0;
  if (s->is_pipe) uv_pipe_init(tx->loop, &s->io.pipe, 0);
  else uv_tcp_init(tx->loop, &s->io.tcp);
  s->io.handle.data = s;
  int err = s->is_pipe ? uv_pipe_open(&s->io.pipe, fd) : uv_tcp_open(&s->io.tcp, fd);
  /* (Not opened: the handle does not own fd; a copy goes here, the
   * caller's stays open, as node:net leaves it then.) */
  if (err != 0 && (flags & 4)) close(fd);
  return listening(env, s, argv[0], err, backlog);
}

/* adopt(fd, flags): a connection over a copy of descriptor `fd`, a
 * connected TCP or Unix domain socket that stays its owner's (a connection
 * node:net accepted, or one a cluster's primary sent); flags bit 2: no
 * delay. Returns its id, to accept() (or close()) at once as a
 * TX_EVENT_CONNECTION's, or a libuv error code (< 0). */
static napi_value Adopt(napi_env env, napi_callback_info info) {
  size_t argc = 2;
  napi_value argv[2];
  tx_state *tx = state_of(env, info, &argc, argv);
  int32_t fd, flags;
  if (tx == NULL || argc < 2 || napi_get_value_int32(env, argv[0], &fd) != napi_ok ||
      napi_get_value_int32(env, argv[1], &flags) != napi_ok || fd < 0) {
    return number(env, UV_EINVAL);
  }
  int kind = socket_kind(fd);
  if (kind < 0) return number(env, kind);
  int copy = copy_fd(fd);
  if (copy < 0) return number(env, copy);
  tx_conn *c = conn_new(tx, kind == 1);
  if (c == NULL) {
    close(copy);
    return number(env, UV_ENOMEM);
  }
  int err = c->is_pipe ? uv_pipe_open(&c->io.pipe, copy) : uv_tcp_open(&c->io.tcp, copy);
  if (err != 0) {
    close(copy);
    conn_close(c);
    return number(env, err);
  }
  if ((flags & 2) && !c->is_pipe) uv_tcp_nodelay(&c->io.tcp, 1);
  return number(env, c->id);
}

/* [address, family (4 or 6), port] of a sockaddr, or undefined. */
static napi_value address_value(napi_env env, int err, const struct sockaddr_storage *addr) {
  napi_value out;
  char ip[64];
  int port, family;
  if (err == 0 && addr->ss_family == AF_INET6) {
    const struct sockaddr_in6 *a = (const struct sockaddr_in6 *)addr;
    err = uv_ip6_name(a, ip, sizeof(ip));
    port = ntohs(a->sin6_port);
    family = 6;
  } else if (err == 0 && addr->ss_family == AF_INET) {
    const struct sockaddr_in *a = (const struct sockaddr_in *)addr;
    err = uv_ip4_name(a, ip, sizeof(ip));
    port = ntohs(a->sin_port);
    family = 4;
  } else {
    err = UV_EINVAL;
  }
  if (err != 0) {
    napi_get_undefined(env, &out);
    return out;
  }
  napi_value item;
  napi_create_array_with_length(env, 3, &out);
  napi_create_string_utf8(env, ip, NAPI_AUTO_LENGTH, &item);
  napi_set_element(env, out, 0, item);
  napi_set_element(env, out, 1, number(env, family));
  napi_set_element(env, out, 2, number(env, port));
  return out;
}

/* serverAddress(id): where the listener listens: [address, family, port],
 * or a Unix domain socket's path. */
static napi_value ServerAddress(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1];
  tx_state *tx = state_of(env, info, &argc, argv);
  tx_server *s = tx == NULL || argc < 1 ? NULL : slot_get(&tx->servers, uint_arg(env, argv[0]));
  if (s != NULL && !s->closing && s->is_pipe) {
    char path[4096];
    size_t len = sizeof(path);
    napi_value out;
    if (uv_pipe_getsockname(&s->io.pipe, path, &len) != 0) napi_get_undefined(env, &out);
    else napi_create_string_utf8(env, path, len, &out);
    return out;
  }
  struct sockaddr_storage addr;
  int len = sizeof(addr);
  int err = s == NULL || s->closing ? UV_EBADF : uv_tcp_getsockname(&s->io.tcp, (struct sockaddr *)&addr, &len);
  return address_value(env, err, &addr);
}

/* closeServer(id): stops listening; TX_EVENT_SERVER_CLOSE follows. */
static napi_value CloseServer(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1];
  tx_state *tx = state_of(env, info, &argc, argv);
  tx_server *s = tx == NULL || argc < 1 ? NULL : slot_get(&tx->servers, uint_arg(env, argv[0]));
  if (s != NULL && !s->closing) {
    s->closing = 1;
    uv_close(&s->io.handle, on_server_closed);
  }
  return NULL;
}

/* refServer(id, ref): whether the listener keeps the loop alive. */
static napi_value RefServer(napi_env env, napi_callback_info info) {
  size_t argc = 2;
  napi_value argv[2];
  tx_state *tx = state_of(env, info, &argc, argv);
  tx_server *s = tx == NULL || argc < 2 ? NULL : slot_get(&tx->servers, uint_arg(env, argv[0]));
  bool ref = false;
  if (s != NULL && !s->closing && napi_get_value_bool(env, argv[1], &ref) == napi_ok) {
    if (ref) uv_ref(&s->io.handle);
    else uv_unref(&s->io.handle);
  }
  return NULL;
}

/* accept(id, socket): `socket` is connection id's object from now on (its
 * events: the dispatch's on it, in an async context of its own). Returns
 * whether the connection is still there. */
static napi_value Accept(napi_env env, napi_callback_info info) {
  size_t argc = 2;
  napi_value argv[2];
  tx_state *tx = state_of(env, info, &argc, argv);
  tx_conn *c = tx == NULL || argc < 2 ? NULL : conn_arg(tx, env, argv[0]);
  napi_value out;
  if (c == NULL || c->object != NULL) {
    napi_get_boolean(env, false, &out);
    return out;
  }
  napi_value type;
  napi_create_string_utf8(env, "LLHTTP_NAPI_SOCKET", NAPI_AUTO_LENGTH, &type);
  napi_create_reference(env, argv[1], 1, &c->object);
  napi_async_init(env, argv[1], type, &c->async);
  napi_get_boolean(env, true, &out);
  return out;
}

/* callIn(id, fn, arg): fn(arg) called with the connection's object as
 * `this`, in the connection's async context, as its events are; returns
 * what fn returns (undefined when the connection is gone). What is made
 * there is triggered by the connection, as what node:http makes for a
 * socket is triggered by the socket. */
static napi_value CallIn(napi_env env, napi_callback_info info) {
  size_t argc = 3;
  napi_value argv[3];
  tx_state *tx = state_of(env, info, &argc, argv);
  tx_conn *c = tx == NULL || argc < 3 ? NULL : conn_arg(tx, env, argv[0]);
  napi_value recv, out = NULL;
  if (c == NULL || c->object == NULL || napi_get_reference_value(env, c->object, &recv) != napi_ok) return NULL;
  if (napi_make_callback(env, c->async, recv, argv[1], 1, &argv[2], &out) != napi_ok) return NULL;
  return out;
}

/* readStart(id), readStop(id): reading on or off. Return a libuv code. */
static napi_value ReadStart(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1];
  tx_state *tx = state_of(env, info, &argc, argv);
  tx_conn *c = tx == NULL || argc < 1 ? NULL : conn_arg(tx, env, argv[0]);
  int err = c == NULL ? UV_EBADF : uv_read_start(&c->io.stream, on_alloc, on_read);
  return number(env, err == UV_EALREADY ? 0 : err);
}

static napi_value ReadStop(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1];
  tx_state *tx = state_of(env, info, &argc, argv);
  tx_conn *c = tx == NULL || argc < 1 ? NULL : conn_arg(tx, env, argv[0]);
  return number(env, c == NULL ? UV_EBADF : uv_read_stop(&c->io.stream));
}

/* parseWith(id, parserId): the parser to parse the connection's next read
 * with here (-1: none; JavaScript parses it). A read's call also answers it
 * (dispatch_read()); this withdraws that answer when JavaScript's parser
 * has something to do before its next parse. */
static napi_value ParseWith(napi_env env, napi_callback_info info) {
  size_t argc = 2;
  napi_value argv[2];
  tx_state *tx = state_of(env, info, &argc, argv);
  tx_conn *c = tx == NULL || argc < 2 ? NULL : conn_arg(tx, env, argv[0]);
  int32_t parser = -1;
  if (c != NULL && napi_get_value_int32(env, argv[1], &parser) == napi_ok) {
    c->parser_id = parser < 0 ? NO_ID : (uint32_t)parser;
    if (parser < 0) c->parse_withdrawn = 1;
  }
  return NULL;
}

static int reserve_scratch(tx_state *tx, size_t need) {
  if (need <= tx->scratch_cap) return 0;
  size_t cap = tx->scratch_cap ? tx->scratch_cap : 4096;
  while (cap < need) cap *= 2;
  char *block = realloc(tx->scratch, cap);
  if (block == NULL) return -1;
  tx->scratch = block;
  tx->scratch_cap = cap;
  return 0;
}

/* Encodings of write()'s strings. */
enum { TX_BYTES = 0, TX_UTF8 = 1, TX_LATIN1 = 2 };

/* The length in bytes of string `value` encoded as `kind` (TX_UTF8 or
 * TX_LATIN1), at most: latin1 is one byte per code unit; UTF-8 at most
 * three (a surrogate pair, two units, is four), so that the string is
 * encoded in one pass, with no pass to measure it first. */
static napi_status string_room(napi_env env, napi_value value, int kind, size_t *room) {
  size_t units = 0;
  napi_status st = napi_get_value_string_utf16(env, value, NULL, 0, &units);
  *room = kind == TX_LATIN1 ? units : units * 3;
  return st;
}

/* write(id, data, encoding) or write(id, chunks): one piece of data, a
 * Uint8Array (encoding 0) or a string (1: UTF-8, 2: latin1), or chunks
 * [data, encoding, ...] (a corked write), written in order after what is
 * queued. Returns the bytes still queued after it (0: all written now), or
 * a libuv error code (< 0). */
static napi_value Write(napi_env env, napi_callback_info info) {
  size_t argc = 3;
  napi_value argv[3];
  tx_state *tx = state_of(env, info, &argc, argv);
  tx_conn *c = tx == NULL || argc < 2 ? NULL : conn_arg(tx, env, argv[0]);
  if (c == NULL) return number(env, UV_EBADF);
  /* (One piece: its two arguments stand for a list of one.) */
  int single = argc >= 3;
  uint32_t n = 2;
  if (!single && napi_get_array_length(env, argv[1], &n) != napi_ok) return number(env, UV_EBADF);
  uint32_t count = n / 2;
  napi_value inline_values[TX_INLINE_CHUNKS];
  int inline_kinds[TX_INLINE_CHUNKS];
  uv_buf_t inline_bufs[TX_INLINE_CHUNKS];
  napi_value *values = inline_values;
  int *kinds = inline_kinds;
  uv_buf_t *bufs = inline_bufs;
  int err = 0;
  if (count > TX_INLINE_CHUNKS) {
    values = malloc(count * sizeof(*values));
    kinds = malloc(count * sizeof(*kinds));
    bufs = malloc(count * sizeof(*bufs));
    if (values == NULL || kinds == NULL || bufs == NULL) {
      err = UV_ENOMEM;
      goto done;
    }
  }
  /* Strings first (encoding one may allocate in the heap), then the
   * buffers' bytes, which stay where they are until the call returns. */
  size_t text = 0;
  for (uint32_t i = 0; i < count; i++) {
    napi_value kind;
    int32_t k = TX_BYTES;
    if (single) {
      values[i] = argv[1];
      kind = argv[2];
    } else {
      napi_get_element(env, argv[1], 2 * i, &values[i]);
      napi_get_element(env, argv[1], 2 * i + 1, &kind);
    }
    napi_get_value_int32(env, kind, &k);
    kinds[i] = k;
    if (k == TX_BYTES) continue;
    size_t room = 0;
    if (string_room(env, values[i], k, &room) != napi_ok) {
      err = UV_EINVAL;
      goto done;
    }
    bufs[i].len = room;
    text += room;
  }
  if (reserve_scratch(tx, text + 1) != 0) {
    err = UV_ENOMEM;
    goto done;
  }
  size_t at = 0, total = 0;
  for (uint32_t i = 0; i < count; i++) {
    if (kinds[i] == TX_BYTES) {
      napi_typedarray_type type;
      size_t length = 0;
      void *bytes = NULL;
      if (napi_get_typedarray_info(env, values[i], &type, &length, &bytes, NULL, NULL) != napi_ok ||
          type != napi_uint8_array) {
        err = UV_EINVAL;
        goto done;
      }
      bufs[i] = uv_buf_init(bytes, (unsigned)length);
    } else {
      /* (room + 1: the terminator napi writes; the next string starts on it) */
      size_t room = bufs[i].len, copied = 0;
      if (kinds[i] == TX_LATIN1) napi_get_value_string_latin1(env, values[i], tx->scratch + at, room + 1, &copied);
      else napi_get_value_string_utf8(env, values[i], tx->scratch + at, room + 1, &copied);
      bufs[i] = uv_buf_init(tx->scratch + at, (unsigned)copied);
      at += copied;
    }
    total += bufs[i].len;
  }
  c->handed += (double)total;
  size_t written = 0;
  if (c->queued == 0 && total > 0) {
    int r = uv_try_write(&c->io.stream, bufs, count);
    if (r == UV_EAGAIN || r == UV_ENOSYS) r = 0;
    if (r < 0) {
      err = r;
      goto done;
    }
    written = (size_t)r;
  }
  conn_refresh(c);
  if (written == total && c->queued == 0) goto done;
  /* The rest, in one request after what is queued. */
  size_t rest = total - written;
  tx_write *w = malloc(sizeof(*w) + rest);
  if (w == NULL) {
    err = UV_ENOMEM;
    goto done;
  }
  w->conn = c;
  w->len = rest;
  size_t skip = written, put = 0;
  for (uint32_t i = 0; i < count; i++) {
    size_t len = bufs[i].len;
    if (skip >= len) {
      skip -= len;
      continue;
    }
    memcpy(w->bytes + put, bufs[i].base + skip, len - skip);
    put += len - skip;
    skip = 0;
  }
  uv_buf_t buf = uv_buf_init(w->bytes, (unsigned)rest);
  err = uv_write(&w->req, &c->io.stream, &buf, 1, on_written);
  if (err != 0) {
    free(w);
    goto done;
  }
  c->queued += rest;
done:
  if (values != inline_values) {
    free(values);
    free(kinds);
    free(bufs);
  }
  return number(env, err != 0 ? err : (double)c->queued);
}

/* shutdown(id): ends our side after the queued writes; TX_EVENT_FINISHED
 * follows. Returns a libuv code. */
static napi_value Shutdown(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1];
  tx_state *tx = state_of(env, info, &argc, argv);
  tx_conn *c = tx == NULL || argc < 1 ? NULL : conn_arg(tx, env, argv[0]);
  if (c == NULL) return number(env, UV_EBADF);
  uv_shutdown_t *req = malloc(sizeof(*req));
  if (req == NULL) return number(env, UV_ENOMEM);
  req->data = c;
  int err = uv_shutdown(req, &c->io.stream, on_shutdown);
  if (err != 0) free(req);
  return number(env, err);
}

/* close(id): closes the connection now (a reset when the peer's bytes are
 * unread, as node:net's destroy()); TX_EVENT_CLOSE follows. */
static napi_value Close(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1];
  tx_state *tx = state_of(env, info, &argc, argv);
  tx_conn *c = tx == NULL || argc < 1 ? NULL : conn_arg(tx, env, argv[0]);
  if (c != NULL) conn_close(c);
  return NULL;
}

/* handOver(id): the connection's socket for a net.Socket of node's (an
 * upgrade, a CONNECT): a copy of its descriptor, made when nothing is queued
 * to write; the connection stops reading (what the peer sends next stays in
 * the kernel for the new owner) and closes here, which closes only this
 * descriptor: TX_EVENT_CLOSE follows. Returns the copy, or a libuv error
 * code (UV_EBUSY: writes still queued). */
static napi_value HandOver(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1];
  tx_state *tx = state_of(env, info, &argc, argv);
  tx_conn *c = tx == NULL || argc < 1 ? NULL : conn_arg(tx, env, argv[0]);
  if (c == NULL || c->closing) return number(env, UV_EBADF);
  if (c->queued > 0) return number(env, UV_EBUSY);
  uv_os_fd_t fd;
  int err = uv_fileno(&c->io.handle, &fd);
  if (err != 0) return number(env, err);
  int copy = copy_fd(fd);
  if (copy < 0) return number(env, copy);
  uv_read_stop(&c->io.stream);
  conn_close(c);
  return number(env, copy);
}

/* bytesWritten(id): the bytes handed to write() since the connection was
 * accepted, written or queued (node:net's socket.bytesWritten). */
static napi_value BytesWritten(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1];
  tx_state *tx = state_of(env, info, &argc, argv);
  tx_conn *c = tx == NULL || argc < 1 ? NULL : conn_arg(tx, env, argv[0]);
  return number(env, c == NULL ? 0 : c->handed);
}

/* setTimeout(id, ms): the idle timeout (0: none), counted from now. */
static napi_value SetTimeout(napi_env env, napi_callback_info info) {
  size_t argc = 2;
  napi_value argv[2];
  tx_state *tx = state_of(env, info, &argc, argv);
  tx_conn *c = tx == NULL || argc < 2 ? NULL : conn_arg(tx, env, argv[0]);
  double ms = 0;
  if (c == NULL || napi_get_value_double(env, argv[1], &ms) != napi_ok) return NULL;
  c->timeout_ms = ms > 0 ? (uint64_t)ms : 0;
  c->active_at = uv_now(tx->loop);
  /* (A timer due later than the new timeout starts again; one due sooner
   * finds what is left when it fires.) */
  if (c->timeout_ms != 0 && !c->closing &&
      (!uv_is_active((uv_handle_t *)&c->timer) || uv_timer_get_due_in(&c->timer) > c->timeout_ms)) {
    uv_timer_start(&c->timer, on_timeout, c->timeout_ms, 0);
  }
  return NULL;
}

/* setOption(id, which, on, delay): 1 no delay, 2 keep-alive (delay in s). */
static napi_value SetOption(napi_env env, napi_callback_info info) {
  size_t argc = 4;
  napi_value argv[4];
  tx_state *tx = state_of(env, info, &argc, argv);
  tx_conn *c = tx == NULL || argc < 4 ? NULL : conn_arg(tx, env, argv[0]);
  int32_t which = 0, delay = 0;
  bool on = false;
  if (c == NULL || napi_get_value_int32(env, argv[1], &which) != napi_ok ||
      napi_get_value_bool(env, argv[2], &on) != napi_ok || napi_get_value_int32(env, argv[3], &delay) != napi_ok) {
    return number(env, UV_EINVAL);
  }
  /* (Neither applies to a Unix domain socket: nothing, as node:net.) */
  if (c->is_pipe) return number(env, 0);
  int err = which == 1 ? uv_tcp_nodelay(&c->io.tcp, on) : uv_tcp_keepalive(&c->io.tcp, on, (unsigned)delay);
  return number(env, err);
}

/* peer(id), local(id): [address, family, port] of either end, or undefined
 * (a Unix domain socket's). */
static napi_value Peer(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1];
  tx_state *tx = state_of(env, info, &argc, argv);
  tx_conn *c = tx == NULL || argc < 1 ? NULL : conn_arg(tx, env, argv[0]);
  struct sockaddr_storage addr;
  int len = sizeof(addr);
  int err = c == NULL || c->is_pipe ? UV_EBADF : uv_tcp_getpeername(&c->io.tcp, (struct sockaddr *)&addr, &len);
  return address_value(env, err, &addr);
}

static napi_value Local(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1];
  tx_state *tx = state_of(env, info, &argc, argv);
  tx_conn *c = tx == NULL || argc < 1 ? NULL : conn_arg(tx, env, argv[0]);
  struct sockaddr_storage addr;
  int len = sizeof(addr);
  int err = c == NULL || c->is_pipe ? UV_EBADF : uv_tcp_getsockname(&c->io.tcp, (struct sockaddr *)&addr, &len);
  return address_value(env, err, &addr);
}

/* ---- the environment's end ---------------------------------------------------- */

static void free_state(tx_state *tx) {
  free(tx->conns.items);
  free(tx->conns.free_ids);
  free(tx->servers.items);
  free(tx->servers.free_ids);
  free(tx->scratch);
  free(tx);
}

/* The environment's end, once every handle is closed: the hook goes (the
 * environment goes on with its end) and the state with it (no JavaScript
 * runs any more to call the functions that hold it). */
static void end_cleanup(tx_state *tx) {
  if (tx->dispatch != NULL) napi_delete_reference(tx->env, tx->dispatch);
  if (tx->read_buffer != NULL) napi_delete_reference(tx->env, tx->read_buffer);
  napi_remove_async_cleanup_hook(tx->cleanup);
  free_state(tx);
}

/* Closes every handle with no word to JavaScript; end_cleanup() once libuv
 * closed them all. */
static void on_cleanup(napi_async_cleanup_hook_handle handle, void *arg) {
  tx_state *tx = arg;
  tx->tearing_down = 1;
  tx->cleanup = handle;
  for (uint32_t i = 0; i < tx->conns.count; i++) {
    tx_conn *c = tx->conns.items[i];
    if (c != NULL) conn_close(c);
  }
  for (uint32_t i = 0; i < tx->servers.count; i++) {
    tx_server *s = tx->servers.items[i];
    if (s != NULL && !s->closing) {
      s->closing = 1;
      uv_close(&s->io.handle, on_server_closed);
    }
  }
  if (tx->open == 0) end_cleanup(tx);
}

napi_status lhn_transport_register(napi_env env, napi_value exports, const lhn_transport_parsing *parsing) {
  tx_state *tx = calloc(1, sizeof(*tx));
  if (tx == NULL) return napi_generic_failure;
  tx->env = env;
  tx->parsing = parsing;
  napi_status st = napi_get_uv_event_loop(env, &tx->loop);
  if (st != napi_ok) {
    free(tx);
    return st;
  }
  napi_value object;
  st = napi_create_object(env, &object);
  if (st != napi_ok) {
    free(tx);
    return st;
  }
  static const struct {
    const char *name;
    napi_callback cb;
  } functions[] = {
      {"init", Init},         {"listen", Listen},         {"listenPath", ListenPath},         {"listenFd", ListenFd},
      {"adopt", Adopt},       {"serverAddress", ServerAddress},
      {"closeServer", CloseServer}, {"refServer", RefServer}, {"accept", Accept}, {"callIn", CallIn},
      {"readStart", ReadStart}, {"readStop", ReadStop},   {"write", Write},
      {"parseWith", ParseWith},
      {"shutdown", Shutdown}, {"close", Close},           {"handOver", HandOver}, {"bytesWritten", BytesWritten},
      {"setTimeout", SetTimeout},
      {"setOption", SetOption}, {"peer", Peer},           {"local", Local},
  };
  for (size_t i = 0; i < sizeof(functions) / sizeof(functions[0]); i++) {
    napi_value fn;
    st = napi_create_function(env, functions[i].name, NAPI_AUTO_LENGTH, functions[i].cb, tx, &fn);
    if (st == napi_ok) st = napi_set_named_property(env, object, functions[i].name, fn);
    if (st != napi_ok) return st;
  }
  static const struct {
    const char *name;
    int value;
  } events[] = {
      {"CONNECTION", TX_EVENT_CONNECTION}, {"READ", TX_EVENT_READ}, {"END", TX_EVENT_END},
      {"READ_ERROR", TX_EVENT_READ_ERROR}, {"WRITTEN", TX_EVENT_WRITTEN}, {"WRITE_ERROR", TX_EVENT_WRITE_ERROR},
      {"FINISHED", TX_EVENT_FINISHED}, {"TIMEOUT", TX_EVENT_TIMEOUT}, {"CLOSE", TX_EVENT_CLOSE},
      {"ACCEPT_ERROR", TX_EVENT_ACCEPT_ERROR}, {"SERVER_CLOSE", TX_EVENT_SERVER_CLOSE},
      {"READ_PARSED", TX_EVENT_READ_PARSED},
  };
  napi_value kinds;
  napi_create_object(env, &kinds);
  for (size_t i = 0; i < sizeof(events) / sizeof(events[0]); i++) {
    napi_set_named_property(env, kinds, events[i].name, number(env, events[i].value));
  }
  napi_set_named_property(env, object, "events", kinds);
  napi_set_named_property(env, object, "readBufferSize", number(env, TX_READ_BUFFER_SIZE));
  st = napi_add_async_cleanup_hook(env, on_cleanup, tx, NULL);
  if (st != napi_ok) return st;
  return napi_set_named_property(env, exports, "transport", object);
}
