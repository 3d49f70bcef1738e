/*
** reduce_fork.c — the rules for a par whose branches send at once, with `||` inside the body
** (docs/reduction.md, "Pars whose branches send at once"): the wait of each use site from the
** number of clients a member can have (bounded clients, an upper bound), and the order-aware lower
** bound for a member that several one-to-one sites request. The body is walked by reduce_order.c.
*/
#include <string.h>

#include "reduce_order.h"

static AlgExpr *zero(RCtx *c) { return alg_num_int(c->alg, 0); }

/* How many branches name one member of a site's family: 1 when its member is one-to-one in the
** branch, at most d.most when the members are dealt round robin or in blocks (n where the rule's
** condition fails: no member is named by more than the n branches, the family's members taken as
** one for the par's branches, an approximation noted where the bound uses it:
** reduce_note_counted); NULL for any other map. */
static AlgExpr *member_branches(OWalk *w, const OSite *site) {
  RCtx *c = w->c;
  if (!site->res->u.resource.count) return NULL;
  if (order_injective(w, site->index)) return alg_num_int(c->alg, 1);
  ODealt d;
  if (!order_dealt(w, site->res, site->index, &d)) return NULL;
  AlgExpr *n = alg_max(c->alg, zero(c), w->n);
  w->dealt = 1;
  if (alg_is_num(d.holds, 1)) return d.most;
  reduce_note_counted(c, site->res, d.holds);   /* reduce_approx.c */
  return alg_cond(c->alg, d.holds, d.most, n);
}

/* Rule (clients of a member that follows a loop of the body): a site whose member e(k, j) names
** the indices j of loops of the body, with e one-to-one (or dealt) in the branch for every
** value of j held fixed, is named at member q by at most member_branches branches for each
** value of j, so by at most member_branches times the number of values the j take over all
** branches (site->values) over the whole run, however the branches drift apart; a branch's
** requests of the site come one at a time. Rank p sending to (p + j) % P for j = 1 .. 1 + p % 3:
** at most 3 clients a member. NULL when member_branches is, or the values are unknown. */
static AlgExpr *looped_branches(OWalk *w, const OSite *site) {
  AlgExpr *per = member_branches(w, site);
  if (site->loop_free || !per) return per;
  if (!site->values) return NULL;
  w->dealt = 1;   /* a count over the whole run: the family as one resource may be the tighter */
  return alg_min(w->c->alg, alg_mul(w->c->alg, per, site->values), alg_max(w->c->alg, zero(w->c), w->n));
}

/* How many requests one site can have outstanding at any one member: the branches that name the
** member (member_branches: 1 when it is one-to-one in the branch, whose requests of the site come
** one at a time; a block or a residue class of branches when dealt; looped_branches when it
** follows a loop of the body), n when every branch names the same member (or a plain resource);
** NULL when it is none of these; each times the copies a par inside the body makes of the
** site. */
AlgExpr *fork_site_clients(OWalk *w, const OSite *site) {
  RCtx *c = w->c;
  if (!site->index || !order_by_branch(w, site->index)) {
    if (!site->loop_free) return NULL;
    return alg_mul(c->alg, site->copies, alg_max(c->alg, zero(c), w->n));
  }
  AlgExpr *per = looped_branches(w, site);
  return per ? alg_mul(c->alg, per, site->copies) : NULL;
}

