/*
** number.c — exact number leaves: interning of rationals (falling back to interval constants
** when they grow too large), integers, fractions, doubles taken exactly, decimal literals, and
** outward-rounded double enclosures of rationals.
*/
#include "expr_impl.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>

AlgExpr *alg_num_q(AlgCtx *ctx, mpq_srcptr value) {
  unsigned long h = alg_hash_q(value);
  for (AlgExpr *node = ctx->buckets[h & (ctx->nbuckets - 1)]; node; node = node->chain)
    if (node->hash == h && node->kind == ALG_NUM && mpq_equal(node->u.num, value)) return node;
  if (mpz_sizeinbase(mpq_numref(value), 2) + mpz_sizeinbase(mpq_denref(value), 2) >
      ALG_MAX_EXACT_BITS) {
    AlgInterval enclosure = alg_q_enclosure(value);
    return alg_ival(ctx, enclosure.lo, enclosure.hi);
  }
  AlgExpr *node = alg_pool_alloc(&ctx->pool, sizeof *node);
  node->kind = ALG_NUM;
  node->hash = h;
  mpq_init(node->u.num);
  mpq_set(node->u.num, value);
  return alg_add_node(ctx, node);
}

AlgExpr *alg_num_int(AlgCtx *ctx, long value) {
  long slot = value - ALG_SMALL_INT_MIN;
  if (slot < 0 || slot >= ALG_SMALL_INTS) return alg_num_frac(ctx, value, 1);
  if (!ctx->small_ints[slot]) ctx->small_ints[slot] = alg_num_frac(ctx, value, 1);
  return ctx->small_ints[slot];
}

AlgExpr *alg_num_frac(AlgCtx *ctx, long num, long den) {
  mpq_t q;
  mpq_init(q);
  mpz_set_si(mpq_numref(q), num);
  mpz_set_si(mpq_denref(q), den);
  mpq_canonicalize(q);
  AlgExpr *node = alg_num_q(ctx, q);
  mpq_clear(q);
  return node;
}

AlgExpr *alg_num_double(AlgCtx *ctx, double value) {
  mpq_t q;
  mpq_init(q);
  mpq_set_d(q, value);
  AlgExpr *node = alg_num_q(ctx, q);
  mpq_clear(q);
  return node;
}

/* decimal := digits ['.' digits] [('e'|'E') ['+'|'-'] digits], '_' allowed between digits */
int alg_num_decimal(AlgCtx *ctx, const char *text, AlgExpr **out) {
  mpz_t mantissa;
  long scale = 0, exponent = 0;
  int digits = 0, seen_point = 0;
  const char *p = text;
  mpz_init(mantissa);
  for (; *p; p++) {
    if (isdigit((unsigned char)*p)) {
      mpz_mul_ui(mantissa, mantissa, 10);
      mpz_add_ui(mantissa, mantissa, (unsigned long)(*p - '0'));
      digits++;
      if (seen_point) scale++;
    } else if (*p == '_' && digits > 0) {
      continue;
    } else if (*p == '.' && !seen_point) {
      seen_point = 1;
    } else break;
  }
  int ok = digits > 0;
  if (ok && (*p == 'e' || *p == 'E')) {
    int sign = 1, exp_digits = 0;
    p++;
    if (*p == '+' || *p == '-') sign = *p++ == '-' ? -1 : 1;
    for (; isdigit((unsigned char)*p) && exponent < 100000; p++, exp_digits++)
      exponent = exponent * 10 + (*p - '0');
    exponent *= sign;
    ok = exp_digits > 0;
  }
  ok = ok && *p == '\0';
  if (ok) {
    long power = exponent - scale;
    mpq_t q;
    mpz_t ten;
    mpq_init(q);
    mpz_init(ten);
    mpz_ui_pow_ui(ten, 10, (unsigned long)labs(power));
    mpq_set_z(q, mantissa);
    if (power >= 0) mpz_mul(mpq_numref(q), mpq_numref(q), ten);
    else mpz_set(mpq_denref(q), ten);
    mpq_canonicalize(q);
    *out = alg_num_q(ctx, q);
    mpq_clear(q);
    mpz_clear(ten);
  }
  mpz_clear(mantissa);
  return ok ? 0 : -1;
}

AlgInterval alg_q_enclosure(mpq_srcptr q) {
  double d = mpq_get_d(q);   /* truncated toward zero */
  if (!isfinite(d)) return ival_entire();
  mpq_t back;
  mpq_init(back);
  mpq_set_d(back, d);
  int c = mpq_cmp(q, back);
  mpq_clear(back);
  AlgInterval r = {d, d};
  if (c > 0) r.hi = nextafter(d, INFINITY);
  if (c < 0) r.lo = nextafter(d, -INFINITY);
  return r;
}

int alg_num_is_integer(const AlgExpr *e) {
  return e->kind == ALG_NUM && mpz_cmp_ui(mpq_denref(e->u.num), 1) == 0;
}

int alg_num_sign(const AlgExpr *e) { return mpq_sgn(e->u.num); }

int alg_is_num(const AlgExpr *e, long value) {
  return e->kind == ALG_NUM && mpz_cmp_ui(mpq_denref(e->u.num), 1) == 0 &&
         mpz_cmp_si(mpq_numref(e->u.num), value) == 0;
}

