#!/usr/bin/env bash
# tests/run.sh BUILD — runs every unit test binary and end-to-end script of a build, then prints
# one closing line "N passed, N failed". Exit 1 when anything failed.
#
# Tests run TEST_JOBS at a time (default: the number of cores), each with its own log, and print
# "ok"/"FAIL" with their seconds as they end. Tests that time themselves or use the whole machine
# (calibration, MPI, speed limits, progress delays) run one at a time after the others, alone.
set -u
build=${1:-build}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
export PAMC="$root/$build/pamc"
export PAMC_ROOT="$root"
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
jobs=${TEST_JOBS:-$(nproc 2>/dev/null || echo 1)}
mkdir -p "$root/$build/tests"
passed=0; failed=0; failures=()

# name of the test, the command that runs it (from the root), its log
declare -a names=() cmds=() logs=() alone=()
add() {
  names+=("$1"); cmds+=("$2"); logs+=("$3")
  case "$1" in *cal*|*mpi*|*speed*|*progress*|*interrupt*) alone+=(1) ;; *) alone+=(0) ;; esac
}
for bin in "$root/$build"/tests/test_*; do
  [ -x "$bin" ] || continue
  name=$(basename "$bin")
  add "$name" "\"$bin\"" "$root/$build/tests/$name.log"
done
for script in "$here"/e2e/*.sh; do
  [ -f "$script" ] || continue
  name=$(basename "$script" .sh)
  add "e2e/$name" "bash \"$script\"" "$root/$build/tests/e2e_$name.log"
done

# Runs test i in the background; its pid goes into running[pid] = i.
declare -A running=()
start() {
  local i=$1
  ( cd "$root" && s=$SECONDS && eval "${cmds[$i]}" > "${logs[$i]}" 2>&1; rc=$?
    echo "$((SECONDS - s))" > "${logs[$i]}.secs"; exit $rc ) &
  running[$!]=$i
}
# Waits for one running test and reports it.
finish_one() {
  local pid rc i secs
  wait -n -p pid; rc=$?
  i=${running[$pid]}; unset "running[$pid]"
  secs=$(cat "${logs[$i]}.secs" 2>/dev/null || echo '?'); rm -f "${logs[$i]}.secs"
  if [ "$rc" -eq 0 ]; then
    passed=$((passed + 1)); echo "ok   ${names[$i]} (${secs} s)"
  else
    failed=$((failed + 1)); failures+=("${names[$i]}"); echo "FAIL ${names[$i]} (${secs} s)"
    tail -n 30 "${logs[$i]}"
  fi
}
run_group() {   # run_group ALONE WIDTH: the tests whose alone flag is ALONE, WIDTH at a time
  for i in "${!names[@]}"; do
    [ "${alone[$i]}" = "$1" ] || continue
    while [ "${#running[@]}" -ge "$2" ]; do finish_one; done
    start "$i"
  done
  while [ "${#running[@]}" -gt 0 ]; do finish_one; done
}
run_group 0 "$jobs"
run_group 1 1
echo "tests: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
