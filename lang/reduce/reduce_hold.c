/*
** reduce_hold.c — the rules of LANGUAGE.md §8 for held resources: `hold (r) S`, `handoff(h)`, and
** the hold relation (which resources are requested inside holds of which) that tells a branch's
** wait which resources it can be kept waiting by through a holder (docs/reduction.md,
** "Held resources and hand-offs", has the argument).
*/
#include <string.h>

#include "reduce_internal.h"

/* h of handoff(h) on res, or NULL when res has none (h = 0: nothing to charge). */
AlgExpr *reduce_handoff(RCtx *c, const Decl *res) {
  if (!res || !res->u.resource.handoff) return NULL;
  REnv none;
  memset(&none, 0, sizeof none);
  AlgExpr *h = reduce_expr(c, &none, res->u.resource.handoff);
  return alg_is_num(h, 0) ? NULL : h;
}

/* Adds (outer, inner) to the hold relation unless it is there. */
static void nest_add(RCtx *c, const Decl *outer, const Decl *inner) {
  for (int i = 0; i < c->nnests; i++)
    if (c->nests[i].outer == outer && c->nests[i].inner == inner) return;
  if (c->nnests == c->nests_cap) {
    int cap = c->nests_cap ? 2 * c->nests_cap : 16;
    RNest *grown = arena_alloc(&c->arena, (size_t)cap * sizeof *grown);
    if (c->nnests) memcpy(grown, c->nests, (size_t)c->nnests * sizeof *grown);
    c->nests = grown;
    c->nests_cap = cap;
  }
  c->nests[c->nnests].outer = outer;
  c->nests[c->nnests++].inner = inner;
}

/* Records that a hold of r has a body requesting every resource body uses. */
static void nest_body(RCtx *c, const Decl *r, const Summary *body) {
  for (int i = 0; i < body->nterms; i++) nest_add(c, r, body->terms[i].res);
  for (int i = 0; i < body->nfams; i++) nest_add(c, r, body->fams[i].res);
}

/* hold (r) S, with h the hand-off time of r (0 without handoff):
**   phi_lo = phi_lo(S), phi_hi = phi_hi(S) + h, L = L(S), U = U(S), chain = chain(S),
**   D = D(S), and on r (or its member): L(S) in lower-bound uses, phi_hi(S) + h in upper ones.
** The hold keeps its server of r for the whole time of S, which is at least L(S) in any context:
** the lower bounds (critical path, D_r / m_r) stay sound. In upper-bound uses the hold counts
** only the time S is progressing on its own path (at most phi_hi(S)) plus one hand-off: the time
** S spends waiting inside the hold is charged, in the wait of whoever waits for r, to the
** resource S waits at, which reduce_wait reaches through the hold relation (RReach.through).
** Run alone, S starts at once (no hand-off) and U = U(S); but when S requests r again, U(S)
** (computed with all m_r servers free) does not hold, and U is the one-branch bound
** phi_hi + sum over the resources it reaches of D / m; L then also takes the loads (the hold's
** own server-time is not in L(S)). */
void reduce_hold(RCtx *c, REnv *env, const Stmt *s, Summary *out) {
  AlgCtx *g = c->alg;
  const Decl *r = s->u.use.decl;
  AlgExpr *index = reduce_member(c, env, s);
  Summary body;
  c->concurrent++;   /* a server of r is taken while S runs: the rules for pars that run alone
                     ** with every server free (FCFS order, the lock's first meeting) do not apply */
  reduce_stmt(c, env, s->u.use.body, &body);
  c->concurrent--;
  AlgExpr *h = reduce_handoff(c, r);
  reduce_sum_init(c, out);   /* fresh arrays: body may be a memoised callee's summary */
  out->phi_lo = body.phi_lo;
  out->phi_hi = h ? alg_add(g, body.phi_hi, h) : body.phi_hi;
  out->L = body.L;
  out->U = body.U;
  out->chain = body.chain;
  reduce_merge_demands(c, out, &body);
  reduce_add_demand(c, out, r, index, body.L, out->phi_hi);
  nest_body(c, r, &body);
  if (reduce_uses(&body, r)) {
    Summary alone = *out;
    alone.chain = 0;
    RReach reach;
    memset(&reach, 0, sizeof reach);
    reduce_reach_init(c, &alone, &reach, NULL);
    out->U = alg_add(g, out->phi_hi, reduce_wait(c, out, NULL, &alone, NULL, NULL, NULL, &reach));
    out->L = alg_max(g, out->L, reduce_load_lo(c, out));
  }
}

/* 1 when res is in reach->through (reach may be NULL). */
int reduce_reach_through(const RReach *reach, const Decl *res) {
  if (!reach) return 0;
  for (int i = 0; i < reach->nthrough; i++) if (reach->through[i] == res) return 1;
  return 0;
}

/* Appends res to list (length *n, room for cap) unless it is there; 1 when appended. */
static int list_add(const Decl **list, int *n, int cap, const Decl *res) {
  for (int i = 0; i < *n; i++) if (list[i] == res) return 0;
  if (*n >= cap) return 0;
  list[(*n)++] = res;
  return 1;
}

/* reach->through for branch: every resource requested inside a hold of a resource the branch
** requests, or of one found so far (the closure of the hold relation from res(branch)). A family
** member that is the branch's alone in a par (piece: the par's one range) has no holder the branch
** could wait behind, so the closure does not start there: `par (p) hold (rlock[(p + 1) % P])
** use(cpu[p], t)` waits for no one at rlock, and so for no one's cpu through it. */
void reduce_reach_init(RCtx *c, const Summary *branch, RReach *reach, const RPiece *piece) {
  int cap = branch->nterms + branch->nfams + c->nnests;
  const Decl **seen = arena_alloc(&c->arena, (size_t)(cap ? cap : 1) * sizeof *seen);
  const Decl **through = arena_alloc(&c->arena, (size_t)(cap ? cap : 1) * sizeof *through);
  int nseen = 0, nthrough = 0;
  for (int i = 0; i < branch->nterms + branch->nfams; i++) {
    const Decl *res = i < branch->nterms ? branch->terms[i].res : branch->fams[i - branch->nterms].res;
    if (!piece || !res->u.resource.count ||
        !reduce_family_alone(c, branch, res, piece->index, piece->lo, piece->hi))
      list_add(seen, &nseen, cap, res);
  }
  for (int k = 0; k < nseen; k++)   /* seen grows while it is walked */
    for (int i = 0; i < c->nnests; i++) {
      if (c->nests[i].outer != seen[k]) continue;
      list_add(through, &nthrough, cap, c->nests[i].inner);
      list_add(seen, &nseen, cap, c->nests[i].inner);
    }
  reach->through = through;
  reach->nthrough = nthrough;
}
