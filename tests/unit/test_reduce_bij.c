/*
** test_reduce_bij.c — the reduction's one-to-one member maps of a grid read with one index or
** as a ring over two loops (lang/reduce/order/reduce_order.c: whole rows drop out of a remainder,
** one-to-one maps wrapped by a remainder) and the budget of the own sites
** (lang/reduce/order/reduce_budget.c), on small models whose schedule is worked out by hand in the
** comments and whose bounds are derived by hand from docs/reduction.md.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>

#include "reduce_case.h"

/* A model of Q*Q ranks (one index p, or two loops i, j when two is set) that each compute d = 2us
** and send t = 1us to member `form` of nic[rows * Q]. */
static void grid_text(char *text, size_t size, const char *form, int two, const char *rows) {
  snprintf(text, size,
           "param Q = 4 in 1 .. 100; const R = 3; const d = 2us; const t = 1us;\n"
           "resource nic[%s * Q];\n"
           "process main { %s { delay(d); use(nic[%s], t) } }\n",
           rows, two ? "par (i = 0, Q - 1) par (j = 0, Q - 1)" : rows[0] == 'Q' ? "par (p = 0, Q * Q - 1)" : "par (p = 0, R * Q - 1)",
           form);
}

/* One-to-one maps: every member gets one request, at d: lo = sim = hi = d + t = 3us at every Q
** (the family as one resource gave hi = d + Q^2 t). The forms users write for the row shift of a
** torus with one index (the row start p - p % Q or Q * floor(p / Q), the column shift on p % Q or
** on p, or a conditional on p % Q), on Q x Q and on 3 x Q grids, and the ring over the grid read
** row by row, (i*Q + j + c) % (Q*Q) over two loops (u = i*Q + j + c is one-to-one in (i, j) and
** spans Q^2 - 1). */
static void test_grid_forms_one_to_one(void **state) {
  (void)state;
  static const char *const flat[] = {
    "(p - p % Q) + (p % Q + 1) % Q", "(p - p % Q) + (p % Q + Q - 1) % Q", "Q * floor(p / Q) + (p + 1) % Q",
    "floor(p / Q) * Q + (p + Q - 1) % Q", "p % Q + Q * floor(p / Q)", "(p + 1) % Q + p - p % Q",
    "(p + Q) % (Q * Q)", "p % Q == Q - 1 ? p - Q + 1 : p + 1", "p % Q == 0 ? p + Q - 1 : p - 1",
    "p + 1 - (p % Q == Q - 1 ? Q : 0)", "p - 1 + Q * (p % Q == 0 ? 1 : 0)"};
  static const char *const rect[] = {"(p - p % Q) + (p % Q + 1) % Q", "Q * floor(p / Q) + (p + Q - 1) % Q",
                                     "(p + Q) % (R * Q)"};
  static const char *const pairs[] = {"(i * Q + j + 1) % (Q * Q)", "(i * Q + j + Q * Q - 1) % (Q * Q)",
                                      "(j + Q * i + Q) % (Q * Q)", "((i + 1) * Q + j) % (Q * Q)",
                                      "i * Q + (j + 1) % Q", "i * Q + (j == Q - 1 ? 0 : j + 1)"};
  const char *names[] = {"Q"};
  static const double qs[] = {1, 2, 3, 5, 8};
  char text[512];
  for (size_t q = 0; q < sizeof qs / sizeof qs[0]; q++) {
    for (size_t f = 0; f < sizeof flat / sizeof flat[0]; f++) {
      grid_text(text, sizeof text, flat[f], 0, "Q");
      redtest_expect(text, 1, names, &qs[q], 3e-6, 3e-6, 3e-6);
    }
    for (size_t f = 0; f < sizeof rect / sizeof rect[0]; f++) {
      grid_text(text, sizeof text, rect[f], 0, "R");
      redtest_expect(text, 1, names, &qs[q], 3e-6, 3e-6, 3e-6);
    }
    for (size_t f = 0; f < sizeof pairs / sizeof pairs[0]; f++) {
      grid_text(text, sizeof text, pairs[f], 1, "Q");
      redtest_expect(text, 1, names, &qs[q], 3e-6, 3e-6, 3e-6);
    }
  }
}

