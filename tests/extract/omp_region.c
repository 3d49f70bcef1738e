/* omp_region.c — a parallel region: every thread runs the block; the omp for divides the
** loop; single runs on thread 0 only. */
#include <omp.h>
void omp_region(int n, double *a) {
#pragma omp parallel
  {
    int t = omp_get_thread_num();
#pragma omp for
    for (int i = 0; i < n; i++)
      a[i] = a[i] * 3.0;
#pragma omp single
    a[0] = t;
  }
}
