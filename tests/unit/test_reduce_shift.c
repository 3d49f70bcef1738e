/*
** test_reduce_shift.c — the upper bound of shifted rounds that start apart (lang/reduce/order/reduce_shift.c,
** docs/reduction.md "Shifted rounds that start apart"): an all-to-all `use(port[(p + s k + c) % P], t)`
** in rounds after a prefix that differs between the branches. Each case checks hi against its hand
** derivation from U = max h - w + (R - m) iter + L (w + m t) + max z (q = floor(Delta / iter),
** m = min(R, q), L = min(R, m + min(R - 1, q))) and lo <= simulated <= hi (the simulated times from
** `pamc simulate`). The ratios Delta / iter are not integers, so q does not hang on rounding.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "reduce_case.h"

/* Fails unless hi is want_hi (its hand derivation) and lo <= sim <= hi at the given P. */
static void expect_hi(const char *text, double P, double want_hi, double sim) {
  double lo, hi;
  const char *names[] = {"P"};
  redtest_expect_lo1(text, "P", P, -1, sim);
  redtest_eval(text, 1, names, &P, &lo, &hi);
  redtest_near(hi, want_hi);
}

/* Rank 0 reads for 2.5 us, then all 8 ranks send 7 rounds of 1 us to (p + k) % 8. h = 2.5 us for
** rank 0, 0 for the others; iter = t = 1 us, w = 0, R = 7, Delta = 2.5: q = 2, m = 2, L = 4:
** U = 2.5 + (7 - 2) + 4 (0 + 2) = 15.5 us. Simulated: 10 us (rank 0 is first at every tie); lo is
** rank 0's 2.5 + 7 = 9.5 us. */
static void test_late_rank(void **state) {
  (void)state;
  const char *text = "param P = 8;\nresource port[P];\n"
                     "process main { par (p = 0, P - 1) { if (p == 0) delay(2.5us); "
                     "seq (k = 1, P - 1) use(port[(p + k) % P], 1us) } }\n";
  const char *names[] = {"P"};
  double P = 8;
  redtest_expect(text, 1, names, &P, 9.5e-6, 10e-6, 15.5e-6);
}

/* The starts within one round: rank 0 waits 1 us, every round computes 2 us and sends 1 us.
** iter = 3, Delta = 1: q = 0, the lock step from the latest start: h max = 1 + 2 = 3 us, U = 3 - 2
** + 5 * 3 = 16 us at P = 6 (R = 5); rank 0's requests come 1 us after the others' and never meet
** them: simulated 16 us, and lo = 16 us. */
static void test_within_a_round(void **state) {
  (void)state;
  const char *text = "param P = 6;\nresource port[P];\n"
                     "process main { par (p = 0, P - 1) { if (p == 0) delay(1us); "
                     "seq (k = 1, P - 1) { delay(2us); use(port[(p + k) % P], 1us) } } }\n";
  const char *names[] = {"P"};
  double P = 6;
  redtest_expect(text, 1, names, &P, 16e-6, 16e-6, 16e-6);
}

/* The shift backwards, twice round the ring (R = 2 P = 6 at P = 3) and 1 us after the rounds:
** rank 1 starts 2.5 us late. iter = t = 1, Delta = 2.5: q = 2, m = 2, L = min(6, 2 + 2) = 4:
** U = 2.5 + (6 - 2) + 4 * 2 + 1 = 15.5 us; simulated 10 us. */
static void test_backwards_twice(void **state) {
  (void)state;
  const char *text = "param P = 3;\nresource port[P];\n"
                     "process main { par (p = 0, P - 1) { if (p == 1) delay(2.5us); "
                     "seq (k = 1, 2 * P) use(port[(p + P - k) % P], 1us); delay(1us) } }\n";
  expect_hi(text, 3, 15.5e-6, 10e-6);
}

/* Packing on the rank's own cpu (2 us) before each send (1 us), rank 2 late by 4.5 us, P = 5.
** iter = 3, w = 2, h max = 4.5 + 2, Delta = 4.5: q = 1, m = 1, L = min(4, 2) = 2:
** U = 6.5 - 2 + 3 * 3 + 2 (2 + 1) = 19.5 us; simulated 16.5 us. */
static void test_own_work(void **state) {
  (void)state;
  const char *text = "param P = 5;\nresource cpu[P];\nresource port[P];\n"
                     "process main { par (p = 0, P - 1) { if (p == 2) delay(4.5us); "
                     "seq (k = 1, P - 1) { use(cpu[p], 2us); use(port[(p + k) % P], 1us) } } }\n";
  expect_hi(text, 5, 19.5e-6, 16.5e-6);
}

/* Not this rule: the packing differs between ranks (odd ranks 2 us, even 1 us), so the rounds do not
** take the same time on every branch; only lo <= simulated <= hi is checked (P = 8: 22 us). */
static void test_unequal_work(void **state) {
  (void)state;
  const char *text = "param P = 8;\nresource cpu[P];\nresource port[P];\n"
                     "process main { par (p = 0, P - 1) seq (k = 1, P - 1) "
                     "{ use(cpu[p], (1 + p % 2) * 1us); use(port[(p + k) % P], 1us) } }\n";
  redtest_expect_lo1(text, "P", 8, -1, 22e-6);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_late_rank),
    cmocka_unit_test(test_within_a_round),
    cmocka_unit_test(test_backwards_twice),
    cmocka_unit_test(test_own_work),
    cmocka_unit_test(test_unequal_work),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
