#!/usr/bin/env bash
# extract_memory.sh — `pamc extract` with --memory-level auto (the default) and the ranged charge
# (lang/extract/ex_memory.c, ex_range.c), against hand derivations from the C source:
# - the traffic of each outermost loop nest from beyond L1 and its working set (tests/extract/
#   sweep.mach makes the memory sweep straight lines: r_one = 1 reads off the bytes read, r_ws = 1
#   the bytes read times the working set);
# - est = max over classes of operations (not their sum), lo = chains at throughput and the rest
#   vectorised 4 wide, hi = every operation at its latency, added.
set -u
PAMC=${PAMC:-./pamc}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
checks=0
mach=tests/extract/sweep.mach

# est MODEL EST_SHARE HI_SHARE NAME=V...: the model's est with every const 0 but those given.
est() {
  local model=$1 es=$2 hs=$3 defs=() c; shift 3
  for c in $(sed -n 's/^const \([A-Za-z_0-9]*\).*/\1/p' "$model" "$mach"); do
    case " $* " in *" $c="*) ;; *) [[ $c == ex_*_share ]] || defs+=(-D "$c=0") ;; esac
  done
  defs+=(-D "ex_est_share=$es" -D "ex_hi_share=$hs")
  for d in "$@"; do defs+=(-D "$d"); done
  "$PAMC" predict "$model" -m "$mach" "${defs[@]}" --format csv 2>/dev/null |
    awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next } { printf "%.6g\n", $col["est"] }'
}
# expect WHAT GOT WANT_AWK_EXPR VARS
expect() {
  local want
  want=$(awk "BEGIN { $4 printf \"%.6g\", $3 }")
  [ "$2" = "$want" ] || fail "$1: model says $2, the source $want ($3 with $4)"
  checks=$((checks + 1))
}
extract() {
  "$PAMC" extract "tests/extract/$1.c" -o "$tmp/$1.pam" 2>"$tmp/err" || { cat "$tmp/err"; fail "extract $1"; }
  "$PAMC" check -m "$mach" "$tmp/$1.pam" || fail "$1: the model does not check"
}

# ---- traffic and working set (est: ex_est_share = 1, ex_hi_share = 0)
extract dot
for n in 10 1000; do
  # a[i], b[i]: n doubles each, read once: 16 n bytes; working set 16 n bytes
  expect "dot r_one n=$n" "$(est $tmp/dot.pam 1 0 r_one=1 n=$n)" "16 * n" "n = $n;"
  expect "dot r_ws n=$n" "$(est $tmp/dot.pam 1 0 r_ws=1 n=$n)" "16 * n * 16 * n" "n = $n;"
done
extract stencil
for size in "10 7 3" "5 20 1"; do
  read -r n m iters <<<"$size"
  s="n = $n; m = $m; iters = $iters;"
  # in[...]: five accesses, one footprint of (n-2)(m-2) doubles (each access's indices i, j),
  # repeated by the t loop (its index in no access): 8 iters (n-2)(m-2) bytes read; out likewise
  # written; working set 16 (n-2)(m-2) bytes
  expect "stencil r_one $s" "$(est $tmp/stencil.pam 1 0 r_one=1 n=$n m=$m iters=$iters)" "8 * iters * (n - 2) * (m - 2)" "$s"
  expect "stencil w_one $s" "$(est $tmp/stencil.pam 1 0 w_one=1 n=$n m=$m iters=$iters)" "8 * iters * (n - 2) * (m - 2)" "$s"
  expect "stencil w_ws $s" "$(est $tmp/stencil.pam 1 0 w_ws=1 n=$n m=$m iters=$iters)" "8 * iters * (n - 2) * (m - 2) * 16 * (n - 2) * (m - 2)" "$s"
done
extract matmul
for n in 3 40; do
  # a[i*n+k] (j in no index: n^2 elements n times) and b[k*n+j] (i in none: likewise): 16 n^3
  # bytes read, none reused; c[i*n+j] written once: 8 n^2 bytes; working set 24 n^2 bytes
  expect "matmul r_one n=$n" "$(est $tmp/matmul.pam 1 0 r_one=1 n=$n)" "16 * n^3" "n = $n;"
  expect "matmul w_one n=$n" "$(est $tmp/matmul.pam 1 0 w_one=1 n=$n)" "8 * n^2" "n = $n;"
  expect "matmul r_ws n=$n" "$(est $tmp/matmul.pam 1 0 r_ws=1 n=$n)" "16 * n^3 * 24 * n^2" "n = $n;"
done

# ---- the ranged charge of dot (n adds on the chain s, n independent multiplies)
n=10
# est: the chain (2 per add) and the multiplies (1 each) overlap: max(2n, n), not 3n
expect "dot est" "$(est $tmp/dot.pam 1 0 t_add_double=2 t_mul_double_tp=1 n=$n)" "2 * n" "n = $n;"
# lo: the chain at throughput (1 each), the multiplies vectorised 4 wide: max(n, n / 4)
expect "dot lo" "$(est $tmp/dot.pam 0 0 t_add_double_tp=1 t_mul_double_tp=1 n=$n)" "n" "n = $n;"
expect "dot lo, multiplies" "$(est $tmp/dot.pam 0 0 t_mul_double_tp=1 n=$n)" "n / 4" "n = $n;"
# lo: the accesses at L1 (16n at t_read_l1 = 1) and the data streamed from beyond (16n at r_one
# = 1) overlap: max(16n, 16n), not 32n
expect "dot lo, memory" "$(est $tmp/dot.pam 0 0 t_read_l1=1 r_one=1 n=$n)" "16 * n" "n = $n;"
# hi: every operation at its latency, added: 2n + 3n
expect "dot hi" "$(est $tmp/dot.pam 1 1 t_add_double=2 t_mul_double=3 t_mul_double_tp=1 n=$n)" "5 * n" "n = $n;"
# memory overlaps too: 16 n bytes at L1 against the chain: max(2n, 16n) at t_read_l1 = 1
expect "dot est, memory" "$(est $tmp/dot.pam 1 0 t_add_double=2 t_read_l1=1 n=$n)" "16 * n" "n = $n;"

echo "$checks figures of the working set, the traffic and the ranged charge equal to the source's"
