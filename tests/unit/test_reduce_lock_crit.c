/*
** test_reduce_lock_crit.c — the bounds for threads whose critical sections share the cores or
** fork (lang/reduce/order/reduce_lock.c: lock_rounds with the ps resource also requested inside
** the hold, and holds whose body is a `||`; reduce_lock_busy.c: lock_rounds_hi, the upper bound of
** a lock kept busy; sem_wave, the first wave at a semaphore; lock_groups, groups in lock step; lock_spaced_hi, arrivals spaced apart; sem_load, a semaphore's servers started in turn;
** docs/reduction.md, "Threads meeting at a lock"), on small models whose schedule is worked out by hand in the comments (the simulated
** time) and whose bounds are derived by hand from the rules. Each test checks the bound against
** its derivation and lo <= simulated <= hi.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "reduce_case.h"

static const char *const t_name[] = {"T"};

/* T = 8 threads, K = 5 rounds of use(cores, 10us) on ps(4) then hold (mtx) use(cores, 2us),
** mtx with handoff(1us). The eight first requests share the cores from 0 and end together at
** 8 x 10 / 4 = 20us; t0 holds 20..22 (alone on the cores), t1 is handed the lock at 23 (crit
** 23..25), t2 26..28, .. t7 41..43. The thread released at e works e..e + 10 beside at most the
** three released 3, 6 and 9us before it and the holder (four present: rate 1), so it is back
** 10us later, before the release 7 x 3 = 21us after its own: every release but the last hands
** the lock on, one every 3us: 20 + 40 x 2 + 39 x 1 = 139us. lock_rounds, the cores also
** requested inside the hold: D0 = 10 max(1, 8 / 4) = 20, the trip G = 20 < 7 x 3 = 21, so
** 20 + 5 x 8 x 2 + 39 x 1 = 139us (before: the cores' load, 8 x 5 x 12 / 4 = 120us). T = 6: the
** trip, 15us, is not below 5 x 3: the rule does not apply (simulated 104us). */
static void test_lock_rounds_crit_on_ps(void **state) {
  (void)state;
  const char *text =
    "param T = 8;\n"
    "resource cores = ps(4); resource mtx = fcfs(1) handoff(1us);\n"
    "process main { par (i = 0, T - 1) repeat (5) { use(cores, 10us); hold (mtx) { use(cores, 2us) } } }\n";
  redtest_expect_lo(text, 1, t_name, (const double[]){8}, 139e-6, 139e-6);
  redtest_expect_lo(text, 1, t_name, (const double[]){6}, -1, 104e-6);
}

/* T = 2 threads, K = 3 rounds of use(cores, 5us) on ps(2), then hold (mtx) { use(disk, 3us) ||
** use(net, 4us) }, mtx with handoff(2us): the body lasts max(3, 4) = 4us. Both compute 0..5;
** t0 holds 5..9, t1 is handed the lock at 11 (11..15); t0 is back at 14, before 15: handed at 17
** (17..21); t1 back at 20: 23..27; t0 back at 26: 29..33; t1 back at 32: 35..39us. lock_rounds,
** the hold's body a `||` (its time the larger branch's): D0 = 5, the trip 5 < 1 x 6: 5 + 6 x 4 +
** 5 x 2 = 39us (before: the body unread, 27us). */
static void test_lock_rounds_forked_body(void **state) {
  (void)state;
  const char *text =
    "param T = 2;\n"
    "resource cores = ps(2); resource disk; resource net; resource mtx = fcfs(1) handoff(2us);\n"
    "process main { par (i = 0, T - 1) repeat (3) { use(cores, 5us); hold (mtx) { use(disk, 3us) || use(net, 4us) } } }\n";
  redtest_expect_lo(text, 1, t_name, (const double[]){2}, 39e-6, 39e-6);
}

