#!/usr/bin/env bash
# tests/e2e/calibrate_mpi.sh — `pamc calibrate --mpi`. With a stand-in launcher (PAMC_MPIRUN)
# that prints samples on the line t = 2 us + size * 0.5 ns (+-1%): the arguments it is started
# with, mpi_latency and mpi_byte_time enclosing the line's coefficients, mpi_barrier and
# mpi_allreduce as [min, max] of their samples, fn mpi_send, and no file (the old one kept) when
# the launcher fails or stops early. Then, when mpirun and pamc-mpi-bench exist, a real quick run.
set -eu
pamc=${PAMC:-./build/pamc}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "calibrate_mpi.sh: $*" >&2; exit 1; }

# The stand-in: records its arguments, prints the quick sizes 1 B .. 4 MiB (x4), 5 samples each,
# the sample k of size s being (2e-6 + s * 0.5e-9) * (1 + (k - 2) / 200), then the collectives.
cat > "$tmp/fake-mpirun" <<'SH'
#!/bin/sh
echo "$@" > "$FAKE_ARGS"
echo "pamc-mpi-bench 1 ranks ${FAKE_RANKS:-2}"
awk -v stop="${FAKE_STOP:-}" -v ranks="${FAKE_RANKS:-2}" 'BEGIN {
  for (peer = 1; peer < ranks; peer++) {
    latency = peer == 2 ? 20e-6 : ENVIRON["FAKE_LATENCY"] ? ENVIRON["FAKE_LATENCY"] : 2e-6
    # with 3 ranks, the pair 0-2 is 10x slower; FAKE_LATENCY moves the pair 0-1
    for (s = 1; s <= 4194304; s *= 4) {
      line = "msg " s " " peer
      for (k = 0; k < 5; k++) line = line sprintf(" %.9e", (latency + s * 0.5e-9) * (1 + (k - 2) / 200))
      print line
      if (stop != "" && s >= stop) exit
    }
  }
  print "barrier 3e-06 3.5e-06 5e-06 4.5e-06 4e-06"
  print "allreduce 6e-06 6.5e-06 8e-06 7.5e-06 7e-06"
}'
[ -n "${FAKE_STOP:-}" ] && exit "${FAKE_STATUS:-0}"
[ -n "${FAKE_NO_END:-}" ] || echo "end"
SH
chmod +x "$tmp/fake-mpirun"
export FAKE_ARGS="$tmp/args"
fake() { PAMC_MPIRUN="$tmp/fake-mpirun --fake-option" PAMC_MPI_BENCH=/bin/true "$pamc" calibrate --quick --reps 5 "$@"; }

fake --mpi -o "$tmp/m.mach" 2>"$tmp/err" || fail "calibrate --mpi with the stand-in failed: $(cat "$tmp/err")"
grep -qx -- '--fake-option -np 2 /bin/true --reps 5 --sample-seconds 0.001 --quick' "$tmp/args" \
  || fail "launcher arguments: $(cat "$tmp/args")"
m="$tmp/m.mach"
grep -qx 'fn mpi_send(bytes) = mpi_latency + bytes \* mpi_byte_time;' "$m" || fail "no fn mpi_send"
grep -q '^# messages between MPI ranks (2 ranks):' "$m" || fail "no MPI section"
n_progress=$(grep -c '^calibrate: \[.*mpi_' "$tmp/err")
[ "$n_progress" -eq 14 ] || fail "expected 14 MPI progress lines, found $n_progress"
# The ends of each fitted interval, in seconds, must enclose the line's coefficient and lie
# within 10% of it (the samples stray 1% from the line).
interval() {
  sed -n "s/^const $1 = \[\([^,]*\), \([^]]*\)\].*/\1 \2/p" "$m" | awk '
    function secs(t,   u) { u = t; sub(/^[-0-9.e]+/, "", u); sub(/[a-z]+$/, "", t);
      return t * (u == "ns" ? 1e-9 : u == "us" ? 1e-6 : u == "ms" ? 1e-3 : 1) }
    { printf "%.12g %.12g\n", secs($1), secs($2) }'
}
encloses() {
  read -r lo hi <<< "$(interval "$1")"
  awk -v lo="$lo" -v hi="$hi" -v t="$2" 'BEGIN { exit !(lo <= t && t <= hi && lo >= 0.9 * t && hi <= 1.1 * t) }' \
    || fail "$1 = [$lo, $hi] should enclose $2 within 10%"
}
# [min, max] of the samples, printed outward to 5 digits.
is_hull() {
  read -r lo hi <<< "$(interval "$1")"
  awk -v lo="$lo" -v hi="$hi" -v a="$2" -v b="$3" 'BEGIN { exit !(lo <= a && lo >= a * (1 - 1e-4) && hi >= b && hi <= b * (1 + 1e-4)) }' \
    || fail "$1 = [$lo, $hi] should be [$2, $3]"
}
is_hull mpi_barrier 3e-6 5e-6
is_hull mpi_allreduce 6e-6 8e-6
encloses mpi_latency 2e-6
encloses mpi_byte_time 0.5e-9
# The machine file serves a model: mpi_send(1 MiB) = 2 us + 1048576 * 0.5 ns = 526.288 us.
cat > "$tmp/use.pam" <<'PAM'
process main { delay(mpi_send(1048576)) }
PAM
"$pamc" predict -m "$m" "$tmp/use.pam" --format csv > "$tmp/pred" || fail "predict with the MPI constants"
tail -1 "$tmp/pred" | awk -F, '{ exit !($1 <= 526.288e-6 && 526.288e-6 <= $3 && $3 < 600e-6) }' \
  || fail "mpi_send(1 MiB) = $(tail -1 "$tmp/pred"), should enclose 526.288 us"
