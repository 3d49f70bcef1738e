/*
** reduce.c — REDUCTION.md: per-statement summaries (phi, D_r, L, U, chain) of the entry process,
** combined bottom-up in time independent of param values, closed into T_lo / T_hi.
** Expressions are translated by reduce_expr.c; demands and waits live in reduce_demand.c; holds
** and hand-offs in reduce_hold.c, processor sharing in reduce_ps.c.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reduce_internal.h"

static int is_define(RCtx *c, const Decl *d) {
  for (int i = 0; i < c->prog->define_count; i++)
    if (c->prog->define_decls && c->prog->define_decls[i] == d) return 1;
  return 0;
}

/* delay(t): phi = L = U = t, no demand. */
static void reduce_delay(RCtx *c, REnv *env, const Stmt *s, Summary *out) {
  reduce_sum_init(c, out);
  AlgExpr *t = reduce_expr(c, env, s->u.delay.duration);
  reduce_check(c, env, REDUCE_CHECK_NONNEG, t, NULL, s->u.delay.duration->loc, "duration");
  out->phi_lo = out->phi_hi = out->L = out->U = t;
}

/* The member index of use(r[e], _) or hold (r[e]) _ (checked in range), NULL for a plain r. */
AlgExpr *reduce_member(RCtx *c, REnv *env, const Stmt *s) {
  AlgExpr *index = s->u.use.index ? reduce_expr(c, env, s->u.use.index) : NULL;
  if (index)
    reduce_check(c, env, REDUCE_CHECK_INDEX, index, s->u.use.decl, s->u.use.index->loc, "member index");
  return index;
}

/* use(r, t): phi = L = U = a, D_r = t, where a = t alone on r (t on fcfs, t / min(1, c) on
** ps(c): reduce_ps.c); with handoff(h) on r, phi_hi = a + h and D_r = t + h in upper-bound uses
** (a hand-off to this request, one that this request can make others wait for: reduce_hold.c). */
static void reduce_use(RCtx *c, REnv *env, const Stmt *s, Summary *out) {
  reduce_sum_init(c, out);
  const Decl *res = s->u.use.decl;
  AlgExpr *t = reduce_expr(c, env, s->u.use.duration);
  AlgExpr *alone = reduce_alone(c, res, t);
  AlgExpr *h = reduce_handoff(c, res);
  out->phi_lo = out->L = out->U = alone;
  out->phi_hi = h ? alg_add(c->alg, alone, h) : alone;
  reduce_check(c, env, REDUCE_CHECK_NONNEG, t, NULL, s->u.use.duration->loc, "duration");
  reduce_add_demand(c, out, res, reduce_member(c, env, s), t, h ? alg_add(c->alg, t, h) : t);
}

/* S1; S2: phi, D, L, U add. */
static void seq_into(RCtx *c, Summary *a, const Summary *b) {
  AlgCtx *g = c->alg;
  a->phi_lo = alg_add(g, a->phi_lo, b->phi_lo);
  a->phi_hi = alg_add(g, a->phi_hi, b->phi_hi);
  a->L = alg_add(g, a->L, b->L);
  a->U = alg_add(g, a->U, b->U);
  a->chain = a->chain && b->chain;
  reduce_merge_demands(c, a, b);
  a->parts = NULL; a->nparts = 0;   /* no longer the block's sum */
}

/* A block: as seq_into over its statements, but each of phi, L, U and each demand added once over
** all of them (adding one statement at a time re-sorts a growing sum: quadratic in the block's
** length). */
static void reduce_block(RCtx *c, REnv *env, const Stmt *s, Summary *out) {
  int n = s->u.block.count;
  reduce_sum_init(c, out);
  if (n == 0) return;
  AlgExpr **parts = arena_alloc(&c->arena, 4 * (size_t)n * sizeof *parts);
  Summary *sums = arena_alloc(&c->arena, (size_t)n * sizeof *sums);
  for (int i = 0; i < n; i++) {
    Summary *part = &sums[i];
    reduce_stmt(c, env, s->u.block.items[i], part);
    parts[i] = part->phi_lo;
    parts[n + i] = part->phi_hi;
    parts[2 * n + i] = part->L;
    parts[3 * n + i] = part->U;
    out->chain = out->chain && part->chain;
  }
  reduce_merge_all(c, out, sums, n);
  out->phi_lo = alg_add_n(c->alg, (size_t)n, parts);
  out->phi_hi = alg_add_n(c->alg, (size_t)n, parts + n);
  out->L = alg_add_n(c->alg, (size_t)n, parts + 2 * n);
  out->U = alg_add_n(c->alg, (size_t)n, parts + 3 * n);
  out->parts = sums;   /* for the steps of a branch (reduce_own.c) */
  out->nparts = n;
}

