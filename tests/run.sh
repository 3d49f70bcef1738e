#!/usr/bin/env bash
# tests/run.sh BUILD — runs every unit test binary and end-to-end script of a build, then prints
# one closing line "N passed, N failed". Exit 1 when anything failed.
set -u
build=${1:-build}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
export PAMC="$root/$build/pamc"
export PAMC_ROOT="$root"
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
passed=0; failed=0; failures=()
for bin in "$root/$build"/tests/test_*; do
  [ -x "$bin" ] || continue
  name=$(basename "$bin")
  if (cd "$root" && "$bin") > "$root/$build/tests/$name.log" 2>&1; then
    passed=$((passed + 1)); echo "ok   $name"
  else
    failed=$((failed + 1)); failures+=("$name"); echo "FAIL $name"; tail -n 30 "$root/$build/tests/$name.log"
  fi
done
mkdir -p "$root/$build/tests"
for script in "$here"/e2e/*.sh; do
  [ -f "$script" ] || continue
  name=$(basename "$script" .sh)
  if (cd "$root" && bash "$script") > "$root/$build/tests/e2e_$name.log" 2>&1; then
    passed=$((passed + 1)); echo "ok   e2e/$name"
  else
    failed=$((failed + 1)); failures+=("e2e/$name"); echo "FAIL e2e/$name"; tail -n 30 "$root/$build/tests/e2e_$name.log"
  fi
done
echo "tests: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
