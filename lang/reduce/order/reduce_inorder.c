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

/* 1 when stage j of the chain is a request of one server on one member for all branches, outside
** loops and conditions free of k, the j-th use of the chain (as in_order_stage, but for the time
** before it and the `if`s on k around it, which the class rule reads at each class). */
static int class_stage(const OWalk *w, int j) {
  const OStage *st = &w->stages[j];
  if (st->cls != USE_STAGE || st->loop || st->loops || st->guard || st->kloop || st->gap || st->reps || st->held_end ||
      st->bad || st->site != j)
    return 0;
  return alg_is_num(reduce_mult(w->c, st->res), 1);
}

/* The least common multiple of *L and the period of e in k (release_period); 0 when e has none or
** the multiple passes INORDER_MAX_LAST. */
static long with_period(RCtx *c, long L, AlgExpr *e, AlgSymbol *k) {
  if (!L || !e) return L;
  long p = release_period(c, e, k);
  if (p < 1) return 0;
  long a = L, b = p;
  while (b) { long r = a % b; a = b; b = r; }
  L = L / a * p;
  return L > INORDER_MAX_LAST ? 0 : L;
}

/* Rule (a stage served in index order within a class, lower bound): in a chain (no `||`, par or
** hold in the body), stage s and every stage before it as in class_stage, their guards on k,
** durations, heads and the tail after s depending on k only through remainders, with period L.
** The branches of one class k = a + r (mod L) take the same steps for the same times: each
** guard holds for all of them or none (tested: a number at k = a + r). They start at one instant,
** reach the first stage they request after the same delay and queue there in increasing index;
** each stage they request (one server, t > 0 at k = a + r, tested at each point) ends them in that
** order, the same delay apart; other branches between them only delay. So the class's q_r items
** reach s in index order, none before its first item's contention-free head H_r, and the last of
** them leaves s no earlier than H_r + q_r t_s(a + r), then runs its tail:
**   T >= max over the classes r that request s of H_r + q_r t_s(a + r) + tail(a + r)
** Even requests decoded (5 us), every request through mid (1 us), the odd ones 10 us after it,
** M = 4: the odd ones reach mid at 0 and queue there, 1 and 3: 0 + 2 + 10 = 12 us, the simulated
** time (the even ones delay the odd ones nowhere; the stage rule: 11 us). NULL when not such. */
AlgExpr *order_class_inorder_lower(OWalk *w, const OStage *st, AlgExpr *total) {
  RCtx *c = w->c;
  AlgCtx *g = c->alg;
  if (w->subset || w->forks || w->holds || w->k2 || !w->sites || w->too_many) return NULL;
  int s = (int)(st - w->stages);
  AlgExpr *tail = order_tail(w, st, total);
  long L = with_period(c, 1, tail, w->k);
  for (int j = 0; j <= s && L; j++) {
    if (!class_stage(w, j)) return NULL;
    const OStage *x = &w->stages[j];
    L = with_period(c, with_period(c, with_period(c, L, x->kguard, w->k), x->t, w->k), x->head, w->k);
  }
  if (L < 2) return NULL;   /* one class: the rule above */
  AlgExpr *best = NULL;
  for (long r = 0; r < L; r++) {
    AlgExpr *k = alg_add(g, w->ka, alg_num_int(g, r)), *positive = alg_num_int(g, 1);
    int ok = 1, requests = 1;
    for (int j = 0; j <= s && ok; j++) {
      const OStage *x = &w->stages[j];
      int on = 1;
      if (x->kguard) {
        AlgExpr *v = alg_subst(g, x->kguard, w->k, k);
        if (alg_kind(v) != ALG_NUM) { ok = 0; break; }
        on = !alg_is_num(v, 0);
      }
      if (j == s) { requests = on; break; }
      if (on) positive = alg_and(g, positive, alg_cmp(g, ALG_CMP_GT, alg_subst(g, x->t, w->k, k), zero(c)));
    }
    if (!ok) return NULL;
    if (!requests) continue;
    AlgExpr *q = release_class_count(w, L, r);
    AlgExpr *x = alg_add(g, alg_add(g, alg_subst(g, st->head, w->k, k), alg_mul(g, q, alg_subst(g, st->t, w->k, k))),
                         alg_subst(g, tail, w->k, k));
    x = alg_cond(g, alg_and(g, positive, alg_cmp(g, ALG_CMP_GE, q, alg_num_int(g, 1))), x, zero(c));
    best = best ? alg_max(g, best, x) : x;
  }
  return best;
}
