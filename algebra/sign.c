/*
** sign.c — what is known of signs and monotonicity for every admissible value: structure and
** assumptions first (exact), exact rational bounds of linear forms, loop indices replaced by the
** end of their range that is worst for the claim, and interval bounds last.
*/
#include "expr_impl.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Nesting of sign questions (a derivative's sign asks about the derivative's derivative ...). */
#define ALG_SIGN_MAX_DEPTH 3
/* Only polynomials up to this degree in a symbol are decided at the ends of its values (the
   question costs a derivative per level). */
#define ALG_SIGN_MAX_DEGREE 8

#define SIGN_NONNEG ALG_TRAIT_NONNEG
#define SIGN_NONPOS ALG_TRAIT_NONPOS
#define SIGN_BOTH (ALG_TRAIT_NONNEG | ALG_TRAIT_NONPOS)

/* Sign known from the structure of e (its kids' traits) and the symbols' assumptions: exact,
   unlike bounds, whose outward rounding can leave 0 undecided. */
unsigned alg_sign_traits(const AlgExpr *e) {
  switch (e->kind) {
  case ALG_NUM: return mpq_sgn(e->u.num) > 0 ? SIGN_NONNEG : mpq_sgn(e->u.num) < 0 ? SIGN_NONPOS
                                                                                  : SIGN_NONNEG | SIGN_NONPOS;
  case ALG_IVAL: return (e->u.ival.lo >= 0 ? SIGN_NONNEG : 0) | (e->u.ival.hi <= 0 ? SIGN_NONPOS : 0);
  case ALG_SYM: return (e->u.sym->assume.lo >= 0 ? SIGN_NONNEG : 0) | (e->u.sym->assume.hi <= 0 ? SIGN_NONPOS : 0);
  case ALG_ADD: case ALG_MAX: case ALG_MIN: {
    unsigned all = SIGN_BOTH, any = 0;
    for (size_t i = 0; i < e->nkids; i++) {
      unsigned s = (e->kids[i]->traits & SIGN_BOTH);
      all &= s;
      any |= s;
    }
    if (e->kind == ALG_MAX) return (all & SIGN_NONPOS) | (any & SIGN_NONNEG);
    if (e->kind == ALG_MIN) return (all & SIGN_NONNEG) | (any & SIGN_NONPOS);
    return all;
  }
  case ALG_MUL: {
    int negatives = 0;
    for (size_t i = 0; i < e->nkids; i++) {
      unsigned s = (e->kids[i]->traits & SIGN_BOTH);
      if (s == SIGN_BOTH) return s;   /* a zero factor */
      if (s == SIGN_NONPOS) negatives++;
      else if (s != SIGN_NONNEG) return 0;
    }
    return negatives % 2 ? SIGN_NONPOS : SIGN_NONNEG;
  }
  case ALG_POW:
    if ((e->kids[0]->traits & SIGN_BOTH) & SIGN_NONNEG) return SIGN_NONNEG;
    if (alg_num_is_integer(e->kids[1]) && mpz_even_p(mpq_numref(e->kids[1]->u.num))) return SIGN_NONNEG;
    return 0;
  case ALG_LOWER:   /* max(approx, exact): nonnegative when either is */
    if (e->nkids > 1) return ((e->kids[0]->traits | e->kids[1]->traits) & SIGN_BOTH) & SIGN_NONNEG;
    return (e->kids[0]->traits & SIGN_BOTH) & SIGN_NONNEG;
  case ALG_UPPER:   /* min(approx, exact): nonnegative when both are */
    if (e->nkids > 1) return (e->kids[0]->traits & e->kids[1]->traits & SIGN_BOTH) & SIGN_NONNEG;
    return (e->kids[0]->traits & SIGN_BOTH) & SIGN_NONNEG;
  case ALG_CEIL: case ALG_FLOOR:
    return (e->kids[0]->traits & SIGN_BOTH) & SIGN_NONNEG;
  case ALG_ABS: case ALG_SQRT: case ALG_EXP: case ALG_EQ: case ALG_NE: case ALG_LT: case ALG_LE:
  case ALG_AND: case ALG_OR: case ALG_NOT:
    return SIGN_NONNEG;
  case ALG_COND: return (e->kids[1]->traits & SIGN_BOTH) & (e->kids[2]->traits & SIGN_BOTH);
  case ALG_SUM: case ALG_MAXOVER: case ALG_MINOVER: return (e->kids[3]->traits & SIGN_BOTH) & SIGN_NONNEG;
  default: return 0;
  }
}

/* An exact rational bound (lower when want_lower, else upper) of a linear combination of
   symbols and numbers, from the symbols' assumptions: decides N - 1 >= 0 for N >= 1 where
   rounded interval bounds may straddle 0. Returns 0 and sets out when known. */
