/*
** test_alg_sums.c — algebra/sums.c: closed forms of sums, products and max/min over an index
** checked against brute-force loops written here in C (Faulhaber up to degree 12, symbolic
** coefficients and bounds, geometric series with the ratio 1 case, nested sums), empty ranges
** giving 0, the monotone max/min at an end of the range, and the safe-direction approximations
** of alg_close (lower <= exact <= upper, marked). EXAMPLES.md §3 is checked number by number.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include "alg_check.h"

static int setup(void **state) {
  *state = check_ctx_new();
  return 0;
}

static int teardown(void **state) {
  check_ctx_free(*state);
  return 0;
}

static AlgInterval *env_new(CheckCtx *c) {
  return calloc(alg_symbol_count(c->ctx) + 1, sizeof(AlgInterval));
}

static void set(AlgInterval *env, AlgSymbol *s, double v) { env[alg_symbol_id(s)] = ival_point(v); }

static void assert_value(CheckCtx *c, AlgExpr *e, AlgInterval *env, double expected) {
  AlgInterval v = alg_eval_tree(c->ctx, e, env);
  if (!(v.lo <= expected + 1e-9 * (1 + fabs(expected)) && expected - 1e-9 * (1 + fabs(expected)) <= v.hi))
    fail_msg("%s = [%.17g, %.17g], expected %.17g", alg_print(c->ctx, e, ALG_FMT_TEXT), v.lo, v.hi, expected);
}

static int has_kind(const AlgExpr *e, AlgKind kind) {
  if (alg_kind(e) == kind) return 1;
  for (size_t i = 0; i < alg_nkids(e); i++)
    if (has_kind(alg_kid(e, i), kind)) return 1;
  return 0;
}

/* A big operator left open, outside the exact forms that approximation markers carry for
** evaluation by looping (kid 1 of lower/upper). */
static int has_bigop(const AlgExpr *e) {
  AlgKind kind = alg_kind(e);
  if (kind == ALG_SUM || kind == ALG_PROD || kind == ALG_MAXOVER || kind == ALG_MINOVER) return 1;
  size_t kids = (kind == ALG_LOWER || kind == ALG_UPPER) ? 1 : alg_nkids(e);
  for (size_t i = 0; i < kids; i++)
    if (has_bigop(alg_kid(e, i))) return 1;
  return 0;
}

/* sum_{i=a}^{b} i^p for p = 0..12 with symbolic a, b, at every a, b in -4..9 (b < a included). */
static void test_faulhaber_symbolic_bounds(void **state) {
  CheckCtx *c = *state;
  AlgCtx *ctx = c->ctx;
  AlgExpr *a = check_sym(c, c->a), *b = check_sym(c, c->b);
  AlgSymbol *i = alg_index_new(ctx, "i", a, b);
  for (long p = 0; p <= 12; p++) {
    AlgExpr *closed = alg_sum(ctx, i, a, b, alg_pow(ctx, check_sym(c, i), alg_num_int(ctx, p)));
    assert_false(has_bigop(closed));
    AlgInterval *env = env_new(c);
    for (long lo = -4; lo <= 9; lo++)
      for (long hi = -4; hi <= 9; hi++) {
        double brute = 0;
        for (long k = lo; k <= hi; k++) brute += pow((double)k, (double)p);
        set(env, c->a, (double)lo);
        set(env, c->b, (double)hi);
        assert_value(c, closed, env, brute);
      }
    free(env);
  }
}

/* Symbolic coefficients: sum_{i=1}^{N} (x i^2 + t i + y). */
static void test_polynomial_symbolic_coefficients(void **state) {
  CheckCtx *c = *state;
  AlgCtx *ctx = c->ctx;
  AlgExpr *one = alg_num_int(ctx, 1), *n = check_sym(c, c->N);
  AlgSymbol *i = alg_index_new(ctx, "i", one, n);
  AlgExpr *iv = check_sym(c, i);
  AlgExpr *body = alg_add(ctx, alg_add(ctx, alg_mul(ctx, check_sym(c, c->x), alg_mul(ctx, iv, iv)),
                                       alg_mul(ctx, check_sym(c, c->t), iv)), check_sym(c, c->y));
  AlgExpr *closed = alg_sum(ctx, i, one, n, body);
  assert_false(has_bigop(closed));
  assert_false(has_kind(closed, ALG_COND));   /* N >= 1: never empty, no guard */
  AlgInterval *env = env_new(c);
  for (int k = 0; k < 30; k++) {
    double x = check_uniform(&c->rng, -3, 3), t = check_uniform(&c->rng, 0, 2), y = check_uniform(&c->rng, -1, 1);
    long N = check_int(&c->rng, 1, 40);
    double brute = 0;
    for (long j = 1; j <= N; j++) brute += x * j * j + t * j + y;
    set(env, c->x, x);
    set(env, c->t, t);
    set(env, c->y, y);
    set(env, c->N, (double)N);
    assert_value(c, closed, env, brute);
  }
  free(env);
}

/* sum_{i=a}^{b} x^i, including x = 1 (count) and empty ranges. */
static void test_geometric(void **state) {
  CheckCtx *c = *state;
  AlgCtx *ctx = c->ctx;
  AlgExpr *a = check_sym(c, c->a), *b = check_sym(c, c->b), *x = check_sym(c, c->x);
  AlgSymbol *i = alg_index_new(ctx, "i", a, b);
  AlgExpr *closed = alg_sum(ctx, i, a, b, alg_mul(ctx, alg_num_int(ctx, 3), alg_pow(ctx, x, check_sym(c, i))));
  assert_false(has_bigop(closed));
  AlgInterval *env = env_new(c);
  const double ratios[] = {1, 2, 0.5, -1, -2, 3};
  for (size_t r = 0; r < sizeof ratios / sizeof ratios[0]; r++)
    for (long lo = 0; lo <= 4; lo++)
      for (long hi = -1; hi <= 6; hi++) {
        double brute = 0;
        for (long k = lo; k <= hi; k++) brute += 3 * pow(ratios[r], (double)k);
        set(env, c->x, ratios[r]);
        set(env, c->a, (double)lo);
        set(env, c->b, (double)hi);
        assert_value(c, closed, env, brute);
      }
  free(env);
}

/* sum_{i=1}^{N} sum_{j=i}^{N} i*j and sum_{i=1}^{M} sum_{j=1}^{N} (i + j)*t */
static void test_nested(void **state) {
  CheckCtx *c = *state;
  AlgCtx *ctx = c->ctx;
  AlgExpr *one = alg_num_int(ctx, 1), *n = check_sym(c, c->N), *m = check_sym(c, c->M), *t = check_sym(c, c->t);
  AlgSymbol *i = alg_index_new(ctx, "i", one, n);
  AlgSymbol *j = alg_index_new(ctx, "j", check_sym(c, i), n);
  AlgExpr *inner = alg_sum(ctx, j, check_sym(c, i), n, alg_mul(ctx, check_sym(c, i), check_sym(c, j)));
  AlgExpr *outer = alg_sum(ctx, i, one, n, inner);
  assert_false(has_bigop(outer));
  AlgSymbol *p = alg_index_new(ctx, "p", one, m);
  AlgSymbol *q = alg_index_new(ctx, "q", one, n);
  AlgExpr *second = alg_sum(ctx, p, one, m, alg_sum(ctx, q, one, n,
                            alg_mul(ctx, alg_add(ctx, check_sym(c, p), check_sym(c, q)), t)));
  assert_false(has_bigop(second));
  AlgInterval *env = env_new(c);
  for (long N = 1; N <= 15; N++) {
    double brute = 0, brute2 = 0;
    long M = 1 + N % 5;
    for (long k = 1; k <= N; k++)
      for (long l = k; l <= N; l++) brute += (double)(k * l);
    for (long k = 1; k <= M; k++)
      for (long l = 1; l <= N; l++) brute2 += (double)(k + l) * 0.5;
    set(env, c->N, (double)N);
    set(env, c->M, (double)M);
    set(env, c->t, 0.5);
    assert_value(c, outer, env, brute);
    assert_value(c, second, env, brute2);
  }
  free(env);
}

