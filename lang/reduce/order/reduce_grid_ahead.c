/*
** reduce_grid_ahead.c — requests known to be ahead at a member of a grid (docs/reduction.md,
** "A member of a grid counted", requests in FCFS order): where the par over pairs runs alone,
** the first requests of the branches arrive at known instants, some of them are served at once,
** and the requests after those arrive at known instants too; a request that finds such requests
** already there starts after them, and what its branch does after it is late by as much.
*/
#include <string.h>

#include "reduce_grid.h"

/* How two sites of the walk stand in a branch's run (reduce_order.h, OPath). */
typedef enum {
  GA_BEFORE,    /* the first is made, and ends, before the second is made */
  GA_BESIDE,    /* in different branches of a fork: neither waits for the other */
  GA_UNKNOWN    /* a par inside the body, or forks too deep to read */
} GAOrder;

/* What the rule knows of the group's sites (in gr's order). */
typedef struct GAhead {
  const GGroup *gr;
  unsigned first;             /* the sites no use of the body comes before (their arrival is
                                 their contention-free head) */
  unsigned before[GRID_MAX_SITES]; /* the sites surely before site j in its branch's run */
  int known[GRID_MAX_SITES];  /* 1: every use that can come before site j is a site of the group
                                 surely before it (its arrival is known once those are served at
                                 once) */
  AlgExpr *whole;             /* where a member's requests are all the group's: the coordinates
                                 read one member each */
  int exact;                  /* 1: one server per member and no hand-off, so a request's start
                                 is the end of the ones queued before it (exact_start) */
  int chain[GRID_MAX_SITES];  /* 1: site j's arrival is its head plus the waits of the sites
                                 before it (known, and those outside forks) */
  struct GTime *memo;         /* exact times found so far (GA_MAX_EXACT) */
  int nmemo;                  /* length of memo */
} GAhead;

/* The exact times of one request: site `site` made by the branch with coordinates x. */
typedef struct GTime {
  int site;                   /* the site */
  AlgExpr *x[2];              /* the branch's coordinates */
  AlgExpr *arr_ok, *arr;      /* its arrival at its member and where it is exact (NULL: not
                                 yet found) */
  AlgExpr *start_ok, *start;  /* the start of its service, likewise */
  int busy_arr, busy_start;   /* 1 while being found (met again: a cycle, not known) */
} GTime;

/* Requests (site, branch) whose exact times one raise finds at most (beyond: not known): the
** cone of branches a chain of 8 sites reaches within GA_MAX_EXACT_DEPTH steps is far smaller. */
#define GA_MAX_EXACT 256
/* Steps from one request to another the exact times follow (deeper: not known). */
#define GA_MAX_EXACT_DEPTH 12

static AlgExpr *one(RCtx *c) { return alg_num_int(c->alg, 1); }

/* a is surely before b: a (1 + 2^-40) < b. The simulator takes two times within 2^-46 of the
** larger for one instant (its events then run in program order): a strict comparison of two
** heads that are equal in exact arithmetic could be decided by their rounding. */
static AlgExpr *surely_before(AlgCtx *g, AlgExpr *a, AlgExpr *b) {
  AlgExpr *widen = alg_add(g, alg_num_int(g, 1), alg_div(g, alg_num_int(g, 1), alg_num_int(g, 1L << 40)));
  return alg_cmp(g, ALG_CMP_LT, alg_mul(g, a, widen), b);
}

/* Where the branch with coordinates y comes before the one with coordinates x in program order:
** the par's index k first, then k2 (`par (k) par (k2)`, or the digits o, n of a flat index
** p = Q o + n, whose order is p's). The simulator handles the events of one instant in program
** order (LANGUAGE.md §6: requests made at one instant queue in program order). */
static AlgExpr *program_before(const GGroup *gr, AlgExpr *const y[2], AlgExpr *const x[2]) {
  AlgCtx *g = gr->w->c->alg;
  int k = gr->sites[0].major ? 1 : 0, k2 = 1 - k;   /* the coordinates of k and k2 */
  return alg_or(g, alg_cmp(g, ALG_CMP_LT, y[k], x[k]),
                alg_and(g, alg_cmp(g, ALG_CMP_EQ, y[k], x[k]), alg_cmp(g, ALG_CMP_LT, y[k2], x[k2])));
}

