#!/bin/sh
# tight_idioms.sh — the idioms of bench/tight (issue 15) against the simulator at a few sizes:
# the simulated time inside [lo, hi], hi / sim <= 2, |est - sim| / sim <= 5%; and hand-derived
# values of the rules of docs/reduction.md ("Pars whose branches are the same chain", "Consts
# derived from params").
set -u
die() { echo "tight_idioms.sh: $*"; exit 1; }
# |a - b| <= 1e-9 |b|
close() { awk -v a="$1" -v b="$2" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= 1e-9 * (b < 0 ? -b : b)) }'; }
# predict's lo, est, hi at NAME=VALUE (columns 2-4 of the csv row: the one -D name first)
bounds() { "$PAMC" predict "$1" -D "$2" --format csv 2>/dev/null | sed -n 2p | awk -F, '{ print $2, $3, $4 }'; }
sim() { "$PAMC" simulate "$1" -D "$2" --format csv | sed -n 2p | cut -d, -f2; }
# exact MODEL NAME=VALUE T WHAT: lo = hi = T (s)
exact() {
  set -- "$1" "$2" "$3" "$4" $(bounds "$1" "$2")
  close "$5" "$3" || die "$4 lo $5, want $3 s"
  close "$7" "$3" || die "$4 hi $7, want $3 s"
}

# lo_is MODEL NAME=VALUE T WHAT: lo = T (s)
lo_is() {
  set -- "$1" "$2" "$3" "$4" $(bounds "$1" "$2")
  close "$5" "$3" || die "$4 lo $5, want $3 s"
}

for model in bench/tight/*.pam; do
  param=$(sed -n 's/^param \([A-Za-z_]*\).*/\1/p' "$model" | head -1)
  least=$(sed -n 's/^param [A-Za-z_]* = [0-9]* in \([0-9]*\) \.\..*/\1/p' "$model" | head -1)
  for v in 1 2 3 7 16; do
    [ -n "$least" ] && [ "$v" -lt "$least" ] && continue   # below the range the model declares
    b=$(bounds "$model" "$param=$v") || die "$model $param=$v: predict failed"
    s=$(sim "$model" "$param=$v") || die "$model $param=$v: simulate failed"
    echo "$b $s" | awk -v m="$model $param=$v" '{ lo = $1; est = $2; hi = $3; s = $4;
      if (s < lo * (1 - 1e-9) || s > hi * (1 + 1e-9)) { print m ": sim " s " outside [" lo ", " hi "]"; exit 1 }
      if (s > 0 && hi > 2 * s * (1 + 1e-9)) { print m ": hi/sim " hi / s " > 2"; exit 1 }
      d = est - s; if (d < 0) d = -d
      if (s > 0 && d > 0.05 * s) { print m ": |est - sim| / sim " d / s " > 5%"; exit 1 } }' || exit 1
  done
done

