/*
** stream.c — validation program: scalar read or write loops. T threads each make P passes over a
** private buffer of S bytes, 8 bytes at a time through a volatile pointer (one load or store per
** word, never merged into vector accesses: calibrate's t_read_SIZE / t_write_SIZE kernels), a
** read pass summing the words, a write pass storing the pass number. Usage: stream T S P r|w.
** Prints the wall time of the parallel part in seconds. Modelled by models/validate_stream.pam.
*/
#include <pthread.h>
#include <stdint.h>
#include <string.h>
#include "vclock.h"

#define STREAM_MAX_THREADS 256    /* more threads than any configuration of the driver */

typedef struct StreamJob {
  uint64_t *buf;                  /* this thread's buffer */
  size_t words;                   /* its length in 8-byte words */
  long passes;                    /* P */
  int write;                      /* 1: store, 0: load and sum */
  uint64_t sum;                   /* the read sum (sunk by main) */
} StreamJob;

/* The loop bounds are copied to locals: a store through a uint64_t pointer may alias job->words
** (a size_t), so `i < job->words` made the compiler reload it after every store, a load per word
** that the write loop was not meant to have (it ran 12-15% slower than calibrate's sweep). */
static void *stream_worker(void *arg) {
  StreamJob *job = arg;
  volatile uint64_t *v = job->buf;
  uint64_t s = 0;
  size_t words = job->words;
  long passes = job->passes;
  for (long p = 0; p < passes; p++) {
    if (job->write)
      for (size_t i = 0; i < words; i++) v[i] = (uint64_t)p;
    else
      for (size_t i = 0; i < words; i++) s += v[i];
  }
  job->sum = s;
  return NULL;
}

int main(int argc, char **argv) {
  const char *usage = "T S P r|w  (threads, bytes per thread, passes, read or write)";
  long threads = v_arg(argc, argv, 1, usage);
  long bytes = v_arg(argc, argv, 2, usage);
  long passes = v_arg(argc, argv, 3, usage);
  if (argc < 5 || (strcmp(argv[4], "r") && strcmp(argv[4], "w")) || threads > STREAM_MAX_THREADS) {
    fprintf(stderr, "usage: %s %s\n", argv[0], usage);
    return 2;
  }
  pthread_t tid[STREAM_MAX_THREADS];
  StreamJob jobs[STREAM_MAX_THREADS];
  for (long t = 0; t < threads; t++) {
    jobs[t] = (StreamJob){malloc((size_t)bytes), (size_t)bytes / 8, passes, argv[4][0] == 'w', 0};
    if (!jobs[t].buf) { perror("malloc"); return 3; }
    memset(jobs[t].buf, 1, (size_t)bytes);      /* touch every page before timing */
  }
  double t0 = v_now();
  for (long t = 0; t < threads; t++)
    if (pthread_create(&tid[t], NULL, stream_worker, &jobs[t]) != 0) { perror("pthread_create"); return 3; }
  for (long t = 0; t < threads; t++) pthread_join(tid[t], NULL);
  double t1 = v_now();
  volatile uint64_t sink = 0;
  for (long t = 0; t < threads; t++) {
    sink += jobs[t].sum;
    free(jobs[t].buf);
  }
  (void)sink;
  printf("%.9g\n", t1 - t0);
  return 0;
}