/* Upper bounds of a lock kept busy (lock_rounds_hi). T = 7 threads, 5 rounds of use(cores,
** 10us) on ps(4), hold (mtx) use(cores, 2us), handoff(1us): the seven first requests end together
** at 7 x 10 / 4 = 17.5us; then a release every 3us, and a thread released at e works e .. e + 10
** beside the three released before it and, once the hand-off is over, without the earliest of
** them (at most four present: rate 1), back before the release 6 x 3 = 18us after its own: 17.5 + 35 x 2 + 34 = 121.5us simulated, and lock_rounds
** gives it (the trip bound G = 10 x 7 / 4 = 17.5 < 18). The rule's U: the crit at its longest,
** 2 max(1, 7 / 4) = 3.5us (at most 7 present), 17.5 + 35 x 3.5 + 34 x 1 = 174us (before: the
** waits summed, 245us). */
static void test_lock_rounds_hi_crit(void **state) {
  (void)state;
  const char *text =
    "param T = 7;\n"
    "resource cores = ps(4); resource mtx = fcfs(1) handoff(1us);\n"
    "process main { par (i = 0, T - 1) repeat (5) { use(cores, 10us); hold (mtx) { use(cores, 2us) } } }\n";
  double v = 7;
  redtest_expect(text, 1, t_name, &v, 121.5e-6, 121.5e-6, 174e-6);
}

/* The hold writing disk and net at once (test_lock_rounds_forked_body), T = 2: disk and net are
** requested nowhere else in the iteration, under a one-server lock: each write runs alone, the
** hold lasts exactly 4us, and U = 5 + 6 x 4 + 5 x 2 = 39us = L, the simulated time (before: the
** waits summed and the forks' own demand kept, 126us). */
static void test_lock_rounds_hi_forked(void **state) {
  (void)state;
  const char *text =
    "param T = 2;\n"
    "resource cores = ps(2); resource disk; resource net; resource mtx = fcfs(1) handoff(2us);\n"
    "process main { par (i = 0, T - 1) repeat (3) { use(cores, 5us); hold (mtx) { use(disk, 3us) || use(net, 4us) } } }\n";
  double v = 2;
  redtest_expect(text, 1, t_name, &v, 39e-6, 39e-6, 39e-6);
}

/* T threads, 4 rounds of hold (mtx) delay(1us); delay(500ns), handoff(3us). T = 1: nothing waits
** and no hand-off is made: 4 x 1.5 = 6us both bounds (before: hi 18us, a hand-off counted at
** every hold). T = 3: all three ask at 0; each release hands on (a thread is back 0.5us after its
** release, before the next release but one, 4us later): 12 x 1 + 11 x 3 + 0.5 = 45.5us, both
** bounds and the simulated time. */
static void test_lock_rounds_hi_counter(void **state) {
  (void)state;
  const char *text =
    "param T = 1;\n"
    "resource mtx = fcfs(1) handoff(3us);\n"
    "process main { par (i = 0, T - 1) repeat (4) { hold (mtx) delay(1us); delay(500ns) } }\n";
  double one = 1, three = 3;
  redtest_expect(text, 1, t_name, &one, 6e-6, 6e-6, 6e-6);
  redtest_expect(text, 1, t_name, &three, 45.5e-6, 45.5e-6, 45.5e-6);
}

/* The first wave at a semaphore (sem_wave). T = 4 workers, 3 rounds of use(cores, 3us) on fcfs(2)
** then hold (sem) delay(7us), sem = fcfs(3). The cores serve t0, t1 0..3 and t2, t3 3..6; the
** semaphore takes t0, t1 at 3 and t2 at 6, and t3 waits for the first release, at 10 (10..17);
** then t3 computes 17..20 (t0, t1 10..13, t2 13..16 before it) and holds 20..27, computes 27..30
** (the cores free) and holds 30..37: 37us, the simulated time. The rule: A = 3, 3, 6, 6, the
** fourth starts no earlier than max(A_4, A_1 + 7) = 10, then 7 + 2 x 10: 37us (before: 33us).
** With handoff(1us) on the semaphore, A_4 = 6 < 10: t3 is handed its permit at 11, and every
** later step is the same 1us later: 38us simulated, and the rule max(6, 3 + 7 + 1) + 27 = 38us. */
static void test_sem_wave(void **state) {
  (void)state;
  const char *text =
    "param T = 4;\n"
    "resource cores = fcfs(2); resource sem = fcfs(3);\n"
    "process main { par (i = 0, T - 1) repeat (3) { use(cores, 3us); hold (sem) delay(7us) } }\n";
  const char *handed =
    "param T = 4;\n"
    "resource cores = fcfs(2); resource sem = fcfs(3) handoff(1us);\n"
    "process main { par (i = 0, T - 1) repeat (3) { use(cores, 3us); hold (sem) delay(7us) } }\n";
  redtest_expect_lo(text, 1, t_name, (const double[]){4}, 37e-6, 37e-6);
  redtest_expect_lo(handed, 1, t_name, (const double[]){4}, 38e-6, 38e-6);
}

