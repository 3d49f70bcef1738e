/*
** reduce_order.c — bounds that see the order of the requests of a `par` whose branches are all
** the same chain (docs/reduction.md, "Extensions in pamc": lockstep, tandem line, order-aware
** lower bound, no queue when m >= n). The chain is walked once more, on its statements, with the
** par's index symbolic: each `use` is classed by how its member depends on the branch index, and
** the step structure (loops, `if`s) must not depend on it. The walk also follows `||` and pars
** inside the body, for the rules of reduce_fork.c (bounded clients, a member several sites
** request) and reduce_drift.c (branches that run their own steps), and walks again with each use
** lengthened by its wait. What cannot be decided leaves
** the bounds of reduce.c as they are.
*/
#include <string.h>

#include "reduce_order.h"

/* Nesting of statements and calls the walk follows (beyond: it gives up). */
#define ORDER_MAX_DEPTH 200

/* Contention-free time of a part of the chain: exact (as a function of k) and its largest value
** over k taken step by step (the sum over the steps of the max over the branches); and a lower
** bound on its real time when a par nested in it may take longer than its contention-free time. */
typedef struct OTime {
  AlgExpr *exact;       /* phi of the part for branch k */
  AlgExpr *stepmax;     /* sum over its steps of max over k of the step's duration */
  AlgExpr *lo;          /* a lower bound on the part's time for branch k with contention
                           (walk_nested), >= exact; NULL: exact */
} OTime;

static AlgExpr *zero(RCtx *c) { return alg_num_int(c->alg, 0); }

/* The lower bound on a part's time (its contention-free time unless a nested par lifts it). */
static AlgExpr *lo_of(OTime t) { return t.lo ? t.lo : t.exact; }

/* The release date of st's request: a lower bound on the time branch k runs before making it. */
AlgExpr *order_lohead(const OStage *st) { return st->lohead ? st->lohead : st->head; }

/* d e / d i when e = d*i + rest with d and rest free of i; else NULL. */
static AlgExpr *slope_in(RCtx *c, AlgExpr *e, AlgSymbol *i) {
  AlgExpr *slope = alg_diff(c->alg, e, i);
  if (!slope || alg_contains(slope, i) || alg_is_num(slope, 0)) return NULL;
  AlgExpr *rest = alg_sub(c->alg, e, alg_mul(c->alg, slope, alg_sym(c->alg, i)));
  return alg_contains(rest, i) ? NULL : slope;
}

/* 1 when x != 0 for every admissible value (a number, or an enclosure that excludes 0). */
static int nonzero(RCtx *c, AlgExpr *x) {
  if (alg_kind(x) == ALG_NUM) return !alg_is_num(x, 0);
  AlgInterval b = alg_bounds(c->alg, x);
  return b.lo > 0 || b.hi < 0;
}

/* The one term of e (a sum) that contains i, or e itself when it is not a sum; NULL when several
** terms contain i. */
static AlgExpr *term_of(AlgExpr *e, AlgSymbol *i) {
  if (alg_kind(e) != ALG_ADD) return e;
  AlgExpr *one = NULL;
  for (size_t j = 0; j < alg_nkids(e); j++) {
    if (!alg_contains(alg_kid(e, j), i)) continue;
    if (one) return NULL;
    one = alg_kid(e, j);
  }
  return one;
}

static int integer_valued(RCtx *c, AlgExpr *x);

/* Rule (a product of powers of one base is an integer): x = N * b^e1 * ... * b^ej * R (j >= 1) with N a
** number, b an integer >= 2, the exponents and R integer-valued. Write N = b^(v - m) * r with r
** an integer (m the power of b in N's denominator, which must hold no other factor; v the power
** of b in its numerator): then x = r * b^(e1 + ... + ej + v - m) * R, an integer when that
** exponent is >= 0 for every admissible value. So 2^(-1) * 2^(L - k) (the distance
** P / 2^(k + 1) of a recursive halving on P = 2^L, k = 0..L-1, once split_powers has read
** 2^(L - k - 1) apart) and 64 * 2^(-k) (k <= 6) are integers. With at_least_one, x >= 1 too when
** r > 0 and the factors of R are integers >= 1 (positive_integer): r b^(e...) R is then a product
** of integers >= 1. */
static int positive_integer(RCtx *c, AlgExpr *x);
static int power_product_integer(RCtx *c, AlgExpr *x, int at_least_one) {
  AlgCtx *g = c->alg;
  if (alg_kind(x) != ALG_MUL && alg_kind(x) != ALG_POW) return 0;
  AlgExpr *num = NULL, *base = NULL, *exps[16];
  size_t ne = 0, nf = alg_kind(x) == ALG_MUL ? alg_nkids(x) : 1;
  for (size_t j = 0; j < nf; j++) {
    AlgExpr *f = alg_kind(x) == ALG_MUL ? alg_kid(x, j) : x;
    if (alg_kind(f) == ALG_NUM) {
      if (num) return 0;
      num = f;
    } else if (alg_kind(f) == ALG_POW && alg_kind(alg_kid(f, 0)) == ALG_NUM && integer_valued(c, alg_kid(f, 0)) &&
               mpz_cmp_ui(mpq_numref(alg_num_value(alg_kid(f, 0))), 2) >= 0 && (!base || base == alg_kid(f, 0)) &&
               integer_valued(c, alg_kid(f, 1)) && ne < 16) {
      base = alg_kid(f, 0);
      exps[ne++] = alg_kid(f, 1);
    } else if (at_least_one ? !positive_integer(c, f) : !integer_valued(c, f)) return 0;
  }
  if (!base) return 0;
  mpz_t b, n, d;
  mpz_inits(b, n, d, NULL);
  mpz_set(b, mpq_numref(alg_num_value(base)));
  if (num) { mpz_set(n, mpq_numref(alg_num_value(num))); mpz_set(d, mpq_denref(alg_num_value(num))); }
  else { mpz_set_ui(n, 1); mpz_set_ui(d, 1); }
  long shift = 0;   /* v - m */
  while (mpz_sgn(n) != 0 && mpz_divisible_p(n, b) && shift < 4096) { mpz_divexact(n, n, b); shift++; }
  while (mpz_divisible_p(d, b) && shift > -4096) { mpz_divexact(d, d, b); shift--; }
  int whole = mpz_cmp_ui(d, 1) == 0 && (!at_least_one || mpz_sgn(n) > 0);
  mpz_clears(b, n, d, NULL);
  if (!whole) return 0;
  AlgExpr *e = alg_num_int(g, shift);
  for (size_t j = 0; j < ne; j++) e = alg_add(g, e, exps[j]);
  return alg_is_nonneg(g, e);
}

/* 1 when x is an integer for every admissible value: integer numbers, loop indices and integer
** params, floors and ceilings (of anything), sums, products, remainders and powers
** (exponent >= 0) of such, and products of powers of one base whose exponents add up to >= 0
** (power_product_integer). */
static int integer_valued(RCtx *c, AlgExpr *x) {
  switch (alg_kind(x)) {
  case ALG_NUM: return mpz_cmp_ui(mpq_denref(alg_num_value(x)), 1) == 0;
  case ALG_SYM: {
    AlgSymbol *sym = alg_symbol_of(x);
    return alg_symbol_kind(sym) == ALG_SYM_INDEX || alg_symbol_assume(sym).integer;
  }
  case ALG_FLOOR: case ALG_CEIL: return 1;
  case ALG_ADD: case ALG_MOD:
    for (size_t j = 0; j < alg_nkids(x); j++) if (!integer_valued(c, alg_kid(x, j))) return 0;
    return 1;
  case ALG_MUL:
    for (size_t j = 0; j < alg_nkids(x); j++) if (!integer_valued(c, alg_kid(x, j))) return power_product_integer(c, x, 0);
    return 1;
  case ALG_POW:
    return integer_valued(c, alg_kid(x, 0)) && integer_valued(c, alg_kid(x, 1)) &&
           alg_is_nonneg(c->alg, alg_kid(x, 1));
  default: return 0;
  }
}

/* 1 when x is an integer >= 1 for every admissible value: integer-valued and its interval bound
** at least 1, a product of powers of one base read as an integer >= 1 (power_product_integer:
** 2^(L - k) / 2 over k = 0..L-1, whose interval bound takes L and k apart), or x - 1 >= 0 proved
** (loop indices at the worst end of their range). */
static int positive_integer(RCtx *c, AlgExpr *x) {
  return integer_valued(c, x) && (alg_bounds(c->alg, x).lo >= 1 || power_product_integer(c, x, 1) ||
                                  alg_is_nonneg(c->alg, alg_sub(c->alg, x, alg_num_int(c->alg, 1))));
}

/* (+-i + c) % K with K - (hi - lo + 1) >= 0: its modulus K, else NULL. */
static AlgExpr *cyclic_modulus(RCtx *c, AlgExpr *e, AlgSymbol *i, AlgExpr *lo, AlgExpr *hi);

/* Nesting of conditional member maps `c ? x : y` that piece_image follows. */
#define ORDER_MAX_COND_DEPTH 8

/* 1 when hi - lo is a negative number: the range is empty for every value. */
static int surely_empty(AlgExpr *lo, AlgExpr *hi, RCtx *c) {
  AlgExpr *d = alg_sub(c->alg, hi, lo);
  return alg_kind(d) == ALG_NUM && mpq_sgn(alg_num_value(d)) < 0;
}

/* cond, a comparison of i with an integer-valued expression free of i (i == b, i != b, i < b,
** i <= b, either way round), as the ranges of i where it holds and where it fails: at most 2
** each, [lo, hi] clipped by the cut, not by the range (a superset of the true piece, enough for
** the argument below). Returns the number of ranges in *n_true + *n_false, or 0 when cond is
** not such a comparison. */
static int cut_ranges(RCtx *c, AlgExpr *cond, AlgSymbol *i, AlgExpr *lo, AlgExpr *hi,
                      AlgExpr *t_lo[2], AlgExpr *t_hi[2], int *n_true, AlgExpr *f_lo[2],
                      AlgExpr *f_hi[2], int *n_false) {
  AlgCtx *g = c->alg;
  AlgKind kind = alg_kind(cond);
  if (kind != ALG_EQ && kind != ALG_NE && kind != ALG_LT && kind != ALG_LE) return 0;
  AlgExpr *d = alg_sub(g, alg_kid(cond, 0), alg_kid(cond, 1));   /* cond: d op 0 */
  AlgExpr *slope = slope_in(c, d, i);
  if (!slope || !(alg_is_num(slope, 1) || alg_is_num(slope, -1))) return 0;
  int up = alg_is_num(slope, 1);
  /* d = +-(i - b) */
  AlgExpr *rest = alg_sub(g, d, alg_mul(g, slope, alg_sym(g, i)));
  AlgExpr *b = up ? alg_neg(g, rest) : rest;
  if (!integer_valued(c, b)) return 0;
  AlgExpr *one = alg_num_int(g, 1);
  AlgExpr *below = alg_sub(g, b, one), *above = alg_add(g, b, one);
  *n_true = *n_false = 0;
  if (kind == ALG_EQ || kind == ALG_NE) {   /* i == b */
    AlgExpr **pl = kind == ALG_EQ ? t_lo : f_lo, **ph = kind == ALG_EQ ? t_hi : f_hi;
    AlgExpr **ql = kind == ALG_EQ ? f_lo : t_lo, **qh = kind == ALG_EQ ? f_hi : t_hi;
    int *np = kind == ALG_EQ ? n_true : n_false, *nq = kind == ALG_EQ ? n_false : n_true;
    pl[0] = b; ph[0] = b; *np = 1;
    ql[0] = lo; qh[0] = below; ql[1] = above; qh[1] = hi; *nq = 2;
    return 3;
  }
  /* LT: d < 0; LE: d <= 0. up: i < b (i <= b); down: i > b (i >= b). */
  AlgExpr *cut_lo_hi = kind == ALG_LT ? below : b;     /* up: true on [lo, this] */
  AlgExpr *cut_hi_lo = kind == ALG_LT ? above : b;     /* down: true on [this, hi] */
  if (up) {
    t_lo[0] = lo; t_hi[0] = cut_lo_hi; f_lo[0] = alg_add(g, cut_lo_hi, one); f_hi[0] = hi;
  } else {
    t_lo[0] = cut_hi_lo; t_hi[0] = hi; f_lo[0] = lo; f_hi[0] = alg_sub(g, cut_hi_lo, one);
  }
  *n_true = *n_false = 1;
  return 2;
}

/* Rule (piecewise one-to-one member maps): e is one-to-one in i over lo..hi, its values within
** [*im_lo, *im_hi]. a*i + b (a a nonzero number): [a lo + b, a hi + b] ordered; e free of i on a
** range of at most one index; (+-i + c) % K as injective_in: [0, K - 1]; cond ? x : y with cond
** a comparison of i (cut_ranges): x one-to-one on each range where cond holds, y on each where
** it fails, and the images of all these ranges pairwise disjoint (one's top below the other's
** bottom, proved for every admissible value): two indices in the same range get distinct values
** by the range's rule, two in different ranges values in disjoint windows. The ranges are
** supersets of where each side runs, so their images are supersets of the true ones.
** `p == P - 1 ? 0 : p + 1` over 0..P-1: {0} and [1, P - 1]. */
static int piece_image(RCtx *c, AlgExpr *e, AlgSymbol *i, AlgExpr *lo, AlgExpr *hi, AlgExpr **im_lo,
                       AlgExpr **im_hi, int depth) {
  AlgCtx *g = c->alg;
  if (depth > ORDER_MAX_COND_DEPTH) return 0;
  if (!alg_contains(e, i)) {
    if (!alg_is_nonneg(g, alg_sub(g, lo, hi))) return 0;
    *im_lo = *im_hi = e;
    return 1;
  }
  AlgExpr *slope = slope_in(c, e, i);
  if (slope) {
    if (alg_kind(slope) != ALG_NUM) return 0;
    AlgExpr *x = alg_subst(g, e, i, lo), *y = alg_subst(g, e, i, hi);
    int pos = mpq_sgn(alg_num_value(slope)) > 0;
    *im_lo = pos ? x : y; *im_hi = pos ? y : x;
    return 1;
  }
  if (alg_kind(e) == ALG_MOD) {
    if (!cyclic_modulus(c, e, i, lo, hi)) return 0;
    *im_lo = alg_num_int(g, 0); *im_hi = alg_sub(g, alg_kid(e, 1), alg_num_int(g, 1));
    return 1;
  }
  if (alg_kind(e) != ALG_COND) return 0;
  AlgExpr *rl[4], *rh[4], *vl[4], *vh[4];
  int nt = 0, nf = 0;
  if (!cut_ranges(c, alg_kid(e, 0), i, lo, hi, rl, rh, &nt, rl + 2, rh + 2, &nf)) return 0;
  int n = 0;
  AlgExpr *plo[4], *phi[4];
  for (int r = 0; r < 4; r++) {
    if ((r < 2 && r >= nt) || (r >= 2 && r - 2 >= nf)) continue;
    if (surely_empty(rl[r], rh[r], c)) continue;
    AlgExpr *side = alg_kid(e, r < 2 ? 1 : 2);
    if (!piece_image(c, side, i, rl[r], rh[r], &vl[n], &vh[n], depth + 1)) return 0;
    plo[n] = vl[n]; phi[n] = vh[n]; n++;
  }
  AlgExpr *one = alg_num_int(g, 1);
  for (int a = 0; a < n; a++)
    for (int b = a + 1; b < n; b++)
      if (!alg_is_nonneg(g, alg_sub(g, alg_sub(g, plo[b], phi[a]), one)) &&
          !alg_is_nonneg(g, alg_sub(g, alg_sub(g, plo[a], phi[b]), one))) return 0;
  if (n == 0) { *im_lo = *im_hi = alg_num_int(g, 0); return 1; }
  *im_lo = plo[0]; *im_hi = phi[0];
  for (int a = 1; a < n; a++) { *im_lo = alg_min(g, *im_lo, plo[a]); *im_hi = alg_max(g, *im_hi, phi[a]); }
  return 1;
}

/* Rule (one-to-one member maps): the index e names distinct members for distinct i in lo..hi,
** the other symbols of e held fixed. a*i + c with a != 0 free of i (`k * 2^(l + 1)` at level l of
** a tree); (i + c) % K and (-i + c) % K when the range has at most K indices
** (K - (hi - lo + 1) >= 0 proved for every admissible value: `(p + 1) % P`, `(p + P - 1) % P`,
** `(p + k) % P` over p = 0..P-1). */
static int injective_in(RCtx *c, AlgExpr *e, AlgSymbol *i, AlgExpr *lo, AlgExpr *hi) {
  AlgCtx *g = c->alg;
  if (!alg_contains(e, i)) return 0;
  AlgExpr *slope = slope_in(c, e, i);
  if (slope) return nonzero(c, slope);
  (void)g;
  AlgExpr *term = term_of(e, i);   /* adding what does not depend on i keeps it one-to-one */
  if (term && cyclic_modulus(c, term, i, lo, hi) != NULL) return 1;
  AlgExpr *im_lo, *im_hi;
  return term && alg_kind(term) == ALG_COND && piece_image(c, term, i, lo, hi, &im_lo, &im_hi, 0);
}

static AlgExpr *cyclic_modulus(RCtx *c, AlgExpr *e, AlgSymbol *i, AlgExpr *lo, AlgExpr *hi) {
  AlgCtx *g = c->alg;
  if (alg_kind(e) != ALG_MOD) return NULL;
  AlgExpr *inner = slope_in(c, alg_kid(e, 0), i);
  if (!inner || !(alg_is_num(inner, 1) || alg_is_num(inner, -1))) return NULL;
  AlgExpr *count = alg_add(g, alg_sub(g, hi, lo), alg_num_int(g, 1));
  return alg_is_nonneg(g, alg_sub(g, alg_kid(e, 1), count)) ? alg_kid(e, 1) : NULL;
}

/* The width of the window that term's values lie in as i runs over lo..hi, when term is
** one-to-one in i: hi - lo + 1 for +-i, K for (+-i + c) % K, im_hi - im_lo + 1 for a piecewise
** one-to-one `c ? x : y` (piece_image); else NULL. */
static AlgExpr *window_of(RCtx *c, AlgExpr *term, AlgSymbol *i, AlgExpr *lo, AlgExpr *hi) {
  AlgExpr *slope = slope_in(c, term, i);
  if (slope) return alg_is_num(slope, 1) || alg_is_num(slope, -1)
                    ? alg_add(c->alg, alg_sub(c->alg, hi, lo), alg_num_int(c->alg, 1)) : NULL;
  AlgExpr *im_lo, *im_hi;
  if (alg_kind(term) == ALG_COND && piece_image(c, term, i, lo, hi, &im_lo, &im_hi, 0))
    return alg_add(c->alg, alg_sub(c->alg, im_hi, im_lo), alg_num_int(c->alg, 1));
  return cyclic_modulus(c, term, i, lo, hi);
}

/* 1 when f takes integer values, distinct for distinct i in lo..hi: a*i + b with a a nonzero
** integer, or (+-i + c) % K with K integer-valued and K >= hi - lo + 1; K may be an integer by the
** ends of a loop whose index f names (reduce_ends.c: `(r + 1) % (P / Px)` over r = 0 ..
** P / Px - 1, Px a const). */
static int integer_steps(RCtx *c, AlgExpr *f, AlgSymbol *i, AlgExpr *lo, AlgExpr *hi) {
  AlgExpr *slope = slope_in(c, f, i);
  if (slope) return alg_kind(slope) == ALG_NUM && integer_valued(c, slope);
  AlgExpr *K = cyclic_modulus(c, f, i, lo, hi);
  return K && (integer_valued(c, K) || reduce_integer_by_ends(c, K, f));
}

/* Splits a term A(o) into G * f(o): f the one factor of a product that contains o, G the product
** of the factors free of o (a term that is no product: f = A, G = 1). Returns 0 when no factor or
** more than one contains o. */
int order_split_factor(AlgCtx *g, AlgExpr *a, AlgSymbol *o, AlgExpr **f, AlgExpr **G) {
  *f = a;
  *G = alg_num_int(g, 1);
  if (alg_kind(a) != ALG_MUL) return 1;
  *f = NULL;
  for (size_t j = 0; j < alg_nkids(a); j++) {
    AlgExpr *factor = alg_kid(a, j);
    if (!alg_contains(factor, o)) { *G = alg_mul(g, *G, factor); continue; }
    if (*f) return 0;
    *f = factor;
  }
  return *f != NULL;
}