/* Empty ranges give 0 (REDUCTION.md): guarded where the params allow them, not where they don't. */
static void test_empty_ranges(void **state) {
  CheckCtx *c = *state;
  AlgCtx *ctx = c->ctx;
  AlgExpr *one = alg_num_int(ctx, 1), *n = check_sym(c, c->N), *P = check_sym(c, c->P);
  /* par (p = 1, P - 1): P >= 1 so the count P - 1 is >= 0 and the formula is 0 at P = 1: no guard */
  AlgExpr *pm1 = alg_sub(ctx, P, one);
  AlgSymbol *p = alg_index_new(ctx, "p", one, pm1);
  AlgExpr *s1 = alg_sum(ctx, p, one, pm1, alg_mul(ctx, check_sym(c, p), check_sym(c, p)));
  assert_false(has_kind(s1, ALG_COND));
  /* 1 .. N - 2 is empty with count -1 at N = 1: guarded */
  AlgExpr *nm2 = alg_sub(ctx, n, alg_num_int(ctx, 2));
  AlgSymbol *i = alg_index_new(ctx, "i", one, nm2);
  AlgExpr *s2 = alg_sum(ctx, i, one, nm2, alg_mul(ctx, check_sym(c, i), check_sym(c, i)));
  assert_true(has_kind(s2, ALG_COND));
  AlgExpr *m2 = alg_max_over(ctx, i, one, nm2, check_sym(c, i));
  AlgExpr *c2 = alg_sum(ctx, i, one, nm2, check_sym(c, c->t));
  AlgInterval *env = env_new(c);
  set(env, c->P, 1);
  assert_value(c, s1, env, 0);
  set(env, c->P, 4);
  assert_value(c, s1, env, 1 + 4 + 9);
  set(env, c->t, 2);
  for (long N = 1; N <= 6; N++) {
    double squares = 0;
    for (long k = 1; k <= N - 2; k++) squares += (double)(k * k);
    set(env, c->N, (double)N);
    assert_value(c, s2, env, squares);
    assert_value(c, m2, env, N >= 3 ? (double)(N - 2) : 0);   /* a max over an empty range is 0 */
    assert_value(c, c2, env, N >= 3 ? 2.0 * (double)(N - 2) : 0);
  }
  /* decided empty: N + 1 .. N */
  AlgExpr *np1 = alg_add(ctx, n, one);
  AlgSymbol *k = alg_index_new(ctx, "k", np1, n);
  assert_ptr_equal(alg_sum(ctx, k, np1, n, check_sym(c, k)), alg_num_int(ctx, 0));
  assert_ptr_equal(alg_max_over(ctx, k, np1, n, check_sym(c, k)), alg_num_int(ctx, 0));
  free(env);
}

/* max/min over an index at the right end, decided by derivative sign or by structure. */
static void test_monotone_extrema(void **state) {
  CheckCtx *c = *state;
  AlgCtx *ctx = c->ctx;
  AlgExpr *one = alg_num_int(ctx, 1), *n = check_sym(c, c->N), *t = check_sym(c, c->t);
  AlgSymbol *i = alg_index_new(ctx, "i", one, n);
  AlgExpr *iv = check_sym(c, i);
  /* t*(N - i)^2 + t decreases on 1..N: max at i = 1, min at i = N */
  AlgExpr *body = alg_add(ctx, alg_mul(ctx, t, alg_pow(ctx, alg_sub(ctx, n, iv), alg_num_int(ctx, 2))), t);
  AlgExpr *mx = alg_max_over(ctx, i, one, n, body), *mn = alg_min_over(ctx, i, one, n, body);
  assert_false(has_bigop(mx));
  assert_false(has_bigop(mn));
  /* i^3 + i (nonnegative coefficients, i >= 1): max at N */
  AlgExpr *cube = alg_max_over(ctx, i, one, n, alg_add(ctx, alg_pow(ctx, iv, alg_num_int(ctx, 3)), iv));
  assert_ptr_equal(cube, alg_add(ctx, alg_pow(ctx, n, alg_num_int(ctx, 3)), n));
  /* max(i, N/2) - not monotone by derivative, monotone by structure */
  AlgExpr *mixed = alg_max_over(ctx, i, one, n, alg_max(ctx, iv, alg_div(ctx, n, alg_num_int(ctx, 2))));
  assert_false(has_bigop(mixed));
  AlgInterval *env = env_new(c);
  for (long N = 1; N <= 12; N++) {
    set(env, c->N, (double)N);
    set(env, c->t, 1.5);
    assert_value(c, mx, env, 1.5 * (double)((N - 1) * (N - 1)) + 1.5);
    assert_value(c, mn, env, 1.5);
    assert_value(c, mixed, env, (double)N);
  }
  free(env);
}

/* Where nothing closed applies: the node stays exact, evaluates by looping, and alg_close gives
   marked approximations on the asked side. */
