/*
** bench_kernel.h — what the operation benchmarks (bench_arith.c, bench_math.c) share: the asm
** barrier that hides a value from the compiler, a kernel's operands, and the timing loop that
** turns a kernel and its empty twin into a series of times per operation.
*/
#ifndef PAMC_CAL_BENCH_KERNEL_H
#define PAMC_CAL_BENCH_KERNEL_H

#include "bench.h"

#define CAL_UNROLL 16             /* operations per loop iteration: loop overhead < 1/16 per op */
#define CAL_CHAINS 8              /* independent chains of a throughput kernel: 2 units x 4-cycle
                                  ** latency need 8 in flight; the registers hold 8 comfortably */

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
/* The compiler must assume v changed here: it can neither fold, hoist nor delete what feeds v. */
#define HIDE(T, v) __asm__ volatile("" : CAL_REG_##T(v))

#define REP16(s) s s s s s s s s s s s s s s s s

/* Starting values of a kernel's operands (each kernel says what it makes of them). */
typedef struct CalSeed {
  double x0;                      /* the chain's starting value */
  double y;                       /* second operand */
  double z, w;                    /* cmp: the values selected */
} CalSeed;

/* A kernel: `iters` iterations of CAL_UNROLL operations; returns the elapsed seconds. */
typedef double (*CalKernel)(long iters, const CalSeed *seed);

/* Adds series `name` to run: each sample times `empty` and `op` back to back (iterations sized so
** that one run lasts ~sample_seconds) and keeps (t_op - t_empty) / (iters * CAL_UNROLL * per_op),
** per_op the operations one of op's operation slots stands for (2 for a round trip). */
int cal_measure_kernel(CalRun *run, const char *name, const char *bench, CalKernel op,
                       CalKernel empty, const CalSeed *seed, double per_op, CalError *err);

#endif
