/*
** test_alg_expr.c — algebra/expr.c, simplify.c, logic.c, eval.c, sign.c, transform.c: exact
** numbers and decimal literals, interval constants, reading nodes, assumptions, substitution,
** free symbols, derivatives, bounds, interval evaluation of logic, and a randomized check that
** simplification never changes a value (random trees evaluated directly in double precision
** here, against the simplified expression evaluated by alg_eval_tree).
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include "alg_check.h"

#define VALUE_TRIALS 3000   /* random trees checked for value preservation */

static int setup(void **state) {
  *state = check_ctx_new();
  return 0;
}

static int teardown(void **state) {
  check_ctx_free(*state);
  return 0;
}

static void test_numbers(void **state) {
  CheckCtx *c = *state;
  AlgCtx *ctx = c->ctx;
  AlgExpr *e;
  assert_int_equal(alg_num_decimal(ctx, "2.5", &e), 0);
  assert_ptr_equal(e, alg_num_frac(ctx, 5, 2));
  assert_int_equal(alg_num_decimal(ctx, "1e-6", &e), 0);
  assert_ptr_equal(e, alg_num_frac(ctx, 1, 1000000));
  assert_int_equal(alg_num_decimal(ctx, "1_000", &e), 0);
  assert_ptr_equal(e, alg_num_int(ctx, 1000));
  assert_int_equal(alg_num_decimal(ctx, "12.5E+2", &e), 0);
  assert_ptr_equal(e, alg_num_int(ctx, 1250));
  assert_int_equal(alg_num_decimal(ctx, "1.2.3", &e), -1);
  assert_int_equal(alg_num_decimal(ctx, "e5", &e), -1);
  assert_int_equal(alg_num_decimal(ctx, "1e", &e), -1);
  assert_int_equal(alg_num_decimal(ctx, "", &e), -1);
  /* 2.5 us in seconds: exact */
  AlgExpr *us;
  assert_int_equal(alg_num_decimal(ctx, "2.5", &e), 0);
  assert_int_equal(alg_num_decimal(ctx, "0.000001", &us), 0);
  AlgExpr *product = alg_mul(ctx, e, us);
  assert_int_equal(alg_kind(product), ALG_NUM);
  assert_int_equal(mpq_cmp_si(alg_num_value(product), 1, 400000), 0);
  /* a double is taken exactly: 0.1 is not 1/10 */
  assert_ptr_not_equal(alg_num_double(ctx, 0.1), alg_num_frac(ctx, 1, 10));
  assert_ptr_equal(alg_num_double(ctx, 0.5), alg_num_frac(ctx, 1, 2));
  /* the enclosure of 1/3 contains it and is tight */
  AlgInterval third = alg_num_enclosure(alg_num_frac(ctx, 1, 3));
  assert_true(third.lo < third.hi && third.lo <= 1.0 / 3 && 1.0 / 3 <= third.hi);
  assert_true(third.hi - third.lo < 1e-16);
  /* exactness ends where numbers get huge: 3^100000 falls back to an interval */
  AlgExpr *huge = alg_pow(ctx, alg_num_int(ctx, 3), alg_num_int(ctx, 100000));
  assert_int_equal(alg_kind(huge), ALG_IVAL);
  assert_true(isinf(alg_ival_value(huge).hi));
  /* interval constants fold with outward rounding; a point interval is a number */
  AlgExpr *sum = alg_add(ctx, alg_ival(ctx, 1, 2), alg_ival(ctx, 3, 4));
  assert_int_equal(alg_kind(sum), ALG_IVAL);
  assert_true(alg_ival_value(sum).lo <= 4 && alg_ival_value(sum).hi >= 6);
  assert_int_equal(alg_kind(alg_ival(ctx, 2, 2)), ALG_NUM);
  /* 2^(1/2) stays symbolic, 4^(1/2) is 2, 8^(2/3) is 4 */
  assert_int_equal(alg_kind(alg_pow(ctx, alg_num_int(ctx, 2), alg_num_frac(ctx, 1, 2))), ALG_POW);
  assert_ptr_equal(alg_pow(ctx, alg_num_int(ctx, 4), alg_num_frac(ctx, 1, 2)), alg_num_int(ctx, 2));
  assert_ptr_equal(alg_pow(ctx, alg_num_int(ctx, 8), alg_num_frac(ctx, 2, 3)), alg_num_int(ctx, 4));
  /* alg_num_long: integers that fit a long only; 2^64 + 3 is not 3 (its low bits) */
  int ok = 1;
  assert_int_equal(alg_num_long(alg_num_int(ctx, -7), &ok), -7);
  assert_int_equal(ok, 1);
  assert_int_equal(alg_num_long(alg_num_frac(ctx, 7, 2), &ok), 0);
  assert_int_equal(ok, 0);
  ok = 1;
  AlgExpr *big = alg_add(ctx, alg_pow(ctx, alg_num_int(ctx, 2), alg_num_int(ctx, 64)), alg_num_int(ctx, 3));
  assert_int_equal(alg_kind(big), ALG_NUM);
  alg_num_long(big, &ok);
  assert_int_equal(ok, 0);
  ok = 1;
  alg_num_long(alg_ival(ctx, 1, 2), &ok);
  assert_int_equal(ok, 0);
  ok = 1;
  alg_num_long(check_sym(c, c->x), &ok);
  assert_int_equal(ok, 0);
}