/* How many of the sites listed in set (n of them, all at fork level `level` of their paths and
** alike below it) can have a request outstanding at once, from what the forks allow: the sites
** directly at this level run one after another (a block's statements, a loop's iterations, an
** `if`'s sides), and so do the forks at this level; a `||` runs its branches at once (their
** widths add), a par its copies (its body's width times the copies). A site with too deep a path
** counts as parallel to all (the widths add). */
AlgExpr *fork_width(OWalk *w, const int *set, int n, int level) {
  RCtx *c = w->c;
  AlgCtx *g = c->alg;
  AlgExpr *best = zero(c), *deep = zero(c);
  int done[ORDER_MAX_SITES] = {0};
  for (int i = 0; i < n; i++) {
    const OPath *p = &w->sites[set[i]].path;
    if (done[i]) continue;
    if (p->deep) { deep = alg_add(g, deep, alg_num_int(g, 1)); continue; }
    if (p->depth == level) { best = alg_max(g, best, alg_num_int(g, 1)); continue; }
    /* the fork at this level: the sites of set inside it, branch by branch */
    AlgExpr *fork = zero(c);
    int arms_done[ORDER_MAX_SITES] = {0};
    for (int j = i; j < n; j++) {
      const OPath *q = &w->sites[set[j]].path;
      if (arms_done[j] || q->deep || q->depth == level || q->fork[level] != p->fork[level]) continue;
      int arm[ORDER_MAX_SITES], narm = 0;
      for (int k = j; k < n; k++) {
        const OPath *r = &w->sites[set[k]].path;
        if (r->deep || r->depth == level || r->fork[level] != p->fork[level] || r->arm[level] != q->arm[level])
          continue;
        arms_done[k] = done[k] = 1;
        arm[narm++] = set[k];
      }
      fork = alg_add(g, fork, fork_width(w, arm, narm, level + 1));
    }
    if (p->copies[level]) fork = alg_mul(g, p->copies[level], fork);
    best = alg_max(g, best, fork);
  }
  return alg_add(g, best, deep);
}

/* Clients and work of the sites of res at one member, from site_clients: a site whose member does
** not follow the branch counts clients(site) (n times its copies); the sites with the same member
** map that follows the branch name a member from member_branches branches only (one when it is
** one-to-one), so together they count that many times the width of their places in the forks
** (width), each request at most their longest. NULL when a site is not bounded. *work: the sum
** over the clients of their longest request. */
static AlgExpr *member_clients(OWalk *w, const Decl *res, AlgExpr **work) {
  RCtx *c = w->c;
  AlgCtx *g = c->alg;
  AlgExpr *count = zero(c);
  *work = zero(c);
  int grouped[ORDER_MAX_SITES] = {0};
  for (int i = 0; i < w->nsites; i++) {
    const OSite *site = &w->sites[i];
    if (site->res != res || site->twin || grouped[i]) continue;
    AlgExpr *clients = fork_site_clients(w, site);
    if (!clients) return NULL;
    if (!site->index || !order_by_branch(w, site->index)) {
      count = alg_add(g, count, clients);
      *work = alg_add(g, *work, alg_mul(g, clients, site->tmax));
      continue;
    }
    int same[ORDER_MAX_SITES], nsame = 0;
    AlgExpr *t_max = zero(c);
    for (int j = i; j < w->nsites; j++) {
      const OSite *o = &w->sites[j];
      if (o->res != res || o->twin || o->index != site->index || !fork_site_clients(w, o)) continue;
      grouped[j] = 1;
      same[nsame++] = j;
      t_max = alg_max(g, t_max, o->tmax);
    }
    AlgExpr *wide = alg_mul(g, looped_branches(w, site), fork_width(w, same, nsame, 0));
    count = alg_add(g, count, wide);
    *work = alg_add(g, *work, alg_mul(g, wide, t_max));
  }
  return count;
}

