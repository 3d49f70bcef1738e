/*
** test_reduce_lock.c — the lower bounds for threads that meet at locks over rounds, behind a
** first batch of work, on ps cores and with arrivals spread (lang/reduce/order/reduce_lock.c:
** lock_rounds, slots_rounds, behind_batch, held_behind, last_wave, sem_line, ps_load, spread_meeting
** (with arrival_values); and the upper bounds of a line
** of stages, lock_tandem, and of resources kept by a lock; docs/reduction.md, "Threads meeting at
** a lock"), on small models whose schedule is worked out by hand in the comments (the
** simulated time) and whose bounds are derived by hand from the rules. Each test checks the
** bound against its derivation and lo <= simulated <= hi.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "reduce_case.h"

static const char *const t_name[] = {"T"};
static const char *const tc_names[] = {"T", "C"};

/* K = 4 rounds of use(cores, 3us) on fcfs(C) then hold (mtx) delay(1us), hand-off 0.5us.
** T = C = 4: all four take a core at 0 and reach mtx at 3; t0 holds 3..4, then each next is
** handed the lock 0.5us after a release: t1 4.5..5.5, t2 6..7, t3 7.5..8.5; t0 is back at 4 + 3
** = 7, before t2 releases, and so on: every release but the last finds a waiter (the trip back,
** 3us, is below (T - 1)(1 + 0.5) = 4.5us): 3 + 16 x 1 + 15 x 0.5 = 26.5us, and lock_rounds gives
** D0 + t1 + B + K T t2 + (K T - 1) h2 + R = 0 + 3 + 0 + 16 + 7.5 + 0, the same. T = C = 100:
** 3 + 400 + 399 x 0.5 = 602.5us. T = 3, C = 4: the trip (3us) is not below 2 x 1.5us; t0 is back
** at 7, the instant t2 releases, and no hand-off follows: t0 holds 3, 7, 11, 15 (ends 16), t1
** 4.5, 8.5, 12.5, 16.5, t2 6, 10, 14, 18: 19us. The rule must not apply there (it would give
** 20.5us). */
static void test_lock_rounds(void **state) {
  (void)state;
  const char *text =
    "param T = 4; param C = 4; param K = 4; const w = 3us; const tc = 1us;\n"
    "resource cores = fcfs(C); resource mtx = fcfs(1) handoff(500ns);\n"
    "process main { par (t = 0, T - 1) repeat (K) { use(cores, w); hold (mtx) delay(tc) } }\n";
  redtest_expect_lo(text, 2, tc_names, (const double[]){4, 4}, 26.5e-6, 26.5e-6);
  redtest_expect_lo(text, 2, tc_names, (const double[]){100, 100}, 602.5e-6, 602.5e-6);
  redtest_expect_lo(text, 2, tc_names, (const double[]){3, 4}, -1, 19e-6);
}

/* T = 8 threads on fcfs(4) cores: use(cores, 4us); hold (a) use(cores, 1us); hold (b)
** use(cores, 2us). t0..t3 compute 0..4, t4..t7 4..8. t0 takes a at 4 and waits for a core until
** 8 (cores 8..9), holding a; t1 takes a at 9 (cores 9..10) while t0 holds b 9..11; then a is
** taken every 1us and b every 2us: t1 b 11..13, t2 13..15, ..., t7 23..25: 25us. behind_batch:
** every later request of the cores starts no earlier than S = max(floor(7 / 4) 4, floor(4 / 4) 4
** + 4) = 8us (the last of the first batch started, and 8 - 4 + 1 of them ended), then 1us of a's
** body, then 8 holds of b of at least 2us: 8 + 1 + 16 = 25us. T = 100: S = max(24 x 4, 24 x 4
** + 4) = 100, then 1 + 200: 301us. */
static void test_behind_batch(void **state) {
  (void)state;
  const char *text =
    "param T = 8; const w = 4us; const ta = 1us; const tb = 2us;\n"
    "resource cores = fcfs(4); resource a; resource b;\n"
    "process main { par (t = 0, T - 1) { use(cores, w); hold (a) use(cores, ta); hold (b) use(cores, tb) } }\n";
  redtest_expect_lo(text, 1, t_name, (const double[]){8}, 25e-6, 25e-6);
  redtest_expect_lo(text, 1, t_name, (const double[]){100}, 301e-6, 301e-6);
}