/* S1 || ... || Sk: phi = max phi_i, D = sum D_i, L = max(max L_i, max_r D_r/m_r),
** U = max_i (phi_i + sum_{r in res(S_i)} W_ir/m_r). */
static void reduce_parallel(RCtx *c, REnv *env, const Stmt *s, Summary *out) {
  AlgCtx *g = c->alg;
  int n = s->u.block.count;
  Summary *br = arena_alloc(&c->arena, (size_t)(n ? n : 1) * sizeof *br);
  reduce_sum_init(c, out);
  c->concurrent++;
  for (int i = 0; i < n; i++) {
    reduce_stmt(c, env, s->u.block.items[i], &br[i]);
    out->phi_lo = alg_max(g, out->phi_lo, br[i].phi_lo);
    out->phi_hi = alg_max(g, out->phi_hi, br[i].phi_hi);
    out->L = alg_max(g, out->L, br[i].L);
  }
  c->concurrent--;
  reduce_merge_all(c, out, br, n);
  out->L = alg_max(g, out->L, reduce_load_lo(c, out));
  out->L = alg_max(g, out->L, reduce_first_behind(c, env, s, br));   /* reduce_first.c */
  RReach reach;
  memset(&reach, 0, sizeof reach);
  reduce_ps_present(c, out, br, n, NULL, &reach);
  for (int i = 0; i < n; i++) {
    reduce_reach_init(c, &br[i], &reach, NULL);
    AlgExpr *bound = alg_add(g, br[i].phi_hi, reduce_wait(c, out, NULL, &br[i], NULL, NULL, NULL, &reach));
    if (reduce_own_apart(br, n, i)) bound = alg_min(g, bound, br[i].U);   /* reduce_own.c: as alone */
    out->U = alg_max(g, out->U, bound);
  }
  out->chain = n <= 1 ? (n ? br[0].chain : 1) : 0;
}

/* seq(i=a,b) S(i): phi, D, L, U are sums over i. */
static void seq_loop(RCtx *c, AlgSymbol *i, AlgExpr *a, AlgExpr *b, const Summary *body,
                     Summary *out) {
  AlgCtx *g = c->alg;
  reduce_sum_init(c, out);
  out->phi_lo = alg_sum(g, i, a, b, body->phi_lo);
  out->phi_hi = alg_sum(g, i, a, b, body->phi_hi);
  out->L = alg_sum(g, i, a, b, body->L);
  out->U = alg_sum(g, i, a, b, body->U);
  out->chain = body->chain;
  reduce_close_demands(c, out, body, i, a, b);
}

