#!/usr/bin/env bash
# tests/e2e/calibrate_interrupt.sh — a calibration interrupted by SIGINT leaves neither the output
# file nor a temporary file behind, and an existing output file is left as it was.
set -eu
pamc=${PAMC:-./build/pamc}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "calibrate_interrupt.sh: $*" >&2; exit 1; }

# Job control on: otherwise a background job starts with SIGINT ignored. And SIGINT back to its
# default in the child: a suite started in the background of a shell without job control (as
# `./.ci/run &` does) inherits SIGINT ignored, which no shell can undo for its children.
set -m
for signal in INT TERM; do
  for delay in 0.2 0.6; do
    echo "old content" > "$tmp/m.mach"
    env --default-signal=INT,TERM "$pamc" calibrate -o "$tmp/m.mach" --history "$tmp/hist" 2>/dev/null &
    pid=$!
    sleep "$delay"
    kill -"$signal" "$pid"
    if wait "$pid"; then fail "a run interrupted by SIG$signal after $delay s reported success"; fi
    [ "$(cat "$tmp/m.mach")" = "old content" ] || fail "SIG$signal: the old file was changed"
    [ -z "$(ls "$tmp" | grep '\.tmp\.')" ] || fail "SIG$signal: files left behind: $(ls "$tmp")"
    [ ! -e "$tmp/hist/history.txt" ] || fail "SIG$signal: a history was written by an interrupted run"
  done
done
echo "calibrate_interrupt.sh: ok"
