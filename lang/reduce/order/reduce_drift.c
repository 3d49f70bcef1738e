/*
** reduce_drift.c — the lower bound for a par whose branches run their own steps (a loop inside
** each branch, no barrier between the steps) and send to members at fixed shifts of the branch
** index, `(p + 1) % P` and `(p + P - 1) % P` at once: the branches far from the ring's wrap (or
** the line's ends) run in lock step until what happens at the wrap can have reached them
** (docs/reduction.md, "Branches that run their own steps"). The body is walked by reduce_order.c.
*/
#include "reduce_order.h"

static AlgExpr *zero(RCtx *c) { return alg_num_int(c->alg, 0); }

/* The largest absolute value of x over the admissible values (for choosing a shift). */
static double magnitude(RCtx *c, AlgExpr *x) {
  AlgInterval b = alg_bounds(c->alg, x);
  double lo = b.lo < 0 ? -b.lo : b.lo, hi = b.hi < 0 ? -b.hi : b.hi;
  return lo > hi ? lo : hi;
}

/* Of two shifts d and d - n that name the same members: the one that is a number when one is,
** else the smaller in magnitude (any choice is sound; the smaller spread of the shifts gives the
** tighter bound). */
static AlgExpr *smaller_shift(OWalk *w, AlgExpr *d) {
  AlgExpr *e = alg_sub(w->c->alg, d, w->n);
  int dn = alg_kind(d) == ALG_NUM, en = alg_kind(e) == ALG_NUM;
  if (dn != en) return dn ? d : e;
  return magnitude(w->c, e) < magnitude(w->c, d) ? e : d;
}

/* 1 when d - o is 0, n or -n: shifts d and o name the same members (mod n). */
static int same_mod_n(OWalk *w, AlgExpr *d, AlgExpr *o) {
  AlgCtx *g = w->c->alg;
  AlgExpr *x = alg_sub(g, d, o);
  return alg_is_num(x, 0) || alg_is_num(alg_sub(g, x, w->n), 0) || alg_is_num(alg_add(g, x, w->n), 0);
}

/* The shift of `cond ? x : y` with cond a comparison of k (the ring written with an `if` or `?:`,
** `p == P - 1 ? 0 : p + 1`): on each range of k where a side runs (order_cut_ranges: supersets
** of the true pieces), the side is k + d_r, or a member free of k on a range of one index q
** (d_r = member - q); all d_r the same mod n. Then the index is (k + o) % n wherever it names a
** member of [0, n - 1]. NULL otherwise. */
static AlgExpr *cond_shift(OWalk *w, AlgExpr *index) {
  RCtx *c = w->c;
  AlgCtx *g = c->alg;
  AlgExpr *rl[4], *rh[4];
  int nt = 0, nf = 0;
  if (!alg_is_num(w->ka, 0) ||
      !order_cut_ranges(c, alg_kid(index, 0), w->k, w->ka, w->kb, rl, rh, &nt, rl + 2, rh + 2, &nf))
    return NULL;
  AlgExpr *o = NULL, *d[4] = {NULL, NULL, NULL, NULL};
  for (int r = 0; r < 4; r++) {
    if ((r < 2 && r >= nt) || (r >= 2 && r - 2 >= nf)) continue;
    AlgExpr *span = alg_sub(g, rh[r], rl[r]);
    if (alg_kind(span) == ALG_NUM && mpq_sgn(alg_num_value(span)) < 0) continue;   /* empty */
    AlgExpr *side = alg_kid(index, r < 2 ? 1 : 2);
    if (alg_contains(side, w->k)) {
      d[r] = alg_sub(g, side, alg_sym(g, w->k));
      if (alg_contains(d[r], w->k)) return NULL;
      if (!o) o = d[r];
    } else if (alg_is_num(span, 0)) d[r] = alg_sub(g, side, rl[r]);
    else return NULL;
    if (!order_integer_valued(c, d[r])) return NULL;
  }
  if (!o) return NULL;
  for (int r = 0; r < 4; r++) if (d[r] && !same_mod_n(w, d[r], o)) return NULL;
  return smaller_shift(w, o);
}

