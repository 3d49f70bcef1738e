#!/bin/sh
# predict_speed.sh — predict's time does not grow with the size of P (issue 15, the audit): a
# model whose T_hi holds a sum over w inside the body of a max over w (tasks dealt with
# remainders through one master) took 96 s at P = 10^4, the body's sum walked again at every w,
# in the reduction's sign questions (eval.c) and in the tape (tape.c). Now well under a second; the
# limit here (30 s) leaves room for the sanitizer build and a busy machine, and the old code does
# not come near it. Values by hand: 300 dispatches of 2 us on one master, then a task of 50 us:
# lo = hi = 650 us = the simulated time, at every P > 300 (lo: the master's 300 requests, none
# before 0, and the worker served last still computes; docs/reduction.md, "a stage in a loop
# whose count depends on the branch"). In a sweep (P a symbol) the repeat's count stays under
# the guard `1 <= count ? ... : 0`; its sum over w closes all the same (the index enters only
# through `w - 1 < N % (P - 1)`, docs/reduction.md "Closed forms"): lo = 650 us there too (it
# stayed 600 us, the master's load, before).
# Walks inside walks (a sum over k of a max over p, a max over r of a max over c) take at most
# 10^6 indices at once in the tape, and the loop limit in the reduction's sign questions
# (tape.h, eval.c): all-to-all in pairs (over 300 s at P = 10^4 before) and a Q x Q torus (over
# 60 s at Q = 10^4). By hand: pairs, each of the P rounds exchanges two messages of 3 us, nobody
# waits: 6 P us (P >= 3; the simulator agrees at P = 3, 5, 64); torus, 8 us of compute and four
# sends of 1 us to distinct links at each step: 12 us at every Q >= 2.
set -u
M=tests/models/speed
die() { echo "predict_speed.sh: $*"; exit 1; }
close() { awk -v a="$1" -v b="$2" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= 1e-9 * b) }'; }

row=$(timeout 30 "$PAMC" predict -q $M/dealt.pam -D P=10000 --format csv | sed -n 2p)
[ -n "$row" ] || die "P = 10^4: no answer within 30 s"
close "$(echo "$row" | cut -d, -f2)" 650e-6 || die "P = 10^4: lo in $row, want 650 us"
close "$(echo "$row" | cut -d, -f4)" 650e-6 || die "P = 10^4: hi in $row, want 650 us"
# a sweep (P a symbol, the tape walks per point) up to the loop limit
out=$(timeout 30 "$PAMC" predict -q $M/dealt.pam -D P=1000,30000,99999 --format csv) || die "sweep: no answer within 30 s"
[ "$(echo "$out" | wc -l)" -eq 4 ] || die "sweep: $out"
for p in 1000 30000 99999; do
  row=$(echo "$out" | grep "^$p,")
  close "$(echo "$row" | cut -d, -f2)" 650e-6 && close "$(echo "$row" | cut -d, -f4)" 650e-6 || die "P = $p: $row"
done
for c in "pairs P=10000 60000e-6" "pairs P=1001 6006e-6" "torus Q=10000 12e-6" "torus Q=1001 12e-6"; do
  set -- $c
  row=$(timeout 30 "$PAMC" predict -q $M/$1.pam -D $2 --format csv | sed -n 2p)
  [ -n "$row" ] || die "$1 $2: no answer within 30 s"
  close "$(echo "$row" | cut -d, -f2)" $3 && close "$(echo "$row" | cut -d, -f4)" $3 || die "$1 $2: $row, want lo = hi = $3 s"
done
exit 0
