#!/bin/sh
# predict_refine.sh — a sweep's points reduced again at their own values (`predict --refine N`,
# docs/manual.md "A sweep and its points"). Found by comparing every audit model's sweep with the
# same points given one -D at a time: 84 rows of 35 models had looser bounds in the sweep (40 rows of
# 13 models then missed est within 5% or hi/sim <= 2 where the point alone met both), e.g. an
# all-to-all in the xor order whose map is proved one-to-one only by evaluating it at a number.
# Values by hand (bench/tight/xor_alltoall.pam): P = 2^L ranks, 2^L - 1 rounds of 1 us of compute
# then 2 us on the partner's nic, every nic taken by one rank a round: 3 (P - 1) us, lo = hi =
# the simulated time (9, 45 and 189 us at P = 4, 16, 64).
set -u
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
die() { echo "predict_refine.sh: $*"; exit 1; }
close() { awk -v a="$1" -v b="$2" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= 1e-9 * b) }'; }
X=bench/tight/xor_alltoall.pam

# the sweep gives each point's own exact bounds
out=$("$PAMC" predict -q $X -D P=4,16,64 --format csv) || die "sweep failed"
for pt in "4 9e-6" "16 45e-6" "64 189e-6"; do
  set -- $pt
  row=$(echo "$out" | grep "^$1,")
  for f in 2 3 4; do close "$(echo "$row" | cut -d, -f$f)" $2 || die "P = $1: $row, want lo = est = hi = $2 s"; done
  echo "$row" | grep -q 'family nic taken as one resource' && die "P = $1: the family note stays: $row"
done
# where lo = hi the time is known exactly: no approx column and no note, whatever the bounds were
# built from (before: seven notes "T_lo may be far below the time" beside lo = hi = 189 us)
"$PAMC" predict $X -D P=4,16,64 --format csv > "$tmp/out" 2> "$tmp/err" || die "sweep with notes failed"
sed 1d "$tmp/out" | cut -d, -f6- | grep -q . && die "exact rows with an approx column: $(cat "$tmp/out")"
[ -s "$tmp/err" ] && die "exact rows with notes: $(cat "$tmp/err")"
# the same sweep as one -D per point: the same rows
for p in 4 16 64; do
  one=$("$PAMC" predict -q $X -D P=$p --format csv | sed -n 2p | cut -d, -f1-4)
  [ "$(echo "$out" | grep "^$p," | cut -d, -f1-4)" = "$one" ] || die "P = $p: sweep and point differ: $one"
done
# --refine 0: the sweep's own reduction alone, with the family as one resource (the test can fail)
row=$("$PAMC" predict -q $X -D P=4,16,64 --format csv --refine 0 | grep '^64,')
hi=$(echo "$row" | cut -d, -f4)
awk -v h="$hi" 'BEGIN { exit !(h > 2 * 189e-6) }' || die "--refine 0: hi $hi is tight, the test cannot tell"
echo "$row" | grep -q 'family nic taken as one resource' || die "--refine 0: no family note: $row"
# --refine 1: the first point only, and a note says how many were left
"$PAMC" predict $X -D P=4,16,64 --format csv --refine 1 > "$tmp/out" 2> "$tmp/err" || die "--refine 1 failed"
close "$(grep '^4,' "$tmp/out" | cut -d, -f4)" 9e-6 || die "--refine 1: P = 4 not refined: $(cat "$tmp/out")"
awk -v h="$(grep '^64,' "$tmp/out" | cut -d, -f4)" 'BEGIN { exit !(h > 2 * 189e-6) }' \
  || die "--refine 1: P = 64 refined beyond the budget: $(cat "$tmp/out")"
grep -q '1 of the sweep.s first 1 inexact points got tighter bounds; 2 later points' "$tmp/err" \
  || die "--refine 1: no note of the points left: $(cat "$tmp/err")"
# usage errors
for bad in -1 x 1e3 ''; do
  "$PAMC" predict -q $X -D P=4,16 --refine "$bad" > "$tmp/out" 2> "$tmp/err"
  [ $? -eq 2 ] || die "--refine '$bad': want exit 2"
  grep -q -- '--refine wants a whole number' "$tmp/err" || die "--refine '$bad': $(cat "$tmp/err")"
  [ -s "$tmp/out" ] && die "--refine '$bad': rows printed"
done
"$PAMC" predict --help | grep -q -- '--refine N' || die "--help does not say --refine"
exit 0
