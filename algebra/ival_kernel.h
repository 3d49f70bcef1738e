/*
** ival_kernel.h — the one definition of outward-rounded interval arithmetic on doubles, shared
** by interval.c (AlgInterval API), tape.c (batch evaluation) and print_c.c (emitted C code).
**
** The code sits inside ALG_KERNEL( ... ). By default the macro expands to the code itself, so
** including this file defines static inline functions ik_*. print_c.c defines ALG_KERNEL before
** including it so that it becomes a string constant instead: the C printer pastes that text into
** the functions it emits, and compiled formulas round exactly as the library does (bit for bit).
** Hence the rules for the code below: no preprocessor lines, no `//` comments, only names from
** <math.h>, <float.h>, <stdint.h> and <string.h> (the emitted file includes those four).
**
** Rounding. Operations compute with the default round-to-nearest mode, which the compiler and
** libm keep without -frounding-math, then decide the direction of the rounding error:
** - + and -: the error of s = a + b is computed exactly (Knuth's TwoSum);
** - *: the error of p = a * b exactly, as fma(a, b, -p) (C11 fma rounds once, so the error of a
**   product, which is representable, comes out exact; where the processor has FMA the tape's
**   vector clones use the instruction, elsewhere libm's fma is correctly rounded too);
** - / and sqrt: the sign of the remainder a - q*b (resp. a - s*s), computed exactly from
**   TwoProduct and Sterbenz's lemma.
** A bound moves one ulp outward (nextafter, done on the bits so that loops vectorise) only when
** the rounded result lies on the wrong side of the exact one, so exact results stay exact (integers
** below 2^53, dyadic fractions) and inexact ones are enclosed within one ulp. Where the error
** terms are not trustworthy (overflow, operands beyond 2^995, results below 2^-968) both ends move
** one ulp outward unconditionally, which is always safe.
** exp, log, log2, pow: glibc documents (manual, "Errors in Math Functions") a maximum error of
** 1 ulp for these on the supported targets (since 2.28 they are below 0.52 ulp); the kernel relies
** on <= 1 ulp and moves each end 2 ulps outward. Exact cases kept exact: exp(0), log(1),
** log2(2^k), integer powers (by repeated directed multiplication, never pow()).
** Infinite ends: 0 * inf is 0 (an unbounded end times zero is zero), inf - inf and inf / inf give
** the whole line on that end. Operations undefined somewhere on their arguments give the entire
** line [-inf, inf] (interval.h).
*/
#ifndef ALG_KERNEL
#define ALG_KERNEL(...) __VA_ARGS__
#endif

