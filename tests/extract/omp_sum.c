/* omp_sum.c — an OpenMP parallel for with a reduction (static schedule): each thread adds its
** block of the n elements into its private s (a chain), then combines s under the lock. */
#include <omp.h>
double omp_sum(int n, const double *a) {
  double s = 0;
#pragma omp parallel for reduction(+:s)
  for (int i = 0; i < n; i++)
    s += a[i];
  return s;
}
