/*
** sums.c — big operators over an index: closed forms of sums (Faulhaber's formulas with exact
** Bernoulli numbers, constant summands, geometric series), of products of constants, and of
** max/min where the body is monotone in the index (or convex for max, concave for min) or
** periodic in it (remainders of the index by small numbers);
** guards for empty ranges; the safe-direction approximations of alg_close where nothing closed
** applies (REDUCTION.md "Closed forms").
*/
#include "expr_impl.h"

#include <math.h>
#include <stdlib.h>

/* ---- helpers ---- */

static AlgExpr *num(AlgCtx *ctx, long v) { return alg_num_int(ctx, v); }

/* upper - lower + 1 */
static AlgExpr *count_of(AlgCtx *ctx, AlgExpr *lower, AlgExpr *upper) {
  return alg_add(ctx, alg_sub(ctx, upper, lower), num(ctx, 1));
}

/* F where the range is not empty, neutral where it is: `upper >= lower ? F : neutral`, or F
   alone when the assumptions rule empty ranges out (REDUCTION.md "Ranges can be empty"). */
static AlgExpr *guard(AlgCtx *ctx, AlgExpr *lower, AlgExpr *upper, AlgExpr *closed, AlgExpr *neutral) {
  if (alg_is_nonneg(ctx, alg_sub(ctx, upper, lower))) return closed;
  return alg_cond(ctx, alg_cmp(ctx, ALG_CMP_GE, upper, lower), closed, neutral);
}

/* Same as guard, for forms that are already 0 at upper = lower - 1 (sums): no guard needed when
   upper >= lower - 1 always. */
static AlgExpr *guard_sum(AlgCtx *ctx, AlgExpr *lower, AlgExpr *upper, AlgExpr *closed) {
  if (alg_is_nonneg(ctx, count_of(ctx, lower, upper))) return closed;
  return alg_cond(ctx, alg_cmp(ctx, ALG_CMP_GE, upper, lower), closed, num(ctx, 0));
}

/* ---- Faulhaber ---- */

/* Bernoulli numbers B_0 .. B_n with B_1 = +1/2 (the convention of sum_{k=1}^{x} k^p). */
static void bernoulli(mpq_t *b, size_t n) {
  mpz_t binom;
  mpq_t term;
  mpz_init(binom);
  mpq_init(term);
  mpq_set_ui(b[0], 1, 1);
  for (size_t m = 1; m <= n; m++) {   /* B_m = -1/(m+1) sum_{k<m} C(m+1, k) B_k */
    mpq_set_ui(b[m], 0, 1);
    for (size_t k = 0; k < m; k++) {
      mpz_bin_uiui(binom, m + 1, k);
      mpq_set_z(term, binom);
      mpq_mul(term, term, b[k]);
      mpq_add(b[m], b[m], term);
    }
    mpq_set_ui(term, 1, m + 1);
    mpq_mul(b[m], b[m], term);
    mpq_neg(b[m], b[m]);
  }
  if (n >= 1) mpq_neg(b[1], b[1]);
  mpz_clear(binom);
  mpq_clear(term);
}

/* S_p(x) = sum_{k=1}^{x} k^p = 1/(p+1) sum_{j=0}^{p} C(p+1, j) B_j x^(p+1-j) */
static AlgExpr *faulhaber(AlgCtx *ctx, size_t p, AlgExpr *x, mpq_t *b) {
  AlgExpr **terms = alg_scratch(ctx, p + 1);
  mpz_t binom;
  mpq_t c;
  mpz_init(binom);
  mpq_init(c);
  for (size_t j = 0; j <= p; j++) {
    mpz_bin_uiui(binom, p + 1, j);
    mpq_set_z(c, binom);
    mpq_mul(c, c, b[j]);
    mpz_mul_ui(mpq_denref(c), mpq_denref(c), p + 1);
    mpq_canonicalize(c);
    terms[j] = alg_mul(ctx, alg_num_q(ctx, c), alg_pow(ctx, x, num(ctx, (long)(p + 1 - j))));
  }
  mpz_clear(binom);
  mpq_clear(c);
  return alg_add_n(ctx, p + 1, terms);
}

/* sum_{i=lower}^{upper} of the polynomial with these coefficients, unguarded. */
static AlgExpr *sum_polynomial(AlgCtx *ctx, AlgExpr **coef, size_t degree, AlgExpr *lower,
                               AlgExpr *upper) {
  mpq_t b[ALG_POLY_MAX_DEGREE + 1];
  for (size_t k = 0; k <= degree; k++) mpq_init(b[k]);
  bernoulli(b, degree);
  AlgExpr *before = alg_sub(ctx, lower, num(ctx, 1));
  AlgExpr **terms = alg_scratch(ctx, degree + 1);
  for (size_t p = 0; p <= degree; p++) {
    AlgExpr *power_sum = alg_expand(ctx, alg_sub(ctx, faulhaber(ctx, p, upper, b),
                                                 faulhaber(ctx, p, before, b)));
    terms[p] = alg_mul(ctx, coef[p], power_sum);
  }
  for (size_t k = 0; k <= degree; k++) mpq_clear(b[k]);
  return alg_add_n(ctx, degree + 1, terms);
}

/* ---- geometric series ---- */

/* term = K * c^(p i + q) with K, c, p, q free of i: sum = K c^q sum r^i with r = c^p, where
   sum_{i=a}^{b} r^i = (r^(b+1) - r^a) / (r - 1), or b - a + 1 when r = 1. Unguarded. */
static AlgExpr *sum_geometric(AlgCtx *ctx, AlgSymbol *index, AlgExpr *lower, AlgExpr *upper,
                              AlgExpr *term) {
  size_t nfactors = term->kind == ALG_MUL ? term->nkids : 1;
  AlgExpr *power = NULL;
  AlgExpr **others = alg_scratch(ctx, nfactors);
  size_t nothers = 0;
  for (size_t k = 0; k < nfactors; k++) {
    AlgExpr *f = term->kind == ALG_MUL ? term->kids[k] : term;
    if (!alg_contains(f, index)) others[nothers++] = f;
    else if (!power && f->kind == ALG_POW && !alg_contains(f->kids[0], index)) power = f;
    else if (!power && f->kind == ALG_POW && f->kids[0]->kind == ALG_POW &&
             !alg_contains(f->kids[0]->kids[0], index) && f->kids[1]->kind == ALG_NUM &&
             alg_num_is_integer(f->kids[1]))   /* (b^g)^k = b^(g k) for an integer k: 1/2^(i+1) */
      power = f;
    else return NULL;
  }
  if (!power) return NULL;
  AlgExpr *base = power->kids[0], *exponent = power->kids[1];
  if (alg_contains(base, index)) {
    exponent = alg_mul(ctx, base->kids[1], exponent);
    base = base->kids[0];
  }
  AlgExpr *coef[2];
  size_t degree;
  if (alg_poly_coeffs(ctx, exponent, index, 1, coef, &degree) || degree != 1) return NULL;
  AlgExpr *ratio = alg_pow(ctx, base, coef[1]);
  AlgExpr *scale = alg_mul(ctx, alg_mul_n(ctx, nothers, others), alg_pow(ctx, base, coef[0]));
  AlgExpr *series = alg_div(ctx, alg_sub(ctx, alg_pow(ctx, ratio, alg_add(ctx, upper, num(ctx, 1))),
                                         alg_pow(ctx, ratio, lower)),
                            alg_sub(ctx, ratio, num(ctx, 1)));
  AlgExpr *is_one = alg_cmp(ctx, ALG_CMP_EQ, ratio, num(ctx, 1));
  if (alg_is_num(is_one, 0)) return alg_mul(ctx, scale, series);
  return alg_mul(ctx, scale, alg_cond(ctx, is_one, count_of(ctx, lower, upper), series));
}