/* Maps that look alike but name a member twice must keep hi >= sim. (i*Q + j + 1) % (Q*Q - 1)
** at Q = 3: u = 1 .. 9 wraps at 8, so members 1 gets the requests of (0, 0) and (2, 2): sim =
** d + 2t = 4us. Q * floor(p / Q) + floor(p % Q / 2) at Q = 4: each member of 0, 1, 4, 5, ... gets
** two requests: sim = 4us. p % Q == 0 ? p + 1 : p - 1 at Q = 4: p = 0 and p = 2 both name 1:
** sim = 4us. */
static void test_grid_forms_not_one_to_one(void **state) {
  (void)state;
  const char *names[] = {"Q"};
  char text[512];
  double lo, hi, q3 = 3, q4 = 4;
  grid_text(text, sizeof text, "(i * Q + j + 1) % (Q * Q - 1)", 1, "Q");
  redtest_eval(text, 1, names, &q3, &lo, &hi);
  assert_true(lo <= 4e-6 * (1 + REDTEST_REL_TOL) && hi >= 4e-6 * (1 - REDTEST_REL_TOL));
  grid_text(text, sizeof text, "Q * floor(p / Q) + floor(p % Q / 2)", 0, "Q");
  redtest_eval(text, 1, names, &q4, &lo, &hi);
  assert_true(lo <= 4e-6 * (1 + REDTEST_REL_TOL) && hi >= 4e-6 * (1 - REDTEST_REL_TOL));
  grid_text(text, sizeof text, "p % Q == 0 ? p + 1 : p - 1", 0, "Q");
  redtest_eval(text, 1, names, &q4, &lo, &hi);
  assert_true(lo <= 4e-6 * (1 + REDTEST_REL_TOL) && hi >= 4e-6 * (1 - REDTEST_REL_TOL));
}

/* Halo to both ring neighbours at once (h = 1.5us), then R = 4 uses of the own NIC (r = 1us).
** Schedule (P >= 2): member q gets its two halo requests at 0 (from q - 1 and q + 1), served
** 0 .. 1.5 and 1.5 .. 3, so every branch's `||` ends at 3 at the latest; its own uses then find
** nic[p] free: sim = 3 + 4 = 7us. lo (a member several sites request): 0 + max(2 * 1.5, 3) + R r
** = 7us. hi: C = 3 clients at a member (two halo sites, the own group), S = 2h + r; a halo waits
** min(2 max(h, r), S - h) = 2.5us; the own group's budget: the other sites bring 2h = 3us to
** nic[p], so its four uses wait 3us in all (min(3, 4 * min(3, S - r))): hi = h + 2.5 + R r + 3 =
** 11us (each own use charged min(3, 3) = 3us gave 1.5 + 2.5 + 4 * 4 = 20us). */
static void test_budget_own_after_halo(void **state) {
  (void)state;
  const char *text =
    "param P = 8 in 1 .. 10000; const R = 4; const h = 1.5us; const r = 1us;\n"
    "resource nic[P];\n"
    "process main { par (p = 0, P - 1) {\n"
    "  use(nic[(p + 1) % P], h) || use(nic[(p + P - 1) % P], h);\n"
    "  repeat (R) use(nic[p], r) } }\n";
  const char *names[] = {"P"};
  static const double ps[] = {2, 3, 16, 1000};
  for (size_t k = 0; k < sizeof ps / sizeof ps[0]; k++) redtest_expect(text, 1, names, &ps[k], 7e-6, 7e-6, 11e-6);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_grid_forms_one_to_one),
    cmocka_unit_test(test_grid_forms_not_one_to_one),
    cmocka_unit_test(test_budget_own_after_halo),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
