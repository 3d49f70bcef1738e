#!/usr/bin/env bash
# extract.sh — `pamc extract` on the C programs of tests/extract/: the count of every machine
# constant checked below, read off the model with tests/extract/count.sh (`pamc predict` with
# that constant 1 and the others 0; `pamc simulate` too at one size), equals the count derived by
# hand from the C source (the derivation is beside each line) at several sizes; every model
# checks, reduces and simulates.
set -u
PAMC=${PAMC:-./pamc}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
machine=()   # -m FILE for the parallel models
count() { PAMC=$PAMC tests/extract/count.sh "${machine[@]}" "$@"; }
checks=0

# expect FILE NAME EXPR SIZES...: count of NAME in the model of FILE is EXPR (awk, over the
# variables of SIZES) at each size; SIZES are "n=10,m=3" settings.
expect() {
  local file=$1 model=$tmp/$1.pam name=$2 expr=$3; shift 3
  for size in "$@"; do
    local defs=() awkvars=""
    [ "$size" = - ] && size=""   # no param to set
    IFS=, read -ra kv <<< "$size"
    for d in "${kv[@]}"; do defs+=("$d"); awkvars="$awkvars $d;"; done
    local want got
    want=$(awk "BEGIN { $awkvars printf \"%.6g\", $expr }")
    got=$(count "$model" "$name" "${defs[@]}") || fail "$file: predict failed for $name at $size"
    [ "$got" = "$want" ] || fail "$file.c: $name at $size: model says $got, the source $want ($expr)"
    checks=$((checks + 1))
  done
  # the simulator agrees at the first size
  local first=$1 sim want
  [ "$first" = - ] && first=""
  IFS=, read -ra kv <<< "$first"
  sim=$(count "$model" --sim "$name" "${kv[@]}") || fail "$model: simulate failed"
  want=$(awk "BEGIN { $(echo "$first" | tr , ';'); printf \"%.6g\", $expr }")
  [ "$sim" = "$want" ] || fail "$model: simulate counts $name $sim times, the source $want"
}

extract() {
  local name=$1; shift
  "$PAMC" extract "tests/extract/$name.c" --memory-level l1 "$@" -o "$tmp/$name.pam" 2> "$tmp/$name.err" ||
    { cat "$tmp/$name.err"; fail "extract $name.c"; }
  "$PAMC" check "${machine[@]}" "$tmp/$name.pam" || fail "$name: the model does not check"
  "$PAMC" reduce "${machine[@]}" "$tmp/$name.pam" > /dev/null || fail "$name: the model does not reduce"
}

# ---- serial kernels
extract dot
expect dot t_mul_double_tp "n" n=1 n=10 n=1000          # a[i] * b[i], independent
expect dot t_add_double "n" n=1 n=10 n=1000               # s += ..., the chain on s
expect dot t_read_l1 "16 * n" n=1 n=10 n=1000             # a[i], b[i]: two doubles
expect dot t_cmp_int_tp "n" n=1 n=10 n=1000             # i < n in each iteration
expect dot t_cmp_int "1" n=1 n=10                         # the test that ends the loop
expect dot t_add_int_tp "n" n=10 n=1000                 # i++

extract matmul
expect matmul t_mul_double_tp "n^3" n=1 n=7 n=40
expect matmul t_add_double "n^3" n=1 n=7 n=40             # sum += ..., chain on sum
expect matmul t_read_l1 "16 * n^3" n=2 n=7
expect matmul t_write_l1 "8 * n^2" n=2 n=7                # c[i * n + j] = sum
expect matmul t_mul_int_tp "0" n=2 n=7                  # i * n + k, k * n + j, i * n + j: address arithmetic, not counted
# tests: n + 1 per (i, j) for k, n + 1 per i for j (inside the i loop), n for i
expect matmul t_cmp_int_tp "n^2 * (n + 1) + n * (n + 1) + n" n=2 n=7

extract triangle
expect triangle t_add_long "n * (n - 1) / 2" n=1 n=8 n=101   # acc += x[j], j < i < n
expect triangle t_read_l1 "8 * n * (n - 1) / 2" n=8 n=101
expect triangle t_write_l1 "8 * int((n + 2) / 3)" n=1 n=7 n=101   # x[i] = acc, i += 3
expect triangle t_mul_long "m + 1" n=1,m=1 n=1,m=9        # acc = acc * 2, i = m .. 0
expect triangle t_sub_int_tp "m + 1" n=1,m=9            # i--

