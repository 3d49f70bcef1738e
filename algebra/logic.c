/*
** logic.c — functions of one argument (ceil, floor, abs, log, log2, exp, sqrt), comparisons,
** and/or/not and conditionals, each folded when its value is decided.
*/
#include "expr_impl.h"

#include <math.h>

static AlgExpr *fold_interval(AlgCtx *ctx, AlgKind kind, AlgInterval x) {
  AlgInterval v;
  switch (kind) {
  case ALG_CEIL: v = ival_ceil(x); break;
  case ALG_FLOOR: v = ival_floor(x); break;
  case ALG_ABS: v = ival_abs(x); break;
  case ALG_LOG: v = ival_log(x); break;
  case ALG_LOG2: v = ival_log2(x); break;
  case ALG_EXP: v = ival_exp(x); break;
  default: v = ival_sqrt(x); break;
  }
  return alg_ival(ctx, v.lo, v.hi);
}

/* ceil/floor of an exact rational. */
static AlgExpr *round_q(AlgCtx *ctx, AlgKind kind, mpq_srcptr q) {
  mpz_t whole;
  mpq_t result;
  mpz_init(whole);
  mpq_init(result);
  if (kind == ALG_CEIL) mpz_cdiv_q(whole, mpq_numref(q), mpq_denref(q));
  else mpz_fdiv_q(whole, mpq_numref(q), mpq_denref(q));
  mpq_set_z(result, whole);
  AlgExpr *node = alg_num_q(ctx, result);
  mpz_clear(whole);
  mpq_clear(result);
  return node;
}

AlgExpr *alg_func(AlgCtx *ctx, AlgKind kind, AlgExpr *arg) {
  if (arg->kind == ALG_IVAL) return fold_interval(ctx, kind, arg->u.ival);
  switch (kind) {
  case ALG_CEIL:
  case ALG_FLOOR:
    if (arg->kind == ALG_NUM) return round_q(ctx, kind, arg->u.num);
    if (alg_is_integer_valued(arg)) return arg;
    break;
  case ALG_ABS:
    if (arg->kind == ALG_NUM) return mpq_sgn(arg->u.num) < 0 ? alg_neg(ctx, arg) : arg;
    if (alg_is_nonneg(ctx, arg)) return arg;
    if (alg_is_nonpos(ctx, arg)) return alg_neg(ctx, arg);
    break;
  case ALG_SQRT:
    if (arg->kind == ALG_NUM && mpq_sgn(arg->u.num) >= 0) {
      AlgExpr *root = alg_pow(ctx, arg, alg_num_frac(ctx, 1, 2));
      if (root->kind == ALG_NUM) return root;
    }
    break;
  case ALG_EXP:
    if (alg_is_num(arg, 0)) return alg_num_int(ctx, 1);
    if (arg->kind == ALG_LOG) return arg->kids[0];
    break;
  case ALG_LOG:
    if (alg_is_num(arg, 1)) return alg_num_int(ctx, 0);
    if (arg->kind == ALG_EXP) return arg->kids[0];
    break;
  case ALG_LOG2:
    if (alg_num_is_integer(arg) && mpz_sgn(mpq_numref(arg->u.num)) > 0 &&
        mpz_popcount(mpq_numref(arg->u.num)) == 1)
      return alg_num_int(ctx, (long)mpz_scan1(mpq_numref(arg->u.num), 0));
    break;
  default:
    break;
  }
  return alg_intern(ctx, kind, 1, &arg);
}

/* ---- comparisons ---- */

static AlgExpr *truth(AlgCtx *ctx, int value) { return alg_num_int(ctx, value ? 1 : 0); }

AlgExpr *alg_cmp(AlgCtx *ctx, AlgCmp op, AlgExpr *a, AlgExpr *b) {
  if (op == ALG_CMP_GT) return alg_cmp(ctx, ALG_CMP_LT, b, a);
  if (op == ALG_CMP_GE) return alg_cmp(ctx, ALG_CMP_LE, b, a);
  AlgExpr *diff = alg_sub(ctx, a, b);   /* decided by the sign of a - b */
  AlgInterval d = diff->kind == ALG_NUM ? alg_q_enclosure(diff->u.num) : alg_bounds(ctx, diff);
  int sign = diff->kind == ALG_NUM ? mpq_sgn(diff->u.num) : 2;
  switch (op) {
  case ALG_CMP_EQ:
    if (sign != 2) return truth(ctx, sign == 0);
    if (d.lo > 0 || d.hi < 0) return truth(ctx, 0);
    break;
  case ALG_CMP_NE:
    if (sign != 2) return truth(ctx, sign != 0);
    if (d.lo > 0 || d.hi < 0) return truth(ctx, 1);
    break;
  case ALG_CMP_LT:
    if (sign != 2) return truth(ctx, sign < 0);
    if (d.hi < 0) return truth(ctx, 1);
    if (d.lo >= 0 || alg_is_nonneg(ctx, diff)) return truth(ctx, 0);
    break;
  default:   /* LE */
    if (sign != 2) return truth(ctx, sign <= 0);
    if (d.hi <= 0 || alg_is_nonpos(ctx, diff)) return truth(ctx, 1);
    if (d.lo > 0) return truth(ctx, 0);
    break;
  }
  AlgKind kind = op == ALG_CMP_EQ ? ALG_EQ : op == ALG_CMP_NE ? ALG_NE : op == ALG_CMP_LT ? ALG_LT : ALG_LE;
  AlgExpr *kids[2] = {a, b};
  if ((kind == ALG_EQ || kind == ALG_NE) && alg_order(b, a) < 0) {
    kids[0] = b;
    kids[1] = a;
  }
  return alg_intern(ctx, kind, 2, kids);
}

