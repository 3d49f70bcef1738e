/*
** reduce_ps_batch.c — a par whose branches each make one request on one ps resource, all at the
** same instant, of sizes that may differ from branch to branch (a heavy rank, uneven tasks): the
** time processor sharing takes to drain the batch (docs/reduction.md, "Processor sharing in a
** par"). The par's pieces come from reduce.c (an `if` on the index splits the range).
*/
#include <string.h>

#include "reduce_order.h"

/* Sizes a batch may take (classes of equal requests, after the residues of a modulus). */
#define BATCH_MAX_CLASSES 16
/* Largest modulus K of a size written with `k % K`. */
#define BATCH_MAX_MODULUS 12
/* Nesting of blocks in a branch, and of an expression, the rule reads (beyond: it gives up). */
#define BATCH_MAX_DEPTH 32
/* Kids of one node of a size the rule rebuilds (beyond: it gives up). */
#define BATCH_MAX_KIDS 16

/* Rule (a repeated use on ps): `repeat (K) use(r, x)` with nothing else in the loop, r processor
** shared: the branch's K requests follow one another, each made at the instant the one before
** ends, so the branch has one request present at r without a break from the first's start to the
** last's end; processor sharing gives a request a rate that depends only on how many are present,
** so the K requests end when one request of size K x made at the first's start would: the loop is
** one use of size max(0, K) x (none when K <= 0, as a use of size 0). Threads looping under ps,
** `par (t) repeat (10) use(cores, (1 + t % 2) w)` on ps(4), 5 threads: one batch of 10 w and
** 20 w sizes, drained in 12.5 w + 10 w (docs/reduction.md, "Processor sharing in a par"). */
static AlgExpr *repeated_use(RCtx *c, AlgExpr *count, AlgExpr *x) {
  AlgCtx *g = c->alg;
  return alg_mul(g, alg_max(g, alg_num_int(g, 0), count), x);
}

/* Reads s into sh (block nesting depth): delays, one use of a plain resource of discipline
** sh->disc (an FCFS one without hand-off), or an `if` whose sides are one use of it each (a use
** of size cond ? x : y), delays (an `if` of delays alone on each side is a delay cond ? x : y),
** on ps a `repeat` of one use alone (repeated_use); a process call is read as its body. */
static void shape_of(RCtx *c, REnv *env, const Stmt *s, BShape *sh, int depth) {
  AlgCtx *g = c->alg;
  if (!sh->ok) return;
  switch (s->kind) {
  case ST_SKIP: return;
  case ST_DELAY: {
    AlgExpr *d = reduce_expr(c, env, s->u.delay.duration);
    if (sh->res) sh->tail = alg_add(g, sh->tail, d);
    else sh->head = alg_add(g, sh->head, d);
    return;
  }
  case ST_USE: {   /* (a hold of delays alone is a use by now: reduce_lower.c) */
    const Decl *res = s->u.use.decl;
    if (sh->res || !res || s->u.use.index || res->u.resource.count || res->u.resource.discipline != sh->disc ||
        res->u.resource.handoff) { sh->ok = 0; return; }
    sh->res = res;
    sh->t = reduce_expr(c, env, s->u.use.duration);
    return;
  }
  case ST_IF: {
    AlgExpr *cond = reduce_expr(c, env, s->u.branch.cond);
    if (alg_kind(cond) == ALG_NUM) {   /* decided: its side */
      const Stmt *side = alg_is_num(cond, 0) ? s->u.branch.otherwise : s->u.branch.then;
      if (side) shape_of(c, env, side, sh, depth + 1);
      return;
    }
    /* `if (cond) use(r, x) else use(r, y)` (no else: no request, as one of size 0): one use of
    ** size cond ? x : y */
    BShape x = {NULL, alg_num_int(g, 0), NULL, alg_num_int(g, 0), 1, sh->disc}, y = x;
    if (depth >= BATCH_MAX_DEPTH) { sh->ok = 0; return; }
    shape_of(c, env, s->u.branch.then, &x, depth + 1);
    if (s->u.branch.otherwise) shape_of(c, env, s->u.branch.otherwise, &y, depth + 1);
    if (x.ok && y.ok && !x.res && !y.res) {   /* delays alone on both sides: a delay cond ? x : y */
      AlgExpr *d = alg_cond(g, cond, x.head, y.head);
      if (sh->res) sh->tail = alg_add(g, sh->tail, d);
      else sh->head = alg_add(g, sh->head, d);
      return;
    }
    if (sh->res || !x.ok || !y.ok || !x.res || (y.res && y.res != x.res) || !alg_is_num(x.head, 0) || !alg_is_num(x.tail, 0) ||
        !alg_is_num(y.head, 0) || !alg_is_num(y.tail, 0)) { sh->ok = 0; return; }
    sh->res = x.res;
    sh->t = alg_cond(g, cond, x.t, y.res ? y.t : alg_num_int(g, 0));
    return;
  }
  case ST_BLOCK:
    if (depth >= BATCH_MAX_DEPTH) { sh->ok = 0; return; }
    for (int i = 0; i < s->u.block.count && sh->ok; i++) shape_of(c, env, s->u.block.items[i], sh, depth + 1);
    return;
  case ST_REPEAT: {   /* on ps, `repeat (K) use(r, x)` alone: one use of size K x (repeated_use) */
    BShape x = {NULL, alg_num_int(g, 0), NULL, alg_num_int(g, 0), 1, sh->disc};
    if (sh->res || sh->disc != DISC_PS || depth >= BATCH_MAX_DEPTH) { sh->ok = 0; return; }
    shape_of(c, env, s->u.repeat.body, &x, depth + 1);
    if (!x.ok || !x.res || !alg_is_num(x.head, 0) || !alg_is_num(x.tail, 0)) { sh->ok = 0; return; }
    sh->res = x.res;
    sh->t = repeated_use(c, reduce_expr(c, env, s->u.repeat.count), x.t);
    return;
  }
  case ST_CALL: {   /* `worker(t)`: the process's body with its arguments bound */
    const Decl *proc = s->u.call.decl;
    AlgExpr *args[REDUCE_MAX_ARGS];
    REnv inner;
    if (!proc || depth >= BATCH_MAX_DEPTH || !reduce_env_call(c, env, s, args, &inner)) {
      sh->ok = 0;
      return;
    }
    shape_of(c, &inner, proc->u.process.body, sh, depth + 1);
    return;
  }
  default: sh->ok = 0; return;
  }
}