extract branches
expect branches t_mul_int_tp "n / 4" n=4 n=400          # v[i] * 3 under probability(0.25)
expect branches t_add_int "n / 4 + (n > 10)" n=4 n=400    # hits += (chain), hits + 1 if n > 10
expect branches t_sub_int "n * branches_p14" n=4,branches_p14=0.5 n=400,branches_p14=0.5 n=400,branches_p14=0.1  # hits -= 1
expect branches t_read_l1 "4 * n + 4 * n / 4 + 4 * n" n=4 n=400   # v[i] in each condition, once in the branch
expect branches t_mul_int "mode == 1" n=4,mode=1 n=4,mode=2 n=4,mode=3 # switch (mode) case 1
expect branches t_div_int "mode == 2" n=4,mode=1 n=4,mode=2
grep -q '^// NOTE: param branches_p14 = 0.5: branches.c:14' "$tmp/branches.pam" || fail "branches: no NOTE for the branch without pragma"

extract whileloop
expect whileloop t_div_int_tp "3 * n * 1.5" n=10 n=1000  # loop_count(3 * n): n % 2, and n / 2 half the time
expect whileloop t_add_int "3 * n + 1 + search_loop15" n=10,search_loop15=100 n=1000,search_loop15=3  # steps++, i++ in search (chains), one + in main
expect whileloop t_cmp_int_tp "3 * n + search_loop15 + n" n=10,search_loop15=5 n=1000,search_loop15=7
grep -q '^// NOTE: param search_loop15 = 100: whileloop.c:15: a while loop' "$tmp/whileloop.pam" || fail "whileloop: no NOTE for the while without pragma"
grep -q '^// NOTE: param n = 100: whileloop.c:20' "$tmp/whileloop.pam" || fail "whileloop: no NOTE for n read at run time"
grep -q '^// NOTE: calls without source, not counted: atoi malloc free' "$tmp/whileloop.pam" || fail "whileloop: ignored calls not listed"

extract recurse
expect recurse t_cmp_int "n + 1" n=1 n=9          # n == 0 in each of the n + 1 activations
expect recurse t_add_long "n + 1" n=1 n=9         # n + sum_to(n - 1), charged per activation

extract calls
expect calls t_sqrt_double "n" n=1 n=50           # sqrt in norm, called n times
expect calls t_exp_double_tp "n" n=1 n=50         # exp((double) i): independent calls in a loop overlap (throughput)
expect calls t_cvt_int_double_tp "2 * n" n=1 n=50   # (double) i, and scan's int result into s: in loops, throughput
expect calls t_copy_l1 "8 * n" n=1 n=50           # memcpy of n doubles
expect calls t_read_l1 "32 * n + n * (4 * scan_loop12 + 4)" n=3,scan_loop12=100 n=50,scan_loop12=2  # p->x, p->y twice; v[k]
expect calls t_add_int "n * scan_loop12" n=3,scan_loop12=100 n=50,scan_loop12=2   # k++ in scan, a chain

extract stencil
expect stencil t_add_double_tp "4 * iters * (n - 2) * (m - 2)" n=3,m=3,iters=1 n=10,m=7,iters=3
expect stencil t_mul_double_tp "iters * (n - 2) * (m - 2)" n=3,m=3,iters=1 n=10,m=7,iters=3
expect stencil t_read_l1 "40 * iters * (n - 2) * (m - 2)" n=10,m=7,iters=3
expect stencil t_write_l1 "8 * iters * (n - 2) * (m - 2)" n=10,m=7,iters=3

# ---- parallel: wide.mach has a core per thread (a par takes its longest thread), one.mach one
# core (a par takes the sum of its threads)
machine=(-m tests/extract/wide.mach)
extract omp_sum
expect omp_sum t_add_double "n + 1" n=10,threads=1 n=1000,threads=1   # s += a[i], then the combine
# the compile command of an OpenMP build has -fopenmp: with it libclang shows no statement under
# a directive, so extract leaves it out and counts the same
printf '[{"directory": "%s", "file": "tests/extract/omp_sum.c", "arguments": ["cc", "-fopenmp", "-c", "tests/extract/omp_sum.c"]}]\n' \
  "$PWD" > "$tmp/compile_commands.json"
