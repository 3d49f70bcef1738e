/*
** minmax.c — canonical n-ary max and min: flattened, numbers folded, duplicates removed,
** arguments dominated for every admissible value dropped, common addends and nonnegative
** common factors pulled out (max(a+x, b+x) = max(a, b)+x, max(k a, k b) = k max(a, b), k >= 0).
*/
#include "expr_impl.h"

#include <stdlib.h>
#include <string.h>

/* Nested pulls of common addends or factors (each recurses into an extremum of the rest). */
#define ALG_MINMAX_MAX_PULLS 32

static size_t count_leaves(AlgExpr *e, AlgKind kind) {
  if (e->kind != kind) return 1;
  size_t n = 0;
  for (size_t i = 0; i < e->nkids; i++) n += count_leaves(e->kids[i], kind);
  return n;
}

static void flatten(AlgExpr *e, AlgKind kind, AlgExpr **out, size_t *count) {
  if (e->kind != kind) {
    out[(*count)++] = e;
    return;
  }
  for (size_t i = 0; i < e->nkids; i++) flatten(e->kids[i], kind, out, count);
}

/* x >= y (max) or x <= y (min) for every admissible value; a piecewise y (c ? a : b) is
   dominated when both of its pieces are. */
static int dominates(AlgCtx *ctx, AlgKind kind, AlgExpr *x, AlgExpr *y) {
  if (y->kind == ALG_COND && x->kind != ALG_COND)
    return dominates(ctx, kind, x, y->kids[1]) && dominates(ctx, kind, x, y->kids[2]);
  AlgExpr *diff = kind == ALG_MAX ? alg_sub(ctx, x, y) : alg_sub(ctx, y, x);
  return alg_is_nonneg(ctx, diff);
}

static int term_in(AlgExpr *term, AlgExpr *sum) {
  if (sum->kind != ALG_ADD) return sum == term;
  for (size_t i = 0; i < sum->nkids; i++)
    if (sum->kids[i] == term) return 1;
  return 0;
}

/* 1 when x - x is 0 for term: no interval among its factors (x - x with an interval factor
** [a, b] leaves [a - b, b - a]*..., and pulling such a term out never ends). */
static int exact_term(AlgExpr *term) {
  if (term->kind == ALG_IVAL) return 0;
  if (term->kind == ALG_MUL)
    for (size_t i = 0; i < term->nkids; i++)
      if (term->kids[i]->kind == ALG_IVAL) return 0;
  return 1;
}

/* max(a+x, b+x) = x + max(a, b): the exact addends common to every argument, or NULL. */
static AlgExpr *common_addends(AlgCtx *ctx, AlgKind kind, AlgExpr **args, size_t n) {
  AlgExpr *first = args[0];
  size_t nterms = first->kind == ALG_ADD ? first->nkids : 1;
  AlgExpr **common = alg_scratch(ctx, nterms);
  size_t ncommon = 0;
  for (size_t t = 0; t < nterms; t++) {
    AlgExpr *term = first->kind == ALG_ADD ? first->kids[t] : first;
    if (!exact_term(term)) continue;
    size_t i = 1;
    while (i < n && term_in(term, args[i])) i++;
    if (i == n) common[ncommon++] = term;
  }
  if (ncommon == 0) return NULL;
  AlgExpr *shift = alg_add_n(ctx, ncommon, common);
  AlgExpr **rest = alg_scratch(ctx, n);
  for (size_t i = 0; i < n; i++) {
    rest[i] = alg_sub(ctx, args[i], shift);
    for (size_t t = 0; t < ncommon; t++)   /* not taken out: pulling it again would never end */
      if (term_in(common[t], rest[i])) return NULL;
  }
  AlgExpr *inner = kind == ALG_MAX ? alg_max_n(ctx, n, rest) : alg_min_n(ctx, n, rest);
  return alg_add(ctx, shift, inner);
}

static int factor_in(AlgExpr *factor, AlgExpr *product) {
  if (product->kind != ALG_MUL) return product == factor;
  for (size_t i = 0; i < product->nkids; i++)
    if (product->kids[i] == factor) return 1;
  return 0;
}

/* max(k a, k b) = k max(a, b) for k >= 0: the common nonnegative factor (numeric part: the
   smallest coefficient when all are positive), or NULL. */
static AlgExpr *common_factor(AlgCtx *ctx, AlgKind kind, AlgExpr **args, size_t n) {
  AlgExpr *coef = NULL;   /* smallest coefficient, NULL unless all are positive */
  for (size_t i = 0; i < n; i++) {
    AlgExpr *rest;
    AlgExpr *c = alg_split_coef(ctx, args[i], &rest);
    if (c->kind != ALG_NUM || mpq_sgn(c->u.num) <= 0) {
      coef = NULL;
      break;
    }
    if (!coef || mpq_cmp(c->u.num, coef->u.num) < 0) coef = c;
  }
  AlgExpr *rest0;
  alg_split_coef(ctx, args[0], &rest0);
  size_t nfactors = rest0->kind == ALG_MUL ? rest0->nkids : 1;
  AlgExpr **common = alg_scratch(ctx, nfactors + 1);
  size_t ncommon = 0;
  if (coef && !alg_is_num(coef, 1)) common[ncommon++] = coef;
  for (size_t f = 0; f < nfactors; f++) {
    AlgExpr *factor = rest0->kind == ALG_MUL ? rest0->kids[f] : rest0;
    /* an interval factor does not divide out exactly ([a, b] / [a, b] is not 1): left in */
    if (factor->kind == ALG_NUM || factor->kind == ALG_IVAL || !alg_is_nonneg(ctx, factor)) continue;
    size_t i = 1;
    while (i < n) {
      AlgExpr *rest;
      alg_split_coef(ctx, args[i], &rest);
      if (!factor_in(factor, rest)) break;
      i++;
    }
    if (i == n) common[ncommon++] = factor;
  }
  if (ncommon == 0) return NULL;
  AlgExpr *k = alg_mul_n(ctx, ncommon, common);
  AlgExpr **rest = alg_scratch(ctx, n);
  for (size_t i = 0; i < n; i++) {
    rest[i] = alg_div(ctx, args[i], k);
    for (size_t f = 0; f < ncommon; f++)   /* 2^i / 2^i stays a quotient: nothing gained */
      if (common[f]->kind != ALG_NUM && factor_in(common[f], rest[i])) return NULL;
  }
  AlgExpr *inner = kind == ALG_MAX ? alg_max_n(ctx, n, rest) : alg_min_n(ctx, n, rest);
  return alg_mul(ctx, k, inner);
}

