/*
** copy.c — validation program: memcpy of a buffer of S MiB (beyond the last-level cache) onto
** another, P passes, the buffer split into T equal contiguous chunks, one thread per chunk. Usage:
** copy T S P. Both buffers are touched before timing (no page faults in the timed part). Prints
** the wall time of the passes in seconds. Modelled by models/validate_copy.pam.
*/
#include <pthread.h>
#include <string.h>
#include "vclock.h"

#define COPY_MAX_THREADS 64       /* more threads than any configuration of the driver */

typedef struct CopyJob {
  char *dst;                      /* this thread's chunk of the destination */
  const char *src;                /* this thread's chunk of the source */
  size_t bytes;                   /* chunk length */
  long passes;                    /* P */
  pthread_barrier_t *start;       /* all threads start together */
} CopyJob;

static void *copy_worker(void *arg) {
  CopyJob *job = arg;
  pthread_barrier_wait(job->start);
  for (long p = 0; p < job->passes; p++) {
    memcpy(job->dst, job->src, job->bytes);
    __asm__ volatile("" : : "r"(job->dst) : "memory");
  }
  return NULL;
}

int main(int argc, char **argv) {
  const char *usage = "T S P  (threads, MiB per buffer, passes)";
  long threads = v_arg(argc, argv, 1, usage);
  size_t bytes = (size_t)v_arg(argc, argv, 2, usage) << 20;
  long passes = v_arg(argc, argv, 3, usage);
  if (threads > COPY_MAX_THREADS) { fprintf(stderr, "copy: T too large\n"); return 2; }
  char *src = malloc(bytes), *dst = malloc(bytes);
  if (!src || !dst) { perror("malloc"); return 3; }
  memset(src, 1, bytes);
  memset(dst, 2, bytes);
  pthread_barrier_t start;
  pthread_barrier_init(&start, NULL, (unsigned)threads + 1);
  pthread_t tid[COPY_MAX_THREADS];
  CopyJob jobs[COPY_MAX_THREADS];
  size_t chunk = bytes / (size_t)threads;
  for (long t = 0; t < threads; t++) {
    jobs[t] = (CopyJob){dst + (size_t)t * chunk, src + (size_t)t * chunk, chunk, passes, &start};
    if (pthread_create(&tid[t], NULL, copy_worker, &jobs[t]) != 0) { perror("pthread_create"); return 3; }
  }
  pthread_barrier_wait(&start);
  double t0 = v_now();
  for (long t = 0; t < threads; t++) pthread_join(tid[t], NULL);
  double t1 = v_now();
  volatile char sink = dst[bytes - 1];
  (void)sink;
  pthread_barrier_destroy(&start);
  free(src);
  free(dst);
  printf("%.9g\n", t1 - t0);
  return 0;
}
