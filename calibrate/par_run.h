/*
** par_run.h — running one piece of work on T threads at once, released together, and timing
** them from the release to the last one's end (the effective-parallelism and the memory-under-T-
** threads benchmarks).
*/
#ifndef PAMC_CAL_PAR_RUN_H
#define PAMC_CAL_PAR_RUN_H

#include <pthread.h>
#include <stdatomic.h>
#include "cal.h"

/* One member's work: `arg` is the member's own state. */
typedef void (*CalParWork)(void *arg);

typedef struct CalParMember {
  pthread_t id;                   /* the thread (unused for member 0: the calling thread) */
  atomic_int *go;                 /* 0: wait; 1: run; -1: leave without running */
  CalParWork work;                /* what the member does */
  void *arg;                      /* its state */
  double end;                     /* cal_now() when it finished */
} CalParMember;

/* Runs members[i].work(members[i].arg) for i = 0 .. n-1 at once (member 0 on the calling thread,
** the others on threads started first and released together, spinning until then); *elapsed is
** from the release to the last member's end. -1 (err filled) when a thread cannot be started. */
int cal_par_run(CalParMember *members, int n, double *elapsed, CalError *err);

#endif
