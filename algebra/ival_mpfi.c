/*
** ival_mpfi.c — interval operations on MPFI intervals at the caller's precision (the operations
** of interval.c with the same case analysis, each end rounded by MPFR in its direction), and the
** tree-walk evaluation of expressions with them.
*/
#include "ival_mpfi.h"

#include <math.h>
#include <stdlib.h>

#define LEFT(a) (&(a)->left)
#define RIGHT(a) (&(a)->right)

void alg_mpfi_set_ival(mpfi_ptr out, AlgInterval a) { mpfi_interv_d(out, a.lo, a.hi); }

AlgInterval alg_mpfi_get_ival(mpfi_srcptr a) {
  AlgInterval r;
  if (mpfi_nan_p(a)) {
    r.lo = -INFINITY;
    r.hi = INFINITY;
    return r;
  }
  r.lo = mpfr_get_d(LEFT(a), MPFR_RNDD);
  r.hi = mpfr_get_d(RIGHT(a), MPFR_RNDU);
  return r;
}

void alg_mpfi_entire(mpfi_ptr out) { mpfi_interv_d(out, -INFINITY, INFINITY); }

int alg_mpfi_contains_zero(mpfi_srcptr a) {
  return mpfr_sgn(LEFT(a)) <= 0 && mpfr_sgn(RIGHT(a)) >= 0;
}

/* A temporary interval at the precision of like. */
static void tmp_init(mpfi_ptr t, mpfi_srcptr like) { mpfi_init2(t, mpfi_get_prec(like)); }

static void set_ui2(mpfi_ptr out, unsigned long lo, unsigned long hi) {
  mpfi_interv_ui(out, lo, hi);
}

void alg_mpfi_add(mpfi_ptr out, mpfi_srcptr a, mpfi_srcptr b) { mpfi_add(out, a, b); }
void alg_mpfi_sub(mpfi_ptr out, mpfi_srcptr a, mpfi_srcptr b) { mpfi_sub(out, a, b); }
void alg_mpfi_neg(mpfi_ptr out, mpfi_srcptr a) { mpfi_neg(out, a); }

/* MPFI gives NaN for 0 * inf; an unbounded end times zero is zero here (as in the kernel). */
void alg_mpfi_mul(mpfi_ptr out, mpfi_srcptr a, mpfi_srcptr b) {
  if ((mpfr_zero_p(LEFT(a)) && mpfr_zero_p(RIGHT(a))) || (mpfr_zero_p(LEFT(b)) && mpfr_zero_p(RIGHT(b)))) {
    set_ui2(out, 0, 0);
    return;
  }
  mpfi_mul(out, a, b);
  if (mpfi_nan_p(out)) alg_mpfi_entire(out);
}

void alg_mpfi_div(mpfi_ptr out, mpfi_srcptr a, mpfi_srcptr b) {
  if (alg_mpfi_contains_zero(b)) {
    alg_mpfi_entire(out);
    return;
  }
  mpfi_div(out, a, b);
  if (mpfi_nan_p(out)) alg_mpfi_entire(out);
}

/* out = [lo_of(a.lo, b.lo), hi_of(a.hi, b.hi)], each end rounded outward (out may alias a or b):
** min, max and hull differ only in which of mpfr_min/mpfr_max takes each end. */
typedef int (*EndpointOp)(mpfr_ptr, mpfr_srcptr, mpfr_srcptr, mpfr_rnd_t);
static void by_endpoints(mpfi_ptr out, mpfi_srcptr a, mpfi_srcptr b, EndpointOp lo_of, EndpointOp hi_of) {
  mpfi_t t;
  tmp_init(t, out);
  lo_of(LEFT(t), LEFT(a), LEFT(b), MPFR_RNDD);
  hi_of(RIGHT(t), RIGHT(a), RIGHT(b), MPFR_RNDU);
  mpfi_swap(out, t);
  mpfi_clear(t);
}
void alg_mpfi_min(mpfi_ptr out, mpfi_srcptr a, mpfi_srcptr b) { by_endpoints(out, a, b, mpfr_min, mpfr_min); }
void alg_mpfi_max(mpfi_ptr out, mpfi_srcptr a, mpfi_srcptr b) { by_endpoints(out, a, b, mpfr_max, mpfr_max); }
void alg_mpfi_hull(mpfi_ptr out, mpfi_srcptr a, mpfi_srcptr b) { by_endpoints(out, a, b, mpfr_min, mpfr_max); }

