/*
** reduce_fork.c — the rules for a par whose branches send at once, with `||` inside the body
** (docs/reduction.md, "Pars whose branches send at once"): the wait of each use site from the
** number of clients a member can have (bounded clients, an upper bound), and the order-aware lower
** bound for a member that several one-to-one sites request. The body is walked by reduce_order.c.
*/
#include <string.h>

#include "reduce_order.h"

static AlgExpr *zero(RCtx *c) { return alg_num_int(c->alg, 0); }

/* How many requests one site can have outstanding at any one member: 1 when its member is
** one-to-one in the branch (a member is named by one branch, which makes the site's requests one
** at a time), n when every branch names the same member (or a plain resource); NULL when its
** member follows a loop of the body (branches drifting apart could meet at a member) or is
** neither. */
static AlgExpr *site_clients(OWalk *w, const OSite *site) {
  RCtx *c = w->c;
  if (!site->loop_free) return NULL;
  if (!site->index || !order_by_branch(w, site->index)) return alg_max(c->alg, zero(c), w->n);
  if (site->res->u.resource.count && order_injective(w, site->index)) return alg_num_int(c->alg, 1);
  return NULL;
}

/* Rule (bounded clients): for every resource r of the body, each of its sites (a use met by the
** walk, not replicated by a par inside the body; the two sides of an `if` on k paired as one)
** has at most clients(site) requests outstanding at a member, so a member has at most
** C = sum of the clients of r's sites present at once. An FCFS request finds at most C - 1 others
** ahead of it; while it waits all m servers serve them, each server starting one of them at
** least every t_max, so it waits at most
**   min(max(0, ceil((C - m) / m)) * t_max, max(0, S - t_max(site)) / m)
** with S = sum over r's sites of clients * t_max(site) (the work of the others ahead, shared by
** the m busy servers). Sets each site's wait; 0 when a site is not bounded or r is ps. */
int fork_waits(OWalk *w) {
  RCtx *c = w->c;
  AlgCtx *g = c->alg;
  for (int i = 0; i < w->nsites; i++) {
    const Decl *res = w->sites[i].res;
    int done = 0;
    for (int j = 0; j < i && !done; j++) done = w->sites[j].res == res;
    if (done) continue;
    if (res->u.resource.discipline == DISC_PS || res->u.resource.handoff) return 0;
    AlgExpr *count = zero(c), *work = zero(c), *t_max = zero(c);
    for (int j = i; j < w->nsites; j++) {
      const OSite *site = &w->sites[j];
      if (site->res != res || site->twin) continue;
      AlgExpr *clients = site_clients(w, site);
      if (!clients) return 0;
      count = alg_add(g, count, clients);
      work = alg_add(g, work, alg_mul(g, clients, site->tmax));
      t_max = alg_max(g, t_max, site->tmax);
    }
    AlgExpr *m = reduce_mult(c, res);
    AlgExpr *rounds = alg_max(g, zero(c), alg_func(g, ALG_CEIL, alg_div(g, alg_sub(g, count, m), m)));
    AlgExpr *queue = alg_mul(g, rounds, t_max);
    for (int j = i; j < w->nsites; j++) {
      OSite *site = &w->sites[j];
      if (site->res != res) continue;
      AlgExpr *ahead = alg_div(g, alg_max(g, zero(c), alg_sub(g, work, site->tmax)), m);
      site->wait = alg_min(g, queue, ahead);
    }
  }
  return 1;
}

/* 1 when st can join a group of the lower bound below: a use on an FCFS family whose member is
** one-to-one in the branch and follows no loop of the body, outside loops or in one plain loop
** of the body, with at least as many branches as members (so its members are all of them). */
static int onto_site(OWalk *w, const OStage *st) {
  RCtx *c = w->c;
  const Decl *res = st->res;
  if (st->cls != USE_OWN || !st->loop_free || st->loops > 1 || (st->loops == 1 && !st->loop)) return 0;
  if (!res->u.resource.count || res->u.resource.discipline == DISC_PS) return 0;
  REnv none;
  memset(&none, 0, sizeof none);
  AlgExpr *size = reduce_expr(c, &none, res->u.resource.count);
  return alg_is_nonneg(c->alg, alg_sub(c->alg, w->n, size));
}

/* Rule (order-aware lower bound, a member requested by several sites): s sites of the body on
** family r, each one-to-one onto r's members (onto_site), under the same conditions and in the
** same loop: every member q gets exactly one request from each (per iteration of the loop),
** none before the least head, so
**   T >= min head + max(ceil(s / m) * min t, sum over the sites of min_k t / m) + min tail
** where a site's tail is what its branch still runs after the request: the rest of its own
** branch of each `||` around it and what follows (order_tail). The busiest of q's m FCFS servers
** serves ceil(s / m) of the s requests one after another, all together serve the sum at most m
** at a time, and the branch whose request ends last still runs its tail. Returns the largest over
** the groups of two sites or more, or NULL. */
AlgExpr *fork_lower(OWalk *w, AlgExpr *total) {
  RCtx *c = w->c;
  AlgCtx *g = c->alg;
  AlgExpr *best = NULL;
  int grouped[ORDER_MAX_STAGES] = {0};
  for (int i = 0; i < w->nstages; i++) {
    const OStage *st = &w->stages[i];
    if (grouped[i] || !onto_site(w, st)) continue;
    AlgExpr *head = NULL, *t_min = NULL, *sum = zero(c), *tail = NULL;
    int s = 0;
    for (int j = i; j < w->nstages; j++) {
      const OStage *o = &w->stages[j];
      if (grouped[j] || o->res != st->res || o->guard != st->guard || o->loop != st->loop || !onto_site(w, o))
        continue;
      grouped[j] = 1;
      s++;
      AlgExpr *h = order_over_branches(w, ALG_MINOVER, o->head);
      AlgExpr *t = order_over_branches(w, ALG_MINOVER, o->t);
      AlgExpr *rest = order_over_branches(w, ALG_MINOVER, order_tail(w, o, total));
      head = head ? alg_min(g, head, h) : h;
      t_min = t_min ? alg_min(g, t_min, t) : t;
      tail = tail ? alg_min(g, tail, rest) : rest;
      sum = alg_add(g, sum, t);
    }
    if (s < 2) continue;
    AlgExpr *m = reduce_mult(c, st->res);
    AlgExpr *serve = alg_max(g, alg_mul(g, alg_func(g, ALG_CEIL, alg_div(g, alg_num_int(g, s), m)), t_min),
                             alg_div(g, sum, m));
    AlgExpr *lo = order_over_loop(c, st, alg_add(g, alg_add(g, head, serve), tail));
    best = best ? alg_max(g, best, lo) : lo;
  }
  return best;
}