/* The pieces of a loop's range (reduce_split.c) with their bodies reduced: one piece over a..b
** when no `if` on the index splits it. Returns how many (0: the loop runs nothing). */
static int loop_pieces(RCtx *c, REnv *env, const Stmt *s, AlgExpr *a, AlgExpr *b, RPiece **pieces,
                       Summary **bodies) {
  reduce_check(c, env, REDUCE_CHECK_INTEGER, a, NULL, s->u.loop.lo->loc, "loop bound");
  reduce_check(c, env, REDUCE_CHECK_INTEGER, b, NULL, s->u.loop.hi->loc, "loop bound");
  /* the split writes into scratch room for every piece it could make (8 KB), and only the
  ** pieces it made are kept: that room in the arena for every loop was 105 of the 179 MB the
  ** reduction of 10^5 statements kept */
  if (!c->split_scratch && !(c->split_scratch = malloc(REDUCE_MAX_PIECES * sizeof *c->split_scratch))) {
    reduce_fail(c, s->loc, "reduce: out of memory");
    return 0;
  }
  int count = reduce_split_loop(c, env, s, a, b, c->split_scratch);
  if (count < 0) return 0;
  *pieces = arena_alloc(&c->arena, (size_t)(count ? count : 1) * sizeof **pieces);
  memcpy(*pieces, c->split_scratch, (size_t)count * sizeof **pieces);
  if (count == 0) {
    if (env->depth >= EVAL_MAX_INDICES) { reduce_fail(c, s->loc, "reduce: loops nest too deep"); return 0; }
    RPiece *whole = &(*pieces)[count++];
    whole->index = reduce_index_new(c, reduce_loop_kind(s), s->loc, s->u.loop.var.name, a, b);
    whole->lo = a; whole->hi = b; whole->stmt = s->u.loop.body;
    /* one index value (a = b, numbers): the body sees it, so members named by expressions of the
    ** index that meet there are one member (a Q x Q grid at Q = 1) */
    whole->value = alg_kind(a) == ALG_NUM && a == b ? a : alg_sym(c->alg, whole->index);
  }
  *bodies = arena_alloc(&c->arena, (size_t)count * sizeof **bodies);
  for (int k = 0; k < count; k++) reduce_loop_ends(c, (*pieces)[k].index, a, b);   /* reduce_ends.c */
  for (int k = 0; k < count; k++) {
    const RPiece *p = &(*pieces)[k];
    env->idx[env->depth++] = p->value;
    RBinder *binder = &env->binders[env->nbinders++];
    binder->index = p->index; binder->lo = p->lo; binder->hi = p->hi;
    reduce_stmt(c, env, p->stmt, &(*bodies)[k]);
    env->nbinders--;
    env->depth--;
  }
  return count;
}

/* seq(i=a,b) S(i): the sums over each piece of the range, added. */
static void seq_over(RCtx *c, REnv *env, const Stmt *s, AlgExpr *a, AlgExpr *b, Summary *out) {
  RPiece *pieces; Summary *bodies;
  int count = loop_pieces(c, env, s, a, b, &pieces, &bodies);
  for (int k = 0; k < count; k++) {
    Summary part;
    seq_loop(c, pieces[k].index, pieces[k].lo, pieces[k].hi, &bodies[k], &part);
    seq_into(c, out, &part);
  }
}

/* 1 when some statement of block is an `if` (what a split of the index range could decide). */
static int block_has_if(const Stmt *block) {
  for (int i = 0; i < block->u.block.count; i++)
    if (block->u.block.items[i]->kind == ST_IF) return 1;
  return 0;
}

/* seq(i=a,b) { S1; ...; Sk }: every summary part is a sum over i, so the loop is the sequence of
** seq(i=a,b) Sj, and an `if` on i among the Sj splits its own range. */
static void reduce_seq(RCtx *c, REnv *env, const Stmt *s, Summary *out) {
  AlgExpr *a = reduce_expr(c, env, s->u.loop.lo), *b = reduce_expr(c, env, s->u.loop.hi);
  const Stmt *body = s->u.loop.body;
  reduce_sum_init(c, out);
  if (body->kind != ST_BLOCK || body->u.block.count < 2 || !block_has_if(body)) {
    seq_over(c, env, s, a, b, out);
    return;
  }
  for (int i = 0; i < body->u.block.count; i++) {
    Stmt one = *s;   /* seq (i = a, b) Si */
    one.u.loop.body = body->u.block.items[i];
    seq_over(c, env, &one, a, b, out);
  }
}

