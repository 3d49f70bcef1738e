/*
** reduce_except.c — a member map one-to-one but for a few branches (docs/reduction.md, "A map
** one-to-one but for an exception"): `nic[p == 0 ? 2 % P : (p + 1) % P]`, a ring shift whose
** first rank sends elsewhere. The branches split into the ranges where the `?:`'s condition holds
** and where it fails; on each range its side is one-to-one, so a member is named by at most one
** branch of each range.
*/
#include "reduce_order.h"

static AlgExpr *zero(RCtx *c) { return alg_num_int(c->alg, 0); }

/* A range of the branches with the side of the `?:` that runs there. */
typedef struct XRange {
  AlgExpr *lo, *hi;     /* the branches lo .. hi (clipped to the par's range) */
  AlgExpr *side;        /* the member index there */
} XRange;

/* 1 when lo .. hi holds one index at most for every admissible value. */
static int one_index(AlgCtx *g, AlgExpr *lo, AlgExpr *hi) { return alg_is_nonneg(g, alg_sub(g, lo, hi)); }

/* The test that the point range p (one index) and the range r, whose side is (+-k + u) % K (u, K
** free of k), name one member: x = p's member, the index k* = (x - u) % K (or (u - x) % K) of r's
** side that gives x when 0 <= x <= K - 1, and k* in r. NULL when r's side has another shape. */
static AlgExpr *collide(const OWalk *w, const XRange *p, const XRange *r) {
  RCtx *c = w->c;
  AlgCtx *g = c->alg;
  AlgExpr *e = r->side;
  if (alg_kind(e) != ALG_MOD || order_by_branch(w, alg_kid(e, 1))) return NULL;
  AlgExpr *inner = alg_kid(e, 0), *K = alg_kid(e, 1);
  AlgExpr *slope = alg_diff(g, inner, w->k);
  if (!slope || !(alg_is_num(slope, 1) || alg_is_num(slope, -1))) return NULL;
  AlgExpr *u = alg_sub(g, inner, alg_mul(g, slope, alg_sym(g, w->k)));
  if (alg_contains(u, w->k)) return NULL;
  AlgExpr *x = alg_subst(g, p->side, w->k, p->lo);
  AlgExpr *at = alg_mod(g, alg_is_num(slope, 1) ? alg_sub(g, x, u) : alg_sub(g, u, x), K);
  AlgExpr *one = alg_num_int(g, 1);
  return alg_and(g, alg_and(g, alg_cmp(g, ALG_CMP_GE, x, zero(c)), alg_cmp(g, ALG_CMP_LE, x, alg_sub(g, K, one))),
                 alg_and(g, alg_cmp(g, ALG_CMP_GE, at, r->lo), alg_cmp(g, ALG_CMP_LE, at, r->hi)));
}

/* Rule (a map one-to-one but for an exception): an index `cond ? X : Y`, cond a comparison of the
** branch index k with an integer-valued expression free of it (order_cut_ranges: at most two
** ranges where it holds, two where it fails, clipped to the par's range a .. b; those empty for
** every admissible value left out), each side one-to-one in k on each of its ranges
** (reduce_order_injective_in) or on a range of one index: two branches of one range name distinct
** members, so no member is named by more than R branches, R the ranges left (d->most = R). Some
** member is named by at least one branch (d->fullest = 1 where the par runs), and by two where a
** range of one index (the exception, branch e) and a range whose side is (+-k + u) % K name one
** member: X(e) = x with 0 <= x <= K - 1 and k* = (x - u) % K (or (u - x) % K) in that range, so
** that (+-k* + u) % K = x (tested at each point). The count at the first branch's member is not
** claimed (d->first NULL). `nic[p == 0 ? 2 % P : (p + 1) % P]`: R = 2, and member 2 % P is named
** by branches 0 and 1 where P >= 2. Fills *d and returns 1, or returns 0. */
int order_except_counts(const OWalk *w, AlgExpr *index, ODealt *d) {
  RCtx *c = w->c;
  AlgCtx *g = c->alg;
  if (w->k2 || !index || alg_kind(index) != ALG_COND) return 0;
  AlgExpr *tl[4], *th[4];
  int nt = 0, nf = 0;
  if (!order_cut_ranges(c, alg_kid(index, 0), w->k, w->ka, w->kb, tl, th, &nt, tl + 2, th + 2, &nf)) return 0;
  XRange ranges[4];
  int n = 0;
  for (int r = 0; r < 4; r++) {
    if ((r < 2 && r >= nt) || (r >= 2 && r - 2 >= nf)) continue;
    AlgExpr *lo = alg_max(g, w->ka, tl[r]), *hi = alg_min(g, w->kb, th[r]);
    AlgExpr *width = alg_sub(g, hi, lo);
    if (alg_kind(width) == ALG_NUM && mpq_sgn(alg_num_value(width)) < 0) continue;   /* empty */
    AlgExpr *side = alg_kid(index, r < 2 ? 1 : 2);
    if (!one_index(g, lo, hi) && !reduce_order_injective_in(c, side, w->k, lo, hi)) return 0;
    ranges[n++] = (XRange){lo, hi, side};
  }
  if (n == 0) return 0;
  AlgExpr *two = NULL;   /* where some member is named twice */
  for (int p = 0; p < n; p++) {
    if (!one_index(g, ranges[p].lo, ranges[p].hi)) continue;
    for (int r = 0; r < n; r++) {
      if (r == p) continue;
      AlgExpr *meet = collide(w, &ranges[p], &ranges[r]);
      /* both ranges hold their indices: the point lies in the par's range */
      if (meet) meet = alg_and(g, meet, alg_cmp(g, ALG_CMP_LE, ranges[p].lo, ranges[p].hi));
      if (meet) two = two ? alg_or(g, two, meet) : meet;
    }
  }
  AlgExpr *one = alg_num_int(g, 1);
  d->most = alg_num_int(g, n);
  d->fullest = two ? alg_cond(g, two, alg_num_int(g, 2), one) : one;
  d->first = NULL;
  d->holds = one;
  return 1;
}
