/*
** transform.c — rebuilding expressions through the constructors: substitution, collection of
** terms by a common symbol, expansion of products of sums, and symbolic derivatives.
*/
#include "expr_impl.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Products of sums with more terms than this stay unexpanded (the expansion would dwarf them). */
#define ALG_EXPAND_MAX_TERMS 4096
/* Integer powers of sums above this exponent stay unexpanded. */
#define ALG_EXPAND_MAX_POWER 32

AlgExpr *alg_make(AlgCtx *ctx, AlgKind kind, size_t nkids, AlgExpr *const *kids) {
  switch (kind) {
  case ALG_ADD: return alg_add_n(ctx, nkids, kids);
  case ALG_MUL: return alg_mul_n(ctx, nkids, kids);
  case ALG_MIN: return alg_min_n(ctx, nkids, kids);
  case ALG_MAX: return alg_max_n(ctx, nkids, kids);
  case ALG_POW: return alg_pow(ctx, kids[0], kids[1]);
  case ALG_MOD: return alg_mod(ctx, kids[0], kids[1]);
  case ALG_CEIL: case ALG_FLOOR: case ALG_ABS: case ALG_LOG: case ALG_LOG2: case ALG_EXP:
  case ALG_SQRT:
    return alg_func(ctx, kind, kids[0]);
  case ALG_EQ: return alg_cmp(ctx, ALG_CMP_EQ, kids[0], kids[1]);
  case ALG_NE: return alg_cmp(ctx, ALG_CMP_NE, kids[0], kids[1]);
  case ALG_LT: return alg_cmp(ctx, ALG_CMP_LT, kids[0], kids[1]);
  case ALG_LE: return alg_cmp(ctx, ALG_CMP_LE, kids[0], kids[1]);
  case ALG_AND: {
    AlgExpr *acc = kids[0];
    for (size_t i = 1; i < nkids; i++) acc = alg_and(ctx, acc, kids[i]);
    return acc;
  }
  case ALG_OR: {
    AlgExpr *acc = kids[0];
    for (size_t i = 1; i < nkids; i++) acc = alg_or(ctx, acc, kids[i]);
    return acc;
  }
  case ALG_NOT: return alg_not(ctx, kids[0]);
  case ALG_COND: return alg_cond(ctx, kids[0], kids[1], kids[2]);
  case ALG_SUM: case ALG_PROD: case ALG_MAXOVER: case ALG_MINOVER:
    return alg_bigop(ctx, kind, kids[0]->u.sym, kids[1], kids[2], kids[3]);
  case ALG_LOWER: return alg_approx_exact(ctx, ALG_DIR_LOWER, kids[0], nkids > 1 ? kids[1] : NULL);
  case ALG_UPPER: return alg_approx_exact(ctx, ALG_DIR_UPPER, kids[0], nkids > 1 ? kids[1] : NULL);
  default: return kids[0];   /* leaves are never rebuilt */
  }
}

/* ---- substitution ---- */

/* Each walk below remembers its results by node id (node_memo.c). */
typedef AlgNodeMemo Memo;

static AlgExpr *subst(AlgCtx *ctx, Memo *memo, AlgExpr *e, AlgSymbol *sym, AlgExpr *value) {
  if (e->kind == ALG_SYM) return e->u.sym == sym ? value : e;
  if (e->nkids == 0 || !alg_contains(e, sym)) return e;
  AlgExpr *known = alg_node_memo_get(memo, e->id);
  if (known) return known;
  AlgExpr **kids = alg_scratch(ctx, e->nkids);
  int binds = e->kind >= ALG_SUM && e->kind <= ALG_MINOVER && e->kids[0]->u.sym == sym;
  for (size_t i = 0; i < e->nkids; i++)
    kids[i] = (binds && (i == 0 || i == 3)) ? e->kids[i] : subst(ctx, memo, e->kids[i], sym, value);
  AlgExpr *result = alg_make(ctx, e->kind, e->nkids, kids);
  alg_node_memo_put(memo, e->id, result);
  return result;
}

AlgExpr *alg_subst(AlgCtx *ctx, AlgExpr *e, AlgSymbol *sym, AlgExpr *value) {
  Memo memo;
  alg_node_memo_init(&memo);
  AlgExpr *result = subst(ctx, &memo, e, sym, value);
  alg_node_memo_free(&memo);
  return result;
}

