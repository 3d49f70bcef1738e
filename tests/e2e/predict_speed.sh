#!/bin/sh
# predict_speed.sh — predict's time does not grow with the size of P (issue 15, the audit): a
# model whose T_hi holds a sum over w inside the body of a max over w (tasks dealt with
# remainders through one master) took 96 s at P = 10^4, the body's sum walked again at every w,
# in the reduction's sign questions (eval.c) and in the tape (tape.c). Now well under a second; the
# limit here (30 s) leaves room for the sanitizer build and a busy machine, and the old code does
# not come near it. Values by hand: 300 dispatches of 2 us on one master, then a task of 50 us:
# lo = 600 us, hi = 650 us = the simulated time, at every P > 300.
set -u
M=tests/models/speed
die() { echo "predict_speed.sh: $*"; exit 1; }
close() { awk -v a="$1" -v b="$2" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= 1e-9 * b) }'; }

row=$(timeout 30 "$PAMC" predict -q $M/dealt.pam -D P=10000 --format csv | sed -n 2p)
[ -n "$row" ] || die "P = 10^4: no answer within 30 s"
close "$(echo "$row" | cut -d, -f2)" 600e-6 || die "P = 10^4: lo in $row, want 600 us"
close "$(echo "$row" | cut -d, -f4)" 650e-6 || die "P = 10^4: hi in $row, want 650 us"
# a sweep (P a symbol, the tape walks per point) up to the loop limit
out=$(timeout 30 "$PAMC" predict -q $M/dealt.pam -D P=1000,30000,99999 --format csv) || die "sweep: no answer within 30 s"
[ "$(echo "$out" | wc -l)" -eq 4 ] || die "sweep: $out"
for p in 1000 30000 99999; do
  row=$(echo "$out" | grep "^$p,")
  close "$(echo "$row" | cut -d, -f2)" 600e-6 && close "$(echo "$row" | cut -d, -f4)" 650e-6 || die "P = $p: $row"
done
exit 0
