/*
** test_cal_bench.c — the benchmark families measure something: facts that hold on every CPU
** (a division is slower than an addition, independent chains overlap, an addition takes more than 0.05 ns, a 4 MiB message
** takes longer than a 1 B one, caches grow with their level). If the compiler deleted or hoisted
** a kernel's work, its time would be ~0 and these would fail.
** Each timing fact must hold in one of three fresh trials (holds_in_one_of_runs).
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "bench.h"
#include "cal_stats.h"

static CalRun *new_run(void) {
  CalRun *run = calloc(1, sizeof *run);
  assert_non_null(run);
  run->opt.reps = 5;
  run->opt.quick = 1;
  run->opt.sample_seconds = 0.0005;
  run->rounds = 1;
  run->round_reps = run->opt.reps;
  cal_read_caches(&run->caches);
  return run;
}

static double median_of(const CalRun *run, const char *name) {
  for (int i = 0; i < run->count; i++) {
    if (strcmp(run->series[i].name, name)) continue;
    double scratch[CAL_MAX_SAMPLES];
    CalSummary s;
    assert_int_equal(cal_stats_summarize(run->series[i].samples, run->series[i].count, scratch, &s), 0);
    return s.median;
  }
  fail_msg("no series %s", name);
  return 0;
}

/* A timing fact can fail under load: another process took the core during one kernel's samples
** and not the other's. A trial measures afresh and returns NULL when every fact holds, else the
** fact that failed; a fact that fails in each of TRIALS fresh trials is a real failure (a kernel
** the compiler deleted or hoisted fails every time). Counts and shapes stay plain asserts. */
#define TRIALS 3
#define FACT(cond) do { if (!(cond)) { free(run); return #cond; } } while (0)
typedef const char *(*Trial)(void);
static void holds_in_one_of_runs(Trial trial) {
  const char *failed = NULL;
  for (int t = 0; t < TRIALS; t++) {
    failed = trial();
    if (!failed) return;
    print_message("timing fact failed in trial %d of %d (retrying): %s\n", t + 1, TRIALS, failed);
  }
  fail_msg("in each of %d trials: %s", TRIALS, failed);
}

static void test_caches(void **state) {
  (void)state;
  CalCaches c;
  cal_read_caches(&c);
  assert_true(c.l1 >= 4096);
  assert_true(c.l2 > c.l1);
  assert_true(c.llc >= c.l2);
  assert_non_null(c.source);
}

static const char *trial_arith_measures_work(void) {
  CalRun *run = new_run();
  CalError err = {""};
  assert_int_equal(cal_bench_arith(run, &err), 0);
  assert_int_equal(run->count, cal_bench_arith_count(&run->opt));
  assert_int_equal(run->count, 55);     /* 5 types x (6 latency + 5 throughput) */
  for (int i = 0; i < run->count; i++) assert_int_equal(run->series[i].count, 5);
  /* 0.05 ns is one cycle at 20 GHz: a dependent add cannot be faster. */
  FACT(median_of(run, "t_add_int") > 0.05e-9);
  FACT(median_of(run, "t_add_double") > 0.05e-9);
  /* Division latency is several times an addition's on every core we know (3x is generous). */
  FACT(median_of(run, "t_div_double") > 3 * median_of(run, "t_add_int"));
  FACT(median_of(run, "t_div_long") > 3 * median_of(run, "t_add_long"));
  /* Floating add and multiply are pipelined on every core we know (latency 3-5 cycles, at least
  ** one issued per cycle): 8 independent chains take under half the time per operation of one
  ** chain. If the chains were secretly dependent (or folded), the ratio would be ~1 (or ~0). */
  FACT(median_of(run, "t_add_double_tp") < 0.5 * median_of(run, "t_add_double"));
  FACT(median_of(run, "t_mul_double_tp") < 0.5 * median_of(run, "t_mul_double"));
  FACT(median_of(run, "t_add_double_tp") > 0.01e-9);   /* 50 adds a cycle at 2 GHz: folded */
  free(run);
  return NULL;
}
static void test_arith_measures_work(void **state) {
  (void)state;
  holds_in_one_of_runs(trial_arith_measures_work);
}

