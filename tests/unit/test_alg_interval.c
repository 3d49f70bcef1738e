/*
** test_alg_interval.c — algebra/interval.c by hand cases: exact results stay exact, inexact ones
** are enclosed within the promised ulps (checked against exact rationals from GMP, not against
** the code's own arithmetic), infinite and undefined cases, and the ulp steps against nextafter.
*/
#include <float.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <gmp.h>
#include "interval.h"

static void expect_ival(AlgInterval got, double lo, double hi) {
  if (got.lo != lo || got.hi != hi)
    fail_msg("got [%.17g, %.17g], expected [%.17g, %.17g]", got.lo, got.hi, lo, hi);
}

/* lo < num/den < hi, exactly. */
static void expect_strictly_encloses(AlgInterval got, long num, long den) {
  mpq_t q, end;
  mpq_init(q);
  mpq_init(end);
  mpq_set_si(q, num, (unsigned long)den);
  mpq_canonicalize(q);
  mpq_set_d(end, got.lo);
  assert_true(mpq_cmp(end, q) < 0);
  mpq_set_d(end, got.hi);
  assert_true(mpq_cmp(end, q) > 0);
  mpq_clear(q);
  mpq_clear(end);
}

static void test_hand_products(void **state) {
  (void)state;
  /* [1,2]*[-3,4]: products -3, 4, -6, 8 -> [-6, 8], all exact. */
  expect_ival(ival_mul(ival_make(1, 2), ival_make(-3, 4)), -6, 8);
  expect_ival(ival_mul(ival_make(-2, -1), ival_make(-3, 4)), -8, 6);
  expect_ival(ival_mul(ival_make(-2, 5), ival_make(-3, 4)), -15, 20);
  expect_ival(ival_mul(ival_make(0.5, 0.5), ival_make(3, 3)), 1.5, 1.5);
  expect_ival(ival_add(ival_make(1, 2), ival_make(10, 20)), 11, 22);
  expect_ival(ival_sub(ival_make(1, 2), ival_make(10, 20)), -19, -8);
  expect_ival(ival_div(ival_make(6, 8), ival_make(2, 4)), 1.5, 4);
  expect_ival(ival_neg(ival_make(1, 2)), -2, -1);
}

static void test_one_third(void **state) {
  (void)state;
  AlgInterval t = ival_div(ival_point(1), ival_point(3));
  expect_strictly_encloses(t, 1, 3);
  /* width <= 2 ulp: at most two steps from lo to hi */
  assert_true(t.hi <= nextafter(nextafter(t.lo, INFINITY), INFINITY));
  /* the rounding direction is decided, so 1/3 is within one ulp: exactly one step */
  assert_true(t.hi == nextafter(t.lo, INFINITY));
  AlgInterval s = ival_add(ival_point(0.1), ival_point(0.2));
  /* 0.1 and 0.2 are doubles; their exact sum is a dyadic rational, enclosed in one ulp */
  mpq_t a, b, sum, end;
  mpq_inits(a, b, sum, end, NULL);
  mpq_set_d(a, 0.1);
  mpq_set_d(b, 0.2);
  mpq_add(sum, a, b);
  mpq_set_d(end, s.lo);
  assert_true(mpq_cmp(end, sum) <= 0);
  mpq_set_d(end, s.hi);
  assert_true(mpq_cmp(end, sum) >= 0);
  mpq_clears(a, b, sum, end, NULL);
  assert_true(s.hi == nextafter(s.lo, INFINITY));
}

static void test_sqrt(void **state) {
  (void)state;
  expect_ival(ival_sqrt(ival_make(4, 9)), 2, 3);
  expect_ival(ival_sqrt(ival_make(0, 0.25)), 0, 0.5);
  AlgInterval r = ival_sqrt(ival_point(2));
  /* lo^2 < 2 < hi^2 exactly */
  mpq_t x;
  mpq_init(x);
  mpq_set_d(x, r.lo);
  mpq_mul(x, x, x);
  assert_true(mpq_cmp_si(x, 2, 1) < 0);
  mpq_set_d(x, r.hi);
  mpq_mul(x, x, x);
  assert_true(mpq_cmp_si(x, 2, 1) > 0);
  mpq_clear(x);
  assert_true(r.hi == nextafter(r.lo, INFINITY));
  expect_ival(ival_sqrt(ival_make(-1, 4)), -INFINITY, INFINITY);
}