static void test_no_closed_form_and_close(void **state) {
  CheckCtx *c = *state;
  AlgCtx *ctx = c->ctx;
  AlgExpr *one = alg_num_int(ctx, 1), *n = check_sym(c, c->N), *x = check_sym(c, c->x);
  AlgSymbol *i = alg_index_new(ctx, "i", one, n);
  AlgExpr *iv = check_sym(c, i);
  AlgExpr *roots = alg_sum(ctx, i, one, n, alg_func(ctx, ALG_SQRT, iv));           /* no closed form */
  /* (i * i) % 3 repeats every 3 indices, but the periodic closed form reads remainders of i only */
  AlgExpr *wave = alg_max_over(ctx, i, one, n, alg_mul(ctx, x, alg_mod(ctx, alg_mul(ctx, iv, iv), alg_num_int(ctx, 3))));
  AlgExpr *both = alg_add(ctx, roots, alg_sum(ctx, i, one, n, iv));                  /* closed + open */
  assert_true(alg_kind(roots) == ALG_SUM);
  assert_true(alg_kind(wave) == ALG_MAXOVER);
  AlgExpr *roots_lo = alg_close(ctx, roots, ALG_DIR_LOWER), *roots_hi = alg_close(ctx, roots, ALG_DIR_UPPER);
  AlgExpr *neg_lo = alg_close(ctx, alg_neg(ctx, roots), ALG_DIR_LOWER);              /* direction flips */
  AlgExpr *wave_lo = alg_close(ctx, wave, ALG_DIR_LOWER), *wave_hi = alg_close(ctx, wave, ALG_DIR_UPPER);
  assert_true(alg_is_approx(roots_lo) && alg_is_approx(roots_hi) && alg_is_approx(wave_lo));
  assert_false(has_bigop(roots_lo));
  assert_false(has_bigop(roots_hi));
  assert_false(has_bigop(neg_lo));
  assert_false(alg_is_approx(both) || alg_is_approx(roots));
  AlgInterval *env = env_new(c);
  for (long N = 1; N <= 30; N += 3) {
    double xv = check_uniform(&c->rng, -2, 2);
    double sum_roots = 0, max_wave = -INFINITY;
    for (long k = 1; k <= N; k++) {
      sum_roots += sqrt((double)k);
      if (xv * (double)(k * k % 3) > max_wave) max_wave = xv * (double)(k * k % 3);
    }
    set(env, c->N, (double)N);
    set(env, c->x, xv);
    assert_value(c, roots, env, sum_roots);
    assert_value(c, both, env, sum_roots + (double)(N * (N + 1) / 2));
    assert_value(c, wave, env, max_wave);
    assert_true(alg_eval_tree(ctx, roots_lo, env).lo <= sum_roots + 1e-9);
    assert_true(alg_eval_tree(ctx, roots_hi, env).hi >= sum_roots - 1e-9);
    assert_true(alg_eval_tree(ctx, neg_lo, env).lo <= -sum_roots + 1e-9);
    assert_true(alg_eval_tree(ctx, wave_lo, env).lo <= max_wave + 1e-9);
    assert_true(alg_eval_tree(ctx, wave_hi, env).hi >= max_wave - 1e-9);
  }
  /* beyond the loop limit the evaluation encloses the exact value */
  alg_ctx_set_loop_limit(ctx, 5);
  assert_int_equal(alg_ctx_loop_limit(ctx), 5);
  set(env, c->N, 100);
  double exact = 0;
  for (long k = 1; k <= 100; k++) exact += sqrt((double)k);
  AlgInterval v = alg_eval_tree(ctx, roots, env);
  assert_true(v.lo <= exact && exact <= v.hi);
  free(env);
}

/* max and min of a body that reads the index only through remainders by small numbers are
   closed: over the first period of the range (t * ((i + r) % 2 + 1), the colour of a cell of a
   checkerboard; (2 i + 1) % 3 with (i + 2) % 2, period 6), each value checked against a loop. */
static void test_periodic_extremum(void **state) {
  CheckCtx *c = *state;
  AlgCtx *ctx = c->ctx;
  AlgExpr *one = alg_num_int(ctx, 1), *zero = alg_num_int(ctx, 0), *n = check_sym(c, c->N), *x = check_sym(c, c->x);
  AlgSymbol *i = alg_index_new(ctx, "i", zero, alg_sub(ctx, n, one));
  AlgSymbol *r = alg_index_new(ctx, "r", zero, alg_sub(ctx, n, one));
  AlgExpr *iv = check_sym(c, i), *rv = check_sym(c, r);
  AlgExpr *colour = alg_mul(ctx, x, alg_add(ctx, alg_mod(ctx, alg_add(ctx, iv, rv), alg_num_int(ctx, 2)), one));
  AlgExpr *inner = alg_max_over(ctx, i, zero, alg_sub(ctx, n, one), colour);
  AlgExpr *grid = alg_max_over(ctx, r, zero, alg_sub(ctx, n, one), inner);
  AlgExpr *mixed_body = alg_add(ctx, alg_mod(ctx, alg_add(ctx, alg_mul(ctx, alg_num_int(ctx, 2), iv), one), alg_num_int(ctx, 3)),
                                alg_mul(ctx, x, alg_mod(ctx, alg_add(ctx, iv, alg_num_int(ctx, 2)), alg_num_int(ctx, 2))));
  AlgExpr *mixed_max = alg_max_over(ctx, i, one, n, mixed_body);
  AlgExpr *mixed_min = alg_min_over(ctx, i, one, n, mixed_body);
  AlgExpr *long_period = alg_max_over(ctx, i, one, n, alg_mod(ctx, iv, alg_num_int(ctx, 13)));
  assert_false(has_bigop(grid));
  assert_false(has_bigop(mixed_max));
  assert_false(has_bigop(mixed_min));
  assert_true(has_bigop(long_period));   /* a period beyond SUMS_MAX_PERIOD: left open */
  AlgInterval *env = env_new(c);
  for (long N = 1; N <= 14; N++) {
    double xv = check_uniform(&c->rng, -2, 2);
    double most = -INFINITY, mx = -INFINITY, mn = INFINITY;
    for (long a = 0; a < N; a++)
      for (long b = 0; b < N; b++) most = fmax(most, xv * (double)((a + b) % 2 + 1));
    for (long k = 1; k <= N; k++) {
      double v = (double)((2 * k + 1) % 3) + xv * (double)((k + 2) % 2);
      mx = fmax(mx, v);
      mn = fmin(mn, v);
    }
    set(env, c->N, (double)N);
    set(env, c->x, xv);
    assert_value(c, grid, env, most);
    assert_value(c, mixed_max, env, mx);
    assert_value(c, mixed_min, env, mn);
  }
  free(env);
}

/* Sums of a body that reads the index only through remainders by small numbers are closed:
   floor(n / P) periods and the first n % P terms of one more (tasks of 1, 2, 4 units by i % 3
   times x over 0 .. N - 1; (2 i + 1) % 3 + x ((i + 2) % 2), period 6, over 3 .. N, empty for
   N < 3; the same plus i, closed term by term), each value checked against a loop. */
static void test_periodic_sum(void **state) {
  CheckCtx *c = *state;
  AlgCtx *ctx = c->ctx;
  AlgExpr *one = alg_num_int(ctx, 1), *zero = alg_num_int(ctx, 0), *three = alg_num_int(ctx, 3);
  AlgExpr *n = check_sym(c, c->N), *x = check_sym(c, c->x);
  AlgSymbol *i = alg_index_new(ctx, "i", zero, n);
  AlgExpr *iv = check_sym(c, i);
  AlgExpr *cls = alg_mod(ctx, iv, three);
  AlgExpr *size = alg_cond(ctx, alg_cmp(ctx, ALG_CMP_EQ, cls, zero), one,
                           alg_cond(ctx, alg_cmp(ctx, ALG_CMP_EQ, cls, one), alg_num_int(ctx, 2), alg_num_int(ctx, 4)));
  AlgExpr *tasks = alg_sum(ctx, i, zero, alg_sub(ctx, n, one), alg_mul(ctx, x, size));
  AlgExpr *mixed_body = alg_add(ctx, alg_mod(ctx, alg_add(ctx, alg_mul(ctx, alg_num_int(ctx, 2), iv), one), three),
                                alg_mul(ctx, x, alg_mod(ctx, alg_add(ctx, iv, alg_num_int(ctx, 2)), alg_num_int(ctx, 2))));
  AlgExpr *mixed = alg_sum(ctx, i, three, n, mixed_body);
  AlgExpr *plus = alg_sum(ctx, i, three, n, alg_add(ctx, mixed_body, iv));
  assert_false(has_bigop(tasks));
  assert_false(has_bigop(mixed));
  assert_false(has_bigop(plus));
  AlgInterval *env = env_new(c);
  for (long N = 0; N <= 31; N++) {
    double xv = check_uniform(&c->rng, -2, 2);
    double want_tasks = 0, want_mixed = 0, want_plus = 0;
    for (long k = 0; k <= N - 1; k++) want_tasks += xv * (k % 3 == 0 ? 1 : k % 3 == 1 ? 2 : 4);
    for (long k = 3; k <= N; k++) {
      double v = (double)((2 * k + 1) % 3) + xv * (double)((k + 2) % 2);
      want_mixed += v;
      want_plus += v + (double)k;
    }
    set(env, c->N, (double)N);
    set(env, c->x, xv);
    assert_value(c, tasks, env, want_tasks);
    assert_value(c, mixed, env, want_mixed);
    assert_value(c, plus, env, want_plus);
  }
  free(env);
}

