/*
** reduce_grid.c — the order-aware lower bound at one member of a grid written with two indices
** (docs/reduction.md, "A member of a grid counted"): `par (x) par (y)` whose uses name
** `nic[((x + 1) % Q) * Q + y]` and the like; the branches that request one member are found
** coordinate by coordinate, and any subset of their requests bounds the par below.
*/
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "reduce_grid.h"

/* Sites of one group the subsets are taken over (beyond: only the whole group). */
#define GRID_MAX_SUBSET_SITES 5

static AlgExpr *zero(RCtx *c) { return alg_num_int(c->alg, 0); }

/* e = v + a with a an integer free of v: a, else NULL. */
static AlgExpr *shift_of(RCtx *c, AlgExpr *e, AlgSymbol *v) {
  AlgExpr *slope = alg_diff(c->alg, e, v);
  if (!slope || !alg_is_num(slope, 1)) return NULL;
  AlgExpr *a = alg_expand(c->alg, alg_sub(c->alg, e, alg_sym(c->alg, v)));
  return !alg_contains(a, v) && order_integer_valued(c, a) ? a : NULL;
}

/* Reads term as (v + a) % K or v + a (K an integer free of the branch): 1, or 0. */
static int coord_of(OWalk *w, AlgExpr *term, AlgSymbol *v, GCoord *out) {
  RCtx *c = w->c;
  if (alg_kind(term) == ALG_MOD) {
    AlgExpr *K = alg_kid(term, 1);
    if (order_by_branch(w, K) || !order_integer_valued(c, K) || alg_bounds(c->alg, K).lo < 1) return 0;
    out->a = shift_of(c, alg_kid(term, 0), v);
    out->K = K;
    return out->a != NULL;
  }
  out->a = shift_of(c, term, v);
  out->K = NULL;
  return out->a != NULL;
}

/* Reads the member index of stage i as G * f(o) + h(n) + rest with o the major index (k when
** major is 0, k2 when 1): 1, or 0. */
static int site_of(OWalk *w, int i, int major, GSite *out) {
  RCtx *c = w->c;
  AlgCtx *g = c->alg;
  const OStage *st = &w->stages[i];
  AlgSymbol *o = major ? w->k2 : w->k, *n = major ? w->k : w->k2;
  AlgExpr *e = st->index;
  AlgExpr *aterm = order_term_of(e, o), *bterm = order_term_of(e, n);
  if (!aterm || !bterm || aterm == bterm || alg_contains(aterm, n) || alg_contains(bterm, o)) return 0;
  AlgExpr *f, *G;
  if (!order_split_factor(g, aterm, o, &f, &G) || order_by_branch(w, G)) return 0;
  memset(out, 0, sizeof *out);
  out->stage = i; out->major = major; out->G = G;
  out->rest = alg_expand(g, alg_sub(g, alg_sub(g, e, aterm), bterm));
  if (order_by_branch(w, out->rest)) return 0;
  return coord_of(w, f, o, &out->c[0]) && coord_of(w, bterm, n, &out->c[1]);
}

/* |x| when x is an integer number that fits a long (but LONG_MIN), else -1. */
static long small_int(AlgExpr *x) {
  int ok = 1;
  long v = alg_num_long(x, &ok);
  return !ok || v == LONG_MIN ? -1 : labs(v);
}

/* Reads here with the rest `rest` when the two differ by G d1 + d2 (d1, d2 integers): the major
** coordinate's shift gains d1 (not where it is taken modulo K), the minor's d2 (likewise), the
** member index unchanged (G (f + d1) + (h + d2) + rest = G f + h + here's rest when here's rest
** is rest + G d1 + d2). Of the d1 in -2 .. 2 the one that leaves d2 = 0, else the smallest
** integer d2: (i + 1) * Q + j, i * Q + j + 1 and i * Q + j - 1 read as i + 1, j + 1 and j - 1 over
** the rest 0. 1 when here now has that rest. */
static int align_rest(RCtx *c, AlgExpr *rest, GSite *here) {
  AlgCtx *g = c->alg;
  if (here->rest == rest) return 1;
  AlgExpr *diff = alg_expand(g, alg_sub(g, here->rest, rest)), *best = NULL;
  long least = -1, d1 = 0;
  for (long d = 0; d <= 4; d++) {
    long shift = d % 2 ? -(d + 1) / 2 : d / 2;   /* 0, -1, 1, -2, 2 */
    if (shift && here->c[0].K) continue;
    AlgExpr *r = alg_expand(g, alg_sub(g, diff, alg_mul(g, alg_num_int(g, shift), here->G)));
    long size = small_int(r);
    if (size < 0 || (size && here->c[1].K) || (least >= 0 && size >= least)) continue;
    least = size; best = r; d1 = shift;
  }
  if (!best) return 0;
  here->c[0].a = alg_add(g, here->c[0].a, alg_num_int(g, d1));
  here->c[1].a = alg_add(g, here->c[1].a, best);
  here->rest = rest;
  return 1;
}

