/*
** reduce_inorder.c — the order-aware lower bound of a stage the items reach in the order of their
** index (docs/reduction.md, "Pars whose branches are the same chain", "A stage served in index
** order"): requests made at one instant queue in increasing index (LANGUAGE.md), and single-server
** stages that every item passes keep that order, so the last items' work at a stage comes after
** all the work of the items before them, whatever their tails.
*/
#include "reduce_order.h"

/* Items at the end of the range whose completions the rule below takes (the period of the
** durations and tails in k when one is found up to this, else only the last item). */
#define INORDER_MAX_LAST 16

static AlgExpr *zero(RCtx *c) { return alg_num_int(c->alg, 0); }

/* 1 when stage j of the chain passes the items on in the order they arrive: one member for all
** branches (a plain resource or an index free of k) of one server, outside loops and conditions,
** requested by every branch, the j-th use of the chain (every use before it is a stage too: no
** request the rule does not see), and the time between it and the stage before it (or the chain's
** start) free of k: a delay, the same for every item. */
static int in_order_stage(const OWalk *w, int j) {
  RCtx *c = w->c;
  AlgCtx *g = c->alg;
  const OStage *st = &w->stages[j];
  if (st->cls != USE_STAGE || st->loop || st->loops || st->kguard || st->guard || st->kloop || st->gap || st->reps ||
      st->held_end || st->bad || st->site != j)
    return 0;
  if (!alg_is_num(reduce_mult(c, st->res), 1)) return 0;
  AlgExpr *before = j == 0 ? zero(c) : alg_add(g, w->stages[j - 1].head, w->stages[j - 1].t);
  return !order_by_branch(w, alg_expand(g, alg_sub(g, st->head, before)));
}

/* Rule (a stage served in index order, lower bound): in a chain (no `||`, par or hold in the
** body), stage s and every stage before it pass the items in order (in_order_stage), each stage
** before s with durations > 0 (tested at each point). The branches start at one instant, reach the
** first stage after the same delay and queue there in increasing index (requests made at one
** instant queue so); a single FCFS server ends them in that order, each t > 0 after the one
** before, and the same delay to the next stage keeps the order: so the items reach s in index
** order, none before the first item a, no earlier than its contention-free head H(a). One server
** serves them in that order, so item k leaves s no earlier than H(a) + sum over j = a .. k of
** t(j), and then runs at least its contention-free tail:
**   T >= H(a) + max over k of (sum_{j = a}^{k} t(j) + tail(k))
** taken at the last L items (L the period of t and the tail in k, at most INORDER_MAX_LAST; 1
** where none is found). Other requests at these resources only delay: the order stands in any
** context. Every 4th packet slow at the classify (6 us against 2 us), the even ones then
** encrypted (4 us), M = 8: 1 + 22 + 5.5 = 28.5 us from packet 6, the simulated time (the stage
** rule: 1 + 24 + 1.5 = 26.5 us, the tail of packet 7). NULL when the chain is not such. */
AlgExpr *order_inorder_lower(OWalk *w, const OStage *st, AlgExpr *total) {
  RCtx *c = w->c;
  AlgCtx *g = c->alg;
  if (w->subset || w->forks || w->holds || w->k2 || !w->sites || w->too_many) return NULL;
  int s = (int)(st - w->stages);
  AlgExpr *positive = alg_num_int(g, 1);
  for (int j = 0; j <= s; j++) {
    if (!in_order_stage(w, j)) return NULL;
    if (j < s)
      positive = alg_and(g, positive, alg_cmp(g, ALG_CMP_GT, order_over_branches(w, ALG_MINOVER, w->stages[j].t), zero(c)));
  }
  AlgExpr *tail = order_tail(w, st, total);
  long L = release_period(c, alg_add(g, st->t, tail), w->k);
  if (L < 1 || L > INORDER_MAX_LAST) L = 1;
  AlgSymbol *j = alg_index_new(g, "j", w->ka, w->kb);
  AlgExpr *work_j = alg_subst(g, st->t, w->k, alg_sym(g, j));
  AlgExpr *best = zero(c);
  for (long d = 0; d < L; d++) {
    AlgExpr *k = alg_sub(g, w->kb, alg_num_int(g, d));
    AlgExpr *done = order_closed(c, alg_sum(g, j, w->ka, k, work_j));
    if (!done) continue;   /* no closed form: this item is left out (any item gives a bound) */
    AlgExpr *x = alg_add(g, done, alg_subst(g, tail, w->k, k));
    AlgExpr *there = alg_cmp(g, ALG_CMP_GE, w->n, alg_num_int(g, d + 1));
    best = alg_max(g, best, alg_cond(g, there, x, zero(c)));
  }
  AlgExpr *head = alg_subst(g, st->head, w->k, w->ka);
  return alg_cond(g, positive, alg_add(g, head, best), zero(c));
}