/* A remainder over a whole period (full_period) and the extremum over one comparison
   (extremum_threshold), hand-checked against loops written here: the ring allgather's step,
   max over p = 0 .. P - 1 of x (floor(N / P) + ((p + P - a) % P < N % P ? 1 : 0)) + t, is closed
   (before: a max left open, walked at evaluation); so are the sum over p = 0 .. P - 1 of
   ((p + a) % P)^2 (each of 0 .. P - 1 once: (P - 1) P (2 P - 1) / 6) and the min over
   p = 0 .. M - 1 of x ((-p + a) % P) - p 0 (only where M >= P: below, the min stays a loop).
   P in 1 .. 9, N in 0 .. 20, a in -4 .. 12, M in 1 .. 12. */
static void test_full_period(void **state) {
  CheckCtx *c = *state;
  AlgCtx *ctx = c->ctx;
  AlgExpr *zero = alg_num_int(ctx, 0), *one = alg_num_int(ctx, 1);
  AlgExpr *P = check_sym(c, c->P), *n = check_sym(c, c->N), *a = check_sym(c, c->a), *m = check_sym(c, c->M);
  AlgExpr *x = check_sym(c, c->x), *t = check_sym(c, c->t);
  AlgSymbol *p = alg_index_new(ctx, "p", zero, alg_sub(ctx, P, one));
  AlgExpr *pv = check_sym(c, p);
  AlgExpr *block = alg_mod(ctx, alg_sub(ctx, alg_add(ctx, pv, P), a), P);
  AlgExpr *rows = alg_add(ctx, alg_func(ctx, ALG_FLOOR, alg_div(ctx, n, P)),
                          alg_cond(ctx, alg_cmp(ctx, ALG_CMP_LT, block, alg_mod(ctx, n, P)), one, zero));
  AlgExpr *step = alg_max_over(ctx, p, zero, alg_sub(ctx, P, one), alg_add(ctx, alg_mul(ctx, x, rows), t));
  AlgExpr *rem = alg_mod(ctx, alg_add(ctx, pv, a), P);
  AlgExpr *squares = alg_sum(ctx, p, zero, alg_sub(ctx, P, one), alg_mul(ctx, rem, rem));
  AlgSymbol *q = alg_index_new(ctx, "q", zero, alg_sub(ctx, m, one));
  AlgExpr *back = alg_mul(ctx, x, alg_mod(ctx, alg_add(ctx, alg_neg(ctx, check_sym(c, q)), a), P));
  AlgExpr *least = alg_min_over(ctx, q, zero, alg_sub(ctx, m, one), back);
  /* a remainder that also sits inside a sum over the same index (which binds it anew) is not
  ** replaced there: max over p = 0 .. P - 1 of (p + 3) % P + the sum over p = 0 .. 1 of
  ** (p + 3) % P (tests/regress/63160.pam: the inner terms were taken as the outer max's) */
  AlgExpr *wrap = alg_mod(ctx, alg_add(ctx, pv, alg_num_int(ctx, 3)), P);
  AlgExpr *mixed = alg_max_over(ctx, p, zero, alg_sub(ctx, P, one), alg_add(ctx, wrap, alg_sum(ctx, p, zero, one, wrap)));
  assert_false(has_bigop(step));
  assert_false(has_bigop(squares));
  AlgInterval *env = env_new(c);
  for (long Pv = 1; Pv <= 9; Pv++)
    for (long N = 0; N <= 20; N++)
      for (long A = -4; A <= 12; A++) {
        long M = 1 + (N + A + 4) % 12;
        double xv = check_uniform(&c->rng, -2, 2), tv = check_uniform(&c->rng, 0, 3);
        double want_step = -INFINITY, want_squares = 0, want_least = INFINITY;
        for (long k = 0; k < Pv; k++) {
          long w = ((k + Pv - A) % Pv + Pv) % Pv, r = ((k + A) % Pv + Pv) % Pv;
          double v = xv * (double)(N / Pv + (w < N % Pv ? 1 : 0)) + tv;
          if (v > want_step) want_step = v;
          want_squares += (double)(r * r);
        }
        for (long k = 0; k < M; k++) {
          double v = xv * (double)(((-k + A) % Pv + Pv) % Pv);
          if (v < want_least) want_least = v;
        }
        set(env, c->P, (double)Pv);
        set(env, c->N, (double)N);
        set(env, c->a, (double)A);
        set(env, c->M, (double)M);
        set(env, c->x, xv);
        set(env, c->t, tv);
        assert_value(c, step, env, want_step);
        assert_value(c, squares, env, want_squares);
        assert_value(c, least, env, want_least);
        double want_mixed = (double)((3 % Pv) + (4 % Pv) + Pv - 1);   /* the largest remainder is P - 1 */
        assert_value(c, mixed, env, want_mixed);
      }
  free(env);
}

/* Sums whose body reads the index only through tests i == c and i != c (a stage some items skip
   in a loop over the stages, the slow stage's duration): (i == c ? 0 : i == c ? 10 : 2) and
   max(0, (i != c ? 3 : 0) - 1) * x over 0 .. N - 1 are closed, the one term at i = c apart;
   checked against a loop for N in 0 .. 12 and c in -1 .. 13 (c outside the range included). */
static void test_equality_sum(void **state) {
  CheckCtx *c = *state;
  AlgCtx *ctx = c->ctx;
  AlgExpr *zero = alg_num_int(ctx, 0), *one = alg_num_int(ctx, 1);
  AlgExpr *n = check_sym(c, c->N), *x = check_sym(c, c->x), *cv = check_sym(c, c->a);
  AlgSymbol *i = alg_index_new(ctx, "i", zero, alg_sub(ctx, n, one));
  AlgExpr *iv = check_sym(c, i), *at = alg_cmp(ctx, ALG_CMP_EQ, iv, cv);
  AlgExpr *slow = alg_cond(ctx, at, zero, alg_cond(ctx, at, alg_num_int(ctx, 10), alg_num_int(ctx, 2)));
  AlgExpr *other = alg_mul(ctx, x, alg_max(ctx, zero, alg_sub(ctx, alg_cond(ctx, alg_cmp(ctx, ALG_CMP_NE, cv, iv),
                                                                        alg_num_int(ctx, 3), zero), one)));
  AlgExpr *skips = alg_sum(ctx, i, zero, alg_sub(ctx, n, one), slow);
  AlgExpr *others = alg_sum(ctx, i, zero, alg_sub(ctx, n, one), other);
  assert_false(has_bigop(skips));
  assert_false(has_bigop(others));
  AlgInterval *env = env_new(c);
  for (long N = 0; N <= 12; N++)
    for (long C = -1; C <= 13; C++) {
      double xv = check_uniform(&c->rng, -2, 2), want_skips = 0, want_others = 0;
      for (long k = 0; k <= N - 1; k++) {
        want_skips += k == C ? 0 : 2;
        want_others += xv * (k != C ? 2 : 0);
      }
      set(env, c->N, (double)N);
      set(env, c->a, (double)C);
      set(env, c->x, xv);
      assert_value(c, skips, env, want_skips);
      assert_value(c, others, env, want_others);
    }
  free(env);
}

