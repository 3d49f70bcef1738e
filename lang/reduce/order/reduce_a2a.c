/*
** reduce_a2a.c — all-to-all in rounds beyond the plain chain (docs/reduction.md, "All-to-all in
** rounds: sends beside other work, ps links"): the lock step of branches whose body forks (a send
** beside local packing, `delay(t) || use(port[(p + k) % P], m)`), and the steps of the ps lock
** step whose member follows a loop of the body (`link[(p + k) % P]` on ps). The body is walked
** by reduce_order.c.
*/
#include "reduce_order.h"

/* 1 when sites a and b can have requests present at once for one branch: at the first fork
** where their paths part, they are in different branches of it; a site whose path was too deep
** to record counts as parallel to every other. Sites in different forks of one branch, or one
** in a fork that is a statement beside the other, run one after the other. */
static int parallel_sites(const OSite *a, const OSite *b) {
  if (a->path.deep || b->path.deep) return 1;
  int depth = a->path.depth < b->path.depth ? a->path.depth : b->path.depth;
  for (int i = 0; i < depth; i++) {
    if (a->path.fork[i] != b->path.fork[i]) return 0;
    if (a->path.arm[i] != b->path.arm[i]) return 1;
  }
  return 0;
}

/* 1 when site i of w has a site on the same resource that can have a request present at once
** for one branch (parallel_sites). */
int a2a_parallel_use(const OWalk *w, int i) {
  for (int j = 0; j < w->nsites; j++)
    if (j != i && w->sites[j].res == w->sites[i].res && parallel_sites(&w->sites[j], &w->sites[i])) return 1;
  return 0;
}

/* Rule (lock step through `||`): par (k = a, b) S where S forks (`||`, no par inside, no `if` on
** k, no hold), every duration and loop range free of k, every use at a member one-to-one in k
** (other indices held fixed) or on a resource with a server per branch, no two uses of one
** resource in different branches of a `||` (at most one request of a branch at a resource at a
** time), and every one-to-one use lasting > 0 or on a member branch k alone ever uses. All
** branches start together and run the same statements for the same times; by induction on
** time every branch makes each request at the same instant as every other: the requests present
** at a resource at one instant are those of one use at one iteration of the loops around it, one
** per branch, at distinct members (or at most n on m >= n servers), so none waits. U = phi.
** (A use of 0 s does not separate two steps in time: tests/regress of the chain's lockstep.)
** Returns the condition under which U = phi holds (1 when proved for every admissible value, else
** `least > 0 and ...` for the formula to decide at each point), or NULL. */
AlgExpr *a2a_fork_lockstep(OWalk *w) {
  AlgCtx *g = w->c->alg;
  if (!w->forks || w->vary || w->other || w->guarded || w->subset || w->kif || w->holds ||
      w->too_many || !w->sites)
    return NULL;
  for (int i = 0; i < w->nsites; i++) {
    const OSite *s = &w->sites[i];
    if (s->twin || s->res->u.resource.handoff) return NULL;
    for (int d = 0; d < s->path.depth; d++) if (s->path.copies[d]) return NULL;   /* a par inside */
    UseClass cls = order_use_class(w, s->res, s->index);
    if (cls != USE_FREE && cls != USE_OWN) return NULL;
    if (a2a_parallel_use(w, i)) return NULL;
  }
  AlgExpr *cond = alg_num_int(g, 1);
  for (int i = 0; i < w->nstages; i++) {
    const OStage *st = &w->stages[i];
    if (st->cls != USE_OWN) return NULL;
    if (order_own_alone(w, st) || alg_bounds(g, st->least).lo > 0) continue;
    cond = alg_and(g, cond, alg_cmp(g, ALG_CMP_GT, st->least, alg_num_int(g, 0)));
  }
  return cond;
}

/* Rule (ps lock step, a member that follows a loop): in the lock step on ps (reduce_ps_order.c)
** a ps use whose member names a loop index of the body, `link[(p + k) % P]` in `seq (k)`, is one
** request per member at each iteration when the member is one-to-one in the branch for each
** value of the loop indices: in lock step every branch is at the same iteration of the same use
** at one instant, so the requests present at the family then are that use's, at distinct members,
** each alone at its member (t max(1, 1 / c)). The instants must separate the iterations: each
** such use lasts > 0 (a use of 0 s lets branch 0 run on to its next request before branch 1 has
** made its current one, as for the FCFS lock step). Returns the condition under which they do:
** 1 when proved for every admissible value, else `least > 0 and ...` to decide at each point. */
AlgExpr *a2a_ps_steps_apart(const OWalk *w) {
  AlgCtx *g = w->c->alg;
  AlgExpr *cond = alg_num_int(g, 1);
  for (int i = 0; i < w->nstages; i++) {
    const OStage *st = &w->stages[i];
    if (st->cls != USE_PS || st->loop_free || !st->index || !order_by_branch(w, st->index)) continue;
    if (alg_bounds(g, st->least).lo > 0) continue;
    cond = alg_and(g, cond, alg_cmp(g, ALG_CMP_GT, st->least, alg_num_int(g, 0)));
  }
  return cond;
}
