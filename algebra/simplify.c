/*
** simplify.c — canonical sums, products and powers: flattened and ordered, like terms and
** powers of a base collected, numbers folded exactly (intervals where exactness must end).
*/
#include "expr_impl.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Integer powers of exact numbers above this exponent fold to intervals (size of the result). */
#define ALG_MAX_EXACT_EXPONENT 4096L

AlgExpr *alg_split_coef(AlgCtx *ctx, AlgExpr *term, AlgExpr **rest) {
  if (term->kind == ALG_NUM) {
    *rest = alg_num_int(ctx, 1);
    return term;
  }
  if (term->kind == ALG_MUL && term->kids[0]->kind == ALG_NUM) {
    *rest = term->nkids == 2 ? term->kids[1] : alg_intern(ctx, ALG_MUL, term->nkids - 1, term->kids + 1);
    return term->kids[0];
  }
  *rest = term;
  return alg_num_int(ctx, 1);
}

/* coef * rest for a canonical rest without numeric factor. */
static AlgExpr *scaled(AlgCtx *ctx, AlgExpr *coef, AlgExpr *rest) {
  if (alg_is_num(coef, 1)) return rest;
  if (alg_is_num(rest, 1)) return coef;
  if (rest->kind == ALG_MUL) {
    AlgExpr **kids = alg_temp(rest->nkids + 1);
    kids[0] = coef;
    memcpy(kids + 1, rest->kids, rest->nkids * sizeof *kids);
    AlgExpr *product = alg_intern(ctx, ALG_MUL, rest->nkids + 1, kids);
    free(kids);
    return product;
  }
  AlgExpr *kids[2] = {coef, rest};
  return alg_intern(ctx, ALG_MUL, 2, kids);
}

/* Sums with at most this many leaves find like terms by a scan of the distinct ones so far;
** larger ones through a hash table on the terms' rests. */
#define ADD_SCAN_MAX 16

/* One distinct term of a sum being gathered (its like terms added in). */
typedef struct Term {
  AlgExpr *rest;   /* the term without its coefficient */
  AlgExpr *coef;   /* its coefficient (a number) while it was met once */
  mpq_t sum;       /* the coefficients added, once a like term was met (summed) */
  int summed;      /* 1 when sum holds the coefficient */
} Term;

/* The leaves of a sum being gathered: its distinct terms in the order met, like terms added
** into one (exact rationals: the order of the additions does not matter), the number and
** interval constant (intervals added in the order met). */
typedef struct Gather {
  Term *terms;          /* distinct terms (room for every leaf) */
  size_t count;         /* distinct terms so far */
  size_t *slots;        /* hash table: index + 1 of the term of each rest, 0 when empty (NULL:
                           scan instead) */
  size_t mask;          /* slots - 1 (a power of two minus one) */
  mpq_t constant;       /* numbers added */
  AlgInterval ivals;    /* intervals added */
  int has_ival;         /* 1 when ivals holds one */
} Gather;

static int term_cmp(const void *x, const void *y) {
  return alg_order(((const Term *)x)->rest, ((const Term *)y)->rest);
}

/* The distinct term of rest, made (coefficient 0, not summed) when new. */
static Term *term_of(Gather *g, AlgExpr *rest) {
  size_t *slot = NULL;
  if (g->slots) {
    size_t k = (size_t)((rest->id * 0x9e3779b97f4a7c15u) >> 17) & g->mask;
    while (g->slots[k] && g->terms[g->slots[k] - 1].rest != rest) k = (k + 1) & g->mask;
    if (g->slots[k]) return &g->terms[g->slots[k] - 1];
    slot = &g->slots[k];
  } else {
    for (size_t i = 0; i < g->count; i++)
      if (g->terms[i].rest == rest) return &g->terms[i];
  }
  Term *t = &g->terms[g->count++];
  if (slot) *slot = g->count;
  t->rest = rest;
  t->coef = NULL;
  t->summed = 0;
  return t;
}

