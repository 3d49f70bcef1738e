/*
** alg_check.h — helpers the algebra's unit tests share (header-only, static): a seeded random
** generator, a context with the usual symbols, random admissible points, parsing that fails the
** test on error, and numeric comparison of two expressions at random points.
** Include after <cmocka.h>.
*/
#ifndef PAMC_ALG_CHECK_H
#define PAMC_ALG_CHECK_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include "expr.h"

#define CHECK_POINTS 40        /* random points per numeric comparison */
#define CHECK_REL_TOL 1e-9     /* relative tolerance of two enclosures' midpoints */
#define CHECK_INT_SPAN 12      /* integer symbols are drawn within lo .. lo + span (or -5 .. 7) */

typedef struct CheckRng {
  unsigned long long state;   /* xorshift64 state, never 0 */
} CheckRng;

static inline unsigned long long check_next(CheckRng *rng) {
  unsigned long long x = rng->state;
  x ^= x << 13;
  x ^= x >> 7;
  x ^= x << 17;
  return rng->state = x;
}

static inline double check_uniform(CheckRng *rng, double lo, double hi) {
  return lo + (hi - lo) * (double)(check_next(rng) >> 11) / 9007199254740992.0;
}

static inline long check_int(CheckRng *rng, long lo, long hi) {
  return lo + (long)(check_next(rng) % (unsigned long long)(hi - lo + 1));
}

/* The symbols of the fixture (assumptions in the comments). */
typedef struct CheckCtx {
  AlgCtx *ctx;       /* owns everything */
  AlgSymbol *N;      /* param, integer >= 1 */
  AlgSymbol *M;      /* param, integer >= 1 */
  AlgSymbol *P;      /* param, integer in 1 .. 4096 */
  AlgSymbol *a;      /* integer, unbounded */
  AlgSymbol *b;      /* integer, unbounded */
  AlgSymbol *x;      /* real, unbounded */
  AlgSymbol *y;      /* real, unbounded */
  AlgSymbol *t;      /* const, real >= 0 */
  AlgSymbol *u;      /* const, real >= 0 */
  CheckRng rng;      /* for random points */
} CheckCtx;

static inline CheckCtx *check_ctx_new(void) {
  CheckCtx *c = calloc(1, sizeof *c);
  AlgAssume integer_param = {1, INFINITY, 1};
  AlgAssume any_integer = {-INFINITY, INFINITY, 1};
  AlgAssume any_real = {-INFINITY, INFINITY, 0};
  c->ctx = alg_ctx_new();
  c->N = alg_symbol_new(c->ctx, "N", ALG_SYM_PARAM, integer_param);
  c->M = alg_symbol_new(c->ctx, "M", ALG_SYM_PARAM, integer_param);
  c->P = alg_symbol_new(c->ctx, "P", ALG_SYM_PARAM, (AlgAssume){1, 4096, 1});
  c->a = alg_symbol_new(c->ctx, "a", ALG_SYM_PARAM, any_integer);
  c->b = alg_symbol_new(c->ctx, "b", ALG_SYM_PARAM, any_integer);
  c->x = alg_symbol_new(c->ctx, "x", ALG_SYM_PARAM, any_real);
  c->y = alg_symbol_new(c->ctx, "y", ALG_SYM_PARAM, any_real);
  c->t = alg_symbol_new(c->ctx, "t", ALG_SYM_CONST, alg_assume_default(ALG_SYM_CONST));
  c->u = alg_symbol_new(c->ctx, "u", ALG_SYM_CONST, alg_assume_default(ALG_SYM_CONST));
  c->rng.state = 0x9e3779b97f4a7c15ULL;
  return c;
}

static inline void check_ctx_free(CheckCtx *c) {
  alg_ctx_free(c->ctx);
  free(c);
}

static inline AlgExpr *check_sym(CheckCtx *c, AlgSymbol *s) { return alg_sym(c->ctx, s); }

/* Parses text or fails the test with the parser's message. */
static inline AlgExpr *check_parse(CheckCtx *c, const char *text) {
  AlgExpr *e = NULL;
  char err[200];
  if (alg_parse_text(c->ctx, text, &e, err, sizeof err) != 0) fail_msg("cannot parse '%s': %s", text, err);
  return e;
}

/* A random admissible point for every symbol (index symbols too: they are rebound by sums). */
static inline void check_random_env(CheckCtx *c, AlgInterval *env, size_t count) {
  for (size_t id = 0; id < count; id++) {
    AlgAssume as = alg_symbol_assume(alg_symbol_at(c->ctx, id));
    double v;
    if (as.integer) {
      long lo = isfinite(as.lo) ? (long)as.lo : -5;
      long hi = isfinite(as.lo) ? lo + CHECK_INT_SPAN : 7;
      if (isfinite(as.hi) && as.hi < hi) hi = (long)as.hi;
      v = (double)check_int(&c->rng, lo, hi);
    } else {
      double lo = isfinite(as.lo) ? as.lo : -10;
      double hi = isfinite(as.hi) ? as.hi : lo + 20;
      v = check_uniform(&c->rng, lo, hi);
    }
    env[id] = ival_point(v);
  }
}

/* |mid(l) - mid(r)| small, relative to their size; both must be finite. */
static inline int check_near(AlgInterval l, AlgInterval r) {
  double ml = ival_mid(l), mr = ival_mid(r);
  if (!isfinite(ml) || !isfinite(mr)) return 0;
  return fabs(ml - mr) <= CHECK_REL_TOL * (1 + fabs(ml) + fabs(mr));
}

/* lhs and rhs agree at CHECK_POINTS random admissible points. */
static inline void check_numeric(CheckCtx *c, AlgExpr *lhs, AlgExpr *rhs, const char *what) {
  size_t count = alg_symbol_count(c->ctx);
  AlgInterval *env = calloc(count ? count : 1, sizeof *env);
  for (int k = 0; k < CHECK_POINTS; k++) {
    check_random_env(c, env, count);
    AlgInterval l = alg_eval_tree(c->ctx, lhs, env), r = alg_eval_tree(c->ctx, rhs, env);
    if (!check_near(l, r)) {
      free(env);
      fail_msg("%s: [%.17g, %.17g] vs [%.17g, %.17g]", what, l.lo, l.hi, r.lo, r.hi);
    }
  }
  free(env);
}

#endif
