/* stencil.c — a 2D five-point Jacobi sweep over the interior of an n x m grid, iters times,
** then a copy back: (n - 2)(m - 2) points per sweep, 4 adds and 1 multiply each. */
void stencil(int n, int m, int iters, const double *in, double *out) {
  for (int t = 0; t < iters; t++)
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < m - 1; j++)
        out[i * m + j] = 0.2 * (in[i * m + j] + in[(i - 1) * m + j] + in[(i + 1) * m + j] +
                                in[i * m + j - 1] + in[i * m + j + 1]);
}
