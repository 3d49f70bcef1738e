/*
** reduce_wait.c — the order-aware lower bound of one branch's wait at the chain's first stage
** (docs/reduction.md, "The wait behind the requests ahead"): all branches reach an FCFS stage at
** one instant, in index order, so a late branch starts there only once the servers have done most
** of the work of those ahead of it. Read on unequal requests to m servers (a pool of workers
** taking tasks of mixed sizes, a pipeline of replicated stages fed at once).
*/
#include "reduce_order.h"

/* Branches read at the end of the range (the last ones wait longest; sizes periodic in the
** index with a period of up to this many meet every size among them). */
#define WAIT_LAST_BRANCHES 12

/* st at its first iteration: the first use of the chain (only delays before it, so every branch
** reaches it at its contention-free head), on an FCFS resource, one member for all branches
** (a stage), run by every branch (no condition, no loop whose range depends on k, no par of the
** body around it), outside loops or in one loop whose range is free of k (its first iteration,
** which runs where the loop is not empty: *runs). Its head at that iteration must be free of k. */
static int first_request(const OWalk *w, const OStage *st, AlgExpr **head, AlgExpr **t, AlgExpr **runs) {
  RCtx *c = w->c;
  AlgCtx *g = c->alg;
  if (st->cls != USE_STAGE || st->site != 0 || st->reps || st->gap || st->guard || st->kguard || st->kloop)
    return 0;
  if (st->res->u.resource.discipline != DISC_FCFS || st->res->u.resource.handoff) return 0;
  if (w->k2 || w->subset || w->guarded || w->forks || w->holds || w->too_many || !w->sites) return 0;
  *head = st->head; *t = st->t; *runs = alg_num_int(g, 1);
  if (st->loops > 1 || (st->loops == 1 && !st->loop)) return 0;
  if (st->loops == 1) {
    if (order_by_branch(w, st->loop_lo) || order_by_branch(w, st->loop_hi)) return 0;
    *head = alg_subst(g, st->head, st->loop, st->loop_lo);
    *t = alg_subst(g, st->t, st->loop, st->loop_lo);
    *runs = alg_cmp(g, ALG_CMP_LE, st->loop_lo, st->loop_hi);
  }
  return !order_by_branch(w, *head);
}

/* Rule (order-aware lower bound, the wait behind the requests ahead): every branch's first
** request goes to one FCFS stage of m servers (first_request) at the same instant h, in index
** order (LANGUAGE.md §6), so branch k's request starts at s_k only after the requests of branches
** a .. k - 1 have all started. At s_k at most m - 1 of them are still in service (k takes a
** server), each with at most t_max left, and none was served before h: the m servers did at
** least W_k - (m - 1) t_max of their work in [h, s_k], W_k = sum over j = a .. k - 1 of t(j), so
**   s_k >= h + (W_k - (m - 1) t_max) / m
** and branch k, which still runs its request and what follows at their contention-free times,
** ends at least at s_k - h after its contention-free time:
**   T >= phi(k) + (W_k - (m - 1) t_max) / m      for each k of the range
** Other requests at the stage (from beside the par, or the branches' later ones, which come
** after h) only delay s_k: the argument counts work done, not order, beyond the branches ahead.
** Read at the last WAIT_LAST_BRANCHES branches, W_k = W - (t(k) + ... + t(b)). M = 24 records of
** 1, 2, 3 units through S stages of fcfs(2): record 23 starts at the first stage at >= (45 - 2) / 2
** = 21.5 units, then passes S stages of 3: 21.5 + 3 S (simulated: 22 + 3 S; each stage alone and
** the header's path gave 3 S, 31 units at S = 8 against 46). */
AlgExpr *order_wait_lower(OWalk *w, const OStage *st, AlgExpr *total) {
  RCtx *c = w->c;
  AlgCtx *g = c->alg;
  AlgExpr *head, *t, *runs;
  if (!first_request(w, st, &head, &t, &runs)) return NULL;
  AlgExpr *one = alg_num_int(g, 1), *zero = alg_num_int(g, 0);
  AlgExpr *m = reduce_mult(c, st->res);
  /* t_max enters with a minus sign: it must close (an upper value of a marked max would not do) */
  AlgExpr *t_max = alg_close(g, order_over_branches(w, ALG_MAXOVER, t), ALG_DIR_UPPER);
  if (alg_is_approx(t_max)) return NULL;
  AlgExpr *all = order_over_branches(w, ALG_SUM, t);   /* W (a marked sum stays a lower value) */
  AlgExpr *slack = alg_mul(g, alg_sub(g, m, one), t_max);
  AlgExpr *ahead = all, *best = NULL;
  for (int i = 0; i < WAIT_LAST_BRANCHES; i++) {
    AlgExpr *k = alg_sub(g, w->kb, alg_num_int(g, i));
    ahead = alg_sub(g, ahead, alg_subst(g, t, w->k, k));   /* W_k */
    AlgExpr *wait = alg_div(g, alg_sub(g, ahead, slack), m);
    AlgExpr *lo = alg_add(g, alg_subst(g, total, w->k, k), wait);
    lo = alg_cond(g, alg_cmp(g, ALG_CMP_GE, k, w->ka), lo, zero);
    best = best ? alg_max(g, best, lo) : lo;
  }
  return alg_cond(g, runs, best, zero);
}
