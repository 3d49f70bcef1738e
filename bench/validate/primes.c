/*
** primes.c — validation program like sysbench's cpu test: E events split over T threads, each
** event counting the primes below M by trial division exactly as sysbench does (unsigned 64-bit
** integers; for each candidate c: t = sqrt(c), then c % l for l = 2, 3, ... while l <= t, stopping
** at the first divisor). Usage: primes T E M. Prints the wall time of the parallel part in seconds.
** `primes --count M` prints instead the operation counts of one event: the candidates (one sqrt
** each) and the trial divisions, counted (not timed), for the model's params.
** Modelled by models/validate_primes.pam.
*/
#include <math.h>
#include <pthread.h>
#include <string.h>
#include "vclock.h"

#define PRIMES_MAX_THREADS 256    /* more threads than any configuration of the driver */

typedef struct PrimesJob {
  long events;                    /* events this thread runs */
  unsigned long long max_prime;   /* M */
  unsigned long long found;       /* primes found, summed over events (sunk) */
  unsigned long long divisions;   /* trial divisions done (only for --count) */
} PrimesJob;

/* One event: sysbench's cpu_execute_event loop. */
static unsigned long long primes_event(unsigned long long max_prime, unsigned long long *divisions) {
  unsigned long long n = 0, tried = 0;
  for (unsigned long long c = 3; c < max_prime; c++) {
    double t = sqrt((double)c);
    unsigned long long l;
    for (l = 2; l <= t; l++) {
      tried++;
      if (c % l == 0) break;
    }
    if (l > t) n++;
  }
  if (divisions) *divisions = tried;
  return n;
}

static void *primes_worker(void *arg) {
  PrimesJob *job = arg;
  for (long e = 0; e < job->events; e++) job->found += primes_event(job->max_prime, NULL);
  return NULL;
}

int main(int argc, char **argv) {
  const char *usage = "T E M  (threads, events, primes below M), or --count M";
  if (argc == 3 && !strcmp(argv[1], "--count")) {
    long m = v_arg(argc, argv, 2, usage);
    unsigned long long divisions = 0;
    primes_event((unsigned long long)m, &divisions);
    printf("candidates %ld divisions %llu\n", m > 3 ? m - 3 : 0, divisions);
    return 0;
  }
  long threads = v_arg(argc, argv, 1, usage);
  long events = v_arg(argc, argv, 2, usage);
  long max_prime = v_arg(argc, argv, 3, usage);
  if (threads > PRIMES_MAX_THREADS) { fprintf(stderr, "primes: T too large\n"); return 2; }
  pthread_t tid[PRIMES_MAX_THREADS];
  PrimesJob jobs[PRIMES_MAX_THREADS];
  double t0 = v_now();
  for (long t = 0; t < threads; t++) {
    /* events split as evenly as possible: the first E mod T threads take one more */
    jobs[t] = (PrimesJob){events / threads + (t < events % threads), (unsigned long long)max_prime, 0, 0};
    if (pthread_create(&tid[t], NULL, primes_worker, &jobs[t]) != 0) { perror("pthread_create"); return 3; }
  }
  for (long t = 0; t < threads; t++) pthread_join(tid[t], NULL);
  double t1 = v_now();
  volatile unsigned long long sink = 0;
  for (long t = 0; t < threads; t++) sink += jobs[t].found;
  (void)sink;
  printf("%.9g\n", t1 - t0);
  return 0;
}
