/*
** reduce_line.c — the order-aware lower bound of a proportionate line (docs/reduction.md,
** "Pars whose branches are the same chain"): items that pass S single-server stages in one order,
** each item taking the same time at every stage but items differing (a header record five times
** the others). The stage rules of reduce_order.c see each stage alone; this one sees the line.
*/
#include "reduce_order.h"

static AlgExpr *zero(RCtx *c) { return alg_num_int(c->alg, 0); }

/* 1 when st is a stage of such a line: one member for all branches in one loop j = a .. b of the
** chain (range free of k) that changes it one-to-one (a USE_STAGE met once per iteration, its
** family used nowhere else but at members apart: the caller's single-stage test), on a resource
** of one server, under no condition on k, its duration free of j, and nothing else in the loop's
** body: head(j + 1) = head(j) + t. */
static int line_stage(const OWalk *w, const OStage *st) {
  RCtx *c = w->c;
  AlgCtx *g = c->alg;
  if (st->cls != USE_STAGE || !st->index || st->loops != 1 || !st->loop || st->bad || st->reps ||
      st->kguard || st->kloop || st->gap || w->subset)
    return 0;
  if (!alg_contains(st->index, st->loop) || alg_contains(st->t, st->loop)) return 0;
  if (order_by_branch(w, st->loop_lo) || order_by_branch(w, st->loop_hi)) return 0;
  if (!alg_is_num(reduce_mult(c, st->res), 1)) return 0;
  AlgExpr *next = alg_subst(g, st->head, st->loop, alg_add(g, alg_sym(g, st->loop), alg_num_int(g, 1)));
  return alg_is_num(alg_expand(g, alg_sub(g, alg_sub(g, next, st->head), st->t)), 0);
}

/* H + (S - 1) max_k t(k) + sum_k t(k) + tail for line stage st: H and the tail after the last
** stage taken over the branches by kind (ALG_MINOVER for the lower bound, ALG_MAXOVER for the
** upper); S - 1 read as at least 0. */
static AlgExpr *line_time(OWalk *w, const OStage *st, AlgExpr *total, AlgKind kind) {
  RCtx *c = w->c;
  AlgCtx *g = c->alg;
  AlgExpr *moves = alg_max(g, zero(c), alg_sub(g, st->loop_hi, st->loop_lo));   /* S - 1 */
  AlgExpr *head = order_over_branches(w, kind, alg_subst(g, st->head, st->loop, st->loop_lo));
  AlgExpr *tail = order_over_branches(w, kind, alg_subst(g, order_tail(w, st, total), st->loop, st->loop_hi));
  AlgExpr *t_most = order_over_branches(w, ALG_MAXOVER, st->t);
  AlgExpr *work = order_over_branches(w, ALG_SUM, st->t);
  AlgExpr *time = alg_add(g, alg_add(g, head, alg_mul(g, moves, t_most)), alg_add(g, work, tail));
  return st->guard ? alg_cond(g, st->guard, time, zero(c)) : time;
}

/* Rule (order-aware lower bound, a proportionate line): n items (the branches) pass the S
** stages of a line (line_stage) in one order, item k taking t(k) at each; none starts the first
** stage before the least head H, and after the last stage each runs its tail (the least over the
** items at j = b). Then
**   T >= H + (S - 1) max_k t(k) + sum_k t(k) + min_k tail(k)
** Argument: take the item x of the largest t. The items the first stage serves before x delay
** its start there past H by their times; x then passes its S stages (S t(x)); an item served
** after x at the first stage but before it at the last passed x between two stages j, j + 1:
** stage j + 1 served it while x, done with stage j, waited, so x waits its time there (those
** waits lie in disjoint windows, or one after another in one); the items served after x at the
** last stage follow it there, and the last item served runs its tail. Each other item is counted
** once, at a time of its own (the same at every stage), whatever the order of service, so the
** bound holds in any context (other requests only delay). It needs no queue discipline: one
** server per stage. 10 records through S stages, the first 5 us at each and the others 1 us:
** 5 S + 9 us, the simulated time (each stage alone: 17 us at S = 4, the header's path 5 S). */
AlgExpr *order_line_lower(OWalk *w, const OStage *st, AlgExpr *total) {
  RCtx *c = w->c;
  AlgCtx *g = c->alg;
  if (!line_stage(w, st)) return NULL;
  AlgExpr *stages = alg_add(g, alg_sub(g, st->loop_hi, st->loop_lo), alg_num_int(g, 1));
  /* the sum and max over the branches may be walked at predict time (a marked approximation, as
  ** the stage rule's sum): safe in the lower direction either way */
  return alg_cond(g, alg_cmp(g, ALG_CMP_GE, stages, alg_num_int(g, 1)), line_time(w, st, total, ALG_MINOVER), zero(c));
}

/* Rule (a proportionate line, upper bound): the chain's one stage is a line (line_stage) every
** item passes in one order, item k taking t(k) > 0 at each stage, and nothing else in the chain
** queues (no other stage, no `||`, no use of another class); where t(k) > 0 for every k
** (*positive, decided at each point: durations may be consts of a machine file). With H the
** largest head and the
** largest tail after the last stage,
**   T <= H + sum_k t(k) + (S - 1) max_k t(k) + max_k tail(k)
** Argument: the first stage serves the items in their order of arrival, and each later stage in
** the same order (an item reaches stage j + 1 the instant it leaves stage j, and one server
** releases items one at a time, each t > 0 apart). Item i leaves stage j at
** C(i, j) = max(C(i - 1, j), C(i, j - 1)) + t(i) with C(i, -1) its arrival, at most H; the
** largest C is H plus the longest path through the grid of items by stages, which visits every
** item's row and moves S - 1 times to the next stage, at a cost of at most the largest t each:
** H + sum t + (S - 1) max t, whatever the order. Equal items give (S + M - 1) t, the tandem
** line's bound; a header record of 5 us before 19 of 1 us, S = 4: 39 us, the simulated time
** (the tandem line: 5 S + 19 t_max = 115 us). */
AlgExpr *order_line_upper(OWalk *w, const OStage *st, AlgExpr *total, AlgExpr **positive) {
  RCtx *c = w->c;
  AlgCtx *g = c->alg;
  if (w->nstages != 1 || w->other || w->forks || w->guarded || !line_stage(w, st)) return NULL;
  *positive = alg_cmp(g, ALG_CMP_GT, order_over_branches(w, ALG_MINOVER, st->t), zero(c));
  return line_time(w, st, total, ALG_MAXOVER);
}
