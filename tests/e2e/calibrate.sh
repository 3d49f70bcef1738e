#!/usr/bin/env bash
# tests/e2e/calibrate.sh — `pamc calibrate --quick` writes a machine file with every required
# constant, well-formed intervals, the send function and the cores resource; the default path,
# option errors and exit statuses of CLI.md.
set -eu
pamc=${PAMC:-./build/pamc}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "calibrate.sh: $*" >&2; exit 1; }

"$pamc" calibrate --quick --reps 3 -o "$tmp/m.mach" 2>"$tmp/err" || fail "calibrate failed: $(cat "$tmp/err")"
out="$tmp/m.mach"
for type in int long float double char; do
  for op in add sub mul div cmp assign; do
    grep -q "^const t_${op}_${type} = \[" "$out" || fail "missing t_${op}_${type}"
  done
done
for type in int long float double char; do
  for op in add sub mul div cmp; do
    grep -q "^const t_${op}_${type}_tp = \[" "$out" || fail "missing t_${op}_${type}_tp"
  done
done
for name in t_sqrt_double t_exp_double t_log_double t_cvt_int_double t_sqrt_double_tp \
            t_exp_double_tp t_log_double_tp t_cvt_int_double_tp t_cvt_double_int_tp t_flop_vec \
            t_lock t_handoff t_thread t_barrier_1 t_barrier_2 t_flop_vec_256 t_flop_vec_512 \
            t_flop_vec_plain t_flop_vec_plain_512 t_branch_miss t_load_lat_4096; do
  grep -q "^const $name = \[" "$out" || fail "missing $name"
done
# Barriers of T = 1 .. N threads (N the CPUs, at least 2, at most 64): t_barrier is the N one.
cores=$(getconf _NPROCESSORS_ONLN)
n_barrier=$(( cores < 2 ? 2 : cores > 64 ? 64 : cores ))
[ "$(grep -c '^const t_barrier_[0-9]* = \[' "$out")" -eq "$n_barrier" ] || fail "expected $n_barrier barrier sizes"
grep -q "^const t_barrier = t_barrier_$n_barrier;" "$out" || fail "missing const t_barrier = t_barrier_$n_barrier"
grep -q "^fn t_barrier_of(threads) = threads <= 1 ? t_barrier_1 : " "$out" || fail "missing fn t_barrier_of"
for fn in "t_flop_vec_shared(n, threads)" "t_flop_vec_plain_shared(n, threads)" "t_load_lat(ws_bytes)"; do
  grep -qF "fn $fn =" "$out" || fail "missing fn $fn"
done
# t_flop_blas exactly when the system has a BLAS that dlopen finds.
blas=0
if ldconfig -p 2>/dev/null | grep -q 'libblas\.so\.3 '; then
  blas=1
  grep -q '^const t_flop_blas = \[.*# dgemm .* of /' "$out" || fail "a BLAS is installed but no t_flop_blas naming it"
  grep -q '^const t_flop_blas_512 = \[' "$out" || fail "a BLAS is installed but no t_flop_blas_512"
  grep -q '^fn t_flop_blas_of(n) =' "$out" || fail "a BLAS is installed but no fn t_flop_blas_of"
fi
for op in read write copy; do
  for level in l1 l2 llc mem; do
    grep -q "^const t_${op}_${level} = \[" "$out" || fail "missing t_${op}_${level}"
  done
done
grep -q '^const latency = \[' "$out" || fail "missing latency"
grep -q '^const byte_time = \[' "$out" || fail "missing byte_time"
grep -qx 'fn send(bytes) = latency + bytes \* byte_time;' "$out" || fail "missing fn send"
for size in 1 4 16 64 256 1024 4096 16384 65536 262144 1048576 4194304; do
  grep -q "^const t_msg_$size = \[" "$out" || fail "missing t_msg_$size"
done
grep -qx 'fn send_measured(bytes) =' "$out" || fail "missing fn send_measured"
grep -q "^const n_cpus = $cores;" "$out" || fail "missing const n_cpus = $cores"
grep -q "^resource cores = ps(cores_eff);" "$out" || fail "missing resource cores = ps(cores_eff)"
grep -q "^const t_point = 5 \* t_flop + 8 \* t_copy_l2;" "$out" || fail "missing t_point"
for key in machine date command statistics; do
  grep -q "^# $key: " "$out" || fail "header has no '$key' line"
