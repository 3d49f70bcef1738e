#!/bin/bash
# models_hand.sh — the example models of models/ against values derived by hand: T_lo and T_hi of
# REDUCTION.md (through `pamc predict`) and the makespan of the reference semantics (through
# `pamc simulate`), with every constant a single value (tests/models/hand/point.mach):
#   t_flop = t_point = 1 ns, latency = 2 us, byte_time = 0.5 ns, t_lock = 50 ns.
# Every number below is worked out in the comment above it; times in microseconds.
set -u
PAMC=${PAMC:-./pamc}
M=tests/models/hand/point.mach
fail=0
die() { echo "models_hand.sh: $*" >&2; fail=1; }

# same VALUE_S WANT_US: VALUE (seconds) equals WANT (microseconds) to 1e-9 relative
same() { awk -v a="$1" -v b="$2" 'BEGIN { b *= 1e-6; d = a - b; if (d < 0) d = -d; exit !(d <= 1e-9 * (b < 0 ? -b : b) + 1e-18) }'; }
# at_least VALUE_S WANT_US: VALUE >= WANT (to rounding)
at_least() { awk -v a="$1" -v b="$2" 'BEGIN { b *= 1e-6; exit !(a >= b * (1 - 1e-9)) }'; }

# bounds MODEL WANT_LO WANT_HI -D ...: predict's lo and hi equal the hand values
bounds() {
  local model=$1 lo=$2 hi=$3; shift 3
  local row
  row=$("$PAMC" predict "models/$model.pam" -m $M "$@" --format csv | tail -1) || { die "$model $*: predict failed"; return; }
  local got_lo got_hi
  got_lo=$(echo "$row" | awk -F, '{ print $(NF-4) }')
  got_hi=$(echo "$row" | awk -F, '{ print $(NF-2) }')
  same "$got_lo" "$lo" || die "$model $*: T_lo = $got_lo s, by hand $lo us"
  if [ "$hi" = "-" ]; then return; fi
  same "$got_hi" "$hi" || die "$model $*: T_hi = $got_hi s, by hand $hi us"
}

# makespan MODEL WANT -D ...: the simulated time equals the hand schedule
makespan() {
  local model=$1 want=$2; shift 2
  local got
  got=$("$PAMC" simulate "models/$model.pam" -m $M "$@" --format csv | sed -n 2p | cut -d, -f1) \
    || { die "$model $*: simulate failed"; return; }
  same "$got" "$want" || die "$model $*: simulated $got s, by hand $want us"
}

# --- halo.pam (LANGUAGE.md section 7) ----------------------------------------------------------
# msg(8192) = 2 + 8192 * 0.0005 = 6.096; a worker computes ceil(N/P) points of 1 ns.
# P = 8, iters = 10, N = 10^6: ceil(N/P) = 125000 -> 125.
#   T_lo = iters * max(125 + 6.096, 8 * 6.096 = 48.768) = 10 * 131.096 = 1310.96 by the contract's
#   rules (EXAMPLES 1); the bus is every branch's one stage (docs/reduction.md, order-aware lower
#   bound): head 125 + 8 requests of 6.096 + tail 0 = 173.768, so T_lo = 1737.68
#   T_hi = iters * (phi + the other 7 workers' bus demand) = 10 * (131.096 + 7 * 6.096)
#        = 10 * 173.768 = 1737.68
#   Schedule: all compute 0..125, the bus serves the 8 messages back to back until 173.768; the
#   repeat waits for the par: 10 * 173.768 = 1737.68.
bounds halo 1737.68 1737.68 -D P=8 -D iters=10
makespan halo 1737.68 -D P=8 -D iters=10
# P = 64: ceil(10^6/64) = 15625 -> 15.625; bus 64 * 6.096 = 390.144 > 15.625 + 6.096.
#   T_lo = 10 * (15.625 + 390.144) = 4057.69 (order-aware: head + 64 requests on the bus);
#   T_hi = 10 * (21.721 + 63 * 6.096 = 405.769) = 4057.69
#   Schedule: 10 * (15.625 + 390.144) = 4057.69.
bounds halo 4057.69 4057.69 -D P=64 -D iters=10
makespan halo 4057.69 -D P=64 -D iters=10

