#!/bin/sh
# deep_nesting.sh — every recursive walk is bounded (issue 14, item 4): models nested 10^5 deep
# (operator chains, parentheses, blocks, ifs, process/const/fn chains) are an error at their line
# and column from every command, never a crash; models just inside the limits (1000 levels of
# statements and expressions in a declaration, 2000 with the processes, fns and consts it uses
# written out) run everywhere.
set -u
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
die() { echo "deep_nesting.sh: $*"; exit 1; }

# gen KIND N: a model of the given shape, N deep, on standard output
gen() {
  awk -v k="$1" -v n="$2" 'function rep(s, n,   r, i) { r = ""; for (i = 0; i < n; i++) r = r s; return r }
  BEGIN {
    print "param P = 4;"; print "resource r;"
    if (k == "sum") { s = "1ns"; for (i = 1; i < n; i++) s = s "+1ns"; print "process main = delay(" s ");" }
    else if (k == "mul") { s = "1"; for (i = 1; i < n; i++) s = s "*1"; print "process main = delay(" s "*1ns);" }
    else if (k == "paren") print "process main = delay(1ns*" rep("(1+", n) "1" rep(")", n) ");"
    else if (k == "block") print "process main = " rep("{", n) "use(r, 1ns)" rep("}", n) ";"
    else if (k == "if") print "process main = " rep("if (P > 1) ", n) "use(r, 1ns);"
    else if (k == "chain") {
      for (i = 0; i < n - 1; i++) printf "process p%d = { use(r, 1ns); p%d };\n", i, i + 1
      printf "process p%d = use(r, 1ns);\nprocess main = p0;\n", n - 1
    } else if (k == "consts") {
      for (i = 0; i < n - 1; i++) printf "const c%d = c%d + 1ns;\n", i, i + 1
      printf "const c%d = 1ns;\nprocess main = delay(c0);\n", n - 1
    } else if (k == "fns") {
      for (i = 0; i < n - 1; i++) printf "fn f%d(x) = f%d(x) + 1ns;\n", i, i + 1
      printf "fn f%d(x) = x;\nprocess main = delay(f0(1ns));\n", n - 1
    }
  }'
}

# --- 10^5 deep: exit 1 with file:line:col: error from every command ---------------------------
# (every command on two shapes; the parser's and the checker's errors come before any command's
# own walks, so check and simulate stand for them on the others)
for k in sum mul paren block if chain consts fns; do
  gen $k 100000 > "$tmp/$k.pam"
  commands='check simulate'
  case $k in sum) commands='check check--dump reduce predict simulate' ;; chain) commands='check reduce simulate' ;; consts|fns) commands=check ;; esac
  for c in $commands; do
    [ "$c" = check--dump ] && c='check --dump'
    [ "$c" = predict ] && c='predict -D P=2,3'
    # shellcheck disable=SC2086
    "$PAMC" $c "$tmp/$k.pam" > /dev/null 2> "$tmp/out"
    rc=$?
    [ $rc -eq 1 ] || die "$k 10^5, $c: exit $rc, want 1: $(head -c 300 "$tmp/out")"
    grep -q "^$tmp/$k.pam:[0-9]*:[0-9]*: error: .*nest" "$tmp/out" || die "$k 10^5, $c: no located error: $(head -c 300 "$tmp/out")"
  done
done
# the long chains are refused where the limit is passed, naming the declaration and the limit
"$PAMC" check "$tmp/chain.pam" 2>&1 | grep -q "'p0' nests too deeply: more than 2000 levels" || die "chain message"

# a specification's expressions (pamc gen) are bounded too: 10^5 terms is an error at the spec,
# 499 write a model that checks
for n in 100000 499; do
  awk -v n=$n 'BEGIN { s = "8"; for (i = 1; i < n; i++) s = s "+8"; print "size T1 = " s ";" }' > "$tmp/deep.spec"
  grep -v '^size T1' models/gen/primes.spec >> "$tmp/deep.spec"
  "$PAMC" gen "$tmp/deep.spec" -l models/gen/primes_costs.pam -o "$tmp/deep_gen.pam" > /dev/null 2> "$tmp/out"
  rc=$?
  if [ $n -eq 499 ]; then
    [ $rc -eq 0 ] || die "gen, 499 terms: exit $rc: $(head -c 300 "$tmp/out")"
  else
    [ $rc -eq 1 ] && grep -q "^$tmp/deep.spec:1:[0-9]*: error: expression nests too deeply" "$tmp/out" \
      || die "gen, 10^5 terms: exit $rc: $(head -c 300 "$tmp/out")"
  fi
done

# --- just inside the limits: every command works, with the values by hand ------------------------
gen sum 990 > "$tmp/sum990.pam"      # 990 ns
gen chain 990 > "$tmp/chain490.pam"  # 990 uses of r, 1 ns each: 990 ns
for k in sum990:9.9e-07 chain490:9.9e-07; do
  f=${k%%:*}; want=${k#*:}
  for c in "reduce --format json" "reduce --format latex" "reduce --format c" "check --dump"; do
    # shellcheck disable=SC2086
    "$PAMC" $c "$tmp/$f.pam" > /dev/null 2>&1 || die "$f: $c failed"
  done
  lo=$("$PAMC" predict "$tmp/$f.pam" --format csv | sed -n 2p | cut -d, -f2) || die "$f: predict failed"
  sim=$("$PAMC" simulate "$tmp/$f.pam" --format csv | sed -n 2p | cut -d, -f1) || die "$f: simulate failed"
  awk -v a="$lo" -v b="$sim" -v w="$want" 'BEGIN { exit !((a - w) ^ 2 < 1e-30 && (b - w) ^ 2 < 1e-30) }' \
    || die "$f: lo $lo, simulated $sim, want $want"
done
exit 0
