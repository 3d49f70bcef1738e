#!/bin/sh
# fit_published.sh — `pamc fit` on measured tables of the shapes published work shows (Extra-P-style
# sets; tests/models/fit/published/gen.py writes them, synthetic with known consts: 5 repetitions
# per point, times in seconds, 1-4% skewed noise, a per-point offset the model does not have, and
# 6-10% slow outlier runs of 1.3x to 3x). Each is fitted on the smallest half of its configurations
# (--holdout: the largest half left out), as the issue's target asks: the largest are predicted with
# a median error of at most 10%, and each true const lies within its 95% interval. Also --format
# csv and json, and predict with the fitted machine file giving the fit's est (typ).
set -u
M=tests/models/fit/published
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
die() { echo "fit_published.sh: $*"; exit 1; }

# check NAME RUNS HOLDOUT a=.. b=.. c=..: the held-out median error <= 10%, the consts covered
check() {
  name=$1; runs=$2; k=$3; shift 3
  out=$("$PAMC" fit $M/$name.pam $M/$runs --holdout "$k" -o "$tmp/$name.mach" 2>"$tmp/err") \
    || die "$name: fit failed: $(cat "$tmp/err")"
  line=$(echo "$out" | grep "^held out: the $k largest configurations") || die "$name: no held-out line: $out"
  med=$(echo "$line" | sed 's/.*median \([0-9.]*\)%, worst.*/\1/')
  awk -v m="$med" 'BEGIN { exit !(m <= 10) }' || die "$name: held-out median error $med% > 10%: $out"
  for kv in "$@"; do
    c=${kv%%=*}; want=${kv#*=}
    decl=$(grep "^const $c = \[" "$tmp/$name.mach") || die "$name: no const $c"
    lo=$(echo "$decl" | sed 's/^const [^=]*= \[\([^,]*\), .*/\1/'); hi=$(echo "$decl" | sed 's/^const [^=]*= \[[^,]*, \([^]]*\)\] typ .*/\1/')
    awk -v lo="$lo" -v hi="$hi" -v w="$want" 'BEGIN { exit !(lo + 0 <= w + 0 && w + 0 <= hi + 0) }' \
      || die "$name: $c = $want not within [$lo, $hi]: $out"
  done
  echo "$name: held-out median error $med%"
}
check sort sort.csv 15 a=0.05 b=2e-8 c=0.012
check weak weak.csv 5 a=2e-5 b=1e-9 c=1.2e-9
check stencil stencil.csv 10 a=1e-3 b=4e-9 c=2e-4
# the outliers are left out and counted (gen.py: 10% of 50 fitted runs, 1.3x to 3x)
"$PAMC" fit $M/stencil.pam $M/stencil.csv --holdout 10 | head -1 | grep -q '; 5 outlier runs left out: more than 4 robust spreads' \
  || die "stencil: outliers not counted"

# --- predict with the fitted machine file: est is the fit's at every configuration (typ) ----------
csv=$("$PAMC" fit $M/weak.pam $M/weak.csv --holdout 5 --format csv 2>"$tmp/err") || die "csv: $(cat "$tmp/err")"
[ "$(echo "$csv" | head -1)" = "n,runs,runs_fitted,measured,measured_min,measured_max,est,error,held_out" ] || die "csv header: $csv"
[ "$(echo "$csv" | wc -l)" -eq 12 ] || die "csv rows: $csv"
[ "$(echo "$csv" | grep -c ',1$')" -eq 5 ] || die "csv held-out rows: $csv"
grep -q '^quality: R^2' "$tmp/err" || die "csv: no quality on stderr: $(cat "$tmp/err")"
grep -q '^a  ' "$tmp/err" || die "csv: no consts on stderr: $(cat "$tmp/err")"
fit_est=$(echo "$csv" | grep '^1000000000,' | cut -d, -f7)
pred=$("$PAMC" predict $M/weak.pam -m "$tmp/weak.mach" -D n=1e9 --format csv | sed -n 2p | cut -d, -f3)
awk -v a="$fit_est" -v b="$pred" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= 1e-5 * a) }' \
  || die "predict's est $pred is not the fit's $fit_est"

# --- json: the consts with their status, the configurations, the quality, the held-out errors ----
json=$("$PAMC" fit $M/strong.pam $M/strong.txt --holdout 5 --format json) || die "json failed"
echo "$json" | grep -q '^ "consts": \[$' || die "json consts: $json"
echo "$json" | grep -q '"name": "b", "value": [0-9.e+-]*, "lo": [0-9.e+-]*, "hi": [0-9.e+-]*, "se": [0-9.e+-]*, "status": "fitted"' || die "json b: $json"
[ "$(echo "$json" | grep -c '"held_out": true')" -eq 5 ] || die "json held out: $json"
echo "$json" | grep -q '^ "held_out": {"configurations": 5, "error_median": ' || die "json held-out summary: $json"
if command -v python3 >/dev/null 2>&1; then
  echo "$json" | python3 -c 'import json, sys; json.load(sys.stdin)' || die "json does not parse: $json"
fi
"$PAMC" fit $M/strong.pam $M/strong.txt --format xml >/dev/null 2>&1; [ $? -eq 2 ] || die "--format xml accepted"
echo "fit_published.sh: ok"
