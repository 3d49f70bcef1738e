/*
** compute.c — validation program: a fixed total of W dependent double additions split evenly over
** T threads (W / T each, a latency-bound chain like calibrate's t_add_double). Usage:
** compute T W. Prints the wall time of the parallel part (create to join) in seconds.
** Modelled by models/validate_compute.pam.
*/
#include <pthread.h>
#include "vclock.h"

#define COMPUTE_MAX_THREADS 256   /* more threads than any configuration of the driver */

typedef struct ComputeJob {
  long adds;                      /* additions this thread chains */
  double result;                  /* the chain's final value (sunk by main) */
} ComputeJob;

static void *compute_worker(void *arg) {
  ComputeJob *job = arg;
  job->result = v_add_chain(job->adds, 1.0);
  return NULL;
}

int main(int argc, char **argv) {
  const char *usage = "T W  (threads, total additions)";
  long threads = v_arg(argc, argv, 1, usage);
  long total = v_arg(argc, argv, 2, usage);
  if (threads > COMPUTE_MAX_THREADS) { fprintf(stderr, "compute: T too large\n"); return 2; }
  pthread_t tid[COMPUTE_MAX_THREADS];
  ComputeJob jobs[COMPUTE_MAX_THREADS];
  for (long t = 0; t < threads; t++) jobs[t].adds = total / threads;
  double t0 = v_now();
  for (long t = 0; t < threads; t++)
    if (pthread_create(&tid[t], NULL, compute_worker, &jobs[t]) != 0) { perror("pthread_create"); return 3; }
  for (long t = 0; t < threads; t++) pthread_join(tid[t], NULL);
  double t1 = v_now();
  volatile double sink = 0;
  for (long t = 0; t < threads; t++) sink += jobs[t].result;
  (void)sink;
  printf("%.9g\n", t1 - t0);
  return 0;
}
