/*
** reduce_lock.c — order-aware lower bounds for threads that take a lock (docs/reduction.md,
** "Threads meeting at a lock"): a par whose branches run the same steps (durations and members
** free of the branch index) up to a request they all make, read on the first iteration of its
** steps: where the branches first meet (first_meeting), a lock kept busy by arrivals from an
** FCFS stage (busy_lock), and a stage after work they share on a ps resource (ps_together);
** and, for the upper bounds, the resources only ever requested under a lock (reduce_lock_guards).
*/
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "reduce_lock.h"
#include "reduce_order.h"   /* reduce_batch_picker */

static AlgExpr *zero(RCtx *c) { return alg_num_int(c->alg, 0); }

static int free_of_k(const LockWalk *w, AlgExpr *e) { return !e || !alg_contains(e, w->k); }

/* Appends a step; 0 when there is no room (the walk is cut there). */
static int push(LockWalk *w, LockKind kind, const Decl *res, AlgExpr *index, AlgExpr *t) {
  if (w->nsteps == LOCK_MAX_STEPS) { w->cut = 1; return 0; }
  LockStep *st = &w->steps[w->nsteps++];
  memset(st, 0, sizeof *st);
  st->kind = kind; st->res = res; st->index = index; st->t = t;
  st->same = free_of_k(w, index) && free_of_k(w, t);
  if (!free_of_k(w, t)) w->vary = 1;
  return 1;
}

/* A lower bound on the time of a hold's body: the sum of its delays and uses (a ps use at least
** its service) and of the bodies of the holds in it, walked through blocks, and for a `||` the
** largest of its branches' (it ends when the last of them does; *forked set to 1); *exact 1 when
** it is delays only. NULL for anything else. */
static AlgExpr *body_time(LockWalk *w, REnv *env, const Stmt *s, int depth, int *exact, int *forked) {
  RCtx *c = w->c;
  if (depth >= LOCK_MAX_DEPTH) return NULL;
  switch (s->kind) {
  case ST_SKIP: return zero(c);
  case ST_DELAY: return reduce_expr(c, env, s->u.delay.duration);
  case ST_USE: *exact = 0; return reduce_expr(c, env, s->u.use.duration);
  case ST_HOLD: *exact = 0; return body_time(w, env, s->u.use.body, depth + 1, exact, forked);
  case ST_BLOCK: {
    AlgExpr *sum = zero(c);
    for (int i = 0; i < s->u.block.count; i++) {
      AlgExpr *t = body_time(w, env, s->u.block.items[i], depth + 1, exact, forked);
      if (!t) return NULL;
      sum = alg_add(c->alg, sum, t);
    }
    return sum;
  }
  case ST_PARALLEL: {
    AlgExpr *most = zero(c);
    *exact = 0;
    *forked = 1;
    for (int i = 0; i < s->u.block.count; i++) {
      AlgExpr *t = body_time(w, env, s->u.block.items[i], depth + 1, exact, forked);
      if (!t) return NULL;
      most = alg_max(c->alg, most, t);
    }
    return most;
  }
  default: return NULL;
  }
}

/* The first use in a hold's body s (blocks, delays and uses only, as body_time reads it): sets
** st->inner, st->inner_index, st->inner_t, and adds the delays before it to *pre; 1 when found, 0 when s
** has none, -1 when s is something else. */
static int body_first(LockWalk *w, REnv *env, const Stmt *s, int depth, LockStep *st, AlgExpr **pre) {
  RCtx *c = w->c;
  if (depth >= LOCK_MAX_DEPTH) return -1;
  switch (s->kind) {
  case ST_SKIP: return 0;
  case ST_DELAY: *pre = alg_add(c->alg, *pre, reduce_expr(c, env, s->u.delay.duration)); return 0;
  case ST_USE:
    if (!s->u.use.decl) return -1;
    st->inner = s->u.use.decl;
    st->inner_index = s->u.use.index ? reduce_expr(c, env, s->u.use.index) : NULL;
    st->inner_t = reduce_expr(c, env, s->u.use.duration);
    return 1;
  case ST_BLOCK:
    for (int i = 0; i < s->u.block.count; i++) {
      int found = body_first(w, env, s->u.block.items[i], depth + 1, st, pre);
      if (found) return found;
    }
    return 0;
  default: return -1;
  }
}

/* Flattens s into w's steps: blocks and calls are followed, delays, uses and holds become steps,
** anything else an opaque step (and the walk goes on after it). */
static void flatten(LockWalk *w, REnv *env, const Stmt *s, int depth) {
  RCtx *c = w->c;
  if (w->cut) return;
  if (depth >= LOCK_MAX_DEPTH) { push(w, LOCK_OPAQUE, NULL, NULL, zero(c)); return; }
  switch (s->kind) {
  case ST_SKIP: return;
  case ST_DELAY: push(w, LOCK_DELAY, NULL, NULL, reduce_expr(c, env, s->u.delay.duration)); return;
  case ST_USE:
  case ST_HOLD: {
    const Decl *res = s->u.use.decl;
    if (!res) { push(w, LOCK_OPAQUE, NULL, NULL, zero(c)); return; }
    AlgExpr *index = s->u.use.index ? reduce_expr(c, env, s->u.use.index) : NULL;
    int exact = 1, forked = 0;
    AlgExpr *t = s->kind == ST_USE ? reduce_expr(c, env, s->u.use.duration)
                                   : body_time(w, env, s->u.use.body, depth + 1, &exact, &forked);
    if (!t) { push(w, LOCK_OPAQUE, NULL, NULL, zero(c)); return; }
    if (!push(w, s->kind == ST_USE ? LOCK_USE : LOCK_HOLD, res, index, t)) return;
    LockStep *st = &w->steps[w->nsteps - 1];
    st->exact = exact;
    st->forked = forked;
    st->body = s->kind == ST_HOLD ? s->u.use.body : NULL;
    if (s->kind == ST_HOLD) {
      st->most = lock_body_most(w, env, res, s->u.use.body, depth + 1, &st->most_cond);
      lock_body_group(w, env, res, s->u.use.body, depth + 1, st);
    }
    AlgExpr *pre = zero(c);
    if (s->kind == ST_HOLD && body_first(w, env, s->u.use.body, depth + 1, st, &pre) == 1) {
      st->inner_rest = alg_sub(c->alg, t, pre);
      if (!free_of_k(w, st->inner_index)) st->inner = NULL;
    } else {
      st->inner = NULL;
    }
    return;
  }
  case ST_BLOCK:
    for (int i = 0; i < s->u.block.count; i++) flatten(w, env, s->u.block.items[i], depth + 1);
    return;
  case ST_CALL: {
    const Decl *proc = s->u.call.decl;
    AlgExpr *args[REDUCE_MAX_ARGS];
    REnv inner;
    if (!proc || !reduce_env_call(c, env, s, args, &inner)) {
      push(w, LOCK_OPAQUE, NULL, NULL, zero(c));
      return;
    }
    flatten(w, &inner, proc->u.process.body, depth + 1);
    return;
  }
  default: push(w, LOCK_OPAQUE, NULL, NULL, zero(c)); return;
  }
}

/* Statements of s that request res (use or hold), following calls, not counting those inside
** the statement skip (NULL: none); 2 for "two or more" and for bodies too deep to follow. */
int lock_requests_besides(const Stmt *s, const Decl *res, const Stmt *skip, int depth) {
  if (!s || s == skip) return 0;
  if (depth >= LOCK_MAX_DEPTH) return 2;
  int n = 0;
  switch (s->kind) {
  case ST_USE: return s->u.use.decl == res;
  case ST_HOLD: n = (s->u.use.decl == res) + lock_requests_besides(s->u.use.body, res, skip, depth + 1); break;
  case ST_BLOCK:
  case ST_PARALLEL:
    for (int i = 0; i < s->u.block.count && n < 2; i++) n += lock_requests_besides(s->u.block.items[i], res, skip, depth + 1);
    break;
  case ST_SEQ: case ST_PAR: n = 2 * lock_requests_besides(s->u.loop.body, res, skip, depth + 1); break;
  case ST_REPEAT: n = lock_requests_besides(s->u.repeat.body, res, skip, depth + 1); break;
  case ST_IF: case ST_CHOOSE:
    n = lock_requests_besides(s->u.branch.then, res, skip, depth + 1) + lock_requests_besides(s->u.branch.otherwise, res, skip, depth + 1);
    break;
  case ST_CALL: n = s->u.call.decl ? lock_requests_besides(s->u.call.decl->u.process.body, res, skip, depth + 1) : 2; break;
  default: break;
  }
  return n < 2 ? n : 2;
}

/* Statements of s that request res, following calls; 2 for "two or more". */
static int requests_of(const Stmt *s, const Decl *res, int depth) { return lock_requests_besides(s, res, NULL, depth); }

/* The sum of the steps' times from..to-1 (a lower bound on the time a branch spends in them). */
static AlgExpr *steps_time(const LockWalk *w, int from, int to) {
  AlgExpr *sum = zero(w->c);
  for (int i = from; i < to; i++) sum = alg_add(w->c->alg, sum, w->steps[i].t);
  return sum;
}

/* 1 when res is fcfs. */
int lock_is_fcfs(const Decl *res) { return res->u.resource.discipline != DISC_PS; }

static int is_fcfs(const Decl *res) { return lock_is_fcfs(res); }

/* The prefix of the iteration before step s, when every branch runs it in the same exact time
** with nothing beside the par: delays, and uses free of k of resources other than those named in
** avoid (up to two): of fcfs(m) resources with a server for each branch (n <= m: none waits), or
** of ps(c) resources (the n branches' requests are made at one instant and are the only ones
** present, so each runs at rate min(1, c / n) and all end together, t max(1, n / c) later).
** Returns the condition (n <= m for each fcfs use) and sets *time to the prefix's time, or
** returns NULL when the prefix is no such thing. */
static AlgExpr *exact_prefix(const LockWalk *w, int s, AlgExpr *n, const Decl *avoid1, const Decl *avoid2,
                             AlgExpr **time) {
  AlgCtx *g = w->c->alg;
  AlgExpr *cond = alg_num_int(g, 1), *x = zero(w->c);
  for (int i = 0; i < s; i++) {
    const LockStep *st = &w->steps[i];
    if (!st->same || st->kind == LOCK_OPAQUE || st->kind == LOCK_HOLD) return NULL;
    if (st->kind == LOCK_DELAY) { x = alg_add(g, x, st->t); continue; }
    if (st->res == avoid1 || st->res == avoid2) return NULL;
    AlgExpr *m = reduce_mult(w->c, st->res);
    if (is_fcfs(st->res)) {
      cond = alg_and(g, cond, alg_cmp(g, ALG_CMP_LE, n, m));
      x = alg_add(g, x, st->t);
    } else {
      x = alg_add(g, x, alg_mul(g, alg_max(g, alg_num_int(g, 1), alg_div(g, n, m)), st->t));
    }
  }
  if (time) *time = x;
  return cond;
}