/* a is surely not after b: a <= b (1 + 2^-47). The simulator takes a for after b only when
** a - b > 2^-46 a (its times carry far less rounding than that), so a time a' = a and a time
** b' >= b are one instant or a' comes first; and two heads equal in exact arithmetic, rounded
** apart by interval evaluation (about 2^-52 of their size), still compare so. */
static AlgExpr *not_after(AlgCtx *g, AlgExpr *a, AlgExpr *b) {
  AlgExpr *widen = alg_add(g, alg_num_int(g, 1), alg_div(g, alg_num_int(g, 1), alg_num_int(g, 1L << 47)));
  return alg_cmp(g, ALG_CMP_LE, a, alg_mul(g, b, widen));
}

/* Where a request arriving exactly at a (after its branch's own events only) is queued before one
** arriving no earlier than b, made by the branches with coordinates y and x: a surely before b,
** or a not after b and y before x in program order (at one instant the events run in program
** order, and the branch of the first request runs its events of that instant first). */
static AlgExpr *queued_before(const GGroup *gr, AlgExpr *a, AlgExpr *b, AlgExpr *const y[2], AlgExpr *const x[2]) {
  AlgCtx *g = gr->w->c->alg;
  return alg_or(g, surely_before(g, a, b), alg_and(g, not_after(g, a, b), program_before(gr, y, x)));
}

/* How site a (earlier in the walk) stands to site b in a branch's run. */
static GAOrder order_of(const OSite *a, const OSite *b) {
  const OPath *p = &a->path, *q = &b->path;
  if (p->deep || q->deep) return GA_UNKNOWN;
  for (int d = 0; d < p->depth && d < q->depth; d++) {
    if (p->fork[d] != q->fork[d]) return GA_BEFORE;   /* forks one after the other */
    if (p->copies[d]) return GA_UNKNOWN;              /* copies of a par run at once */
    if (p->arm[d] != q->arm[d]) return GA_BESIDE;
  }
  return GA_BEFORE;
}

/* The member site j of gr names for the branch with coordinates x. */
static void member_of(const GGroup *gr, int j, AlgExpr *const x[2], AlgExpr *at[2]) {
  AlgCtx *g = gr->w->c->alg;
  for (int d = 0; d < 2; d++) {
    const GCoord *q = &gr->sites[j].c[d];
    AlgExpr *v = alg_add(g, x[d], q->a);
    at[d] = q->K ? alg_mod(g, v, q->K) : v;
  }
}

/* Depth of a guard narrow_minor reads (deeper: not narrowed). */
#define GA_MAX_GUARD_DEPTH 8

/* Narrows *lo .. *hi, the minor index's range, to where the conjunction guard can hold: each of
** its comparisons of the minor index with an expression free of it (order_cut_ranges: one range
** where it holds) cuts the range; other conditions leave it (a superset of where the guard
** holds). */
static void narrow_minor(const GGroup *gr, AlgExpr *guard, AlgExpr **lo, AlgExpr **hi, int depth) {
  RCtx *c = gr->w->c;
  AlgCtx *g = c->alg;
  if (!guard || depth > GA_MAX_GUARD_DEPTH) return;
  if (alg_kind(guard) == ALG_AND) {
    for (size_t i = 0; i < alg_nkids(guard); i++) narrow_minor(gr, alg_kid(guard, i), lo, hi, depth + 1);
    return;
  }
  if (alg_contains(guard, gr->idx[0])) return;
  AlgExpr *tl[2], *th[2], *fl[2], *fh[2];
  int nt = 0, nf = 0;
  if (!order_cut_ranges(c, guard, gr->idx[1], *lo, *hi, tl, th, &nt, fl, fh, &nf) || nt != 1) return;
  *lo = alg_max(g, *lo, tl[0]);
  *hi = alg_min(g, *hi, th[0]);
}