static void test_reading_nodes(void **state) {
  CheckCtx *c = *state;
  AlgCtx *ctx = c->ctx;
  AlgExpr *x = check_sym(c, c->x), *y = check_sym(c, c->y);
  AlgExpr *e = alg_sub(ctx, x, y);   /* ADD(x, MUL(-1, y)) */
  assert_int_equal(alg_kind(e), ALG_ADD);
  assert_int_equal(alg_nkids(e), 2);
  assert_ptr_equal(alg_kid(e, 0), x);
  AlgExpr *neg = alg_kid(e, 1);
  assert_int_equal(alg_kind(neg), ALG_MUL);
  assert_true(alg_is_num(alg_kid(neg, 0), -1));
  assert_ptr_equal(alg_symbol_of(alg_kid(neg, 1)), c->y);
  /* a / b is MUL(a, POW(b, -1)) */
  AlgExpr *q = alg_div(ctx, x, y);
  assert_int_equal(alg_kind(q), ALG_MUL);
  assert_int_equal(alg_kind(alg_kid(q, 1)), ALG_POW);
  assert_true(alg_is_num(alg_kid(alg_kid(q, 1), 1), -1));
  /* a > b is LT(b, a) */
  AlgExpr *gt = alg_cmp(ctx, ALG_CMP_GT, x, y);
  assert_int_equal(alg_kind(gt), ALG_LT);
  assert_ptr_equal(alg_kid(gt, 0), y);
  /* big operator layout: index, lower, upper, body */
  AlgExpr *one = alg_num_int(ctx, 1), *n = check_sym(c, c->N);
  AlgSymbol *i = alg_index_new(ctx, "i", one, n);
  AlgExpr *s = alg_sum(ctx, i, one, n, alg_func(ctx, ALG_LOG, check_sym(c, i)));
  assert_int_equal(alg_kind(s), ALG_SUM);
  assert_ptr_equal(alg_symbol_of(s), i);
  assert_ptr_equal(alg_kid(s, 1), one);
  assert_ptr_equal(alg_kid(s, 2), n);
  assert_string_equal(alg_kind_name(alg_kind(s)), "sum");
  /* symbols */
  assert_string_equal(alg_symbol_name(c->N), "N");
  assert_ptr_equal(alg_symbol_at(ctx, alg_symbol_id(c->t)), c->t);
  assert_ptr_equal(alg_symbol_find(ctx, "t"), c->t);
  assert_null(alg_symbol_find(ctx, "nope"));
  assert_int_equal(alg_symbol_kind(i), ALG_SYM_INDEX);
  assert_true(alg_symbol_assume(i).integer);
  assert_true(alg_symbol_assume(i).lo == 1);
  assert_true(alg_assume_default(ALG_SYM_PARAM).lo == 1);
  assert_true(alg_assume_default(ALG_SYM_CONST).lo == 0);
  assert_true(alg_assume_default(ALG_SYM_INDEX).integer);
  /* free symbols, in id order; the bound index is not free */
  AlgSymbol *free_syms[8];
  AlgExpr *f = alg_add(ctx, alg_mul(ctx, check_sym(c, c->t), s), x);
  assert_int_equal(alg_free_symbols(ctx, f, free_syms, 8), 3);
  assert_ptr_equal(free_syms[0], c->N);
  assert_ptr_equal(free_syms[1], c->x);
  assert_ptr_equal(free_syms[2], c->t);
  assert_false(alg_contains(f, i));
  assert_int_equal(alg_free_symbols(ctx, f, free_syms, 1), 3);   /* counts beyond cap */
}

