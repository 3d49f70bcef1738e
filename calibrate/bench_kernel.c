/*
** bench_kernel.c — the timing loop of the operation benchmarks: sizes a kernel's iterations to a
** sample length, then times it against its empty twin, sample after sample.
*/
#include "bench_kernel.h"

#define CAL_KERNEL_MIN_ITERS 64   /* iterations of the first timing trial */

/* Iterations so that one run of the kernel lasts about `seconds`. */
static long iterations_for(CalKernel kernel, const CalSeed *seed, double seconds) {
  long iters = CAL_KERNEL_MIN_ITERS;
  for (;;) {
    double t = kernel(iters, seed);
    if (t >= seconds / 8 || iters > (1L << 40)) {
      double scale = t > 0 ? seconds / t : 8.0;
      double want = (double)iters * scale;
      return want < CAL_KERNEL_MIN_ITERS ? CAL_KERNEL_MIN_ITERS : (long)want;
    }
    iters *= 4;
  }
}

int cal_measure_kernel(CalRun *run, const char *name, const char *bench, CalKernel op,
                       CalKernel empty, const CalSeed *seed, double per_op, CalError *err) {
  CalSeries *series = cal_run_add_series(run, name, bench, CAL_KIND_TIME, 0, err);
  if (!series) return -1;
  op(CAL_KERNEL_MIN_ITERS, seed);     /* warm up code and clock */
  long iters = iterations_for(op, seed, run->opt.sample_seconds);
  for (int rep = 0; rep < run->round_reps; rep++) {
    double t_empty = empty(iters, seed);
    double t_op = op(iters, seed);
    cal_series_push(series, (t_op - t_empty) / ((double)iters * CAL_UNROLL * per_op));
  }
  cal_run_finished(run, series);
  return 0;
}