/* T threads of K = 3 rounds `use(cores, 5us); hold (mtx) delay(1us)` on ps(2) cores. ps_load,
** T = 3: the three first requests share the cores from 0 and end together at 3 x 5 / 2 = 7.5us;
** each then holds mtx at least 1us before its next request; the 2 x 3 x 5us of work left need
** at least 15us at rate 2; the last ends no earlier than 7.5 + 1 + 15 = 23.5 and its thread then
** holds mtx 1us: 24.5us (the cores' load alone: 22.5us; simulated: 25.5us, the lock holding
** threads off the cores at the start of rounds). */
static void test_ps_load(void **state) {
  (void)state;
  const char *text =
    "param T = 3; param K = 3; const w = 5us; const tc = 1us;\n"
    "resource cores = ps(2); resource mtx;\n"
    "process main { par (t = 0, T - 1) repeat (K) { use(cores, w); hold (mtx) delay(tc) } }\n";
  redtest_expect_lo(text, 1, t_name, (const double[]){3}, 24.5e-6, 25.5e-6);
}

/* T = 16 threads on fcfs(4) cores: use(cores, 5us); hold (a) delay(1us); hold (b) delay(1.5us).
** The cores end batches of 4 at 5, 10, 15, 20; a serves each batch 1us apart from its arrival
** (5..9, 10..14, ...); b is the slowest stage: t0 holds it 6..7.5, t1 7.5..9, t2 9..10.5, t3
** 10.5..12, t4 (a at 10..11) 12..13.5, and so on back to back: t15 ends 6 + 16 x 1.5 = 30us.
** The line of stages (lock_tandem): U = 5 + 1 + 1.5 + (16 - 1) max(5 / 4, 1, 1.5) = 30us, the
** simulated time (the waits summed, before: 7.5 + 15 (5 / 4 + 1 + 1.5) = 63.75us). */
static void test_lock_tandem(void **state) {
  (void)state;
  const char *text =
    "param T = 16; const w = 5us; const ta = 1us; const tb = 1.5us;\n"
    "resource cores = fcfs(4); resource a; resource b;\n"
    "process main { par (t = 0, T - 1) { use(cores, w); hold (a) delay(ta); hold (b) delay(tb) } }\n";
  double lo, hi, T = 16;
  redtest_eval(text, 1, t_name, &T, &lo, &hi);
  redtest_near(hi, 30e-6);
  assert_true(lo <= 30e-6 * (1 + REDTEST_REL_TOL));
}

/* K = 3 rounds of delay(2us); hold (mtx) delay(200ns), hand-off 1us (a counter under a mutex).
** T = 3: all reach mtx at 2; t0 holds 2..2.2, t1 is handed it 1us later, 3.2..3.4, t2 4.4..4.6;
** t0 is back at 4.2, before t2 releases (the trip, 2us, is below (T - 1)(0.2 + 1) = 2.4us), so
** every release finds a waiter: 9 holds 1.2us apart, the last ends 2 + 0.2 + 8 x 1.2 = 11.8us.
** lock_rounds with no step before s2 but the delay: D0 + K T t2 + (K T - 1) h2 + R = 2 + 1.8 + 8.
** T = 8: 2 + 4.8 + 23 = 29.8us. T = 2: the trip is not below 1.2us: t0 2..2.2, t1 3.2..3.4, t0
** back at 4.2 finds the lock free (no hand-off): 4.2..4.4, t1 5.4..5.6, t0 6.4..6.6, t1 7.6..7.8:
** 7.8us, below what the formula would give (8.2us): the rule must not apply. */
static void test_lock_rounds_delays(void **state) {
  (void)state;
  const char *text =
    "param T = 3; param K = 3; const w = 2us; const tc = 200ns;\n"
    "resource mtx = fcfs(1) handoff(1us);\n"
    "process main { par (t = 0, T - 1) repeat (K) { delay(w); hold (mtx) delay(tc) } }\n";
  redtest_expect_lo(text, 1, t_name, (const double[]){3}, 11.8e-6, 11.8e-6);
  redtest_expect_lo(text, 1, t_name, (const double[]){8}, 29.8e-6, 29.8e-6);
  redtest_expect_lo(text, 1, t_name, (const double[]){2}, -1, 7.8e-6);
}