static void test_subst(void **state) {
  CheckCtx *c = *state;
  AlgCtx *ctx = c->ctx;
  AlgExpr *one = alg_num_int(ctx, 1), *n = check_sym(c, c->N), *x = check_sym(c, c->x);
  AlgSymbol *i = alg_index_new(ctx, "i", one, n);
  AlgExpr *s = alg_sum(ctx, i, one, n, check_sym(c, i));
  assert_ptr_equal(alg_subst(ctx, s, c->N, alg_num_int(ctx, 10)), alg_num_int(ctx, 55));
  /* an open sum closes once its bound is a number */
  AlgExpr *roots = alg_sum(ctx, i, one, n, alg_func(ctx, ALG_SQRT, check_sym(c, i)));
  AlgExpr *roots4 = alg_subst(ctx, roots, c->N, alg_num_int(ctx, 4));
  /* sqrt(1) + sqrt(2) + sqrt(3) + sqrt(4) = 3 + sqrt(2) + sqrt(3) */
  AlgExpr *hand = alg_add(ctx, alg_num_int(ctx, 3), alg_add(ctx, alg_func(ctx, ALG_SQRT, alg_num_int(ctx, 2)),
                                                           alg_func(ctx, ALG_SQRT, alg_num_int(ctx, 3))));
  assert_false(alg_contains(roots4, c->N));
  AlgInterval a = alg_eval_tree(ctx, roots4, NULL);   /* no free symbol: no env needed */
  assert_true(a.lo <= 3 + sqrt(2) + sqrt(3) && 3 + sqrt(2) + sqrt(3) <= a.hi);
  size_t count = alg_symbol_count(ctx);
  AlgInterval *env = calloc(count, sizeof *env);
  check_random_env(c, env, count);
  assert_true(check_near(alg_eval_tree(ctx, roots4, env), alg_eval_tree(ctx, hand, env)));
  free(env);
  /* the bound index is not replaced in the body */
  assert_ptr_equal(alg_subst(ctx, roots, i, x), roots);
  /* x + y with x := y - 1 is 2y - 1 */
  AlgExpr *y = check_sym(c, c->y);
  assert_ptr_equal(alg_subst(ctx, alg_add(ctx, x, y), c->x, alg_sub(ctx, y, one)),
                   alg_sub(ctx, alg_mul(ctx, alg_num_int(ctx, 2), y), one));
}

static void test_diff(void **state) {
  CheckCtx *c = *state;
  AlgCtx *ctx = c->ctx;
  AlgExpr *x = check_sym(c, c->x), *y = check_sym(c, c->y);
  AlgExpr *three = alg_num_int(ctx, 3), *two = alg_num_int(ctx, 2);
  /* d/dx x^3 = 3 x^2 */
  assert_ptr_equal(alg_diff(ctx, alg_pow(ctx, x, three), c->x), alg_mul(ctx, three, alg_pow(ctx, x, two)));
  /* d/dx exp(2x) = 2 exp(2x) */
  AlgExpr *e2x = alg_func(ctx, ALG_EXP, alg_mul(ctx, two, x));
  assert_ptr_equal(alg_diff(ctx, e2x, c->x), alg_mul(ctx, two, e2x));
  /* d/dx (x y + y) = y */
  assert_ptr_equal(alg_diff(ctx, alg_add(ctx, alg_mul(ctx, x, y), y), c->x), y);
  /* d/dx log(x) = 1/x */
  assert_ptr_equal(alg_diff(ctx, alg_func(ctx, ALG_LOG, x), c->x), alg_pow(ctx, x, alg_num_int(ctx, -1)));
  /* not differentiable symbolically */
  assert_null(alg_diff(ctx, alg_max(ctx, x, y), c->x));
  assert_null(alg_diff(ctx, alg_func(ctx, ALG_CEIL, x), c->x));
}

