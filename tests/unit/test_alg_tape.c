/*
** test_alg_tape.c — algebra/tape.c: seeded random expressions (built with expr.h's constructors,
** big operators included) evaluated by the tape, by the tree walk (alg_eval_tree) and by MPFI at
** 256 bits. The tape must agree with the tree walk bit for bit (both apply interval.c's
** operations in the same order) and contain the MPFI enclosure; a batch evaluation must agree
** with point-by-point ones; shared subexpressions are compiled once; the parts of a body free of
** its index (hoisted out of it) give the same values.
*/
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "expr.h"
#include "ival_mpfi.h"
#include "tape.h"

#define TAPE_TEST_CASES 400     /* random expressions */
#define TAPE_TEST_POINTS 6      /* random environments per expression */
#define TAPE_TEST_PREC 256      /* bits of the MPFI reference */

typedef struct Gen {
  unsigned long long state;   /* xorshift64 */
  AlgCtx *ctx;                /* owns the expressions */
  AlgSymbol *syms[4];         /* P, N (integer params), x (real), t (const >= 0) */
  int nindex;                 /* index symbols made so far (for their names) */
} Gen;

static unsigned long long next(Gen *g) {
  g->state ^= g->state << 13;
  g->state ^= g->state >> 7;
  g->state ^= g->state << 17;
  return g->state;
}
static int pick(Gen *g, int n) { return (int)(next(g) % (unsigned long long)n); }

static AlgExpr *leaf(Gen *g, AlgSymbol *index) {
  switch (pick(g, 6)) {
  case 0: return alg_num_int(g->ctx, pick(g, 9) - 3);
  case 1: return alg_num_frac(g->ctx, pick(g, 7) + 1, pick(g, 5) + 2);
  case 2: if (index) return alg_sym(g->ctx, index); /* fall through */
  default: return alg_sym(g->ctx, g->syms[pick(g, 4)]);
  }
}

static AlgExpr *gen(Gen *g, int depth, AlgSymbol *index) {
  AlgCtx *c = g->ctx;
  if (depth == 0 || pick(g, 5) == 0) return leaf(g, index);
  AlgExpr *a = gen(g, depth - 1, index);
  switch (pick(g, 22)) {
  case 0: case 1: return alg_add(c, a, gen(g, depth - 1, index));
  case 2: return alg_sub(c, a, gen(g, depth - 1, index));
  case 3: case 4: return alg_mul(c, a, gen(g, depth - 1, index));
  case 5: return alg_div(c, a, alg_add(c, alg_num_int(c, 1), alg_pow(c, gen(g, depth - 1, index), alg_num_int(c, 2))));
  case 6: return alg_pow(c, a, alg_num_int(c, pick(g, 7) - 2));
  case 7: return alg_func(c, ALG_SQRT, alg_func(c, ALG_ABS, a));
  case 8: return alg_max(c, a, gen(g, depth - 1, index));
  case 9: return alg_min(c, a, gen(g, depth - 1, index));
  case 10: return alg_func(c, pick(g, 2) ? ALG_CEIL : ALG_FLOOR, a);
  case 11: return alg_mod(c, a, alg_num_int(c, pick(g, 5) + 2));
  case 12: return alg_func(c, ALG_LOG, alg_add(c, alg_num_int(c, 1), alg_func(c, ALG_ABS, a)));
  case 13: return alg_func(c, ALG_LOG2, alg_add(c, alg_num_int(c, 2), alg_pow(c, a, alg_num_int(c, 2))));
  case 14: return alg_func(c, ALG_EXP, alg_div(c, a, alg_num_int(c, 8)));
  case 15: return alg_cond(c, alg_cmp(c, (AlgCmp)pick(g, 6), a, gen(g, depth - 1, index)),
                           gen(g, depth - 1, index), gen(g, depth - 1, index));
  case 16: return alg_and(c, alg_cmp(c, ALG_CMP_LT, a, alg_num_int(c, 2)),
                          alg_or(c, alg_cmp(c, ALG_CMP_GE, gen(g, depth - 1, index), alg_num_int(c, 0)),
                                 alg_not(c, alg_cmp(c, ALG_CMP_EQ, a, alg_num_int(c, 1)))));
  case 17: return alg_pow(c, alg_add(c, alg_num_int(c, 1), alg_func(c, ALG_ABS, a)), alg_num_frac(c, 1, 2 + pick(g, 2)));
  case 18: return alg_approx(c, pick(g, 2) ? ALG_DIR_LOWER : ALG_DIR_UPPER, a);
  default: {
    /* a big operator over 1 .. (a small end), its body using the index in a way that rarely
       has a closed form */
    char name[16];
    snprintf(name, sizeof name, "i%d", g->nindex++);
    AlgExpr *lower = alg_num_int(c, pick(g, 3));
    AlgExpr *upper = pick(g, 2) ? alg_sym(c, g->syms[pick(g, 2)]) : alg_num_int(c, pick(g, 6));
    AlgSymbol *i = alg_index_new(c, name, lower, upper);
    AlgExpr *body = alg_add(c, alg_func(c, ALG_SQRT, alg_sym(c, i)), gen(g, depth - 2 > 0 ? depth - 2 : 0, i));
    /* a nested body that also reads the enclosing index: not hoisted as a whole, its parts free
       of both indices are (tape.c) */
    if (index && pick(g, 2)) body = alg_add(c, body, alg_mul(c, alg_sym(c, index), gen(g, 1, NULL)));
    static const AlgKind kinds[] = {ALG_SUM, ALG_PROD, ALG_MAXOVER, ALG_MINOVER};
    AlgKind kind = kinds[pick(g, 4)];
    if (kind == ALG_PROD) body = alg_div(c, body, alg_add(c, alg_num_int(c, 4), alg_func(c, ALG_ABS, body)));
    return alg_bigop(c, kind, i, lower, upper, body);
  }
  }
}