/* repeat(n) S: seq(_ = 1, n) S. */
static void reduce_repeat(RCtx *c, REnv *env, const Stmt *s, Summary *out) {
  AlgExpr *n = reduce_expr(c, env, s->u.repeat.count);
  reduce_check(c, env, REDUCE_CHECK_INTEGER, n, NULL, s->u.repeat.count->loc, "repeat count");
  AlgExpr *one = alg_num_int(c->alg, 1);
  AlgSymbol *i = reduce_index_new(c, "repeat", s->loc, "_", one, n);
  reduce_loop_ends(c, i, one, n);   /* the count is a checked integer (reduce_ends.c) */
  Summary body;
  int bound = env->nbinders < EVAL_MAX_INDICES;   /* for the checks of the body: it runs when n >= 1 */
  if (bound) env->binders[env->nbinders++] = (RBinder){i, one, n};
  reduce_stmt(c, env, s->u.repeat.body, &body);
  if (bound) env->nbinders--;
  seq_loop(c, i, one, n, &body, out);
}

/* A par whose range an `if` on its index split into pieces (`if (p == 0) A else B`): the
** order-aware rules (reduce_order.c) read it whole, the `if` walked with the index symbolic, each
** side's uses made by the branches where its condition holds; their bounds hold beside the
** pieces' (T_lo the larger, T_hi the smaller). Returns what reduce_order_par returns. */
static int order_whole(RCtx *c, REnv *env, const Stmt *s, AlgExpr *a, AlgExpr *b, Summary *out,
                       AlgExpr **exact) {
  if (env->depth >= EVAL_MAX_INDICES) return 0;
  RPiece whole;
  memset(&whole, 0, sizeof whole);
  whole.index = reduce_index_new(c, reduce_loop_kind(s), s->loc, s->u.loop.var.name, a, b);
  whole.lo = a; whole.hi = b; whole.stmt = s->u.loop.body;
  whole.value = alg_sym(c->alg, whole.index);
  reduce_loop_ends(c, whole.index, a, b);
  return reduce_order_par(c, env, &whole, out, exact);
}