/* The modulus of `x % K` when K is an integer of 2 .. BATCH_MAX_MODULUS, else 0. */
static long modulus(const AlgExpr *e) {
  int ok = 1;
  long v = alg_num_long(alg_kid(e, 1), &ok);
  return ok && v >= 2 && v <= BATCH_MAX_MODULUS ? v : 0;
}

/* `(a k + b) % K` with a a multiple of K (a piece of residues, k = L i + r, read back): the node
** `b % K` that has its value for every integer k, or NULL. */
static AlgExpr *residue_free(AlgCtx *g, AlgExpr *e, AlgSymbol *k) {
  long K = modulus(e);
  AlgExpr *x = alg_kid(e, 0), *kk = alg_sym(g, k);
  AlgExpr *a = alg_expand(g, alg_sub(g, alg_subst(g, x, k, alg_add(g, kk, alg_num_int(g, 1))), x));
  AlgExpr *b = alg_subst(g, x, k, alg_num_int(g, 0));
  if (!K || alg_kind(a) != ALG_NUM || mpz_cmp_ui(mpq_denref(alg_num_value(a)), 1) != 0 ||
      !mpz_divisible_ui_p(mpq_numref(alg_num_value(a)), (unsigned long)K) ||
      !alg_is_num(alg_expand(g, alg_sub(g, x, alg_add(g, alg_mul(g, a, kk), b))), 0) || alg_contains(b, k))
    return NULL;
  return alg_mod(g, b, alg_kid(e, 1));
}

/* The first node `(a k + b) % K` of e (depth first) that residue_free reads; *fixed its value. */
static AlgExpr *fixed_residue(AlgCtx *g, AlgExpr *e, AlgSymbol *k, AlgExpr **fixed, int depth) {
  if (!alg_contains(e, k) || depth >= BATCH_MAX_DEPTH) return NULL;
  if (alg_kind(e) == ALG_MOD && (*fixed = residue_free(g, e, k))) return e;
  for (size_t i = 0; i < alg_nkids(e); i++) {
    AlgExpr *p = fixed_residue(g, alg_kid(e, i), k, fixed, depth + 1);
    if (p) return p;
  }
  return NULL;
}

