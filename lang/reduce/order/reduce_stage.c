/*
** reduce_stage.c — order-aware lower bounds for stages the single-stage rule of reduce_order.c
** does not read (docs/reduction.md, "Pars whose branches are the same chain"): a stage whose
** resource the chain uses again (a root that scatters and then gathers), and a stage met in every
** iteration of a loop whose count depends on the branch (work dealt with remainders through one
** master).
*/
#include "reduce_order.h"

static AlgExpr *zero(RCtx *c) { return alg_num_int(c->alg, 0); }

/* Rule (order-aware lower bound, a stage used again): a use of the chain that names one member
** for all branches (or members dealt round robin or in blocks), outside loops or in one loop
** whose index changes its member, under no condition on k and outside pars of the body, is
** requested exactly once by each branch (per iteration), whatever the other uses of its resource
** do: the stage rule's bound holds for it alone (stage_lower, reduce_order.c). Its argument counts
** only this use's n requests (no server starts one before the least head, the busiest server
** serves ceil(n / m) of them one after another, all serve their sum at most m at a time, the
** branch whose request ends last still runs its tail, which holds the later uses of the resource
** at their contention-free times); other requests at the member only delay these.
** A root that scatters N / P elements to each rank through its nic, the ranks compute and then
** send a result back through the same nic: P * scatter + compute + exchange + gather. */
int order_reused_stage(const OWalk *w, const OStage *st) {
  (void)w;
  if (st->kguard || st->kloop) return 0;
  if (st->cls == USE_SHARD && st->loops > 0) return 0;
  if ((st->cls != USE_STAGE && st->cls != USE_SHARD) || st->bad || st->loops > 1 || st->reps) return 0;
  return 1;
}

/* Records stage st, met directly in the loop j = a(k) .. b(k) whose range depends on k (iter: the
** loop body's contention-free time at iteration j, time: the loop's for branch k), as a counted
** stage when it names one member for all branches and iterations (a plain resource or a member
** free of k and j), outside other loops of the chain (outer_loops: those around this one), forks
** (no gap), pars of the body and conditions on k or j. Returns 1 when recorded (the stage is then
** marked as met again by its branch: the other rules leave it), 0 when the walk must give up. */
int order_counted_stage(OStage *st, AlgSymbol *j, AlgExpr *a, AlgExpr *b, AlgExpr *iter, AlgExpr *time,
                        int outer_loops) {
  if (st->cls != USE_STAGE || outer_loops || st->loops || st->gap || st->reps || st->kguard || st->kloop) return 0;
  if ((st->index && alg_contains(st->index, j)) || (st->guard && alg_contains(st->guard, j))) return 0;
  st->kloop = j; st->kloop_lo = a; st->kloop_hi = b; st->kloop_time = time;
  st->kloop_head = st->head; st->kloop_t = st->t;
  st->kloop_iter = iter;
  st->bad = 1;
  return 1;
}

/* The least of x over iterations j = a .. b of st's loop: x itself when free of j, else the big
** operator (0 over an empty range: smaller, still a lower bound). */
static AlgExpr *least_in(RCtx *c, const OStage *st, AlgExpr *x) {
  if (!alg_contains(x, st->kloop)) return x;
  return alg_min_over(c->alg, st->kloop, st->kloop_lo, st->kloop_hi, x);
}

