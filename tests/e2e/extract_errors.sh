#!/usr/bin/env bash
# extract_errors.sh — bad C for `pamc extract`: each tests/extract/bad/*.c says on its first line
# `// expect: FILE:LINE:COL: error: MESSAGE`, the first diagnostic it must give (clang's own for C
# that does not compile, pamc's located error for C it cannot model), with exit status 1 and no
# output file. Also the command line: --help, usage errors (2), unreadable files (3).
set -u
PAMC=${PAMC:-./pamc}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
count=0
for c in tests/extract/bad/*.c; do
  expect=$(sed -n '1s|^// expect: ||p' "$c")
  [ -n "$expect" ] || fail "$c has no '// expect:' line"
  got=$("$PAMC" extract "$c" -o "$tmp/out.pam" 2>&1 >/dev/null)
  status=$?
  [ $status -eq 1 ] || fail "$c: exit status $status, expected 1"
  first=$(printf '%s\n' "$got" | head -n 1)
  [ "$first" = "tests/extract/bad/$expect" ] || {
    echo "FAIL: $c"; echo "  expected: tests/extract/bad/$expect"; echo "  got:      $first"; exit 1; }
  [ -e "$tmp/out.pam" ] && fail "$c: an output file was written"
  ls "$tmp" | grep -q . && fail "$c: a temporary file was left behind"
  count=$((count + 1))
done
[ $count -ge 7 ] || fail "only $count bad C files"

"$PAMC" extract --help | grep -q '^usage: pamc extract' || fail "--help"
"$PAMC" extract 2>/dev/null; [ $? -eq 2 ] || fail "no file: expected exit 2"
"$PAMC" extract tests/extract/dot.c --bogus 2>/dev/null; [ $? -eq 2 ] || fail "unknown option: expected exit 2"
"$PAMC" extract tests/extract/dot.c --memory-level l7 2>/dev/null; [ $? -eq 2 ] || fail "bad --memory-level: expected exit 2"
"$PAMC" extract "$tmp/none.c" 2>/dev/null; [ $? -eq 3 ] || fail "missing file: expected exit 3"
"$PAMC" extract tests/extract/dot.c -o "$tmp/no/such/dir/x.pam" 2>/dev/null; [ $? -eq 3 ] || fail "unwritable output: expected exit 3"
msg=$("$PAMC" extract tests/extract/dot.c -f nosuch 2>&1 >/dev/null); [ $? -eq 1 ] || fail "-f nosuch: expected exit 1"
echo "$msg" | grep -q "no such function" || fail "-f nosuch: message '$msg'"
echo "$count bad C files give their error; usage errors ok"