/* alg_close on random open big operators: lower <= exact <= upper, also under negation. */
static void test_close_random(void **state) {
  CheckCtx *c = *state;
  AlgCtx *ctx = c->ctx;
  AlgExpr *one = alg_num_int(ctx, 1), *n = check_sym(c, c->N), *t = check_sym(c, c->t);
  AlgSymbol *i = alg_index_new(ctx, "i", one, n);
  AlgExpr *iv = check_sym(c, i);
  AlgInterval *env = env_new(c);
  for (int trial = 0; trial < 200; trial++) {
    long c1 = check_int(&c->rng, -3, 3), c2 = check_int(&c->rng, -3, 3), c3 = check_int(&c->rng, -3, 3);
    AlgExpr *body = alg_add_n(ctx, 3, (AlgExpr *[]){
      alg_mul(ctx, alg_num_int(ctx, c1), alg_mod(ctx, iv, alg_num_int(ctx, 3))),
      alg_mul(ctx, alg_mul(ctx, alg_num_int(ctx, c2), t), alg_func(ctx, ALG_SQRT, iv)),
      alg_mul(ctx, alg_num_int(ctx, c3), iv)});
    int which = (int)check_int(&c->rng, 0, 2);
    AlgKind kind = which == 0 ? ALG_SUM : which == 1 ? ALG_MAXOVER : ALG_MINOVER;
    AlgExpr *exact = alg_bigop(ctx, kind, i, one, n, body);
    int negate = (int)check_int(&c->rng, 0, 1);
    if (negate) exact = alg_neg(ctx, exact);
    AlgExpr *lo = alg_close(ctx, exact, ALG_DIR_LOWER), *hi = alg_close(ctx, exact, ALG_DIR_UPPER);
    long N = check_int(&c->rng, 1, 40);
    double tv = check_uniform(&c->rng, 0, 3), brute = 0;
    for (long k = 1; k <= N; k++) {
      double v = (double)(c1 * (k % 3)) + (double)c2 * tv * sqrt((double)k) + (double)(c3 * k);
      if (kind == ALG_SUM) brute += v;
      else if (k == 1) brute = v;
      else brute = kind == ALG_MAXOVER ? fmax(brute, v) : fmin(brute, v);
    }
    if (negate) brute = -brute;
    set(env, c->N, (double)N);
    set(env, c->t, tv);
    AlgInterval l = alg_eval_tree(ctx, lo, env), h = alg_eval_tree(ctx, hi, env);
    if (!(l.lo <= brute + 1e-9 * (1 + fabs(brute)) && h.hi >= brute - 1e-9 * (1 + fabs(brute))))
      fail_msg("%s: lower %s = %g, upper %s = %g, exact %g", alg_print(ctx, exact, ALG_FMT_TEXT),
               alg_print(ctx, lo, ALG_FMT_TEXT), l.lo, alg_print(ctx, hi, ALG_FMT_TEXT), h.hi, brute);
  }
  free(env);
}

/* EXAMPLES.md §3: seq (i = 1, N) delay(i*t); par (i = 1, N) use(mem, i*t), mem = fcfs(4). */
static void test_examples_section_3(void **state) {
  CheckCtx *c = *state;
  AlgCtx *ctx = c->ctx;
  AlgExpr *one = alg_num_int(ctx, 1), *four = alg_num_int(ctx, 4), *n = check_sym(c, c->N), *t = check_sym(c, c->t);
  AlgSymbol *i = alg_index_new(ctx, "i", one, n);
  AlgExpr *it = alg_mul(ctx, check_sym(c, i), t);
  AlgExpr *seq = alg_sum(ctx, i, one, n, it);
  /* N(N+1)/2 * t, by hand */
  AlgExpr *expected = alg_mul(ctx, alg_div(ctx, alg_mul(ctx, n, alg_add(ctx, n, one)), alg_num_int(ctx, 2)), t);
  assert_ptr_equal(alg_expand(ctx, seq), alg_expand(ctx, expected));
  AlgExpr *d_mem = alg_sum(ctx, i, one, n, it);
  AlgExpr *phi = alg_max_over(ctx, i, one, n, it);
  AlgExpr *lower = alg_max(ctx, phi, alg_div(ctx, d_mem, four));
  AlgExpr *upper = alg_max_over(ctx, i, one, n, alg_add(ctx, it, alg_div(ctx, alg_sub(ctx, d_mem, it), four)));
  assert_false(has_bigop(lower) || has_bigop(upper));
  AlgExpr *t_lo = alg_add(ctx, seq, lower), *t_hi = alg_add(ctx, seq, upper);
  AlgInterval *env = env_new(c);
  set(env, c->N, 10);
  set(env, c->t, 1);
  assert_value(c, t_lo, env, 68.75);
  assert_value(c, t_hi, env, 76.25);
  /* U = N t 3/4 + N(N+1)/8 t, by hand */
  AlgExpr *u_hand = alg_add(ctx, alg_mul(ctx, alg_num_frac(ctx, 3, 4), alg_mul(ctx, n, t)),
                            alg_mul(ctx, alg_num_frac(ctx, 1, 8), alg_mul(ctx, alg_mul(ctx, n, alg_add(ctx, n, one)), t)));
  assert_ptr_equal(alg_expand(ctx, upper), alg_expand(ctx, u_hand));
  free(env);
}

/* EXAMPLES.md §1: exact folding of decimal literals: ceil(10^6/8) * 0.001 = 125, 2 + 8192*0.0005 = 6.096. */
static void test_examples_section_1_numbers(void **state) {
  CheckCtx *c = *state;
  AlgCtx *ctx = c->ctx;
  AlgExpr *ms, *half_ns, *expect_m;
  assert_int_equal(alg_num_decimal(ctx, "0.001", &ms), 0);
  assert_int_equal(alg_num_decimal(ctx, "0.0005", &half_ns), 0);
  assert_int_equal(alg_num_decimal(ctx, "6.096", &expect_m), 0);
  AlgExpr *c_time = alg_mul(ctx, alg_func(ctx, ALG_CEIL, alg_div(ctx, alg_num_int(ctx, 1000000), alg_num_int(ctx, 8))), ms);
  assert_ptr_equal(c_time, alg_num_int(ctx, 125));
  AlgExpr *m = alg_add(ctx, alg_num_int(ctx, 2), alg_mul(ctx, alg_num_int(ctx, 8192), half_ns));
  assert_ptr_equal(m, expect_m);
  /* L = max(c + m, 8m, c) = 131.096 exactly */
  AlgExpr *L = alg_max_n(ctx, 3, (AlgExpr *[]){alg_add(ctx, c_time, m), alg_mul(ctx, alg_num_int(ctx, 8), m), c_time});
  AlgExpr *expect_L;
  assert_int_equal(alg_num_decimal(ctx, "131.096", &expect_L), 0);
  assert_ptr_equal(L, expect_L);
}

