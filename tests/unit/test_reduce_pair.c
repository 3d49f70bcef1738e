/*
** test_reduce_pair.c — two stages in a row, the second of several servers (lang/reduce/order/
** reduce_order.c, pair_lower and pair_last_rounds; docs/reduction.md "Two stages in a row"):
** small pipelines whose schedule is worked out by hand in the comments (the simulated time) and
** whose lower bounds are derived by hand from the rule.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "reduce_case.h"

/* M items through fe (2 us), st[0] (4 us), st[1] (12 us), st[2] (4 us), st[3] (3 us), every st[j]
** of 2 servers (audit 3's m27). M = 4: fe ends them at 2, 4, 6, 8; st[0] at 6, 8, 10, 12; st[1]
** serves 0 and 1 from 6 and 8 (to 18, 20), 2 and 3 from 18 and 20 (to 30, 32); item 3 then 4 + 3:
** 39 us simulated. lo: r0 = 4 - 2 (2 - 1) = 2 items leave fe no earlier than 2 * 2 us, reach st[1]
** 4 us later, and both its rounds follow: 4 + 4 + 2 * 12 + 7 = 39 (before: 37, st[1] alone from
** 6 us). M = 8: r0 = 2, 4 + 4 + 4 * 12 + 7 = 63, the simulated time (before 61). */
static void test_second_stage_two_servers(void **state) {
  (void)state;
  const char *text = "param M = 4;\nresource st[4] = fcfs(2);\nresource fe;\n"
                     "process main = par (i = 0, M - 1) { use(fe, 2us); use(st[0], 4us); use(st[1], 12us);"
                     " use(st[2], 4us); use(st[3], 3us) };\n";
  redtest_expect_lo1(text, "M", 4, 39e-6, 39e-6);
  redtest_expect_lo1(text, "M", 8, 63e-6, 63e-6);
}

/* a of 2 servers (3 us), then b of 3 servers (10 us), M = 6: a ends 0, 1 at 3, 2, 3 at 6, 4, 5 at 9;
** b serves 0, 1, 2 from 3, 3, 6 (to 13, 13, 16), then 3, 4 from 13 and 5 from 16: 26 us simulated.
** lo: r0 = 6 - 3 = 3 items leave a no earlier than ceil(3 / 2) 3 = 6 us, and b's 2 rounds follow:
** 6 + 20 = 26 (before: 23, b alone from 3 us). */
static void test_both_stages_wide(void **state) {
  (void)state;
  const char *text = "param M = 6;\nresource a = fcfs(2);\nresource b = fcfs(3);\n"
                     "process main = par (i = 0, M - 1) { use(a, 3us); use(b, 10us) };\n";
  redtest_expect_lo1(text, "M", 6, 26e-6, 26e-6);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_second_stage_two_servers),
    cmocka_unit_test(test_both_stages_wide),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