/* 1 when stage st can be counted at a member: a use on an FCFS family, made once per branch
** (outside loops of the body or in one plain loop, not inside a par of the body, its member
** following no loop). */
static int grid_stage(const OStage *st) {
  if (!st->index || st->cls != USE_OWN || !st->loop_free || st->loops > 1 || (st->loops == 1 && !st->loop)) return 0;
  if (st->reps || st->kloop) return 0;
  return st->res->u.resource.count != NULL;
}

/* The branch coordinate whose site coordinate is u: u - a (v + a), or (u - a) % K ((v + a) % K,
** which is u there only when 0 <= u <= K - 1: *ok gains that condition). */
static AlgExpr *sender(RCtx *c, const GCoord *q, AlgExpr *u, AlgExpr **ok) {
  AlgCtx *g = c->alg;
  AlgExpr *x = alg_sub(g, u, q->a);
  if (!q->K) return x;
  *ok = alg_and(g, *ok, alg_and(g, alg_cmp(g, ALG_CMP_LE, zero(c), u),
                                alg_cmp(g, ALG_CMP_LE, u, alg_sub(g, q->K, alg_num_int(g, 1)))));
  return alg_mod(g, x, q->K);
}

/* e (an expression of the branch) at the branch with coordinates x (major, minor). */
AlgExpr *grid_at_branch(const GGroup *gr, AlgExpr *e, AlgExpr *const x[2]) {
  AlgCtx *g = gr->w->c->alg;
  return alg_subst(g, alg_subst(g, e, gr->idx[0], x[0]), gr->idx[1], x[1]);
}

/* The request each site of gr makes at the member with coordinates at: the branch whose
** coordinates are f^-1(at[0]) and h^-1(at[1]) (sender), which makes it where that branch is in
** the par's range and the `if`s on the branch around the site hold there. */
void grid_requests_at(const GGroup *gr, AlgExpr *const at[2], GReq *out) {
  RCtx *c = gr->w->c;
  AlgCtx *g = c->alg;
  for (int j = 0; j < gr->s; j++) {
    const OStage *o = &gr->w->stages[gr->sites[j].stage];
    GReq *r = &out[j];
    AlgExpr *ok = alg_num_int(g, 1);
    for (int d = 0; d < 2; d++) {
      r->x[d] = sender(c, &gr->sites[j].c[d], at[d], &ok);
      ok = alg_and(g, ok, alg_and(g, alg_cmp(g, ALG_CMP_LE, gr->lo[d], r->x[d]), alg_cmp(g, ALG_CMP_LE, r->x[d], gr->hi[d])));
    }
    r->run = alg_and(g, ok, o->kguard ? grid_at_branch(gr, o->kguard, r->x) : alg_num_int(g, 1));
    r->head = grid_at_branch(gr, o->head, r->x);
    r->t = grid_at_branch(gr, o->t, r->x);
    r->tail = grid_at_branch(gr, order_tail(gr->w, o, gr->total), r->x);
  }
}

/* min over the sites j of S that request (run[j] true) of v[j]: over all of S of
** `run ? v : the largest v of S`. */
static AlgExpr *least_running(RCtx *c, unsigned S, AlgExpr **run, AlgExpr **v, int n) {
  AlgCtx *g = c->alg;
  AlgExpr *top = NULL, *best = NULL;
  for (int j = 0; j < n; j++) if (S & (1u << j)) top = top ? alg_max(g, top, v[j]) : v[j];
  for (int j = 0; j < n; j++) {
    if (!(S & (1u << j))) continue;
    AlgExpr *x = alg_cond(g, run[j], v[j], top);
    best = best ? alg_min(g, best, x) : x;
  }
  return best;
}

