#!/bin/sh
# numbers.sh — numbers as people and programs read them: reduce prints long rationals as decimals
# of 6 significant digits (--exact keeps them), tables give consts their time unit and read past
# 1000 s in min and h, csv and json give the shortest decimal that reads back to the same double,
# and an interval in csv is two columns NAME_lo,NAME_hi.
set -u
die() { echo "numbers.sh: $*"; exit 1; }
E1="models/halo.pam -m tests/models/predict/example1.mach"

# EXAMPLES.md §1: T_hi = 1737.68us (hand derivation), and the simulated time is 1737.68us too: the
# 8 workers reach the bus together, so the order-aware lower bound (docs/reduction.md) is exact
out=$("$PAMC" reduce $E1 -D P=8 -D iters=10 -D N=1000000 --subst) || die "reduce failed"
[ "$out" = "T_lo = 0.00173768
T_hi = 0.00173768" ] || die "reduce, decimals: $out"
exact=$("$PAMC" reduce $E1 -D P=8 -D iters=10 -D N=1000000 --subst --exact) || die "reduce --exact failed"
lo=$(echo "$exact" | sed -n 's|^T_lo = \([0-9]*\)/\([0-9]*\)$|\1 \2|p')
[ -n "$lo" ] || die "reduce --exact: no rational: $exact"
echo "$lo" | awk '{ v = $1 / $2; d = v - 0.00173768; if (d < 0) d = -d; exit !(d < 1e-15) }' \
  || die "reduce --exact: T_lo = $lo is not 1737.68us"
# an interval end rounds outward: [0.9ns, 1.1ns] * 3 stays a superset
printf 'const t = [0.9ns, 1.1ns];\nprocess main { delay(3 * t / 7) }\n' > "${TMPDIR:-/tmp}/numbers_$$.pam"
out=$("$PAMC" reduce "${TMPDIR:-/tmp}/numbers_$$.pam" --subst); rm -f "${TMPDIR:-/tmp}/numbers_$$.pam"
[ "$out" = "T_lo = [3.85714e-10, 4.71429e-10]
T_hi = [3.85714e-10, 4.71429e-10]" ] || die "interval ends: $out"

# csv: every number is the shortest that reads back to the same double
csv=$("$PAMC" predict models/halo.pam -m models/machine.mach -D P=1..64:*2 -D iters=10,100 --format csv) || die "csv failed"
echo "$csv" | sed 1d | tr ',' '\n' | grep -E '^[-0-9.e+]+$' | awk '
  { v = $1 + 0
    for (d = 1; d <= 17; d++) { t = sprintf("%.*g", d, v); if (t + 0 == v) break }
    if (length(t) < length($1) && !(v == int(v) && v < 1e15)) { print "not shortest: " $1 " (" t ")"; bad = 1 } }
  END { exit bad }' || die "csv numbers not shortest"
# est at P = 4: 2.56096 ms of compute and messages, plus 10 iterations x 3 bus messages of 6.096 us queued (order-aware lower bound)
echo "$csv" | grep -q '^4,10,0.00246945599999999[0-9]*,0.00274384,' || die "csv row of P=4: $(echo "$csv" | sed -n 6p)"
json=$("$PAMC" predict models/halo.pam -m models/machine.mach -D P=4 --format json) || die "json failed"
echo "$json" | grep -q '"est": 0.02743839999999999[0-9]*,' || die "json est: $json"   # 25.6096 ms + 100 x 3 x 6.096 us

# an interval in csv: two columns
csv=$("$PAMC" predict models/halo.pam -m models/machine.mach -D P=4 -D 'latency=[1us,2us]' --format csv)
[ "$(echo "$csv" | head -1)" = "P,latency_lo,latency_hi,lo,est,hi,bottleneck,approx" ] || die "interval header: $csv"
echo "$csv" | sed -n 2p | grep -q '^4,0.000001,0.000002,\|^4,1e-06,2e-06,' || die "interval row: $csv"

# tables: consts given with a time unit keep it; past 1000 s, minutes and hours
table=$("$PAMC" predict models/halo.pam -m models/machine.mach -D P=4 -D 'latency=[1us,2us]' -D t_point=1ns)
echo "$table" | grep -q '\[1 us, 2 us\] *1 ns' || die "const columns without units: $table"
table=$("$PAMC" predict models/halo.pam -m models/machine.mach -D P=4 -D iters=10000000,100000000)
echo "$table" | grep -q ' min ' || die "no minutes past 1000 s: $table"
echo "$table" | grep -q ' h ' || die "no hours past 6000 s: $table"
exit 0