/* The first node of e (depth first) that names k and is `x % K` (K an integer of 2 ..
** BATCH_MAX_MODULUS) or `cond ? x : y` (x and y free of k), or NULL. */
static AlgExpr *picker(AlgExpr *e, AlgSymbol *k, int depth) {
  if (!alg_contains(e, k) || depth >= BATCH_MAX_DEPTH) return NULL;
  if (alg_kind(e) == ALG_MOD) return modulus(e) ? e : NULL;
  if (alg_kind(e) == ALG_COND && !alg_contains(alg_kid(e, 1), k) && !alg_contains(alg_kid(e, 2), k)) return e;
  for (size_t i = 0; i < alg_nkids(e); i++) {
    AlgExpr *p = picker(alg_kid(e, i), k, depth + 1);
    if (p) return p;
  }
  return NULL;
}

AlgExpr *reduce_batch_picker(AlgExpr *e, AlgSymbol *k) { return picker(e, k, 0); }

void reduce_batch_read(RCtx *c, REnv *env, const Stmt *s, Discipline disc, BShape *sh) {
  AlgCtx *g = c->alg;
  BShape none = {NULL, alg_num_int(g, 0), NULL, alg_num_int(g, 0), 1, disc};
  *sh = none;
  shape_of(c, env, s, sh, 0);
}

void reduce_batch_shape(RCtx *c, REnv *env, const RPiece *p, Discipline disc, BShape *sh) {
  env->idx[env->depth++] = p->value;
  reduce_batch_read(c, env, p->stmt, disc, sh);
  env->depth--;
}

/* Adds class (size, count) unless the classes are full (returns 0 then). */
static int add_class(AlgExpr **sizes, AlgExpr **counts, int *n, AlgExpr *size, AlgExpr *count) {
  if (*n == BATCH_MAX_CLASSES) return 0;
  sizes[*n] = size;
  counts[(*n)++] = count;
  return 1;
}

/* Indices of [r_lo, r_hi] within [lo, hi]. */
AlgExpr *reduce_batch_in_range(AlgCtx *g, AlgExpr *lo, AlgExpr *hi, AlgExpr *r_lo, AlgExpr *r_hi) {
  AlgExpr *top = alg_min(g, hi, r_hi), *bottom = alg_max(g, lo, r_lo);
  return alg_max(g, alg_num_int(g, 0), alg_add(g, alg_sub(g, top, bottom), alg_num_int(g, 1)));
}

/* The first node of e (depth first) that is `k % K` (K an integer of 2 .. BATCH_MAX_MODULUS), or
** NULL: the residue a size picks its value by, also inside a condition (`k % 2 == 0 ? x : y`). */
static AlgExpr *residue_node(AlgExpr *e, AlgSymbol *k, int depth) {
  if (!alg_contains(e, k) || depth >= BATCH_MAX_DEPTH) return NULL;
  if (alg_kind(e) == ALG_MOD && modulus(e) && alg_kind(alg_kid(e, 0)) == ALG_SYM &&
      alg_symbol_of(alg_kid(e, 0)) == k)
    return e;
  for (size_t i = 0; i < alg_nkids(e); i++) {
    AlgExpr *p = residue_node(alg_kid(e, i), k, depth + 1);
    if (p) return p;
  }
  return NULL;
}

/* The classes of size t over piece p with node = `k % K` replaced by each residue r = 0 .. K - 1,
** each for the k of [lo, hi] with k % K = r (lo >= 0). 0 when a size still names k, or the
** classes are too many. */
static int add_residue_classes(RCtx *c, const RPiece *p, AlgExpr *t, AlgExpr *node, AlgExpr **sizes,
                               AlgExpr **counts, int *n) {
  AlgCtx *g = c->alg;
  AlgExpr *one = alg_num_int(g, 1);
  long K = modulus(node);
  if (!alg_is_nonneg(g, p->lo)) return 0;
  AlgExpr *KK = alg_num_int(g, K);
  for (long r = 0; r < K; r++) {
    AlgExpr *rr = alg_num_int(g, r), *size = alg_replace(g, t, node, rr);
    if (!size || alg_contains(size, p->index)) return 0;
    AlgExpr *upto_hi = alg_func(g, ALG_FLOOR, alg_div(g, alg_sub(g, p->hi, rr), KK));
    AlgExpr *below_lo = alg_func(g, ALG_FLOOR, alg_div(g, alg_sub(g, alg_sub(g, p->lo, one), rr), KK));
    if (!add_class(sizes, counts, n, size, alg_max(g, alg_num_int(g, 0), alg_sub(g, upto_hi, below_lo)))) return 0;
  }
  return 1;
}

