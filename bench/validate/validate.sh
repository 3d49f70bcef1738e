#!/usr/bin/env bash
# validate.sh — the driver of `make validate`: runs the programs of bench/validate/ K times per
# configuration, predicts each configuration with its model (models/validate_*.pam) and prints
# measured against predicted, then a summary line.
#
# Environment: PAMC (the pamc binary, default ./pamc), VALIDATE_BIN (the built programs, default
# build/validate), VALIDATE_MACHINE (a machine file to reuse; default: calibrate now, merging with
# the history in VALIDATE_HISTORY, default $VALIDATE_BIN/calibrate-history), VALIDATE_K (runs per
# configuration, default 5), VALIDATE_HAVE_MPI (yes/no: were the MPI programs built),
# VALIDATE_ONLY (space-separated programs to run, default all), VALIDATE_MPIRUN (how to start 2 ranks), VALIDATE_QUIET_WAIT (seconds to wait for an idle machine
# before each run, default 10).
#
# A configuration is covered when the measured range [min, max] of its K runs and the predicted
# range [lo, hi] overlap; its error is |est - median| / median. Targets: >= 80 % covered, median
# error <= 20 %. Run from the repository root.
set -u

PAMC=${PAMC:-./pamc}
BIN=${VALIDATE_BIN:-build/validate}
K=${VALIDATE_K:-5}
ONLY=${VALIDATE_ONLY:-}
HAVE_MPI=${VALIDATE_HAVE_MPI:-no}
MPIRUN=${VALIDATE_MPIRUN:-mpirun --allow-run-as-root --oversubscribe -np 2}
TARGET_COVERED=80     # percent of configurations whose ranges overlap
TARGET_ERROR=20       # percent, median over configurations of |est - median| / median

work=$(mktemp -d "${TMPDIR:-/tmp}/pamc-validate.XXXXXX") || exit 3
trap 'rm -rf "$work"' EXIT

die() { echo "validate: $*" >&2; exit 3; }
case $K in ''|*[!0-9]*|0) die "VALIDATE_K must be a positive integer, not '$K'" ;; esac

# --- the machine file -------------------------------------------------------------------------
if [ -n "${VALIDATE_MACHINE:-}" ]; then
  machine=$VALIDATE_MACHINE
  [ -r "$machine" ] || die "cannot read VALIDATE_MACHINE=$machine"
  echo "validate: machine file $machine" >&2
else
  machine=$work/machine.mach
  # Each `make validate` merges its calibration with the earlier ones kept here, so the constants'
  # intervals grow to cover how this machine drifts from one run to the next (frequency, load).
  history=${VALIDATE_HISTORY:-$BIN/calibrate-history}
  mkdir -p "$history" || die "cannot create $history"
  mpi_flag=
  if [ "$HAVE_MPI" = yes ] && "$PAMC" calibrate --help 2>&1 | grep -q -- '--mpi'; then mpi_flag=--mpi; fi
  echo "validate: calibrating ($PAMC calibrate $mpi_flag --history $history) ..." >&2
  if ! "$PAMC" calibrate $mpi_flag --history "$history" -o "$machine" 2>"$work/calibrate.log"; then
    if [ -n "$mpi_flag" ]; then
      echo "validate: calibrate --mpi failed (see below); calibrating without MPI" >&2
      tail -n 5 "$work/calibrate.log" >&2
      "$PAMC" calibrate --history "$history" -o "$machine" 2>"$work/calibrate.log" || { cat "$work/calibrate.log" >&2; die "calibrate failed"; }
    else
      cat "$work/calibrate.log" >&2; die "calibrate failed"
    fi
  fi
  # kept for inspection and for a rerun against the same constants (VALIDATE_MACHINE=...)
  if cp "$machine" "$BIN/machine.mach" 2>/dev/null; then
    echo "validate: machine file kept as $BIN/machine.mach" >&2
  fi
fi
load_before=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)

notes=()
run_mpi=yes
if [ "$HAVE_MPI" != yes ]; then
  run_mpi=no; notes+=("MPI rows skipped: mpicc not found, the MPI programs were not built")
elif ! command -v ${MPIRUN%% *} >/dev/null 2>&1; then
  run_mpi=no; notes+=("MPI rows skipped: ${MPIRUN%% *} not found")
elif ! "$PAMC" check -m "$machine" models/validate_pingpong.pam models/validate_halo.pam 2>/dev/null; then
  run_mpi=no; notes+=("MPI rows skipped: the machine file lacks the MPI constants (fn mpi_send_measured, mpi_t_msg_*: pamc calibrate --mpi)")
