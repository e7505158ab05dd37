/*
 * The floor of a server's CPU per request for benchmark/server.js
 * (--floor): an epoll loop on 127.0.0.1 that reads each connection's bytes
 * and, for every end of a head in them (CRLF CRLF, also across reads),
 * writes one fixed answer the size of node:http's hello, in one write per
 * read: what any server on this kernel pays at least for a bodiless
 * keep-alive request, with the same one read and one write per request.
 *
 *   floor-server            prints {"port":N} once it listens, then serves
 *                           until killed; at each SIGUSR1 prints
 *                           {"answered":N}, the answers written so far
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

static const char ANSWER[] =
    "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 11\r\n"
    "Date: Sun, 06 Dec 2026 09:00:00 GMT\r\nConnection: keep-alive\r\nKeep-Alive: timeout=60\r\n\r\nHello World";
#define ANSWER_LENGTH (sizeof ANSWER - 1)
#define MAX_ANSWERS 64

/* A connection: its descriptor and how much of CRLF CRLF its last read ended in. */
typedef struct {
  int fd;
  int matched;
} connection;

static const char HEAD_END[] = "\r\n\r\n";

static volatile sig_atomic_t report_asked;

static void on_report(int sig) {
  (void)sig;
  report_asked = 1;
}

int main(void) {
  int one = 1;
  int listener = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
  struct sockaddr_in address = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
  socklen_t size = sizeof address;
  if (listener < 0 || bind(listener, (struct sockaddr *)&address, sizeof address) != 0 || listen(listener, 511) != 0 ||
      getsockname(listener, (struct sockaddr *)&address, &size) != 0) {
    perror("listen");
    return 2;
  }
  int epoll_fd = epoll_create1(0);
  struct epoll_event ev = { .events = EPOLLIN, .data.ptr = NULL };
  epoll_ctl(epoll_fd, EPOLL_CTL_ADD, listener, &ev);
  printf("{\"port\":%d}\n", ntohs(address.sin_port));
  fflush(stdout);

  static char buf[1 << 16];
  static char answers[MAX_ANSWERS * ANSWER_LENGTH];
  for (int i = 0; i < MAX_ANSWERS; i++) memcpy(answers + i * ANSWER_LENGTH, ANSWER, ANSWER_LENGTH);
  struct epoll_event events[256];
  unsigned long long answered = 0;
  signal(SIGUSR1, on_report);
  for (;;) {
    int n = epoll_wait(epoll_fd, events, 256, -1);
    if (n < 0 && errno != EINTR) return 2;
    if (report_asked) {
      report_asked = 0;
      printf("{\"answered\":%llu}\n", answered);
      fflush(stdout);
    }
    for (int i = 0; i < n; i++) {
      connection *c = events[i].data.ptr;
      if (c == NULL) {
        int fd;
        while ((fd = accept4(listener, NULL, NULL, SOCK_NONBLOCK)) >= 0) {
          setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
          c = calloc(1, sizeof *c);
          c->fd = fd;
          struct epoll_event e = { .events = EPOLLIN, .data.ptr = c };
          epoll_ctl(epoll_fd, EPOLL_CTL_ADD, fd, &e);
        }
        continue;
      }
      ssize_t got = read(c->fd, buf, sizeof buf);
      if (got < 0 && errno == EAGAIN) continue;
      if (got <= 0) {
        close(c->fd);
        free(c);
        continue;
      }
      int heads = 0;
      for (ssize_t j = 0; j < got; j++) {
        c->matched = buf[j] == HEAD_END[c->matched] ? c->matched + 1 : (buf[j] == '\r' ? 1 : 0);
        if (c->matched == 4) {
          heads++;
          c->matched = 0;
        }
      }
      /* (a client with one request in flight has at most one head a read) */
      if (heads > MAX_ANSWERS) heads = MAX_ANSWERS;
      answered += (unsigned long long)heads;
      if (heads > 0 && write(c->fd, answers, (size_t)heads * ANSWER_LENGTH) < 0 && errno != EAGAIN) {
        close(c->fd);
        free(c);
      }
    }
  }
}
