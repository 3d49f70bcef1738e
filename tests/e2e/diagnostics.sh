#!/bin/sh
# diagnostics.sh — messages as GCC and Clang give them: file:line:col, the source line and a caret
# under the place; colour with --color=always or on a terminal (never with --color=never, NO_COLOR
# or TERM=dumb); suggestions for misspelt keywords (dealy, pra, repet), units (usec; µs accepted),
# -D names (the model's params listed), a sweep given to simulate, a zero-argument fn used as a value.
set -u
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
die() { echo "diagnostics.sh: $*"; exit 1; }
esc=$(printf '\033')

# model BODY: a model whose main holds BODY, in $tmp/m.pam
model() {
  printf 'param N = 10;\nfn f() = 1us;\nresource cpu;\nprocess main {\n  %s\n}\n' "$1" > "$tmp/m.pam"
}
# expect BODY MESSAGE CARET: pamc check fails (1) with MESSAGE, then the line, then CARET
expect() {
  model "$1"
  "$PAMC" check --color=never "$tmp/m.pam" >/dev/null 2>"$tmp/err"
  [ $? -eq 1 ] || die "$1: want status 1"
  [ "$(sed -n 1p "$tmp/err")" = "$tmp/m.pam:$2" ] || die "$1: message: $(cat "$tmp/err")"
  [ "$(sed -n 2p "$tmp/err")" = "    5 |   $1" ] || die "$1: source line: $(cat "$tmp/err")"
  [ "$(sed -n 3p "$tmp/err")" = "      | $3" ] || die "$1: caret: $(cat "$tmp/err")"
}
expect 'dealy(2us)' "5:3: error: unknown process 'dealy'; did you mean 'delay'?" "  ^~~~~"
expect 'pra (i = 1, N) delay(1us)' "5:10: error: expected ')' or ',' before '='; did you mean 'par' for 'pra'?" "         ^"
expect 'repet (N) delay(1us)' "5:13: error: expected ';' or '}' before 'delay'; did you mean 'repeat' for 'repet'?" "            ^~~~~"
expect 'delay(2usec)' "5:10: error: unknown unit 'usec'; did you mean 'us'?" "         ^~~~"
expect 'delay(f)' "5:9: error: 'f' is a fn of no arguments, not a value: call it, f()" "        ^"
expect 'delay(celi(2us))' "5:9: error: unknown function 'celi'; did you mean 'ceil'?" "        ^~~~"
# a name far from every keyword gets no keyword (work is not or)
model 'work'
"$PAMC" check "$tmp/m.pam" 2>&1 | grep -q "did you mean" && die "work: a suggestion: $("$PAMC" check "$tmp/m.pam" 2>&1)"

# µs (micro sign) and μs (Greek mu) are us: the same bounds
for spelling in 'µs' 'μs' 'us'; do
  model "delay(3$spelling)"
  "$PAMC" reduce "$tmp/m.pam" > "$tmp/r_$spelling" 2>&1 || die "3$spelling: $(cat "$tmp/r_$spelling")"
done
cmp -s "$tmp/r_µs" "$tmp/r_us" && cmp -s "$tmp/r_μs" "$tmp/r_us" || die "µs differs from us: $(cat "$tmp/r_µs")"

# colour: always colours (bold, red error, green caret); never, NO_COLOR and a pipe do not
model 'dealy(2us)'
"$PAMC" check --color=always "$tmp/m.pam" 2>"$tmp/err"
grep -q "${esc}\[1;31merror" "$tmp/err" || die "--color=always: no red error: $(cat -v "$tmp/err")"
grep -q "${esc}\[1;32m^" "$tmp/err" || die "--color=always: no green caret: $(cat -v "$tmp/err")"
"$PAMC" check "$tmp/m.pam" 2>"$tmp/err"
grep -q "$esc" "$tmp/err" && die "auto into a pipe: coloured"
if command -v script >/dev/null 2>&1; then   # on a terminal: colour, but for NO_COLOR and TERM=dumb
  TERM=xterm script -qec "$PAMC check $tmp/m.pam" /dev/null > "$tmp/tty" 2>&1
  grep -q "$esc" "$tmp/tty" || die "on a terminal: not coloured: $(cat -v "$tmp/tty")"
  NO_COLOR=1 TERM=xterm script -qec "$PAMC check $tmp/m.pam" /dev/null > "$tmp/tty" 2>&1
  grep -q "${esc}\[1" "$tmp/tty" && die "NO_COLOR on a terminal: coloured: $(cat -v "$tmp/tty")"
  TERM=dumb script -qec "$PAMC check $tmp/m.pam" /dev/null > "$tmp/tty" 2>&1
  grep -q "${esc}\[1" "$tmp/tty" && die "TERM=dumb: coloured: $(cat -v "$tmp/tty")"
fi
"$PAMC" check --color=sometimes "$tmp/m.pam" 2>/dev/null
[ $? -eq 2 ] || die "--color=sometimes: want status 2"

# -D: an unknown name lists the model's params; a near one is suggested
err=$("$PAMC" predict models/halo.pam -m models/machine.mach -D Q=1..4 2>&1 >/dev/null)
[ "$err" = "pamc: error: -D Q=1..4: no param or const 'Q' (the model's params: N, P, iters)" ] || die "-D Q: $err"
err=$("$PAMC" simulate models/halo.pam -m models/machine.mach -D itres=3 2>&1 >/dev/null)
[ "$err" = "pamc: error: -D itres=3: no param or const 'itres'; did you mean 'iters'?" ] || die "-D itres: $err"
# simulate takes no sweep
err=$("$PAMC" simulate models/halo.pam -m models/machine.mach -D P=1..4 2>&1 >/dev/null)
[ $? -eq 0 ] || true
echo "$err" | grep -q "sweeps are for predict" || die "simulate with a sweep: $err"
"$PAMC" simulate models/halo.pam -m models/machine.mach -D P=1,2 >/dev/null 2>&1
[ $? -eq 2 ] || die "simulate with a sweep: want status 2"
exit 0
