/*
** reduce_release.c — the single-machine bound with release dates at one member (docs/reduction.md,
** "Requests that reach a member late"): the requests a member gets, each with a lower bound on
** when it reaches the member (its contention-free head), are taken from a threshold on: every
** request whose head is at least the threshold is served after it. The rule for a stage whose
** heads depend on the branch through k % K (ranks that compute 10 (1 + p % 4) us, then send to
** one root), and the bound at a member counted request by request (reduce_fork.c, reduce_grid.c).
*/
#include <gmp.h>

#include "reduce_order.h"

/* Largest period of the heads the stage rule reads (K classes: K thresholds of K terms each). */
#define RELEASE_MAX_PERIOD 16
/* Groups of requests the release-date bound takes at most (ORDER_MAX_STAGES sites at a member
** counted, RELEASE_MAX_PERIOD classes of a stage). */
#define RELEASE_MAX_GROUPS ORDER_MAX_STAGES
/* Depth of an expression the period is looked for in (deeper: no period). */
#define RELEASE_MAX_DEPTH 64
/* Depth of a guard its run of branches is read from (deeper: no run). */
#define RELEASE_MAX_GUARD_DEPTH 16
/* Groups release_subsets takes at most (2^s - 1 sets). */
#define RELEASE_MAX_SUBSET_GROUPS 4

static AlgExpr *zero(RCtx *c) { return alg_num_int(c->alg, 0); }

/* The value of e when it is an integer number in 1 .. RELEASE_MAX_PERIOD, else 0. */
static long small_modulus(const AlgExpr *e) {
  if (alg_kind(e) != ALG_NUM) return 0;
  mpq_srcptr v = alg_num_value(e);
  if (mpz_cmp_ui(mpq_denref(v), 1) != 0 || mpq_sgn(v) <= 0 || mpz_cmp_ui(mpq_numref(v), RELEASE_MAX_PERIOD) > 0) return 0;
  return (long)mpz_get_ui(mpq_numref(v));
}

/* The period in k of e when e depends on k only through terms (s k + a) % K (s an integer, K an
** integer number): the least common multiple of those K (1 when e is free of k), or 0 when e
** depends on k otherwise or the period exceeds RELEASE_MAX_PERIOD. (s (k + K) + a) % K is
** (s k + a) % K, so e takes one value per class of k modulo the period. */
static long period_in(RCtx *c, AlgExpr *e, AlgSymbol *k, int depth) {
  if (!alg_contains(e, k)) return 1;
  if (depth >= RELEASE_MAX_DEPTH) return 0;
  if (alg_kind(e) == ALG_MOD) {
    long K = small_modulus(alg_kid(e, 1));
    AlgExpr *s = alg_diff(c->alg, alg_kid(e, 0), k);
    if (!K || !s || alg_contains(s, k) || !order_integer_valued(c, s) || alg_kind(s) != ALG_NUM) return 0;
    AlgExpr *rest = alg_sub(c->alg, alg_kid(e, 0), alg_mul(c->alg, s, alg_sym(c->alg, k)));
    return alg_contains(rest, k) ? 0 : K;
  }
  if (alg_kind(e) == ALG_SYM) return 0;   /* k itself */
  long L = 1;
  for (size_t i = 0; i < alg_nkids(e); i++) {
    long p = period_in(c, alg_kid(e, i), k, depth + 1);
    if (!p) return 0;
    L = L / alg_gcd_long(L, p) * p;
    if (L > RELEASE_MAX_PERIOD) return 0;
  }
  return L;
}

