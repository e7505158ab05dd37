/*
 * A keep-alive HTTP/1.1 load client in C for benchmark/server.js
 * (--client=c): CONNECTIONS connections to 127.0.0.1:PORT, each with one
 * request in flight at a time, the next sent when llhttp has read the whole
 * answer. A client in Node (autocannon) spends more CPU per request than
 * the servers it loads, so that on two cores it, not the server, sets the
 * pace; this one leaves the server on its core busy.
 *
 *   load-client PORT CONNECTIONS SECONDS REQUESTS_FILE
 *
 * REQUESTS_FILE holds the requests' bytes, each after its length (4 bytes,
 * little-endian); connection i starts at request i and goes round the list.
 * It runs SECONDS or until SIGTERM / SIGINT, then prints one JSON line:
 * {"requests":N,"errors":E,"non2xx":M} (answers read, connections that
 * failed and were made again, answers whose status was not 2xx).
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <llhttp.h>

/* The llhttp fetched by scripts/install/llhttp.js (Debian's static library)
 * has its one reference to stderr renamed to this (see src/core/lhn_llhttp.c). */
FILE *lhn_llhttp_stderr;

typedef struct {
  const char *bytes;
  uint32_t len;
} request;

typedef struct {
  int fd;
  size_t next;      /* the request to send next */
  size_t sent;      /* bytes of the current request written */
  int writing;      /* the current request is not all written */
  llhttp_t parser;
} connection;

static request *requests;
static size_t request_count;
static struct sockaddr_in target;
static int epoll_fd;
static unsigned long long answered, errors, non2xx;
static volatile sig_atomic_t stopping;

static void on_signal(int sig) {
  (void)sig;
  stopping = 1;
}

static int on_message_complete(llhttp_t *p) {
  if (p->status_code < 200 || p->status_code > 299) non2xx++;
  /* (the next answer is read after the next request is sent) */
  return HPE_PAUSED;
}

static llhttp_settings_t settings;

static void load_file(const char *name) {
  FILE *f = fopen(name, "rb");
  if (f == NULL) { perror(name); exit(2); }
  fseek(f, 0, SEEK_END);
  long size = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *data = malloc((size_t)size);
  if (data == NULL || fread(data, 1, (size_t)size, f) != (size_t)size) { fprintf(stderr, "%s: unreadable\n", name); exit(2); }
  fclose(f);
  size_t cap = 16;
  requests = malloc(cap * sizeof(request));
  for (long at = 0; at + 4 <= size;) {
    uint32_t len = (uint32_t)(unsigned char)data[at] | (uint32_t)(unsigned char)data[at + 1] << 8 |
                   (uint32_t)(unsigned char)data[at + 2] << 16 | (uint32_t)(unsigned char)data[at + 3] << 24;
    at += 4;
    if (len == 0 || at + (long)len > size) { fprintf(stderr, "%s: a record past the end\n", name); exit(2); }
    if (request_count == cap) requests = realloc(requests, (cap *= 2) * sizeof(request));
    requests[request_count++] = (request){ data + at, len };
    at += len;
  }
  if (request_count == 0) { fprintf(stderr, "%s: no request\n", name); exit(2); }
}

static void watch(connection *c, uint32_t events, int op) {
  struct epoll_event ev = { .events = events, .data.ptr = c };
  if (epoll_ctl(epoll_fd, op, c->fd, &ev) != 0) { perror("epoll_ctl"); exit(2); }
}

/* Writes what is left of the current request; 0, or -1 when the connection failed. */
static int send_request(connection *c) {
  const request *r = &requests[c->next];
  while (c->sent < r->len) {
    ssize_t n = write(c->fd, r->bytes + c->sent, r->len - c->sent);
    if (n < 0) {
      if (errno == EAGAIN) {
        if (!c->writing) watch(c, EPOLLIN | EPOLLOUT, EPOLL_CTL_MOD);
        c->writing = 1;
        return 0;
      }
      return -1;
    }
    c->sent += (size_t)n;
  }
  if (c->writing) watch(c, EPOLLIN, EPOLL_CTL_MOD);
  c->writing = 0;
  return 0;
}

static void connect_to(connection *c) {
  int one = 1;
  c->fd = socket(AF_INET, SOCK_STREAM, 0);
  if (c->fd < 0 || connect(c->fd, (struct sockaddr *)&target, sizeof target) != 0) { perror("connect"); exit(2); }
  setsockopt(c->fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  fcntl(c->fd, F_SETFL, O_NONBLOCK);
  llhttp_init(&c->parser, HTTP_RESPONSE, &settings);
  c->parser.data = c;
  c->sent = 0;
  c->writing = 0;
  watch(c, EPOLLIN, EPOLL_CTL_ADD);
  if (send_request(c) != 0) { perror("write"); exit(2); }
}

static void reconnect(connection *c) {
  errors++;
  close(c->fd);
  connect_to(c);
}

static void on_readable(connection *c) {
  static char buf[1 << 16];
  for (;;) {
    ssize_t n = read(c->fd, buf, sizeof buf);
    if (n < 0 && errno == EAGAIN) return;
    if (n <= 0) { reconnect(c); return; }
    const char *at = buf, *end = buf + n;
    while (at < end) {
      llhttp_errno_t err = llhttp_execute(&c->parser, at, (size_t)(end - at));
      if (err == HPE_OK) break;
      if (err != HPE_PAUSED) { reconnect(c); return; }
      at = llhttp_get_error_pos(&c->parser);
      llhttp_resume(&c->parser);
      answered++;
      c->next = (c->next + 1) % request_count;
      c->sent = 0;
      if (send_request(c) != 0) { reconnect(c); return; }
    }
    if ((size_t)n < sizeof buf) return;
  }
}

int main(int argc, char **argv) {
  if (argc != 5) {
    fprintf(stderr, "usage: load-client PORT CONNECTIONS SECONDS REQUESTS_FILE\n");
    return 2;
  }
  int port = atoi(argv[1]), count = atoi(argv[2]);
  double seconds = atof(argv[3]);
  load_file(argv[4]);
  llhttp_settings_init(&settings);
  settings.on_message_complete = on_message_complete;
  target.sin_family = AF_INET;
  target.sin_port = htons((uint16_t)port);
  target.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  signal(SIGTERM, on_signal);
  signal(SIGINT, on_signal);
  signal(SIGPIPE, SIG_IGN);
  epoll_fd = epoll_create1(0);
  connection *conns = calloc((size_t)count, sizeof(connection));
  for (int i = 0; i < count; i++) {
    conns[i].next = (size_t)i % request_count;
    connect_to(&conns[i]);
  }
  struct timespec start, now;
  clock_gettime(CLOCK_MONOTONIC, &start);
  struct epoll_event events[256];
  while (!stopping) {
    int n = epoll_wait(epoll_fd, events, 256, 100);
    if (n < 0 && errno != EINTR) { perror("epoll_wait"); return 2; }
    for (int i = 0; i < n; i++) {
      connection *c = events[i].data.ptr;
      if ((events[i].events & EPOLLOUT) && send_request(c) != 0) { reconnect(c); continue; }
      if (events[i].events & (EPOLLIN | EPOLLHUP | EPOLLERR)) on_readable(c);
    }
    clock_gettime(CLOCK_MONOTONIC, &now);
    if ((double)(now.tv_sec - start.tv_sec) + (double)(now.tv_nsec - start.tv_nsec) / 1e9 >= seconds) break;
  }
  printf("{\"requests\":%llu,\"errors\":%llu,\"non2xx\":%llu}\n", answered, errors, non2xx);
  return 0;
}
