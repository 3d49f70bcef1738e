/*
** reduce_fcfs_list.c — a par that runs alone and whose branches each make one request on one
** plain FCFS resource, all at the same instant and so in index order, where the branch count,
** the servers and every size are numbers once the params are set (`-D N=16`), up to one factor
** free of the index (a const): FCFS serves the requests as a list, and the list is evaluated here,
** request by request (docs/reduction.md, "An FCFS list evaluated at the point"). The par's pieces
** come from reduce.c (an `if` on the index splits the range).
*/
#include <float.h>
#include <math.h>
#include <stdlib.h>

#include "eval.h"
#include "reduce_order.h"
#include "tape.h"

/* Requests one par may make for its list to be evaluated (beyond: the rule gives up). */
#define LIST_BUDGET (1L << 20)

/* The sizes read so far, in index order, in units of the common factor. */
typedef struct LSizes {
  double *mid;     /* the midpoint of each size's enclosure (malloc) */
  double *key;     /* the par's index of each size's branch (malloc, beside mid) */
  long n;          /* sizes read */
  double width;    /* the largest half-width of an enclosure */
  double sum;      /* the sum of the midpoints */
  int whole;       /* 1 while every size is an integer read exactly (no enclosure wider) */
} LSizes;

/* The factors of t free of k (t itself where t is free of k and not 0; 1 where t is no product):
** the factor the sizes are counted in. */
static AlgExpr *unit_of(AlgCtx *g, AlgExpr *t, AlgSymbol *k) {
  if (!alg_contains(t, k)) return alg_is_num(t, 0) ? alg_num_int(g, 1) : t;
  AlgExpr *u = alg_num_int(g, 1);
  if (alg_kind(t) != ALG_MUL) return u;
  for (size_t i = 0; i < alg_nkids(t); i++)
    if (!alg_contains(alg_kid(t, i), k)) u = alg_mul(g, u, alg_kid(t, i));
  return u;
}

int reduce_eval_range(RCtx *c, AlgExpr *e, AlgSymbol *k, long a, long n, double *lo, double *hi) {
  AlgTape *tape = NULL;
  char err[128];
  if (alg_tape_compile(c->alg, e, &tape, err, sizeof err) != 0) return 0;
  size_t nin = alg_tape_ninputs(tape);
  double *kcol = malloc((size_t)(n > 0 ? n : 1) * sizeof *kcol);
  int ok = kcol && (nin == 0 || (nin == 1 && alg_tape_input(tape, 0) == k));
  if (ok) {
    for (long j = 0; j < n; j++) kcol[j] = (double)(a + j);
    const double *in[1] = {kcol};
    ok = alg_tape_eval(tape, (size_t)n, in, in, lo, hi) == 0;
  }
  free(kcol);
  alg_tape_free(tape);
  return ok;
}

/* Appends the sizes rest(k) of the branches k = a .. b to sz, each keyed by the par's index
** step k + first of its branch: rest's only symbol may be k (reduce_eval_range), and each value
** must be finite and nonnegative. Returns 0 where it is not so. */
static int read_sizes(RCtx *c, AlgExpr *rest, AlgSymbol *k, long a, long b, long step, long first,
                      LSizes *sz) {
  long n = b - a + 1;
  double *buf = malloc((size_t)n * 2 * sizeof *buf);
  if (!buf) return 0;
  double *lo = buf, *hi = buf + n;
  int ok = reduce_eval_range(c, rest, k, a, n, lo, hi);
  for (long j = 0; j < n && ok; j++) {
    ok = isfinite(lo[j]) && isfinite(hi[j]) && lo[j] >= 0 && hi[j] >= lo[j];
    sz->key[sz->n] = (double)step * (double)(a + j) + (double)first;
    sz->mid[sz->n++] = (lo[j] + hi[j]) / 2;
    sz->sum += (lo[j] + hi[j]) / 2;
    if (lo[j] != hi[j] || floor(lo[j]) != lo[j]) sz->whole = 0;
    if ((hi[j] - lo[j]) / 2 > sz->width) sz->width = (hi[j] - lo[j]) / 2;
  }
  free(buf);
  return ok;
}

/* A size and the par's index of its branch. */
typedef struct LKeyed {
  double key, mid;
} LKeyed;

static int by_key(const void *a, const void *b) {
  double x = ((const LKeyed *)a)->key, y = ((const LKeyed *)b)->key;
  return x < y ? -1 : x > y;
}

/* Puts sz's sizes in the order of their branches' indices (residue classes read one class after
** another); 0 when two share an index or out of memory. */
static int sort_by_branch(LSizes *sz) {
  LKeyed *pairs = malloc((size_t)(sz->n > 0 ? sz->n : 1) * sizeof *pairs);
  if (!pairs) return 0;
  for (long j = 0; j < sz->n; j++) pairs[j] = (LKeyed){sz->key[j], sz->mid[j]};
  qsort(pairs, (size_t)sz->n, sizeof *pairs, by_key);
  int ok = 1;
  for (long j = 0; j < sz->n; j++) {
    ok &= j == 0 || pairs[j].key > pairs[j - 1].key;
    sz->key[j] = pairs[j].key;
    sz->mid[j] = pairs[j].mid;
  }
  free(pairs);
  return ok;
}