/* 1 where one member's requests come from the group's senders alone: every site's coordinates
** read one member each (G * u + v + rest with v in [0, G - 1] for every site, u and v each from
** one branch coordinate: a shift, or (o + a) % K over o in [0, K - 1]). A shift v + a is taken
** over the minor indices where the site runs (narrow_minor: `if (j > 0)` around a use of
** nic[i * Q + j - 1] keeps j - 1 in [0, Q - 2]). */
static AlgExpr *one_reading(const GGroup *gr) {
  AlgCtx *g = gr->w->c->alg;
  AlgExpr *zero = alg_num_int(g, 0), *ok = alg_cmp(g, ALG_CMP_LE, one(gr->w->c), gr->sites[0].G);
  AlgExpr *top = alg_sub(g, gr->sites[0].G, one(gr->w->c));
  for (int j = 0; j < gr->s; j++)
    for (int d = 0; d < 2; d++) {
      const GCoord *q = &gr->sites[j].c[d];
      if (q->K) {
        AlgExpr *kmax = alg_sub(g, q->K, one(gr->w->c));
        ok = alg_and(g, ok, alg_and(g, alg_cmp(g, ALG_CMP_LE, zero, gr->lo[d]), alg_cmp(g, ALG_CMP_LE, gr->hi[d], kmax)));
        if (d == 1) ok = alg_and(g, ok, alg_cmp(g, ALG_CMP_LE, kmax, top));
      } else if (d == 1) {
        AlgExpr *lo = gr->lo[1], *hi = gr->hi[1];
        narrow_minor(gr, gr->w->stages[gr->sites[j].stage].kguard, &lo, &hi, 0);
        ok = alg_and(g, ok, alg_and(g, alg_cmp(g, ALG_CMP_LE, zero, alg_add(g, lo, q->a)),
                                    alg_cmp(g, ALG_CMP_LE, alg_add(g, hi, q->a), top)));
      }
    }
  return ok;
}

/* 1 when site i of the walk is a use that never waits in a par that runs alone: its resource is
** not the group's and no other site of the walk uses it, it is a stage that names a member one to
** one in the branch (USE_OWN) and the same member in every iteration of the chain's loops
** (loop_free), with no copies of it at once (no par of the body around it). Each member then gets
** one request at a time, from one branch only: it acts as a delay of its duration (`use(cpu[i *
** Q + j], c)` before the halos). */
static int private_use(const OWalk *w, int i, const Decl *group_res) {
  const OSite *site = &w->sites[i];
  if (site->res == group_res || site->twin || !site->index) return 0;
  for (int k = 0; k < w->nsites; k++)
    if (k != i && w->sites[k].res == site->res) return 0;
  for (int j = 0; j < w->nstages; j++) {
    const OStage *st = &w->stages[j];
    if (st->site != i) continue;
    return st->cls == USE_OWN && st->loop_free && !st->reps && !st->held_end;
  }
  return 0;
}

/* Fills a from gr: 0 when the rule does not apply (the par may not run alone, a use of the
** family outside the group, holds). */
static int ahead_init(GAhead *a, const GGroup *gr) {
  const OWalk *w = gr->w;
  memset(a, 0, sizeof *a);
  a->gr = gr;
  if (w->c->concurrent || w->holds || w->too_many || !w->sites || w->subset) return 0;
  const Decl *res = w->stages[gr->sites[0].stage].res;
  int uses = 0;
  for (int i = 0; i < w->nsites; i++) uses += w->sites[i].res == res;
  if (uses != gr->s) return 0;
  for (int j = 0; j < gr->s; j++) {
    const OStage *st = &w->stages[gr->sites[j].stage];
    if (st->site < 0 || st->loops || st->reps) return 0;
  }
  for (int j = 0; j < gr->s; j++) {
    int at = w->stages[gr->sites[j].stage].site, alone = 1;
    for (int i = 0; i < at; i++)
      alone = alone && (order_of(&w->sites[i], &w->sites[at]) == GA_BESIDE || private_use(w, i, res));
    if (alone) a->first |= 1u << j;
  }
  for (int j = 0; j < gr->s; j++) {
    int at = w->stages[gr->sites[j].stage].site;
    a->known[j] = 1;
    for (int i = 0; i < at; i++) {
      GAOrder o = order_of(&w->sites[i], &w->sites[at]);
      if (o == GA_BESIDE || private_use(w, i, res)) continue;
      int k = -1;
      for (int q = 0; q < gr->s; q++) if (w->stages[gr->sites[q].stage].site == i) k = q;
      if (o == GA_BEFORE && k >= 0) a->before[j] |= 1u << k;
      if (o != GA_BEFORE || k < 0) a->known[j] = 0;
    }
  }
  a->whole = one_reading(gr);
  a->exact = alg_is_num(gr->m, 1) && !res->u.resource.handoff;
  for (int d = 0; d < 2; d++)   /* the grid's size known (a point): the conditions fold as they are
                                   built; with a symbolic size they do not, and the search grows */
    a->exact = a->exact && alg_kind(gr->lo[d]) == ALG_NUM && alg_kind(gr->hi[d]) == ALG_NUM;
  for (int j = 0; j < gr->s; j++) {
    a->chain[j] = a->known[j];
    for (int p = 0; p < gr->s; p++) {
      const OStage *st = &w->stages[gr->sites[p].stage];
      if ((a->before[j] & (1u << p)) && (st->gap || w->sites[st->site].path.depth)) a->chain[j] = 0;
    }
  }
  if (a->exact) a->memo = arena_alloc(&w->c->arena, GA_MAX_EXACT * sizeof *a->memo);
  return 1;
}