extract omp_sum -p "$tmp/compile_commands.json"
expect omp_sum t_add_double "n + 1" n=10,threads=1 n=1000,threads=1   # the same, with -fopenmp
extract omp_chunk
# schedule(static, 4): thread 0 has 4 * floor(n / 4T) + min(4, n - 4T floor(n / 4T))
expect omp_chunk t_mul_double_tp "4 * int(n / (4 * threads)) + ((n - 4 * threads * int(n / (4 * threads))) < 4 ? (n - 4 * threads * int(n / (4 * threads))) : 4)" n=10,threads=2 n=17,threads=2 n=20,threads=3 n=1000,threads=4
extract omp_tri
# static blocks of the rows; row i costs i inner iterations (acc = acc + x[j]: a chain); the last
# thread's rows cost most:
# n = 8, T = 2: rows 4..7, 22; n = 10, T = 4: rows 8, 9, 17; n = 9, T = 2: rows 5..8, 26
expect omp_tri t_add_long "(n == 8 ? 22 : n == 10 ? 17 : 26)" n=8,threads=2 n=10,threads=4 n=9,threads=2
extract omp_critical
expect omp_critical t_add_double "n" n=10,threads=4 n=100,threads=2    # *total += v, one thread at a time
expect omp_critical t_add_long "n" n=10,threads=4 n=100,threads=2      # atomic *count += 1
extract omp_region
expect omp_region t_mul_double_tp "int((n + threads - 1) / threads)" n=10,threads=4 n=12,threads=4 n=7,threads=2
expect omp_region t_cvt_int_double "1" n=10,threads=4                 # a[0] = t, on thread 0 (single)
extract pthreads
expect pthreads t_add_double "1000 + 4" -                     # W / T = 1000 per worker, then 4 combines
machine=(-m tests/extract/one.mach)
extract pthreads
expect pthreads t_add_double "4 * 1000 + 4" -                 # one core: the 4 workers one after another
extract omp_sum
expect omp_sum t_read_l1 "8 * n" n=12,threads=4 n=100,threads=3       # every a[i] once, on the one core

machine=(-m tests/extract/wide.mach)
mpi_inc=$(mpicc --showme:incdirs 2>/dev/null | tr ' ' '\n' | sed 's/^/-I/')
if [ -n "$mpi_inc" ]; then
  extract mpi_ring $mpi_inc
  # per rank: 2 messages per iteration (10), an allreduce (ceil(log2 P) messages of 8 B), a
  # barrier (ceil(log2 P) messages of 1 B)
  expect mpi_ring mpi_msg "20 + 2 * (P == 2 ? 1 : P == 4 ? 2 : 3)" P=2 P=4 P=8
  expect mpi_ring mpi_byte "20 * 8192 + 9 * (P == 2 ? 1 : P == 4 ? 2 : 3)" P=2 P=4
else
  echo "note: mpicc not found, the MPI program is not extracted"
fi

# ---- pamc gen -l tasks.c: the cost library extracted from C beside the output, then the model
machine=()
cat > "$tmp/send.mach" <<'M'
const latency = 10us;
const byte_time = 1ns;
fn send(bytes) = latency + bytes * byte_time;
M
"$PAMC" gen models/gen/primes.spec -l models/gen/primes_tasks.c -m "$tmp/send.mach" -o "$tmp/primes_c.pam" ||
  fail "gen -l primes_tasks.c"
[ -f "$tmp/primes_tasks_costs.pam" ] || fail "gen -l C: no primes_tasks_costs.pam beside the output"
grep -q '^import "primes_tasks_costs.pam";' "$tmp/primes_c.pam" || fail "gen -l C: the model does not import the library"
"$PAMC" check -m "$tmp/send.mach" "$tmp/primes_c.pam" || fail "gen -l C: the model does not check"
# ProcessData(count, task) tests N / count numbers, 60 trial divisions each (the pragma): with
# every constant 0 but t_div_long_tp, L2's 100 tasks on P workers take ceil(100 / P) tasks of
# 60 * 10^6 / 100 divisions, and the rest of the model (messages) costs nothing
for p in 1 4 7; do
  defs=()
  for c in $(sed -n 's/^const \([A-Za-z_0-9]*\).*/\1/p' "$tmp/primes_tasks_costs.pam" "$tmp/send.mach"); do
    [ "$c" = t_div_long_tp ] && defs+=(-D "$c=1") || defs+=(-D "$c=0")
  done
  got=$("$PAMC" predict "$tmp/primes_c.pam" -m "$tmp/send.mach" "${defs[@]}" -D P=$p --format csv |
    awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next } { v = $col["est"] } END { printf "%.6g", v }')
  want=$(awk "BEGIN { printf \"%.6g\", int((100 + $p - 1) / $p) * 60 * 1000000 / 100 }")
  [ "$got" = "$want" ] || fail "gen -l C at P=$p: $got divisions on the longest worker, expected $want"
  checks=$((checks + 1))
done

echo "$checks counts equal to the source's"
