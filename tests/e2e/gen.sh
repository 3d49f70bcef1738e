#!/bin/sh
# gen.sh — `pamc gen` on the examples of models/gen (GEN.md): the generated files are the ones in
# the repository byte for byte (stable output), pass `pamc check`, and reduce to the lower bounds
# derived by hand below at several P. Also: --help, usage errors, no output file on error.
set -u
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

# ---- generation is stable and matches the committed models
mkdir -p "$tmp/models/gen"
cp models/gen/*.spec models/gen/*_costs.pam "$tmp/models/gen/"
for name in primes primes_groups pipeline; do
  lib=primes_costs.pam
  [ "$name" = pipeline ] && lib=pipeline_costs.pam
  (cd "$tmp" && "$PAMC" gen "models/gen/$name.spec" -l "models/gen/$lib" -o "models/gen/$name.pam") \
    || fail "gen $name"
  cmp "$tmp/models/gen/$name.pam" "models/gen/$name.pam" || fail "$name.pam differs from the committed file"
  # twice more: the same bytes each time
  (cd "$tmp" && "$PAMC" gen "models/gen/$name.spec" -l "models/gen/$lib" -o "models/gen/$name.2.pam") \
    || fail "gen $name again"
  cmp "$tmp/models/gen/$name.pam" "$tmp/models/gen/$name.2.pam" || fail "$name: not stable"
  # to stdout, the library is imported relative to the current folder
  (cd "$tmp" && "$PAMC" gen "models/gen/$name.spec" -l "models/gen/$lib" > "$name.stdout.pam" &&
     "$PAMC" check "$name.stdout.pam") || fail "gen $name to stdout"
  "$PAMC" check "models/gen/$name.pam" || fail "check $name.pam"
  ls "$tmp/models/gen/" | grep -q tmp && fail "temporary file left behind"
done

# ---- lower bounds against hand derivations
# lo FILE P EXPECTED: predict's `lo` column at P equals EXPECTED (seconds) to 1e-9 relative.
lo() {
  got=$("$PAMC" predict "$1" -D "P=$2" --format csv | tail -n 1 | cut -d, -f2) || fail "predict $1 P=$2"
  awk -v g="$got" -v e="$3" 'BEGIN { d = g - e; if (d < 0) d = -d; exit !(d <= 1e-9 * e) }' \
    || fail "$1 at P=$2: T_lo = $got, derived by hand $3"
}

# primes (N = 1e6, t_point = 1us, t_split = 10ns, send(b) = 10us + b * 1ns, read(b) = b * 2ns):
#   L1 on the coordinator: read(8N) = 16 ms, DivideData = N * 10ns = 10 ms        -> 26 ms
#   L2, 100 tasks: receive 8N/100 = 80000 B -> 90 us; ProcessData = N/100 * 1us = 10 ms;
#       send back 800/100 = 8 B -> 10.008 us; one task = 10100.008 us, on net 100.008 us.
#       Largest remainder: the first 100 mod P workers run ceil(100/P) tasks. Critical path
#       ceil(100/P) * 10100.008 us; net demand 100 * 100.008 us = 10000.8 us (never larger).
#   L3: CollectResults = 100 * 10ns = 1 us; result.dat has no size: no cost.
#   T_lo = 26000 + ceil(100/P) * 10100.008 + 1 us.
#   In its last task each of the q workers that run ceil(100/P) tasks (q = 100 mod P, or P when P
#   divides 100) sends its 8 B back no earlier than (ceil(100/P) - 1) * 10100.008 + 90 + 10000 us
#   into L2, and the net serves those q sends one after another (docs/reduction.md, "Requests that
#   reach a member late": the sites' least heads as release dates): (q - 1) * 10.008 us more.
#   The q workers of one par make their first receive (90 us) at the net at one instant, in index
#   order: the k-th starts it k * 90 us late at least (docs/reduction.md, "The wait behind the
#   requests ahead", m = 1) and then runs its tasks: 26000 + k * 90 + tasks * 10100.008 + 1 us.
lo models/gen/primes.pam 1 1.036001800      # 100 tasks, q = 1: 26000 + 1010000.8 + 1 us
lo models/gen/primes.pam 3 0.369401272      # 34 tasks, q = 1
lo models/gen/primes.pam 4 0.2787712        # 25 tasks, q = 4: worker 3 waits 3 * 90 us: 26000 + 270 + 252500.2 + 1 us
lo models/gen/primes.pam 7 0.17759112       # 15 tasks, q = 2: worker 1 waits 90 us: 26000 + 90 + 151500.12 + 1 us
lo models/gen/primes.pam 100 0.045011008    # 1 task each, worker 99 waits 99 * 90 us: 26000 + 8910 + 10100.008 + 1 us
lo models/gen/primes.pam 128 0.045011008    # 1 task, 28 workers idle (no request), q = 100: the same

# primes_groups: P - 4 fast workers (factor 1, weight 5), 4 slow ones (factor 2.5, weight 2).
#   A slow task takes 90 + 25000 + 10.008 = 25100.008 us, a fast one 10100.008 us.
#   Largest remainder with W = 5(P-4) + 8, share c*w/W, remainders compared as c*w mod W:
#   P = 8:  W = 28; fast 500/28 = 17 r 24, slow 200/28 = 7 r 4; left 100 - 68 - 28 = 4
#           -> the 4 fast workers get one more: fast 18, slow 7.
#           max(18 * 10100.008, 7 * 25100.008) = 181800.144 us -> T_lo = 26000 + 181800.144 + 1,
#           and the 4 fast workers' last sends back queue at the net (as for primes): + 3 * 10.008;
#           better, fast worker 3 waits 3 * 90 us at its first receive: 26000 + 270 + 181800.144 + 1
lo models/gen/primes_groups.pam 8 0.208071144
#   P = 12: W = 48; fast 10 r 20, slow 4 r 8; left 100 - 80 - 16 = 4 -> 4 of the 8 fast get 11.
#           max(11 * 10100.008, 4 * 25100.008) = 111100.088 us, + 3 * 10.008 (4 last sends);
#           better, the fourth of them waits 270 us at its first receive: 26000 + 270 + 111100.088 + 1
lo models/gen/primes_groups.pam 12 0.137371088
#   P = 5:  W = 13; fast 38 r 6, slow 15 r 5; left 100 - 38 - 60 = 2 -> the fast worker (larger
#           remainder) gets 39, one slow worker 16. max(39 * 10100.008, 16 * 25100.008)
#           = 401600.128 us (the slow worker is the critical path; it sends its last alone)
lo models/gen/primes_groups.pam 5 0.427601128
#   P = 6:  W = 18; fast 27 r 14, slow 11 r 2; left 2 -> both fast get 28.
#           max(28 * 10100.008, 11 * 25100.008) = 282800.224 us, + 10.008 (2 last sends);
#           better, the second waits 90 us at its first receive: 26000 + 90 + 282800.224 + 1
lo models/gen/primes_groups.pam 6 0.308891224

# pipeline (B = 64, send(b) = 5us + b * 1ns, read(b) = b * 1ns, write(b) = b * 2ns, KiB = 1024):
#   L1, 64 tasks, reads only a file: read(4KiB * 64) = 262.144 us on the coordinator first;
#       a task = Decode 100 + send back 4096 B (9.096) = 109.096 us; net 64 * 9.096 = 582.144
#   L2, 64 tasks: receive 4096 B (9.096) + Filter 300 + send 2048 B (7.048) = 316.144 us;
#       net 64 * 16.144 = 1033.216 us
#   L3, 16 tasks: receive 8192 B (13.192) + Encode 200 + send 4096 B (9.096) = 222.288 us;
#       net 16 * 22.288 = 356.608 us; then write(1KiB * 64) = 131.072 us.
#   Each level: max(ceil(c/P) * task, net demand); in L1 the P sends of the last round (of the
#   workers running ceil(c/P) tasks) all queue at the net after Decode (docs/reduction.md, a member
#   several sites request): (ceil(c/P) - 1) * 109.096 + 100 + (those workers) * 9.096. In L2 and
#   L3 likewise the q workers running ceil(c/P) tasks send their last results back no earlier than
#   one task less the send into the level, and the net serves them one after another ("Requests
#   that reach a member late"): ceil(c/P) * task + (q - 1) * send, q = c mod P or P.
#   The workers of one par of L2 (L3) make their first receive at one instant, in index order: the
#   k-th starts it k receives late ("The wait behind the requests ahead"), then runs its tasks.
#   P = 4:  262.144 + (15*109.096 + 100 + 4*9.096) + (3*9.096 + 16*316.144) + (3*13.192 +
#           4*222.288) + 131.072 = 8180.36 us
lo models/gen/pipeline.pam 4 0.00818036
#   P = 10 (4 workers run 7 tasks of L1 and of L2, 6 run 2 of L3): 262.144 + (6*109.096 + 100 +
#           4*9.096) + (3*9.096 + 7*316.144) + (5*13.192 + 2*222.288) + 131.072 = 3935.008 us
lo models/gen/pipeline.pam 10 0.003935008
#   P = 64: 262.144 + (100 + 582.144: the 64 sends after Decode) + 1033.216 (net) + (15*13.192 +
#           222.288: the 16th worker of L3 waits for 15 receives) + 131.072 = 2528.744 us
lo models/gen/pipeline.pam 64 0.002528744

# primes with cardinality P in L2 (tests/models/gen_ok/primes_by_p.spec, the same library): at P = 1
# the one task runs on the coordinator with its data local: 26000 + ProcessData(1, 0) = 10^6
# + 1 us. At P = 2 each worker receives 8N/2 B (10 + 4000 us), runs N/2 * 1us = 500000 us and
# sends 400 B back (10.4 us): 26000 + 504020.4 + 1 us; at P = 4: 26000 + (2010 + 250000 + 10.2)
# + 1 us (the network's demand, 4 x 2020.2 us, is below one task's path). The P sends back all
# reach the network after the receive and the compute, and queue there ("Requests that reach a
# member late"): (P - 1) of them more, + 10.4 us at P = 2, + 3 * 10.2 us at P = 4. Better, and the
# simulated time: the P receives are made at one instant, and worker k starts its own k receives
# late ("The wait behind the requests ahead"): + 4010 us at P = 2, + 3 * 2010 us at P = 4.
cp tests/models/gen_ok/primes_by_p.spec "$tmp/models/gen/"
(cd "$tmp" && "$PAMC" gen models/gen/primes_by_p.spec -l models/gen/primes_costs.pam -o models/gen/primes_by_p.pam) \
  || fail "gen primes_by_p"
grep -q 'if (P == 1) ProcessData(1, 0)' "$tmp/models/gen/primes_by_p.pam" || fail "primes_by_p: no coordinator case"
lo "$tmp/models/gen/primes_by_p.pam" 1 1.026001
lo "$tmp/models/gen/primes_by_p.pam" 2 0.5340314
lo "$tmp/models/gen/primes_by_p.pam" 4 0.2840512

# ---- the simulator (the reference semantics) lies within the reduced bounds
for case in primes:3 primes:7 primes_groups:5 primes_groups:12 pipeline:10 pipeline:64; do
  name=${case%%:*}; p=${case#*:}
  row=$("$PAMC" predict "models/gen/$name.pam" -D "P=$p" --format csv | tail -n 1) || fail "predict $name"
  time=$("$PAMC" simulate "models/gen/$name.pam" -D "P=$p" --format csv | sed -n 2p | cut -d, -f1) \
    || fail "simulate $name"
  echo "$row" | awk -F, -v t="$time" '{ exit !($2 <= t * (1 + 1e-12) && t <= $4 * (1 + 1e-12)) }' \
    || fail "$name at P=$p: simulated $time outside [lo, hi] of $row"
done

# ---- command line
"$PAMC" gen --help | grep -q 'usage: pamc gen' || fail "--help"
"$PAMC" gen models/gen/primes.spec 2>/dev/null; [ $? -eq 2 ] || fail "missing -l is not a usage error"
"$PAMC" gen /nonexistent.spec -l models/gen/primes_costs.pam 2>/dev/null; [ $? -eq 3 ] || fail "missing spec: status"
"$PAMC" gen models/gen/primes.spec -l /nonexistent.pam 2>/dev/null; [ $? -eq 3 ] || fail "missing library: status"
# an error leaves no output file behind
"$PAMC" gen tests/models/gen/unknown_task.spec -l models/gen/primes_costs.pam -o "$tmp/bad.pam" 2>/dev/null
[ $? -eq 1 ] || fail "bad spec: status"
[ -e "$tmp/bad.pam" ] && fail "output written on error"
ls "$tmp" | grep -q 'bad.pam' && fail "temporary file left behind on error"
exit 0