static void test_undefined_and_infinite(void **state) {
  (void)state;
  expect_ival(ival_div(ival_make(1, 2), ival_make(-1, 1)), -INFINITY, INFINITY);
  expect_ival(ival_div(ival_make(1, 2), ival_make(0, 1)), -INFINITY, INFINITY);
  expect_ival(ival_log(ival_make(0, 1)), -INFINITY, INFINITY);
  expect_ival(ival_log2(ival_make(-1, 1)), -INFINITY, INFINITY);
  expect_ival(ival_mul(ival_point(0), ival_entire()), 0, 0);
  expect_ival(ival_mul(ival_make(0, 1), ival_make(1, INFINITY)), 0, INFINITY);
  expect_ival(ival_add(ival_make(1, 2), ival_make(-INFINITY, 3)), -INFINITY, 5);
  expect_ival(ival_sub(ival_make(1, INFINITY), ival_make(0, INFINITY)), -INFINITY, INFINITY);
  expect_ival(ival_div(ival_make(1, 2), ival_make(1, INFINITY)), 0, 2);
  /* overflow: DBL_MAX * 2 is above DBL_MAX, below inf */
  expect_ival(ival_mul(ival_point(DBL_MAX), ival_point(2)), DBL_MAX, INFINITY);
  expect_ival(ival_add(ival_point(DBL_MAX), ival_point(DBL_MAX)), DBL_MAX, INFINITY);
  /* underflow: the smallest subnormal squared is in (0, tiny) */
  AlgInterval u = ival_mul(ival_point(0x1p-1074), ival_point(0x1p-1074));
  assert_true(u.lo <= 0 && u.hi > 0);
  AlgInterval d = ival_div(ival_point(1), ival_point(0x1p-1074));
  assert_true(d.hi == INFINITY && d.lo >= 0x1p1000);
}

static void test_pow(void **state) {
  (void)state;
  expect_ival(ival_pow(ival_point(2), ival_point(10)), 1024, 1024);
  expect_ival(ival_pow(ival_make(-2, 3), ival_point(2)), 0, 9);
  expect_ival(ival_pow(ival_make(-2, 3), ival_point(3)), -8, 27);
  expect_ival(ival_pow(ival_make(-3, -2), ival_point(2)), 4, 9);
  expect_ival(ival_pow(ival_make(2, 4), ival_point(-1)), 0.25, 0.5);
  expect_ival(ival_pow(ival_make(-1, 1), ival_point(-2)), -INFINITY, INFINITY);
  expect_ival(ival_pow(ival_make(5, 7), ival_point(0)), 1, 1);
  expect_ival(ival_pow(ival_make(-2, 2), ival_point(0.5)), -INFINITY, INFINITY);
  /* 0^y for y < 0 is a division by zero: undefined, entire */
  expect_ival(ival_pow(ival_make(0, 1), ival_make(-1, 1)), -INFINITY, INFINITY);
  AlgInterval r = ival_pow(ival_make(0, 1), ival_make(0.5, 2));   /* corners: 0, 0, 1, 1 */
  assert_true(r.lo <= 0 && r.lo > -1e-300 && r.hi >= 1 && r.hi < 1.000001);
  r = ival_pow(ival_point(2), ival_point(0.5));   /* sqrt(2) within a few ulps */
  assert_true(r.lo < M_SQRT2 && M_SQRT2 < r.hi && r.hi - r.lo < 1e-15);
  r = ival_pow(ival_make(4, 9), ival_make(0.5, 0.5));
  assert_true(r.lo <= 2 && r.lo > 1.999999 && r.hi >= 3 && r.hi < 3.000001);
  /* 3^40 = 12157665459056928801 > 2^53: enclosed, not exact */
  r = ival_powi(ival_point(3), 40);
  assert_true(r.lo <= 12157665459056928801.0 && r.hi >= 12157665459056928801.0);
  assert_true(r.lo < r.hi && r.hi - r.lo < 1e5);
}

static void test_transcendental(void **state) {
  (void)state;
  expect_ival(ival_exp(ival_point(0)), 1, 1);
  expect_ival(ival_log(ival_point(1)), 0, 0);
  expect_ival(ival_log2(ival_make(8, 1024)), 3, 10);
  expect_ival(ival_log2(ival_point(0.25)), -2, -2);
  AlgInterval e = ival_exp(ival_point(1));
  assert_true(e.lo < M_E && M_E < e.hi && e.hi - e.lo < 4e-15);
  AlgInterval l = ival_log(ival_point(10));
  assert_true(l.lo < M_LN10 && M_LN10 < l.hi && l.hi - l.lo < 4e-15);
  AlgInterval z = ival_exp(ival_make(-INFINITY, 0));
  expect_ival(z, 0, 1);
  AlgInterval big = ival_exp(ival_point(1000));
  assert_true(big.hi == INFINITY && big.lo >= DBL_MAX / 2);
}

