#!/usr/bin/env bash
# extract_bench.sh — `make bench-extract`: the time of `pamc extract` on a generated C file of
# 2,000 lines (66 functions of stencils, reductions, triangular nests, branches and calls), the
# best of 3 runs. Target: under a second.
set -u
PAMC=${PAMC:-./pamc}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
src=$tmp/big.c
{
  echo '#include <math.h>'
  echo '#define N 512'
  for f in $(seq 1 66); do
    cat <<C
/* kernel $f */
double kernel$f(int n, int m, double *a, const double *b, const int *idx) {
  double s = 0.0;
  for (int i = 1; i < n - 1; i++) {
    for (int j = 1; j < m - 1; j++) {
      a[i * m + j] = 0.25 * (b[(i - 1) * m + j] + b[(i + 1) * m + j] +
                             b[i * m + j - 1] + b[i * m + j + 1]);
      s += a[i * m + j] * b[i * m + j];
    }
  }
  for (int i = 0; i < n; i++)
    for (int j = 0; j < i; j++)
      s = s + sqrt(b[j] * b[j] + 1.0);
  for (int k = 0; k < N; k += 4) {
    if (idx[k] > 0)
      s -= a[k];
    else
      s += b[k] / (k + 1);
  }
  int c = $f % 3;
  switch (c) {
  case 0: s *= 2.0; break;
  case 1: s /= 2.0; break;
  default: s += 1.0; break;
  }
  long acc = 0;
  for (long t = 0; t < (long)n * m; t++)
    acc += idx[t % N] * 3 + (long)t;
  return s + (double)acc;
}
C
  done
  echo 'double all(int n, int m, double *a, const double *b, const int *idx) {'
  echo '  double s = 0;'
  for f in $(seq 1 66); do echo "  s += kernel$f(n, m, a, b, idx);"; done
  echo '  return s;'
  echo '}'
} > "$src"
lines=$(wc -l < "$src")
best=
for run in 1 2 3; do
  start=$(date +%s.%N)
  "$PAMC" extract "$src" -f all -o "$tmp/big.pam" 2> "$tmp/err" || { cat "$tmp/err"; echo "bench-extract: extract failed"; exit 1; }
  end=$(date +%s.%N)
  t=$(awk "BEGIN { print $end - $start }")
  best=$(awk "BEGIN { b = \"$best\"; print (b == \"\" || $t < b) ? $t : b }")
done
"$PAMC" check "$tmp/big.pam" || { echo "bench-extract: the model does not check"; exit 1; }
printf 'bench-extract: %d lines of C, %d of model: %.3f s (best of 3; target < 1 s)\n' "$lines" "$(wc -l < "$tmp/big.pam")" "$best"
