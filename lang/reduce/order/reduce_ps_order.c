/*
** reduce_ps_order.c — the order-aware rules for processor sharing, `ps(c)` (docs/reduction.md,
** "Processor sharing in a par"): the wait of a ps use site from the requests a member can have
** present (bounded clients), what a group of requests arriving together needs at least, and the
** branches that run in lock step on ps resources. The body is walked by reduce_order.c.
*/
#include <string.h>

#include "reduce_order.h"

/* max(1, n / c): how much longer than its service a request on ps(c) takes with n present. */
static AlgExpr *stretch(RCtx *c, const Decl *res, AlgExpr *n) {
  AlgCtx *g = c->alg;
  return alg_max(g, alg_num_int(g, 1), alg_div(g, n, reduce_mult(c, res)));
}

/* Rule (bounded clients on ps): a member of ps(c) resource res with at most C requests present at
** once (member_clients, counted as for FCFS) serves each of them at rate min(1, c / n) >=
** min(1, c / C), so a request of t takes at most t max(1, C / c):
**   wait(site) = t_max(site) (max(1, C / c) - 1)
** (beyond its service t; with c < 1 this covers the request alone, t / c). */
AlgExpr *ps_site_wait(OWalk *w, const Decl *res, AlgExpr *clients, AlgExpr *tmax) {
  AlgCtx *g = w->c->alg;
  return alg_mul(g, tmax, alg_sub(g, stretch(w->c, res, clients), alg_num_int(g, 1)));
}

/* Rule (a group of requests on ps, lower bound): the requests of a group (reduce_fork.c's
** fork_group: every member of the group's ps(c) resource gets one from each site, none before
** the least head) are served at most c at a time in all (rate min(1, c / n) each, n present,
** others included) and each at most at rate min(1, c): the last of them ends no sooner than
**   min head + max(t_most max(1, 1 / c), sum / c)
** after which its branch still runs its tail. t_most: the largest of the sites' least durations;
** sum: the work the group brings to one member. Holds in any context (others only take
** capacity). */
AlgExpr *ps_group_serve(RCtx *c, const Decl *res, AlgExpr *t_most, AlgExpr *sum) {
  AlgCtx *g = c->alg;
  return alg_max(g, alg_mul(g, t_most, stretch(c, res, alg_num_int(g, 1))),
                 alg_div(g, sum, reduce_mult(c, res)));
}

/* 1 when the member of a ps use is the same for every branch (a plain resource, or an index free
** of the branch): in lock step all n branches are present there together. */
static int shared_member(OWalk *w, AlgExpr *index) {
  return !index || !order_by_branch(w, index);
}

/* The time of use(res[index], t) in the lock step of ps_lockstep: t on FCFS (no wait); on ps(c),
** t max(1, n / c) where every branch is present (a member the same for all), t max(1, 1 / c) on a
** member one-to-one in the branch. */
AlgExpr *ps_use_time(OWalk *w, const Decl *res, AlgExpr *index, AlgExpr *t) {
  RCtx *c = w->c;
  if (res->u.resource.discipline != DISC_PS) return t;
  AlgExpr *present = shared_member(w, index) ? alg_max(c->alg, alg_num_int(c->alg, 1), w->n) : alg_num_int(c->alg, 1);
  return alg_mul(c->alg, t, stretch(c, res, present));
}

/* The requests of S1 || ... || Sm in the lock step of ps_lockstep, each Si one use of one ps(c)
** resource r, durations t_i free of k: either every Si names the same member for all branches
** (a plain r: n requests of each size present together) or every Si a member one-to-one in k
** onto r's members (n >= its size: each member gets one request of each size). Either way all
** of them arrive at one instant at every member alike, and every member drains the same batch
** (reduce_ps_drain: classes t_i with counts n or 1): the fork ends for every branch after the
** drain. Beside them (reduce_a2a.c) an Si may be a delay, or a use on FCFS that never waits in
** lock step (ps_lockstep checks its class: a server per branch, or a member one-to-one in k that
** no use in another branch of a `||` requests): it takes its own time, so the fork ends for every
** branch at the longest of the drain and these. Returns that, or NULL for any other fork. */
AlgExpr *ps_fork_time(OWalk *w, REnv *env, const Stmt *s) {
  RCtx *c = w->c;
  AlgCtx *g = c->alg;
  int n = s->u.block.count, shared = -1;
  const Decl *res = NULL;
  AlgExpr *sizes[ORDER_MAX_FORK], *counts[ORDER_MAX_FORK], *first = NULL, *beside = NULL;
  int nps = 0;
  if (n < 1 || n > ORDER_MAX_FORK) return NULL;
  for (int i = 0; i < n; i++) {
    const Stmt *u = reduce_unblocked(s->u.block.items[i]);
    int fcfs = u->kind == ST_USE && u->u.use.decl && u->u.use.decl->u.resource.discipline != DISC_PS;
    if (u->kind == ST_DELAY || fcfs) {   /* beside the ps requests: its own time */
      AlgExpr *t = reduce_expr(c, env, u->kind == ST_DELAY ? u->u.delay.duration : u->u.use.duration);
      if (order_by_branch(w, t)) return NULL;
      beside = beside ? alg_max(g, beside, t) : t;
      continue;
    }
    if (u->kind != ST_USE || !u->u.use.decl) return NULL;
    if (res && u->u.use.decl != res) return NULL;
    res = u->u.use.decl;
    AlgExpr *index = u->u.use.index ? reduce_expr(c, env, u->u.use.index) : NULL;
    AlgExpr *t = reduce_expr(c, env, u->u.use.duration);
    if (order_by_branch(w, t)) return NULL;
    int same = shared_member(w, index);
    if (shared >= 0 && same != shared) return NULL;
    shared = same;
    if (same) {
      if (i > 0 && index != first) return NULL;
      first = index;
    } else {
      REnv none;
      memset(&none, 0, sizeof none);
      if (!res->u.resource.count || !order_injective(w, index) ||
          !alg_is_nonneg(g, alg_sub(g, w->n, reduce_expr(c, &none, res->u.resource.count)))) return NULL;
    }
    sizes[nps] = t;
    counts[nps++] = same ? w->n : alg_num_int(g, 1);
  }
  AlgExpr *drain = nps ? reduce_ps_drain(c, reduce_mult(c, res), sizes, counts, nps, NULL) : alg_num_int(g, 0);
  return drain && beside ? alg_max(g, drain, beside) : drain;
}

