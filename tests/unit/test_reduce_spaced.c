/*
** test_reduce_spaced.c — requests spaced by a single server never queue (docs/reduction.md,
** "Requests spaced by a single server"; reduce_spaced.c): the upper bound gives them no wait where
** the spacing proves it, and keeps it where it does not. Bounds derived by hand below.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "reduce_case.h"

static const char *const names[] = {"W"};

/* W workers, 3 tasks each: the master's nic (one server, 5us a task), 40us on the worker's own
** cpu, a 10us write to disk = fcfs(2). The writes come 40us after the nic's ends, which are at
** least 5us apart, and 10 <= 2 x 5: no write waits. The bounded clients then charge each task
** only the nic's wait, (W - 1) 5us: hi = 3 (55 + 5 (W - 1)) us, 210us at W = 4 and 390us at
** W = 16 (simulated: 180us and 290us). Before, each write waited min(ceil((W - 2) / 2) 10,
** (10 W - 10) / 2) us more: 240us and 600us. */
static void test_writes_spaced_by_master(void **state) {
  (void)state;
  const char *text =
    "param W = 4 in 1 .. 10000;\n"
    "resource nic; resource cpu[W]; resource disk = fcfs(2);\n"
    "process main { par (w = 0, W - 1) repeat (3) {\n"
    "  use(nic, 5us); use(cpu[w], 40us); use(disk, 10us) } }\n";
  static const double cases[][3] = {{4, 210e-6, 180e-6}, {16, 390e-6, 290e-6}};
  for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
    double lo, hi, v[] = {cases[k][0]};
    redtest_eval(text, 1, names, v, &lo, &hi);
    redtest_near(hi, cases[k][1]);
    assert_true(lo <= cases[k][2] * (1 + REDTEST_REL_TOL));
  }
}

/* The same with 11us writes: 11 > 2 x 5, two writes may find both disks busy (simulated: 184us at
** W = 4), and the write keeps its wait, min(ceil((4 - 2) / 2) 11, (44 - 11) / 2) = 11us: hi =
** 3 (56 + 15 + 11) = 246us. Also kept when the time between differs by worker (40 + w us: the
** spacing is not carried to the disk): hi = 3 (55 + 3 + 15 + 10) = 249us at W = 4. */
static void test_writes_not_spaced(void **state) {
  (void)state;
  const char *longer =
    "param W = 4 in 1 .. 10000;\n"
    "resource nic; resource cpu[W]; resource disk = fcfs(2);\n"
    "process main { par (w = 0, W - 1) repeat (3) {\n"
    "  use(nic, 5us); use(cpu[w], 40us); use(disk, 11us) } }\n";
  const char *varied =
    "param W = 4 in 1 .. 10000;\n"
    "resource nic; resource cpu[W]; resource disk = fcfs(2);\n"
    "process main { par (w = 0, W - 1) repeat (3) {\n"
    "  use(nic, 5us); use(cpu[w], (40 + w) * 1us); use(disk, 10us) } }\n";
  double lo, hi, v[] = {4};
  redtest_eval(longer, 1, names, v, &lo, &hi);
  redtest_near(hi, 246e-6);
  redtest_eval(varied, 1, names, v, &lo, &hi);
  redtest_near(hi, 249e-6);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_writes_spaced_by_master),
    cmocka_unit_test(test_writes_not_spaced),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
