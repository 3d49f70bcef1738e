/*
** reduce_skip.c — lines of stages that some items skip or that fork (docs/reduction.md, "Pars
** whose branches are the same chain", "Tandem line" with skips and forks): which `||` inside a
** chain keeps the order in which the items pass a line, and the tandem line's bound counting the
** items an `if` on the branch index lets through each stage. Also the writing out of a big
** operator over a short range of numbers, for the rules whose terms would otherwise stay open.
*/
#include <gmp.h>

#include "reduce_order.h"

/* Iterations of a big operator over a range of numbers that order_unrolled writes out (beyond: the
** operator is left as it is). */
#define SKIP_MAX_UNROLL 16
/* Depth of an expression order_unrolled rebuilds (deeper: left as it is). */
#define SKIP_MAX_DEPTH 64

static AlgExpr *zero(RCtx *c) { return alg_num_int(c->alg, 0); }

/* 1 when e is an integer number that fits a long; its value in *v (alg_num_long). */
static int integer_number(AlgExpr *e, long *v) {
  int ok = 1;
  *v = alg_num_long(e, &ok);
  return ok;
}

static AlgExpr *unrolled(RCtx *c, AlgExpr *e, int depth) {
  AlgCtx *g = c->alg;
  size_t nk = alg_nkids(e);
  if (nk == 0 || depth > SKIP_MAX_DEPTH || alg_is_approx(e)) return e;
  AlgKind kind = alg_kind(e);
  AlgExpr *kids[8];
  if (nk > 8) return e;
  int moved = 0;
  for (size_t j = 0; j < nk; j++) {
    kids[j] = unrolled(c, alg_kid(e, j), depth + 1);
    moved |= kids[j] != alg_kid(e, j);
  }
  long lo, hi;
  if ((kind == ALG_SUM || kind == ALG_MAXOVER || kind == ALG_MINOVER) && integer_number(kids[1], &lo) &&
      integer_number(kids[2], &hi) && hi - lo < SKIP_MAX_UNROLL) {
    if (hi < lo) return zero(c);   /* an empty range: 0, as the operators take it */
    AlgSymbol *j = alg_symbol_of(e);
    AlgExpr *terms[SKIP_MAX_UNROLL];
    for (long v = lo; v <= hi; v++)
      terms[v - lo] = unrolled(c, alg_subst(g, kids[3], j, alg_num_int(g, v)), depth + 1);
    size_t n = (size_t)(hi - lo + 1);
    return kind == ALG_SUM ? alg_add_n(g, n, terms) : kind == ALG_MAXOVER ? alg_max_n(g, n, terms)
                                                                            : alg_min_n(g, n, terms);
  }
  return moved ? alg_make(g, kind, nk, kids) : e;
}

/* e with every sum, max or min over a range of at most SKIP_MAX_UNROLL numbers written out term by
** term (the body at each index: the same value), inner operators first, so that their ranges are
** numbers once the outer index is. A guard on the loop index (`s == 1`) inside a sum over a short
** loop then closes. */
AlgExpr *order_unrolled(RCtx *c, AlgExpr *e) { return unrolled(c, e, 0); }

/* Rule (a `||` that keeps the line's order): every use inside a `||` of the chain sits in one `||`
** (none nested, no par of the body around it), on a resource no other use of the chain names, and
** each branch of the `||` holds at most one stage, met in the order of arrival: the time before
** it in its branch free of k, no loop inside the branch around it, and one server or a duration
** free of k (OStage.skew). The items then reach each stage of the `||` in the order they reach the
** `||` (the same delay for all), a stage of one server (or of equal requests) ends them in the
** order they start, so the first j items to reach the `||` are the first j to leave every branch
** of it: by the latest of the branches' bounds for j items. The fork is then one stage of the
** line whose requests last the longest branch's, as in docs/reduction.md. */
int skip_forks_keep_order(const OWalk *w) {
  if (w->too_many || !w->sites) return 0;
  for (int i = 0; i < w->nsites; i++) {
    const OSite *site = &w->sites[i];
    if (!site->path.depth) continue;
    if (site->path.deep || site->path.depth > 1 || site->path.copies[0]) return 0;
    for (int j = 0; j < w->nsites; j++)
      if (j != i && w->sites[j].res == site->res) return 0;
  }
  for (int i = 0; i < w->nstages; i++)
    if (w->stages[i].skew) return 0;
  return 1;
}

