/*
** vclock.h — shared helpers of the validation programs in bench/validate/: a monotonic clock,
** an optimisation barrier, and argument parsing that fails with a usage message.
*/
#ifndef VCLOCK_H
#define VCLOCK_H

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

/* Keeps a double in a register and tells the compiler it may have changed, so a dependent chain
   of additions is neither folded, vectorised nor hoisted (the same trick as calibrate's
   bench_arith.c, so the programs run what t_add_double measures). */
#if defined(__x86_64__)
#define V_HIDE(v) __asm__ volatile("" : "+x"(v))
#elif defined(__aarch64__)
#define V_HIDE(v) __asm__ volatile("" : "+w"(v))
#else
#define V_HIDE(v) __asm__ volatile("" : "+m"(v))
#endif

/* Seconds on the monotonic clock. */
static inline double v_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* argv[i] as a positive integer, or exit 2 with the usage line. */
static inline long v_arg(int argc, char **argv, int i, const char *usage) {
  char *end = NULL;
  long value = i < argc ? strtol(argv[i], &end, 10) : 0;
  if (i >= argc || *end != '\0' || value <= 0) {
    fprintf(stderr, "usage: %s %s\n", argv[0], usage);
    exit(2);
  }
  return value;
}

/* A dependent chain of `adds` double additions (x = x + y, y = 0 hidden from the compiler),
   16 per loop iteration so the loop overhead is small against the chain; returns x so the
   caller can sink it. */
static inline double v_add_chain(long adds, double x) {
  double y = 0.0;
  V_HIDE(y);
  long i = 0;
  for (; i + 16 <= adds; i += 16) {
#define V_STEP x = x + y; V_HIDE(x);
    V_STEP V_STEP V_STEP V_STEP V_STEP V_STEP V_STEP V_STEP
    V_STEP V_STEP V_STEP V_STEP V_STEP V_STEP V_STEP V_STEP
  }
  for (; i < adds; i++) { V_STEP }
#undef V_STEP
  return x;
}

#endif
