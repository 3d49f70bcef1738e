#!/bin/sh
# stdout_errors.sh — a failed write on standard output is never silent (issue 14, item 5): every
# command writing to /dev/full exits 3 with "pamc: error: writing standard output: No space left
# on device" (reduce, check --dump and gen exited 0; predict and simulate exited 3 without a word).
set -u
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
die() { echo "stdout_errors.sh: $*"; exit 1; }
[ -w /dev/full ] || { echo "stdout_errors.sh: no /dev/full here, skipped"; exit 0; }
m=models/halo.pam
mach=models/machine.mach
for c in "reduce $m" "reduce --format json $m" "check --dump $m" "predict -m $mach $m" \
         "predict -m $mach -D P=1..50000 $m" "simulate -m $mach $m" "--help" "predict --help" \
         "gen models/gen/primes.spec -l models/gen/primes_costs.pam"; do
  # shellcheck disable=SC2086
  "$PAMC" $c > /dev/full 2> "$tmp/err"
  rc=$?
  [ $rc -eq 3 ] || die "$c > /dev/full: exit $rc, want 3"
  grep -qx 'pamc: error: writing standard output: No space left on device' "$tmp/err" \
    || die "$c > /dev/full: message: $(cat "$tmp/err")"
done
# standard output that works: nothing changes
"$PAMC" reduce $m > "$tmp/out" 2> "$tmp/err" || die "reduce to a file failed"
[ -s "$tmp/out" ] && [ ! -s "$tmp/err" ] || die "reduce to a file: $(cat "$tmp/err")"
exit 0
