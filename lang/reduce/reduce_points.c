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
/* Indices besides the branch's an index may name. */
#define POINTS_MAX_OUTER 4
/* Answers remembered (the walks ask about one index several times). */
#define POINTS_MEMO 32
/* Largest magnitude of a value read as an exact integer (doubles hold every integer below 2^53). */
#define POINTS_EXACT 4503599627370496.0

/* One remembered answer. */
typedef struct RPointsMemo {
  AlgExpr *e, *lo, *hi;   /* the index and the branch range (interned: compared by address) */
  AlgSymbol *k;           /* the branch index */
  int answer;             /* 1 one-to-one, 0 not proved */
} RPointsMemo;

/* The integer value of a number node that fits a long, or 0 with *ok cleared. */
long reduce_points_whole(AlgExpr *x, int *ok) {
  if (alg_kind(x) != ALG_NUM || mpz_cmp_ui(mpq_denref(alg_num_value(x)), 1) != 0 ||
      !mpz_fits_slong_p(mpq_numref(alg_num_value(x)))) { *ok = 0; return 0; }
  return mpz_get_si(mpq_numref(alg_num_value(x)));
}

static int by_value(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

/* 1 when the n values of one row are exact integers, pairwise distinct (sorted in place). */
static int row_distinct(const double *lo, const double *hi, double *sorted, long n) {
  for (long j = 0; j < n; j++) {
    if (lo[j] != hi[j] || floor(lo[j]) != lo[j] || fabs(lo[j]) >= POINTS_EXACT) return 0;
    sorted[j] = lo[j];
  }
  qsort(sorted, (size_t)n, sizeof *sorted, by_value);
  for (long j = 1; j < n; j++) if (sorted[j] == sorted[j - 1]) return 0;
  return 1;
}

/* Rule (one-to-one by evaluation): e is one-to-one in k over lo..hi (numbers) when, for every
** value of every other symbol e names, its values at the n branches are exact integers, pairwise
** distinct. Those symbols must be loop indices whose bounds are numbers (a loop index's values
** lie within the bounds of its range's ends: a superset of the values it takes, so what holds
** at every point of the superset holds at the points met), and the points at most
** POINTS_BUDGET. The values come from interval evaluation: a value is accepted only as a point
** interval on an integer, so rounding cannot make two members look distinct. */
static int points_check(RCtx *c, AlgExpr *e, AlgSymbol *k, long a, long b) {
  AlgTape *tape = NULL;
  char err[128];
  if (alg_tape_compile(c->alg, e, &tape, err, sizeof err) != 0) return 0;
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
    if (last[nouter] < first[nouter]) { alg_tape_free(tape); return 1; }   /* no value: nothing to tell apart */
    points *= last[nouter] - first[nouter] + 1;
    ok = points <= POINTS_BUDGET;
    slot[nouter++] = (int)i;
  }
  if (!ok || kslot < 0) { alg_tape_free(tape); return 0; }
  double *buf = malloc((size_t)n * (2 * nin + 3) * sizeof *buf);
  const double **in = malloc(nin * sizeof *in);
  if (!buf || !in) { free(buf); free(in); alg_tape_free(tape); return 0; }
  double *out_lo = buf + (size_t)n * 2 * nin, *out_hi = out_lo + n, *sorted = out_hi + n;
  for (size_t i = 0; i < nin; i++) in[i] = buf + (size_t)n * i;
  double *kcol = buf + (size_t)n * (size_t)kslot;
  for (long j = 0; j < n; j++) kcol[j] = (double)(a + j);
  long at[POINTS_MAX_OUTER];
  for (int o = 0; o < nouter; o++) at[o] = first[o];
  int distinct = 1;
  while (distinct) {
    for (int o = 0; o < nouter; o++) {
      double *col = buf + (size_t)n * (size_t)slot[o];
      for (long j = 0; j < n; j++) col[j] = (double)at[o];
    }
    distinct = alg_tape_eval(tape, (size_t)n, in, in, out_lo, out_hi) == 0 && row_distinct(out_lo, out_hi, sorted, n);
    int o = 0;
    while (o < nouter && at[o] == last[o]) { at[o] = first[o]; o++; }
    if (o == nouter) break;
    at[o]++;
  }
  free(buf);
  free(in);
  alg_tape_free(tape);
  return distinct;
}

/* 1 when e is proved one-to-one in k over lo..hi by points_check (remembered per question). */
int reduce_points_injective(RCtx *c, AlgExpr *e, AlgSymbol *k, AlgExpr *lo, AlgExpr *hi) {
  int ok = 1;
  long a = reduce_points_whole(lo, &ok), b = reduce_points_whole(hi, &ok);
  if (!ok || b - a + 1 < 2 || b - a + 1 > POINTS_BUDGET) return 0;
  if (!c->points_memo) c->points_memo = arena_alloc(&c->arena, POINTS_MEMO * sizeof *c->points_memo);
  for (int j = 0; j < c->npoints_memo && j < POINTS_MEMO; j++) {
    const RPointsMemo *m = &c->points_memo[j];
    if (m->e == e && m->k == k && m->lo == lo && m->hi == hi) return m->answer;
  }
  int answer = points_check(c, e, k, a, b);
  RPointsMemo *m = &c->points_memo[c->npoints_memo++ % POINTS_MEMO];
  m->e = e; m->k = k; m->lo = lo; m->hi = hi; m->answer = answer;
  return answer;
}
