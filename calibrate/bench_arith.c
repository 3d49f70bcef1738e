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
**   t_OP_TYPE_tp               throughput-bound, the reciprocal throughput (OP: add sub mul div
**                              cmp): the same operation on CAL_CHAINS independent chains, enough
**                              to keep every unit busy. What an operation costs among independent
**                              ones (a sum over an array, a counter beside the work), where
**                              t_OP_TYPE is what it costs in a chain that waits for each result.
** A sample below zero (noise on a sub-cycle difference) is kept for the statistics; the interval
** written is clamped at 0 (calibrate.c). The timing loop is cal_measure_kernel (bench_kernel.c).
*/
#include <stdio.h>
#include "bench_kernel.h"

#define CAL_WARMUP 0.2            /* seconds of spinning before the first sample */
#define CAL_WARMUP_QUICK 0.05

/* One kernel: `iters` iterations of CAL_UNROLL copies of STEP; returns the elapsed seconds. */
#define KERNEL(T, OP, STEP)                                                      \
  static double kernel_##OP##_##T(long iters, const CalSeed *seed) {             \
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

/* The throughput twin: CAL_CHAINS chains x0 .. x7, CAL_UNROLL / CAL_CHAINS rounds of OP(T, c)
** on each per iteration (OP a macro of the chain variable c). */
#define CHAIN(T, OP, c) OP(T, c); HIDE(T, c);
#define ROUND(T, OP)                                                             \
  CHAIN(T, OP, x0) CHAIN(T, OP, x1) CHAIN(T, OP, x2) CHAIN(T, OP, x3)            \
  CHAIN(T, OP, x4) CHAIN(T, OP, x5) CHAIN(T, OP, x6) CHAIN(T, OP, x7)
#define KERNEL_TP(T, NAME, OP)                                                   \
  static double kernel_##NAME##_tp_##T(long iters, const CalSeed *seed) {        \
    T x0 = (T)seed->x0, x1 = x0, x2 = x0, x3 = x0, x4 = x0, x5 = x0, x6 = x0;    \
    T x7 = x0, y = (T)seed->y, z = (T)seed->z, w = (T)seed->w;                   \
    volatile T store = 0;                                                        \
    HIDE(T, y); HIDE(T, z); HIDE(T, w);                                          \
    double t0 = cal_now();                                                       \
    for (long i = 0; i < iters; i++) { ROUND(T, OP) ROUND(T, OP) }               \
    double t1 = cal_now();                                                       \
    store = x0; store = x1; store = x2; store = x3; store = x4; store = x5;      \
    store = x6; store = x7; store = (T)(y + z + w);                               \
    (void)store;                                                                 \
    return t1 - t0;                                                              \
  }
#define OP_EMPTY(T, c) (void)0
#define OP_ADD(T, c) c = (T)(c + y)
#define OP_SUB(T, c) c = (T)(c - y)
#define OP_MUL(T, c) c = (T)(c * y)
#define OP_IDIV(T, c) c = (T)(c / y)
#define OP_FDIV(T, c) c = (T)(y / c)
#define OP_CMP(T, c) c = (c < y) ? z : w

#define TYPE_KERNELS(T, DIV)                                                     \
  KERNEL(T, empty, (void)0)                                                      \
  KERNEL(T, add, x = (T)(x + y))                                                 \
  KERNEL(T, sub, x = (T)(x - y))                                                 \
  KERNEL(T, mul, x = (T)(x * y))                                                 \
  KERNEL(T, div, DIV(T, x))                                                      \
  KERNEL(T, cmp, x = (x < y) ? z : w)                                            \
  KERNEL(T, assign, store = x)                                                   \
  KERNEL_TP(T, empty, OP_EMPTY)                                                  \
  KERNEL_TP(T, add, OP_ADD)                                                      \
  KERNEL_TP(T, sub, OP_SUB)                                                      \
  KERNEL_TP(T, mul, OP_MUL)                                                      \
  KERNEL_TP(T, div, DIV)                                                         \
  KERNEL_TP(T, cmp, OP_CMP)

TYPE_KERNELS(int, OP_IDIV)
TYPE_KERNELS(long, OP_IDIV)
TYPE_KERNELS(char, OP_IDIV)
TYPE_KERNELS(float, OP_FDIV)
TYPE_KERNELS(double, OP_FDIV)