/* sum_{i=lower}^{upper} (i == c ? x : y) with c, x, y free of i and c, lower integer-valued:
   count * y + (lower <= c <= upper ? x - y : 0), the one term where i meets c; or NULL. */
static AlgExpr *sum_indicator(AlgCtx *ctx, AlgSymbol *index, AlgExpr *lower, AlgExpr *upper, AlgExpr *term) {
  if (term->kind != ALG_COND || term->kids[0]->kind != ALG_EQ) return NULL;
  AlgExpr *test = term->kids[0], *x = term->kids[1], *y = term->kids[2];
  AlgExpr *c = test->kids[0] == index->node ? test->kids[1] : test->kids[1] == index->node ? test->kids[0] : NULL;
  if (!c || alg_contains(c, index) || alg_contains(x, index) || alg_contains(y, index)) return NULL;
  if (!alg_is_integer_valued(c) || !alg_is_integer_valued(lower)) return NULL;
  AlgExpr *inside = alg_and(ctx, alg_cmp(ctx, ALG_CMP_LE, lower, c), alg_cmp(ctx, ALG_CMP_LE, c, upper));
  return alg_add(ctx, alg_mul(ctx, count_of(ctx, lower, upper), y),
                 alg_cond(ctx, inside, alg_sub(ctx, x, y), num(ctx, 0)));
}

/* The number of i in lower .. upper that pass test (d < 0 or d <= 0, d = s i + r as sum_threshold
   reads it, lower integer-valued), or NULL when test is no such comparison. */
static AlgExpr *threshold_count(AlgCtx *ctx, AlgSymbol *index, AlgExpr *lower, AlgExpr *upper, AlgExpr *test) {
  if (test->kind != ALG_LT && test->kind != ALG_LE) return NULL;
  if (!alg_is_integer_valued(lower)) return NULL;
  AlgExpr *d = alg_sub(ctx, test->kids[0], test->kids[1]);
  AlgExpr *slope = alg_diff(ctx, d, index);
  if (!slope || slope->kind != ALG_NUM) return NULL;
  int s = alg_is_num(slope, 1) ? 1 : alg_is_num(slope, -1) ? -1 : 0;
  if (s == 0) return NULL;
  AlgExpr *r = alg_expand(ctx, alg_sub(ctx, d, alg_mul(ctx, slope, index->node)));
  if (alg_contains(r, index)) return NULL;
  int strict = test->kind == ALG_LT;
  AlgExpr *t;
  if (s == 1) {
    AlgExpr *bound = alg_neg(ctx, r);
    AlgExpr *h = strict ? alg_sub(ctx, alg_func(ctx, ALG_CEIL, bound), num(ctx, 1)) : alg_func(ctx, ALG_FLOOR, bound);
    t = alg_sub(ctx, alg_min(ctx, upper, h), alg_sub(ctx, lower, num(ctx, 1)));
  } else {
    AlgExpr *l = strict ? alg_add(ctx, alg_func(ctx, ALG_FLOOR, r), num(ctx, 1)) : alg_func(ctx, ALG_CEIL, r);
    t = alg_sub(ctx, alg_add(ctx, upper, num(ctx, 1)), alg_max(ctx, lower, l));
  }
  return alg_max(ctx, num(ctx, 0), t);
}

/* sum_{i=lower}^{upper} (d < 0 ? x : y) or (d <= 0 ? x : y) with d = s i + r, s = 1 or -1 and
   r, x, y free of i, lower integer-valued: the i that satisfy the test are those of
   the range up to h (s = 1: h = ceil(-r) - 1 for <, floor(-r) for <=) or from l on (s = -1:
   l = floor(r) + 1 for <, ceil(r) for <=), so the sum is count * y + t * (x - y) with
   t = max(0, min(upper, h) - lower + 1) or max(0, upper - max(lower, l) + 1), the number of them
   (at most count when the range is not empty). Work dealt with remainders:
   sum over w of (w < N % P ? 1 : 0) = max(0, min(P - 1, ceil(N % P) - 1) + 1). NULL otherwise. */
static AlgExpr *sum_threshold(AlgCtx *ctx, AlgSymbol *index, AlgExpr *lower, AlgExpr *upper, AlgExpr *term) {
  if (term->kind != ALG_COND) return NULL;
  AlgExpr *x = term->kids[1], *y = term->kids[2];
  if (alg_contains(x, index) || alg_contains(y, index)) return NULL;
  AlgExpr *t = threshold_count(ctx, index, lower, upper, term->kids[0]);
  if (!t) return NULL;
  return alg_add(ctx, alg_mul(ctx, count_of(ctx, lower, upper), y), alg_mul(ctx, t, alg_sub(ctx, x, y)));
}

static AlgExpr *sum_term(AlgCtx *ctx, AlgSymbol *index, AlgExpr *lower, AlgExpr *upper, AlgExpr *term);

/* Depth of a summand inner_equality looks for a test in (deeper: not closed this way). */
#define SUMS_MAX_EQ_DEPTH 32
/* Comparisons of a summand that sum_inner_threshold tries (beyond: it gives up). */
#define ALG_MAX_INNER_TESTS 8

/* Collects into tests the comparisons (< or <=) inside e that contain index, at most
   ALG_MAX_INNER_TESTS, each once; returns how many. */
static size_t inner_tests(AlgExpr *e, AlgSymbol *index, AlgExpr **tests, size_t n) {
  if (n >= ALG_MAX_INNER_TESTS || !alg_contains(e, index)) return n;
  if (e->kind == ALG_LT || e->kind == ALG_LE) {
    for (size_t k = 0; k < n; k++) if (tests[k] == e) return n;
    tests[n++] = e;
  }
  if (e->kind >= ALG_SUM && e->kind <= ALG_MINOVER) return n;   /* binds an index of its own */
  for (size_t k = 0; k < e->nkids && n < ALG_MAX_INNER_TESTS; k++) n = inner_tests(e->kids[k], index, tests, n);
  return n;
}

/* sum_{i=lower}^{upper} f(test) where the index enters the summand only through one comparison
   test of the kind sum_threshold reads (i < c, i <= c, slope 1 or -1), wherever it sits
   (inside a max, a product, the test of another `?:`): at each i the summand is f(1) where the
   test holds and f(0) where it fails, both free of i, so the sum is sum_threshold's of
   (test ? f(1) : f(0)). A repeat over work dealt with remainders,
   sum over w of (1 <= floor(N / P) + (w < N % P ? 1 : 0) ? t (floor(N / P) + (w < N % P ? 1 : 0)) : 0),
   is t N where N >= 0. NULL otherwise. */
static AlgExpr *sum_inner_threshold(AlgCtx *ctx, AlgSymbol *index, AlgExpr *lower, AlgExpr *upper, AlgExpr *term) {
  AlgExpr *tests[ALG_MAX_INNER_TESTS];
  size_t n = inner_tests(term, index, tests, 0);
  for (size_t k = 0; k < n; k++) {
    AlgExpr *yes = alg_replace(ctx, term, tests[k], num(ctx, 1));
    AlgExpr *no = alg_replace(ctx, term, tests[k], num(ctx, 0));
    if (alg_contains(yes, index) || alg_contains(no, index)) continue;
    AlgExpr *sum = sum_threshold(ctx, index, lower, upper, alg_cond(ctx, tests[k], yes, no));
    if (sum) return sum;
  }
  return NULL;
}

