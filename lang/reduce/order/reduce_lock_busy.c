/*
** reduce_lock_busy.c — the upper bound of a lock kept busy over rounds (docs/reduction.md,
** "Threads meeting at a lock", "A lock kept busy over rounds: the upper bound"): where the lower
** bound's argument shows that every release of the lock but the last hands it on, the lock never
** idles from the first arrival to the last release, and the par ends within the first arrival,
** the holds at their longest, the hand-offs and the longest rest. Also the most a hold's body
** takes in the par alone (lock_body_most), which the walk of reduce_lock.c records.
*/
#include "reduce_lock.h"

/* The most a hold's body s takes in the par alone, n = w->n branches each with one request at a
** time outside the body's `||`s: a delay its time; a use of a resource only ever requested under
** one lock with at least its servers (reduce_lock_guarded), or, the held lock having one server,
** of a resource the par's iteration requests nowhere else (sole: at most one request of it is
** present), its time alone (never waits; t max(1, 1 / c) on ps(c)); and outside any `||` of the
** body, a use of a plain ps(c) resource t max(1, n / c) (at most n requests present: one a
** branch) and of a plain fcfs(m) one its time where n <= m (added to *cond: none waits); a block
** the sum, a `||` its longest branch. NULL for anything else (a hold inside may wait for its lock,
** a member of a family is not read). */
static AlgExpr *body_most(LockWalk *w, REnv *env, const Stmt *s, int depth, int in_fork, int sole, AlgExpr **cond) {
  RCtx *c = w->c;
  AlgCtx *g = c->alg;
  if (depth >= LOCK_MAX_DEPTH) return NULL;
  switch (s->kind) {
  case ST_SKIP: return alg_num_int(g, 0);
  case ST_DELAY: return reduce_expr(c, env, s->u.delay.duration);
  case ST_USE: {
    const Decl *res = s->u.use.decl;
    if (!res || s->u.use.index) return NULL;
    AlgExpr *t = reduce_expr(c, env, s->u.use.duration);
    AlgExpr *m = reduce_mult(c, res), *one = alg_num_int(g, 1);
    if (reduce_lock_guarded(c, res)) return t;
    if (sole && lock_requests_besides(w->iteration, res, NULL, 0) == 1)
      return lock_is_fcfs(res) ? t : alg_mul(g, alg_max(g, one, alg_div(g, one, m)), t);
    if (in_fork) return NULL;
    if (!lock_is_fcfs(res)) return alg_mul(g, alg_max(g, one, alg_div(g, w->n, m)), t);
    *cond = alg_and(g, *cond, alg_cmp(g, ALG_CMP_LE, w->n, m));
    return t;
  }
  case ST_BLOCK:
  case ST_PARALLEL: {
    AlgExpr *acc = alg_num_int(g, 0);
    for (int i = 0; i < s->u.block.count; i++) {
      AlgExpr *t = body_most(w, env, s->u.block.items[i], depth + 1, in_fork || s->kind == ST_PARALLEL, sole, cond);
      if (!t) return NULL;
      acc = s->kind == ST_BLOCK ? alg_add(g, acc, t) : alg_max(g, acc, t);
    }
    return acc;
  }
  default: return NULL;
  }
}

AlgExpr *lock_body_most(LockWalk *w, REnv *env, const Decl *lock, const Stmt *s, int depth, AlgExpr **cond) {
  *cond = alg_num_int(w->c->alg, 1);
  int sole = w->iteration && lock_is_fcfs(lock) && alg_is_num(reduce_mult(w->c, lock), 1);
  return body_most(w, env, s, depth, 0, sole, cond);
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
