/*
** test_reduce_lock.c — the lower bounds for threads that meet at locks over rounds, behind a
** first batch of work, and on ps cores (lang/reduce/reduce_lock.c: lock_rounds, behind_batch,
** ps_load; and the upper bound of a line of stages, lock_tandem; docs/reduction.md, "Threads
** meeting at a lock"), on small models whose schedule is worked out by hand in the comments (the
** simulated time) and whose bounds are derived by hand from the rules. Each test checks the
** bound against its derivation and lo <= simulated <= hi.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "reduce_case.h"

/* lo is want_lo (a hand derivation, or at most sim where no derivation is claimed: want_lo < 0),
** and lo <= sim <= hi within rounding, with the n params named in names set to values. */
static void expect_lo(const char *text, int n, const char *const *names, const double *values,
                      double want_lo, double sim) {
  double lo, hi;
  redtest_eval(text, n, names, values, &lo, &hi);
  if (want_lo >= 0) redtest_near(lo, want_lo);
  assert_true(lo <= sim * (1 + REDTEST_REL_TOL));
  assert_true(sim <= hi * (1 + REDTEST_REL_TOL));
}

static const char *const t_name[] = {"T"};
static const char *const tc_names[] = {"T", "C"};

/* K = 4 rounds of use(cores, 3us) on fcfs(C) then hold (mtx) delay(1us), hand-off 0.5us.
** T = C = 4: all four take a core at 0 and reach mtx at 3; t0 holds 3..4, then each next is
** handed the lock 0.5us after a release: t1 4.5..5.5, t2 6..7, t3 7.5..8.5; t0 is back at 4 + 3
** = 7, before t2 releases, and so on: every release but the last finds a waiter (the trip back,
** 3us, is below (T - 1)(1 + 0.5) = 4.5us): 3 + 16 x 1 + 15 x 0.5 = 26.5us, and lock_rounds gives
** D0 + t1 + B + K T t2 + (K T - 1) h2 + R = 0 + 3 + 0 + 16 + 7.5 + 0, the same. T = C = 100:
** 3 + 400 + 399 x 0.5 = 602.5us. T = 3, C = 4: the trip (3us) is not below 2 x 1.5us; t0 is back
** at 7, the instant t2 releases, and no hand-off follows: t0 holds 3, 7, 11, 15 (ends 16), t1
** 4.5, 8.5, 12.5, 16.5, t2 6, 10, 14, 18: 19us. The rule must not apply there (it would give
** 20.5us). */
static void test_lock_rounds(void **state) {
  (void)state;
  const char *text =
    "param T = 4; param C = 4; param K = 4; const w = 3us; const tc = 1us;\n"
    "resource cores = fcfs(C); resource mtx = fcfs(1) handoff(500ns);\n"
    "process main { par (t = 0, T - 1) repeat (K) { use(cores, w); hold (mtx) delay(tc) } }\n";
  expect_lo(text, 2, tc_names, (const double[]){4, 4}, 26.5e-6, 26.5e-6);
  expect_lo(text, 2, tc_names, (const double[]){100, 100}, 602.5e-6, 602.5e-6);
  expect_lo(text, 2, tc_names, (const double[]){3, 4}, -1, 19e-6);
}

/* T = 8 threads on fcfs(4) cores: use(cores, 4us); hold (a) use(cores, 1us); hold (b)
** use(cores, 2us). t0..t3 compute 0..4, t4..t7 4..8. t0 takes a at 4 and waits for a core until
** 8 (cores 8..9), holding a; t1 takes a at 9 (cores 9..10) while t0 holds b 9..11; then a is
** taken every 1us and b every 2us: t1 b 11..13, t2 13..15, ..., t7 23..25: 25us. behind_batch:
** every later request of the cores starts no earlier than S = max(floor(7 / 4) 4, floor(4 / 4) 4
** + 4) = 8us (the last of the first batch started, and 8 - 4 + 1 of them ended), then 1us of a's
** body, then 8 holds of b of at least 2us: 8 + 1 + 16 = 25us. T = 100: S = max(24 x 4, 24 x 4
** + 4) = 100, then 1 + 200: 301us. */
static void test_behind_batch(void **state) {
  (void)state;
  const char *text =
    "param T = 8; const w = 4us; const ta = 1us; const tb = 2us;\n"
    "resource cores = fcfs(4); resource a; resource b;\n"
    "process main { par (t = 0, T - 1) { use(cores, w); hold (a) use(cores, ta); hold (b) use(cores, tb) } }\n";
  expect_lo(text, 1, t_name, (const double[]){8}, 25e-6, 25e-6);
  expect_lo(text, 1, t_name, (const double[]){100}, 301e-6, 301e-6);
}

/* T threads of K = 3 rounds `use(cores, 5us); hold (mtx) delay(1us)` on ps(2) cores. ps_load,
** T = 3: the three first requests share the cores from 0 and end together at 3 x 5 / 2 = 7.5us;
** each then holds mtx at least 1us before its next request; the 2 x 3 x 5us of work left need
** at least 15us at rate 2; the last ends no earlier than 7.5 + 1 + 15 = 23.5 and its thread then
** holds mtx 1us: 24.5us (the cores' load alone: 22.5us; simulated: 25.5us, the lock holding
** threads off the cores at the start of rounds). */
static void test_ps_load(void **state) {
  (void)state;
  const char *text =
    "param T = 3; param K = 3; const w = 5us; const tc = 1us;\n"
    "resource cores = ps(2); resource mtx;\n"
    "process main { par (t = 0, T - 1) repeat (K) { use(cores, w); hold (mtx) delay(tc) } }\n";
  expect_lo(text, 1, t_name, (const double[]){3}, 24.5e-6, 25.5e-6);
}

/* T = 16 threads on fcfs(4) cores: use(cores, 5us); hold (a) delay(1us); hold (b) delay(1.5us).
** The cores end batches of 4 at 5, 10, 15, 20; a serves each batch 1us apart from its arrival
** (5..9, 10..14, ...); b is the slowest stage: t0 holds it 6..7.5, t1 7.5..9, t2 9..10.5, t3
** 10.5..12, t4 (a at 10..11) 12..13.5, and so on back to back: t15 ends 6 + 16 x 1.5 = 30us.
** The line of stages (lock_tandem): U = 5 + 1 + 1.5 + (16 - 1) max(5 / 4, 1, 1.5) = 30us, the
** simulated time (the waits summed, before: 7.5 + 15 (5 / 4 + 1 + 1.5) = 63.75us). */
static void test_lock_tandem(void **state) {
  (void)state;
  const char *text =
    "param T = 16; const w = 5us; const ta = 1us; const tb = 1.5us;\n"
    "resource cores = fcfs(4); resource a; resource b;\n"
    "process main { par (t = 0, T - 1) { use(cores, w); hold (a) delay(ta); hold (b) delay(tb) } }\n";
  double lo, hi, T = 16;
  redtest_eval(text, 1, t_name, &T, &lo, &hi);
  redtest_near(hi, 30e-6);
  assert_true(lo <= 30e-6 * (1 + REDTEST_REL_TOL));
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_lock_rounds),
    cmocka_unit_test(test_behind_batch),
    cmocka_unit_test(test_ps_load),
    cmocka_unit_test(test_lock_tandem),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