/* Nodes node_in_bigop visits at most, and its depth (beyond: taken as found). */
#define SUMS_MAX_NODE_VISITS 4096
#define SUMS_MAX_NODE_DEPTH 64

/* 1 when node r occurs inside a big operator of e (inside: e is in one), or the walk passes
   SUMS_MAX_NODE_VISITS (*budget) or SUMS_MAX_NODE_DEPTH: replacing r there could change a
   term of that operator's own index (sum over i of f((i + 3) % 2) inside a max over i). */
static int node_in_bigop(const AlgExpr *e, const AlgExpr *r, int inside, int depth, long *budget) {
  if (--*budget < 0 || depth > SUMS_MAX_NODE_DEPTH) return 1;
  if (e == r) return inside;
  if (!inside && !(e->traits & ALG_TRAIT_BIGOP)) return 0;
  int bigop = e->kind >= ALG_SUM && e->kind <= ALG_MINOVER;
  for (size_t i = 0; i < e->nkids; i++)
    if (node_in_bigop(e->kids[i], r, inside || bigop, depth + 1, budget)) return 1;
  return 0;
}

/* e with node r replaced by v where r occurs outside every big operator of e only, else NULL. */
static AlgExpr *replace_outside(AlgCtx *ctx, AlgExpr *e, AlgExpr *r, AlgExpr *v) {
  long budget = SUMS_MAX_NODE_VISITS;
  return node_in_bigop(e, r, 0, 0, &budget) ? NULL : alg_replace(ctx, e, r, v);
}

/* Rule (the extremum over one comparison): the max (want_max) or min over a nonempty range of a
   body in which the index enters only through one comparison test of the kind threshold_count
   reads (i < c, i <= c, slope 1 or -1), wherever it sits: the body is f(1) at the t indices
   that pass the test and f(0) at the n - t others, both free of i, so the max is f(1) where
   t >= 1, f(0) where n - t >= 1, and the larger of the two where both. The largest block of
   work dealt with remainders, max over w of t (floor(N / P) + (w < N % P ? 1 : 0)), is
   t (floor(N / P) + 1) where N % P >= 1, t floor(N / P) where not (before: walked). NULL
   otherwise. */
static AlgExpr *extremum_threshold(AlgCtx *ctx, int want_max, AlgSymbol *index, AlgExpr *lower, AlgExpr *upper,
                                   AlgExpr *body) {
  AlgExpr *tests[ALG_MAX_INNER_TESTS], *one = num(ctx, 1);
  size_t n = inner_tests(body, index, tests, 0);
  for (size_t k = 0; k < n; k++) {
    AlgExpr *yes = replace_outside(ctx, body, tests[k], one);
    AlgExpr *no = yes ? alg_replace(ctx, body, tests[k], num(ctx, 0)) : NULL;
    if (!yes || alg_contains(yes, index) || alg_contains(no, index)) continue;
    AlgExpr *t = threshold_count(ctx, index, lower, upper, tests[k]);
    if (!t) continue;
    AlgExpr *pass = alg_cmp(ctx, ALG_CMP_GE, t, one);
    AlgExpr *fail = alg_cmp(ctx, ALG_CMP_GE, alg_sub(ctx, count_of(ctx, lower, upper), t), one);
    AlgExpr *both = want_max ? alg_max(ctx, yes, no) : alg_min(ctx, yes, no);
    return alg_cond(ctx, pass, alg_cond(ctx, fail, both, yes), no);
  }
  return NULL;
}

/* e with the test a == b replaced by v (0 or 1) wherever it sits, written either way round, and
   a != b by 1 - v. */
static AlgExpr *replace_equality(AlgCtx *ctx, AlgExpr *e, AlgExpr *a, AlgExpr *b, long v) {
  AlgExpr *forms[4] = {alg_cmp(ctx, ALG_CMP_EQ, a, b), alg_cmp(ctx, ALG_CMP_EQ, b, a),
                       alg_cmp(ctx, ALG_CMP_NE, a, b), alg_cmp(ctx, ALG_CMP_NE, b, a)};
  for (int f = 0; f < 4; f++)
    if (forms[f]->kind == ALG_EQ || forms[f]->kind == ALG_NE) e = alg_replace(ctx, e, forms[f], num(ctx, f < 2 ? v : 1 - v));
  return e;
}

/* 1 when a depth-limited search over a DAG has read e at this depth already (and records it):
   the searches below stop at their first find, so a node read again gives what it gave, nothing
   or the same, and each (node, depth) is read once: linear in the nodes times the depth limit
   (as trees, a chain of ifs each naming the one below twice took 2^depth steps). */
static int seen_at(AlgNodeMemo *seen, const AlgExpr *e, int depth) {
  size_t key = e->id * 128 + (size_t)depth;   /* depth < 128: every limit below */
  if (alg_node_memo_get(seen, key)) return 1;
  alg_node_memo_put(seen, key, (AlgExpr *)e);
  return 0;
}

/* The first test index == c or index != c (c free of index) inside e, or NULL. */
static AlgExpr *inner_equality(AlgNodeMemo *seen, AlgExpr *e, AlgSymbol *index, int depth) {
  if (depth >= SUMS_MAX_EQ_DEPTH || !alg_contains(e, index) || seen_at(seen, e, depth)) return NULL;
  if ((e->kind == ALG_EQ || e->kind == ALG_NE) &&
      ((e->kids[0] == index->node && !alg_contains(e->kids[1], index)) ||
       (e->kids[1] == index->node && !alg_contains(e->kids[0], index))))
    return e;
  if (e->kind >= ALG_SUM && e->kind <= ALG_MINOVER) return NULL;   /* binds an index of its own */
  for (size_t k = 0; k < e->nkids; k++) {
    AlgExpr *t = inner_equality(seen, e->kids[k], index, depth + 1);
    if (t) return t;
  }
  return NULL;
}

/* sum_{i=lower}^{upper} f(i == c) where the index enters the summand only through the tests
   i == c and i != c (either way round; wherever they sit: nested `?:` on the same test, a max):
   the summand is f(1) at i = c and f(0) elsewhere, so the sum is sum_indicator's of
   (i == c ? f(1) : f(0)). A stage that one item skips in a loop over the stages,
   sum over s of (s == 1 ? 0 : s == 1 ? 10 : 2), is 2 count + (lower <= 1 <= upper ? -2 : 0). NULL
   otherwise. */
static AlgExpr *sum_inner_equality(AlgCtx *ctx, AlgSymbol *index, AlgExpr *lower, AlgExpr *upper, AlgExpr *term) {
  AlgNodeMemo seen;
  alg_node_memo_init(&seen);
  AlgExpr *test = inner_equality(&seen, term, index, 0);
  alg_node_memo_free(&seen);
  if (!test) return NULL;
  AlgExpr *c = test->kids[0] == index->node ? test->kids[1] : test->kids[0];
  AlgExpr *yes = replace_equality(ctx, term, index->node, c, 1);
  AlgExpr *no = replace_equality(ctx, term, index->node, c, 0);
  if (alg_contains(yes, index) || alg_contains(no, index)) return NULL;
  return sum_indicator(ctx, index, lower, upper, alg_cond(ctx, alg_cmp(ctx, ALG_CMP_EQ, index->node, c), yes, no));
}

