/*
** reduce_fcfs_batch.c — a par that runs alone and whose branches each make one request on one
** plain FCFS resource, all at the same instant and so in index order, with sizes in runs of
** consecutive branches (work dealt with remainders: the first N % P branches one task more; a
** short last block): FCFS serves the requests as a list, and the first two runs of the list
** have a closed-form makespan (docs/reduction.md, "Requests in FCFS order, sizes in two runs").
** The par's pieces come from reduce.c (an `if` on the index splits the range).
*/
#include "reduce_order.h"

/* Runs of sizes the rule keeps (the first two of the list are read). */
#define FCFS_MAX_RUNS 2
/* Nesting of a size that min_node searches (beyond: it gives up). */
#define FCFS_MAX_DEPTH 32

/* The runs of a list: consecutive branches of one size each, in index order. */
typedef struct FRuns {
  AlgExpr *size[FCFS_MAX_RUNS];   /* the run's size (free of the index) */
  AlgExpr *count[FCFS_MAX_RUNS];  /* its branches (>= 0) */
  int n;                          /* runs recorded */
  int full;                       /* 1 once more runs were met than kept (a prefix is kept) */
  AlgExpr *holds;                 /* 1, or the condition on the params under which they hold */
} FRuns;

/* Appends run (size, count); a run beyond FCFS_MAX_RUNS only marks the list as cut. */
static void add_run(FRuns *runs, AlgExpr *size, AlgExpr *count) {
  if (runs->n == FCFS_MAX_RUNS) { runs->full = 1; return; }
  runs->size[runs->n] = size;
  runs->count[runs->n++] = count;
}

/* The first node of e (depth first) that is min(a, b) with a free of k and b naming k, or NULL. */
static AlgExpr *min_node(AlgExpr *e, AlgSymbol *k, int depth) {
  if (!alg_contains(e, k) || depth > FCFS_MAX_DEPTH) return NULL;
  if (alg_kind(e) == ALG_MIN && alg_nkids(e) == 2 &&
      alg_contains(alg_kid(e, 0), k) != alg_contains(alg_kid(e, 1), k)) return e;
  for (size_t i = 0; i < alg_nkids(e); i++) {
    AlgExpr *m = min_node(alg_kid(e, i), k, depth + 1);
    if (m) return m;
  }
  return NULL;
}

/* Runs of a size t(k) that names k only through one min(a, c - d k) (a, c free of k, d > 0, where
** it is not proved for every admissible value a condition in runs->holds: a short last block,
** min(P, N - b P)): the k of [lo, hi] up to
** k* = floor((c - a) / d) have c - d k >= a and the size t with the min replaced by a; the next
** branch, j = max(lo, k* + 1) where j <= hi, has size t(j) (the later ones are left out: the runs
** read are a prefix of the list). Returns 0 when t is no such size. */
static int min_runs(RCtx *c, const RPiece *p, AlgExpr *t, FRuns *runs) {
  AlgCtx *g = c->alg;
  AlgSymbol *k = p->index;
  AlgExpr *node = min_node(t, k, 0);
  if (!node) return 0;
  int at = alg_contains(alg_kid(node, 0), k) ? 0 : 1;
  AlgExpr *a = alg_kid(node, 1 - at), *b = alg_kid(node, at);
  AlgExpr *slope = alg_diff(g, b, k);   /* NULL where b has no derivative (a max, a floor) */
  if (!slope) return 0;
  AlgExpr *d = alg_neg(g, slope);   /* b = cst - d k */
  if (alg_contains(d, k)) return 0;
  if (alg_bounds(g, d).lo <= 0) runs->holds = alg_and(g, runs->holds, alg_cmp(g, ALG_CMP_GT, d, alg_num_int(g, 0)));
  AlgExpr *cst = alg_expand(g, alg_add(g, b, alg_mul(g, d, alg_sym(g, k))));
  AlgExpr *flat = alg_replace(g, t, node, a);
  if (alg_contains(cst, k) || alg_contains(flat, k)) return 0;
  AlgExpr *one = alg_num_int(g, 1);
  AlgExpr *kstar = alg_func(g, ALG_FLOOR, alg_div(g, alg_sub(g, cst, a), d));
  AlgExpr *j = alg_max(g, p->lo, alg_add(g, kstar, one));
  add_run(runs, flat, reduce_batch_in_range(g, p->lo, p->hi, p->lo, kstar));
  add_run(runs, alg_subst(g, t, k, j), reduce_batch_in_range(g, p->lo, p->hi, j, j));
  runs->full = 1;   /* the branches after j: not read */
  return 1;
}

