/*
** test_reduce_fold.c — nested pars read as the digits of one index (lang/reduce/order/
** reduce_order.c, fold_pars and injective_levels; docs/reduction.md "Nested pars read as the
** digits of one index"), on small models whose schedule is worked out by hand in the comments.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <cmocka.h>

#include "reduce_case.h"

static const int qs[] = {1, 2, 3, 5};

/* Q x Q x Q branches, branch (i, j, k) sends t = 3us to link[m(i, j, k)], m the cell itself or its
** neighbour + 1 or - 1 in one dimension with wrap, or the cube read the other way round: each map
** names every link once, so every request starts at 0 and ends at 3us (lo = hi = sim). Before, the
** family was taken as one resource: hi = 3 Q^3 us (24us at Q = 2, 375us at Q = 5). */
static void test_cube_maps(void **state) {
  (void)state;
  static const char *const maps[] = {"(i * Q + j) * Q + k", "((i + 1) % Q * Q + j) * Q + k",
                                     "((i + Q - 1) % Q * Q + j) * Q + k", "(i * Q + (j + 1) % Q) * Q + k",
                                     "(i * Q + (j + Q - 1) % Q) * Q + k", "(i * Q + j) * Q + (k + 1) % Q",
                                     "(i * Q + j) * Q + (k + Q - 1) % Q", "(k * Q + j) * Q + i"};
  const char *names[] = {"Q"};
  char text[512];
  for (size_t f = 0; f < sizeof maps / sizeof maps[0]; f++)
    for (size_t q = 0; q < sizeof qs / sizeof qs[0]; q++) {
      snprintf(text, sizeof text,
               "param Q = 4 in 1 .. 100;\nresource link[Q * Q * Q];\n"
               "process main = par (i = 0, Q - 1) par (j = 0, Q - 1) par (k = 0, Q - 1)\n"
               "  use(link[%s], 3us);\n",
               maps[f]);
      double Q = qs[q];
      redtest_expect(text, 1, names, &Q, 3e-6, 3e-6, 3e-6);
    }
}

/* Four nested pars, 2 x Q x Q x Q, the ranges of the inner three from 1 (the members written
** with i - 1, ...), the z neighbour: one request per link, 3us (before: hi 6 Q^3 us). */
static void test_four_levels(void **state) {
  (void)state;
  const char *text =
    "param Q = 4 in 1 .. 100;\nresource link[2 * Q * Q * Q];\n"
    "process main = par (a = 0, 1) par (i = 1, Q) par (j = 1, Q) par (k = 1, Q)\n"
    "  use(link[((a * Q + i - 1) * Q + j - 1) * Q + k % Q], 3us);\n";
  const char *names[] = {"Q"};
  for (size_t q = 0; q < sizeof qs / sizeof qs[0]; q++) {
    double Q = qs[q];
    redtest_expect(text, 1, names, &Q, 3e-6, 3e-6, 3e-6);
  }
}

/* The x faces both ways at once, then 30us of compute on the cell's own cpu (audit 6's
** g3_est_x_cpu): the + 1 and the - 1 maps each name every link once, so each link gets two
** requests at time 0 (at Q <= 2 the two of one branch), served one after the other: the sends of
** every branch end by 6us, the compute by 36us, and nothing waits on a cpu (lo = hi = 36us;
** before lo 33us, hi 972us at Q = 3). */
static void test_cube_two_way(void **state) {
  (void)state;
  const char *text =
    "param Q = 4 in 1 .. 100;\nresource link[Q * Q * Q];\nresource cpu[Q * Q * Q];\n"
    "fn id(i, j, k) = (i * Q + j) * Q + k;\n"
    "process main = par (i = 0, Q - 1) par (j = 0, Q - 1) par (k = 0, Q - 1) {\n"
    "  use(link[id((i + 1) % Q, j, k)], 3us) || use(link[id((i + Q - 1) % Q, j, k)], 3us);\n"
    "  use(cpu[id(i, j, k)], 30us)\n};\n";
  const char *names[] = {"Q"};
  for (size_t q = 0; q < sizeof qs / sizeof qs[0]; q++) {
    double Q = qs[q];
    redtest_expect(text, 1, names, &Q, 36e-6, 36e-6, 36e-6);
  }
}

/* A map that is not one-to-one in the triple, (i * Q + j) * Q: the Q branches (i, j, k) of one
** (i, j) share a link, Q requests of 3us each at 0: 3Q us, the lower bound exactly; the upper bound
** must stay above it (the rule must not read the map as one-to-one). */
static void test_cube_not_one_to_one(void **state) {
  (void)state;
  const char *text =
    "param Q = 4 in 1 .. 100;\nresource link[Q * Q * Q];\n"
    "process main = par (i = 0, Q - 1) par (j = 0, Q - 1) par (k = 0, Q - 1)\n"
    "  use(link[(i * Q + j) * Q], 3us);\n";
  const char *names[] = {"Q"};
  for (size_t q = 0; q < sizeof qs / sizeof qs[0]; q++) {
    double Q = qs[q], lo, hi;
    redtest_expect_lo(text, 1, names, &Q, 3e-6 * Q, 3e-6 * Q);
    redtest_eval(text, 1, names, &Q, &lo, &hi);
    assert_true(hi >= 3e-6 * Q * (1 - 1e-9));
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_cube_maps),
    cmocka_unit_test(test_four_levels),
    cmocka_unit_test(test_cube_two_way),
    cmocka_unit_test(test_cube_not_one_to_one),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