/* The branches that make st's request (per iteration of its loop): those its guard on k lets
** through, counted class by class when the guard depends on k only through (s k + a) % K
** (release_period: it holds for a whole class or none of it); else all n. */
static AlgExpr *guard_visitors(const OWalk *w, AlgExpr *guard) {
  RCtx *c = w->c;
  AlgCtx *g = c->alg;
  if (!guard || w->k2) return w->n;
  long L = release_period(c, guard, w->k);
  if (L < 1) return w->n;
  AlgExpr *q = zero(c);
  for (long i = 0; i < L; i++) {
    AlgExpr *k = alg_add(g, w->ka, alg_num_int(g, i));
    q = alg_add(g, q, alg_cond(g, alg_subst(g, guard, w->k, k), release_class_count(w, L, i), zero(c)));
  }
  return q;
}

static AlgExpr *visitors(const OWalk *w, const OStage *st) { return guard_visitors(w, st->kguard); }

/* A stage of one server whose duration is cond(k) ? x : y (x, y free of k; the sides of an `if`
** merged, reduce_order.c merge_durations), outside loops: the short duration in *fast, the
** difference in *extra and the branches that take the long one (those its guard lets through
** where the long side's condition holds) in *slow. 0 for any other stage. */
static int split_durations(const OWalk *w, const OStage *st, AlgExpr **fast, AlgExpr **extra, AlgExpr **slow) {
  RCtx *c = w->c;
  AlgCtx *g = c->alg;
  AlgExpr *t = st->t;
  if (st->loop || w->k2 || alg_kind(t) != ALG_COND || alg_nkids(t) != 3 || !alg_is_num(reduce_mult(c, st->res), 1))
    return 0;
  AlgExpr *cond = alg_kid(t, 0), *x = alg_kid(t, 1), *y = alg_kid(t, 2);
  if (!order_by_branch(w, cond) || order_by_branch(w, x) || order_by_branch(w, y)) return 0;
  AlgExpr *on = st->kguard ? alg_and(g, st->kguard, cond) : cond;
  AlgExpr *off = alg_not(g, cond);
  if (st->kguard) off = alg_and(g, st->kguard, off);
  *fast = alg_min(g, x, y);
  *extra = alg_sub(g, alg_max(g, x, y), *fast);
  *slow = alg_cond(g, alg_cmp(g, ALG_CMP_GE, x, y), guard_visitors(w, on), guard_visitors(w, off));
  return 1;
}

/* sup over e >= 0 of r min(e, q) + u min(e, v) - theta e for q, v >= 0 (concave and piecewise
** linear in e, 0 at e = 0, slope -theta <= 0 beyond its breaks): its value at e = 0, q or v. */
static AlgExpr *concave_excess(RCtx *c, AlgExpr *r, AlgExpr *q, AlgExpr *u, AlgExpr *v, AlgExpr *theta) {
  AlgCtx *g = c->alg;
  AlgExpr *best = zero(c), *at[2] = {q, v};
  for (int i = 0; i < 2; i++) {
    AlgExpr *e = at[i];
    AlgExpr *f = alg_add(g, alg_mul(g, r, alg_min(g, e, q)), alg_mul(g, u, alg_min(g, e, v)));
    best = alg_max(g, best, alg_sub(g, f, alg_mul(g, theta, e)));
  }
  return best;
}

/* Iterations of a stage's loop skip_at_iterations takes (beyond: the rest are left out). */
#define SKIP_MAX_POINTS 8

