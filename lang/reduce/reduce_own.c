/*
** reduce_own.c — branches of a par on members of their own (docs/reduction.md, "Branches on
** members of their own"): where the unnamed demand on a family lies (the sites of a summary's
** RFam: the member index of a use with the loops closed over it, kept as summaries add up), and
** the rule that a par whose branch p requests only members no other branch requests runs each
** branch as it runs alone: U(par) <= max_p U(S(p)). A rank's own pipeline,
** `par (p) par (c = 1, M) seq (s = 0, S - 1) use(stage[p * S + s], t)`.
*/
#include <string.h>

#include "reduce_internal.h"

/* 1 when x and y are the same site (the same index over the same closed loops and ranges). */
static int same_site(const RSite *x, const RSite *y) {
  if (x->index != y->index || x->nclosed != y->nclosed) return 0;
  for (int k = 0; k < x->nclosed; k++)
    if (x->closed[k] != y->closed[k] || x->lo[k] != y->lo[k] || x->hi[k] != y->hi[k]) return 0;
  return 1;
}

static void sites_unknown(RFam *fam) { fam->sites = NULL; fam->nsites = -1; }

/* fam's sites with the n sites of add joined (a site already there is not repeated): the members
** of a sum of demands are those of either part. */
static void sites_add(RCtx *c, RFam *fam, const RSite *add, int n) {
  if (fam->nsites < 0) return;
  RSite *all = arena_alloc(&c->arena, (size_t)(fam->nsites + n + 1) * sizeof *all);
  int count = fam->nsites;
  if (count) memcpy(all, fam->sites, (size_t)count * sizeof *all);
  for (int k = 0; k < n; k++) {
    int seen = 0;
    for (int j = 0; j < count && !seen; j++) seen = same_site(&all[j], &add[k]);
    if (seen) continue;
    if (count == RFAM_MAX_SITES) { sites_unknown(fam); return; }
    all[count++] = add[k];
  }
  fam->sites = all;
  fam->nsites = count;
}

/* into's sites become those of into and from (a sum, or either side of an `if`). */
void reduce_sites_join(RCtx *c, RFam *into, const RFam *from) {
  if (from->nsites < 0) { sites_unknown(into); return; }
  if (from->nsites > 0) sites_add(c, into, from->sites, from->nsites);
}

/* Closing i = a .. b over a term on a family member whose index names i: one site, the index
** over i's range. */
void reduce_sites_term(RCtx *c, RFam *fam, const RTerm *term, AlgSymbol *i, AlgExpr *a, AlgExpr *b) {
  RSite site;
  memset(&site, 0, sizeof site);
  site.index = term->index;
  site.closed[0] = i; site.lo[0] = a; site.hi[0] = b;
  site.nclosed = 1;
  sites_add(c, fam, &site, 1);
}

/* 1 when site depends on i: its index, or a closed loop's range. */
static int site_names(const RSite *site, AlgSymbol *i) {
  if (alg_contains(site->index, i)) return 1;
  for (int k = 0; k < site->nclosed; k++)
    if (alg_contains(site->lo[k], i) || alg_contains(site->hi[k], i)) return 1;
  return 0;
}

/* Closing i = a .. b over inner's unnamed demand: a site that depends on i gets i among its
** closed loops (its members over all of i's range); any other site names the same members in
** every iteration. */
void reduce_sites_close(RCtx *c, RFam *fam, const RFam *inner, AlgSymbol *i, AlgExpr *a, AlgExpr *b) {
  if (inner->nsites < 0) { sites_unknown(fam); return; }
  if (inner->nsites == 0) return;
  RSite *closed = arena_alloc(&c->arena, (size_t)inner->nsites * sizeof *closed);
  for (int k = 0; k < inner->nsites; k++) {
    closed[k] = inner->sites[k];
    if (!site_names(&closed[k], i)) continue;
    if (closed[k].nclosed == RSITE_MAX_CLOSED) { sites_unknown(fam); return; }
    int n = closed[k].nclosed++;
    closed[k].closed[n] = i; closed[k].lo[n] = a; closed[k].hi[n] = b;
  }
  sites_add(c, fam, closed, inner->nsites);
}

/* 1 when every free symbol of e is a param, a const, i or the one closed index j (NULL: none). */
int reduce_names_only(RCtx *c, AlgExpr *e, AlgSymbol *i, AlgSymbol *j) {
  AlgSymbol *syms[8];
  size_t n = alg_free_symbols(c->alg, e, syms, 8);
  if (n > 8) return 0;
  for (size_t k = 0; k < n; k++) {
    AlgSymKind kind = alg_symbol_kind(syms[k]);
    if (syms[k] != i && syms[k] != j && kind != ALG_SYM_PARAM && kind != ALG_SYM_CONST) return 0;
  }
  return 1;
}

