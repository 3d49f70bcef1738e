/*
** test_reduce_list.c — an FCFS list evaluated at the point (lang/reduce/order/reduce_fcfs_list.c,
** docs/reduction.md "An FCFS list evaluated at the point"), on small models whose schedules are
** worked out by hand in the comments.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "reduce_case.h"

/* The params are left symbolic here (as in a sweep): the list is read at their defaults, and
** holds where they take those values. */

/* A pool of C = 8 takes N = 16 tasks of 1, 2, 4 us by i % 3, then
** 5us: tasks 0 .. 7 start at 0 (ends 1, 2, 4, 1, 2, 4, 1, 2); 8 (4us) and 9 (1us) and 10 (2us) at
** 1, ending 5, 2, 3; 11 (4), 12 (1), 13 (2), 14 (4) at 2, ending 6, 3, 4, 6; 15 (1) at 3: the last
** ends at 6, lo = hi = 6 + 5 = 11us, the simulated time (before: lo 9.5us, the load; hi 13us). */
static void test_pool_periodic(void **state) {
  (void)state;
  const char *text =
      "param N = 16 in 1 .. 1000000;\nparam C = 8 in 1 .. 256;\nconst t_u = 1us;\n"
      "resource pool = fcfs(C);\n"
      "process main {\n  par (i = 0, N - 1) use(pool, (i % 3 == 0 ? 1 : (i % 3 == 1 ? 2 : 4)) * t_u);\n"
      "  delay(5us)\n}\n";
  redtest_expect(text, 0, NULL, NULL, 11e-6, 11e-6, 11e-6);
  /* at N = 17 (not the default) the list read at 16 is not taken: lo at most the simulated 11us
  ** (task 16, 2us, starts at 3 and ends at 5, before tasks 11 and 14) */
  const char *names[] = {"N"};
  double n = 17;
  redtest_expect_lo(text, 1, names, &n, -1, 11e-6);
}

/* T = 3 threads of (1 + i % 4) 10us on ceil(T / 2) = 2 cores, twice: 10 and 20 start at 0, 30 at
** 10 (where the first core frees): 40us a round, lo = hi = 80us, the simulated time (before: lo
** 60us, the cores' load). */
static void test_rounds_on_fewer_cores(void **state) {
  (void)state;
  const char *text =
      "param T = 3;\nconst u = 10us;\nresource cores = fcfs(ceil(T / 2));\n"
      "process main { repeat (2) par (i = 0, T - 1) use(cores, (1 + i % 4) * u) }\n";
  redtest_expect(text, 0, NULL, NULL, 80e-6, 80e-6, 80e-6);
}

/* Sizes like a V on 2 servers, M = 4: 1 + |2 i - 3| us = 4, 2, 2, 4: 4 and 2 start at 0, the next 2
** at 2 (ends 4), the last 4 at 4: 8us, the simulated time (before: lo 6us). The sizes are read in
** seconds (no factor free of i): the bound keeps a margin of a few parts in 10^15. */
static void test_vshape(void **state) {
  (void)state;
  const char *text =
      "param M = 4 in 1 .. 100000;\nresource dev = fcfs(2);\n"
      "process main = par (i = 0, M - 1) use(dev, (1 + abs(2 * i - (M - 1))) * 1us);\n";
  double lo, hi;
  redtest_eval(text, 0, NULL, NULL, &lo, &hi);
  assert_true(lo <= 8e-6 && lo > 8e-6 * (1 - 1e-12));
  assert_true(hi >= 8e-6 && hi < 8e-6 * (1 + 1e-12));
}

/* The same par beside another use of the pool: the list is not read (a request from outside can
** change the FCFS order), lo stays at most the simulated time: 4 tasks of 1, 2, 4, 1 us on 2
** servers beside a 3us request made at 0 after them: 1 and 2 at 0, 4 at 1, 1 at 2, the 3us at 3:
** 6us simulated. */
static void test_beside_not_read(void **state) {
  (void)state;
  const char *text =
      "param N = 4 in 1 .. 100;\nresource pool = fcfs(2);\n"
      "process main = par (i = 0, N - 1) use(pool, (i % 3 == 0 ? 1 : (i % 3 == 1 ? 2 : 4)) * 1us) || use(pool, 3us);\n";
  redtest_expect_lo1(text, "N", 4, -1, 6e-6);
}