/* x when best is NULL, else max(best, x). */
static AlgExpr *larger(AlgCtx *g, AlgExpr *best, AlgExpr *x) { return best ? alg_max(g, best, x) : x; }

/* Rule (groups in lock step at a semaphore; nothing runs beside the par; with first_meeting's X and
** s, a hold of one member of an fcfs(m) r, hand-off h, J = ceil(n / m)): s's body is delays and uses
** of plain resources the iteration requests nowhere else (lock_body_group), taking exactly B_k when
** k holders start it at one instant (a ps(c) use t max(1, k / c), an fcfs one t where k <= m').
** All n requests reach r at X, its servers free: the first m start at X. Induction on the groups:
** the m requests of group g (g + 1 < J) start at one instant s_g, the only holders then (the
** earlier groups have ended, later requests wait), so they run the body in lock step and end at
** one instant s_g + B_m; at least m first-iteration requests, made at X, wait then (g + 2 < J + 1),
** so each released server is handed to one, h later: s_(g+1) = s_g + B_m + h (h counted where
** B_m > 0). The r = n - (J - 1) m first-iteration requests left start no earlier than s_(J-1) and
** at one instant (released together and handed on, or later), their requests made together and
** slowed only by others: each lasts at least B_r; the branch then still runs the rest:
**   T >= X + (J - 1)(B_m + h) + B_r + rest
** A pool of 4 connections (handoff(5us)) around `use(db, 20us); delay(10us)` on ps(2), T = 7: four
** hold 0..50 (the db shared by 4: 40us), the other three 55..95 (shared by 3: 30us): 95us, the
** simulated time (before, the db's load: 70us). */
static AlgExpr *lock_groups(const LockWalk *w, int s, AlgExpr *x, AlgExpr *J, AlgExpr *after_iter) {
  RCtx *c = w->c;
  AlgCtx *g = c->alg;
  const LockStep *st = &w->steps[s];
  AlgExpr *h = reduce_handoff(c, st->res), *full = st->group_full;
  if (h) full = alg_add(g, full, alg_cond(g, alg_cmp(g, ALG_CMP_GT, st->group_full, zero(c)), h, zero(c)));
  AlgExpr *lo = alg_add_n(g, 5, (AlgExpr *[]){x, alg_mul(g, alg_max(g, zero(c), alg_sub(g, J, alg_num_int(g, 1))), full),
    st->group_last, steps_time(w, s + 1, w->nsteps), after_iter});
  return alg_cond(g, st->group_cond, lo, zero(c));
}

/* Rule (where the branches first meet; nothing runs beside the par): every branch runs an exact
** prefix (exact_prefix: the same steps in the same time X, none waits), so all n reach step s at
** the same instant X, a use or hold of one member of an fcfs(m) resource r that the prefix does
** not name, lasting at least t. r's servers are free at X (nothing beside, nothing before it in
** the par), so the busiest of them serves J = ceil(n / m) of the n requests one after another,
** each after a hand-off h (its request waited since X; where t > 0 only: a hold of 0 s ends at
** the instant it starts, before the next branch has asked); the last of them starts no earlier
** than X + (J - 1)(t + h), and its branch then still runs at least the rest of its steps:
**   T >= X + (ceil(n / m) - 1)(t + h) + t + rest     (h taken 0 unless t > 0)
** taken for each such s (the larger). Two threads on fcfs(2) cores that take a lock in each of
** K rounds: K (w + tc) + tc; T threads on ps(4) cores, then a lock with handoff(h):
** max(1, T / 4) w + T tc + (T - 1) h + the rest; both the simulated times. */
static AlgExpr *first_meeting(const LockWalk *w, AlgExpr *n, AlgExpr *after_iter) {
  RCtx *c = w->c;
  AlgCtx *g = c->alg;
  AlgExpr *best = NULL;
  for (int s = 0; s < w->nsteps; s++) {
    const LockStep *st = &w->steps[s];
    AlgExpr *x;
    AlgExpr *cond = exact_prefix(w, s, n, st->res, NULL, &x);
    if (!cond) break;   /* no later step has an exact prefix either */
    if (st->kind != LOCK_USE && st->kind != LOCK_HOLD) continue;
    if (!st->same || !is_fcfs(st->res)) continue;
    AlgExpr *m = reduce_mult(c, st->res), *h = reduce_handoff(c, st->res);
    AlgExpr *J = alg_func(g, ALG_CEIL, alg_div(g, n, m));
    AlgExpr *each = h ? alg_add(g, st->t, alg_cond(g, alg_cmp(g, ALG_CMP_GT, st->t, zero(c)), h, zero(c))) : st->t;
    AlgExpr *lo = alg_add_n(g, 4, (AlgExpr *[]){x, steps_time(w, s, w->nsteps), after_iter,
      alg_mul(g, alg_max(g, zero(c), alg_sub(g, J, alg_num_int(g, 1))), each)});
    best = larger(g, best, alg_cond(g, cond, lo, zero(c)));
    AlgExpr *groups = st->kind == LOCK_HOLD && st->group_full ? lock_groups(w, s, x, J, after_iter) : NULL;
    if (groups) best = larger(g, best, alg_cond(g, cond, groups, zero(c)));
  }
  return best;
}

/* Rule (the first wave at a semaphore; nothing runs beside the par; with busy_lock's s1, B and s2,
** r2 of m2 servers): the n requests of s1 are made at X, the i-th in FCFS order starting at exactly
** X + floor((i - 1) / m1)(t1 + h1), so the branches reach s2 in their first iteration at
** A_i = X + floor((i - 1) / m1)(t1 + h1) + t1 + B, the only requests of r2 before A_n (every request
** of r2 is at s2, after the branch's first). No hold of r2 starts before A_1, so none ends before
** A_1 + t2 (t2 > 0). At most m2 holds start before the first release; so n - m2 branches (n > m2)
** start their first hold at a release or after, no earlier than A_1 + t2 and than their own
** arrival, and the latest of them arrived at A_(m2 + 1) or later. Where A_n < A_1 + t2 every one of
** them arrived before any release and waited: it is handed its server h2 after a release. Its
** branch then runs s2 and the rest (tail2: the iteration after s2, and the iterations after):
**   T >= max(A_(m2 + 1), A_1 + t2 + (h2 where A_n < A_1 + t2)) + t2 + tail2       (n > m2)
** T = 4 workers on fcfs(2) cores, 3 rounds of `use(cores, 3us); hold (sem) delay(7us)` with a
** semaphore of 3: A = 3, 3, 6, 6 us, the fourth holds from 10 us: 10 + 7 + 20 = 37 us, the
** simulated time (before: 33 us, the last of the cores' first wave at the semaphore with no
** wait). */
static AlgExpr *sem_wave(const LockWalk *w, int s1, int s2, AlgExpr *x, AlgExpr *cond, AlgExpr *n,
                         AlgExpr *after_iter) {
  RCtx *c = w->c;
  AlgCtx *g = c->alg;
  const LockStep *a = &w->steps[s1], *b = &w->steps[s2];
  AlgExpr *one = alg_num_int(g, 1), *m1 = reduce_mult(c, a->res), *m2 = reduce_mult(c, b->res);
  AlgExpr *h1 = reduce_handoff(c, a->res), *h2 = reduce_handoff(c, b->res);
  AlgExpr *round = h1 ? alg_add(g, a->t, h1) : a->t;
  AlgExpr *reach = alg_add_n(g, 3, (AlgExpr *[]){x, a->t, steps_time(w, s1 + 1, s2)});   /* A_1 */
  AlgExpr *first = alg_add(g, reach, alg_mul(g, alg_func(g, ALG_FLOOR, alg_div(g, m2, m1)), round));
  AlgExpr *last = alg_add(g, reach, alg_mul(g, alg_func(g, ALG_FLOOR, alg_div(g, alg_sub(g, n, one), m1)), round));
  AlgExpr *freed = alg_add(g, reach, b->t);
  if (h2) freed = alg_add(g, freed, alg_cond(g, alg_cmp(g, ALG_CMP_LT, last, freed), h2, zero(c)));
  AlgExpr *lo = alg_add_n(g, 4, (AlgExpr *[]){alg_max(g, first, freed), b->t, steps_time(w, s2 + 1, w->nsteps), after_iter});
  AlgExpr *ok = alg_and(g, alg_cmp(g, ALG_CMP_GT, n, m2), alg_and(g, alg_cmp(g, ALG_CMP_GT, a->t, zero(c)),
                                                                 alg_cmp(g, ALG_CMP_GT, b->t, zero(c))));
  return alg_cond(g, alg_and(g, cond, ok), lo, zero(c));
}

