/*
** reduce_twice.c — an order-aware lower bound for a chain that uses one single-server stage
** several times back to back (docs/reduction.md, "A stage used again by every branch at once"):
** two pipeline stages placed on one rank, `use(a, t); use(a, t); use(b, t); use(b, t)`. Every
** branch's later requests at a queue behind all the first ones, so the next stage starts about
** n t later than any branch's own path to it. The body is walked by reduce_order.c.
*/
#include "reduce_order.h"

static AlgExpr *zero(RCtx *c) { return alg_num_int(c->alg, 0); }

/* 1 when st is a use the rule reads: one member for all branches (USE_STAGE), outside loops,
** conditions, pars of the body and `||`s. */
static int plain_use(const OStage *st) {
  return st->cls == USE_STAGE && st->loops == 0 && !st->loop && !st->bad && !st->guard && !st->kguard &&
         !st->reps && !st->gap && !st->kloop && !st->held_end;
}

/* 1 when o names the same member as st (the same resource and the same index expression). */
static int same_member(const OStage *o, const OStage *st) {
  return o->res == st->res && o->index == st->index;
}

/* The sum over the records i = from .. to - 1 on st's member that plain_use reads of the least
** duration over the branches; *last: the last of them (left as is when none). */
static AlgExpr *member_work(OWalk *w, const OStage *st, int from, int to, const OStage **last) {
  AlgCtx *g = w->c->alg;
  AlgExpr *sum = zero(w->c);
  for (int i = from; i < to; i++) {
    const OStage *o = &w->stages[i];
    if (!same_member(o, st) || !plain_use(o)) continue;
    sum = alg_add(g, sum, order_over_branches(w, ALG_MINOVER, o->t));
    *last = o;
  }
  return sum;
}

/* Rule (a stage used again by every branch at once; lower bound): the par runs alone
** (RCtx.concurrent == 0), its body a chain (no `||`, par, hold or `if` on k, every use free, on a
** member the branch alone uses, or naming one member for all branches); x is the first use of a
** member A of a one-server FCFS resource without hand-off, every recorded use before it on a
** member its branch alone uses, its head h free of k, its duration t_x > 0; y the last of the
** later uses of A outside loops and conditions (Y the least over k of the sum of the durations of
** A's uses after x up to y). Nothing before x waits, so all n requests of x reach A at h; every
** later request at A comes after its branch's x ended, strictly after h; FCFS serves all of x's
** first, one at a time, so the j-th of the branches' y requests to end (in time order) ends no
** earlier than h + n min t_x + j Y (those j branches' requests after x come after all of x's).
**   T >= h + n min t_x + n Y + min tail(y)
** And with z the first later use of another member B (one for all branches, outside loops and
** conditions), W the least sum of the durations of B's uses from z on, m_B its servers and b the
** least time between y's end and z's request: the n - j + 1 branches whose y ends j-th or later
** reach B no earlier than h + n min t_x + j Y + b and bring W each, served at most m_B at a time;
** the branch served last runs its tail (at least the least after B's last use):
**   T >= h + n min t_x + j Y + b + (n - j + 1) W / m_B + min tail(z_last)     j = 1 and j = n
** M items, `use(a, t); use(a, t); use(b, t); use(b, t)`: j = 1: M t + t + 2 M t = (3 M + 1) t, the
** simulated time (before: (2 M + 2) t). */
AlgExpr *order_twice_lower(OWalk *w, const OStage *x, AlgExpr *total) {
  RCtx *c = w->c;
  AlgCtx *g = c->alg;
  if (c->concurrent || w->forks || w->holds || w->guarded || w->other || w->subset) return NULL;
  if (w->k2 || w->nfold) return NULL;
  if (!plain_use(x) || x->res->u.resource.discipline != DISC_FCFS || x->res->u.resource.handoff) return NULL;
  if (!alg_is_num(reduce_mult(c, x->res), 1) || order_by_branch(w, x->head) || x->lohead) return NULL;
  int ix = (int)(x - w->stages);
  for (int i = 0; i < ix; i++) {   /* nothing before x waits */
    const OStage *o = &w->stages[i];
    if (o->res == x->res || o->cls != USE_OWN || !order_own_alone(w, o)) return NULL;
  }
  const OStage *y = NULL;
  AlgExpr *Y = member_work(w, x, ix + 1, w->nstages, &y);
  if (!y) return NULL;
  int iy = (int)(y - w->stages);
  AlgExpr *h = x->head, *n = w->n, *tx = order_over_branches(w, ALG_MINOVER, x->t);
  AlgExpr *start = alg_add(g, h, alg_mul(g, n, tx));
  AlgExpr *lo = alg_add_n(g, 3, (AlgExpr *[]){start, alg_mul(g, n, Y),
                                               order_over_branches(w, ALG_MINOVER, order_tail(w, y, total))});
  const OStage *z = NULL;
  for (int i = iy + 1; i < w->nstages && !z; i++)
    if (!same_member(&w->stages[i], x) && plain_use(&w->stages[i])) z = &w->stages[i];
  if (z) {
    const OStage *zl = z;
    AlgExpr *W = member_work(w, z, (int)(z - w->stages), w->nstages, &zl);
    AlgExpr *m = reduce_mult(c, z->res);
    AlgExpr *gap = alg_sub(g, alg_sub(g, z->head, y->head), y->t);
    AlgExpr *b = alg_max(g, zero(c), order_over_branches(w, ALG_MINOVER, gap));
    AlgExpr *tail = order_over_branches(w, ALG_MINOVER, order_tail(w, zl, total));
    AlgExpr *first = alg_add_n(g, 5, (AlgExpr *[]){start, Y, b, alg_div(g, alg_mul(g, n, W), m), tail});
    AlgExpr *last = alg_add_n(g, 5, (AlgExpr *[]){start, alg_mul(g, n, Y), b, alg_div(g, W, m), tail});
    lo = alg_max(g, lo, alg_max(g, first, last));
  }
  if (alg_bounds(g, tx).lo <= 0) lo = alg_cond(g, alg_cmp(g, ALG_CMP_GT, tx, zero(c)), lo, zero(c));
  return order_closed(c, lo);
}