/* ---- logic ---- */

/* Truth of a decided condition: 1 true, 0 false, -1 undecided. */
static int decided(AlgCtx *ctx, AlgExpr *c) {
  if (c->kind == ALG_NUM) return mpq_sgn(c->u.num) != 0;
  AlgInterval v = alg_bounds(ctx, c);
  if (v.lo > 0 || v.hi < 0) return 1;
  if (v.lo == 0 && v.hi == 0) return 0;
  return -1;
}

static AlgExpr *as_boolean(AlgCtx *ctx, AlgExpr *e) {
  return alg_is_boolean(e) ? e : alg_cmp(ctx, ALG_CMP_NE, e, alg_num_int(ctx, 0));
}

static void gather_junction(AlgKind kind, AlgExpr *e, AlgExpr **out, size_t *count) {
  if (e->kind == kind) {
    for (size_t i = 0; i < e->nkids; i++) gather_junction(kind, e->kids[i], out, count);
  } else out[(*count)++] = e;
}

/* and/or: flattened, decided operands folded, duplicates removed, operands ordered. */
static AlgExpr *junction(AlgCtx *ctx, AlgKind kind, AlgExpr *a, AlgExpr *b) {
  int absorbing = kind == ALG_OR;   /* the value that decides: true for or, false for and */
  size_t cap = (a->kind == kind ? a->nkids : 1) + (b->kind == kind ? b->nkids : 1);
  AlgExpr **args = alg_scratch(ctx, cap);
  size_t count = 0, kept = 0;
  gather_junction(kind, a, args, &count);
  gather_junction(kind, b, args, &count);
  for (size_t i = 0; i < count; i++) {
    int d = decided(ctx, args[i]);
    if (d == absorbing) return truth(ctx, absorbing);
    if (d < 0) args[kept++] = as_boolean(ctx, args[i]);   /* decided neutral operands drop */
  }
  if (kept == 0) return truth(ctx, !absorbing);
  alg_sort(args, kept);
  count = 0;
  for (size_t i = 0; i < kept; i++)
    if (count == 0 || args[count - 1] != args[i]) args[count++] = args[i];
  if (count == 1) return args[0];
  return alg_intern(ctx, kind, count, args);
}

AlgExpr *alg_and(AlgCtx *ctx, AlgExpr *a, AlgExpr *b) { return junction(ctx, ALG_AND, a, b); }
AlgExpr *alg_or(AlgCtx *ctx, AlgExpr *a, AlgExpr *b) { return junction(ctx, ALG_OR, a, b); }

AlgExpr *alg_not(AlgCtx *ctx, AlgExpr *a) {
  int d = decided(ctx, a);
  if (d >= 0) return truth(ctx, !d);
  switch (a->kind) {
  case ALG_NOT: return a->kids[0];
  case ALG_LT: return alg_cmp(ctx, ALG_CMP_LE, a->kids[1], a->kids[0]);
  case ALG_LE: return alg_cmp(ctx, ALG_CMP_LT, a->kids[1], a->kids[0]);
  case ALG_EQ: return alg_cmp(ctx, ALG_CMP_NE, a->kids[0], a->kids[1]);
  case ALG_NE: return alg_cmp(ctx, ALG_CMP_EQ, a->kids[0], a->kids[1]);
  default: break;
  }
  a = as_boolean(ctx, a);
  if (a->kind == ALG_NE) return alg_cmp(ctx, ALG_CMP_EQ, a->kids[0], a->kids[1]);
  return alg_intern(ctx, ALG_NOT, 1, &a);
}

AlgExpr *alg_cond(AlgCtx *ctx, AlgExpr *cond, AlgExpr *then_value, AlgExpr *else_value) {
  if (then_value == else_value) return then_value;
  int d = decided(ctx, cond);
  if (d >= 0) return d ? then_value : else_value;
  if (cond->kind == ALG_NOT) return alg_cond(ctx, cond->kids[0], else_value, then_value);
  AlgExpr *kids[3] = {cond, then_value, else_value};
  return alg_intern(ctx, ALG_COND, 3, kids);
}

AlgExpr *alg_approx(AlgCtx *ctx, AlgDir dir, AlgExpr *e) {
  AlgKind marker = dir == ALG_DIR_LOWER ? ALG_LOWER : ALG_UPPER;
  if (e->kind == marker) return e;
  return alg_intern(ctx, marker, 1, &e);
}

AlgExpr *alg_approx_exact(AlgCtx *ctx, AlgDir dir, AlgExpr *approx, AlgExpr *exact) {
  AlgKind marker = dir == ALG_DIR_LOWER ? ALG_LOWER : ALG_UPPER;
  if (approx->kind == marker && approx->nkids == 1) approx = approx->kids[0];
  if (!exact || exact == approx || approx->kind == marker) return alg_approx(ctx, dir, approx);
  AlgExpr *kids[2] = {approx, exact};
  return alg_intern(ctx, marker, 2, kids);
}
