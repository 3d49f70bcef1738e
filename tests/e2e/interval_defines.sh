#!/bin/sh
# interval_defines.sh — a param set to an interval with -D where a whole number is required (family
# size, loop bound, repeat count, family index) is refused by every command at that place, naming
# the -D and the param (issue 14, item 2: predict and reduce gave est above hi, simulate refused
# it in its own words). Where only a duration depends on it, the interval stays welcome.
set -u
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
die() { echo "interval_defines.sh: $*"; exit 1; }
printf 'param P = 4;\nresource r[P];\nprocess main = par (i = 0, P - 1) use(r[i], 1us);\n' > "$tmp/family.pam"
printf 'param P = 4;\nresource r;\nprocess main = seq (i = 1, P) use(r, 1us);\n' > "$tmp/loop.pam"
printf 'param P = 4;\nresource r;\nprocess main = repeat (P) use(r, 1us);\n' > "$tmp/repeat.pam"
printf 'param P = 4;\nresource r[4];\nprocess main = use(r[P - 1], 1us);\n' > "$tmp/index.pam"
for k in family:2:12:'the size of a resource family' loop:3:28:'a loop bound' repeat:3:24:'a repeat count' \
         index:3:22:'a family index'; do
  f=${k%%:*}; rest=${k#*:}; loc=${rest%:*}; what=${rest##*:}
  for c in check reduce predict simulate; do
    "$PAMC" $c -D 'P=[1,4]' "$tmp/$f.pam" > /dev/null 2> "$tmp/err"
    rc=$?
    [ $rc -eq 1 ] || die "$f, $c: exit $rc, want 1"
    grep -q "^$tmp/$f.pam:$loc: error: $what must be a whole number, and -D P=\[1,4\] makes it an interval: give 'P' one value (or sweep it: -D P=1..4)" "$tmp/err" \
      || die "$f, $c: $(cat "$tmp/err")"
  done
done
# a duration may be an interval: lo 1 us, hi 4 us
printf 'param P = 4;\nprocess main = delay(P * 1us);\n' > "$tmp/duration.pam"
row=$("$PAMC" predict -D 'P=[1,4]' "$tmp/duration.pam" --format csv | tail -1) || die "duration: predict failed"
# csv: the interval as two columns P_lo,P_hi, then lo, est, hi
echo "$row" | awk -F, '{ exit !($1 == 1 && $2 == 4 && $3 == 1e-06 && $5 >= 4e-06 && $5 < 4.0001e-06) }' || die "duration: $row"
exit 0