/* term read as factor * part with factor free of the index and part the one factor that names it
   (term itself, factor 1, when term is no product): part, with *factor set; NULL when no factor or
   more than one of a product names the index. */
static AlgExpr *index_part(AlgCtx *ctx, AlgExpr *term, AlgSymbol *index, AlgExpr **factor) {
  *factor = num(ctx, 1);
  if (term->kind != ALG_MUL) return term;
  AlgExpr *part = NULL, **others = alg_scratch(ctx, term->nkids);
  size_t n = 0;
  for (size_t k = 0; k < term->nkids; k++) {
    if (!alg_contains(term->kids[k], index)) others[n++] = term->kids[k];
    else if (!part) part = term->kids[k];
    else return NULL;
  }
  if (part) *factor = alg_mul_n(ctx, n, others);
  return part;
}

/* c * (a + b + ...) with c free of the index: c times the sums of the terms, each closed; or
   NULL (the canonical form keeps such products undistributed: (P/2^(i+1) + 1) / 8). */
static AlgExpr *sum_scaled(AlgCtx *ctx, AlgSymbol *index, AlgExpr *lower, AlgExpr *upper, AlgExpr *term) {
  AlgExpr *factor, *inner = term->kind == ALG_MUL ? index_part(ctx, term, index, &factor) : NULL;
  if (!inner || inner->kind != ALG_ADD) return NULL;
  AlgExpr **sums = alg_scratch(ctx, inner->nkids);
  for (size_t k = 0; k < inner->nkids; k++)
    if (!(sums[k] = sum_term(ctx, index, lower, upper, inner->kids[k]))) return NULL;
  return alg_mul(ctx, factor, alg_add_n(ctx, inner->nkids, sums));
}

/* sum_{i=lower}^{upper} c * max(f, g) (or min) with c free of the index, f and g polynomials in i
   and f - g = s i + r, s a nonzero integer and r free of i, lower integer-valued: f - g changes
   sign once, so the i where f >= g are a suffix of the range, from t = ceil(-r / s) on (s > 0),
   or a prefix, up to t = floor(-r / s) (s < 0); the max takes f there and g on the rest (the min
   the other way round; at f = g either), and the sum is c times the two polynomial sums over
   the two parts, each guarded where its part is empty. A par nested in a par whose inner range
   starts at max(0, 1 - r) (every rank but (0, 0)) counts sum over r = 0 .. Q - 1 of
   Q - max(0, 1 - r) = Q^2 - 1 branches. NULL otherwise. */
static AlgExpr *sum_two_sided(AlgCtx *ctx, AlgSymbol *index, AlgExpr *lower, AlgExpr *upper, AlgExpr *term) {
  AlgExpr *factor, *inner = index_part(ctx, term, index, &factor);
  if (!inner || (inner->kind != ALG_MAX && inner->kind != ALG_MIN) || inner->nkids != 2 ||
      !alg_is_integer_valued(lower))
    return NULL;
  AlgExpr *f = inner->kids[0], *g = inner->kids[1];
  AlgExpr *cf[ALG_POLY_MAX_DEGREE + 1], *cg[ALG_POLY_MAX_DEGREE + 1];
  size_t df, dg;
  if (alg_poly_coeffs(ctx, f, index, ALG_POLY_MAX_DEGREE, cf, &df) != 0 ||
      alg_poly_coeffs(ctx, g, index, ALG_POLY_MAX_DEGREE, cg, &dg) != 0) return NULL;
  AlgExpr *d = alg_sub(ctx, f, g), *slope = alg_diff(ctx, d, index);
  if (!slope || slope->kind != ALG_NUM || !alg_is_integer_valued(slope) || alg_is_num(slope, 0)) return NULL;
  AlgExpr *r = alg_expand(ctx, alg_sub(ctx, d, alg_mul(ctx, slope, index->node)));
  if (alg_contains(r, index)) return NULL;
  AlgExpr *one = num(ctx, 1), *cut = alg_div(ctx, alg_neg(ctx, r), slope);
  AlgExpr *a_lo, *a_hi, *b_lo, *b_hi;   /* a: where f >= g; b: the rest */
  if (alg_is_nonneg(ctx, slope)) {
    AlgExpr *t = alg_func(ctx, ALG_CEIL, cut);
    a_lo = alg_max(ctx, lower, t); a_hi = upper;
    b_lo = lower; b_hi = alg_min(ctx, upper, alg_sub(ctx, t, one));
  } else {
    AlgExpr *t = alg_func(ctx, ALG_FLOOR, cut);
    a_lo = lower; a_hi = alg_min(ctx, upper, t);
    b_lo = alg_max(ctx, lower, alg_add(ctx, t, one)); b_hi = upper;
  }
  int take_f = inner->kind == ALG_MAX;   /* on part a */
  AlgExpr *on_a = guard_sum(ctx, a_lo, a_hi, take_f ? sum_polynomial(ctx, cf, df, a_lo, a_hi)
                                                    : sum_polynomial(ctx, cg, dg, a_lo, a_hi));
  AlgExpr *on_b = guard_sum(ctx, b_lo, b_hi, take_f ? sum_polynomial(ctx, cg, dg, b_lo, b_hi)
                                                    : sum_polynomial(ctx, cf, df, b_lo, b_hi));
  return alg_mul(ctx, factor, alg_add(ctx, on_a, on_b));
}

/* sum over one term, unguarded, or NULL. */
static AlgExpr *sum_term(AlgCtx *ctx, AlgSymbol *index, AlgExpr *lower, AlgExpr *upper, AlgExpr *term) {
  AlgExpr *coef[ALG_POLY_MAX_DEGREE + 1];
  size_t degree;
  if (!alg_contains(term, index)) return alg_mul(ctx, count_of(ctx, lower, upper), term);
  if (alg_poly_coeffs(ctx, term, index, ALG_POLY_MAX_DEGREE, coef, &degree) == 0)
    return sum_polynomial(ctx, coef, degree, lower, upper);
  AlgExpr *indicator = sum_indicator(ctx, index, lower, upper, term);
  if (indicator) return indicator;
  AlgExpr *threshold = sum_threshold(ctx, index, lower, upper, term);
  if (threshold) return threshold;
  AlgExpr *inner = sum_inner_threshold(ctx, index, lower, upper, term);
  if (inner) return inner;
  AlgExpr *equal = sum_inner_equality(ctx, index, lower, upper, term);
  if (equal) return equal;
  AlgExpr *scaled = sum_scaled(ctx, index, lower, upper, term);
  if (scaled) return scaled;
  AlgExpr *sided = sum_two_sided(ctx, index, lower, upper, term);
  if (sided) return sided;
  return sum_geometric(ctx, index, lower, upper, term);
}

/* Closed sum, or a sum node over the terms that have none (closed parts outside). */
static AlgExpr *periodic_sum(AlgCtx *ctx, AlgSymbol *index, AlgExpr *lower, AlgExpr *upper, AlgExpr *body);

static AlgExpr *full_period(AlgCtx *ctx, AlgKind kind, AlgSymbol *index, AlgExpr *lower, AlgExpr *upper,
                            AlgExpr *body);

/* The unguarded closed sum of one term: sum_term, or periodic_sum for a term periodic in the index. */
static AlgExpr *term_sum(AlgCtx *ctx, AlgSymbol *index, AlgExpr *lower, AlgExpr *upper, AlgExpr *body) {
  AlgExpr *s = sum_term(ctx, index, lower, upper, body);
  if (!s) s = periodic_sum(ctx, index, lower, upper, body);
  return s ? s : full_period(ctx, ALG_SUM, index, lower, upper, body);
}

