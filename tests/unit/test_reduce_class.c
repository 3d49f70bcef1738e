/*
** test_reduce_class.c — the demand of one residue class when a par deals its branches round robin
** and the demand depends on the branch (lang/reduce/reduce_demand.c, class_demand_lo;
** docs/reduction.md "Round robin with demands that depend on the index"), on small models whose
** times are worked out by hand in the comments. Each case checks lo against its derivation and
** lo <= simulated <= hi.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "reduce_case.h"

/* Ten branches on cpu[i % 4], branch i takes (i + 1) us. Member 1 receives i = 1, 5, 9: 2 + 6 +
** 10 = 18 us; member 0: 1 + 5 + 9 = 15; member 2: 3 + 7; member 3: 4 + 8. The members run apart:
** 18 us. The rule takes the member of the last index, 9: 18 (before: the largest branch, 10). */
static void test_one_step(void **state) {
  (void)state;
  const char *text = "param N = 10;\nresource cpu[4];\n"
                     "process main = par (i = 0, N - 1) use(cpu[i % 4], (i + 1) * 1us);\n";
  redtest_expect_lo1(text, "N", 10, 18e-6, 18e-6);
  redtest_expect_lo1(text, "N", 1, 1e-6, 1e-6);
}

/* A wavefront over a 3 x 3 table, cell (i, d - i) costs (i + 1) us on cpu[i % 2]. Diagonals:
** d = 0: i = 0, 1; d = 1: i = 0, 1 on two cores, 2; d = 2: i = 0, 1, 2: core 0 takes 1 + 3, 4;
** d = 3: i = 1, 2: 3; d = 4: i = 2: 3. In all 1 + 2 + 4 + 3 + 3 = 13 us (before: 12, the largest
** cell of each diagonal). */
static void test_wavefront(void **state) {
  (void)state;
  const char *text = "param N = 3;\nresource cpu[2];\n"
                     "process main { seq (d = 0, 2 * N - 2)\n"
                     "  par (i = max(0, d - (N - 1)), min(d, N - 1)) use(cpu[i % 2], (i + 1) * 1us) }\n";
  redtest_expect_lo1(text, "N", 3, 13e-6, 13e-6);
}

/* A falling index (7 - i) % 3 over i = 0 .. 4: members 1, 0, 2, 1, 0. Member 0 receives i = 1, 4:
** 2 + 5 = 7 us; member 1: 1 + 4; member 2: 3. Time 7 us; the class of the last index, 4, is
** member 0's. */
static void test_falling_index(void **state) {
  (void)state;
  const char *text = "param N = 5;\nresource cpu[3];\n"
                     "process main = par (i = 0, N - 1) use(cpu[(7 - i) % 3], (i + 1) * 1us);\n";
  redtest_expect_lo1(text, "N", 5, 7e-6, 7e-6);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_one_step),
    cmocka_unit_test(test_wavefront),
    cmocka_unit_test(test_falling_index),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