static int exact_bound(const AlgExpr *e, int want_lower, mpq_t out) {
  switch (e->kind) {
  case ALG_NUM:
    mpq_set(out, e->u.num);
    return 0;
  case ALG_SYM: {
    double v = want_lower ? e->u.sym->assume.lo : e->u.sym->assume.hi;
    if (!isfinite(v)) return -1;
    mpq_set_d(out, v);
    return 0;
  }
  case ALG_ADD: {
    mpq_t part;
    mpq_init(part);
    mpq_set_ui(out, 0, 1);
    int status = 0;
    for (size_t i = 0; i < e->nkids && status == 0; i++) {
      status = exact_bound(e->kids[i], want_lower, part);
      mpq_add(out, out, part);
    }
    mpq_clear(part);
    return status;
  }
  case ALG_MUL:
    if (e->nkids == 2 && e->kids[0]->kind == ALG_NUM) {
      int positive = mpq_sgn(e->kids[0]->u.num) > 0;
      if (exact_bound(e->kids[1], positive ? want_lower : !want_lower, out)) return -1;
      mpq_mul(out, out, e->kids[0]->u.num);
      return 0;
    }
    return -1;
  default:
    return -1;
  }
}

/* Sign of e >= 0 (want_nonneg) or e <= 0 decided by exact_bound. */
static int exact_sign(const AlgExpr *e, int want_nonneg) {
  mpq_t bound;
  mpq_init(bound);
  int known = exact_bound(e, want_nonneg, bound) == 0 &&
              (want_nonneg ? mpq_sgn(bound) >= 0 : mpq_sgn(bound) <= 0);
  mpq_clear(bound);
  return known;
}

/* The first (upper = 0) or last value a symbol takes: a loop index's range end, else the
   bound of its assumption (rounded inward for integers); NULL when unbounded on that side. */
static AlgExpr *symbol_end(AlgCtx *ctx, const AlgSymbol *sym, int upper) {
  if (sym->range_lower) return upper ? sym->range_upper : sym->range_lower;
  double v = upper ? sym->assume.hi : sym->assume.lo;
  if (!isfinite(v)) return NULL;
  if (sym->assume.integer) v = upper ? floor(v) : ceil(v);
  return alg_num_double(ctx, v);
}

/* Memo of decided signs by node id (facts about a node never change: assumptions are fixed). */
enum { MEMO_NONNEG = 1, MEMO_NONPOS = 2, MEMO_NOT_NONNEG = 4, MEMO_NOT_NONPOS = 8 };

static unsigned char *memo_slot(AlgCtx *ctx, const AlgExpr *e) {
  if (e->id >= ctx->sign_memo_size) {
    size_t size = ctx->nnodes + ctx->nnodes / 2 + 64;
    unsigned char *grown = realloc(ctx->sign_memo, size);
    if (!grown) return NULL;
    memset(grown + ctx->sign_memo_size, 0, size - ctx->sign_memo_size);
    ctx->sign_memo = grown;
    ctx->sign_memo_size = size;
  }
  return &ctx->sign_memo[e->id];
}

static int decide_sign_uncached(AlgCtx *ctx, const AlgExpr *e, int want_nonneg);

static int newest_first(const void *x, const void *y) {
  size_t a = (*(AlgSymbol *const *)x)->id, b = (*(AlgSymbol *const *)y)->id;
  return a > b ? -1 : a < b;
}

/* e >= 0 (want_nonneg) or e <= 0 for every admissible value. Answers found at the top level
   are remembered; failures deeper down are not (a shallower question may go further). */
static int decide_sign(AlgCtx *ctx, const AlgExpr *e, int want_nonneg) {
  unsigned char *slot = memo_slot(ctx, e);
  unsigned char yes = want_nonneg ? MEMO_NONNEG : MEMO_NONPOS;
  unsigned char no = want_nonneg ? MEMO_NOT_NONNEG : MEMO_NOT_NONPOS;
  if (slot && (*slot & yes)) return 1;
  if (slot && (*slot & no)) return 0;
  int depth = ctx->sign_depth;
  int known = decide_sign_uncached(ctx, e, want_nonneg);
  slot = memo_slot(ctx, e);   /* the memo may have moved */
  if (slot && known) *slot |= yes;
  else if (slot && depth == 0) *slot |= no;
  return known;
}

/* Depth of sums, products and powers poly_candidates reads (deeper: its symbols not tried). */
#define SIGN_MAX_POLY_DEPTH 64

/* Adds to out (count *n, at most cap) the symbols reached from e through sums, products and
** powers alone: the only ones e can be a polynomial in (alg_poly_coeffs fails on a symbol inside
** any other node), found without walking the rest of e. A max or an if of a bound, shared by many
** parents, is a DAG that alg_collect_free walked whole at every sign question: most of a grid's
** reduction time. */
static void poly_candidates(const AlgExpr *e, AlgSymbol **out, size_t *n, size_t cap, int depth) {
  if (depth > SIGN_MAX_POLY_DEPTH || !e->symbols_mask) return;
  if (e->kind == ALG_SYM) {
    for (size_t i = 0; i < *n; i++) if (out[i] == e->u.sym) return;
    if (*n < cap) out[(*n)++] = e->u.sym;
    return;
  }
  if (e->kind != ALG_ADD && e->kind != ALG_MUL && e->kind != ALG_POW) return;
  for (size_t i = 0; i < e->nkids; i++) poly_candidates(e->kids[i], out, n, cap, depth + 1);
}

