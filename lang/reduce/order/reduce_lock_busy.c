/*
** reduce_lock_busy.c — the upper bound of a lock kept busy over rounds (docs/reduction.md,
** "Threads meeting at a lock", "A lock kept busy over rounds: the upper bound"): where the lower
** bound's argument shows that every release of the lock but the last hands it on, the lock never
** idles from the first arrival to the last release, and the par ends within the first arrival,
** the holds at their longest, the hand-offs and the longest rest. Also what the walk of
** reduce_lock.c records of a hold's body: the most it takes in the par alone (lock_body_most),
** and its time when a group of its holders runs it in lock step (lock_body_group).
*/
#include "reduce_lock.h"

/* How a hold's body is read (body_read): at its most in the par alone, or in lock step. */
typedef struct BodyRead {
  AlgExpr *k;           /* lock step: the holders that start the body at one instant; NULL: at
                           its most, n = w->n branches each with one request at a time */
  int sole;             /* at its most: the lock has one server (one holder at a time) */
  AlgExpr *cond;        /* where the reading holds (over the params) */
} BodyRead;

/* The time of a hold's body s as r says. A delay its time; a block the sum. A use of a plain
** resource: in lock step, only of one the par's iteration requests nowhere else (sole), k requests
** made at one instant, the only ones present; at its most, of one only ever requested under one
** lock with at least its servers (reduce_lock_guarded: never waits, never slows) its time, of a
** sole one under a one-server lock one request present, and else, outside the body's `||`s, n
** present (one a branch): on ps(c) t max(1, count / c) (all present run at one rate), on fcfs(m)
** t where count <= m (added to r->cond: none waits). At its most a `||` is its longest branch (in
** lock step, unread). NULL for anything else (a hold inside may wait for its lock, a member of a
** family is not read). */
static AlgExpr *body_read(LockWalk *w, REnv *env, const Stmt *s, int depth, int in_fork, BodyRead *r) {
  RCtx *c = w->c;
  AlgCtx *g = c->alg;
  if (depth >= LOCK_MAX_DEPTH) return NULL;
  switch (s->kind) {
  case ST_SKIP: return alg_num_int(g, 0);
  case ST_DELAY: return reduce_expr(c, env, s->u.delay.duration);
  case ST_USE: {
    const Decl *res = s->u.use.decl;
    if (!res || s->u.use.index) return NULL;
    AlgExpr *t = reduce_expr(c, env, s->u.use.duration), *m = reduce_mult(c, res), *count = r->k;
    int sole = lock_requests_besides(w->iteration, res, NULL, 0) == 1;
    if (r->k && !sole) return NULL;
    if (!r->k) {
      if (reduce_lock_guarded(c, res)) return t;
      if (in_fork && !(r->sole && sole)) return NULL;
      count = r->sole && sole ? alg_num_int(g, 1) : w->n;
    }
    if (!lock_is_fcfs(res)) return alg_mul(g, alg_max(g, alg_num_int(g, 1), alg_div(g, count, m)), t);
    r->cond = alg_and(g, r->cond, alg_cmp(g, ALG_CMP_LE, count, m));
    return t;
  }
  case ST_BLOCK:
  case ST_PARALLEL: {
    if (s->kind == ST_PARALLEL && r->k) return NULL;
    AlgExpr *acc = alg_num_int(g, 0);
    for (int i = 0; i < s->u.block.count; i++) {
      AlgExpr *t = body_read(w, env, s->u.block.items[i], depth + 1, in_fork || s->kind == ST_PARALLEL, r);
      if (!t) return NULL;
      acc = s->kind == ST_BLOCK ? alg_add(g, acc, t) : alg_max(g, acc, t);
    }
    return acc;
  }
  default: return NULL;
  }
}