/* 1 when the members site names for branch i (i = a .. b) are named by no other branch: its
** index f(i, j) over its one closed loop j = lo .. hi (a range of params and consts) is one-to-one
** in the pairs (i, j) (reduce_order_injective_two: `p * S + s`, `s * P + p`). */
static int site_own(RCtx *c, const RSite *site, AlgSymbol *i, AlgExpr *a, AlgExpr *b) {
  if (site->nclosed != 1) return 0;
  AlgSymbol *j = site->closed[0];
  if (!alg_contains(site->index, i) || !alg_contains(site->index, j)) return 0;
  if (!reduce_names_only(c, site->index, i, j) || !reduce_names_only(c, site->lo[0], NULL, NULL) ||
      !reduce_names_only(c, site->hi[0], NULL, NULL)) return 0;
  return reduce_order_injective_two(c, site->index, j, site->lo[0], site->hi[0], i, a, b);
}

/* 1 when a term's member e(i) is one-to-one in i (and names no index but i). */
static int term_own(RCtx *c, const RTerm *term, AlgSymbol *i, AlgExpr *a, AlgExpr *b) {
  return term->index && alg_contains(term->index, i) && reduce_names_only(c, term->index, i, NULL) &&
         reduce_order_injective_one(c, term->index, i, a, b);
}

/* 1 when branch i of par (i = a, b), summarised in body, requests only members of family fam
** that no other branch requests: one site in all (a term or a site of the unnamed demand), named
** by an index one-to-one in i (a term) or in the pairs (i, its closed loop) (a site). */
int reduce_own_family(RCtx *c, const Summary *body, const RFam *fam, AlgSymbol *i, AlgExpr *a, AlgExpr *b) {
  if (!i || fam->nsites < 0) return 0;
  const RTerm *term = NULL;
  int sites = fam->nsites;
  for (int k = 0; k < body->nterms; k++)
    if (body->terms[k].res == fam->res) { sites++; term = &body->terms[k]; }
  if (sites != 1) return 0;
  if (term) return alg_is_num(fam->extra_hi, 0) && !fam->spread_lo && term_own(c, term, i, a, b);
  return site_own(c, &fam->sites[0], i, a, b);
}

/* 1 when every request of branch i of par (i = a, b) S, S summarised in body, names a member no
** other branch requests: no plain resource, each family the branch's own (reduce_own_family). */
static int branch_own(RCtx *c, const Summary *body, AlgSymbol *i, AlgExpr *a, AlgExpr *b) {
  for (int k = 0; k < body->nterms; k++)
    if (!body->terms[k].index) return 0;
  for (int f = 0; f < body->nfams; f++) {
    const RFam *fam = &body->fams[f];
    int used = fam->nsites != 0 || !alg_is_num(fam->extra_hi, 0) || fam->spread_lo;
    for (int k = 0; k < body->nterms && !used; k++) used = body->terms[k].res == fam->res;
    if (used && !reduce_own_family(c, body, fam, i, a, b)) return 0;
  }
  return 1;
}

/* Rule (branches on members of their own; upper bound): in par (i = a, b) S(i), when no member
** branch i requests is ever requested by another branch (branch_own; or the par has one branch,
** a = b), the requests of the other branches never stand in any queue branch i meets: each server
** branch i uses serves branch i alone, so branch i runs as S(i) run alone, in at most U(S(i)), and
**   U(par) <= max_i U(S(i)).
** Members distinct between branches: for a term named by e(i), e one-to-one in i; for the one site
** of a family, its index f(i, j) over the closed loop j = lo .. hi, f one-to-one in the pairs: if
** branch i and branch i' != i both requested a member, f(i, j) = f(i', j') for some j, j', against
** f one-to-one (one site per family: two sites of one family could name one member from two
** branches). The branch's own contention (the items of its own pipeline) stays in U(S(i)).
** `par (p = 0, P - 1) par (c = 1, M) seq (s = 0, S - 1) use(stage[p * S + s], t)`: U = (S + M -
** 1) t, the pipeline's exact time (before: S t + P M S t, the family as one resource). Returns
** the bound, or NULL when the rule does not apply. */
AlgExpr *reduce_own_par(RCtx *c, const Summary *body, AlgSymbol *i, AlgExpr *a, AlgExpr *b) {
  AlgCtx *g = c->alg;
  int one = alg_is_nonneg(g, alg_sub(g, a, b)) && alg_is_nonneg(g, alg_sub(g, b, a));
  if (!one && !branch_own(c, body, i, a, b)) return NULL;
  return alg_max_over(g, i, a, b, body->U);
}

/* Branches of a `||` the rule below compares pairwise (beyond: it does not apply). */
#define OWN_MAX_APART 32

/* Rule (a branch of `||` apart; upper bound): in S1 || ... || Sn, when no resource that branch k
** requests (a plain resource, or any member of a family) is requested by another branch, no
** request of another branch ever stands in a queue branch k meets, nor takes a server it could
** use: branch k runs as Sk alone, in at most U(Sk), beside the bound phi_k + its waits (the
** smaller holds). `p() || par (i = 0, 2) par (c = 0, 2) seq (s = 0, 1) use(r[i * 2 + s], t)`
** with p on other resources: the par's own bound, not the family's whole demand. Returns 1 when
** branch k is apart. */
int reduce_own_apart(const Summary *branches, int n, int k) {
  if (n > OWN_MAX_APART) return 0;
  const Summary *mine = &branches[k];
  for (int j = 0; j < n; j++) {
    if (j == k) continue;
    for (int t = 0; t < mine->nterms; t++) if (reduce_uses(&branches[j], mine->terms[t].res)) return 0;
    for (int f = 0; f < mine->nfams; f++) if (reduce_uses(&branches[j], mine->fams[f].res)) return 0;
  }
  return 1;
}

