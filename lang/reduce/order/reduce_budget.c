/*
** reduce_budget.c — the bounded-clients rule with a budget (docs/reduction.md, "Pars whose
** branches send at once", budget of the own sites): the uses of a branch on its own member of a
** family, one after another, wait in all at most the work the other sites bring to that member,
** not each of them that much. The body is walked by reduce_order.c; the waits come from
** reduce_fork.c.
*/
#include "reduce_order.h"

static AlgExpr *zero(RCtx *c) { return alg_num_int(c->alg, 0); }

/* 1 when site can lead an own group: a use on a family outside every fork of the body (its wait
** then adds to the branch's time whatever the rule; inside a `||` the per-use waits of two arms
** overlap and are the better bound), its member one-to-one in the branch (order_injective) and
** following no loop of the body, not the else side of a pair. */
static int own_site(OWalk *w, const OSite *site) {
  return !site->twin && site->index && site->res->u.resource.count && site->loop_free &&
         site->path.depth == 0 && !site->path.deep &&
         order_by_branch(w, site->index) && order_injective(w, site->index);
}

/* The work the sites of res outside the group (sites with member index `index`) bring to one
** member over the whole par: each site clients(site) requests per run at most (reduce_fork.c:
** the branches naming the member times the copies), runs(site) runs, each at most t_max(site).
** NULL when a site is not bounded. */
static AlgExpr *other_work(OWalk *w, const Decl *res, AlgExpr *index) {
  AlgCtx *g = w->c->alg;
  AlgExpr *work = zero(w->c);
  for (int j = 0; j < w->nsites; j++) {
    const OSite *o = &w->sites[j];
    if (o->res != res || o->twin || o->index == index) continue;
    AlgExpr *clients = fork_site_clients(w, o);
    if (!clients) return NULL;
    work = alg_add(g, work, alg_mul(g, alg_mul(g, clients, o->runs), o->tmax));
  }
  return work;
}

/* Rule (own sites on a budget): the sites G of one FCFS family r (m servers, no hand-off) with one
** member map M, one-to-one in the branch and following no loop of the body, that no fork lets run
** at once (their width is 1: one request of G outstanding per branch). Only branch k names
** M(k) through G, so while a request of G from k waits at M(k), all m servers there serve
** requests of the other sites of r; these bring M(k) at most
**   B = sum over the other sites s of clients(s) * runs(s) * t_max(s)
** work over the whole par (runs(s): the loops of the body around s, multiplied), and the waits
** of k's G requests, one at a time, add up to at most B / m. They also add up to at most
** sum over G of runs * wait(site). A branch's time grows by at most the waits of its requests,
** so it is at most its time with G's uses not lengthened and every other use lengthened by its
** wait, plus min(B / m, sum over G of runs * wait) for each group. `use(nic[(p + 1) % P], t) ||
** use(nic[(p + P - 1) % P], t); repeat (R) use(nic[p], t)`: the R own uses wait 2 t in all, not
** 2 t each. Returns the par's bound (the largest over the branches), or NULL when no group
** qualifies or the walk fails. The sites' waits are as before on return. */
AlgExpr *budget_upper(OWalk *w, REnv *env, const RPiece *p) {
  RCtx *c = w->c;
  AlgCtx *g = c->alg;
  AlgExpr *saved[ORDER_MAX_SITES], *lump = zero(c);
  int in_group[ORDER_MAX_SITES] = {0}, groups = 0;
  for (int i = 0; i < w->nsites; i++) saved[i] = w->sites[i].wait;
  for (int i = 0; i < w->nsites; i++) {
    const OSite *site = &w->sites[i];
    const Decl *res = site->res;
    if (in_group[i] || !own_site(w, site) || res->u.resource.handoff || res->u.resource.discipline == DISC_PS) continue;
    int set[ORDER_MAX_SITES], n = 0, bad = 0;
    AlgExpr *each = zero(c);   /* sum over G of runs * wait */
    for (int j = 0; j < w->nsites; j++) {
      const OSite *o = &w->sites[j];
      if (o->res != res || o->index != site->index) continue;
      if (!o->twin) {
        if (!own_site(w, o)) bad = 1;
        set[n++] = j;
      }
      each = alg_add(g, each, alg_mul(g, o->runs, saved[j]));
    }
    if (bad || !alg_is_num(fork_width(w, set, n, 0), 1)) continue;
    AlgExpr *work = other_work(w, res, site->index);
    if (!work) continue;
    for (int j = 0; j < w->nsites; j++)
      if (w->sites[j].res == res && w->sites[j].index == site->index) { in_group[j] = 1; w->sites[j].wait = zero(c); }
    lump = alg_add(g, lump, alg_min(g, alg_div(g, work, reduce_mult(c, res)), each));
    groups++;
  }
  OWalk *again = groups ? order_walk_lengthened(w, env, p) : NULL;
  for (int i = 0; i < w->nsites; i++) w->sites[i].wait = saved[i];
  return again ? order_over_branches(again, ALG_MAXOVER, alg_add(g, again->total, lump)) : NULL;
}