"$pamc" check "$m" || fail "pamc check rejects the machine file"
# The validation models (make validate) take their constants from such a file as it is.
models=$(dirname "$0")/../../models
for model in "$models"/validate_*.pam; do
  "$pamc" check -m "$m" "$model" 2>"$tmp/err" || fail "$model does not check against calibrate's file: $(cat "$tmp/err")"
done
# The measured times: mpi_t_msg_S is [min, max] of the samples of size S (the line +-1%), and
# mpi_send_measured interpolates between them: on a line, the line itself (3000 B lies between
# the quick sizes 1 KiB and 4 KiB: 2 us + 1.5 us), and beyond 4 MiB it goes on by mpi_byte_time.
is_hull mpi_t_msg_1024 "$(awk 'BEGIN { printf "%.9e", (2e-6 + 1024 * 0.5e-9) * 0.99 }')" \
  "$(awk 'BEGIN { printf "%.9e", (2e-6 + 1024 * 0.5e-9) * 1.01 }')"
cat > "$tmp/measured.pam" <<'PAM'
param S = 3000;
process main { delay(mpi_send_measured(S)) }
PAM
for point in 3000:3.5e-6 1:2.0000005e-6 8388608:4.196304e-3; do
  size=${point%%:*} want=${point#*:}
  "$pamc" predict -m "$m" "$tmp/measured.pam" -D S="$size" --format csv > "$tmp/pred" \
    || fail "predict with mpi_send_measured"
  tail -1 "$tmp/pred" | awk -F, -v t="$want" '{ exit !($2 <= t && t <= $4 && $2 >= 0.98 * t && $4 <= 1.02 * t) }' \
    || fail "mpi_send_measured($size) = $(tail -1 "$tmp/pred"), should enclose $want within 2%"
done

# Failures leave the old file as it was: a launcher exiting 3 midway, one stopping without 'end',
# a missing benchmark program (refused before anything is measured), --mpi-ranks 3 passed through.
echo "old content" > "$tmp/keep.mach"
set +e
FAKE_STOP=64 FAKE_STATUS=3 fake --mpi -o "$tmp/keep.mach" 2>"$tmp/err"; status=$?
[ $status -eq 3 ] || fail "a failing launcher: exit $status, expected 3"
grep -q 'exited with status 3' "$tmp/err" || fail "a failing launcher: $(tail -1 "$tmp/err")"
FAKE_NO_END=1 fake --mpi -o "$tmp/keep.mach" 2>"$tmp/err"; status=$?
[ $status -eq 3 ] || fail "no 'end': exit $status, expected 3"
grep -q 'stopped before its last line' "$tmp/err" || fail "no 'end': $(tail -1 "$tmp/err")"
start=$(date +%s)
PAMC_MPI_BENCH="$tmp/none" "$pamc" calibrate --quick --mpi -o "$tmp/keep.mach" 2>"$tmp/err"; status=$?
[ $status -eq 3 ] || fail "missing pamc-mpi-bench: exit $status, expected 3"
grep -q "$tmp/none is missing" "$tmp/err" || fail "missing pamc-mpi-bench: $(cat "$tmp/err")"
! grep -q '^calibrate: \[' "$tmp/err" || fail "missing pamc-mpi-bench: benchmarks ran before the check"
set -e
[ "$(cat "$tmp/keep.mach")" = "old content" ] || fail "a failed run changed the old file"
[ -z "$(ls "$tmp" | grep '\.tmp\.')" ] || fail "temporary file left behind"

# Three ranks whose pairs differ (latency 2 us to rank 1, 20 us to rank 2): mpi_latency is the
# hull of both pairs' intervals; each pair also has its own constants and mpi_send_0_R.
FAKE_RANKS=3 fake --mpi-ranks 3 -o "$tmp/m3.mach" 2>"$tmp/err" || fail "3 ranks: $(tail -1 "$tmp/err")"
grep -q -- '-np 3 ' "$tmp/args" || fail "--mpi-ranks 3: launcher got $(cat "$tmp/args")"
m="$tmp/m3.mach"
read -r lo hi <<< "$(interval mpi_latency)"
awk -v lo="$lo" -v hi="$hi" 'BEGIN { exit !(lo <= 2e-6 && lo >= 1.8e-6 && hi >= 20e-6 && hi <= 22e-6) }' \
  || fail "3 ranks: mpi_latency = [$lo, $hi] should be the hull of ~2 us and ~20 us"
encloses mpi_latency_0_1 2e-6
encloses mpi_latency_0_2 20e-6
encloses mpi_byte_time_0_2 0.5e-9
grep -qx 'fn mpi_send_0_2(bytes) = mpi_latency_0_2 + bytes \* mpi_byte_time_0_2;' "$m" || fail "no fn mpi_send_0_2"
# Per pair and size, a comment line (the constants hold the hull over pairs): 12 sizes, 2 pairs.
grep -q '^# messages between MPI ranks (3 ranks), per pair and size:' "$m" || fail "3 ranks: no per-pair section"
[ "$(grep -c '^# .* B: ranks 0-[12], one-way ' "$m")" -eq 24 ] || fail "3 ranks: expected 24 per-pair size lines"
[ "$(grep -c '^# .* B: ranks 0-' "$tmp/m.mach")" -eq 0 ] || fail "2 ranks: per-pair lines repeat mpi_t_msg_*"
n_progress=$(grep -c '^calibrate: \[.*mpi_' "$tmp/err")
[ "$n_progress" -eq 26 ] || fail "3 ranks: expected 26 MPI progress lines, found $n_progress"
"$pamc" check "$m" || fail "pamc check rejects the 3-rank machine file"
# Pairs that agree get no constants of their own.
! grep -q 'mpi_latency_0_1' "$tmp/m.mach" || fail "2 ranks: per-pair constants written"

# With --history, a second run on a machine that drifted (latency 3 us instead of 2 us): the
# intervals are the hull of each run's fit, so mpi_latency holds both 2 us and 3 us, while the
# estimate (the fit over all samples) lies between; byte_time is unchanged.
fake --mpi --history "$tmp/hist" -o "$tmp/h1.mach" 2>"$tmp/err" || fail "history run 1: $(tail -1 "$tmp/err")"
FAKE_LATENCY=3e-6 fake --mpi --history "$tmp/hist" -o "$tmp/h2.mach" 2>"$tmp/err" \
  || fail "history run 2: $(tail -1 "$tmp/err")"
m="$tmp/h2.mach"
read -r lo hi <<< "$(interval mpi_latency)"
awk -v lo="$lo" -v hi="$hi" 'BEGIN { exit !(lo <= 2e-6 && lo >= 1.8e-6 && hi >= 3e-6 && hi <= 3.3e-6) }' \
  || fail "history: mpi_latency = [$lo, $hi] should be the hull of ~2 us and ~3 us"
encloses mpi_byte_time 0.5e-9
grep -q '^const mpi_latency = .*fit, 95% CI, hull with each of 2 runs' "$m" || fail "history: no hull comment"
grep -q '^const latency = .*hull with each of 2 runs' "$m" || fail "history: local latency not per run"

# The real thing, when this machine has it: 2 ranks on this machine, quick.
bench="$(dirname "$pamc")/pamc-mpi-bench"
if command -v mpirun >/dev/null && [ -x "$bench" ]; then
  "$pamc" calibrate --quick --reps 3 --mpi -o "$tmp/real.mach" 2>"$tmp/err" \
    || fail "calibrate --mpi under mpirun: $(tail -3 "$tmp/err")"
  m="$tmp/real.mach"
  for name in mpi_latency mpi_byte_time mpi_barrier mpi_allreduce; do
    read -r lo hi <<< "$(interval $name)"
    awk -v lo="$lo" -v hi="$hi" 'BEGIN { exit !(lo <= hi && hi > 0 && hi < 1e-3) }' \
      || fail "real run: $name = [$lo, $hi]"
  done
  "$pamc" check "$m" || fail "pamc check rejects the real machine file"
else
  echo "note: no mpirun or $bench: the real MPI run is skipped"
fi
echo "calibrate_mpi.sh: ok"