static AlgExpr *arrives_at_head(const GAhead *a, int j, AlgExpr *const x[2], int depth);

/* Where site f, made by the branch with coordinates x and arriving exactly at its contention-free
** head, is served at once: every other request at its member is queued after it (queued_before:
** its head, a lower bound on its arrival, is later, or no earlier and its branch comes after in
** program order). */
static AlgExpr *served_at_once(const GAhead *a, int f, AlgExpr *const x[2]) {
  const GGroup *gr = a->gr;
  AlgCtx *g = gr->w->c->alg;
  AlgExpr *at[2];
  GReq req[GRID_MAX_SITES];
  member_of(gr, f, x, at);
  grid_requests_at(gr, at, req);
  AlgExpr *head = grid_at_branch(gr, gr->w->stages[gr->sites[f].stage].head, x), *ok = a->whole;
  for (int q = 0; q < gr->s; q++)
    if (q != f) ok = alg_and(g, ok, alg_or(g, alg_not(g, req[q].run), queued_before(gr, head, req[q].head, x, req[q].x)));
  return ok;
}

/* Where the request of site j by the branch with coordinates x arrives exactly at its
** contention-free head: every use before it in its branch is a site of the group that the branch
** does not make, or that arrives so and is served at once (by induction over the run: only
** delays and requests served at once come before it). */
static AlgExpr *arrives_at_head(const GAhead *a, int j, AlgExpr *const x[2], int depth) {
  const GGroup *gr = a->gr;
  AlgCtx *g = gr->w->c->alg;
  if (!a->known[j] || depth > GRID_MAX_SITES) return alg_num_int(g, 0);
  AlgExpr *ok = one(gr->w->c);
  for (int f = 0; f < gr->s; f++) {
    if (!(a->before[j] & (1u << f))) continue;
    const OStage *st = &gr->w->stages[gr->sites[f].stage];
    AlgExpr *runs = st->kguard ? grid_at_branch(gr, st->kguard, x) : one(gr->w->c);
    AlgExpr *exact = (a->first & (1u << f)) ? one(gr->w->c) : arrives_at_head(a, f, x, depth + 1);
    ok = alg_and(g, ok, alg_or(g, alg_not(g, runs), alg_and(g, exact, served_at_once(a, f, x))));
  }
  return ok;
}

/* The earliest the request of site p by the branch with coordinates x can start: at p's member,
** any set B of requests that arrive at known instants before p's earliest arrival are all
** served before it (FCFS); when it starts, every one of B has started and at most m - 1 are
** still in service on the other servers, so at least sum_B t - (m - 1) max_B t of their service
** is done, at most m at a time, none before the least of their arrivals:
**   start >= min_B head + max(0, sum_B t - (m - 1) max_B t) / m
** The largest over the subsets B (each where its requests are such), or p's head. */
static AlgExpr *earliest_start(const GAhead *a, int p, AlgExpr *const x[2]) {
  const GGroup *gr = a->gr;
  RCtx *c = gr->w->c;
  AlgCtx *g = c->alg;
  AlgExpr *at[2], *ahead[GRID_MAX_SITES];
  GReq req[GRID_MAX_SITES];
  member_of(gr, p, x, at);
  grid_requests_at(gr, at, req);
  AlgExpr *head = grid_at_branch(gr, gr->w->stages[gr->sites[p].stage].head, x), *best = head;
  for (int q = 0; q < gr->s; q++)
    ahead[q] = q == p ? NULL
             : alg_and(g, alg_and(g, req[q].run, queued_before(gr, req[q].head, head, req[q].x, x)),
                       arrives_at_head(a, q, req[q].x, 0));
  unsigned all = (1u << gr->s) - 1;
  for (unsigned B = 1; B <= all; B++) {
    if (B & (1u << p)) continue;
    AlgExpr *ok = a->whole, *least = NULL, *sum = alg_num_int(g, 0), *most = NULL;
    for (int q = 0; q < gr->s; q++) {
      if (!(B & (1u << q))) continue;
      ok = alg_and(g, ok, ahead[q]);
      least = least ? alg_min(g, least, req[q].head) : req[q].head;
      most = most ? alg_max(g, most, req[q].t) : req[q].t;
      sum = alg_add(g, sum, req[q].t);
    }
    AlgExpr *done = alg_max(g, alg_num_int(g, 0), alg_sub(g, sum, alg_mul(g, alg_sub(g, gr->m, one(c)), most)));
    best = alg_max(g, best, alg_cond(g, ok, alg_add(g, least, alg_div(g, done, gr->m)), head));
  }
  return best;
}