done
# Every measured const: [LO, HI] typ M with units (the two ratios cores_eff, membw_eff without),
# LO <= M <= HI once in seconds; a comment saying what was kept. n_cpus and page_bytes are counts; t_point and
# t_flop are derived (generic names).
awk '
  function secs(t,   u) { u = t; sub(/^[-0-9.e]+/, "", u); sub(/[a-z]+$/, "", t);
    return t * (u == "ns" ? 1e-9 : u == "us" ? 1e-6 : u == "ms" ? 1e-3 : u == "s" ? 1 : u == "" ? 1 : -1e99) }
  /^const (n_cpus|page_bytes|t_point|t_barrier|t_omp_for) / { next }
  /^const / {
    unit = ($2 ~ /_eff$/) ? "" : "(ns|us|ms|s)"
    if ($0 !~ ("^const [a-z0-9_]+ = \\[[0-9.e-]+" unit ", [0-9.e-]+" unit "\\] typ [0-9.e-]+" unit ";")) { print "bad line: " $0; bad = 1; next }
    split($0, a, /[\[\],]/); lo = secs(a[2]); gsub(/ /, "", a[3]); hi = secs(a[3]);
    t = $0; sub(/.*\] typ /, "", t); sub(/;.*/, "", t); typ = secs(t)
    if (lo < 0 || hi < lo || typ < lo || typ > hi) { print "bad interval: " $0; bad = 1 }
    if ($2 != "t_flop" && $0 !~ /# .*[0-9]+ of [0-9]+ samples kept/) { print "no sample count: " $0; bad = 1 }
  }
  END { exit bad }' "$out" || fail "malformed constants"
# The two message processes are pinned to two CPUs when the run may use two, and not otherwise.
if [ "$(nproc)" -ge 2 ]; then
  grep -q '^# messages: .*(socketpair ping-pong, pinned to CPUs [0-9]* and [0-9]*)' "$out" \
    || fail "message processes not pinned: $(grep '^# messages:' "$out")"
fi
if command -v taskset >/dev/null 2>&1; then
  taskset -c 0 "$pamc" calibrate --quick --reps 2 -o "$tmp/one.mach" 2>/dev/null || fail "calibrate on one CPU failed"
  grep -q '^# messages: .*(socketpair ping-pong)' "$tmp/one.mach" || fail "pinned with one CPU allowed"
fi
n_const=$(grep -c '^const ' "$out")
# The working-set sweep: 8 or more sets from 4 KiB, the same sets for each of the six kernels,
# and a function per kernel.
n_sweep=$(grep -c '^const t_read_[0-9]* = ' "$out")
[ "$n_sweep" -ge 8 ] || fail "expected 8 or more working sets, found $n_sweep"
grep -q '^const t_read_4096 = ' "$out" || fail "the sweep does not start at 4 KiB"
for op in write copy read_vec write_vec copy_vec; do
  [ "$(grep -c "^const t_${op}_[0-9]* = " "$out")" -eq "$n_sweep" ] || fail "t_${op}_SIZE: not $n_sweep sets"
done
for op in read write copy read_vec write_vec copy_vec; do
  grep -qx "fn t_${op}(ws_bytes) =" "$out" || fail "missing fn t_${op}(ws_bytes)"
