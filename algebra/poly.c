/*
** poly.c — the coefficients of an expression seen as a polynomial in one symbol (the
** coefficients may be any expressions free of it), for the closed forms of sums.
*/
#include "expr_impl.h"

typedef struct Poly {
  size_t degree;                            /* highest power present */
  AlgExpr *coef[ALG_POLY_MAX_DEGREE + 1];   /* coef[k] multiplies sym^k */
} Poly;

static void poly_const(Poly *p, AlgExpr *value) {
  p->degree = 0;
  p->coef[0] = value;
}

static int poly_mul(AlgCtx *ctx, const Poly *a, const Poly *b, size_t max_degree, Poly *out) {
  if (a->degree + b->degree > max_degree) return -1;
  Poly r;
  r.degree = a->degree + b->degree;
  for (size_t k = 0; k <= r.degree; k++) r.coef[k] = alg_num_int(ctx, 0);
  for (size_t i = 0; i <= a->degree; i++)
    for (size_t j = 0; j <= b->degree; j++)
      r.coef[i + j] = alg_add(ctx, r.coef[i + j], alg_mul(ctx, a->coef[i], b->coef[j]));
  *out = r;
  return 0;
}

static int poly_of(AlgCtx *ctx, AlgExpr *e, AlgSymbol *sym, size_t max_degree, Poly *out) {
  if (!alg_contains(e, sym)) {
    poly_const(out, e);
    return 0;
  }
  switch (e->kind) {
  case ALG_SYM:
    if (max_degree < 1) return -1;
    out->degree = 1;
    out->coef[0] = alg_num_int(ctx, 0);
    out->coef[1] = alg_num_int(ctx, 1);
    return 0;
  case ALG_ADD: {
    Poly sum, term;
    poly_const(&sum, alg_num_int(ctx, 0));
    for (size_t i = 0; i < e->nkids; i++) {
      if (poly_of(ctx, e->kids[i], sym, max_degree, &term)) return -1;
      for (size_t k = sum.degree + 1; k <= term.degree; k++) sum.coef[k] = alg_num_int(ctx, 0);
      if (term.degree > sum.degree) sum.degree = term.degree;
      for (size_t k = 0; k <= term.degree; k++) sum.coef[k] = alg_add(ctx, sum.coef[k], term.coef[k]);
    }
    *out = sum;
    return 0;
  }
  case ALG_MUL: {
    Poly product, factor;
    poly_const(&product, alg_num_int(ctx, 1));
    for (size_t i = 0; i < e->nkids; i++) {
      if (poly_of(ctx, e->kids[i], sym, max_degree, &factor)) return -1;
      if (poly_mul(ctx, &product, &factor, max_degree, &product)) return -1;
    }
    *out = product;
    return 0;
  }
  case ALG_POW: {
    AlgExpr *n = e->kids[1];
    if (!alg_num_is_integer(n) || mpq_sgn(n->u.num) < 0 ||
        mpz_cmp_ui(mpq_numref(n->u.num), max_degree) > 0)
      return -1;
    Poly base, power;
    if (poly_of(ctx, e->kids[0], sym, max_degree, &base)) return -1;
    poly_const(&power, alg_num_int(ctx, 1));
    for (unsigned long k = mpz_get_ui(mpq_numref(n->u.num)); k > 0; k--)
      if (poly_mul(ctx, &power, &base, max_degree, &power)) return -1;
    *out = power;
    return 0;
  }
  default:
    return -1;
  }
}

int alg_poly_coeffs(AlgCtx *ctx, AlgExpr *e, AlgSymbol *sym, size_t max_degree, AlgExpr **coef,
                    size_t *degree) {
  Poly p;
  if (max_degree > ALG_POLY_MAX_DEGREE) max_degree = ALG_POLY_MAX_DEGREE;
  if (poly_of(ctx, e, sym, max_degree, &p)) return -1;
  while (p.degree > 0 && alg_is_num(p.coef[p.degree], 0)) p.degree--;
  for (size_t k = 0; k <= p.degree; k++) coef[k] = p.coef[k];
  *degree = p.degree;
  return 0;
}
