/*
** test_reduce_except.c — a member map one-to-one but for an exception (lang/reduce/
** reduce_except.c, docs/reduction.md "A map one-to-one but for an exception"), on small models
** whose schedule is worked out by hand in the comments.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>

#include "reduce_case.h"

static void expect_at(const char *index, int P, double lo, double sim, double hi) {
  char text[512];
  snprintf(text, sizeof text,
           "param P = 8 in 2 .. 100000;\nresource nic[P];\n"
           "process main = par (p = 0, P - 1) use(nic[%s], 5us);\n", index);
  const char *names[] = {"P"};
  double v = P;
  redtest_expect(text, 1, names, &v, lo, sim, hi);
}

/* Rank 0 sends to 2 % P, the others to (p + 1) % P: member 2 % P gets ranks 0 and 1 (at P = 2
** both name member 0), 5 + 5 = 10us, and no member gets more than one rank of each of the two
** ranges (p = 0; 1 .. P - 1): lo = hi = sim = 10us (before: lo 5us, hi 5P us). The same with the
** ring backwards, rank 0 to 1 % P and the others to (P - p) % P: member 1 gets ranks 0 and P - 1. */
static void test_shift_exception(void **state) {
  (void)state;
  static const int ps[] = {2, 3, 4, 7, 64, 10000};
  for (size_t k = 0; k < sizeof ps / sizeof ps[0]; k++) {
    expect_at("p == 0 ? 2 % P : (p + 1) % P", ps[k], 10e-6, 10e-6, 10e-6);
    expect_at("p == 0 ? 1 % P : (P - p) % P", ps[k], 10e-6, 10e-6, 10e-6);
  }
}

/* Rank 1 sends to 0, the others to (p + P - 1) % P: rank 1's usual member is 0 too, so no two ranks
** meet (ranks 0, 2 .. P - 1 name P - 1, 1 .. P - 2): sim = 5us, and the test of a meeting fails,
** lo = 5us; hi: three ranges (p = 0; p = 1; 2 .. P - 1), at most one rank of each at a member:
** 15us at P >= 3. */
static void test_exception_apart(void **state) {
  (void)state;
  static const int ps[] = {3, 4, 9, 100};
  for (size_t k = 0; k < sizeof ps / sizeof ps[0]; k++)
    expect_at("p == 1 ? 0 : (p + P - 1) % P", ps[k], 5e-6, 5e-6, 15e-6);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_shift_exception),
    cmocka_unit_test(test_exception_apart),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