/* The bound of the rule below at one member over every subset S of its s requests (each made
** where run[j] holds; only the whole set beyond GRID_MAX_SUBSET_SITES), the largest:
** min_S head + max(ceil(|S| / m) * min_S t, sum_S t / m) + min_S tail where |S| >= 1. */
static AlgExpr *subsets_bound(RCtx *c, AlgExpr *m, int s, AlgExpr **run, AlgExpr **head, AlgExpr **t,
                              AlgExpr **tail) {
  AlgCtx *g = c->alg;
  AlgExpr *one = alg_num_int(g, 1), *best = NULL;
  unsigned all = (1u << s) - 1;
  for (unsigned S = s > GRID_MAX_SUBSET_SITES ? all : 1; S <= all; S++) {
    AlgExpr *count = zero(c), *sum = zero(c);
    for (int j = 0; j < s; j++) {
      if (!(S & (1u << j))) continue;
      count = alg_add(g, count, alg_cond(g, run[j], one, zero(c)));
      sum = alg_add(g, sum, alg_cond(g, run[j], t[j], zero(c)));
    }
    AlgExpr *serve = alg_max(g, alg_mul(g, alg_func(g, ALG_CEIL, alg_div(g, count, m)), least_running(c, S, run, t, s)),
                             alg_div(g, sum, m));
    AlgExpr *bound = alg_add(g, alg_add(g, least_running(c, S, run, head, s), serve), least_running(c, S, run, tail, s));
    bound = alg_cond(g, alg_cmp(g, ALG_CMP_GE, count, one), bound, zero(c));
    best = best ? alg_max(g, best, bound) : bound;
  }
  return best;
}

