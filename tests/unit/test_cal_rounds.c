/*
** test_cal_rounds.c — the timing loop and the interleaved rounds of calibrate/ on a synthetic
** benchmark of known cost: a "kernel" that spins on the clock for `iters` x CAL_UNROLL x COST
** seconds (its empty twin returns at once), so the time per operation it must report is COST,
** whatever the machine. A series measured in two rounds is one series with the samples of both,
** and when the cost changes between the rounds (the machine drifting), the interval of the kept
** samples covers both costs: what the rounds are for.
*/
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "bench_kernel.h"
#include "cal_stats.h"

static double cost_now = 100e-9;  /* seconds per operation the synthetic kernel spends */

static double kernel_known(long iters, const CalSeed *seed) {
  (void)seed;
  return (double)iters * CAL_UNROLL * cost_now;   /* the elapsed time it reports: exact */
}

static double kernel_nothing(long iters, const CalSeed *seed) {
  (void)iters;
  (void)seed;
  return 0;
}

static CalRun *new_run(int rounds) {
  CalRun *run = calloc(1, sizeof *run);
  assert_non_null(run);
  run->opt.reps = 6;
  run->opt.sample_seconds = 0.002;
  run->rounds = rounds;
  return run;
}

static CalSummary summary_of(const CalSeries *s) {
  double scratch[CAL_MAX_SAMPLES];
  CalSummary sum;
  assert_int_equal(cal_stats_summarize(s->samples, s->count, scratch, &sum), 0);
  return sum;
}

/* One round, 6 samples of a 100 ns operation: the median is 100 ns (rounding only). */
static void test_known_cost(void **state) {
  (void)state;
  CalRun *run = new_run(1);
  CalError err = {""};
  CalSeed seed = {0, 0, 0, 0};
  cost_now = 100e-9;
  run->round_reps = 6;
  assert_int_equal(cal_measure_kernel(run, "t_known", "synthetic", kernel_known, kernel_nothing,
                                      &seed, 1, &err), 0);
  assert_int_equal(run->count, 1);
  assert_int_equal(run->series[0].count, 6);
  CalSummary sum = summary_of(&run->series[0]);
  assert_true(fabs(sum.kept_median - 100e-9) < 1e-12);
  /* per_op 2 (a round trip measured as one slot): half the time per slot. */
  assert_int_equal(cal_measure_kernel(run, "t_half", "synthetic", kernel_known, kernel_nothing,
                                      &seed, 2, &err), 0);
  sum = summary_of(&run->series[1]);
  assert_true(fabs(sum.kept_median - 50e-9) < 1e-12);
  free(run);
}

/* Two rounds: 3 samples at 100 ns, then (the machine drifted) 3 at 130 ns. One series of 6
** samples, measured in 2 rounds; Tukey's fences over {100 x3, 130 x3} keep all six (Q1 = 100, Q3 = 130,
** fences 55 .. 175), so [min, max] covers both costs, where one round alone gave a width of a few
** percent around one of them. */
static void test_rounds_pool_drift(void **state) {
  (void)state;
  CalRun *run = new_run(2);
  CalError err = {""};
  CalSeed seed = {0, 0, 0, 0};
  cost_now = 100e-9;
  run->round = 0;
  run->round_reps = 3;
  assert_int_equal(cal_measure_kernel(run, "t_drift", "synthetic", kernel_known, kernel_nothing,
                                      &seed, 1, &err), 0);
  cost_now = 130e-9;
  run->round = 1;
  assert_int_equal(cal_measure_kernel(run, "t_drift", "synthetic", kernel_known, kernel_nothing,
                                      &seed, 1, &err), 0);
  assert_int_equal(run->count, 1);
  const CalSeries *s = &run->series[0];
  assert_int_equal(s->count, 6);
  assert_int_equal(s->fresh, 6);
  assert_int_equal(s->rounds, 2);
  assert_true(s->last >= s->first);
  CalSummary sum = summary_of(s);
  assert_int_equal(sum.kept, 6);
  assert_true(fabs(sum.lo - 100e-9) < 1e-12);
  assert_true(fabs(sum.hi - 130e-9) < 1e-12);
  /* A new name in a later round is a new series. */
  assert_int_equal(cal_measure_kernel(run, "t_other", "synthetic", kernel_known, kernel_nothing,
                                      &seed, 1, &err), 0);
  assert_int_equal(run->count, 2);
  assert_int_equal(run->series[1].count, 3);
  free(run);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_known_cost),
    cmocka_unit_test(test_rounds_pool_drift),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