/* Adds the leaves of e (flattening sums) to the terms and the number/interval constant. */
static void gather_terms(AlgCtx *ctx, AlgExpr *e, Gather *g) {
  if (e->kind == ALG_ADD) {
    for (size_t i = 0; i < e->nkids; i++) gather_terms(ctx, e->kids[i], g);
    return;
  }
  if (e->kind == ALG_NUM) {
    mpq_add(g->constant, g->constant, e->u.num);
    return;
  }
  if (e->kind == ALG_IVAL) {
    g->ivals = g->has_ival ? ival_add(g->ivals, e->u.ival) : e->u.ival;
    g->has_ival = 1;
    return;
  }
  AlgExpr *rest;
  AlgExpr *coef = alg_split_coef(ctx, e, &rest);
  Term *t = term_of(g, rest);
  if (!t->coef) t->coef = coef;   /* met once: its coefficient node as it is */
  else {
    if (!t->summed) {
      mpq_init(t->sum);
      mpq_set(t->sum, t->coef->u.num);
      t->summed = 1;
    }
    if (mpz_cmp_ui(mpq_denref(t->sum), 1) == 0 && mpz_cmp_ui(mpq_denref(coef->u.num), 1) == 0)
      mpz_add(mpq_numref(t->sum), mpq_numref(t->sum), mpq_numref(coef->u.num));   /* integers */
    else
      mpq_add(t->sum, t->sum, coef->u.num);
  }
}

static size_t count_leaves(AlgExpr *e, AlgKind kind) {
  if (e->kind != kind) return 1;
  size_t n = 0;
  for (size_t i = 0; i < e->nkids; i++) n += count_leaves(e->kids[i], kind);
  return n;
}

static AlgExpr *add_n(AlgCtx *ctx, size_t n, AlgExpr *const *args);

AlgExpr *alg_add_n(AlgCtx *ctx, size_t n, AlgExpr *const *args) {
  if (n == 1) return args[0];
  AlgExpr *known = alg_op_memo_find(ctx, ALG_ADD, n, args);
  return known ? known : alg_op_memo_put(ctx, ALG_ADD, n, args, add_n(ctx, n, args));
}

/* The canonical sum: like terms (same rest) collected by a table, then only the distinct terms
** sorted (sorting every leaf, like terms side by side, cost most of a reduction's time when
** calls add their callees' sums: main's block of 10^4 statements sorts 40,000 leaves). */
static AlgExpr *add_n(AlgCtx *ctx, size_t n, AlgExpr *const *args) {
  size_t cap = 0;
  for (size_t i = 0; i < n; i++) cap += count_leaves(args[i], ALG_ADD);
  Term small[ADD_SCAN_MAX];
  Gather g;
  memset(&g, 0, sizeof g);
  g.terms = cap <= ADD_SCAN_MAX ? small : alg_temp_bytes(cap * sizeof *g.terms);
  if (cap > ADD_SCAN_MAX) {
    size_t size = 4;
    while (size < 2 * cap) size *= 2;
    g.slots = alg_temp_bytes(size * sizeof *g.slots);
    memset(g.slots, 0, size * sizeof *g.slots);
    g.mask = size - 1;
  }
  mpq_init(g.constant);
  for (size_t i = 0; i < n; i++) gather_terms(ctx, args[i], &g);
  qsort(g.terms, g.count, sizeof *g.terms, term_cmp);
  AlgExpr **kids = alg_temp(g.count + 1);
  size_t nkids = 0;
  AlgExpr *first = NULL;
  if (g.has_ival) first = alg_ival(ctx, ival_add(g.ivals, alg_q_enclosure(g.constant)).lo,
                                   ival_add(g.ivals, alg_q_enclosure(g.constant)).hi);
  else if (mpq_sgn(g.constant) != 0) first = alg_num_q(ctx, g.constant);
  if (first) kids[nkids++] = first;
  for (size_t i = 0; i < g.count; i++) {
    Term *t = &g.terms[i];
    if (t->summed) {
      if (mpq_sgn(t->sum) != 0) kids[nkids++] = scaled(ctx, alg_num_q(ctx, t->sum), t->rest);
      mpq_clear(t->sum);
    } else if (mpq_sgn(t->coef->u.num) != 0) {
      kids[nkids++] = scaled(ctx, t->coef, t->rest);
    }
  }
  mpq_clear(g.constant);
  AlgExpr *sum = nkids == 0 ? alg_num_int(ctx, 0) : nkids == 1 ? kids[0] : alg_intern(ctx, ALG_ADD, nkids, kids);
  if (g.terms != small) free(g.terms);
  free(g.slots);
  free(kids);
  return sum;
}