/* The bound of the rule below for the requests of the groups j where in[j] holds (in NULL: all
** groups), served from `from` on: from + max(ceil(q / m) * min t, sum of t / m) + min tail, the
** minima over the groups that hold a request (`some ? v : the largest v`). */
static AlgExpr *served_after(RCtx *c, AlgExpr *m, int s, AlgExpr **in, AlgExpr *from, AlgExpr **count,
                             AlgExpr **t, AlgExpr **tail) {
  AlgCtx *g = c->alg;
  AlgExpr *one = alg_num_int(g, 1), *q = zero(c), *sum = zero(c), *t_min = NULL, *tail_min = NULL;
  AlgExpr *t_top = alg_max_n(g, (size_t)s, t), *tail_top = alg_max_n(g, (size_t)s, tail);
  for (int j = 0; j < s; j++) {
    AlgExpr *some = alg_cmp(g, ALG_CMP_GE, count[j], one);
    AlgExpr *n = count[j], *w = alg_mul(g, count[j], t[j]);
    if (in) {
      some = alg_and(g, in[j], some);
      n = alg_cond(g, in[j], n, zero(c));
      w = alg_cond(g, in[j], w, zero(c));
    }
    q = alg_add(g, q, n);
    sum = alg_add(g, sum, w);
    AlgExpr *tj = alg_cond(g, some, t[j], t_top), *rj = alg_cond(g, some, tail[j], tail_top);
    t_min = t_min ? alg_min(g, t_min, tj) : tj;
    tail_min = tail_min ? alg_min(g, tail_min, rj) : rj;
  }
  AlgExpr *serve = alg_max(g, alg_mul(g, alg_func(g, ALG_CEIL, alg_div(g, q, m)), t_min), alg_div(g, sum, m));
  return alg_add(g, alg_add(g, from, serve), tail_min);
}

/* Rule (release dates at one member): s groups of requests at one FCFS member with m servers,
** group j holding count[j] >= 0 requests, each reaching the member no earlier than head[j],
** lasting at least t[j] and followed in its branch by at least tail[j]. For a threshold head[i]
** (count[i] >= 1), the requests of the groups j with head[j] >= head[i] (group i among them)
** are all served after head[i]: the busiest server serves ceil(q / m) of their q one after
** another, all servers together their sum at most m at a time, and the branch whose request ends
** last still runs its tail:
**   T >= head[i] + max(ceil(q / m) * min t, sum of t / m) + min tail   (over those groups)
** The largest over the thresholds, and over all the groups from the least head (the same bound
** where the comparisons are decided; kept apart for where they are not: constants given as
** intervals); 0 when no group holds a request. */
AlgExpr *release_threshold(RCtx *c, AlgExpr *m, int s, AlgExpr **count, AlgExpr **head, AlgExpr **t,
                           AlgExpr **tail) {
  AlgCtx *g = c->alg;
  if (s < 1 || s > RELEASE_MAX_GROUPS) return zero(c);   /* callers stay within */
  AlgExpr *one = alg_num_int(g, 1), *in[RELEASE_MAX_GROUPS], *some = alg_num_int(g, 0), *first = NULL;
  AlgExpr *head_top = alg_max_n(g, (size_t)s, head);
  for (int j = 0; j < s; j++) {
    AlgExpr *runs = alg_cmp(g, ALG_CMP_GE, count[j], one), *h = alg_cond(g, runs, head[j], head_top);
    some = alg_or(g, some, runs);
    first = first ? alg_min(g, first, h) : h;
  }
  AlgExpr *best = alg_cond(g, some, served_after(c, m, s, NULL, first, count, t, tail), zero(c));
  for (int i = 0; i < s; i++) {
    for (int j = 0; j < s; j++) in[j] = j == i ? one : alg_cmp(g, ALG_CMP_GE, head[j], head[i]);
    AlgExpr *bound = served_after(c, m, s, in, head[i], count, t, tail);
    best = alg_max(g, best, alg_cond(g, alg_cmp(g, ALG_CMP_GE, count[i], one), bound, zero(c)));
  }
  return best;
}

/* Rule (release dates, every set of groups): as release_threshold, but for each nonempty set S
** of the s groups (s <= RELEASE_MAX_SUBSET_GROUPS) from the least head of S's groups that hold a
** request: every request of S reaches the member no earlier than that, so
**   T >= min head(S) + max(ceil(q / m) * min t, sum of t / m) + min tail   (over S's groups)
** No comparison of heads is needed: two heads equal up to rounding (63 us both ways) do not
** leave one of them out, as an undecided head[j] >= head[i] would. The sets whose bit is set in
** skip (bit S) are left out (a caller's bound already covers them). 0 when no group holds a
** request. */
static AlgExpr *release_subsets(RCtx *c, AlgExpr *m, int s, unsigned long skip, AlgExpr **count,
                                AlgExpr **head, AlgExpr **t, AlgExpr **tail) {
  AlgCtx *g = c->alg;
  if (s < 1 || s > RELEASE_MAX_SUBSET_GROUPS) return zero(c);   /* callers stay within */
  AlgExpr *one = alg_num_int(g, 1), *in[RELEASE_MAX_SUBSET_GROUPS], *best = zero(c);
  AlgExpr *head_top = alg_max_n(g, (size_t)s, head);
  for (unsigned set = 1; set < (1u << s); set++) {
    if (skip && (skip >> set) & 1u) continue;
    AlgExpr *from = NULL, *some = alg_num_int(g, 0);
    for (int j = 0; j < s; j++) {
      in[j] = alg_num_int(g, (set >> j) & 1u);
      if (!((set >> j) & 1u)) continue;
      AlgExpr *runs = alg_cmp(g, ALG_CMP_GE, count[j], one), *h = alg_cond(g, runs, head[j], head_top);
      from = from ? alg_min(g, from, h) : h;
      some = alg_or(g, some, runs);
    }
    best = alg_max(g, best, alg_cond(g, some, served_after(c, m, s, in, from, count, t, tail), zero(c)));
  }
  return best;
}

