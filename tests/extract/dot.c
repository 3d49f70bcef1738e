/* dot.c — a dot product: n multiplies (independent), n adds on one chain (s). */
double dot(int n, const double *a, const double *b) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s += a[i] * b[i];
  return s;
}
