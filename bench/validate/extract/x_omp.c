/*
** x_omp.c — validation of `pamc extract` (make validate): an OpenMP parallel loop (static
** schedule) of a few flops per element, y = a x + y with a square root. saxpy_sqrt() is unmarked
** C with its OpenMP directive; its model is extracted by `pamc extract x_omp.c -f saxpy_sqrt`.
** Usage: x_omp T N R. Prints the seconds of one call on T threads, the mean of R calls.
*/
#include <math.h>
#include <omp.h>
#include "../vclock.h"

void saxpy_sqrt(int n, double a, const double *x, double *y) {
#pragma omp parallel for
  for (int i = 0; i < n; i++)
    y[i] = a * x[i] + sqrt(y[i] + 1.0);
}

int main(int argc, char **argv) {
  const char *usage = "T N R  (threads, elements, calls timed)";
  int threads = (int)v_arg(argc, argv, 1, usage);
  int n = (int)v_arg(argc, argv, 2, usage);
  long reps = v_arg(argc, argv, 3, usage);
  omp_set_num_threads(threads);
  double *x = malloc(sizeof *x * (size_t)n), *y = malloc(sizeof *y * (size_t)n);
  if (!x || !y) return 3;
  for (int i = 0; i < n; i++) x[i] = 1.0 + i % 11, y[i] = 2.0;
  saxpy_sqrt(n, 0.5, x, y);
  double t0 = v_now();
  for (long r = 0; r < reps; r++) saxpy_sqrt(n, 1e-9, x, y);
  double t1 = v_now();
  volatile double sink = y[n / 2];
  (void)sink;
  printf("%.9g\n", (t1 - t0) / (double)reps);
  free(x);
  free(y);
  return 0;
}
