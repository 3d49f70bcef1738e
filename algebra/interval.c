/*
** interval.c — the AlgInterval API of interval.h over the rounding kernel of ival_kernel.h
** (which documents how every operation encloses its exact result).
*/
#include "interval.h"

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "ival_kernel.h"

static ik_ival to_ik(AlgInterval a) { return ik_make(a.lo, a.hi); }
static AlgInterval from_ik(ik_ival a) { AlgInterval r = {a.lo, a.hi}; return r; }

AlgInterval ival_make(double lo, double hi) {
  AlgInterval r = {lo, hi};
  if (lo != lo || hi != hi) r = ival_entire();   /* NaN ends: nothing is known */
  return r;
}
AlgInterval ival_point(double x) { return ival_make(x, x); }
AlgInterval ival_entire(void) { return from_ik(ik_entire()); }

AlgInterval ival_add(AlgInterval a, AlgInterval b) { return from_ik(ik_add(to_ik(a), to_ik(b))); }
AlgInterval ival_sub(AlgInterval a, AlgInterval b) { return from_ik(ik_sub(to_ik(a), to_ik(b))); }
AlgInterval ival_mul(AlgInterval a, AlgInterval b) { return from_ik(ik_mul(to_ik(a), to_ik(b))); }
AlgInterval ival_div(AlgInterval a, AlgInterval b) { return from_ik(ik_div(to_ik(a), to_ik(b))); }
AlgInterval ival_neg(AlgInterval a) { return from_ik(ik_neg(to_ik(a))); }
AlgInterval ival_mod(AlgInterval a, AlgInterval b) { return from_ik(ik_mod(to_ik(a), to_ik(b))); }
AlgInterval ival_pow(AlgInterval b, AlgInterval e) { return from_ik(ik_pow(to_ik(b), to_ik(e))); }
AlgInterval ival_min(AlgInterval a, AlgInterval b) { return from_ik(ik_min(to_ik(a), to_ik(b))); }
AlgInterval ival_max(AlgInterval a, AlgInterval b) { return from_ik(ik_max(to_ik(a), to_ik(b))); }
AlgInterval ival_abs(AlgInterval a) { return from_ik(ik_abs(to_ik(a))); }
AlgInterval ival_sqrt(AlgInterval a) { return from_ik(ik_sqrt(to_ik(a))); }
AlgInterval ival_exp(AlgInterval a) { return from_ik(ik_exp(to_ik(a))); }
AlgInterval ival_log(AlgInterval a) { return from_ik(ik_log(to_ik(a))); }
AlgInterval ival_log2(AlgInterval a) { return from_ik(ik_log2(to_ik(a))); }
AlgInterval ival_ceil(AlgInterval a) { return from_ik(ik_ceil(to_ik(a))); }
AlgInterval ival_floor(AlgInterval a) { return from_ik(ik_floor(to_ik(a))); }
AlgInterval ival_hull(AlgInterval a, AlgInterval b) { return from_ik(ik_hull(to_ik(a), to_ik(b))); }
AlgInterval ival_cmp(int op, AlgInterval a, AlgInterval b) {
  return from_ik(ik_cmp(op, to_ik(a), to_ik(b)));
}

AlgInterval ival_powi(AlgInterval a, long long n) { return from_ik(ik_powi(to_ik(a), n)); }
AlgInterval ival_recip(AlgInterval a) { return from_ik(ik_div(ik_make(1.0, 1.0), to_ik(a))); }
AlgInterval ival_truth(AlgInterval c) { return from_ik(ik_truth(to_ik(c))); }
AlgInterval ival_and(AlgInterval a, AlgInterval b) { return from_ik(ik_and(to_ik(a), to_ik(b))); }
AlgInterval ival_or(AlgInterval a, AlgInterval b) { return from_ik(ik_or(to_ik(a), to_ik(b))); }
AlgInterval ival_not(AlgInterval a) { return from_ik(ik_not(to_ik(a))); }
AlgInterval ival_cond(AlgInterval c, AlgInterval t, AlgInterval f) {
  return from_ik(ik_cond(to_ik(c), to_ik(t), to_ik(f)));
}
double ival_next_up(double x) { return ik_next_up(x); }
double ival_next_down(double x) { return ik_next_down(x); }

/* A finite point of a (0 for the whole line, the finite end for a half-line). */
double ival_mid(AlgInterval a) {
  if (a.lo == -INFINITY && a.hi == INFINITY) return 0.0;
  if (a.lo == -INFINITY) return a.hi == -INFINITY ? -DBL_MAX : a.hi;
  if (a.hi == INFINITY) return a.lo == INFINITY ? DBL_MAX : a.lo;
  double m = 0.5 * a.lo + 0.5 * a.hi;   /* no overflow; within [lo, hi] */
  return m < a.lo ? a.lo : (m > a.hi ? a.hi : m);
}
/* hi - lo rounded up. */
double ival_width(AlgInterval a) { return ik_add_hi(a.hi, -a.lo); }
int ival_is_point(AlgInterval a) { return a.lo == a.hi; }
int ival_contains(AlgInterval a, double x) { return a.lo <= x && x <= a.hi; }
int ival_contains_zero(AlgInterval a) { return ival_contains(a, 0.0); }
int ival_subset(AlgInterval inner, AlgInterval outer) {
  return outer.lo <= inner.lo && inner.hi <= outer.hi;
}
