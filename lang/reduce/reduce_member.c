/*
** reduce_member.c — demand per member of a family (docs/reduction.md, "Demand per member of a
** family"): of the demand whose member is no longer named (a loop over the member's index was
** closed), how much every member gets at least (each_lo) and any member at most (each_hi); and
** the wait of a branch of `||` bounded by the demand at the members it can name, not by the
** family's total: a ring shift beside a monitor thread that uses one member.
*/
#include <string.h>

#include "reduce_internal.h"

static AlgExpr *zero(RCtx *c) { return alg_num_int(c->alg, 0); }

/* Rule (demand per member, a one-to-one map closed): closing a loop i = a .. b over a term of
** demand d(i) on r[e(i)] with e one-to-one in i (reduce_order_injective_in), the n = b - a + 1
** requests name distinct members, so no member gets more than max_i d_hi(i) of them: each_hi
** grows by that. Where n - size >= 0 is proved (size: the family's members) and d_lo is free of
** i, the n distinct members, all in 0 .. size - 1 (the index check), are the whole family: every
** member gets d_lo, and each_lo grows by that. Any other map leaves each_hi unknown (NULL).
** `par (p = 0, P - 1) { use(nic[(p + 1) % P], 5us); use(nic[(p + 2) % P], 5us) }`: every nic
** gets 10us, none more. */
void reduce_member_close(RCtx *c, RFam *fam, const RTerm *term, AlgSymbol *i, AlgExpr *a, AlgExpr *b) {
  AlgCtx *g = c->alg;
  if (!reduce_order_injective_in(c, term->index, i, a, b)) { fam->each_hi = NULL; return; }
  AlgExpr *most = alg_contains(term->d_hi, i) ? alg_max_over(g, i, a, b, term->d_hi) : term->d_hi;
  if (fam->each_hi) fam->each_hi = alg_add(g, fam->each_hi, most);
  REnv none;
  memset(&none, 0, sizeof none);
  AlgExpr *size = reduce_expr(c, &none, term->res->u.resource.count);
  AlgExpr *count = alg_add(g, alg_sub(g, b, a), alg_num_int(g, 1));
  if (!alg_contains(term->d_lo, i) && alg_is_nonneg(g, alg_sub(g, count, size)))
    fam->each_lo = alg_add(g, fam->each_lo, term->d_lo);
}

/* Rule (members a par's branch names): for `par (i = a, b) S` over one piece whose body S is a
** chain that names members of family r only by open index expressions (no loop over them inside
** S), one branch names at most V members of r, V the number of distinct index expressions (terms)
** of S on r, and makes a demand of at least own = min over i of S's demand on r (upper-bound use
** values) there: recorded in the par's summary (visits, own_hi) for reduce_member_wait. */
void reduce_member_visits(RCtx *c, Summary *out, const Summary *body, AlgSymbol *i, AlgExpr *a,
                          AlgExpr *b) {
  AlgCtx *g = c->alg;
  if (!body->chain) return;
  for (int f = 0; f < out->nfams; f++) {
    RFam *fam = &out->fams[f];
    const RFam *in = reduce_family_of(body, fam->res);
    if (!in || in->spread_lo || !alg_is_num(in->extra_hi, 0) || !alg_is_num(in->extra_lo, 0)) continue;
    int named = 0;
    for (int k = 0; k < body->nterms; k++) named += body->terms[k].res == fam->res;
    if (named == 0) continue;
    AlgExpr *own = reduce_family_total(c, body, fam->res);
    fam->visits = alg_num_int(g, named);
    fam->own_hi = alg_contains(own, i) ? alg_min_over(g, i, a, b, own) : own;
  }
}

/* Rule (a wait bounded by the demand at the members named; upper bound): branch of `||` inside
** whole, a chain that names members of family r only by index expressions (V of them, its demand
** own), or a par whose branches are such chains (reduce_member_visits: V, the least own). A chain
** waits at one member at a time, and while it waits there the m_r servers of that member serve
** other requests; each of those is served once, so the chain's waits together are at most the
** others' demand at the members it names, over m_r. At each of its V members the unnamed demand
** of whole is at most each_hi, and the named demand of whole (its terms on r) at most all of it,
** counted once over the V members (a request sits at one member); the chain's own requests are
** among these:
**   wait <= max(0, V each_hi + named - own) / m_r.
** NULL when the rule does not apply (each_hi unknown, or a branch of another shape). A monitor
** thread that uses nic[0] for 7us beside `par (p) { use(nic[(p + 1) % P], 5us); use(nic[(p + 2)
** % P], 5us) }`: the ring's chains wait at most 2 x 10 + 7 - 10 = 17us, the monitor 10us, so
** hi = 27us against the simulated 17us (the family as one resource: 10 P + 17 us). */
AlgExpr *reduce_member_wait(RCtx *c, const Summary *whole, const Summary *branch, const RFam *fam) {
  AlgCtx *g = c->alg;
  const RFam *all = reduce_family_of(whole, fam->res);
  if (!all || !all->each_hi) return NULL;
  AlgExpr *visits, *own;
  if (fam->visits) {
    visits = fam->visits; own = fam->own_hi;
  } else if (branch->chain && !fam->spread_lo && alg_is_num(fam->extra_hi, 0) && alg_is_num(fam->extra_lo, 0)) {
    int named = 0;
    for (int k = 0; k < branch->nterms; k++) named += branch->terms[k].res == fam->res;
    if (named == 0) return NULL;
    visits = alg_num_int(g, named);
    own = reduce_family_total(c, branch, fam->res);
  } else {
    return NULL;
  }
  AlgExpr *named = zero(c);
  for (int k = 0; k < whole->nterms; k++)
    if (whole->terms[k].res == fam->res) named = alg_add(g, named, whole->terms[k].d_hi);
  AlgExpr *W = alg_sub(g, alg_add(g, alg_mul(g, visits, all->each_hi), named), own);
  return alg_div(g, alg_max(g, zero(c), W), reduce_mult(c, fam->res));
}