/* x for the branches of class i (k = ka + i modulo L) when x has a period p dividing L; else its
** least over the branches: over the p classes (those with a branch: ka + j <= kb) when x has a
** period p, else the min over k. */
static AlgExpr *at_class(const OWalk *w, AlgExpr *x, long L, long i) {
  AlgCtx *g = w->c->alg;
  long p = period_in(w->c, x, w->k, 0);
  if (p && L % p == 0) return alg_subst(g, x, w->k, alg_add(g, w->ka, alg_num_int(g, i)));
  if (!p) return order_over_branches(w, ALG_MINOVER, x);
  AlgExpr *first = alg_subst(g, x, w->k, w->ka), *least = first;
  for (long j = 1; j < p; j++) {
    AlgExpr *k = alg_add(g, w->ka, alg_num_int(g, j));
    least = alg_min(g, least, alg_cond(g, alg_cmp(g, ALG_CMP_LE, k, w->kb), alg_subst(g, x, w->k, k), first));
  }
  return least;
}

/* Rule (order-aware lower bound, a stage whose heads come in classes): a stage the single-stage
** rule reads (a member every branch requests once, per iteration of its loop; not dealt, not
** under an `if` on k, FCFS), in a par over one index k = ka .. kb whose head depends on k only
** through terms (s k + a) % K: the branches fall in L classes (k = ka + i modulo L, L the period,
** at most RELEASE_MAX_PERIOD), class i of count(i) = max(0, floor((n - 1 - i) / L) + 1)
** branches, all reaching the member no earlier than head(ka + i). The release-date bound
** (release_threshold) over the classes, the durations and tails taken per class where they have
** a period dividing L, else at their least over the branches. Each head is a lower bound on when
** the request reaches the member in any context (other work only delays a branch), and other
** requests at the member only delay these: no condition on what runs beside the par. Ranks
** computing 10 (1 + p % 4) us, then sending 1.1 us to one root nic, at P = 16: the last wave of
** 4 reaches it at 40 us: T >= 40 + 4 * 1.1 = 44.4 us (the least head alone: 10 + 16 * 1.1).
** Rule (a stage skipped under a guard periodic in k): the same where an `if` on k around the
** stage (its kguard) depends on k only through such terms too (the period L then also a multiple
** of the guard's): class i makes its requests where the guard holds at k = ka + i (it holds for
** the whole class or for none of it), and holds count(i) of them there, none elsewhere. A class
** that skips the stage counts no request; durations and tails without a period dividing L are
** taken at their least over all branches (a smaller value, still a lower bound). A guard that
** names the loop index too is taken at each iteration. Odd items skipping stage 1 of 10 us of
** `seq (s = 0, 3) if (not (s == 1 and i % 2 == 1)) use(st[s], s == 1 ? 10us : 2us)`, M = 7: the
** 4 even items reach st[1] at 2 us and run 4 us after it: 2 + 40 + 4 = 46 us, the simulated
** time. */
AlgExpr *release_stage_lower(OWalk *w, const OStage *st, AlgExpr *total) {
  RCtx *c = w->c;
  AlgCtx *g = c->alg;
  if (w->k2 || w->subset || st->cls != USE_STAGE || st->kloop || st->bad || st->reps) return NULL;
  if (st->loops > 1 || (st->loops == 1 && !st->loop) || st->res->u.resource.discipline == DISC_PS) return NULL;
  long L = period_in(c, st->head, w->k, 0);
  long G = st->kguard ? period_in(c, st->kguard, w->k, 0) : 1;   /* a guard periodic in k */
  if (!L || !G) return NULL;
  L = L / alg_gcd_long(L, G) * G;
  if (L < 2 || L > RELEASE_MAX_PERIOD) return NULL;
  AlgExpr *count[RELEASE_MAX_PERIOD], *head[RELEASE_MAX_PERIOD], *t[RELEASE_MAX_PERIOD], *tail[RELEASE_MAX_PERIOD];
  AlgExpr *rest = order_tail(w, st, total);
  for (long i = 0; i < L; i++) {
    AlgExpr *k = alg_add(g, w->ka, alg_num_int(g, i));
    count[i] = release_class_count(w, L, i);
    if (st->kguard) count[i] = alg_cond(g, alg_subst(g, st->kguard, w->k, k), count[i], zero(c));
    head[i] = alg_subst(g, st->head, w->k, k);
    t[i] = at_class(w, st->t, L, i);
    tail[i] = at_class(w, rest, L, i);
  }
  AlgExpr *lo = release_threshold(c, reduce_mult(c, st->res), (int)L, count, head, t, tail);
  lo = st->kguard ? skip_at_iterations(c, st, lo) : order_over_loop(c, st, lo);
  return order_closed(c, lo);
}

