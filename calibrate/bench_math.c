/*
** bench_math.c — time per call of sqrt, exp and log (double) and per int/double conversion, each
** as a latency (a dependent chain) and a reciprocal throughput (CAL_CHAINS independent chains,
** suffix _tp), the loop overhead subtracted as in bench_arith.c (cal_measure_kernel).
**
** Chains (the value stays in a range where the function takes its usual path):
**   t_sqrt_double     x = sqrt(x), from 2: x tends to 1 (sqrtsd's time does not depend on it).
**   t_exp_double      x = exp(-x): x tends to 0.567 (the fixed point); includes one negation
**                     (an xor, one cycle).
**   t_log_double      x = log(x + 2): x tends to 1.146; includes one add.
**   t_cvt_int_double  half of an int -> double -> int round trip (x = (int)d, d = (double)x, d
**                     hidden so that the compiler cannot drop the exact round trip): the two
**                     directions cannot be chained alone.
** Throughput: the same calls on independent values (t_cvt_int_double_tp: (double)i of an int
** the compiler cannot see; t_cvt_double_int_tp: (int)d). The calls are the C library's (libm),
** as a program compiled without -ffast-math gets them.
*/
#include <math.h>
#include <stdio.h>
#include "bench_kernel.h"

/* A latency kernel: CAL_UNROLL copies of STEP on x of type T per iteration. */
#define MATH_KERNEL(NAME, T, STEP)                                               \
  static double kernel_##NAME(long iters, const CalSeed *seed) {                 \
    T x = (T)seed->x0;                                                           \
    double y = seed->y;                                                          \
    volatile T store = 0;                                                        \
    HIDE(T, x); HIDE(double, y);                                                 \
    double t0 = cal_now();                                                       \
    for (long i = 0; i < iters; i++) { REP16(STEP; HIDE(T, x);) }                \
    double t1 = cal_now();                                                       \
    store = (T)(x + y);                                                          \
    (void)store;                                                                 \
    return t1 - t0;                                                              \
  }

/* A throughput kernel: CAL_CHAINS values c of type T, OP(c) into r of type R, both hidden. */
#define MATH_ONE(T, R, OP, c, r) r = OP(c); HIDE(R, r); HIDE(T, c);
#define MATH_ROUND(T, R, OP)                                                     \
  MATH_ONE(T, R, OP, c0, r0) MATH_ONE(T, R, OP, c1, r1) MATH_ONE(T, R, OP, c2, r2) \
  MATH_ONE(T, R, OP, c3, r3) MATH_ONE(T, R, OP, c4, r4) MATH_ONE(T, R, OP, c5, r5) \
  MATH_ONE(T, R, OP, c6, r6) MATH_ONE(T, R, OP, c7, r7)
#define MATH_KERNEL_TP(NAME, T, R, OP)                                           \
  static double kernel_##NAME(long iters, const CalSeed *seed) {                 \
    T c0 = (T)seed->x0, c1 = c0, c2 = c0, c3 = c0, c4 = c0, c5 = c0, c6 = c0, c7 = c0; \
    R r0 = 0, r1 = 0, r2 = 0, r3 = 0, r4 = 0, r5 = 0, r6 = 0, r7 = 0;            \
    volatile R store = 0;                                                        \
    double t0 = cal_now();                                                       \
    for (long i = 0; i < iters; i++) { MATH_ROUND(T, R, OP) MATH_ROUND(T, R, OP) } \
    double t1 = cal_now();                                                       \
    store = (R)(r0 + r1 + r2 + r3 + r4 + r5 + r6 + r7 + (R)(c0 + c1 + c2 + c3 + c4 + c5 + c6 + c7)); \
    (void)store;                                                                 \
    return t1 - t0;                                                              \
  }

#define OP_NONE(c) (c)
#define OP_SQRT(c) sqrt(c)
#define OP_EXP(c) exp(c)
#define OP_LOG(c) log(c)
#define OP_TO_DOUBLE(c) (double)(c)
#define OP_TO_INT(c) (int)(c)

MATH_KERNEL(empty_double, double, (void)0)
MATH_KERNEL(empty_int, int, (void)0)
MATH_KERNEL(sqrt, double, x = sqrt(x))
MATH_KERNEL(exp, double, x = exp(-x))
MATH_KERNEL(log, double, x = log(x + y))
MATH_KERNEL(cvt, int, { double d_ = (double)x; HIDE(double, d_); x = (int)d_; })
MATH_KERNEL_TP(empty_tp_double, double, double, OP_NONE)
MATH_KERNEL_TP(empty_tp_int, int, int, OP_NONE)
MATH_KERNEL_TP(sqrt_tp, double, double, OP_SQRT)
MATH_KERNEL_TP(exp_tp, double, double, OP_EXP)
MATH_KERNEL_TP(log_tp, double, double, OP_LOG)
MATH_KERNEL_TP(int_double_tp, int, double, OP_TO_DOUBLE)
MATH_KERNEL_TP(double_int_tp, double, int, OP_TO_INT)

typedef struct MathBench {
  const char *name;               /* the constant */
  const char *bench;              /* what is timed, for the comment */
  CalKernel op, empty;            /* the kernel and its empty twin */
  CalSeed seed;                   /* x0 and y of the chain (see the header comment) */
  double per_op;                  /* operations per slot: 2 for the conversion round trip */
} MathBench;

static const MathBench math_benches[] = {
  {"t_sqrt_double", "double sqrt(x), latency-bound", kernel_sqrt, kernel_empty_double, {2, 0, 0, 0}, 1},
  {"t_sqrt_double_tp", "double sqrt(x), throughput-bound (8 chains)", kernel_sqrt_tp, kernel_empty_tp_double, {2, 0, 0, 0}, 1},
  {"t_exp_double", "double exp(-x), latency-bound (with a negation)", kernel_exp, kernel_empty_double, {0.5, 0, 0, 0}, 1},
  {"t_exp_double_tp", "double exp(x), throughput-bound (8 chains)", kernel_exp_tp, kernel_empty_tp_double, {0.5, 0, 0, 0}, 1},
  {"t_log_double", "double log(x + 2), latency-bound (with an add)", kernel_log, kernel_empty_double, {1, 2, 0, 0}, 1},
  {"t_log_double_tp", "double log(x), throughput-bound (8 chains)", kernel_log_tp, kernel_empty_tp_double, {1.5, 0, 0, 0}, 1},
  {"t_cvt_int_double", "int <-> double conversion, half a round trip, latency-bound", kernel_cvt, kernel_empty_int, {3, 0, 0, 0}, 2},
  {"t_cvt_int_double_tp", "int -> double conversion, throughput-bound (8 chains)", kernel_int_double_tp, kernel_empty_tp_int, {3, 0, 0, 0}, 1},
  {"t_cvt_double_int_tp", "double -> int conversion, throughput-bound (8 chains)", kernel_double_int_tp, kernel_empty_tp_double, {3.5, 0, 0, 0}, 1},
};
#define N_MATH (sizeof math_benches / sizeof math_benches[0])

int cal_bench_math_count(const CalOptions *opt) {
  (void)opt;
  return (int)N_MATH;
}

int cal_bench_math(CalRun *run, CalError *err) {
  for (size_t i = 0; i < N_MATH; i++) {
    const MathBench *b = &math_benches[i];
    char bench[CAL_BENCH_MAX];
    snprintf(bench, sizeof bench, "%s, loop overhead subtracted", b->bench);
    if (cal_measure_kernel(run, b->name, bench, b->op, b->empty, &b->seed, b->per_op, err)) return -1;
  }
  return 0;
}