/* Adds the classes of piece p (size t of its index k) to sizes/counts: one when t is free of k;
** when t names k only through one node (picker), the sizes with that node replaced: for
** `k % K`, add_residue_classes; for `cond ? x : y` with cond a comparison of k (order_cut_ranges),
** x for the k where it holds and y for the others, and with cond of `k % K` (`k % 2 == 0 ? x : y`)
** the residue classes; `(a k + b) % K` with K dividing a (a piece of residues) as `b % K`. 0
** otherwise, or when the classes are too many. */
static int add_classes(RCtx *c, const RPiece *p, AlgExpr *t, AlgExpr **sizes, AlgExpr **counts, int *n,
                       int depth) {
  AlgCtx *g = c->alg;
  if (!alg_contains(t, p->index)) return add_class(sizes, counts, n, t, reduce_batch_in_range(g, p->lo, p->hi, p->lo, p->hi));
  if (depth >= BATCH_MAX_DEPTH) return 0;
  AlgExpr *fixed = NULL, *node = fixed_residue(g, t, p->index, &fixed, 0);
  if (node) {   /* the same value for every k of the piece: read again without k there */
    AlgExpr *again = alg_replace(g, t, node, fixed);
    return again && add_classes(c, p, again, sizes, counts, n, depth + 1);
  }
  if (!(node = picker(t, p->index, 0))) return 0;
  if (alg_kind(node) == ALG_MOD) {
    if (alg_kind(alg_kid(node, 0)) != ALG_SYM || alg_symbol_of(alg_kid(node, 0)) != p->index) return 0;
    return add_residue_classes(c, p, t, node, sizes, counts, n);
  }
  AlgExpr *t_lo[2], *t_hi[2], *f_lo[2], *f_hi[2];
  int nt = 0, nf = 0;
  if (!order_cut_ranges(c, alg_kid(node, 0), p->index, p->lo, p->hi, t_lo, t_hi, &nt, f_lo, f_hi, &nf)) {
    AlgExpr *residue = residue_node(alg_kid(node, 0), p->index, 0);
    return residue && add_residue_classes(c, p, t, residue, sizes, counts, n);
  }
  AlgExpr *x = alg_replace(g, t, node, alg_kid(node, 1)), *y = alg_replace(g, t, node, alg_kid(node, 2));
  if (!x || !y || alg_contains(x, p->index) || alg_contains(y, p->index)) return 0;
  AlgExpr *cx = alg_num_int(g, 0), *cy = alg_num_int(g, 0);
  for (int r = 0; r < nt; r++) cx = alg_add(g, cx, reduce_batch_in_range(g, p->lo, p->hi, t_lo[r], t_hi[r]));
  for (int r = 0; r < nf; r++) cy = alg_add(g, cy, reduce_batch_in_range(g, p->lo, p->hi, f_lo[r], f_hi[r]));
  return add_class(sizes, counts, n, x, cx) && add_class(sizes, counts, n, y, cy);
}

