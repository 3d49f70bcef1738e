#!/bin/bash
# reduce_c.sh — `pamc reduce --format c` compiles on its own (cc -std=c11 -Wall -Werror) and its
# functions compute the bounds `pamc predict` gives: for each model, every param fixed but one
# (left as the C function's one input) and the constants substituted, the compiled T_lo and T_hi
# are compared with predict's lo and hi over a sweep of that param.
set -u
PAMC=${PAMC:-./pamc}
M=tests/models/hand/point.mach
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
die() { echo "reduce_c.sh: $*" >&2; exit 1; }

cat > "$tmp/driver.c" <<'DRIVER'
#include <stdio.h>
#include <stdlib.h>
void pamc_t_lo(const double *in_lo, const double *in_hi, double *out_lo, double *out_hi);
void pamc_t_hi(const double *in_lo, const double *in_hi, double *out_lo, double *out_hi);
extern const int pamc_t_lo_ninputs, pamc_t_hi_ninputs;
/* driver VALUE...: one line per value, "VALUE lo hi" (inf T_lo, sup T_hi at input = VALUE) */
int main(int argc, char **argv) {
  if (pamc_t_lo_ninputs > 1 || pamc_t_hi_ninputs > 1) { fprintf(stderr, "more than one input\n"); return 1; }
  for (int i = 1; i < argc; i++) {
    double v = strtod(argv[i], NULL), lo, hi, unused;
    pamc_t_lo(&v, &v, &lo, &unused);
    pamc_t_hi(&v, &v, &unused, &hi);
    printf("%s %.17g %.17g\n", argv[i], lo, hi);
  }
  return 0;
}
DRIVER

# check MODEL PARAM VALUES FIXED...: compile the C of MODEL with PARAM free, compare at VALUES
check() {
  local model=$1 param=$2 values=$3; shift 3
  "$PAMC" reduce --format c --subst -m $M "$@" "models/$model.pam" > "$tmp/$model.c" || die "$model: reduce failed"
  cc -std=c11 -Wall -Werror -O2 -o "$tmp/$model" "$tmp/$model.c" "$tmp/driver.c" -lm || die "$model: the C output does not compile"
  local list
  list=$(echo "$values" | tr ',' ' ')
  "$tmp/$model" $list > "$tmp/$model.c.out" || die "$model: driver failed"
  "$PAMC" predict "models/$model.pam" -m $M -D "$param=$values" "$@" --format csv | tail -n +2 \
    | awk -F, '{ print $1, $(NF-4), $(NF-2) }' > "$tmp/$model.p.out" || die "$model: predict failed"
  paste -d' ' "$tmp/$model.c.out" "$tmp/$model.p.out" | awk -v m="$model" '
    function far(a, b) { d = a - b; if (d < 0) d = -d; s = b < 0 ? -b : b; return d > 1e-12 * s + 1e-300 }
    { if ($1 != $4 || far($2, $5) || far($3, $6)) { print m ": at " $1 ": C [" $2 ", " $3 "], predict [" $5 ", " $6 "]"; bad = 1 } }
    END { exit bad }' || exit 1
  [ "$(wc -l < "$tmp/$model.c.out")" -eq "$(echo "$list" | wc -w)" ] || die "$model: rows missing"
}

check halo P 1,2,3,8,64,1000,100000 -D N=1000000 -D iters=10
check master_worker P 1,7,8,128,4096 -D tasks=1024 -D work=20000 -D t_fetch=0.25us
check matmul P 1,4,16,100,4096 -D n=2048
check stencil2d px 1,2,4,32,1024 -D n=4096 -D steps=50 -D links=4
check fft_transpose P 2,4,16,1000,4096 -D N=1048576
check tree_reduce P 1,2,16,1000,1048576 -D N=1000000
check pipeline items 1,2,100,1000 -D S=4
check lu P 1,4,16,64 -D n=4096 -D nb=256
exit 0