/* Sums of ceil/floor of a polynomial in the index (LU's trailing updates): closed by relaxing the
** rounding, sum ceil((N - i)^2 / P) >= sum (N - i)^2 / P and <= that + count; floor under a
** negative factor takes the other side. Checked against the loop for N = 1 .. 40, P = 1 .. 9. */
static void test_close_rounded_polynomial(void **state) {
  CheckCtx *c = *state;
  AlgCtx *ctx = c->ctx;
  AlgExpr *zero = alg_num_int(ctx, 0), *n = check_sym(c, c->N), *p = check_sym(c, c->P);
  AlgSymbol *i = alg_index_new(ctx, "i", zero, alg_sub(ctx, n, alg_num_int(ctx, 1)));
  AlgExpr *iv = check_sym(c, i);
  AlgExpr *left = alg_sub(ctx, n, iv);
  AlgExpr *quot = alg_div(ctx, alg_mul(ctx, left, left), p);
  AlgExpr *body = alg_sub(ctx, alg_func(ctx, ALG_CEIL, quot), alg_func(ctx, ALG_FLOOR, alg_div(ctx, iv, p)));
  AlgExpr *sum = alg_sum(ctx, i, zero, alg_sub(ctx, n, alg_num_int(ctx, 1)), body);
  AlgExpr *lo = alg_close(ctx, sum, ALG_DIR_LOWER), *hi = alg_close(ctx, sum, ALG_DIR_UPPER);
  assert_false(has_bigop(lo));
  assert_false(has_bigop(hi));
  AlgInterval *env = env_new(c);
  for (long N = 1; N <= 40; N += 3)
    for (long P = 1; P <= 9; P += 2) {
      double exact = 0;
      for (long k = 0; k <= N - 1; k++)
        exact += (double)(((N - k) * (N - k) + P - 1) / P) - (double)(k / P);
      set(env, c->N, (double)N);
      set(env, c->P, (double)P);
      double l = alg_eval_tree(ctx, lo, env).lo, h = alg_eval_tree(ctx, hi, env).hi;
      if (!(l <= exact + 1e-9 && exact <= h + 1e-9))
        fail_msg("N=%ld P=%ld: [%g, %g] does not enclose %g", N, P, l, h, exact);
      /* the relaxation is within one unit per term of the exact sum on each side */
      assert_true(exact - l <= 2.0 * (double)N + 1e-9);
      assert_true(h - exact <= 2.0 * (double)N + 1e-9);
    }
  free(env);
}

/* A summand that is nonzero at one index (an `if (p == c)` inside a called process): the sum of
** (i == c ? x : y) over lower..upper is closed exactly, count*y plus x - y where c is in range.
** Checked against the loop for ranges 0..N-1 (N = 1 .. 12) and c = -2 .. 14 (in and out). */
static void test_close_indicator(void **state) {
  CheckCtx *c = *state;
  AlgCtx *ctx = c->ctx;
  AlgExpr *zero = alg_num_int(ctx, 0), *n = check_sym(c, c->N), *p = check_sym(c, c->P);
  AlgExpr *upper = alg_sub(ctx, n, alg_num_int(ctx, 1));
  AlgSymbol *i = alg_index_new(ctx, "i", zero, upper);
  AlgExpr *iv = check_sym(c, i);
  for (long target = -2; target <= 14; target++) {
    AlgExpr *at = alg_num_int(ctx, target);
    AlgExpr *body = alg_cond(ctx, alg_cmp(ctx, ALG_CMP_EQ, at, iv), alg_mul(ctx, alg_num_int(ctx, 7), p),
                             alg_num_int(ctx, 2));
    AlgExpr *sum = alg_sum(ctx, i, zero, upper, body);
    assert_false(has_bigop(sum));
    AlgInterval *env = env_new(c);
    for (long N = 1; N <= 12; N++) {
      double exact = 0;
      for (long k = 0; k <= N - 1; k++) exact += k == target ? 7.0 * 3 : 2.0;
      set(env, c->N, (double)N);
      set(env, c->P, 3);
      AlgInterval value = alg_eval_tree(ctx, sum, env);
      if (!(value.lo == exact && value.hi == exact))
        fail_msg("N=%ld c=%ld: [%g, %g], the loop gives %g", N, target, value.lo, value.hi, exact);
    }
    free(env);
  }
}

/* sum over i = lo .. N - 1 of P * max(f, g) and of P * min(f, g) with f = s i + a / 2 + i^2 and
** g = 3 + i^2 (f - g = s i + a / 2 - 3, slope s = 1, -1, 2, -3; a / 2 not always an integer), and
** the nested par's count Q - max(0, 1 - r): closed (no big operator left) and equal to the loop
** at lo = 0, 1, N = 1 .. 12 (N = 1, lo = 1: empty), a = -9 .. 9, P = 3. */
static void test_close_two_sided(void **state) {
  CheckCtx *c = *state;
  AlgCtx *ctx = c->ctx;
  AlgExpr *n = check_sym(c, c->N), *p = check_sym(c, c->P), *one = alg_num_int(ctx, 1);
  AlgExpr *half_a = alg_div(ctx, check_sym(c, c->a), alg_num_int(ctx, 2));
  static const long slopes[] = {1, -1, 2, -3};
  for (int lo = 0; lo <= 1; lo++) {
    AlgExpr *lower = alg_num_int(ctx, lo), *upper = alg_sub(ctx, n, one);
    AlgSymbol *i = alg_index_new(ctx, "i", lower, upper);
    AlgExpr *iv = check_sym(c, i);
    for (size_t k = 0; k < sizeof slopes / sizeof slopes[0]; k++) {
      long sl = slopes[k];
      /* f = sl i + a / 2 + i^2, g = 3 + i^2: f - g = sl i + a / 2 - 3 */
      AlgExpr *sq = alg_mul(ctx, iv, iv);
      AlgExpr *f = alg_add(ctx, alg_add(ctx, alg_mul(ctx, alg_num_int(ctx, sl), iv), half_a), sq);
      AlgExpr *g = alg_add(ctx, alg_num_int(ctx, 3), sq);
      for (int want_max = 0; want_max <= 1; want_max++) {
        AlgExpr *body = alg_mul(ctx, p, want_max ? alg_max(ctx, f, g) : alg_min(ctx, f, g));
        AlgExpr *sum = alg_sum(ctx, i, lower, upper, body);
        if (has_bigop(sum)) fail_msg("slope %ld %s: left open: %s", sl, want_max ? "max" : "min",
                                     alg_print(ctx, sum, ALG_FMT_TEXT));
        AlgInterval *env = env_new(c);
        for (long N = 1; N <= 12; N++)
          for (long a = -9; a <= 9; a++) {
            double exact = 0;
            for (long j = lo; j <= N - 1; j++) {
              double fv = sl * j + a / 2.0 + j * j, gv = 3.0 + j * j;
              exact += 3 * (want_max ? (fv > gv ? fv : gv) : (fv < gv ? fv : gv));
            }
            set(env, c->N, (double)N);
            set(env, c->P, 3);
            set(env, c->a, (double)a);
            assert_value(c, sum, env, exact);
          }
        free(env);
      }
    }
  }
  /* every rank of a Q x Q grid but (0, 0): sum over r of Q - max(0, 1 - r) = Q^2 - 1 */
  AlgExpr *zero = alg_num_int(ctx, 0), *upper = alg_sub(ctx, n, one);
  AlgSymbol *r = alg_index_new(ctx, "r", zero, upper);
  AlgExpr *count = alg_sub(ctx, n, alg_max(ctx, zero, alg_sub(ctx, one, check_sym(c, r))));
  AlgExpr *sum = alg_sum(ctx, r, zero, upper, count);
  assert_false(has_bigop(sum));
  AlgInterval *env = env_new(c);
  for (long Q = 1; Q <= 20; Q++) {
    set(env, c->N, (double)Q);
    assert_value(c, sum, env, (double)(Q * Q - 1));
  }
  free(env);
}