/* Appends the runs of piece p (size t of its index k), in index order: one when t is free of k;
** two when t names k only through one `cond ? x : y` (reduce_batch_picker) whose cond compares k
** with an integer-valued expression b free of k (<, <=, either way round: the range [lo, hi]
** cut at b into a low part and a high part, the side for each read with the node replaced).
** Returns 0 when t is no such size. */
static int piece_runs(RCtx *c, const RPiece *p, AlgExpr *t, FRuns *runs) {
  AlgCtx *g = c->alg;
  if (!alg_contains(t, p->index)) {
    add_run(runs, t, reduce_batch_in_range(g, p->lo, p->hi, p->lo, p->hi));
    return 1;
  }
  AlgExpr *node = reduce_batch_picker(t, p->index);
  if (!node) return min_runs(c, p, t, runs);
  if (alg_kind(node) != ALG_COND) return 0;
  AlgExpr *t_lo[2], *t_hi[2], *f_lo[2], *f_hi[2];
  int nt = 0, nf = 0;
  if (!order_cut_ranges(c, alg_kid(node, 0), p->index, p->lo, p->hi, t_lo, t_hi, &nt, f_lo, f_hi, &nf) ||
      nt != 1 || nf != 1) return 0;
  AlgExpr *x = alg_replace(g, t, node, alg_kid(node, 1)), *y = alg_replace(g, t, node, alg_kid(node, 2));
  if (alg_contains(x, p->index) || alg_contains(y, p->index)) return 0;
  AlgExpr *cx = reduce_batch_in_range(g, p->lo, p->hi, t_lo[0], t_hi[0]);
  AlgExpr *cy = reduce_batch_in_range(g, p->lo, p->hi, f_lo[0], f_hi[0]);
  if (t_lo[0] == p->lo) {   /* k < b: the low part holds the test */
    add_run(runs, x, cx);
    add_run(runs, y, cy);
  } else {                  /* b < k: the low part fails it */
    add_run(runs, y, cy);
    add_run(runs, x, cx);
  }
  return 1;
}

/* Rule (FCFS list of two runs): r requests of size A, then x of size B (A, B >= 0), made at one
** instant in this order at m servers that are all free: the time until the last ends,
**   C = ceil(r / m) A                                  where x = 0 or B = 0
**   C = Rq A + max(H >= 1 ? A : 0, s + B)              otherwise,
** with Rq = floor(r / m), H = r - m Rq, L = m - H, K = ceil(A / B), and s the start of the last B:
**   s = (ceil(x / L) - 1) B                            where x <= L K
**   s = A + i B + (p <= H ? 0 : K B - A)               otherwise, x' = x - L K,
**                                                      i = ceil(x' / m) - 1, p = x' - i m.
** Argument: FCFS starts each request, in order, when the earliest server frees. The A's are equal,
** so they go round robin: H servers end at (Rq + 1) A, the L others at Rq A. Each B then takes the
** earliest free server; with equal B's, a server free at f offers starts f, f + B, f + 2B, ..., and
** the j-th B starts at the j-th smallest of all these starts. Counted from Rq A: the L low servers
** offer 0, B, 2B, ... (the first K of each below A), the H high ones A, A + B, ...; beyond A the
** starts come in periods of B: H at A + i B, then L at A + e + i B (e = K B - A in [0, B)). The
** last B ends at Rq A + s + B, the last A at ceil(r / m) A. Exact; B = 0: the B's end at once. */
static AlgExpr *two_runs(AlgCtx *g, AlgExpr *m, AlgExpr *A, AlgExpr *r, AlgExpr *B, AlgExpr *x) {
  AlgExpr *one = alg_num_int(g, 1), *zero = alg_num_int(g, 0);
  AlgExpr *Rq = alg_func(g, ALG_FLOOR, alg_div(g, r, m));
  AlgExpr *H = alg_sub(g, r, alg_mul(g, m, Rq)), *L = alg_sub(g, m, H);
  AlgExpr *only_a = alg_mul(g, alg_func(g, ALG_CEIL, alg_div(g, r, m)), A);
  AlgExpr *K = alg_func(g, ALG_CEIL, alg_div(g, A, B));
  AlgExpr *early = alg_mul(g, alg_sub(g, alg_func(g, ALG_CEIL, alg_div(g, x, L)), one), B);
  AlgExpr *xp = alg_sub(g, x, alg_mul(g, L, K));
  AlgExpr *i = alg_sub(g, alg_func(g, ALG_CEIL, alg_div(g, xp, m)), one);
  AlgExpr *p = alg_sub(g, xp, alg_mul(g, i, m));
  AlgExpr *shift = alg_cond(g, alg_cmp(g, ALG_CMP_LE, p, H), zero, alg_sub(g, alg_mul(g, K, B), A));
  AlgExpr *late = alg_add_n(g, 3, (AlgExpr *[]){A, alg_mul(g, i, B), shift});
  AlgExpr *s = alg_cond(g, alg_cmp(g, ALG_CMP_LE, x, alg_mul(g, L, K)), early, late);
  AlgExpr *last_a = alg_cond(g, alg_cmp(g, ALG_CMP_GE, H, one), A, zero);
  AlgExpr *both = alg_add(g, alg_mul(g, Rq, A), alg_max(g, last_a, alg_add(g, s, B)));
  AlgExpr *some_b = alg_and(g, alg_cmp(g, ALG_CMP_GE, x, one), alg_cmp(g, ALG_CMP_GT, B, zero));
  return alg_cond(g, some_b, both, only_a);
}