/* Rule (bounded clients): for every resource r of the body, each of its sites (a use met by the
** walk, not replicated by a par inside the body; the two sides of an `if` on k paired as one)
** has at most clients(site) requests outstanding at a member, so a member has at most
** C = sum of the clients of r's sites present at once. An FCFS request finds at most C - 1 others
** ahead of it; while it waits all m servers serve them, each server starting one of them at
** least every t_max, so it waits at most
**   min(max(0, ceil((C - m) / m)) * t_max, max(0, S - t_max(site)) / m)
** with S = sum over r's sites of clients * t_max(site) (the work of the others ahead, shared by
** the m busy servers); on ps(c), ps_site_wait. Sets each site's wait; 0 when a site is not
** bounded or r has a hand-off. */
int fork_waits(OWalk *w) {
  RCtx *c = w->c;
  AlgCtx *g = c->alg;
  for (int i = 0; i < w->nsites; i++) {
    const Decl *res = w->sites[i].res;
    int done = 0;
    for (int j = 0; j < i && !done; j++) done = w->sites[j].res == res;
    if (done) continue;
    if (res->u.resource.handoff) return 0;
    AlgExpr *work, *t_max = zero(c);
    AlgExpr *count = member_clients(w, res, &work);
    if (!count) return 0;
    if (res->u.resource.discipline == DISC_PS) {   /* reduce_ps_order.c */
      for (int j = i; j < w->nsites; j++)
        if (w->sites[j].res == res) w->sites[j].wait = ps_site_wait(w, res, count, w->sites[j].tmax);
      continue;
    }
    for (int j = i; j < w->nsites; j++)
      if (w->sites[j].res == res && !w->sites[j].twin) t_max = alg_max(g, t_max, w->sites[j].tmax);
    AlgExpr *m = reduce_mult(c, res);
    AlgExpr *rounds = alg_max(g, zero(c), alg_func(g, ALG_CEIL, alg_div(g, alg_sub(g, count, m), m)));
    AlgExpr *queue = alg_mul(g, rounds, t_max);
    AlgExpr *spaced = order_spaced(w, res);   /* reduce_spaced.c: where no request waits */
    for (int j = i; j < w->nsites; j++) {
      OSite *site = &w->sites[j];
      if (site->res != res) continue;
      AlgExpr *ahead = alg_div(g, alg_max(g, zero(c), alg_sub(g, work, site->tmax)), m);
      site->wait = alg_min(g, queue, ahead);
      if (spaced) site->wait = alg_cond(g, spaced, zero(c), site->wait);
    }
  }
  return 1;
}

/* Rule (bounded clients, a resource's waits capped by its demand; upper bound): for a plain
** FCFS resource r without hand-off that a branch requests more than once (two sites, or a site
** in a loop of the body), the waits of one branch at r add up to at most D_r(whole) / m_r. Follow
** the branch's critical path back from its end: it is a sequence of activities, each of which
** waited before it was served; its waits at r are disjoint in time, and during each all m_r
** servers of r serve requests other than the waiting one, each of which is served once in the
** run of the par (alone, as every U): m_r times their total is at most D_r(whole). So the time of
** the branch is at most the longest path through its body with every other site lengthened by
** its bounded-clients wait and these sites by none, plus D_r(whole) / m_r for each such r. The
** bounded clients charge each request of r its own wait, up to the demand of all the others,
** so a branch that scatters through a root's nic and gathers through it again paid twice the
** root's demand. Sets the waits of those sites to 0 and returns the sum over their resources of
** D_r(whole) / m_r (whole: the par's summary), or NULL when no resource qualifies. */
AlgExpr *fork_cap_waits(OWalk *w, const Summary *whole) {
  RCtx *c = w->c;
  AlgCtx *g = c->alg;
  AlgExpr *extra = NULL;
  for (int i = 0; i < w->nsites; i++) {
    const Decl *res = w->sites[i].res;
    int done = 0, sites = 0, looped = 0;
    for (int j = 0; j < i && !done; j++) done = w->sites[j].res == res;
    if (done || res->u.resource.count || res->u.resource.discipline != DISC_FCFS || res->u.resource.handoff) continue;
    for (int j = i; j < w->nsites; j++)
      if (w->sites[j].res == res) { sites++; looped |= w->sites[j].looped; }
    if (sites < 2 && !looped) continue;
    for (int j = i; j < w->nsites; j++)
      if (w->sites[j].res == res) w->sites[j].wait = zero(c);
    AlgExpr *cap = alg_div(g, reduce_demand_hi(c, whole, res), reduce_mult(c, res));
    AlgExpr *spaced = order_spaced(w, res);   /* reduce_spaced.c: where no request waits */
    if (spaced) cap = alg_cond(g, spaced, zero(c), cap);
    extra = extra ? alg_add(g, extra, cap) : cap;
  }
  return extra;
}