/* Sorts the classes by size, smallest first; 0 when two sizes cannot be ordered. A pair whose order
** is not decided for every admissible value (consts that -D can change: t1 = 10us, t2 = 15us) is
** put in the order of their values (reduce_at_values), and the comparison that order needs is
** added to *order (when order is not NULL; else the sort gives up): the drain holds where it
** does, and the rule's bound falls back elsewhere. */
static int sort_classes(RCtx *c, AlgExpr **sizes, AlgExpr **counts, int n, AlgExpr **order) {
  AlgCtx *g = c->alg;
  for (int i = 0; i < n; i++)
    for (int j = i + 1; j < n; j++) {
      AlgExpr *d = alg_sub(g, sizes[j], sizes[i]);
      if (alg_is_nonneg(g, d)) continue;
      if (!alg_is_nonpos(g, d)) {
        AlgExpr *ignored = alg_num_int(g, 1), *at = order ? reduce_at_values(c, d, &ignored) : NULL;
        if (!at || alg_kind(at) != ALG_NUM) return 0;
        int up = mpq_sgn(alg_num_value(at)) >= 0;
        *order = alg_and(g, *order, alg_cmp(g, up ? ALG_CMP_GE : ALG_CMP_LE, d, alg_num_int(g, 0)));
        if (up) continue;
      }
      AlgExpr *x = sizes[i]; sizes[i] = sizes[j]; sizes[j] = x;
      x = counts[i]; counts[i] = counts[j]; counts[j] = x;
    }
  return 1;
}

/* The drain D of the rule below: the classes (size, count) sorted (sort_classes) and
**   D = sum over i of (u_i - u_{i-1}) (M_i >= 1 ? max(1, M_i / cap) : 0),  M_i = n_i + ... + n_m
** (u_0 = 0); NULL when the sizes cannot be ordered or the least is not >= 0. order: as
** sort_classes (NULL: every order proved); *order is then the condition where D holds. */
AlgExpr *reduce_ps_drain(RCtx *c, AlgExpr *cap, AlgExpr **sizes, AlgExpr **counts, int n, AlgExpr **order) {
  AlgCtx *g = c->alg;
  if (order) *order = alg_num_int(g, 1);
  if (n < 1 || !sort_classes(c, sizes, counts, n, order) || !alg_is_nonneg(g, sizes[0])) return NULL;
  AlgExpr *one = alg_num_int(g, 1), *zero = alg_num_int(g, 0), *drain = zero, *present = zero;
  for (int i = n - 1; i >= 0; i--) {   /* M_i accumulates from the largest class down */
    present = alg_add(g, present, counts[i]);
    AlgExpr *lower = i > 0 ? sizes[i - 1] : zero;
    AlgExpr *rate = alg_cond(g, alg_cmp(g, ALG_CMP_GE, present, one), alg_max(g, one, alg_div(g, present, cap)), zero);
    drain = alg_add(g, drain, alg_mul(g, alg_sub(g, sizes[i], lower), rate));
  }
  return drain;
}

/* Rule (a batch on ps, sizes in a line): one piece whose size is t(k) = x + b (k - lo) for k over
** lo .. hi (b free of k, its sign decided): the n sizes sorted are x_1 + |b| (j - 1) with x_1 the
** smallest (at lo when b >= 0, at hi when b <= 0), so the levels below give
**   D = x_1 max(1, n / c) + |b| F(n - 1),  F(N) = sum over m = 1 .. N of max(1, m / c)
**     = f + (N (N + 1) / 2 - f (f + 1) / 2) / c,  f = min(N, floor(c))
** (the first f terms are 1, the others m / c). Returns D, or NULL when t is not such a line. */
static AlgExpr *line_drain(RCtx *c, const RPiece *p, AlgExpr *t, AlgExpr *cap, AlgExpr *n) {
  AlgCtx *g = c->alg;
  AlgSymbol *k = p->index;
  AlgExpr *one = alg_num_int(g, 1), *two = alg_num_int(g, 2);
  AlgExpr *b = alg_expand(g, alg_sub(g, alg_subst(g, t, k, alg_add(g, alg_sym(g, k), one)), t));
  if (alg_contains(b, k) || alg_contains(alg_expand(g, alg_sub(g, t, alg_mul(g, b, alg_sym(g, k)))), k)) return NULL;
  AlgExpr *x1;
  if (alg_is_nonneg(g, b)) x1 = alg_subst(g, t, k, p->lo);
  else if (alg_is_nonpos(g, b)) { x1 = alg_subst(g, t, k, p->hi); b = alg_neg(g, b); }
  else return NULL;
  if (!alg_is_nonneg(g, x1)) return NULL;
  AlgExpr *N = alg_sub(g, n, one), *f = alg_min(g, N, alg_func(g, ALG_FLOOR, cap));
  AlgExpr *tri = alg_sub(g, alg_div(g, alg_mul(g, N, alg_add(g, N, one)), two),
                         alg_div(g, alg_mul(g, f, alg_add(g, f, one)), two));
  AlgExpr *F = alg_add(g, f, alg_div(g, tri, cap));
  return alg_add(g, alg_mul(g, x1, alg_max(g, one, alg_div(g, n, cap))), alg_mul(g, b, F));
}