fi

# --- the configurations -----------------------------------------------------------------------
# program | mpi? | label | program arguments | model -D settings (space-separated NAME=VALUE)
configs=(
  "compute|no|T=1|1 200000000|T=1 W=200000000"
  "compute|no|T=2|2 200000000|T=2 W=200000000"
  "compute|no|T=4|4 200000000|T=4 W=200000000"
  "compute|no|T=8|8 200000000|T=8 W=200000000"
  "mutex|no|T=1|1 800 30000 100000|T=1 N=800 A=30000 B=100000"
  "mutex|no|T=2|2 800 30000 100000|T=2 N=800 A=30000 B=100000"
  "mutex|no|T=4|4 800 30000 100000|T=4 N=800 A=30000 B=100000"
  "mutex|no|T=8|8 800 30000 100000|T=8 N=800 A=30000 B=100000"
  "mutex|no|T=1,A=200,B=100|1 200000 200 100|T=1 N=200000 A=200 B=100"
  "mutex|no|T=2,A=200,B=100|2 200000 200 100|T=2 N=200000 A=200 B=100"
  "mutex|no|T=3,A=200,B=100|3 200000 200 100|T=3 N=200000 A=200 B=100"
  "mutex|no|T=4,A=200,B=100|4 200000 200 100|T=4 N=200000 A=200 B=100"
  "mutex|no|T=5,A=200,B=100|5 200000 200 100|T=5 N=200000 A=200 B=100"
  "mutex|no|T=6,A=200,B=100|6 200000 200 100|T=6 N=200000 A=200 B=100"
  "mutex|no|T=7,A=200,B=100|7 200000 200 100|T=7 N=200000 A=200 B=100"
  "mutex|no|T=8,A=200,B=100|8 200000 200 100|T=8 N=200000 A=200 B=100"
  "primes|no|T=1|1 840 10000|T=1 E=840 %PRIMES_COUNTS%"
  "primes|no|T=2|2 840 10000|T=2 E=840 %PRIMES_COUNTS%"
  "primes|no|T=3|3 840 10000|T=3 E=840 %PRIMES_COUNTS%"
  "primes|no|T=4|4 840 10000|T=4 E=840 %PRIMES_COUNTS%"
  "primes|no|T=5|5 840 10000|T=5 E=840 %PRIMES_COUNTS%"
  "primes|no|T=6|6 840 10000|T=6 E=840 %PRIMES_COUNTS%"
  "primes|no|T=7|7 840 10000|T=7 E=840 %PRIMES_COUNTS%"
  "primes|no|T=8|8 840 10000|T=8 E=840 %PRIMES_COUNTS%"
  "matmul|no|T=1,n=512|1 512|T=1 n=512"
  "matmul|no|T=2,n=512|2 512|T=2 n=512"
  "matmul|no|T=4,n=512|4 512|T=4 n=512"
  "stream|no|read,1MiB,T=1|1 1048576 2000 r|T=1 S=1048576 P=2000 W=0 M=0"
  "stream|no|read,1MiB,T=2|2 1048576 2000 r|T=2 S=1048576 P=2000 W=0 M=0"
  "stream|no|read,1MiB,T=4|4 1048576 2000 r|T=4 S=1048576 P=2000 W=0 M=0"
  "stream|no|write,1MiB,T=1|1 1048576 2000 w|T=1 S=1048576 P=2000 W=1 M=0"
  "stream|no|write,1MiB,T=2|2 1048576 2000 w|T=2 S=1048576 P=2000 W=1 M=0"
  "stream|no|write,1MiB,T=4|4 1048576 2000 w|T=4 S=1048576 P=2000 W=1 M=0"
  "stream|no|read,64MiB,T=1|1 67108864 8 r|T=1 S=67108864 P=8 W=0 M=1"
  "stream|no|read,64MiB,T=2|2 67108864 8 r|T=2 S=67108864 P=8 W=0 M=1"
  "stream|no|read,64MiB,T=4|4 67108864 8 r|T=4 S=67108864 P=8 W=0 M=1"
  "stream|no|write,64MiB,T=1|1 67108864 8 w|T=1 S=67108864 P=8 W=1 M=1"
  "stream|no|write,64MiB,T=2|2 67108864 8 w|T=2 S=67108864 P=8 W=1 M=1"
  "stream|no|write,64MiB,T=4|4 67108864 8 w|T=4 S=67108864 P=8 W=1 M=1"
  "compress|no|T=1|1 16777216 131072|T=1 S=16777216 K=131072 %COMPRESS_COUNTS%"
  "compress|no|T=2|2 16777216 131072|T=2 S=16777216 K=131072 %COMPRESS_COUNTS%"
  "compress|no|T=4|4 16777216 131072|T=4 S=16777216 K=131072 %COMPRESS_COUNTS%"
  "copy|no|T=1|1 128 8|T=1 S=134217728 P=8"
  "copy|no|T=2|2 128 8|T=2 S=134217728 P=8"
  "copy|no|T=4|4 128 8|T=4 S=134217728 P=8"
  "pingpong|yes|S=1B|1 200000|S=1 R=200000"
  "pingpong|yes|S=1KiB|1024 100000|S=1024 R=100000"
  "pingpong|yes|S=64KiB|65536 5000|S=65536 R=5000"
  "pingpong|yes|S=1MiB|1048576 200|S=1048576 R=200"
  "halo|yes|C=128,ROWS=512|128 512 1000|C=128 ROWS=512 I=1000"
  "halo|yes|C=1024,ROWS=64|1024 64 1000|C=1024 ROWS=64 I=1000"
  "halo|yes|C=8192,ROWS=8|8192 8 1000|C=8192 ROWS=8 I=1000"
  "halo|yes|C=32768,ROWS=2|32768 2 1000|C=32768 ROWS=2 I=1000"
  # Models extracted from the programs' unmarked C by `pamc extract` (bench/validate/extract/):
  # MEM=L is the extraction's --memory-level, by rule the smallest cache that holds the data the
  # call touches (L1d 48 KiB, L2 2 MiB here; beyond: llc), nothing fitted to a run.
  "x_dot|no|n=2000|2000 20000|n=2000 MEM=l1"
  "x_dot|no|n=100000|100000 400|n=100000 MEM=l2"
  "x_dot|no|n=8000000|8000000 5|n=8000000 MEM=llc"
  "x_matmul|no|n=48|48 200|n=48 MEM=l2"
  "x_matmul|no|n=128|128 10|n=128 MEM=l2"
  "x_matmul|no|n=384|384 1|n=384 MEM=llc"
  "x_stencil|no|n=64,it=100|64 100 20|n=64 iters=100 MEM=l2"
  "x_stencil|no|n=256,it=20|256 20 5|n=256 iters=20 MEM=l2"
  "x_stencil|no|n=1024,it=5|1024 5 2|n=1024 iters=5 MEM=llc"
  "x_omp|no|T=1,n=100000|1 100000 200|threads=1 n=100000 MEM=l2"
  "x_omp|no|T=2,n=100000|2 100000 200|threads=2 n=100000 MEM=l2"
  "x_omp|no|T=4,n=100000|4 100000 200|threads=4 n=100000 MEM=l2"
  "x_omp|no|T=1,n=4000000|1 4000000 5|threads=1 n=4000000 MEM=llc"
  "x_omp|no|T=2,n=4000000|2 4000000 5|threads=2 n=4000000 MEM=llc"
  "x_omp|no|T=4,n=4000000|4 4000000 5|threads=4 n=4000000 MEM=llc"
  "x_mpi|yes|n=1000,it=1000|1000 1000|P=2 n=1000 iters=1000 MEM=l1"
  "x_mpi|yes|n=100000,it=100|100000 100|P=2 n=100000 iters=100 MEM=l2"
  "x_mpi|yes|n=1000000,it=20|1000000 20|P=2 n=1000000 iters=20 MEM=llc"
)

