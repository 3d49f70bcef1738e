#!/bin/sh
# reduce.sh — `pamc reduce` on EXAMPLES.md §2 (T_lo = 4us, T_hi = 5us) and its error status.
set -u
out=$("$PAMC" reduce tests/models/reduce/example2.pam) || { echo "reduce failed"; exit 1; }
echo "$out" | grep -qx 'T_lo = 1/250000' || { echo "bad T_lo: $out"; exit 1; }
echo "$out" | grep -qx 'T_hi = 1/200000' || { echo "bad T_hi: $out"; exit 1; }
"$PAMC" reduce --format json tests/models/reduce/example2.pam | grep -q '"t_lo"' || { echo "no json"; exit 1; }
"$PAMC" reduce --format c tests/models/reduce/example2.pam | grep -q 'pamc_t_hi' || { echo "no C"; exit 1; }
"$PAMC" reduce /nonexistent.pam 2>/dev/null; [ $? -eq 3 ] || { echo "missing file status"; exit 1; }
exit 0
