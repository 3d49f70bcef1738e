/*
** bench_arith.c — time per arithmetic operation: add sub mul div cmp assign on int long float
** double char (constants t_OP_TYPE).
**
** How: each kernel runs a loop whose body is the operation written CAL_UNROLL times, each copy
** followed by an empty asm statement that claims to change the operand (`__asm__ volatile("" :
** "+r"(x))`), so the compiler can neither fold the copies together, nor hoist them out of the
** loop, nor delete them; the result finally goes to a volatile sink. Operands the compiler must
** not see as constants pass through the same barrier before the loop. The loop overhead is a loop
** of the same shape with the operation left out (the barriers stay); each sample times both back
** to back and keeps (t_op - t_empty) / (iterations * CAL_UNROLL). Samples last ~sample_seconds.
**
** What bounds each constant:
**   t_add_*, t_sub_*, t_mul_*  latency-bound: a dependent chain x = x op y (y opaque: 0 for add
**                              and sub, 1 for mul, so the values never overflow or go subnormal).
**   t_div_*                    latency-bound: integers x = x / y with y = 1 and a dividend with
**                              many significant bits (the quotient length drives integer divide
**                              time on some cores); floating x = y / x with y = 1, x = 1.1, so x
**                              alternates between 1.1 and 1/1.1 (full-width mantissas).
**   t_cmp_*                    latency-bound: compare and select, x = (x < y) ? z : w, a
**                              dependent chain through the comparison (x = z = 1 < y = 2;
**                              GCC compiles it branch-free: cmov for integers, cmpltsd + and/or
**                              for floating point, so the chain really waits on each compare).
**   t_assign_*                 throughput-bound: independent stores of x to a volatile variable
**                              (a register move is free on current cores; a store is what an
**                              assignment to a program variable costs).
** A sample below zero (noise on a sub-cycle difference) is kept for the statistics; the interval
** written is clamped at 0 (calibrate.c).
*/
#include <stdio.h>
#include "bench.h"

#define CAL_UNROLL 16             /* operations per loop iteration: loop overhead < 1/16 per op */
#define CAL_ARITH_MIN_ITERS 64    /* iterations of the first timing trial */
#define CAL_WARMUP 0.2            /* seconds of spinning before the first sample */
#define CAL_WARMUP_QUICK 0.05

/* Asm constraint that keeps a value of type T in a register. */
#if defined(__x86_64__)
#define CAL_FLOAT_REG "+x"
#define CAL_CHAR_REG "+r"
#elif defined(__i386__)
#define CAL_FLOAT_REG "+m"
#define CAL_CHAR_REG "+q"
#elif defined(__aarch64__)
#define CAL_FLOAT_REG "+w"
#define CAL_CHAR_REG "+r"
#else
#define CAL_FLOAT_REG "+m"
#define CAL_CHAR_REG "+m"
#endif
#define CAL_REG_int "+r"
#define CAL_REG_long "+r"
#define CAL_REG_char CAL_CHAR_REG
#define CAL_REG_float CAL_FLOAT_REG
#define CAL_REG_double CAL_FLOAT_REG
#define HIDE(T, v) __asm__ volatile("" : CAL_REG_##T(v))

#define REP16(s) s s s s s s s s s s s s s s s s

/* Starting values of a kernel's operands (see the header comment for why these). */
typedef struct ArithSeed {
  double x0;                      /* the chain's starting value */
  double y;                       /* second operand */
  double z, w;                    /* cmp: the values selected */
} ArithSeed;

/* One kernel: `iters` iterations of CAL_UNROLL copies of STEP; returns the elapsed seconds. */
#define KERNEL(T, OP, STEP)                                                      \
  static double kernel_##OP##_##T(long iters, const ArithSeed *seed) {           \
    T x = (T)seed->x0, y = (T)seed->y, z = (T)seed->z, w = (T)seed->w;           \
    volatile T store = 0;                                                        \
    HIDE(T, x); HIDE(T, y); HIDE(T, z); HIDE(T, w);                              \
    double t0 = cal_now();                                                       \
    for (long i = 0; i < iters; i++) { REP16(STEP; HIDE(T, x);) }                \
    double t1 = cal_now();                                                       \
    store = (T)(x + y + z + w);                                                  \
    (void)store;                                                                 \
    return t1 - t0;                                                              \
  }

#define TYPE_KERNELS(T, DIV)                                                     \
  KERNEL(T, empty, (void)0)                                                      \
  KERNEL(T, add, x = (T)(x + y))                                                 \
  KERNEL(T, sub, x = (T)(x - y))                                                 \
  KERNEL(T, mul, x = (T)(x * y))                                                 \
  KERNEL(T, div, DIV)                                                            \
  KERNEL(T, cmp, x = (x < y) ? z : w)                                            \
  KERNEL(T, assign, store = x)

