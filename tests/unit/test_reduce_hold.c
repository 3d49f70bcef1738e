/*
** test_reduce_hold.c — the reduction's rules for LANGUAGE.md §8 (lang/reduce/reduce_hold.c,
** lang/reduce/reduce_ps.c): ps(c), hold (r) S and handoff(h), on small models whose schedule is worked
** out by hand in the comments (the simulated time) and whose bounds are derived by hand from
** the rules of docs/reduction.md. Each test checks lo <= simulated <= hi and the bounds' values.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>

#include "reduce_case.h"

/* T requests of t together on ps(C): each runs at min(1, C/T) from 0 to the end, so the time is
** t * max(1, T/C) exactly: lo = max(t, T t / C); hi = phi + min(W/C, own (max(1, T/C) - 1)). */
static void test_ps_equal_requests(void **state) {
  (void)state;
  const char *text =
    "param T = 3; param C = 2; const t = 1ms;\n"
    "resource cores = ps(C);\n"
    "process main { par (i = 1, T) use(cores, t) }\n";
  const char *names[] = {"T", "C"};
  static const double cases[][2] = {{1, 2}, {2, 2}, {3, 2}, {8, 2}, {5, 4}, {1000, 7}};
  for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
    double want = 1e-3 * (cases[k][0] / cases[k][1] > 1 ? cases[k][0] / cases[k][1] : 1);
    redtest_expect(text, 2, names, cases[k], want, want, want);
  }
}

/* ps(0.5): a request alone runs at 0.5. Two of t together run at 0.25 each: 4t. phi = 2t,
** D/c = 4t; hi = 2t + min(t/0.5, t (max(1, 2/0.5) - max(1, 1/0.5))) = 2t + 2t. */
static void test_ps_slow_capacity(void **state) {
  (void)state;
  const char *text =
    "const t = 1ms; resource half = ps(0.5);\n"
    "process main { use(half, t) || use(half, t) }\n";
  redtest_expect(text, 0, NULL, NULL, 4e-3, 4e-3, 4e-3);
}

/* Staggered arrivals on ps(1): A = use(2t) from 0, B = delay(t); use(t). A runs alone on
** [0, t] (t left), then both at 1/2 until 3t. lo = max(2t, 3t) = 3t; hi: A: 2t + min(t, 2t (2 -
** 1)) = 3t; B: 2t + min(2t, t) = 3t. */
static void test_ps_staggered(void **state) {
  (void)state;
  const char *text =
    "const t = 1ms; resource cpu = ps(1);\n"
    "process main { use(cpu, 2 * t) || { delay(t); use(cpu, t) } }\n";
  redtest_expect(text, 0, NULL, NULL, 3e-3, 3e-3, 3e-3);
}

/* T threads take a mutex with handoff h together and hold it for tc: the first at 0, each next
** h after the previous release: T tc + (T - 1) h. lo = T tc + (T - 1) h, where the branches first
** meet (docs/reduction.md, "Threads meeting at a lock": all T reach the mutex at 0, each but the
** first is handed it); hi, a line of one stage ("a line of stages"): tc + (T - 1)(tc + h), the
** same (before that rule, phi_hi + W/1 = (tc + h) + (T - 1)(tc + h)). */
static void test_hold_handoff(void **state) {
  (void)state;
  const char *text =
    "param T = 4; const tc = 3us; const h = 2us;\n"
    "resource mtx = fcfs(1) handoff(h);\n"
    "process main { par (i = 1, T) hold (mtx) delay(tc) }\n";
  const char *names[] = {"T"};
  for (double T = 1; T <= 16; T *= 2) {
    double tc = 3e-6, h = 2e-6;
    redtest_expect(text, 1, names, &T, T * tc + (T - 1) * h, T * tc + (T - 1) * h, T * tc + (T - 1) * h);
  }
}

/* Uncontended: one thread, two holds with hand-offs in sequence: no hand-off happens, and the
** bound run alone is the body's: lo = hi = 2 tc. */
static void test_handoff_uncontended(void **state) {
  (void)state;
  const char *text =
    "const tc = 3us; resource mtx handoff(5us);\n"
    "process main { hold (mtx) delay(tc); use(mtx, tc) }\n";
  redtest_expect(text, 0, NULL, NULL, 6e-6, 6e-6, 6e-6);
}

