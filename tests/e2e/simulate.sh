#!/usr/bin/env bash
# tests/e2e/simulate.sh — `pamc simulate`: the three formats, scenarios, -m/-D, runs and seeds,
# and the exit statuses of CLI.md (0 ok, 1 model error with file:line:col, 2 usage, 3 unreadable).
set -u
PAMC=${PAMC:-./pamc}
dir=tests/models/sim
tmp=$(mktemp -d)
export XDG_CONFIG_HOME="$tmp/config"   # no default machine file from the user
trap 'rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

# expect STATUS CMD...: runs CMD, output in $tmp/out and $tmp/err, checks its exit status
expect() {
  local want=$1; shift
  "$@" >"$tmp/out" 2>"$tmp/err"
  local got=$?
  [ "$got" -eq "$want" ] || { fail "exit $got, want $want: $*"; cat "$tmp/err"; }
}

# near VALUE WANT: |VALUE - WANT| <= 1e-12 * |WANT| (+ 1e-18), VALUE not empty
near() { awk -v v="$1" -v w="$2" 'BEGIN { d = v - w; if (d < 0) d = -d; t = w < 0 ? -w : w;
                                          exit !(v != "" && d <= 1e-12 * t + 1e-18) }'; }
# field N of line 2 of the csv output (the times line)
time_field() { sed -n 2p "$tmp/out" | cut -d, -f"$1"; }

# 1. EXAMPLES.md §1 with -D: 1737.68 us; table with units
D="-D t_point=1ns -D latency=2us -D byte_time=0.5ns"
expect 0 $PAMC simulate $dir/halo.pam $D
grep -q '1.738 ms' "$tmp/out" || fail "table lacks 1.738 ms"; 
grep -q '^bus ' "$tmp/out" || fail "table lacks the bus row"
grep -q '^cpu\[\] ' "$tmp/out" || fail "table lacks the cpu family row"

# csv: plain seconds, header names
expect 0 $PAMC simulate $dir/halo.pam $D --format csv
[ "$(head -1 "$tmp/out")" = "time_min,time_mean,time_max,runs" ] || fail "csv header: $(head -1 "$tmp/out")"
near "$(time_field 2)" 0.00173768 || fail "csv time: $(sed -n 2p "$tmp/out")"
grep -q '^resource,members,servers,utilisation,max_member_utilisation,waiting,requests$' "$tmp/out" || fail "csv resource header"
grep -q '^bus,1,1,' "$tmp/out" || fail "csv bus row"

# json: parses, right value
expect 0 $PAMC simulate $dir/halo.pam $D --format json
python3 - "$tmp/out" <<'PY' || fail "json"
import json, sys
d = json.load(open(sys.argv[1]))
assert abs(d["time_mean"] - 1737.68e-6) < 1e-12, d
bus = [r for r in d["resources"] if r["name"] == "bus"][0]
assert abs(bus["waiting"] - 280 * 6.096e-6) < 1e-12, bus
assert bus["requests"] == 80
PY

# 2. machine file with an interval: lo 1112.68 us, mid 1737.68 us, hi 2362.68 us
for pair in lo:0.00111268 mid:0.00173768 hi:0.00236268; do
  sc=${pair%%:*}; want=${pair#*:}
  expect 0 $PAMC simulate $dir/halo.pam -m $dir/halo.mach --scenario $sc --format csv
  near "$(time_field 2)" "$want" || fail "scenario $sc: $(sed -n 2p "$tmp/out"), want $want"
done
# -D overrides a param: P = 4 -> c = 250 us, 4 messages: 250 + 24.384 per iteration
expect 0 $PAMC simulate $dir/halo.pam -m $dir/halo.mach -D P=4 --format csv
near "$(time_field 2)" 0.00274384 || fail "-D P=4: $(sed -n 2p "$tmp/out")"

# 3. runs and seeds: random scenario within [3, 7] us; same seed same output
expect 0 $PAMC simulate $dir/intervals.pam --scenario random --runs 50 --seed 9 --format csv
awk -F, 'NR == 2 { ok = $1 >= 3e-6 && $3 <= 7e-6 && $1 < $3 && $4 == 50 } END { exit !ok }' "$tmp/out" || fail "random runs: $(sed -n 2p "$tmp/out")"
cp "$tmp/out" "$tmp/first"
expect 0 $PAMC simulate $dir/intervals.pam --scenario random --runs 50 --seed 9 --format csv
cmp -s "$tmp/out" "$tmp/first" || fail "same seed, different output"
expect 0 $PAMC simulate $dir/choose.pam --runs 20 --format json
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert 0 <= d["time_min"] < d["time_max"] <= 100e-6, d' "$tmp/out" || fail "choose runs"

# worked examples and program order, in seconds
for pair in example2:4e-6 example3:73e-6 program_order:18e-6; do
  model=${pair%%:*}; want=${pair#*:}
  expect 0 $PAMC simulate $dir/$model.pam --format csv
  near "$(time_field 2)" "$want" || fail "$model: $(sed -n 2p "$tmp/out"), want $want"
done

# 4. errors
expect 1 $PAMC simulate $dir/runtime_error.pam
grep -q 'runtime_error.pam:5:[0-9]*: error: .*out of range' "$tmp/err" || { fail "runtime error message"; cat "$tmp/err"; }
[ -s "$tmp/out" ] && fail "output on error"
expect 1 $PAMC simulate $dir/halo.pam                          # consts without values
grep -q 'halo.pam:[0-9]*:[0-9]*: error: ' "$tmp/err" || { fail "missing const message"; cat "$tmp/err"; }
expect 2 $PAMC simulate $dir/halo.pam $D --scenario middle
expect 2 $PAMC simulate $dir/halo.pam $D --runs 0
expect 2 $PAMC simulate $dir/halo.pam $D --format xml
expect 2 $PAMC simulate
expect 3 $PAMC simulate $dir/no_such_file.pam
expect 0 $PAMC simulate --help
grep -q 'scenario' "$tmp/out" || fail "--help text"

[ "$fails" -eq 0 ] && echo "simulate: all passed"
exit $((fails > 0))