# Pipeline, M = 100 items through S = 64 stages of 10us: lo = hi = (S + M - 1) t = 1.63 ms.
exact bench/tight/pipeline_stages.pam S=64 1.63e-3 "pipeline"
# M = 1000 items through a loader (1us), 4 servers of 4us and a store (1us): each step of the
# tandem line's lattice path within the wide stage takes 4 requests for 4us, so hi = 6 + 999 * 1 us
# = 1005 us, the simulated time (before: 3000 us).
set -- $(bounds bench/tight/pipeline_wide.pam M=1000)
close "$3" 1005e-6 || die "pipeline with a wide stage hi $3, want 1005 us"
# A pipeline per rank over one flat family, S = 64 stages p * S + s of 5us, M = 32 chunks, P = 4
# ranks, then 2us + 409.6 ns to the next rank's nic: each rank runs as alone (docs/reduction.md,
# "Branches on members of their own"), (S + M - 1) 5us + 2.4096 us = 477.4096 us (before: hi 40.96 ms).
exact bench/tight/pipeline_per_rank.pam S=64 477.4096e-6 "pipeline per rank"
# Ring, P = 64: 10 steps of ceil(10^6 / 64) ns + 2 * 5us, no waits: lo = hi = 256.25 us.
exact bench/tight/ring_exchange.pam P=64 256.25e-6 "ring"
# Grid with two indices, Q = 10: 5 steps of 410^2 ns + 4 * (2us + 3280 * 0.5ns), no waits.
set -- $(bounds bench/tight/grid2d_exchange.pam Q=10)
close "$3" "$(awk 'BEGIN { printf "%.17g", 5 * (168100e-9 + 4 * (2e-6 + 3280 * 0.5e-9)) }')" || die "grid2d hi $3"
# All-to-all, P = 100: 99 rounds of 2us + 655.36 bytes * 0.5 ns, to distinct ports.
set -- $(bounds bench/tight/alltoall.pam P=100)
close "$3" "$(awk 'BEGIN { printf "%.17g", 99 * (2e-6 + 65536 / 100 * 0.5e-9) }')" || die "alltoall hi $3"
# Threads, T = 7 on 4 cores: 1us spawn + ceil(7 / 4) * 1 ms, both bounds.
exact bench/tight/threads_fcfs.pam T=7 2.001e-3 "threads"
# ps: the ceil term does not hold (7 threads of 1 ms on ps(4) take 7/4 ms): lo = 1.75 ms.
set -- $(bounds bench/tight/threads_ps.pam T=7)
close "$1" 1.75e-3 || die "threads on ps lo $1, want 1.75 ms"
# Tree reduction, P = 16: 4 levels, the receivers k * 2^(l+1) distinct in each: hi = 4 * 2.5us.
set -- $(bounds bench/tight/tree_reduce.pam P=16)
close "$3" 10e-6 || die "tree reduction hi $3, want 10 us"
# Threads dealt round robin, T = 10 on core[t % 4]: the busiest core runs ceil(10 / 4) = 3 threads
# of 1 ms, all ready at 0: lo = hi = 3 ms (the family as one resource gave hi = 10 ms).
exact bench/tight/threads_dealt.pam T=10 3e-3 "threads dealt"
# Ring written with an if, P = 100: 10 steps of 20us + 2 * 5us to distinct members: lo = hi = 300 us.
exact bench/tight/ring_if.pam P=100 3e-4 "ring with if"
# Block rows then a bus, P = 100, N = 1000: 10 rows of 10us, then 100 messages of 2us queue at
# the bus: lo = hi = 100us + 200us = 300 us.
exact bench/tight/block_loop.pam P=100 3e-4 "block loop"
# Ring with the two sends at once (`||`), P = 64: each nic member gets a message from p - 1 and
# one from p + 1 at the same instant and serves them one after the other: 10 steps of 15.625us +
# 2 * 5us, lo = hi = 256.25 us (docs/reduction.md, "Pars whose branches send at once"; before:
# lo 206.25 us, hi 6.76 ms).
exact bench/tight/ring_par.pam P=64 256.25e-6 "ring with ||"
# P = 2: both sends of worker 1 go to member 0, worker 0's to member 1: 10 * (500 + 2 * 5) us.
exact bench/tight/ring_par.pam P=2 5.1e-3 "ring with || at P = 2"
# The same with the sends written `par (d = 0, 1)` over the directions: 2 copies of one site.
exact bench/tight/ring_par_dirs.pam P=64 256.25e-6 "ring with par over directions"
# Overlapped with the interior update (cpu[p] in the fork, then again for 2 boundary points: one
# client of cpu, docs/reduction.md): P = 64, 10 * max(15623 ns, 2 * 5 us) + 10 * 2 ns = 156.25 us;
# P = 1000, 10 * (2 * 5 us + 2 ns) = 100.02 us (before: hi 312.5 us and 110 us).
exact bench/tight/ring_overlap.pam P=64 156.25e-6 "overlapped ring"
exact bench/tight/ring_overlap.pam P=1000 100.02e-6 "overlapped ring at P = 1000"
# Two messages at once on one bus, P = 8: the bus gets 16 requests after 125 us of compute,
# 8 * (1.064 + 2.024) us of work: 10 * (125 + 24.704) = 1497.04 us (before: [1280.88, 2767.28] us).
exact bench/tight/bus_par.pam P=8 1497.04e-6 "two messages on a bus"
# Unequal messages, P = 64: 9.192us to the right, 1.064us to the left, served one after the other
# at each member: 10 * (15.625 + 9.192 + 1.064) = 258.81 us.
exact bench/tight/ring_par_unequal.pam P=64 258.81e-6 "unequal ring"
# Grid with four sends at once, Q = 8: 5 * (512^2 ns + 4 * (2us + 4096 * 0.5ns)) = 1391.68 us.
exact bench/tight/grid_par.pam Q=8 1391.68e-6 "grid with ||"
# The ring without a barrier (docs/reduction.md, "Branches that run their own steps"): shifts
# +1 and -1, D = 2; delta = iter = c + 5us, Y_hi = c + 10us, Delta = 5us per step in step.
# P = 64, c = 15.625us: h = floor(31 / 2) = 15 hops, K = min(10, ceil(15 * 20.625 / 25.625)) = 10:
# lo = 10 * 25.625 = 256.25 us = hi (the previous section's rule alone: 211.25 us).
exact bench/tight/ring_par_drift.pam P=64 256.25e-6 "drifting ring"
# P = 24, c = 41.667us: h = floor(11 / 2) = 5, K = ceil(5 * 46.667 / 51.667) = 5 of 10 steps:
# lo = 10 * 46.667 + 5 * 5 = 491.67 us (simulated 516.67 us).
set -- $(bounds bench/tight/ring_par_drift.pam P=24)
close "$1" "$(awk 'BEGIN { printf "%.17g", 10 * (41667e-9 + 5e-6) + 5 * 5e-6 }')" || die "drifting ring P = 24 lo $1"
# P = 8, c = 125us: h = floor(3 / 2) = 1, K = ceil(130 / 135) = 1: lo = 10 * 130 + 5 = 1305 us
# (simulated 1315 us: the workers next to the wrap get ahead within a step or two).
set -- $(bounds bench/tight/ring_par_drift.pam P=8)
close "$1" 1305e-6 || die "drifting ring P = 8 lo $1, want 1305 us"
# The same ring written with `if (p == P - 1) nic[0] else nic[p + 1]` and its mirror: shifts +1
# and -1 read from the pieces, the same bound: 256.25 us at P = 64.
exact bench/tight/ring_if_drift.pam P=64 256.25e-6 "drifting ring written with if"
# A Q x Q grid without a barrier, four sends at once: D = 2Q. Q = 32: c = 16.384us, t = 2.512us,
# h = floor(511 / 64) = 7, K = min(5, ceil(7 * 18.896 / 26.432)) = 5: lo = 5 * (c + 4t) = 132.16 us = hi.
exact bench/tight/grid_par_drift.pam Q=32 132.16e-6 "drifting grid"
# Line without wrap, the two sends at once under `if (p > 0)` / `if (p < P - 1)`, P = 64: member q
# in 1 .. 62 gets the messages of q - 1 and q + 1 at one instant (docs/reduction.md, "Sides
# walked apart": a member counted), and a member has 2 clients: lo = hi = 10 * (15.625 + 2 * 5) us
# (before: [206.25 us, 6.66 ms]).
exact bench/tight/line_par.pam P=64 256.25e-6 "line with ||"
# The same one message after the other, odd workers 30 us of work, even 20 us, P = 64: lo = the
# odd worker's contention-free time 10 * (30 + 2 * 2) = 340 us; hi: each message waits for at most
# the one other client of its member, 10 * (30 + 2 * (2 + 2)) = 380 us (before: 2.82 ms).
set -- $(bounds bench/tight/line_chain.pam P=64)
close "$1" 340e-6 || die "line chain lo $1, want 340 us"
close "$3" 380e-6 || die "line chain hi $3, want 380 us"
# The same with the sends first and 5 us of work after, all ranks alike, P = 16: rank 0's first
# send meets rank 2's at nic[1] (rank 0 first in program order), rank 2 then sends right at 4 us:
# lo = 10 * (3 * 2 + 5) = 110 us, the simulated time (before: 10 * (2 * 2 + 5) = 90 us); hi: each
# message waits for at most the one other client of its member, 10 * (2 * (2 + 2) + 5) = 130 us.
set -- $(bounds bench/tight/line_guarded.pam P=16)
close "$1" 110e-6 || die "guarded line lo $1, want 110 us"
close "$3" 130e-6 || die "guarded line hi $3, want 130 us"
# Grid without wrap, Q = 16: an interior cell's nic gets 4 messages at once after 20 us of work,
# and has 4 clients: lo = hi = 5 * (20 + 4 * 2) us = 140 us (before: [110 us, 9.81 ms]).
exact bench/tight/grid_edge.pam Q=16 140e-6 "grid without wrap"
# A root that works more, P = 64: the 63 reports of 1 us reach the root's queue after 20 us of
# work: lo = 5 * (20 + 63) = 415 us; hi: a report waits for at most the other clients of the queue
# (P sites counted, 63 us), 5 * (20 + 1 + 63) us = 420 us (before: [315 us, 6.45 ms]). P = 8: the
# root's 30 us is the longest, lo = hi = 150 us.
set -- $(bounds bench/tight/root_work.pam P=64)
close "$1" 415e-6 || die "root work lo $1, want 415 us"
close "$3" 420e-6 || die "root work hi $3, want 420 us"
exact bench/tight/root_work.pam P=8 150e-6 "root work at P = 8"
# The grid without wrap written with two indices, par (x) par (y), Q = 16: each sends to distinct
# members under its `if`s (one-to-one in the pair over all cells, so over those that send), 4
# clients per member: hi = 5 * (20 + 4 * 2) us = 140 us, the simulated time (before: 9.71 ms).
# (Its lo, 120 us, has no counted member yet: the counted rule reads one index.)
set -- $(bounds tests/models/reduce/grid2_edge.pam Q=16)
close "$3" 140e-6 || die "grid without wrap, two indices: hi $3, want 140 us"
# Remainders on shared cores, N = 7 tasks over 8 workers: the 7 workers with a task of 1 us (the
# `if` side that w < 7 runs) meet at 4 cores: lo = hi = ceil(7 / 4) * 1 us = 2 us (before: lo
# 1.75 us, the cores' load).
exact bench/tight/remainder_cores.pam N=7 2e-6 "remainder on cores"
# Master/worker in rounds, P = 100: the master gets 99 * 2 requests of 1us, none before 0, and the
# worker whose request ends last still computes 20us: lo = 198 + 20 = 218 us, the simulated time
# (per round alone: 99 + 20 + 21 = 140 us; the master's demand alone: 198 us).
set -- $(bounds bench/tight/master_rounds.pam P=100)
close "$1" 218e-6 || die "master rounds lo $1, want 218 us"
# The same with P left symbolic (its default 100): the rule's term keeps its closed form where the
# par's range may be empty (it fell back to 198 us when the least over the rounds was a big operator).
lo=$("$PAMC" predict bench/tight/master_rounds.pam --format csv 2>/dev/null | sed -n 2p | cut -d, -f1)
close "$lo" 218e-6 || die "master rounds at the default P lo $lo, want 218 us"
# Consts derived from params follow -D: chunk = ceil(10^6 / 7) ns = 142.858 us at P = 7.
set -- $(bounds bench/tight/derived_consts.pam P=7)
s=$(sim bench/tight/derived_consts.pam P=7)
close "$1" "$s" || die "derived consts lo $1, simulated $s"
# Threads that take a lock (docs/reduction.md, "Held resources in a chain", "Threads meeting at a
# lock"); each hand value is the simulated time where it says so.
# lock_at NAME=VALUE MODEL WANT WHAT [sim]: lo = WANT (s), and the simulated time too with "sim"
lock_at() {
  set -- "$1" "$2" "$3" "$4" "${5:-}" $(bounds "$2" "$1")
  close "$6" "$3" || die "$4 lo $6, want $3 s"
  if [ "$5" = sim ]; then close "$(sim "$2" "$1")" "$3" || die "$4 simulated $(sim "$2" "$1"), want $3 s"; fi
}
# threads_lock, T = 2 threads on 2 cores, 4 rounds of 4 us of work then 0.8 us under the mutex:
# both reach the mutex at 4 us, the second waits 0.8 us, and they never meet again:
# 4 (4 + 0.8) + 0.8 = 20 us (before: 19.2 us, the contention-free time).
lock_at T=2 bench/tight/threads_lock.pam 20e-6 "threads with a mutex at T = 2" sim
# T = 3: 12 requests of 4 us on 2 cores, then the last one's 0.8 us under the mutex: 24.8 us
# (before: the cores' load, 24 us; simulated 25.6 us).
lock_at T=3 bench/tight/threads_lock.pam 24.8e-6 "threads with a mutex at T = 3"
# lock_handoff, T = 8 threads on 8 cores: all reach the lock at 5 us, 8 holds of 1.5 us, 7 of
# them handed on in 1 us, then 2 us: 5 + 8 * 1.5 + 7 * 1 + 2 = 26 us (before: 19 us).
lock_at T=8 bench/tight/lock_handoff.pam 26e-6 "lock with hand-offs at T = 8" sim
# T = 100: the cores let 8 threads go every 5 us, the lock takes 2.5 us a holder, and
# 5 < 8 * 2.5 - 1: it never idles: 5 + 100 * 1.5 + 99 * 1 + 2 = 256 us (before: 157 us).
lock_at T=100 bench/tight/lock_handoff.pam 256e-6 "lock with hand-offs at T = 100" sim
# lock_ps, T = 8 threads on ps(4): 2 us of reading, then 8 requests of 6 us share 4 cores: none
# ends before 2 + 2 * 6 us; then 8 logs of 1 us one after another: 22 us (before: 16 us).
lock_at T=8 bench/tight/lock_ps.pam 22e-6 "log lock after ps cores at T = 8" sim
lock_at T=1000 bench/tight/lock_ps.pam 2502e-6 "log lock after ps cores at T = 1000" sim
# lock_ps_crit, T = 100 threads on ps(4), 4 rounds of 6 us of work then 2 us of update on the
# cores under the mutex (hand-off 1 us): the first work ends together at 100 * 6 / 4 = 150 us; a
# released thread is back within 6 * 100 / 4 us (all present on the cores) < 99 * 3 us, so every
# release hands the lock on: 150 + 400 * 2 + 399 * 1 = 1349 us (before: 806 us, the
# cores' load and a last update; docs/reduction.md, "A lock kept busy over rounds").
lock_at T=100 bench/tight/lock_ps_crit.pam 1349e-6 "update on the cores under a mutex at T = 100" sim
# T = 7: the upper bound of a lock kept busy, the update at its longest, 2 * 7 / 4 us (seven present
# at most): 7 * 6 / 4 + 28 * 3.5 + 27 * 1 = 135.5 us (before: the waits summed, 156 us).
set -- $(bounds bench/tight/lock_ps_crit.pam T=7)
close "$3" 135.5e-6 || die "lock_ps_crit hi $3, want 135.5 us"
# lock_fork, T = 100 threads on ps(2), 3 rounds of 5 us of work, then a commit under the mutex
# (hand-off 2 us) writing the disk (3 us) and the network (4 us) at once, both requested nowhere
# else: 4 us a commit. The first work ends at 100 * 5 / 2 = 250 us, the trip back (250 us at most)
# is below 99 * 6 us, and the lock is kept busy: 250 + 300 * 4 + 299 * 2 = 2048 us, both bounds
# (before: lo 1200 us, the body not read; hi 4683 us).
exact bench/tight/lock_fork.pam T=100 2048e-6 "commit to disk and net under a mutex at T = 100"
# lock_pool, T = 7 requests on a pool of 4 connections (hand-off 2 us): four share the ps(2) db
# (16 us), wait 4 us and release at 20 us; the other three are handed connections at 22 us, share
# the db (12 us) and end at 38 us: 0 + (20 + 2) + (12 + 4) = 38 us (before: the db's load, 28 us).
lock_at T=7 bench/tight/lock_pool.pam 38e-6 "queries on a pool of connections at T = 7" sim
# lock_spaced, T = 16 requests every 4 us, each holding the table's lock 1.5 us then replying
# 0.5 us: each finds the lock free (released 2.5 us before), no wake-up is paid: 15 * 4 + 2 = 62 us,
# both bounds (before: hi 132.5 us, the lock's load with its wake-ups).
exact bench/tight/lock_spaced.pam T=16 62e-6 "requests spaced apart at a mutex, T = 16"
# lock_log, T = 100: the disk is only written under the log's lock, so it never queues (docs/
# reduction.md, "A resource kept by a lock"): hi = 7 us alone + 99 * 5 / 4 us behind the others
# at the cores + 99 * 2 us behind the others' holds = 328.75 us (before: + 99 * 1.5 us at the
# disk, 477.25 us; simulated 205 us, the lower bound: 4 + 100 * 2 + 1).
set -- $(bounds bench/tight/lock_log.pam T=100)
close "$3" 328.75e-6 || die "lock_log hi $3, want 328.75 us"
lock_at T=100 bench/tight/lock_log.pam 205e-6 "log written under its lock at T = 100" sim
# Tasks dealt in blocks, cpu[floor(i / ceil(N / P))], P = 10, N = 1000: blocks of 100 tasks; each
# of 2 rounds is 2us of spawn then 100 tasks of 1us one after the other on a cpu: lo = hi = 204 us
# (docs/reduction.md, "Members dealt in blocks"; before: [200 us, 2.004 ms]).
exact bench/tight/block_tasks.pam P=10 204e-6 "tasks dealt in blocks"
# P = 3: blocks of 334, the last of 332: 2 * (2 + 334) us.
exact bench/tight/block_tasks.pam P=3 672e-6 "tasks dealt in blocks at P = 3"
# Ranks on nodes of 4, node[floor(p / 4)] = fcfs(4), then nic[floor(p / 4)], P = 10 (the last node
# has 2): no rank waits for a core, 4 messages of 2us queue at a nic: 3 * (10 + 4 * 2) = 54 us
# (before: [36 us, 76.5 us]).
exact bench/tight/block_nodes.pam P=10 54e-6 "ranks on nodes"
# P = 2: one node of 2 ranks: 3 * (10 + 2 * 2) = 42 us.
exact bench/tight/block_nodes.pam P=2 42e-6 "ranks on one node"
# The same with the message at once with a disk write (3us), then an ack (1us), P = 8: the disk of
# a node serves 4 writes after 10us, then the ack: lo = 3 * (10 + 4 * 3 + 1) = 69 us; the nic has
# 4 clients (a block of 4 branches, its sites one after the other), each request waits at most
# min(3 * 2, 8 - t) us, a write at most 9 us: hi = 3 * (10 + max(2 + 6, 3 + 9) + 1 + 6) = 87 us
# (before: [42 us, 144 us]).
set -- $(bounds bench/tight/block_nodes_par.pam P=8)
close "$1" 69e-6 || die "nodes with || lo $1, want 69 us"
close "$3" 87e-6 || die "nodes with || hi $3, want 87 us"
# Four ranks to a node of 2 cores (fcfs(2)), then the node's nic, P = 8: two ranks of a node leave
# the cores at 10us, two at 20us, and those two queue at the nic: lo = 3 * (2 * 10 + 2 * 2) = 72 us,
# the simulated time (docs/reduction.md, "two stages in a row"; one stage at a time: 66 us).
set -- $(bounds bench/tight/block_nodes_shared.pam P=8)
close "$1" 72e-6 || die "ranks on shared cores lo $1, want 72 us"
# Processor sharing in a par (docs/reduction.md). Ring over ps(1) links, P = 64: every link carries
# the send from the left and the one to the right at once, 2 * 4us: lo = hi = 5 * (10 + 8) = 90 us
# (before: [70 us, 2.63 ms]).
exact bench/tight/ring_ps.pam P=64 90e-6 "ring on ps links"
# The same without a barrier, P = 100: the links drain both sends of each step together:
# 4 * (6 + 2 * 3) = 48 us.
exact bench/tight/ring_ps_drift.pam P=100 48e-6 "ring on ps links, own steps"
# 7 threads in rounds on ps(4): 4 rounds of 5us * 7 / 4 + 3us = 47 us (before: lo 35 us).
exact bench/tight/threads_ps_loop.pam T=7 47e-6 "threads in rounds on ps"
# 5us of compute, then rank 0 with 6us and 7 ranks with 2us on ps(3), P = 8: all 8 drain the first
# 2us at 3/8 each (16/3 us), rank 0 its last 4us alone: 4 * (5 + 16 / 3 + 4) us (before: lo
# 44 us).
exact bench/tight/bsp_ps_heavy.pam P=8 "$(awk 'BEGIN { printf "%.17g", 4 * (5 + 16 / 3 + 4) * 1e-6 }')" "heavy rank on ps"
# A pool of 5 threads in a process, 3 rounds then 1 round of 4us on ps(2) and 1us of its own:
# 4 rounds of 4 * 5 / 2 + 1 = 11 us, 44 us (a process called alone: the lock step holds in it;
# before: lo 40 us).
exact bench/tight/threads_ps_proc.pam T=5 44e-6 "thread pool in a process"
# Tasks 1, 2, 3, 4, 1, 2, 3 us on ps(2), T = 7: levels 1us with 7 present (3.5us), 5 (2.5us),
# 3 (1.5us), 1 (1us): 8.5 us (before: lo 8 us).
exact bench/tight/uneven_ps.pam T=7 8.5e-6 "uneven tasks on ps"
# 30 items every 1.5us through S = 64 stages of 1us, the last one (2us) written after the loop:
# the last stage gets item m at 63 + 1.5 m us and serves 2us each, so it ends at 63 + 30 * 2 =
# 123 us (lo, the simulated time); the tandem line gives the slowest item's free time
# 43.5 + 63 + 2 = 108.5 us plus 29 waits of 2us: hi = 166.5 us (before: the family as one
# resource, 1.99 ms).
set -- $(bounds bench/tight/pipeline_last.pam S=64)
close "$1" 123e-6 || die "pipeline with its last stage after the loop lo $1, want 123 us"
close "$3" 166.5e-6 || die "pipeline with its last stage after the loop hi $3, want 166.5 us"
# 20 records through S = 4 stages, the header 5us at each and the others 1us: the header leaves the
# last stage at 20us and the 19 others queue behind it there, 19us: 39 us exactly (docs/reduction.md,
# "a proportionate line": sum t + (S - 1) max t; before: lo 27us, hi 96us).
exact bench/tight/pipeline_header.pam S=4 39e-6 "pipeline with a header record"
# Even threads 10us, odd 20us (`t % 2 == 0 ? 1 : 2`) on ps(4), T = 7: all 7 drain the first 10us
# at 4/7 each (17.5us), the 3 long ones their last 10us at rate 1: 27.5 us (before: lo 25 us).
exact bench/tight/threads_ps_two.pam T=7 27.5e-6 "two kinds of threads on ps"
# 1000 tasks over 7 threads on ps(4): 6 threads of 143us, one of 142us: the work over 4 cores,
# 250 us.
exact bench/tight/remainder_ps.pam T=7 250e-6 "remainder on ps"
# A root that scatters through its nic, then gathers through it again, P = 4, N = 200000: the 4
# scatters of 2us + 400000 B * 0.5ns = 202us queue at the root's nic, and the rank served last still
# computes 50000 * 4ns = 200us, swaps boundaries (2.064us) and sends its result (2.008us):
# lo = 808 + 200 + 2.064 + 2.008 = 1012.072 us, the simulated time (docs/reduction.md, "a stage
# used again"; before: 816.032 us, the nic's two uses read as one group).
set -- $(bounds bench/tight/scatter_halo.pam P=4)
close "$1" 1012.072e-6 || die "scatter and gather lo $1, want 1012.072 us"
# The same at P = 1000 (scatter 2 + 8 * 200 * 0.5ns = 2.8us, compute 0.8us): the root's nic waits
# at most its whole demand, 1000 (2.8 + 2.008) us, once for both of a rank's uses, each halo at most
# the other 2.064us: hi = 2.8 + 0.8 + 2.064 + 2.008 + 2.064 + 4808 = 4817.736 us, for 4808 us
# simulated ("a resource's waits capped by its demand"; before: 8943.672 us, the demand twice).
set -- $(bounds bench/tight/scatter_halo.pam P=1000)
close "$3" 4817.736e-6 || die "scatter and gather hi $3, want 4817.736 us"
# Master/worker in ceil(240 / P) rounds through a task queue (1us), own cpu (12us) and a collector
# (0.5us), iter = 13.5us ("Rounds through single-server stages"): at P = 8, R = 30, the first
# round's queue and then none: 30 * 13.5 + 7 * 1 = 412 us; at P = 24, R = 10, the queue sets the
# pace: 240 requests one after another, then 12.5us: 252.5 us. Both the simulated times
# (before: hi 720 us and 480 us).
exact bench/tight/master_queue.pam P=8 412e-6 "master queue in rounds, P = 8"
exact bench/tight/master_queue.pam P=24 252.5e-6 "master queue in rounds, P = 24"
# N = 300 tasks dealt with remainders over P - 1 = 63 workers (repeat (floor(N / (P - 1)) + ...)):
# the master serves all 300 fetches of 0.5us, none before 0, and the worker served last still
# computes 12us: lo = 150 + 12 = 162 us, the simulated time ("a stage in a loop whose count
# depends on the branch"; before: 150 us).
set -- $(bounds bench/tight/master_remainder.pam P=64)
close "$1" 162e-6 || die "master with remainders lo $1, want 162 us"
# The same with P left free in the reduction (a sweep): the count of fetches, the sum over w of
# floor(N / (P - 1)) + (w <= N % (P - 1) ? 1 : 0), closes to N = 300 (the comparison inside the
# repeat's guard split the range), so the rule keeps its term: 162 us at P = 64 and 100 (before:
# 150 us, the master's load).
for row in $("$PAMC" predict bench/tight/master_remainder.pam -D P=64,100 --format csv -q | sed -n '2,3p' | cut -d, -f2); do
  close "$row" 162e-6 || die "master with remainders, P swept: lo $row, want 162 us"