/* Rule (a batch on ps): par (k = a, b) over pieces whose branches each run delays h, one
** use(r, x(k)) on one plain ps(c) resource r, and delays e, with h and e free of k and the same
** in every piece, and the sizes x(k) in classes u_1 <= ... <= u_m (add_classes; counts n_i;
** sorted when the order is decided for every admissible value, else in the order of their values
** with the bound taken where that order holds) or in a line (line_drain). All n
** requests arrive at the instant h. Processor sharing gives every request present one rate,
** min(1, c / N) with N present, so the batch's requests share one curve S(tau) of service
** received, and those present at service s are the M(s) of size > s. Alone (no other request on
** r) S' rises at min(1, c / M(S')): with M_i = n_i + ... + n_m the level from u_{i-1} to u_i
** (u_0 = 0) takes (u_i - u_{i-1}) max(1, M_i / c) (0 when M_i = 0), the drain D is their sum,
** and the last request's branch runs e more:
**   T = h + D + e   (0 when the par has no branch)
** exactly, when the par runs alone: U. It is also L in any context: beside other requests on r
** the batch's curve rises at min(1, c / (M(S) + others)) <= min(1, c / M(S)), the rate of the
** alone curve at the same service, so it never passes the alone curve (where they meet the alone
** one is at least as fast, and M is constant between sizes) and every request ends no sooner.
** (Requests that arrive at different instants are another matter: 1, 1, 4 on ps(2) drain in 4.5
** together, in 4 when one small request comes after the other; h is free of k and no request
** before the use can wait.) */
void reduce_ps_batch(RCtx *c, REnv *env, const RPiece *pieces, int count, Summary *out) {
  AlgCtx *g = c->alg;
  if (count < 1 || env->depth >= EVAL_MAX_INDICES) return;
  AlgExpr *sizes[BATCH_MAX_CLASSES], *counts[BATCH_MAX_CLASSES];
  int n = 0, checks = c->checks.count;   /* the expressions are read again: their checks are made */
  BShape first;
  memset(&first, 0, sizeof first);
  int k, classes = 1;   /* classes: every piece's sizes fell in classes */
  for (k = 0; k < count; k++) {
    const RPiece *p = &pieces[k];
    BShape sh;
    reduce_batch_shape(c, env, p, DISC_PS, &sh);
    if (!sh.ok || !sh.res || alg_contains(sh.head, p->index) || alg_contains(sh.tail, p->index)) break;
    if (k == 0) first = sh;
    else if (sh.res != first.res || !alg_is_num(alg_sub(g, sh.head, first.head), 0) ||
             !alg_is_num(alg_sub(g, sh.tail, first.tail), 0)) break;
    if (classes && !add_classes(c, p, sh.t, sizes, counts, &n, 0)) classes = 0;
  }
  c->checks.count = checks;
  if (k < count) return;
  AlgExpr *cap = reduce_mult(c, first.res), *one = alg_num_int(g, 1), *zero = alg_num_int(g, 0);
  AlgExpr *drain = zero, *present = zero, *order = one;   /* order: where the sizes' order holds */
  if (!classes && count == 1) {   /* one piece, its sizes in a line */
    present = alg_max(g, zero, alg_add(g, alg_sub(g, pieces[0].hi, pieces[0].lo), one));
    if (!(drain = line_drain(c, &pieces[0], first.t, cap, present))) return;
  } else {
    if (!classes || !(drain = reduce_ps_drain(c, cap, sizes, counts, n, &order))) return;
    for (int i = 0; i < n; i++) present = alg_add(g, present, counts[i]);
  }
  AlgExpr *total = alg_cond(g, alg_cmp(g, ALG_CMP_GE, present, one),
                            alg_add(g, alg_add(g, first.head, drain), first.tail), zero);
  out->U = alg_cond(g, order, alg_min(g, out->U, total), out->U);
  out->L = alg_max(g, out->L, alg_cond(g, order, total, zero));
}
