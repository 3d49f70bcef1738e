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

/* 1 when st, inside the hold, is a looped request of a line: in one loop of the hold's body (the
** hold is outside loops), its member one-to-one in that loop's index (each iteration a member of
** its own), a single server, no condition around it. */
static int looped(RCtx *c, const OStage *st) {
  return st->loops == 1 && st->loop && !st->loop_free && st->index && !st->guard && !st->kguard && !st->kloop &&
         !st->gap && !st->reps && !st->bad && !st->held_end && alg_is_num(reduce_mult(c, st->res), 1) &&
         reduce_order_injective_in(c, st->index, st->loop, st->loop_lo, st->loop_hi);
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
** request summed).
** Rule (a pipeline inside the slots): where every use of S is on one server of a member no other
** statement names (a plain request, or one of a loop whose member is one-to-one in the loop's
** index; no two uses of S on one resource) and lasts > 0 (*holds), the items pass S's requests in the order they took their slots:
** an item leaves each request strictly before the next item does (t > 0, one server, FCFS), so
** they reach the next one in that order too. With A(i) the i-th item's entry, D(i, s) its exit
** from S's s-th step: D(i, s) = max(D(i, s - 1), D(i - 1, s)) + t_s at a request (D(i, s - 1) +
** t_s at a delay), the max over lattice paths of A(j) + the durations of their cells. A path
** from an item j > i - p has at most p - 1 cells beyond one per step: <= A(i) + phi(S) + (p - 1)
** t_max (A(j) <= A(i), t_max the longest request of S). For j <= i - p the path passes row i - p
** at some step c, where it is at most D(i - p, c) <= D(i - p, S) - (the steps after c) <= A(i) -
** (the steps after c) (item i takes the slot of an item gone, and items leave in order: i - p is
** gone); below it p down-moves, each a cell of at most t_max: <= A(i) + p t_max <= A(i) + phi(S) +
** (p - 1) t_max. So an item keeps its slot at most B = phi(S) + (p - 1) t_max, the smaller of
** the two Bs where both are read. M = 64 items in B = 4 slots through `seq (s = 0, S - 1)
** use(stage[s], 2us)` (audit 5's pipe_inflight): B = 2 S + 6 us, U = 16.75 B against 16 S + ...
** simulated (hi/sim 4.98 -> 1.05 at S = 10^4). NULL when the chain is not such. */
AlgExpr *order_hold_line_upper(OWalk *w, AlgExpr *total, AlgExpr **holds) {
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
  AlgExpr *phi_S = order_over_branches(w, ALG_MAXOVER, hold->t), *block = phi_S;
  AlgExpr *share = NULL, *tmax = NULL;
  int summed = 1, piped = 1;   /* which B the uses of S allow: the sum of waits, the pipeline */
  *holds = alg_num_int(g, 1);
  for (int i = 0; i < w->nstages; i++) {
    if (i == h) continue;
    const OStage *st = &w->stages[i];
    int inside = i > h && i < hold->held_end;
    if (st->res == hold->res) return NULL;
    int in_loop = inside && !plain(st) && st->cls == USE_STAGE && looped(c, st);
    if (!plain(st) && !in_loop) return NULL;
    if (st->cls == USE_OWN) {
      if (!order_own_alone(w, st)) return NULL;
      continue;   /* a member of its own: a delay */
    }
    if (st->cls != USE_STAGE) return NULL;
    AlgExpr *m = reduce_mult(c, st->res), *t = order_over_branches(w, ALG_MAXOVER, st->t);
    if (inside) {
      if (!alone_in(w, st, h + 1, hold->held_end)) return NULL;
      if (in_loop) summed = 0;
      if (!alg_is_num(m, 1)) piped = 0;
      for (int j = h + 1; j < hold->held_end && piped; j++)   /* each member of S met at one step */
        if (j != i && w->stages[j].res == st->res) piped = 0;
      AlgExpr *waits = alg_max(g, zero(c), alg_func(g, ALG_CEIL, alg_div(g, alg_sub(g, p, m), m)));
      if (summed) block = alg_add(g, block, alg_mul(g, waits, t));
      if (!piped) continue;
      AlgExpr *most = in_loop ? order_over_loop(c, st, t) : t;
      AlgExpr *least = order_over_branches(w, ALG_MINOVER, st->least);
      tmax = tmax ? alg_max(g, tmax, most) : most;
      if (alg_bounds(g, least).lo <= 0) *holds = alg_and(g, *holds, alg_cmp(g, ALG_CMP_GT, least, zero(c)));
    } else {
      if (!alone_in(w, st, i, i + 1)) return NULL;
      AlgExpr *r = alg_div(g, t, m);
      share = share ? alg_max(g, share, r) : r;
    }
  }
  if (!summed && !piped) return NULL;
  if (piped && tmax) {   /* the pipeline inside the slots, where S's requests last > 0 (*holds) */
    AlgExpr *line = alg_add(g, phi_S, alg_mul(g, alg_max(g, zero(c), alg_sub(g, p, one)), tmax));
    if (!summed) block = line;   /* B holds only where *holds: the caller keeps U elsewhere */
    else {
      block = alg_is_num(*holds, 1) ? alg_min(g, block, line) : alg_cond(g, *holds, alg_min(g, block, line), block);
      *holds = alg_num_int(g, 1);
    }
  } else {
    *holds = alg_num_int(g, 1);
  }
  AlgExpr *per = alg_div(g, block, m_h);
  if (share) per = alg_max(g, per, share);
  AlgExpr *D = alg_add(g, alg_sub(g, order_over_branches(w, ALG_MAXOVER, total), order_over_branches(w, ALG_MAXOVER, hold->t)), block);
  AlgExpr *ranks = alg_max(g, zero(c), alg_sub(g, w->n, one));
  return alg_add(g, D, alg_mul(g, ranks, per));
}
