/*
** mutex.c — validation program: T threads each run N iterations of (A dependent double additions
** of private work, then B more inside a critical section under one shared pthread mutex). Usage:
** mutex T N A B. Prints the wall time of the parallel part in seconds.
** Modelled by models/validate_mutex.pam.
*/
#include <pthread.h>
#include "vclock.h"

#define MUTEX_MAX_THREADS 256     /* more threads than any configuration of the driver */

typedef struct MutexShared {
  pthread_mutex_t lock;           /* the one lock every thread takes */
  double guarded;                 /* state the critical section updates */
  long iterations;                /* N */
  long outside_adds;              /* A: private work per iteration */
  long inside_adds;               /* B: work under the lock per iteration */
} MutexShared;

typedef struct MutexJob {
  MutexShared *shared;            /* the lock and the workload */
  double result;                  /* the private chain's final value */
} MutexJob;

static void *mutex_worker(void *arg) {
  MutexJob *job = arg;
  MutexShared *sh = job->shared;
  double x = 1.0;
  for (long i = 0; i < sh->iterations; i++) {
    x = v_add_chain(sh->outside_adds, x);
    pthread_mutex_lock(&sh->lock);
    sh->guarded = v_add_chain(sh->inside_adds, sh->guarded);
    pthread_mutex_unlock(&sh->lock);
  }
  job->result = x;
  return NULL;
}

int main(int argc, char **argv) {
  const char *usage = "T N A B  (threads, iterations, adds outside, adds inside the lock)";
  long threads = v_arg(argc, argv, 1, usage);
  MutexShared shared = {.guarded = 1.0};
  shared.iterations = v_arg(argc, argv, 2, usage);
  shared.outside_adds = v_arg(argc, argv, 3, usage);
  shared.inside_adds = v_arg(argc, argv, 4, usage);
  if (threads > MUTEX_MAX_THREADS) { fprintf(stderr, "mutex: T too large\n"); return 2; }
  pthread_mutex_init(&shared.lock, NULL);
  pthread_t tid[MUTEX_MAX_THREADS];
  MutexJob jobs[MUTEX_MAX_THREADS];
  double t0 = v_now();
  for (long t = 0; t < threads; t++) {
    jobs[t].shared = &shared;
    if (pthread_create(&tid[t], NULL, mutex_worker, &jobs[t]) != 0) { perror("pthread_create"); return 3; }
  }
  for (long t = 0; t < threads; t++) pthread_join(tid[t], NULL);
  double t1 = v_now();
  volatile double sink = shared.guarded;
  for (long t = 0; t < threads; t++) sink += jobs[t].result;
  (void)sink;
  pthread_mutex_destroy(&shared.lock);
  printf("%.9g\n", t1 - t0);
  return 0;
}