# The model of an extracted program at a memory level (pamc extract, once per program and level).
extracted_model() {
  local prog=$1 level=$2 out=$work/$1-$2.pam args=()
  [ -f "$out" ] && { echo "$out"; return 0; }
  case $prog in
    x_dot) args=(-f dot) ;;
    x_matmul) args=(-f matmul) ;;
    x_stencil) args=(-f jacobi) ;;
    x_omp) args=(-f saxpy_sqrt) ;;
    x_mpi) args=($(mpicc --showme:incdirs 2>/dev/null | tr ' ' '\n' | sed 's/^/-I/')) ;;
  esac
  "$PAMC" extract "bench/validate/extract/$prog.c" "${args[@]}" --memory-level "$level" -o "$out" \
    2>"$work/extract.log" || { cat "$work/extract.log" >&2; return 1; }
  echo "$out"
}

# The primes model's operation counts (candidates C and trial divisions D of one event, M = 10000)
# are counted by the program itself (`primes --count`), not timed.
primes_counts=
if [ -x "$BIN/primes" ]; then
  primes_counts=$("$BIN/primes" --count 10000 | awk '{ printf "C=%s D=%s", $2, $4 }') \
    || die "primes --count failed"
fi

# The compress model's operation counts (positions hashed H, literals L, matches M, match-extension
# compares X of the whole input) are counted by the program itself (`compress --count S K`).
compress_counts=
if [ -x "$BIN/compress" ]; then
  compress_counts=$("$BIN/compress" --count 16777216 131072 |
    awk '{ printf "H=%s L=%s M=%s X=%s", $2, $4, $6, $8 }') || die "compress --count failed"
