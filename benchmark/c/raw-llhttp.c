/*
 * Raw llhttp throughput: llhttp_execute() on one request, then llhttp_init()
 * (what Node's built-in parser and our core both do on initialize()), in a
 * loop. The settings set the same callbacks our core (and the built-in) set,
 * each a no-op, so that llhttp takes the same paths. The physical limit of
 * any llhttp-based parser; benchmark/raw-llhttp.js builds and runs it on the
 * bytes of benchmark/parser.js's repeated request.
 *
 *   raw-llhttp REQUEST_FILE [n] [repeats] [label] [frags] [wall|cpu]
 *
 * With frags > 1 the request is split into that many pieces of (nearly)
 * equal size, as benchmark/parser.js frags=N does, each given to its own
 * llhttp_execute(). With `cpu` the time is the process's CPU time
 * (CLOCK_PROCESS_CPUTIME_ID), as the JavaScript benchmarks' --clock=cpu.
 * Prints one line per repeat in Node's benchmark format (ops/s).
 */
#define _POSIX_C_SOURCE 199309L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <llhttp.h>

/* The llhttp fetched by scripts/install/llhttp.js (Debian's static library)
 * has its one reference to stderr renamed to this (see src/core/lhn_llhttp.c). */
FILE *lhn_llhttp_stderr;

static int noop(llhttp_t *p) { (void)p; return 0; }
static int noop_data(llhttp_t *p, const char *at, size_t len) {
  (void)p; (void)at; (void)len;
  return 0;
}

static clockid_t clock_id = CLOCK_MONOTONIC;

static double now_s(void) {
  struct timespec ts;
  clock_gettime(clock_id, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void print_rate(const char *label, long n, double rate) {
  /* Node's format: thousands separators, one decimal. */
  char digits[64], grouped[96];
  long whole = (long)rate;
  int tenth = (int)((rate - (double)whole) * 10.0 + 0.5);
  if (tenth == 10) { whole++; tenth = 0; }
  snprintf(digits, sizeof digits, "%ld", whole);
  size_t len = strlen(digits), j = 0;
  for (size_t i = 0; i < len; i++) {
    if (i > 0 && (len - i) % 3 == 0) grouped[j++] = ',';
    grouped[j++] = digits[i];
  }
  grouped[j] = '\0';
  printf("c/raw-llhttp.c n=%ld %s: %s.%d\n", n, label, grouped, tenth);
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s REQUEST_FILE [n] [repeats] [label] [frags] [wall|cpu]\n", argv[0]);
    return 2;
  }
  long n = argc > 2 ? atol(argv[2]) : 2000000;
  int repeats = argc > 3 ? atoi(argv[3]) : 5;
  const char *label = argc > 4 ? argv[4] : "";
  long frags = argc > 5 ? atol(argv[5]) : 1;
  if (frags < 1) frags = 1;
  if (argc > 6 && strcmp(argv[6], "cpu") == 0) clock_id = CLOCK_PROCESS_CPUTIME_ID;

  FILE *f = fopen(argv[1], "rb");
  if (!f) { perror(argv[1]); return 1; }
  static char buf[1 << 16];
  size_t len = fread(buf, 1, sizeof buf, f);
  fclose(f);

  llhttp_settings_t settings;
  llhttp_settings_init(&settings);
  llhttp_cb *events[] = { &settings.on_message_begin, &settings.on_headers_complete,
    &settings.on_message_complete, &settings.on_chunk_header, &settings.on_chunk_complete };
  llhttp_data_cb *spans[] = { &settings.on_url, &settings.on_status, &settings.on_header_field,
    &settings.on_header_value, &settings.on_chunk_extension_name, &settings.on_chunk_extension_value,
    &settings.on_body };
  for (size_t i = 0; i < sizeof events / sizeof events[0]; i++) *events[i] = noop;
  for (size_t i = 0; i < sizeof spans / sizeof spans[0]; i++) *spans[i] = noop_data;

  llhttp_t parser;
  llhttp_init(&parser, HTTP_REQUEST, &settings);
  llhttp_errno_t err = llhttp_execute(&parser, buf, len);
  if (err != HPE_OK) {
    fprintf(stderr, "the request does not parse: %s (%s)\n", llhttp_errno_name(err),
            llhttp_get_error_reason(&parser));
    return 1;
  }

  /* Fragment boundaries: pieces of ceil(len / frags) bytes. */
  size_t size = (len + (size_t)frags - 1) / (size_t)frags;
  if (size == 0) size = 1;

  volatile unsigned sink = 0;
  for (int r = 0; r < repeats; r++) {
    double t0 = now_s();
    for (long i = 0; i < n; i++) {
      llhttp_init(&parser, HTTP_REQUEST, &settings);
      if (frags == 1) {
        sink += (unsigned)llhttp_execute(&parser, buf, len);
      } else {
        for (size_t at = 0; at < len; at += size) {
          size_t piece = len - at < size ? len - at : size;
          sink += (unsigned)llhttp_execute(&parser, buf + at, piece);
        }
      }
    }
    double t1 = now_s();
    print_rate(label, n, (double)n / (t1 - t0));
  }
  return sink == 0xdeadbeef; /* keeps the loop's result observable */
}
