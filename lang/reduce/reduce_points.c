/*
** reduce_points.c — member maps proved one-to-one by evaluation (docs/reduction.md, "Maps
** evaluated at every point"): where the branch count and the ranges of the loop indices a member
** index names are numbers (a model reduced with its params set, `-D P=1024`), the index is
** evaluated at every branch for every value of those indices, and the values are compared.
** Nothing here is symbolic: it reads what no rewriting reads (`xr(p, k)`, a `fn` that sums the
** bits of p xor k), at a bounded cost.
*/
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "reduce_internal.h"
#include "tape.h"

/* Evaluations one question may cost (branches times the values of the other indices): beyond,
** the map is left undecided. */
#define POINTS_BUDGET (1L << 20)
/* The same for counting a map that is not one-to-one where other indices are walked: every row
** must be walked (the one-to-one question stops at the first member named twice), so it is asked
** within less (one row, the branches alone, may still hold up to POINTS_BUDGET). */
#define POINTS_DEALT_BUDGET (1L << 16)
/* Indices besides the branch's an index may name. */
#define POINTS_MAX_OUTER 4
/* Answers remembered (the walks ask about one index several times). */
#define POINTS_MEMO 32
/* Largest magnitude of a value read as an exact integer (doubles hold every integer below 2^53). */
#define POINTS_EXACT 4503599627370496.0

/* What evaluation found about one index over the branches, for every value of the other indices
** (each a row of n values). */
typedef struct RPointsCounts {
  int known;              /* 1 when every value of every row was an exact integer */
  long most;              /* the largest number of branches naming one member, over the rows */
  long fullest;           /* the least over the rows of a row's largest count */
  long first;             /* the branches naming the member of the range's first branch, the
                             same in every row; -1 when the rows differ */
  int complete;           /* 1 when every row was walked (0: cut short or not decided) */
} RPointsCounts;

/* One remembered answer. */
typedef struct RPointsMemo {
  AlgExpr *e, *lo, *hi;   /* the index and the branch range (interned: compared by address) */
  AlgSymbol *k;           /* the branch index */
  int stop;               /* 1 for the one-to-one question (the walk cut short), 0 for the counts */
  RPointsCounts counts;   /* what evaluation found (known 0: not decided) */
} RPointsMemo;