/* sum over i = a .. N - 1 of (cmp ? 7P : 2) for the tests i < c, i <= c, c < i, c <= i, i - 1 < c
** and -i < c (slope 1 or -1 in i, c symbolic and not always an integer: c = x / 2): closed (no
** big operator left) and equal to the loop at a = 0, 1, N = 1 .. 12 (at a = 1, N = 1: empty),
** x = -5 .. 27. Work dealt with remainders sums (w < N % P ? 1 : 0) over the workers. */
static void test_close_threshold(void **state) {
  CheckCtx *c = *state;
  AlgCtx *ctx = c->ctx;
  AlgExpr *n = check_sym(c, c->N), *p = check_sym(c, c->P), *one = alg_num_int(ctx, 1);
  AlgExpr *x = alg_div(ctx, check_sym(c, c->a), alg_num_int(ctx, 2));
  AlgExpr *upper = alg_sub(ctx, n, one);
  for (int lo = 0; lo <= 1; lo++) {
    AlgExpr *lower = alg_num_int(ctx, lo);
    AlgSymbol *i = alg_index_new(ctx, "i", lower, upper);
    AlgExpr *iv = check_sym(c, i);
    AlgExpr *tests[6] = {alg_cmp(ctx, ALG_CMP_LT, iv, x), alg_cmp(ctx, ALG_CMP_LE, iv, x),
                         alg_cmp(ctx, ALG_CMP_LT, x, iv), alg_cmp(ctx, ALG_CMP_LE, x, iv),
                         alg_cmp(ctx, ALG_CMP_LT, alg_sub(ctx, iv, one), x),
                         alg_cmp(ctx, ALG_CMP_LT, alg_neg(ctx, iv), x)};
    for (int t = 0; t < 6; t++) {
      AlgExpr *body = alg_cond(ctx, tests[t], alg_mul(ctx, alg_num_int(ctx, 7), p), alg_num_int(ctx, 2));
      AlgExpr *sum = alg_sum(ctx, i, lower, upper, body);
      assert_false(has_bigop(sum));
      AlgInterval *env = env_new(c);
      for (long N = 1; N <= 12; N++)
        for (long xa = -5; xa <= 27; xa++) {
          double exact = 0, xv = (double)xa / 2;
          for (long k = lo; k <= N - 1; k++) {
            int pass = t == 0 ? k < xv : t == 1 ? k <= xv : t == 2 ? xv < k : t == 3 ? xv <= k
                     : t == 4 ? k - 1 < xv : -k < xv;
            exact += pass ? 7.0 * 3 : 2.0;
          }
          set(env, c->N, (double)N);
          set(env, c->P, 3);
          set(env, c->a, (double)xa);
          AlgInterval value = alg_eval_tree(ctx, sum, env);
          if (!(fabs(value.lo - exact) < 1e-9 && fabs(value.hi - exact) < 1e-9))
            fail_msg("test %d, a=%d N=%ld x=%g: [%g, %g], the loop gives %g", t, lo, N, xv, value.lo, value.hi, exact);
        }
      free(env);
    }
  }
}

/* A repeat over work dealt with remainders: sum over w = a .. P - 1 of
** (1 <= q(w) ? 3 q(w) : 0) + max(0, q(w) - 1) with q(w) = floor(N / P) + (w < N % P ? 1 : 0),
** the index entering only through the comparison inside (inside a `?:` test, a product, a max):
** closed (no big operator left) and equal to the loop at a = 0, 1, P = 1 .. 13, N = 0 .. 40
** (the first part is 3 N at a = 0). */
static void test_close_inner_threshold(void **state) {
  CheckCtx *c = *state;
  AlgCtx *ctx = c->ctx;
  AlgExpr *n = check_sym(c, c->N), *p = check_sym(c, c->P), *one = alg_num_int(ctx, 1), *zero = alg_num_int(ctx, 0);
  AlgExpr *upper = alg_sub(ctx, p, one);
  for (int lo = 0; lo <= 1; lo++) {
    AlgExpr *lower = alg_num_int(ctx, lo);
    AlgSymbol *w = alg_index_new(ctx, "w", lower, upper);
    AlgExpr *extra = alg_cond(ctx, alg_cmp(ctx, ALG_CMP_LT, check_sym(c, w), alg_mod(ctx, n, p)), one, zero);
    AlgExpr *q = alg_add(ctx, alg_func(ctx, ALG_FLOOR, alg_div(ctx, n, p)), extra);
    AlgExpr *body = alg_add(ctx, alg_cond(ctx, alg_cmp(ctx, ALG_CMP_LE, one, q), alg_mul(ctx, alg_num_int(ctx, 3), q), zero),
                            alg_max(ctx, zero, alg_sub(ctx, q, one)));
    AlgExpr *sum = alg_sum(ctx, w, lower, upper, body);
    assert_false(has_bigop(sum));
    AlgInterval *env = env_new(c);
    for (long P = 1; P <= 13; P++)
      for (long N = 0; N <= 40; N++) {
        double exact = 0;
        for (long k = lo; k <= P - 1; k++) {
          long qk = N / P + (k < N % P ? 1 : 0);
          exact += (qk >= 1 ? 3.0 * (double)qk : 0) + (qk - 1 > 0 ? (double)(qk - 1) : 0);
        }
        set(env, c->N, (double)N);
        set(env, c->P, (double)P);
        AlgInterval value = alg_eval_tree(ctx, sum, env);
        if (!(fabs(value.lo - exact) < 1e-9 && fabs(value.hi - exact) < 1e-9))
          fail_msg("a=%d P=%ld N=%ld: [%g, %g], the loop gives %g", lo, P, N, value.lo, value.hi, exact);
      }
    free(env);
  }
}