/* Rule (order-aware lower bound, a member of a grid counted): sites of one FCFS family of a par
** over pairs (x, y), each naming member G * f(o) + h(n) + rest (o, n: x and y in either order,
** the same for all of them, G and rest free of both), f and h of the form v + a or (v + a) % K
** (a, K integers free of the branch), under the same conditions free of the branch and in the
** same loop. The member with coordinates (u, v) gets a request from site j made by the branch
** whose coordinates are f_j^-1(u) and h_j^-1(v) (u - a, or (u - a) % K where 0 <= u <= K - 1),
** when that branch is in the par's range and the guard of the `if`s on the branch around site j
** holds there (run_j): each such request is real, with a known head, duration and tail. For any
** subset S of these requests (at least one running) no server of the member starts one before
** the least head of S, the busiest of its m servers serves ceil(|S| / m) of them one after
** another, all serve their sum at most m at a time, and the branch whose request ends last still
** runs its tail:
**   T >= min_S head + max(ceil(|S| / m) * min_S t, sum_S t / m) + min_S tail
** Taken at the members (u, v) with u, v the middle of their index's range or one more (both
** colours of a checkerboard), the corner, and the middle of one index with one in from the
** edge of the other (where the short chains of the edge cells meet the long ones), over every subset (the requests that come late, alone, can bound
** more than all of them with the earliest head). A red/black torus whose black cells compute
** longer: a red member gets its two halos from black cells late, after their long compute and
** their own pack. Returns the bound of the group stage i leads (not yet over its loop), or NULL. */
static AlgExpr *grid_group(OWalk *w, int i, int major, AlgExpr *total) {
  RCtx *c = w->c;
  AlgCtx *g = c->alg;
  const OStage *st = &w->stages[i];
  GSite sites[GRID_MAX_SITES];
  int s = 0;
  if (!grid_stage(st) || !site_of(w, i, major, &sites[0])) return NULL;
  align_rest(c, zero(c), &sites[0]);   /* the rest 0 where it reads so: the members counted are
                                          then the middle ones of the coordinates' ranges */
  for (int j = 0; j < w->nstages; j++) {
    const OStage *o = &w->stages[j];
    if (o->res != st->res || o->guard != st->guard || o->loop != st->loop || !grid_stage(o)) continue;
    GSite here;
    if (!site_of(w, j, major, &here) || here.G != sites[0].G || !align_rest(c, sites[0].rest, &here)) continue;
    if (j < i) return NULL;   /* an earlier stage leads this group */
    if (j == i) continue;
    if (s + 1 == GRID_MAX_SITES) return NULL;
    sites[++s] = here;
  }
  s++;
  if (s < 2) return NULL;
  GGroup *gr = arena_alloc(&c->arena, sizeof *gr);
  memset(gr, 0, sizeof *gr);
  gr->w = w; gr->s = s; gr->total = total; gr->m = reduce_mult(c, st->res);
  memcpy(gr->sites, sites, (size_t)s * sizeof *sites);
  gr->idx[0] = major ? w->k2 : w->k; gr->idx[1] = major ? w->k : w->k2;
  gr->lo[0] = major ? w->k2a : w->ka; gr->lo[1] = major ? w->ka : w->k2a;
  gr->hi[0] = major ? w->k2b : w->kb; gr->hi[1] = major ? w->kb : w->k2b;
  AlgExpr *best = NULL;
  for (int target = 0; target < 9; target++) {
    AlgExpr *at[2], *run[GRID_MAX_SITES], *head[GRID_MAX_SITES], *t[GRID_MAX_SITES], *tail[GRID_MAX_SITES];
    GReq req[GRID_MAX_SITES];
    for (int d = 0; d < 2; d++) {  /* the middle or one more in each index; the corner; the middle
                                      of one index and one in from the edge of the other, or three
                                      in (where a wait at the edge passes on: on a line, rank 2's
                                      second send reaches nic[3] late after its first met rank 0's) */
      AlgExpr *mid = alg_add(g, gr->lo[d], alg_func(g, ALG_FLOOR, alg_div(g, alg_sub(g, gr->hi[d], gr->lo[d]), alg_num_int(g, 2))));
      AlgExpr *inner = alg_add(g, gr->lo[d], alg_num_int(g, target >= 7 ? 3 : 1));
      at[d] = target == 4 ? gr->lo[d]
            : target >= 7 ? ((target - 7) == d ? inner : mid)
            : target >= 5 ? ((target - 5) == d ? inner : mid)
            : alg_add(g, mid, alg_num_int(g, (target >> d) & 1));
    }
    grid_requests_at(gr, at, req);
    for (int j = 0; j < s; j++) { run[j] = req[j].run; head[j] = req[j].head; t[j] = req[j].t; tail[j] = req[j].tail; }
    grid_ahead_heads(gr, req, head);   /* reduce_grid_ahead.c: heads known to be later */
    AlgExpr *bound = subsets_bound(c, gr->m, s, run, head, t, tail);
    best = best ? alg_max(g, best, bound) : bound;
  }
  return best;
}

/* e of the flat walk w over the digits (o, n) of its index; NULL when it reads the index
** otherwise (order_split_digits). e may be NULL (nothing to read: NULL back, *ok kept). */
static AlgExpr *as_digits(const OWalk *w, AlgExpr *e, AlgExpr *Q, AlgSymbol *o, AlgSymbol *n, int *ok) {
  AlgCtx *g = w->c->alg;
  if (!e || !*ok) return e;
  AlgExpr *d = order_split_digits(w->c, e, w->k, Q, alg_sym(g, o), alg_sym(g, n));
  if (!d || alg_contains(d, w->k)) *ok = 0;
  return d;
}