TYPE_KERNELS(int, x = (int)(x / y))
TYPE_KERNELS(long, x = (long)(x / y))
TYPE_KERNELS(char, x = (char)(x / y))
TYPE_KERNELS(float, x = (float)(y / x))
TYPE_KERNELS(double, x = (double)(y / x))

typedef double (*Kernel)(long iters, const ArithSeed *seed);

typedef struct ArithType {
  const char *name;               /* C type name, as in the constant's name */
  Kernel empty;                   /* the loop without the operation */
  Kernel ops[6];                  /* in the order of op_names */
  double div_x0, div_y;           /* operands of the division chain */
} ArithType;

static const char *const op_names[6] = {"add", "sub", "mul", "div", "cmp", "assign"};
static const char *const op_bound[6] = {"latency", "latency", "latency", "latency", "latency",
                                        "throughput"};

#define ARITH_TYPE(T, X0, Y)                                                     \
  {#T, kernel_empty_##T,                                                         \
   {kernel_add_##T, kernel_sub_##T, kernel_mul_##T, kernel_div_##T, kernel_cmp_##T, \
    kernel_assign_##T}, X0, Y}

static const ArithType arith_types[] = {
  ARITH_TYPE(int, 2000000011.0, 1.0),
  ARITH_TYPE(long, 9000000000000000011.0, 1.0),
  ARITH_TYPE(float, 1.1, 1.0),
  ARITH_TYPE(double, 1.1, 1.0),
  ARITH_TYPE(char, 117.0, 1.0),
};
#define N_TYPES (sizeof arith_types / sizeof arith_types[0])

static ArithSeed seed_for(const ArithType *type, int op) {
  ArithSeed seed = {1.0, 0.0, 1.0, 3.0};      /* add, sub: x + 0; cmp: 1 < 2 selects z = 1 */
  if (op == 2) seed.y = 1.0;                  /* mul: x * 1 */
  if (op == 3) { seed.x0 = type->div_x0; seed.y = type->div_y; }
  if (op == 4) seed.y = 2.0;
  return seed;
}

/* Iterations so that one run of the kernel lasts about `seconds`. */
static long iterations_for(Kernel kernel, const ArithSeed *seed, double seconds) {
  long iters = CAL_ARITH_MIN_ITERS;
  for (;;) {
    double t = kernel(iters, seed);
    if (t >= seconds / 8 || iters > (1L << 40)) {
      double scale = t > 0 ? seconds / t : 8.0;
      double want = (double)iters * scale;
      return want < CAL_ARITH_MIN_ITERS ? CAL_ARITH_MIN_ITERS : (long)want;
    }
    iters *= 4;
  }
}

int cal_bench_arith_count(const CalOptions *opt) {
  (void)opt;
  return (int)(N_TYPES * 6);
}

int cal_bench_arith(CalRun *run, CalError *err) {
  /* Spin first so that the core has left its idle clock before the first sample. */
  ArithSeed spin = {1.0, 0.0, 1.0, 3.0};
  double until = cal_now() + (run->opt.quick ? CAL_WARMUP_QUICK : CAL_WARMUP);
  while (cal_now() < until) kernel_add_long(1000, &spin);
  for (size_t t = 0; t < N_TYPES; t++) {
    const ArithType *type = &arith_types[t];
    for (int op = 0; op < 6; op++) {
      char name[CAL_NAME_MAX], bench[CAL_BENCH_MAX];
      snprintf(name, sizeof name, "t_%s_%s", op_names[op], type->name);
      snprintf(bench, sizeof bench, "%s %s, %s-bound, loop overhead subtracted", type->name,
               op_names[op], op_bound[op]);
      CalSeries *series = cal_run_add_series(run, name, bench, CAL_KIND_TIME, 0, err);
      if (!series) return -1;
      ArithSeed seed = seed_for(type, op);
      Kernel kernel = type->ops[op];
      kernel(CAL_ARITH_MIN_ITERS, &seed);   /* warm up code and clock */
      long iters = iterations_for(kernel, &seed, run->opt.sample_seconds);
      for (int rep = 0; rep < run->opt.reps; rep++) {
        double t_empty = type->empty(iters, &seed);
        double t_op = kernel(iters, &seed);
        cal_series_push(series, (t_op - t_empty) / ((double)iters * CAL_UNROLL));
      }
      cal_run_finished(run, series);
    }
  }
  return 0;
}