AlgExpr *alg_add(AlgCtx *ctx, AlgExpr *a, AlgExpr *b) {
  AlgExpr *args[2] = {a, b};
  return alg_add_n(ctx, 2, args);
}

AlgExpr *alg_neg(AlgCtx *ctx, AlgExpr *a) { return alg_mul(ctx, alg_num_int(ctx, -1), a); }
AlgExpr *alg_sub(AlgCtx *ctx, AlgExpr *a, AlgExpr *b) { return alg_add(ctx, a, alg_neg(ctx, b)); }
AlgExpr *alg_div(AlgCtx *ctx, AlgExpr *a, AlgExpr *b) {
  return alg_mul(ctx, a, alg_pow(ctx, b, alg_num_int(ctx, -1)));
}

/* ---- products ---- */

/* The content of a sum: the positive rational c with sum = c * primitive, where the primitive
   sum has coprime integer coefficients, its sign chosen so that the first non-constant term of
   the primitive is positive. Writes c; returns the primitive (the sum itself when c = 1). */
static AlgExpr *sum_content(AlgCtx *ctx, AlgExpr *sum, mpq_t content) {
  mpz_t num_gcd, den_lcm;
  mpz_init(num_gcd);
  mpz_init_set_ui(den_lcm, 1);
  int sign = 0;
  for (size_t i = 0; i < sum->nkids; i++) {
    AlgExpr *rest;
    AlgExpr *coef = alg_split_coef(ctx, sum->kids[i], &rest);
    if (sum->kids[i]->kind == ALG_IVAL || coef->kind != ALG_NUM) {
      mpz_set_ui(num_gcd, 1);
      mpz_set_ui(den_lcm, 1);
      sign = 1;
      break;
    }
    mpz_gcd(num_gcd, num_gcd, mpq_numref(coef->u.num));
    mpz_lcm(den_lcm, den_lcm, mpq_denref(coef->u.num));
    if (!sign && sum->kids[i]->kind != ALG_NUM) sign = mpq_sgn(coef->u.num);
  }
  mpz_set(mpq_numref(content), num_gcd);
  mpz_set(mpq_denref(content), den_lcm);
  mpq_canonicalize(content);
  if (sign < 0) mpq_neg(content, content);
  mpz_clear(num_gcd);
  mpz_clear(den_lcm);
  if (mpq_cmp_ui(content, 1, 1) == 0 || mpq_sgn(content) == 0) {
    mpq_set_ui(content, 1, 1);
    return sum;
  }
  mpq_t inverse;
  mpq_init(inverse);
  mpq_inv(inverse, content);
  AlgExpr *scale = alg_num_q(ctx, inverse);
  mpq_clear(inverse);
  AlgExpr **terms = alg_scratch(ctx, sum->nkids);
  for (size_t i = 0; i < sum->nkids; i++) terms[i] = alg_mul(ctx, scale, sum->kids[i]);
  return alg_add_n(ctx, sum->nkids, terms);
}

/* Integer power of a rational (small exponents only: used for contents). */
static void q_pow(mpq_t out, mpq_srcptr base, long exponent) {
  mpz_pow_ui(mpq_numref(out), mpq_numref(base), (unsigned long)labs(exponent));
  mpz_pow_ui(mpq_denref(out), mpq_denref(base), (unsigned long)labs(exponent));
  mpq_canonicalize(out);
  if (exponent < 0) mpq_inv(out, out);
}

/* For base^exponent with base a sum and a small integer exponent: moves the content of the
   sum into coef, so that 2*(x + 1)*y and (2*x + 2)*y are one node. */
static AlgExpr *primitive_factor(AlgCtx *ctx, AlgExpr *base, AlgExpr *exponent, mpq_t coef) {
  if (base->kind != ALG_ADD || !alg_num_is_integer(exponent) || !mpz_fits_slong_p(mpq_numref(exponent->u.num)) ||
      labs(mpz_get_si(mpq_numref(exponent->u.num))) > ALG_MAX_EXACT_EXPONENT)
    return base;
  mpq_t content, power;
  mpq_init(content);
  mpq_init(power);
  AlgExpr *primitive = sum_content(ctx, base, content);
  q_pow(power, content, mpz_get_si(mpq_numref(exponent->u.num)));
  mpq_mul(coef, coef, power);
  mpq_clear(content);
  mpq_clear(power);
  return primitive;
}