/* Rule (a semaphore's servers started in turn; nothing runs beside the par; with sem_wave's s1, B,
** s2, A_i, r2 of m2 <= n servers, K rounds, K = 1 without `repeat`). Sort the servers by the start
** of their first hold: the j-th starts when j requests have arrived, no earlier than the j-th
** arrival at r2. A branch's later requests come at least t2 + trip after its first (trip: the
** least time of the steps after s2 and, in the next iteration, before it), so where A_m2 <= A_1 +
** t2 + trip the j-th arrival (j <= m2) is no earlier than A_j (the first j arrivals, if one branch
** made two, would include one at A_1 + t2 + trip or later). Every hold ends no later than the end
** minus R (the least time after s2 in an iteration), and the K n holds, each at least t2, fill
** the m2 servers' time from their starts:
**   T >= (A_1 + .. + A_m2 + K n t2) / m2 + R
** with A_1 + .. + A_m2 = m2 A_1 + (t1 + h1)(m1 q (q - 1) / 2 + q (m2 - q m1)), q = floor(m2 / m1).
** T = 7 workers on fcfs(2) cores, 3 rounds of `use(cores, 3us); hold (sem) delay(7us)` with a
** semaphore of 3: A = 3, 3, 6: (12 + 147) / 3 = 53 us (simulated 55 us; before, 52 us). */
static AlgExpr *sem_load(const LockWalk *w, int s1, int s2, AlgExpr *x, AlgExpr *cond, AlgExpr *n, AlgExpr *K) {
  RCtx *c = w->c;
  AlgCtx *g = c->alg;
  const LockStep *a = &w->steps[s1], *b = &w->steps[s2];
  AlgExpr *one = alg_num_int(g, 1), *m1 = reduce_mult(c, a->res), *m2 = reduce_mult(c, b->res);
  AlgExpr *h1 = reduce_handoff(c, a->res);
  AlgExpr *round = h1 ? alg_add(g, a->t, h1) : a->t;
  AlgExpr *reach = alg_add_n(g, 3, (AlgExpr *[]){x, a->t, steps_time(w, s1 + 1, s2)});   /* A_1 */
  AlgExpr *q = alg_func(g, ALG_FLOOR, alg_div(g, m2, m1));
  AlgExpr *steps = alg_add(g, alg_div(g, alg_mul_n(g, 3, (AlgExpr *[]){m1, q, alg_sub(g, q, one)}), alg_num_int(g, 2)),
                           alg_mul(g, q, alg_sub(g, m2, alg_mul(g, q, m1))));
  AlgExpr *sum = alg_add(g, alg_mul(g, m2, reach), alg_mul(g, round, steps));
  AlgExpr *last = alg_add(g, reach, alg_mul(g, alg_func(g, ALG_FLOOR, alg_div(g, alg_sub(g, m2, one), m1)), round));
  AlgExpr *R = steps_time(w, s2 + 1, w->nsteps), *trip = alg_add(g, R, steps_time(w, 0, s2));
  AlgExpr *holds = alg_mul_n(g, 3, (AlgExpr *[]){K ? K : one, n, b->t});
  AlgExpr *lo = alg_add(g, alg_div(g, alg_add(g, sum, holds), m2), R);
  AlgExpr *ok = alg_and(g, alg_cmp(g, ALG_CMP_GE, n, m2), alg_and(g, alg_cmp(g, ALG_CMP_GT, a->t, zero(c)),
                  alg_cmp(g, ALG_CMP_LE, last, alg_add_n(g, 3, (AlgExpr *[]){reach, b->t, trip}))));
  return alg_cond(g, alg_and(g, cond, ok), lo, zero(c));
}

/* Rule (a lock kept busy; nothing runs beside the par): an exact prefix (time X, all branches
** together), then s1 = use(r1, t1) of one member of fcfs(m1) r1 (hand-off h1), t1 > 0, then
** delays only (B), then s2, the only request of a one-server fcfs r2 (hand-off h2) in the body,
** of one member, lasting at least t2 > 0; r1 and r2 not named by the prefix. The n requests at
** s1 are made at X before any other request of r1 (t1 > 0: none ends at X), so in FCFS order the
** i-th starts at exactly X + floor((i - 1) / m1)(t1 + h1) and the i-th arrival at s2 is
** A_i = X + ceil(i / m1) t1 + floor((i - 1) / m1) h1 + B. The j-th hold of r2 to end ends at
** e_j >= E_j = A_1 + j t2 + (j - 1) h2: the first starts no earlier than A_1; at e_{j-1}, at most
** j - 1 of the first n requests were served, so one of the first j arrivals waits when
** A_j < E_{j-1} <= e_{j-1}, and the next hold starts h2 after the release. A_j < E_{j-1} for
** j = 2 .. n when
**   n <= m1, or t1 + h1 < m1 (t2 + h2) - h2
** (A_j - A_1 = floor((j - 1) / m1)(t1 + h1) is largest against (j - 1)(t2 + h2) - h2 just after a
** round, at j - 1 = m1). So with tail2 the least the branch runs after its hold (the rest of the
** iteration, and the iterations after it):
**   T >= X + t1 + B + n t2 + (n - 1) h2 + tail2
** T threads on fcfs(4) cores, `use(cores, w); hold (mtx) delay(tc); use(cores, w)` with a
** hand-off h: 2w + T tc + (T - 1) h, the simulated time. */
static AlgExpr *busy_lock(const LockWalk *w, const Stmt *iteration, AlgExpr *n, AlgExpr *K, AlgExpr *after_iter) {
  RCtx *c = w->c;
  AlgCtx *g = c->alg;
  AlgExpr *best = NULL, *one = alg_num_int(g, 1);
  for (int s1 = 0; s1 + 1 < w->nsteps; s1++) {
    const LockStep *a = &w->steps[s1];
    if (!exact_prefix(w, s1, n, NULL, NULL, NULL)) break;   /* nor any later s1 */
    if (a->kind != LOCK_USE || !a->same || !is_fcfs(a->res)) continue;
    int s2 = s1 + 1;
    while (s2 < w->nsteps && w->steps[s2].kind == LOCK_DELAY && w->steps[s2].same) s2++;
    if (s2 == w->nsteps) continue;
    const LockStep *b = &w->steps[s2];
    if ((b->kind != LOCK_USE && b->kind != LOCK_HOLD) || !b->same || !is_fcfs(b->res) || b->res == a->res) continue;
    if (requests_of(iteration, b->res, 0) != 1) continue;
    AlgExpr *x;
    AlgExpr *cond = exact_prefix(w, s1, n, a->res, b->res, &x);
    if (!cond) continue;
    if (!alg_is_num(reduce_mult(c, b->res), 1)) {   /* several servers: their first wave */
      best = larger(g, best, sem_wave(w, s1, s2, x, cond, n, after_iter));
      best = larger(g, best, sem_load(w, s1, s2, x, cond, n, K));
      continue;
    }
    AlgExpr *m1 = reduce_mult(c, a->res);
    AlgExpr *h1 = reduce_handoff(c, a->res), *h2 = reduce_handoff(c, b->res);
    if (!h1) h1 = zero(c);
    if (!h2) h2 = zero(c);
    AlgExpr *v = alg_add(g, b->t, h2);
    AlgExpr *room = alg_or(g, alg_cmp(g, ALG_CMP_LE, n, m1),
                           alg_cmp(g, ALG_CMP_LT, alg_add(g, a->t, h1), alg_sub(g, alg_mul(g, m1, v), h2)));
    cond = alg_and(g, cond, alg_and(g, room, alg_and(g, alg_cmp(g, ALG_CMP_GT, a->t, zero(c)),
                                                    alg_cmp(g, ALG_CMP_GT, b->t, zero(c)))));
    AlgExpr *lo = alg_add_n(g, 5, (AlgExpr *[]){
      alg_add(g, x, steps_time(w, s1, s2)), alg_mul(g, n, b->t), alg_mul(g, alg_max(g, zero(c), alg_sub(g, n, one)), h2),
      steps_time(w, s2 + 1, w->nsteps), after_iter});
    best = larger(g, best, alg_cond(g, cond, lo, zero(c)));
  }
  return best;
}

/* The first step at or after from that is not a delay free of k (w->nsteps: none). */
static int after_delays(const LockWalk *w, int from) {
  while (from < w->nsteps && w->steps[from].kind == LOCK_DELAY && w->steps[from].same) from++;
  return from;
}

/* The first step after the leading delays when it is a use free of k of a ps resource, else -1. */
static int first_ps_use(const LockWalk *w) {
  int s1 = after_delays(w, 0);
  if (s1 == w->nsteps) return -1;
  const LockStep *a = &w->steps[s1];
  return a->kind == LOCK_USE && a->same && !is_fcfs(a->res) ? s1 : -1;
}

/* Rule (a stage after work shared on a ps resource; in any context): every branch runs delays
** only (free of k) before s1 = use(r1, t1) on ps(c1), so all n requests reach r1 at the same
** instant X; until the first of them ends, all n are present and each is served at rate at most
** min(1, c1 / n) (others present only lower it), so none ends before X + max(1, n / c1) t1. Each
** branch then runs at least B before s2, a use or hold of one member of r2 != r1 lasting at least
** t2: those n requests start no earlier than X + max(1, n / c1) t1 + B; on fcfs(m2) the busiest
** server serves ceil(n / m2) of them one after another, on ps(c2) they get n t2 of service at
** rate at most c2; the branch whose request ends last still runs its tail:
**   T >= X + max(1, n / c1) t1 + B + max(ceil(n / m2), 1) t2 + tail   (ps: max(1, n / c2) t2)
** T threads on ps(2) cores, `use(cores, w); hold (lock) use(cores, tc)`: T w / 2 + T tc, the
** simulated time (the cores' load alone: T (w + tc) / 2). */
static AlgExpr *ps_together(const LockWalk *w, AlgExpr *n, AlgExpr *after_iter) {
  RCtx *c = w->c;
  AlgCtx *g = c->alg;
  int s1 = first_ps_use(w);
  if (s1 < 0) return NULL;
  const LockStep *a = &w->steps[s1];
  AlgExpr *one = alg_num_int(g, 1);
  AlgExpr *first = alg_mul(g, alg_max(g, one, alg_div(g, n, reduce_mult(c, a->res))), a->t);
  AlgExpr *best = NULL;
  for (int s2 = s1 + 1; s2 < w->nsteps; s2++) {
    const LockStep *b = &w->steps[s2];
    if (b->kind != LOCK_USE && b->kind != LOCK_HOLD) continue;
    if (!b->same || b->res == a->res) continue;
    AlgExpr *m2 = reduce_mult(c, b->res);
    AlgExpr *rounds = is_fcfs(b->res) ? alg_max(g, one, alg_func(g, ALG_CEIL, alg_div(g, n, m2)))
                                      : alg_max(g, one, alg_div(g, n, m2));
    AlgExpr *lo = alg_add_n(g, 6, (AlgExpr *[]){
      steps_time(w, 0, s1), first, steps_time(w, s1 + 1, s2), alg_mul(g, rounds, b->t),
      steps_time(w, s2 + 1, w->nsteps), after_iter});
    best = larger(g, best, lo);
  }
  return best;
}