static AlgExpr *close_sum(AlgCtx *ctx, AlgSymbol *index, AlgExpr *lower, AlgExpr *upper, AlgExpr *body) {
  AlgExpr *whole = term_sum(ctx, index, lower, upper, body);
  if (whole) return guard_sum(ctx, lower, upper, whole);
  if (body->kind != ALG_ADD) return NULL;
  AlgExpr **closed = alg_scratch(ctx, body->nkids);
  AlgExpr **open = alg_scratch(ctx, body->nkids);
  size_t nclosed = 0, nopen = 0;
  for (size_t k = 0; k < body->nkids; k++) {
    AlgExpr *s = term_sum(ctx, index, lower, upper, body->kids[k]);
    if (s) closed[nclosed++] = s;
    else open[nopen++] = body->kids[k];
  }
  if (nclosed == 0) return NULL;
  if (nopen == 0) return guard_sum(ctx, lower, upper, alg_add_n(ctx, nclosed, closed));
  AlgExpr *kids[4] = {index->node, lower, upper, alg_add_n(ctx, nopen, open)};
  AlgExpr *rest = alg_intern(ctx, ALG_SUM, 4, kids);
  return alg_add(ctx, guard_sum(ctx, lower, upper, alg_add_n(ctx, nclosed, closed)), rest);
}

/* max (want_max) or min of body over a nonempty range when monotone (at an end) or convex for
   a max, concave for a min (the larger/smaller end), unguarded; or NULL. */
static AlgExpr *extremum_at_end(AlgCtx *ctx, int want_max, AlgSymbol *index, AlgExpr *lower,
                                AlgExpr *upper, AlgExpr *body) {
  int m = alg_monotone(ctx, body, index);
  if (m == ALG_MONO_CONST) return body;
  if (m != ALG_MONO_UNKNOWN) {
    AlgExpr *end = (m == ALG_MONO_UP) == want_max ? upper : lower;
    return alg_subst(ctx, body, index, end);
  }
  /* a convex body takes its max at one of the ends, a concave one its min */
  AlgExpr *slope = alg_diff(ctx, body, index);
  AlgExpr *curvature = slope ? alg_diff(ctx, slope, index) : NULL;
  if (!curvature || !(want_max ? alg_is_nonneg(ctx, curvature) : alg_is_nonpos(ctx, curvature))) return NULL;
  AlgExpr *at_lower = alg_subst(ctx, body, index, lower), *at_upper = alg_subst(ctx, body, index, upper);
  return want_max ? alg_max(ctx, at_lower, at_upper) : alg_min(ctx, at_lower, at_upper);
}

/* Periods a body may have for periodic_extremum (beyond: not closed this way; the body is
   copied once per index of a period). */
#define SUMS_MAX_PERIOD 12
/* Depth of the expressions periodic_in reads (beyond: not closed this way). */
#define SUMS_MAX_PERIOD_DEPTH 64


/* 1 when every occurrence of index in e is inside a remainder (s * index + a) % K with s an
   integer, a free of index and K an integer number >= 1; *period becomes the least common
   multiple of those K (at most SUMS_MAX_PERIOD). Then e is periodic in index with that period:
   (s (i + P) + a) % K = (s i + a) % K when K divides P. */
static int periodic_in(AlgCtx *ctx, AlgNodeMemo *seen, const AlgExpr *e, AlgSymbol *index, long *period,
                       int depth) {
  if (!alg_contains((AlgExpr *)e, index)) return 1;
  if (depth >= SUMS_MAX_PERIOD_DEPTH) return 0;
  if (seen_at(seen, e, depth)) return 1;   /* read: it gave 1 (a 0 ends the search), its K taken */
  if (e->kind == ALG_SYM) return 0;
  if (e->kind == ALG_MOD) {
    const AlgExpr *K = e->kids[1], *x = e->kids[0];
    if (K->kind != ALG_NUM || mpz_cmp_ui(mpq_denref(K->u.num), 1) != 0 || mpq_sgn(K->u.num) <= 0 ||
        mpz_cmp_ui(mpq_numref(K->u.num), SUMS_MAX_PERIOD) > 0)
      return 0;
    AlgExpr *slope = alg_diff(ctx, (AlgExpr *)x, index);
    if (!slope || slope->kind != ALG_NUM || mpz_cmp_ui(mpq_denref(slope->u.num), 1) != 0) return 0;
    AlgExpr *rest = alg_sub(ctx, (AlgExpr *)x, alg_mul(ctx, slope, index->node));
    if (alg_contains(rest, index)) return 0;
    long k = (long)mpz_get_ui(mpq_numref(K->u.num));
    long lcm = *period / alg_gcd_long(*period, k) * k;
    if (lcm > SUMS_MAX_PERIOD) return 0;
    *period = lcm;
    return 1;
  }
  for (size_t i = 0; i < e->nkids; i++)
    if (!periodic_in(ctx, seen, e->kids[i], index, period, depth + 1)) return 0;
  return 1;
}

/* periodic_in over the whole of e. */
static int periodic_of(AlgCtx *ctx, const AlgExpr *e, AlgSymbol *index, long *period) {
  AlgNodeMemo seen;
  alg_node_memo_init(&seen);
  int periodic = periodic_in(ctx, &seen, e, index, period, 0);
  alg_node_memo_free(&seen);
  return periodic;
}

/* The sum of a body f periodic in the index (periodic_in, period P) over lower .. upper, unguarded
   (0 at upper = lower - 1, as sum_term's forms): with n = upper - lower + 1 terms, the first
   q = floor(n / P) periods each sum S = f(lower) + ... + f(lower + P - 1) (any P consecutive
   indices give the same sum), and the r = n - q P indices after them, lower + q P + t for t < r,
   take f(lower + t):
     q S + sum over t = 0 .. P - 1 of (t < r ? f(lower + t) : 0)
   Work dealt round robin, tasks of sizes by i % 3: (i % 3 == 0 ? 1 : 2) summed over 0 .. N - 1 is
   floor(N / 3) 5 + (0 < r ? 1 : 0) + (1 < r ? 2 : 0), r = N % 3 (before: no closed form, walked at
   evaluation up to the loop limit and a marked 0 in a lower bound beyond). NULL when body is not
   periodic in the index or names it nowhere. */
static AlgExpr *periodic_sum(AlgCtx *ctx, AlgSymbol *index, AlgExpr *lower, AlgExpr *upper, AlgExpr *body) {
  long period = 1;
  if (!alg_contains(body, index) || !periodic_of(ctx, body, index, &period)) return NULL;
  AlgExpr *n = count_of(ctx, lower, upper), *P = num(ctx, period);
  AlgExpr *q = alg_func(ctx, ALG_FLOOR, alg_div(ctx, n, P));
  AlgExpr *r = alg_sub(ctx, n, alg_mul(ctx, q, P));
  AlgExpr **whole = alg_scratch(ctx, (size_t)period), **part = alg_scratch(ctx, (size_t)period);
  for (long t = 0; t < period; t++) {
    AlgExpr *f = alg_subst(ctx, body, index, alg_add(ctx, lower, num(ctx, t)));
    whole[t] = f;
    part[t] = alg_cond(ctx, alg_cmp(ctx, ALG_CMP_LT, num(ctx, t), r), f, num(ctx, 0));
  }
  AlgExpr *full = alg_mul(ctx, q, alg_add_n(ctx, (size_t)period, whole));
  return alg_add(ctx, full, alg_add_n(ctx, (size_t)period, part));
}

