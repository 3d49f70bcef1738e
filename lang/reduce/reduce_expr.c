/*
** reduce_expr.c — model expressions into the algebra for the reduction: numbers with units exact,
** params and consts as symbols (or their values when set), loop indices and arguments from the
** scope, fns inlined, binders as big operators.
*/
#include <stdio.h>
#include <string.h>

#include "reduce_internal.h"


void reduce_fail(RCtx *c, SrcLoc loc, const char *msg) {
  if (!c->failed) diag_report(c->diags, DIAG_ERROR, loc, "%s", msg);
  c->failed = 1;
}

static AlgSymbol *symbol_of_decl(RCtx *c, const Decl *d) {
  for (int i = 0; i < c->out->symbol_count; i++)
    if (c->out->symbol_decls[i] == d) return c->out->symbols[i];
  return NULL;
}

static AlgExpr *tr_num(RCtx *c, const Expr *e) {
  AlgExpr *v;
  if (!e->u.num.text || alg_num_decimal(c->alg, e->u.num.text, &v) != 0)
    return alg_num_double(c->alg, e->u.num.value);
  return alg_mul(c->alg, v, alg_num_frac(c->alg, (long)e->u.num.unit_num, (long)e->u.num.unit_den));
}

static AlgExpr *tr_name(RCtx *c, REnv *env, const Expr *e) {
  switch (e->u.name.kind) {
  case NAME_INDEX:
    if (e->u.name.slot < env->depth && env->idx[e->u.name.slot]) return env->idx[e->u.name.slot];
    break;
  case NAME_ARG:
    if (e->u.name.slot < env->argc) return env->args[e->u.name.slot];
    break;
  case NAME_PARAM: case NAME_CONST: {
    AlgSymbol *s = symbol_of_decl(c, e->u.name.decl);
    if (s) return alg_sym(c->alg, s);
    const Expr *v = e->u.name.kind == NAME_PARAM ? e->u.name.decl->u.param.value
                                                  : e->u.name.decl->u.constant.value;
    if (v) { REnv fresh; memset(&fresh, 0, sizeof fresh); return reduce_expr(c, &fresh, v); }
    break;
  }
  default: break;
  }
  reduce_fail(c, e->loc, "reduce: name without a value");
  return alg_num_int(c->alg, 0);
}

static AlgExpr *tr_binary(RCtx *c, Op op, AlgExpr *a, AlgExpr *b) {
  AlgCtx *g = c->alg;
  switch (op) {
  case OP_ADD: return alg_add(g, a, b);
  case OP_SUB: return alg_sub(g, a, b);
  case OP_MUL: return alg_mul(g, a, b);
  case OP_DIV: return alg_div(g, a, b);
  case OP_MOD: return alg_mod(g, a, b);
  case OP_POW: return alg_pow(g, a, b);
  case OP_EQ: return alg_cmp(g, ALG_CMP_EQ, a, b);
  case OP_NE: return alg_cmp(g, ALG_CMP_NE, a, b);
  case OP_LT: return alg_cmp(g, ALG_CMP_LT, a, b);
  case OP_LE: return alg_cmp(g, ALG_CMP_LE, a, b);
  case OP_GT: return alg_cmp(g, ALG_CMP_GT, a, b);
  case OP_GE: return alg_cmp(g, ALG_CMP_GE, a, b);
  case OP_AND: return alg_and(g, a, b);
  case OP_OR: return alg_or(g, a, b);
  default: return a;
  }
}

/* 1 with *value filled when e reads no param, index or local (an expression of consts): its value
** is fixed, as simulate takes it; 0 otherwise. */
static int consts_value(const Expr *e, AlgInterval *value) {
  if (eval_uses(e, NULL)) return 0;
  EvalEnv values;
  eval_env_init(&values);
  return eval_expr(&values, e, value, NULL) == EVAL_OK;
}

static AlgExpr *tr_call(RCtx *c, REnv *env, const Expr *e) {
  AlgCtx *g = c->alg;
  int n = e->u.call.args.count;
  if (n > REDUCE_MAX_ARGS || n < 1) {
    if (e->u.call.builtin < 0 && n == 0) goto user;
    reduce_fail(c, e->loc, "reduce: too many arguments");
    return alg_num_int(g, 0);
  }
  user:;
  AlgExpr *a[REDUCE_MAX_ARGS];
  for (int i = 0; i < n; i++) a[i] = reduce_expr(c, env, e->u.call.args.items[i]);
  if (e->u.call.builtin < 0) {
    const Decl *fn = e->u.call.decl;
    REnv inner; memset(&inner, 0, sizeof inner);
    inner.args = a; inner.argc = n;
    reduce_env_inherit(&inner, env);
    return reduce_expr(c, &inner, fn->u.fn.body);
  }
  switch (e->u.call.builtin) {
  case EVAL_B_MIN: return alg_min_n(g, (size_t)n, a);
  case EVAL_B_MAX: return alg_max_n(g, (size_t)n, a);
  case EVAL_B_CEIL: return alg_func(g, ALG_CEIL, a[0]);
  case EVAL_B_FLOOR: return alg_func(g, ALG_FLOOR, a[0]);
  case EVAL_B_ABS: return alg_func(g, ALG_ABS, a[0]);
  case EVAL_B_SQRT: return alg_func(g, ALG_SQRT, a[0]);
  case EVAL_B_LOG: return alg_func(g, ALG_LOG, a[0]);
  case EVAL_B_LOG2: return alg_func(g, ALG_LOG2, a[0]);
  case EVAL_B_EXP: return alg_func(g, ALG_EXP, a[0]);
  default: break;
  }
  const Expr *arg = e->u.call.args.items[0];
  AlgInterval value;
  int known = alg_kind(a[0]) == ALG_NUM || alg_kind(a[0]) == ALG_IVAL;
  if (known) value = alg_num_enclosure(a[0]);
  else if (arg->kind == EX_NAME && (arg->u.name.kind == NAME_CONST || arg->u.name.kind == NAME_PARAM) &&
           symbol_of_decl(c, arg->u.name.decl)) {
    /* a const kept as a symbol: its declared interval takes it apart (a const that follows a
    ** param is no symbol: like the expression written inline) */
    EvalEnv values; eval_env_init(&values);
    known = eval_decl_value(&values, arg->u.name.decl, &value, NULL) == EVAL_OK;
  } else {
    known = consts_value(arg, &value);   /* an expression of consts (hi(a * 2)) */
  }
  if (known) {
    AlgInterval v = value;
    switch (e->u.call.builtin) {
    case EVAL_B_LO: return alg_num_double(g, v.lo);
    case EVAL_B_HI: return alg_num_double(g, v.hi);
    case EVAL_B_MID: return alg_ival(g, v.lo + (v.hi - v.lo) / 2, v.lo + (v.hi - v.lo) / 2);
    case EVAL_B_WIDTH: return alg_num_double(g, v.hi - v.lo);
    default: break;
    }
  }
  reduce_fail(c, e->loc, "reduce: lo/hi/mid/width of a symbolic value cannot be reduced");
  return alg_num_int(g, 0);
}