/* Rule (one-to-one maps of two indices): e = A(o) + B(n) + rest, B one-to-one in n with its values
** in a window of width W (W = the n range's length for +-n, K for (+-n + c) % K), and
** A(o) = G * f(o) with f integer-valued and one-to-one in o and G - W >= 0: for o != o',
** |A(o) - A(o')| >= G >= W, so the windows of distinct o do not meet; `x * Q + y`,
** `((x + 1) % Q) * Q + y`, `x * Q + (y + 1) % Q` over x, y = 0..Q-1. */
static int injective_pair(RCtx *c, AlgExpr *e, AlgSymbol *n, AlgExpr *nlo, AlgExpr *nhi, AlgSymbol *o,
                          AlgExpr *olo, AlgExpr *ohi) {
  AlgCtx *g = c->alg;
  AlgExpr *bterm = term_of(e, n), *aterm = term_of(e, o);
  if (!bterm || !aterm || bterm == aterm || alg_contains(bterm, o) || alg_contains(aterm, n)) return 0;
  AlgExpr *W = window_of(c, bterm, n, nlo, nhi);
  if (!W) return 0;
  AlgExpr *f, *G;
  return order_split_factor(g, aterm, o, &f, &G) && alg_is_nonneg(g, alg_sub(g, G, W)) && integer_steps(c, f, o, olo, ohi);
}

/* Rule (whole rows drop out of a remainder): (x + Q*m) % Q = x % Q for m an integer and Q != 0
** (the remainder is x - Q floor(x / Q), and floor((x + Q m) / Q) = floor(x / Q) + m). x % Q with
** the terms of the sum x that are Q times an integer-valued expression dropped: after rewriting
** i as Q*o + n, `(p + 1) % Q` is (Q*o + n + 1) % Q = (n + 1) % Q. */
static AlgExpr *mod_drop_rows(RCtx *c, AlgExpr *x, AlgExpr *Q) {
  AlgCtx *g = c->alg;
  AlgExpr *terms[64];
  size_t nt = alg_kind(x) == ALG_ADD ? alg_nkids(x) : 1, kept = 0;
  if (nt > 64) return alg_mod(g, x, Q);
  for (size_t j = 0; j < nt; j++) {
    AlgExpr *t = alg_kind(x) == ALG_ADD ? alg_kid(x, j) : x;
    if (!integer_valued(c, alg_div(g, t, Q))) terms[kept++] = t;
  }
  return alg_mod(g, kept ? alg_add_n(g, kept, terms) : alg_num_int(g, 0), Q);
}

/* |a| when a's sign is proved for every admissible value; else NULL. */
static AlgExpr *abs_proved(RCtx *c, AlgExpr *a) {
  if (alg_is_nonneg(c->alg, a)) return a;
  AlgExpr *m = alg_neg(c->alg, a);
  return alg_is_nonneg(c->alg, m) ? m : NULL;
}

/* How far apart the values of term (of i alone) lie as i runs over lo..hi, at most: |a| (hi - lo)
** for a slope a of proved sign, G times that of f for G * f(i) (order_split_factor), K - 1 for
** (+-i + c) % K; NULL when unknown. */
static AlgExpr *span_of(RCtx *c, AlgExpr *term, AlgSymbol *i, AlgExpr *lo, AlgExpr *hi, int depth) {
  AlgCtx *g = c->alg;
  AlgExpr *slope = slope_in(c, term, i);
  if (slope) {
    AlgExpr *a = abs_proved(c, slope);
    return a ? alg_mul(g, a, alg_sub(g, hi, lo)) : NULL;
  }
  AlgExpr *K = cyclic_modulus(c, term, i, lo, hi);
  if (K) return alg_sub(g, K, alg_num_int(g, 1));
  AlgExpr *f, *G;
  if (depth > 0 || alg_kind(term) != ALG_MUL || !order_split_factor(g, term, i, &f, &G)) return NULL;
  AlgExpr *Gabs = abs_proved(c, G), *fs = span_of(c, f, i, lo, hi, depth + 1);
  return Gabs && fs ? alg_mul(g, Gabs, fs) : NULL;
}

/* Rule (one-to-one maps wrapped by a remainder): e = u % M + rest (rest free of the branch),
** M > 0, u integer-valued and one-to-one in the pairs (o, n) (injective_pair, either order), and
** u = A(o) + B(n) + c whose terms' values lie at most span(A) + span(B) <= M - 1 apart (span_of):
** two pairs give integers u != u' less than M apart, so u - u' is no multiple of M and their
** remainders differ. `(i*Q + j + 1) % (Q*Q)` over i, j = 0..Q-1: the ring shift of the grid
** read row by row (u spans 1..Q*Q, Q*Q - 1 apart at most). */
static int injective_wrap(RCtx *c, AlgExpr *e, AlgSymbol *n, AlgExpr *nlo, AlgExpr *nhi, AlgSymbol *o,
                          AlgExpr *olo, AlgExpr *ohi) {
  AlgCtx *g = c->alg;
  AlgExpr *t = term_of(e, n);
  if (!t || t != term_of(e, o) || alg_kind(t) != ALG_MOD) return 0;
  AlgExpr *u = alg_kid(t, 0), *M = alg_kid(t, 1);
  if (alg_contains(M, n) || alg_contains(M, o) || alg_bounds(g, M).lo <= 0 || !integer_valued(c, u)) return 0;
  if (!injective_pair(c, u, n, nlo, nhi, o, olo, ohi) && !injective_pair(c, u, o, olo, ohi, n, nlo, nhi)) return 0;
  AlgExpr *a = term_of(u, o), *b = term_of(u, n);
  if (!a || !b || alg_contains(a, n) || alg_contains(b, o)) return 0;
  AlgExpr *sa = a ? span_of(c, a, o, olo, ohi, 0) : NULL, *sb = b ? span_of(c, b, n, nlo, nhi, 0) : NULL;
  return sa && sb && alg_is_nonneg(g, alg_sub(g, alg_sub(g, M, alg_num_int(g, 1)), alg_add(g, sa, sb)));
}

/* e with floor(i / Q) replaced by o, i % Q by n and i itself by Q*o + n, its value (sums,
** products, powers, remainders, floors and ceilings of such rebuilt, a remainder by Q through
** mod_drop_rows); NULL when the nesting is too deep or e holds another kind of node on i. So
** `p - p % Q` is Q*o, `(p + 1) % Q` is (n + 1) % Q. With whole set (a grid read as digits,
** reduce_grid.c), (i + c Q) % (Q Q) (c an integer free of i) is also Q ((o + c) % Q) + n
** (Q (o + c) + n with 0 <= n <= Q - 1), and any other node is rebuilt from its rewritten kids: all
** exact rewrites where i = Q o + n. */
static AlgExpr *split_digits(RCtx *c, AlgExpr *e, AlgSymbol *i, AlgExpr *Q, AlgExpr *o, AlgExpr *n,
                             int whole, int depth) {
  AlgCtx *g = c->alg;
  if (!alg_contains(e, i)) return e;
  if (depth > ORDER_MAX_COND_DEPTH * 4) return NULL;
  AlgExpr *iv = alg_sym(g, i);
  AlgKind kind = alg_kind(e);
  if (e == iv) return alg_add(g, alg_mul(g, Q, o), n);
  if (kind == ALG_FLOOR && alg_kid(e, 0) == alg_div(g, iv, Q)) return o;
  if (kind == ALG_MOD && alg_kid(e, 0) == iv && alg_kid(e, 1) == Q) return n;
  if (whole && kind == ALG_MOD && alg_kid(e, 1) == alg_mul(g, Q, Q)) {
    AlgExpr *shift = alg_expand(g, alg_div(g, alg_sub(g, alg_kid(e, 0), iv), Q));
    if (!alg_contains(shift, i) && integer_valued(c, shift))
      return alg_add(g, alg_mul(g, Q, alg_mod(g, alg_add(g, o, shift), Q)), n);
  }
  size_t nk = alg_nkids(e);
  if (nk == 0 || nk > 8) return NULL;
  AlgExpr *kids[8];
  for (size_t j = 0; j < nk; j++)
    if (!(kids[j] = split_digits(c, alg_kid(e, j), i, Q, o, n, whole, depth + 1))) return NULL;
  switch (kind) {
  case ALG_ADD: return alg_add_n(g, nk, kids);
  case ALG_MUL: return alg_mul_n(g, nk, kids);
  case ALG_MOD: return kids[1] == Q ? mod_drop_rows(c, kids[0], Q) : alg_mod(g, kids[0], kids[1]);
  case ALG_POW: return alg_pow(g, kids[0], kids[1]);
  case ALG_FLOOR: case ALG_CEIL: return alg_func(g, kind, kids[0]);
  case ALG_COND: return alg_cond(g, kids[0], kids[1], kids[2]);
  case ALG_EQ: return alg_cmp(g, ALG_CMP_EQ, kids[0], kids[1]);
  case ALG_NE: return alg_cmp(g, ALG_CMP_NE, kids[0], kids[1]);
  case ALG_LT: return alg_cmp(g, ALG_CMP_LT, kids[0], kids[1]);
  case ALG_LE: return alg_cmp(g, ALG_CMP_LE, kids[0], kids[1]);
  default: return whole ? alg_make(g, kind, nk, kids) : NULL;
  }
}

/* G * (c ? x : y) as c ? G x : G y when G (the other factors of the product t) is free of o and n
** (the same value either way); t itself otherwise. `-(p % Q == Q - 1 ? Q : 0)`. */
static AlgExpr *cond_scaled(RCtx *c, AlgExpr *t, AlgSymbol *o, AlgSymbol *n) {
  AlgCtx *g = c->alg;
  if (alg_kind(t) != ALG_MUL) return t;
  AlgExpr *cond = NULL, *G = alg_num_int(g, 1);
  for (size_t j = 0; j < alg_nkids(t); j++) {
    AlgExpr *f = alg_kid(t, j);
    if (alg_kind(f) == ALG_COND && !cond) cond = f;
    else if (alg_contains(f, o) || alg_contains(f, n)) return t;
    else G = alg_mul(g, G, f);
  }
  return cond ? alg_cond(g, alg_kid(cond, 0), alg_mul(g, G, alg_kid(cond, 1)), alg_mul(g, G, alg_kid(cond, 2))) : t;
}

/* Rule (a row shift written as a conditional): e = cond(n) ? X : Y + rest with cond free of o, and
** X, Y sharing their one term A in o (free of n), is A + (cond ? X - A : Y - A) + rest, the same
** value for every (o, n); the terms of a sum that hold o or n go into both sides of its one `?:`
** first (S + (c ? x : y) = c ? S + x : S + y). So `n == Q - 1 ? Q*o + n - Q + 1 : Q*o + n + 1`
** is Q*o + (n == Q - 1 ? n - Q + 1 : n + 1), whose second term is piecewise one-to-one in n with
** its values in [0, Q - 1]. e itself when it is no such form. */
static AlgExpr *row_cond(RCtx *c, AlgExpr *e, AlgSymbol *o, AlgSymbol *n) {
  AlgCtx *g = c->alg;
  AlgExpr *cond = NULL, *moved[64], *kept[64];
  size_t nk = alg_kind(e) == ALG_ADD ? alg_nkids(e) : 1, nm = 0, nkept = 0;
  if (nk > 64) return e;
  for (size_t j = 0; j < nk; j++) {
    AlgExpr *t = cond_scaled(c, alg_kind(e) == ALG_ADD ? alg_kid(e, j) : e, o, n);
    if (alg_kind(t) == ALG_COND && (alg_contains(t, n) || alg_contains(t, o))) {
      if (cond) return e;
      cond = t;
    } else if (alg_contains(t, n) || alg_contains(t, o)) moved[nm++] = t;
    else kept[nkept++] = t;
  }
  if (!cond || alg_contains(alg_kid(cond, 0), o)) return e;
  AlgExpr *S = nm ? alg_add_n(g, nm, moved) : alg_num_int(g, 0);
  AlgExpr *X = alg_add(g, S, alg_kid(cond, 1)), *Y = alg_add(g, S, alg_kid(cond, 2));
  AlgExpr *A = term_of(X, o);
  if (!A || A != term_of(Y, o) || alg_contains(A, n) || !alg_contains(A, o)) return e;
  AlgExpr *piece = alg_cond(g, alg_kid(cond, 0), alg_sub(g, X, A), alg_sub(g, Y, A));
  AlgExpr *rest = nkept ? alg_add_n(g, nkept, kept) : alg_num_int(g, 0);
  return alg_add(g, alg_add(g, A, piece), rest);
}

/* 1 for the kinds of node the rewrites of member indices rebuild from their kids (sums, products,
** remainders, powers, floors, ceilings, conditionals, comparisons). */
static int rebuilt_kind(AlgKind kind) {
  return kind == ALG_ADD || kind == ALG_MUL || kind == ALG_MOD || kind == ALG_POW || kind == ALG_FLOOR ||
         kind == ALG_CEIL || kind == ALG_COND || kind == ALG_EQ || kind == ALG_NE || kind == ALG_LT || kind == ALG_LE;
}

/* Rule (powers read apart): b^(x + c) = b^c * b^x for a number b > 0 and an integer c (|c| <= 64),
** (b^x)^y = b^(x y) and (a b)^y = a^y b^y for an integer y (a quotient by a power, 64 / 2^(k + 1),
** is 64 * 2^(-k - 1), so 32 * 2^(-k); 1 / (2 * 2^(k - L)) is 2^(-1) * 2^(L - k)), rewritten through sums, products, remainders, floors, ceilings, conditionals
** and comparisons (an exact rewrite; any other node is left as it is). So the butterfly's partner
** `p % 2^(k + 1) < 2^k ? p + 2^k : p - 2^k` reads its block as 2 * 2^k, twice the half 2^k. */
static AlgExpr *split_powers(RCtx *c, AlgExpr *e, int depth) {
  AlgCtx *g = c->alg;
  AlgKind kind = alg_kind(e);
  size_t nk = alg_nkids(e);
  if (depth > ORDER_MAX_COND_DEPTH * 4 || nk == 0 || nk > 8 || !rebuilt_kind(kind)) return e;
  AlgExpr *base = kind == ALG_POW && alg_kind(alg_kid(e, 0)) == ALG_POW ? alg_kid(alg_kid(e, 0), 0) : NULL;
  if (base && alg_kind(base) == ALG_NUM && mpq_sgn(alg_num_value(base)) > 0 && alg_kind(alg_kid(e, 1)) == ALG_NUM &&
      integer_valued(c, alg_kid(e, 1)))
    return split_powers(c, alg_pow(g, base, alg_mul(g, alg_kid(alg_kid(e, 0), 1), alg_kid(e, 1))), depth + 1);
  if (kind == ALG_POW && alg_kind(alg_kid(e, 0)) == ALG_MUL && alg_kind(alg_kid(e, 1)) == ALG_NUM &&
      integer_valued(c, alg_kid(e, 1)) && alg_nkids(alg_kid(e, 0)) <= 8) {
    AlgExpr *f[8];
    for (size_t j = 0; j < alg_nkids(alg_kid(e, 0)); j++)
      f[j] = split_powers(c, alg_pow(g, alg_kid(alg_kid(e, 0), j), alg_kid(e, 1)), depth + 1);
    return alg_mul_n(g, alg_nkids(alg_kid(e, 0)), f);
  }
  AlgExpr *kids[8];
  int moved = 0;
  for (size_t j = 0; j < nk; j++) {
    kids[j] = split_powers(c, alg_kid(e, j), depth + 1);
    moved |= kids[j] != alg_kid(e, j);
  }
  if (kind == ALG_POW && alg_kind(kids[0]) == ALG_NUM && mpq_sgn(alg_num_value(kids[0])) > 0 &&
      alg_kind(kids[1]) == ALG_ADD) {
    for (size_t j = 0; j < alg_nkids(kids[1]); j++) {
      AlgExpr *t = alg_kid(kids[1], j);
      if (alg_kind(t) != ALG_NUM || !integer_valued(c, t) || mpz_cmpabs_ui(mpq_numref(alg_num_value(t)), 64) > 0) continue;
      return alg_mul(g, alg_pow(g, kids[0], t), alg_pow(g, kids[0], alg_sub(g, kids[1], t)));
    }
  }
  return moved ? alg_make(g, kind, nk, kids) : e;
}

/* h when x is floor(i / h) % 2 with h integer-valued, positive (so at least 1) and free of i;
** else NULL. */
static AlgExpr *bit_of(RCtx *c, AlgExpr *x, AlgSymbol *i) {
  AlgCtx *g = c->alg;
  if (alg_kind(x) != ALG_MOD || !alg_is_num(alg_kid(x, 1), 2) || alg_kind(alg_kid(x, 0)) != ALG_FLOOR) return NULL;
  AlgExpr *arg = alg_kid(alg_kid(x, 0), 0);
  if (!alg_contains(arg, i)) return NULL;
  AlgExpr *h = split_powers(c, alg_div(g, alg_sym(g, i), arg), 0);   /* i / (i / h) = h */
  return !alg_contains(h, i) && positive_integer(c, h) ? h : NULL;
}

/* The value of a comparison kind (ALG_EQ, _NE, _LT, _LE) of the numbers a and b. */
static int compare_numbers(AlgKind kind, mpq_srcptr a, mpq_srcptr b) {
  int d = mpq_cmp(a, b);
  return kind == ALG_EQ ? d == 0 : kind == ALG_NE ? d != 0 : kind == ALG_LT ? d < 0 : d <= 0;
}

/* Rule (a bit of the index read as a half of its block): for an integer i >= 0 and an integer
** h >= 1, floor(i / h) % 2 is 1 exactly when i % 2h >= h (i = 2h a + b with 0 <= b < 2h:
** floor(i / h) = 2a + floor(b / h), and floor(b / h) is 0 or 1, 1 exactly when b >= h). So a
** comparison of floor(i / h) % 2 with a number is `i % 2h < h`, its negation `h <= i % 2h`, or a
** constant, read through the nodes split_powers reads (the caller proves i >= 0). The butterfly's
** test `floor(p / 2^k) % 2 == 0` is then the lower half of a block of 2 * 2^k. */
static AlgExpr *read_bits(RCtx *c, AlgExpr *e, AlgSymbol *i, int depth) {
  AlgCtx *g = c->alg;
  AlgKind kind = alg_kind(e);
  size_t nk = alg_nkids(e);
  if (depth > ORDER_MAX_COND_DEPTH * 4 || nk == 0 || nk > 8 || !alg_contains(e, i)) return e;
  if ((kind == ALG_EQ || kind == ALG_NE || kind == ALG_LT || kind == ALG_LE) && nk == 2) {
    int side = bit_of(c, alg_kid(e, 0), i) ? 0 : bit_of(c, alg_kid(e, 1), i) ? 1 : -1;
    AlgExpr *v = side >= 0 ? alg_kid(e, 1 - side) : NULL;
    if (v && alg_kind(v) == ALG_NUM) {
      AlgExpr *h = bit_of(c, alg_kid(e, side), i);
      mpq_t b[2];
      int t[2];
      for (int bit = 0; bit < 2; bit++) {
        mpq_init(b[bit]);
        mpq_set_ui(b[bit], (unsigned long)bit, 1);
        t[bit] = side == 0 ? compare_numbers(kind, b[bit], alg_num_value(v)) : compare_numbers(kind, alg_num_value(v), b[bit]);
        mpq_clear(b[bit]);
      }
      if (t[0] == t[1]) return alg_num_int(g, t[0]);
      AlgExpr *low = alg_mod(g, alg_sym(g, i), alg_mul(g, alg_num_int(g, 2), h));
      return t[0] ? alg_cmp(g, ALG_CMP_LT, low, h) : alg_cmp(g, ALG_CMP_LE, h, low);
    }
  }
  if (!rebuilt_kind(kind)) return e;
  AlgExpr *kids[8];
  int moved = 0;
  for (size_t j = 0; j < nk; j++) {
    kids[j] = read_bits(c, alg_kid(e, j), i, depth + 1);
    moved |= kids[j] != alg_kid(e, j);
  }
  return moved ? alg_make(g, kind, nk, kids) : e;
}

/* The first Q of a floor(i / Q) or i % Q in e; NULL when none. */
static AlgExpr *digit_base(RCtx *c, AlgExpr *e, AlgSymbol *i, int depth) {
  if (!alg_contains(e, i) || depth > ORDER_MAX_COND_DEPTH * 4) return NULL;
  if (alg_kind(e) == ALG_MOD && alg_kid(e, 0) == alg_sym(c->alg, i)) return alg_kid(e, 1);
  if (alg_kind(e) == ALG_FLOOR && alg_kind(alg_kid(e, 0)) == ALG_MUL) {
    AlgExpr *q = alg_div(c->alg, alg_sym(c->alg, i), alg_kid(e, 0));   /* i / (i / Q) = Q */
    if (!alg_contains(q, i)) return q;
  }
  for (size_t j = 0; j < alg_nkids(e); j++) {
    AlgExpr *q = digit_base(c, alg_kid(e, j), i, depth + 1);
    if (q) return q;
  }
  return NULL;
}