static void test_bounds_and_logic(void **state) {
  CheckCtx *c = *state;
  AlgCtx *ctx = c->ctx;
  AlgExpr *n = check_sym(c, c->N), *t = check_sym(c, c->t), *x = check_sym(c, c->x), *y = check_sym(c, c->y);
  AlgExpr *one = alg_num_int(ctx, 1);
  AlgInterval b = alg_bounds(ctx, alg_add(ctx, n, one));
  assert_true(b.lo == 2 && isinf(b.hi));
  b = alg_bounds(ctx, check_sym(c, c->P));
  assert_true(b.lo == 1 && b.hi == 4096);
  assert_true(alg_is_nonneg(ctx, alg_mul(ctx, t, n)));
  assert_true(alg_is_nonneg(ctx, alg_sub(ctx, n, one)));
  assert_false(alg_is_nonneg(ctx, alg_sub(ctx, n, alg_num_int(ctx, 2))));
  assert_true(alg_is_nonpos(ctx, alg_neg(ctx, t)));
  assert_false(alg_is_nonneg(ctx, x));
  /* decided conditions fold, undecided ones stay and evaluate to the hull */
  assert_ptr_equal(alg_cond(ctx, alg_cmp(ctx, ALG_CMP_GE, n, one), x, y), x);
  AlgExpr *undecided = alg_cond(ctx, alg_cmp(ctx, ALG_CMP_LT, x, y), t, n);
  assert_int_equal(alg_kind(undecided), ALG_COND);
  size_t count = alg_symbol_count(ctx);
  AlgInterval *env = calloc(count, sizeof *env);
  for (size_t k = 0; k < count; k++) env[k] = ival_point(1);
  env[alg_symbol_id(c->x)] = ival_make(0, 2);   /* x < y undecided for x in [0, 2], y = 1 */
  env[alg_symbol_id(c->t)] = ival_point(5);
  env[alg_symbol_id(c->N)] = ival_point(7);
  AlgInterval v = alg_eval_tree(ctx, undecided, env);
  assert_true(v.lo <= 5 && v.hi >= 7);
  env[alg_symbol_id(c->x)] = ival_point(0);
  v = alg_eval_tree(ctx, undecided, env);
  assert_true(v.lo == 5 && v.hi == 5);
  /* and / or / not over 0/1 */
  AlgExpr *lt = alg_cmp(ctx, ALG_CMP_LT, x, y), *le = alg_cmp(ctx, ALG_CMP_LE, y, x);
  assert_ptr_equal(alg_not(ctx, lt), le);
  v = alg_eval_tree(ctx, alg_and(ctx, lt, alg_not(ctx, le)), env);   /* x = 0 < y = 1 */
  assert_true(v.lo == 1 && v.hi == 1);
  v = alg_eval_tree(ctx, alg_or(ctx, le, alg_cmp(ctx, ALG_CMP_EQ, x, y)), env);
  assert_true(v.lo == 0 && v.hi == 0);
  assert_ptr_equal(alg_and(ctx, lt, lt), lt);
  assert_ptr_equal(alg_or(ctx, lt, one), one);
  free(env);
}

/* ---- simplification preserves values ---- */

typedef struct Tree {
  AlgExpr *expr;   /* built through the simplifying constructors */
  double value;    /* the same tree evaluated directly, in double */
} Tree;

static double sym_value(CheckCtx *c, const AlgInterval *env, AlgSymbol *s) {
  (void)c;
  return env[alg_symbol_id(s)].lo;
}