/* Rule (order-aware lower bound, a stage in a loop whose count depends on the branch): st names
** one member for all branches, directly in loop j = a(k) .. b(k) (order_counted_stage); branch k
** requests it once per iteration, N = sum over k of max(0, b(k) - a(k) + 1) requests in all,
** none before the least head (the time before the loop plus the request's head within an
** iteration, over k and j). So, for N >= 1,
**   T >= min head + max(ceil(N / m) min t, sum over k and j of t / m) + min tail
** (r FCFS, as for every stage), the tail being what the iteration still runs after the request
** plus what follows the loop (at least: later iterations only add). The busiest of the m servers
** serves ceil(N / m) of the requests one after another, all of them together serve the sum at
** most m at a time, and the branch whose request ends last still runs its tail. N = 200 tasks
** dealt with remainders over 999 workers, `repeat (floor(N / (P - 1)) + (w - 1 < N % (P - 1) ?
** 1 : 0)) { use(master, 1us); use(cpu[w], 20us) }`: 200 + 20 us, the simulated time. */
AlgExpr *order_counted_lower(OWalk *w, const OStage *st, AlgExpr *total) {
  RCtx *c = w->c;
  AlgCtx *g = c->alg;
  AlgSymbol *j = st->kloop;
  AlgExpr *a = st->kloop_lo, *b = st->kloop_hi, *one = alg_num_int(g, 1);
  if (st->guard && alg_contains(st->guard, j)) return NULL;
  AlgExpr *count = order_over_branches(w, ALG_SUM, alg_max(g, zero(c), alg_add(g, alg_sub(g, b, a), one)));
  AlgExpr *m = reduce_mult(c, st->res);
  AlgExpr *rest = alg_sub(g, alg_sub(g, st->kloop_iter, st->kloop_head), st->kloop_t);
  AlgExpr *after = alg_sub(g, alg_sub(g, total, st->head), st->kloop_time);
  if (st->gap) after = alg_sub(g, after, st->gap);
  AlgExpr *head = order_over_branches(w, ALG_MINOVER, alg_add(g, st->head, least_in(c, st, st->kloop_head)));
  AlgExpr *tail = order_over_branches(w, ALG_MINOVER, alg_add(g, after, least_in(c, st, rest)));
  AlgExpr *t_min = least_in(c, st, st->kloop_t);
  if (order_by_branch(w, t_min)) t_min = order_over_branches(w, ALG_MINOVER, t_min);
  AlgExpr *busy = alg_div(g, order_over_branches(w, ALG_SUM, alg_sum(g, j, a, b, st->kloop_t)), m);
  AlgExpr *first = alg_mul(g, alg_func(g, ALG_CEIL, alg_div(g, count, m)), t_min);
  AlgExpr *lo = alg_add(g, alg_add(g, head, alg_max(g, first, busy)), tail);
  if (st->guard) lo = alg_cond(g, st->guard, lo, zero(c));
  return order_closed(c, alg_cond(g, alg_cmp(g, ALG_CMP_GE, count, one), lo, zero(c)));
}

/* Servers of a resource the FCFS-order bound below lists one by one (beyond: a max over them). */
#define STAGE_MAX_LISTED_SERVERS 64

/* 1 when st is the first use of the chain (nothing but delays before it: every branch reaches it
** at its contention-free head), names one member for all branches outside loops, forks, pars of
** the body and conditions, and no other use of the chain names its resource. */
static int first_stage(const OWalk *w, const OStage *st) {
  if (st->cls != USE_STAGE || st->site != 0 || st->bad || st->loops || st->reps || st->gap) return 0;
  if (st->guard || st->kguard || st->kloop) return 0;
  for (int j = 1; j < w->nsites; j++) if (w->sites[j].res == st->res) return 0;
  return 1;
}