/* Rule (a digit base assumed whole, where the par's rules may assume): a base Q of params and
** consts that is not proved a positive integer (a const kept as a symbol, `const Px = 4`: its
** value may be set apart with -D or swept) is read as one under the condition Q >= 1 and
** floor(Q) == Q, which the par's bounds then carry (reduce_order_par: where it fails, the bounds
** are those without the par's rules). NULL when the par's rules do not take conditions here
** (c->order_assume unset: the demand rules of reduce_member.c) or Q names a loop index. */
static AlgExpr *assumed_base(RCtx *c, AlgExpr *Q) {
  AlgCtx *g = c->alg;
  if (!c->order_assume || !reduce_only_params(c, Q)) return NULL;
  return alg_and(g, alg_cmp(g, ALG_CMP_GE, Q, alg_num_int(g, 1)), alg_cmp(g, ALG_CMP_EQ, alg_func(g, ALG_FLOOR, Q), Q));
}

/* Rule (one-to-one maps of one index read as two digits): i over lo..hi with lo >= 0 is
** Q*o + n with o = floor(i / Q) and n = i % Q in 0..Q-1 (Q a positive integer), one pair per i;
** an index e(i) that is e'(o, n) with e' one-to-one in the pairs (injective_pair over
** o = floor(lo / Q)..floor(hi / Q), n = 0..Q-1, a box holding every pair met) is then one-to-one
** in i. `floor(p / Q) * Q + (p % Q + 1) % Q` over p = 0..Q*Q-1: the row-wise shift of a grid. */
static int injective_digits(RCtx *c, AlgExpr *e, AlgSymbol *i, AlgExpr *lo, AlgExpr *hi) {
  AlgCtx *g = c->alg;
  e = split_powers(c, e, 0);
  if (alg_is_nonneg(g, lo)) e = read_bits(c, e, i, 0);
  AlgExpr *Q = digit_base(c, e, i, 0);
  if (!Q || !alg_is_nonneg(g, lo)) return 0;
  AlgExpr *assume = positive_integer(c, Q) ? NULL : assumed_base(c, Q);
  if (!positive_integer(c, Q) && !assume) return 0;
  AlgExpr *olo = alg_func(g, ALG_FLOOR, alg_div(g, lo, Q)), *ohi = alg_func(g, ALG_FLOOR, alg_div(g, hi, Q));
  AlgExpr *nlo = alg_num_int(g, 0), *nhi = alg_sub(g, Q, alg_num_int(g, 1));
  AlgSymbol *o = alg_index_new(g, "o", olo, ohi), *n = alg_index_new(g, "n", nlo, nhi);
  AlgExpr *e2 = split_digits(c, e, i, Q, alg_sym(g, o), alg_sym(g, n), 0, 0);
  if (!e2 || alg_contains(e2, i)) return 0;
  int yes = injective_pair(c, e2, n, nlo, nhi, o, olo, ohi) ||
            injective_pair(c, row_cond(c, e2, o, n), n, nlo, nhi, o, olo, ohi);
  if (yes && assume) *c->order_assume = alg_and(g, *c->order_assume, assume);
  return yes;
}

/* The terms of e (a sum, or e alone) that name some of the d indices x; 0 when none does. */
static AlgExpr *index_terms(AlgCtx *g, AlgExpr *e, AlgSymbol **x, int d) {
  size_t nt = alg_kind(e) == ALG_ADD ? alg_nkids(e) : 1;
  AlgExpr *sum = alg_num_int(g, 0);
  for (size_t j = 0; j < nt; j++) {
    AlgExpr *t = alg_kind(e) == ALG_ADD ? alg_kid(e, j) : e;
    int named = 0;
    for (int l = 0; l < d && !named; l++) named = alg_contains(t, x[l]);
    if (named) sum = alg_add(g, sum, t);
  }
  return sum;
}

/* Rule (one-to-one maps of several indices, level by level): e over the tuples (x1 .. xd) in a box
** is one-to-one when, for some index n of them, e = B(n) + R(the others) + c with B one-to-one in n,
** its values in a window of width W (window_of), and R = W * f with f integer-valued and one-to-one
** in the others (the same rule, one index fewer; for one index injective_in, for two also the
** pairs rule injective_pair): for tuples that differ in the others, |R - R'| = W |f - f'| >= W while
** |B - B'| <= W - 1, so e != e'; for tuples that agree there, B(n) != B(n'). `(i*Q + j)*Q + k`:
** k in a window of Q, then (i*Q + j) = Q * i + j, j in a window of Q, then i. need_int: e must also
** be integer-valued (the levels below the first). Every order of the indices is tried (d <=
** ORDER_MAX_FOLD + 1). */
static int injective_levels(RCtx *c, AlgExpr *e, AlgSymbol **x, AlgExpr **lo, AlgExpr **hi, int d,
                            int need_int) {
  AlgCtx *g = c->alg;
  e = index_terms(g, e, x, d);
  if (alg_is_num(e, 0)) return 0;
  if (need_int && !integer_valued(c, e)) return 0;
  if (d == 1) return injective_in(c, e, x[0], lo[0], hi[0]);
  for (int p = 0; p < d; p++) {
    AlgExpr *B = term_of(e, x[p]);
    int alone = B != NULL;
    for (int l = 0; l < d && alone; l++) alone = l == p || !alg_contains(B, x[l]);
    AlgExpr *W = alone ? window_of(c, B, x[p], lo[p], hi[p]) : NULL;
    if (!W) continue;
    AlgSymbol *ox[ORDER_MAX_FOLD + 1];
    AlgExpr *olo[ORDER_MAX_FOLD + 1], *ohi[ORDER_MAX_FOLD + 1];
    for (int l = 0, o = 0; l < d; l++)
      if (l != p) { ox[o] = x[l]; olo[o] = lo[l]; ohi[o] = hi[l]; o++; }
    if (d == 2 && injective_pair(c, e, x[p], lo[p], hi[p], ox[0], olo[0], ohi[0])) return 1;
    AlgExpr *f = alg_expand(g, alg_div(g, alg_sub(g, e, B), W));
    if (injective_levels(c, f, ox, olo, ohi, d - 1, 1)) return 1;
  }
  return 0;
}

/* A member index e(k, k2) of a walk whose inner pars were read as the digits of k2 (walk_body,
** w->nfold): e with k2 rewritten back into its digits (split_digits, innermost first: k2 = N_d o +
** n, then o = N_(d-1) o' + n', ...; each an exact rewrite of an integer >= 0 by a base that is a
** positive integer), one-to-one in the tuples (k, digits) level by level (injective_levels). */
static int injective_fold(OWalk *w, AlgExpr *e) {
  RCtx *c = w->c;
  AlgCtx *g = c->alg;
  int d = w->nfold;
  AlgSymbol *x[ORDER_MAX_FOLD + 1];
  AlgExpr *lo[ORDER_MAX_FOLD + 1], *hi[ORDER_MAX_FOLD + 1], *one = alg_num_int(g, 1);
  x[0] = w->k; lo[0] = w->ka; hi[0] = w->kb;
  AlgSymbol *rest = w->k2;
  for (int l = d - 1; l >= 1; l--) {
    AlgExpr *count = alg_max(g, zero(c), w->fold_n[0]);   /* the digits above l: o's count */
    for (int j = 1; j < l; j++) count = alg_mul(g, count, w->fold_n[j]);
    AlgSymbol *o = alg_index_new(g, "o", zero(c), alg_sub(g, count, one));
    AlgSymbol *n = alg_index_new(g, "n", zero(c), alg_sub(g, w->fold_n[l], one));
    e = split_digits(c, e, rest, w->fold_n[l], alg_sym(g, o), alg_sym(g, n), 0, 0);
    if (!e || alg_contains(e, rest)) return 0;
    x[l + 1] = n; lo[l + 1] = zero(c); hi[l + 1] = alg_sub(g, w->fold_n[l], one);
    rest = o;
  }
  x[1] = rest; lo[1] = zero(c); hi[1] = alg_sub(g, alg_max(g, zero(c), w->fold_n[0]), one);
  return injective_levels(c, e, x, lo, hi, d + 1, 0);
}

/* A member index that differs between any two branches (pairs (k, k2) when the par is nested);
** any index when there is at most one branch (`par (x = 0, Q - 1) par (y = 0, Q - 1)` at Q = 1). */
#include <stdio.h>
#include <stdlib.h>
static int injective_branches(OWalk *w, AlgExpr *e) {
  if (alg_is_nonneg(w->c->alg, alg_sub(w->c->alg, alg_num_int(w->c->alg, 1), w->n))) return 1;
  if (!w->k2) return injective_in(w->c, e, w->k, w->ka, w->kb) || injective_digits(w->c, e, w->k, w->ka, w->kb) ||
                     reduce_bits_injective(w->c, e, w->k, w->ka, w->kb) ||   /* reduce_bits.c */
                     reduce_points_injective(w->c, e, w->k, w->ka, w->kb);
  return (w->nfold && injective_fold(w, e)) ||
         injective_pair(w->c, e, w->k2, w->k2a, w->k2b, w->k, w->ka, w->kb) ||
         injective_pair(w->c, e, w->k, w->ka, w->kb, w->k2, w->k2a, w->k2b) ||
         injective_wrap(w->c, e, w->k2, w->k2a, w->k2b, w->k, w->ka, w->kb);
}

/* 1 when e depends on the branch. */
static int by_branch(const OWalk *w, AlgExpr *e) {
  return alg_contains(e, w->k) || (w->k2 && alg_contains(e, w->k2));
}

/* e taken over the branches: kind ALG_MAXOVER, ALG_MINOVER or ALG_SUM. */
/* Nesting of `c ? x : y` on the branch that over_range splits (beyond: one bigop over the range). */
#define ORDER_MAX_COND_SPLIT 4

/* The branch's indices and their ranges while over_range splits them: k (and k2 for pairs). */
typedef struct ORanges {
  AlgSymbol *sym[2];    /* k, k2 (NULL when the branches are not pairs) */
  AlgExpr *lo[2], *hi[2]; /* their ranges, narrowed by the splits */
} ORanges;

/* e over the branches in rg, kind ALG_MAXOVER or ALG_MINOVER: where e is `c ? x : y` with c a
** comparison of k or k2 (a branch time after an `if` on the branch walked apart), x over the
** ranges where c holds and y over those where it fails (cut_ranges, clipped by the index's range:
** the ranges partition it), each range taken only where it is not empty; otherwise one bigop per
** index. The pieces have closed forms where the bigop of the whole `?:` has none. */
static AlgExpr *over_range(const OWalk *w, AlgKind kind, ORanges rg, AlgExpr *e, int depth) {
  RCtx *c = w->c;
  AlgCtx *g = c->alg;
  AlgExpr *tl[4], *th[4];
  int nt = 0, nf = 0, d = -1;
  if (depth < ORDER_MAX_COND_SPLIT && (kind == ALG_MAXOVER || kind == ALG_MINOVER) && alg_kind(e) == ALG_COND)
    for (int i = 0; i < 2 && d < 0 && rg.sym[i]; i++)
      if (cut_ranges(c, alg_kid(e, 0), rg.sym[i], rg.lo[i], rg.hi[i], tl, th, &nt, tl + 2, th + 2, &nf)) d = i;
  if (d < 0) {
    if (rg.sym[1]) e = alg_bigop(g, kind, rg.sym[1], rg.lo[1], rg.hi[1], e);
    return alg_bigop(g, kind, rg.sym[0], rg.lo[0], rg.hi[0], e);
  }
  AlgExpr *best = NULL;
  for (int r = 0; r < 4; r++) {
    if ((r < 2 && r >= nt) || (r >= 2 && r - 2 >= nf)) continue;
    ORanges in = rg;
    in.lo[d] = alg_max(g, rg.lo[d], tl[r]); in.hi[d] = alg_min(g, rg.hi[d], th[r]);
    if (surely_empty(in.lo[d], in.hi[d], c)) continue;
    AlgExpr *here = over_range(w, kind, in, alg_kid(e, r < 2 ? 1 : 2), depth + 1);
    AlgExpr *both = best ? (kind == ALG_MAXOVER ? alg_max(g, here, best) : alg_min(g, here, best)) : here;
    best = best ? alg_cond(g, alg_cmp(g, ALG_CMP_LE, in.lo[d], in.hi[d]), both, best) : here;
  }
  if (best) return best;
  if (rg.sym[1]) e = alg_bigop(g, kind, rg.sym[1], rg.lo[1], rg.hi[1], e);
  return alg_bigop(g, kind, rg.sym[0], rg.lo[0], rg.hi[0], e);
}

static AlgExpr *over_branches(const OWalk *w, AlgKind kind, AlgExpr *e) {
  AlgCtx *g = w->c->alg;
  ORanges rg = {{w->k, w->k2}, {w->ka, w->k2a}, {w->kb, w->k2b}};
  if (kind != ALG_MAXOVER && kind != ALG_MINOVER) {
    if (w->k2) e = alg_bigop(g, kind, w->k2, w->k2a, w->k2b, e);
    return alg_bigop(g, kind, w->k, w->ka, w->kb, e);
  }
  return over_range(w, kind, rg, e, 0);
}

/* Rule (no queue): m_r - n >= 0 for every admissible value, so the n branches of a chain, each
** holding at most one server at a time, never find all servers busy. */
static int enough_servers(OWalk *w, const Decl *res) {
  if (res->u.resource.discipline == DISC_PS) return 0;
  return alg_is_nonneg(w->c->alg, alg_sub(w->c->alg, reduce_mult(w->c, res), w->n));
}

/* Divisors of a number slope that affine_gcd lists (beyond: the slope is read as an expression). */
#define ORDER_MAX_GCD_SLOPE 4096

/* gcd(a, K) for integers a and K >= 1, as an expression: the largest d dividing both, written
** max over the divisors d of |a| of (K % d == 0 ? d : 1) for a number a (1 for a = +-1; a
** number at each point where K is one), else max over d = 1..K of (a % d == 0 and K % d == 0 ?
** d : 1) (gcd(0, K) = K). */
static AlgExpr *affine_gcd(RCtx *c, AlgExpr *a, AlgExpr *K) {
  AlgCtx *g = c->alg;
  AlgExpr *one = alg_num_int(g, 1), *zero_ = zero(c);
  if (alg_kind(a) == ALG_NUM && mpz_cmpabs_ui(mpq_numref(alg_num_value(a)), ORDER_MAX_GCD_SLOPE) <= 0) {
    unsigned long v = mpz_get_ui(mpq_numref(alg_num_value(a)));   /* |a| */
    AlgExpr *best = one;
    for (unsigned long d = 2; d <= v; d++) {
      if (v % d) continue;
      AlgExpr *dd = alg_num_int(g, (long)d);
      best = alg_max(g, best, alg_cond(g, alg_cmp(g, ALG_CMP_EQ, alg_mod(g, K, dd), zero_), dd, one));
    }
    return best;
  }
  AlgSymbol *d = alg_index_new(g, "d", one, K);
  AlgExpr *dv = alg_sym(g, d);
  AlgExpr *both = alg_and(g, alg_cmp(g, ALG_CMP_EQ, alg_mod(g, a, dv), zero_), alg_cmp(g, ALG_CMP_EQ, alg_mod(g, K, dv), zero_));
  return alg_max_over(g, d, one, K, alg_cond(g, both, dv, one));
}

/* Rule (members dealt round robin): an index (+-k + c) % K + rest, K an integer >= 1 free of k
** and rest free of k, sends the n = b - a + 1 branches to members by residue class of k: n
** consecutive integers fall at most ceil(n / K) in one class, and exactly that many in some
** class. Returns K, or NULL. (`core[t % C]`: T threads dealt over C cores.)
** Rule (members dealt by an affine map): the same with a k + c for +-k, a an integer free of k (a
** number, or integer-valued: the index of a loop around the par): two remainders by K > 0 are
** equal exactly when their arguments differ by a multiple of K, so k and k' name one member
** exactly when K divides a (k - k'), i.e. when K / g divides k - k' (g = gcd(a, K): a / g and
** K / g have no common factor): the branches are dealt round robin over the K / g residue
** classes of k mod K / g, one member each. Returns K / g (g = affine_gcd, 1 for +-k; *modulus =
** K, whose test shard_holds makes), so at most ceil(n g / K) branches name one member and the
** first class holds that many.
** `nic[(2 * p + 1) % P]`: one-to-one for odd P, two branches per member for even P;
** `port[(p * k) % P]` in round k: gcd(k, P) per member. */
static AlgExpr *shard_modulus(const OWalk *w, AlgExpr *index, AlgExpr **modulus) {
  RCtx *c = w->c;
  if (w->k2 || !index) return NULL;
  AlgExpr *term = term_of(index, w->k);
  if (!term || alg_kind(term) != ALG_MOD) return NULL;
  AlgExpr *slope = slope_in(c, alg_kid(term, 0), w->k), *K = alg_kid(term, 1);
  if (!slope || alg_contains(K, w->k)) return NULL;
  *modulus = K;
  if (alg_is_num(slope, 1) || alg_is_num(slope, -1)) return K;
  if (!integer_valued(c, slope)) return NULL;
  return alg_div(c->alg, K, affine_gcd(c, slope, K));
}

/* Where the round-robin rule holds: K an integer >= 1 (1 when proved for every admissible
** value, else the test for the formula to decide at each point: a const `C = 4` is a number
** there, but any value of the const's range here). */
static AlgExpr *shard_holds(const OWalk *w, AlgExpr *K) {
  AlgCtx *g = w->c->alg;
  if (integer_valued(w->c, K) && alg_bounds(g, K).lo >= 1) return alg_num_int(g, 1);
  return alg_and(g, alg_cmp(g, ALG_CMP_EQ, alg_func(g, ALG_FLOOR, K), K),
                 alg_cmp(g, ALG_CMP_GE, K, alg_num_int(g, 1)));
}

/* The last block met, floor(v) for v = arg at k = b (arg = k / B + r): ceil((B v + 1) / B) - 1
** when B v is an integer and B a positive integer (B v = qB + t with 0 <= t < B: floor(v) = q and
** (B v + 1) / B = q + (t + 1) / B with 1 <= t + 1 <= B), else floor(v). The same value, written
** so that floor((P - 1) / 4) + 1 blocks is ceil(P / 4), the size of a family of nodes, for every
** P (the two forms are not proved equal otherwise). */
static AlgExpr *last_block(RCtx *c, AlgExpr *v, AlgExpr *B) {
  AlgCtx *g = c->alg;
  AlgExpr *Bv = alg_expand(g, alg_mul(g, B, v)), *one = alg_num_int(g, 1);
  if (!integer_valued(c, B) || alg_bounds(g, B).lo <= 0 || !integer_valued(c, Bv)) return alg_func(g, ALG_FLOOR, v);
  return alg_sub(g, alg_func(g, ALG_CEIL, alg_div(g, alg_add(g, Bv, one), B)), one);
}

/* e with every occurrence of the node f replaced by x, through the kinds rebuilt_kind reads (any
** other node, or too deep a nesting, is left as it is: the caller tests what is left). */
static AlgExpr *replace_node(RCtx *c, AlgExpr *e, AlgExpr *f, AlgExpr *x, int depth) {
  if (e == f) return x;
  size_t nk = alg_nkids(e);
  if (depth > ORDER_MAX_COND_DEPTH * 4 || nk == 0 || nk > 8 || !rebuilt_kind(alg_kind(e))) return e;
  AlgExpr *kids[8];
  int moved = 0;
  for (size_t j = 0; j < nk; j++) {
    kids[j] = replace_node(c, alg_kid(e, j), f, x, depth + 1);
    moved |= kids[j] != alg_kid(e, j);
  }
  return moved ? alg_make(c->alg, alg_kind(e), nk, kids) : e;
}

/* The first floor(e) in e whose argument holds k, or NULL. */
static AlgExpr *first_floor(AlgExpr *e, AlgSymbol *k, int depth) {
  if (!alg_contains(e, k) || depth > ORDER_MAX_COND_DEPTH * 4) return NULL;
  if (alg_kind(e) == ALG_FLOOR) return e;
  for (size_t j = 0; j < alg_nkids(e); j++) {
    AlgExpr *f = first_floor(alg_kid(e, j), k, depth + 1);
    if (f) return f;
  }
  return NULL;
}