/* 1 when st can join a group of the lower bound below: a use on an FCFS family whose member is
** one-to-one in the branch and follows no loop of the body, outside loops or in one plain loop
** of the body, with at least as many branches as members (so its members are all of them). */
static int onto_site(OWalk *w, const OStage *st) {
  RCtx *c = w->c;
  const Decl *res = st->res;
  int ps = st->cls == USE_PS && st->index && res->u.resource.count && order_injective(w, st->index);
  if ((st->cls != USE_OWN && !ps) || st->kguard || !st->loop_free || st->loops > 1 || (st->loops == 1 && !st->loop)) return 0;
  if (st->reps > 1 || (st->rep && st->guard && alg_contains(st->guard, st->rep))) return 0;
  if (!res->u.resource.count) return 0;
  REnv none;
  memset(&none, 0, sizeof none);
  AlgExpr *size = reduce_expr(c, &none, res->u.resource.count);
  return alg_is_nonneg(c->alg, alg_sub(c->alg, w->n, size));
}

/* 1 when st names one member for all branches (a plain resource, or a member free of the branch
** index) of an FCFS resource, outside pars of the body, outside loops or in one plain loop: its
** member gets n requests from it (per iteration of the loop). */
static int fixed_site(OWalk *w, const OStage *st) {
  int ps = st->cls == USE_PS && (!st->index || !order_by_branch(w, st->index));
  if ((st->cls != USE_STAGE && !ps) || st->kguard || st->reps || st->loops > 1 || (st->loops == 1 && !st->loop)) return 0;
  return 1;
}

/* x (of the branch and of the par inside the body around st, if any) at its least over both. */
static AlgExpr *least(OWalk *w, const OStage *st, AlgExpr *x) {
  if (st->rep) x = alg_min_over(w->c->alg, st->rep, st->rep_lo, st->rep_hi, x);
  return order_over_branches(w, ALG_MINOVER, x);
}

