/*
** thread_fns.h — the machine file's names for thread costs measured at several thread counts
** (thread_fns.c): t_barrier and t_omp_for (the N-thread ones) and fn t_barrier_of(threads),
** fn t_omp_for_of(threads).
*/
#ifndef PAMC_CAL_THREAD_FNS_H
#define PAMC_CAL_THREAD_FNS_H

#include "bench.h"
#include "machine_file.h"

/* The declarations into m (none for a family the run did not measure). 0, or -1 (err). */
int cal_thread_fns(const CalRun *run, CalMachine *m, CalError *err);

#endif