/* Rule (a lock kept busy over K rounds; nothing runs beside the par): each of the K >= 2
** iterations is one request s2, a use or hold of one member of a one-server fcfs r2 (hand-off h2)
** lasting at least t2 > 0, r2's only request in the iteration, and around it steps free of k
** that keep the branches in order: delays; uses of fcfs(m) or ps(c) resources with a server for
** each branch (n <= m, n <= c, written into the bound); uses of a ps(c) resource the iteration
** requests nowhere else but inside s2, a hold whose body has no `||` (a critical section on the
** cores: a branch still has one request present there at a time); a body with a `||` requests
** none of the steps' resources. Let D0 be the time of the steps before s2 in the first iteration (a ps
** use of the last kind counted t max(1, n / c)), R the least time of those after it, and G the
** most a branch's trip from a release of r2 to its next arrival there can take (every step but
** s2 at its time, a ps use of the last kind at t max(1, n / c)):
**   G < (n - 1)(t2 + h2)
** makes every release of r2 but the last hand r2 on:
**   T >= D0 + K n t2 + (K n - 1) h2 + R
** No fcfs step waits and no ps step of the first kind slows (each branch has one request at a
** time, so at most n <= m are present at any resource; a ps request runs at rate min(1, c / n)
** = 1). A ps resource of the last kind has at most n requests present, so each of its uses ends
** within t max(1, n / c); the first iteration's n uses start at one instant and end at one
** instant, t max(1, n / c) later (all n present until then: a later request of it is made after
** the first release of r2, or in s2's body after the first hold started, after they ended); and
** of two of its uses at one step made at different instants the earlier ends first (one size,
** every request present runs at one rate: the earlier has had more service at every instant). So all n branches reach r2 at a_0 = D0, and the branch
** released at e_l (the l-th release of r2) is back later than a_0 and than the branch released
** before it, by G at most. So r2's arrivals after the first n come in release order, none at one
** instant with another, and a branch is never served twice while another waits or will arrive
** first: none ends its K-th round before every other has ended K - 1, and the releases
** 0 .. (K - 1) n - 1 all bring a request back, the (j + 1)-th arrival being the first n's or
** at most e_(j+1-n) + G. Let E_j = a_0 + (j + 1) t2 + j h2. By induction on j, e_j >= E_j and
** e_j - e_i >= (j - i)(t2 + h2) for i <= j: the (j + 1)-th arrival is before e_j (for j + 1 < n
** it is at a_0 < e_j; else at most e_(j+1-n) + G < e_(j+1-n) + (n - 1)(t2 + h2) <= e_j), so
** j + 2 requests arrived before e_j and j + 1 were served: one waits, the next hold starts h2
** after e_j and lasts at least t2. The branch of the last release still runs at least R. T = 4
** threads on fcfs(4) cores, K rounds of `use(cores, 3us); hold (mtx) delay(1us)` with
** handoff(500ns): the trip, 3us, is below 3 x 1.5us: 3 + 6 K - 0.5 us, the simulated time (the
** lock's load: 4 K); T threads, K rounds of `delay(2us); hold (mtx) delay(200ns)` with
** handoff(1us), T >= 3: 2 + 0.2 K T + (K T - 1) us, the simulated time (was: the first round's
** hand-offs only); T threads on ps(4) cores, 5 rounds of `use(cores, 10us); hold (mtx)
** use(cores, 2us)` with handoff(1us), T >= 7: 17.5 T - 1 us, the simulated time (was: the cores'
** load, 15 T). fcfs steps with more branches than servers are left out: a request of a
** later round can start at one instant with one of the first (docs/reduction.md). */
int lock_rounds_read(const LockWalk *w, const Stmt *iteration, LockRounds *out) {
  RCtx *c = w->c;
  AlgCtx *g = c->alg;
  AlgExpr *n = w->n, *one = alg_num_int(g, 1), *cond = one;
  AlgExpr *d0 = zero(c), *R = zero(c), *R_most = zero(c), *trip = zero(c);
  int s2 = -1;
  for (int i = 0; i < w->nsteps && s2 < 0; i++) {
    const LockStep *st = &w->steps[i];
    if (st->kind != LOCK_DELAY && st->kind != LOCK_OPAQUE && is_fcfs(st->res) &&
        alg_is_num(reduce_mult(c, st->res), 1) && requests_of(iteration, st->res, 0) == 1) s2 = i;
  }
  if (s2 < 0) return 0;
  const LockStep *b = &w->steps[s2];
  /* s2's body (a hold's) may request a ps step's resource too where it makes one request at a
     time: a branch still has at most one request present there */
  const Stmt *inside = b->kind == LOCK_HOLD && !b->forked ? b->body : NULL;
  for (int i = 0; i < w->nsteps; i++) {
    const LockStep *st = &w->steps[i];
    if (!st->same || st->kind == LOCK_OPAQUE) return 0;
    if (i == s2) continue;
    AlgExpr *most = st->t;   /* the most this step takes */
    if (st->kind == LOCK_HOLD) return 0;   /* a second hold: it may wait */
    if (st->kind == LOCK_USE && b->forked && lock_requests_besides(b->body, st->res, NULL, 0))
      return 0;   /* the holder may have two requests of it present at once */
    if (st->kind == LOCK_USE) {
      AlgExpr *m = reduce_mult(c, st->res);
      if (!is_fcfs(st->res) && lock_requests_besides(iteration, st->res, inside, 0) == 1)
        most = alg_mul(g, alg_max(g, one, alg_div(g, n, m)), st->t);
      else
        cond = alg_and(g, cond, alg_cmp(g, ALG_CMP_LE, n, m));
    }
    trip = alg_add(g, trip, most);
    if (i < s2) d0 = alg_add(g, d0, most);
    else { R = alg_add(g, R, st->t); R_most = alg_add(g, R_most, most); }
  }
  AlgExpr *h2 = reduce_handoff(c, b->res);
  if (!h2) h2 = zero(c);
  AlgExpr *back = alg_cmp(g, ALG_CMP_LT, trip, alg_mul(g, alg_sub(g, n, one), alg_add(g, b->t, h2)));
  out->s2 = s2;
  out->steady = cond;
  out->cond = alg_and(g, cond, alg_and(g, back, alg_cmp(g, ALG_CMP_GT, b->t, zero(c))));
  out->d0 = d0; out->R = R; out->R_most = R_most; out->h2 = h2;
  return 1;
}

/* The lower bound of a lock kept busy over K >= 2 rounds (the rule above). */
static AlgExpr *lock_rounds(const LockWalk *w, const Stmt *iteration, AlgExpr *n, AlgExpr *K) {
  RCtx *c = w->c;
  AlgCtx *g = c->alg;
  LockRounds r;
  if (!lock_rounds_read(w, iteration, &r)) return NULL;
  const LockStep *b = &w->steps[r.s2];
  AlgExpr *one = alg_num_int(g, 1), *kn = alg_mul(g, K, n);
  AlgExpr *cond = alg_and(g, alg_cmp(g, ALG_CMP_GE, K, alg_num_int(g, 2)), r.cond);
  AlgExpr *lo = alg_add_n(g, 4, (AlgExpr *[]){r.d0, alg_mul(g, kn, b->t), alg_mul(g, alg_sub(g, kn, one), r.h2), r.R});
  return alg_cond(g, cond, lo, zero(c));
}

/* Rule (slots kept busy over K rounds; nothing runs beside the par): each of the K >= 1
** iterations is one request s2 of one member of an fcfs(m) r2 (hand-off h), a use lasting t > 0
** or a hold whose body is delays only (t exactly), r2's only request in the iteration, and around
** it delays and uses free of k of fcfs(m') resources with a server for each branch (n <= m',
** written into the bound): every step takes its time exactly, the trip from a release of r2 to
** the branch's next request D = (the iteration's time) - t, the steps before s2 D0, after it R.
** Where D < (floor(n / m) - 1)(t + h) (written into the bound), number r2's requests in FCFS
** order and cut them into groups of m; group g starts at D0 + g (t + h) up to G:
**   F = (K - 1) n where m divides n, else (K - 1)(n - m + 1)
**   G = floor(F / m) + floor(n / m) - 1
**   T >= D0 + G (t + h) + t + ceil((K n - (G + 1) m) / m) t + R
** The n first requests arrive at D0, m start, the rest wait. While the groups start as said, the
** m requests of a group end at one instant, the next m waiting are handed the servers (h later),
** and the returns of group g' arrive at one instant, D after its end, behind the earlier ones:
** they take positions n + g' m .. while no group before g' held a branch's K-th request. So a
** branch's next position is at least n - m + 1 on (n exactly where m divides n: returns of a
** group fill one group), and no K-th request sits below F. The release of group g finds m waiting
** when the returns up to position (g + 2) m - 1, of groups g' <= g + 1 - floor(n / m), came
** before it (D < (g - g')(t + h)) and those groups lie below F: up to g = G - 1. Requests after
** group G start no earlier than its end (FCFS, servers busy till then), the busiest server
** serving ceil(rest / m) of them one after another; the branch of the last still runs R. m = 1 is
** lock_rounds in exact steps. T threads, 4 rounds of `delay(5us); use(slots, 10us)` on fcfs(2)
** with handoff(3us): T = 4: 5 + 7 x 13 + 10 = 106 us, T = 1000: 26002 us, the simulated times
** (no hand-off counted before: 80 us, 20005 us). */
static AlgExpr *slots_rounds_at(const LockWalk *w, const Stmt *iteration, AlgExpr *n, AlgExpr *K, int s2) {
  RCtx *c = w->c;
  AlgCtx *g = c->alg;
  const LockStep *b = &w->steps[s2];
  if (b->kind == LOCK_DELAY || !b->exact || !is_fcfs(b->res) || requests_of(iteration, b->res, 0) != 1) return NULL;
  AlgExpr *one = alg_num_int(g, 1), *cond = alg_cmp(g, ALG_CMP_GE, K, one);
  AlgExpr *d0 = zero(c), *R = zero(c);
  for (int i = 0; i < w->nsteps; i++) {
    const LockStep *st = &w->steps[i];
    if (!st->same || st->kind == LOCK_OPAQUE) return NULL;
    if (i == s2) continue;
    if (st->kind == LOCK_HOLD || (st->kind == LOCK_USE && !is_fcfs(st->res))) return NULL;
    if (st->kind == LOCK_USE) cond = alg_and(g, cond, alg_cmp(g, ALG_CMP_LE, n, reduce_mult(c, st->res)));
    if (i < s2) d0 = alg_add(g, d0, st->t);
    else R = alg_add(g, R, st->t);
  }
  AlgExpr *m = reduce_mult(c, b->res), *h = reduce_handoff(c, b->res);
  if (!h) h = zero(c);
  AlgExpr *round = alg_add(g, b->t, h);
  AlgExpr *per = alg_func(g, ALG_FLOOR, alg_div(g, n, m));
  AlgExpr *back = alg_cmp(g, ALG_CMP_LT, alg_add(g, d0, R), alg_mul(g, alg_sub(g, per, one), round));
  cond = alg_and(g, cond, alg_and(g, back, alg_cmp(g, ALG_CMP_GT, b->t, zero(c))));
  AlgExpr *k1 = alg_sub(g, K, one);
  AlgExpr *divides = alg_cmp(g, ALG_CMP_EQ, alg_mod(g, n, m), zero(c));
  AlgExpr *F = alg_cond(g, divides, alg_mul(g, k1, n), alg_mul(g, k1, alg_add(g, alg_sub(g, n, m), one)));
  AlgExpr *G = alg_sub(g, alg_add(g, alg_func(g, ALG_FLOOR, alg_div(g, F, m)), per), one);
  AlgExpr *rest = alg_sub(g, alg_mul(g, K, n), alg_mul(g, alg_add(g, G, one), m));
  AlgExpr *tail = alg_mul(g, alg_func(g, ALG_CEIL, alg_div(g, alg_max(g, zero(c), rest), m)), b->t);
  AlgExpr *lo = alg_add_n(g, 5, (AlgExpr *[]){d0, alg_mul(g, G, round), b->t, tail, R});
  return alg_cond(g, cond, lo, zero(c));
}