/* Collects into at the c of the tests j == c and j != c (c free of j) inside e; returns how many
** (at most SKIP_MAX_POINTS). */
static int named_iterations(AlgExpr *e, AlgSymbol *j, AlgExpr **at, int n, int depth) {
  if (n >= SKIP_MAX_POINTS || depth > SKIP_MAX_DEPTH || !alg_contains(e, j)) return n;
  AlgKind kind = alg_kind(e);
  if (kind == ALG_SUM || kind == ALG_MAXOVER || kind == ALG_MINOVER) return n;   /* an index of its own */
  if ((kind == ALG_EQ || kind == ALG_NE) && alg_nkids(e) == 2) {
    for (int side = 0; side < 2; side++) {
      AlgExpr *x = alg_kid(e, (size_t)side), *c = alg_kid(e, (size_t)(1 - side));
      if (alg_kind(x) != ALG_SYM || alg_symbol_of(x) != j || alg_contains(c, j)) continue;
      for (int i = 0; i < n; i++) if (at[i] == c) return n;
      at[n++] = c;
      return n;
    }
  }
  for (size_t i = 0; i < alg_nkids(e) && n < SKIP_MAX_POINTS; i++) n = named_iterations(alg_kid(e, i), j, at, n, depth + 1);
  return n;
}

/* The iterations of st's loop the rules below take: those its guard on k and its duration name
** (j == c), then the loop's ends. Returns how many. */
static int iteration_points(const OStage *st, AlgExpr **at) {
  int n = 0;
  if (st->kguard) n = named_iterations(st->kguard, st->loop, at, n, 0);
  n = named_iterations(st->t, st->loop, at, n, 0);
  at[n++] = st->loop_lo;
  at[n++] = st->loop_hi;
  return n;
}