AlgExpr *lock_body_most(LockWalk *w, REnv *env, const Decl *lock, const Stmt *s, int depth, AlgExpr **cond) {
  BodyRead r = {NULL, w->iteration && lock_is_fcfs(lock) && alg_is_num(reduce_mult(w->c, lock), 1),
                alg_num_int(w->c->alg, 1)};
  AlgExpr *most = w->iteration ? body_read(w, env, s, depth, 0, &r) : NULL;
  *cond = r.cond;
  return most;
}

/* Rule (a lock kept busy over K rounds: the upper bound; the par alone, as every U). The par's
** body is read as for the lower bound (lock_rounds_read: s2 the iteration's one request of a
** one-server fcfs lock r2 with hand-off h2, at least t2 > 0; around it delays and uses that keep
** the branches in order; D0 the time to r2 in the first iteration, R_most the most after it)
** and s2 lasts at most t2_most once it has started (a use: its time; a hold: lock_body_most).
** Where G < (n - 1)(t2 + h2) the lower bound's argument shows that all n branches reach r2 at
** D0 and every release of r2 but the last finds a request waiting and hands r2 on: r2 is held
** or handed on without a break from D0 to its last release, through K n holds and K n - 1
** hand-offs. Every branch ends its last round no later than R_most after its last release, and
** the last release is the latest:
**   U(par) <= D0 + K n t2_most + (K n - 1) h2 + R_most
** With one branch nothing waits and no hand-off is made: U(par) <= K (D0 + t2_most + R_most)
** (every iteration's steps at their most, as the first's). T threads on ps(4) cores, 5 rounds of
** `use(cores, 10us); hold (mtx) use(cores, 2us)` with handoff(1us), T = 7: 17.5 + 35 x 3.5 +
** 34 = 174 us (the simulated time 121.5 us; the waits summed: 245 us); a hold writing the disk
** and the network at once, `{ use(disk, 3us) || use(net, 4us) }`, both only ever written under
** the lock: t2_most = t2 = 4 us and U = L, the simulated time. */
AlgExpr *lock_rounds_hi(const LockWalk *w, const Stmt *iteration, AlgExpr *K, AlgExpr **where) {
  RCtx *c = w->c;
  AlgCtx *g = c->alg;
  LockRounds r;
  if (!lock_rounds_read(w, iteration, &r)) return NULL;
  const LockStep *b = &w->steps[r.s2];
  AlgExpr *most = b->kind == LOCK_USE ? b->t : b->most;
  if (!most) return NULL;
  AlgExpr *one = alg_num_int(g, 1), *n = w->n, *kn = alg_mul(g, K, n);
  AlgExpr *steady = b->kind == LOCK_USE ? r.steady : alg_and(g, r.steady, b->most_cond);
  AlgExpr *busy = alg_add_n(g, 4, (AlgExpr *[]){r.d0, alg_mul(g, kn, most), alg_mul(g, alg_sub(g, kn, one), r.h2), r.R_most});
  AlgExpr *alone = alg_mul(g, K, alg_add_n(g, 3, (AlgExpr *[]){r.d0, most, r.R_most}));
  AlgExpr *single = alg_cmp(g, ALG_CMP_EQ, n, one);
  *where = alg_and(g, alg_and(g, steady, alg_cmp(g, ALG_CMP_GE, K, one)), alg_or(g, single, r.cond));
  return alg_cond(g, single, alone, busy);
}

void lock_body_group(LockWalk *w, REnv *env, const Decl *lock, const Stmt *s, int depth, LockStep *st) {
  AlgCtx *g = w->c->alg;
  if (!w->iteration || !lock_is_fcfs(lock)) return;
  AlgExpr *m = reduce_mult(w->c, lock), *one = alg_num_int(g, 1);
  AlgExpr *J = alg_func(g, ALG_CEIL, alg_div(g, w->n, m));
  AlgExpr *r = alg_sub(g, w->n, alg_mul(g, alg_sub(g, J, one), m));   /* the last group's holders */
  BodyRead full = {m, 0, one}, last = {r, 0, one};
  AlgExpr *tf = body_read(w, env, s, depth, 0, &full), *tl = tf ? body_read(w, env, s, depth, 0, &last) : NULL;
  if (!tl) return;
  st->group_full = tf; st->group_last = tl; st->group_cond = alg_and(g, full.cond, last.cond);
}