/* slots_rounds_at for every step that can be s2 (the larger); NULL when none can. */
static AlgExpr *slots_rounds(const LockWalk *w, const Stmt *iteration, AlgExpr *n, AlgExpr *K) {
  AlgExpr *best = NULL;
  for (int s = 0; s < w->nsteps; s++) {
    AlgExpr *x = slots_rounds_at(w, iteration, n, K, s);
    if (x) best = larger(w->c->alg, best, x);
  }
  return best;
}

/* 1 when steps from..to-1 are delays free of k (their time is exactly steps_time). */
static int delays_only(const LockWalk *w, int from, int to) {
  for (int i = from; i < to; i++)
    if (w->steps[i].kind != LOCK_DELAY || !w->steps[i].same) return 0;
  return 1;
}

/* Rule (a lock held behind the first batch; nothing runs beside the par; with behind_batch's
** s1, S and X): s' = hold (L) of a one-server fcfs L (hand-off hL), the iteration's only request
** of L, whose body's first use is of s1's member, the body lasting at least tq in all and at
** least tq' from that use's start. The first hold of L ever granted is one of these (a branch's
** first request of L); its use of the member is not one of the n first requests, so it starts
** no earlier than S and L is released no earlier than S + tq'. Every other hold of L starts
** after a release (one server), so the n holds of the first iteration end no earlier than
** S + tq' + (n - 1) tq, and the branch of the last then runs at least the rest. Where every
** branch asks for L before that first release (between s1 and s' delays only, B; the n first
** requests of the member end by A = X + floor((n - 1) / m1)(t1 + h1) + t1, so A + B < S + tq'),
** a request waits at every release until the last of them: each of those holds starts hL after
** the release before it:
**   T >= S + tq' + (n - 1)(tq + hL) + rest          (hL counted where A + B < S + tq')
** T threads on fcfs(2) cores, `use(cores, 6us); hold (a) { use(cores, 1us); hold (b)
** delay(500ns) }`: the holder of a waits for a core behind all the first requests, S = 3 T us
** (T even), then T holds of a of 1.5us: 4.5 T us, the simulated time (the cores' load: 3.5 T). */
static AlgExpr *held_behind(const LockWalk *w, const Stmt *iteration, int s1, int sp, AlgExpr *x, AlgExpr *S,
                            AlgExpr *n, AlgExpr *rest) {
  RCtx *c = w->c;
  AlgCtx *g = c->alg;
  const LockStep *a = &w->steps[s1], *q = &w->steps[sp];
  if (q->kind != LOCK_HOLD || !q->same || !is_fcfs(q->res) || !alg_is_num(reduce_mult(c, q->res), 1) ||
      requests_of(iteration, q->res, 0) != 1) return NULL;
  AlgExpr *one = alg_num_int(g, 1), *hL = reduce_handoff(c, q->res);
  AlgExpr *freed = alg_add(g, S, q->inner_rest);
  AlgExpr *each = q->t;
  if (hL && delays_only(w, s1 + 1, sp)) {
    AlgExpr *m1 = reduce_mult(c, a->res), *h1 = reduce_handoff(c, a->res);
    AlgExpr *round = h1 ? alg_add(g, a->t, h1) : a->t;
    AlgExpr *A = alg_add_n(g, 3, (AlgExpr *[]){x, a->t,
      alg_mul(g, alg_func(g, ALG_FLOOR, alg_div(g, alg_sub(g, n, one), m1)), round)});
    AlgExpr *waits = alg_cmp(g, ALG_CMP_LT, alg_add(g, A, steps_time(w, s1 + 1, sp)), freed);
    each = alg_add(g, each, alg_cond(g, waits, hL, zero(c)));
  }
  return alg_add_n(g, 3, (AlgExpr *[]){freed, alg_mul(g, alg_max(g, zero(c), alg_sub(g, n, one)), each), rest});
}

/* Rule (the last wave of a first batch; nothing runs beside the par): after an exact prefix
** (time X), s1 = use(r1, t1) of one member of fcfs(m1) r1 (hand-off h1), t1 > 0, not named by
** the prefix: as in behind_batch, the i-th of its n first requests starts at exactly
** X + floor((i - 1) / m1)(t1 + h1), so the last w = n - m1 floor((n - 1) / m1) of them (the last
** wave) end at exactly A = X + floor((n - 1) / m1)(t1 + h1) + t1. Their branches reach a later
** step q, a use or hold free of k lasting at least tq, no earlier than A + B (B the least time of
** the steps between); on fcfs(m) the busiest server serves ceil(w / m) of their requests one
** after another, on ps(c) they need w tq of service at rate at most c (each tq at least), and
** the branch of the last still runs its tail. Where q is the iteration's only request of a
** one-server fcfs r (hand-off h), the steps between are delays and tq > 0, the w requests arrive
** at the one instant A + B, before the first of them ends: each next one starts h after a
** release (a hold of 0 s ends at the instant it starts, before the next asks).
**   T >= A + B + max(1, ceil(w / m)) tq (+ (w - 1) h) + tail      (ps(c): max(1, w / c) tq)
** T = 7 threads on fcfs(4) cores, `use(cores, 8us); hold (a) { use(cores, 1us); hold (b)
** delay(400ns) }`: the last wave, 3 threads, ends its work at 16us, then 3 holds of a of 1.4us:
** 20.2us, the simulated time (a held behind the first batch: 17.8us). */
static AlgExpr *last_wave(const LockWalk *w, const Stmt *iteration, int s1, AlgExpr *x, AlgExpr *n,
                          AlgExpr *after_iter) {
  RCtx *c = w->c;
  AlgCtx *g = c->alg;
  const LockStep *a = &w->steps[s1];
  AlgExpr *best = NULL, *one = alg_num_int(g, 1);
  AlgExpr *m1 = reduce_mult(c, a->res), *h1 = reduce_handoff(c, a->res);
  AlgExpr *waves = alg_func(g, ALG_FLOOR, alg_div(g, alg_sub(g, n, one), m1));
  AlgExpr *A = alg_add_n(g, 3, (AlgExpr *[]){x, a->t, alg_mul(g, waves, h1 ? alg_add(g, a->t, h1) : a->t)});
  AlgExpr *wn = alg_sub(g, n, alg_mul(g, m1, waves));
  for (int q = s1 + 1; q < w->nsteps; q++) {
    const LockStep *st = &w->steps[q];
    if ((st->kind != LOCK_USE && st->kind != LOCK_HOLD) || !st->same) continue;
    AlgExpr *m = reduce_mult(c, st->res);
    AlgExpr *rounds = is_fcfs(st->res) ? alg_max(g, one, alg_func(g, ALG_CEIL, alg_div(g, wn, m)))
                                       : alg_max(g, one, alg_div(g, wn, m));
    AlgExpr *lo = alg_add_n(g, 5, (AlgExpr *[]){A, steps_time(w, s1 + 1, q), alg_mul(g, rounds, st->t),
                                                steps_time(w, q + 1, w->nsteps), after_iter});
    AlgExpr *h = is_fcfs(st->res) && alg_is_num(m, 1) ? reduce_handoff(c, st->res) : NULL;
    if (h && requests_of(iteration, st->res, 0) == 1 && delays_only(w, s1 + 1, q))   /* tq > 0: a hold of
                                                 0 s ends at the instant it starts, before the next asks */
      lo = alg_add(g, lo, alg_cond(g, alg_cmp(g, ALG_CMP_GT, st->t, zero(c)), alg_mul(g, alg_sub(g, wn, one), h), zero(c)));
    best = larger(g, best, lo);
  }
  return best;
}