/* e with every occurrence of node target (interned: one node per value) replaced by value. */
static AlgExpr *replace(AlgCtx *ctx, Memo *memo, AlgExpr *e, const AlgExpr *target, AlgExpr *value) {
  if (e == target) return value;
  if (e->nkids == 0) return e;
  AlgExpr *known = alg_node_memo_get(memo, e->id);
  if (known) return known;
  AlgExpr **kids = alg_scratch(ctx, e->nkids);
  int changed = 0;
  for (size_t i = 0; i < e->nkids; i++) {
    kids[i] = replace(ctx, memo, e->kids[i], target, value);
    changed |= kids[i] != e->kids[i];
  }
  AlgExpr *result = changed ? alg_make(ctx, e->kind, e->nkids, kids) : e;
  alg_node_memo_put(memo, e->id, result);
  return result;
}

AlgExpr *alg_replace(AlgCtx *ctx, AlgExpr *e, const AlgExpr *target, AlgExpr *value) {
  Memo memo;
  alg_node_memo_init(&memo);
  AlgExpr *result = replace(ctx, &memo, e, target, value);
  alg_node_memo_free(&memo);
  return result;
}

/* ---- collection by symbol ---- */

/* term without one factor sym (power 1), or NULL when sym is no such factor of term. */
static AlgExpr *without_factor(AlgCtx *ctx, AlgExpr *term, AlgSymbol *sym) {
  if (term->kind == ALG_SYM) return term->u.sym == sym ? alg_num_int(ctx, 1) : NULL;
  if (term->kind != ALG_MUL) return NULL;
  for (size_t k = 0; k < term->nkids; k++) {
    if (term->kids[k]->kind != ALG_SYM || term->kids[k]->u.sym != sym) continue;
    AlgExpr **others = alg_scratch(ctx, term->nkids);
    size_t n = 0;
    for (size_t j = 0; j < term->nkids; j++) if (j != k) others[n++] = term->kids[j];
    return alg_mul_n(ctx, n, others);
  }
  return NULL;
}

/* The terms of a sum gathered under the first of syms that two or more of them share, each
** group and the rest gathered again under the later symbols. */
static AlgExpr *collect_terms(AlgCtx *ctx, size_t nterms, AlgExpr *const *terms, AlgSymbol *const *syms,
                              size_t nsyms) {
  for (size_t s = 0; s < nsyms; s++) {
    AlgExpr **with = alg_scratch(ctx, nterms), **rest = alg_scratch(ctx, nterms);
    size_t nwith = 0, nrest = 0;
    for (size_t k = 0; k < nterms; k++) {
      AlgExpr *cofactor = without_factor(ctx, terms[k], syms[s]);
      if (cofactor) with[nwith++] = cofactor;
      else rest[nrest++] = terms[k];
    }
    if (nwith < 2) continue;
    AlgExpr *group = collect_terms(ctx, nwith, with, syms + s + 1, nsyms - s - 1);
    AlgExpr *others = collect_terms(ctx, nrest, rest, syms + s + 1, nsyms - s - 1);
    return alg_add(ctx, alg_mul(ctx, syms[s]->node, group), others);
  }
  return alg_add_n(ctx, nterms, terms);
}

static AlgExpr *collect(AlgCtx *ctx, Memo *memo, AlgExpr *e, AlgSymbol *const *syms, size_t nsyms) {
  if (e->nkids == 0) return e;
  AlgExpr *known = alg_node_memo_get(memo, e->id);
  if (known) return known;
  AlgExpr **kids = alg_scratch(ctx, e->nkids);
  for (size_t i = 0; i < e->nkids; i++) kids[i] = collect(ctx, memo, e->kids[i], syms, nsyms);
  AlgExpr *result = e->kind == ALG_ADD ? collect_terms(ctx, e->nkids, kids, syms, nsyms)
                                       : alg_make(ctx, e->kind, e->nkids, kids);
  alg_node_memo_put(memo, e->id, result);
  return result;
}

