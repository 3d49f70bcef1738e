#!/bin/sh
# reduce.sh — `pamc reduce` on EXAMPLES.md §2 (T_lo = 4us; T_hi = 4us with the tandem rule of
# docs/reduction.md, 5us by the contract's rules) and its error status.
set -u
out=$("$PAMC" reduce tests/models/reduce/example2.pam) || { echo "reduce failed"; exit 1; }
echo "$out" | grep -qx 'T_lo = 1/250000' || { echo "bad T_lo: $out"; exit 1; }
# T_hi = 5us by the contract's rules (EXAMPLES §2); par (p) par (q) is one par over 4 chains with
# one request each on r (docs/reduction.md, tandem line): 4us, the simulated time
echo "$out" | grep -qx 'T_hi = 1/250000' || { echo "bad T_hi: $out"; exit 1; }
"$PAMC" reduce --format json tests/models/reduce/example2.pam | grep -q '"t_lo"' || { echo "no json"; exit 1; }
"$PAMC" reduce --format c tests/models/reduce/example2.pam | grep -q 'pamc_t_hi' || { echo "no C"; exit 1; }
"$PAMC" reduce /nonexistent.pam 2>/dev/null; [ $? -eq 3 ] || { echo "missing file status"; exit 1; }

# Formula shapes. LANGUAGE.md section 7: iters * max(...) of the worker's critical path and the
# serialised bus, nothing else (no third term, no load of the whole program).
out=$("$PAMC" reduce models/halo.pam) || { echo "halo failed"; exit 1; }
# The contract's rules alone give iters*max(critical path, serialised bus); the order-aware lower
# bound (docs/reduction.md) sees that the bus is reached after the compute: head + P messages,
# which dominates both.
echo "$out" | grep -qx 'T_lo = iters\*(P\*(latency + 8192\*byte_time) + t_point\*ceil(N/P))' \
  || { echo "section 7 T_lo shape: $out"; exit 1; }
echo "$out" | grep -qx 'T_hi = iters\*(P\*(latency + 8192\*byte_time) + t_point\*ceil(N/P))' \
  || { echo "section 7 T_hi shape: $out"; exit 1; }
# An if on the par index splits the range: p == 0 alone, the others one term.
cat > "${TMPDIR:-/tmp}/split_$$.pam" <<'MODEL'
param P = 8;
const t;
resource bus;
process main { par (p = 0, P - 1) if (p == 0) use(bus, 5 * t) else delay(t) }
MODEL
out=$("$PAMC" reduce "${TMPDIR:-/tmp}/split_$$.pam"); rm -f "${TMPDIR:-/tmp}/split_$$.pam"
echo "$out" | grep -qx 'T_lo = 5\*t' || { echo "split T_lo shape: $out"; exit 1; }
echo "$out" | grep -qx 'T_hi = 5\*t' || { echo "split T_hi shape: $out"; exit 1; }
# Sums close: a seq over i of i * t is t * n (n + 1) / 2, with no sum left.
cat > "${TMPDIR:-/tmp}/sum_$$.pam" <<'MODEL'
param n = 10;
const t;
process main { seq (i = 1, n) delay(i * t) }
MODEL
out=$("$PAMC" reduce "${TMPDIR:-/tmp}/sum_$$.pam"); rm -f "${TMPDIR:-/tmp}/sum_$$.pam"
echo "$out" | grep -q 'sum' && { echo "sum left open: $out"; exit 1; }
echo "$out" | grep -qx 'T_lo = t\*(n^2 + n)/2\|T_lo = n\*t\*(n + 1)/2\|T_lo = (n + n^2)\*t/2\|T_lo = t\*(n + n^2)/2' \
  || { echo "sum T_lo shape: $out"; exit 1; }
exit 0