/* Rule (a member one-to-one in the block): an index h(floor(k / B + r)), where h(x), the index with
** that floor replaced by an index x over the blocks met, floor(a / B + r) .. floor(b / B + r),
** holds no k and is one-to-one in x (injective_in: a slope, a remainder, pieces of a `?:`): each
** member gets the branches of one block. Returns the floor, or NULL. The ring of nodes written
** with a test at the last node, `floor(p / 4) == ceil(P / 4) - 1 ? 0 : floor(p / 4) + 1` (from
** `if (...) use(nic[0], m) else use(nic[floor(p / 4) + 1], m)`). */
static AlgExpr *blocks_through(const OWalk *w, AlgExpr *index) {
  RCtx *c = w->c;
  AlgCtx *g = c->alg;
  AlgExpr *f = first_floor(index, w->k, 0);
  if (!f || !slope_in(c, alg_kid(f, 0), w->k)) return NULL;
  AlgExpr *fa = alg_func(g, ALG_FLOOR, alg_subst(g, alg_kid(f, 0), w->k, w->ka));
  AlgExpr *fb = last_block(c, alg_subst(g, alg_kid(f, 0), w->k, w->kb), alg_div(g, alg_num_int(g, 1), slope_in(c, alg_kid(f, 0), w->k)));
  AlgSymbol *x = alg_index_new(g, "x", fa, fb);
  AlgExpr *h = replace_node(c, index, f, alg_sym(g, x), 0);
  return !alg_contains(h, w->k) && injective_in(c, h, x, fa, fb) ? f : NULL;
}

/* Rule (blocks named in another order): G * floor(k / B + r) with G a nonzero number names the
** members of the blocks one to one (x -> G x), so each member gets the branches of one block: the
** counts of the blocks themselves. Returns the floor, or term itself when it is no such product.
** `nic[ceil(P / 4) - 1 - floor(p / 4)]`: the nodes in reverse order. */
static AlgExpr *blocks_scaled(AlgExpr *term) {
  if (alg_kind(term) != ALG_MUL || alg_nkids(term) != 2) return term;
  AlgExpr *G = alg_kid(term, 0), *f = alg_kid(term, 1);
  return alg_kind(G) == ALG_NUM && !alg_is_num(G, 0) && alg_kind(f) == ALG_FLOOR ? f : term;
}

/* Rule (a ring over the blocks): an index (+-floor(k / B + r) + c) % M + rest (c, M and rest free
** of k) names the members of the blocks floor(k / B + r) one to one when M is at least the number
** of blocks met, M >= floor(b / B + r) - floor(a / B + r) + 1 (block_counts adds it to d->holds):
** two blocks x != x' met are integers less than M apart, so x - x' is no multiple of M and
** (+-x + c) % M != (+-x' + c) % M (equal remainders differ by a multiple of M). Each member then
** gets the branches of one block, the counts of the blocks themselves. Returns M and sets *floor_term
** to the floor, or returns NULL (leaving *floor_term as it was) for no such index.
** `nic[(floor(p / 4) + 1) % ceil(P / 4)]`: the 4 ranks of a node send to the next node's nic. */
static AlgExpr *blocks_wrapped(const OWalk *w, AlgExpr *term, AlgExpr **floor_term) {
  AlgCtx *g = w->c->alg;
  if (alg_kind(term) != ALG_MOD || alg_contains(alg_kid(term, 1), w->k)) return NULL;
  AlgExpr *f = term_of(alg_kid(term, 0), w->k);
  if (f && alg_kind(f) == ALG_MUL && alg_nkids(f) == 2 && alg_is_num(alg_kid(f, 0), -1)) f = alg_kid(f, 1);
  if (!f || alg_kind(f) != ALG_FLOOR) return NULL;
  if (alg_bounds(g, alg_kid(term, 1)).hi <= 0) return NULL;
  *floor_term = f;
  return alg_kid(term, 1);
}

/* Rule (members dealt in blocks): an index floor(k / B + r) + rest, B > 0 free of k (where it
** is not proved for every admissible value, d->holds is the test for the formulas to decide at
** each point) and r, rest free of k, sends the branches to members by block: member
** q gets the k with q <= k / B + r < q + 1, a half-open range of length B, so at most ceil(B)
** branches, and at most n. The n branches touch M = floor(b / B + r) - floor(a / B + r) + 1
** members, so one of them gets at least ceil(n / M); the first, the k from a up to the largest
** with k / B + r < floor(a / B + r) + 1, i.e. k <= ceil((floor(a / B + r) + 1 - r) B) - 1, gets
** exactly min(b, that) - a + 1 (min(n, B) for `floor(k / B)` from k = 0, B an integer).
** (`cpu[floor(i / ceil(N / P))]`: N items dealt in blocks over P cpus; `node[floor(p / 4)]`.)
** Fills *d and returns 1, or returns 0. */
static int block_counts(const OWalk *w, AlgExpr *index, ODealt *d) {
  RCtx *c = w->c;
  AlgCtx *g = c->alg;
  if (w->k2 || !index) return 0;
  AlgExpr *term = term_of(index, w->k);
  AlgExpr *wrap = term ? blocks_wrapped(w, term, &term) : NULL;
  if (term && !wrap) term = blocks_scaled(term);
  if (!term || alg_kind(term) != ALG_FLOOR) term = blocks_through(w, index);
  if (!term || alg_kind(term) != ALG_FLOOR) return 0;
  AlgExpr *arg = alg_kid(term, 0);
  AlgExpr *s = slope_in(c, arg, w->k);   /* 1 / B */
  if (!s || alg_bounds(g, s).hi <= 0) return 0;
  AlgExpr *one = alg_num_int(g, 1);
  AlgExpr *B = alg_div(g, one, s), *r = alg_sub(g, arg, alg_mul(g, s, alg_sym(g, w->k)));
  AlgExpr *fa = alg_func(g, ALG_FLOOR, alg_subst(g, arg, w->k, w->ka));
  AlgExpr *fb = last_block(c, alg_subst(g, arg, w->k, w->kb), B);
  AlgExpr *M = alg_max(g, one, alg_add(g, alg_sub(g, fb, fa), one));
  AlgExpr *last = alg_sub(g, alg_func(g, ALG_CEIL, alg_mul(g, alg_sub(g, alg_add(g, fa, one), r), B)), one);
  AlgExpr *first = alg_add(g, alg_sub(g, alg_min(g, w->kb, last), w->ka), one);
  d->most = alg_min(g, w->n, alg_func(g, ALG_CEIL, B));
  d->first = first;
  d->fullest = alg_max(g, alg_func(g, ALG_CEIL, alg_div(g, w->n, M)), first);
  d->holds = alg_bounds(g, s).lo > 0 ? one : alg_cmp(g, ALG_CMP_GT, s, zero(c));
  if (wrap) {   /* the ring of blocks: M - (blocks met) >= 0, proved or tested at each point */
    AlgExpr *room = alg_sub(g, wrap, alg_add(g, alg_sub(g, fb, fa), one));
    if (!alg_is_nonneg(g, room)) d->holds = alg_and(g, d->holds, alg_cmp(g, ALG_CMP_GE, room, zero(c)));
  }
  return 1;
}

/* Rule (members dealt by evaluation): the counts reduce_points_dealt finds at every point (the
** branch range and the other indices' ranges numbers: `-D P=8`), held at that point. */
static int points_counts(const OWalk *w, AlgExpr *index, ODealt *d) {
  AlgCtx *g = w->c->alg;
  long most, fullest, first;
  if (w->k2 || !index || !reduce_points_dealt(w->c, index, w->k, w->ka, w->kb, &most, &fullest, &first)) return 0;
  d->most = alg_num_int(g, most);
  d->fullest = alg_num_int(g, fullest);
  d->first = first >= 0 ? alg_num_int(g, first) : NULL;
  d->holds = alg_num_int(g, 1);
  return 1;
}

/* Rule (members dealt to the branches, round robin or in blocks): how many branches name one
** member (at most d->most, and some member at least d->fullest) where d->holds. Returns 1 for
** such an index, else 0. */
static int dealt_counts(const OWalk *w, const Decl *res, AlgExpr *index, ODealt *d) {
  if (w->k2) return order_pair_counts(w, res, index, d);   /* reduce_nest.c */
  AlgExpr *K0 = NULL, *K = shard_modulus(w, index, &K0);
  if (!K) {   /* blocks, else an exception, else evaluation (also where the blocks' test fails: `-D`) */
    if (block_counts(w, index, d) && !alg_is_num(d->holds, 0)) return 1;
    return order_except_counts(w, index, d) || points_counts(w, index, d);   /* reduce_except.c */
  }
  AlgCtx *g = w->c->alg;
  d->most = d->fullest = d->first = alg_func(g, ALG_CEIL, alg_div(g, w->n, K));
  d->holds = shard_holds(w, K0);
  return 1;
}

int order_dealt(const OWalk *w, const Decl *res, AlgExpr *index, ODealt *d) { return dealt_counts(w, res, index, d); }

/* 1 for a class no rule of this file reads: the chain is then no lockstep, tandem line or drift. */
static int blocks_rules(UseClass cls) { return cls == USE_OTHER || cls == USE_PS; }

static UseClass use_class(OWalk *w, const Decl *res, AlgExpr *index) {
  if (enough_servers(w, res)) return USE_FREE;
  if (res->u.resource.discipline == DISC_PS) return USE_PS;
  if (!index || !by_branch(w, index)) return USE_STAGE;
  if (res->u.resource.count && injective_branches(w, index)) return USE_OWN;
  ODealt d;
  if (res->u.resource.count && dealt_counts(w, res, index, &d)) return USE_SHARD;
  return USE_OTHER;
}

static OTime walk(OWalk *w, REnv *env, const Stmt *s);

static OTime time_of(OWalk *w, AlgExpr *t) {
  OTime r = {t, over_branches(w, ALG_MAXOVER, t), NULL};
  if (by_branch(w, t)) w->vary = 1;
  return r;
}

static OTime fail(OWalk *w) {
  w->ok = 0;
  OTime r = {zero(w->c), zero(w->c), NULL};
  return r;
}

/* How many values the loops of the body that index names take over all branches at most: the
** product over them of max(0, hi' - lo' + 1), hi' the largest end of the loop's range over the
** loops around it and the branches, lo' the least (a range that depends on the branch or an
** outer loop is taken over its hull). */
static AlgExpr *loop_values(OWalk *w, AlgExpr *index) {
  AlgCtx *g = w->c->alg;
  AlgExpr *count = alg_num_int(g, 1);
  for (int i = 0; i < w->nall; i++) {
    if (w->all_par[i] || !alg_contains(index, w->all[i])) continue;
    AlgExpr *lo = w->all_lo[i], *hi = w->all_hi[i];
    for (int j = i - 1; j >= 0; j--) {
      if (alg_contains(lo, w->all[j])) lo = alg_bigop(g, ALG_MINOVER, w->all[j], w->all_lo[j], w->all_hi[j], lo);
      if (alg_contains(hi, w->all[j])) hi = alg_max_over(g, w->all[j], w->all_lo[j], w->all_hi[j], hi);
    }
    lo = over_branches(w, ALG_MINOVER, lo);
    hi = over_branches(w, ALG_MAXOVER, hi);
    count = alg_mul(g, count, alg_max(g, zero(w->c), alg_add(g, alg_sub(g, hi, lo), alg_num_int(g, 1))));
  }
  return count;
}

/* Records use(res[index], t) as the next site of the walk (pass 1); beyond ORDER_MAX_SITES, notes
** that the sites are too many for the bounded-clients rule (the other rules go on). */
static void record_site(OWalk *w, const Decl *res, AlgExpr *index, AlgExpr *t) {
  RCtx *c = w->c;
  if (w->too_many) return;
  if (!w->sites) w->sites = arena_alloc(&c->arena, ORDER_MAX_SITES * sizeof *w->sites);
  if (w->nsites == ORDER_MAX_SITES) { w->too_many = 1; return; }
  OSite *site = &w->sites[w->nsites++];
  memset(site, 0, sizeof *site);
  site->res = res; site->index = index; site->loop_free = 1; site->path = w->path;
  site->looped = w->nall > 0;
  AlgExpr *tmax = t, *runs = alg_num_int(c->alg, 1);
  site->copies = alg_num_int(c->alg, 1);
  for (int i = w->nall - 1; i >= 0; i--) {   /* innermost first: ranges may name outer indices */
    if (alg_contains(tmax, w->all[i])) tmax = alg_max_over(c->alg, w->all[i], w->all_lo[i], w->all_hi[i], tmax);
    if (alg_contains(runs, w->all[i])) runs = alg_max_over(c->alg, w->all[i], w->all_lo[i], w->all_hi[i], runs);
    AlgExpr *size = alg_add(c->alg, alg_sub(c->alg, w->all_hi[i], w->all_lo[i]), alg_num_int(c->alg, 1));
    if (w->all_par[i]) {   /* a par inside the body: as many copies of the site, run at once */
      site->copies = alg_mul(c->alg, site->copies, alg_max(c->alg, zero(c), size));
    } else {
      runs = alg_mul(c->alg, runs, alg_max(c->alg, zero(c), size));
      if (index && alg_contains(index, w->all[i])) site->loop_free = 0;
    }
  }
  site->tmax = over_branches(w, ALG_MAXOVER, tmax);
  site->runs = over_branches(w, ALG_MAXOVER, runs);
  if (!site->loop_free) site->values = loop_values(w, index);
}

static OTime walk_use(OWalk *w, REnv *env, const Stmt *s) {
  RCtx *c = w->c;
  const Decl *res = s->u.use.decl;
  if (!res || res->u.resource.handoff) return fail(w);
  AlgExpr *t = reduce_expr(c, env, s->u.use.duration);
  AlgExpr *index = s->u.use.index ? reduce_expr(c, env, s->u.use.index) : NULL;
  if (w->lengthen) {   /* pass 2: the use with its site's wait (reduce_fork.c) */
    if (w->site_at >= w->nsites) return fail(w);
    return time_of(w, alg_add(c->alg, t, w->sites[w->site_at++].wait));
  }
  if (w->stretch) return time_of(w, ps_use_time(w, res, index, t));   /* reduce_ps_order.c */
  record_site(w, res, index, t);
  UseClass cls = use_class(w, res, index);
  if (blocks_rules(cls) && !w->kif) w->other = 1;
  if (cls == USE_OWN || cls == USE_STAGE || cls == USE_SHARD || cls == USE_PS || (w->kif && cls == USE_OTHER)) {
    if (w->nstages == ORDER_MAX_STAGES) return fail(w);
    OStage *st = &w->stages[w->nstages++];
    memset(st, 0, sizeof *st);
    st->res = res; st->index = index; st->cls = cls; st->t = t; st->head = zero(c);
    st->site = w->too_many ? -1 : w->nsites - 1;
    st->guard = w->guard; st->kguard = w->kguard; st->loops = w->nloops; st->loop_free = 1;
    st->least = t;
    for (int i = w->nloops - 1; i >= 0; i--)
      if (alg_contains(st->least, w->loops[i]))
        st->least = alg_min_over(c->alg, w->loops[i], w->loop_lo[i], w->loop_hi[i], st->least);
    for (int i = 0; i < w->nloops && index; i++)
      if (alg_contains(index, w->loops[i])) st->loop_free = 0;
    if (w->nloops == 1) {
      st->loop = w->loops[0]; st->loop_lo = w->loop_lo[0]; st->loop_hi = w->loop_hi[0];
    }
  }
  return time_of(w, t);
}

/* Rule (the chain's first request on a held resource): 1 when the hold about to be walked is,
** in walk order, the chain's first request on res and lies in no loop or par of the body (it runs
** once per branch). All branches reach it at the par's start R, or at one later instant in lock
** step; no request of theirs on res came before, and what ran before the par in its block had
** ended, its holds released, before the par started: at R no server of res is held by the chain
** or released to it, so the hold needs no delay before it to meet no earlier release (walk_hold,
** "Plain holds in lock step" in docs/reduction.md). */
static int first_request(const OWalk *w, const Decl *res) {
  if (w->too_many || w->nall > 0 || w->nloops > 0) return 0;
  for (int i = 0; i < w->nsites; i++) if (w->sites[i].res == res) return 0;
  return 1;
}

/* Rule (a held resource in a chain, lower bounds only): `hold (r[e]) S` is a request for one
** server of r[e] that lasts at least S's contention-free time (S's statements each take at least
** theirs), made when the hold is reached: it is recorded as a use of r[e] of that duration (S's
** own uses are recorded after it, inside it: held_end), so the order-aware lower bounds read it
** as any stage (docs/reduction.md, "Held resources in a chain"). A hand-off only lengthens the
** wait of a contended acquisition: these bounds leave it out. The upper-bound rules (lockstep,
** tandem line, bounded clients) assume a branch holds one server at a time and do not apply
** (OWalk.holds); nor does a hold inside an `||`, a par of the body or an `if` on k.
** A hold is plain when its body is delays and uses of resources where no request waits (class
** free: at most m requests there at once), so it keeps its server exactly the body's time and
** holds nothing else: a use of that time; and, on a resource with a hand-off, a delay whose
** least value is > 0 comes just before it in its block (gap). The lockstep reads chains whose
** holds are all plain (order_par, "Plain holds in lock step" in docs/reduction.md); any other
** hold sets rich_holds. A hold of delays on a resource without a hand-off is a use already
** (reduce_lower.c). */
static OTime walk_hold(OWalk *w, REnv *env, const Stmt *s, AlgExpr *gap) {
  RCtx *c = w->c;
  const Decl *res = s->u.use.decl;
  if (!res || w->lengthen || w->kif || w->path.depth || w->forks) return fail(w);
  w->holds = 1;
  int handed = reduce_handoff(c, res) != NULL, other = w->other, from = w->nstages;
  if (handed && !gap && first_request(w, res)) gap = alg_num_int(c->alg, 1);
  if ((handed && !gap) || !reduce_delays_only(s->u.use.body, 1, 0)) w->rich_holds = 1;
  else if (handed) w->apart = w->apart ? alg_and(c->alg, w->apart, gap) : gap;
  AlgExpr *index = s->u.use.index ? reduce_expr(c, env, s->u.use.index) : NULL;
  /* a site of its own: the uses of S come after a request that may wait (never the chain's
  ** first request, order_fcfs_lower) */
  record_site(w, res, index, zero(c));
  UseClass cls = use_class(w, res, index);
  if (cls == USE_OTHER) w->other = 1;
  OStage *st = NULL;
  if (cls == USE_OWN || cls == USE_STAGE || cls == USE_SHARD) {
    if (w->nstages == ORDER_MAX_STAGES) return fail(w);
    st = &w->stages[w->nstages++];
    memset(st, 0, sizeof *st);
    st->res = res; st->index = index; st->cls = cls; st->head = zero(c); st->site = -1;
    st->guard = w->guard; st->kguard = w->kguard; st->loops = w->nloops; st->loop_free = 1;
    for (int i = 0; i < w->nloops && index; i++)
      if (alg_contains(index, w->loops[i])) st->loop_free = 0;
    if (w->nloops == 1) {
      st->loop = w->loops[0]; st->loop_lo = w->loop_lo[0]; st->loop_hi = w->loop_hi[0];
    }
  }
  int at = st ? (int)(st - w->stages) : -1;
  OTime body = walk(w, env, s->u.use.body);
  if (!w->ok || w->forks) return fail(w);
  if (w->other != other) w->rich_holds = 1;   /* a use that may wait */
  for (int i = at >= 0 ? at + 1 : from; i < w->nstages; i++) {   /* the lockstep reads these */
    const OStage *in = &w->stages[i];   /* (own members; a stage where n <= m) */
    if ((in->cls != USE_STAGE && in->cls != USE_OWN) || in->res == res) w->rich_holds = 1;
  }
  if (at >= 0) {   /* the array did not move: stages are only appended */
    st = &w->stages[at];
    st->t = body.exact; st->least = body.exact; st->held_end = w->nstages;
    for (int i = w->nloops - 1; i >= 0; i--)
      if (alg_contains(st->least, w->loops[i]))
        st->least = alg_min_over(c->alg, w->loops[i], w->loop_lo[i], w->loop_hi[i], st->least);
  }
  return body;
}

/* Stages recorded from `from` on: their heads shifted by the time before the part, before.exact,
** and their release dates by its lower bound (when a nested par before them or inside the part
** lifts it above the contention-free time). */
static void shift_heads(OWalk *w, int from, OTime before) {
  AlgCtx *g = w->c->alg;
  for (int i = from; i < w->nstages; i++) {
    OStage *st = &w->stages[i];
    if (before.lo || st->lohead) st->lohead = alg_add(g, lo_of(before), order_lohead(st));
    st->head = alg_add(g, before.exact, st->head);
  }
}

