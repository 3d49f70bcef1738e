/*
** reduce_drain.c — a line of stages drained one after another (docs/reduction.md, "A line of
** stages drained one after another"): when every branch of a par passes the same stages once, in
** the same order, a stage has ended every request once it has drained what reached it after the
** last arrival, which is no later than when the stage before has ended all of its own plus the
** longest way between. Block-cyclic owners, then a shared lock: `use(cpu[floor(i / 4) % 8], t);
** use(lock, t_red)`.
*/
#include "reduce_order.h"

/* The time one stage needs after its last arrival to end every request: m servers of a member
** take W (the work at its busiest member) at most W / m + (1 - 1 / m) t_max. For a stage (one
** member for all branches) W is the sum over the branches; for a shard (members dealt) it is
** d.most requests of at most t_max. NULL when the shard's counts are not known for every
** admissible value. */
static AlgExpr *drain_time(OWalk *w, const OStage *st) {
  RCtx *c = w->c;
  AlgCtx *g = c->alg;
  AlgExpr *m = reduce_mult(c, st->res), *one = alg_num_int(g, 1);
  AlgExpr *t_max = order_over_branches(w, ALG_MAXOVER, st->t), *W;
  if (st->cls == USE_SHARD) {
    ODealt d;
    if (!order_dealt(w, st->res, st->index, &d) || !alg_is_num(d.holds, 1)) return NULL;
    W = alg_mul(g, d.most, t_max);
  } else {
    W = order_over_branches(w, ALG_SUM, st->t);
  }
  return alg_add(g, alg_div(g, W, m), alg_mul(g, alg_sub(g, one, alg_div(g, one, m)), t_max));
}

/* Rule (a line of stages drained one after another; upper bound): a par running alone
** (RCtx.concurrent == 0) whose body is a chain (no `||`, par, hold, `if` on the branch, loop
** around a stage), every use free, on a member its branch alone uses, or a stage met once by
** every branch (one member for all, or members dealt: order_single_stage), s_1 .. s_S in chain
** order. With E_0 = 0, A_s the latest arrival at s_s and D_s its drain_time:
**   A_1 <= max_k head_1(k),  A_{s+1} <= E_s + max_k (head_{s+1}(k) - head_s(k) - t_s(k)),
**   E_s <= A_s + D_s,        T <= E_S + max_k tail_S(k).
** Argument: the steps between stages and after the last wait for nothing (free or own uses,
** delays), so a branch that leaves s_s by E_s reaches s_{s+1} by E_s plus its way between. At a
** member of FCFS servers that keep busy while a request waits, the request ending last, R, waits
** from its arrival (<= A_s) only while all m servers serve others, at most the member's work
** less t_R over m: it ends by A_s + (W - t_R) / m + t_R <= A_s + W / m + (1 - 1 / m) t_max. Every
** branch has then left s_s by E_s. Block-cyclic owners (8 cpus, blocks of 4) then one lock:
** E_1 = 8 t, E_2 = 8 t + P t_red (P = 64, t = 5us, t_red = 1us: 104us, simulated 69us; the line's
** lattice bound (n - 1) max t: 321us). NULL when the rule does not apply. */
AlgExpr *order_drain_upper(OWalk *w, AlgExpr *total) {
  RCtx *c = w->c;
  AlgCtx *g = c->alg;
  if (c->concurrent || w->other || w->forks || w->call_forks || w->subset || w->guarded || w->kif || w->holds ||
      w->too_many)
    return NULL;
  AlgExpr *E = NULL;
  const OStage *last = NULL;
  int stages = 0;
  for (int i = 0; i < w->nstages; i++) {
    const OStage *st = &w->stages[i];
    if (st->cls == USE_OWN) { if (!order_own_alone(w, st)) return NULL; continue; }
    if (!order_single_stage(w, st) || st->loops || st->guard || st->kguard || st->held_end || st->gap) return NULL;
    AlgExpr *D = drain_time(w, st);
    if (!D) return NULL;
    AlgExpr *A = !last ? order_over_branches(w, ALG_MAXOVER, st->head)
               : alg_add(g, E, order_over_branches(w, ALG_MAXOVER, alg_sub(g, alg_sub(g, st->head, last->head), last->t)));
    E = alg_add(g, A, D);
    last = st;
    stages++;
  }
  if (stages < 2) return NULL;   /* one stage: the tandem line's own bound is as good */
  return order_closed(c, alg_add(g, E, order_over_branches(w, ALG_MAXOVER, order_tail(w, last, total))));
}
