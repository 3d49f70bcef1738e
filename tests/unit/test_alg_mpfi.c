/*
** test_alg_mpfi.c — algebra/ival_mpfi.c by hand cases, and algebra/interval.c against it: for
** seeded random intervals (small integers, wide magnitudes, zeros, infinities), every double
** operation must contain the MPFI result of the same operation at 256 bits, which is the
** tightest enclosure at that precision (MPFR rounds each end correctly).
*/
#include <float.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <cmocka.h>
#include "interval.h"
#include "ival_mpfi.h"

#define MPFI_TEST_PREC 256       /* bits of the reference */
#define MPFI_TEST_CASES 4000     /* random argument pairs per operation */

typedef struct TestRng { unsigned long long state; } TestRng;   /* xorshift64 */

static unsigned long long rng_next(TestRng *r) {
  r->state ^= r->state << 13;
  r->state ^= r->state >> 7;
  r->state ^= r->state << 17;
  return r->state;
}
static double rng_unit(TestRng *r) { return (double)(rng_next(r) >> 11) * 0x1p-53; }

static double random_end(TestRng *r) {
  unsigned pick = (unsigned)(rng_next(r) % 20);
  double sign = rng_next(r) & 1 ? -1.0 : 1.0;
  switch (pick) {
  case 0: return 0.0;
  case 1: return sign * INFINITY;
  case 2: return sign * ldexp(1.0 + rng_unit(r), (int)(rng_next(r) % 2000) - 1000);
  case 3: case 4: case 5: case 6: return (double)((long)(rng_next(r) % 21) - 10);
  case 7: return sign * 0.5 * (double)(rng_next(r) % 9);
  default: return sign * ldexp(1.0 + rng_unit(r), (int)(rng_next(r) % 60) - 30);
  }
}
static AlgInterval random_ival(TestRng *r) {
  double a = random_end(r), b = rng_next(r) % 4 == 0 ? a : random_end(r);
  if (a > b) { double t = a; a = b; b = t; }
  if (a == INFINITY || b == -INFINITY) return ival_make(-1, 1);   /* no [inf, inf] */
  return ival_make(a, b);
}

/* outer (doubles) contains inner (MPFI). */
static void expect_contains(const char *what, AlgInterval outer, mpfi_srcptr inner, AlgInterval a, AlgInterval b) {
  if (mpfi_nan_p(inner)) {
    if (outer.lo == -INFINITY && outer.hi == INFINITY) return;
    fail_msg("%s: MPFI NaN for [%a,%a],[%a,%a]", what, a.lo, a.hi, b.lo, b.hi);
  }
  if (mpfr_cmp_d(&inner->left, outer.lo) < 0 || mpfr_cmp_d(&inner->right, outer.hi) > 0)
    fail_msg("%s([%a,%a], [%a,%a]): double [%a,%a] misses MPFI [%a,%a]", what, a.lo, a.hi, b.lo,
             b.hi, outer.lo, outer.hi, mpfr_get_d(&inner->left, MPFR_RNDD),
             mpfr_get_d(&inner->right, MPFR_RNDU));
}

typedef AlgInterval (*DoubleBinary)(AlgInterval, AlgInterval);
typedef void (*MpfiBinary)(mpfi_ptr, mpfi_srcptr, mpfi_srcptr);

static void check_binary(const char *what, DoubleBinary dop, MpfiBinary mop, unsigned long long seed) {
  TestRng r = {seed};
  mpfi_t a, b, m;
  mpfi_init2(a, MPFI_TEST_PREC); mpfi_init2(b, MPFI_TEST_PREC); mpfi_init2(m, MPFI_TEST_PREC);
  for (int i = 0; i < MPFI_TEST_CASES; i++) {
    AlgInterval x = random_ival(&r), y = random_ival(&r);
    alg_mpfi_set_ival(a, x);
    alg_mpfi_set_ival(b, y);
    mop(m, a, b);
    expect_contains(what, dop(x, y), m, x, y);
  }
  mpfi_clear(a); mpfi_clear(b); mpfi_clear(m);
}