void alg_mpfi_abs(mpfi_ptr out, mpfi_srcptr a) { mpfi_abs(out, a); }

void alg_mpfi_sqrt(mpfi_ptr out, mpfi_srcptr a) {
  if (mpfr_sgn(LEFT(a)) < 0) alg_mpfi_entire(out);
  else mpfi_sqrt(out, a);
}
void alg_mpfi_exp(mpfi_ptr out, mpfi_srcptr a) { mpfi_exp(out, a); }
void alg_mpfi_log(mpfi_ptr out, mpfi_srcptr a) {
  if (mpfr_sgn(LEFT(a)) <= 0) alg_mpfi_entire(out);
  else mpfi_log(out, a);
}
void alg_mpfi_log2(mpfi_ptr out, mpfi_srcptr a) {
  if (mpfr_sgn(LEFT(a)) <= 0) alg_mpfi_entire(out);
  else mpfi_log2(out, a);
}
void alg_mpfi_floor(mpfi_ptr out, mpfi_srcptr a) {
  mpfi_t t;
  tmp_init(t, out);
  mpfr_rint_floor(LEFT(t), LEFT(a), MPFR_RNDD);
  mpfr_rint_floor(RIGHT(t), RIGHT(a), MPFR_RNDU);
  mpfi_swap(out, t);
  mpfi_clear(t);
}
void alg_mpfi_ceil(mpfi_ptr out, mpfi_srcptr a) {
  mpfi_t t;
  tmp_init(t, out);
  mpfr_rint_ceil(LEFT(t), LEFT(a), MPFR_RNDD);
  mpfr_rint_ceil(RIGHT(t), RIGHT(a), MPFR_RNDU);
  mpfi_swap(out, t);
  mpfi_clear(t);
}

/* x^n on one end, rounded in direction rnd; n >= 0. */
static void end_pow(mpfr_ptr out, mpfr_srcptr x, unsigned long long n, mpfr_rnd_t rnd) {
  mpz_t z;
  mpz_init(z);
  mpz_import(z, 1, 1, sizeof n, 0, 0, &n);
  mpfr_pow_z(out, x, z, rnd);
  mpz_clear(z);
}

/* a^n by the monotone pieces of x^n (as ik_powi), then 1/(a^|n|) for n < 0. */
void alg_mpfi_powi(mpfi_ptr out, mpfi_srcptr a, long long n) {
  unsigned long long m = (unsigned long long)(n < 0 ? -n : n);
  mpfi_t t;
  tmp_init(t, out);
  if (m == 0) {
    set_ui2(t, 1, 1);
  } else if ((m & 1) || mpfr_sgn(LEFT(a)) >= 0) {
    end_pow(LEFT(t), LEFT(a), m, MPFR_RNDD);
    end_pow(RIGHT(t), RIGHT(a), m, MPFR_RNDU);
  } else if (mpfr_sgn(RIGHT(a)) <= 0) {
    end_pow(LEFT(t), RIGHT(a), m, MPFR_RNDD);
    end_pow(RIGHT(t), LEFT(a), m, MPFR_RNDU);
  } else {
    mpfr_t big;
    mpfr_init2(big, mpfi_get_prec(a));
    mpfr_neg(big, LEFT(a), MPFR_RNDU);
    mpfr_max(big, big, RIGHT(a), MPFR_RNDU);
    mpfr_set_ui(LEFT(t), 0, MPFR_RNDD);
    end_pow(RIGHT(t), big, m, MPFR_RNDU);
    mpfr_clear(big);
  }
  if (n < 0) {
    mpfi_t one;
    tmp_init(one, out);
    set_ui2(one, 1, 1);
    alg_mpfi_div(t, one, t);
    mpfi_clear(one);
  }
  mpfi_swap(out, t);
  mpfi_clear(t);
}

