/*
** reduce_check.c — the checks the reduction leaves for evaluation (reduce.h, ReduceCheck): each
** duration, member index, loop bound and divisor of the model as a formula over the params and
** consts, taken over the enclosing loop ranges and masked where an enclosing `if` skips it, so
** that `pamc predict` names the source location of what goes wrong at a given point.
*/
#include <stdlib.h>
#include <string.h>

#include "reduce_internal.h"

/* Checks a model may leave (each statement gives a few): beyond, the rest go unchecked. */
#define REDUCE_MAX_CHECKS 4096

void reduce_env_inherit(REnv *inner, const REnv *outer) {
  memcpy(inner->binders, outer->binders, (size_t)outer->nbinders * sizeof *outer->binders);
  inner->nbinders = outer->nbinders;
  inner->guard = outer->guard;
}

int reduce_env_call(RCtx *c, REnv *env, const Stmt *call, AlgExpr **args, REnv *inner) {
  int n = call->u.call.args.count;
  if (n > REDUCE_MAX_ARGS) return 0;
  for (int i = 0; i < n; i++) args[i] = reduce_expr(c, env, call->u.call.args.items[i]);
  memset(inner, 0, sizeof *inner);
  inner->args = args;
  inner->argc = n;
  reduce_env_inherit(inner, env);
  return 1;
}

/* value taken over the n outermost enclosing loops, innermost first: its minimum, or maximum
** (want_max). */
static AlgExpr *over_loops(RCtx *c, const REnv *env, int n, AlgExpr *value, int want_max) {
  for (int k = n - 1; k >= 0; k--) {
    const RBinder *b = &env->binders[k];
    if (!alg_contains(value, b->index)) continue;
    value = want_max ? alg_max_over(c->alg, b->index, b->lo, b->hi, value)
                     : alg_min_over(c->alg, b->index, b->lo, b->hi, value);
  }
  return value;
}

/* Where the statement may run: its guard, and each enclosing range non-empty for some value of
** the indices outside it (max over them of hi - lo >= 0; a range empty at every point masks the
** check: `par (w = 1, P - 1) repeat (N / (P - 1)) ...` at P = 1 runs nothing and divides by
** nothing). A point where the statement runs satisfies this, so no failing check is masked.
** NULL: everywhere. */
static AlgExpr *runs_somewhere(RCtx *c, const REnv *env) {
  AlgCtx *g = c->alg;
  AlgExpr *runs = env->guard;
  for (int k = 0; k < env->nbinders; k++) {
    const RBinder *b = &env->binders[k];
    AlgExpr *room = over_loops(c, env, k, alg_sub(g, b->hi, b->lo), 1);
    AlgExpr *open = alg_cmp(g, ALG_CMP_GE, room, alg_num_int(g, 0));
    if (alg_is_num(open, 1)) continue;
    runs = runs ? alg_and(g, runs, open) : open;
  }
  return runs;
}

/* 1 when every free symbol of value is a param or const of the result (no loop index: predict
** can evaluate it at a point). */
int reduce_only_params(RCtx *c, const AlgExpr *value) {
  AlgSymbol *free_syms[64];
  size_t n = alg_free_symbols(c->alg, value, free_syms, 64);
  if (n > 64) return 0;
  for (size_t i = 0; i < n; i++) {
    AlgSymKind kind = alg_symbol_kind(free_syms[i]);
    if (kind != ALG_SYM_PARAM && kind != ALG_SYM_CONST) return 0;
  }
  return 1;
}

/* 1 when the check certainly holds: a number that passes, or a sign the algebra proves for
** every admissible value. */
static int holds(RCtx *c, ReduceCheckKind kind, AlgExpr *value, AlgExpr *value_hi, AlgExpr *limit) {
  AlgCtx *g = c->alg;
  if (kind == REDUCE_CHECK_NONNEG && alg_is_nonneg(g, value)) return 1;
  if (kind == REDUCE_CHECK_INDEX && alg_is_nonneg(g, value) && value_hi && limit &&
      alg_is_nonneg(g, alg_sub(g, alg_sub(g, limit, value_hi), alg_num_int(g, 1)))) return 1;
  if (alg_kind(value) != ALG_NUM) return 0;
  mpq_srcptr v = alg_num_value(value);
  switch (kind) {
  case REDUCE_CHECK_NONNEG: return mpq_sgn(v) >= 0;
  case REDUCE_CHECK_INTEGER: return mpz_cmp_ui(mpq_denref(v), 1) == 0;
  case REDUCE_CHECK_NONZERO: return mpq_sgn(v) != 0;
  case REDUCE_CHECK_INDEX: {
    if (mpq_sgn(v) < 0 || !value_hi || alg_kind(value_hi) != ALG_NUM || !limit ||
        alg_kind(limit) != ALG_NUM) return 0;
    mpq_t top; mpq_init(top);
    mpq_set(top, alg_num_value(limit));
    int ok = mpq_cmp(alg_num_value(value_hi), top) < 0;
    mpq_clear(top);
    return ok;
  }
  }
  return 0;
}

void reduce_check(RCtx *c, const REnv *env, ReduceCheckKind kind, AlgExpr *value,
                  const Decl *family, SrcLoc loc, const char *what) {
  AlgCtx *g = c->alg;
  if (c->checks.count >= REDUCE_MAX_CHECKS || c->mixing) return;   /* the first pass has them */
  AlgExpr *limit = NULL, *value_hi = NULL;
  if (family) {
    REnv none; memset(&none, 0, sizeof none);
    limit = reduce_expr(c, &none, family->u.resource.count);
  }
  AlgExpr *runs = runs_somewhere(c, env);
  if (runs) {   /* where the statement does not run, a value that passes */
    AlgExpr *pass = alg_num_int(g, kind == REDUCE_CHECK_NONZERO ? 1 : 0);
    value = alg_cond(g, runs, value, pass);
  }
  if (kind == REDUCE_CHECK_INDEX) value_hi = over_loops(c, env, env->nbinders, value, 1);
  if (kind == REDUCE_CHECK_NONNEG || kind == REDUCE_CHECK_INDEX) value = over_loops(c, env, env->nbinders, value, 0);
  if (holds(c, kind, value, value_hi, limit)) return;
  if (!reduce_only_params(c, value) || (value_hi && !reduce_only_params(c, value_hi)) || (limit && !reduce_only_params(c, limit)))
    return;   /* an index of an expression binder, or a loop the check cannot be taken over */
  if (c->checks.count == c->checks.cap) {
    int cap = c->checks.cap ? 2 * c->checks.cap : 16;
    ReduceCheck *grown = realloc(c->checks.items, (size_t)cap * sizeof *grown);
    if (!grown) return;
    c->checks.items = grown;
    c->checks.cap = cap;
  }
  ReduceCheck *check = &c->checks.items[c->checks.count++];
  check->kind = kind;
  check->value = value;
  check->value_hi = value_hi;
  check->limit = limit;
  check->loc = loc;
  check->what = what;
  check->name = family ? family->name.name : NULL;
}

void reduce_checks_finish(RCtx *c, ReduceResult *out) {
  out->checks = c->checks.items;
  out->check_count = c->checks.count;
  memset(&c->checks, 0, sizeof c->checks);
}
