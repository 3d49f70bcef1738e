/*
** reduce_holdline.c — the tandem line through a held resource (docs/reduction.md, "Held
** resources in a chain", "A bounded buffer in a line"): `hold (slots) { stages }` in a chain is one
** stage of the line with as many servers as slots, each item keeping its slot at most its time
** through the stages inside plus their waits, which the slots bound.
*/
#include "reduce_order.h"

static AlgExpr *zero(RCtx *c) { return alg_num_int(c->alg, 0); }

/* 1 when st is a plain request of the line: outside loops and conditions, not a hold. */
static int plain(const OStage *st) {
  return !st->loops && !st->loop && !st->guard && !st->kguard && !st->kloop && !st->gap && !st->reps && !st->bad &&
         !st->held_end;
}

/* 1 when no stage of the chain outside from .. to - 1 names st's resource. */
static int alone_in(const OWalk *w, const OStage *st, int from, int to) {
  for (int i = 0; i < w->nstages; i++)
    if ((i < from || i >= to) && w->stages[i].res == st->res) return 0;
  return 1;
}

/* Rule (a bounded buffer in a line, upper bound): in a chain run alone (nothing beside the par:
** RCtx.concurrent == 0), durations free of k and no `if` on k, one `hold (h) S` outside loops and
** conditions on one member for all branches of an FCFS resource of m_h servers without hand-off,
** S's uses on stages (one member for all) or own members, named nowhere else in the chain, and
** every other use of the chain a stage of its own resource (one member, used once) or an own member
** used by its branch alone. At most p = min(n, m_h) branches hold h at once, so at most p requests
** are ever present at a resource of S (each branch makes one at a time): one that arrives finds at
** most p - 1 before it, and FCFS starts it within ceil((p - m_i) / m_i)+ t_i. An item then keeps
** its slot at most B = phi(S) + sum over S's uses of ceil((p - m_i) / m_i)+ t_i. The hold is a
** stage of the tandem line of m_h servers whose requests last at most B (the recursion
** G(j) <= max(A(j), G(j - m_h)) + B holds as for any stage), and
**   U(par) <= D + (n - 1) max(B / m_h, max over the other stages of t_s / m_s),  D = phi + B - phi(S)
** (docs/reduction.md). Items holding one of 2 slots through s1 (3 us) and s2 (4 us), then a sink
** (1 us): B = 6 + 8 = 14, U = 15 + 7 (M - 1) us against the simulated 4 M + 4 (before: 11.5 M, every
** request summed). NULL when the chain is not such. */
AlgExpr *order_hold_line_upper(OWalk *w, AlgExpr *total) {
  RCtx *c = w->c;
  AlgCtx *g = c->alg;
  if (c->concurrent != 0 || !w->holds || w->forks || w->vary || w->guarded || w->subset || w->other || w->k2 ||
      w->kif)
    return NULL;
  int h = -1;
  for (int i = 0; i < w->nstages; i++)
    if (w->stages[i].held_end) {
      if (h >= 0) return NULL;   /* one hold */
      h = i;
    }
  if (h < 0) return NULL;
  const OStage *hold = &w->stages[h];
  if (hold->cls != USE_STAGE || hold->loops || hold->loop || hold->guard || hold->kguard || hold->reps ||
      reduce_handoff(c, hold->res) || !alone_in(w, hold, h, h + 1))
    return NULL;
  AlgExpr *m_h = reduce_mult(c, hold->res);
  AlgExpr *p = alg_min(g, w->n, m_h), *one = alg_num_int(g, 1);
  AlgExpr *block = order_over_branches(w, ALG_MAXOVER, hold->t);
  AlgExpr *share = NULL;
  for (int i = 0; i < w->nstages; i++) {
    if (i == h) continue;
    const OStage *st = &w->stages[i];
    int inside = i > h && i < hold->held_end;
    if (!plain(st) || st->res == hold->res) return NULL;
    if (st->cls == USE_OWN) {
      if (!order_own_alone(w, st)) return NULL;
      continue;   /* a member of its own: a delay */
    }
    if (st->cls != USE_STAGE) return NULL;
    AlgExpr *m = reduce_mult(c, st->res), *t = order_over_branches(w, ALG_MAXOVER, st->t);
    if (inside) {
      if (!alone_in(w, st, h + 1, hold->held_end)) return NULL;
      AlgExpr *waits = alg_max(g, zero(c), alg_func(g, ALG_CEIL, alg_div(g, alg_sub(g, p, m), m)));
      block = alg_add(g, block, alg_mul(g, waits, t));
    } else {
      if (!alone_in(w, st, i, i + 1)) return NULL;
      AlgExpr *r = alg_div(g, t, m);
      share = share ? alg_max(g, share, r) : r;
    }
  }
  AlgExpr *per = alg_div(g, block, m_h);
  if (share) per = alg_max(g, per, share);
  AlgExpr *D = alg_add(g, alg_sub(g, order_over_branches(w, ALG_MAXOVER, total), order_over_branches(w, ALG_MAXOVER, hold->t)), block);
  AlgExpr *ranks = alg_max(g, zero(c), alg_sub(g, w->n, one));
  return alg_add(g, D, alg_mul(g, ranks, per));
}