static void test_exact_ops(void **state) {
  (void)state;
  expect_ival(ival_floor(ival_make(-1.5, 2.5)), -2, 2);
  expect_ival(ival_ceil(ival_make(-1.5, 2.5)), -1, 3);
  expect_ival(ival_abs(ival_make(-3, 2)), 0, 3);
  expect_ival(ival_abs(ival_make(-3, -2)), 2, 3);
  expect_ival(ival_min(ival_make(1, 5), ival_make(2, 3)), 1, 3);
  expect_ival(ival_max(ival_make(1, 5), ival_make(2, 3)), 2, 5);
  expect_ival(ival_hull(ival_make(1, 2), ival_make(4, 5)), 1, 5);
  /* mod: 7 % 3 = 1, -1 % 3 = 2 (floor convention), 7 % -3 = -2 */
  expect_ival(ival_mod(ival_point(7), ival_point(3)), 1, 1);
  expect_ival(ival_mod(ival_point(-1), ival_point(3)), 2, 2);
  expect_ival(ival_mod(ival_point(7), ival_point(-3)), -2, -2);
  expect_ival(ival_mod(ival_make(5, 7), ival_point(3)), 0, 3);   /* crosses a period: 2, 0, 1 */
  expect_ival(ival_mod(ival_make(6, 8), ival_point(3)), 0, 2);   /* one period: 0, 1, 2 */
  expect_ival(ival_mod(ival_make(3, 5), ival_point(3)), 0, 2);   /* one period: 0..2 */
  expect_ival(ival_mod(ival_make(1, 2), ival_make(3, 4)), 1, 2);
  expect_ival(ival_mod(ival_make(1, 2), ival_make(-1, 1)), -INFINITY, INFINITY);
  expect_ival(ival_mod(ival_point(1e17 + 1), ival_point(7)), 0, 7);  /* not exact: range */
}

static void test_cmp_and_logic(void **state) {
  (void)state;
  expect_ival(ival_cmp(2, ival_make(1, 2), ival_make(3, 4)), 1, 1);
  expect_ival(ival_cmp(2, ival_make(1, 3), ival_make(3, 4)), 0, 1);
  expect_ival(ival_cmp(3, ival_make(1, 3), ival_make(3, 4)), 1, 1);
  expect_ival(ival_cmp(4, ival_make(1, 3), ival_make(3, 4)), 0, 0);
  expect_ival(ival_cmp(5, ival_make(5, 6), ival_make(3, 5)), 1, 1);
  expect_ival(ival_cmp(0, ival_point(2), ival_point(2)), 1, 1);
  expect_ival(ival_cmp(0, ival_make(1, 2), ival_point(2)), 0, 1);
  expect_ival(ival_cmp(1, ival_make(1, 2), ival_point(3)), 1, 1);
  expect_ival(ival_and(ival_point(1), ival_make(0, 1)), 0, 1);
  expect_ival(ival_and(ival_point(0), ival_make(0, 1)), 0, 0);
  expect_ival(ival_or(ival_point(2), ival_make(0, 1)), 1, 1);
  expect_ival(ival_not(ival_point(0)), 1, 1);
  expect_ival(ival_cond(ival_make(0, 1), ival_point(3), ival_point(7)), 3, 7);
  expect_ival(ival_cond(ival_point(1), ival_point(3), ival_point(7)), 3, 3);
}

static void test_helpers(void **state) {
  (void)state;
  assert_true(ival_mid(ival_make(2, 4)) == 3);
  assert_true(ival_mid(ival_entire()) == 0);
  assert_true(ival_mid(ival_make(-INFINITY, 5)) == 5);
  assert_true(ival_mid(ival_make(-DBL_MAX, DBL_MAX)) == 0);
  assert_true(ival_width(ival_make(1, 3)) == 2);
  assert_true(ival_width(ival_make(-DBL_MAX, DBL_MAX)) == INFINITY);
  assert_true(ival_is_point(ival_point(3)));
  assert_true(ival_contains(ival_make(1, 2), 1.5) && !ival_contains(ival_make(1, 2), 3));
  assert_true(ival_contains_zero(ival_make(-1, 0)) && !ival_contains_zero(ival_make(1, 2)));
  assert_true(ival_subset(ival_make(1, 2), ival_make(0, 2)) && !ival_subset(ival_make(0, 3), ival_make(0, 2)));
}

/* The bit-level ulp steps agree with nextafter everywhere, specials included. */
static void test_next_up_matches_nextafter(void **state) {
  (void)state;
  double specials[] = {0.0, -0.0, 1.0, -1.0, DBL_MAX, -DBL_MAX, DBL_MIN, -DBL_MIN, 0x1p-1074,
                       -0x1p-1074, INFINITY, -INFINITY, 1e300, -3.5e-310};
  for (size_t i = 0; i < sizeof specials / sizeof specials[0]; i++) {
    assert_true(ival_next_up(specials[i]) == nextafter(specials[i], INFINITY));
    assert_true(ival_next_down(specials[i]) == nextafter(specials[i], -INFINITY));
  }
  unsigned long long s = 0x9e3779b97f4a7c15ULL;
  for (int i = 0; i < 100000; i++) {
    s ^= s << 13; s ^= s >> 7; s ^= s << 17;
    uint64_t bits = s;
    double x;
    memcpy(&x, &bits, sizeof x);
    if (isnan(x)) continue;
    assert_true(ival_next_up(x) == nextafter(x, INFINITY));
    assert_true(ival_next_down(x) == nextafter(x, -INFINITY));
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_hand_products),
    cmocka_unit_test(test_one_third),
    cmocka_unit_test(test_sqrt),
    cmocka_unit_test(test_undefined_and_infinite),
    cmocka_unit_test(test_pow),
    cmocka_unit_test(test_transcendental),
    cmocka_unit_test(test_exact_ops),
    cmocka_unit_test(test_cmp_and_logic),
    cmocka_unit_test(test_helpers),
    cmocka_unit_test(test_next_up_matches_nextafter),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