/* e with every param and const it names replaced by its value (its binding, else its default
** or declared value: a point), the equalities added to *holds (the list is evaluated there and its
** bound holds where they take those values: one `-D` per point sets the params that are swept; a
** const of an interval, or one being fitted, has no point value and the rule gives up). NULL where
** a value is no point. */
AlgExpr *reduce_at_values(RCtx *c, AlgExpr *e, AlgExpr **holds) {
  AlgCtx *g = c->alg;
  AlgSymbol *syms[16];
  size_t n = alg_free_symbols(g, e, syms, 16);
  if (n > 16) return NULL;
  for (size_t i = 0; i < n; i++) {
    if (alg_symbol_kind(syms[i]) != ALG_SYM_PARAM && alg_symbol_kind(syms[i]) != ALG_SYM_CONST) continue;
    const Decl *d = NULL;
    for (int j = 0; j < c->out->symbol_count; j++)
      if (c->out->symbols[j] == syms[i]) d = c->out->symbol_decls[j];
    EvalEnv values;
    eval_env_init(&values);
    AlgInterval v;
    if (!d || eval_decl_value(&values, d, &v, NULL) != EVAL_OK || v.lo != v.hi || !isfinite(v.lo)) return NULL;
    AlgExpr *num = alg_num_double(g, v.lo);
    e = alg_subst(g, e, syms[i], num);
    *holds = alg_and(g, *holds, alg_cmp(g, ALG_CMP_EQ, alg_sym(g, syms[i]), num));
  }
  return e;
}

/* The branch index value = step * index + first of a piece, where both are integers once the
** params are set (reduce_at_values); 0 where they are not. */
static int piece_affine(RCtx *c, const RPiece *p, AlgExpr **holds, long *step, long *first) {
  AlgCtx *g = c->alg;
  int ok = 1;
  AlgExpr *at0 = reduce_at_values(c, alg_subst(g, p->value, p->index, alg_num_int(g, 0)), holds);
  AlgExpr *at1 = reduce_at_values(c, alg_subst(g, p->value, p->index, alg_num_int(g, 1)), holds);
  if (!at0 || !at1) return 0;
  *first = alg_num_long(at0, &ok);
  *step = alg_num_long(alg_sub(g, at1, at0), &ok);
  AlgExpr *line = alg_add(g, alg_mul(g, alg_num_int(g, *step), alg_sym(g, p->index)), alg_num_int(g, *first));
  AlgExpr *value = reduce_at_values(c, p->value, holds);
  return ok && value && *step >= 1 && *step <= LIST_BUDGET && labs(*first) <= LIST_BUDGET &&
         alg_is_num(alg_expand(g, alg_sub(g, value, line)), 0);
}

/* Restores the min-heap order of h[0 .. n - 1] below its root. */
static void sift_down(double *h, long n) {
  long i = 0;
  for (;;) {
    long l = 2 * i + 1, r = l + 1, s = i;
    if (l < n && h[l] < h[s]) s = l;
    if (r < n && h[r] < h[s]) s = r;
    if (s == i) return;
    double t = h[i]; h[i] = h[s]; h[s] = t;
    i = s;
  }
}

/* The time until the last of n requests of sizes x ends, made at one instant in this order at m
** free servers, FCFS starting each when the earliest server frees; -1 when out of memory. */
static double list_end(const double *x, long n, long m) {
  long s = m < n ? m : n;
  double *h = calloc((size_t)(s > 0 ? s : 1), sizeof *h), last = 0;
  if (!h) return -1;
  for (long j = 0; j < n; j++) {
    h[0] += x[j];   /* the earliest free server takes request j */
    if (h[0] > last) last = h[0];
    sift_down(h, s);
  }
  free(h);
  return last;
}