typedef struct Factor {
  AlgExpr *base;       /* the base */
  AlgExpr *exponent;   /* its exponent (sum of the exponents collected) */
} Factor;

static int factor_cmp(const void *x, const void *y) {
  return alg_order(((const Factor *)x)->base, ((const Factor *)y)->base);
}

static void gather_factors(AlgCtx *ctx, AlgExpr *e, Factor *factors, size_t *count, mpq_t coef,
                           AlgInterval *ivals, int *has_ival) {
  if (e->kind == ALG_MUL) {
    for (size_t i = 0; i < e->nkids; i++)
      gather_factors(ctx, e->kids[i], factors, count, coef, ivals, has_ival);
    return;
  }
  if (e->kind == ALG_NUM) {
    mpq_mul(coef, coef, e->u.num);
    return;
  }
  if (e->kind == ALG_IVAL) {
    *ivals = *has_ival ? ival_mul(*ivals, e->u.ival) : e->u.ival;
    *has_ival = 1;
    return;
  }
  Factor *f = &factors[(*count)++];
  if (e->kind == ALG_POW) {
    f->base = e->kids[0];
    f->exponent = e->kids[1];
  } else {
    f->base = e;
    f->exponent = alg_num_int(ctx, 1);
  }
  f->base = primitive_factor(ctx, f->base, f->exponent, coef);
}

static AlgExpr *finish_product(AlgCtx *ctx, AlgExpr **kids, size_t nkids, AlgExpr *number, int again);

static AlgExpr *mul_n(AlgCtx *ctx, size_t n, AlgExpr *const *args);

AlgExpr *alg_mul_n(AlgCtx *ctx, size_t n, AlgExpr *const *args) {
  if (n == 1) return args[0];
  AlgExpr *known = alg_op_memo_find(ctx, ALG_MUL, n, args);
  return known ? known : alg_op_memo_put(ctx, ALG_MUL, n, args, mul_n(ctx, n, args));
}

static AlgExpr *mul_n(AlgCtx *ctx, size_t n, AlgExpr *const *args) {
  size_t cap = 0;
  for (size_t i = 0; i < n; i++) cap += count_leaves(args[i], ALG_MUL);
  Factor *factors = alg_temp_bytes((cap ? cap : 1) * sizeof *factors);
  size_t count = 0;
  mpq_t coef;
  mpq_init(coef);
  mpq_set_ui(coef, 1, 1);
  AlgInterval ivals = {1, 1};
  int has_ival = 0;
  for (size_t i = 0; i < n; i++) gather_factors(ctx, args[i], factors, &count, coef, &ivals, &has_ival);
  AlgExpr *early = NULL;   /* a product decided before collecting */
  if (mpq_sgn(coef) == 0 && !has_ival) early = alg_num_int(ctx, 0);
  for (size_t i = 0; i < count && !early; i++)   /* 1/0 absorbs: the product is undefined */
    if (alg_is_num(factors[i].base, 0) && factors[i].exponent->kind == ALG_NUM &&
        mpq_sgn(factors[i].exponent->u.num) < 0)
      early = alg_pow(ctx, factors[i].base, alg_num_int(ctx, -1));
  if (early) {
    mpq_clear(coef);
    free(factors);
    return early;
  }
  qsort(factors, count, sizeof *factors, factor_cmp);
  AlgExpr **kids = alg_temp(count + 1);
  size_t nkids = 0;
  int again = 0;   /* a power folded to a number or a product: canonicalize once more */
  for (size_t i = 0; i < count;) {
    size_t j = i + 1;
    AlgExpr *exponent = factors[i].exponent;
    while (j < count && factors[j].base == factors[i].base) exponent = alg_add(ctx, exponent, factors[j++].exponent);
    AlgExpr *power = alg_pow(ctx, factors[i].base, exponent);
    if (power->kind == ALG_NUM || power->kind == ALG_IVAL || power->kind == ALG_MUL ||
        (power->kind == ALG_POW && power->kids[0] != factors[i].base))
      again = 1;
    if (!alg_is_num(power, 1)) kids[nkids++] = power;
    i = j;
  }
  AlgExpr *number = has_ival ? NULL : alg_num_q(ctx, coef);
  if (has_ival) {
    AlgInterval v = ival_mul(ivals, alg_q_enclosure(coef));
    number = alg_ival(ctx, v.lo, v.hi);
  }
  mpq_clear(coef);
  free(factors);
  AlgExpr *product = finish_product(ctx, kids, nkids, number, again);
  free(kids);
  return product;
}

