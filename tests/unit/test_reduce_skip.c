/*
** test_reduce_skip.c — lines of stages that some items skip or that fork (lang/reduce/order/reduce_skip.c,
** the periodic guard of reduce_release.c; docs/reduction.md "Tandem line" and "A stage some
** branches skip"): small pipelines whose schedule is worked out by hand in the comments (the
** simulated time) and whose bounds are derived by hand from the rules.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "reduce_case.h"

/* M items through 4 stages, the odd ones skipping stage 1 (10 us; the others 2 us). M = 7: the
** items leave st[0] every 2 us; the evens 0, 2, 4, 6 queue at st[1] from 2 us: 2 .. 12, 12 .. 22,
** 22 .. 32, 32 .. 42, then item 6 passes st[2] and st[3]: 46 us simulated. lo: the 4 evens
** reach st[1] at 2 us at the earliest and run 4 us after it: 2 + 4 * 10 + 4 = 46 (before: the
** guard was no comparison of k, 20.5). hi: D = 2 + 10 + 2 + 2 = 16 and theta = 2 us: 2 (M - 1) +
** (4 - 1) (10 - 2) = 36: 52 (theta = 10 us, the tandem line's: 60; before 76, the line not read
** under the guard). M = 8: lo 46 (sim 46), hi 16 + 14 + 24 = 54. M = 1: 16 us, exact. */
static void test_odd_items_skip(void **state) {
  (void)state;
  const char *text = "param M = 8;\nconst S = 4;\nresource st[S];\n"
                     "process main = par (i = 0, M - 1) seq (s = 0, S - 1)\n"
                     "  if (not (s == 1 and i % 2 == 1)) use(st[s], s == 1 ? 10us : 2us);\n";
  const char *names[] = {"M"};
  double m7 = 7, m8 = 8, m1 = 1;
  redtest_expect(text, 1, names, &m7, 46e-6, 46e-6, 52e-6);
  redtest_expect(text, 1, names, &m8, 46e-6, 46e-6, 54e-6);
  redtest_expect(text, 1, names, &m1, 16e-6, 16e-6, 16e-6);
}

/* A stage forked onto two units: use(a, 3us); { use(b1, 4us) || use(b2, 5us) }; use(c, 3us). Item
** j leaves a at 3 (j + 1), b2 (the slower branch) serves them back to back from 3: j ends there at
** 8 + 5 j, then c: 11 + 5 j. M = 4: 26 us simulated; hi = 3 + 5 + 3 + (M - 1) 5 = 26 (the fork a
** stage of the line taking its longest branch; before 44, every request summed). M = 1: 11. */
static void test_forked_stage(void **state) {
  (void)state;
  const char *text = "param M = 4;\nresource a;\nresource b1;\nresource b2;\nresource c;\n"
                     "process main = par (i = 0, M - 1) { use(a, 3us); { use(b1, 4us) || use(b2, 5us) }; use(c, 3us) };\n";
  const char *names[] = {"M"};
  double m4 = 4, m1 = 1;
  redtest_expect(text, 1, names, &m4, 26e-6, 26e-6, 26e-6);
  redtest_expect(text, 1, names, &m1, 11e-6, 11e-6, 11e-6);
  /* a branch whose delay before its stage depends on the item may reorder them: no line through
  ** the fork (hi stays the requests summed, 15 / 27 us; simulated 10 and 18 us) */
  const char *skew = "param M = 4;\nresource a;\nresource b1;\nresource b2;\nresource c;\n"
                     "process main = par (i = 0, M - 1) { use(a, 1us);"
                     " { { delay((i % 2) * 3us); use(b1, 4us) } || use(b2, 2us) }; use(c, 1us) };\n";
  double m2 = 2;
  redtest_expect(skew, 1, names, &m2, 10e-6, 10e-6, 15e-6);
  redtest_expect(skew, 1, names, &m4, 18e-6, 18e-6, 27e-6);
}

/* A fetch on a shared server that every 5th item skips, then a compute beside a log write:
** `if (i % 5 != 4) use(fetch, 4us); { delay(6us) || use(logd, 1us) }`. M = 5: items 0 .. 3 fetch
** back to back, the last ends at 16 and computes 6 us: 22 us simulated; lo = 0 + 4 * 4 + 6 = 22
** (the tail after the fetch the fork's longest branch; before: 16, the fetch's demand). M = 10: 8
** fetches: 32 + 6 = 38 (simulated 38; before 32). (The class counts floor((M - 1 - i) / 5) + 1
** evaluated over intervals at M symbolic lose a class whose count is a whole number of fives
** beside a class the guard lets through, M = 7: 26 us; predict at a point reduces with M
** known and gives 30, the simulated time. Here that class is the one the guard drops.) */
static void test_tail_fork(void **state) {
  (void)state;
  const char *text = "param M = 5;\nresource fetch;\nresource logd;\n"
                     "process main = par (i = 0, M - 1) { if (i % 5 != 4) use(fetch, 4us); { delay(6us) || use(logd, 1us) } };\n";
  redtest_expect_lo1(text, "M", 5, 22e-6, 22e-6);
  redtest_expect_lo1(text, "M", 10, 38e-6, 38e-6);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_odd_items_skip),
    cmocka_unit_test(test_forked_stage),
    cmocka_unit_test(test_tail_fork),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