/* Rule (a grid written with one index, read as digits): par (p = 0, Q * Q - 1) whose uses name
** members through floor(p / Q), p % Q, p and (p + c Q) % (Q * Q) (Q found in a member or in the
** `if`s on p around a use): p is Q o + n with
** o = floor(p / Q) and n = p % Q, both over 0 .. Q - 1, one pair per p and one p per pair, so the
** par is the par over the pairs (o, n) with every expression of the walk rewritten exactly
** (order_split_digits): the rules above read that walk. Returns it (with *total rewritten), or
** NULL when the par or an expression is not of that form. */
static OWalk *flat_as_pairs(OWalk *w, AlgExpr **total) {
  RCtx *c = w->c;
  AlgCtx *g = c->alg;
  AlgExpr *Q = NULL;
  for (int i = 0; i < w->nstages && !Q; i++)
    if (w->stages[i].index) Q = order_digit_base(c, w->stages[i].index, w->k);
  for (int i = 0; i < w->nstages && !Q; i++)   /* or in a guard: `if (p % Q > 0) use(nic[p - 1], m)` */
    if (w->stages[i].kguard) Q = order_digit_base(c, w->stages[i].kguard, w->k);
  if (!Q || order_by_branch(w, Q) || !order_integer_valued(c, Q) || alg_bounds(g, Q).lo < 1) return NULL;
  AlgExpr *one = alg_num_int(g, 1), *last = alg_sub(g, Q, one);
  if (!alg_is_num(alg_expand(g, w->ka), 0) ||
      !alg_is_num(alg_expand(g, alg_sub(g, w->kb, alg_sub(g, alg_mul(g, Q, Q), one))), 0))
    return NULL;
  AlgSymbol *o = alg_index_new(g, "o", alg_num_int(g, 0), last), *n = alg_index_new(g, "n", alg_num_int(g, 0), last);
  OWalk *pw = arena_alloc(&c->arena, sizeof *pw);
  *pw = *w;
  int ok = 1;
  for (int i = 0; i < pw->nstages; i++) {
    OStage *st = &pw->stages[i];
    st->index = as_digits(w, st->index, Q, o, n, &ok);
    st->t = as_digits(w, st->t, Q, o, n, &ok);
    st->head = as_digits(w, st->head, Q, o, n, &ok);
    st->lohead = NULL;   /* no rule of the grid reads release dates */
    st->gap = as_digits(w, st->gap, Q, o, n, &ok);
    st->kguard = as_digits(w, st->kguard, Q, o, n, &ok);
  }
  *total = as_digits(w, *total, Q, o, n, &ok);
  if (!ok) return NULL;
  pw->k = o; pw->ka = alg_num_int(g, 0); pw->kb = last;
  pw->k2 = n; pw->k2a = alg_num_int(g, 0); pw->k2b = last;
  pw->n = alg_mul(g, Q, Q);
  return pw;
}

/* Rule (a line read as one row of a grid): par (p = 0, L - 1) whose uses of families name members
** p + a (a an integer free of p): p is L o + n with o = 0 and n = p over 0 .. L - 1, one pair per
** p and one p per pair, so the par is the par over the pairs (o, n), o over 0 .. 0, with member
** indices rewritten to L o + (n + a) (equal to p + a where o = 0) and every other expression of
** the walk to p = n: the rules above read that walk, a member L o + v read as the row o, column v
** of a grid of L columns (the groups' requests are counted from branches the ranges and the
** `if`s keep, so a member one row in, o = 1, gets none). `if (p > 0) use(nic[p - 1], m); if (p <
** P - 1) use(nic[p + 1], m)`: rank 0's first send and rank 2's first send meet at nic[1] at the
** same instant. Returns the walk (with *total rewritten), or NULL. */
static OWalk *line_as_pairs(OWalk *w, AlgExpr **total) {
  RCtx *c = w->c;
  AlgCtx *g = c->alg;
  if (!alg_is_num(alg_expand(g, w->ka), 0) || order_by_branch(w, w->kb)) return NULL;
  AlgExpr *L = alg_add(g, w->kb, alg_num_int(g, 1)), *zero_ = zero(c);
  AlgSymbol *o = alg_index_new(g, "o", zero_, zero_), *n = alg_index_new(g, "n", zero_, w->kb);
  AlgExpr *at_n = alg_sym(g, n), *at_pair = alg_add(g, alg_mul(g, L, alg_sym(g, o)), at_n);
  OWalk *pw = arena_alloc(&c->arena, sizeof *pw);
  *pw = *w;
  int sites = 0;
  for (int i = 0; i < pw->nstages; i++) {
    OStage *st = &pw->stages[i];
    if (st->index && alg_contains(st->index, w->k)) {
      if (!st->res->u.resource.count || !shift_of(c, st->index, w->k)) return NULL;   /* p + a alone */
      st->index = alg_subst(g, st->index, w->k, at_pair);
      sites++;
    }
    st->t = st->t ? alg_subst(g, st->t, w->k, at_n) : NULL;
    st->head = st->head ? alg_subst(g, st->head, w->k, at_n) : NULL;
    st->lohead = NULL;
    st->gap = st->gap ? alg_subst(g, st->gap, w->k, at_n) : NULL;
    st->kguard = st->kguard ? alg_subst(g, st->kguard, w->k, at_n) : NULL;
  }
  if (sites < 2) return NULL;
  *total = *total ? alg_subst(g, *total, w->k, at_n) : NULL;
  pw->k = o; pw->ka = zero_; pw->kb = zero_;
  pw->k2 = n; pw->k2a = zero_; pw->k2b = w->kb;
  pw->n = L;
  return pw;
}