/* The same on ps(4) cores, T = 5 > 4: use(cores, 2us); hold (mtx) delay(200ns); delay(500ns).
** The five first requests share the cores from 0 and end together at 2 x 5 / 4 = 2.5us; then
** t0 holds mtx 2.5..2.7, t1 3.7..3.9, ... (1.2us apart); t0 is back on the cores at 3.2, alone
** there or nearly (at most T requests present: within 2.5us), and at mtx before 2.7 + 4 x 1.2:
** the trip, at most 0.5 + 2.5 = 3us, is below 4.8us. 15 holds: the last ends 2.5 + 0.2 + 14 x
** 1.2 = 19.5, then 0.5us: 20us; lock_rounds: D0 + 15 t2 + 14 h2 + R = 2.5 + 3 + 14 + 0.5. */
static void test_lock_rounds_ps(void **state) {
  (void)state;
  const char *text =
    "param T = 5; param K = 3; const w = 2us; const tc = 200ns;\n"
    "resource cores = ps(4); resource mtx = fcfs(1) handoff(1us);\n"
    "process main { par (t = 0, T - 1) repeat (K) { use(cores, w); hold (mtx) delay(tc); delay(500ns) } }\n";
  redtest_expect_lo(text, 1, t_name, (const double[]){5}, 20e-6, 20e-6);
}

/* T = 8 threads on fcfs(2) cores: use(cores, 6us); hold (la) { use(cores, 1us); hold (lb)
** delay(500ns) }, la with a hand-off of 0.5us. t0, t1 compute 0..6, t2, t3 6..12, t4, t5 12..18,
** t6, t7 18..24; t0 takes la at 6 and asks for a core behind t2 .. t7: it gets one at 24, holds
** lb 25..25.5 and releases la at 25.5; everyone is waiting for la by then (the last at 24): t1
** is handed it at 26, and each next 2us later: t7 releases at 25.5 + 7 x 2 = 39.5us.
** held_behind: S = X + floor((8 - 2) / 2) x 6 + 6 = 24 (6 of the 8 first requests ended), tq' =
** 1.5, tq = 1.5, A = floor(7 / 2) x 6 + 6 = 24 < S + tq' = 25.5: 24 + 1.5 + 7 x (1.5 + 0.5) =
** 39.5us (the cores' load: 28us; before, behind_batch: 24 + 1.5 + 4 x 0.5 = 27.5us). */
static void test_held_behind(void **state) {
  (void)state;
  const char *text =
    "param T = 8; const w = 6us; const ta = 1us; const tb = 500ns;\n"
    "resource cores = fcfs(2); resource la = fcfs(1) handoff(500ns); resource lb = fcfs(1) handoff(200ns);\n"
    "process main { par (t = 0, T - 1) { use(cores, w); hold (la) { use(cores, ta); hold (lb) delay(tb) } } }\n";
  redtest_expect_lo(text, 1, t_name, (const double[]){8}, 39.5e-6, 39.5e-6);
}