typedef AlgInterval (*DoubleUnary)(AlgInterval);
typedef void (*MpfiUnary)(mpfi_ptr, mpfi_srcptr);

static void check_unary(const char *what, DoubleUnary dop, MpfiUnary mop, unsigned long long seed) {
  TestRng r = {seed};
  mpfi_t a, m;
  mpfi_init2(a, MPFI_TEST_PREC); mpfi_init2(m, MPFI_TEST_PREC);
  for (int i = 0; i < MPFI_TEST_CASES; i++) {
    AlgInterval x = random_ival(&r);
    alg_mpfi_set_ival(a, x);
    mop(m, a);
    expect_contains(what, dop(x), m, x, x);
  }
  mpfi_clear(a); mpfi_clear(m);
}

static void test_random_binary(void **state) {
  (void)state;
  check_binary("add", ival_add, alg_mpfi_add, 11);
  check_binary("sub", ival_sub, alg_mpfi_sub, 12);
  check_binary("mul", ival_mul, alg_mpfi_mul, 13);
  check_binary("div", ival_div, alg_mpfi_div, 14);
  check_binary("mod", ival_mod, alg_mpfi_mod, 15);
  check_binary("pow", ival_pow, alg_mpfi_pow, 16);
  check_binary("min", ival_min, alg_mpfi_min, 17);
  check_binary("max", ival_max, alg_mpfi_max, 18);
  check_binary("hull", ival_hull, alg_mpfi_hull, 19);
  check_binary("and", ival_and, alg_mpfi_and, 20);
  check_binary("or", ival_or, alg_mpfi_or, 21);
}

static void test_random_unary(void **state) {
  (void)state;
  check_unary("neg", ival_neg, alg_mpfi_neg, 31);
  check_unary("abs", ival_abs, alg_mpfi_abs, 32);
  check_unary("sqrt", ival_sqrt, alg_mpfi_sqrt, 33);
  check_unary("exp", ival_exp, alg_mpfi_exp, 34);
  check_unary("log", ival_log, alg_mpfi_log, 35);
  check_unary("log2", ival_log2, alg_mpfi_log2, 36);
  check_unary("floor", ival_floor, alg_mpfi_floor, 37);
  check_unary("ceil", ival_ceil, alg_mpfi_ceil, 38);
  check_unary("not", ival_not, alg_mpfi_not, 39);
}

/* Points in a moderate range make exact integer results and non-trivial roundings likely. */
static void test_random_points(void **state) {
  (void)state;
  TestRng r = {77};
  mpfi_t a, b, m;
  mpfi_init2(a, MPFI_TEST_PREC); mpfi_init2(b, MPFI_TEST_PREC); mpfi_init2(m, MPFI_TEST_PREC);
  for (int i = 0; i < 20000; i++) {
    double x = ldexp((double)(rng_next(&r) % 100000) + 1, (int)(rng_next(&r) % 40) - 20);
    double y = ldexp((double)(rng_next(&r) % 100000) + 1, (int)(rng_next(&r) % 40) - 20);
    if (rng_next(&r) & 1) x = -x;
    AlgInterval px = ival_point(x), py = ival_point(y);
    alg_mpfi_set_ival(a, px);
    alg_mpfi_set_ival(b, py);
    alg_mpfi_mul(m, a, b);
    expect_contains("point mul", ival_mul(px, py), m, px, py);
    alg_mpfi_div(m, a, b);
    expect_contains("point div", ival_div(px, py), m, px, py);
    alg_mpfi_add(m, a, b);
    expect_contains("point add", ival_add(px, py), m, px, py);
    alg_mpfi_sqrt(m, b);
    expect_contains("point sqrt", ival_sqrt(py), m, py, py);
    alg_mpfi_log(m, b);
    expect_contains("point log", ival_log(py), m, py, py);
    long long n = (long long)(rng_next(&r) % 13) - 6;
    alg_mpfi_powi(m, a, n);
    expect_contains("point powi", ival_powi(px, n), m, px, py);
    AlgInterval e = ival_point(ldexp((double)(rng_next(&r) % 1000), -7));
    alg_mpfi_set_ival(b, e);
    alg_mpfi_exp(m, b);
    expect_contains("point exp", ival_exp(e), m, e, e);
    alg_mpfi_abs(a, a);
    alg_mpfi_pow(m, a, b);
    expect_contains("point pow", ival_pow(ival_abs(px), e), m, px, e);
  }
  mpfi_clear(a); mpfi_clear(b); mpfi_clear(m);
}