/* Random environment: P, N small integers (sometimes a range), x any real, t >= 0. */
static void random_env(Gen *g, AlgInterval *env, size_t count) {
  for (size_t id = 0; id < count; id++) env[id] = ival_point(0);
  for (int s = 0; s < 4; s++) {
    size_t id = alg_symbol_id(g->syms[s]);
    double v = s < 2 ? (double)(pick(g, 12) + 1) : (s == 2 ? (pick(g, 2001) - 1000) / 64.0 : pick(g, 1000) / 100.0);
    double w = pick(g, 3) == 0 ? (s < 2 ? pick(g, 3) : pick(g, 100) / 37.0) : 0;
    env[id] = ival_make(v, v + w);
  }
}

static void expect_contains_mpfi(AlgInterval d, mpfi_srcptr m, const char *text) {
  if (mpfi_nan_p(m)) {
    if (d.lo == -INFINITY && d.hi == INFINITY) return;
    fail_msg("MPFI NaN for %s", text);
  }
  if (mpfr_cmp_d(&m->left, d.lo) < 0 || mpfr_cmp_d(&m->right, d.hi) > 0)
    fail_msg("%s: tape [%.17g, %.17g] misses MPFI [%.17g, %.17g]", text, d.lo, d.hi,
             mpfr_get_d(&m->left, MPFR_RNDD), mpfr_get_d(&m->right, MPFR_RNDU));
}