long release_period(RCtx *c, AlgExpr *e, AlgSymbol *k) { return period_in(c, e, k, 0); }

/* The branches of class i of L (k = ka + i modulo L): max(0, floor((n - 1 - i) / L) + 1). */
AlgExpr *release_class_count(const OWalk *w, long L, long i) {
  AlgCtx *g = w->c->alg;
  AlgExpr *left = alg_sub(g, alg_sub(g, w->n, alg_num_int(g, 1)), alg_num_int(g, i));
  return alg_max(g, zero(w->c), alg_add(g, alg_func(g, ALG_FLOOR, alg_div(g, left, alg_num_int(g, L))), alg_num_int(g, 1)));
}

/* The sign of s, free of the branch index: 1 when s >= 0, -1 when s <= 0 (for every admissible
** value), 0 when neither is decided. */
static int slope_sign(RCtx *c, AlgExpr *s) {
  if (alg_is_nonneg(c->alg, s)) return 1;
  if (alg_is_nonpos(c->alg, s)) return -1;
  return 0;
}

/* Narrows *lo .. *hi to the branches k where cond holds, and *holds to the conditions free of k
** it also needs: cond a conjunction of comparisons s k + r op 0 (op <, <=, ==; s free of k, of a
** decided sign; r free of k) and of conditions free of k. For k an integer and s > 0,
** s k + r < 0 is k <= ceil(-r / s) - 1 and s k + r <= 0 is k <= floor(-r / s); for s < 0 the
** same with k >= floor(r / -s) + 1 and k >= ceil(r / -s); == is both <= and >=. Where s may be 0
** (a const only known >= 0), the cut is taken where s != 0, and where s = 0 the comparison is
** r op 0, free of k: *holds takes it. So `w > 0 and w * B < N` is 1 <= w <= ceil(N / B) - 1
** (where B > 0). 0 when cond is no such form. */
static int guard_run(RCtx *c, AlgExpr *cond, AlgSymbol *k, AlgExpr **lo, AlgExpr **hi, AlgExpr **holds,
                     int depth) {
  AlgCtx *g = c->alg;
  AlgKind kind = alg_kind(cond);
  if (depth > RELEASE_MAX_GUARD_DEPTH) return 0;
  if (!alg_contains(cond, k)) { *holds = alg_and(g, *holds, cond); return 1; }
  if (kind == ALG_AND) {
    for (size_t i = 0; i < alg_nkids(cond); i++)
      if (!guard_run(c, alg_kid(cond, i), k, lo, hi, holds, depth + 1)) return 0;
    return 1;
  }
  if (kind != ALG_LT && kind != ALG_LE && kind != ALG_EQ) return 0;
  AlgExpr *d = alg_sub(g, alg_kid(cond, 0), alg_kid(cond, 1));
  AlgExpr *s = alg_diff(g, d, k);
  if (!s || alg_contains(s, k)) return 0;
  AlgExpr *r = alg_expand(g, alg_sub(g, d, alg_mul(g, s, alg_sym(g, k))));
  int sign = slope_sign(c, s);
  if (alg_contains(r, k) || !sign) return 0;
  AlgExpr *x = alg_div(g, alg_neg(g, r), s), *one = alg_num_int(g, 1);   /* cond: k op x (s > 0) */
  AlgExpr *below = kind == ALG_LT ? alg_sub(g, alg_func(g, ALG_CEIL, x), one) : alg_func(g, ALG_FLOOR, x);
  AlgExpr *above = kind == ALG_LT ? alg_add(g, alg_func(g, ALG_FLOOR, x), one) : alg_func(g, ALG_CEIL, x);
  AlgExpr *moves = alg_cmp(g, ALG_CMP_NE, s, zero(c));   /* where s = 0: r op 0 */
  AlgExpr *flat = alg_make(g, kind, 2, (AlgExpr *[]){r, zero(c)});
  if (!alg_is_num(moves, 1)) *holds = alg_and(g, *holds, alg_or(g, moves, flat));
  if (kind == ALG_EQ || sign > 0)
    *hi = alg_cond(g, moves, alg_min(g, *hi, kind == ALG_EQ ? alg_func(g, ALG_FLOOR, x) : below), *hi);
  if (kind == ALG_EQ || sign < 0)
    *lo = alg_cond(g, moves, alg_max(g, *lo, kind == ALG_EQ ? alg_func(g, ALG_CEIL, x) : above), *lo);
  return 1;
}