/* Integer point exponents by powi; otherwise defined for base >= 0, where x^y is monotone in
   each argument and the extremes are at the corners. */
void alg_mpfi_pow(mpfi_ptr out, mpfi_srcptr base, mpfi_srcptr exponent) {
  if (mpfr_equal_p(LEFT(exponent), RIGHT(exponent)) && mpfr_integer_p(LEFT(exponent)) &&
      mpfr_cmp_d(LEFT(exponent), 0x1p62) < 0 && mpfr_cmp_d(LEFT(exponent), -0x1p62) > 0) {
    alg_mpfi_powi(out, base, (long long)mpfr_get_sj(LEFT(exponent), MPFR_RNDN));
    return;
  }
  if (mpfr_sgn(LEFT(base)) < 0 || mpfi_nan_p(base) || mpfi_nan_p(exponent) ||
      (mpfr_zero_p(LEFT(base)) && mpfr_sgn(LEFT(exponent)) < 0)) {
    alg_mpfi_entire(out);
    return;
  }
  mpfr_t xs[2], v;   /* the base's ends without the sign of a zero (MPFI keeps -0 on the right) */
  mpfr_srcptr ys[2] = {LEFT(exponent), RIGHT(exponent)};
  mpfi_t t;
  tmp_init(t, out);
  mpfr_init2(v, mpfi_get_prec(out));
  mpfr_init2(xs[0], mpfi_get_prec(base));
  mpfr_init2(xs[1], mpfi_get_prec(base));
  mpfr_abs(xs[0], LEFT(base), MPFR_RNDN);
  mpfr_abs(xs[1], RIGHT(base), MPFR_RNDN);
  mpfr_set_inf(LEFT(t), 1);
  mpfr_set_inf(RIGHT(t), -1);
  for (int i = 0; i < 2; i++)
    for (int j = 0; j < 2; j++) {
      mpfr_pow(v, xs[i], ys[j], MPFR_RNDD);
      mpfr_min(LEFT(t), LEFT(t), v, MPFR_RNDD);
      mpfr_pow(v, xs[i], ys[j], MPFR_RNDU);
      mpfr_max(RIGHT(t), RIGHT(t), v, MPFR_RNDU);
    }
  mpfi_swap(out, t);
  mpfi_clear(t);
  mpfr_clear(v);
  mpfr_clear(xs[0]);
  mpfr_clear(xs[1]);
}

/* As ik_mod: exact when b is a point and a lies in one period; else the remainder's range. */
void alg_mpfi_mod(mpfi_ptr out, mpfi_srcptr a, mpfi_srcptr b) {
  if (alg_mpfi_contains_zero(b)) {
    alg_mpfi_entire(out);
    return;
  }
  int positive = mpfr_sgn(LEFT(b)) > 0;
  mpfi_t t, q;
  tmp_init(t, out);
  tmp_init(q, out);
  if (positive) {
    mpfr_set_ui(LEFT(t), 0, MPFR_RNDD);
    mpfr_set(RIGHT(t), RIGHT(b), MPFR_RNDU);
  } else {
    mpfr_set(LEFT(t), LEFT(b), MPFR_RNDD);
    mpfr_set_ui(RIGHT(t), 0, MPFR_RNDU);
  }
  if (mpfi_bounded_p(a) && mpfi_bounded_p(b)) {
    if (mpfr_equal_p(LEFT(b), RIGHT(b))) {
      alg_mpfi_div(q, a, b);
      alg_mpfi_floor(q, q);
      if (mpfr_equal_p(LEFT(q), RIGHT(q))) {
        alg_mpfi_mul(q, b, q);
        alg_mpfi_sub(q, a, q);
        mpfi_intersect(t, t, q);   /* the true value lies in both */
      }
    } else if (positive && mpfr_sgn(LEFT(a)) >= 0 && mpfr_less_p(RIGHT(a), LEFT(b))) {
      mpfi_set(t, a);
    } else if (!positive && mpfr_sgn(RIGHT(a)) <= 0 && mpfr_greater_p(LEFT(a), RIGHT(b))) {
      mpfi_set(t, a);
    }
  }
  mpfi_swap(out, t);
  mpfi_clear(t);
  mpfi_clear(q);
}

