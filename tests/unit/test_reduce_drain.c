/*
** test_reduce_drain.c — a line of stages drained one after another (lang/reduce/order/
** reduce_drain.c, docs/reduction.md "A line of stages drained one after another"), on models
** whose schedule is worked out by hand in the comments.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "reduce_case.h"

/* Block-cyclic owners then a shared lock, 64 tasks written with numbers (as `pamc predict -D
** P=64` sees them): task i computes t = 5us on cpu[floor(i / 4) % 8] (blocks of 4 dealt round
** robin over 8 cpus: 8 tasks a cpu, counted by evaluation), then holds the lock t_red = 1us.
** Every cpu has ended its 8 tasks by 8 t = 40us, so the lock's last request arrives by then and
** the lock drains its 64us of work after it: hi = 40 + 64 = 104us (before: the line's lattice
** bound, 6 + 63 x 5 = 321us). Schedule: at each cpu the tasks end at 5, 10, .., 40us; the lock
** serves the 8 tasks ending at 5us from 5 to 13, and from then on always has one waiting: it ends
** at 5 + 64 = 69us = sim = lo (the first cpu request, then the lock's whole work). */
static void test_blocks_then_lock(void **state) {
  (void)state;
  const char *text =
    "resource cpu[8]; resource lock;\n"
    "process main = par (i = 0, 63) { use(cpu[floor(i / 4) % 8], 5us); use(lock, 1us) };\n";
  redtest_expect(text, 0, NULL, NULL, 69e-6, 69e-6, 104e-6);
}

/* Round robin over 4 cpus, then a log: 16 tasks, 5us on cpu[i % 4], 2us of compute, 1us on the
** log, 1us after. E_1 = 4 x 5 = 20us (4 tasks a cpu), the log's last request by 22us, E_2 = 22 +
** 16 = 38us, hi = 39us. Schedule: each cpu ends tasks at 5, 10, 15, 20us; four reach the log at
** 7, 12, 17, 22us and take 4us there: the last ends at 26, then 1us: sim = 27us. */
static void test_round_robin_then_log(void **state) {
  (void)state;
  const char *text =
    "resource cpu[4]; resource log;\n"
    "process main = par (i = 0, 15) { use(cpu[i % 4], 5us); delay(2us); use(log, 1us); delay(1us) };\n";
  double lo, hi;
  redtest_eval(text, 0, NULL, NULL, &lo, &hi);
  redtest_near(hi, 39e-6);
  assert_true(lo <= 27e-6 * (1 + REDTEST_REL_TOL));
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_blocks_then_lock),
    cmocka_unit_test(test_round_robin_then_log),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