/* A tree reduction's levels: sum over l = 0 .. N-1 of max(t, u * ceil(P / 2^(l+1))). The
** geometric part P / 2^(l+1) (a power of a power of the index) closes to P (1 - 2^-N); the lower
** closure of the sum of the max is at least the max of the two sums (t N and u P (1 - 2^-N)),
** the upper one at most the sum with ceil(x) <= x + 1. Both enclose the loop, N = 1 .. 12,
** P = 1 .. 4096. */
static void test_close_tree_levels(void **state) {
  CheckCtx *c = *state;
  AlgCtx *ctx = c->ctx;
  AlgExpr *zero = alg_num_int(ctx, 0), *one = alg_num_int(ctx, 1), *two = alg_num_int(ctx, 2);
  AlgExpr *n = check_sym(c, c->N), *p = check_sym(c, c->P), *t = check_sym(c, c->t), *u = check_sym(c, c->u);
  AlgExpr *upper = alg_sub(ctx, n, one);
  AlgSymbol *l = alg_index_new(ctx, "l", zero, upper);
  AlgExpr *half = alg_div(ctx, p, alg_pow(ctx, two, alg_add(ctx, check_sym(c, l), one)));
  AlgExpr *geometric = alg_sum(ctx, l, zero, upper, half);
  assert_false(has_bigop(geometric));
  AlgExpr *level = alg_max(ctx, t, alg_mul(ctx, u, alg_func(ctx, ALG_CEIL, half)));
  AlgExpr *sum = alg_sum(ctx, l, zero, upper, level);
  AlgExpr *lo = alg_close(ctx, sum, ALG_DIR_LOWER), *hi = alg_close(ctx, sum, ALG_DIR_UPPER);
  assert_false(has_bigop(lo));
  assert_false(has_bigop(hi));
  AlgInterval *env = env_new(c);
  set(env, c->t, 3);
  set(env, c->u, 2);
  for (long N = 1; N <= 12; N++)
    for (long P = 1; P <= 4096; P *= 3) {
      double exact = 0, halves = 0;
      for (long k = 0; k < N; k++) {
        double share = (double)P / (double)(2L << k);
        halves += share;
        exact += fmax(3.0, 2.0 * ceil(share));
      }
      set(env, c->N, (double)N);
      set(env, c->P, (double)P);
      AlgInterval g = alg_eval_tree(ctx, geometric, env);
      if (!(g.lo <= halves * (1 + 1e-12) && halves <= g.hi * (1 + 1e-12)))
        fail_msg("N=%ld P=%ld: geometric [%g, %g], the loop gives %g", N, P, g.lo, g.hi, halves);
      double low = alg_eval_tree(ctx, lo, env).lo, high = alg_eval_tree(ctx, hi, env).hi;
      if (!(low <= exact + 1e-9 && exact <= high + 1e-9))
        fail_msg("N=%ld P=%ld: [%g, %g] does not enclose %g", N, P, low, high, exact);
      double split = fmax(3.0 * (double)N, 2.0 * halves);   /* what the lower closure must reach */
      if (low < split * (1 - 1e-12))
        fail_msg("N=%ld P=%ld: lower %g below max(sum t, sum u P/2^(l+1)) = %g", N, P, low, split);
      if (high > 3.0 * (double)N + 2.0 * (halves + (double)N) + 1e-9)
        fail_msg("N=%ld P=%ld: upper %g above the relaxed sum", N, P, high);
    }
  free(env);
}

/* An approximated sum keeps its exact form for evaluation: sum_{i=0}^{N-1} ceil((N-i)^2/P) closed
** from below (and above) while the loop limit is 100 evaluates to the loop's value; closed while
** the limit is 1, to the closed bound (at least sum (N-i)^2/P, below the loop's value somewhere). The text shows the
** approximation only, the same both times. */
static void test_close_exact_below_limit(void **state) {
  CheckCtx *c = *state;
  AlgCtx *ctx = c->ctx;
  AlgExpr *zero = alg_num_int(ctx, 0), *one = alg_num_int(ctx, 1), *n = check_sym(c, c->N), *p = check_sym(c, c->P);
  AlgExpr *upper = alg_sub(ctx, n, one);
  AlgSymbol *i = alg_index_new(ctx, "i", zero, upper);
  AlgExpr *left = alg_sub(ctx, n, check_sym(c, i));
  AlgExpr *sum = alg_sum(ctx, i, zero, upper, alg_func(ctx, ALG_CEIL, alg_div(ctx, alg_mul(ctx, left, left), p)));
  alg_ctx_set_loop_limit(ctx, 100);
  AlgExpr *lo = alg_close(ctx, sum, ALG_DIR_LOWER), *hi = alg_close(ctx, sum, ALG_DIR_UPPER);
  alg_ctx_set_loop_limit(ctx, 1);
  AlgExpr *far = alg_close(ctx, sum, ALG_DIR_LOWER);
  assert_false(has_bigop(lo));
  assert_null(strstr(alg_print(ctx, lo, ALG_FMT_TEXT), "sum("));
  assert_string_equal(alg_print(ctx, lo, ALG_FMT_TEXT), alg_print(ctx, far, ALG_FMT_TEXT));
  alg_ctx_set_loop_limit(ctx, 100);
  AlgInterval *env = env_new(c);
  int not_walked = 0;   /* points where the closure made under limit 1 is below the loop's value */
  for (long N = 1; N <= 30; N += 7)
    for (long P = 1; P <= 4096; P *= 8) {
      double exact = 0, relaxed = 0;
      for (long k = 0; k < N; k++) {
        exact += (double)(((N - k) * (N - k) + P - 1) / P);
        relaxed += (double)((N - k) * (N - k)) / (double)P;
      }
      set(env, c->N, (double)N);
      set(env, c->P, (double)P);
      AlgInterval below = alg_eval_tree(ctx, lo, env), above = alg_eval_tree(ctx, hi, env);
      if (!(fabs(below.lo - exact) < 1e-9 && fabs(above.hi - exact) < 1e-9))
        fail_msg("N=%ld P=%ld: below the limit [%g, %g], the loop gives %g", N, P, below.lo, above.hi, exact);
      AlgInterval beyond = alg_eval_tree(ctx, far, env);
      if (!(beyond.lo <= exact + 1e-9 && beyond.lo >= relaxed - 1e-9 * (1 + relaxed)))
        fail_msg("N=%ld P=%ld: beyond the limit %g, the loop gives %g, relaxed %g", N, P, beyond.lo, exact, relaxed);
      if (beyond.lo < exact - 0.5) not_walked++;
    }
  assert_true(not_walked > 0);
  free(env);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test_setup_teardown(test_faulhaber_symbolic_bounds, setup, teardown),
    cmocka_unit_test_setup_teardown(test_polynomial_symbolic_coefficients, setup, teardown),
    cmocka_unit_test_setup_teardown(test_geometric, setup, teardown),
    cmocka_unit_test_setup_teardown(test_nested, setup, teardown),
    cmocka_unit_test_setup_teardown(test_empty_ranges, setup, teardown),
    cmocka_unit_test_setup_teardown(test_monotone_extrema, setup, teardown),
    cmocka_unit_test_setup_teardown(test_no_closed_form_and_close, setup, teardown),
    cmocka_unit_test_setup_teardown(test_periodic_extremum, setup, teardown),
    cmocka_unit_test_setup_teardown(test_close_random, setup, teardown),
    cmocka_unit_test_setup_teardown(test_examples_section_3, setup, teardown),
    cmocka_unit_test_setup_teardown(test_examples_section_1_numbers, setup, teardown),
    cmocka_unit_test_setup_teardown(test_close_rounded_polynomial, setup, teardown),
    cmocka_unit_test_setup_teardown(test_close_indicator, setup, teardown),
    cmocka_unit_test_setup_teardown(test_close_threshold, setup, teardown),
    cmocka_unit_test_setup_teardown(test_close_two_sided, setup, teardown),
    cmocka_unit_test_setup_teardown(test_close_inner_threshold, setup, teardown),
    cmocka_unit_test_setup_teardown(test_close_tree_levels, setup, teardown),
    cmocka_unit_test_setup_teardown(test_close_exact_below_limit, setup, teardown),
    cmocka_unit_test_setup_teardown(test_periodic_sum, setup, teardown),
    cmocka_unit_test_setup_teardown(test_equality_sum, setup, teardown),
    cmocka_unit_test_setup_teardown(test_full_period, setup, teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