/* Statements of a block the rule below reads (beyond: it does not apply). */
#define OWN_MAX_PARTS 16

/* 1 when every request of part (a statement of branch body) names a member of a family that
** branch i of par (i = a, b) has to itself (reduce_own_family on the whole branch: one site in all
** of body, one-to-one): no other branch, and no other statement of body, requests it. */
static int part_alone(RCtx *c, const Summary *body, const Summary *part, AlgSymbol *i, AlgExpr *a, AlgExpr *b) {
  for (int k = 0; k < part->nterms; k++) {
    if (!part->terms[k].index) return 0;
    const RFam *fam = reduce_family_of(body, part->terms[k].res);
    if (!fam || !reduce_own_family(c, body, fam, i, a, b)) return 0;
  }
  for (int f = 0; f < part->nfams; f++) {
    const RFam *fam = reduce_family_of(body, part->fams[f].res);
    if (!fam || !reduce_own_family(c, body, fam, i, a, b)) return 0;
  }
  return 1;
}

/* An upper bound on the waits of part, a statement of branch body, in the par whose demand is
** whole: at a family the branch has to itself, no request of another branch or of another
** statement of the branch (they run before or after part) is there while part runs: a chain
** waits for nothing, any part for its own demand there over m; at any other resource r (or
** family taken as one resource), the waits along part's path are busy periods of r filled by
** requests of the other branches and of part itself (a chain: not its own), so at most
** (D_r(whole) - D_r(body) + D_r(part)) / m_r (without D_r(part) for a chain). */
static AlgExpr *part_waits(RCtx *c, const Summary *whole, const Summary *body, const Summary *part, AlgSymbol *i,
                           AlgExpr *a, AlgExpr *b) {
  AlgCtx *g = c->alg;
  AlgExpr *wait = alg_num_int(g, 0);
  for (int k = 0; k < part->nterms; k++) {
    const RTerm *term = &part->terms[k];
    if (term->index) continue;   /* families below */
    AlgExpr *W = alg_sub(g, reduce_demand_hi(c, whole, term->res), reduce_demand_hi(c, body, term->res));
    if (!part->chain) W = alg_add(g, W, term->d_hi);
    wait = alg_add(g, wait, alg_div(g, W, reduce_mult(c, term->res)));
  }
  for (int f = 0; f < part->nfams; f++) {
    const Decl *res = part->fams[f].res;
    const RFam *fam = reduce_family_of(body, res);
    AlgExpr *mine = reduce_family_total(c, part, res), *W;
    if (fam && reduce_own_family(c, body, fam, i, a, b)) W = part->chain ? alg_num_int(g, 0) : mine;
    else {
      W = alg_sub(g, reduce_family_total(c, whole, res), reduce_family_total(c, body, res));
      if (!part->chain) W = alg_add(g, W, mine);
    }
    wait = alg_add(g, wait, alg_div(g, W, reduce_mult(c, res)));
  }
  return wait;
}

/* Rule (the steps of a branch; upper bound): in par (i = a, b) S(i) with S a block S1; ...; Sn
** (n <= OWN_MAX_PARTS; directly or as a called process's body), the branch runs its statements one
** after another, each from the end of the one before, so its time is the sum of theirs. A
** statement that requests only members of families the branch has to itself (part_alone) runs as
** it runs alone, whatever the others do: no one else requests those members, and the branch's
** statements before it have ended: at most U(Sk). Any other statement takes at most phi(Sk) plus
** its waits (part_waits). So
**   U(par) <= max_i sum_k (Sk alone ? U(Sk) : phi(Sk) + waits(Sk)).
** Not where a hold was reduced (its holders could make a statement wait beyond its own
** resources). A rank's own pipeline, then a send to a root's nic[0]: the pipeline's (S + M - 1) t
** plus the send and the other ranks' sends before it. NULL when no statement is alone. */
AlgExpr *reduce_own_steps(RCtx *c, const Summary *whole, const Summary *body, AlgSymbol *i, AlgExpr *a, AlgExpr *b) {
  AlgCtx *g = c->alg;
  if (body->nparts < 2 || body->nparts > OWN_MAX_PARTS || c->nnests > 0) return NULL;
  AlgExpr *sum = alg_num_int(g, 0);
  int alone = 0;
  for (int k = 0; k < body->nparts; k++) {
    const Summary *part = &body->parts[k];
    int uses = part->nterms > 0 || part->nfams > 0;
    if (uses && part_alone(c, body, part, i, a, b)) {
      sum = alg_add(g, sum, part->U);
      alone = 1;
    } else sum = alg_add(g, sum, alg_add(g, part->phi_hi, part_waits(c, whole, body, part, i, a, b)));
  }
  return alone ? alg_max_over(g, i, a, b, sum) : NULL;
}
