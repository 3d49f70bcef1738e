#!/bin/sh
# reduce_speed.sh — the reduction stays linear in the model where `make bench-reduce` measures it,
# inside the suite (bench-reduce is not in `make test`). A model of 10^5 statements, each a use of
# its own member of a family (cpu[0], cpu[1], ...), reduces in 0.5 s (2 s in the sanitizer build);
# a printer that cleared tables the size of the whole context on every expression it printed
# (session 11, fixed in 4b8be49) took 17 s in the normal build. The limit (10 s) leaves room for
# the sanitizer build and a busy machine, and the quadratic code does not come near it. By hand:
# every member is used once by one statement of 1 us in sequence, then 1 us more: T = 100001 us.
set -u
die() { echo "reduce_speed.sh: $*"; exit 1; }
tmp=$(mktemp -d) || die "no temporary directory"
trap 'rm -rf "$tmp"' EXIT
awk 'BEGIN { n = 100000; print "const t = 1us;"; print "resource cpu[" n "];"; print "process main {";
             for (i = 0; i < n; i++) printf "  use(cpu[%d], t);\n", i; print "  delay(t)"; print "}" }' \
  > "$tmp/members.pam"
start=$(date +%s)
timeout 60 "$PAMC" reduce --subst "$tmp/members.pam" > "$tmp/out" 2>&1 || die "reduce failed: $(tail -3 "$tmp/out")"
took=$(( $(date +%s) - start ))
[ "$took" -le 10 ] || die "10^5 member uses took $took s to reduce (limit 10 s; 0.5 s expected)"
grep -q "T_lo = 0.100001" "$tmp/out" && grep -q "T_hi = 0.100001" "$tmp/out" \
  || die "T is not 100001 us: $(cat "$tmp/out")"
echo "reduce_speed.sh: ok ($took s)"