/* par(i=a,b) S(i): phi = max_i phi(i), D = sum_i D(i), L = max(max_i L(i), max_r D_r/m_r),
** U = max_i (phi(i) + sum_r W_r(i)/m_r); over each piece of the range, the pieces in parallel. */
static void reduce_par(RCtx *c, REnv *env, const Stmt *s, Summary *out) {
  AlgCtx *g = c->alg;
  AlgExpr *a = reduce_expr(c, env, s->u.loop.lo), *b = reduce_expr(c, env, s->u.loop.hi);
  int families = c->nfam_locs;   /* families noted before this par (reduce_approx.c) */
  RPiece *pieces; Summary *bodies;
  c->concurrent++;
  int count = loop_pieces(c, env, s, a, b, &pieces, &bodies);
  c->concurrent--;
  int body_notes = c->nfam_locs;   /* the bodies' notes: before the waits' below */
  reduce_sum_init(c, out);
  out->chain = count == 0;
  if (count == 0) return;
  Summary *closed = arena_alloc(&c->arena, (size_t)count * sizeof *closed);
  for (int k = 0; k < count; k++) {
    const RPiece *p = &pieces[k];
    reduce_sum_init(c, &closed[k]);
    reduce_close_demands(c, &closed[k], &bodies[k], p->index, p->lo, p->hi);
    reduce_merge_demands(c, out, &closed[k]);
    out->phi_lo = alg_max(g, out->phi_lo, alg_max_over(g, p->index, p->lo, p->hi, bodies[k].phi_lo));
    out->phi_hi = alg_max(g, out->phi_hi, alg_max_over(g, p->index, p->lo, p->hi, bodies[k].phi_hi));
    out->L = alg_max(g, out->L, alg_max_over(g, p->index, p->lo, p->hi, bodies[k].L));
  }
  out->L = alg_max(g, out->L, reduce_load_lo(c, out));
  if (count == 1) reduce_member_visits(c, out, &bodies[0], pieces[0].index, pieces[0].lo, pieces[0].hi);
  AlgExpr **sizes = arena_alloc(&c->arena, (size_t)count * sizeof *sizes);
  for (int k = 0; k < count; k++)
    sizes[k] = alg_max(g, alg_num_int(g, 0), alg_add(g, alg_sub(g, pieces[k].hi, pieces[k].lo), alg_num_int(g, 1)));
  RReach reach;
  memset(&reach, 0, sizeof reach);
  reduce_ps_present(c, out, bodies, count, sizes, &reach);
  for (int k = 0; k < count; k++) {
    const RPiece *p = &pieces[k];
    reduce_reach_init(c, &bodies[k], &reach, count == 1 ? p : NULL);
    Summary others;   /* the demand of the other pieces, beside this one */
    reduce_sum_init(c, &others);
    for (int j = 0; j < count; j++) if (j != k) reduce_merge_demands(c, &others, &closed[j]);
    AlgExpr *wait = reduce_wait(c, out, count > 1 ? &others : NULL, &bodies[k], p->index, p->lo, p->hi,
                                &reach);
    out->U = alg_max(g, out->U, alg_max_over(g, p->index, p->lo, p->hi,
                                             alg_add(g, bodies[k].phi_hi, wait)));
  }
  /* reduce_order.c: when U no longer rests on the families taken as one resource for this par's
  ** waits, their notes go (the body's own U feeds no bound of the par: the par's U is built from
  ** the bodies' phi; a body that calls a process with || inside keeps them); where the rule makes
  ** U the par's contention-free time only under a condition, the notes say so (predict drops
  ** them at the points where it holds) */
  AlgExpr *exact = NULL;
  if (count == 1) reduce_lock_par(c, env, &pieces[0], out);
  if (count == 1 && reduce_order_par(c, env, &pieces[0], out, &exact))
    c->nfam_locs = families;
  else if (count > 1 && order_whole(c, env, s, a, b, out, &exact))
    c->nfam_locs = families;
  else reduce_note_families_unless(c, families, exact);
  reduce_note_pending_flush(c);   /* what this par's rules counted (reduce_approx.c) */
  reduce_ps_batch(c, env, pieces, count, out);   /* one request each on ps: reduce_ps_batch.c */
  reduce_fcfs_batch(c, env, pieces, count, out);   /* one request each on fcfs: reduce_fcfs_batch.c */
  reduce_fcfs_list(c, env, pieces, count, out);    /* the same, sizes numbers: reduce_fcfs_list.c */
  reduce_fcfs_loop(c, env, pieces, count, out);    /* threads looping on fcfs: reduce_fcfs_loop.c */
  reduce_count_par(c, s, out);   /* requests counted on m servers: reduce_count.c */
  /* reduce_own.c: branches on members of their own run as alone; the bound rests on no wait of
  ** this par, so the notes of its waits go (the bodies' stay: their U is in it) */
  AlgExpr *own = count == 1 ? reduce_own_par(c, &bodies[0], pieces[0].index, pieces[0].lo, pieces[0].hi) : NULL;
  if (own) {
    out->U = alg_min(g, out->U, own);
    if (c->nfam_locs > body_notes) c->nfam_locs = body_notes;
  }
  AlgExpr *steps = count == 1 && !own ? reduce_own_steps(c, out, &bodies[0], pieces[0].index, pieces[0].lo, pieces[0].hi)
                                      : NULL;
  if (steps) out->U = alg_min(g, out->U, steps);
}

/* Combines two summaries pointwise: piecewise on cond (cond != NULL) or the hull (cond NULL:
** min for lower-bound parts, max for upper-bound parts). */
static void combine(RCtx *c, const RPick *pick, const Summary *x, const Summary *y, Summary *out) {
#define PICK_LO(p, q) reduce_pick(c, pick, 0, (p), (q))
#define PICK_HI(p, q) reduce_pick(c, pick, 1, (p), (q))
  reduce_sum_init(c, out);
  out->phi_lo = PICK_LO(x->phi_lo, y->phi_lo);
  out->phi_hi = PICK_HI(x->phi_hi, y->phi_hi);
  out->L = PICK_LO(x->L, y->L);
  out->U = PICK_HI(x->U, y->U);
  out->chain = x->chain && y->chain;
  reduce_combine_demands(c, pick, x, y, out);
#undef PICK_LO
#undef PICK_HI
}