/* Rule (order-aware lower bound, requests in FCFS order): st is the first use of a chain
** (first_stage) on an FCFS resource of m servers, the par runs alone and once at a time (nothing
** beside it: RCtx.concurrent), with a head free of the branch and durations nondecreasing in the
** branch index (t(k + 1) >= t(k)). Then all n requests arrive at the same instant h, in index
** order (LANGUAGE.md §6: requests of one instant in program order), at servers that nothing else
** uses, and FCFS serves them as a list in that order: request k starts when the earliest server
** frees. With t nondecreasing that server is the one of k mod m (after r full rounds the servers
** s < c = k mod m have served r + 1 requests, the others r; a server s > c has served
** t(s + i m) >= t(c + i m) for each i, a server s < c has t(s + (i + 1) m) >= t(c + i m) for
** i < r and t(s) more): the requests are dealt round robin (ties leave the finish times the same),
** and server s ends at h + W_s, W_s = sum over i >= 0 with s + i m <= n - 1 of t(a + s + i m).
** The branch of the request that ends last still runs its tail:
**   T >= h + max over s = 0 .. m - 1 of W_s + min_k tail(k)
** Jobs of (p + 1) units on fcfs(4), P = 7: 1 + 5, 2 + 6, 3 + 7, 4: 10 units, then the tail (the
** cores' load gives 7). FCFS is not monotone, so the rule asks that nothing runs beside. */
AlgExpr *order_fcfs_lower(OWalk *w, const OStage *st, AlgExpr *total) {
  RCtx *c = w->c;
  AlgCtx *g = c->alg;
  if (c->concurrent || w->k2 || w->subset || w->forks || w->guarded || w->too_many || !w->sites) return NULL;
  if (!first_stage(w, st)) return NULL;
  if (order_by_branch(w, st->head)) return NULL;
  AlgExpr *one = alg_num_int(g, 1), *k = alg_sym(g, w->k);
  AlgExpr *step = alg_expand(g, alg_sub(g, alg_subst(g, st->t, w->k, alg_add(g, k, one)), st->t));
  if (!alg_is_nonneg(g, step)) return NULL;
  AlgExpr *m = reduce_mult(c, st->res);
  AlgExpr *works[STAGE_MAX_LISTED_SERVERS];
  int listed = 0;
  AlgSymbol *s = alg_index_new(g, "s", alg_num_int(g, 0), alg_sub(g, m, one));
  AlgExpr *sv = alg_sym(g, s);
  if (alg_kind(m) == ALG_NUM && alg_bounds(g, m).lo <= STAGE_MAX_LISTED_SERVERS) listed = (int)alg_bounds(g, m).lo;
  /* W_s: the requests a + s + i m of the range, i = 0 .. floor((n - 1 - s) / m) */
  AlgExpr *last = alg_func(g, ALG_FLOOR, alg_div(g, alg_sub(g, alg_sub(g, w->n, one), sv), m));
  AlgSymbol *i = alg_index_new(g, "i", alg_num_int(g, 0), last);
  AlgExpr *at = alg_add_n(g, 3, (AlgExpr *[]){w->ka, sv, alg_mul(g, alg_sym(g, i), m)});
  AlgExpr *work = alg_sum(g, i, alg_num_int(g, 0), last, alg_subst(g, st->t, w->k, at));
  AlgExpr *most;
  if (listed > 0) {
    for (int j = 0; j < listed; j++) works[j] = alg_subst(g, work, s, alg_num_int(g, j));
    most = alg_max_n(g, (size_t)listed, works);
  } else {
    most = alg_max_over(g, s, alg_num_int(g, 0), alg_sub(g, m, one), work);
  }
  AlgExpr *lo = alg_add(g, alg_add(g, st->head, most), order_over_branches(w, ALG_MINOVER, order_tail(w, st, total)));
  return order_closed(c, alg_cond(g, alg_cmp(g, ALG_CMP_GE, w->n, one), lo, zero(c)));
}

/* Branches read at the end of the range by the second-round bound (as reduce_wait.c). */
#define STAGE_LAST_BRANCHES 12

