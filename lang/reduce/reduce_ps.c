/*
** reduce_ps.c — the rules of LANGUAGE.md §8 for processor sharing, `ps(c)`: the time of a request
** alone, and the bound on a chain's slow-down from the number of requests that can be present at
** once (docs/reduction.md, "Processor sharing", has the argument). Demand counts as for fcfs
** with m = c (reduce_mult gives c).
*/
#include <string.h>

#include "reduce_internal.h"

static int is_ps(const Decl *res) {
  return res && res->u.resource.discipline == DISC_PS;
}

/* max(1, n / c): how much longer than its service a request on ps(c) takes with n present. */
static AlgExpr *stretch(RCtx *c, const Decl *res, AlgExpr *n) {
  AlgCtx *g = c->alg;
  return alg_max(g, alg_num_int(g, 1), alg_div(g, n, reduce_mult(c, res)));
}

/* use(r, t) alone: t on an fcfs resource; t * max(1, 1/c) on ps(c), where a request alone runs
** at rate min(1, c). */
AlgExpr *reduce_alone(RCtx *c, const Decl *res, AlgExpr *t) {
  if (!is_ps(res)) return t;
  return alg_mul(c->alg, t, stretch(c, res, alg_num_int(c->alg, 1)));
}

/* Fills reach->ps / reach->present for the par of count branches (branches[k] standing for
** sizes[k] branches, 1 each when sizes is NULL) with summary whole: each plain ps resource whose
** every user is a chain, with the number of branches using it (each has at most one request
** present at a time). */
void reduce_ps_present(RCtx *c, const Summary *whole, const Summary *branches, int count,
                       AlgExpr *const *sizes, RReach *reach) {
  AlgCtx *g = c->alg;
  reach->ps = arena_alloc(&c->arena, (size_t)(whole->nterms ? whole->nterms : 1) * sizeof *reach->ps);
  reach->present = arena_alloc(&c->arena, (size_t)(whole->nterms ? whole->nterms : 1) * sizeof *reach->present);
  reach->nps = 0;
  for (int i = 0; i < whole->nterms; i++) {
    const Decl *res = whole->terms[i].res;
    if (!is_ps(res) || whole->terms[i].index) continue;
    AlgExpr *n = alg_num_int(g, 0);
    int chains = 1;
    for (int k = 0; k < count && chains; k++) {
      if (!reduce_uses(&branches[k], res)) continue;
      chains = branches[k].chain;
      n = alg_add(g, n, sizes ? sizes[k] : alg_num_int(g, 1));
    }
    if (!chains) continue;
    reach->ps[reach->nps] = res;
    reach->present[reach->nps++] = n;
  }
}

/* The wait of a chain at ps(c) resource res, given wait = W / c (the rule for fcfs with m = c:
** the chain is slowed only while others are served, at c in all):
**   min(W / c, own * (max(1, N / c) - max(1, 1 / c)))
** where N bounds the requests present at once (reach->present): each request is served at rate
** min(1, c / n) >= min(1, c / N), so it takes at most its service times max(1, N / c), of which
** max(1, 1 / c) is in phi. own is the chain's demand on res when only its own requests can be
** slowed there on its behalf, and D_r(whole) when it can also wait for holders slowed there
** (each holder's excess at res is at most its own demand there times the same factor). */
AlgExpr *reduce_ps_wait(RCtx *c, const RReach *reach, const Decl *res, AlgExpr *wait,
                        AlgExpr *own) {
  if (!reach || !is_ps(res)) return wait;
  AlgCtx *g = c->alg;
  for (int k = 0; k < reach->nps; k++) {
    if (reach->ps[k] != res) continue;
    AlgExpr *excess = alg_sub(g, stretch(c, res, reach->present[k]),
                              stretch(c, res, alg_num_int(g, 1)));
    return alg_min(g, wait, alg_mul(g, own, excess));
  }
  return wait;
}