static const char *trial_math_and_flops(void) {
  CalRun *run = new_run();
  run->cores = cal_bench_cores();
  CalError err = {""};
  assert_int_equal(cal_bench_math(run, &err), 0);
  assert_int_equal(cal_bench_arith(run, &err), 0);
  assert_int_equal(cal_bench_flops(run, &err), 0);
  assert_int_equal(run->count, cal_bench_math_count(&run->opt) + cal_bench_arith_count(&run->opt) +
                                   cal_bench_flops_count(&run->opt));
  /* A square root or a libm exp/log takes several dependent adds (sqrtsd alone is 12+ cycles;
  ** exp and log are polynomials of several multiply-adds). */
  FACT(median_of(run, "t_sqrt_double") > 2 * median_of(run, "t_add_double"));
  FACT(median_of(run, "t_exp_double") > 2 * median_of(run, "t_add_double"));
  FACT(median_of(run, "t_log_double") > 2 * median_of(run, "t_add_double"));
  /* A conversion is real work: a round trip the compiler folded would be ~0. */
  FACT(median_of(run, "t_cvt_int_double") > 0.05e-9);
  /* A vectorised product does a flop in less time than a dependent multiply takes. */
  FACT(median_of(run, "t_flop_vec") < median_of(run, "t_mul_double"));
  FACT(median_of(run, "t_flop_vec") > 0.001e-9);
  /* Both code shapes at every order are vectorised: faster per flop than a dependent multiply. */
  FACT(median_of(run, "t_flop_vec_512") < median_of(run, "t_mul_double"));
  FACT(median_of(run, "t_flop_vec_plain_512") < median_of(run, "t_mul_double"));
  FACT(median_of(run, "t_flop_vec_plain_256") > 0.001e-9);
  if (run->cores >= 2) FACT(median_of(run, "t_flop_vec_plain_par2_512") > 0.001e-9);
  free(run);
  return NULL;
}
static void test_math_and_flops(void **state) {
  (void)state;
  holds_in_one_of_runs(trial_math_and_flops);
}

/* Load-to-use latency and a mispredicted branch (bench_latency.c). */
static const char *trial_latency(void) {
  CalRun *run = new_run();
  run->caches.llc = 8u << 20;       /* sets up to 32 MiB: beyond any L2 */
  CalError err = {""};
  assert_int_equal(cal_bench_arith(run, &err), 0);
  int before = run->count;
  assert_int_equal(cal_bench_latency(run, &err), 0);
  size_t sizes[32];
  assert_int_equal(run->count - before, 1 + cal_sweep_sizes(1, run->caches.llc, sizes, 32));
  /* An L1 hit takes 4-5 cycles to use, an add one: a chase the compiler hoisted or folded would
  ** be no slower than an add. */
  FACT(median_of(run, "t_load_lat_4096") > 2 * median_of(run, "t_add_int"));
  /* 32 MiB of random lines miss every private cache: many times an L1 hit. */
  FACT(median_of(run, "t_load_lat_33554432") > 4 * median_of(run, "t_load_lat_4096"));
  /* A mispredicted branch flushes the pipeline (10-20 cycles); a branch turned into a
  ** conditional move would cost nothing over its predicted twin. */
  FACT(median_of(run, "t_branch_miss") > 4 * median_of(run, "t_add_int"));
  free(run);
  return NULL;
}
static void test_latency(void **state) {
  (void)state;
  holds_in_one_of_runs(trial_latency);
}

/* The first touch of fresh pages (bench_pagefault.c). */
static const char *trial_pagefault(void) {
  CalRun *run = new_run();
  run->cores = cal_bench_cores();
  CalError err = {""};
  assert_int_equal(cal_bench_pagefault(run, &err), 0);
  assert_int_equal(run->count, cal_bench_pagefault_count(&run->opt));
  /* A fault enters the kernel and zeroes 4 KiB: more than 100 ns; a loop that touched pages
  ** already mapped (or none) would take a few ns a page. */
  FACT(median_of(run, "t_page_fault") > 100e-9);
  /* Read first, a page faults twice (the zero page, then the copy on write). */
  FACT(median_of(run, "t_page_fault_rw") > median_of(run, "t_page_fault"));
  free(run);
  return NULL;
}
static void test_pagefault(void **state) {
  (void)state;
  holds_in_one_of_runs(trial_pagefault);
}

static const char *trial_threads(void) {
  CalRun *run = new_run();
  run->cores = cal_bench_cores();
  CalError err = {""};
  assert_int_equal(cal_bench_threads(run, &err), 0);
  assert_int_equal(run->count, cal_bench_threads_count(&run->opt));
  /* An uncontended lock + unlock is two atomic instructions: more than 1 ns on any core. */
  FACT(median_of(run, "t_lock") > 1e-9);
  /* A hand-off wakes a thread asleep in the kernel (a futex wake and a schedule): more than an
  ** uncontended lock, which never enters the kernel. Folded or skipped, it would be ~0. */
  FACT(median_of(run, "t_handoff") > median_of(run, "t_lock"));
  /* Creating a thread maps a stack and clones: more than a lock. */
  FACT(median_of(run, "t_thread") > median_of(run, "t_lock"));
  /* A barrier of 2 threads waits for the other thread (a wake-up or at least a cache line
  ** crossing cores); one thread alone passes its barrier at once. */
  FACT(median_of(run, "t_barrier_1") > 0);
  FACT(median_of(run, "t_barrier_2") > median_of(run, "t_barrier_1"));
  /* OpenMP, when built in: a parallel region wakes and joins a team: more than a lock. */
  int before = run->count;
  assert_int_equal(cal_bench_omp(run, &err), 0);
  assert_int_equal(run->count - before, cal_bench_omp_count(&run->opt));
  if (run->count > before) {
    char name[CAL_NAME_MAX];
    snprintf(name, sizeof name, "t_omp_for_%d", run->count - before);
    FACT(median_of(run, name) > median_of(run, "t_lock"));
  }
  free(run);
  return NULL;
}
static void test_threads(void **state) {
  (void)state;
  holds_in_one_of_runs(trial_threads);
}

