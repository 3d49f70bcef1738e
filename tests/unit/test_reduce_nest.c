/*
** test_reduce_nest.c — members dealt to the pairs of nested pars (lang/reduce/reduce_nest.c,
** docs/reduction.md "Members dealt to the pairs of nested pars"), on small models whose schedule
** is worked out by hand in the comments.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "reduce_case.h"

/* Q x Q branches, branch (i, j) sends t = 3us to port[(j + 1) % Q] (or port[(i + j) % Q]): for
** each i the Q branches name the Q ports once each, so every port gets Q requests, all at time 0,
** served one after another: the last ends at 3Q us, and no branch waits longer (lo = hi = sim;
** before, the family was taken as one resource: hi = 3 Q^2 us). */
static void test_nested_shift(void **state) {
  (void)state;
  static const char *const maps[] = {"(j + 1) % Q", "(i + j) % Q", "(i + j + 2) % Q", "(j + Q - 1) % Q"};
  const char *names[] = {"Q"};
  static const int qs[] = {1, 2, 3, 5, 8, 13};
  char text[512];
  for (size_t f = 0; f < sizeof maps / sizeof maps[0]; f++)
    for (size_t k = 0; k < sizeof qs / sizeof qs[0]; k++) {
      snprintf(text, sizeof text,
               "param Q = 4 in 1 .. 10000;\nresource port[Q];\n"
               "process main = par (i = 0, Q - 1) par (j = 0, Q - 1) use(port[%s], 3us);\n", maps[f]);
      double Q = qs[k], T = 3e-6 * qs[k];
      redtest_expect(text, 1, names, &Q, T, T, T);
    }
}

/* The same repeated twice, each branch first computing 1us: every round's requests all reach the
** ports at 1us, each port serves Q of them, the round ends at 1 + 3Q us; the second round starts
** when the first is over: 2 + 6Q us (before: lo 6Q us, est -14% at Q = 2). */
static void test_nested_rounds(void **state) {
  (void)state;
  const char *text =
    "param Q = 4 in 1 .. 10000;\nresource port[Q];\n"
    "process main = repeat (2) par (i = 0, Q - 1) par (j = 0, Q - 1) { delay(1us); use(port[(i + j) % Q], 3us) };\n";
  const char *names[] = {"Q"};
  for (int q = 1; q <= 9; q += 2) {
    double Q = q, T = 2e-6 + 6e-6 * q;
    redtest_expect(text, 1, names, &Q, T, T, T);
  }
}

/* The outer index names the member: par (i = 0, P - 1) par (j = 0, 2) use(nic[(i + 1) % P], 2us):
** one-to-one in i for every j, so every nic gets the 3 requests of one i: 6us. */
static void test_nested_outer(void **state) {
  (void)state;
  const char *text =
    "param P = 4 in 1 .. 10000;\nresource nic[P];\n"
    "process main = par (i = 0, P - 1) par (j = 0, 2) use(nic[(i + 1) % P], 2us);\n";
  const char *names[] = {"P"};
  for (int p = 1; p <= 64; p *= 4) {
    double P = p;
    redtest_expect(text, 1, names, &P, 6e-6, 6e-6, 6e-6);
  }
}

/* Where the distinct members do not fill the family, the counts are not claimed: port[j] over
** j = 0 .. Q - 1 in a family of Q + 1 ports (2 requests at ports 0 .. Q - 1, none at port Q:
** 6us), and a map that names a member twice for each i (port[j == 0 ? 1 % Q : j], 4 requests at
** port 1 when Q >= 2: 12us). The bounds still hold the simulated time. */
static void test_nested_not_filled(void **state) {
  (void)state;
  const char *names[] = {"Q"};
  const char *partial =
    "param Q = 4 in 1 .. 10000;\nresource port[Q + 1];\n"
    "process main = par (i = 0, 1) par (j = 0, Q - 1) use(port[j], 3us);\n";
  const char *twice =
    "param Q = 4 in 1 .. 10000;\nresource port[Q];\n"
    "process main = par (i = 0, 1) par (j = 0, Q - 1) use(port[j == 0 ? 1 % Q : j], 3us);\n";
  for (int q = 1; q <= 5; q++) {
    double Q = q;
    redtest_expect_lo(partial, 1, names, &Q, -1, 6e-6);
    redtest_expect_lo(twice, 1, names, &Q, -1, q >= 2 ? 12e-6 : 6e-6);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_nested_shift),
    cmocka_unit_test(test_nested_rounds),
    cmocka_unit_test(test_nested_outer),
    cmocka_unit_test(test_nested_not_filled),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