/* Rule (order-aware lower bound, a member requested by several sites): s sites of the body on
** family r, each one-to-one onto r's members (onto_site), under the same conditions and in the
** same loop: every member q gets exactly one request from each (per iteration of the loop; a site
** inside a par of the body from each of its copies, heads and tails taken over the copies too;
** with them the sites that name one fixed member q for all branches, n requests each: fixed_site),
** none before the least head, so
**   T >= min head + max(ceil(s / m) * min t, sum over the sites of min_k t / m) + min tail
** where a site's tail is what its branch still runs after the request: the rest of its own
** branch of each `||` around it and what follows (order_tail). The busiest of q's m FCFS servers
** serves ceil(s / m) of the s requests one after another, all together serve the sum at most m
** at a time, and the branch whose request ends last still runs its tail. On an FCFS family the
** sites' least heads are release dates (reduce_release.c): from the least head of a site on, the
** requests of the sites whose least head is at least it give the same bound. Returns the bound of
** the group stage i leads, at iteration st->loop of its loop (not yet taken over the loop), or
** NULL when stage i does not lead a group of two sites or more. */
AlgExpr *fork_group(OWalk *w, int i, AlgExpr *total) {
  RCtx *c = w->c;
  AlgCtx *g = c->alg;
  const OStage *st = &w->stages[i];
  int fixed = fixed_site(w, st);   /* the group of the member st names, else the own sites' */
  if (!fixed && !onto_site(w, st)) return NULL;
  for (int j = 0; j < i; j++) {
    const OStage *o = &w->stages[j];
    if (o->res == st->res && o->guard == st->guard && o->loop == st->loop &&
        (fixed ? fixed_site(w, o) && o->index == st->index : onto_site(w, o))) return NULL;
  }
  AlgExpr *head = NULL, *t_most = NULL, *sum = zero(c), *tail = NULL;
  AlgExpr *n_j[ORDER_MAX_STAGES], *head_j[ORDER_MAX_STAGES], *t_j[ORDER_MAX_STAGES], *tail_j[ORDER_MAX_STAGES];
  int s = 0;   /* sites, one inside a par or naming a fixed member counting 2 (several requests) */
  int groups = 0;   /* sites (length of n_j ...) */
  for (int j = 0; j < w->nstages; j++) {
    const OStage *o = &w->stages[j];
    if (o->res != st->res || o->guard != st->guard || o->loop != st->loop) continue;
    int own = onto_site(w, o);
    if (!own && !(fixed && fixed_site(w, o) && o->index == st->index)) continue;
    AlgExpr *h = least(w, o, order_lohead(o)), *t = least(w, o, o->t);
    AlgExpr *rest = least(w, o, order_tail(w, o, total));
    AlgExpr *copies = !own ? alg_max(g, zero(c), w->n)
                    : o->rep ? alg_max(g, zero(c), alg_add(g, alg_sub(g, o->rep_hi, o->rep_lo), alg_num_int(g, 1)))
                    : alg_num_int(g, 1);
    s += own && !o->rep ? 1 : 2;
    n_j[groups] = copies; head_j[groups] = h; t_j[groups] = t; tail_j[groups] = rest;
    groups++;
    head = head ? alg_min(g, head, h) : h;
    t_most = t_most ? alg_max(g, t_most, t) : t;
    tail = tail ? alg_min(g, tail, rest) : rest;
    sum = alg_add(g, sum, alg_mul(g, copies, t));
  }
  if (s < 2) return NULL;
  AlgExpr *m = reduce_mult(c, st->res);
  if (st->res->u.resource.discipline != DISC_PS)   /* the sites' least heads as release dates */
    return release_threshold(c, m, groups, n_j, head_j, t_j, tail_j);
  AlgExpr *serve = ps_group_serve(c, st->res, t_most, sum);
  return alg_add(g, alg_add(g, head, serve), tail);
}

/* The shift o of a member index k + o (o an integer free of the branch), else NULL. */
static AlgExpr *plain_shift(OWalk *w, AlgExpr *index) {
  if (w->k2 || !index) return NULL;
  AlgExpr *o = alg_sub(w->c->alg, index, alg_sym(w->c->alg, w->k));
  return !alg_contains(o, w->k) && order_integer_valued(w->c, o) ? o : NULL;
}

/* 1 when st can join a group of the rule below: a use on an FCFS family at a shift k + o of the
** branch, outside loops of the body or in one plain loop, not inside a par of the body. */
static int shifted_site(OWalk *w, const OStage *st) {
  if (st->cls != USE_OWN || !st->loop_free || st->loops > 1 || (st->loops == 1 && !st->loop) || st->reps) return 0;
  if (!st->res->u.resource.count) return 0;
  return plain_shift(w, st->index) != NULL;
}

/* Number of members a group of the rule below is counted at: the middle of the branch range and
** its two neighbours (an interior member of a line, and of a grid written with one index). */
#define COUNTED_AT 3

