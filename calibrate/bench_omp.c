/*
** bench_omp.c — the cost of an OpenMP `parallel for` of T threads, T = 1 .. the CPUs online: the
** fork and join of a parallel region whose loop has one empty iteration per thread, per region
** (t_omp_for_T; calibrate.c writes t_omp_for, the one of as many threads as CPUs, and
** fn t_omp_for_of(threads)). Built with -fopenmp when the compiler supports it (calibrate/module.mk); without
** OpenMP, the benchmark is absent and the family counts 0 series.
*/
#include <stdio.h>
#include "bench.h"

#ifdef _OPENMP
#include <omp.h>

#define CAL_OMP_MAX_THREADS 64     /* team sizes measured at most (one series each) */

static int omp_max(long cores) {
  return cores < 1 ? 1 : cores > CAL_OMP_MAX_THREADS ? CAL_OMP_MAX_THREADS : (int)cores;
}

int cal_bench_omp_count(const CalOptions *opt) {
  (void)opt;
  return omp_max(cal_bench_cores());
}

/* `regions` parallel regions of `threads` threads, each a loop of one iteration per thread. */
static double omp_regions(long regions, int threads) {
  volatile int sink = 0;
  double t0 = cal_now();
  for (long r = 0; r < regions; r++) {
#pragma omp parallel for num_threads(threads) schedule(static)
    for (int i = 0; i < threads; i++) {
      if (i < 0) sink = i;                  /* never: the body is empty but not removable */
    }
  }
  (void)sink;
  return cal_now() - t0;
}

static int omp_series(CalRun *run, int threads, CalError *err) {
  char bench[CAL_BENCH_MAX], name[CAL_NAME_MAX];
  snprintf(bench, sizeof bench, "OpenMP parallel for of %d thread%s, empty body: fork + join", threads,
           threads > 1 ? "s" : "");
  snprintf(name, sizeof name, "t_omp_for_%d", threads);
  CalSeries *s = cal_run_add_series(run, name, bench, CAL_KIND_TIME, 0, err);
  if (!s) return -1;
  double one = omp_regions(16, threads) / 16;        /* warm-up: starts the thread pool */
  long regions = one > 0 ? (long)(run->opt.sample_seconds / one) : 1000;
  if (regions < 1) regions = 1;
  for (int rep = 0; rep < run->round_reps; rep++)
    cal_series_push(s, omp_regions(regions, threads) / (double)regions);
  cal_run_finished(run, s);
  return 0;
}

int cal_bench_omp(CalRun *run, CalError *err) {
  for (int t = 1; t <= omp_max(run->cores); t++)
    if (omp_series(run, t, err)) return -1;
  return 0;
}

#else

int cal_bench_omp_count(const CalOptions *opt) {
  (void)opt;
  return 0;
}

int cal_bench_omp(CalRun *run, CalError *err) {
  (void)run;
  (void)err;
  return 0;
}

#endif