ALG_KERNEL(
typedef struct ik_ival { double lo; double hi; } ik_ival;

static inline ik_ival ik_make(double lo, double hi) { ik_ival r; r.lo = lo; r.hi = hi; return r; }
static inline ik_ival ik_entire(void) { return ik_make(-INFINITY, INFINITY); }

/* nextafter(x, +inf) for every x, NaN included, without a call: +-0 steps to the smallest
   subnormal, -inf to -DBL_MAX, +inf and NaN stay. */
static inline double ik_next_up(double x) {
  double y = x + 0.0;
  int64_t bits;
  memcpy(&bits, &y, sizeof bits);
  bits += bits >= 0 ? 1 : -1;
  memcpy(&y, &bits, sizeof y);
  return x < INFINITY ? y : x;
}
static inline double ik_next_down(double x) { return -ik_next_up(-x); }

/* The exact error a + b - s of s = fl(a + b); NaN when an operand or s is infinite. */
static inline double ik_add_err(double a, double b, double s) {
  double bb = s - a;
  return (a - (s - bb)) + (b - bb);
}
/* Lower and upper bounds of the exact a + b. */
static inline double ik_add_lo(double a, double b) {
  double s = a + b, e = ik_add_err(a, b, s);
  double r = e >= 0 ? s : ik_next_down(s);
  return r == r ? r : -INFINITY;
}
static inline double ik_add_hi(double a, double b) {
  double s = a + b, e = ik_add_err(a, b, s);
  double r = e <= 0 ? s : ik_next_up(s);
  return r == r ? r : INFINITY;
}

/* The exact error a * b - p of p = fl(a * b) when the terms of TwoProduct are exact, else NaN
   (overflow of the split, underflow of the error). p is never NaN here. */
static inline double ik_mul_err(double a, double b, double p) {
  double e = fma(a, b, -p);
  double m = fabs(p);
  if (m >= 0x1p-968 && m <= 0x1p1000 && fabs(a) <= 0x1p995 && fabs(b) <= 0x1p995) return e;
  return p == 0 && (a == 0 || b == 0) ? 0.0 : NAN;
}
/* fl(a * b) with 0 * inf = 0. */
static inline double ik_mul_near(double a, double b) {
  double p = a * b;
  return p == p ? p : 0.0;
}
static inline double ik_mul_lo(double a, double b) {
  double p = ik_mul_near(a, b), e = ik_mul_err(a, b, p);
  return e >= 0 ? p : ik_next_down(p);
}
static inline double ik_mul_hi(double a, double b) {
  double p = ik_mul_near(a, b), e = ik_mul_err(a, b, p);
  return e <= 0 ? p : ik_next_up(p);
}

/* Sign of the exact a / b - q for q = fl(a / b), b != 0: -1, 0, 1, or 2 when unknown. */
static inline int ik_div_dir(double a, double b, double q) {
  double p = ik_mul_near(q, b), e = ik_mul_err(q, b, p);
  double r = (a - p) - e;
  if (r != r || q != q || fabs(q) == INFINITY || fabs(a) == INFINITY) return 2;
  if (r == 0) return 0;
  return (r > 0) == (b > 0) ? 1 : -1;
}
static inline double ik_div_lo(double a, double b) {
  double q = a / b;
  int d = ik_div_dir(a, b, q);
  if (q != q) return -INFINITY;
  return d >= 0 && d != 2 ? q : ik_next_down(q);
}
static inline double ik_div_hi(double a, double b) {
  double q = a / b;
  int d = ik_div_dir(a, b, q);
  if (q != q) return INFINITY;
  return d <= 0 ? q : ik_next_up(q);
}

/* Bounds of sqrt(a), a >= 0: the sign of a - s*s says on which side s = fl(sqrt(a)) lies. */
static inline int ik_sqrt_dir(double a, double s) {
  double p = ik_mul_near(s, s), e = ik_mul_err(s, s, p);
  double r = (a - p) - e;
  if (s == INFINITY) return 0;
  if (r != r) return 2;
  return r > 0 ? 1 : (r < 0 ? -1 : 0);
}
static inline double ik_sqrt_lo(double a) {
  double s = sqrt(a);
  int d = ik_sqrt_dir(a, s);
  return d >= 0 && d != 2 ? s : ik_next_down(s);
}
static inline double ik_sqrt_hi(double a) {
  double s = sqrt(a);
  int d = ik_sqrt_dir(a, s);
  return d <= 0 ? s : ik_next_up(s);
}

/* A libm result within 1 ulp of the exact value, moved 2 ulps down or up. */
static inline double ik_libm_lo(double r) { return ik_next_down(ik_next_down(r)); }
static inline double ik_libm_hi(double r) { return ik_next_up(ik_next_up(r)); }

static inline double ik_min2(double a, double b) { return a < b ? a : b; }
static inline double ik_max2(double a, double b) { return a > b ? a : b; }

/* ---- intervals ---- */

static inline ik_ival ik_add(ik_ival a, ik_ival b) {
  return ik_make(ik_add_lo(a.lo, b.lo), ik_add_hi(a.hi, b.hi));
}
static inline ik_ival ik_neg(ik_ival a) { return ik_make(-a.hi, -a.lo); }
static inline ik_ival ik_sub(ik_ival a, ik_ival b) {
  return ik_make(ik_add_lo(a.lo, -b.hi), ik_add_hi(a.hi, -b.lo));
}

static inline ik_ival ik_mul(ik_ival a, ik_ival b) {
  if (a.lo >= 0 && b.lo >= 0) return ik_make(ik_mul_lo(a.lo, b.lo), ik_mul_hi(a.hi, b.hi));
  if (a.hi <= 0 && b.hi <= 0) return ik_make(ik_mul_lo(a.hi, b.hi), ik_mul_hi(a.lo, b.lo));
  if (a.lo >= 0 && b.hi <= 0) return ik_make(ik_mul_lo(a.hi, b.lo), ik_mul_hi(a.lo, b.hi));
  if (a.hi <= 0 && b.lo >= 0) return ik_make(ik_mul_lo(a.lo, b.hi), ik_mul_hi(a.hi, b.lo));
  return ik_make(ik_min2(ik_min2(ik_mul_lo(a.lo, b.lo), ik_mul_lo(a.lo, b.hi)),
                         ik_min2(ik_mul_lo(a.hi, b.lo), ik_mul_lo(a.hi, b.hi))),
                 ik_max2(ik_max2(ik_mul_hi(a.lo, b.lo), ik_mul_hi(a.lo, b.hi)),
                         ik_max2(ik_mul_hi(a.hi, b.lo), ik_mul_hi(a.hi, b.hi))));
}

static inline ik_ival ik_div(ik_ival a, ik_ival b) {
  if (!(b.lo > 0 || b.hi < 0)) return ik_entire();
  if (a.lo >= 0 && b.lo > 0) return ik_make(ik_div_lo(a.lo, b.hi), ik_div_hi(a.hi, b.lo));
  return ik_make(ik_min2(ik_min2(ik_div_lo(a.lo, b.lo), ik_div_lo(a.lo, b.hi)),
                         ik_min2(ik_div_lo(a.hi, b.lo), ik_div_lo(a.hi, b.hi))),
                 ik_max2(ik_max2(ik_div_hi(a.lo, b.lo), ik_div_hi(a.lo, b.hi)),
                         ik_max2(ik_div_hi(a.hi, b.lo), ik_div_hi(a.hi, b.hi))));
}

static inline ik_ival ik_sqrt(ik_ival a) {
  if (!(a.lo >= 0)) return ik_entire();
  return ik_make(ik_sqrt_lo(a.lo), ik_sqrt_hi(a.hi));
}

static inline ik_ival ik_min(ik_ival a, ik_ival b) { return ik_make(ik_min2(a.lo, b.lo), ik_min2(a.hi, b.hi)); }
static inline ik_ival ik_max(ik_ival a, ik_ival b) { return ik_make(ik_max2(a.lo, b.lo), ik_max2(a.hi, b.hi)); }
static inline ik_ival ik_hull(ik_ival a, ik_ival b) { return ik_make(ik_min2(a.lo, b.lo), ik_max2(a.hi, b.hi)); }
static inline ik_ival ik_abs(ik_ival a) {
  if (a.lo >= 0) return a;
  if (a.hi <= 0) return ik_neg(a);
  return ik_make(0.0, ik_max2(-a.lo, a.hi));
}
static inline ik_ival ik_floor(ik_ival a) { return ik_make(floor(a.lo), floor(a.hi)); }
static inline ik_ival ik_ceil(ik_ival a) { return ik_make(ceil(a.lo), ceil(a.hi)); }

/* x^n for x >= 0 by binary powering, rounded down (lower) or up; exact when all products are. */
static inline double ik_powu(double x, unsigned long long n, int upper) {
  double r = 1.0;
  while (n) {
    if (n & 1) r = upper ? ik_mul_hi(r, x) : ik_max2(ik_mul_lo(r, x), 0.0);
    n >>= 1;
    if (n) x = upper ? ik_mul_hi(x, x) : ik_max2(ik_mul_lo(x, x), 0.0);
  }
  return r;
}
/* a^n for an integer n, |n| < 2^62. */
static inline ik_ival ik_powi(ik_ival a, long long n) {
  unsigned long long m = (unsigned long long)(n < 0 ? -n : n);
  ik_ival r;
  if (m == 0) return ik_make(1.0, 1.0);
  if (m & 1) {
    r.lo = a.lo >= 0 ? ik_powu(a.lo, m, 0) : -ik_powu(-a.lo, m, 1);
    r.hi = a.hi >= 0 ? ik_powu(a.hi, m, 1) : -ik_powu(-a.hi, m, 0);
  } else if (a.lo >= 0) {
    r = ik_make(ik_powu(a.lo, m, 0), ik_powu(a.hi, m, 1));
  } else if (a.hi <= 0) {
    r = ik_make(ik_powu(-a.hi, m, 0), ik_powu(-a.lo, m, 1));
  } else {
    r = ik_make(0.0, ik_powu(ik_max2(-a.lo, a.hi), m, 1));
  }
  return n < 0 ? ik_div(ik_make(1.0, 1.0), r) : r;
}
/* Bounds of x^y for x >= 0 through pow() (corners of a box where x^y is monotone in each);
   0^y is 0 for y > 0, 1 for y = 0 and inf for y < 0, as pow() gives it. */
static inline double ik_pow_lo(double x, double y) {
  double r = pow(x, y);
  return ik_max2(ik_libm_lo(r), 0.0);
}
static inline double ik_pow_hi(double x, double y) {
  double r = pow(x, y);
  return r == 0 && x == 0 ? 0.0 : ik_libm_hi(r);
}
static inline ik_ival ik_pow(ik_ival b, ik_ival e) {
  if (e.lo == e.hi && e.lo == floor(e.lo) && fabs(e.lo) < 0x1p62) return ik_powi(b, (long long)e.lo);
  if (!(b.lo >= 0) || e.lo != e.lo || e.hi != e.hi) return ik_entire();
  if (b.lo == 0 && e.lo < 0) return ik_entire();   /* 0^y, y < 0: a division by zero */
  return ik_make(ik_min2(ik_min2(ik_pow_lo(b.lo, e.lo), ik_pow_lo(b.lo, e.hi)),
                         ik_min2(ik_pow_lo(b.hi, e.lo), ik_pow_lo(b.hi, e.hi))),
                 ik_max2(ik_max2(ik_pow_hi(b.lo, e.lo), ik_pow_hi(b.lo, e.hi)),
                         ik_max2(ik_pow_hi(b.hi, e.lo), ik_pow_hi(b.hi, e.hi))));
}

static inline ik_ival ik_exp(ik_ival a) {
  double lo = exp(a.lo), hi = exp(a.hi);
  return ik_make(a.lo == 0 ? 1.0 : ik_max2(ik_libm_lo(lo), 0.0),
                 a.hi == 0 ? 1.0 : (hi == 0 ? ik_next_up(0.0) : ik_libm_hi(hi)));
}
static inline ik_ival ik_log(ik_ival a) {
  if (!(a.lo > 0)) return ik_entire();
  return ik_make(a.lo == 1 ? 0.0 : ik_libm_lo(log(a.lo)), a.hi == 1 ? 0.0 : ik_libm_hi(log(a.hi)));
}
/* log2 of a power of two is exact. */
static inline double ik_log2_end(double x, int upper) {
  int k;
  double m = frexp(x, &k), r = log2(x);
  if (m == 0.5 && x < INFINITY) return (double)(k - 1);
  return upper ? ik_libm_hi(r) : ik_libm_lo(r);
}
static inline ik_ival ik_log2(ik_ival a) {
  if (!(a.lo > 0)) return ik_entire();
  return ik_make(ik_log2_end(a.lo, 0), ik_log2_end(a.hi, 1));
}

/* a - b*floor(a/b): exact when b is a point and a lies in one period of it; otherwise the range
   of the remainder, [0, b.hi] for b > 0 and [b.lo, 0] for b < 0. */
static inline ik_ival ik_mod(ik_ival a, ik_ival b) {
  if (!(b.lo > 0 || b.hi < 0)) return ik_entire();
  if (!(a.lo > -INFINITY && a.hi < INFINITY && b.hi < INFINITY && b.lo > -INFINITY))
    return b.lo > 0 ? ik_make(0.0, b.hi) : ik_make(b.lo, 0.0);
  if (b.lo == b.hi) {
    ik_ival q = ik_floor(ik_div(a, b));
    if (q.lo == q.hi) {
      ik_ival r = ik_sub(a, ik_mul(b, q));
      return b.lo > 0 ? ik_make(ik_max2(r.lo, 0.0), ik_min2(r.hi, b.hi))
                      : ik_make(ik_max2(r.lo, b.lo), ik_min2(r.hi, 0.0));
    }
  }
  if (b.lo > 0 && a.lo >= 0 && a.hi < b.lo) return a;
  if (b.hi < 0 && a.hi <= 0 && a.lo > b.hi) return a;
  return b.lo > 0 ? ik_make(0.0, b.hi) : ik_make(b.lo, 0.0);
}

/* Comparisons: [0,0] false, [1,1] true, [0,1] undecided. op: 0 ==, 1 !=, 2 <, 3 <=, 4 >, 5 >=. */
static inline ik_ival ik_bool(int truth) { return truth ? ik_make(1.0, 1.0) : ik_make(0.0, 0.0); }
static inline ik_ival ik_cmp(int op, ik_ival a, ik_ival b) {
  ik_ival t;
  switch (op) {
  case 0: case 1:
    if (a.lo == a.hi && b.lo == b.hi && a.lo == b.lo) t = ik_bool(1);
    else if (a.hi < b.lo || b.hi < a.lo) t = ik_bool(0);
    else t = ik_make(0.0, 1.0);
    return op == 0 ? t : ik_make(1.0 - t.hi, 1.0 - t.lo);
  case 2: case 4:
    if (op == 4) { t = a; a = b; b = t; }
    if (a.hi < b.lo) return ik_bool(1);
    if (a.lo >= b.hi) return ik_bool(0);
    return ik_make(0.0, 1.0);
  case 3: case 5:
    if (op == 5) { t = a; a = b; b = t; }
    if (a.hi <= b.lo) return ik_bool(1);
    if (a.lo > b.hi) return ik_bool(0);
    return ik_make(0.0, 1.0);
  default:
    return ik_make(0.0, 1.0);
  }
}
/* Truth of a value used as a condition: [0,0] when it is 0, [1,1] when it cannot be, else [0,1]. */
static inline ik_ival ik_truth(ik_ival c) {
  if (c.lo == 0 && c.hi == 0) return ik_bool(0);
  if (c.lo > 0 || c.hi < 0) return ik_bool(1);
  return ik_make(0.0, 1.0);
}
static inline ik_ival ik_and(ik_ival a, ik_ival b) {
  a = ik_truth(a); b = ik_truth(b);
  if (a.hi == 0 || b.hi == 0) return ik_bool(0);
  if (a.lo == 1 && b.lo == 1) return ik_bool(1);
  return ik_make(0.0, 1.0);
}
static inline ik_ival ik_or(ik_ival a, ik_ival b) {
  a = ik_truth(a); b = ik_truth(b);
  if (a.lo == 1 || b.lo == 1) return ik_bool(1);
  if (a.hi == 0 && b.hi == 0) return ik_bool(0);
  return ik_make(0.0, 1.0);
}
static inline ik_ival ik_not(ik_ival a) {
  a = ik_truth(a);
  return ik_make(1.0 - a.hi, 1.0 - a.lo);
}
/* c ? t : f where both branches have been evaluated. */
static inline ik_ival ik_cond(ik_ival c, ik_ival t, ik_ival f) {
  c = ik_truth(c);
  if (c.lo == 1) return t;
  if (c.hi == 0) return f;
  return ik_hull(t, f);
}
)