/* 1 when e depends on k through a min, max, `?:`, floor or ceiling (heads in pieces: a short
** last block, one task more for the first ranks), 0 otherwise or past RELEASE_MAX_DEPTH. */
static int piecewise_in(AlgExpr *e, AlgSymbol *k, int depth) {
  if (depth > RELEASE_MAX_DEPTH || !alg_contains(e, k)) return 0;
  AlgKind kind = alg_kind(e);
  if (kind == ALG_MIN || kind == ALG_MAX || kind == ALG_COND || kind == ALG_FLOOR || kind == ALG_CEIL) return 1;
  for (size_t i = 0; i < alg_nkids(e); i++)
    if (piecewise_in(alg_kid(e, i), k, depth + 1)) return 1;
  return 0;
}

/* The first branch past the bend of a head in pieces: for a min or max in head (depth first) two
** of whose arguments differ by s k + r, s free of k of a decided sign (where s = 0: from, the run's
** first branch), r free of k, the pieces meet at k = -r / s, and floor(-r / s) + 1 is the
** first integer past it. A short last block, max(0, min(B, N - w B)) t: the full blocks are
** w <= (N - B) / B, the cut floor((N - B) / B) + 1. NULL when head holds no such min or max. */
static AlgExpr *head_bend(RCtx *c, AlgExpr *head, AlgSymbol *k, AlgExpr *from, int depth) {
  AlgCtx *g = c->alg;
  if (depth > RELEASE_MAX_DEPTH || !alg_contains(head, k)) return NULL;
  if (alg_kind(head) == ALG_MIN || alg_kind(head) == ALG_MAX)
    for (size_t i = 0; i < alg_nkids(head); i++)
      for (size_t j = i + 1; j < alg_nkids(head); j++) {
        AlgExpr *d = alg_sub(g, alg_kid(head, i), alg_kid(head, j)), *s = alg_diff(g, d, k);
        if (!s || alg_contains(s, k) || !slope_sign(c, s)) continue;
        AlgExpr *r = alg_expand(g, alg_sub(g, d, alg_mul(g, s, alg_sym(g, k))));
        if (alg_contains(r, k)) continue;
        AlgExpr *cut = alg_add(g, alg_func(g, ALG_FLOOR, alg_div(g, alg_neg(g, r), s)), alg_num_int(g, 1));
        return alg_cond(g, alg_cmp(g, ALG_CMP_NE, s, zero(c)), cut, from);
      }
  for (size_t i = 0; i < alg_nkids(head); i++) {
    AlgExpr *cut = head_bend(c, alg_kid(head, i), k, from, depth + 1);
    if (cut) return cut;
  }
  return NULL;
}