/* When s is a delay free of k: the condition that its least value over the loops around it is
** > 0 (1 when proved for every admissible value), under which the chain's statement after it
** starts strictly after the one before it ended; else NULL. */
static AlgExpr *delay_apart(OWalk *w, REnv *env, const Stmt *s) {
  AlgCtx *g = w->c->alg;
  if (s->kind != ST_DELAY) return NULL;
  AlgExpr *d = reduce_expr(w->c, env, s->u.delay.duration);
  for (int i = w->nall - 1; i >= 0; i--)
    if (alg_contains(d, w->all[i])) d = alg_min_over(g, w->all[i], w->all_lo[i], w->all_hi[i], d);
  if (alg_contains(d, w->k)) return NULL;
  return alg_bounds(g, d).lo > 0 ? alg_num_int(g, 1) : alg_cmp(g, ALG_CMP_GT, d, zero(w->c));
}

static OTime walk_block(OWalk *w, REnv *env, const Stmt *s) {
  AlgCtx *g = w->c->alg;
  OTime sum = {zero(w->c), zero(w->c), NULL};
  for (int i = 0; i < s->u.block.count && w->ok; i++) {
    int from = w->nstages;
    w->gap_before = i > 0 ? delay_apart(w, env, s->u.block.items[i - 1]) : NULL;
    OTime part = walk(w, env, s->u.block.items[i]);
    shift_heads(w, from, sum);
    if (sum.lo || part.lo) sum.lo = alg_add(g, lo_of(sum), lo_of(part));
    sum.exact = alg_add(g, sum.exact, part.exact);
    sum.stepmax = alg_add(g, sum.stepmax, part.stepmax);
  }
  return sum;
}

/* Pushes loop j = a..b on the body's loops (for the sites' largest durations). */
static void push_all(OWalk *w, AlgSymbol *j, AlgExpr *a, AlgExpr *b) {
  w->all[w->nall] = j; w->all_lo[w->nall] = a; w->all_hi[w->nall] = b; w->all_par[w->nall] = 0; w->nall++;
}

/* Enters branch arm of fork number fork (a par: arm 0, copies its size; a `||`: copies NULL). */
static void path_push(OWalk *w, int fork, int arm, AlgExpr *copies) {
  OPath *p = &w->path;
  if (p->depth == ORDER_MAX_PATH) { p->deep++; return; }
  p->fork[p->depth] = fork; p->arm[p->depth] = arm; p->copies[p->depth] = copies; p->depth++;
}

static void path_pop(OWalk *w) {
  OPath *p = &w->path;
  if (p->deep) p->deep--;
  else p->depth--;
}

/* 1 when e names a loop or par index of the body. */
static int names_body_index(const OWalk *w, AlgExpr *e) {
  for (int i = 0; i < w->nall; i++) if (alg_contains(e, w->all[i])) return 1;
  return 0;
}

/* Rule (a par nested in the chain takes at least its lower bound): the chain after
** `par (d = a, b) S` inside the body waits for the par's last copy to end, which is no earlier
** than the par's start plus its lower bound L (the par reduced as any statement, as a part of a
** branch: c->concurrent, so no rule that needs it to run alone applies, and other requests only
** delay it), nor than the least time of its longest copy. The part's lower bound is then
**   lo = max(max_d lo(S(d)), L)
** against its contention-free time max_d phi(S(d)): T threads on C < T cores,
** `par (t = 1, T) use(cores[p], x)` with resource cores[P] = fcfs(C), take T x / C, not x, and a
** request after them is made no earlier (its release date, OStage.lohead). Only release dates read
** it: the contention-free heads and tails stay as they are, for the rules that need the instants
** the chain reaches its requests (docs/reduction.md, "Pars nested in a chain"). One level: inside
** that reduction no nested par is reduced again (RCtx.nested_heads). NULL when L is not known. */
static AlgExpr *nested_least(OWalk *w, REnv *env, const Stmt *s, OTime part, AlgSymbol *d, AlgExpr *a,
                             AlgExpr *b, AlgExpr *exact) {
  RCtx *c = w->c;
  AlgCtx *g = c->alg;
  AlgExpr *longest = part.lo ? alg_max_over(g, d, a, b, part.lo) : exact;
  if (w->stretch || c->nested_heads) return part.lo ? longest : NULL;
  Summary sum;
  c->nested_heads++;
  c->concurrent++;
  reduce_stmt(c, env, s, &sum);
  c->concurrent--;
  c->nested_heads--;
  if (c->failed) return part.lo ? longest : NULL;
  return alg_max(g, longest, sum.L);
}

/* par (d = a, b) S inside the body, a and b free of the branch and of the body's indices: a fork
** of b - a + 1 copies of S (the sites of S have that many copies, reduce_fork.c), its time the
** longest copy's; a stage inside it records the par (its index d and range) and, as in a `||`,
** a gap of (the longest copy - its own). */
static OTime walk_nested(OWalk *w, REnv *env, const Stmt *s) {
  if (w->stretch) return fail(w);   /* the lock step on ps reads no par inside */
  RCtx *c = w->c;
  AlgCtx *g = c->alg;
  AlgExpr *a = reduce_expr(c, env, s->u.loop.lo), *b = reduce_expr(c, env, s->u.loop.hi);
  if (by_branch(w, a) || by_branch(w, b) || names_body_index(w, a) || names_body_index(w, b)) return fail(w);
  if (env->depth >= EVAL_MAX_INDICES || w->nall == EVAL_MAX_INDICES) return fail(w);
  w->forks = 1;
  if (w->calls) w->call_forks = 1;
  AlgSymbol *d = alg_index_new(g, s->u.loop.var.name, a, b);
  reduce_loop_ends(c, d, a, b);   /* a loop of the model: its ends checked (reduce_ends.c) */
  env->idx[env->depth++] = alg_sym(g, d);
  push_all(w, d, a, b);
  w->all_par[w->nall - 1] = 1;
  int from = w->nstages;
  path_push(w, ++w->nforks, 0, alg_max(g, zero(c), alg_add(g, alg_sub(g, b, a), alg_num_int(g, 1))));
  OTime part = walk(w, env, s->u.loop.body);
  path_pop(w);
  w->nall--;
  env->depth--;
  if (!w->ok) return part;
  OTime r = {alg_max_over(g, d, a, b, part.exact), alg_max_over(g, d, a, b, part.stepmax), NULL};
  if (!w->lengthen) r.lo = nested_least(w, env, s, part, d, a, b, r.exact);
  for (int i = from; i < w->nstages && !w->lengthen; i++) {
    OStage *st = &w->stages[i];
    AlgExpr *gap = alg_sub(g, r.exact, part.exact);
    st->gap = st->gap ? alg_add(g, st->gap, gap) : gap;
    if (st->reps++ == 0) { st->rep = d; st->rep_lo = a; st->rep_hi = b; }
  }
  return r;
}

/* S walked with loop index j over a .. b in scope (bound in env when the loop names it). */
static OTime walk_indexed(OWalk *w, REnv *env, const Stmt *body, AlgSymbol *j, AlgExpr *a,
                          AlgExpr *b, int bound_in_env) {
  if (bound_in_env) env->idx[env->depth++] = alg_sym(w->c->alg, j);
  push_all(w, j, a, b);
  OTime part = walk(w, env, body);
  w->nall--;
  if (bound_in_env) env->depth--;
  return part;
}

/* Rule (a loop whose range depends on the branch, on members of its own): seq (j = a(k), b(k)) S
** where every use of S the walk records names a member one-to-one in k (USE_OWN), or one member
** for all branches directly in the loop (a counted stage, reduce_stage.c: only its own lower
** bound reads it; a use whose member follows j is left to the bounded clients, no stage rule
** reading it, w->other set): the loop is one step of the chain, of contention-free time
** sum_j phi_S(j) for branch k (exact in k, its max over k as the step's), and a use after it
** sees that time in its head. The rules that use it read: lockstep needs equal times (the walk
** marks the chain as varying), the tandem line needs its OWN members used by branch k alone,
** and the order-aware lower bound reads only stages outside (`rows(w)` rows, then a gather). */
static OTime walk_loop_by_branch(OWalk *w, REnv *env, const Stmt *body, const char *name, AlgExpr *a,
                                 AlgExpr *b, int bound_in_env) {
  RCtx *c = w->c;
  AlgCtx *g = c->alg;
  if (env->depth >= EVAL_MAX_INDICES || w->kif || w->nall == EVAL_MAX_INDICES) return fail(w);
  AlgSymbol *j = alg_index_new(g, name, a, b);
  reduce_loop_ends(c, j, a, b);
  int from = w->nstages;
  OTime part = walk_indexed(w, env, body, j, a, b, bound_in_env);
  if (!w->ok) return part;
  AlgExpr *exact = alg_sum(g, j, a, b, part.exact);
  int kept = from;   /* a stage whose member follows j: no stage rule reads it (its site stays) */
  for (int i = from; i < w->nstages; i++)
    if (!w->stages[i].index || !alg_contains(w->stages[i].index, j)) w->stages[kept++] = w->stages[i];
  if (kept < w->nstages) w->other = 1;
  w->nstages = kept;
  for (int i = from; i < w->nstages; i++)   /* a stage of one member: counted (reduce_stage.c) */
    if (w->stages[i].cls != USE_OWN && w->stages[i].cls != USE_PS &&
        !order_counted_stage(&w->stages[i], j, a, b, part.exact, exact, w->nloops)) return fail(w);
  for (int i = from; i < w->nstages; i++) {   /* the loop's index is bound nowhere outside */
    OStage *st = &w->stages[i];
    st->t = alg_max_over(g, j, a, b, st->t);
    st->least = alg_min_over(g, j, a, b, st->least);
    st->head = zero(c);
    st->lohead = NULL;
    st->loops++;
  }
  w->vary = 1;
  OTime r = {exact, over_branches(w, ALG_MAXOVER, exact), part.lo ? alg_sum(g, j, a, b, part.lo) : NULL};
  return r;
}

/* seq (j = a, b) S inside the chain (or repeat, with a fresh index): the heads of the stages of
** S gain the iterations before j; a stage whose member does not change with j is met again. */
static OTime walk_loop(OWalk *w, REnv *env, const Stmt *body, const char *name, AlgExpr *a,
                       AlgExpr *b, int bound_in_env) {
  RCtx *c = w->c;
  AlgCtx *g = c->alg;
  if (by_branch(w, a) || by_branch(w, b)) return walk_loop_by_branch(w, env, body, name, a, b, bound_in_env);
  if (w->nloops == EVAL_MAX_INDICES || env->depth >= EVAL_MAX_INDICES || w->nall == EVAL_MAX_INDICES)
    return fail(w);
  AlgSymbol *j = alg_index_new(g, name, a, b);
  reduce_loop_ends(c, j, a, b);   /* seq or repeat of the model: checked ends (reduce_ends.c) */
  w->loops[w->nloops] = j; w->loop_lo[w->nloops] = a; w->loop_hi[w->nloops] = b; w->nloops++;
  int from = w->nstages;
  OTime part = walk_indexed(w, env, body, j, a, b, bound_in_env);
  w->nloops--;
  if (!w->ok) return part;
  if (w->nloops == 0) {   /* an outer loop of the body (reduce_drift.c, reduce_rounds.c) */
    w->outer_loops++;
    w->outer = j; w->outer_lo = a; w->outer_hi = b; w->outer_iter = part.exact;
    w->outer_fixed = !alg_contains(part.exact, j);
    for (int i = from; i < w->nstages && w->outer_fixed; i++)   /* heads within the iteration */
      w->outer_fixed = !alg_contains(w->stages[i].t, j) && !alg_contains(w->stages[i].head, j);
  }
  /* iterations before j: sum over j2 = a .. j - 1 of the body's time at j2 */
  AlgExpr *before_hi = alg_sub(g, alg_sym(g, j), alg_num_int(g, 1));
  AlgSymbol *j2 = alg_index_new(g, name, a, before_hi);
  OTime before = {alg_sum(g, j2, a, before_hi, alg_subst(g, part.exact, j, alg_sym(g, j2))), NULL, NULL};
  if (part.lo) before.lo = alg_sum(g, j2, a, before_hi, alg_subst(g, part.lo, j, alg_sym(g, j2)));
  shift_heads(w, from, before);
  for (int i = from; i < w->nstages; i++) {
    OStage *st = &w->stages[i];
    if (!st->index || !injective_in(c, st->index, j, a, b)) st->bad = 1;
  }
  OTime r = {alg_sum(g, j, a, b, part.exact), alg_sum(g, j, a, b, part.stepmax),
             part.lo ? alg_sum(g, j, a, b, part.lo) : NULL};
  return r;
}

/* 1 when stages x and y are the same use but for the member: same resource, duration, place
** in the chain (head, guard, loops). */
static int same_but_member(const OStage *x, const OStage *y) {
  return x->res == y->res && x->t == y->t && x->head == y->head && x->lohead == y->lohead &&
         x->guard == y->guard &&
         x->loop == y->loop && x->loops == y->loops && x->bad == y->bad && x->gap == y->gap &&
         x->reps == y->reps && x->rep == y->rep;
}

/* 1 when site sits directly in a side of the `if` being walked: no fork between them (its path
** is the walk's path at the `if`). */
static int at_if_level(const OWalk *w, const OSite *site) {
  return !site->path.deep && !w->path.deep && site->path.depth == w->path.depth;
}

/* Rule (paired sides): the sites of `if (cond(k)) S1 else S2`, S1's in from..mid - 1 and S2's in
** mid..to - 1, each S1 site paired with the first unpaired S2 site of the same resource, both
** directly in their sides (no fork of a side around them): each pair is one site on member
** `cond ? x : y` (branch k runs one side, so it makes the requests of one of the two sites, one
** at a time, as from one use), the else side's marked as its twin. */
static void pair_sites(OWalk *w, AlgExpr *cond, int from, int mid, int to) {
  for (int i = from; i < mid; i++) {
    OSite *a = &w->sites[i];
    if (a->twin || !at_if_level(w, a)) continue;
    for (int j = mid; j < to; j++) {
      OSite *b = &w->sites[j];
      if (b->twin || b->res != a->res || !a->index != !b->index || !at_if_level(w, b)) continue;
      AlgExpr *index = a->index == b->index ? a->index : alg_cond(w->c->alg, cond, a->index, b->index);
      a->index = b->index = index;
      a->tmax = b->tmax = alg_max(w->c->alg, a->tmax, b->tmax);
      a->loop_free = b->loop_free = a->loop_free && b->loop_free;
      b->twin = 1;
      break;
    }
  }
}

/* Rule (sides that differ only in a member): `if (cond(k)) S1 else S2` where S1 and S2 run the
** same steps for the same times (their contention-free times are one expression of k) and
** differ only in the members their uses name is the chain with each such use on member
** `cond ? x : y`: every branch runs the same requests at the same instants as before, each to
** the member its side names. The member map is then classed as any other (one-to-one pieces:
** piece_image). Returns 0 when the sides are not such. */
static int merge_sides(OWalk *w, AlgExpr *cond, OTime x, OTime y, int from, int mid, AlgExpr *outer) {
  RCtx *c = w->c;
  if (x.exact != y.exact || x.stepmax != y.stepmax || x.lo != y.lo) return 0;
  if (w->nstages - mid != mid - from) return 0;
  for (int i = 0; i < mid - from; i++) {
    const OStage *a = &w->stages[from + i], *b = &w->stages[mid + i];
    if (!same_but_member(a, b) || (a->index != b->index && (!a->index || !b->index))) return 0;
  }
  if (by_branch(w, x.exact)) w->vary = 1;
  for (int i = 0; i < mid - from; i++) {
    OStage *a = &w->stages[from + i];
    const OStage *b = &w->stages[mid + i];
    a->index = a->index == b->index ? a->index : alg_cond(c->alg, cond, a->index, b->index);
    a->loop_free = a->loop_free && b->loop_free;
    a->kguard = outer;
    a->cls = use_class(w, a->res, a->index);
    if (blocks_rules(a->cls) && !w->kif) w->other = 1;
  }
  w->nstages = mid;
  return 1;
}

/* Rule (sides that differ only in a duration): `if (cond(k)) use(r[e], x) else use(r[e], y)`,
** each side the one use alone (no other use, no other time), on the same resource and member at
** the same place in the chain, is the chain with `use(r[e], cond ? x : y)`: every branch makes
** the same one request at the same instant as before, for the time its side names (an `if` takes
** no time). A slow path for some items, `if (i % 4 == 0) use(cls, t_slow) else use(cls, t)`, is
** then one stage whose duration depends on k, read by the rules as any such (one request per
** branch, not two stages of one resource). Returns 0 when the sides are not such. */
static int merge_durations(OWalk *w, AlgExpr *cond, OTime x, OTime y, int from, int mid, int sites, int sites_mid,
                           AlgExpr *outer) {
  AlgCtx *g = w->c->alg;
  if (mid - from != 1 || w->nstages - mid != 1 || w->too_many || sites_mid - sites != 1 || w->nsites - sites_mid != 1)
    return 0;
  OStage *a = &w->stages[from];
  const OStage *b = &w->stages[mid];
  if (a->index != b->index || a->held_end || b->held_end || a->kloop || b->kloop || a->cls != b->cls) return 0;
  if (a->res != b->res || a->head != b->head || a->lohead != b->lohead || a->guard != b->guard ||
      a->loop != b->loop || a->loops != b->loops ||
      a->bad != b->bad || a->gap != b->gap || a->reps != b->reps || a->rep != b->rep)
    return 0;
  if (!alg_is_num(alg_expand(g, alg_sub(g, x.exact, a->t)), 0) || !alg_is_num(alg_expand(g, alg_sub(g, y.exact, b->t)), 0))
    return 0;
  a->t = alg_cond(g, cond, a->t, b->t);
  a->least = alg_min(g, a->least ? a->least : x.exact, b->least ? b->least : y.exact);
  a->kguard = outer;
  if (blocks_rules(a->cls) && !w->kif) w->other = 1;
  w->nstages = mid;
  w->vary = 1;
  return 1;
}

/* The lower bound of `if (cond) S1 else S2` from its sides' (NULL when neither has one). */
static AlgExpr *either_lo(RCtx *c, AlgExpr *cond, OTime x, OTime y) {
  return x.lo || y.lo ? alg_cond(c->alg, cond, lo_of(x), lo_of(y)) : NULL;
}

/* Rule (sides walked apart): `if (cond(k)) S1 else S2` (S2 may be absent: nothing) where the
** sides differ in steps or times: branch k runs S1 where cond(k) holds and S2 elsewhere, so its
** time is cond ? phi(S1) : phi(S2), and each use of S1 is made only by branches where cond holds
** (its kguard), each of S2 only where it fails. A member one-to-one in k over all branches is so
** over those that make the request (a subset); a fixed member gets at most n requests. The rules
** that need every branch to run the same steps (lockstep, tandem line, drift) do not apply; the
** lower bounds count only the branches a guard lets run. */
static OTime walk_apart(OWalk *w, AlgExpr *cond, OTime x, OTime y, int from) {
  RCtx *c = w->c;
  w->guarded = 1;
  w->vary = 1;
  for (int i = from; i < w->nstages; i++)
    if (blocks_rules(w->stages[i].cls) && !w->kif) w->other = 1;
  OTime r = {alg_cond(c->alg, cond, x.exact, y.exact), alg_max(c->alg, x.stepmax, y.stepmax),
             either_lo(c, cond, x, y)};
  return r;
}

/* if (cond(k)) S1 else S2 in the body, cond depending on the branch: the sides merged into one
** (merge_sides) when they differ only in members, else walked apart (walk_apart); their sites
** paired (pair_sites). */
static OTime walk_if_branch(OWalk *w, REnv *env, const Stmt *s, AlgExpr *cond) {
  RCtx *c = w->c;
  AlgCtx *g = c->alg;
  OTime none = {zero(c), zero(c), NULL};
  int from = w->nstages, vary = w->vary, sites = w->nsites;
  AlgExpr *outer = w->kguard, *otherwise = alg_not(g, cond);
  w->kif++;
  w->kguard = outer ? alg_and(g, outer, cond) : cond;
  OTime x = walk(w, env, s->u.branch.then);
  int mid = w->nstages, sites_mid = w->nsites;
  w->kguard = outer ? alg_and(g, outer, otherwise) : otherwise;
  OTime y = s->u.branch.otherwise && w->ok ? walk(w, env, s->u.branch.otherwise) : none;
  w->kguard = outer;
  w->kif--;
  if (!w->ok) return x;
  if (w->lengthen) {   /* pass 2: each branch runs its side */
    OTime r = {alg_cond(g, cond, x.exact, y.exact), alg_max(g, x.stepmax, y.stepmax), NULL};
    return r;
  }
  if (!w->too_many) pair_sites(w, cond, sites, sites_mid, w->nsites);
  w->vary = vary;
  if (s->u.branch.otherwise && merge_sides(w, cond, x, y, from, mid, outer)) return x;
  if (s->u.branch.otherwise && merge_durations(w, cond, x, y, from, mid, sites, sites_mid, outer)) {
    OTime r = {alg_cond(g, cond, x.exact, y.exact), alg_max(g, x.stepmax, y.stepmax),
               either_lo(c, cond, x, y)};
    return r;
  }
  return walk_apart(w, cond, x, y, from);
}