/* The shift o of a member index k + o, of (k + d) % n over k = 0 .. n - 1 (n the number of
** branches: the remainder wraps where the branch index does; o = d or d - n, smaller_shift), or of
** the same ring written piecewise (cond_shift); o is an integer free of k. NULL otherwise. */
static AlgExpr *shift_of(OWalk *w, AlgExpr *index) {
  RCtx *c = w->c;
  AlgCtx *g = c->alg;
  AlgExpr *k = alg_sym(g, w->k);
  if (!index) return NULL;
  AlgExpr *d = alg_sub(g, index, k);
  if (!alg_contains(d, w->k)) return order_integer_valued(c, d) ? d : NULL;
  if (alg_kind(index) == ALG_COND) return cond_shift(w, index);
  if (alg_kind(index) != ALG_MOD || !alg_is_num(w->ka, 0)) return NULL;
  if (!alg_is_num(alg_sub(g, alg_kid(index, 1), w->n), 0)) return NULL;
  d = alg_sub(g, alg_kid(index, 0), k);
  if (alg_contains(d, w->k) || !order_integer_valued(c, d)) return NULL;
  return smaller_shift(w, d);
}

/* 1 when the sites x and y run at once: inside different branches of one `||`. */
static int parallel(const OSite *x, const OSite *y) {
  if (x->path.deep || y->path.deep) return 0;
  for (int l = 0; l < x->path.depth && l < y->path.depth; l++) {
    if (x->path.fork[l] != y->path.fork[l]) return 0;
    if (x->path.arm[l] != y->path.arm[l]) return 1;
  }
  return 0;
}