done
# Remainders on shared cores, the larger requests first, FCFS in index order (docs/reduction.md,
# "sizes in two runs"). N = 10 tasks over 8 workers on 4 cores: sizes 2, 2, 1, 1 start at 0; the
# 1-unit tasks 5 and 6 at 1 (where 3 and 4 end), 7 and 8 at 2: 3 us (before: 2.5 us, the load).
# N = 17: 3, 2, 2, 2 at 0; three 2s at 2, the last at 3 (where the 3 ends): 5 us (before: 4.25 us).
lo_is bench/tight/remainder_cores.pam N=10 3e-6 "remainder on cores, N = 10:"
lo_is bench/tight/remainder_cores.pam N=17 5e-6 "remainder on cores, N = 17:"
# The same written in the duration, N = 30 over P = 7 after a 2us start-up, then a 0.5us report:
# sizes 5, 5, 4, 4 start at 2us; two 4s at 6 (where the 4s end), the last 4 at 7 (where a 5
# ends): 11 + 0.5 = 11.5 us (before: 10.5 us).
lo_is bench/tight/remainder_expr.pam P=7 11.5e-6 "remainders in the duration, P = 7:"
# Blocks of ceil(30 / 7) = 5 tasks over 7 workers on 4 cores: six blocks of 5 and an empty one;
# four at 0, two at 5: 10 us (before: 7.5 us, the load; the short block is read as the second run).
exact bench/tight/block_pool.pam P=7 10e-6 "blocks on cores, P = 7"
# A red/black torus, Q = 8: red cells compute 6us, pack 3us on their nic (6 .. 9), and send 1.5us
# halos to black nics (done by 12); black cells compute 12us, pack 12 .. 15 and send to the red
# nics below and to the right: each red nic gets its two halos at 15 and serves them one after
# the other: lo = 15 + 2 * 1.5 = 18 us, the simulated time (docs/reduction.md, "a member of a grid
# counted": the subset of the late requests; before: 16.5 us, the critical path).
set -- $(bounds bench/tight/checker_grid.pam Q=8)
close "$1" 18e-6 || die "checkerboard lo $1, want 18 us"
# Q = 1: one red cell, its pack and both halos on its own nic: lo = 6 + 3 + 2 * 1.5 = 12 us, the
# simulated time (a loop over one value binds its index: the three members are nic[0]; before:
# lo 10.5 us).
set -- $(bounds bench/tight/checker_grid.pam Q=1)
close "$1" 12e-6 || die "checkerboard at Q = 1 lo $1, want 12 us"
# A red/black torus whose red halos outlast the black cells' compute, Q = 8 (bench/tight/
# checker_late.pam): a red cell computes 4us and packs 4 .. 6 on its nic (the black halos to it
# leave at 8 + 2 = 10us at the earliest: nothing is there before it), so its halos reach the black
# nics above and to the left at 6us exactly, and each black nic serves two of them 6 .. 8 .. 10;
# the black cell's own pack arrives at 8, behind them (FCFS), and runs 10 .. 12; its halos reach
# the red nics at 12 and a red nic that gets two ends at 16: lo = est = 16 us, the simulated time
# (docs/reduction.md, "requests known ahead"; before: 14 us, the heads alone). Q = 3: the cell next
# to the wrap, (0, 0), gets two late halos: 16 us too.
for q in 8 3; do
  set -- $(bounds bench/tight/checker_late.pam Q=$q)
  close "$1" 16e-6 || die "checkerboard, halos late, Q = $q: lo $1, want 16 us"
  close "$2" 16e-6 || die "checkerboard, halos late, Q = $q: est $2, want 16 us"
