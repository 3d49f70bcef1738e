#!/usr/bin/env bash
# tests/e2e/version2_sim.sh — language version 2 (LANGUAGE.md §8) through the command line:
# `simulate --scenario typ`, est at typical values (midpoints where none), ps capacities in the
# report, deadlocks reported with the statements that wait (file:line:col, exit 1).
set -u
PAMC=${PAMC:-./pamc}
tmp=$(mktemp -d)
export XDG_CONFIG_HOME="$tmp/config"
trap 'rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
# near VALUE WANT: |VALUE - WANT| <= 1e-12 * |WANT|, VALUE not empty
near() { awk -v v="$1" -v w="$2" 'BEGIN { d = v - w; if (d < 0) d = -d; exit !(v != "" && d <= 1e-12 * w) }'; }

# est is T_lo at the typical value: delay(2 * lat) with lat = [108ns, 854ns] typ 360ns: 720 ns
# (the midpoint 481 ns would give 962 ns); lo and hi stay 216 ns and 1.708 us.
printf 'const lat = [108ns, 854ns] typ 360ns;\nconst two = 2 * lat;\nprocess main = delay(two);\n' > "$tmp/typ.pam"
line=$($PAMC predict --format csv "$tmp/typ.pam" | sed -n 2p)
[ "$line" = "2.16e-07,7.2e-07,1.708e-06,critical path," ] \
  || fail "predict with typ: $line"
# simulate --scenario typ takes it too; mid takes the midpoint
t=$($PAMC simulate --scenario typ --format csv "$tmp/typ.pam" | sed -n 2p | cut -d, -f1)
near "$t" 720e-9 || fail "simulate --scenario typ: $t"
t=$($PAMC simulate --scenario mid --format csv "$tmp/typ.pam" | sed -n 2p | cut -d, -f1)
near "$t" 962e-9 || fail "simulate --scenario mid: $t"
# without typ, est is the midpoint as before: 962 ns
printf 'const lat = [108ns, 854ns];\nconst two = 2 * lat;\nprocess main = delay(two);\n' > "$tmp/mid.pam"
line=$($PAMC predict --format csv "$tmp/mid.pam" | sed -n 2p | cut -d, -f2)
[ "$line" = "9.62e-07" ] || fail "predict without typ: est $line"
$PAMC simulate --help | grep -q 'typ' || fail "simulate --help does not name typ"

# ps in the report: the capacity in the servers column (table, csv, json)
printf 'resource cores = ps(1.6);\nprocess main = par (i = 0, 2) use(cores, 1);\n' > "$tmp/ps.pam"
$PAMC simulate "$tmp/ps.pam" > "$tmp/out" || fail "simulate ps"
grep -Eq '^cores +1 +1.6 +100.0%' "$tmp/out" || { fail "ps table"; cat "$tmp/out"; }
grep -q '^1.875 s' "$tmp/out" || fail "ps time (1.875 s)"
$PAMC simulate --format csv "$tmp/ps.pam" | grep -q '^cores,1,1.6000000000000001,' || fail "ps csv"
$PAMC simulate --format json "$tmp/ps.pam" | grep -q '"discipline": "ps", "servers": 1.6000000000000001' || fail "ps json"

# a deadlock the checker cannot see (family members, LANGUAGE.md §9.1): exit 1, the error at the
# first statement that waits, a note per waiting statement naming the members
printf 'param P = 2;\nresource fork[P];\nprocess main {\n  par (i = 0, P - 1)\n    hold (fork[i]) { delay(1); hold (fork[(i + 1) %% P]) delay(1) }\n}\n' > "$tmp/dead.pam"
$PAMC simulate "$tmp/dead.pam" > "$tmp/out" 2> "$tmp/err"
[ $? -eq 1 ] || fail "deadlock: exit status"
[ -s "$tmp/out" ] && fail "deadlock: output on stdout"
grep -q "dead.pam:5:32: error: deadlock: 2 requests wait for 'fork'" "$tmp/err" || { fail "deadlock message"; cat "$tmp/err"; }
grep -q "dead.pam:5:32: note: hold of 'fork\[0\]' waits while holding 'fork\[1\]'" "$tmp/err" || fail "deadlock note 1"
grep -q "dead.pam:5:32: note: hold of 'fork\[1\]' waits while holding 'fork\[0\]'" "$tmp/err" || fail "deadlock note 2"
# twelve philosophers: twelve waiting, the first eight as notes
$PAMC simulate -D P=12 "$tmp/dead.pam" 2> "$tmp/err" >/dev/null
grep -q "deadlock: 12 requests wait for 'fork', .*; the first ones below" "$tmp/err" || fail "deadlock of 12"
[ "$(grep -c 'note:' "$tmp/err")" -eq 8 ] || fail "deadlock of 12: 8 notes"

[ "$fails" -eq 0 ] && echo "version2_sim: all passed"
exit $((fails > 0))