/* Rule (order-aware lower bound, requests in FCFS order, sizes in two runs): par (k = a, b) over
** pieces in index order (no residue classes) whose branches each run delays h, one use(r, t(k))
** of one plain FCFS resource r of m servers without hand-off, and delays e, h and e free of k and
** the same in every piece; the par runs alone (RCtx.concurrent == 0: not beside other statements,
** not in a branch of a par or in what one calls, not inside a hold). The sizes fall in runs of
** consecutive branches (piece_runs); the first two, r of size A then x of size B. All n requests
** are made at the instant h, in index order (LANGUAGE.md §6), at servers nothing else uses, so
** FCFS serves them as a list, and a request's start depends only on those before it: the first
** r + x of them end when they would alone, at h + C (two_runs), and the branch whose request ends
** last still runs e:
**   T >= h + C + e   (where r + x >= 1)
** Remainders on shared cores, N = 10 tasks over 8 workers on fcfs(4): 2, 2, 1, 1 start at 0, the
** next four at 1, 1, 2, 2: 3 units (the load: 2.5). FCFS is not monotone (a request from outside
** can change the order), hence the condition that nothing runs beside. */
void reduce_fcfs_batch(RCtx *c, REnv *env, const RPiece *pieces, int count, Summary *out) {
  AlgCtx *g = c->alg;
  if (c->concurrent || count < 1 || env->depth >= EVAL_MAX_INDICES) return;
  FRuns runs = {{NULL}, {NULL}, 0, 0, alg_num_int(g, 1)};
  BShape first = {NULL, NULL, NULL, NULL, 0, DISC_FCFS};
  int checks = c->checks.count;   /* the expressions are read again: their checks are made */
  int k;
  for (k = 0; k < count; k++) {   /* every piece has the shape; the runs are read while in order */
    const RPiece *p = &pieces[k];
    BShape sh;
    if (p->value != alg_sym(g, p->index)) break;   /* residue classes: not in index order */
    reduce_batch_shape(c, env, p, DISC_FCFS, &sh);
    if (!sh.ok) break;
    if (!sh.res) continue;   /* delays only: no request */
    if (alg_contains(sh.head, p->index) || alg_contains(sh.tail, p->index)) break;
    if (!first.res) first = sh;
    else if (sh.res != first.res || !alg_is_num(alg_sub(g, sh.head, first.head), 0) ||
             !alg_is_num(alg_sub(g, sh.tail, first.tail), 0)) break;
    if (!runs.full && !piece_runs(c, p, sh.t, &runs)) runs.full = 1;   /* the runs so far: a prefix */
  }
  c->checks.count = checks;
  if (k < count || runs.n < 1) return;
  AlgExpr *zero = alg_num_int(g, 0), *one = alg_num_int(g, 1);
  AlgExpr *B = runs.n > 1 ? runs.size[1] : zero, *x = runs.n > 1 ? runs.count[1] : zero;
  AlgExpr *C = two_runs(g, reduce_mult(c, first.res), runs.size[0], runs.count[0], B, x);
  AlgExpr *some = alg_and(g, runs.holds, alg_cmp(g, ALG_CMP_GE, alg_add(g, runs.count[0], x), one));
  if (!alg_is_nonneg(g, runs.size[0])) some = alg_and(g, some, alg_cmp(g, ALG_CMP_GE, runs.size[0], zero));
  if (!alg_is_nonneg(g, B)) some = alg_and(g, some, alg_cmp(g, ALG_CMP_GE, B, zero));
  AlgExpr *lo = alg_add(g, alg_add(g, first.head, C), first.tail);
  out->L = alg_max(g, out->L, alg_cond(g, some, lo, zero));
}