done
# The same at Q = 2000 (4 * 10^6 cells): the largest compute, max over i and j of
# (1 + (i + j) % 2) * 4us, is 8us in closed form (a body periodic in the index), not an enclosure
# of the walk beyond 10^6 cells, [4us, 12us]: lo = est = 16 us (before: lo 14 us, est 16 us the
# middle of [14 us, 18 us]; the rule above alone: est 17 us, the middle of [16 us, 18 us]).
big=$(mktemp /tmp/tight_idioms.XXXXXX.pam) || die "mktemp"
sed 's/in 1 \.\. 1000;/in 1 .. 100000;/' bench/tight/checker_late.pam > "$big"
set -- $(bounds "$big" Q=2000)
rm -f "$big"
close "$1" 16e-6 || die "checkerboard at Q = 2000: lo $1, want 16 us"
close "$2" 16e-6 || die "checkerboard at Q = 2000: est $2, want 16 us"
# The same numbered row by row, Q = 8 (bench/tight/checker_flat.pam, one index p, row floor(p / Q),
# column p % Q): a red cell computes 3us and packs 3 .. 6 (black halos leave at 7 + 3 = 10us at the
# earliest); its halos reach the black nics below and to the right at 6us and run 6 .. 8 .. 10;
# the black pack arrives at 7, runs 10 .. 13; a red nic serves two black halos 13 .. 17:
# lo = est = 17 us, the simulated time (the par read over the digits of p; before: 12 us).
set -- $(bounds bench/tight/checker_flat.pam Q=8)
close "$1" 17e-6 || die "checkerboard numbered row by row lo $1, want 17 us"
close "$2" 17e-6 || die "checkerboard numbered row by row est $2, want 17 us"
# Jobs of (p + 1) * 200ns submitted at once to fcfs(4), P = 7, each then waits 4 * 200ns: FCFS in
# index order deals them round robin (1 + 5, 2 + 6, 3 + 7, 4 units), the last ends at 10 units:
# lo = 2 + 0.8 = 2.8 us, the simulated time ("requests in FCFS order"; before: 2.2 us, the load).
set -- $(bounds bench/tight/pool_unequal.pam P=7)
close "$1" 2.8e-6 || die "unequal jobs on a pool lo $1, want 2.8 us"
# A gather in four waves (10 (1 + p % 4) us, messages of 1.1 .. 1.106 us), 3 rounds, P = 16: the
# last wave of 4 reaches the root at 40 us each round: lo = 3 (40 + 4 * 1.1) = 133.2 us (the
# simulated time 133.23 us; "Requests that reach a member late"; before: 3 * 41.1 = 123.3 us).
set -- $(bounds bench/tight/gather_waves.pam P=16)
close "$1" 133.2e-6 || die "gather in waves lo $1, want 133.2 us"
# The interior of a line, P = 64: each interior nic gets both sends at 10 us: lo = 4 (10 + 2) = 48
# us, the simulated time (before: 44 us: the rule counted members only with a guard).
set -- $(bounds bench/tight/line_interior.pam P=64)
close "$1" 48e-6 || die "line interior lo $1, want 48 us"
# A grid without wrap with two indices, Q = 3: the centre nic gets its 4 halos at 15 us: lo = 2 (15 +
# 4 * 2) = 46 us, the simulated time (before: 38 us: the sites' rests Q, -Q, 1, -1 kept them apart).
set -- $(bounds bench/tight/grid_open_par.pam Q=3)
close "$1" 46e-6 || die "open grid lo $1, want 46 us"
# Q x Q torus with one index, rows started at p - p % Q, Q = 16: 3 rounds of 20us of compute and
# four messages (2, 2, 3, 3 us) to distinct members each (the row shift is one-to-one: whole rows
# drop out of the remainder): lo = hi = 3 * 30 = 90 us (before: the family as one resource, hi =
# 3 * (20 + 256 * 10) us).
exact bench/tight/grid_flat_rowstart.pam Q=16 90e-6 "grid, row start p - p % Q"
# The ring over a Q x Q grid read row by row with two loops, Q = 10: (i*Q + j + c) % (Q*Q) is
# one-to-one in (i, j) (i*Q + j + c spans Q^2 - 1): 3 rounds of 10 + 3 * 2 us: lo = hi = 48 us.
exact bench/tight/grid_ring2d.pam Q=10 48e-6 "ring over a grid, two loops"
# The same torus with the row wrap written as a test on p % Q (an if, and `p % Q == 0 ? p + Q - 1 :
# p - 1`), Q = 10: 3 rounds of 20 + 4 * 2 us to distinct members: lo = hi = 84 us.
exact bench/tight/grid_flat_cond.pam Q=10 84e-6 "grid, row wrap as a test on p % Q"
# A 3 x C torus with one index, C = 100: 2 rounds of 10 + 5 * 2 us, no waits: lo = hi = 40 us.
exact bench/tight/grid_rect_flat.pam C=100 40e-6 "3 x C grid, one index"
# Halo then a tree allreduce on the own NIC, P = 16, R = 2 ceil(log2 16) = 8: each NIC gets its
# two halos (1.5us) at 10us: the `||` ends at 13 us, then 8 own uses of 1us: sim = 3 * 21 = 63 us.
# hi: a halo waits min(2 * 1.5, 1.5 + 1) = 2.5us; the own uses wait 3us in all (the budget: the
# two halo sites bring 3us to nic[p]): 3 * (10 + 1.5 + 2.5 + 8 + 3) = 75 us (before: each own use
# charged 3us, 3 * (14 + 8 * 4) = 138 us).
set -- $(bounds bench/tight/stencil_allreduce.pam P=16)
close "$3" 75e-6 || die "stencil with allreduce hi $3, want 75 us"
close "$(sim bench/tight/stencil_allreduce.pam P=16)" 63e-6 || die "stencil with allreduce sim, want 63 us"
# All-to-all with the send beside packing, P = 100: 99 rounds of max(1us pack, 1.5us send), the
# sends of a round at distinct ports and the packs on own cpus: lo = hi = 148.5 us ("All-to-all in
# rounds": lock step through `||`; before: hi 15.1 ms, the family as one resource).
exact bench/tight/alltoall_overlap.pam P=100 148.5e-6 "all-to-all beside packing"
# All-to-all on ps(1) links, P = 100: 99 rounds of 1us + 655.36 B * 0.25ns alone at a link each:
# lo = hi = 99 * 1.16384 us = 115.22016 us (lock step on ps with a member that follows the round;
# before: hi 11.5 ms).
exact bench/tight/alltoall_ps.pam P=100 "$(awk 'BEGIN { printf "%.17g", 99 * (1e-6 + 65536 / 100 * 0.25e-9) }')" "all-to-all on ps links"
# The same on ps(1) links with the pack beside, P = 100: each link drains one send of 1.5us alone
# per round, the pack on the own cpu beside it: lo = hi = 99 * 1.5 us = 148.5 us (before: hi 15.1 ms).
exact bench/tight/alltoall_ps_pack.pam P=100 148.5e-6 "all-to-all on ps links beside packing"
# T = 16 threads on fcfs(16) cores, K = 4 rounds of 3us of work then a 1us update under a mutex
# with handoff(500ns): all reach the mutex at 3us, and a thread is back 3us after its release,
# before the 15 others have been served (15 x 1.5us): every release but the last hands the mutex
# on: lo = 3 + 64 x 1 + 63 x 0.5 = 98.5 us, the simulated time (docs/reduction.md, "a lock kept
# busy over rounds"; before: 67 us, the mutex's load).
set -- $(bounds bench/tight/lock_rounds.pam T=16)
close "$1" 98.5e-6 || die "lock over rounds lo $1, want 98.5 us"
# T = 16 clients, K = 4 rounds of 2us of preparation then a 5us query on a pool of 2 connections
# with handoff(200ns): two queries start every 5.2us from 2us on (a client is back 2us after its
# release, before the 14 others ahead of it are served), 32 pairs: lo = 2 + 31 x 5.2 + 5 =
# 168.2 us, the simulated time (docs/reduction.md, "slots kept busy over rounds"; before: 160 us,
# the pool's load).
set -- $(bounds bench/tight/slots_rounds.pam T=16)
close "$1" 168.2e-6 || die "slots over rounds lo $1, want 168.2 us"
# T = 8 threads on fcfs(4) cores: 4us of work, hold (a) use(cores, 1us), hold (b) use(cores, 2us):
# the holders of a wait for a core until the second batch of work ends (8us), then a passes
# every 1us and b every 2us: lo = 8 + 1 + 8 x 2 = 25 us, the simulated time ("a request behind
# the first batch"; before: 21 us).
set -- $(bounds bench/tight/lock_pair.pam T=8)
close "$1" 25e-6 || die "two locks on the cores lo $1, want 25 us"
# T = 16 on fcfs(8) cores: 6us of work, lock a 0.5us, 1us of work, lock b 2us, 1us of work: the
# middle work waits until 8 of the 16 first pieces have ended, 12us; then 1us, the 16 holds of b
# and the last 1us: lo = 12 + 1 + 32 + 1 = 46 us, the simulated time (before: 40.5 us).
set -- $(bounds bench/tight/lock_pair_work.pam T=16)
close "$1" 46e-6 || die "two locks with work between lo $1, want 46 us"
# T = 3 threads of K = 3 rounds on ps(2) cores, 5us of work then a 1us mutex: the first work ends
# together at 7.5us, 1us at least before more work, 2 x 3 x 5us left at rate 2, a last 1us:
# lo = 7.5 + 1 + 15 + 1 = 24.5 us (simulated 25.5 us; "work left on ps after the first requests";
# before: 22.5 us, the cores' load).
set -- $(bounds bench/tight/lock_ps_rounds.pam T=3)
close "$1" 24.5e-6 || die "rounds at a lock on ps lo $1, want 24.5 us"
# T = 16 threads on fcfs(4) cores, 5us of work, then lock a 1us, then lock b 1.5us: b is the
# slowest stage and, from the first arrival at 6us, is never idle: the simulated time is
# 6 + 16 x 1.5 = 30 us; the line of stages gives hi = 7.5 + 15 x max(5 / 4, 1, 1.5) = 30 us
# (docs/reduction.md, "a line of stages"; before: 63.75 us, hi / sim 2.1).
set -- $(bounds bench/tight/lock_two.pam T=16)
close "$3" 30e-6 || die "two locks in a row hi $3, want 30 us"
# Butterfly over P = 12 ranks, partner p xor 2^s through an `if` (the upper side guarded at the
# edge): 4 steps, in each every nic gets at most one message, none waits: 4 x 4us of compute and
# 16 + 8 + 4 + 2 us of halves: lo = hi = 46 us, the simulated time ("Powers read apart"; before:
# hi 12 times that, the family as one resource).
exact bench/tight/butterfly_edges.pam P=12 46e-6 "butterfly through an if"
# The partner as one `?:` under a guard, P = 16: 4 steps of 1 + 3 us: 16 us.
exact bench/tight/butterfly_cond.pam P=16 16e-6 "butterfly through ?:"
# Recursive halving through a helper process, L = 4: step k sends 1us + 64000 / 2^(k + 1) ns to
# p +- 16 / 2^(k + 1), then works 2us: 35 + 19 + 11 + 7 = 72 us, lo = hi (before: hi with the nic
# family as one resource).
exact bench/tight/halving_helper.pam L=4 72e-6 "recursive halving through a helper"
# nic[(3p + 1) % P] at P = 12: gcd(3, 12) = 3 ranks per nic, 2 + 3 x 5 = 17 us a round, 34 us
# (before: hi 2 x (2 + 12 x 5) us, the family as one resource).
exact bench/tight/affine_map.pam P=12 34e-6 "an affine map, three ranks per member"
# Pairwise all-to-all by a fn that sums the bits of p xor k, P = 16: 15 rounds of 1 + 2 us, one
# request per member each (found one-to-one by evaluation at -D P=16): 45 us (before: hi with the
# family as one resource).
exact bench/tight/xor_alltoall.pam P=16 45e-6 "all-to-all in the xor order by a fn"
# P = 20 ranks 8 to a node (8, 8, 4): 25us of compute on the node's 8 cores, then each node's ranks
# send 2us to the previous node's nic, at most 8 there: 5 x (25 + 16) = 205 us, lo = hi ("a ring
# over the blocks"; before: lo 5 x 27 us, hi with the family as one resource).
exact bench/tight/ring_nodes.pam P=20 205e-6 "ranks on a ring of nodes"
# P = 10 ranks 3 to a node (3, 3, 3, 1), sends two nodes along: 2 x (12 + 3 x 1.5) = 33 us.
exact bench/tight/ring_nodes_rem.pam P=10 33e-6 "ranks on a ring of nodes, a short last node"
# P = 12 ranks 2 to a node, the wrap to the last node written as an `if`: 4 x (6 + 2 x 0.5) us =
# 28 us (the index `floor(p / 2) == 0 ? ceil(P / 2) - 1 : floor(p / 2) - 1` is one-to-one in the
# block: "a ring over the blocks").
exact bench/tight/ring_nodes_if.pam P=12 28e-6 "ranks on a ring of nodes, the wrap as an if"
# M = 7 records through 5 stages, records 2 and 5 skipping stage 2 (8 us; the others 1 us): the 5
# others reach it at 2 us at the earliest and run 2 us after it: lo = 2 + 5 x 8 + 2 = 44 us, the
# simulated time (the guard periodic in m: "a stage skipped under a guard periodic in k"); hi: D =
# 12 us and theta = 1 us: 12 + 6 x 1 + 4 x 7 = 46 us ("a tandem line some items skip"; before: lo
# 13.6 us, hi 68 us).
set -- $(bounds bench/tight/pipeline_skip.pam M=7)
close "$1" 44e-6 || die "pipeline with a stage skipped lo $1, want 44 us"
close "$3" 46e-6 || die "pipeline with a stage skipped hi $3, want 46 us"
# M = 8 packets, every 4th classified in 6 us (the others 2 us), the even ones encrypted 4 us:
# the classify serves them in index order from 1 us, packet 6 leaves it at 1 + 22 us and runs
# 4 + 1.5 us: lo = 28.5 us, the simulated time ("a stage served in index order"); hi: D = 12.5 us
# and theta = 2 us: 12.5 + 14 + 4 + 6 = 36.5 us (the classify's slow part counted for the 2 slow
# packets alone; before: lo 24 us, hi 60 us, the classify two uses of one resource).
set -- $(bounds bench/tight/pipeline_slow.pam M=8)
close "$1" 28.5e-6 || die "pipeline with slow packets lo $1, want 28.5 us"
close "$3" 36.5e-6 || die "pipeline with slow packets hi $3, want 36.5 us"
# M = 6 items through a (2 servers, 3 us) then b (3 servers, 10 us): r0 = 6 - 3 = 3 items leave a
# no earlier than ceil(3 / 2) x 3 = 6 us and b's 2 rounds follow: lo = 26 us, the simulated time
# ("two stages in a row", the second's last rounds; before: 23 us, b alone from 3 us).
set -- $(bounds bench/tight/pipeline_two_wide.pam M=6)
close "$1" 26e-6 || die "two wide stages lo $1, want 26 us"
# M = 8 items holding one of 2 slots through s1 (3 us) and s2 (4 us), then a sink (1 us): the
# items pass s1, s2 in the order they took their slots, B = 7 + (2 - 1) 4 = 11 us ("a pipeline
# inside the slots"; each request waiting at most one other gave 14 us), D = 8 + 11 - 7 = 12 us,
# hi = 12 + 7 x 5.5 = 50.5 us ("a bounded buffer in a line"; simulated 36 us; before: 64 us, then
# 88.5 us, every request summed).
set -- $(bounds bench/tight/bounded_buffer.pam M=8)
close "$3" 50.5e-6 || die "bounded buffer hi $3, want 50.5 us"
# M = 4 requests, the even ones decoded 5 us, all through mid 1 us, the odd ones 10 us after it:
# the odd class queues at mid in index order from 0: lo = 0 + 2 x 1 + 10 = 12 us, the simulated
# time ("a stage served in index order", within a class; before: 11 us).
set -- $(bounds bench/tight/class_pipeline.pam M=4)
close "$1" 12e-6 || die "class pipeline lo $1, want 12 us"
# M = 7 items: decode 2 us, then gpu 6 us beside dsp 4 us, then write 1 us: the fork is a stage of
# the line taking its longest branch: 2 + 6 + 1 + 6 x 6 = 45 us, lo = hi = the simulated time
# (before: hi 63 us, every request summed).
exact bench/tight/pipeline_fork.pam M=7 45e-6 "pipeline with a forked stage"
# M = 7 requests, 6 of them (not 3) looking up the index 3 us, then 5 us beside a 2 us log write:
# lo = 6 x 3 + 5 = 23 us, the simulated time (before: 18 us).
set -- $(bounds bench/tight/pipeline_tail_fork.pam M=7)
close "$1" 23e-6 || die "lookups some requests skip lo $1, want 23 us"
# Q = 8 groups of 8 ranks, each rank (g, r) computing 10us and sending 2us to port[(g + r + 1) % Q]:
# every port takes one message from each group, 8 per step: 3 x (10 + 8 x 2) us = 78 us ("members
# dealt to the pairs of nested pars"; before: hi 3 x (10 + 64 x 2) us, the family as one resource).
exact bench/tight/nested_shift.pam Q=8 78e-6 "nested pars sending to a shift of the ports"
# P = 64 ranks sending 5us to both neighbours beside a monitor's 7us log on nic[0]: nic[0] holds
# 7 + 10 us, lo = 17 us, the simulated time; a rank names 2 nics with at most 10us of the ring's
# each and the log's 7us once: hi = 10 + (2 x 10 + 7 - 10) = 27 us ("demand per member of a
# family"; before: lo 10 + 7 / 64 us, hi 10 x 64 + 17 us).
set -- $(bounds bench/tight/ring_monitor.pam P=64)
close "$1" 17e-6 || die "ring beside a monitor lo $1, want 17 us"
close "$3" 27e-6 || die "ring beside a monitor hi $3, want 27 us"
# P = 16 ranks computing 10us, then sending 4us right, rank 0 to rank 2 instead: nic[2] takes two
# messages per step, 4 x (10 + 2 x 4) us = 72 us ("a map one-to-one but for an exception"; before:
# lo 4 x 14 us, hi 4 x (10 + 16 x 4) us).
exact bench/tight/shift_exception.pam P=16 72e-6 "a shift with one exception"
# M = 7 tasks beside a logger: task i uses a 2-slot device for 10us where i % 3 == 0 (0, 3, 6),
# and after 2us where i is even (0, 2, 4, 6): 7 requests, ceil(7 / 2) = 4 on the busiest server,
# lo = 40 us, the simulated time ("requests counted on m servers"; before: 35 us, the load).
lo_is bench/tight/guarded_device.pam M=7 40e-6 "guarded device requests, M = 7:"
# N = 7 tasks of 1, 2, 4 us by i % 3 on a pool of 4, then 5 us: 1, 2, 4, 1 start at 0, 2 and 4 at
# 1 (where the 1s end), the last 1 at 2: the 4 started at 1 ends last, at 5: lo = hi = 10 us, the
# simulated time ("an FCFS list evaluated at the point"; before: lo 9 us, hi 11.75 us).
exact bench/tight/pool_periodic.pam N=7 10e-6 "tasks of three sizes on a pool, N = 7"
# The same written with `hold` and residue classes (session 10): every third of Q = 7 queries 50
# us, the others 10 us, on fcfs(4): 50, 10, 10, 50 start at 0, two 10s at 10 (end 20), the last
# 50 at 20: 70 us (before: lo 50 us, the longest; hi 85 us).
exact bench/tight/pool_hold_classes.pam Q=7 70e-6 "queries of two sizes held on a pool, Q = 7"
# T = 3 threads of 20, 40, 60 us on ps(2) through a worker process: all three at 2/3 until 30 us,
# the last two at full speed until 50 us, the last alone until 70 us (before: lo 60 us, the load).
exact bench/tight/threads_ps_worker.pam T=3 70e-6 "unequal threads on ps through a process"
# A master's rounds of W = 15 under the guard (r - 1) W + w <= N, N = 100: 7 rounds, 100 sends of
# 1 us and a 20 us task after each round's last: 100 + 7 * 20 = 240 us (before: lo 147 us).
exact bench/tight/master_guard.pam P=16 240e-6 "master rounds with a remainder guard"
# A neighbour's lock held while copying on one's own cpu: no lock member is shared, 3 (10 + 2) =
# 36 us (before: hi 36 P us, the cpu family through the holds taken as one resource).
exact bench/tight/hold_ring.pam P=16 36e-6 "a neighbour's lock held around one's own cpu"
# P = 16 ranks two to a nic, each sending 2us to the next rank after 20us of compute, 4 times:
# nic[floor(((p + 1) % P) / 2)] names every nic from two ranks (counted by evaluation), so a
# request waits for one other at most: hi = 4 (20 + 2 x 2) = 96 us; lo: the two requests at a nic
# in round 1 end one after the other, then 3 rounds: 20 + 2 x 2 + 3 x 22 = 90 us, the simulated
# time ("Maps counted by evaluation"; before: hi 4 (20 + 16 x 2) us, the family as one resource,
# lo 88 us).
set -- $(bounds bench/tight/nic_pairs_shift.pam P=16)
close "$1" 90e-6 || die "two ranks per nic lo $1, want 90 us"
close "$3" 96e-6 || die "two ranks per nic hi $3, want 96 us"
# Blocks of B = ceil(N / P) rows, every rank w > 0 sending 1 us + 64 ns a row to rank 0's nic: at
# N = 1000, P = 64 (B = 16) rank 63 has no rows (its send at 0 .. 1 us), rank 62 has 8 (at 8 us),
# ranks 1 .. 61 send 2.024 us each from 16 us on: lo = 16 + 61 * 2.024 = 139.464 us, the simulated
# time (the head's bend cut at w = 62; before: 125.976 us, all 63 sends from 0).
lo_is bench/tight/block_gather_all.pam P=64 139.464e-6 "block gather with empty last blocks"
# Ring allgather with a barrier per step, N = 1000 rows dealt to P = 2000 ranks (rows 1 or 0):
# every step's longest send is 1 + 0.2 us, 1999 steps: lo = hi = 2398.8 us (a remainder over a
# whole period: before, 4 10^6 indices walked past the loop limit, lo 2.199 ms).
exact bench/tight/ring_allgather_rows.pam P=2000 2.3988e-3 "ring allgather by rows"
# Grid without wrap, the halos one after the other under their edge tests (20 us, then 3 us a
# halo, two iterations): cell (1, 1)'s left halo reaches (1, 0) at 23 us with (0, 0)'s down halo,
# queued first (program order at one instant), so the cell ends at 35 us: lo = 2 x 35 = 70 us at
# every Q >= 3, the simulated time (before: 64 us).
lo_is bench/tight/grid_open_chain.pam Q=3 70e-6 "open grid, halos in a chain"
lo_is bench/tight/grid_open_chain.pam Q=50 70e-6 "open grid, halos in a chain"
exit 0