/* if (c) S1 else S2: decided -> its branch; otherwise piecewise (cond ? S1 : S2), which the
** closed forms over an enclosing index split or enclose. */
static void reduce_if(RCtx *c, REnv *env, const Stmt *s, Summary *out) {
  AlgExpr *cond = reduce_expr(c, env, s->u.branch.cond);
  Summary x, y;
  if (alg_kind(cond) == ALG_NUM) {
    const Stmt *pick = alg_is_num(cond, 0) ? s->u.branch.otherwise : s->u.branch.then;
    if (pick) reduce_stmt(c, env, pick, out);
    else reduce_sum_init(c, out);
    return;
  }
  AlgExpr *outer = env->guard;
  env->guard = outer ? alg_and(c->alg, outer, cond) : cond;
  reduce_stmt(c, env, s->u.branch.then, &x);
  AlgExpr *otherwise = alg_not(c->alg, cond);
  env->guard = outer ? alg_and(c->alg, outer, otherwise) : otherwise;
  if (s->u.branch.otherwise) reduce_stmt(c, env, s->u.branch.otherwise, &y);
  else reduce_sum_init(c, &y);
  env->guard = outer;
  RPick pick = {cond, NULL};
  combine(c, &pick, &x, &y, out);
}

/* choose(p) S1 else S2: the hull, L = min, U = max, phi and D min/max by use; in the pass for
** the expected value, the mix p*S1 + (1-p)*S2 of every part. */
static void reduce_choose(RCtx *c, REnv *env, const Stmt *s, Summary *out) {
  Summary x, y;
  reduce_stmt(c, env, s->u.branch.then, &x);
  if (s->u.branch.otherwise) reduce_stmt(c, env, s->u.branch.otherwise, &y);
  else reduce_sum_init(c, &y);
  RPick pick = {NULL, c->mixing ? reduce_expr(c, env, s->u.branch.cond) : NULL};
  combine(c, &pick, &x, &y, out);
}

/* NAME(args): the callee's summary with the arguments substituted (memoised, apart for calls
** made alone: the rules that ask RCtx.concurrent == 0 hold in their summaries only). */
static void reduce_call(RCtx *c, REnv *env, const Stmt *s, Summary *out) {
  const Decl *proc = s->u.call.decl;
  int n = s->u.call.args.count;
  AlgExpr *args[REDUCE_MAX_ARGS];
  REnv inner;
  if (!reduce_env_call(c, env, s, args, &inner)) {
    reduce_fail(c, s->loc, "reduce: too many arguments");
    reduce_sum_init(c, out);
    return;
  }
  int alone = c->concurrent == 0;   /* the call runs alone: so does the callee's body */
  const Summary *memo = reduce_memo_find(c, proc, args, n, alone);
  if (memo) { *out = *memo; return; }
  reduce_stmt(c, &inner, proc->u.process.body, out);
  reduce_memo_add(c, proc, args, n, alone, out);
}

const Stmt *reduce_unblocked(const Stmt *s) {
  while (s->kind == ST_BLOCK && s->u.block.count == 1) s = s->u.block.items[0];
  return s;
}

void reduce_stmt(RCtx *c, REnv *env, const Stmt *s, Summary *out) {
  switch (s->kind) {
  case ST_SKIP: reduce_sum_init(c, out); return;
  case ST_DELAY: reduce_delay(c, env, s, out); return;
  case ST_USE: reduce_use(c, env, s, out); return;
  case ST_CALL: reduce_call(c, env, s, out); return;
  case ST_BLOCK: reduce_block(c, env, s, out); return;
  case ST_PARALLEL: reduce_parallel(c, env, s, out); return;
  case ST_SEQ: reduce_seq(c, env, s, out); return;
  case ST_PAR: reduce_par(c, env, s, out); return;
  case ST_REPEAT: reduce_repeat(c, env, s, out); return;
  case ST_IF: reduce_if(c, env, s, out); return;
  case ST_CHOOSE: reduce_choose(c, env, s, out); return;
  case ST_HOLD: reduce_hold(c, env, s, out); return;
  }
  reduce_sum_init(c, out);
}

/* ------------------------------------------------------------------ symbols and entry */