/* if (cond) S1 else S2 with cond free of k: every branch takes the same side. */
static OTime walk_if(OWalk *w, REnv *env, const Stmt *s) {
  AlgCtx *g = w->c->alg;
  AlgExpr *cond = reduce_expr(w->c, env, s->u.branch.cond);
  if (by_branch(w, cond)) return walk_if_branch(w, env, s, cond);
  if (alg_kind(cond) == ALG_NUM) {
    const Stmt *pick = alg_is_num(cond, 0) ? s->u.branch.otherwise : s->u.branch.then;
    if (!pick) { OTime none = {zero(w->c), zero(w->c), NULL}; return none; }
    return walk(w, env, pick);
  }
  AlgExpr *outer = w->guard;
  w->guard = outer ? alg_and(g, outer, cond) : cond;
  OTime x = walk(w, env, s->u.branch.then);
  AlgExpr *otherwise = alg_not(g, cond);
  w->guard = outer ? alg_and(g, outer, otherwise) : otherwise;
  OTime y = {zero(w->c), zero(w->c), NULL};
  if (s->u.branch.otherwise) y = walk(w, env, s->u.branch.otherwise);
  w->guard = outer;
  OTime r = {alg_cond(g, cond, x.exact, y.exact), alg_cond(g, cond, x.stepmax, y.stepmax),
             either_lo(w->c, cond, x, y)};
  return r;
}

static OTime walk_call(OWalk *w, REnv *env, const Stmt *s) {
  const Decl *proc = s->u.call.decl;
  AlgExpr *args[REDUCE_MAX_ARGS];
  REnv inner;
  if (!proc || !reduce_env_call(w->c, env, s, args, &inner)) return fail(w);
  w->calls++;
  OTime r = walk(w, &inner, proc->u.process.body);
  w->calls--;
  return r;
}

/* The stages from .. to - 1 of one branch of a `||` (their heads still counted from the branch's
** start): marked skew when the branch may pass its arrivals on in another order than they came
** (skip_forks_keep_order): more than one stage that may queue, a time before one that depends on
** k, a loop inside the branch around it, or several servers with a duration that depends on k. */
static void mark_skew(OWalk *w, int from, int to) {
  int queues = 0;
  for (int j = from; j < to; j++) queues += w->stages[j].cls != USE_OWN;
  for (int j = from; j < to; j++) {
    OStage *st = &w->stages[j];
    if (st->cls == USE_OWN) continue;
    st->skew = queues > 1 || st->cls != USE_STAGE || by_branch(w, st->head) || st->loops != w->nloops ||
               (!alg_is_num(reduce_mult(w->c, st->res), 1) && by_branch(w, st->t));
  }
}

/* S1 || ... || Sn in the body: its time is the longest branch's; a stage inside branch i still
** has, after its request, only the rest of branch i and what follows the `||` to run, so its gap
** grows by (the fork's time - branch i's time) (its tail: docs/reduction.md, "Pars whose
** branches send at once"). */
static OTime walk_fork(OWalk *w, REnv *env, const Stmt *s) {
  AlgCtx *g = w->c->alg;
  int n = s->u.block.count;
  OTime none = {zero(w->c), zero(w->c), NULL};
  if (n == 0) return none;
  if (n > ORDER_MAX_FORK) return fail(w);
  if (w->stretch) {   /* the lock step on ps: requests at once (reduce_ps_order.c) */
    AlgExpr *t = ps_fork_time(w, env, s);
    return t ? time_of(w, t) : fail(w);
  }
  w->forks = 1;
  if (w->calls) w->call_forks = 1;
  OTime parts[ORDER_MAX_FORK];
  int from[ORDER_MAX_FORK + 1];
  AlgExpr *exact[ORDER_MAX_FORK], *stepmax[ORDER_MAX_FORK], *lo[ORDER_MAX_FORK];
  int fork = ++w->nforks, lifted = 0;
  for (int i = 0; i < n; i++) {
    from[i] = w->nstages;
    path_push(w, fork, i, NULL);
    parts[i] = walk(w, env, s->u.block.items[i]);
    path_pop(w);
    if (!w->ok) return parts[i];
    exact[i] = parts[i].exact; stepmax[i] = parts[i].stepmax; lo[i] = lo_of(parts[i]);
    lifted |= parts[i].lo != NULL;
  }
  from[n] = w->nstages;
  OTime r = {alg_max_n(g, (size_t)n, exact), alg_max_n(g, (size_t)n, stepmax),
             lifted ? alg_max_n(g, (size_t)n, lo) : NULL};
  for (int i = 0; i < n && !w->lengthen; i++) {
    mark_skew(w, from[i], from[i + 1]);
    for (int j = from[i]; j < from[i + 1]; j++) {
      OStage *st = &w->stages[j];
      AlgExpr *gap = alg_sub(g, r.exact, parts[i].exact);
      st->gap = st->gap ? alg_add(g, st->gap, gap) : gap;
    }
  }
  return r;
}

static OTime walk(OWalk *w, REnv *env, const Stmt *s) {
  OTime none = {zero(w->c), zero(w->c), NULL};
  if (!w->ok || w->c->failed) return fail(w);
  if (w->depth >= ORDER_MAX_DEPTH) return fail(w);
  w->depth++;
  OTime r = none;
  AlgExpr *gap = w->gap_before;   /* for this statement alone: not for those inside it */
  w->gap_before = NULL;
  switch (s->kind) {
  case ST_SKIP: break;
  case ST_DELAY: r = time_of(w, reduce_expr(w->c, env, s->u.delay.duration)); break;
  case ST_USE: r = walk_use(w, env, s); break;
  case ST_BLOCK: r = walk_block(w, env, s); break;
  case ST_SEQ:
    r = walk_loop(w, env, s->u.loop.body, s->u.loop.var.name, reduce_expr(w->c, env, s->u.loop.lo),
                  reduce_expr(w->c, env, s->u.loop.hi), 1);
    break;
  case ST_REPEAT:
    r = walk_loop(w, env, s->u.repeat.body, "_", alg_num_int(w->c->alg, 1),
                  reduce_expr(w->c, env, s->u.repeat.count), 0);
    break;
  case ST_IF: r = walk_if(w, env, s); break;
  case ST_CALL: r = walk_call(w, env, s); break;
  case ST_PARALLEL: r = walk_fork(w, env, s); break;
  case ST_PAR: r = walk_nested(w, env, s); break;
  case ST_HOLD: r = walk_hold(w, env, s, gap); break;
  default: r = fail(w); break;   /* choose: not a body the rules cover */
  }
  w->depth--;
  return r;
}

/* 1 when the OWN uses of family res in the chain all name the same member of k (so branch k
** alone ever uses it) and no loop of the chain changes it. */
static int own_alone(const OWalk *w, const OStage *st) {
  for (int i = 0; i < w->nstages; i++) {
    const OStage *o = &w->stages[i];
    if (o->res != st->res) continue;
    if (o->cls != USE_OWN || o->index != st->index || !o->loop_free) return 0;
  }
  return 1;
}

/* 1 when st is the only use of its resource in the chain: its member gets one request per branch
** (per iteration of its loop when the member changes with the loop). */
/* The least (want_max 0) or largest member st names over its loop (st a USE_STAGE with an index,
** in at most one loop). */
static AlgExpr *member_end(RCtx *c, const OStage *st, int want_max) {
  if (!st->loop) return st->index;
  /* affine in the loop's index with a number for slope: at an end of the range (an empty range
  ** names no member, so either end serves the test below) */
  AlgExpr *slope = alg_diff(c->alg, st->index, st->loop);
  if (slope && alg_kind(slope) == ALG_NUM &&
      alg_is_num(alg_expand(c->alg, alg_sub(c->alg, st->index, alg_add(c->alg, alg_subst(c->alg, st->index, st->loop, alg_num_int(c->alg, 0)),
                                                                      alg_mul(c->alg, slope, alg_sym(c->alg, st->loop))))), 0)) {
    int up = alg_is_nonneg(c->alg, slope);
    return alg_subst(c->alg, st->index, st->loop, (want_max == up) ? st->loop_hi : st->loop_lo);
  }
  return want_max ? alg_max_over(c->alg, st->loop, st->loop_lo, st->loop_hi, st->index)
                  : alg_min_over(c->alg, st->loop, st->loop_lo, st->loop_hi, st->index);
}

/* 1 when stages a and b of one family name members apart for every admissible value: both the
** same member for every branch (USE_STAGE) in at most one loop each, and the members of one all
** below those of the other (`seq (s = 0, S - 2) use(stage[s], t); use(stage[S - 1], t2)`). */
static int members_apart(RCtx *c, const OStage *a, const OStage *b) {
  AlgCtx *g = c->alg;
  if (a->cls != USE_STAGE || b->cls != USE_STAGE || !a->index || !b->index) return 0;
  if (a->loops > 1 || b->loops > 1 || (a->loops == 1 && !a->loop) || (b->loops == 1 && !b->loop)) return 0;
  AlgExpr *one = alg_num_int(g, 1);
  return alg_is_nonneg(g, alg_sub(g, alg_sub(g, member_end(c, b, 0), member_end(c, a, 1)), one)) ||
         alg_is_nonneg(g, alg_sub(g, alg_sub(g, member_end(c, a, 0), member_end(c, b, 1)), one));
}

/* A stage of a tandem line: a USE_STAGE or USE_SHARD met once by each branch (in at most one loop,
** which changes its member), whose resource the chain uses nowhere else, or only at members apart
** from its own (members_apart: each member still meets each branch once, in one order). */
static int single_stage(const OWalk *w, const OStage *st) {
  if (st->cls == USE_SHARD && st->loops > 0) return 0;
  if ((st->cls != USE_STAGE && st->cls != USE_SHARD) || st->bad || st->loops > 1 || st->reps) return 0;
  for (int i = 0; i < w->nstages; i++)
    if (&w->stages[i] != st && w->stages[i].res == st->res && !members_apart(w->c, st, &w->stages[i])) return 0;
  return 1;
}

/* Rule (members dealt, met again in a loop; lower bound): a shard in one loop of the chain (no
** par of the body around it), whether or not its member changes with the loop, is read by
** stage_lower iteration by iteration: in iteration j the fullest member gets the requests of
** the d.fullest branches naming it (the counts hold for every value of the loop's index), none
** before the least head(j); its servers end them one after another; the branch of the last still
** runs its tail after iteration j. Requests of other iterations or stages at that member only
** delay these. Two ranks per nic, `repeat (4) { delay(c); use(nic[floor(((p + 1) % P) / 2)], m) }`:
** c + 2 m + 3 (c + m), the simulated time (before: 4 (c + m)). */
static int looped_shard(const OStage *st) {
  return st->cls == USE_SHARD && st->loops == 1 && st->loop && !st->reps;
}

/* x over the loop of st (its max) when st sits in one, masked by its guard first. */
static AlgExpr *over_stage_loop(RCtx *c, const OStage *st, AlgExpr *x) {
  if (st->guard) x = alg_cond(c->alg, st->guard, x, zero(c));
  if (st->loop) x = alg_max_over(c->alg, st->loop, st->loop_lo, st->loop_hi, x);
  return x;
}

AlgExpr *order_over_loop(RCtx *c, const OStage *st, AlgExpr *x) { return over_stage_loop(c, st, x); }
int order_integer_valued(RCtx *c, AlgExpr *x) { return integer_valued(c, x); }
int order_cut_ranges(RCtx *c, AlgExpr *cond, AlgSymbol *i, AlgExpr *lo, AlgExpr *hi, AlgExpr *t_lo[2],
                     AlgExpr *t_hi[2], int *n_true, AlgExpr *f_lo[2], AlgExpr *f_hi[2], int *n_false) {
  return cut_ranges(c, cond, i, lo, hi, t_lo, t_hi, n_true, f_lo, f_hi, n_false);
}
int order_injective(OWalk *w, AlgExpr *e) { return injective_branches(w, e); }
int reduce_order_injective_in(RCtx *c, AlgExpr *e, AlgSymbol *i, AlgExpr *lo, AlgExpr *hi) {
  return injective_in(c, e, i, lo, hi);
}
int reduce_order_injective_one(RCtx *c, AlgExpr *e, AlgSymbol *i, AlgExpr *lo, AlgExpr *hi) {
  return injective_in(c, e, i, lo, hi) || injective_digits(c, e, i, lo, hi) || reduce_bits_injective(c, e, i, lo, hi) ||
         reduce_points_injective(c, e, i, lo, hi);
}
int reduce_order_injective_two(RCtx *c, AlgExpr *e, AlgSymbol *n, AlgExpr *nlo, AlgExpr *nhi, AlgSymbol *o,
                               AlgExpr *olo, AlgExpr *ohi) {
  return injective_pair(c, e, n, nlo, nhi, o, olo, ohi) || injective_pair(c, e, o, olo, ohi, n, nlo, nhi) ||
         injective_wrap(c, e, n, nlo, nhi, o, olo, ohi);
}
AlgExpr *order_bit_of(RCtx *c, AlgExpr *x, AlgSymbol *i) { return bit_of(c, x, i); }
int order_single_stage(const OWalk *w, const OStage *st) { return single_stage(w, st); }
AlgExpr *order_digit_base(RCtx *c, AlgExpr *e, AlgSymbol *i) { return digit_base(c, e, i, 0); }
AlgExpr *order_split_digits(RCtx *c, AlgExpr *e, AlgSymbol *i, AlgExpr *Q, AlgExpr *o, AlgExpr *n) {
  return split_digits(c, e, i, Q, o, n, 1, 0);
}
AlgExpr *order_term_of(AlgExpr *e, AlgSymbol *i) { return term_of(e, i); }
UseClass order_use_class(OWalk *w, const Decl *res, AlgExpr *index) { return use_class(w, res, index); }
int order_own_alone(const OWalk *w, const OStage *st) { return own_alone(w, st); }
int order_by_branch(const OWalk *w, AlgExpr *e) { return by_branch(w, e); }
AlgExpr *order_over_branches(const OWalk *w, AlgKind kind, AlgExpr *e) { return over_branches(w, kind, e); }

/* The contention-free time branch k still runs after st's request ends: the body's time total
** less the head, the request and what the `||`s around st wait for beyond st's own branches
** (the gap; 0 in a chain). */
AlgExpr *order_tail(const OWalk *w, const OStage *st, AlgExpr *total) {
  AlgCtx *g = w->c->alg;
  AlgExpr *tail = alg_sub(g, alg_sub(g, total, st->head), st->t);
  return st->gap ? alg_sub(g, tail, st->gap) : tail;
}

AlgExpr *order_closed(RCtx *c, AlgExpr *e);
/* The ranges of k = ka .. kb where guard holds, when guard is one comparison of k with an
** integer-valued expression free of it (cut_ranges, clipped by ka .. kb; the ranges empty for
** every value left out): their number, 0 when none is left, -1 when guard is no such comparison. */
static int guard_ranges(const OWalk *w, AlgExpr *guard, AlgExpr *lo[2], AlgExpr *hi[2]) {
  RCtx *c = w->c;
  AlgCtx *g = c->alg;
  AlgExpr *tl[2], *th[2], *fl[2], *fh[2];
  int nt = 0, nf = 0, n = 0;
  if (w->k2 || !cut_ranges(c, guard, w->k, w->ka, w->kb, tl, th, &nt, fl, fh, &nf)) return -1;
  for (int r = 0; r < nt; r++) {
    lo[n] = alg_max(g, w->ka, tl[r]); hi[n] = alg_min(g, w->kb, th[r]);
    if (!surely_empty(lo[n], hi[n], c)) n++;
  }
  return n;
}

/* The least of x over the branches of n ranges (at least one of them not empty where this is
** used): the min over each range, a range taken only where it is not empty. */
static AlgExpr *least_over_ranges(const OWalk *w, int n, AlgExpr **lo, AlgExpr **hi, AlgExpr *x) {
  AlgCtx *g = w->c->alg;
  AlgExpr *best = NULL;
  for (int r = n - 1; r >= 0; r--) {
    AlgExpr *here = alg_bigop(g, ALG_MINOVER, w->k, lo[r], hi[r], x);
    best = best ? alg_cond(g, alg_cmp(g, ALG_CMP_LE, lo[r], hi[r]), alg_min(g, here, best), best) : here;
  }
  return best;
}

/* Rule (order-aware lower bound, a stage some branches skip): a use of a fixed member (a plain
** resource) that only the branches where its guard holds make, outside loops of the body or in
** one (per iteration), is requested once by each of the q branches of the ranges where the guard
** holds (one comparison of k: guard_ranges):
**   T >= min head(k) + max(ceil(q / m_r), q / m_r) * min t(k) + min tail(k)   (q >= 1)
** the minima over those branches (a ps resource is never a stage: class ps). The argument of the stage rule below
** with the q requesting branches; other requests on the member (other uses of the resource) only
** delay these. */
static AlgExpr *guarded_stage_lower(OWalk *w, const OStage *st, AlgExpr *tail) {
  RCtx *c = w->c;
  AlgCtx *g = c->alg;
  AlgExpr *lo[2], *hi[2];
  if (st->cls != USE_STAGE || st->loops > 1 || (st->loops == 1 && !st->loop) || st->reps) return NULL;
  int n = guard_ranges(w, st->kguard, lo, hi);
  if (n <= 0) return NULL;
  AlgExpr *q = zero(c);
  for (int r = 0; r < n; r++)
    q = alg_add(g, q, alg_max(g, zero(c), alg_add(g, alg_sub(g, hi[r], lo[r]), alg_num_int(g, 1))));
  AlgExpr *m = reduce_mult(c, st->res), *t_min = least_over_ranges(w, n, lo, hi, st->t);
  AlgExpr *busy = alg_div(g, alg_mul(g, q, t_min), m);
  AlgExpr *first = alg_mul(g, alg_func(g, ALG_CEIL, alg_div(g, q, m)), t_min);
  AlgExpr *bound = alg_add(g, alg_add(g, least_over_ranges(w, n, lo, hi, order_lohead(st)),
                                      alg_max(g, first, busy)),
                           least_over_ranges(w, n, lo, hi, tail));
  return over_stage_loop(c, st, alg_cond(g, alg_cmp(g, ALG_CMP_GE, q, alg_num_int(g, 1)), bound, zero(c)));
}

/* Rule (order-aware lower bound): for a member r that every branch requests exactly once, with
** head(k) the contention-free time of branch k before the request, tail(k) after it:
**   T >= min_k head(k) + max(ceil(n / m_r) * min_k t(k), sum_k t(k) / m_r) + min_k tail(k)
** (r FCFS: ps uses are class ps, read by reduce_ps_order.c). No server of r starts
** before min head; the busiest of the m_r FCFS servers serves at least ceil(n / m_r) requests one
** after another, and all of them together serve sum t at most m_r at a time; the branch whose
** request ends last still has its tail to run. For a shard, NULL where the bound would rest on a
** marked approximation (min over k of a duration without a closed form). */
static AlgExpr *stage_lower(OWalk *w, const OStage *st, AlgExpr *total) {
  RCtx *c = w->c;
  AlgCtx *g = c->alg;
  AlgExpr *m = reduce_mult(c, st->res);
  AlgExpr *tail = order_tail(w, st, total);
  ODealt d;
  if (st->cls == USE_SHARD && dealt_counts(w, st->res, st->index, &d)) {   /* its fullest member */
    AlgExpr *q = d.fullest;
    AlgExpr *lo = alg_add(g, alg_add(g, over_branches(w, ALG_MINOVER, order_lohead(st)),
                                     alg_mul(g, alg_func(g, ALG_CEIL, alg_div(g, q, m)),
                                             over_branches(w, ALG_MINOVER, st->t))),
                          over_branches(w, ALG_MINOVER, tail));
    lo = over_stage_loop(c, st, alg_is_num(d.holds, 1) ? lo : alg_cond(g, d.holds, lo, zero(c)));
    return order_closed(c, lo);   /* NULL when it would rest on a marked approximation */
  }
  AlgExpr *t_min = over_branches(w, ALG_MINOVER, st->t);
  AlgExpr *busy = alg_div(g, over_branches(w, ALG_SUM, st->t), m);
  AlgExpr *first = alg_mul(g, alg_func(g, ALG_CEIL, alg_div(g, w->n, m)), t_min);
  AlgExpr *lo = alg_add(g, alg_add(g, over_branches(w, ALG_MINOVER, order_lohead(st)),
                                   alg_max(g, first, busy)),
                        over_branches(w, ALG_MINOVER, tail));
  return over_stage_loop(c, st, lo);
}