static int by_value(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

/* Counts one row of n values into *r: 0 when a value is no exact integer (then nothing is
** known), else 1 with the row's largest count of one value and the count of the first branch's
** value folded in (sorted: scratch). */
static int row_counts(const double *lo, const double *hi, double *sorted, long n, RPointsCounts *r, int first_row) {
  for (long j = 0; j < n; j++) {
    if (lo[j] != hi[j] || floor(lo[j]) != lo[j] || fabs(lo[j]) >= POINTS_EXACT) return 0;
    sorted[j] = lo[j];
  }
  qsort(sorted, (size_t)n, sizeof *sorted, by_value);
  long best = 1, run = 1, at_first = 0;
  for (long j = 0; j < n; j++) {
    if (j > 0) run = sorted[j] == sorted[j - 1] ? run + 1 : 1;
    if (run > best) best = run;
    at_first += sorted[j] == lo[0];
  }
  if (first_row) { r->most = r->fullest = best; r->first = at_first; return 1; }
  if (best > r->most) r->most = best;
  if (best < r->fullest) r->fullest = best;
  if (r->first != at_first) r->first = -1;
  return 1;
}

/* Rule (counts by evaluation): for every value of every other symbol e names, e's values at the
** n branches k = a .. b are exact integers, and a member is named by at most `most` of them, some
** member by at least `fullest` in every row, and the first branch's member by exactly `first` in
** every row (-1 where rows differ). The other symbols must be loop indices whose bounds are
** numbers (a loop index's values lie within the bounds of its range's ends: a superset of the
** values it takes, so what holds at every point of the superset holds at the points met; a
** superset can only raise most, lower fullest and unsettle first), and the points at most
** budget. The values come from interval evaluation: a value is accepted only as a point interval
** on an integer, so rounding cannot make two members look distinct or alike. With stop set, the
** walk ends at the first row where a member is named twice (the one-to-one question: most > 1
** is then all that is known, and r->complete stays 0). */
static void points_count(RCtx *c, AlgExpr *e, AlgSymbol *k, long a, long b, long budget, int stop, RPointsCounts *r) {
  memset(r, 0, sizeof *r);
  AlgTape *tape = NULL;
  char err[128];
  if (alg_tape_compile(c->alg, e, &tape, err, sizeof err) != 0) return;
  size_t nin = alg_tape_ninputs(tape);
  long n = b - a + 1, points = n, first[POINTS_MAX_OUTER + 1], last[POINTS_MAX_OUTER + 1];
  int slot[POINTS_MAX_OUTER + 1], nouter = 0, kslot = -1, ok = nin <= POINTS_MAX_OUTER + 1;
  for (size_t i = 0; i < nin && ok; i++) {
    AlgSymbol *s = alg_tape_input(tape, i);
    if (s == k) { kslot = (int)i; continue; }
    AlgAssume as = alg_symbol_assume(s);
    ok = alg_symbol_kind(s) == ALG_SYM_INDEX && isfinite(as.lo) && isfinite(as.hi) && fabs(as.lo) < 1e9 &&
         fabs(as.hi) < 1e9;
    if (!ok) break;
    first[nouter] = (long)ceil(as.lo); last[nouter] = (long)floor(as.hi);
    if (last[nouter] < first[nouter]) {   /* no value: the par never runs, nothing to tell apart */
      alg_tape_free(tape);
      *r = (RPointsCounts){1, 1, 1, 1, 1};
      return;
    }
    points *= last[nouter] - first[nouter] + 1;
    ok = points <= budget;
    slot[nouter++] = (int)i;
  }
  if (!ok || kslot < 0) { alg_tape_free(tape); return; }
  double *buf = malloc((size_t)n * (2 * nin + 3) * sizeof *buf);
  const double **in = malloc(nin * sizeof *in);
  if (!buf || !in) { free(buf); free(in); alg_tape_free(tape); return; }
  double *out_lo = buf + (size_t)n * 2 * nin, *out_hi = out_lo + n, *sorted = out_hi + n;
  for (size_t i = 0; i < nin; i++) in[i] = buf + (size_t)n * i;
  double *kcol = buf + (size_t)n * (size_t)kslot;
  for (long j = 0; j < n; j++) kcol[j] = (double)(a + j);
  long at[POINTS_MAX_OUTER];
  for (int o = 0; o < nouter; o++) at[o] = first[o];
  int known = 1, row = 0;
  for (;;) {
    for (int o = 0; o < nouter; o++) {
      double *col = buf + (size_t)n * (size_t)slot[o];
      for (long j = 0; j < n; j++) col[j] = (double)at[o];
    }
    known = alg_tape_eval(tape, (size_t)n, in, in, out_lo, out_hi) == 0 && row_counts(out_lo, out_hi, sorted, n, r, row++ == 0);
    if (!known || (stop && r->most > 1)) break;
    int o = 0;
    while (o < nouter && at[o] == last[o]) { at[o] = first[o]; o++; }
    if (o == nouter) { r->complete = 1; break; }
    at[o]++;
  }
  r->known = known;
  free(buf);
  free(in);
  alg_tape_free(tape);
}

/* The counts of e over k = lo .. hi (numbers), by points_count (stop: the one-to-one question,
** cut short at the first member named twice), remembered per question; NULL when the range is no
** numbers or too long. */
static const RPointsCounts *points_counts(RCtx *c, AlgExpr *e, AlgSymbol *k, AlgExpr *lo, AlgExpr *hi, int stop) {
  int ok = 1;
  long a = alg_num_long(lo, &ok), b = alg_num_long(hi, &ok);
  if (!ok || b - a + 1 < 2 || b - a + 1 > POINTS_BUDGET) return NULL;
  if (!c->points_memo) c->points_memo = arena_alloc(&c->arena, POINTS_MEMO * sizeof *c->points_memo);
  for (int j = 0; j < c->npoints_memo && j < POINTS_MEMO; j++) {
    const RPointsMemo *m = &c->points_memo[j];
    if (m->e == e && m->k == k && m->lo == lo && m->hi == hi && m->stop == stop) return &m->counts;
  }
  RPointsMemo *m = &c->points_memo[c->npoints_memo++ % POINTS_MEMO];
  m->e = e; m->k = k; m->lo = lo; m->hi = hi; m->stop = stop;
  points_count(c, e, k, a, b, stop ? POINTS_BUDGET : POINTS_DEALT_BUDGET, stop, &m->counts);
  return &m->counts;
}

/* 1 when e is proved one-to-one in k over lo..hi by evaluation (points_count: no member named
** twice in any row). */
int reduce_points_injective(RCtx *c, AlgExpr *e, AlgSymbol *k, AlgExpr *lo, AlgExpr *hi) {
  const RPointsCounts *r = points_counts(c, e, k, lo, hi, 1);
  return r && r->known && r->complete && r->most == 1;
}

/* Rule (members dealt by evaluation): the counts of points_count, where every row was walked: no
** member is named by more than *most branches, some member by at least *fullest, the first
** branch's member by exactly *first (-1: not known). Returns 1, or 0 when not decided.
** `nic[floor(((p + 1) % P) / 2)]` (two ranks share a node's nic, each sends to the next rank):
** most 2 at every P >= 3. */
int reduce_points_dealt(RCtx *c, AlgExpr *e, AlgSymbol *k, AlgExpr *lo, AlgExpr *hi, long *most, long *fullest,
                        long *first) {
  const RPointsCounts *r = points_counts(c, e, k, lo, hi, 0);
  if (!r || !r->known || !r->complete) return 0;
  *most = r->most; *fullest = r->fullest; *first = r->first;
  return 1;
}