/* max (want_max) or min of a body that is periodic in the index (periodic_in) over a nonempty
   range, unguarded, or NULL: the range's first P indices meet every value the body takes, so
   the extremum is the one over lower + t, t = 0 .. P - 1, each beyond upper read as lower
   (`max over c of ((r + c) % 2 + 1) t_comp` is 2 t_comp where the range holds two indices). */
static AlgExpr *periodic_extremum(AlgCtx *ctx, int want_max, AlgSymbol *index, AlgExpr *lower,
                                  AlgExpr *upper, AlgExpr *body) {
  long period = 1;
  if (!periodic_of(ctx, body, index, &period)) return NULL;
  AlgExpr *first = alg_subst(ctx, body, index, lower), *best = first;
  for (long t = 1; t < period; t++) {
    AlgExpr *at = alg_add(ctx, lower, num(ctx, t));
    AlgExpr *v = alg_cond(ctx, alg_cmp(ctx, ALG_CMP_LE, at, upper), alg_subst(ctx, body, index, at), first);
    best = want_max ? alg_max(ctx, best, v) : alg_min(ctx, best, v);
  }
  return best;
}

/* Depth of the expressions first_residue reads (beyond: not read). */
#define SUMS_MAX_RESIDUE_DEPTH 64

/* 1 when e is a remainder (s * index + a) % K with s = 1 or -1, a free of the index and
   integer-valued, K free of the index, integer-valued and >= 1 for every admissible value. */
static int residue_form(AlgCtx *ctx, AlgExpr *e, AlgSymbol *index) {
  if (e->kind != ALG_MOD) return 0;
  AlgExpr *x = e->kids[0], *K = e->kids[1];
  if (alg_contains(K, index) || !alg_is_integer_valued(K) || !alg_is_nonneg(ctx, alg_sub(ctx, K, num(ctx, 1))))
    return 0;
  AlgExpr *slope = alg_diff(ctx, x, index);
  if (!slope || !(alg_is_num(slope, 1) || alg_is_num(slope, -1))) return 0;
  AlgExpr *rest = alg_sub(ctx, x, alg_mul(ctx, slope, index->node));
  return !alg_contains(rest, index) && alg_is_integer_valued(rest);
}

/* The first remainder of residue_form in e that holds the index (depth first), or NULL. Not
   inside a big operator of e: its remainders may hold the index it binds, whose value is not one
   for the whole body (max over i of the sum over j of f((i - j) % P) is no max of f). */
static AlgExpr *first_residue(AlgCtx *ctx, AlgNodeMemo *seen, AlgExpr *e, AlgSymbol *index, int depth) {
  if (depth > SUMS_MAX_RESIDUE_DEPTH || !alg_contains(e, index) || seen_at(seen, e, depth)) return NULL;
  if (e->kind >= ALG_SUM && e->kind <= ALG_MINOVER) return NULL;
  if (residue_form(ctx, e, index)) return e;
  for (size_t i = 0; i < e->nkids; i++) {
    AlgExpr *r = first_residue(ctx, seen, e->kids[i], index, depth + 1);
    if (r) return r;
  }
  return NULL;
}

/* Rule (a remainder over a whole period): the big operator `kind` (max, min or sum) of a body in
   which the index i occurs only inside one remainder (s i + a) % K (residue_form), over a range of
   n = upper - lower + 1 indices. K consecutive integers fall one in each residue class modulo K,
   and s i + a (s = +-1) runs over consecutive integers as i does, so where n >= K the remainder
   takes every value 0 .. K - 1 over the range (and no other: K >= 1, the argument an integer);
   where n = K it takes each exactly once. So the max (min) is the one of the body with the
   remainder replaced by an index w over 0 .. K - 1, and where n = K so is the sum. The ring
   allgather's step s, max over p = 0 .. P - 1 of rows((p + P - s) % P), is the max over
   w = 0 .. P - 1 of rows(w), free of s (before: walked P (P - 1) times, 4 10^6 indices at
   P = 2000, beyond the loop limit). NULL when no such remainder holds every occurrence. Where
   the count is not proved, a condition keeps the operator as it is on the other side. */
static AlgExpr *full_period(AlgCtx *ctx, AlgKind kind, AlgSymbol *index, AlgExpr *lower, AlgExpr *upper,
                            AlgExpr *body) {
  AlgNodeMemo seen;
  alg_node_memo_init(&seen);
  AlgExpr *r = first_residue(ctx, &seen, body, index, 0);
  alg_node_memo_free(&seen);
  if (!r) return NULL;
  AlgExpr *K = r->kids[1], *last = alg_sub(ctx, K, num(ctx, 1));
  AlgSymbol *w = alg_index_new(ctx, alg_symbol_name(index), num(ctx, 0), last);
  AlgExpr *inner = replace_outside(ctx, body, r, alg_sym(ctx, w));
  if (!inner || alg_contains(inner, index)) return NULL;
  AlgExpr *closed = alg_bigop(ctx, kind, w, num(ctx, 0), last, inner);
  AlgExpr *room = alg_sub(ctx, count_of(ctx, lower, upper), K);
  int exact = kind == ALG_SUM ? alg_is_num(room, 0) : alg_is_nonneg(ctx, room);
  if (exact) return closed;
  AlgExpr *kids[4] = {index->node, lower, upper, body};
  AlgExpr *as_is = alg_intern(ctx, kind, 4, kids);
  AlgExpr *holds = alg_cmp(ctx, kind == ALG_SUM ? ALG_CMP_EQ : ALG_CMP_GE, room, num(ctx, 0));
  return alg_cond(ctx, holds, closed, as_is);
}

/* ---- the big operators ---- */

AlgExpr *alg_closed_form(AlgCtx *ctx, AlgKind kind, AlgSymbol *index, AlgExpr *lower,
                         AlgExpr *upper, AlgExpr *body) {
  switch (kind) {
  case ALG_SUM:
    return close_sum(ctx, index, lower, upper, body);
  case ALG_PROD:
    if (alg_contains(body, index)) return NULL;
    return guard(ctx, lower, upper, alg_pow(ctx, body, count_of(ctx, lower, upper)), num(ctx, 1));
  case ALG_MAXOVER: case ALG_MINOVER: {
    AlgExpr *f = extremum_at_end(ctx, kind == ALG_MAXOVER, index, lower, upper, body);
    if (!f) f = periodic_extremum(ctx, kind == ALG_MAXOVER, index, lower, upper, body);
    if (!f) f = extremum_threshold(ctx, kind == ALG_MAXOVER, index, lower, upper, body);
    if (!f) f = full_period(ctx, kind, index, lower, upper, body);
    return f ? guard(ctx, lower, upper, f, num(ctx, 0)) : NULL;
  }
  default:
    return NULL;
  }
}

static AlgExpr *bigop(AlgCtx *ctx, AlgKind kind, AlgSymbol *index, AlgExpr *lower, AlgExpr *upper,
                      AlgExpr *body);

AlgExpr *alg_bigop(AlgCtx *ctx, AlgKind kind, AlgSymbol *index, AlgExpr *lower, AlgExpr *upper,
                   AlgExpr *body) {
  /* remembered only outside sign questions and pulls, whose depth limits can cut it short */
  int top = ctx->sign_depth == 0 && ctx->minmax_depth == 0;
  AlgExpr *args[4] = {index->node, lower, upper, body};
  AlgExpr *known = top ? alg_op_memo_find(ctx, kind, 4, args) : NULL;
  if (known) return known;
  AlgExpr *result = bigop(ctx, kind, index, lower, upper, body);
  return top ? alg_op_memo_put(ctx, kind, 4, args, result) : result;
}

