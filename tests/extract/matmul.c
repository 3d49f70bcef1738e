/* matmul.c — C = A * B for n x n row-major matrices: n^3 multiplies and adds (c accumulates
** a chain per (i, j)), n^2 stores. */
void matmul(int n, const double *a, const double *b, double *c) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      double sum = 0.0;
      for (int k = 0; k < n; k++)
        sum += a[i * n + k] * b[k * n + j];
      c[i * n + j] = sum;
    }
}
