/* omp_chunk.c — schedule(static, 4): chunks of 4 iterations dealt to the threads in turn;
** the longest thread has 4 * floor(n / (4 T)) + min(4, what is left for thread 0). */
void omp_chunk(int n, double *a, double k) {
#pragma omp parallel for schedule(static, 4)
  for (int i = 0; i < n; i++)
    a[i] = a[i] * k;
}
