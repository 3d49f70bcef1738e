#!/bin/sh
# simulate_limits.sh — simulate estimates its events before it runs (every delay and use one
# event, loops multiplied): a model of 10^62 events is refused at once with the estimate, the
# limit is --max-events (default 1e9), and on a terminal the progress lines give an ETA. A run
# whose branches pass --max-memory (default: the memory available) stops at the par.
set -u
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
die() { echo "simulate_limits.sh: $*"; exit 1; }
H="models/halo.pam -m models/machine.mach"

# halo: iters * P uses of the bus and cpu each: 100 * 16 * 2 = 3200 events (the simulator counts the same)
"$PAMC" simulate $H | grep -q ' 3200 events in' || die "halo does not take 3200 events"
"$PAMC" simulate $H --max-events 3200 >/dev/null 2>&1 || die "--max-events 3200 refused 3200 events"
"$PAMC" simulate $H --max-events 3199 >/dev/null 2>"$tmp/err"
[ $? -eq 2 ] || die "--max-events 3199: want status 2"
grep -q "about 3.2e+03 events" "$tmp/err" || die "--max-events 3199: $(cat "$tmp/err")"
"$PAMC" simulate $H --runs 2 --max-events 6399 >/dev/null 2>"$tmp/err"
grep -q "about 6.4e+03 events (2 runs of about 3.2e+03)" "$tmp/err" || die "2 runs: $(cat "$tmp/err")"

# 10^62 events: refused at once (the default limit), the estimate in the message
start=$(date +%s)
"$PAMC" simulate $H -D iters=1e60 -D P=64 >/dev/null 2>"$tmp/err"
[ $? -eq 2 ] || die "10^62 events: want status 2"
[ $(( $(date +%s) - start )) -le 5 ] || die "10^62 events: the refusal took too long"
grep -q "about 1.28e+62 events" "$tmp/err" || die "10^62 events: $(cat "$tmp/err")"
grep -q "max-events 1e+09" "$tmp/err" || die "10^62 events: the limit is not named: $(cat "$tmp/err")"
"$PAMC" simulate $H --max-events 0 >/dev/null 2>&1; [ $? -eq 2 ] || die "--max-events 0: want status 2"

# memory: a par of 10^6 branches alive at once (~1 kB each) stops at --max-memory 100M with a
# located error at the par (status 1, nothing on stdout); 2 x 10^4 branches fit in 4G
printf 'param N = 1000000;\nprocess main {\n  par (i = 0, N - 1) delay(1us)\n}\n' > "$tmp/wide.pam"
"$PAMC" simulate "$tmp/wide.pam" --max-memory 100M > "$tmp/out" 2>"$tmp/err"
[ $? -eq 1 ] || die "10^6 branches in 100M: want status 1: $(cat "$tmp/err")"
[ -s "$tmp/out" ] && die "10^6 branches in 100M: wrote to stdout"
grep -q "wide.pam:3:3: error: the branches started here take more memory .* branches alive at once, past the limit of 100.0 MB" "$tmp/err" \
  || die "10^6 branches in 100M: $(cat "$tmp/err")"
"$PAMC" simulate "$tmp/wide.pam" -D N=20000 --max-memory 4G --format csv | sed -n 2p | grep -q '^1e-06,' \
  || die "2 x 10^4 branches in 4G did not run"
for bad in 0 -5M 2x 1T ''; do
  "$PAMC" simulate "$tmp/wide.pam" --max-memory "$bad" >/dev/null 2>&1; [ $? -eq 2 ] || die "--max-memory '$bad': want status 2"
done

# on a terminal, a long run's progress line (after 2 s) gives the part done and an ETA
if command -v script >/dev/null 2>&1 && command -v timeout >/dev/null 2>&1; then
  timeout 5 script -qec "$PAMC simulate $H -D iters=1e7 --max-events 1e12" /dev/null > "$tmp/tty" 2>&1
  grep -q "events, simulated time .*, about [0-9]*% done, ETA " "$tmp/tty" || die "no ETA on a terminal: $(cat "$tmp/tty")"
  # -q: no progress lines (a script reading 2>&1 gets only its csv)
  timeout 4 script -qec "$PAMC simulate $H -q -D iters=1e7 --max-events 1e12" /dev/null > "$tmp/tty" 2>&1
  grep -q "pamc simulate: run" "$tmp/tty" && die "-q still prints progress lines: $(cat "$tmp/tty")"
fi
exit 0
