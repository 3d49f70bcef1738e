#!/usr/bin/env bash
# tests/e2e/interval_ends.sh — an interval written in a statement with named ends, delay([a, b]),
# reduces to the interval of its ends: once predicted lo = 4.6e-298 ps, hi = 0 s (the ends, consts
# kept as symbols, were read as numbers) against 2 us simulated. Hand values: [1 us, 3 us]; with
# ends that follow a param, [N t, 2 N t] at N = 10 is [10 us, 20 us], and simulate's hi scenario
# (20 us) lies inside.
set -u
PAMC=${PAMC:-./pamc}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
die() { echo "FAIL: $*"; exit 1; }

printf 'const a = 1us;\nconst b = 3us;\nprocess main = delay([a, b]);\n' > "$tmp/consts.pam"
line=$("$PAMC" predict --format csv "$tmp/consts.pam" | sed -n 2p)
[ "$(echo "$line" | cut -d, -f1,3)" = "1e-06,3e-06" ] || die "delay([a, b]): $line, want lo 1e-06 and hi 3e-06"

printf 'param N = 4 in 1 .. 100;\nconst t = 1us;\nprocess main = delay([N * t, 2 * N * t]);\n' > "$tmp/param.pam"
line=$("$PAMC" predict --format csv "$tmp/param.pam" -D N=10 | sed -n 2p)
# lo may sit an ulp below 10 us (outward rounding), never above
echo "$line" | awk -F, '{ exit !($2 <= 1e-05 && $2 >= 1e-05 * (1 - 1e-12) && $4 == 2e-05) }' \
  || die "delay([N t, 2 N t]) at N = 10: $line, want lo 10 us and hi 20 us"
sim=$("$PAMC" simulate --format csv --scenario hi "$tmp/param.pam" -D N=10 | sed -n 2p | cut -d, -f1)
awk -v s="$sim" 'BEGIN { exit !(s != "" && s <= 2e-05 && s >= 2e-05 * (1 - 1e-12)) }' \
  || die "simulate --scenario hi at N = 10: $sim, want 20 us, inside [lo, hi]"
exit 0