static int is_point(mpfi_srcptr a) { return mpfr_equal_p(LEFT(a), RIGHT(a)); }
static void set_bool(mpfi_ptr out, int truth) { set_ui2(out, truth != 0, truth != 0); }
static void set_undecided(mpfi_ptr out) { set_ui2(out, 0, 1); }

void alg_mpfi_cmp(mpfi_ptr out, int op, mpfi_srcptr a, mpfi_srcptr b) {
  if (op == 4 || op == 5) {   /* a > b is b < a */
    mpfi_srcptr t = a;
    a = b;
    b = t;
    op -= 2;
  }
  switch (op) {
  case 0: case 1: {
    int eq = is_point(a) && is_point(b) && mpfr_equal_p(LEFT(a), LEFT(b));
    int ne = mpfr_less_p(RIGHT(a), LEFT(b)) || mpfr_less_p(RIGHT(b), LEFT(a));
    if (eq || ne) set_bool(out, op == 0 ? eq : ne);
    else set_undecided(out);
    return;
  }
  case 2:
    if (mpfr_less_p(RIGHT(a), LEFT(b))) set_bool(out, 1);
    else if (mpfr_greaterequal_p(LEFT(a), RIGHT(b))) set_bool(out, 0);
    else set_undecided(out);
    return;
  case 3:
    if (mpfr_lessequal_p(RIGHT(a), LEFT(b))) set_bool(out, 1);
    else if (mpfr_greater_p(LEFT(a), RIGHT(b))) set_bool(out, 0);
    else set_undecided(out);
    return;
  default:
    set_undecided(out);
  }
}

/* 0: surely false, 1: surely true, 2: undecided. */
static int truth_of(mpfi_srcptr c) {
  if (mpfr_zero_p(LEFT(c)) && mpfr_zero_p(RIGHT(c))) return 0;
  if (!alg_mpfi_contains_zero(c)) return 1;
  return 2;
}
static void set_truth(mpfi_ptr out, int t) {
  if (t == 2) set_undecided(out);
  else set_bool(out, t);
}
void alg_mpfi_truth(mpfi_ptr out, mpfi_srcptr c) { set_truth(out, truth_of(c)); }
void alg_mpfi_and(mpfi_ptr out, mpfi_srcptr a, mpfi_srcptr b) {
  int x = truth_of(a), y = truth_of(b);
  set_truth(out, x == 0 || y == 0 ? 0 : (x == 1 && y == 1 ? 1 : 2));
}
void alg_mpfi_or(mpfi_ptr out, mpfi_srcptr a, mpfi_srcptr b) {
  int x = truth_of(a), y = truth_of(b);
  set_truth(out, x == 1 || y == 1 ? 1 : (x == 0 && y == 0 ? 0 : 2));
}
void alg_mpfi_not(mpfi_ptr out, mpfi_srcptr a) {
  int x = truth_of(a);
  set_truth(out, x == 2 ? 2 : !x);
}

/* ---- evaluation of expressions ------------------------------------------------------------ */

typedef struct MpfiEval {
  AlgCtx *ctx;              /* for the loop limit */
  mpfr_prec_t prec;         /* precision of every temporary */
  mpfi_srcptr *values;      /* symbol values by id (a private copy: indices get bound) */
} MpfiEval;

static void eval(MpfiEval *st, const AlgExpr *e, mpfi_ptr out);

typedef void (*MpfiBinary)(mpfi_ptr, mpfi_srcptr, mpfi_srcptr);

