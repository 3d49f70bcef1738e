/*
** reduce_shift.c — an upper bound for an all-to-all in shifted rounds whose branches start apart
** (docs/reduction.md, "Shifted rounds that start apart"): `seq (k = 1, P - 1) use(port[(p + k) % P],
** t)` after a prefix that differs between the branches (`if (p == 0) delay(t_read)`), so the
** branches do not run in lock step. The body is walked by reduce_order.c.
*/
#include "reduce_order.h"

static AlgExpr *zero(RCtx *c) { return alg_num_int(c->alg, 0); }

/* The sign s (+1 or -1) when st's member is (k + s j + c) % n: k the par's index over its n
** branches, j the loop around st, c an integer free of both; 0 otherwise. Then in every round j
** the members are a one-to-one map of the branches, and every branch's next member is its
** current one plus s (mod n). */
static int shift_sign(const OWalk *w, const OStage *st) {
  RCtx *c = w->c;
  AlgCtx *g = c->alg;
  AlgExpr *index = st->index;
  if (!index || !st->loop || alg_kind(index) != ALG_MOD) return 0;
  if (!alg_is_num(alg_sub(g, alg_kid(index, 1), w->n), 0)) return 0;
  AlgExpr *d = alg_sub(g, alg_kid(index, 0), alg_sym(g, w->k));
  if (alg_contains(d, w->k)) return 0;
  for (int s = -1; s <= 1; s += 2) {
    AlgExpr *rest = alg_sub(g, d, alg_mul(g, alg_num_int(g, s), alg_sym(g, st->loop)));
    if (!alg_contains(rest, st->loop) && !alg_contains(rest, w->k) && order_integer_valued(c, rest)) return s;
  }
  return 0;
}

/* 1 when st is the rounds' stage of the rule: a one-server FCFS family without hand-off whose
** member is a shift (shift_sign), directly in the body's one outer loop, under no condition, not
** inside a par of the body, the only site of its resource in the body, its duration free of the
** branch and of the loop. */
static int shift_stage(const OWalk *w, const OStage *st) {
  RCtx *c = w->c;
  if (st->cls != USE_OWN || st->loops != 1 || st->loop != w->outer || st->reps || st->gap) return 0;
  if (st->guard || st->kguard || st->kloop || st->held_end || st->site < 0) return 0;
  if (st->res->u.resource.discipline != DISC_FCFS || st->res->u.resource.handoff) return 0;
  if (!alg_is_num(reduce_mult(c, st->res), 1)) return 0;
  if (order_by_branch(w, st->t) || alg_contains(st->t, st->loop)) return 0;
  for (int i = 0; i < w->nsites; i++)
    if (i != st->site && w->sites[i].res == st->res) return 0;
  return shift_sign(w, st) != 0;
}

/* Rule (shifted rounds that start apart, upper bound): par (k) S where S is a chain (no `||`,
** par, hold; an `if` on k only where no use but free ones and members the branch alone uses sit
** in it) with one outer loop of R rounds whose iterations take iter each (free of k and of the
** loop's index), and exactly one use that can queue: st, `fam[(k + s j + c) % n]` of t > 0 (one
** server, FCFS) directly in the loop. Nothing runs beside the par. With h(k) the contention-free
** time of branch k before its first request (its prefix may differ between branches), Delta =
** max h - min h, q = floor(Delta / iter), m = min(R, q), L = min(R, m + min(R - 1, q)) and z(k)
** the contention-free time after its last request:
**   U = max h - (iter - t) + (R - m) iter + L (iter - t + m t) + max z
** (Delta < iter: q = 0, U = max h + R iter - (iter - t) + max z, the lock step from the latest
** start). Argument in docs/reduction.md: the j-th departure at every member is no later than in
** the lock step started at the latest start while no branch can have finished (before
** min h + R iter + t), a request is at most q places further back at its member than its round,
** and after that each member has at most m requests left and each branch at most L rounds.
** *holds: where t > 0 is not proved for every admissible value, the condition on the params. */
AlgExpr *order_shift_upper(OWalk *w, AlgExpr *total, AlgExpr **holds) {
  RCtx *c = w->c;
  AlgCtx *g = c->alg;
  *holds = alg_num_int(g, 1);
  if (c->concurrent || w->forks || w->holds || w->subset || w->k2 || w->too_many || !w->sites || w->other)
    return NULL;
  if (w->outer_loops != 1 || !w->outer_fixed || alg_contains(w->outer_iter, w->outer) ||
      order_by_branch(w, w->outer_iter))
    return NULL;
  const OStage *st = NULL;
  for (int i = 0; i < w->nstages; i++) {
    const OStage *x = &w->stages[i];
    if (x->cls == USE_OWN && order_own_alone(w, x)) continue;   /* never queues: a delay */
    if (st || !shift_stage(w, x)) return NULL;
    st = x;
  }
  if (!st) return NULL;
  AlgExpr *one = alg_num_int(g, 1), *t = st->t, *iter = w->outer_iter;
  AlgExpr *rounds = alg_add(g, alg_sub(g, w->outer_hi, w->outer_lo), one);
  AlgExpr *first = alg_subst(g, st->head, st->loop, w->outer_lo);        /* h(k) */
  AlgExpr *last = alg_subst(g, order_tail(w, st, total), st->loop, w->outer_hi);   /* z(k) */
  if (alg_contains(first, st->loop) || alg_contains(last, st->loop)) return NULL;
  AlgExpr *h_max = order_over_branches(w, ALG_MAXOVER, first);
  AlgExpr *h_min = order_over_branches(w, ALG_MINOVER, first);
  AlgExpr *z_max = order_over_branches(w, ALG_MAXOVER, last);
  AlgExpr *gap = alg_sub(g, iter, t);                                    /* w: between requests */
  AlgExpr *q = alg_func(g, ALG_FLOOR, alg_div(g, alg_sub(g, h_max, h_min), iter));
  AlgExpr *m = alg_min(g, rounds, q);
  AlgExpr *left = alg_min(g, rounds, alg_add(g, m, alg_min(g, alg_sub(g, rounds, one), q)));
  AlgExpr *u = alg_add_n(g, 5, (AlgExpr *[]){
    h_max, alg_mul(g, alg_num_int(g, -1), gap), alg_mul(g, alg_sub(g, rounds, m), iter),
    alg_mul(g, left, alg_add(g, gap, alg_mul(g, m, t))), z_max});
  if (alg_bounds(g, t).lo <= 0) *holds = alg_cmp(g, ALG_CMP_GT, t, zero(c));
  AlgExpr *runs = alg_and(g, alg_cmp(g, ALG_CMP_GE, rounds, one), alg_cmp(g, ALG_CMP_GE, w->n, one));
  return alg_cond(g, runs, u, order_over_branches(w, ALG_MAXOVER, total));
}