/* Rule (two stages in a row, the second's last rounds; lower bound): with s1, s2, q, m1, m2 as in
** pair_lower, any r in 1 .. q: G's requests that end at s1 at rank r or later, q - r + 1 of them,
** all end there no earlier than min head1 + ceil(r / m1) min t1 (pair_lower's argument), reach s2
** after the least time in between, and its m2 servers serve them in ceil((q - r + 1) / m2) rounds
** of at least min t2; the branch served last runs its tail. r0 = q - m2 (ceil(q / m2) - 1), the
** largest r that leaves s2 all its ceil(q / m2) rounds (1 <= r0 <= m2):
**   T >= min head1 + ceil(r0 / m1) min t1 + min between + ceil(q / m2) min t2 + min tail2
** M items through fe (2 us) and a stage of 2 servers (12 us, 4 us after fe), 7 us after it, M = 4:
** the second item leaves fe at 4 us and both last rounds follow it: 4 + 4 + 24 + 7 = 39 us, the
** simulated time (pair_lower's R = 1 last item: 31 us; the second stage alone from 6 us: 37). */
static AlgExpr *pair_last_rounds(OWalk *w, const OStage *s1, const OStage *s2, AlgExpr *q, AlgExpr *between,
                                 AlgExpr *tail) {
  RCtx *c = w->c;
  AlgCtx *g = c->alg;
  AlgExpr *one = alg_num_int(g, 1);
  AlgExpr *m1 = reduce_mult(c, s1->res), *m2 = reduce_mult(c, s2->res);
  AlgExpr *rounds = alg_func(g, ALG_CEIL, alg_div(g, q, m2));
  AlgExpr *r0 = alg_sub(g, q, alg_mul(g, m2, alg_sub(g, rounds, one)));
  return alg_add_n(g, 5, (AlgExpr *[]){
    over_branches(w, ALG_MINOVER, order_lohead(s1)),
    alg_mul(g, alg_func(g, ALG_CEIL, alg_div(g, r0, m1)), over_branches(w, ALG_MINOVER, s1->t)),
    alg_max(g, zero(c), between), alg_mul(g, rounds, over_branches(w, ALG_MINOVER, s2->t)),
    over_branches(w, ALG_MINOVER, tail)});
}

static int own_alone(const OWalk *w, const OStage *st);
/* Rule (two stages in a row, order-aware lower bound): in a chain, single stages s1 before s2
** outside loops and conditions, on different resources, with s1 naming one member for all
** branches (then G, the branches at the member of s2 that branch a names, is a subset of s1's) or
** s1 and s2 naming members by the same dealt map (then G is the group at s1's member too). With
** q = |G| (n, or the exact count of the first member's branches), J = ceil(q / m1) and
** R = q - m1 (J - 1): the r-th of G's requests at s1 to end ends no earlier than the r-th of all
** of that member's, at least min head1 + ceil(r / m1) min t1 (a server that ended ceil(r / m1) of
** them served them one after another); so R of G's branches leave s1 no earlier than
** min head1 + J min t1, reach s2 after at least the least contention-free time in between, and
** its m2 servers serve those R requests in ceil(R / m2) rounds of at least min t2; the branch
** served last still runs its tail:
**   T >= min head1 + J min t1 + min between + ceil(R / m2) min t2 + min tail2
** (R = q when m1 >= q: the one-stage bound at s2). Ranks 4 to a node of 2 cores (10us), then
** the node's nic (2us): 10 + 10 + 2 * 2 = 24us, the simulated time (one stage at a time: 22). */
static AlgExpr *pair_lower(OWalk *w, const OStage *s1, const OStage *s2, AlgExpr *total) {
  RCtx *c = w->c;
  AlgCtx *g = c->alg;
  if (w->forks || s1->res == s2->res || s1->loops || s2->loops || s1->guard || s2->guard) return NULL;
  if (s1->kguard || s2->kguard) return NULL;   /* made by some branches only */
  if (!single_stage(w, s1) || !single_stage(w, s2)) return NULL;
  if (s1->held_end && s2 - w->stages < s1->held_end) return NULL;   /* s2 runs inside s1's hold */
  AlgExpr *q = w->n, *holds = alg_num_int(g, 1);
  ODealt d;
  if (s2->cls == USE_SHARD && (s1->cls == USE_STAGE || (s1->cls == USE_SHARD && s1->index == s2->index))) {
    if (!dealt_counts(w, s2->res, s2->index, &d) || !d.first) return NULL;
    q = d.first; holds = d.holds;
  } else if (s1->cls != USE_STAGE || s2->cls != USE_STAGE) return NULL;
  AlgExpr *one = alg_num_int(g, 1);
  AlgExpr *m1 = reduce_mult(c, s1->res), *m2 = reduce_mult(c, s2->res);
  AlgExpr *J = alg_func(g, ALG_CEIL, alg_div(g, q, m1));
  AlgExpr *R = alg_sub(g, q, alg_mul(g, m1, alg_sub(g, J, one)));
  AlgExpr *between = over_branches(w, ALG_MINOVER, alg_sub(g, alg_sub(g, s2->head, s1->head), s1->t));
  AlgExpr *lo = alg_add_n(g, 5, (AlgExpr *[]){
    over_branches(w, ALG_MINOVER, order_lohead(s1)), alg_mul(g, J, over_branches(w, ALG_MINOVER, s1->t)),
    alg_max(g, zero(c), between), alg_mul(g, alg_func(g, ALG_CEIL, alg_div(g, R, m2)), over_branches(w, ALG_MINOVER, s2->t)),
    over_branches(w, ALG_MINOVER, order_tail(w, s2, total))});
  AlgExpr *rounds = pair_last_rounds(w, s1, s2, q, between, order_tail(w, s2, total));
  if (rounds) lo = alg_max(g, lo, rounds);
  if (!alg_is_num(holds, 1)) lo = alg_cond(g, holds, lo, zero(c));
  return order_closed(c, alg_cond(g, alg_cmp(g, ALG_CMP_GE, q, one), lo, zero(c)));
}

/* e when it has a closed form throughout (no big operator left for alg_close to approximate),
** else NULL: a rule's extra term that would rest on a marked approximation is left out rather
** than noted as an approximation of the bound. */
AlgExpr *order_closed(RCtx *c, AlgExpr *e) {
  return alg_is_approx(alg_close(c->alg, e, ALG_DIR_LOWER)) ? NULL : e;
}

/* 1 when st names one member for all branches and all iterations (a plain resource or a member
** free of k and of the loops) inside one loop of the chain, outside pars of the body, and is its
** resource's only use in the chain, under no condition on the loop's index: that member gets
** n requests from it in every iteration. */
static int looped_stage(const OWalk *w, const OStage *st) {
  if (st->cls != USE_STAGE || st->kguard || st->loops != 1 || !st->loop || st->reps || !st->loop_free) return 0;
  if (st->guard && alg_contains(st->guard, st->loop)) return 0;   /* not met in every iteration */
  for (int i = 0; i < w->nstages; i++)
    if (&w->stages[i] != st && w->stages[i].res == st->res) return 0;
  return 1;
}

/* Rule (order-aware lower bound, a stage met in every iteration of a loop): st's member gets
** n requests in each of the S iterations of its loop j = a .. b (looped_stage), none before the
** least head (of the branches, at j = a: heads grow with j), so with t over the branches and
** the iterations,
**   T >= min head + max(ceil(n S / m) * min t, sum over k and j of t / m) + min tail
** (r FCFS, as for every stage): the busiest of the m servers serves ceil(n S / m) requests one
** after another, all of them together the sum at most m at a time, and the branch whose request
** ends last still runs its tail at that iteration, at least the least tail over the iterations.
** `par (w) repeat (2) { use(master, 1us); use(cpu[w], 20us) }` by 99 workers: 198 + 20 us, the
** simulated time (the rule per iteration: 99 + 20 + 21 us). */
/* The least of x over j = a .. b (a <= b): at an end when x is affine in j (its derivative free
** of j), which keeps the closed form where the range's emptiness is not decided; else the big
** operator. */
static AlgExpr *least_in_loop(RCtx *c, AlgSymbol *j, AlgExpr *a, AlgExpr *b, AlgExpr *x) {
  AlgCtx *g = c->alg;
  if (!alg_contains(x, j)) return x;
  AlgExpr *slope = alg_diff(g, x, j);
  if (slope && !alg_contains(slope, j) &&
      alg_is_num(alg_expand(g, alg_sub(g, x, alg_add(g, alg_subst(g, x, j, zero(c)), alg_mul(g, slope, alg_sym(g, j))))), 0))
    return alg_min(g, alg_subst(g, x, j, a), alg_subst(g, x, j, b));
  return alg_min_over(g, j, a, b, x);
}

static AlgExpr *looped_stage_lower(OWalk *w, const OStage *st, AlgExpr *total) {
  RCtx *c = w->c;
  AlgCtx *g = c->alg;
  AlgSymbol *j = st->loop;
  AlgExpr *a = st->loop_lo, *b = st->loop_hi;
  AlgExpr *m = reduce_mult(c, st->res);
  AlgExpr *iters = alg_max(g, zero(c), alg_add(g, alg_sub(g, b, a), alg_num_int(g, 1)));
  /* the least over the branches (the caller guards the bound by n >= 1: an x free of k is its
  ** own least), then over the iterations */
  AlgExpr *x[3] = {order_lohead(st), order_tail(w, st, total), st->t};
  for (int i = 0; i < 3; i++)
    x[i] = least_in_loop(c, j, a, b, by_branch(w, x[i]) ? over_branches(w, ALG_MINOVER, x[i]) : x[i]);
  AlgExpr *head = x[0], *tail = x[1], *t_min = x[2];
  AlgExpr *busy = alg_div(g, alg_sum(g, j, a, b, over_branches(w, ALG_SUM, st->t)), m);
  AlgExpr *first = alg_mul(g, alg_func(g, ALG_CEIL, alg_div(g, alg_mul(g, w->n, iters), m)), t_min);
  AlgExpr *lo = alg_add(g, alg_add(g, head, alg_max(g, first, busy)), tail);
  if (st->guard) lo = alg_cond(g, st->guard, lo, zero(c));
  return order_closed(c, alg_cond(g, alg_cmp(g, ALG_CMP_GE, iters, alg_num_int(g, 1)), lo, zero(c)));
}


/* Rule (a member map one-to-one at each step): a USE_SHARD stage dealt round robin, index
** (a k + c) % K + rest with c and rest free of k (they may name the chain's loops), sends the n
** branches of one step (the loops' indices fixed) at most ceil(n / K') to one member (K' = K /
** gcd(a, K), shard_modulus). Where ceil(n / K') <= m (m the servers of a member; K' >= n for
** m = 1: `bucket[(t + k) % B]` with T <= B), each member gets at most m requests at each step,
** as a USE_OWN use gets at most one: the lockstep's argument holds for the stage. Returns that
** condition (with the modulus's own test, shard_holds), or NULL for another shard (blocks,
** exceptions, pairs: their counts are not read per step here). */
static AlgExpr *dealt_spread(const OWalk *w, const OStage *st) {
  AlgCtx *g = w->c->alg;
  AlgExpr *K0 = NULL, *K = st->index ? shard_modulus(w, st->index, &K0) : NULL;
  if (!K) return NULL;
  AlgExpr *most = alg_func(g, ALG_CEIL, alg_div(g, w->n, K));
  AlgExpr *room = alg_cmp(g, ALG_CMP_LE, most, reduce_mult(w->c, st->res));
  AlgExpr *holds = shard_holds(w, K0);
  return alg_is_num(holds, 1) ? room : alg_and(g, holds, room);
}

/* Rule (lockstep): every duration free of k, every use USE_FREE or USE_OWN (or a USE_SHARD
** whose members take at most m requests at each step, dealt_spread, lasting > 0; in a chain with
** plain holds, a USE_STAGE where n <= m: a server for each branch), and each OWN use
** either lasts > 0 or is on a member that branch k alone ever uses. All branches start together
** and run the same steps for the same times; at each step their requests go to distinct members
** (or to a resource with a server each), so none waits: U = phi. (A use of 0 s does not
** separate two steps in time: at one instant the simulator runs branch 0's steps of 0 s before
** branch 1 starts, so the next step of branch 0 could meet branch 1's current one.)
** Returns the condition under which U = phi holds (1 when proved for every admissible value,
** else `least > 0 and ...` for the formula to decide at each point), or NULL. */
static AlgExpr *lockstep(const OWalk *w) {
  AlgCtx *g = w->c->alg;
  if (w->vary || w->other || w->forks || w->guarded) return NULL;
  AlgExpr *cond = alg_num_int(g, 1);
  for (int i = 0; i < w->nstages; i++) {
    const OStage *st = &w->stages[i];
    if (st->cls == USE_STAGE && w->holds) {   /* a server for each branch: n <= m, none waits */
      cond = alg_and(g, cond, alg_cmp(g, ALG_CMP_LE, w->n, reduce_mult(w->c, st->res)));
      continue;
    }
    AlgExpr *spread = st->cls == USE_SHARD ? dealt_spread(w, st) : NULL;
    if (st->cls != USE_OWN && !spread) return NULL;
    if (spread) cond = alg_and(g, cond, spread);
    if ((!spread && own_alone(w, st)) || alg_bounds(g, st->least).lo > 0) continue;
    cond = alg_and(g, cond, alg_cmp(g, ALG_CMP_GT, st->least, zero(w->c)));
  }
  return cond;
}

/* Rule (tandem line): every use USE_FREE, USE_OWN that branch k alone ever uses, or a stage that
** is its resource's only use; the stages form a line the branches pass in the same order.
** With D(k) the contention-free time of branch k summed step by step as the max over k, and
** t_max the longest stage request: U = D + (n - 1) t_max; with one stage outside loops,
** U = D + (ceil(n / m) - 1) t_max, and for a shard (members dealt round robin or in blocks, at
** most q = d.most branches naming one member) U = D + (ceil(q / m) - 1) t_max where the counts
** hold (*holds); and at most D + (sum_k t(k) - t_max) / m, the work of the stage's member
** (at most all of the stage's) shared by its servers. With several stages, each step of the
** lattice path within stage s takes m_s requests (its m_s servers): U = D + (n - 1) max_s t_s / m_s.
** Argument: in docs/reduction.md. */
static AlgExpr *tandem_upper(OWalk *w, AlgExpr *stepmax, AlgExpr **holds) {
  RCtx *c = w->c;
  AlgCtx *g = c->alg;
  *holds = alg_num_int(g, 1);
  if (w->other || (w->forks && !skip_forks_keep_order(w))) return NULL;   /* reduce_skip.c */
  AlgExpr *t_max = NULL, *per_server = NULL;
  int stages = 0;
  const OStage *one = NULL;
  for (int i = 0; i < w->nstages; i++) {
    const OStage *st = &w->stages[i];
    if (st->cls == USE_OWN) { if (!own_alone(w, st)) return NULL; continue; }
    if (!single_stage(w, st)) return NULL;
    AlgExpr *t = over_branches(w, ALG_MAXOVER, st->t);
    if (st->loop) t = alg_max_over(g, st->loop, st->loop_lo, st->loop_hi, t);
    t_max = t_max ? alg_max(g, t_max, t) : t;
    AlgExpr *share = alg_div(g, t, reduce_mult(c, st->res));
    per_server = per_server ? alg_max(g, per_server, share) : share;
    stages++;
    one = st;
  }
  if (stages == 0) return stepmax;
  AlgExpr *waits = alg_sub(g, w->n, alg_num_int(g, 1));
  if (stages == 1 && !one->loop) {
    AlgExpr *q = w->n;
    ODealt d;
    if (one->cls == USE_SHARD && dealt_counts(w, one->res, one->index, &d)) {
      q = d.most;   /* requests at its busiest member */
      *holds = d.holds;
    }
    AlgExpr *m = reduce_mult(c, one->res);
    waits = alg_sub(g, alg_func(g, ALG_CEIL, alg_div(g, q, m)), alg_num_int(g, 1));
    AlgExpr *queue = alg_mul(g, alg_max(g, zero(c), waits), t_max);
    AlgExpr *work = alg_div(g, alg_sub(g, over_branches(w, ALG_SUM, one->t), t_max), m);
    if (!alg_is_approx(alg_close(g, work, ALG_DIR_UPPER)))   /* a closed form, not a marked one */
      queue = alg_min(g, queue, alg_max(g, zero(c), work));
    return alg_add(g, stepmax, queue);
  }
  AlgExpr *queue = alg_mul(g, alg_max(g, zero(c), waits), per_server);
  AlgExpr *skips = w->guarded || w->vary ? skip_tandem_upper(w) : NULL;   /* items that skip stages, slow items */
  return alg_add(g, stepmax, skips ? alg_min(g, queue, skips) : queue);
}

/* Rule (no queue at a member dealt to few branches): in a chain (no `||` or par inside: a branch
** holds at most one server at a time), a family r whose every use names the same dealt member
** map, free of the chain's loops, with at most m_r branches naming any one member (d.most <= m_r
** for every admissible value): at most m_r requests are ever present at a member, none waits.
** Its uses act as delays (as USE_FREE): their stages are dropped. `node[floor(p / 4)]` with
** node = fcfs(4): 4 ranks per node, a core each. */
static void dealt_free(OWalk *w) {
  AlgCtx *g = w->c->alg;
  if (w->forks || w->too_many || w->kif) return;
  for (int i = 0; i < w->nstages; i++) {
    const OStage *st = &w->stages[i];
    ODealt d;
    if (st->cls != USE_SHARD || !st->loop_free || !dealt_counts(w, st->res, st->index, &d)) continue;
    if (!alg_is_num(d.holds, 1) || !alg_is_nonneg(g, alg_sub(g, reduce_mult(w->c, st->res), d.most))) continue;
    int same = 1;
    for (int j = 0; j < w->nsites && same; j++)
      if (w->sites[j].res == st->res) same = w->sites[j].index == st->index && w->sites[j].loop_free;
    if (!same) continue;
    const Decl *res = st->res;
    int kept = 0;
    for (int j = 0; j < w->nstages; j++)
      if (w->stages[j].res != res) w->stages[kept++] = w->stages[j];
    w->nstages = kept;
    i = -1;   /* the list moved: look again from the start */
  }
}