/* The group's bound at member q: s sites j at shifts o_j, site j requests q from branch
** k_j = q - o_j when k_j is in range and its guard holds there (run_j): the release-date bound
** over these requests (reduce_release.c). */
static AlgExpr *counted_at(OWalk *w, const int *set, int s, AlgExpr *q, AlgExpr *total) {
  RCtx *c = w->c;
  AlgCtx *g = c->alg;
  AlgExpr *count[ORDER_MAX_STAGES], *head[ORDER_MAX_STAGES], *t[ORDER_MAX_STAGES], *tail[ORDER_MAX_STAGES];
  for (int j = 0; j < s; j++) {
    const OStage *o = &w->stages[set[j]];
    AlgExpr *kj = alg_sub(g, q, plain_shift(w, o->index));
    AlgExpr *run = alg_and(g, alg_cmp(g, ALG_CMP_LE, w->ka, kj), alg_cmp(g, ALG_CMP_LE, kj, w->kb));
    if (o->kguard) run = alg_and(g, run, alg_subst(g, o->kguard, w->k, kj));
    count[j] = alg_cond(g, run, alg_num_int(g, 1), zero(c));
    head[j] = alg_subst(g, order_lohead(o), w->k, kj);
    t[j] = alg_subst(g, o->t, w->k, kj);
    tail[j] = alg_subst(g, order_tail(w, o, total), w->k, kj);
  }
  return release_threshold(c, reduce_mult(c, w->stages[set[0]].res), s, count, head, t, tail);
}

/* Rule (order-aware lower bound, a member counted): sites of one FCFS family at shifts k + o_j of
** the branch (o_j integers free of k), some of them made only where an `if` on k lets the branch
** (their guards: a line or a grid without wrap, `if (p > 0) use(nic[p - 1], m)`), under the same
** conditions free of k and in the same loop. Member q gets a request from site j exactly when
** k_j = q - o_j is a branch and site j's guard holds at k_j: c(q) requests in all, each by a
** known branch at a known head, duration and tail. So for any member q with c(q) >= 1
**   T >= min_j head_j(k_j) + max(ceil(c(q) / m) * min_j t_j(k_j), sum_j t_j(k_j) / m) + min_j tail_j(k_j)
** (j over the sites that request q): no server of q starts before the least head, the busiest of
** its m servers serves ceil(c(q) / m) requests one after another, all serve the sum at most m at
** a time, and the branch whose request ends last still runs its tail. Taken at the middle member
** of the branch range and its two neighbours. Returns the bound of the group stage i leads (not
** yet over its loop), or NULL when stage i does not lead a group of two sites or more with a
** guard among them. */
static AlgExpr *counted_group(OWalk *w, int i, AlgExpr *total) {
  RCtx *c = w->c;
  AlgCtx *g = c->alg;
  const OStage *st = &w->stages[i];
  if (!shifted_site(w, st)) return NULL;
  int set[ORDER_MAX_STAGES], s = 0;
  for (int j = 0; j < w->nstages; j++) {
    const OStage *o = &w->stages[j];
    if (o->res != st->res || o->guard != st->guard || o->loop != st->loop || !shifted_site(w, o)) continue;
    if (j < i) return NULL;   /* an earlier stage leads this group */
    set[s++] = j;
  }
  if (s < 2) return NULL;
  AlgExpr *mid = alg_add(g, w->ka, alg_func(g, ALG_FLOOR, alg_div(g, alg_sub(g, w->kb, w->ka), alg_num_int(g, 2))));
  AlgExpr *best = NULL;
  for (int d = -1; d < COUNTED_AT - 1; d++) {
    AlgExpr *at = counted_at(w, set, s, alg_add(g, mid, alg_num_int(g, d)), total);
    best = best ? alg_max(g, best, at) : at;
  }
  return best;
}

/* The order-aware lower bound above: the largest over the groups, each over its loop; or NULL. */
AlgExpr *fork_lower(OWalk *w, AlgExpr *total) {
  AlgExpr *best = NULL;
  for (int i = 0; i < w->nstages; i++) {
    AlgExpr *group = fork_group(w, i, total), *counted = counted_group(w, i, total);
    if (counted) group = group ? alg_max(w->c->alg, group, counted) : counted;
    if (!group) continue;
    AlgExpr *lo = order_over_loop(w->c, &w->stages[i], group);
    best = best ? alg_max(w->c->alg, best, lo) : lo;
  }
  return best;
}