AlgExpr *alg_collect(AlgCtx *ctx, AlgExpr *e, AlgSymbol *const *syms, size_t nsyms) {
  Memo memo;
  alg_node_memo_init(&memo);
  AlgExpr *result = collect(ctx, &memo, e, syms, nsyms);
  alg_node_memo_free(&memo);
  return result;
}

/* ---- expansion ---- */

static AlgExpr *expand(AlgCtx *ctx, Memo *memo, AlgExpr *e);

/* The product of factors with every sum among them multiplied out. */
static AlgExpr *expand_product(AlgCtx *ctx, size_t n, AlgExpr *const *factors, AlgExpr *whole) {
  size_t count = 1;
  for (size_t i = 0; i < n; i++) {
    if (factors[i]->kind == ALG_ADD) count *= factors[i]->nkids;
    if (count > ALG_EXPAND_MAX_TERMS) return whole;
  }
  AlgExpr **terms = alg_scratch(ctx, count);
  AlgExpr **next = alg_scratch(ctx, count);
  size_t nterms = 1;
  terms[0] = alg_num_int(ctx, 1);
  for (size_t i = 0; i < n; i++) {
    AlgExpr *f = factors[i];
    size_t width = f->kind == ALG_ADD ? f->nkids : 1;
    size_t nnext = 0;
    for (size_t t = 0; t < nterms; t++)
      for (size_t k = 0; k < width; k++)
        next[nnext++] = alg_mul(ctx, terms[t], f->kind == ALG_ADD ? f->kids[k] : f);
    AlgExpr **swap = terms;
    terms = next;
    next = swap;
    nterms = nnext;
  }
  return alg_add_n(ctx, nterms, terms);
}

static AlgExpr *expand(AlgCtx *ctx, Memo *memo, AlgExpr *e) {
  if (e->nkids == 0) return e;
  AlgExpr *known = alg_node_memo_get(memo, e->id);
  if (known) return known;
  AlgExpr **kids = alg_scratch(ctx, e->nkids);
  for (size_t i = 0; i < e->nkids; i++) kids[i] = expand(ctx, memo, e->kids[i]);
  AlgExpr *result = alg_make(ctx, e->kind, e->nkids, kids);
  if (result->kind == ALG_POW && result->kids[0]->kind == ALG_ADD && alg_num_is_integer(result->kids[1]) &&
      mpq_sgn(result->kids[1]->u.num) > 0 && mpz_cmp_ui(mpq_numref(result->kids[1]->u.num), ALG_EXPAND_MAX_POWER) <= 0) {
    size_t n = mpz_get_ui(mpq_numref(result->kids[1]->u.num));
    AlgExpr **factors = alg_scratch(ctx, n);
    for (size_t i = 0; i < n; i++) factors[i] = result->kids[0];
    result = expand_product(ctx, n, factors, result);
  } else if (result->kind == ALG_MUL) {
    int has_sum = 0;
    for (size_t i = 0; i < result->nkids; i++) {
      AlgExpr *k = result->kids[i];
      if (k->kind == ALG_ADD || (k->kind == ALG_POW && k->kids[0]->kind == ALG_ADD)) has_sum = 1;
    }
    if (has_sum) {
      AlgExpr **factors = alg_scratch(ctx, result->nkids);
      for (size_t i = 0; i < result->nkids; i++) factors[i] = expand(ctx, memo, result->kids[i]);
      result = expand_product(ctx, result->nkids, factors, result);
    }
  }
  alg_node_memo_put(memo, e->id, result);
  return result;
}

AlgExpr *alg_expand(AlgCtx *ctx, AlgExpr *e) {
  Memo memo;
  alg_node_memo_init(&memo);
  AlgExpr *result = expand(ctx, &memo, e);
  alg_node_memo_free(&memo);
  return result;
}

/* ---- derivatives ---- */