/* Rule (a request behind the first batch; nothing runs beside the par): after an exact prefix
** (time X, all branches together), s1 = use(r1, t1) of one member of fcfs(m1) r1 (hand-off h1),
** t1 > 0, not named by the prefix: the n requests are r1's first, made at X, and in FCFS order
** the i-th of them starts at exactly X + floor((i - 1) / m1)(t1 + h1) and ends t1 later. Any
** later request of that member arrives after X (t1 > 0) and takes a server (or is handed one,
** starting h1 later) only when at most m1 - 1 others hold one: n - m1 + 1 of the n have ended:
**   S = X + floor((n - m1) / m1)(t1 + h1) + t1   where n >= m1 (else X)
** (not the instant the last of the n started: that one was handed its server h1 before, and a
** later request can take a free server in between; tests/regress/lock_batch_handoff.pam). A
** later step s' of every branch makes one: a use of it (lasting t'), or a
** hold whose body's first use is of it (after delays; the body then runs at least t' more). So
** every branch ends s' no earlier than S + t', and then runs at least what follows; and where a
** later step s2 is a use or hold of one member of r2 lasting at least t2, its n requests start no
** earlier than S + t' + B (B the least time of the steps between): on fcfs(m2) the busiest server
** serves ceil(n / m2) of them one after another, on ps(c2) they need n t2 of service at rate at
** most c2 (each t2 / min(1, c2) at least). With tail the least time after s2 (the rest of the
** iteration and the iterations after):
**   T >= S + t' + B + max(1, ceil(n / m2)) t2 + tail      (ps(c2): max(1, n / c2) t2)
** and, s2 = s' a use of r1 itself, S + max(1, ceil(n / m1)) t' + tail. T threads on fcfs(4)
** cores: `use(cores, 4us); hold (a) use(cores, 1us); hold (b) use(cores, 2us)`: the holders of
** a wait behind the first batch of work, S = 4 floor(T / 4) us (T >= 4), then 1us + 2T us (T = 8:
** 25 us, T = 100: 301 us, both the simulated times; the lock b's load alone: 2T us). */
static AlgExpr *behind_batch(const LockWalk *w, const Stmt *iteration, AlgExpr *n, AlgExpr *after_iter) {
  RCtx *c = w->c;
  AlgCtx *g = c->alg;
  AlgExpr *best = NULL, *one = alg_num_int(g, 1);
  for (int s1 = 0; s1 < w->nsteps; s1++) {
    const LockStep *a = &w->steps[s1];
    AlgExpr *x;
    AlgExpr *cond = exact_prefix(w, s1, n, a->res, NULL, &x);
    if (!cond) break;   /* nor any later s1 */
    if (a->kind != LOCK_USE || !a->same || !is_fcfs(a->res)) continue;
    AlgExpr *m1 = reduce_mult(c, a->res), *h1 = reduce_handoff(c, a->res);
    if (!h1) h1 = zero(c);
    AlgExpr *round = alg_add(g, a->t, h1);
    AlgExpr *freed = alg_add(g, alg_mul(g, alg_func(g, ALG_FLOOR, alg_div(g, alg_sub(g, n, m1), m1)), round), a->t);
    AlgExpr *S = alg_add(g, x, alg_cond(g, alg_cmp(g, ALG_CMP_GE, n, m1), freed, zero(c)));
    cond = alg_and(g, cond, alg_cmp(g, ALG_CMP_GT, a->t, zero(c)));
    AlgExpr *wave = last_wave(w, iteration, s1, x, n, after_iter);
    if (wave) best = larger(g, best, alg_cond(g, cond, wave, zero(c)));
    for (int sp = s1 + 1; sp < w->nsteps; sp++) {
      const LockStep *q = &w->steps[sp];
      AlgExpr *tq;
      if (q->kind == LOCK_USE && q->res == a->res && q->index == a->index) tq = q->t;
      else if (q->kind == LOCK_HOLD && q->inner == a->res && q->inner_index == a->index) tq = q->inner_rest;
      else continue;
      AlgExpr *rest = alg_add(g, steps_time(w, sp + 1, w->nsteps), after_iter);
      AlgExpr *lo = alg_add_n(g, 3, (AlgExpr *[]){S, tq, rest});
      if (q->kind == LOCK_USE)   /* the n later requests themselves, on r1 */
        lo = alg_max(g, lo, alg_add_n(g, 3, (AlgExpr *[]){S, rest,
          alg_mul(g, alg_max(g, one, alg_func(g, ALG_CEIL, alg_div(g, n, m1))), tq)}));
      AlgExpr *held = held_behind(w, iteration, s1, sp, x, S, n, rest);
      if (held) lo = alg_max(g, lo, held);
      for (int s2 = sp + 1; s2 < w->nsteps; s2++) {
        const LockStep *b = &w->steps[s2];
        if ((b->kind != LOCK_USE && b->kind != LOCK_HOLD) || !b->same) continue;
        AlgExpr *m2 = reduce_mult(c, b->res);
        AlgExpr *rounds = is_fcfs(b->res) ? alg_max(g, one, alg_func(g, ALG_CEIL, alg_div(g, n, m2)))
                                          : alg_max(g, one, alg_div(g, n, m2));
        lo = alg_max(g, lo, alg_add_n(g, 6, (AlgExpr *[]){S, tq, steps_time(w, sp + 1, s2),
          alg_mul(g, rounds, b->t), steps_time(w, s2 + 1, w->nsteps), after_iter}));
      }
      best = larger(g, best, alg_cond(g, cond, lo, zero(c)));
      break;   /* the first such s' is the earliest; later ones are read as its s2 */
    }
  }
  return best;
}

/* Rule (a serial stage inside a semaphore; nothing runs beside the par): step s = hold (L) of an
** fcfs(m) L, the iteration's only request of L, whose body runs delays (pre) and then use(r, t1)
** of one member of a one-server fcfs r that the iteration requests nowhere else, the body lasting
** at least tq in all. Every branch reaches s no earlier than X, the least time of the steps before
** it. Number the n first-iteration requests of r in the order r serves them, the j-th starting at
** d_j: each is made pre after its hold started (the same pre for all), so FCFS serves them in the
** order their holds started, and d_j >= d_(j-1) + t1 (one server). When hold j started, at most
** m - 1 other holds were under way, so j - m of holds 1 .. j - 1 had ended, the earliest of them
** no earlier than d_(j-m) - pre + tq: d_j >= d_(j-m) + tq. With d_1 >= X + pre, stepping back
** from n by m (tq) b = floor((n - 1) / m) times and by 1 (t1) the a = n - 1 - m b other times:
**   T >= X + a t1 + (b + 1) tq + tail(s)
** T threads through a semaphore of 3, `hold (sem) { use(disk, 2us); use(cores, 6us) }` on ps(4)
** cores, T = 8: a = 1, b = 2: 2 + 3 x 8 = 26us, the simulated time (3 holds at a time: 24us). */
static AlgExpr *sem_line(const LockWalk *w, const Stmt *iteration, AlgExpr *n, AlgExpr *after_iter) {
  RCtx *c = w->c;
  AlgCtx *g = c->alg;
  AlgExpr *best = NULL, *one = alg_num_int(g, 1);
  for (int s = 0; s < w->nsteps; s++) {
    const LockStep *st = &w->steps[s];
    if (st->kind != LOCK_HOLD || !st->same || !st->inner || st->inner_index || !is_fcfs(st->res) ||
        !is_fcfs(st->inner) || !alg_is_num(reduce_mult(c, st->inner), 1) || st->inner == st->res ||
        requests_of(iteration, st->res, 0) != 1 || requests_of(iteration, st->inner, 0) != 1 ||
        alg_contains(st->inner_t, w->k) || alg_contains(st->inner_rest, w->k)) continue;   /* pre free of k */
    AlgExpr *m = reduce_mult(c, st->res);
    AlgExpr *b = alg_func(g, ALG_FLOOR, alg_div(g, alg_sub(g, n, one), m));
    AlgExpr *a = alg_sub(g, alg_sub(g, n, one), alg_mul(g, m, b));
    AlgExpr *lo = alg_add_n(g, 5, (AlgExpr *[]){steps_time(w, 0, s), alg_mul(g, a, st->inner_t),
      alg_mul(g, alg_add(g, b, one), st->t), steps_time(w, s + 1, w->nsteps), after_iter});
    best = larger(g, best, alg_cond(g, alg_cmp(g, ALG_CMP_GE, n, one), lo, zero(c)));
  }
  return best;
}

/* Rule (work left on ps after the branches' first requests there; in any context): delays only
** (X, free of k) before s1 = use(r1, t1) on ps(c1): as in ps_together, all n requests are made
** at X and none ends before X + max(1, n / c1) t1. Each branch then runs at least g, the least
** time to its next use of that member that is a step (later in the iteration, or in the next one
** where K >= 2), before making it: every such later request (the iteration's uses of r1 after s1, and all of them in
** the K - 1 iterations after) starts no earlier than X + max(1, n / c1) t1 + g; together they
** need W = n (their time per branch) of service at a total rate of at most c1, and the branch
** whose request ends last still runs at least what follows the iteration's last use of r1 (other
** requests of r1, inside holds or beside, only take capacity):
**   T >= X + max(1, n / c1) t1 + g + W / c1 + tail(last use of r1)
** T threads on ps(2) cores, `repeat (3) { use(cores, 5us); hold (mtx) delay(1us) }`, T = 3:
** 7.5 + 1 + 15 + 1 = 24.5 us, simulated 25.5 us (the cores' load alone: 22.5 us). */
static AlgExpr *ps_load(const LockWalk *w, AlgExpr *n, AlgExpr *K) {
  RCtx *c = w->c;
  AlgCtx *g = c->alg;
  int s1 = first_ps_use(w);
  if (s1 < 0) return NULL;
  const LockStep *a = &w->steps[s1];
  AlgExpr *later = zero(c), *all = a->t;
  int next = -1, last = s1;
  for (int i = s1 + 1; i < w->nsteps; i++) {
    const LockStep *st = &w->steps[i];
    if (st->kind != LOCK_USE || st->res != a->res || st->index != a->index) continue;
    if (next < 0) next = i;
    last = i;
    later = alg_add(g, later, st->t);
    all = alg_add(g, all, st->t);
  }
  if (next < 0 && !K) return NULL;   /* no later request of r1 */
  AlgExpr *one = alg_num_int(g, 1), *c1 = reduce_mult(c, a->res);
  AlgExpr *gap = next >= 0 ? steps_time(w, s1 + 1, next)
                           : alg_add(g, steps_time(w, s1 + 1, w->nsteps), steps_time(w, 0, s1));
  AlgExpr *more = K ? alg_mul(g, alg_max(g, zero(c), alg_sub(g, K, one)), all) : zero(c);
  AlgExpr *work = alg_mul(g, n, alg_add(g, later, more));
  AlgExpr *lo = alg_add_n(g, 5, (AlgExpr *[]){
    steps_time(w, 0, s1), alg_mul(g, alg_max(g, one, alg_div(g, n, c1)), a->t), gap, alg_div(g, work, c1),
    steps_time(w, last + 1, w->nsteps)});
  /* the next use in the next iteration: there is one only where K >= 2 */
  return next >= 0 ? lo : alg_cond(g, alg_cmp(g, ALG_CMP_GE, K, alg_num_int(g, 2)), lo, zero(c));
}