/* Residue classes: `if (q % 3 == 0) use(pool, 50us) else use(pool, 10us)`, Q = 7 on fcfs(4). The
** `if` on the index splits the par into classes (q = 3 i and the rest); FCFS still takes the
** requests in index order: 50, 10, 10, 50 start at 0, q = 4 and 5 (10) at 10 (end 20), q = 6 (50)
** at 20: lo = hi = 70us, the simulated time (before: lo 50us, the longest; hi 85us). */
static void test_residue_classes(void **state) {
  (void)state;
  const char *text =
      "param Q = 7 in 1 .. 100000;\nresource pool = fcfs(4);\n"
      "process main = par (q = 0, Q - 1) if (q % 3 == 0) use(pool, 50us) else use(pool, 10us);\n";
  redtest_expect(text, 0, NULL, NULL, 70e-6, 70e-6, 70e-6);
}

/* The same pool written with `hold`: `hold (pool) if (q % 3 == 0) delay(50us) else delay(10us)`
** is `use(pool, q % 3 == 0 ? 50us : 10us)` (LANGUAGE.md §8: `use(r, t)` is `hold (r) delay(t)`):
** 70us again (before: lo 50us, hi 85us). */
static void test_hold_of_delays(void **state) {
  (void)state;
  const char *text =
      "param Q = 7 in 1 .. 100000;\nconst t_light = 10us;\nconst t_heavy = 50us;\n"
      "resource pool = fcfs(4);\n"
      "process main = par (q = 0, Q - 1) hold (pool) if (q % 3 == 0) delay(t_heavy) else delay(t_light);\n";
  redtest_expect(text, 0, NULL, NULL, 70e-6, 70e-6, 70e-6);
}

/* Processor sharing of unequal requests made through a process, `worker(t)`, T = 3 on ps(2):
** 20, 40, 60us run at 2/3 each until the first ends at 30us (20 done each), then 20 and 40 left
** at full speed: the second ends at 50, the third has 20 left alone: 70us, the simulated time
** (before: lo 60us, the load 120 / 2; hi 90us). */
static void test_ps_through_a_call(void **state) {
  (void)state;
  const char *text =
      "param T = 3 in 1 .. 100000;\nconst unit = 20us;\nresource cores = ps(2);\n"
      "process worker(t) = use(cores, (1 + t % 4) * unit);\n"
      "process main = par (t = 0, T - 1) worker(t);\n";
  redtest_expect(text, 0, NULL, NULL, 70e-6, 70e-6, 70e-6);
}

/* A batch on ps whose two sizes are separate consts (t1 = 10us, t2 = 15us, odd threads the longer):
** their order is not proved for every value -D could give them, so the rule used to give up (lo =
** the load 15 us at T = 5 against 17.5 us simulated). Ordered at their values under the condition
** t2 >= t1: T = 5 on ps(4): all five at rate 4/5 until the three short end at 12.5 us, the two
** long ones run their last 5 us at rate 1: 17.5 us; T = 7 (4 short, 3 long): 10 * 7/4 + 5 = 22.5
** us; T = 16: 8 short, 8 long: 10 * 4 + 5 * 2 = 50 us. */
static void test_ps_sizes_ordered_at_values(void **state) {
  (void)state;
  const char *text =
    "param T = 5 in 1 .. 100000; param C = 4; const t1 = 10us; const t2 = 15us;\n"
    "resource cores = ps(C);\n"
    "process main { par (w = 0, T - 1) use(cores, w % 2 == 1 ? t2 : t1) }\n";
  const char *names[] = {"T"};
  static const double ts[] = {5, 7, 16}, want[] = {17.5e-6, 22.5e-6, 50e-6};
  for (size_t j = 0; j < 3; j++) redtest_expect(text, 1, names, &ts[j], want[j], want[j], want[j]);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_pool_periodic),
    cmocka_unit_test(test_rounds_on_fewer_cores),
    cmocka_unit_test(test_vshape),
    cmocka_unit_test(test_beside_not_read),
    cmocka_unit_test(test_residue_classes),
    cmocka_unit_test(test_hold_of_delays),
    cmocka_unit_test(test_ps_through_a_call),
    cmocka_unit_test(test_ps_sizes_ordered_at_values),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