static AlgExpr *tr_bind(RCtx *c, REnv *env, const Expr *e) {
  AlgExpr *lo = reduce_expr(c, env, e->u.bind.lo), *hi = reduce_expr(c, env, e->u.bind.hi);
  if (env->depth >= EVAL_MAX_INDICES) { reduce_fail(c, e->loc, "reduce: loops nest too deep"); return lo; }
  AlgSymbol *i = reduce_index_new(c, e->u.bind.fn.name, e->loc, e->u.bind.var.name, lo, hi);
  env->idx[env->depth++] = alg_sym(c->alg, i);
  AlgExpr *body = reduce_expr(c, env, e->u.bind.body);
  env->depth--;
  const char *f = e->u.bind.fn.name;
  AlgKind k = !strcmp(f, "sum") ? ALG_SUM : !strcmp(f, "prod") ? ALG_PROD
            : !strcmp(f, "min") ? ALG_MINOVER : ALG_MAXOVER;
  return alg_bigop(c->alg, k, i, lo, hi, body);
}

/* An interval written in an expression, [lo, hi]. Numeric ends: the interval. Ends that are
** expressions of consts (kept as symbols, [a, b] with const a, b): their value, as simulate takes
** it. Ends that follow params or loop indices: lo + [0, 1] (hi - lo), every value between them.
** (Before, symbolic ends were read as numbers: delay([a, b]) predicted hi = 0 s against 2 us
** simulated, an unsound bound.) */
static AlgExpr *tr_interval(RCtx *c, REnv *env, const Expr *e) {
  AlgCtx *g = c->alg;
  AlgExpr *lo = reduce_expr(c, env, e->u.interval.lo), *hi = reduce_expr(c, env, e->u.interval.hi);
  int numeric = (alg_kind(lo) == ALG_NUM || alg_kind(lo) == ALG_IVAL) &&
                (alg_kind(hi) == ALG_NUM || alg_kind(hi) == ALG_IVAL);
  if (numeric) {
    if (alg_kind(lo) == ALG_NUM && lo == hi) return lo;
    AlgInterval a = alg_num_enclosure(lo), b = alg_num_enclosure(hi);
    return alg_ival(g, a.lo, b.hi);
  }
  AlgInterval value;
  if (consts_value(e, &value)) return alg_ival(g, value.lo, value.hi);
  return alg_add(g, lo, alg_mul(g, alg_ival(g, 0, 1), alg_sub(g, hi, lo)));
}

/* Translates a resolved model expression into the algebra. */
AlgExpr *reduce_expr(RCtx *c, REnv *env, const Expr *e) {
  AlgCtx *g = c->alg;
  switch (e->kind) {
  case EX_NUM: return tr_num(c, e);
  case EX_INTERVAL: return tr_interval(c, env, e);
  case EX_NAME: return tr_name(c, env, e);
  case EX_UNARY: {
    AlgExpr *a = reduce_expr(c, env, e->u.unary.a);
    return e->u.unary.op == OP_NEG ? alg_neg(g, a) : alg_not(g, a);
  }
  case EX_BINARY: {
    AlgExpr *a = reduce_expr(c, env, e->u.binary.a), *b = reduce_expr(c, env, e->u.binary.b);
    if (e->u.binary.op == OP_DIV || e->u.binary.op == OP_MOD)
      reduce_check(c, env, REDUCE_CHECK_NONZERO, b, NULL, e->u.binary.b->loc, "divisor");
    return tr_binary(c, e->u.binary.op, a, b);
  }
  case EX_COND:
    return alg_cond(g, reduce_expr(c, env, e->u.cond.cond), reduce_expr(c, env, e->u.cond.then),
                    reduce_expr(c, env, e->u.cond.otherwise));
  case EX_CALL: return tr_call(c, env, e);
  case EX_BIND: return tr_bind(c, env, e);
  }
  return alg_num_int(g, 0);
}