/* Rule (branches that run their own steps): par (k = a, b) S where S is one loop L over its steps
** (with uses of the branch's own members before or after it), every use on a family at a fixed
** shift o_i of k (k + o_i, or (k + d_i) % n over k = 0 .. n - 1), durations and control free of
** k, the uses of the families more than one shift names (the shared ones) inside L, outside
** inner loops and pars, each in its own branch of the `||`s around them, a group of them
** requesting one member per branch and iteration (fork_group). With D = max o - min o, the
** branches k and k + o_i - o_j are the only ones that meet at a member. Compare the par with the
** same branches on an infinite line (ties in index order, as the simulator's program order): all
** its branches run the same steps at the same instants, each iteration starts at one instant for
** all, and fork_group's argument gives iteration j at least X_j, the group's bound for one
** iteration started together, which exceeds the iteration's contention-free time by
** Delta_j = fork_group(j) - phi. The par differs from the line only for the branches within D
** of the wrap (or the ends). Let delta = min_j iter_j - spread, the least time from one shared
** request of a branch to the next (iter_j the iteration's contention-free time, spread the
** largest difference of the shared requests' heads in an iteration): a branch whose requests
** all arrive as on the line is served as on the line (FCFS: a request waits only for those that
** arrived before it), and a branch whose service changed at instant tau makes its next request,
** the first that can reach another member, at tau + delta or later. So a branch h hops of D away
** from the wrap is served as on the line for every request that arrives before
** tau_0 + h * delta (tau_0 the first shared request), and branch floor((n - 1) / 2) is
** h = floor(floor((n - 1) / 2) / D) hops away. Its first K iterations run as on the line when
** their requests arrive in time: (K - 1) Y + spread < h delta with Y <= Y_hi, the iteration's time
** with every use lengthened by its wait (reduce_fork.c's bounded clients, which hold on the line
** too), so K = min(S, ceil((h delta - spread) / Y_hi)) (0 when negative), S the iterations, and
**   T >= phi + K * max(0, min_j Delta_j).
** The argument follows the par's own run exactly, so it holds only for a par nothing runs beside
** and that runs once at a time: not inside a branch of a `||` or `par` or in a process called there
** (reduce_order_par asks RCtx.concurrent == 0). FCFS is not monotone: a request from outside can
** make the branches drift apart sooner and end sooner. Returns the largest over the groups, or
** NULL. */
AlgExpr *drift_lower(OWalk *w, const OWalk *again, AlgExpr *total) {
  RCtx *c = w->c;
  AlgCtx *g = c->alg;
  if (!w->ok || w->vary || w->other || w->k2 || w->kif || w->too_many || w->outer_loops != 1) return NULL;
  if (!again || again->outer_loops != 1 || w->nsites < 2) return NULL;
  AlgExpr *shift[ORDER_MAX_SITES];
  for (int i = 0; i < w->nsites; i++) {
    const OSite *site = &w->sites[i];
    const Decl *res = site->res;
    if (!res->u.resource.count || res->u.resource.discipline == DISC_PS || res->u.resource.handoff) return NULL;
    if (site->twin) { shift[i] = NULL; continue; }   /* counted with its then side */
    if (!site->loop_free || !alg_is_num(site->copies, 1)) return NULL;
    if (!(shift[i] = shift_of(w, site->index))) return NULL;
  }
  /* D: the largest spread of the shifts of one family; a family is shared when it has two */
  AlgExpr *D = zero(c);
  const Decl *shared[ORDER_MAX_SITES];
  int nshared = 0;
  for (int i = 0; i < w->nsites; i++) {
    const Decl *res = w->sites[i].res;
    int seen = 0;
    for (int j = 0; j < i && !seen; j++) seen = shift[j] && w->sites[j].res == res;
    if (seen || !shift[i]) continue;
    AlgExpr *top = shift[i], *bottom = shift[i];
    int distinct = 0;
    for (int j = i + 1; j < w->nsites; j++) {
      if (!shift[j] || w->sites[j].res != res) continue;
      if (shift[j] != shift[i]) distinct = 1;
      top = alg_max(g, top, shift[j]); bottom = alg_min(g, bottom, shift[j]);
    }
    if (!distinct) continue;
    shared[nshared++] = res;
    D = alg_max(g, D, alg_sub(g, top, bottom));
  }
  if (nshared == 0) return NULL;
  /* the shared uses: in the outer loop, pairwise at once, at the same place in every iteration;
  ** their heads' spread */
  AlgExpr *head_max = NULL, *head_min = NULL, *gap = zero(c);
  int firsts[ORDER_MAX_STAGES], nfirst = 0;
  for (int i = 0; i < w->nstages; i++) {
    const OStage *st = &w->stages[i];
    int is_shared = 0;
    for (int j = 0; j < nshared; j++) is_shared |= st->res == shared[j];
    if (!is_shared) continue;
    if (st->loop != w->outer || st->loops != 1 || st->guard || st->reps || st->site < 0) return NULL;
    for (int f = 0; f < nfirst; f++)
      if (!parallel(&w->sites[w->stages[firsts[f]].site], &w->sites[st->site])) return NULL;
    /* its head advances by one iteration's time from one iteration to the next */
    AlgExpr *next = alg_subst(g, st->head, w->outer, alg_add(g, alg_sym(g, w->outer), alg_num_int(g, 1)));
    if (!alg_is_num(alg_expand(g, alg_sub(g, alg_sub(g, next, st->head), w->outer_iter)), 0)) return NULL;
    if (st->gap) gap = alg_max(g, gap, st->gap);
    head_max = head_max ? alg_max(g, head_max, st->head) : st->head;
    head_min = head_min ? alg_min(g, head_min, st->head) : st->head;
    firsts[nfirst++] = i;
  }
  for (int i = 0; i < w->nsites; i++) {   /* every shared use was recorded as a stage */
    int is_shared = 0, found = 0;
    for (int j = 0; j < nshared; j++) is_shared |= !w->sites[i].twin && w->sites[i].res == shared[j];
    for (int j = 0; j < nfirst && !found; j++) found = w->stages[firsts[j]].site == i;
    if (is_shared && !found) return NULL;
  }
  AlgSymbol *j = w->outer;
  AlgExpr *spread = alg_sub(g, head_max, head_min);
  if (alg_contains(w->outer_iter, j) || alg_contains(spread, j) || alg_contains(gap, j)) return NULL;
  AlgExpr *delta = alg_sub(g, alg_sub(g, w->outer_iter, spread), gap);
  AlgExpr *y_hi = alg_max_over(g, again->outer, again->outer_lo, again->outer_hi, again->outer_iter);
  AlgExpr *one = alg_num_int(g, 1);
  AlgExpr *half = alg_func(g, ALG_FLOOR, alg_div(g, alg_sub(g, w->n, one), alg_num_int(g, 2)));
  AlgExpr *hops = alg_func(g, ALG_FLOOR, alg_div(g, half, alg_max(g, D, one)));
  AlgExpr *steps = alg_add(g, alg_sub(g, w->outer_hi, w->outer_lo), one);
  AlgExpr *reach = alg_func(g, ALG_CEIL, alg_div(g, alg_sub(g, alg_mul(g, hops, delta), spread), y_hi));
  AlgExpr *K = alg_min(g, alg_max(g, zero(c), steps), alg_max(g, zero(c), reach));
  K = alg_cond(g, alg_cmp(g, ALG_CMP_GT, y_hi, zero(c)), K, zero(c));
  AlgExpr *best = NULL;
  for (int i = 0; i < nfirst; i++) {
    AlgExpr *group = fork_group(w, firsts[i], total);
    if (!group) continue;
    AlgExpr *excess = alg_min_over(g, j, w->outer_lo, w->outer_hi, alg_sub(g, group, total));
    AlgExpr *lo = alg_add(g, order_over_branches(w, ALG_MINOVER, total),
                          alg_mul(g, K, alg_max(g, zero(c), excess)));
    best = best ? alg_max(g, best, lo) : lo;
  }
  return best ? order_closed(c, best) : NULL;
}
