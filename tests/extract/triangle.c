/* triangle.c — a triangular nest (j < i) and a strided loop: sum_{i<n} i = n(n-1)/2 updates,
** then ceil(n / 3) strided ones, then an inclusive downward loop of m + 1 steps. */
#define STRIDE 3
long triangle(int n, int m, long *x) {
  long acc = 0;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < i; j++)
      acc += x[j];
  for (int i = 0; i < n; i += STRIDE)
    x[i] = acc;
  for (int i = m; i >= 0; i--)
    acc = acc * 2;
  return acc;
}
