#!/bin/sh
# const_follows_param.sh — a const whose value depends on a param follows the param at every point
# of a sweep, exactly like the expression written inline (docs/language.md §9): reduce keeps the
# param in the formula, predict and simulate agree with it at every point (issue 14, item 1).
set -u
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
die() { echo "const_follows_param.sh: $*"; exit 1; }

# --- delay(w) with w = 1us * P: 8 us at P = 8, 16 us at P = 16 (by hand) ----------------------
cat > "$tmp/w.pam" <<'M'
param P = 4;
const w = 1us * P;
process main = delay(w);
M
out=$("$PAMC" predict "$tmp/w.pam" -D P=8,16 --format csv) || die "predict failed"
# |a - b| <= 1e-9 |b| for lo, est and hi of row $2 against $3
row_is() { echo "$1" | sed -n "$2p" | awk -F, -v w="$3" '{ for (k = 2; k <= 4; k++) { d = $k - w; if (d < 0) d = -d; if (d > 1e-9 * w) exit 1 } }'; }
row_is "$out" 2 8e-6 || die "P=8 row, want 8 us: $out"
row_is "$out" 3 16e-6 || die "P=16 row, want 16 us: $out"
out=$("$PAMC" reduce "$tmp/w.pam") || die "reduce failed"
echo "$out" | grep -q '^T_lo = .*P' || die "reduce froze the const at the default: $out"

# --- const chunk = ceil(N / P) inside a par: lo <= simulated <= hi at every P -----------------
cat > "$tmp/chunk.pam" <<'M'
param N = 64;
param P = 4 in 1 .. 64;
const chunk = ceil(N / P);
resource r[P];
process main = par (i = 0, P - 1) use(r[i], chunk * 1us);
M
rows=$("$PAMC" predict "$tmp/chunk.pam" -D P=1,2,3,8,64 --format csv) || die "predict chunk failed"
for p in 1 2 3 8 64; do
  row=$(echo "$rows" | grep "^$p,")
  lo=$(echo "$row" | cut -d, -f2); hi=$(echo "$row" | cut -d, -f4)
  sim=$("$PAMC" simulate "$tmp/chunk.pam" -D P=$p --format csv | sed -n 2p | cut -d, -f1) || die "simulate P=$p"
  want=$(awk -v p=$p 'BEGIN { c = 64 / p; if (c != int(c)) c = int(c) + 1; printf "%.6g", c * 1e-6 }')
  awk -v lo="$lo" -v hi="$hi" -v s="$sim" -v w="$want" \
    'BEGIN { exit !(lo <= s * (1 + 1e-12) && s <= hi * (1 + 1e-12) && (s - w) ^ 2 < 1e-24) }' \
    || die "P=$p: lo $lo, simulated $sim, hi $hi, want ceil(64/P) us = $want"
done
exit 0