/* Rule (a line of one-server stages; upper bound, the par alone as every U): every step of S is a
** delay, a use of one member of an fcfs(m) resource, or a hold of one whose body is delays only,
** each free of k and each resource requested at no other step of S; no `repeat`. All n branches
** pass the stages in one order. At a stage s (time t_s, hand-off h_s, m_s servers, d_s the delays
** before it), identical requests in FCFS order end in the order they start, so the k-th to
** start does so no later than max(the k-th arrival, the (k - m_s)-th end + h_s): at that instant
** at most m_s - 1 requests ahead of it are not ended. With D_s(k) the k-th end at s and the
** k-th arrival at s + 1 at D_s(k) + d_(s+1):
**   D_s(k) <= max(D_(s-1)(k) + d_s, D_s(k - m_s) + h_s) + t_s      (the second only if k > m_s)
** Unrolled, D_S(n) is at most the sum of d_s + t_s over the stages plus, along a path that steps
** back j_s times m_s requests at stage s, sum j_s (t_s + h_s) with sum j_s m_s <= n - 1:
**   U <= sum over steps of their time + (n - 1) max_s (t_s + h_s) / m_s
** T threads on fcfs(4) cores, `use(cores, 5us); hold (a) delay(1us); hold (b) delay(1.5us)`:
** 7.5 + 1.5 (T - 1) us, the simulated time (the waits summed: 7.5 + 3.75 (T - 1) us). */
static AlgExpr *lock_tandem(const LockWalk *w, const Stmt *body, AlgExpr *n) {
  RCtx *c = w->c;
  AlgCtx *g = c->alg;
  AlgExpr *ratio = NULL;
  for (int i = 0; i < w->nsteps; i++) {
    const LockStep *st = &w->steps[i];
    if (!st->same) return NULL;
    if (st->kind == LOCK_DELAY) continue;
    if (st->kind == LOCK_OPAQUE || !is_fcfs(st->res) || (st->kind == LOCK_HOLD && !st->exact)) return NULL;
    if (requests_of(body, st->res, 0) != 1) return NULL;
    AlgExpr *h = reduce_handoff(c, st->res);
    AlgExpr *r = alg_div(g, h ? alg_add(g, st->t, h) : st->t, reduce_mult(c, st->res));
    ratio = ratio ? alg_max(g, ratio, r) : r;
  }
  if (!ratio) return NULL;
  AlgExpr *waits = alg_max(g, zero(c), alg_sub(g, n, alg_num_int(g, 1)));
  return alg_add(g, steps_time(w, 0, w->nsteps), alg_mul(g, waits, ratio));
}

/* How many values X takes over the branches at most, when it names k only through one node
** (reduce_batch_picker): `(a k + b) % K` with a an integer (at most K values: k -> k + K adds a K)
** or `cond ? x : y` with x, y free of k (2); 1 when X is free of k; NULL when not known. */
static AlgExpr *arrival_values(RCtx *c, AlgExpr *X, AlgSymbol *k) {
  AlgCtx *g = c->alg;
  if (!alg_contains(X, k)) return alg_num_int(g, 1);
  AlgExpr *node = reduce_batch_picker(X, k), *count = NULL;
  if (!node || alg_contains(alg_replace(g, X, node, alg_num_int(g, 0)), k)) return NULL;
  if (alg_kind(node) == ALG_COND) return alg_num_int(g, 2);
  AlgExpr *x = alg_kid(node, 0), *a = alg_diff(g, x, k);
  if (!a || alg_kind(a) != ALG_NUM || mpz_cmp_ui(mpq_denref(alg_num_value(a)), 1) != 0) return NULL;
  if (alg_contains(alg_expand(g, alg_sub(g, x, alg_mul(g, a, alg_sym(g, k)))), k)) return NULL;
  count = alg_kid(node, 1);
  return alg_contains(count, k) ? NULL : count;
}

/* Rule (arrivals spread over a window; nothing runs beside the par, no `repeat`): before step s
** every branch runs steps that never wait, whose times may depend on k: delays; uses of a family
** member one-to-one in k (docs/reduction.md, one-to-one member maps) of a family the iteration
** requests nowhere else (each branch its own member); uses free of k of fcfs(m) or ps(c)
** resources with a server for each branch (n <= m, n <= c). Branch k reaches s at X(k), between
** Xmin and Xmax over the branches. s is a use or hold free of k of one member of an fcfs(m) r
** (hand-off h), the iteration's only request of r, lasting at least t > 0. Some server serves
** J = ceil(n / m) of the n requests, one after another: its first starts no earlier than Xmin,
** each lasts at least t, and the next starts h after a release where a request waits then. A
** release where none waits, with a request still to come, is no later than the last arrival,
** Xmax, and the i-th release is no earlier than Xmin + i t: at most floor((Xmax - Xmin) / t) of
** them find none. The branch of the last then runs at least the least rest over the branches:
**   T >= Xmin + J t + max(0, J - 1 - floor((Xmax - Xmin) / t)) h + min over k of rest(k)
** T threads each on its own core for a dealt share of N iterations, (floor(N / T) + (t < N % T ?
** 1 : 0)) t_it, then hold (mtx) delay(t_add) with a hand-off h: the shares differ by t_it < t_add,
** floor(N / T) t_it + T t_add + (T - 1) h, the simulated time (was: no hand-off).
** Rule (arrivals at few instants): where X(k) takes at most V values over the branches
** (arrival_values: X names k only through `k % K` or a `?:`), the n requests reach r at no more
** than V instants. At one instant at most m of them find a server free (each that does keeps it
** t > 0, past the instant); every other waits, and a waiting request starts only when a server
** is released to it, h later (LANGUAGE.md §8). So at least n - m V hand-offs are paid, and the m
** servers are taken n t + (n - m V) h in all, after Xmin:
**   T >= Xmin + (n t + max(0, n - m V) h) / m + min over k of rest(k)
** BSP rounds of `use(core[p], 20us + (p % 3) 2us); hold (barrier) delay(0.1us)` with
** handoff(0.5us), P = 64: 20 + 6.4 + 61 x 0.5 = 56.9 us a round against the simulated 57.9 (was:
** 20 + 6.4 + (63 - 40) 0.5 = 37.9 us, 40 = floor(4 / 0.1) releases that may find none). */
static AlgExpr *spread_meeting(const LockWalk *w, const Stmt *iteration, const RPiece *p, AlgExpr *n) {
  RCtx *c = w->c;
  AlgCtx *g = c->alg;
  AlgExpr *one = alg_num_int(g, 1), *cond = one, *X = zero(c), *best = NULL;
  for (int s = 0; s < w->nsteps; s++) {
    const LockStep *st = &w->steps[s];
    if (st->kind == LOCK_OPAQUE) break;
    if (st->kind == LOCK_DELAY) { X = alg_add(g, X, st->t); continue; }
    int once = requests_of(iteration, st->res, 0) == 1;
    if (st->same && is_fcfs(st->res) && once) {
      AlgExpr *m = reduce_mult(c, st->res), *h = reduce_handoff(c, st->res);
      AlgExpr *J = alg_func(g, ALG_CEIL, alg_div(g, n, m));
      AlgExpr *xmin = alg_min_over(g, p->index, p->lo, p->hi, X);
      AlgExpr *rest = alg_min_over(g, p->index, p->lo, p->hi, steps_time(w, s + 1, w->nsteps));
      AlgExpr *lo = alg_add_n(g, 3, (AlgExpr *[]){xmin, alg_mul(g, J, st->t), rest});
      if (h) {
        AlgExpr *xmax = alg_max_over(g, p->index, p->lo, p->hi, X);
        AlgExpr *idle = alg_func(g, ALG_FLOOR, alg_div(g, alg_sub(g, xmax, xmin), st->t));
        lo = alg_add(g, lo, alg_mul(g, alg_max(g, zero(c), alg_sub(g, alg_sub(g, J, one), idle)), h));
        AlgExpr *V = arrival_values(c, X, p->index);
        if (V) {   /* arrivals at few instants: n - m V requests at least wait */
          AlgExpr *waits = alg_max(g, zero(c), alg_sub(g, n, alg_mul(g, m, V)));
          AlgExpr *busy = alg_div(g, alg_add(g, alg_mul(g, n, st->t), alg_mul(g, waits, h)), m);
          lo = alg_max(g, lo, alg_add_n(g, 3, (AlgExpr *[]){xmin, busy, rest}));
        }
      }
      best = larger(g, best, alg_cond(g, alg_and(g, cond, alg_cmp(g, ALG_CMP_GT, st->t, zero(c))), lo, zero(c)));
    }
    if (st->kind != LOCK_USE) break;   /* a hold may wait */
    if (st->index && !free_of_k(w, st->index)) {
      if (!once || !reduce_order_injective_in(c, st->index, w->k, p->lo, p->hi)) break;
    } else {
      cond = alg_and(g, cond, alg_cmp(g, ALG_CMP_LE, n, reduce_mult(c, st->res)));
    }
    X = alg_add(g, X, st->t);
  }
  return best;
}