typedef CalKernel Kernel;
#define N_OPS 6                   /* add sub mul div cmp assign */
#define N_TP_OPS 5                /* add sub mul div cmp: assign is throughput-bound already */

typedef struct ArithType {
  const char *name;               /* C type name, as in the constant's name */
  Kernel empty;                   /* the loop without the operation */
  Kernel ops[N_OPS];              /* in the order of op_names */
  Kernel empty_tp;                /* the throughput loop without the operations */
  Kernel ops_tp[N_TP_OPS];        /* throughput kernels, in the order of op_names */
  double div_x0, div_y;           /* operands of the division chain */
} ArithType;

static const char *const op_names[N_OPS] = {"add", "sub", "mul", "div", "cmp", "assign"};
static const char *const op_bound[N_OPS] = {"latency", "latency", "latency", "latency", "latency",
                                            "throughput"};

#define ARITH_TYPE(T, X0, Y)                                                     \
  {#T, kernel_empty_##T,                                                         \
   {kernel_add_##T, kernel_sub_##T, kernel_mul_##T, kernel_div_##T, kernel_cmp_##T, \
    kernel_assign_##T},                                                          \
   kernel_empty_tp_##T,                                                          \
   {kernel_add_tp_##T, kernel_sub_tp_##T, kernel_mul_tp_##T, kernel_div_tp_##T,  \
    kernel_cmp_tp_##T}, X0, Y}

static const ArithType arith_types[] = {
  ARITH_TYPE(int, 2000000011.0, 1.0),
  ARITH_TYPE(long, 9000000000000000011.0, 1.0),
  ARITH_TYPE(float, 1.1, 1.0),
  ARITH_TYPE(double, 1.1, 1.0),
  ARITH_TYPE(char, 117.0, 1.0),
};
#define N_TYPES (sizeof arith_types / sizeof arith_types[0])

static CalSeed seed_for(const ArithType *type, int op) {
  CalSeed seed = {1.0, 0.0, 1.0, 3.0};        /* add, sub: x + 0; cmp: 1 < 2 selects z = 1 */
  if (op == 2) seed.y = 1.0;                  /* mul: x * 1 */
  if (op == 3) { seed.x0 = type->div_x0; seed.y = type->div_y; }
  if (op == 4) seed.y = 2.0;
  return seed;
}

int cal_bench_arith_count(const CalOptions *opt) {
  (void)opt;
  return (int)(N_TYPES * (N_OPS + N_TP_OPS));
}

int cal_bench_arith(CalRun *run, CalError *err) {
  /* Spin first so that the core has left its idle clock before the first sample. */
  CalSeed spin = {1.0, 0.0, 1.0, 3.0};
  double until = run->round > 0 ? 0 : cal_now() + (run->opt.quick ? CAL_WARMUP_QUICK : CAL_WARMUP);
  while (cal_now() < until) kernel_add_long(1000, &spin);
  for (size_t t = 0; t < N_TYPES; t++) {
    const ArithType *type = &arith_types[t];
    char name[CAL_NAME_MAX], bench[CAL_BENCH_MAX];
    for (int op = 0; op < N_OPS; op++) {
      CalSeed seed = seed_for(type, op);
      snprintf(name, sizeof name, "t_%s_%s", op_names[op], type->name);
      snprintf(bench, sizeof bench, "%s %s, %s-bound, loop overhead subtracted", type->name,
               op_names[op], op_bound[op]);
      if (cal_measure_kernel(run, name, bench, type->ops[op], type->empty, &seed, 1, err)) return -1;
    }
    for (int op = 0; op < N_TP_OPS; op++) {
      CalSeed seed = seed_for(type, op);
      snprintf(name, sizeof name, "t_%s_%s_tp", op_names[op], type->name);
      snprintf(bench, sizeof bench, "%s %s, throughput-bound (%d chains), loop overhead subtracted",
               type->name, op_names[op], CAL_CHAINS);
      if (cal_measure_kernel(run, name, bench, type->ops_tp[op], type->empty_tp, &seed, 1, err))
        return -1;
    }
  }
  return 0;
}
