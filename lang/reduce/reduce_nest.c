/*
** reduce_nest.c — members dealt to the pairs of nested pars (docs/reduction.md, "Members dealt
** to the pairs of nested pars"): `par (i) par (j) use(port[f(i, j)], t)` where f is one-to-one in
** one index for every value of the other, so that every member of the family gets exactly as many
** requests as the other index has values. The walk of reduce_order.c reads the nested par as one
** par over the pairs (k, k2); this file counts its branches per member for the dealt-member rules.
*/
#include <string.h>

#include "reduce_order.h"

static AlgExpr *zero(RCtx *c) { return alg_num_int(c->alg, 0); }

/* The members the values of index e can lie in, at most: M for a remainder `x % M` (values in
** 0 .. M - 1, M a positive integer free of the branch), else the family's size (every member index
** lies in 0 .. size - 1: the model's index check). */
static AlgExpr *value_window(const OWalk *w, const Decl *res, AlgExpr *e) {
  RCtx *c = w->c;
  AlgCtx *g = c->alg;
  if (alg_kind(e) == ALG_MOD) {
    AlgExpr *M = alg_kid(e, 1);
    if (!order_by_branch(w, M) && order_integer_valued(c, M) && alg_bounds(g, M).lo >= 1) return M;
  }
  REnv none;
  memset(&none, 0, sizeof none);
  return reduce_expr(c, &none, res->u.resource.count);
}

/* Rule (members dealt to the pairs of nested pars): the branches are the pairs (k, k2), k over
** n1 values, k2 over n2, and the index e(k, k2) is one-to-one in k2 for every fixed k
** (reduce_order_injective_in, k held as a symbol), its values within a window of W members
** (value_window). Then for each k the n2 branches (k, .) name n2 distinct members, so no member is
** named by more than n1 branches; and where n2 - W >= 0 (proved, or tested at each point in
** d->holds), the n2 distinct values fill the whole window: every member of it is named by exactly
** one branch (k, .) for every k, n1 in all (d->most = d->fullest = d->first = n1). The same with
** k and k2 exchanged (e one-to-one in k for every k2: n2 each). `par (i = 0, Q - 1) par (j = 0,
** Q - 1) use(port[(j + 1) % Q], t)`, and `port[(i + j) % Q]`: Q requests at every port. Fills *d
** and returns 1, or returns 0. */
int order_pair_counts(const OWalk *w, const Decl *res, AlgExpr *index, ODealt *d) {
  RCtx *c = w->c;
  AlgCtx *g = c->alg;
  if (!w->k2 || !index || !res || !res->u.resource.count) return 0;
  AlgExpr *one = alg_num_int(g, 1);
  AlgExpr *n1 = alg_max(g, zero(c), alg_add(g, alg_sub(g, w->kb, w->ka), one));
  AlgExpr *n2 = alg_max(g, zero(c), alg_add(g, alg_sub(g, w->k2b, w->k2a), one));
  AlgExpr *count, *values;   /* the requests per member; the distinct members per outer value */
  if (reduce_order_injective_in(c, index, w->k2, w->k2a, w->k2b)) count = n1, values = n2;
  else if (reduce_order_injective_in(c, index, w->k, w->ka, w->kb)) count = n2, values = n1;
  else return 0;
  AlgExpr *room = alg_sub(g, values, value_window(w, res, index));
  d->most = d->fullest = d->first = count;
  d->holds = alg_is_nonneg(g, room) ? one : alg_cmp(g, ALG_CMP_GE, room, zero(c));
  return 1;
}