static AlgExpr *bigop(AlgCtx *ctx, AlgKind kind, AlgSymbol *index, AlgExpr *lower, AlgExpr *upper,
                      AlgExpr *body) {
  AlgExpr *neutral = num(ctx, kind == ALG_PROD ? 1 : 0);
  AlgExpr *span = alg_sub(ctx, upper, lower);
  if (span->kind == ALG_NUM && mpq_sgn(span->u.num) < 0) return neutral;
  if (span->kind != ALG_NUM && alg_bounds(ctx, span).hi < 0) return neutral;
  if (alg_is_num(span, 0)) return alg_subst(ctx, body, index, lower);
  AlgExpr *closed = alg_closed_form(ctx, kind, index, lower, upper, body);
  if (closed) return closed;
  AlgExpr *kids[4] = {index->node, lower, upper, body};
  return alg_intern(ctx, kind, 4, kids);
}

AlgExpr *alg_sum(AlgCtx *ctx, AlgSymbol *index, AlgExpr *lower, AlgExpr *upper, AlgExpr *body) {
  return alg_bigop(ctx, ALG_SUM, index, lower, upper, body);
}

AlgExpr *alg_max_over(AlgCtx *ctx, AlgSymbol *index, AlgExpr *lower, AlgExpr *upper, AlgExpr *body) {
  return alg_bigop(ctx, ALG_MAXOVER, index, lower, upper, body);
}

AlgExpr *alg_min_over(AlgCtx *ctx, AlgSymbol *index, AlgExpr *lower, AlgExpr *upper, AlgExpr *body) {
  return alg_bigop(ctx, ALG_MINOVER, index, lower, upper, body);
}

/* ---- safe approximations ---- */

/* Sum over the terms of body of their max (want_max) or min over the range, unguarded: an upper
   (lower) bound of the max (min) of body. A term with no closed extremum counts with its
   interval bound; NULL when that is infinite. */
static AlgExpr *termwise_extremum(AlgCtx *ctx, int want_max, AlgSymbol *index, AlgExpr *lower,
                                  AlgExpr *upper, AlgExpr *body) {
  size_t n = body->kind == ALG_ADD ? body->nkids : 1;
  AlgExpr **parts = alg_scratch(ctx, n);
  for (size_t k = 0; k < n; k++) {
    AlgExpr *term = body->kind == ALG_ADD ? body->kids[k] : body;
    if ((parts[k] = extremum_at_end(ctx, want_max, index, lower, upper, term))) continue;
    /* else the term's bound over all admissible values (the index's included), when finite */
    AlgInterval range = alg_bounds(ctx, term);
    double end = want_max ? range.hi : range.lo;
    if (!isfinite(end)) return NULL;
    parts[k] = alg_num_double(ctx, end);
  }
  return alg_add_n(ctx, n, parts);
}

/* 1 when e has a ceil or floor of an expression in index. */
static int has_rounding(const AlgExpr *e, const AlgSymbol *index) {
  if (!alg_contains(e, index)) return 0;
  if (e->kind == ALG_CEIL || e->kind == ALG_FLOOR) return 1;
  if (e->kind >= ALG_SUM && e->kind <= ALG_MINOVER) return 0;
  for (size_t k = 0; k < e->nkids; k++) if (has_rounding(e->kids[k], index)) return 1;
  return 0;
}

/* e with every ceil and floor of the index replaced by a value on side dir of it (ceil(x) >= x,
   ceil(x) <= x + 1, floor(x) >= x - 1, floor(x) <= x), where e is monotone in it; NULL where
   the direction of e in such a node is unknown. */
static AlgExpr *relax_rounding(AlgCtx *ctx, AlgExpr *e, AlgSymbol *index, AlgDir dir) {
  if (!alg_contains(e, index)) return e;
  int up = dir == ALG_DIR_UPPER;
  AlgExpr **kids = alg_scratch(ctx, e->nkids);
  switch (e->kind) {
  case ALG_SYM: case ALG_NUM: case ALG_IVAL: return e;
  case ALG_CEIL: case ALG_FLOOR: {
    AlgExpr *x = e->kids[0];
    if (e->kind == ALG_CEIL) return up ? alg_add(ctx, x, num(ctx, 1)) : x;
    return up ? x : alg_sub(ctx, x, num(ctx, 1));
  }
  case ALG_ADD: case ALG_MAX: case ALG_MIN:
    for (size_t k = 0; k < e->nkids; k++)
      if (!(kids[k] = relax_rounding(ctx, e->kids[k], index, dir))) return NULL;
    return alg_make(ctx, e->kind, e->nkids, kids);
  case ALG_MUL:
    for (size_t k = 0; k < e->nkids; k++) {
      kids[k] = e->kids[k];
      if (!has_rounding(e->kids[k], index)) continue;
      AlgExpr **others = alg_scratch(ctx, e->nkids);
      size_t n = 0;
      for (size_t j = 0; j < e->nkids; j++) if (j != k) others[n++] = e->kids[j];
      AlgExpr *rest = alg_mul_n(ctx, n, others);
      AlgDir other = up ? ALG_DIR_LOWER : ALG_DIR_UPPER;
      if (alg_is_nonneg(ctx, rest)) kids[k] = relax_rounding(ctx, e->kids[k], index, dir);
      else if (alg_is_nonpos(ctx, rest)) kids[k] = relax_rounding(ctx, e->kids[k], index, other);
      else return NULL;
      if (!kids[k]) return NULL;
    }
    return alg_make(ctx, e->kind, e->nkids, kids);
  default:
    return NULL;
  }
}

/* The sum of an extremum split into the sums of its arguments, each argument's rounding relaxed
   on the side of dir: sum max(f, g) >= max(sum f, sum g) and sum min(f, g) <= min(sum f, sum g),
   where arguments whose sum stays open are left out (a max of fewer lower bounds is still one);
   and sum max(f, g) <= sum f + sum g when every argument is >= 0 and every sum closes. Also
   under a nonnegative factor free of the index. NULL when body is no such extremum or no
   bound closes. */
static AlgExpr *sum_split_extremum(AlgCtx *ctx, AlgSymbol *index, AlgExpr *lower, AlgExpr *upper,
                                   AlgExpr *body, AlgDir dir) {
  int up = dir == ALG_DIR_UPPER;
  AlgExpr *factor, *inner = index_part(ctx, body, index, &factor);   /* c * max(...), c >= 0 */
  if (!inner || (inner->kind != ALG_MAX && inner->kind != ALG_MIN) || !alg_is_nonneg(ctx, factor)) return NULL;
  int take_extremum = inner->kind == (up ? ALG_MIN : ALG_MAX);
  int take_total = up && inner->kind == ALG_MAX;
  if (!take_extremum && !take_total) return NULL;
  AlgExpr **sums = alg_scratch(ctx, inner->nkids);
  size_t closed = 0;
  for (size_t k = 0; k < inner->nkids; k++) {
    if (take_total && !alg_is_nonneg(ctx, inner->kids[k])) return NULL;
    AlgExpr *arg = relax_rounding(ctx, inner->kids[k], index, dir);
    AlgExpr *sum = alg_sum(ctx, index, lower, upper, arg ? arg : inner->kids[k]);
    if (!(sum->traits & ALG_TRAIT_BIGOP)) sums[closed++] = sum;
    else if (take_total) return NULL;
  }
  if (closed == 0) return NULL;
  AlgExpr *bound = take_total ? alg_add_n(ctx, closed, sums)
                 : up ? alg_min_n(ctx, closed, sums) : alg_max_n(ctx, closed, sums);
  return alg_mul(ctx, factor, bound);
}

