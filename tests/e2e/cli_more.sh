#!/bin/sh
# cli_more.sh — pamc help CMD and -V; -o FILE for reduce, predict and simulate (the same bytes as
# stdout, nothing left on failure); predict --speedup against the est column; -D @FILE; a -D
# value that is an expression of a swept name; the note of a machine file overriding a model's
# const, and --quiet.
set -u
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
die() { echo "cli_more.sh: $*"; exit 1; }
H="models/halo.pam -m models/machine.mach"

[ "$("$PAMC" help predict)" = "$("$PAMC" predict --help)" ] || die "help predict differs from predict --help"
"$PAMC" help nope >/dev/null 2>&1; [ $? -eq 2 ] || die "help nope: want status 2"
[ "$("$PAMC" -V)" = "$("$PAMC" --version)" ] || die "-V differs from --version"

# -o: the same bytes as stdout
"$PAMC" predict $H -D P=1..8 --format csv > "$tmp/stdout.csv" || die "predict failed"
"$PAMC" predict $H -D P=1..8 --format csv -o "$tmp/o.csv" > "$tmp/empty" || die "predict -o failed"
cmp -s "$tmp/stdout.csv" "$tmp/o.csv" || die "predict -o differs from stdout"
[ -s "$tmp/empty" ] && die "predict -o also wrote stdout"
"$PAMC" reduce models/halo.pam > "$tmp/r1" && "$PAMC" reduce models/halo.pam -o "$tmp/r2" || die "reduce -o failed"
cmp -s "$tmp/r1" "$tmp/r2" || die "reduce -o differs from stdout"
"$PAMC" simulate $H -D P=4 -D iters=2 --format json > "$tmp/s1" && \
  "$PAMC" simulate $H -D P=4 -D iters=2 --format json -o "$tmp/s2" || die "simulate -o failed"
cmp -s "$tmp/s1" "$tmp/s2" || die "simulate -o differs from stdout"
# -o on failure: status of the failure, no file, no temporary file
"$PAMC" predict tests/models/predict/negative.pam -D N=1..10 -o "$tmp/neg.csv" >/dev/null 2>&1
[ $? -eq 1 ] || die "predict -o after a model error: want status 1"
"$PAMC" reduce "$tmp/missing.pam" -o "$tmp/missing.txt" >/dev/null 2>&1
[ $? -eq 3 ] || die "reduce -o of a missing file: want status 3"
[ -z "$(ls "$tmp" | grep -E 'neg|missing')" ] || die "-o left files after a failure: $(ls "$tmp")"
"$PAMC" predict $H -D P=1..4 -o "$tmp/no/such/dir.csv" >/dev/null 2>&1
[ $? -eq 3 ] || die "predict -o into a missing directory: want status 3"

# --speedup: speedup = est(first) / est, efficiency = speedup * P(first) / P
"$PAMC" predict $H -D P=1..64:*4 --speedup --format csv > "$tmp/sp.csv" || die "--speedup failed"
[ "$(head -1 "$tmp/sp.csv")" = "P,lo,est,hi,speedup,efficiency,bottleneck,approx" ] || die "--speedup header: $(head -1 "$tmp/sp.csv")"
awk -F, 'NR == 2 { e1 = $3; p1 = $1 }
         NR > 1 { s = e1 / $3; f = s * p1 / $1
                  if ((s - $5) ^ 2 > 1e-20 * s * s || (f - $6) ^ 2 > 1e-20 * f * f) { print "row " NR ": " $0; bad = 1 } }
         END { exit bad }' "$tmp/sp.csv" || die "--speedup columns do not follow est"
# hand value: est(P=1) = 100.6096 ms; est(P=4) = 25.6096 ms of compute and message plus, per
# iteration, the 3 messages (6.096 us each) the last of the 4 workers queues behind at the bus
# (they reach it together; issue 15's order-aware lower bound): 27.4384 ms (machine.mach midpoints)
sed -n 3p "$tmp/sp.csv" | grep -q '^4,.*,3.66674441658405[0-9]*,0.91668610414601[0-9]*,' || die "--speedup at P=4: $(sed -n 3p "$tmp/sp.csv")"
"$PAMC" predict $H -D P=4 --speedup >/dev/null 2>&1; [ $? -eq 2 ] || die "--speedup without a sweep: want status 2"

# -D @FILE gives the same rows as the same -D on the command line
printf '# halo, weak scaling\nP=1..16:*4\n\nN = 1000*P\niters=10\n' > "$tmp/defs"
"$PAMC" predict $H -D @"$tmp/defs" --format csv > "$tmp/at.csv" || die "-D @FILE failed"
"$PAMC" predict $H -D P=1..16:*4 -D 'N=1000*P' -D iters=10 --format csv > "$tmp/cl.csv" || die "-D failed"
cmp -s "$tmp/at.csv" "$tmp/cl.csv" || die "-D @FILE differs: $(cat "$tmp/at.csv")"
"$PAMC" predict $H -D @"$tmp/nonesuch" >/dev/null 2>&1; [ $? -eq 3 ] || die "-D @missing: want status 3"
# N = 1000*P at each point: the column follows P, and each row equals predict at that point
[ "$(cut -d, -f1,2 "$tmp/cl.csv" | tr '\n' ' ')" = "P,N 1,1000 4,4000 16,16000 " ] || die "derived column: $(cat "$tmp/cl.csv")"
one=$("$PAMC" predict $H -D P=4 -D N=4000 -D iters=10 --format csv | sed -n 2p | cut -d, -f4-)
# (the same up to the last bits of outward rounding, which the symbolic N = 1000*P changes)
echo "$(sed -n 3p "$tmp/cl.csv" | cut -d, -f4-6),$one" | awk -F, '
  { for (i = 1; i <= 3; i++) { d = $i - $(i + 3); if (d < 0) d = -d; if (d > 1e-12 * $(i + 3)) bad = 1 } }
  END { exit bad }' || die "N=1000*P at P=4 is not N=4000: $(sed -n 3p "$tmp/cl.csv") against $one"

# a machine file overriding a const the model gives a value: one note with both values and
# where each comes from; --quiet silences it
printf 'const latency = 1us;\nconst t_point;\nprocess main { delay(latency + t_point) }\n' > "$tmp/ov.pam"
"$PAMC" predict "$tmp/ov.pam" -m models/machine.mach >/dev/null 2>"$tmp/err" || die "override failed"
grep -q "^models/machine.mach:6:19: note: const 'latency' = \[1.8us, 2.2us\] from the machine file overrides the model's value 1us (ov.pam:1)\$" "$tmp/err" \
  || die "override note: $(cat "$tmp/err")"
[ "$(grep -c 'note:' "$tmp/err")" -eq 1 ] || die "override note not once: $(cat "$tmp/err")"
"$PAMC" predict "$tmp/ov.pam" -m models/machine.mach --quiet >/dev/null 2>"$tmp/err" || die "--quiet failed"
[ -s "$tmp/err" ] && die "--quiet still said: $(cat "$tmp/err")"
exit 0