/* Arrivals spread: delay(t x 100ns); hold (mtx) delay(1us), hand-off 0.5us, T = 4: arrivals at
** 0 .. 0.3us; t0 holds 0..1, the others wait: 1.5..2.5, 3..4, 4.5..5.5: 5.5us. spread_meeting:
** Xmin = 0, Xmax = 0.3, no release can find the lock idle (floor(0.3 / 1) = 0): 0 + 4 x 1 +
** 3 x 0.5 = 5.5us. With delay(t x 1us) and holds of 1.5us: arrivals 0, 1, 2, 3; t0 0..1.5, t1
** 2..3.5, t2 4..5.5, t3 6..7.5 (7.5us simulated); the rule counts floor(3 / 1.5) = 2 releases as
** possibly idle: 0 + 4 x 1.5 + (3 - 2) x 0.5 = 6.5us. T threads each on its own core for a dealt
** share of N = 10^5 iterations of 10ns, then hold (mtx) delay(300ns), hand-off 0.5us: at T = 64
** t32 .. t63 arrive at 15.62us and t0 .. t31 at 15.63, then 64 holds back to back: 15.62 + 64 x
** 0.3 + 63 x 0.5 = 66.32us; the rule: Xmin = 15.62, Xmax = 15.63, floor(0.01 / 0.3) = 0. */
static void test_spread_meeting(void **state) {
  (void)state;
  const char *near =
    "param T = 4; const d = 100ns; const tc = 1us;\n"
    "resource mtx = fcfs(1) handoff(500ns);\n"
    "process main { par (t = 0, T - 1) { delay(t * d); hold (mtx) delay(tc) } }\n";
  redtest_expect_lo(near, 1, t_name, (const double[]){4}, 5.5e-6, 5.5e-6);
  const char *far =
    "param T = 4; const d = 1us; const tc = 1.5us;\n"
    "resource mtx = fcfs(1) handoff(500ns);\n"
    "process main { par (t = 0, T - 1) { delay(t * d); hold (mtx) delay(tc) } }\n";
  redtest_expect_lo(far, 1, t_name, (const double[]){4}, 6.5e-6, 7.5e-6);
  const char *dealt =
    "param T = 64; param N = 100000; const t_it = 10ns; const t_add = 300ns;\n"
    "resource core[T]; resource mtx = fcfs(1) handoff(500ns);\n"
    "process main { par (t = 0, T - 1) { use(core[t], (floor(N / T) + (t < N % T ? 1 : 0)) * t_it);\n"
    "  hold (mtx) delay(t_add) } }\n";
  redtest_expect_lo(dealt, 1, t_name, (const double[]){64}, 66.32e-6, 66.32e-6);
}

/* Arrivals at few instants (spread_meeting, arrival_values): P = 6 branches on cores of their
** own for 20us + (p % 3) x 2us, then hold (bar) delay(1us), hand-off 0.5us: arrivals at 20 (p0,
** p3), 22 (p1, p4), 24 (p2, p5). p0 holds 20..21, p3 is handed it 21.5..22.5; p1, p4 find it held:
** 23..24, 24.5..25.5; p2, p5 too: 26..27, 27.5..28.5: 28.5us. Three instants, one request of each
** may find the lock free: 6 - 3 hand-offs at least: 20 + 6 x 1 + 3 x 0.5 = 27.5us (before: 4 of
** the 5 releases counted as possibly idle, floor(4 / 1), 26.5us). The BSP barrier of audit 5's
** probe_bsp_handoff, one round at P = 64 (holds of 0.1us, hand-off 0.5us): 20 + 64 x 0.1 + (64 -
** 3) x 0.5 = 56.9us against 57.9us simulated (before: 37.9us). Two servers, arrivals at 10us (4
** even branches) and 13us (4 odd, a `?:`), holds of 2us, hand-off 1us, 1us after: 0, 2 hold
** 10..12, 4, 6 are handed them 13..15, 1, 3 16..18, 5, 7 19..21, +1: 22us; at least 8 - 2 x 2
** wait: 10 + (8 x 2 + 4 x 1) / 2 + 1 = 21us (as before: the window's count). */
static void test_few_instants(void **state) {
  (void)state;
  const char *three =
    "param P = 6; const t_skew = 2us;\n"
    "resource core[P]; resource bar = fcfs(1) handoff(0.5us);\n"
    "process main { par (p = 0, P - 1) { use(core[p], 20us + (p % 3) * t_skew); hold (bar) delay(1us) } }\n";
  redtest_expect_lo(three, 0, NULL, NULL, 27.5e-6, 28.5e-6);
  const char *bsp =
    "param P = 64;\n"
    "resource core[P]; resource barrier = fcfs(1) handoff(500ns);\n"
    "process main { par (p = 0, P - 1) { use(core[p], 20us + (p % 3) * 2us); hold (barrier) delay(100ns) } }\n";
  redtest_expect_lo(bsp, 0, NULL, NULL, 56.9e-6, 57.9e-6);
  const char *two =
    "param P = 8; resource bar = fcfs(2) handoff(1us);\n"
    "process main { par (p = 0, P - 1) { delay(10us + (p % 2 == 0 ? 0us : 3us)); hold (bar) delay(2us);\n"
    "  delay(1us) } }\n";
  redtest_expect_lo(two, 0, NULL, NULL, 21e-6, 22e-6);
}