/* Groups in lock step at a semaphore (lock_groups). A pool of 4 connections with handoff(5us), each
** of T = 7 requests holding one for `use(db, 20us); delay(10us)` on ps(2), the db used nowhere
** else: four take a connection at 0 and share the db (40us), wait 10us and release at 50; the
** other three are handed connections at 55, share the db (30us) and end at 95us, the simulated
** time; the rule: 0 + 1 x (50 + 5) + (20 x 3 / 2 + 10) = 95us (before: the db's load, 70us).
** T = 4: one group, 50us. */
static void test_lock_groups(void **state) {
  (void)state;
  const char *text =
    "param T = 7;\n"
    "resource pool = fcfs(4) handoff(5us); resource db = ps(2);\n"
    "process main { par (i = 0, T - 1) hold (pool) { use(db, 20us); delay(10us) } }\n";
  redtest_expect_lo(text, 1, t_name, (const double[]){7}, 95e-6, 95e-6);
  redtest_expect_lo(text, 1, t_name, (const double[]){4}, 50e-6, 50e-6);
}

/* Arrivals spaced apart (lock_spaced_hi). T = 4 requests arriving every 3us (delay(i * 3us)), each
** holding a mutex for 1us, handoff(5us): each finds the mutex free (the one before released it
** 2us earlier), no hand-off is made: the last holds 9..10, 10us simulated; the rule: 3 > 1, max
** over i of 3 i + 1 = 10us (before: 33us, the mutex's load with its hand-offs). With requests
** every 1us, 1 is not above 1 and the rule does not apply (a release and an arrival at one
** instant). */
static void test_lock_spaced(void **state) {
  (void)state;
  const char *text =
    "param T = 4; param G = 3;\n"
    "resource mtx = fcfs(1) handoff(5us);\n"
    "process main { par (i = 0, T - 1) { delay(i * G * 1us); hold (mtx) delay(1us) } }\n";
  static const char *const tg[] = {"T", "G"};
  redtest_expect(text, 2, tg, (const double[]){4, 3}, 10e-6, 10e-6, 10e-6);
  redtest_expect_lo(text, 2, tg, (const double[]){4, 1}, 4e-6, 4e-6);   /* each release before the next arrival: 4us */
}

/* A semaphore's servers started in turn (sem_load). The workers of test_sem_wave, T = 7: the cores
** send them to the semaphore at 3, 3, 6, 6, 9, 9, 12us; its three servers start no earlier than
** 3, 3 and 6us (the third needs a third arrival), and 21 holds of 7us fill them: (3 + 3 + 6 +
** 147) / 3 = 53us (simulated: 55us; before: 52us, the load from the first arrival). The next
** request of a branch comes at least 7 + 3us after its first, after A_3 = 6us: the condition holds. */
static void test_sem_load(void **state) {
  (void)state;
  const char *text =
    "param T = 7;\n"
    "resource cores = fcfs(2); resource sem = fcfs(3);\n"
    "process main { par (i = 0, T - 1) repeat (3) { use(cores, 3us); hold (sem) delay(7us) } }\n";
  redtest_expect_lo(text, 1, t_name, (const double[]){7}, 53e-6, 55e-6);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_lock_rounds_crit_on_ps),
    cmocka_unit_test(test_lock_rounds_forked_body),
    cmocka_unit_test(test_lock_rounds_hi_crit),
    cmocka_unit_test(test_lock_rounds_hi_forked),
    cmocka_unit_test(test_lock_rounds_hi_counter),
    cmocka_unit_test(test_sem_wave),
    cmocka_unit_test(test_lock_groups),
    cmocka_unit_test(test_lock_spaced),
    cmocka_unit_test(test_sem_load),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