/* par (k = a, b) S over piece p, nothing split: tightens out->L by the rules above, read on S's
** first iteration (S itself, or the body of `repeat (K) S'` with K >= 1). */
void reduce_lock_par(RCtx *c, REnv *env, const RPiece *p, Summary *out) {
  AlgCtx *g = c->alg;
  if (env->depth >= EVAL_MAX_INDICES) return;
  int checks = c->checks.count;   /* expressions read again: their checks were made */
  env->idx[env->depth++] = p->value;
  LockWalk *w = arena_alloc(&c->arena, sizeof *w);
  memset(w, 0, sizeof *w);
  w->c = c; w->k = p->index;
  w->n = alg_add(g, alg_sub(g, p->hi, p->lo), alg_num_int(g, 1));
  const Stmt *body = p->stmt;
  REnv *at = env;   /* the scope of body: a call's when the body is one call */
  AlgExpr *args[REDUCE_MAX_ARGS];
  REnv inner;
  for (int depth = 0; depth < LOCK_MAX_DEPTH; depth++) {
    if (body->kind == ST_BLOCK && body->u.block.count == 1) { body = body->u.block.items[0]; continue; }
    if (body->kind != ST_CALL || at != env || !body->u.call.decl) break;
    if (!reduce_env_call(c, env, body, args, &inner)) break;
    at = &inner;
    body = body->u.call.decl->u.process.body;
  }
  AlgExpr *K = NULL;
  if (body->kind == ST_REPEAT) {
    K = reduce_expr(c, at, body->u.repeat.count);
    body = body->u.repeat.body;
  }
  w->iteration = body;
  flatten(w, at, body, 0);
  env->depth--;
  c->checks.count = checks;
  if (c->failed || w->nsteps == 0) return;
  AlgExpr *one = alg_num_int(g, 1);
  AlgExpr *n = alg_add(g, alg_sub(g, p->hi, p->lo), one);
  if (!K && !w->cut && c->concurrent == 0) {
    AlgExpr *spread = spread_meeting(w, body, p, n);
    if (spread) out->L = alg_max(g, out->L, alg_cond(g, alg_cmp(g, ALG_CMP_GE, n, one), spread, zero(c)));
    AlgExpr *where = NULL, *spaced = lock_spaced_hi(w, p, &where);
    if (spaced) out->U = alg_cond(g, alg_and(g, where, alg_cmp(g, ALG_CMP_GE, n, one)), alg_min(g, out->U, spaced), out->U);
  }
  if (w->vary || (K && !free_of_k(w, K))) return;
  AlgExpr *iter = steps_time(w, 0, w->nsteps);
  AlgExpr *after = K ? alg_mul(g, alg_max(g, zero(c), alg_sub(g, K, one)), iter) : zero(c);
  int alone = c->concurrent == 0 && !w->cut;
  AlgExpr *rules[8] = {alone ? first_meeting(w, n, after) : NULL, alone ? busy_lock(w, body, n, K, after) : NULL,
                       ps_together(w, n, after), alone && K ? lock_rounds(w, body, n, K) : NULL,
                       alone ? behind_batch(w, body, n, after) : NULL, ps_load(w, n, K),
                       alone ? sem_line(w, body, n, after) : NULL, alone && K ? slots_rounds(w, body, n, K) : NULL};
  AlgExpr *lower = NULL;
  for (int i = 0; i < 8; i++)
    if (rules[i]) lower = lower ? alg_max(g, lower, rules[i]) : rules[i];
  AlgExpr *runs = alg_cmp(g, ALG_CMP_GE, n, one);
  AlgExpr *line = !K && !w->cut ? lock_tandem(w, body, n) : NULL;
  if (line) out->U = alg_min(g, out->U, alg_cond(g, runs, line, zero(c)));
  AlgExpr *where = NULL, *busy = K && !w->cut ? lock_rounds_hi(w, body, K, &where) : NULL;
  if (busy) out->U = alg_cond(g, where, alg_min(g, out->U, busy), out->U);
  if (!lower) return;
  if (K) runs = alg_and(g, runs, alg_cmp(g, ALG_CMP_GE, K, one));
  out->L = alg_max(g, out->L, alg_cond(g, runs, lower, zero(c)));
}

/* ------------------------------------------------------------------ resources kept by a lock */

/* Plain resources the scan follows (beyond: the scan gives up, no resource is guarded). */
#define GUARD_MAX_RES 256
/* Locks that can guard (plain fcfs resources held somewhere; beyond: no bit). */
#define GUARD_MAX_LOCKS 64
/* (process, locks held) pairs the scan enters (beyond: it gives up). */
#define GUARD_MAX_CALLS 4096
/* Statements the scan may nest (beyond: it gives up). */
#define GUARD_MAX_DEPTH 256

/* The scan of the entry process for resources only ever requested under a lock. */
typedef struct GuardScan {
  RCtx *c;                             /* the reduction */
  const Decl *res[GUARD_MAX_RES];      /* plain resources requested somewhere */
  uint64_t held[GUARD_MAX_RES];        /* res[i]: the locks held, with no fork since, at every
                                          request of it (bits of locks) */
  int nres;                            /* length of res */
  const Decl *locks[GUARD_MAX_LOCKS];  /* the locks by bit */
  int nlocks;                          /* length of locks */
  const Decl *called[GUARD_MAX_CALLS]; /* processes entered ... */
  uint64_t called_with[GUARD_MAX_CALLS]; /* ... with these locks held */
  int ncalled;                         /* length of called */
  int failed;                          /* 1: gave up */
} GuardScan;

/* The bit of lock res (a plain fcfs resource), or 0 when it is none. */
static uint64_t lock_bit(GuardScan *gs, const Decl *res) {
  if (!res || res->u.resource.count || !is_fcfs(res)) return 0;
  for (int i = 0; i < gs->nlocks; i++) if (gs->locks[i] == res) return (uint64_t)1 << i;
  if (gs->nlocks == GUARD_MAX_LOCKS) return 0;
  gs->locks[gs->nlocks] = res;
  return (uint64_t)1 << gs->nlocks++;
}

/* A request of res with the locks `held` held (no fork since each was taken). */
static void guard_request(GuardScan *gs, const Decl *res, uint64_t held) {
  if (!res || res->u.resource.count) return;
  for (int i = 0; i < gs->nres; i++)
    if (gs->res[i] == res) { gs->held[i] &= held; return; }
  if (gs->nres == GUARD_MAX_RES) { gs->failed = 1; return; }
  gs->res[gs->nres] = res;
  gs->held[gs->nres++] = held;
}

/* Scans s run with the locks `held` held: a hold adds its resource's bit for its body, a fork
** (`||`, par) clears them for its branches (two requests could then be present at once). */
static void guard_scan(GuardScan *gs, const Stmt *s, uint64_t held, int depth) {
  if (!s || gs->failed) return;
  if (depth >= GUARD_MAX_DEPTH) { gs->failed = 1; return; }
  switch (s->kind) {
  case ST_USE: guard_request(gs, s->u.use.decl, held); return;
  case ST_HOLD:
    guard_request(gs, s->u.use.decl, held);
    guard_scan(gs, s->u.use.body, held | lock_bit(gs, s->u.use.decl), depth + 1);
    return;
  case ST_BLOCK:
    for (int i = 0; i < s->u.block.count; i++) guard_scan(gs, s->u.block.items[i], held, depth + 1);
    return;
  case ST_PARALLEL:
    for (int i = 0; i < s->u.block.count; i++) guard_scan(gs, s->u.block.items[i], 0, depth + 1);
    return;
  case ST_PAR: guard_scan(gs, s->u.loop.body, 0, depth + 1); return;
  case ST_SEQ: guard_scan(gs, s->u.loop.body, held, depth + 1); return;
  case ST_REPEAT: guard_scan(gs, s->u.repeat.body, held, depth + 1); return;
  case ST_IF:
  case ST_CHOOSE:
    guard_scan(gs, s->u.branch.then, held, depth + 1);
    guard_scan(gs, s->u.branch.otherwise, held, depth + 1);
    return;
  case ST_CALL: {
    const Decl *proc = s->u.call.decl;
    if (!proc) { gs->failed = 1; return; }
    for (int i = 0; i < gs->ncalled; i++)
      if (gs->called[i] == proc && gs->called_with[i] == held) return;   /* scanned so */
    if (gs->ncalled == GUARD_MAX_CALLS) { gs->failed = 1; return; }
    gs->called[gs->ncalled] = proc;
    gs->called_with[gs->ncalled++] = held;
    guard_scan(gs, proc->u.process.body, held, depth + 1);
    return;
  }
  default: return;
  }
}

/* 1 when gs->res[i] is kept by a lock: one lock L held at its every request has no more servers
** than it has (fcfs(m) or ps(c) with m_L <= m, m_L <= c for every admissible value). */
static int guard_kept(GuardScan *gs, int i) {
  AlgCtx *g = gs->c->alg;
  AlgExpr *m = reduce_mult(gs->c, gs->res[i]);
  for (int b = 0; b < gs->nlocks; b++)
    if ((gs->held[i] >> b & 1) && alg_is_nonneg(g, alg_sub(g, m, reduce_mult(gs->c, gs->locks[b])))) return 1;
  return 0;
}

/* Rule (a resource kept by a lock never queues; upper bounds): a plain resource q whose every
** request in the run of the entry process is made while its branch holds one and the same plain
** fcfs(m_L) resource L, taken with no `||` or par between the hold and the request (through
** calls), where q has at least as many servers (fcfs(m), m >= m_L) or capacity (ps(c),
** c >= m_L): at most m_L branches hold L at a time and each one's requests of q come one after
** another, so at most m_L requests of q are ever present: none waits at fcfs q, and each runs at
** rate min(1, c / m_L) = 1 at ps q. Its wait counts 0 in reduce_wait, for a branch that uses it
** and for one kept waiting by a holder that does: the holder's time at q is already in the
** hold's demand on L. A log written under its lock: `hold (log_lock) { delay(format); use(disk,
** write) }` beside threads that never touch the disk otherwise; a semaphore of 3 around work on
** ps(4) cores. Fills c->guarded. */
void reduce_lock_guards(RCtx *c, const Decl *entry) {
  GuardScan *gs = calloc(1, sizeof *gs);
  if (!gs) return;
  gs->c = c;
  guard_scan(gs, entry->u.process.body, 0, 0);
  int n = 0;
  for (int i = 0; i < gs->nres && !gs->failed; i++) if (guard_kept(gs, i)) n++;
  if (n > 0 && !gs->failed) {
    c->guarded = arena_alloc(&c->arena, (size_t)n * sizeof *c->guarded);
    for (int i = 0; i < gs->nres; i++) if (guard_kept(gs, i)) c->guarded[c->nguarded++] = gs->res[i];
  }
  free(gs);
}

/* 1 when res never queues: kept by a lock (reduce_lock_guards). */
int reduce_lock_guarded(const RCtx *c, const Decl *res) {
  for (int i = 0; i < c->nguarded; i++) if (c->guarded[i] == res) return 1;
  return 0;
}