/* A semaphore of 3 around a disk read and work on ps(4) cores: hold (sem) { use(disk, 2us);
** use(cores, 6us) }, T = 64. At most 3 requests are ever present at the cores (each inside a
** hold of sem, 3 servers <= 4): none is slowed, the cores' wait counts 0. U = phi + the waits:
** 8 + (T - 1) 8 / 3 (sem) + (T - 1) 2 (the disk) = 8 + 168 + 126 = 302us (before: the cores'
** wait added, 396.5us). Simulated: 3 holds at a time, 22 rounds of 8us: 176us. */
static void test_guarded_sem(void **state) {
  (void)state;
  const char *text =
    "param T = 64; const tr = 2us; const td = 6us;\n"
    "resource sem = fcfs(3); resource disk; resource cores = ps(4);\n"
    "process main { par (t = 1, T) hold (sem) { use(disk, tr); use(cores, td) } }\n";
  double lo, hi, T = 64;
  redtest_eval(text, 1, t_name, &T, &lo, &hi);
  redtest_near(hi, 302e-6);
  assert_true(lo <= 176e-6 * (1 + REDTEST_REL_TOL));
  assert_true(176e-6 <= hi);
}

/* T = 7 threads on fcfs(4) cores: use(cores, 8us); hold (a) { use(cores, 1us); hold (b)
** delay(400ns) }. t0 .. t3 compute 0..8, t4 .. t6 8..16; t0 takes a at 8, a core is free (three
** are busy): a held 8..9.4, t1 9.4..10.8, t2 ..12.2, t3 ..13.6; t4 .. t6 ask for a at 16: 16..17.4,
** ..18.8, ..20.2us. last_wave: w = 7 - 4 floor(6 / 4) = 3 threads end at A = 8 + 8 = 16, then
** 3 x 1.4us: 20.2us (held_behind: S = 8, 8 + 1.4 + 6 x 1.4 = 17.8us). */
static void test_last_wave(void **state) {
  (void)state;
  const char *text =
    "param T = 7; const w = 8us; const ta = 1us; const tb = 400ns;\n"
    "resource cores = fcfs(4); resource a; resource b = fcfs(1) handoff(300ns);\n"
    "process main { par (t = 0, T - 1) { use(cores, w); hold (a) { use(cores, ta); hold (b) delay(tb) } } }\n";
  redtest_expect_lo(text, 1, t_name, (const double[]){7}, 20.2e-6, 20.2e-6);
}

/* A semaphore of 3 around a disk read and work on ps(4) cores, T = 8: t0 .. t2 hold sem from 0
** and read the disk 0..2, 2..4, 4..6, computing to 8, 10, 12; t3 takes sem at 8 (disk 8..10, ends
** 16), t4 at 10 (disk 10..12, 18), t5 at 12 (12..14, 20), t6 at 16 (16..18, 24), t7 at 18 (18..20,
** 26): 26us. sem_line: b = floor(7 / 3) = 2 steps back by a hold (8us), a = 1 by a read (2us):
** 2 + 3 x 8 = 26us (3 holds at a time: ceil(8 / 3) x 8 = 24us). */
static void test_sem_line(void **state) {
  (void)state;
  const char *text =
    "param T = 8; const tr = 2us; const td = 6us;\n"
    "resource sem = fcfs(3); resource disk; resource cores = ps(4);\n"
    "process main { par (t = 1, T) hold (sem) { use(disk, tr); use(cores, td) } }\n";
  redtest_expect_lo(text, 1, t_name, (const double[]){8}, 26e-6, 26e-6);
}

