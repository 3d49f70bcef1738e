/*
** x_matmul.c — validation of `pamc extract` (make validate): dense matrix multiply, C = A B for
** n x n row-major doubles, the textbook i-j-k loops. matmul() is unmarked C; its model is
** extracted by `pamc extract x_matmul.c -f matmul`. Usage: x_matmul N R. Prints the seconds of
** one call of matmul(N), the mean of R calls.
*/
#include "../vclock.h"

void matmul(int n, const double *a, const double *b, double *c) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      double sum = 0.0;
      for (int k = 0; k < n; k++)
        sum += a[i * n + k] * b[k * n + j];
      c[i * n + j] = sum;
    }
}

int main(int argc, char **argv) {
  const char *usage = "N R  (matrix order, calls timed)";
  int n = (int)v_arg(argc, argv, 1, usage);
  long reps = v_arg(argc, argv, 2, usage);
  size_t nn = (size_t)n * (size_t)n;
  double *a = malloc(sizeof *a * nn), *b = malloc(sizeof *b * nn), *c = malloc(sizeof *c * nn);
  if (!a || !b || !c) return 3;
  for (size_t i = 0; i < nn; i++) a[i] = 1.0 + (double)(i % 5), b[i] = 0.25 * (double)(i % 3), c[i] = 0;
  matmul(n, a, b, c);
  double t0 = v_now();
  for (long r = 0; r < reps; r++) matmul(n, a, b, c);
  double t1 = v_now();
  volatile double sink = c[nn / 2];
  (void)sink;
  printf("%.9g\n", (t1 - t0) / (double)reps);
  free(a);
  free(b);
  free(c);
  return 0;
}