static void test_random_expressions(void **state) {
  (void)state;
  Gen g = {0x2545F4914F6CDD1DULL, alg_ctx_new(), {NULL}, 0};
  g.syms[0] = alg_symbol_new(g.ctx, "P", ALG_SYM_PARAM, alg_assume_default(ALG_SYM_PARAM));
  g.syms[1] = alg_symbol_new(g.ctx, "N", ALG_SYM_PARAM, (AlgAssume){1, INFINITY, 1});
  g.syms[2] = alg_symbol_new(g.ctx, "x", ALG_SYM_PARAM, (AlgAssume){-INFINITY, INFINITY, 0});
  g.syms[3] = alg_symbol_new(g.ctx, "t", ALG_SYM_CONST, alg_assume_default(ALG_SYM_CONST));
  alg_ctx_set_loop_limit(g.ctx, 8);   /* both the walked and the enclosed paths of big operators */
  int bigops = 0, finite = 0, points = 0;
  for (int n = 0; n < TAPE_TEST_CASES; n++) {
    AlgExpr *e = gen(&g, 2 + pick(&g, 4), NULL);
    AlgTape *tape = NULL;
    char err[200];
    if (alg_tape_compile(g.ctx, e, &tape, err, sizeof err) != 0) fail_msg("compile: %s", err);
    const char *text = alg_print(g.ctx, e, ALG_FMT_TEXT);
    bigops += strstr(text, "sum(") || strstr(text, "prod(") || strstr(text, "maxover(") || strstr(text, "minover(");
    size_t count = alg_symbol_count(g.ctx);
    AlgInterval *env = calloc(count, sizeof *env);
    mpfi_srcptr *menv = calloc(count, sizeof *menv);
    __mpfi_struct *mvals = calloc(count, sizeof *mvals);
    mpfi_t ref;
    mpfi_init2(ref, TAPE_TEST_PREC);
    for (size_t i = 0; i < count; i++) {
      mpfi_init2(&mvals[i], TAPE_TEST_PREC);
      menv[i] = &mvals[i];
    }
    /* a batch of TAPE_TEST_POINTS points against point-by-point results */
    size_t ninputs = alg_tape_ninputs(tape);
    double *in = calloc(2 * (ninputs + 1) * TAPE_TEST_POINTS, sizeof *in);
    const double **in_lo = calloc(ninputs + 1, sizeof *in_lo), **in_hi = calloc(ninputs + 1, sizeof *in_hi);
    double out_lo[TAPE_TEST_POINTS], out_hi[TAPE_TEST_POINTS];
    AlgInterval single[TAPE_TEST_POINTS];
    for (size_t j = 0; j < ninputs; j++) {
      in_lo[j] = in + 2 * j * TAPE_TEST_POINTS;
      in_hi[j] = in + (2 * j + 1) * TAPE_TEST_POINTS;
    }
    for (int p = 0; p < TAPE_TEST_POINTS; p++) {
      random_env(&g, env, count);
      for (size_t i = 0; i < count; i++) alg_mpfi_set_ival(&mvals[i], env[i]);
      AlgInterval t = alg_tape_eval_env(tape, env), w = alg_eval_tree(g.ctx, e, env);
      if (!(t.lo == w.lo && t.hi == w.hi))
        fail_msg("case %d: %s: tape [%.17g, %.17g] != tree [%.17g, %.17g]", n, text, t.lo, t.hi, w.lo, w.hi);
      alg_eval_mpfi(g.ctx, e, menv, ref);
      expect_contains_mpfi(t, ref, text);
      single[p] = t;
      finite += isfinite(t.lo) && isfinite(t.hi);
      points++;
      for (size_t j = 0; j < ninputs; j++) {
        AlgInterval v = env[alg_symbol_id(alg_tape_input(tape, j))];
        ((double *)in_lo[j])[p] = v.lo;
        ((double *)in_hi[j])[p] = v.hi;
      }
    }
    assert_int_equal(alg_tape_eval(tape, TAPE_TEST_POINTS, in_lo, in_hi, out_lo, out_hi), 0);
    for (int p = 0; p < TAPE_TEST_POINTS; p++)
      if (!(out_lo[p] == single[p].lo && out_hi[p] == single[p].hi))
        fail_msg("case %d point %d: batch differs from single evaluation: %s", n, p, text);
    free(in);
    free(in_lo);
    free(in_hi);
    for (size_t i = 0; i < count; i++) mpfi_clear(&mvals[i]);
    mpfi_clear(ref);
    free(mvals);
    free(menv);
    free(env);
    alg_tape_free(tape);
  }
  assert_true(bigops > 10);   /* the generator does reach the big operators */
  if (finite < points * 3 / 4) fail_msg("only %d of %d results finite: the test would be vacuous", finite, points);
  print_message("tape: %d expressions (%d with big operators), %d of %d results finite\n",
                TAPE_TEST_CASES, bigops, finite, points);
  alg_ctx_free(g.ctx);
}