static Tree random_tree(CheckCtx *c, const AlgInterval *env, int depth) {
  AlgCtx *ctx = c->ctx;
  AlgSymbol *leaves[] = {c->N, c->M, c->P, c->x, c->y, c->t, c->u, c->a};
  Tree r;
  if (depth == 0 || check_int(&c->rng, 0, 5) == 0) {
    if (check_int(&c->rng, 0, 2) == 0) {
      long p = check_int(&c->rng, -6, 6), q = check_int(&c->rng, 1, 3);
      r.expr = alg_num_frac(ctx, p, q);
      r.value = (double)p / (double)q;
    } else {
      AlgSymbol *s = leaves[check_int(&c->rng, 0, 7)];
      r.expr = check_sym(c, s);
      r.value = sym_value(c, env, s);
    }
    return r;
  }
  Tree l = random_tree(c, env, depth - 1), k = random_tree(c, env, depth - 1);
  switch (check_int(&c->rng, 0, 13)) {
  case 0: case 1: r.expr = alg_add(ctx, l.expr, k.expr); r.value = l.value + k.value; break;
  case 2: r.expr = alg_sub(ctx, l.expr, k.expr); r.value = l.value - k.value; break;
  case 3: case 4: r.expr = alg_mul(ctx, l.expr, k.expr); r.value = l.value * k.value; break;
  case 5: {
    AlgExpr *den = alg_add(ctx, alg_mul(ctx, k.expr, k.expr), alg_num_int(ctx, 1));
    r.expr = alg_div(ctx, l.expr, den);
    r.value = l.value / (k.value * k.value + 1);
    break;
  }
  case 6: r.expr = alg_pow(ctx, l.expr, alg_num_int(ctx, 2)); r.value = l.value * l.value; break;
  case 7: r.expr = alg_max(ctx, l.expr, k.expr); r.value = fmax(l.value, k.value); break;
  case 8: r.expr = alg_min(ctx, l.expr, k.expr); r.value = fmin(l.value, k.value); break;
  case 9: r.expr = alg_func(ctx, ALG_ABS, l.expr); r.value = fabs(l.value); break;
  case 10: {
    Tree m = random_tree(c, env, depth - 1);
    r.expr = alg_cond(ctx, alg_cmp(ctx, ALG_CMP_LT, l.expr, k.expr), m.expr, k.expr);
    r.value = l.value < k.value ? m.value : k.value;
    break;
  }
  case 12: case 13: {   /* sum/max/min over i = a..b (maybe empty) of l + k i + m i^2, brute-forced */
    Tree m = random_tree(c, env, depth - 1);
    AlgExpr *lo = check_sym(c, c->a), *hi = check_sym(c, c->b);
    AlgSymbol *i = alg_index_new(ctx, "i", lo, hi);
    AlgExpr *iv = check_sym(c, i);
    AlgExpr *body = alg_add(ctx, alg_add(ctx, l.expr, alg_mul(ctx, k.expr, iv)), alg_mul(ctx, m.expr, alg_mul(ctx, iv, iv)));
    long first = (long)sym_value(c, env, c->a), last = (long)sym_value(c, env, c->b);
    int which = (int)check_int(&c->rng, 0, 2);
    AlgKind kind = which == 0 ? ALG_SUM : which == 1 ? ALG_MAXOVER : ALG_MINOVER;
    r.expr = alg_bigop(ctx, kind, i, lo, hi, body);
    r.value = 0;
    for (long j = first; j <= last; j++) {
      double v = l.value + k.value * (double)j + m.value * (double)j * (double)j;
      if (kind == ALG_SUM) r.value += v;
      else if (j == first) r.value = v;
      else r.value = kind == ALG_MAXOVER ? fmax(r.value, v) : fmin(r.value, v);
    }
    break;
  }
  default: {   /* a sum over a small index range with the tree in its body */
    AlgExpr *lo = alg_num_int(ctx, 1), *hi = alg_num_int(ctx, 3);
    AlgSymbol *i = alg_index_new(ctx, "i", lo, hi);
    AlgExpr *body = alg_mul(ctx, l.expr, check_sym(c, i));
    r.expr = alg_sum(ctx, i, lo, hi, body);
    r.value = l.value * 6;   /* 1 + 2 + 3 */
    break;
  }
  }
  return r;
}