/* Rule (a column read as a grid of one column): par (p = a, b) whose uses of families name members
** G p + r (G an integer free of the branch, G >= 1, the same in every use; r free of p): p is the
** pair (p, 0) of a grid of G columns, member G p + 0 + r, equal to it, so the rules above read it
** (requests of one instant in program order, arrivals known down the run). A wavefront's
** diagonal, `par (i) nw(i, d - i)` with sends to (i + 1) Q + (d - i) and i Q + (d - i) + 1: G =
** Q - 1, and rank i's south send meets rank i + 1's east send at one member at one instant. */
static OWalk *column_as_pairs(OWalk *w) {
  RCtx *c = w->c;
  AlgCtx *g = c->alg;
  AlgExpr *G = NULL, *zero_ = zero(c);
  int sites = 0;
  for (int i = 0; i < w->nstages; i++) {
    AlgExpr *e = w->stages[i].index;
    if (!e || !alg_contains(e, w->k)) continue;
    AlgExpr *slope = alg_diff(g, e, w->k);
    if (!slope || alg_contains(slope, w->k) || !w->stages[i].res->u.resource.count) return NULL;
    slope = alg_expand(g, slope);
    if (G && !alg_is_num(alg_expand(g, alg_sub(g, G, slope)), 0)) return NULL;
    G = slope;
    sites++;
  }
  if (sites < 2 || order_by_branch(w, G) || !order_integer_valued(c, G) || alg_bounds(g, G).lo < 1) return NULL;
  AlgSymbol *n = alg_index_new(g, "n", zero_, zero_);
  OWalk *pw = arena_alloc(&c->arena, sizeof *pw);
  *pw = *w;
  for (int i = 0; i < pw->nstages; i++) {
    OStage *st = &pw->stages[i];
    if (!st->index || !alg_contains(st->index, w->k)) continue;
    AlgExpr *rest = alg_expand(g, alg_sub(g, st->index, alg_mul(g, G, alg_sym(g, w->k))));
    if (alg_contains(rest, w->k)) return NULL;
    st->index = alg_add(g, alg_mul(g, G, alg_sym(g, w->k)), alg_add(g, alg_sym(g, n), rest));
  }
  pw->k2 = n; pw->k2a = zero_; pw->k2b = zero_;
  return pw;
}

/* The rule above over the groups of a par over pairs, each over its loop; NULL when none. A par
** over one index that reads as a grid (flat_as_pairs), or as a line (line_as_pairs), is read over
** its pairs. */
AlgExpr *order_grid_lower(OWalk *w, AlgExpr *total) {
  if (!w->k2) {
    OWalk *pairs = flat_as_pairs(w, &total);
    if (!pairs) pairs = line_as_pairs(w, &total);
    if (!pairs) pairs = column_as_pairs(w);
    if (!pairs) return NULL;
    w = pairs;
  }
  AlgExpr *best = NULL;
  for (int i = 0; i < w->nstages; i++)
    for (int major = 0; major < 2; major++) {
      AlgExpr *group = grid_group(w, i, major, total);
      if (!group) continue;
      AlgExpr *lo = order_closed(w->c, order_over_loop(w->c, &w->stages[i], group));
      if (lo) best = best ? alg_max(w->c->alg, best, lo) : lo;
    }
  return best;
}