/* number * kids (collected powers, room for one more kid): canonicalized once more when a power
   folded, distributed over a lone sum, ordered, the coefficient in front. */
static AlgExpr *finish_product(AlgCtx *ctx, AlgExpr **kids, size_t nkids, AlgExpr *number, int again) {
  if (again) {
    kids[nkids++] = number;
    return alg_mul_n(ctx, nkids, kids);
  }
  if (nkids == 0) return number;
  if (alg_is_num(number, 0)) return number;
  if (nkids == 1 && kids[0]->kind == ALG_ADD && !alg_is_num(number, 1)) {
    /* c * (a + b) = c*a + c*b: keeps like terms collectable */
    AlgExpr *add = kids[0];
    AlgExpr **terms = alg_temp(add->nkids);
    for (size_t i = 0; i < add->nkids; i++) terms[i] = alg_mul(ctx, number, add->kids[i]);
    AlgExpr *sum = alg_add_n(ctx, add->nkids, terms);
    free(terms);
    return sum;
  }
  alg_sort(kids, nkids);
  AlgExpr *rest = nkids == 1 ? kids[0] : alg_intern(ctx, ALG_MUL, nkids, kids);
  if (alg_is_num(number, 1)) return rest;
  if (number->kind == ALG_IVAL) {   /* kids has room for one more: shift them up */
    memmove(kids + 1, kids, nkids * sizeof *kids);
    kids[0] = number;
    return alg_intern(ctx, ALG_MUL, nkids + 1, kids);
  }
  return scaled(ctx, number, rest);
}

AlgExpr *alg_mul(AlgCtx *ctx, AlgExpr *a, AlgExpr *b) {
  AlgExpr *args[2] = {a, b};
  return alg_mul_n(ctx, 2, args);
}

/* ---- powers ---- */

/* Exact q^(p/r) when it is rational; returns 0 on success. */
static int exact_root(mpq_srcptr base, unsigned long root, mpq_t out) {
  if (mpq_sgn(base) < 0 && root % 2 == 0) return -1;
  mpz_t num, den;
  mpz_init(num);
  mpz_init(den);
  int ok = mpz_root(num, mpq_numref(base), root) && mpz_root(den, mpq_denref(base), root);
  if (ok) {
    mpz_set(mpq_numref(out), num);
    mpz_set(mpq_denref(out), den);
    mpq_canonicalize(out);
  }
  mpz_clear(num);
  mpz_clear(den);
  return ok ? 0 : -1;
}

static AlgExpr *num_pow(AlgCtx *ctx, AlgExpr *base, AlgExpr *exponent) {
  mpq_srcptr e = exponent->u.num;
  if (!mpz_fits_slong_p(mpq_numref(e)) || !mpz_fits_ulong_p(mpq_denref(e))) return NULL;
  long p = mpz_get_si(mpq_numref(e));
  unsigned long r = mpz_get_ui(mpq_denref(e));
  if (mpq_sgn(base->u.num) == 0) {   /* 0^-k is undefined for every k: one node, 1/0 */
    AlgExpr *kids[2] = {base, alg_num_int(ctx, -1)};
    return p > 0 ? base : p < 0 ? alg_intern(ctx, ALG_POW, 2, kids) : NULL;
  }
  if (labs(p) > ALG_MAX_EXACT_EXPONENT) {
    AlgInterval v = ival_pow(alg_q_enclosure(base->u.num), alg_q_enclosure(e));
    return alg_ival(ctx, v.lo, v.hi);
  }
  mpq_t root, result;
  mpq_init(root);
  mpq_init(result);
  AlgExpr *node = NULL;
  if (r == 1 || exact_root(base->u.num, r, root) == 0) {
    if (r == 1) mpq_set(root, base->u.num);
    mpz_pow_ui(mpq_numref(result), mpq_numref(root), (unsigned long)labs(p));
    mpz_pow_ui(mpq_denref(result), mpq_denref(root), (unsigned long)labs(p));
    mpq_canonicalize(result);
    if (p < 0) mpq_inv(result, result);
    node = alg_num_q(ctx, result);
  }
  mpq_clear(root);
  mpq_clear(result);
  return node;
}