static int decide_sign_uncached(AlgCtx *ctx, const AlgExpr *e, int want_nonneg) {
  if (e->traits & (want_nonneg ? SIGN_NONNEG : SIGN_NONPOS)) return 1;
  if (exact_sign(e, want_nonneg)) return 1;
  AlgInterval v = alg_bounds(ctx, e);
  if (want_nonneg ? v.lo >= 0 : v.hi <= 0) return 1;
  if (ctx->sign_depth >= ALG_SIGN_MAX_DEPTH) return 0;
  /* e polynomial and monotone in a symbol: put the symbol at the end of its values where e is
     smallest (largest) and decide there; N^2 - N >= 0 for N >= 1 since it grows with N from 0 */
  int known = 0;
  ctx->sign_depth++;
  AlgSymbol *free_syms[ALG_MAX_FREE_CONSIDERED];
  size_t nfree = 0;
  poly_candidates(e, free_syms, &nfree, ALG_MAX_FREE_CONSIDERED, 0);
  qsort(free_syms, nfree, sizeof *free_syms, newest_first);   /* inner loop indices first */
  for (size_t k = 0; k < nfree; k++) {
    AlgSymbol *sym = free_syms[k];
    AlgExpr *coef[ALG_SIGN_MAX_DEGREE + 1];
    size_t degree;
    if (alg_poly_coeffs(ctx, (AlgExpr *)e, sym, ALG_SIGN_MAX_DEGREE, coef, &degree) != 0) continue;
    int m = alg_monotone(ctx, (AlgExpr *)e, sym);
    if (m != ALG_MONO_UP && m != ALG_MONO_DOWN) continue;
    AlgExpr *end = symbol_end(ctx, sym, (m == ALG_MONO_UP) != want_nonneg);
    if (!end) continue;
    known = decide_sign(ctx, alg_subst(ctx, (AlgExpr *)e, sym, end), want_nonneg);
    break;
  }
  ctx->sign_depth--;
  return known;
}

int alg_is_nonneg(AlgCtx *ctx, const AlgExpr *e) { return decide_sign(ctx, e, 1); }
int alg_is_nonpos(AlgCtx *ctx, const AlgExpr *e) { return decide_sign(ctx, e, 0); }

/* ---- monotonicity ---- */

static int mono_combine(int a, int b) {
  if (a == ALG_MONO_CONST) return b;
  if (b == ALG_MONO_CONST) return a;
  return a == b ? a : ALG_MONO_UNKNOWN;
}

/* Direction in which e moves as index grows over its admissible values. */
int alg_monotone(AlgCtx *ctx, AlgExpr *e, AlgSymbol *index) {
  if (!alg_contains(e, index)) return ALG_MONO_CONST;
  if (e->kind == ALG_SYM) return ALG_MONO_UP;
  AlgExpr *d = alg_diff(ctx, e, index);
  if (d) {
    if (alg_is_nonneg(ctx, d)) return ALG_MONO_UP;
    if (alg_is_nonpos(ctx, d)) return ALG_MONO_DOWN;
  }
  switch (e->kind) {
  case ALG_ADD: case ALG_MAX: case ALG_MIN: {
    int m = ALG_MONO_CONST;
    for (size_t k = 0; k < e->nkids && m != ALG_MONO_UNKNOWN; k++) m = mono_combine(m, alg_monotone(ctx, e->kids[k], index));
    return m;
  }
  case ALG_CEIL: case ALG_FLOOR: case ALG_EXP: case ALG_LOG: case ALG_LOG2: case ALG_SQRT:
    return alg_monotone(ctx, e->kids[0], index);
  case ALG_MUL: {   /* one factor moves, the others have a known sign */
    AlgExpr *moving = NULL;
    AlgExpr **others = alg_scratch(ctx, e->nkids);
    size_t nothers = 0;
    for (size_t k = 0; k < e->nkids; k++) {
      if (!alg_contains(e->kids[k], index)) others[nothers++] = e->kids[k];
      else if (moving) return ALG_MONO_UNKNOWN;
      else moving = e->kids[k];
    }
    int m = alg_monotone(ctx, moving, index);
    AlgExpr *k = alg_mul_n(ctx, nothers, others);
    if (m == ALG_MONO_UNKNOWN) return m;
    if (alg_is_nonneg(ctx, k)) return m;
    if (alg_is_nonpos(ctx, k)) return -m;
    return ALG_MONO_UNKNOWN;
  }
  default:
    return ALG_MONO_UNKNOWN;
  }
}