/* The holder waits inside its hold: A = hold(lock) use(cpu, a), B = the same, C = use(cpu, b),
** cpu fcfs(1), a = 2, b = 3 (us). At 0: A takes lock and cpu (first in program order), C queues
** at cpu, B at lock. A ends at a, B takes the lock, queues behind C: C a..a+b, B a+b..2a+b.
** sim = 2a + b = 7. lo = D_cpu = 2a + b = 7. hi: B is a chain: phi a, W_lock = a (A's hold
** while it progresses), W_cpu = a + b: 3a + b = 9; C: b + 2a = 7; A like B: 9. */
static void test_hold_waits_inside(void **state) {
  (void)state;
  const char *text =
    "const a = 2us; const b = 3us; resource lock; resource cpu;\n"
    "process main { hold (lock) use(cpu, a) || hold (lock) use(cpu, a) || use(cpu, b) }\n";
  redtest_expect(text, 0, NULL, NULL, 7e-6, 7e-6, 9e-6);
}

/* A branch that never requests cpu can still wait for it through the lock's holder: A =
** hold(lock) use(cpu, a); B = hold(lock) delay(d); C = use(cpu, b), C first in program order.
** At 0: C takes cpu, A takes lock and queues at cpu, B queues at lock. C ends at b, A uses cpu
** b..b+a, releases lock; B d more: sim = a + b + d (a = 2, b = 3, d = 1: 6). lo = max(D_lock =
** a + d, D_cpu = a + b) = 5. hi for B: phi d + W_lock a + (reached through the lock) W_cpu =
** a + b: 2a + b + d = 8; A: a + d + b = 6 (cpu: W = b); C: b + a = 5. */
static void test_hold_reach(void **state) {
  (void)state;
  const char *text =
    "const a = 2us; const b = 3us; const d = 1us; resource lock; resource cpu;\n"
    "process main { use(cpu, b) || hold (lock) use(cpu, a) || hold (lock) delay(d) }\n";
  redtest_expect(text, 0, NULL, NULL, 5e-6, 6e-6, 8e-6);
}

/* Nested holds in one order: T threads each hold (a) hold (b) delay(t): serialised by a,
** b never waited for: sim = T t. lo = T t (a's and b's loads); hi = t + (T - 1) t from a, and
** nothing at b: b is only ever requested holding a, a one-server lock, so it never queues
** (docs/reduction.md, "A resource kept by a lock"; before, the others' holds of b added
** (T - 1) t: (2T - 1) t). */
static void test_hold_nested(void **state) {
  (void)state;
  const char *text =
    "param T = 3; const t = 1us; resource a; resource b;\n"
    "process main { par (i = 1, T) hold (a) hold (b) delay(t) }\n";
  const char *names[] = {"T"};
  for (double T = 1; T <= 8; T++) redtest_expect(text, 1, names, &T, T * 1e-6, T * 1e-6, T * 1e-6);
}

/* A hold across a fork: hold (lock) { use(cpu, t) || use(cpu, t) } twice in parallel, cpu
** fcfs(1): the second holder waits for the first's whole body (2t), then 2t: sim = 4t. The
** branches are not chains: W = D(whole). lo = D_cpu = 4t. hi: phi t + W_lock (2 holds of phi t
** = 2t) + W_cpu 4t = 7t. */
static void test_hold_fork(void **state) {
  (void)state;
  const char *text =
    "const t = 1us; resource lock; resource cpu;\n"
    "process body { hold (lock) { use(cpu, t) || use(cpu, t) } }\n"
    "process main { body || body }\n";
  redtest_expect(text, 0, NULL, NULL, 4e-6, 4e-6, 7e-6);
}