/* (x+1)^2 * (x+1)^2 + sqrt((x+1)^2): x+1 and its square compiled once each. */
static void test_sharing_and_batch(void **state) {
  (void)state;
  AlgCtx *c = alg_ctx_new();
  AlgSymbol *x = alg_symbol_new(c, "x", ALG_SYM_CONST, alg_assume_default(ALG_SYM_CONST));
  AlgExpr *s = alg_add(c, alg_sym(c, x), alg_num_int(c, 1));
  AlgExpr *sq = alg_func(c, ALG_ABS, alg_pow(c, s, alg_num_int(c, 3)));
  AlgExpr *e = alg_add(c, alg_mul(c, sq, alg_func(c, ALG_LOG, sq)), alg_func(c, ALG_SQRT, sq));
  AlgTape *tape = NULL;
  char err[200];
  assert_int_equal(alg_tape_compile(c, e, &tape, err, sizeof err), 0);
  /* distinct nodes: x, 1, x+1, (x+1)^3, abs(.), log(.), product, sqrt(.), sum: at most 9 */
  assert_true(alg_tape_length(tape) <= 9);
  assert_int_equal(alg_tape_ninputs(tape), 1);
  /* 1000 points (several chunks) against hand values: x = k gives |(k+1)^3| ... */
  enum { NPTS = 1000 };
  static double lo[NPTS], hi[NPTS], olo[NPTS], ohi[NPTS];
  for (int k = 0; k < NPTS; k++) lo[k] = hi[k] = k % 7;
  const double *ilo[1] = {lo}, *ihi[1] = {hi};
  assert_int_equal(alg_tape_eval(tape, NPTS, ilo, ihi, olo, ohi), 0);
  for (int k = 0; k < NPTS; k++) {
    double v = pow(k % 7 + 1, 3), exact = v * log(v) + sqrt(v);
    assert_true(olo[k] <= exact * (1 + 1e-12) && ohi[k] >= exact * (1 - 1e-12));
    assert_true(ohi[k] - olo[k] <= 1e-12 * exact);
  }
  alg_tape_free(tape);
  alg_ctx_free(c);
}

/* The parts of a body free of its index are computed once per point, outside the body (tape.c):
   E = maxover(w, 1, P - 1, w x + sum(w, 1, P - 1, w) + sum(j, 1, w, j + N) + N x) has a sum over
   w (the same index, bound anew) and N x free of the outer w, a sum whose range reads w. The tape
   agrees with the tree walk bit for bit, and with the hand value at x >= 0 (the max at w = P - 1):
   (P - 1) x + P (P - 1) / 2 + (P - 1) P / 2 + (P - 1) N + N x. */
