#!/bin/sh
# version2_bounds.sh — the reduction's bounds for ps, hold and handoff (LANGUAGE.md §8) against the
# simulator: lo <= simulated <= hi on threads over ps(C) and fcfs(C), a mutex loop with a hand-off,
# nested holds and a hold across a fork, at T = 1 .. 16; and T equal requests on ps(C) exact.
# Skipped (with a note) while the simulator does not run hold statements.
set -u
D=tests/models/version2
die() { echo "version2_bounds.sh: $*" >&2; exit 1; }
if "$PAMC" simulate $D/mutex.pam 2>&1 | grep -q "does not run"; then
  echo "version2_bounds.sh: skipped: the simulator does not run ps/hold/handoff yet"
  exit 0
fi

# lo hi sim for MODEL at -D T=V (extra -D after)
check() {
  model=$1; v=$2; shift 2
  csv=$("$PAMC" predict $D/$model.pam -D T=$v "$@" --format csv 2>/dev/null) || die "$model T=$v: predict failed"
  lo=$(echo "$csv" | awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next } { print $col["lo"] }')
  hi=$(echo "$csv" | awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next } { print $col["hi"] }')
  sim=$("$PAMC" simulate $D/$model.pam -D T=$v "$@" --format csv | sed -n 2p | cut -d, -f1) || die "$model T=$v: simulate failed"
  awk -v lo="$lo" -v s="$sim" -v hi="$hi" 'BEGIN { exit !(lo <= s * (1 + 1e-9) && s <= hi * (1 + 1e-9)) }' \
    || die "$model T=$v $*: simulated $sim outside [$lo, $hi]"
  echo "$lo $sim $hi"
}

for model in threads_ps threads_fcfs mutex nested fork; do
  for v in 1 2 3 4 5 8 16; do check $model $v >/dev/null; done
done
for c in 1 3; do for v in 1 2 7; do check threads_ps $v -D C=$c >/dev/null; check mutex $v -D K=3 >/dev/null; done; done
# T equal requests on ps(C): lo = sim = hi = t max(1, T / C)
for tc in "1 2" "3 2" "8 2" "5 4" "16 3"; do
  set -- $tc
  out=$(check ps_equal $1 -D C=$2)
  echo "$out" | awk -v t=$1 -v c=$2 '{ w = 1e-3 * (t / c > 1 ? t / c : 1); for (i = 1; i <= 3; i++) { d = $i - w; if (d < 0) d = -d; if (d > 1e-9 * w) exit 1 } }' \
    || die "ps_equal T=$1 C=$2: want lo = sim = hi = t max(1, T/C), got $out"
done
exit 0