/* Rule (nested pars read as the digits of one index): par (x2 = a2, b2) par (x3 = a3, b3) ..
** par (xd = ad, bd) S, each range free of k and of the indices outside it, N3 .. Nd (Nl = bl -
** al + 1) integers >= 1 proved, runs one branch per tuple (x2, .., xd), all at once: the same
** branches as one par over m = 0 .. max(0, N2) N3 .. Nd - 1 with xd = ad + m % Nd and, for
** r = (m - m % Nd) / Nd (the floor of m / Nd), x(d-1) = a(d-1) + r % N(d-1), and so on up to
** x2 = a2 + (the rest): m read in mixed radix, one tuple per m and one m per tuple. So
** `par (i) par (j) par (k) S` is the pairs (i, m), m = j Q + k, which the pair rules read.
** par is the par (x2) statement, a2 and b2 its ends; on success w->k2 is m (its range and w->n
** set, w->nfold = d - 1, w->fold_n the counts) and digits[] the values of x2 .. xd, and the
** returned statement is S. NULL when its body is no par to read so (at most ORDER_MAX_FOLD
** levels are read; a deeper par stays inside S). */
static const Stmt *fold_pars(OWalk *w, REnv *env, const Stmt *par, AlgExpr *a2, AlgExpr *b2,
                             AlgExpr **digits) {
  RCtx *c = w->c;
  AlgCtx *g = c->alg;
  AlgExpr *a[ORDER_MAX_FOLD], *N[ORDER_MAX_FOLD], *one = alg_num_int(g, 1);
  AlgSymbol *x[ORDER_MAX_FOLD];
  const Stmt *s = reduce_unblocked(par->u.loop.body);
  int d = 1, base = env->depth;
  a[0] = a2; N[0] = alg_add(g, alg_sub(g, b2, a2), one);
  x[0] = alg_index_new(g, par->u.loop.var.name, a2, b2);
  env->idx[env->depth++] = alg_sym(g, x[0]);
  while (d < ORDER_MAX_FOLD && s->kind == ST_PAR && env->depth < EVAL_MAX_INDICES) {
    AlgExpr *lo = reduce_expr(c, env, s->u.loop.lo), *hi = reduce_expr(c, env, s->u.loop.hi);
    int free = !alg_contains(lo, w->k) && !alg_contains(hi, w->k);
    for (int l = 0; l < d && free; l++) free = !alg_contains(lo, x[l]) && !alg_contains(hi, x[l]);
    AlgExpr *count = alg_add(g, alg_sub(g, hi, lo), one);
    if (!free || !positive_integer(c, count)) break;
    a[d] = lo; N[d] = count;
    x[d] = alg_index_new(g, s->u.loop.var.name, lo, hi);
    env->idx[env->depth++] = alg_sym(g, x[d]);
    d++;
    s = reduce_unblocked(s->u.loop.body);
  }
  env->depth = base;
  if (d == 1 || base + d > EVAL_MAX_INDICES) return NULL;
  AlgExpr *M = alg_max(g, zero(c), N[0]);
  for (int l = 1; l < d; l++) M = alg_mul(g, M, N[l]);
  AlgSymbol *m = alg_index_new(g, par->u.loop.var.name, zero(c), alg_sub(g, M, one));
  AlgExpr *r = alg_sym(g, m);
  for (int l = d - 1; l >= 1; l--) {
    AlgExpr *low = alg_mod(g, r, N[l]);
    digits[l] = alg_add(g, a[l], low);
    r = alg_div(g, alg_sub(g, r, low), N[l]);
  }
  digits[0] = alg_add(g, a[0], r);
  w->k2 = m; w->k2a = zero(c); w->k2b = alg_sub(g, M, one);
  w->nfold = d;
  for (int l = 0; l < d; l++) w->fold_n[l] = N[l];
  w->n = alg_mul(g, alg_max(g, zero(c), w->n), M);
  return s;
}

/* The body of par (k = a, b) S(k) over piece p walked by w (k, its range and n set): the branch
** index bound as the next index of env, an `if` on k without else read as the subset of branches
** that run its body, a body `par (k2)` read as one par over the pairs. */
static OTime walk_body(OWalk *w, REnv *env, const RPiece *p) {
  RCtx *c = w->c;
  AlgCtx *g = c->alg;
  OTime none = {zero(c), zero(c), NULL};
  int checks = c->checks.count;   /* the walk re-reads expressions: their checks are made */
  env->idx[env->depth++] = p->value;
  const Stmt *chain = reduce_unblocked(p->stmt);
  if (chain->kind == ST_IF && (!chain->u.branch.otherwise || chain->u.branch.otherwise->kind == ST_SKIP) &&
      alg_contains(reduce_expr(c, env, chain->u.branch.cond), w->k)) {
    /* par (k) if (cond(k)) S: the branches where cond holds run S together, the others nothing */
    w->subset = 1;
    chain = chain->u.branch.then;
  }
  int pushed = 1;
  if (!w->subset && chain->kind == ST_PAR && env->depth < EVAL_MAX_INDICES) {
    /* par (k) par (k2) S: one par over the pairs, when k2's range does not depend on k */
    AlgExpr *a2 = reduce_expr(c, env, chain->u.loop.lo), *b2 = reduce_expr(c, env, chain->u.loop.hi);
    if (alg_contains(a2, w->k) || alg_contains(b2, w->k)) {
      env->depth--;
      c->checks.count = checks;
      w->ok = 0;
      return none;
    }
    AlgExpr *digits[ORDER_MAX_FOLD];
    const Stmt *inner = fold_pars(w, env, chain, a2, b2, digits);
    if (inner) {   /* par (k) par (x2) .. par (xd) S: the pairs (k, k2), xl the digits of k2 */
      for (int l = 0; l < w->nfold; l++) env->idx[env->depth++] = digits[l];
      pushed = 1 + w->nfold;
      chain = inner;
    } else {
      w->k2 = alg_index_new(g, chain->u.loop.var.name, a2, b2); w->k2a = a2; w->k2b = b2;
      reduce_loop_ends(c, w->k2, a2, b2);   /* the inner par's ends, checked (reduce_ends.c) */
      AlgExpr *n2 = alg_add(g, alg_sub(g, b2, a2), alg_num_int(g, 1));
      w->n = alg_mul(g, alg_max(g, zero(c), w->n), alg_max(g, zero(c), n2));
      env->idx[env->depth++] = alg_sym(g, w->k2);
      pushed = 2;
      chain = chain->u.loop.body;
    }
  }
  OTime body = walk(w, env, chain);
  env->depth -= pushed;
  c->checks.count = checks;
  return body;
}

/* A walk of the body of piece p, nothing recorded yet. */
static OWalk *walk_new(RCtx *c, const RPiece *p) {
  AlgCtx *g = c->alg;
  OWalk *w = arena_alloc(&c->arena, sizeof *w);
  memset(w, 0, sizeof *w);
  w->c = c; w->k = p->index; w->ka = p->lo; w->kb = p->hi; w->ok = 1;
  w->n = alg_add(g, alg_sub(g, p->hi, p->lo), alg_num_int(g, 1));
  return w;
}

OWalk *order_walk_new(RCtx *c, const RPiece *p) { return walk_new(c, p); }

/* The contention-free time of branch k walked by w (its flags set), or NULL when the walk fails. */
AlgExpr *order_walk_time(OWalk *w, REnv *env, const RPiece *p) {
  OTime body = walk_body(w, env, p);
  return w->ok && !w->c->failed ? body.exact : NULL;
}

/* The body walked again with every use lengthened by the wait its site has now. */
static OWalk *walk_lengthened(OWalk *w, REnv *env, const RPiece *p) {
  OWalk *again = walk_new(w->c, p);
  again->sites = w->sites; again->nsites = w->nsites; again->lengthen = 1;
  OTime body = walk_body(again, env, p);
  if (!again->ok || w->c->failed || again->site_at != w->nsites) return NULL;
  again->total = body.exact;
  return again;
}

/* The body walked again with every use lengthened by the wait of its site (reduce_fork.c's
** bounded clients); its time for branch k in ->total. NULL when a resource of the body has a site
** the rule does not bound. */
static OWalk *lengthened(OWalk *w, REnv *env, const RPiece *p) {
  if (w->too_many || !fork_waits(w)) return NULL;
  return walk_lengthened(w, env, p);
}

OWalk *order_walk_lengthened(OWalk *w, REnv *env, const RPiece *p) { return walk_lengthened(w, env, p); }

/* Rule (bounded clients, a resource's waits capped by its demand; upper bound): the bounded
** clients' walk again (its waits set: again != NULL), with the sites of the resources that
** fork_cap_waits picks not lengthened, and their whole demand over their servers added once.
** NULL when it picks none. The waits of the sites are as they were on return. */
static AlgExpr *capped_upper(OWalk *w, const OWalk *again, REnv *env, const RPiece *p, const Summary *whole) {
  if (!again) return NULL;
  AlgExpr *waits[ORDER_MAX_SITES];
  for (int i = 0; i < w->nsites; i++) waits[i] = w->sites[i].wait;
  AlgExpr *extra = fork_cap_waits(w, whole);
  OWalk *capped = extra ? walk_lengthened(w, env, p) : NULL;
  for (int i = 0; i < w->nsites; i++) w->sites[i].wait = waits[i];
  if (!capped) return NULL;
  return alg_add(w->c->alg, over_branches(capped, ALG_MAXOVER, capped->total), extra);
}

/* Rule (bounded clients, upper bound): each branch takes at most its contention-free time with
** every use lengthened by the wait of its site, and the par the largest over the branches. */
static AlgExpr *clients_upper(const OWalk *again) {
  return again ? over_branches(again, ALG_MAXOVER, again->total) : NULL;
}

/* par (k = a, b) S(k) over one piece: tightens out->L and out->U by the rules above when S is a
** chain they cover, or a body with `||` inside that reduce_fork.c covers. env is the par's
** scope; p the piece (its value bound as the next index). noted: the families taken as one
** resource while this par was reduced (reduce_approx.c). Returns 1 when out->U no longer rests
** on any of them (the caller forgets their notes); else *exact is NULL or the condition where
** out->U is the par's contention-free time (the notes do not hold there). */
static int order_par(RCtx *c, REnv *env, const RPiece *p, Summary *out, AlgExpr **exact,
                     int *counted, AlgExpr **steps_at);

/* The rules of a par whose branches are the same chain (order_par). The notes of members counted
** for all branches (reduce_fork.c, member_branches) made on the way stay pending only where U
** took the bounded clients' bound (counted), and not where U is the par's contention-free time
** (steps_at); the par flushes them (reduce.c). */
int reduce_order_par(RCtx *c, REnv *env, const RPiece *p, Summary *out, AlgExpr **exact) {
  AlgCtx *g = c->alg;
  int from = c->npending, counted = 0;
  AlgExpr *steps_at = NULL, *L0 = out->L, *U0 = out->U, *assumed = alg_num_int(g, 1);
  AlgExpr **outer = c->order_assume;
  c->order_assume = &assumed;
  int r = order_par(c, env, p, out, exact, &counted, &steps_at);
  c->order_assume = outer;
  if (!alg_is_num(assumed, 1)) {   /* the rules assumed a condition (assumed_base): theirs where it holds */
    out->L = alg_cond(g, assumed, out->L, L0);
    out->U = alg_cond(g, assumed, out->U, U0);
    *exact = r ? assumed : *exact ? alg_and(g, assumed, *exact) : NULL;
    AlgExpr *off = alg_not(g, assumed);
    steps_at = steps_at ? alg_or(g, steps_at, off) : off;
    r = 0;
  }
  reduce_note_pending_keep(c, from, counted, steps_at);
  return r;
}

static int order_par(RCtx *c, REnv *env, const RPiece *p, Summary *out, AlgExpr **exact,
                     int *counted, AlgExpr **steps_at) {
  AlgCtx *g = c->alg;
  *exact = NULL;
  if (env->depth >= EVAL_MAX_INDICES) return 0;
  OWalk *w = walk_new(c, p);
  OTime body = walk_body(w, env, p);

  if (!w->ok || c->failed || (w->holds && w->forks)) return 0;
  dealt_free(w);
  AlgExpr *some = alg_cmp(g, ALG_CMP_GE, w->n, alg_num_int(g, 1));   /* the par runs a branch */
  AlgExpr *lower = NULL;
  for (int i = 0; i < w->nstages && !w->subset; i++) {
    const OStage *st = &w->stages[i];
    AlgExpr *lo = st->kguard ? guarded_stage_lower(w, st, order_tail(w, st, body.exact))
                : single_stage(w, st) || order_reused_stage(w, st) || looped_shard(st) ? stage_lower(w, st, body.exact)
                : looped_stage(w, st) ? looped_stage_lower(w, st, body.exact)
                : st->kloop ? order_counted_lower(w, st, body.exact) : NULL;
    AlgExpr *fcfs = order_fcfs_lower(w, st, body.exact);   /* reduce_stage.c */
    if (fcfs) lo = lo ? alg_max(g, lo, fcfs) : fcfs;
    AlgExpr *second = order_second_round_lower(w, st, body.exact);   /* reduce_stage.c */
    if (second) lo = lo ? alg_max(g, lo, second) : second;
    AlgExpr *late = single_stage(w, st) || order_reused_stage(w, st) ? release_stage_lower(w, st, body.exact) : NULL;
    if (late) lo = lo ? alg_max(g, lo, late) : late;   /* reduce_release.c */
    AlgExpr *run = release_run_lower(w, st, body.exact);
    if (run) lo = lo ? alg_max(g, lo, run) : run;
    AlgExpr *line = single_stage(w, st) ? order_line_lower(w, st, body.exact) : NULL;   /* reduce_line.c */
    if (line) lo = lo ? alg_max(g, lo, line) : line;
    AlgExpr *ordered = order_inorder_lower(w, st, body.exact);   /* reduce_inorder.c */
    if (ordered) lo = lo ? alg_max(g, lo, ordered) : ordered;
    AlgExpr *classed = order_class_inorder_lower(w, st, body.exact);   /* reduce_inorder.c */
    if (classed) lo = lo ? alg_max(g, lo, classed) : classed;
    AlgExpr *wait = order_wait_lower(w, st, body.exact);   /* reduce_wait.c */
    if (wait) lo = lo ? alg_max(g, lo, wait) : wait;
    AlgExpr *twice = order_twice_lower(w, st, body.exact);   /* reduce_twice.c */
    if (twice) lo = lo ? alg_max(g, lo, twice) : twice;
    if (!lo) continue;
    lower = lower ? alg_max(g, lower, lo) : lo;
  }
  for (int i = 0; i < w->nstages && !w->subset; i++)
    for (int j = i + 1; j < w->nstages; j++) {
      AlgExpr *lo = pair_lower(w, &w->stages[i], &w->stages[j], body.exact);
      if (lo) lower = lower ? alg_max(g, lower, lo) : lo;
    }
  AlgExpr *sites = w->subset || w->holds ? NULL : fork_lower(w, body.exact);
  if (sites) lower = lower ? alg_max(g, lower, sites) : sites;
  AlgExpr *grid = w->subset ? NULL : order_grid_lower(w, body.exact);   /* reduce_grid.c */
  if (grid) lower = lower ? alg_max(g, lower, grid) : grid;
  /* the lengthened walk serves the drift rule and the bounded clients (walked once, when needed) */
  int drifts = !w->subset && w->forks && w->outer_loops == 1 && c->concurrent == 0;
  OWalk *again = drifts ? lengthened(w, env, p) : NULL;
  AlgExpr *drift = again ? drift_lower(w, again, body.exact) : NULL;
  if (drift) lower = lower ? alg_max(g, lower, drift) : drift;
  if (lower) out->L = alg_max(g, out->L, alg_cond(g, some, lower, zero(c)));
  if (w->holds) {   /* walk_hold: no upper-bound rule but the line through a held resource */
    AlgExpr *piped = NULL;   /* where the buffer's bound holds */
    AlgExpr *buffer = order_hold_line_upper(w, body.exact, &piped);   /* reduce_holdline.c */
    AlgExpr *smaller = NULL;   /* where the buffer's bound is below the families': U rests on none */
    if (buffer) {
      AlgExpr *mine = alg_cond(g, some, buffer, zero(c)), *least = alg_min(g, out->U, mine);
      smaller = alg_cmp(g, ALG_CMP_LT, mine, out->U);
      if (!alg_is_num(piped, 1)) smaller = alg_and(g, piped, smaller);
      out->U = alg_is_num(piped, 1) ? least : alg_cond(g, piped, least, out->U);
      if (!w->call_forks) *exact = smaller;
    }
    /* Rule (plain holds in lock step): when every hold is plain (walk_hold), the lockstep with
    ** the delays before them > 0: every request on a held resource arrives strictly after every
    ** earlier release there (that delay ran in between), at a member with a server free for it,
    ** so none waits and no hand-off is paid (LANGUAGE.md §8: only a waiting request is handed
    ** a server): U = the par's contention-free time without hand-offs (docs/reduction.md) */
    AlgExpr *plain = w->rich_holds ? NULL : lockstep(w);
    if (plain && w->apart) plain = alg_and(g, plain, w->apart);
    if (!plain) return 0;
    AlgExpr *phi = alg_cond(g, some, order_over_branches(w, ALG_MAXOVER, body.exact), zero(c));
    if (alg_is_num(plain, 1)) { out->U = phi; return 1; }
    out->U = alg_cond(g, plain, phi, out->U);
    *steps_at = plain;
    if (!w->call_forks) *exact = smaller ? alg_or(g, plain, smaller) : plain;
    return 0;
  }
  /* U >= phi always, and both forms below are 0 for an empty range (max over none, n - 1 < 0) */
  /* reduce_ps_order.c: branches in lock step on ps resources, the par's time exactly */
  AlgExpr *apart = NULL;   /* where the ps lock step holds (reduce_a2a.c) */
  AlgExpr *shared = ps_lockstep(w, env, p, &apart);
  if (shared) {
    AlgExpr *lo = alg_cond(g, some, order_over_branches(w, ALG_MINOVER, shared), zero(c));
    AlgExpr *hi = alg_cond(g, some, order_over_branches(w, ALG_MAXOVER, shared), zero(c));
    int sure = alg_is_num(apart, 1);
    if (c->concurrent == 0) out->L = alg_max(g, out->L, sure ? lo : alg_cond(g, apart, lo, zero(c)));
    out->U = sure ? hi : alg_cond(g, apart, hi, out->U);
    if (!w->call_forks) *exact = apart;
    return sure;
  }
  AlgExpr *holds;   /* where the tandem line's bound holds (shards: the dealt counts) */
  AlgExpr *tandem = tandem_upper(w, body.stepmax, &holds);
  AlgExpr *positive = NULL;   /* reduce_line.c: a proportionate line, where its durations are > 0 */
  AlgExpr *line = w->nstages == 1 && single_stage(w, &w->stages[0])
                ? order_line_upper(w, &w->stages[0], body.exact, &positive) : NULL;
  if (line) tandem = tandem ? alg_cond(g, positive, alg_min(g, tandem, line), tandem)
                            : alg_cond(g, positive, line, out->U);
  AlgExpr *upper = tandem && !alg_is_num(holds, 1) ? alg_cond(g, holds, tandem, out->U) : tandem;
  AlgExpr *cycle;   /* where the bound of rounds through stages holds (durations > 0) */
  AlgExpr *rounds = order_rounds_upper(w, body.exact, &cycle);   /* reduce_rounds.c */
  if (rounds) {
    AlgExpr *alone = alg_is_num(cycle, 1) ? rounds : alg_cond(g, cycle, rounds, out->U);
    upper = upper ? alg_min(g, upper, alone) : alone;
  }
  AlgExpr *drain = order_drain_upper(w, body.exact);   /* reduce_drain.c: stages drained in turn */
  if (drain) upper = upper ? alg_min(g, upper, drain) : drain;
  AlgExpr *steps = lockstep(w);
  if (!steps) steps = a2a_fork_lockstep(w);   /* reduce_a2a.c: the lock step through `||` */
  if (steps && alg_is_num(steps, 1)) { out->U = out->phi_hi; return 1; }
  AlgExpr *shift_ok;   /* where the shifted rounds' bound holds (durations > 0) */
  AlgExpr *shift = order_shift_upper(w, body.exact, &shift_ok);   /* reduce_shift.c */
  if (!drifts) again = lengthened(w, env, p);
  AlgExpr *clients = clients_upper(again);
  AlgExpr *capped = capped_upper(w, again, env, p, out);
  if (clients && capped) clients = alg_min(g, clients, capped);
  AlgExpr *budget = again ? budget_upper(w, env, p) : NULL;   /* reduce_budget.c */
  if (clients && budget) clients = alg_min(g, clients, budget);
  if (clients && tandem)
    clients = alg_min(g, clients, alg_is_num(holds, 1) ? tandem : alg_cond(g, holds, tandem, clients));
  if (clients && rounds)
    clients = alg_min(g, clients, alg_is_num(cycle, 1) ? rounds : alg_cond(g, cycle, rounds, clients));
  if (clients && drain) clients = alg_min(g, clients, drain);
  AlgExpr *own = clients ? clients : upper;   /* the rules' bound, beside the families' */
  if (shift) {   /* the shifted rounds' (reduce_shift.c), where its durations are > 0 */
    AlgExpr *mine = alg_is_num(shift_ok, 1) ? shift : alg_cond(g, shift_ok, shift, own ? own : out->U);
    own = own ? alg_min(g, own, mine) : mine;
  }
  /* Both bounds hold, so U is the smaller. The bounded-clients bound used to replace out->U where
  ** out->U took a family as one resource (noted), which dropped the note but lost the family's
  ** bound where it was the tighter: every branch using one member three times, `core[0]`, 9 N t
  ** against the member's demand 3 N t, exact. Where the rules' bound is the smaller, U rests on
  ** no family (strictly smaller: a rule's bound that falls back to out->U under a condition is
  ** equal to it there), and predict drops the family notes at those points. */
  AlgExpr *fallback = own ? alg_min(g, out->U, own) : out->U;
  AlgExpr *smaller = own ? alg_cmp(g, ALG_CMP_LT, own, out->U) : NULL;
  if (steps) out->U = alg_cond(g, steps, out->phi_hi, fallback);
  else out->U = fallback;
  *counted = clients != NULL;
  *steps_at = steps;
  if (!w->call_forks) *exact = steps && smaller ? alg_or(g, steps, smaller) : steps ? steps : smaller;
  return 0;
}