# --- master_worker.pam -------------------------------------------------------------------------
# A fetch holds the lock t_lock + t_fetch = 0.05 + 0.25 = 0.3; a task computes 20000 * 1 ns = 20;
# each worker repeats ceil(1024/P) times.
# P = 8: 128 rounds. phi = 128 * 20.3 = 2598.4, lock demand 8 * 128 * 0.3 = 307.2:
#   T_lo = 2598.4 by the contract's rules; the fetches of round j (docs/reduction.md, a member
#   several sites request: the lock named by every worker) start no earlier than (j - 1) * 20.3,
#   take 8 * 0.3 = 2.4 on the lock, and the last one's worker still computes 20 + (128 - j) * 20.3:
#   T_lo = 127 * 20.3 + 2.4 + 20 = 2600.5, the schedule's time.
#   T_hi (docs/reduction.md, "Rounds through single-server stages": the lock is the one stage,
#   t_max = 0.3, iter = 20.3, R = 128, n = 8): phi + max((n - 1) t_max, (R n - 1) t_max - (R - 1)
#   iter) = 2598.4 + max(2.1, 306.9 - 2578.1) = 2600.5 (before: phi + the others' lock demand
#   7 * 128 * 0.3 = 268.8 -> 2867.2)
#   Schedule: worker w takes the lock at 0.3 w (FCFS in program order), then every 20.3 without
#   waiting (8 * 0.3 < 20.3): the last worker ends at 0.3 * 7 + 128 * 20.3 = 2600.5.
bounds master_worker 2600.5 2600.5 -D P=8 -D t_fetch=0.25us
makespan master_worker 2600.5 -D P=8 -D t_fetch=0.25us
# P = 128: 8 rounds. lock demand 128 * 8 * 0.3 = 307.2 > phi = 8 * 20.3 = 162.4:
#   T_lo = 307.2 by the contract's rules; the lock, met in every round (docs/reduction.md, a stage
#   met in every iteration of a loop), gets 128 * 8 fetches, none before 0, and the worker of the
#   last one still computes 20: T_lo = 307.2 + 20 = 327.2. T_hi, rounds through one stage (R = 8,
#   n = 128): 162.4 + max(127 * 0.3, 1023 * 0.3 - 7 * 20.3) = 162.4 + 164.8 = 327.2 (before:
#   162.4 + 127 * 8 * 0.3 = 467.2)
#   Schedule: a round of 128 fetches takes 38.4 > 20.3, so the lock never idles: the last fetch
#   ends at 307.2 and its task at 327.2.
bounds master_worker 327.2 327.2 -D P=128 -D t_fetch=0.25us
makespan master_worker 327.2 -D P=128 -D t_fetch=0.25us

# --- matmul.pam ----------------------------------------------------------------------------------
# n = 2048, rows = ceil(n/P); A = msg(8 rows n), B = msg(8 n^2) = 2 + 16777.216 = 16779.216,
# compute = 2 rows n^2 ns, C = A. Everything but compute is on the one net.
# P = 16: rows 128, A = 2 + 1048.576 = 1050.576, compute = 1073741.824; net per worker
#   2 A + B = 18880.368.
#   T_lo: the 16 A's are the net's first requests, all at 0, so any later request of the net
#   starts no earlier than the 16th A ends (docs/reduction.md, "a request behind the first
#   batch"), 16 A = 16809.216; the 16 B's then go one after another, and the worker served last
#   still computes and sends C: 16809.216 + 16 * 16779.216 + 1073741.824 + 1050.576
#   = 1360069.072, the simulated time (the B's from A alone, "a stage used again": 1344310.432;
#   the critical path alone 18880.368 + 1073741.824 = 1092622.192)
#   T_hi = compute + all 16 workers' net demand = 1073741.824 + 302085.888 = 1375827.712
#   Schedule: the 16 A's first (all asked at 0), then the 16 B's (each asked when its A ended):
#   worker 15's B ends at 16 A + 16 B = 285276.672; it computes until 1359018.496; the C's
#   come 16779 apart and never queue: 1359018.496 + 1050.576 = 1360069.072.
bounds matmul 1360069.072 1375827.712 -D P=16
makespan matmul 1360069.072 -D P=16
# P = 4: rows 512, A = 2 + 4194.304 = 4196.304, compute = 4294967.296; net per worker 25171.824.
#   T_lo = 4 A + 4 B + compute + C = 16785.216 + 67116.864 + 4294967.296 + 4196.304 = 4383065.68
#   (the B's behind the 4 A's as above; the critical path alone 4320139.12); T_hi = 4 * 25171.824 + 4294967.296
#   = 4395654.592
#   Schedule: 4 A + 4 B = 83902.08, compute, C: 83902.08 + 4294967.296 + 4196.304 = 4383065.68.
bounds matmul 4383065.68 4395654.592 -D P=4
makespan matmul 4383065.68 -D P=4