/* 1 when st is a step that never waits in the par alone, its time exactly st->t (adds to *cond
** what that asks): a delay; a use of a family member one-to-one in k (each branch its own) of a
** family the iteration requests nowhere else; a use free of k of an fcfs(m) or ps(c) resource with
** a server for each branch (n <= m, n <= c: one request a branch at a time). */
static int never_waits(const LockWalk *w, const LockStep *st, const RPiece *p, AlgExpr **cond) {
  RCtx *c = w->c;
  AlgCtx *g = c->alg;
  if (st->kind == LOCK_DELAY) return 1;
  if (st->kind != LOCK_USE) return 0;
  if (st->index && alg_contains(st->index, w->k))
    return lock_requests_besides(w->iteration, st->res, NULL, 0) == 1 &&
           reduce_order_injective_in(c, st->index, w->k, p->lo, p->hi);
  if (alg_contains(st->t, w->k)) return 0;
  *cond = alg_and(g, *cond, alg_cmp(g, ALG_CMP_LE, w->n, reduce_mult(c, st->res)));
  return 1;
}

/* Rule (arrivals spaced apart; the upper bound, the par alone as every U; no `repeat`): every step
** but s never waits (never_waits; times may depend on k), branch k reaching s at X(k), affine in
** k: X(k) = X(0) + b k (b free of k); s is a use or hold free of k of one member of an fcfs(m) r,
** the iteration's only request of r, lasting at most t_most once started (a use its time, a hold
** lock_body_most). Where m |b| > t_most, take the branches in the order they reach r: the one m
** places before branch k came |b| m or more earlier, started then (by induction: nothing waited
** before it) and has ended before X(k); so at most m - 1 holders are there when k comes, none
** waits and no hand-off is made:
**   U(par) <= max over k of X(k) + t_most + R(k)      (R(k) the time of the steps after s)
** Requests every 3 us, each holding a mutex for 1 us with handoff(5us) (audit 4's x20): 3 (T - 1)
** + 1 us, the simulated time (before, the lock's load with its hand-offs: 3 times as much). */
AlgExpr *lock_spaced_hi(const LockWalk *w, const RPiece *p, AlgExpr **where) {
  RCtx *c = w->c;
  AlgCtx *g = c->alg;
  AlgExpr *cond = alg_num_int(g, 1), *X = alg_num_int(g, 0), *R = alg_num_int(g, 0), *most = NULL;
  const LockStep *s = NULL;
  for (int i = 0; i < w->nsteps; i++) {
    const LockStep *st = &w->steps[i];
    if (never_waits(w, st, p, &cond)) {
      if (s) R = alg_add(g, R, st->t);
      else X = alg_add(g, X, st->t);
      continue;
    }
    if (s || st->kind == LOCK_OPAQUE || !st->same || !lock_is_fcfs(st->res) ||
        lock_requests_besides(w->iteration, st->res, NULL, 0) != 1) return NULL;
    s = st;
    most = st->kind == LOCK_USE ? st->t : st->most;
    if (!most) return NULL;
    if (st->kind == LOCK_HOLD) cond = alg_and(g, cond, st->most_cond);
  }
  if (!s) return NULL;
  AlgExpr *b = alg_diff(g, X, w->k);
  if (!b || alg_contains(b, w->k) || alg_contains(alg_sub(g, X, alg_mul(g, b, alg_sym(g, w->k))), w->k)) return NULL;
  AlgExpr *gap = alg_mul(g, reduce_mult(c, s->res), alg_max(g, b, alg_neg(g, b)));
  *where = alg_and(g, cond, alg_cmp(g, ALG_CMP_GT, gap, most));
  return alg_max_over(g, w->k, p->lo, p->hi, alg_add_n(g, 3, (AlgExpr *[]){X, most, R}));
}
