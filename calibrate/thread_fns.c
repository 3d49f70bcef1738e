/*
** thread_fns.c — thread costs as functions of the thread count: from the series t_barrier_T and
** t_omp_for_T (T = 1 .. N, bench_threads.c and bench_omp.c), `const t_barrier = t_barrier_N;`
** (the name the models know: as many threads as CPUs) and
** `fn t_barrier_of(threads) = threads <= 1 ? t_barrier_1 : ... : t_barrier_N;`, the same for
** t_omp_for; fn t_page_fault_shared(threads) from t_page_fault and t_page_fault_parT (and _rw). Beyond N
** threads nothing is measured: the functions give the N-thread value (a lower bound of a barrier
** of more threads than CPUs: the extra threads also wait for a CPU).
*/
#include <stdio.h>
#include <string.h>
#include "thread_fns.h"

#define MAX_THREADS 64            /* thread counts looked for (the benchmarks measure up to 64) */

static int has_series(const CalRun *run, const char *name) {
  for (int i = 0; i < run->count; i++)
    if (!strcmp(run->series[i].name, name)) return 1;
  return 0;
}

/* const BASE = BASE_N; and fn BASE_of(threads), N the largest T with a series BASE_T. */
static int step_fn(const CalRun *run, CalMachine *m, const char *base, CalError *err) {
  char name[CAL_NAME_MAX], line[CAL_LINE_MAX];
  int top = 0;
  for (int t = 1; t <= MAX_THREADS; t++) {
    snprintf(name, sizeof name, "%s_%d", base, t);
    if (!has_series(run, name)) break;
    top = t;
  }
  if (top == 0) return 0;
  char decl[2 * CAL_NAME_MAX + 24];
  snprintf(decl, sizeof decl, "const %s = %s_%d;", base, base, top);
  snprintf(line, sizeof line, "%-44s # %d thread%s, as many as CPUs", decl, top, top > 1 ? "s" : "");
  if (cal_machine_text(m, line, err)) return -1;
  size_t len = (size_t)snprintf(line, sizeof line, "fn %s_of(threads) = ", base);
  for (int t = 1; t < top && len < sizeof line; t++)
    len += (size_t)snprintf(line + len, sizeof line - len, "threads <= %d ? %s_%d : ", t, base, t);
  if (len < sizeof line) snprintf(line + len, sizeof line - len, "%s_%d;", base, top);
  return cal_machine_text(m, line, err);
}

/* fn BASE_shared(threads): BASE, BASE_parT for T = 2 .. the last measured (t_page_fault, _rw). */
static int page_fault_fn(const CalRun *run, CalMachine *m, const char *base, CalError *err) {
  if (!has_series(run, base)) return 0;
  int top = 1;
  char name[CAL_NAME_MAX];
  for (int t = 2; t <= MAX_THREADS; t++) {
    snprintf(name, sizeof name, "%s_par%d", base, t);
    if (!has_series(run, name)) break;
    top = t;
  }
  return cal_machine_shared_fn(m, base, NULL, "", top, err);
}

int cal_thread_fns(const CalRun *run, CalMachine *m, CalError *err) {
  if (step_fn(run, m, "t_barrier", err) || step_fn(run, m, "t_omp_for", err) ||
      page_fault_fn(run, m, "t_page_fault", err) || page_fault_fn(run, m, "t_page_fault_rw", err))
    return -1;
  return 0;
}