/* A hold whose body requests the held resource again (2 servers): alone, the body's two uses
** share the one server left: hold (r) { use(r, t) || use(r, t) } takes 2t. U(body) alone would
** say t + t/2 with both servers; the rule gives phi_hi + D_r / 2 = t + (2t + t) / 2 = 2.5t. */
static void test_hold_reentrant(void **state) {
  (void)state;
  const char *text =
    "const t = 1us; resource r = fcfs(2);\n"
    "process main { hold (r) { use(r, t) || use(r, t) } }\n";
  redtest_expect(text, 0, NULL, NULL, 1.5e-6, 2e-6, 2.5e-6);
}

/* A holder on a ps resource that is never crowded: 2 threads each hold (mtx) use(cores, a),
** cores = ps(2). The first holds mtx on [0, a] running alone-speed, the second then: 2a. At most
** 2 requests are ever on cores, so nobody is slowed there, not even the holder the second waits
** for: hi = a + W_mtx (a) + min(W/c, D (max(1, 2/2) - 1) = 0) = 2a; lo = D_mtx = 2a. */
static void test_hold_ps_uncrowded(void **state) {
  (void)state;
  const char *text =
    "const a = 1us; resource cores = ps(2); resource mtx;\n"
    "process main { par (i = 1, 2) hold (mtx) use(cores, a) }\n";
  redtest_expect(text, 0, NULL, NULL, 2e-6, 2e-6, 2e-6);
}

/* A hold of delays is a use (LANGUAGE.md §8; reduce_lower.c): P ranks, 3 rounds of 1 us of
** compute and then `hold (nic[(p + k) % P]) { delay(1.5us); delay(0.5us) }`. Round k's map is
** one-to-one, so no request waits: 3 (1 + 2) = 9 us at every P, the simulated time (before: the
** hold's family taken as one resource, hi 51 us at P = 8 and 6 ms at P = 1000). */
static void test_hold_of_delays_is_a_use(void **state) {
  (void)state;
  const char *text =
      "param P = 8 in 1 .. 100000;\nresource nic[P];\n"
      "process main {\n  par (p = 0, P - 1) seq (k = 0, 2) {\n    delay(1us);\n"
      "    hold (nic[(p + k) % P]) { delay(1500ns); delay(500ns) }\n  }\n}\n";
  const char *names[] = {"P"};
  double p = 1000;
  redtest_expect(text, 0, NULL, NULL, 9e-6, 9e-6, 9e-6);
  redtest_expect(text, 1, names, &p, 9e-6, 9e-6, 9e-6);
}

/* A lock of the neighbour's held while copying on one's own cpu: 3 rounds of `use(cpu[p], 10us);
** hold (rlock[(p + 1) % P]) use(cpu[p], 2us)`. Each rlock member is the lock of one branch alone,
** so no branch waits behind a holder, and through one at no one's cpu: 3 (10 + 2) = 36 us at every
** P, the simulated time (before: the cpu family taken as one resource through the holds of
** rlock, hi 36 P us: 576 us at P = 16). */
static void test_hold_of_ones_own(void **state) {
  (void)state;
  const char *text =
      "param P = 16 in 1 .. 100000;\nresource rlock[P];\nresource cpu[P];\n"
      "process main {\n  repeat (3) par (p = 0, P - 1) {\n    use(cpu[p], 10us);\n"
      "    hold (rlock[(p + 1) % P]) use(cpu[p], 2us)\n  }\n}\n";
  const char *names[] = {"P"};
  double p = 1000;
  redtest_expect(text, 0, NULL, NULL, 36e-6, 36e-6, 36e-6);
  redtest_expect(text, 1, names, &p, 36e-6, 36e-6, 36e-6);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_ps_equal_requests),
    cmocka_unit_test(test_ps_slow_capacity),
    cmocka_unit_test(test_ps_staggered),
    cmocka_unit_test(test_hold_handoff),
    cmocka_unit_test(test_handoff_uncontended),
    cmocka_unit_test(test_hold_waits_inside),
    cmocka_unit_test(test_hold_reach),
    cmocka_unit_test(test_hold_nested),
    cmocka_unit_test(test_hold_fork),
    cmocka_unit_test(test_hold_reentrant),
    cmocka_unit_test(test_hold_ps_uncrowded),
    cmocka_unit_test(test_hold_of_delays_is_a_use),
    cmocka_unit_test(test_hold_of_ones_own),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