# --- stencil2d.pam -------------------------------------------------------------------------------
# n = 4096, px = 4 (16 blocks), steps = 50, net = fcfs(4). side = 1024: compute 1024^2 ns =
# 1048.576; halo(1024) = 2 + 8 * 1024 * 0.0005 = 6.096, four per block and step.
#   Per step: phi = 1048.576 + 4 * 6.096 = 1072.96; net load 64 * 6.096 / 4 = 97.536.
#   T_lo = 50 * 1072.96 = 53648 by the contract's rules; the 16 halos of round j of 4 start no
#   earlier than 1048.576 + (j - 1) * 6.096, take 4 * 6.096 on the 4 links, then (4 - j) * 6.096
#   follow: 50 * (1048.576 + 3 * 6.096 + 4 * 6.096) = 50 * 1091.248 = 54562.4; the net, met in
#   each of the 4 iterations of `repeat (4)` (a stage met in every iteration of a loop): 16 * 4
#   halos on 4 links, none before 1048.576: 50 * (1048.576 + ceil(64 / 4) * 6.096) = 57305.6
#   T_hi: the contract's rule lets a block wait for the others' 60 halos on 4 links:
#         50 * (1072.96 + 60 * 6.096 / 4) = 50 * 1164.4 = 58220; bounded clients (docs/reduction.md,
#         "Pars whose branches send at once"): the one site of net has 16 clients (one request
#         each at a time), so a halo waits at most ceil((16 - 4) / 4) * 6.096 = 18.288:
#         50 * (1048.576 + 4 * (6.096 + 18.288)) = 50 * 1146.112 = 57305.6
#   Schedule: all compute together, then 64 halos keep the 4 links busy for 97.536:
#   50 * (1048.576 + 97.536) = 57305.6.
bounds stencil2d 57305.6 57305.6 -D px=4 -D steps=50
makespan stencil2d 57305.6 -D px=4 -D steps=50
# px = 2 (4 blocks), steps = 1: side 2048, compute 4194.304, halo 2 + 8.192 = 10.192.
#   T_lo = 4194.304 + 4 * 10.192 = 4235.072 (16 halos on 4 links: 40.768 = the chain's own)
#   T_hi = 4235.072 + 12 * 10.192 / 4 = 4265.648 by the contract's rule; bounded clients: 4
#   clients on 4 links never wait, T_hi = 4235.072
#   Schedule: 16 halos on 4 links, 4 rounds: 4194.304 + 40.768 = 4235.072.
bounds stencil2d 4235.072 4235.072 -D px=2 -D steps=1
makespan stencil2d 4235.072 -D px=2 -D steps=1

# --- fft_transpose.pam ---------------------------------------------------------------------------
# N = 2^20, P = 16: local_fft(65536) = 5 * 65536 * 16 ns = 5242.88, twice; a message carries
# 16 N / P^2 = 65536 bytes: msg = 2 + 32.768 = 34.768, P - 1 = 15 of them per worker.
#   T_lo = 2 * 5242.88 + 15 * 34.768 = 11007.28
#   T_hi by the contract's rules: 10485.76 + P (P - 1) msg = 18830.08 (the ports as one); round k
#   sends to port (w + k) mod P, one-to-one in w, every step the same length for every worker:
#   lockstep (docs/reduction.md), T_hi = phi = 11007.28
#   Schedule: in round k worker w sends to port (w + k) mod P, one sender per port: no waiting,
#   11007.28.
bounds fft_transpose 11007.28 11007.28 -D P=16
makespan fft_transpose 11007.28 -D P=16
# P = 4: local_fft(2^18) = 5 * 262144 * 18 ns = 23592.96; 16 N / 16 = 2^20 bytes: msg =
#   2 + 524.288 = 526.288, 3 per worker.
#   T_lo = 47185.92 + 3 * 526.288 = 48764.784; T_hi = 47185.92 + 12 * 526.288 = 53501.376 by the
#   contract's rules, = T_lo in lockstep
bounds fft_transpose 48764.784 48764.784 -D P=4
makespan fft_transpose 48764.784 -D P=4