static void fold(MpfiEval *st, const AlgExpr *e, MpfiBinary op, mpfi_ptr out) {
  mpfi_t kid;
  mpfi_init2(kid, st->prec);
  eval(st, alg_kid(e, 0), out);
  for (size_t i = 1; i < alg_nkids(e); i++) {
    eval(st, alg_kid(e, i), kid);
    op(out, out, kid);
  }
  mpfi_clear(kid);
}

/* As eval_bigop of eval.c: walk the integer points below the loop limit, else enclose. */
static void eval_bigop(MpfiEval *st, const AlgExpr *e, mpfi_ptr out) {
  AlgKind kind = alg_kind(e);
  size_t index = alg_symbol_id(alg_symbol_of(e));
  mpfi_t lower, upper, idx, v;
  mpfi_init2(lower, st->prec);
  mpfi_init2(upper, st->prec);
  mpfi_init2(idx, st->prec);
  mpfi_init2(v, st->prec);
  eval(st, alg_kid(e, 1), lower);
  alg_mpfi_ceil(lower, lower);
  eval(st, alg_kid(e, 2), upper);
  alg_mpfi_floor(upper, upper);
  mpfi_srcptr saved = st->values[index];
  st->values[index] = idx;
  unsigned neutral = kind == ALG_PROD ? 1 : 0;
  int points = is_point(lower) && is_point(upper) && mpfi_bounded_p(lower) && mpfi_bounded_p(upper);
  double lo = mpfr_get_d(LEFT(lower), MPFR_RNDN), hi = mpfr_get_d(LEFT(upper), MPFR_RNDN);
  if (points && hi < lo) {
    set_ui2(out, neutral, neutral);
  } else if (points && hi - lo < (double)alg_ctx_loop_limit(st->ctx)) {
    set_ui2(out, neutral, neutral);
    for (double i = lo; i <= hi; i++) {
      mpfi_set_d(idx, i);
      eval(st, alg_kid(e, 3), v);
      int first = i == lo;
      switch (kind) {
      case ALG_SUM: alg_mpfi_add(out, out, v); break;
      case ALG_PROD: alg_mpfi_mul(out, out, v); break;
      case ALG_MAXOVER: if (first) mpfi_set(out, v); else alg_mpfi_max(out, out, v); break;
      default: if (first) mpfi_set(out, v); else alg_mpfi_min(out, out, v); break;
      }
    }
  } else {
    mpfi_t count, one;
    mpfi_init2(count, st->prec);
    mpfi_init2(one, st->prec);
    set_ui2(one, 1, 1);
    alg_mpfi_sub(count, upper, lower);
    alg_mpfi_add(count, count, one);
    set_ui2(one, 0, 0);
    alg_mpfi_max(count, count, one);
    int maybe_empty = mpfr_cmp_ui(LEFT(count), 1) < 0;
    mpfr_set(LEFT(idx), LEFT(lower), MPFR_RNDD);
    if (mpfr_less_p(RIGHT(upper), LEFT(lower))) mpfr_set(RIGHT(idx), LEFT(lower), MPFR_RNDU);
    else mpfr_set(RIGHT(idx), RIGHT(upper), MPFR_RNDU);
    eval(st, alg_kid(e, 3), v);
    switch (kind) {
    case ALG_SUM: alg_mpfi_mul(out, count, v); break;
    case ALG_PROD:
      if (mpfr_sgn(LEFT(v)) >= 0) alg_mpfi_pow(out, v, count);
      else alg_mpfi_entire(out);
      break;
    default: mpfi_set(out, v); break;
    }
    if (maybe_empty) {
      set_ui2(one, neutral, neutral);
      alg_mpfi_hull(out, out, one);
    }
    mpfi_clear(count);
    mpfi_clear(one);
  }
  st->values[index] = saved;
  mpfi_clear(lower);
  mpfi_clear(upper);
  mpfi_clear(idx);
  mpfi_clear(v);
}