/* Rule (release dates over a run of branches, order-aware lower bound): a stage (one member for
** all branches, FCFS, outside loops of the body or in one: per iteration) that the branches of one
** run a .. b of k make, all of them (no `if` on k around it, or `if`s whose conditions are read
** by guard_run), is taken as groups of requests: the run's first branch, its last one, and
** those between, each with the least head, duration and tail of its branches; where the head
** bends (head_bend: a min or max of two pieces that meet at k = x), those between are two
** groups, a + 1 .. min(b - 1, cut - 1) and max(a + 1, cut) .. b - 1 (any cut is sound: each
** group's own least head bounds its requests' arrivals). Every request of a group reaches the
** member no earlier than the group's head, so the release-date bound holds over every set of the
** groups (release_subsets; an end alone or both ends give at most a branch's own time); other
** requests at the member only delay these, so no condition on what runs beside the par. Ranks with blocks of B = ceil(N / P) items, the last
** one short, then a send of 3 us to rank 0 by every rank w > 0 with items: at N = 1000, P = 16
** (B = 63) the first two groups, from 63 us, hold all 14 sends but the short block's: T >= 63 +
** 14 * 3 = 105 us (the least head with all three: 55 + 15 * 3 = 100 us). Every rank w > 0
** sending, the blocks of N = 1000 rows at P = 64 (B = 16): rank 62 has 8 rows and rank 63 none,
** so the least head between the ends is 8 us; the cut at floor((1000 - 16) / 16) + 1 = 62 puts
** ranks 2 .. 61 in a group of their own, and with rank 1 they send 61 messages of 2.024 us from
** 16 us on: T >= 139.464 us, the simulated time (before: 125.976 us, the sum from 0). */
AlgExpr *release_run_lower(OWalk *w, const OStage *st, AlgExpr *total) {
  RCtx *c = w->c;
  AlgCtx *g = c->alg;
  if (w->k2 || w->subset || st->cls != USE_STAGE || st->kloop || st->bad || st->reps) return NULL;
  if (st->loops > 1 || (st->loops == 1 && !st->loop) || st->res->u.resource.discipline == DISC_PS) return NULL;
  AlgExpr *a = w->ka, *b = w->kb, *holds = alg_num_int(g, 1), *one = alg_num_int(g, 1);
  if (st->kguard && !guard_run(c, st->kguard, w->k, &a, &b, &holds, 0)) return NULL;
  AlgExpr *rest = order_tail(w, st, total), *x[3] = {st->head, st->t, rest};
  if (!st->kguard && !piecewise_in(st->head, w->k, 0))
    return NULL;   /* heads alike, linear or periodic in k: the stage rules' bounds, nothing more */
  AlgExpr *cut = head_bend(c, st->head, w->k, a, 0);
  int s = cut ? 4 : 3, lastg = s - 1;
  AlgExpr *lo[4], *hi[4], *count[4], *head[4], *t[4], *tail[4];
  AlgExpr *inner_lo = alg_add(g, a, one), *inner_hi = alg_sub(g, b, one);
  lo[0] = hi[0] = a;
  lo[lastg] = hi[lastg] = b;
  lo[1] = inner_lo; hi[1] = inner_hi;
  if (cut) {
    hi[1] = alg_min(g, inner_hi, alg_sub(g, cut, one));
    lo[2] = alg_max(g, inner_lo, cut); hi[2] = inner_hi;
  }
  count[0] = alg_cond(g, alg_cmp(g, ALG_CMP_LE, a, b), one, zero(c));
  count[lastg] = alg_cond(g, alg_cmp(g, ALG_CMP_LT, a, b), one, zero(c));
  for (int j = 0; j < s; j++) {
    int end = j == 0 || j == lastg;
    if (!end) count[j] = alg_max(g, zero(c), alg_add(g, alg_sub(g, hi[j], lo[j]), one));
    AlgExpr *has = alg_cmp(g, ALG_CMP_GE, count[j], one), *at[3];
    for (int v = 0; v < 3; v++) {
      AlgExpr *first = alg_subst(g, x[v], w->k, a);
      at[v] = end ? alg_subst(g, x[v], w->k, lo[j]) : alg_cond(g, has, alg_bigop(g, ALG_MINOVER, w->k, lo[j], hi[j], x[v]), first);
    }
    count[j] = alg_is_num(holds, 1) ? count[j] : alg_cond(g, holds, count[j], zero(c));
    head[j] = at[0]; t[j] = at[1];
    tail[j] = alg_max(g, zero(c), at[2]);   /* a time left: >= 0 even where its bound is not */
  }
  /* one end alone, or both ends: at most the chain's own time */
  unsigned long ends = (1ul << 0) | (1ul << lastg);
  unsigned long skip = (1ul << (1ul << 0)) | (1ul << (1ul << lastg)) | (1ul << ends);
  return order_over_loop(c, st, release_subsets(c, reduce_mult(c, st->res), s, skip, count, head, t, tail));
}