/* The memo's record of (site j, branch x), made empty when new; NULL when the memo is full. */
static GTime *memo_of(GAhead *a, int j, AlgExpr *const x[2]) {
  for (int i = 0; i < a->nmemo; i++)
    if (a->memo[i].site == j && a->memo[i].x[0] == x[0] && a->memo[i].x[1] == x[1]) return &a->memo[i];
  if (a->nmemo >= GA_MAX_EXACT) return NULL;
  GTime *e = &a->memo[a->nmemo++];
  memset(e, 0, sizeof *e);
  e->site = j; e->x[0] = x[0]; e->x[1] = x[1];
  return e;
}

static int exact_start(GAhead *a, int j, AlgExpr *const x[2], int depth, AlgExpr **ok, AlgExpr **start);

/* The arrival of site j by the branch with coordinates x: its contention-free head plus the waits
** (start - arrival) of the sites before it that the branch makes (chain[j]: every use before it
** is one of those, outside forks, or a use that never waits; the rest of the run is delays, so
** the run reaches j that much later than without waits). Fills *ok (where it is exact, 0 when
** not known: beyond the depth, the memo, or in a cycle) and *arr; returns 1 when *ok may hold.
** Each request's times are found once per raise and remembered, also where a request below was
** met again (a cycle) or lay beyond the depth and read "not known": the conditions only use the
** ok of the requests below positively (and, or, the `ahead` of a cond whose alternative needs
** `after`), so a "not known" below narrows ok and leaves the time exact where ok holds; what is
** remembered is true, only weaker than a search from another request might find. (Found again
** instead, the search was exponential: 6,000 to 16,000 times for 60 requests of a 4 x 4 grid, and
** a proptest of 20,000 cases reached case 1,893 in 27 minutes.) */
static int exact_arrival(GAhead *a, int j, AlgExpr *const x[2], int depth, AlgExpr **ok, AlgExpr **arr) {
  const GGroup *gr = a->gr;
  AlgCtx *g = gr->w->c->alg;
  *arr = grid_at_branch(gr, gr->w->stages[gr->sites[j].stage].head, x);
  *ok = alg_num_int(g, 0);
  GTime *e = a->exact && a->chain[j] && depth <= GA_MAX_EXACT_DEPTH ? memo_of(a, j, x) : NULL;
  if (!e) return 0;
  if (e->arr) { *ok = e->arr_ok; *arr = e->arr; return !alg_is_num(*ok, 0); }
  if (e->busy_arr) return 0;   /* met again while being found: a cycle */
  e->busy_arr = 1;
  AlgExpr *sum = *arr, *all = one(gr->w->c);
  for (int p = 0; p < gr->s && !alg_is_num(all, 0); p++) {
    if (!(a->before[j] & (1u << p))) continue;
    const OStage *st = &gr->w->stages[gr->sites[p].stage];
    AlgExpr *runs = st->kguard ? grid_at_branch(gr, st->kguard, x) : one(gr->w->c);
    AlgExpr *pok, *pstart, *parr, *aok;
    exact_start(a, p, x, depth + 1, &pok, &pstart);
    exact_arrival(a, p, x, depth + 1, &aok, &parr);
    sum = alg_add(g, sum, alg_cond(g, runs, alg_sub(g, pstart, parr), alg_num_int(g, 0)));
    all = alg_and(g, all, alg_or(g, alg_not(g, runs), pok));
  }
  e->busy_arr = 0;
  e->arr_ok = all; e->arr = sum;   /* remembered even where a cycle read "not known" (below) */
  *ok = all; *arr = sum;
  return !alg_is_num(all, 0);
}