static void test_random_cmp(void **state) {
  (void)state;
  TestRng r = {55};
  mpfi_t a, b, m;
  mpfi_init2(a, MPFI_TEST_PREC); mpfi_init2(b, MPFI_TEST_PREC); mpfi_init2(m, MPFI_TEST_PREC);
  for (int i = 0; i < MPFI_TEST_CASES; i++) {
    AlgInterval x = random_ival(&r), y = random_ival(&r);
    alg_mpfi_set_ival(a, x);
    alg_mpfi_set_ival(b, y);
    for (int op = 0; op < 6; op++) {
      alg_mpfi_cmp(m, op, a, b);
      expect_contains("cmp", ival_cmp(op, x, y), m, x, y);
    }
  }
  mpfi_clear(a); mpfi_clear(b); mpfi_clear(m);
}

static void expect_mpfi(mpfi_srcptr got, double lo, double hi) {
  AlgInterval g = alg_mpfi_get_ival(got);
  if (g.lo != lo || g.hi != hi) fail_msg("got [%.17g, %.17g], expected [%.17g, %.17g]", g.lo, g.hi, lo, hi);
}

static void test_mpfi_hand(void **state) {
  (void)state;
  mpfi_t a, b, m;
  mpfi_init2(a, MPFI_TEST_PREC); mpfi_init2(b, MPFI_TEST_PREC); mpfi_init2(m, MPFI_TEST_PREC);
  alg_mpfi_set_ival(a, ival_make(1, 2));
  alg_mpfi_set_ival(b, ival_make(-3, 4));
  alg_mpfi_mul(m, a, b);
  expect_mpfi(m, -6, 8);
  alg_mpfi_div(m, a, b);
  expect_mpfi(m, -INFINITY, INFINITY);
  alg_mpfi_powi(m, b, 2);
  expect_mpfi(m, 0, 16);
  alg_mpfi_powi(m, b, 3);
  expect_mpfi(m, -27, 64);
  alg_mpfi_set_ival(a, ival_point(7));
  alg_mpfi_set_ival(b, ival_point(-3));
  alg_mpfi_mod(m, a, b);
  expect_mpfi(m, -2, -2);
  /* 1/3 at 256 bits converts to the two doubles around 1/3 */
  alg_mpfi_set_ival(a, ival_point(1));
  alg_mpfi_set_ival(b, ival_point(3));
  alg_mpfi_div(m, a, b);
  AlgInterval t = alg_mpfi_get_ival(m);
  assert_true(t.lo < t.hi && nextafter(t.lo, INFINITY) == t.hi);
  assert_true(mpfr_cmp_d(&m->left, t.lo) > 0 && mpfr_cmp_d(&m->right, t.hi) < 0);
  /* a precision the caller chooses: 20 bits make 1/3 wider than doubles do */
  mpfi_t low;
  mpfi_init2(low, 20);
  alg_mpfi_set_ival(low, ival_point(1));
  mpfi_div_ui(low, low, 3);
  AlgInterval w = alg_mpfi_get_ival(low);
  assert_true(w.hi - w.lo > 1e-7 && w.lo < 1.0 / 3 && w.hi > 1.0 / 3);
  mpfi_clear(low);
  mpfi_clear(a); mpfi_clear(b); mpfi_clear(m);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_mpfi_hand),
    cmocka_unit_test(test_random_binary),
    cmocka_unit_test(test_random_unary),
    cmocka_unit_test(test_random_points),
    cmocka_unit_test(test_random_cmp),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
