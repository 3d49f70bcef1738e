#!/bin/sh
# one_rule.sh — one rule per case, the same in every command (issue 14, item 9): a time beyond the
# largest double is an error (simulate printed inf and -nan), a whole number a double cannot hold
# is an error where it is written (-D P=9007199254740993 was rounded to 2^53), an interval where a
# whole number is required is an error (predict ran repeat([1, 4]) 2.5 times), and lo/hi/mid/width
# take numbers and consts only (hi(a * 2) was refused by predict, hi(a * P) taken by simulate).
set -u
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
die() { echo "one_rule.sh: $*"; exit 1; }
# expect FILE "ARGS" WORDS: exit 1 and WORDS on stderr from predict, simulate (and reduce, check)
expect() {
  for c in check reduce predict simulate; do
    # shellcheck disable=SC2086
    "$PAMC" $c $2 "$tmp/$1" > /dev/null 2> "$tmp/err"; rc=$?
    [ "$c" = check ] && [ "${4:-}" = run ] && continue
    [ "$c" = reduce ] && [ "${4:-}" = run ] && continue
    [ $rc -eq 1 ] || die "$1 $c $2: exit $rc, want 1: $(cat "$tmp/err")"
    grep -q "$3" "$tmp/err" || die "$1 $c $2: $(cat "$tmp/err")"
  done
}
printf 'process main { delay(1e308); delay(1e308) }\n' > "$tmp/big.pam"
expect big.pam "" "not finite" run
printf 'param P = 4;\nprocess main = delay(P * 1ns);\n' > "$tmp/p.pam"
expect p.pam "-D P=9007199254740993" "whole number '9007199254740993' is not exact as a double"
"$PAMC" predict "$tmp/p.pam" -D P=1,9007199254740993 > /dev/null 2>&1 && die "a sweep value rounded silently"
"$PAMC" predict "$tmp/p.pam" -D P=9007199254740992 > /dev/null || die "2^53 itself is exact"
printf 'resource r;\nprocess main = repeat([1, 4]) use(r, 1us);\n' > "$tmp/rep.pam"
expect rep.pam "" "2:23: error: a repeat count must be a whole number, and it is an interval (\[1, 4\])"
printf 'param P = 4;\nconst a = [1us, 2us];\nprocess main = delay(hi(a * P));\n' > "$tmp/hiP.pam"
expect hiP.pam "" "3:25: error: hi() takes an expression of numbers and consts"
# hi of consts: the same 4 us from predict and simulate (hi([1us, 2us] * 2), by hand)
printf 'const a = [1us, 2us];\nprocess main = delay(hi(a * 2));\n' > "$tmp/hi.pam"
lo=$("$PAMC" predict "$tmp/hi.pam" --format csv | sed -n 2p | cut -d, -f1) || die "hi(a * 2): predict failed"
sim=$("$PAMC" simulate "$tmp/hi.pam" --format csv | sed -n 2p | cut -d, -f1) || die "hi(a * 2): simulate failed"
awk -v a="$lo" -v b="$sim" 'BEGIN { exit !((a - 4e-6) ^ 2 < 1e-30 && (b - 4e-6) ^ 2 < 1e-30) }' || die "hi(a * 2): predict $lo, simulate $sim"
exit 0
