#!/usr/bin/env bash
# tests/e2e/calibrate_history.sh — `--history DIR` keeps every benchmark's samples across runs:
# two runs of K samples leave 2K per benchmark (below the cap), each run's samples marked with its
# serial (@1, @2), the second machine file says how many came from earlier runs, and no temporary
# file stays in DIR.
set -eu
pamc=${PAMC:-./build/pamc}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "calibrate_history.sh: $*" >&2; exit 1; }

for run in 1 2; do
  "$pamc" calibrate --quick --reps 3 --history "$tmp/hist" -o "$tmp/m$run.mach" 2>"$tmp/err$run" \
    || fail "run $run failed: $(tail -n 3 "$tmp/err$run")"
done
h="$tmp/hist/history.txt"
[ -f "$h" ] || fail "no history file"
tail -n 1 "$h" | grep -qx '# end' || fail "history does not end with '# end'"
for name in t_add_int t_copy_mem msg_1 msg_4194304; do
  count=$(awk -v n="$name" '$1 == n { print $2 }' "$h")
  [ "$count" = 6 ] || fail "$name: expected 6 samples in the history, found '${count}'"
  words=$(awk -v n="$name" '$1 == n { k = 0; for (i = 3; i <= NF; i++) if ($i !~ /^@/) k++; print k }' "$h")
  [ "$words" = 6 ] || fail "$name: the line holds $words samples"
  # Each run's samples are marked with its serial: @1 before the first three, @2 before the last.
  runs=$(awk -v n="$name" '$1 == n { s = ""; for (i = 3; i <= NF; i++) if ($i ~ /^@/) s = s $i " "; print s }' "$h")
  [ "$runs" = "@1 @2 " ] || fail "$name: run markers '$runs', expected '@1 @2 '"
done
grep -q '^const t_add_int = .*of 6 samples kept (3 rounds over [0-9]* s), 3 from earlier runs' "$tmp/m2.mach" || fail "second file does not count the history and the rounds"
grep -q '^# history: ' "$tmp/m2.mach" || fail "no history line in the header"
[ -z "$(ls "$tmp/hist" | grep '\.tmp\.')" ] || fail "temporary file left in the history directory"

# A damaged history is reported before any benchmark runs (exit 3, with its file and line), and
# neither it nor the output is touched.
mkdir -p "$tmp/bad"
printf '# pamc calibrate history, version 2\nt_add_int 3 @1 1e-9 2e-9\n# end\n' > "$tmp/bad/history.txt"
cp "$tmp/bad/history.txt" "$tmp/bad.copy"
set +e
"$pamc" calibrate --quick --reps 2 --history "$tmp/bad" -o "$tmp/bad.mach" 2>"$tmp/err"; status=$?
set -e
[ "$status" -eq 3 ] || fail "a damaged history should exit 3, got $status"
grep -q "history.txt:2: fewer samples than announced" "$tmp/err" || fail "message: $(cat "$tmp/err")"
! grep -q '^calibrate: \[' "$tmp/err" || fail "benchmarks ran before the history was checked"
cmp -s "$tmp/bad/history.txt" "$tmp/bad.copy" || fail "the damaged history was changed"
[ ! -e "$tmp/bad.mach" ] || fail "a machine file was written"
echo "calibrate_history.sh: ok"