static void test_simplification_preserves_values(void **state) {
  CheckCtx *c = *state;
  AlgCtx *ctx = c->ctx;
  size_t count = alg_symbol_count(ctx);
  AlgInterval *env = calloc(count, sizeof *env);
  int compared = 0;
  for (int k = 0; k < VALUE_TRIALS; k++) {
    check_random_env(c, env, count);
    Tree tree = random_tree(c, env, 4);
    AlgInterval v = alg_eval_tree(ctx, tree.expr, env);
    if (!isfinite(tree.value) || fabs(tree.value) > 1e12) continue;
    double tol = 1e-7 * (1 + fabs(tree.value));
    if (!(v.lo - tol <= tree.value && tree.value <= v.hi + tol))
      fail_msg("%s = [%.17g, %.17g] but the tree gives %.17g", alg_print(ctx, tree.expr, ALG_FMT_TEXT), v.lo, v.hi, tree.value);
    compared++;
  }
  assert_true(compared > VALUE_TRIALS / 2);
  free(env);
}

/* alg_collect: t*N^2 - t*N*M + u*N + u + x over t in [1, 2], u in [3, 4] and point N, M. The
** value is the same at random points; with the constants as intervals the collected form is
** exactly [1, 2] * (N^2 - N M) + [3, 4] * (N + 1) + x, where the plain form widens (t_hi N^2 -
** t_lo N M at the top). */
static void test_collect(void **state) {
  CheckCtx *c = *state;
  AlgCtx *ctx = c->ctx;
  AlgExpr *n = check_sym(c, c->N), *m = check_sym(c, c->M), *t = check_sym(c, c->t), *u = check_sym(c, c->u);
  AlgExpr *x = check_sym(c, c->x);
  AlgExpr *terms[5] = {alg_mul(ctx, t, alg_mul(ctx, n, n)), alg_neg(ctx, alg_mul(ctx, t, alg_mul(ctx, n, m))),
                       alg_mul(ctx, u, n), u, x};
  AlgExpr *plain = alg_add_n(ctx, 5, terms);
  AlgSymbol *consts[2] = {c->t, c->u};
  AlgExpr *collected = alg_collect(ctx, plain, consts, 2);
  check_numeric(c, plain, collected, "collect");
  size_t count = alg_symbol_count(ctx);
  AlgInterval *env = calloc(count, sizeof *env);
  for (long N = 1; N <= 9; N += 2)
    for (long M = 1; M <= 9; M += 4) {
      env[alg_symbol_id(c->N)] = ival_point((double)N);
      env[alg_symbol_id(c->M)] = ival_point((double)M);
      env[alg_symbol_id(c->x)] = ival_point(0.5);
      env[alg_symbol_id(c->t)] = (AlgInterval){1, 2};
      env[alg_symbol_id(c->u)] = (AlgInterval){3, 4};
      double poly = (double)(N * N - N * M), lin = (double)(N + 1);
      double lo = fmin(poly, 2 * poly) + 3 * lin + 0.5, hi = fmax(poly, 2 * poly) + 4 * lin + 0.5;
      AlgInterval got = alg_eval_tree(ctx, collected, env);
      if (!(fabs(got.lo - lo) <= 1e-9 * fabs(lo) + 1e-12 && fabs(got.hi - hi) <= 1e-9 * fabs(hi) + 1e-12))
        fail_msg("N=%ld M=%ld: collected [%g, %g], exact [%g, %g]", N, M, got.lo, got.hi, lo, hi);
      if (N != M) {   /* the plain form is wider where N^2 and N M differ */
        AlgInterval wide = alg_eval_tree(ctx, plain, env);
        assert_true(wide.hi - wide.lo > got.hi - got.lo + 1e-9);
      }
    }
  free(env);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test_setup_teardown(test_numbers, setup, teardown),
    cmocka_unit_test_setup_teardown(test_reading_nodes, setup, teardown),
    cmocka_unit_test_setup_teardown(test_subst, setup, teardown),
    cmocka_unit_test_setup_teardown(test_diff, setup, teardown),
    cmocka_unit_test_setup_teardown(test_bounds_and_logic, setup, teardown),
    cmocka_unit_test_setup_teardown(test_simplification_preserves_values, setup, teardown),
    cmocka_unit_test_setup_teardown(test_collect, setup, teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