/* Rule (an FCFS list evaluated at the point; L and U): par (k = a, b) over pieces (ranges, or
** residue classes k = s i + f: their sizes are put back in the order of k) whose branches each run
** delays h, one use(r, t(k)) of one plain FCFS
** resource r of m servers without hand-off (or an `if` whose two sides are one such use each), and
** delays e, h and e free of k and the same in every piece (U only where no piece runs delays
** alone: those branches end at their own times, which the list does not see); the par runs alone (RCtx.concurrent ==
** 0). Where the ranges and m are numbers (the params set) and t(k) = u x(k), u the factors free
** of k, x(k) a number at every branch (at most LIST_BUDGET): all n requests are made at the instant
** h, in index order (LANGUAGE.md §6), at servers nothing else uses, and FCFS starts each in turn
** when the earliest server frees, so the last ends at h + M u, M the list's end in units of u
** (evaluated; scaling every size by u >= 0 scales every start and end; a const that is not a
** factor is read at its value). The branch of the request that ends last runs e after it:
**   T = h + M u + e
** M is evaluated in doubles from the sizes' midpoints: a list's end moves by at most n w when each
** size moves by at most w (a start is the least of the servers' free times, each the sum of the
** sizes before), and each of the at most n sums it adds rounds by at most one part in 2^52 of M:
** L takes M (1 - 4 n eps) - n w, U M (1 + 4 n eps) + n w (M itself where every size is an
** integer and their sum below 2^52: every sum is then exact). Params and consts that the ranges,
** m or the sizes name are read at their values, the bound holding where they take them
** (reduce_at_values). Tasks of 1, 2, 4 units by i % 3 on a pool of 8, N = 16: 8 start at 0, the next at
** 1, 1, 1, 2, 2, 2, 2, 3: 6 units (the load: 4.5). */
void reduce_fcfs_list(RCtx *c, REnv *env, const RPiece *pieces, int count, Summary *out) {
  AlgCtx *g = c->alg;
  if (c->concurrent || count < 1 || env->depth >= EVAL_MAX_INDICES) return;
  BShape first = {NULL, NULL, NULL, NULL, 0, DISC_FCFS};
  AlgExpr **sizes = arena_alloc(&c->arena, (size_t)count * sizeof *sizes), *u = NULL;
  long *from = arena_alloc(&c->arena, (size_t)count * 4 * sizeof *from), *to = from + count, total = 0;
  long *step = to + count, *first_key = step + count;   /* a piece's branch index: step i + first_key */
  int checks = c->checks.count;   /* the expressions are read again: their checks are made */
  AlgExpr *holds = alg_num_int(g, 1);   /* where the params take the values the list is read at */
  int k, ok = 1, quiet = 0;   /* quiet: a piece whose branches run delays only */
  for (k = 0; k < count && ok; k++) {
    const RPiece *p = &pieces[k];
    BShape sh;
    AlgExpr *a = reduce_at_values(c, p->lo, &holds), *b = reduce_at_values(c, p->hi, &holds);
    if (!a || !b) { ok = 0; break; }
    from[k] = alg_num_long(a, &ok);
    to[k] = alg_num_long(b, &ok);
    sizes[k] = NULL;
    if (!ok || !piece_affine(c, p, &holds, &step[k], &first_key[k])) { ok = 0; break; }
    if (to[k] < from[k]) continue;   /* an empty piece */
    if (to[k] - from[k] + 1 > LIST_BUDGET - total) { ok = 0; break; }
    total += to[k] - from[k] + 1;
    reduce_batch_shape(c, env, p, DISC_FCFS, &sh);
    if (!sh.ok || alg_contains(sh.head, p->index) || alg_contains(sh.tail, p->index)) { ok = 0; break; }
    if (!sh.res) { quiet = 1; continue; }   /* delays only: no request (and no U: see below) */
    if (!first.res) { first = sh; u = unit_of(g, sh.t, p->index); }
    else if (sh.res != first.res || !alg_is_num(alg_sub(g, sh.head, first.head), 0) ||
             !alg_is_num(alg_sub(g, sh.tail, first.tail), 0)) { ok = 0; break; }
    if (!(sizes[k] = reduce_at_values(c, alg_div(g, sh.t, u), &holds))) { ok = 0; break; }
  }
  c->checks.count = checks;
  AlgExpr *mult = first.res ? reduce_at_values(c, reduce_mult(c, first.res), &holds) : NULL;
  long m = mult ? alg_num_long(mult, &ok) : 0;
  if (!ok || !first.res || m < 1 || !alg_is_nonneg(g, u)) return;
  LSizes sz = {malloc((size_t)total * sizeof(double)), malloc((size_t)total * sizeof(double)), 0, 0, 0, 1};
  for (k = 0; k < count && ok && sz.mid && sz.key; k++)
    if (sizes[k]) ok = read_sizes(c, sizes[k], pieces[k].index, from[k], to[k], step[k], first_key[k], &sz);
  ok = ok && sz.mid && sz.key && sort_by_branch(&sz);   /* FCFS takes them in the par's index order */
  double end = ok ? list_end(sz.mid, sz.n, m) : -1;
  free(sz.mid);
  free(sz.key);
  if (end < 0) return;
  double slack = 4 * (double)sz.n * DBL_EPSILON * end + (double)sz.n * sz.width;
  if (sz.whole && sz.sum < 0x1p52) slack = 0;   /* integers: every sum exact */
  AlgExpr *lo = alg_mul(g, alg_num_double(g, end - slack > 0 ? end - slack : 0), u);
  AlgExpr *hi = alg_mul(g, alg_num_double(g, end + slack), u);
  AlgExpr *zero = alg_num_int(g, 0);
  out->L = alg_max(g, out->L, alg_cond(g, holds, alg_add(g, alg_add(g, first.head, lo), first.tail), zero));
  if (!quiet)
    out->U = alg_cond(g, holds, alg_min(g, out->U, alg_add(g, alg_add(g, first.head, hi), first.tail)), out->U);
}