static void test_hoisted_parts(void **state) {
  (void)state;
  AlgCtx *c = alg_ctx_new();
  AlgSymbol *P = alg_symbol_new(c, "P", ALG_SYM_PARAM, alg_assume_default(ALG_SYM_PARAM));
  AlgSymbol *N = alg_symbol_new(c, "N", ALG_SYM_PARAM, alg_assume_default(ALG_SYM_PARAM));
  AlgSymbol *x = alg_symbol_new(c, "x", ALG_SYM_PARAM, (AlgAssume){0, INFINITY, 0});
  AlgExpr *one = alg_num_int(c, 1), *top = alg_sub(c, alg_sym(c, P), one);
  AlgSymbol *w = alg_index_new(c, "w", one, top);
  AlgSymbol *j = alg_index_new(c, "j", one, alg_sym(c, w));
  AlgExpr *same = alg_bigop(c, ALG_SUM, w, one, top, alg_sym(c, w));
  AlgExpr *tri = alg_bigop(c, ALG_SUM, j, one, alg_sym(c, w), alg_add(c, alg_sym(c, j), alg_sym(c, N)));
  AlgExpr *nx = alg_mul(c, alg_sym(c, N), alg_sym(c, x));
  AlgExpr *body = alg_add(c, alg_add(c, alg_mul(c, alg_sym(c, w), alg_sym(c, x)), same), alg_add(c, tri, nx));
  AlgExpr *e = alg_bigop(c, ALG_MAXOVER, w, one, top, body);
  AlgTape *tape = NULL;
  char err[200];
  assert_int_equal(alg_tape_compile(c, e, &tape, err, sizeof err), 0);
  size_t count = alg_symbol_count(c);
  AlgInterval *env = calloc(count, sizeof *env);
  static const double cases[][3] = {{1, 3, 0.5}, {2, 1, 0}, {7, 4, 2.25}, {40, 10, 1}, {300, 2, 0.125}};
  for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
    double p = cases[k][0], n = cases[k][1], xv = cases[k][2];
    env[alg_symbol_id(P)] = ival_point(p);
    env[alg_symbol_id(N)] = ival_point(n);
    env[alg_symbol_id(x)] = ival_point(xv);
    AlgInterval t = alg_tape_eval_env(tape, env), r = alg_eval_tree(c, e, env);
    if (!(t.lo == r.lo && t.hi == r.hi))
      fail_msg("P = %g: tape [%.17g, %.17g] != tree [%.17g, %.17g]", p, t.lo, t.hi, r.lo, r.hi);
    double hand = p < 2 ? 0 : (p - 1) * xv + p * (p - 1) / 2 + (p - 1) * p / 2 + (p - 1) * n + n * xv;
    if (!(t.lo <= hand && hand <= t.hi && t.hi - t.lo <= 1e-9 * (1 + hand)))
      fail_msg("P = %g: [%.17g, %.17g], by hand %.17g", p, t.lo, t.hi, hand);
  }
  free(env);
  alg_tape_free(tape);
  alg_ctx_free(c);
}

/* A walk inside walks takes at most ALG_TAPE_WALK_BUDGET (10^6) indices at once: the sum over k
   of the max over p of (p == k ? 1 : 0) is P by hand; at P = 1000 (10^6 indices) both walked,
   exactly P; at P = 1100 the max is enclosed over 0 .. P - 1, [0, 1] for each k: an enclosure
   that holds P, not the point. */
static void test_walk_budget(void **state) {
  (void)state;
  AlgCtx *c = alg_ctx_new();
  AlgSymbol *P = alg_symbol_new(c, "P", ALG_SYM_PARAM, alg_assume_default(ALG_SYM_PARAM));
  AlgExpr *zero = alg_num_int(c, 0), *top = alg_sub(c, alg_sym(c, P), alg_num_int(c, 1));
  AlgSymbol *k = alg_index_new(c, "k", zero, top), *p = alg_index_new(c, "p", zero, top);
  AlgExpr *hit = alg_cond(c, alg_cmp(c, ALG_CMP_EQ, alg_sym(c, p), alg_sym(c, k)), alg_num_int(c, 1), zero);
  AlgExpr *e = alg_bigop(c, ALG_SUM, k, zero, top, alg_bigop(c, ALG_MAXOVER, p, zero, top, hit));
  AlgTape *tape = NULL;
  char err[200];
  assert_int_equal(alg_tape_compile(c, e, &tape, err, sizeof err), 0);
  AlgInterval *env = calloc(alg_symbol_count(c), sizeof *env);
  env[alg_symbol_id(P)] = ival_point(1000);
  AlgInterval v = alg_tape_eval_env(tape, env);
  assert_true(v.lo == 1000 && v.hi == 1000);
  env[alg_symbol_id(P)] = ival_point(1100);
  v = alg_tape_eval_env(tape, env);
  assert_true(v.lo <= 1100 && v.hi >= 1100 && v.lo < v.hi);
  free(env);
  alg_tape_free(tape);
  alg_ctx_free(c);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_walk_budget),
    cmocka_unit_test(test_hoisted_parts),
    cmocka_unit_test(test_sharing_and_batch),
    cmocka_unit_test(test_random_expressions),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
