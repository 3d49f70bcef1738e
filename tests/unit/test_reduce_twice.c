/*
** test_reduce_twice.c — a stage used again by every branch at once (lang/reduce/order/
** reduce_twice.c, docs/reduction.md "A stage used again by every branch at once"), on models
** whose schedule is worked out by hand in the comments.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "reduce_case.h"

/* Two pipeline stages on one rank, M items: `use(a, t); use(a, t); use(b, t); use(b, t)`, t = 3us.
** All first requests reach a at 0 and are served first (FCFS, ties in program order): item i's
** first ends at i t, its second (arriving at i t, behind every first) at (M + i) t. b gets item 1
** at (M + 1) t and always has work after: it ends at (M + 1) t + 2 M t = (3 M + 1) t. The rule at
** j = 1: h + M t + Y + b + M W + tail = 0 + M t + t + 0 + 2 M t + 0, the simulated time (before:
** (2 M + 2) t, the work of b after the earliest reach). M = 24: 219us (before 150us); M = 4: 39us
** (before 30us). */
static const char *pr_min =
  "param M = 24 in 1 .. 100000;\n"
  "const t = 3us;\n"
  "resource a; resource b;\n"
  "process main { par (i = 1, M) { use(a, t); use(a, t); use(b, t); use(b, t) } }\n";

static void test_two_stages_twice(void **state) {
  (void)state;
  redtest_expect_lo1(pr_min, "M", 24, 219e-6, 219e-6);
  redtest_expect_lo1(pr_min, "M", 4, 39e-6, 39e-6);
  redtest_expect_lo1(pr_min, "M", 1, 12e-6, 12e-6);
}

/* Durations that depend on the item: `use(a, 1us + i us); use(a, 2us); use(b, 5us)`, M = 3.
** h = 0, min t_x = 2us (i = 1), Y = 2us, W = 5us: j = 1: 3 x 2 + 2 + 0 + 3 x 5 + 0 = 23us (j = M:
** 6 + 6 + 5 = 17us; before: 19us). Schedule: the firsts end at 2, 5, 9us; the seconds at 11, 13,
** 15us; b serves them from 11 to 16, 16 to 21, 21 to 26: sim = 26us. */
static void test_unequal_firsts(void **state) {
  (void)state;
  const char *text =
    "param M = 3 in 1 .. 100;\n"
    "resource a; resource b;\n"
    "process main { par (i = 1, M) { use(a, 1us + i * 1us); use(a, 2us); use(b, 5us) } }\n";
  redtest_expect_lo1(text, "M", 3, 23e-6, 26e-6);
}

/* A request of 0 s first: `use(a, 0us); use(a, 2us); use(b, 3us)`: branch 1's second request
** reaches a at the instant of branch 2's first (program order: before it), so the rule keeps
** out (t_x > 0 fails): lo stays b's work after the earliest reach, 2 + 3 M = 23us at M = 7, the
** simulated time. */
static void test_zero_first_keeps_out(void **state) {
  (void)state;
  const char *text =
    "param M = 7 in 1 .. 100;\n"
    "resource a; resource b;\n"
    "process main { par (i = 1, M) { use(a, 0us); use(a, 2us); use(b, 3us) } }\n";
  redtest_expect_lo1(text, "M", 7, 23e-6, 23e-6);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_two_stages_twice),
    cmocka_unit_test(test_unequal_firsts),
    cmocka_unit_test(test_zero_first_keeps_out),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