/* Rule (order-aware lower bound, the second round of a counted stage): threads that each run
** c(k) >= 1 rounds of one request of t to an FCFS stage of m servers, the rest of every round
** delays, `seq (j = a(k), b(k)) { delay; use(r, t); delay }` (st: the chain's only use, its head,
** t and the round's time iter free of k and j, nothing before the loop but delays), the par alone
** (RCtx.concurrent == 0) and r used by nothing else. The first requests reach r at one instant H,
** in index order, all equal: branch k's first starts at exactly H + floor((k - a) / m) t, and its
** second request (where c(k) >= 2) comes iter later, so the second requests arrive in index order
** too, each after every first request. Ahead of branch k's second request are then the n first
** requests and the q(k) second requests of the branches j < k with c(j) >= 2, all started before
** it (FCFS), none before H, each lasting t: the server that takes it has finished the ones it
** started, the others have at most one in service, so n + q(k) <= m floor((s - H) / t) + m - 1 and
** its start s >= H + floor((n + q(k)) / m) t; and it comes after the first ends. Branch k then
** runs what is left of its chain:
**   T >= floor((k - a) / m) t + phi(k)                   (its first request's start)
**   T >= floor((n + q(k)) / m) t + phi(k) - iter        (c(k) >= 2: its second's)
** T = 7 threads of 1 + k % 3 rounds of 5 us and 2 us on 3 cores: thread 5's second request has
** 7 + 3 requests ahead: 15 + 21 - 7 = 29 us, the simulated time (the counted stage: 27 us). */
AlgExpr *order_second_round_lower(OWalk *w, const OStage *st, AlgExpr *total) {
  RCtx *c = w->c;
  AlgCtx *g = c->alg;
  if (c->concurrent || !st->kloop || st->cls != USE_STAGE || st->site != 0 || st->guard ||
      st->kguard || st->gap || st->reps)
    return NULL;
  if (w->k2 || w->subset || w->guarded || w->forks || w->holds || w->too_many || !w->sites || w->nsites != 1)
    return NULL;
  if (st->res->u.resource.discipline != DISC_FCFS || st->res->u.resource.handoff) return NULL;
  if (st->loops != 1 || st->loop) return NULL;   /* no loop but its own (counted as one) */
  AlgSymbol *j = st->kloop;
  AlgExpr *t = st->kloop_t, *iter = st->kloop_iter;
  AlgExpr *parts[4] = {t, iter, st->kloop_head, st->head};
  for (int i = 0; i < 4; i++)
    if (alg_contains(parts[i], j) || order_by_branch(w, parts[i])) return NULL;
  AlgExpr *one = alg_num_int(g, 1), *two = alg_num_int(g, 2);
  AlgExpr *count = alg_add(g, alg_sub(g, st->kloop_hi, st->kloop_lo), one);   /* c(k) */
  if (!alg_is_nonneg(g, alg_sub(g, count, one))) return NULL;   /* every branch makes its first */
  AlgExpr *again = alg_cond(g, alg_cmp(g, ALG_CMP_GE, count, two), one, zero(c));
  AlgExpr *seconds = order_over_branches(w, ALG_SUM, again);   /* q(b + 1) */
  AlgExpr *m = reduce_mult(c, st->res);
  AlgExpr *best = NULL;
  for (int i = 0; i < STAGE_LAST_BRANCHES; i++) {
    AlgExpr *k = alg_sub(g, w->kb, alg_num_int(g, i));
    seconds = alg_sub(g, seconds, alg_subst(g, again, w->k, k));   /* q(k) */
    AlgExpr *phi = alg_subst(g, total, w->k, k);
    AlgExpr *ahead = alg_func(g, ALG_FLOOR, alg_div(g, alg_add(g, w->n, seconds), m));
    AlgExpr *before = alg_func(g, ALG_FLOOR, alg_div(g, alg_sub(g, k, w->ka), m));
    AlgExpr *first = alg_add(g, alg_mul(g, before, t), phi);
    AlgExpr *second = alg_add(g, alg_mul(g, ahead, t), alg_sub(g, phi, iter));
    second = alg_cond(g, alg_cmp(g, ALG_CMP_GE, alg_subst(g, count, w->k, k), two), second, zero(c));
    AlgExpr *lo = alg_cond(g, alg_cmp(g, ALG_CMP_GE, k, w->ka), alg_max(g, first, second), zero(c));
    best = best ? alg_max(g, best, lo) : lo;
  }
  return best;
}