fi

# Other processes share this machine's cores (other builds, tests): a run they slow down measures
# them, not the program. So each run waits (up to QUIET_WAIT seconds) until no other task is
# busy, and afterwards the CPU time the whole machine spent is compared with what our own
# children spent: a run during which others took more than LOAD_LIMIT of a core is retried (up to
# LOAD_RETRIES times) and, if still loaded, kept and marked.
QUIET_WAIT=${VALIDATE_QUIET_WAIT:-10}   # seconds to wait for an idle machine before a run
LOAD_LIMIT=0.10                         # cores used by other processes that mark a run as loaded
LOAD_RETRIES=2                          # extra attempts for a loaded run
TICKS=$(getconf CLK_TCK 2>/dev/null || echo 100)

cpu_busy_ticks() { awk '/^cpu / { print $2 + $3 + $4 + $7 + $8; exit }' /proc/stat; }
# CPU ticks of the reaped children (and theirs) of process $1.
child_ticks() { sed 's/.*) //' "/proc/$1/stat" | awk '{ print $14 + $15 }'; }
now_ns() { date +%s%N; }

# Waits (up to QUIET_WAIT seconds) until the machine has been idle for two windows of 0.2 s in a
# row: all CPUs together busy for at most LOAD_LIMIT of a core. (The runnable count of /proc/loadavg
# was the test before: on this VM it reads 2 or 3 on an idle machine, the reader and kernel threads
# included, so every run waited the full QUIET_WAIT and a full `make validate` took an hour.)
wait_quiet() {
  local deadline=$((SECONDS + QUIET_WAIT)) calm=0 b0 b1
  local limit=$(awk -v hz="$TICKS" -v l="$LOAD_LIMIT" 'BEGIN { printf "%d", hz * 0.2 * l + 0.5 }')
  while [ $SECONDS -lt $deadline ] && [ $calm -lt 2 ]; do
    b0=$(cpu_busy_ticks); sleep 0.2; b1=$(cpu_busy_ticks)
    if [ $((b1 - b0)) -le "$limit" ]; then calm=$((calm + 1)); else calm=0; fi
  done
}

# One run of a program: prints its time in seconds (the last line of its stdout) and whether other
# processes were busy meanwhile ("quiet" or "loaded").
run_once() {
  local prog=$1 mpi=$2 args=$3 me=$BASHPID out b0 c0 w0 b1 c1 w1
  wait_quiet
  b0=$(cpu_busy_ticks); c0=$(child_ticks "$me"); w0=$(now_ns)
  if [ "$mpi" = yes ]; then out=$($MPIRUN "$BIN/$prog" $args 2>>"$work/run.log")
  else out=$("$BIN/$prog" $args 2>>"$work/run.log"); fi || return 1
  b1=$(cpu_busy_ticks); c1=$(child_ticks "$me"); w1=$(now_ns)
  out=$(printf '%s\n' "$out" | tail -n 1)
  case $out in ''|*[!0-9.eE+-]*) return 1 ;; esac
  awk -v t="$out" -v others=$(((b1 - b0) - (c1 - c0))) -v wall=$((w1 - w0)) -v hz="$TICKS" \
      -v limit="$LOAD_LIMIT" 'BEGIN { cores = (others / hz) / (wall / 1e9);
        printf "%s %s\n", t, (cores > limit ? "loaded" : "quiet") }'
}

