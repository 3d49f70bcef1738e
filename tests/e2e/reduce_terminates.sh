#!/bin/sh
# reduce_terminates.sh — the reduction ends on models with interval literals and free params
# (issue 14, item 3): each model of tests/models/iv reduces within 20 s, and predict at P = 1, 2, 5
# brackets the simulated makespan of the lo and hi scenarios (every interval at its low / high end).
set -u
die() { echo "reduce_terminates.sh: $*"; exit 1; }
for f in tests/models/iv/*.pam; do
  timeout 20 "$PAMC" reduce "$f" > /dev/null 2>&1
  rc=$?
  [ $rc -eq 0 ] || die "$f: reduce exit $rc (124: did not end)"
  grep -q '^param P' "$f" && points='1 2 5' || points='-'
  for p in $points; do
    d=''; [ "$p" = - ] || d="-D P=$p"
    # shellcheck disable=SC2086
    row=$(timeout 20 "$PAMC" predict "$f" $d --format csv | tail -1) || die "$f P=$p: predict failed"
    [ "$p" = - ] || row=${row#*,}
    lo=$(echo "$row" | cut -d, -f1); hi=$(echo "$row" | cut -d, -f3)
    for s in lo hi; do
      # shellcheck disable=SC2086
      sim=$("$PAMC" simulate "$f" $d --scenario $s --format csv | sed -n 2p | cut -d, -f1) || die "$f P=$p: simulate failed"
      awk -v lo="$lo" -v hi="$hi" -v s="$sim" 'BEGIN { exit !(lo <= s * (1 + 1e-12) && s <= hi * (1 + 1e-12)) }' \
        || die "$f P=$p scenario $s: simulated $sim outside [$lo, $hi]"
    done
  done
done
# the narrow literal: T_lo is finite and exact at P = 2 (two uses of [2, 3] on one r: 4 .. 6)
row=$("$PAMC" predict tests/models/iv/par_literal_narrow.pam -D P=1,2 --format csv) || die "narrow: predict -D P=1,2 failed"
[ "$(echo "$row" | sed -n 3p | cut -d, -f2)" = 4 ] || die "narrow: lo at P=2: $row"
exit 0
