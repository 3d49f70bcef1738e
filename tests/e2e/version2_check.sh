#!/usr/bin/env bash
# tests/e2e/version2_check.sh — the checks of language version 2 (LANGUAGE.md §8): each bad use
# of ps, hold, handoff and typ is an error at its line:col with its message; the §8 examples check.
. "$(dirname "$0")/lib/expect_errors.sh"

# ps capacity not positive (0, negative, an interval entirely <= 0)
expect $'resource r = ps(0);\nprocess main = use(r, 1);\n' \
       "m.pam:1:17: error: capacity of 'r' is not positive (0)"
expect $'const c = [-2, 0];\nresource r = ps(c);\nprocess main = use(r, 1);\n' \
       "m.pam:2:17: error: capacity of 'r' is not positive ([-2, 0])"
# hold on a ps resource
expect $'resource cores = ps(2);\nprocess main = hold (cores) delay(1);\n' \
       "m.pam:2:22: error: cannot hold 'cores': it is a ps resource (processor sharing serves everyone at once); hold needs an fcfs resource"
# handoff on a ps resource; negative handoff
expect $'resource r = ps(2) handoff(1us);\nprocess main = use(r, 1);\n' \
       "m.pam:1:28: error: handoff on 'r', a ps resource: only an fcfs resource is handed from one holder to the next"
expect $'resource r = fcfs(1) handoff(-1us);\nprocess main = use(r, 1);\n' \
       "m.pam:1:30: error: handoff of 'r' is negative (-1e-06 s)"
# typ outside its interval
expect $'const t = [1ns, 2ns] typ 3ns;\nprocess main = delay(t);\n' \
       "m.pam:1:26: error: typical value 3e-09 is outside its interval [1e-09, 2e-09]"
# contextual words misspelt
expect $'resource r = pss(2);\nprocess main = use(r, 1);\n' \
       "m.pam:1:14: error: expected 'fcfs' or 'ps' before 'pss'"
expect $'resource r = fcfs(1) handof(2us);\nprocess main = use(r, 1);\n' \
       "m.pam:1:22: error: expected 'handoff', '=' or ';' before 'handof'"
expect $'const t = [1, 2] type 1.5;\nprocess main = delay(t);\n' \
       "m.pam:1:18: error: expected 'typ' or an operator before 'type'"
# hold on something that is not a resource; a family held without its member
expect $'const c = 1;\nprocess main = hold (c) delay(1);\n' \
       "m.pam:2:22: error: 'c' is a const, not a resource"
expect $'param P = 2;\nresource row[P];\nprocess main = hold (row) delay(1);\n' \
       "m.pam:3:22: error: 'row' is a family of resources: use one member, row[i]"
expect $'param P = 2;\nresource row[P];\nprocess main = hold (row[P]) delay(1);\n' \
       "m.pam:3:26: error: index 2 of 'row' is out of range 0 .. 1"

# a visible cycle in the order of nested holds, through a process call; a hold inside its own hold
expect $'resource a;\nresource b;\nprocess x = hold (a) { delay(1); hold (b) delay(1) };\nprocess y = hold (b) z;\nprocess z = hold (a) delay(1);\nprocess main = x || y;\n' \
       "m.pam:4:22: error: hold order cycle: 'a' is taken here while 'b' is held, and elsewhere the other way round: holders of both can wait for each other for ever (deadlock)"
expect $'resource a;\nprocess main = hold (a) hold (a) delay(1);\n' \
       "m.pam:2:25: error: hold of 'a' inside a hold of 'a': its one server is held, so this waits for ever"
expect $'resource a;\nresource b;\nresource c;\nprocess main = hold (a) hold (b) skip || hold (b) hold (c) skip || hold (c) hold (a) skip;\n' \
       "m.pam:4:77: error: hold order cycle: 'a' is taken here while 'c' is held, closing a cycle of 3 resources (notes below): their holders can wait for each other for ever (deadlock)"
# no cycle: one order everywhere; two servers; family members (their order depends on indices)
ok() {
  printf '%s' "$1" > "$work/ok.pam"
  "$PAMC" check "$work/ok.pam" > "$work/ok.out" 2>&1 || { echo "FAIL: does not check: $1"; cat "$work/ok.out"; status=1; }
}
ok $'resource a;\nresource b;\nprocess main = hold (a) hold (b) skip || hold (a) { hold (b) skip; delay(1) } || hold (b) skip;\n'
ok $'resource a = fcfs(2);\nprocess main = hold (a) hold (a) delay(1);\n'
ok $'param P = 4;\nresource f[P];\nprocess main = par (i = 0, P - 1) hold (f[i]) hold (f[(i + 1) % P]) delay(1);\n'
# a chain of process calls 1000 deep, with the hold at its end under a hold at its start
{ echo 'resource a;'; echo 'resource b;'; echo 'process main = hold (a) p0 || hold (b) hold (a) skip;'
  for i in $(seq 0 998); do echo "process p$i = p$((i + 1));"; done; echo 'process p999 = hold (b) skip;'; } > "$work/chain.pam"
out=$("$PAMC" check "$work/chain.pam" 2>&1)
case "$out" in *"3:40: error: hold order cycle: 'a' is taken here while 'b' is held"*"3:25: note: 'b' is taken here while 'a' is held"*) ;;
  *) echo "FAIL: the cycle through 1000 calls is not found: $out"; status=1 ;; esac

"$PAMC" check tests/models/ok/version2.pam > "$work/ok.out" 2>&1 \
  || { echo "FAIL: the version 2 examples do not check"; cat "$work/ok.out"; status=1; }
exit $status
