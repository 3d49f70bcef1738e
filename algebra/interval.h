/*
** interval.h — closed intervals of doubles with outward rounding: every operation returns an
** interval that contains the exact result for all points of its arguments. The empty interval
** is never produced; operations undefined somewhere on their arguments (division by an interval
** containing 0, log of a non-positive, sqrt of a negative) return the whole line [-inf, inf] and
** callers that must report such cases test the arguments first (ival_contains_zero, ...).
*/
#ifndef PAMC_INTERVAL_H
#define PAMC_INTERVAL_H

typedef struct AlgInterval {
  double lo;            /* lower end, may be -inf */
  double hi;            /* upper end, may be +inf; lo <= hi always */
} AlgInterval;

AlgInterval ival_make(double lo, double hi);   /* requires lo <= hi */
AlgInterval ival_point(double x);
AlgInterval ival_entire(void);                 /* [-inf, inf] */

AlgInterval ival_add(AlgInterval a, AlgInterval b);
AlgInterval ival_sub(AlgInterval a, AlgInterval b);
AlgInterval ival_mul(AlgInterval a, AlgInterval b);
AlgInterval ival_div(AlgInterval a, AlgInterval b);
AlgInterval ival_neg(AlgInterval a);
AlgInterval ival_mod(AlgInterval a, AlgInterval b);  /* a - b*floor(a/b); exact for integer points */
AlgInterval ival_pow(AlgInterval base, AlgInterval exponent); /* integer exponents exactly-enclosed */
AlgInterval ival_min(AlgInterval a, AlgInterval b);
AlgInterval ival_max(AlgInterval a, AlgInterval b);
AlgInterval ival_abs(AlgInterval a);
AlgInterval ival_sqrt(AlgInterval a);
AlgInterval ival_exp(AlgInterval a);
AlgInterval ival_log(AlgInterval a);
AlgInterval ival_log2(AlgInterval a);
AlgInterval ival_ceil(AlgInterval a);
AlgInterval ival_floor(AlgInterval a);
AlgInterval ival_hull(AlgInterval a, AlgInterval b);

/* Comparisons give [0,0], [1,1] or [0,1] when undecided. */
AlgInterval ival_cmp(int op, AlgInterval a, AlgInterval b);  /* op: 0 ==, 1 !=, 2 <, 3 <=, 4 >, 5 >= */

double ival_mid(AlgInterval a);
double ival_width(AlgInterval a);
int ival_is_point(AlgInterval a);
int ival_contains(AlgInterval a, double x);
int ival_contains_zero(AlgInterval a);
int ival_subset(AlgInterval inner, AlgInterval outer);

/* Added with interval.c: the operations the evaluators share, and the kernel's ulp steps. */
AlgInterval ival_powi(AlgInterval a, long long n);   /* a^n, |n| < 2^62, by directed products */
AlgInterval ival_recip(AlgInterval a);               /* 1 / a */
AlgInterval ival_truth(AlgInterval c);               /* [0,0] if c = 0, [1,1] if 0 not in c, else [0,1] */
AlgInterval ival_and(AlgInterval a, AlgInterval b);  /* on truths of a and b */
AlgInterval ival_or(AlgInterval a, AlgInterval b);
AlgInterval ival_not(AlgInterval a);
AlgInterval ival_cond(AlgInterval c, AlgInterval t, AlgInterval f);  /* c ? t : f, hull if undecided */
double ival_next_up(double x);     /* nextafter(x, +inf) */
double ival_next_down(double x);   /* nextafter(x, -inf) */

#endif