/* Rule (exact times, one server): in the par that runs alone, where one server serves each member
** without hand-off, a request j of branch x that arrives exactly at arr (exact_arrival) starts
** exactly at
**   max(arr, the ends of the requests queued before it)
** when every other request at its member is either queued after it (its head, a lower bound on
** its arrival, or its exact arrival, is later, or no earlier and its branch comes after in
** program order: queued_before) or arrives exactly at a known instant, is queued before it, and
** starts at a known instant (this rule at its own branch, one step deeper): FCFS with one server
** starts j once it is there and everything queued before it has ended. (Ties: an end and an
** arrival at one instant give the same start without hand-off, whichever event runs first. The
** events of an instant are in the heap before it starts, hence run in program order, where every
** duration is surely positive next to the time: j's t is required so.) The first-site rule above
** is the case with nothing ahead. Fills *ok (0 beyond the depth or the memo, or in a cycle) and
** *start; returns 1 when *ok may hold. */
static int exact_start(GAhead *a, int j, AlgExpr *const x[2], int depth, AlgExpr **ok, AlgExpr **start) {
  const GGroup *gr = a->gr;
  AlgCtx *g = gr->w->c->alg;
  AlgExpr *arr;
  if (!exact_arrival(a, j, x, depth, ok, &arr)) { *start = arr; return 0; }
  GTime *e = memo_of(a, j, x);   /* exact_arrival made it */
  if (e->start) { *ok = e->start_ok; *start = e->start; return !alg_is_num(*ok, 0); }
  if (e->busy_start) {
    *ok = alg_num_int(g, 0); *start = arr;
    return 0;
  }
  e->busy_start = 1;
  AlgExpr *at[2], *all = alg_and(g, *ok, a->whole), *st = arr;
  GReq req[GRID_MAX_SITES];
  member_of(gr, j, x, at);
  grid_requests_at(gr, at, req);
  for (int q = 0; q < gr->s && !alg_is_num(all, 0); q++) {
    if (q == j) continue;
    AlgExpr *after = alg_or(g, alg_not(g, req[q].run), queued_before(gr, arr, req[q].head, x, req[q].x));
    if (alg_is_num(after, 1)) continue;
    AlgExpr *aok, *qarr, *sok, *qstart;
    if (exact_arrival(a, q, req[q].x, depth + 1, &aok, &qarr))
      after = alg_or(g, after, alg_and(g, aok, queued_before(gr, arr, qarr, x, req[q].x)));
    if (alg_is_num(after, 1)) continue;
    exact_start(a, q, req[q].x, depth + 1, &sok, &qstart);
    AlgExpr *ahead = alg_and(g, alg_and(g, req[q].run, sok), queued_before(gr, qarr, arr, req[q].x, x));
    all = alg_and(g, all, alg_or(g, after, ahead));
    st = alg_max(g, st, alg_cond(g, ahead, alg_add(g, qstart, req[q].t), arr));
  }
  AlgExpr *t = grid_at_branch(gr, gr->w->stages[gr->sites[j].stage].t, x);
  all = alg_and(g, all, surely_before(g, st, alg_add(g, st, t)));
  e->busy_start = 0;
  e->start_ok = all; e->start = st;
  *ok = all; *start = st;
  return !alg_is_num(all, 0);
}