static void eval(MpfiEval *st, const AlgExpr *e, mpfi_ptr out) {
  AlgKind kind = alg_kind(e);
  mpfi_t a, b;
  switch (kind) {
  case ALG_NUM: mpfi_set_q(out, alg_num_value(e)); return;
  case ALG_IVAL: alg_mpfi_set_ival(out, alg_ival_value(e)); return;
  case ALG_SYM: mpfi_set(out, st->values[alg_symbol_id(alg_symbol_of(e))]); return;
  case ALG_ADD: fold(st, e, alg_mpfi_add, out); return;
  case ALG_MUL: {   /* a quotient divides once, as the double evaluators do */
    AlgExpr *num, *den;
    alg_split_quotient(st->ctx, (AlgExpr *)e, &num, &den);
    if (!den) { fold(st, e, alg_mpfi_mul, out); return; }
    mpfi_init2(a, st->prec);
    mpfi_init2(b, st->prec);
    eval(st, num, a);
    eval(st, den, b);
    alg_mpfi_div(out, a, b);
    mpfi_clear(a);
    mpfi_clear(b);
    return;
  }
  case ALG_MIN: fold(st, e, alg_mpfi_min, out); return;
  case ALG_MAX: fold(st, e, alg_mpfi_max, out); return;
  case ALG_AND: fold(st, e, alg_mpfi_and, out); return;
  case ALG_OR: fold(st, e, alg_mpfi_or, out); return;
  case ALG_SUM: case ALG_PROD: case ALG_MAXOVER: case ALG_MINOVER: eval_bigop(st, e, out); return;
  case ALG_LOWER:
    if (alg_nkids(e) > 1) fold(st, e, alg_mpfi_max, out); else eval(st, alg_kid(e, 0), out);
    return;
  case ALG_UPPER:
    if (alg_nkids(e) > 1) fold(st, e, alg_mpfi_min, out); else eval(st, alg_kid(e, 0), out);
    return;
  default: break;
  }
  mpfi_init2(a, st->prec);
  mpfi_init2(b, st->prec);
  eval(st, alg_kid(e, 0), a);
  if (alg_nkids(e) > 1 && kind != ALG_COND) eval(st, alg_kid(e, 1), b);
  switch (kind) {
  case ALG_POW: alg_mpfi_pow(out, a, b); break;
  case ALG_MOD: alg_mpfi_mod(out, a, b); break;
  case ALG_CEIL: alg_mpfi_ceil(out, a); break;
  case ALG_FLOOR: alg_mpfi_floor(out, a); break;
  case ALG_ABS: alg_mpfi_abs(out, a); break;
  case ALG_LOG: alg_mpfi_log(out, a); break;
  case ALG_LOG2: alg_mpfi_log2(out, a); break;
  case ALG_EXP: alg_mpfi_exp(out, a); break;
  case ALG_SQRT: alg_mpfi_sqrt(out, a); break;
  case ALG_EQ: alg_mpfi_cmp(out, 0, a, b); break;
  case ALG_NE: alg_mpfi_cmp(out, 1, a, b); break;
  case ALG_LT: alg_mpfi_cmp(out, 2, a, b); break;
  case ALG_LE: alg_mpfi_cmp(out, 3, a, b); break;
  case ALG_NOT: alg_mpfi_not(out, a); break;
  case ALG_COND: {
    int t = truth_of(a);
    if (t == 1) eval(st, alg_kid(e, 1), out);
    else if (t == 0) eval(st, alg_kid(e, 2), out);
    else {
      eval(st, alg_kid(e, 1), a);
      eval(st, alg_kid(e, 2), b);
      alg_mpfi_hull(out, a, b);
    }
    break;
  }
  default: alg_mpfi_entire(out); break;
  }
  mpfi_clear(a);
  mpfi_clear(b);
}

void alg_eval_mpfi(AlgCtx *ctx, const AlgExpr *e, mpfi_srcptr const *env, mpfi_ptr out) {
  size_t count = alg_symbol_count(ctx);
  MpfiEval st = {ctx, mpfi_get_prec(out), malloc((count ? count : 1) * sizeof(mpfi_srcptr))};
  if (!st.values) {
    alg_mpfi_entire(out);
    return;
  }
  for (size_t i = 0; i < count; i++) st.values[i] = env[i];
  eval(&st, e, out);
  free(st.values);
}
