#!/usr/bin/env bash
# fit.sh — the driver of `make validate-fit`: `pamc fit` on a real program. bench/validate/mutex.c
# (T threads, N iterations of private work and a critical section) is measured at small sizes
# (N = 16, 32 iterations; T = 1, 2, 4), the unknown consts of its model (bench/validate/fit_mutex.pam:
# t_add_double, t_handoff, t_start) are fitted to those runs with `pamc fit`, and the fitted model
# predicts sizes 8x and 64x larger (N = 256, 2048), which are then measured beside the prediction
# with `pamc predict --measured`. No calibration: the fit replaces it; the machine file holds only
# the cores (this machine's CPU count).
#
# Environment: PAMC (default ./pamc), VALIDATE_BIN (the built programs, default build/validate),
# VALIDATE_K (runs per configuration, default 5). Run from the repository root.
set -u

PAMC=${PAMC:-./pamc}
BIN=${VALIDATE_BIN:-build/validate}
K=${VALIDATE_K:-5}
A=30000           # additions outside the lock per iteration (the model's default)
B=100000          # additions inside the lock per iteration
SMALL="16 32"     # iterations measured for the fit (N = 8 runs take 0.5 ms: thread start-up)
LARGE="256 2048"  # 8x and 64x the largest fitted size
THREADS="1 2 4"
MODEL=bench/validate/fit_mutex.pam   # the consts without values (models/validate_mutex.pam has them)

work=$(mktemp -d "${TMPDIR:-/tmp}/pamc-validate-fit.XXXXXX") || exit 3
trap 'rm -rf "$work"' EXIT
die() { echo "validate-fit: $*" >&2; exit 3; }
case $K in ''|*[!0-9]*|0) die "VALIDATE_K must be a positive integer, not '$K'" ;; esac
[ -x "$BIN/mutex" ] || die "$BIN/mutex not built (make validate-fit builds it)"

cores=$(nproc 2>/dev/null || echo 1)
printf '# validate-fit: the cores of this machine; the other consts are fitted\nresource cores = fcfs(%s);\n' \
  "$cores" > "$work/cores.mach"

# measure SIZES: K runs of mutex per (T, N), as CSV rows T,N,time
measure() {
  for n in $1; do
    for t in $THREADS; do
      for _ in $(seq "$K"); do
        s=$("$BIN/mutex" "$t" "$n" "$A" "$B") || die "mutex $t $n failed"
        echo "$t,$n,$s"
      done
    done
  done
}

load_before=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)
{ echo "T,N,time"; measure "$SMALL"; } > "$work/small.csv"
echo "== pamc fit $MODEL small.csv (N = ${SMALL// /, }; T = ${THREADS// /, }; $K runs each)"
"$PAMC" fit $MODEL "$work/small.csv" -m "$work/cores.mach" -o "$work/fitted.mach" \
  || die "pamc fit failed"
{ echo "T,N,time"; measure "$LARGE"; } > "$work/large.csv"
echo
echo "== pamc predict at N = ${LARGE// /, } (8x and 64x) with the fitted consts, measured beside"
"$PAMC" predict $MODEL -m "$work/cores.mach" -m "$work/fitted.mach" \
  -D N=${LARGE// /,} -D T=${THREADS// /,} --measured "$work/large.csv" || die "pamc predict failed"
echo "load average before: $load_before, after: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)"
