/*
** x_stencil.c — validation of `pamc extract` (make validate): ITERS sweeps of a 2D five-point
** Jacobi stencil over an N x N grid of doubles, swapping the grids between sweeps. jacobi() is
** unmarked C; its model is extracted by `pamc extract x_stencil.c -f jacobi`. Usage: x_stencil N
** ITERS R. Prints the seconds of one call of jacobi(N, ITERS), the mean of R calls.
*/
#include "../vclock.h"

void jacobi(int n, int iters, double *u, double *v) {
  for (int t = 0; t < iters; t++) {
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < n - 1; j++)
        v[i * n + j] = 0.25 * (u[(i - 1) * n + j] + u[(i + 1) * n + j] + u[i * n + j - 1] + u[i * n + j + 1]);
    double *w = u;
    u = v;
    v = w;
  }
}

int main(int argc, char **argv) {
  const char *usage = "N ITERS R  (grid order, sweeps, calls timed)";
  int n = (int)v_arg(argc, argv, 1, usage);
  int iters = (int)v_arg(argc, argv, 2, usage);
  long reps = v_arg(argc, argv, 3, usage);
  size_t nn = (size_t)n * (size_t)n;
  double *u = calloc(nn, sizeof *u), *v = calloc(nn, sizeof *v);
  if (!u || !v) return 3;
  for (int i = 0; i < n; i++) u[i] = v[i] = 1.0;
  jacobi(n, iters, u, v);
  double t0 = v_now();
  for (long r = 0; r < reps; r++) jacobi(n, iters, u, v);
  double t1 = v_now();
  volatile double sink = u[nn / 2] + v[nn / 2];
  (void)sink;
  printf("%.9g\n", (t1 - t0) / (double)reps);
  free(u);
  free(v);
  return 0;
}
