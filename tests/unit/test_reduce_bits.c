/*
** test_reduce_bits.c — a member map that combines the bits of the branch one by one (lang/reduce/
** reduce_bits.c, docs/reduction.md "Bits combined one by one"), on models written with numbers
** (as `pamc predict -D L=11` sees them) whose schedule is worked out by hand in the comments.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <cmocka.h>

#include "reduce_case.h"

/* The pairwise all-to-all on 2048 ranks, a barrier per round: round k = 1 .. 2047 sends t = 2us
** to nic[xr(p, k)], xr summing the 11 bits of p xor k. p -> p xor k is a bijection of 0 .. 2047
** for every k: one request per member per round, none waits, lo = hi = sim = 2047 t = 4.094 ms.
** Before, evaluation stopped at its 2^20 points (2047 x 2048 here) and hi was the family as one
** resource, 2048 times that. Both ways of writing a bit: floor(a / 2^i) % 2, and floor(a / 2^i)
** alone inside the remainder by 2 (the same parity). */
static void test_xor_beyond_points(void **state) {
  (void)state;
  static const char *const bits[] = {
    "(floor(a / 2 ^ i) % 2 + floor(b / 2 ^ i) % 2) % 2",
    "(floor(a / 2 ^ i) + floor(b / 2 ^ i)) % 2",
  };
  for (size_t j = 0; j < sizeof bits / sizeof bits[0]; j++) {
    char text[512];
    snprintf(text, sizeof text,
             "fn xr(a, b) = sum(i = 0, 10, 2 ^ i * (%s));\nresource nic[2048];\n"
             "process main { seq (k = 1, 2047) par (p = 0, 2047) use(nic[xr(p, k)], 2us) }\n", bits[j]);
    redtest_expect(text, 0, NULL, NULL, 4.094e-3, 4.094e-3, 4.094e-3);
  }
}

/* Nine ranks, three bits: rank 8 (1000 in binary) has the bits of rank 0 within bits 0 .. 2, so
** in every round k = 1 .. 7 member k gets ranks 0 and 8: the map is not one-to-one (the rule's
** range check, 8 > 2^3 - 1, must refuse it). Each round takes 2 x 1us at that member: sim =
** 7 x 2 = 14us, which hi must hold (one-to-one would claim 7us). */
static void test_range_beyond_bits(void **state) {
  (void)state;
  const char *text =
    "fn xr(a, b) = sum(i = 0, 2, 2 ^ i * ((floor(a / 2 ^ i) + floor(b / 2 ^ i)) % 2));\nresource nic[8];\n"
    "process main { seq (k = 1, 7) par (p = 0, 8) use(nic[xr(p, k)], 1us) }\n";
  double lo, hi;
  redtest_eval(text, 0, NULL, NULL, &lo, &hi);
  assert_true(lo <= 14e-6 * (1 + REDTEST_REL_TOL) && hi >= 14e-6 * (1 - REDTEST_REL_TOL));
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_xor_beyond_points),
    cmocka_unit_test(test_range_beyond_bits),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