/* A closed value of big operator e, safe in direction dir, unguarded; or NULL. */
static AlgExpr *approximate(AlgCtx *ctx, AlgExpr *e, AlgDir dir) {
  AlgSymbol *index = e->kids[0]->u.sym;
  AlgExpr *lower = e->kids[1], *upper = e->kids[2], *body = e->kids[3];
  int up = dir == ALG_DIR_UPPER;
  switch (e->kind) {
  case ALG_SUM: {   /* the sum with ceil/floor relaxed, and count * (max or min of the body) */
    AlgExpr *relaxed = relax_rounding(ctx, body, index, dir);
    AlgExpr *sum = relaxed && relaxed != body ? alg_sum(ctx, index, lower, upper, relaxed) : NULL;
    if (sum && (sum->traits & ALG_TRAIT_BIGOP)) sum = NULL;
    AlgExpr *f = termwise_extremum(ctx, up, index, lower, upper, body);
    AlgExpr *termwise = f ? guard(ctx, lower, upper, alg_mul(ctx, count_of(ctx, lower, upper), f), num(ctx, 0)) : NULL;
    AlgExpr *split = sum_split_extremum(ctx, index, lower, upper, body, dir);
    AlgExpr *found[3];
    size_t nfound = 0;
    if (sum) found[nfound++] = sum;
    if (termwise) found[nfound++] = termwise;
    if (split) found[nfound++] = split;
    if (nfound == 0) return NULL;
    return up ? alg_min_n(ctx, nfound, found) : alg_max_n(ctx, nfound, found);
  }
  case ALG_MAXOVER: case ALG_MINOVER: {
    int is_max = e->kind == ALG_MAXOVER;
    AlgExpr *f;
    if (up == is_max) f = termwise_extremum(ctx, is_max, index, lower, upper, body);
    else {   /* the body at both ends: values the extremum reaches */
      AlgExpr *at_lower = alg_subst(ctx, body, index, lower);
      AlgExpr *at_upper = alg_subst(ctx, body, index, upper);
      f = is_max ? alg_max(ctx, at_lower, at_upper) : alg_min(ctx, at_lower, at_upper);
    }
    return f ? guard(ctx, lower, upper, f, num(ctx, 0)) : NULL;
  }
  default:
    return NULL;
  }
}

typedef struct Closer {
  AlgCtx *ctx;        /* where the nodes go */
  AlgNodeMemo done;   /* results by 2 * node id + direction, for shared nodes (a table of every
                         node of the context per call made closing the terms of many resources
                         quadratic) */
  size_t size;        /* node ids below this are remembered (the nodes there when closing began) */
} Closer;

static AlgExpr *close_rec(Closer *cl, AlgExpr *e, AlgDir dir);

static AlgDir flip(AlgDir dir) { return dir == ALG_DIR_LOWER ? ALG_DIR_UPPER : ALG_DIR_LOWER; }

static int has_bigop(const AlgExpr *e) { return (e->traits & ALG_TRAIT_BIGOP) != 0; }

static AlgExpr *close_node(Closer *cl, AlgExpr *e, AlgDir dir);

static AlgExpr *close_rec(Closer *cl, AlgExpr *e, AlgDir dir) {
  if (!has_bigop(e)) return e;
  size_t slot = 2 * e->id + (dir == ALG_DIR_UPPER);
  AlgExpr *known = e->id < cl->size ? alg_node_memo_get(&cl->done, slot) : NULL;
  if (known) return known;
  AlgExpr *result = close_node(cl, e, dir);
  if (e->id < cl->size) alg_node_memo_put(&cl->done, slot, result);
  return result;
}

static AlgExpr *close_node(Closer *cl, AlgExpr *e, AlgDir dir) {
  AlgCtx *ctx = cl->ctx;
  AlgExpr **kids = alg_scratch(ctx, e->nkids);
  for (size_t k = 0; k < e->nkids; k++) kids[k] = e->kids[k];
  switch (e->kind) {
  case ALG_ADD: case ALG_MAX: case ALG_MIN: case ALG_CEIL: case ALG_FLOOR: case ALG_EXP:
  case ALG_LOG: case ALG_LOG2: case ALG_SQRT:   /* nondecreasing in every argument */
    for (size_t k = 0; k < e->nkids; k++) kids[k] = close_rec(cl, e->kids[k], dir);
    break;
  case ALG_COND:
    kids[1] = close_rec(cl, e->kids[1], dir);
    kids[2] = close_rec(cl, e->kids[2], dir);
    break;
  case ALG_MUL:   /* a factor's direction follows the sign of the product of the others */
    for (size_t k = 0; k < e->nkids; k++) {
      if (!has_bigop(e->kids[k])) continue;
      AlgExpr **others = alg_scratch(ctx, e->nkids);
      size_t n = 0;
      for (size_t j = 0; j < e->nkids; j++)
        if (j != k) others[n++] = e->kids[j];
      AlgExpr *rest = alg_mul_n(ctx, n, others);
      if (alg_is_nonneg(ctx, rest)) kids[k] = close_rec(cl, e->kids[k], dir);
      else if (alg_is_nonpos(ctx, rest)) kids[k] = close_rec(cl, e->kids[k], flip(dir));
    }
    break;
  case ALG_POW:
    if (alg_is_num(e->kids[1], -1) && alg_bounds(ctx, e->kids[0]).lo > 0)
      kids[0] = close_rec(cl, e->kids[0], flip(dir));
    else if (e->kids[1]->kind == ALG_NUM && mpq_sgn(e->kids[1]->u.num) > 0 && alg_is_nonneg(ctx, e->kids[0]))
      kids[0] = close_rec(cl, e->kids[0], dir);
    break;
  case ALG_SUM: case ALG_MAXOVER: case ALG_MINOVER: case ALG_PROD: {
    AlgExpr *body = e->kind == ALG_PROD ? e->kids[3] : close_rec(cl, e->kids[3], dir);
    AlgExpr *node = e;
    if (body != e->kids[3]) {
      kids[3] = body;
      node = alg_make(ctx, e->kind, 4, kids);
      if (!has_bigop(node)) return node;
      if (node->kind != e->kind) return close_rec(cl, node, dir);
    }
    AlgExpr *f = approximate(ctx, node, dir);
    if (!f) return alg_approx(ctx, dir, node);
    /* the exact form where evaluation walks it (a range under the loop limit), else f again:
       beyond the limit an enclosure of the sum would only blur f */
    AlgExpr *small = alg_cmp(ctx, ALG_CMP_LT, alg_sub(ctx, node->kids[2], node->kids[1]),
                             alg_num_int(ctx, (long)alg_ctx_loop_limit(ctx)));
    return alg_approx_exact(ctx, dir, f, alg_cond(ctx, small, node, f));
  }
  default:
    break;
  }
  return alg_make(ctx, e->kind, e->nkids, kids);
}

AlgExpr *alg_close(AlgCtx *ctx, AlgExpr *e, AlgDir dir) {
  Closer cl = {ctx, {NULL, NULL, 0, 0}, ctx->nnodes};
  AlgExpr *result = close_rec(&cl, e, dir);
  alg_node_memo_free(&cl.done);
  return result;
}

