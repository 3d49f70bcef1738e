/*
** reduce_rounds.c — an upper bound for branches that pass the same single-server stages round
** after round (docs/reduction.md, "Rounds through single-server stages"): master/worker loops,
** `repeat (R) { use(queue, g); use(cpu[w], t); use(master, p) }`, whose branches queue in the
** first round and come back staggered. The body is walked by reduce_order.c.
*/
#include "reduce_order.h"

static AlgExpr *zero(RCtx *c) { return alg_num_int(c->alg, 0); }

/* 1 when st is a stage of the rule: one member for all branches (a plain resource or a member
** free of the branch and the loops) of a one-server FCFS resource, directly in the body's one
** outer loop, under no condition, and the only site of its resource in the body. */
static int round_stage(const OWalk *w, const OStage *st) {
  RCtx *c = w->c;
  if (st->cls != USE_STAGE || st->loops != 1 || st->loop != w->outer || st->reps || st->gap) return 0;
  if (st->guard || st->kguard || st->kloop || !st->loop_free) return 0;
  if (st->res->u.resource.discipline != DISC_FCFS || st->res->u.resource.handoff) return 0;
  if (!alg_is_num(reduce_mult(c, st->res), 1)) return 0;
  for (int i = 0; i < w->nsites; i++)
    if (&w->sites[i] != &w->sites[st->site] && w->sites[i].res == st->res) return 0;
  return 1;
}

/* Rule (rounds through single-server stages, upper bound): the body is a chain (no `||`, par,
** hold or `if` on k), every duration free of k, with one outer loop of R rounds whose iterations
** run the same steps for the same times (iter each, free of the loop's index); every use is free
** (m >= n), on a member the branch alone ever uses, or a stage (round_stage) of one server that
** lasts t_s > 0, all the stages inside the loop. Then every branch reaches the first stage of its
** first round at one instant, the stages keep the rounds in order (a one-server FCFS stage whose
** requests last > 0 ends them at distinct instants, so a request of round r reaches every stage
** strictly before any of round r + 1), and with A_s(j), D_s(j) the j-th arrival and departure at
** stage s (j = 1 .. R n): D_s(j) <= max(A_s(j), D_s(j - 1)) + t_max, A_s(j) = D_{s-1}(j) + b_s,
** and at the first stage A_1(j) = h (j <= n) or D_S(j - n) + b_0 (the (j - n)-th departure from
** the last stage is of a round before the last: its branch comes back). Unrolled, D_S(R n) is a
** lattice path that goes round the stages c + 1 times (0 <= c <= R - 1) and spends the rest of
** the R n - 1 steps of j (each round uses n) one request at a time: at most
**   U = phi + max over c of ((c + 1 - R) iter + (R n - 1 - c n) t_max)
**     = phi + max((n - 1) t_max, (R n - 1) t_max - (R - 1) iter)     (linear in c)
** *holds: where the stages' durations are not proved > 0, the condition on the params. */
AlgExpr *order_rounds_upper(OWalk *w, AlgExpr *total, AlgExpr **holds) {
  RCtx *c = w->c;
  AlgCtx *g = c->alg;
  *holds = alg_num_int(g, 1);
  if (w->other || w->forks || w->guarded || w->vary || w->holds || w->kif || w->too_many || !w->sites) return NULL;
  if (w->outer_loops != 1 || !w->outer_fixed || alg_contains(w->outer_iter, w->outer)) return NULL;
  AlgExpr *t_max = NULL;
  for (int i = 0; i < w->nstages; i++) {
    const OStage *st = &w->stages[i];
    if (st->cls == USE_OWN) { if (!order_own_alone(w, st)) return NULL; continue; }
    if (st->site < 0 || !round_stage(w, st)) return NULL;
    t_max = t_max ? alg_max(g, t_max, st->t) : st->t;
    if (alg_bounds(g, st->t).lo <= 0) *holds = alg_and(g, *holds, alg_cmp(g, ALG_CMP_GT, st->t, zero(c)));
  }
  if (!t_max) return NULL;
  AlgExpr *one = alg_num_int(g, 1), *n = w->n;
  AlgExpr *rounds = alg_add(g, alg_sub(g, w->outer_hi, w->outer_lo), one);
  AlgExpr *first = alg_mul(g, alg_sub(g, n, one), t_max);
  AlgExpr *all = alg_sub(g, alg_mul(g, alg_sub(g, alg_mul(g, rounds, n), one), t_max),
                         alg_mul(g, alg_sub(g, rounds, one), w->outer_iter));
  AlgExpr *phi = order_over_branches(w, ALG_MAXOVER, total);
  AlgExpr *u = alg_add(g, phi, alg_max(g, first, all));
  AlgExpr *runs = alg_and(g, alg_cmp(g, ALG_CMP_GE, rounds, one), alg_cmp(g, ALG_CMP_GE, n, one));
  return alg_cond(g, runs, u, phi);
}