/* The earliest the requests of the branch with coordinates x can start, site by site in walk
** order (one server, exact_start known): p arrives no earlier than
**   lb_arr(p) = max(head_p, lb_start(f) + head_p - head_f)   over the sites f before p it makes
** (f outside `||`s that wait for more than its branch: from f's start the branch runs at least the
** contention-free path to p), and starts no earlier than the end of any request at its member that
** arrives exactly before it (queued_before against lb_arr) and starts at a known instant:
**   lb_start(p) = max(lb_arr(p), start_q + t_q)
** FCFS on one server: p starts after all the requests queued before it have ended. */
static void chain_starts(GAhead *a, AlgExpr *const x[2], AlgExpr **lb) {
  const GGroup *gr = a->gr;
  AlgCtx *g = gr->w->c->alg;
  for (int p = 0; p < gr->s; p++) {
    const OStage *st = &gr->w->stages[gr->sites[p].stage];
    AlgExpr *hp = grid_at_branch(gr, st->head, x), *arr = hp;
    for (int f = 0; f < p; f++) {
      const OStage *sf = &gr->w->stages[gr->sites[f].stage];
      if (!(a->before[p] & (1u << f)) || sf->gap) continue;
      AlgExpr *runs = sf->kguard ? grid_at_branch(gr, sf->kguard, x) : one(gr->w->c);
      AlgExpr *late = alg_add(g, lb[f], alg_sub(g, hp, grid_at_branch(gr, sf->head, x)));
      arr = alg_max(g, arr, alg_cond(g, runs, late, hp));
    }
    AlgExpr *at[2];
    GReq req[GRID_MAX_SITES];
    member_of(gr, p, x, at);
    grid_requests_at(gr, at, req);
    AlgExpr *start = arr;
    for (int q = 0; q < gr->s; q++) {
      if (q == p) continue;
      AlgExpr *aok, *qarr, *sok, *qstart;
      if (!exact_arrival(a, q, req[q].x, 1, &aok, &qarr)) continue;
      AlgExpr *ahead = alg_and(g, req[q].run, queued_before(gr, qarr, arr, req[q].x, x));
      if (alg_is_num(ahead, 0) || !exact_start(a, q, req[q].x, 1, &sok, &qstart)) continue;
      ahead = alg_and(g, ahead, sok);
      start = alg_max(g, start, alg_cond(g, ahead, alg_add(g, qstart, req[q].t), arr));
    }
    lb[p] = start;
  }
}

/* Rule (requests known ahead, lower bound): a par over pairs that runs alone and once at a time
** (RCtx.concurrent == 0: nothing beside it, and the family idle when it starts), every use of
** the FCFS family one of the group's sites (outside loops and pars of the body), each member's
** requests read one each from the coordinates (one_reading). A first site f (no use before it in
** its branch) arrives at its contention-free head, exactly: only delays come before it. Where
** every other request at its member is queued after it (queued_before: their heads, lower bounds,
** are later, or no earlier and their branches come after f's in program order, the order of the
** events of one instant), f is served at once and ends at head + t. A site j whose uses before
** it are all sites of the group that its branch skips or that arrive so and are served at once
** then arrives exactly at its head too (arrives_at_head, by induction over the run). At the member
** of a site p, the requests that arrive so and are queued before p are ahead of p in FCFS order,
** and p starts no earlier than earliest_start. A site j after p in its branch's run (p outside forks, so the
** path from p's start to j is contention-free at least head_j - head_p) arrives no earlier than
**   max(head_j, start_p + head_j - head_p)
** which the counted bound at j's member reads as its head. A checkerboard whose white cells
** compute 5 us, use their nic 4 us and send 1 us halos at once to their down and right
** neighbours, the black cells computing 10 us: the white halos reach a black nic at 9 us, the
** black cell's own use at 10 us waits until 11 us, its halos leave at 15 us and the white nics
** serve two each by 17 us, the simulated time (the heads alone: 16 us). A grid without wrap
** sending right, left, down and up one after the other (20 us, then 3 us a halo): cell (1, 1)'s
** left send reaches (1, 0) at 23 us with (0, 0)'s down send, which is queued first (program
** order), so its down send leaves at 29 us and its up send ends at 35 us, the simulated time
** (before: 32 us). FCFS is not monotone (a request from outside could change the order), hence
** the par alone. */
int grid_ahead_heads(const GGroup *gr, const GReq *req, AlgExpr **heads) {
  GAhead a;
  if (!ahead_init(&a, gr)) return 0;
  AlgCtx *g = gr->w->c->alg;
  int raised = 0;
  for (int j = 0; j < gr->s && a.exact; j++) {   /* one server: the chain of the branch's starts */
    AlgExpr *lb[GRID_MAX_SITES];
    chain_starts(&a, req[j].x, lb);
    heads[j] = alg_max(g, heads[j], lb[j]);
    raised = 1;
  }
  for (int j = 0; j < gr->s; j++)
    for (int p = 0; p < gr->s; p++) {
      const OStage *st = &gr->w->stages[gr->sites[p].stage];
      if (!(a.before[j] & (1u << p)) || st->gap) continue;
      AlgExpr *hp = grid_at_branch(gr, st->head, req[j].x);
      AlgExpr *late = alg_add(g, earliest_start(&a, p, req[j].x), alg_sub(g, req[j].head, hp));
      AlgExpr *runs = st->kguard ? grid_at_branch(gr, st->kguard, req[j].x) : one(gr->w->c);
      heads[j] = alg_cond(g, runs, alg_max(g, heads[j], late), heads[j]);
      raised = 1;
    }
  return raised;
}