static AlgExpr *extremum_of(AlgCtx *ctx, AlgKind kind, AlgExpr **args, size_t n, AlgExpr *const *in);

static AlgExpr *extremum(AlgCtx *ctx, AlgKind kind, size_t n, AlgExpr *const *in) {
  /* remembered only outside sign questions and pulls, whose depth limits can cut it short */
  int top = ctx->sign_depth == 0 && ctx->minmax_depth == 0;
  AlgExpr *known = top ? alg_op_memo_find(ctx, kind, n, in) : NULL;
  if (known) return known;
  size_t cap = 0;
  for (size_t i = 0; i < n; i++) cap += count_leaves(in[i], kind);
  AlgExpr **args = alg_temp(cap);
  AlgExpr *result = extremum_of(ctx, kind, args, n, in);
  free(args);
  return top ? alg_op_memo_put(ctx, kind, n, in, result) : result;
}

/* The canonical extremum of in[0..n), args having room for all their flattened arguments. */
static AlgExpr *extremum_of(AlgCtx *ctx, AlgKind kind, AlgExpr **args, size_t n, AlgExpr *const *in) {
  size_t count = 0;
  for (size_t i = 0; i < n; i++) flatten(in[i], kind, args, &count);
  /* numbers fold into one (exact), intervals with them */
  AlgExpr *number = NULL;
  size_t kept = 0;
  for (size_t i = 0; i < count; i++) {
    AlgExpr *a = args[i];
    if (a->kind == ALG_NUM && (!number || number->kind == ALG_NUM)) {
      int better = !number || (kind == ALG_MAX ? mpq_cmp(a->u.num, number->u.num) > 0
                                               : mpq_cmp(a->u.num, number->u.num) < 0);
      if (better) number = a;
    } else if (a->kind == ALG_NUM || a->kind == ALG_IVAL) {
      AlgInterval x = alg_num_enclosure(a);
      AlgInterval v = number ? (kind == ALG_MAX ? ival_max(alg_num_enclosure(number), x)
                                                : ival_min(alg_num_enclosure(number), x)) : x;
      number = alg_ival(ctx, v.lo, v.hi);
    } else {
      args[kept++] = a;
    }
  }
  if (number) args[kept++] = number;
  alg_sort(args, kept);
  count = 0;
  for (size_t i = 0; i < kept; i++)
    if (count == 0 || args[count - 1] != args[i]) args[count++] = args[i];
  if (count <= ALG_DOMINANCE_MAX_ARGS) {
    for (size_t i = 0; i < count; i++) {
      int dropped = 0;
      for (size_t j = 0; j < count && !dropped; j++)
        if (j != i && args[j] && dominates(ctx, kind, args[j], args[i])) dropped = 1;
      if (dropped) args[i] = NULL;
    }
    size_t live = 0;
    for (size_t i = 0; i < count; i++)
      if (args[i]) args[live++] = args[i];
    count = live;
  }
  if (count == 1) return args[0];
  /* pulling out recurses into the rest; beyond ALG_MINMAX_MAX_PULLS nested pulls the extremum
  ** is kept as it is (exact, only less simplified), so rewriting always ends */
  AlgExpr *pulled = NULL;
  if (ctx->minmax_depth < ALG_MINMAX_MAX_PULLS) {
    ctx->minmax_depth++;
    pulled = common_addends(ctx, kind, args, count);
    if (!pulled) pulled = common_factor(ctx, kind, args, count);
    ctx->minmax_depth--;
  }
  if (pulled) return pulled;
  return alg_intern(ctx, kind, count, args);
}

AlgExpr *alg_max_n(AlgCtx *ctx, size_t n, AlgExpr *const *args) { return extremum(ctx, ALG_MAX, n, args); }
AlgExpr *alg_min_n(AlgCtx *ctx, size_t n, AlgExpr *const *args) { return extremum(ctx, ALG_MIN, n, args); }

AlgExpr *alg_max(AlgCtx *ctx, AlgExpr *a, AlgExpr *b) {
  AlgExpr *args[2] = {a, b};
  return alg_max_n(ctx, 2, args);
}

AlgExpr *alg_min(AlgCtx *ctx, AlgExpr *a, AlgExpr *b) {
  AlgExpr *args[2] = {a, b};
  return alg_min_n(ctx, 2, args);
}
