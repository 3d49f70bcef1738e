/* omp_critical.c — a critical section and an atomic update in a parallel loop: one thread at a
** time in each, so their time is n times their cost whatever the number of threads. */
void omp_critical(int n, const double *a, double *total, long *count) {
#pragma omp parallel for
  for (int i = 0; i < n; i++) {
    double v = a[i] * a[i];
#pragma omp critical
    {
      *total += v;
    }
#pragma omp atomic
    *count += 1;
  }
}
