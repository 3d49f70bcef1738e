#!/bin/sh
# calibrate_output_path.sh — `pamc calibrate -o PATH` checks that PATH can be written before it
# measures anything (issue 14, item 6): a missing directory or a directory as PATH fails at once
# with exit 3, the path and the reason, and no benchmark has run.
set -u
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
die() { echo "calibrate_output_path.sh: $*"; exit 1; }
for out in /nonexistent/dir/x.mach "$tmp"; do
  timeout 10 "$PAMC" calibrate --quick -o "$out" > /dev/null 2> "$tmp/err"
  rc=$?
  [ $rc -eq 3 ] || die "-o $out: exit $rc, want 3 at once: $(tail -3 "$tmp/err")"
  grep -q "calibrate: \[" "$tmp/err" && die "-o $out: benchmarks ran before the path was checked"
  grep -q "^pamc calibrate: $out: " "$tmp/err" || die "-o $out: message: $(cat "$tmp/err")"
done
ls "$tmp" | grep -qv "^err$" && die "a probe file was left behind: $(ls "$tmp")"
exit 0
