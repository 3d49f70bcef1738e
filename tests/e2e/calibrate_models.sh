#!/usr/bin/env bash
# tests/e2e/calibrate_models.sh — calibrate to predict in one step: after `pamc calibrate`, every
# bundled model (models/*.pam) finds each constant it leaves without a value in the machine file
# written, and `pamc predict` works on it: swept over P = 2 .. 1024 (x2) when the model has a param
# P (fft_transpose admits P >= 2), at its defaults otherwise. The two MPI models need the MPI
# constants (--mpi): checked when mpirun and pamc-mpi-bench exist, skipped with a note otherwise.
# Also: the generic constants are there with their derivation, and t_flop spans the measured ones.
set -eu
pamc=${PAMC:-./build/pamc}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "calibrate_models.sh: $*" >&2; exit 1; }

mpi_ok=no
if command -v mpirun >/dev/null 2>&1 && [ -x "$(dirname "$pamc")/pamc-mpi-bench" ]; then mpi_ok=yes; fi
flags=--quick
[ $mpi_ok = yes ] && flags="--quick --mpi"
"$pamc" calibrate $flags --reps 3 -o "$tmp/m.mach" 2>"$tmp/err" || {
  # an MPI launcher that cannot start here (containers) is not what this test is about
  [ $mpi_ok = yes ] || fail "calibrate failed: $(tail -3 "$tmp/err")"
  mpi_ok=no
  "$pamc" calibrate --quick --reps 3 -o "$tmp/m.mach" 2>"$tmp/err" || fail "calibrate failed: $(tail -3 "$tmp/err")"
}
m=$tmp/m.mach

grep -q '^const t_flop = \[.*# a double flop of unknown code' "$m" || fail "no t_flop with its derivation"
grep -qx 'const t_point = 5 \* t_flop + 8 \* t_copy_l2;.*' "$m" || fail "no t_point"
grep -q '^const t_lock = \[' "$m" || fail "no t_lock"

# t_flop = [t_flop_vec lo, max(t_add_double hi, t_mul_double hi)], read back from the file.
secs() { sed -n "s/^const $1 = \[\([^,]*\), \([^]]*\)\].*/\1 \2/p" "$m" | awk '
  function s(t,   u) { u = t; sub(/^[-0-9.e]+/, "", u); sub(/[a-z]+$/, "", t);
    return t * (u == "ns" ? 1e-9 : u == "us" ? 1e-6 : u == "ms" ? 1e-3 : 1) }
  { printf "%.10g %.10g\n", s($1), s($2) }'; }
read -r flo fhi <<<"$(secs t_flop)"
read -r vlo _ <<<"$(secs t_flop_vec)"
read -r _ ahi <<<"$(secs t_add_double)"
read -r _ mhi <<<"$(secs t_mul_double)"
awk -v flo="$flo" -v fhi="$fhi" -v vlo="$vlo" -v ahi="$ahi" -v mhi="$mhi" 'BEGIN {
  hi = ahi > mhi ? ahi : mhi
  exit !(flo == vlo && fhi == hi) }' || fail "t_flop [$flo, $fhi] is not [t_flop_vec lo $vlo, max($ahi, $mhi)]"

n=0
for model in models/*.pam; do
  case $model in
    */validate_pingpong.pam|*/validate_halo.pam)
      if [ $mpi_ok != yes ]; then echo "note: $model skipped (needs pamc calibrate --mpi)"; continue; fi ;;
  esac
  sweep=()
  if grep -q '^param P\b' "$model"; then sweep=(-D 'P=2..1024:*2'); fi
  "$pamc" predict "$model" -m "$m" "${sweep[@]+"${sweep[@]}"}" --format csv >"$tmp/out" 2>"$tmp/err" \
    || fail "pamc predict $model ${sweep[*]+"${sweep[*]}"} after calibrate: $(head -3 "$tmp/err")"
  rows=$(($(wc -l <"$tmp/out") - 1))
  if [ ${#sweep[@]} -gt 0 ]; then want=10; else want=1; fi
  [ "$rows" -eq $want ] || fail "$model: $rows rows, expected $want"
  n=$((n + 1))
done
[ $n -ge 11 ] || fail "only $n models predicted"
echo "calibrate_models.sh: ok ($n models)"
