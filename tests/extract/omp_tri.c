/* omp_tri.c — a triangular nest under an OpenMP static schedule: thread t runs the rows of its
** block, row i costs i inner iterations, so the last thread works longest. */
void omp_tri(int n, const long *x, long *out) {
#pragma omp parallel for
  for (int i = 0; i < n; i++) {
    long acc = 0;
    for (int j = 0; j < i; j++)
      acc = acc + x[j];
    out[i] = acc;
  }
}
