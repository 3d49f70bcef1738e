#!/bin/sh
# predict_progress.sh — a sweep whose points are slow shows how far it has got on a terminal
# (lang/cli/predict_pace.c). Before, `predict` evaluated 1024 points per batch and printed
# nothing until the end: a sweep of a sum walked index by index at each point (no closed form,
# floor(P / i)) ran for minutes in silence. Now batches start at 16 points and shrink when slow,
# and after 2 s a line "N of M points of the sweep evaluated" is redrawn on stderr. The rows do
# not depend on the batch sizes: the same sweep gives the same csv on a terminal and off it.
set -u
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
die() { echo "predict_progress.sh: $*"; exit 1; }
command -v script >/dev/null || { echo "predict_progress.sh: skipped (no script(1) for a terminal)"; exit 0; }
cat > "$tmp/walk.pam" <<'PAM'
param P = 4;
process main {
  seq (i = 1, P) delay(floor(P / i) * 1ns)
}
PAM
# about 2.7e7 indices walked in all: over 2 s in every build (3.5 s in the -O2 one)
sweep="-D P=90000..90300"
"$PAMC" predict "$tmp/walk.pam" $sweep --format csv -o "$tmp/plain.csv" 2> "$tmp/plain.err" ||
  die "sweep failed: $(cat "$tmp/plain.err")"
grep -q 'points of the sweep' "$tmp/plain.err" && die "a progress line off a terminal: $(cat "$tmp/plain.err")"
[ "$(sed 1d "$tmp/plain.csv" | wc -l)" -eq 301 ] || die "want 301 rows: $(wc -l < "$tmp/plain.csv")"
# on a terminal (script(1) gives the command one): progress lines, then the line cleared
script -qec "\"$PAMC\" predict \"$tmp/walk.pam\" $sweep --format csv -o \"$tmp/tty.csv\"" "$tmp/typescript" \
  > /dev/null 2>&1 || die "sweep on a terminal failed: $(cat "$tmp/typescript")"
tr '\r' '\n' < "$tmp/typescript" > "$tmp/lines"
grep -q 'pamc predict: [0-9]* of 301 points of the sweep evaluated' "$tmp/lines" ||
  die "no progress line on a terminal: $(cat "$tmp/lines")"
grep -q 'pamc predict: 301 of 301 points' "$tmp/lines" || die "the last progress line is not 301 of 301: $(cat "$tmp/lines")"
cmp -s "$tmp/plain.csv" "$tmp/tty.csv" || die "rows differ on a terminal: $(diff "$tmp/plain.csv" "$tmp/tty.csv" | head)"
# the first row by hand: sum over i of floor(90000 / i) ns, counted here (awk, doubles exact)
want=$(awk 'BEGIN { s = 0; for (i = 1; i <= 90000; i++) s += int(90000 / i); printf "%.0f", s }')
sed -n 2p "$tmp/plain.csv" | awk -F, -v w="$want" '{ d = $3 * 1e9 - w; if (d < 0) d = -d; exit !(d <= 1e-6 * w) }' ||
  die "P = 90000: est $(sed -n 2p "$tmp/plain.csv"), want $want ns"
echo "predict_progress.sh: ok"