/* Rule (a tandem line some items skip, upper bound): the tandem line's conditions (every use free,
** own and alone, or a single stage; `||`s that keep the order), the stages under `if`s on k. Each
** stage s (each iteration of a loop's stage a stage of its own) is requested by Q_s of the n items
** and serves one in at most r_s = t_s / m_s per step of the tandem line's lattice path. Rank the
** items by when they are done with the stages up to s: the j first of them are done with s by
** max over j' <= j of (the j'-th done with s - 1) + t_s (1 + i) with i m_s <= c - 1, c the items
** of ranks j' .. j that request s (FCFS: those of the j first that request s are the first to
** reach it; an item that skips s is done with it when done with s - 1). Unrolled, the path spends
** e_s = j_(s+1) - j_s >= c_s - 1 ranks at stage s, sum e_s <= n - 1, and c_s <= Q_s:
**   U <= D + max over the e_s of sum_s r_s min(e_s, Q_s - 1) <= D + theta (n - 1) + sum_s (Q_s - 1)+ (r_s - theta)+
** for every theta >= 0 (r min(e, Q') <= theta e + (r - theta)+ Q'). pamc takes the least over
** theta among the stages' r (at the iterations iteration_points names, for a stage in a loop). Items of 4 stages,
** the odd ones skipping stage 1 of 10 us (the others 2 us), M items: theta = 2 us gives
** D + 2 (M - 1) + 8 (ceil(M / 2) - 1) us, about 6 M us against the simulated 5 M (the tandem
** line's: 10 M). A stage of one server whose duration is cond(k) ? x : y (split_durations) costs
** at most t_f min(e, Q_s - 1) + d min(e, Q_l - 1) instead (one request set aside, a long one if
** any; the others t_f = min(x, y) each and d = |x - y| more for the Q_l - 1 long ones left), a
** concave function of e whose excess over theta e is its largest at e = 0, Q_s - 1 or Q_l - 1
** (concave_excess); t_f joins the thetas tried. NULL when no theta gives a closed form. */
AlgExpr *skip_tandem_upper(OWalk *w) {
  RCtx *c = w->c;
  AlgCtx *g = c->alg;
  AlgExpr *r[ORDER_MAX_STAGES], *excess[ORDER_MAX_STAGES], *theta[ORDER_MAX_STAGES * (SKIP_MAX_POINTS + 3)];
  AlgExpr *fast[ORDER_MAX_STAGES], *extra[ORDER_MAX_STAGES], *slow[ORDER_MAX_STAGES];
  const OStage *at[ORDER_MAX_STAGES];
  int ns = 0, nt = 0;
  for (int i = 0; i < w->nstages; i++) {
    const OStage *st = &w->stages[i];
    if (st->cls == USE_OWN) continue;
    at[ns] = st;
    r[ns] = alg_div(g, order_over_branches(w, ALG_MAXOVER, st->t), reduce_mult(c, st->res));
    excess[ns] = alg_max(g, zero(c), alg_sub(g, visitors(w, st), alg_num_int(g, 1)));
    if (split_durations(w, st, &fast[ns], &extra[ns], &slow[ns])) {
      slow[ns] = alg_max(g, zero(c), alg_sub(g, slow[ns], alg_num_int(g, 1)));
      theta[nt++] = fast[ns];
    } else {
      fast[ns] = NULL;
    }
    if (st->loop) {   /* r at the iterations named and the ends (any theta >= 0 will do) */
      AlgExpr *at[SKIP_MAX_POINTS + 2];
      int np = iteration_points(st, at);
      for (int p = 0; p < np; p++) theta[nt++] = alg_subst(g, r[ns], st->loop, at[p]);
    } else {
      theta[nt++] = r[ns];
    }
    ns++;
  }
  AlgExpr *ranks = alg_max(g, zero(c), alg_sub(g, w->n, alg_num_int(g, 1)));
  AlgExpr *best = NULL;
  for (int i = 0; i < nt; i++) {
    AlgExpr *th = order_unrolled(c, theta[i]);
    AlgExpr *sum = alg_mul(g, th, ranks);
    for (int s = 0; s < ns; s++) {
      AlgExpr *x = fast[s] ? concave_excess(c, fast[s], excess[s], extra[s], slow[s], th)
                           : alg_mul(g, excess[s], alg_max(g, zero(c), alg_sub(g, r[s], th)));
      if (at[s]->loop) x = alg_sum(g, at[s]->loop, at[s]->loop_lo, at[s]->loop_hi, x);
      sum = alg_add(g, sum, x);
    }
    sum = order_unrolled(c, sum);
    if (alg_is_approx(alg_close(g, sum, ALG_DIR_UPPER))) continue;
    best = best ? alg_min(g, best, sum) : sum;
  }
  return best;
}

/* Rule (a lower bound at chosen iterations): a stage met once per iteration of its loop
** j = a .. b gives a lower bound x(j) at each iteration; any of them is one, so x at the loop's
** ends and at the iterations its guard or duration names (j == c: the slow stage, the one some
** items skip), each where it lies in the range, and the largest of these. Where the max over all
** iterations has no closed form (a guard on j inside), these do: the iteration is a number or a
** name the sums inside close at. x masked by the stage's guard free of k first. */
AlgExpr *skip_at_iterations(RCtx *c, const OStage *st, AlgExpr *x) {
  AlgCtx *g = c->alg;
  if (st->guard) x = alg_cond(g, st->guard, x, zero(c));
  if (!st->loop) return x;
  AlgExpr *at[SKIP_MAX_POINTS + 2];
  int n = iteration_points(st, at);
  AlgExpr *best = zero(c);
  for (int i = 0; i < n; i++) {
    AlgExpr *inside = alg_and(g, alg_cmp(g, ALG_CMP_LE, st->loop_lo, at[i]), alg_cmp(g, ALG_CMP_LE, at[i], st->loop_hi));
    best = alg_max(g, best, alg_cond(g, inside, order_unrolled(c, alg_subst(g, x, st->loop, at[i])), zero(c)));
  }
  return best;
}