/* Samples are clamped to [1, N] (N threads on N CPUs do at most N times one thread's work, and at
** least one thread's): every sample of both series lies there. */
static void test_parallel(void **state) {
  (void)state;
  CalRun *run = new_run();
  run->cores = cal_bench_cores();
  CalError err = {""};
  assert_int_equal(cal_bench_parallel(run, &err), 0);
  assert_int_equal(run->count, cal_bench_parallel_count(&run->opt));
  assert_int_equal(run->series[0].kind, CAL_KIND_RATIO);
  for (int i = 0; i < run->count; i++)
    for (size_t k = 0; k < run->series[i].count; k++) {
      assert_true(run->series[i].samples[k] >= 1);
      assert_true(run->series[i].samples[k] <= (double)run->cores);
    }
  free(run);
}

/* The sweep: 8 or more working sets from 4 KiB, six kernels each; a set far beyond L1 is read
** slower per byte than a 4 KiB one (L1 hits against misses at whatever level the big one sits).
** (Scalar against vector reads is no test: the sanitizer build, -O1, does not vectorise.) */
static const char *trial_memsweep(void) {
  CalRun *run = new_run();
  run->opt.reps = 3;
  CalError err = {""};
  assert_int_equal(cal_bench_memsweep(run, &err), 0);
  assert_int_equal(run->count, cal_bench_memsweep_count(&run->opt));
  assert_true(run->count >= 6 * 8);
  assert_string_equal(run->series[0].name, "t_read_4096");
  assert_true(run->series[0].x == 4096);
  const CalSeries *last = &run->series[run->count - 6];
  assert_true(!strncmp(last->name, "t_read_", 7));
  FACT(median_of(run, last->name) > median_of(run, "t_read_4096"));
  /* Under T threads at once (N >= 2): the same sets, three scalar kernels, T = 2 .. N; each of two
  ** threads streaming its own largest set is no faster than one thread alone (they share the
  ** memory; 0.8 leaves room for noise); a kernel deleted by the compiler would time ~0. */
  run->cores = cal_bench_cores();
  int before = run->count;
  char last_name[CAL_NAME_MAX], par_name[CAL_NAME_MAX + 8];
  snprintf(last_name, sizeof last_name, "%s", last->name);
  assert_int_equal(cal_bench_mempar(run, &err), 0);
  assert_int_equal(run->count - before, cal_bench_mempar_count(&run->opt));
  if (run->cores >= 2) {
    assert_int_equal(run->count - before, 3 * (before / 6) * ((run->cores > 8 ? 8 : (int)run->cores) - 1));
    snprintf(par_name, sizeof par_name, "t_read_par2_%s", last_name + 7);
    FACT(median_of(run, par_name) > 0.8 * median_of(run, last_name));
  }
  free(run);
  return NULL;
}
static void test_memsweep(void **state) {
  (void)state;
  holds_in_one_of_runs(trial_memsweep);
}

static const char *trial_message_grows_with_size(void) {
  CalRun *run = new_run();
  CalError err = {""};
  assert_int_equal(cal_bench_message(run, &err), 0);
  assert_int_equal(run->count, cal_bench_message_count(&run->opt));
  assert_int_equal(run->series[0].kind, CAL_KIND_FIT_POINT);
  assert_true(run->series[0].x == 1);
  assert_true(run->series[run->count - 1].x == 4194304);
  /* Copying 4 MiB twice through the kernel takes far longer than a 1 B round trip. */
  FACT(median_of(run, "msg_4194304") > 2 * median_of(run, "msg_1"));
  FACT(median_of(run, "msg_1") > 0);
  free(run);
  return NULL;
}
static void test_message_grows_with_size(void **state) {
  (void)state;
  holds_in_one_of_runs(trial_message_grows_with_size);
}

static void test_cores(void **state) {
  (void)state;
  assert_true(cal_bench_cores() >= 1);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_caches),
    cmocka_unit_test(test_arith_measures_work),
    cmocka_unit_test(test_math_and_flops),
    cmocka_unit_test(test_latency),
    cmocka_unit_test(test_pagefault),
    cmocka_unit_test(test_threads),
    cmocka_unit_test(test_parallel),
    cmocka_unit_test(test_memsweep),
    cmocka_unit_test(test_message_grows_with_size),
    cmocka_unit_test(test_cores),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
