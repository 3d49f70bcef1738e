/*
** x_dot.c — validation of `pamc extract` (make validate): a dot product, a reduction into one
** variable. dot() is unmarked C; its model is extracted by `pamc extract x_dot.c -f dot`.
** Usage: x_dot N R. Prints the seconds of one call of dot(N), the mean of R calls.
*/
#include "../vclock.h"

double dot(int n, const double *a, const double *b) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s += a[i] * b[i];
  return s;
}

int main(int argc, char **argv) {
  const char *usage = "N R  (elements, calls timed)";
  int n = (int)v_arg(argc, argv, 1, usage);
  long reps = v_arg(argc, argv, 2, usage);
  double *a = malloc(sizeof *a * (size_t)n), *b = malloc(sizeof *b * (size_t)n);
  if (!a || !b) return 3;
  for (int i = 0; i < n; i++) a[i] = 1.0 + i % 7, b[i] = 0.5 + i % 3;
  volatile double sink = dot(n, a, b);   /* warm-up: pages touched, caches filled */
  double t0 = v_now();
  for (long r = 0; r < reps; r++) sink += dot(n, a, b);
  double t1 = v_now();
  (void)sink;
  printf("%.9g\n", (t1 - t0) / (double)reps);
  free(a);
  free(b);
  return 0;
}
