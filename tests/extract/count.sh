#!/usr/bin/env bash
# count.sh [-m MACHINE] MODEL [--sim] NAME [NAME=VALUE...] — how many times the extracted MODEL
# pays the machine constant NAME: every const of the model (and of MACHINE) is set to 0 but NAME,
# set to 1, and `pamc predict` (with --sim: `pamc simulate`, the reference) gives the time, which
# is then the count (for parallel models: the count along the longest thread). Params are set by
# the further NAME=VALUE arguments. The ranged charge (ex_range) is read at its est: a max over
# classes of operations, which with one constant set to 1 is that constant's count.
set -u
PAMC=${PAMC:-./pamc}
machine=()
if [ "$1" = -m ]; then machine=(-m "$2"); shift 2; fi
model=$1; shift
mode=predict
if [ "${1:-}" = --sim ]; then mode=simulate; shift; fi
name=$1; shift
defs=()
for c in $(sed -n 's/^const \([A-Za-z_0-9]*\).*/\1/p' "$model" ${machine[1]:+"${machine[1]}"}); do
  case $c in
    ex_est_share) defs+=(-D "$c=1") ;;   # the ranged charge at its est (EST)
    ex_hi_share) defs+=(-D "$c=0") ;;
    "$name") defs+=(-D "$c=1") ;;
    *) defs+=(-D "$c=0") ;;
  esac
done
for d in "$@"; do defs+=(-D "$d"); done
if [ $mode = predict ]; then
  "$PAMC" predict "$model" "${machine[@]}" "${defs[@]}" --format csv |
    awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next } { v = $col["est"] } END { printf "%.6g\n", v }'
else
  "$PAMC" simulate "$model" "${machine[@]}" "${defs[@]}" --format csv | sed -n 2p | cut -d, -f1 | awk '{ printf "%.6g\n", $1 }'
fi
