/*
** reduce_first.c — first requests behind an earlier branch's (docs/reduction.md, "A branch's
** first request behind an earlier branch's"): in S1 || ... || Sk run alone, a branch whose first
** action is a request that an earlier branch makes at the same member at the same instant, on one
** FCFS server, starts only once that request has ended.
*/
#include <string.h>

#include "reduce_internal.h"

/* Depth of blocks, loops and calls first_use reads (deeper: no first request). */
#define FIRST_MAX_DEPTH 16
/* Branches of one || the rule pairs (more: not read). */
#define FIRST_MAX_BRANCHES 16

/* The first request a statement makes when it starts, before anything else it does. */
typedef struct FirstUse {
  const Decl *res;    /* its resource or family */
  AlgExpr *member;    /* its member index (NULL for a plain resource) */
  AlgExpr *t;         /* its duration */
  AlgExpr *when;      /* 1 where the statement makes it first (loop ranges not empty) */
} FirstUse;

/* Reads the first request of s: use(r, t) itself; a block's first statement; the first iteration
** of seq (i = a, b) (i = a, where a <= b) and of repeat (n) (where n >= 1). Everything else the
** statement does comes after that request in sequence. 0 for any other statement. */
static int first_use(RCtx *c, REnv *env, const Stmt *s, FirstUse *out, int depth) {
  AlgCtx *g = c->alg;
  if (depth > FIRST_MAX_DEPTH) return 0;
  switch (s->kind) {
  case ST_USE:
    out->res = s->u.use.decl;
    out->member = s->u.use.index ? reduce_expr(c, env, s->u.use.index) : NULL;
    out->t = reduce_expr(c, env, s->u.use.duration);
    out->when = alg_num_int(g, 1);
    return 1;
  case ST_BLOCK:
    return s->u.block.count > 0 && first_use(c, env, s->u.block.items[0], out, depth + 1);
  case ST_REPEAT: {
    AlgExpr *n = reduce_expr(c, env, s->u.repeat.count);
    if (!first_use(c, env, s->u.repeat.body, out, depth + 1)) return 0;
    out->when = alg_and(g, out->when, alg_cmp(g, ALG_CMP_LE, alg_num_int(g, 1), n));
    return 1;
  }
  case ST_SEQ: {
    if (env->depth >= EVAL_MAX_INDICES) return 0;
    AlgExpr *a = reduce_expr(c, env, s->u.loop.lo), *b = reduce_expr(c, env, s->u.loop.hi);
    env->idx[env->depth++] = a;   /* the first iteration */
    int found = first_use(c, env, s->u.loop.body, out, depth + 1);
    env->depth--;
    if (found) out->when = alg_and(g, out->when, alg_cmp(g, ALG_CMP_LE, a, b));
    return found;
  }
  default:
    return 0;
  }
}

/* The first request an earlier branch s makes at the member of f at the instant it starts: s's own
** first request (first_use), or, for par (p = a, b) B, the first request of the branch p* whose
** member is f's: B's first member p + k (k free of p) names f's at p* = f - k, which must lie in
** a .. b. Fills *t and *when (1 where it is made so); 0 when not read. */
static int earlier_at(RCtx *c, REnv *env, const Stmt *s, const FirstUse *f, AlgExpr **t, AlgExpr **when) {
  AlgCtx *g = c->alg;
  FirstUse e;
  if (s->kind != ST_PAR) {
    if (!first_use(c, env, s, &e, 0) || e.res != f->res || !e.member != !f->member) return 0;
    *t = e.t;
    *when = e.member ? alg_and(g, e.when, alg_cmp(g, ALG_CMP_EQ, e.member, f->member)) : e.when;
    return 1;
  }
  if (!f->member || env->depth >= EVAL_MAX_INDICES) return 0;
  AlgExpr *a = reduce_expr(c, env, s->u.loop.lo), *b = reduce_expr(c, env, s->u.loop.hi);
  AlgSymbol *p = reduce_index_new(c, "par", s->loc, s->u.loop.var.name, a, b);
  env->idx[env->depth++] = alg_sym(g, p);
  int found = first_use(c, env, s->u.loop.body, &e, 0);
  env->depth--;
  if (!found || e.res != f->res || !e.member) return 0;
  AlgExpr *slope = alg_diff(g, e.member, p);
  if (!slope || !alg_is_num(slope, 1)) return 0;
  AlgExpr *k = alg_expand(g, alg_sub(g, e.member, alg_sym(g, p)));
  if (alg_contains(k, p)) return 0;
  AlgExpr *at = alg_sub(g, f->member, k);   /* p*: its member is f's */
  *t = alg_subst(g, e.t, p, at);
  *when = alg_and(g, alg_subst(g, e.when, p, at),
                  alg_and(g, alg_cmp(g, ALG_CMP_LE, a, at), alg_cmp(g, ALG_CMP_LE, at, b)));
  return !alg_contains(*t, p) && !alg_contains(*when, p);
}

/* Rule (a first request behind an earlier branch's): S1 || ... || Sk run alone (RCtx.concurrent
** == 0: nothing beside it, every resource idle when it starts). Branch j's first action is a
** request of member q of an FCFS resource with one server (first_use: everything else Sj does
** comes after it in sequence), made at the instant the || starts; an earlier branch i < j makes
** its own first request at q at that instant too (earlier_at: Si itself, or the branch p* of a
** par). Requests made at one instant queue in program order, the branches of || in order and
** depth first (LANGUAGE.md §6), so Si's request is queued before Sj's; with one server Sj's starts
** no earlier than Si's ends, at least t_i after the start. From that start Sj runs its request
** (t_j on FCFS) and then the rest of its run in sequence, no faster than contention-free:
**   L >= t_i + phi_lo(Sj)
** where both requests are made so (the conditions), else nothing. The token ring beside its
** background jobs, par (p) use(core[p], 50us) || seq (c = 1, 3) seq (s = 0, P - 1) { use(core[s],
** 2us); use(nic[(s + 1) % P], 1us) }: the token's first request waits behind rank 0's job, so
** lo = 50 + 3 P 3 us (122 us at P = 8, the simulated time; before: 9 P us, 72 us). Returns the
** bound (0 when no pair is read). */
AlgExpr *reduce_first_behind(RCtx *c, REnv *env, const Stmt *s, const Summary *br) {
  AlgCtx *g = c->alg;
  AlgExpr *best = alg_num_int(g, 0);
  int n = s->u.block.count;
  if (c->concurrent || n < 2 || n > FIRST_MAX_BRANCHES) return best;
  for (int j = 1; j < n; j++) {
    FirstUse f;
    if (!first_use(c, env, s->u.block.items[j], &f, 0)) continue;
    const Decl *res = f.res;
    if (res->u.resource.discipline != DISC_FCFS || !alg_is_num(reduce_mult(c, res), 1)) continue;
    for (int i = 0; i < j; i++) {
      AlgExpr *t, *when;
      if (!earlier_at(c, env, s->u.block.items[i], &f, &t, &when)) continue;
      AlgExpr *late = alg_add(g, t, br[j].phi_lo);
      best = alg_max(g, best, alg_cond(g, alg_and(g, when, f.when), late, alg_num_int(g, 0)));
    }
  }
  return best;
}