/* Rule (lock step on ps): par (k = a, b) S where S is a chain (no `||` or par inside, no `if` on
** k, every duration and loop range free of k), and every use of S is on a ps resource at a member
** the same for all branches or one-to-one in k (a member free of the chain's loops), or on FCFS
** with enough servers or at a member one-to-one in k that lasts > 0 or that branch k alone ever
** uses (the conditions of the lockstep rule: no FCFS member shared, where FCFS order would break
** the symmetry). Then by induction over the steps every branch starts each step at the same
** instant: a ps member the same for all has all n requests present from the same instant to the
** same instant (equal service at equal rates: each takes t max(1, n / c)), a member one-to-one in
** k has one (t max(1, 1 / c)), an FCFS use never waits. (An `if` on k whose sides differ only in
** members is read as one use by the other rules; here it is not: tests/regress/19547.pam.) The par takes exactly the chain's time
** with each ps use so lengthened (ps_use_time), for every branch. That is its time run alone: U.
** As L it needs the par to run alone (RCtx.concurrent == 0, asked by the caller): a request from
** outside would break the symmetry (FCFS and ps with other users are not monotone). Returns the
** time (an expression of k, equal for all), or NULL; *apart: the condition under which it holds
** (a2a_ps_steps_apart: 1, or the uses whose member follows a loop lasting > 0). */
AlgExpr *ps_lockstep(OWalk *w, REnv *env, const RPiece *p, AlgExpr **apart) {
  RCtx *c = w->c;
  AlgCtx *g = c->alg;
  if (!w->ok || w->vary || w->guarded || w->subset || w->kif || w->k2 || w->too_many) return NULL;
  int ps = 0;
  for (int i = 0; i < w->nsites; i++) {
    const OSite *site = &w->sites[i];
    const Decl *res = site->res;
    /* sides of an `if` on k paired (twin): each side's member is used by some branches only,
    ** which the lock step's walk would count as all n */
    if (res->u.resource.handoff || site->twin) return NULL;
    if (site->path.depth > 0) {   /* in a `||`: ps_fork_time reads it */
      if (site->path.deep || site->path.depth > 1 || site->path.copies[0]) return NULL;
      if (res->u.resource.discipline != DISC_PS) {   /* FCFS beside: never waits (reduce_a2a.c) */
        UseClass cls = order_use_class(w, res, site->index);
        if ((cls != USE_FREE && cls != USE_OWN) || a2a_parallel_use(w, i)) return NULL;
        continue;
      }
      ps = 1;
      continue;
    }
    if (res->u.resource.discipline == DISC_PS) {
      /* a member that follows a loop: one request per member at each iteration (reduce_a2a.c) */
      if (!shared_member(w, site->index) && !(res->u.resource.count && order_injective(w, site->index)))
        return NULL;
      ps = 1;
      continue;
    }
    UseClass cls = order_use_class(w, res, site->index);
    if (cls != USE_FREE && cls != USE_OWN) return NULL;
  }
  if (!ps) return NULL;   /* the lockstep rule's */
  for (int i = 0; i < w->nstages; i++) {
    const OStage *st = &w->stages[i];
    if (st->cls == USE_PS) continue;
    if (st->cls != USE_OWN) return NULL;
    if (!order_own_alone(w, st) && !(alg_bounds(g, st->least).lo > 0)) return NULL;
  }
  OWalk *again = order_walk_new(c, p);
  again->stretch = 1;
  AlgExpr *time = order_walk_time(again, env, p);
  if (!time || again->vary || again->kif) return NULL;
  *apart = a2a_ps_steps_apart(w);
  return time;
}
