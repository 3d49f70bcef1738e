#!/usr/bin/env python3
# gen.py — writes the published-style measurement tables of tests/e2e/fit_published.sh (run once;
# the tables are committed). Synthetic, not real published data: the shapes of Extra-P-style sets
# (a few params such as p and n, 5 repetitions per point, times in seconds, a 2-3 const model),
# with known consts, so that a fit on the smallest rows can be checked against the truth. The
# noise is what measured tables show: multiplicative and right-skewed (lognormal, 1-4%), a
# per-configuration offset that no repetition averages away (the model is not exact: 1-3%), and
# slow outlier runs (5-10% of the runs, 1.3x to 3x the time: a daemon, a page-cache miss, a
# neighbour on the network).
import math, random

def noisy(rng, t, sigma, bias, outliers):
    cfg = t * math.exp(rng.gauss(0, bias))
    runs = []
    for _ in range(5):
        x = cfg * math.exp(abs(rng.gauss(0, sigma)) if rng.random() < 0.5 else rng.gauss(0, sigma))
        if rng.random() < outliers:
            x *= rng.uniform(1.3, 3.0)
        runs.append(x)
    return runs

def csv(path, names, rows):
    with open(path, "w") as f:
        f.write(",".join(names) + ",time\n")
        for values, times in rows:
            for t in times:
                f.write(",".join("%g" % v for v in values) + ",%.6g\n" % t)

def extrap(path, names, rows, region, metric):
    with open(path, "w") as f:
        f.write("# written by gen.py (synthetic, published-style)\n")
        for n in names:
            f.write("PARAMETER %s\n" % n)
        f.write("\nPOINTS " + " ".join("(" + " ".join("%g" % v for v in values) + ")" for values, _ in rows) + "\n\n")
        f.write("REGION %s\nMETRIC %s\n" % (region, metric))
        for _, times in rows:
            f.write("DATA " + " ".join("%.6g" % t for t in times) + "\n")

rng = random.Random(20261124)

# 1. sort: p x n, a + b n log2(n) / p + c log2(p) (a parallel sample sort; Extra-P's classic shape)
a, b, c = 0.05, 2e-8, 0.012
rows = []
for n in [1e6, 2e6, 4e6, 8e6, 16e6]:
    for p in [2, 4, 8, 16, 32, 64]:
        rows.append(((p, n), noisy(rng, a + b * n * math.log2(n) / p + c * math.log2(p), 0.02, 0.02, 0.08)))
csv("sort.csv", ["p", "n"], rows)

# 2. strong scaling in Extra-P's text format: p only, a + b / p + c log2(p), 1 to 1024 processes
a, b, c = 0.4, 150.0, 0.03
rows = [((p,), noisy(rng, a + b / p + c * math.log2(p), 0.03, 0.015, 0.1)) for p in [2 ** k for k in range(11)]]
extrap("strong.txt", ["p"], rows, "main", "time")

# 3. weak scaling with a huge dynamic range: n from 1e3 to 1e9 items, a + b n + c n log2(n)
#    (2e-5 s to 40 s: absolute residuals would fit the largest rows only)
a, b, c = 2e-5, 1e-9, 1.2e-9
rows = [((n,), noisy(rng, a + b * n + c * n * math.log2(n), 0.02, 0.02, 0.06))
        for n in [1e3, 4e3, 1.6e4, 6.4e4, 2.56e5, 1e6, 4e6, 1.6e7, 6.4e7, 2.56e8, 1e9]]
csv("weak.csv", ["n"], rows)

# 4. stencil: p x n, n^2 points per process (weak), a + b n^2 + c log2(p) + d sqrt(p)... kept to 3:
#    a + b n^2 + c log2(p) (halo exchange and a reduction per step), heavier outliers (10%)
a, b, c = 1e-3, 4e-9, 2e-4
rows = []
for p in [4, 16, 64, 256, 1024]:
    for n in [256, 512, 1024, 2048]:
        rows.append(((p, n), noisy(rng, a + b * n * n + c * math.log2(p), 0.03, 0.02, 0.1)))
csv("stencil.csv", ["p", "n"], rows)
