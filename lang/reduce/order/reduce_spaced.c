/*
** reduce_spaced.c — requests spaced by a single server (docs/reduction.md, "Requests spaced by a
** single server"): a resource every request of which comes a fixed time after the end of a request
** at one single-server resource never queues when its servers outlast that spacing. The body is
** walked by reduce_order.c; the bounded clients (reduce_fork.c) read the condition.
*/
#include "reduce_order.h"

/* 1 when paths a and b are the same forks and arms, with no par of the body among them (its copies
** would make several requests at once). */
static int same_chain(const OPath *a, const OPath *b) {
  if (a->deep || b->deep || a->depth != b->depth) return 0;
  for (int i = 0; i < a->depth; i++)
    if (a->fork[i] != b->fork[i] || a->arm[i] != b->arm[i] || a->copies[i]) return 0;
  return 1;
}

/* The stage the walk recorded for site j, or NULL (a use no stage rule reads). */
static const OStage *stage_of(const OWalk *w, int j) {
  for (int i = 0; i < w->nstages; i++)
    if (w->stages[i].site == j) return &w->stages[i];
  return NULL;
}

/* 1 when site j never waits and takes its duration: an FCFS use (no hand-off) of a member only
** branch k names (USE_OWN, the same member in every loop of the body: order_own_alone), every
** site of its family naming it so, all of them on the chain path (one request at a time). */
static int quiet_site(const OWalk *w, int j, const OPath *path) {
  const OSite *site = &w->sites[j];
  const OStage *st = stage_of(w, j);
  const Decl *res = site->res;
  if (!st || site->twin || st->cls != USE_OWN || st->reps || res->u.resource.handoff ||
      res->u.resource.discipline != DISC_FCFS || !order_own_alone(w, st))
    return 0;
  for (int i = 0; i < w->nsites; i++) {
    const OSite *o = &w->sites[i];
    if (o->res == res && (o->index != site->index || o->twin || !same_chain(&o->path, path))) return 0;
  }
  return 1;
}

/* The least duration of a request of plain resource a in the par (its sites all stages outside
** pars of the body), or NULL. */
static AlgExpr *least_request(const OWalk *w, const Decl *a) {
  AlgExpr *s = NULL;
  for (int i = 0; i < w->nsites; i++) {
    const OSite *o = &w->sites[i];
    if (o->res != a) continue;
    const OStage *so = stage_of(w, i);
    if (!so || o->twin || so->reps || !alg_is_num(o->copies, 1)) return NULL;
    AlgExpr *least = order_over_branches(w, ALG_MINOVER, so->least ? so->least : so->t);
    s = s ? alg_min(w->c->alg, s, least) : least;
  }
  return s;
}

/* The contention-free time from the end of sa's request to st's, both in one iteration of the
** same loop: within the iteration of a loop counted by the branch (reduce_stage.c: the heads
** there are its iteration's), else from the heads. */
static AlgExpr *delta_of(AlgCtx *g, const OStage *sa, const OStage *st) {
  if (st->kloop) return alg_expand(g, alg_sub(g, alg_sub(g, st->kloop_head, sa->kloop_head), sa->kloop_t));
  return alg_expand(g, alg_sub(g, alg_sub(g, st->head, sa->head), sa->t));
}

/* Rule (requests spaced by a single server; upper bound): a plain FCFS resource r (m servers, no
** hand-off) whose every request, site by site, comes a fixed time delta after the end of a request
** at one plain FCFS resource A of one server (no hand-off): in the chain of the site, the use of A
** before it, then only delays and uses that never wait (quiet_site), the same delta for every site
** of r, in every branch and iteration (the contention-free time in between, free of the branch and
** of the loops). A's server ends its requests one at a time, each at least s (its least request)
** after the one before, so r's requests arrive at least s apart (each A request is followed by at
** most one of them). If t_max <= m s, no request of r waits: by induction over the arrivals in
** time order, the requests of r in service when one arrives at a arrived in (a - t_max, a), at
** least s apart and at least s before a, so fewer than t_max / s <= m of them: a server is free.
** The par runs alone (U). Returns the condition t_max <= m s and s > 0 on the params, or NULL
** when r is not such. The master's NIC of bench/audit5/mix/07_master_worker_disk.pam (9.55 us a
** task, one server) spaces the writes of 30 us to fcfs(4) disks: 30 <= 4 x 9.55. */
AlgExpr *order_spaced(OWalk *w, const Decl *r) {
  RCtx *c = w->c;
  AlgCtx *g = c->alg;
  if (w->too_many || !w->sites || w->holds || w->subset || w->lengthen) return NULL;
  if (r->u.resource.count || r->u.resource.handoff || r->u.resource.discipline != DISC_FCFS) return NULL;
  const Decl *a = NULL;
  AlgExpr *delta = NULL, *t_max = alg_num_int(g, 0);
  for (int j = 0; j < w->nsites; j++) {
    const OSite *site = &w->sites[j];
    if (site->res != r) continue;
    const OStage *st = stage_of(w, j);
    if (!st || site->twin || st->reps || st->kguard || st->loops > 1 || !alg_is_num(site->copies, 1))
      return NULL;
    if (!same_chain(&site->path, &site->path)) return NULL;   /* no par of the body around it */
    int i = j - 1;
    while (i >= 0 && quiet_site(w, i, &site->path)) i--;
    if (i < 0) return NULL;
    const OSite *before = &w->sites[i];
    const OStage *sa = stage_of(w, i);
    const Decl *res = before->res;
    if (!sa || before->twin || !same_chain(&before->path, &site->path)) return NULL;
    if (res == r || res->u.resource.count || res->u.resource.handoff ||
        res->u.resource.discipline != DISC_FCFS || !alg_is_num(reduce_mult(c, res), 1) || (a && res != a))
      return NULL;
    if (sa->kguard || sa->kloop != st->kloop || sa->reps || sa->loop != st->loop || sa->loops != st->loops ||
        sa->guard != st->guard)
      return NULL;
    a = res;
    AlgExpr *d = delta_of(g, sa, st);
    if (order_by_branch(w, d) || (st->loop && alg_contains(d, st->loop)) ||
        (st->kloop && alg_contains(d, st->kloop)))
      return NULL;
    if (delta && !alg_is_num(alg_expand(g, alg_sub(g, d, delta)), 0)) return NULL;
    delta = d;
    t_max = alg_max(g, t_max, site->tmax);
  }
  AlgExpr *s = a ? least_request(w, a) : NULL;
  if (!s) return NULL;
  return alg_and(g, alg_cmp(g, ALG_CMP_LT, alg_num_int(g, 0), s),
                 alg_cmp(g, ALG_CMP_LE, t_max, alg_mul(g, reduce_mult(c, r), s)));
}