# --- tree_reduce.pam -----------------------------------------------------------------------------
# net = fcfs(8), msg(8) = 2.004, each combine then waits 1 ns: a branch of a level is 2.005.
# P = 16: compute ceil(10^6/16) = 62500 ns = 62.5; levels l = 0..3 with 8, 4, 2, 1 branches,
# never more than the 8 links.
#   T_lo = 62.5 + 4 * 2.005 = 70.52
#   T_hi = 62.5 + sum over levels of (2.005 + (m_l - 1) * 2.004 / 8) = 62.5 + 8.02 + 11 * 0.2505
#        = 73.2755 by the contract's rules; no level has more branches than net's 8 servers, so
#        none queues (docs/reduction.md, no queue when m >= n): T_hi = 70.52
#   Schedule: no level waits: 62.5 + 4 * 2.005 = 70.52.
bounds tree_reduce 70.52 70.52 -D P=16
makespan tree_reduce 70.52 -D P=16
# P = 2: compute 500; one level with one branch: T_lo = T_hi = 500 + 2.005 = 502.005.
bounds tree_reduce 502.005 502.005 -D P=2
makespan tree_reduce 502.005 -D P=2

# --- pipeline.pam --------------------------------------------------------------------------------
# A stage is 10000 ns = 10; between stages msg(4 KiB) = 2 + 2.048 = 4.048 on the one link.
# items = 100, S = 4: item k starts at 10 k, runs 4 stages and 3 link uses.
#   phi = 10 * 99 + 4 * 10 + 3 * 4.048 = 1042.144; link demand 100 * 3 * 4.048 = 1214.4;
#   a stage member 100 * 10 = 1000.
#   T_lo = max(1042.144, 1214.4, 1000) = 1214.4
#   T_hi = max over k of (phi_k + the others' demand): the last item, 1042.144, waits for the
#          other 99 items at the stages (99 * 10 each, 4 stages: 3960) and on the link
#          (99 * 12.144 = 1202.256): 1042.144 + 3960 + 1202.256 = 6204.4
bounds pipeline 1214.4 6204.4 -D items=100 -D S=4
# items = 1, S = 3: one item, no contention: 3 * 10 + 2 * 4.048 = 38.096 both ways.
bounds pipeline 38.096 38.096 -D items=1 -D S=3
makespan pipeline 38.096 -D items=1 -D S=3

# --- lu.pam --------------------------------------------------------------------------------------
# nb = 256: a pivot factorisation is 2/3 * 256^3 ns = 11184.810666..., a trailing block update
# 2 * 256^3 ns = 33554.432; the pivot row of step j is msg(8 * 256 * 256 * (n/nb - j - 1)).
# n = 512, P = 1: steps j = 0, 1.
#   j = 0: pivot 11184.8107, msg(524288) = 2 + 262.144 = 264.144, one block update 33554.432
#   j = 1: pivot 11184.8107, msg(0) = 2, no update
#   all in sequence: T_lo = 2 * 11184.810666... + 264.144 + 2 + 33554.432 = 56190.19733...
#   (T_hi bounds the sum of ceil(.) by its largest term: asserted >= the same value)
#   Schedule: the same sequence, 56190.19733...
bounds lu 56190.197333333 - -D n=512 -D P=1
hi=$("$PAMC" predict models/lu.pam -m $M -D n=512 -D P=1 --format csv | tail -1 | awk -F, '{ print $(NF-2) }')
at_least "$hi" 56190.197333333 || die "lu n=512 P=1: T_hi = $hi s below the exact time"
makespan lu 56190.197333333 -D n=512 -D P=1

exit $fail