static double eval_or(RCtx *c, const Expr *e, double fallback, int *integral) {
  if (!e) return fallback;
  EvalEnv env; eval_env_init(&env);
  AlgInterval v;
  if (eval_expr(&env, e, &v, NULL) != EVAL_OK) return fallback;
  (void)c;
  if (integral) *integral = eval_is_integer(v);
  return v.lo;
}

/* One symbol per param and const, except params set with -D and consts derived from params
** (`const chunk = ceil(N / P) * t`): those are their value's expression, so that the bounds
** follow the params (a symbol would be evaluated once, at the params' defaults). */
static void make_symbols(RCtx *c) {
  Program *p = c->prog;
  ReduceResult *r = c->out;
  r->symbols = calloc((size_t)p->decl_count + 1, sizeof *r->symbols);
  r->symbol_decls = calloc((size_t)p->decl_count + 1, sizeof *r->symbol_decls);
  for (int i = 0; i < p->decl_count; i++) {
    const Decl *d = p->decls[i];
    if (d->kind != DECL_PARAM && d->kind != DECL_CONST) continue;
    if (program_lookup(p, d->name.name) != d) continue;
    AlgAssume as;
    /* a const whose value depends on a param is no symbol: tr_name writes its value in its place,
    ** so it follows the param at every point of a sweep like the expression written inline */
    if (d->kind == DECL_CONST && eval_uses(d->u.constant.value, NULL)) continue;
    if (d->kind == DECL_CONST) {   /* >= 0 (a duration) unless its value says otherwise */
      as = alg_assume_default(ALG_SYM_CONST);
      double least = eval_or(c, d->u.constant.value, as.lo, NULL);
      if (least < as.lo) as.lo = least;
    } else {
      if (is_define(c, d)) continue;    /* set with -D: substituted */
      int integral = 0;
      double def = eval_or(c, d->u.param.value, 1, &integral);
      as = alg_assume_default(ALG_SYM_PARAM);
      as.lo = d->u.param.min ? eval_or(c, d->u.param.min, 1, NULL) : (def < 1 ? def : 1);
      if (d->u.param.max) as.hi = eval_or(c, d->u.param.max, as.hi, NULL);
      as.integer = d->u.param.value ? integral : 0;
    }
    r->symbols[r->symbol_count] = alg_symbol_new(c->alg, d->name.name,
                                                 d->kind == DECL_CONST ? ALG_SYM_CONST : ALG_SYM_PARAM, as);
    r->symbol_decls[r->symbol_count++] = d;
  }
}

static const char *term_name(RCtx *c, const RTerm *t) {
  if (!t->index) return t->res->name.name;
  const char *ix = alg_print(c->alg, t->index, ALG_FMT_TEXT);
  size_t n = strlen(t->res->name.name) + strlen(ix) + 3;
  char *s = arena_alloc(&c->arena, n);
  snprintf(s, n, "%s[%s]", t->res->name.name, ix);
  return s;
}

/* Terms that share a const gathered under it (alg_collect): an interval const then enters each
** group once, and evaluation over the consts' box does not widen t*a - t*b into
** t_hi*a - t_lo*b. */
static void collect_consts(ReduceResult *out) {
  AlgSymbol **consts = calloc((size_t)out->symbol_count + 1, sizeof *consts);
  if (!consts) return;
  size_t n = 0;
  for (int i = 0; i < out->symbol_count; i++)
    if (out->symbol_decls[i]->kind == DECL_CONST) consts[n++] = out->symbols[i];
  if (n > 0) {
    AlgCtx *g = out->alg;
    out->t_lo = alg_collect(g, out->t_lo, consts, n);
    out->t_hi = alg_collect(g, out->t_hi, consts, n);
    out->phi = alg_collect(g, out->phi, consts, n);
    if (out->t_expected) out->t_expected = alg_collect(g, out->t_expected, consts, n);
    for (int i = 0; i < out->term_count; i++) out->terms[i].value = alg_collect(g, out->terms[i].value, consts, n);
    out->terms[0].value = out->phi;
  }
  free(consts);
}