AlgExpr *alg_pow(AlgCtx *ctx, AlgExpr *base, AlgExpr *exponent) {
  if (alg_is_num(exponent, 0)) return alg_num_int(ctx, 1);
  if (alg_is_num(exponent, 1)) return base;
  if (alg_is_num(base, 1)) return base;
  if (base->kind == ALG_NUM && exponent->kind == ALG_NUM) {
    AlgExpr *folded = num_pow(ctx, base, exponent);
    if (folded) return folded;
  }
  if ((base->kind == ALG_IVAL || base->kind == ALG_NUM) &&
      (exponent->kind == ALG_IVAL || exponent->kind == ALG_NUM) &&
      (base->kind == ALG_IVAL || exponent->kind == ALG_IVAL)) {
    AlgInterval v = ival_pow(alg_num_enclosure(base), alg_num_enclosure(exponent));
    if (isfinite(v.lo) && isfinite(v.hi)) return alg_ival(ctx, v.lo, v.hi);
  }
  if (alg_num_is_integer(exponent)) {
    if (base->kind == ALG_ADD) {   /* (c p)^n = c^n p^n, p the primitive part */
      mpq_t coef;
      mpq_init(coef);
      mpq_set_ui(coef, 1, 1);
      AlgExpr *primitive = primitive_factor(ctx, base, exponent, coef);
      AlgExpr *scale = alg_num_q(ctx, coef);
      mpq_clear(coef);
      if (primitive != base) return alg_mul(ctx, scale, alg_pow(ctx, primitive, exponent));
    }
    if (base->kind == ALG_POW && (alg_num_is_integer(base->kids[1]) || mpq_sgn(exponent->u.num) > 0))
      /* (x^a)^n = x^(a n) for integer n (for a non-integer a only when n > 0 keeps domains) */
      return alg_pow(ctx, base->kids[0], alg_mul(ctx, base->kids[1], exponent));
    if (base->kind == ALG_MUL) {
      AlgExpr **kids = alg_scratch(ctx, base->nkids);
      for (size_t i = 0; i < base->nkids; i++) kids[i] = alg_pow(ctx, base->kids[i], exponent);
      return alg_mul_n(ctx, base->nkids, kids);
    }
  }
  AlgExpr *kids[2] = {base, exponent};
  return alg_intern(ctx, ALG_POW, 2, kids);
}

/* a % b = a - b*floor(a/b) */
AlgExpr *alg_mod(AlgCtx *ctx, AlgExpr *a, AlgExpr *b) {
  if (a->kind == ALG_NUM && b->kind == ALG_NUM && mpq_sgn(b->u.num) != 0) {
    mpq_t quotient, result;
    mpz_t whole;
    mpq_init(quotient);
    mpq_init(result);
    mpz_init(whole);
    mpq_div(quotient, a->u.num, b->u.num);
    mpz_fdiv_q(whole, mpq_numref(quotient), mpq_denref(quotient));
    mpq_set_z(result, whole);
    mpq_mul(result, result, b->u.num);
    mpq_sub(result, a->u.num, result);
    AlgExpr *node = alg_num_q(ctx, result);
    mpq_clear(quotient);
    mpq_clear(result);
    mpz_clear(whole);
    return node;
  }
  if (alg_is_num(a, 0)) return a;
  if (alg_is_num(b, 1) && alg_is_integer_valued(a)) return alg_num_int(ctx, 0);
  AlgExpr *kids[2] = {a, b};
  return alg_intern(ctx, ALG_MOD, 2, kids);
}