done
# Memory under T = 2 .. N threads at once (N at most 8), at each working set of the sweep, and
# t_OP_shared choosing among them.
n_par=$(( cores > 8 ? 8 : cores ))
n_mempar=0
for op in read write copy; do
  for t in $(seq 2 "$n_par"); do
    [ "$(grep -c "^const t_${op}_par${t}_[0-9]* = \[" "$out")" -eq "$n_sweep" ] || fail "t_${op}_par${t}_SIZE: not $n_sweep sets"
    grep -qx "fn t_${op}_par${t}(ws_bytes) =" "$out" || fail "missing fn t_${op}_par${t}"
    n_mempar=$((n_mempar + n_sweep))
  done
  if [ "$n_par" -ge 2 ]; then
    grep -q "^fn t_${op}_shared(ws_bytes, threads) = threads <= 1 ? t_${op}(ws_bytes) : .*t_${op}_par${n_par}(ws_bytes);\$" "$out" \
      || fail "missing fn t_${op}_shared"
  else
    grep -qx "fn t_${op}_shared(ws_bytes, threads) = t_${op}(ws_bytes);" "$out" || fail "missing fn t_${op}_shared"
  fi
done
# t_omp_for exactly when pamc was built with OpenMP (libgomp linked).
omp=0
if grep -q '^const t_omp_for_1 = \[.*# OpenMP parallel for of' "$out"; then
  omp=$(grep -c '^const t_omp_for_[0-9]* = \[' "$out")
  [ "$omp" -eq "$(( cores > 64 ? 64 : cores ))" ] || fail "expected t_omp_for_1 .. t_omp_for_$cores"
  grep -q "^const t_omp_for = t_omp_for_$omp;" "$out" || fail "missing const t_omp_for = t_omp_for_$omp"
  omp=$((omp + 1))
fi
if [ $omp = 0 ] && echo 'int main(void){return 0;}' | ${CC:-cc} -fopenmp -x c - -lgomp -o "$tmp/omp" 2>/dev/null; then
  fail "the compiler has OpenMP but the file has no t_omp_for"
fi
# The blocked product: 2 shapes x 3 orders, alone and on 2 .. min(N, 8) threads; load latency at
# the --quick sweep's sets, and t_branch_miss.
n_flop_threads=$(( cores < 2 ? 1 : cores > 8 ? 8 : cores ))
n_flops=$((6 * n_flop_threads))
[ "$(grep -c '^const t_flop_vec\(_plain\)\?\(_par[0-9]*\)\?\(_[0-9]*\)\? = \[' "$out")" -eq "$n_flops" ] \
  || fail "expected $n_flops t_flop_vec* constants"
[ "$(grep -c '^const t_load_lat_[0-9]* = \[' "$out")" -eq "$n_sweep" ] || fail "t_load_lat_SIZE: not $n_sweep sets"
# First touch of fresh pages: write, and read then write, alone and on 2 .. min(N, 8) threads.
n_pf=$((2 * n_flop_threads))
[ "$(grep -c '^const t_page_fault\(_rw\)\?\(_par[0-9]*\)\? = \[' "$out")" -eq "$n_pf" ] || fail "expected $n_pf t_page_fault* constants"
grep -q '^fn t_page_fault_rw_shared(threads) = ' "$out" || fail "missing fn t_page_fault_rw_shared"
want=$((57 + 25 + 9 + n_flops + n_pf + 2 * blas + 3 + n_barrier + 1 + omp + 2 + 3 + 6 * n_sweep + n_mempar + n_sweep + 1))
[ "$n_const" -eq $want ] || fail "expected $want constants (55 arithmetic, 9 math, $n_flops + 0 or 2 flops, $n_sweep + 1 latency, 3 threads, $n_barrier barriers and t_barrier, t_omp_for_T and t_omp_for, 2 parallelism, 12 memory, 6 x $n_sweep sweep, $n_mempar under threads, 2 fitted, 12 messages, n_cpus, page_bytes, t_flop, t_point, $n_pf page faults), found $n_const"
n_progress=$(grep -c '^calibrate: \[' "$tmp/err")
[ "$n_progress" -ge 42 ] || fail "expected a progress line per benchmark, found $n_progress"
[ -z "$(ls "$tmp" | grep '\.tmp\.')" ] || fail "temporary file left behind"

# Default output path: ${XDG_CONFIG_HOME}/pamc/machine.mach, directory created.
XDG_CONFIG_HOME="$tmp/xdg" "$pamc" calibrate --quick --reps 2 2>/dev/null || fail "default path run failed"
[ -s "$tmp/xdg/pamc/machine.mach" ] || fail "no machine file at the default path"

# Exit statuses: --help 0; usage errors 2; an unwritable output 3, with nothing left behind.
"$pamc" calibrate --help | grep -q 'usage: pamc calibrate' || fail "--help"
set +e
"$pamc" calibrate --mpi-ranks 1 -o "$tmp/x.mach" 2>"$tmp/err"; [ $? -eq 2 ] || fail "--mpi-ranks 1 should be a usage error"
grep -q 'from 2 to' "$tmp/err" || fail "--mpi-ranks 1 should say the range"
"$pamc" calibrate --bogus 2>/dev/null; [ $? -eq 2 ] || fail "unknown option should exit 2"
"$pamc" calibrate --reps 0 2>/dev/null; [ $? -eq 2 ] || fail "--reps 0 should exit 2"
"$pamc" calibrate -o 2>/dev/null; [ $? -eq 2 ] || fail "-o without a value should exit 2"
"$pamc" calibrate --quick --reps 2 -o "$tmp/no/such/dir/m.mach" 2>/dev/null; [ $? -eq 3 ] || fail "unwritable output should exit 3"
set -e
[ ! -e "$tmp/x.mach" ] || fail "--mpi-ranks 1 wrote a file"
[ ! -e "$tmp/no" ] || fail "an unwritable output created something"

# `pamc check` accepts the machine file alone, imported by a model that uses its constants, its
# function and its resource, and given with -m to a model that declares the constants unvalued.
cat > "$tmp/use.pam" <<'PAM'
import "m.mach";
process main { use(cores, 1000 * t_add_double + 64 * t_copy_mem); delay(send(4096));
  delay(t_barrier_of(2) + t_barrier + 1048576 * t_read_shared(1048576, 3)) }
PAM
cat > "$tmp/declared.pam" <<'PAM'
const latency;
const byte_time;
fn msg(bytes) = latency + bytes * byte_time;
process main { delay(msg(8192)) }
PAM
check() {
  if "$pamc" check "$@" 2>"$tmp/check_err"; then
    :
  elif grep -q 'not built yet' "$tmp/check_err"; then
    echo "note: pamc check not built yet; $* not checked"
  else
    cat "$tmp/check_err" >&2
    fail "pamc check rejects $*"
  fi
}
check "$out"
check "$tmp/use.pam"
check -m "$out" "$tmp/declared.pam"

# send_measured(2560) lies halfway between the measured 1 KiB and 4 KiB times: its range is the
# mean of their two intervals (each end within rounding), computed here from the file by hand.
bounds() {
  sed -n "s/^const $1 = \[\([^,]*\), \([^]]*\)\].*/\1 \2/p" "$out" | awk '
    function secs(t,   u) { u = t; sub(/^[-0-9.e]+/, "", u); sub(/[a-z]+$/, "", t);
      return t * (u == "ns" ? 1e-9 : u == "us" ? 1e-6 : u == "ms" ? 1e-3 : 1) }
    { printf "%.12g %.12g\n", secs($1), secs($2) }'
}
# halfway CALL SCALE A B: SCALE * CALL (a call halfway between two measured points) predicts as the
# mean of the constants A and B, each end within rounding.
halfway() {
  read -r lo_a hi_a <<< "$(bounds "$3")"
  read -r lo_b hi_b <<< "$(bounds "$4")"
  printf 'import "m.mach";\nprocess main { delay(%s * %s) }\n' "$2" "$1" > "$tmp/half.pam"
  "$pamc" predict "$tmp/half.pam" --format csv > "$tmp/pred" || fail "predict with $1"
  tail -1 "$tmp/pred" | awk -F, -v lo=$(awk -v a="$lo_a" -v b="$lo_b" -v k="$2" 'BEGIN { print k * (a + b) / 2 }') \
      -v hi=$(awk -v a="$hi_a" -v b="$hi_b" -v k="$2" 'BEGIN { print k * (a + b) / 2 }') \
      '{ exit !($1 >= lo * (1 - 1e-4) && $1 <= lo * (1 + 1e-4) && $3 >= hi * (1 - 1e-4) && $3 <= hi * (1 + 1e-4)) }' \
    || fail "$2 * $1 = $(tail -1 "$tmp/pred"), expected the mean of $3 and $4"
}
halfway 'send_measured(2560)' 1 t_msg_1024 t_msg_4096
# t_read(10240) lies halfway between the 4 KiB and 16 KiB sets (scaled: per-byte times are tiny).
halfway 't_read(10240)' 1e9 t_read_4096 t_read_16384
echo "calibrate.sh: ok"