int reduce_program(Program *prog, const ReduceOptions *opts, ReduceResult *out, DiagList *diags) {
  memset(out, 0, sizeof *out);
  out->alg = alg_ctx_new();
  if (opts && opts->loop_limit > 0) alg_ctx_set_loop_limit(out->alg, (unsigned long)opts->loop_limit);
  RCtx c; memset(&c, 0, sizeof c);
  c.prog = prog; c.alg = out->alg; c.diags = diags; c.out = out;
  arena_init(&c.arena);
  const Decl *entry = program_entry(prog);
  if (!entry) {
    SrcLoc none = {prog->path, 1, 1, 1, 1};   /* the file's start, as the checker and simulate say */
    diag_report(diags, DIAG_ERROR, none, "no entry process '%s'", prog->entry_name);
    arena_free(&c.arena);
    return 1;
  }
  reduce_lower_holds(prog);   /* a hold of delays is a use (LANGUAGE.md §8) */
  make_symbols(&c);
  reduce_lock_guards(&c, entry);
  Summary s;
  REnv env; memset(&env, 0, sizeof env);
  reduce_stmt(&c, &env, entry->u.process.body, &s);
  AlgCtx *g = c.alg;
  /* L already bounds every load from below (by induction: L(use(r, t)) = t >= t/m_r, and sums
  ** and branches keep it), so T_lo = L without a max against the whole program's loads. */
  out->t_lo = alg_close(g, s.L, ALG_DIR_LOWER);
  out->t_hi = alg_close(g, s.U, ALG_DIR_UPPER);
  out->phi = alg_close(g, s.phi_lo, ALG_DIR_LOWER);
  if (opts && opts->expected && !c.failed) {   /* a second pass, choose mixed */
    Summary mixed;
    REnv fresh; memset(&fresh, 0, sizeof fresh);
    reduce_memo_clear(&c);
    c.mixing = 1;
    reduce_stmt(&c, &fresh, entry->u.process.body, &mixed);
    out->t_expected = alg_close(g, mixed.L, ALG_DIR_LOWER);
  }
  out->terms = calloc((size_t)(s.nterms + s.nfams + 1), sizeof *out->terms);
  out->terms[out->term_count].name = "critical path";
  out->terms[out->term_count++].value = out->phi;
  for (int i = 0; i < s.nterms; i++) {
    out->terms[out->term_count].name = term_name(&c, &s.terms[i]);
    out->terms[out->term_count++].value =
      alg_close(g, alg_div(g, s.terms[i].d_lo, reduce_mult(&c, s.terms[i].res)), ALG_DIR_LOWER);
  }
  for (int i = 0; i < s.nfams; i++) {
    AlgExpr *member = reduce_family_load_lo(&c, &s, &s.fams[i]);
    if (!member) continue;
    out->terms[out->term_count].name = s.fams[i].res->name.name;
    out->terms[out->term_count++].value =
      alg_close(g, alg_div(g, member, reduce_mult(&c, s.fams[i].res)), ALG_DIR_LOWER);
  }
  /* names of terms live in c.arena: copy them into the result's context */
  for (int i = 1; i < out->term_count; i++) {
    const char *n = out->terms[i].name;
    char *copy = malloc(strlen(n) + 1);
    strcpy(copy, n);
    out->terms[i].name = copy;
  }
  collect_consts(out);
  reduce_approx_finish(&c, out, s.L, s.U);
  reduce_checks_finish(&c, out);
  reduce_memo_clear(&c);
  free(c.split_scratch);
  arena_free(&c.arena);
  return c.failed ? 1 : 0;
}

void reduce_result_free(ReduceResult *result) {
  if (!result) return;
  for (int i = 1; i < result->term_count; i++) free((char *)result->terms[i].name);
  free(result->terms);
  free(result->checks);
  for (int i = 0; i < result->approx_count; i++) free((char *)result->approx[i].what);
  free(result->approx);
  free(result->symbols);
  free((void *)result->symbol_decls);
  if (result->alg) alg_ctx_free(result->alg);
  memset(result, 0, sizeof *result);
}