rows=$work/rows          # program, label, min, max, median, lo, est, hi (seconds), quiet|loaded
: >"$rows"
last_prog=
for cfg in "${configs[@]}"; do
  IFS='|' read -r prog mpi label args defs <<<"$cfg"
  if [ "$mpi" = yes ] && [ "$run_mpi" != yes ]; then continue; fi
  if [ -n "$ONLY" ] && [[ " $ONLY " != *" $prog "* ]]; then continue; fi
  model=models/validate_$prog.pam
  level=${defs##*MEM=}
  if [ "$level" != "$defs" ]; then
    defs=${defs% MEM=*}
    model=$(extracted_model "$prog" "$level") || die "pamc extract $prog failed"
  fi
  [ -x "$BIN/$prog" ] || die "$BIN/$prog not built (make validate builds it)"
  if [ "$prog" != "$last_prog" ]; then echo "validate: $prog ..." >&2; last_prog=$prog; fi
  : >"$work/times"
  loaded=quiet
  for ((k = 1; k <= K; k++)); do
    for ((attempt = 0; attempt <= LOAD_RETRIES; attempt++)); do
      result=$(run_once "$prog" "$mpi" "$args") || { tail -n 5 "$work/run.log" >&2; die "$prog $args failed"; }
      [ "${result#* }" = quiet ] && break
    done
    [ "${result#* }" = quiet ] || loaded=loaded
    echo "${result%% *}" >>"$work/times"
  done
  measured=$(sort -g "$work/times" | awk '{ v[NR] = $1 }
    END { med = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2; printf "%.9g %.9g %.9g", v[1], v[NR], med }')
  dargs=()
  defs=${defs//%PRIMES_COUNTS%/$primes_counts}
  defs=${defs//%COMPRESS_COUNTS%/$compress_counts}
  for d in $defs; do dargs+=(-D "$d"); done
  csv=$("$PAMC" predict "$model" -m "$machine" "${dargs[@]}" --format csv 2>"$work/predict.log") \
    || { cat "$work/predict.log" >&2; die "pamc predict $model failed"; }
  predicted=$(printf '%s\n' "$csv" | awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
    NR == 2 { printf "%s %s %s", $col["lo"], $col["est"], $col["hi"] }')
  [ -n "$predicted" ] || die "no prediction for $prog $label"
  echo "$prog $label $measured $predicted $loaded" >>"$rows"
done

# --- the table and the summary ----------------------------------------------------------------
awk -v target_cov="$TARGET_COVERED" -v target_err="$TARGET_ERROR" '
function ms(x) { return sprintf("%.4g", x * 1000) }
{
  prog[NR] = $1; label[NR] = $2; mn = $3; mx = $4; med = $5; lo = $6; est = $7; hi = $8
  cov[NR] = (mx >= lo && mn <= hi) ? "yes" : "no"
  mark = $9 == "loaded" ? "*" : ""
  if (mark != "") nloaded++
  err[NR] = (est > med ? est - med : med - est) / med
  line[NR] = sprintf("%-9s %-18s %-22s %10s %-22s %10s %-7s %7.1f%%", $1, $2,
                     "[" ms(mn) ", " ms(mx) "]", ms(med), "[" ms(lo) ", " ms(hi) "]", ms(est),
                     cov[NR] mark, 100 * err[NR])
  if (cov[NR] == "yes") covered++
}
END {
  if (NR == 0) { print "validate: no configuration was run"; exit }
  printf "%-9s %-18s %-22s %10s %-22s %10s %-7s %8s\n", "program", "configuration",
         "measured [min, max]", "median", "predicted [lo, hi]", "est", "covered", "|est-med|/med"
  printf "%-9s %-18s %-22s %10s %-22s %10s %-7s %8s\n", "", "", "(ms)", "(ms)", "(ms)", "(ms)", "", ""
  for (i = 1; i <= NR; i++) print line[i]
  # median of the relative errors
  n = NR
  for (i = 1; i <= n; i++) e[i] = err[i]
  for (i = 2; i <= n; i++) { v = e[i]; j = i - 1; while (j >= 1 && e[j] > v) { e[j + 1] = e[j]; j-- } e[j + 1] = v }
  mederr = n % 2 ? e[(n + 1) / 2] : (e[n / 2] + e[n / 2 + 1]) / 2
  pct = 100 * covered / n
  printf "\n%d of %d configurations covered (%.0f%%), median relative error %.1f%%", covered, n, pct, 100 * mederr
  printf " (targets: >= %d%% covered, <= %d%%: %s)\n", target_cov, target_err,
         (pct >= target_cov && 100 * mederr <= target_err) ? "met" : "missed"
  if (nloaded > 0)
    printf "* %d configuration(s) had a run during which other processes used over %s of a core (after retries)\n", nloaded, limit
}' limit="$LOAD_LIMIT" "$rows"
for note in "${notes[@]+"${notes[@]}"}"; do echo "note: $note"; done
echo "machine file: ${VALIDATE_MACHINE:-calibrated now}; $K runs per configuration;" \
     "load average before: ${load_before:-?}, after: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)"