AlgExpr *alg_diff(AlgCtx *ctx, AlgExpr *e, AlgSymbol *sym) {
  if (!alg_contains(e, sym)) return alg_num_int(ctx, 0);
  switch (e->kind) {
  case ALG_SYM: return alg_num_int(ctx, 1);
  case ALG_ADD: {
    AlgExpr **terms = alg_scratch(ctx, e->nkids);
    for (size_t i = 0; i < e->nkids; i++)
      if (!(terms[i] = alg_diff(ctx, e->kids[i], sym))) return NULL;
    return alg_add_n(ctx, e->nkids, terms);
  }
  case ALG_MUL: {   /* (f g h)' = f' g h + f g' h + f g h' */
    AlgExpr **terms = alg_scratch(ctx, e->nkids);
    AlgExpr **factors = alg_scratch(ctx, e->nkids);
    for (size_t i = 0; i < e->nkids; i++) {
      for (size_t k = 0; k < e->nkids; k++) factors[k] = e->kids[k];
      if (!(factors[i] = alg_diff(ctx, e->kids[i], sym))) return NULL;
      terms[i] = alg_mul_n(ctx, e->nkids, factors);
    }
    return alg_add_n(ctx, e->nkids, terms);
  }
  case ALG_POW: {
    AlgExpr *base = e->kids[0], *exponent = e->kids[1];
    if (!alg_contains(exponent, sym)) {   /* c b^(c-1) b' */
      AlgExpr *db = alg_diff(ctx, base, sym);
      if (!db) return NULL;
      AlgExpr *power = alg_pow(ctx, base, alg_sub(ctx, exponent, alg_num_int(ctx, 1)));
      return alg_mul(ctx, alg_mul(ctx, exponent, power), db);
    }
    if (!alg_contains(base, sym)) {   /* b^c log(b) c' */
      AlgExpr *dc = alg_diff(ctx, exponent, sym);
      if (!dc) return NULL;
      return alg_mul(ctx, alg_mul(ctx, e, alg_func(ctx, ALG_LOG, base)), dc);
    }
    return NULL;
  }
  case ALG_EXP: case ALG_LOG: case ALG_LOG2: case ALG_SQRT: {
    AlgExpr *x = e->kids[0];
    AlgExpr *dx = alg_diff(ctx, x, sym);
    if (!dx) return NULL;
    AlgExpr *outer;
    if (e->kind == ALG_EXP) outer = e;
    else if (e->kind == ALG_LOG) outer = alg_pow(ctx, x, alg_num_int(ctx, -1));
    else if (e->kind == ALG_LOG2)
      outer = alg_pow(ctx, alg_mul(ctx, x, alg_func(ctx, ALG_LOG, alg_num_int(ctx, 2))), alg_num_int(ctx, -1));
    else outer = alg_pow(ctx, alg_mul(ctx, alg_num_int(ctx, 2), e), alg_num_int(ctx, -1));
    return alg_mul(ctx, outer, dx);
  }
  case ALG_LOWER: case ALG_UPPER: return NULL;
  default: return NULL;
  }
}

/* ---- quotients ---- */

void alg_split_quotient(AlgCtx *ctx, AlgExpr *e, AlgExpr **num, AlgExpr **den) {
  *num = e;
  *den = NULL;
  if (e->kind != ALG_MUL) return;
  AlgExpr **up = malloc((e->nkids + 1) * sizeof *up), **down = malloc((e->nkids + 1) * sizeof *down);
  if (!up || !down) { free(up); free(down); return; }
  size_t nup = 0, ndown = 0;
  for (size_t i = 0; i < e->nkids; i++) {
    AlgExpr *k = e->kids[i];
    if (k->kind == ALG_NUM && mpz_cmp_ui(mpq_denref(k->u.num), 1) != 0) {
      mpq_t part;
      mpq_init(part);
      mpq_set_z(part, mpq_numref(k->u.num));
      if (mpz_cmp_ui(mpq_numref(k->u.num), 1) != 0) up[nup++] = alg_num_q(ctx, part);
      mpq_set_z(part, mpq_denref(k->u.num));
      down[ndown++] = alg_num_q(ctx, part);
      mpq_clear(part);
    } else if (k->kind == ALG_POW && k->kids[1]->kind == ALG_NUM && mpq_sgn(k->kids[1]->u.num) < 0 &&
               mpz_cmp_ui(mpq_denref(k->kids[1]->u.num), 1) == 0) {
      down[ndown++] = alg_pow(ctx, k->kids[0], alg_neg(ctx, k->kids[1]));
    } else {
      up[nup++] = k;
    }
  }
  if (ndown > 0) {
    *num = alg_mul_n(ctx, nup, up);
    *den = alg_mul_n(ctx, ndown, down);
  }
  free(up);
  free(down);
}
