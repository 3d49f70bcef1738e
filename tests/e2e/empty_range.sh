#!/bin/sh
# empty_range.sh — a check inside a loop whose range is empty runs nothing and fails nothing
# (REDUCTION.md: empty ranges give 0): `par (w = 1, P - 1) repeat (floor(N / (P - 1)))` at P = 1
# is 0 s as the simulator says (predict failed with "division by zero"), and so is a divisor
# inside `repeat (P - 1)`. A predict that fails prints nothing on standard output and writes no
# -o file (it printed the csv header, and the rows before the failing point).
set -u
M=tests/models/empty_range
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
die() { echo "empty_range.sh: $*"; exit 1; }

for m in par_p1 repeat_p1; do
  out=$("$PAMC" predict $M/$m.pam --format csv 2> "$tmp/err") || die "$m at P = 1: $(cat "$tmp/err")"
  [ "$(echo "$out" | sed -n 2p | cut -d, -f1-3)" = "0,0,0" ] || die "$m at P = 1: $out, want 0 s"
  sim=$("$PAMC" simulate $M/$m.pam | grep -A1 time_min | tail -1 | awk '{print $1, $2}')
  [ "$sim" = "0 s" ] || die "$m: the simulator says $sim"
  # beside the empty point, the others: N / (P - 1) us each (hand: P = 2 10 us, P = 3 5 us on par,
  # 2 * 5 us on repeat)
  out=$("$PAMC" predict $M/$m.pam -D P=1..3 --format csv 2> "$tmp/err") || die "$m P=1..3: $(cat "$tmp/err")"
  want="1,0,0,0 2,10e-6,10e-6,10e-6"
  [ $m = par_p1 ] && want="$want 3,5e-6,5e-6,5e-6" || want="$want 3,10e-6,10e-6,10e-6"

  for w in $want; do
    p=${w%%,*}
    row=$(echo "$out" | awk -F, -v p="$p" '$1 == p { print $2, $3, $4 }')
    exp=$(echo "$w" | cut -d, -f2-4 | tr ',' ' ')
    awk -v r="$row" -v e="$exp" 'BEGIN { split(r, a, " "); split(e, b, " ");
      for (i = 1; i <= 3; i++) { d = a[i] - b[i]; if (d < 0) d = -d; if (d > 1e-12) exit 1 } }' \
      || die "$m at P = $p: lo est hi = $row, want $exp"
  done
done

# a failure leaves nothing on standard output, in every format, and no -o file
for fmt in table csv json; do
  "$PAMC" predict $M/fails_late.pam -D P=1..4 --format $fmt > "$tmp/out" 2> "$tmp/err"
  rc=$?
  [ $rc -eq 1 ] || die "fails_late ($fmt): exit $rc, want 1"
  grep -q 'fails_late.pam:6:.*not an integer.*P=4' "$tmp/err" || die "fails_late ($fmt): $(cat "$tmp/err")"
  [ ! -s "$tmp/out" ] || die "fails_late ($fmt): partial output on stdout: $(cat "$tmp/out")"
done
"$PAMC" predict $M/fails_late.pam -D P=1..4 -o "$tmp/rows.csv" --format csv 2> /dev/null
[ $? -eq 1 ] || die "fails_late -o: want exit 1"
[ -z "$(ls "$tmp" | grep rows)" ] || die "fails_late -o: left $(ls "$tmp")"
# the same sweep up to P = 3 passes, every row there
"$PAMC" predict $M/fails_late.pam -D P=1..3 --format csv > "$tmp/out" 2> "$tmp/err" || die "P=1..3: $(cat "$tmp/err")"
[ "$(wc -l < "$tmp/out")" -eq 4 ] || die "P=1..3: $(cat "$tmp/out")"
exit 0
