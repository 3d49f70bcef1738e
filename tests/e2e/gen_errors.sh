#!/bin/sh
# gen_errors.sh — bad specifications for `pamc gen`: each file of tests/models/gen/*.spec says on
# its first line `// expect: LINE:COL: error: MESSAGE`, the first diagnostic it must give (exit
# status 1), and on an optional `// lib: FILE` line the cost library to use (default: the primes
# library of models/gen).
set -u
count=0
for spec in tests/models/gen/*.spec; do
  expect=$(sed -n '1s|^// expect: ||p' "$spec")
  [ -n "$expect" ] || { echo "FAIL: $spec has no '// expect:' line"; exit 1; }
  lib=$(sed -n 's|^// lib: ||p' "$spec")
  lib=${lib:-models/gen/primes_costs.pam}
  got=$("$PAMC" gen "$spec" -l "$lib" 2>&1 >/dev/null)
  status=$?
  [ $status -eq 1 ] || { echo "FAIL: $spec: exit status $status, expected 1"; exit 1; }
  first=$(printf '%s\n' "$got" | head -n 1)
  [ "$first" = "$spec:$expect" ] || {
    echo "FAIL: $spec"; echo "  expected: $spec:$expect"; echo "  got:      $first"; exit 1; }
  count=$((count + 1))
done
[ $count -ge 10 ] || { echo "FAIL: only $count bad specifications"; exit 1; }
echo "$count bad specifications give their error"
exit 0