/* K = 2 rounds of delay(5us); use(slots, 10us) on fcfs(2) slots with handoff(3us) (slots_rounds).
** T = 4: t0, t1 hold 5..15, t2, t3 are handed the slots at 18 (..28); t0, t1 are back at 20 and
** handed them at 31 (..41), t2, t3 back at 33 and handed them at 44: 54us. The rule: D0 = 5, the
** trip 5us below (floor(4 / 2) - 1)(10 + 3) = 13us, F = (K - 1) T = 4, G = 2 + 2 - 1 = 3, no rest:
** 5 + 3 x 13 + 10 = 54us. T = 5: t0, t1 5..15, t2, t3 18..28, t4 and t0 (back at 20) 31..41,
** t1 and t2 (back at 33) 44..54, t3 and t4 (back at 46) 57..67: 67us. The rule: F = (K - 1)(5 - 2
** + 1) = 4, G = 3, then 10 - 8 = 2 requests left, one round of 10us: 5 + 39 + 10 + 10 = 64us.
** T = 3: the trip is not below (1 - 1) x 13: t0, t1 5..15, t2 18..28, t0 back at 20 finds a slot
** free (20..30), t1 is handed one at 31 (..41), t2 back at 33 finds one free (..43): 43us; the
** rule must not apply. */
static void test_slots_rounds(void **state) {
  (void)state;
  const char *text =
    "param T = 4; const w = 5us; const t = 10us;\n"
    "resource slots = fcfs(2) handoff(3us);\n"
    "process main { par (i = 0, T - 1) repeat (2) { delay(w); use(slots, t) } }\n";
  redtest_expect_lo(text, 1, t_name, (const double[]){4}, 54e-6, 54e-6);
  redtest_expect_lo(text, 1, t_name, (const double[]){5}, 64e-6, 67e-6);
  redtest_expect_lo(text, 1, t_name, (const double[]){3}, -1, 43e-6);
}

/* T = 6 threads, K = 3 rounds of use(cores, 2us) (fcfs(8): no wait); hold (slots) delay(4us);
** delay(1us), the slots fcfs(2) with handoff(1us). Groups of two start at 2, 7, 12, .., 42 (nine
** groups, 18 holds): a group's threads are back 3us after their release, before the next
** release but one (5us later); the last group ends at 46, then 1us: 47us. The rule: D0 = 2,
** R = 1, the trip 3us below (3 - 1) x 5, F = 12, G = 6 + 3 - 1 = 8: 2 + 8 x 5 + 4 + 1 = 47us. */
static void test_slots_rounds_hold(void **state) {
  (void)state;
  const char *text =
    "param T = 6;\n"
    "resource cores = fcfs(8); resource slots = fcfs(2) handoff(1us);\n"
    "process main { par (i = 0, T - 1) repeat (3) { use(cores, 2us); hold (slots) delay(4us); delay(1us) } }\n";
  redtest_expect_lo(text, 1, t_name, (const double[]){6}, 47e-6, 47e-6);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_lock_rounds),
    cmocka_unit_test(test_behind_batch),
    cmocka_unit_test(test_ps_load),
    cmocka_unit_test(test_lock_tandem),
    cmocka_unit_test(test_lock_rounds_delays),
    cmocka_unit_test(test_lock_rounds_ps),
    cmocka_unit_test(test_held_behind),
    cmocka_unit_test(test_spread_meeting),
    cmocka_unit_test(test_few_instants),
    cmocka_unit_test(test_guarded_sem),
    cmocka_unit_test(test_last_wave),
    cmocka_unit_test(test_sem_line),
    cmocka_unit_test(test_slots_rounds),
    cmocka_unit_test(test_slots_rounds_hold),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
