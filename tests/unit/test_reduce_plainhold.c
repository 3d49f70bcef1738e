/*
** test_reduce_plainhold.c — the lockstep through plain holds and member maps one-to-one at each
** step (lang/reduce/order/reduce_order.c: walk_hold, dealt_spread, order_par; docs/reduction.md,
** "Plain holds in lock step"): locks with a hand-off that nobody waits for, on small models whose
** schedule is worked out by hand in the comments (the simulated time, checked with `pamc
** simulate`). Each test checks lo <= simulated <= hi and the bounds' values.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "reduce_case.h"

/* redtest_expect with one param, name, set to value. */
static void expect1(const char *text, const char *name, double value, double lo, double sim, double hi) {
  const char *names[] = {name};
  redtest_expect(text, 1, names, &value, lo, sim, hi);
}

/* A lock per bucket with a hand-off: thread t in round k takes bucket (t + k) % B after a delay
** of 1 us and holds it 2 us. With T <= B the threads of one round name distinct buckets, all at
** the same instant, and every bucket was released 1 us before (the delay before the hold): no
** request waits, no hand-off is paid, and the time is K (1 + 2) us exactly. lo = phi; hi = phi
** by the lockstep (was: the family as one resource, 78.4 us at T = 4, B = 16, K = 8). */
static void test_buckets_one_to_one(void **state) {
  (void)state;
  const char *text =
    "param T = 4; param B = 16; param K = 8; const th = 1us; const tu = 2us;\n"
    "resource bucket[B] = fcfs(1) handoff(0.2us);\n"
    "process main { par (t = 0, T - 1) seq (k = 0, K - 1) "
    "{ delay(th); hold (bucket[(t + k) % B]) delay(tu) } }\n";
  const char *names[] = {"T", "B", "K"};
  static const double cases[][3] = {{4, 16, 8}, {16, 16, 8}, {3, 5, 4}, {1, 1, 2}};
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    double want = cases[i][2] * 3e-6;
    redtest_expect(text, 3, names, cases[i], want, want, want);
  }
}

/* Two servers per bucket: T = 8 threads over B = 4 buckets of fcfs(2), (t + k) % B: each bucket
** gets two threads a round, at one instant, on two servers: no wait. Each round is 1 + 2 x 2 us
** (a body of two delays), 3 rounds: 15 us, and 15 us at T = 7 (at most 2 a bucket). */
static void test_buckets_two_servers(void **state) {
  (void)state;
  const char *text =
    "param T = 8; param B = 4; param K = 3; const th = 1us; const tu = 2us;\n"
    "resource bucket[B] = fcfs(2) handoff(0.5us);\n"
    "process main { par (t = 0, T - 1) seq (k = 0, K - 1) "
    "{ delay(th); hold (bucket[(t + k) % B]) { delay(tu); delay(tu) } } }\n";
  const char *names[] = {"T"};
  static const double cases[][1] = {{8}, {7}};
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
    redtest_expect(text, 1, names, cases[i], 15e-6, 15e-6, 15e-6);
}

/* Not this rule: no delay before the hold. T = B = 2, K = 2, holds of 2 us, hand-off 0.2 us. At
** 2 us thread 0 releases bucket 0 and asks for bucket 1 before thread 1 (run after it at that
** instant) has released it: it waits 0 s but is handed the lock, 0.2 us later, and ends at
** 4.2 us, above phi = 4 us. Only lo = 4 us and lo <= 4.2 us <= hi are checked. */
static void test_buckets_no_gap(void **state) {
  (void)state;
  const char *text =
    "param T = 2; param B = 2; param K = 2; const tu = 2us;\n"
    "resource bucket[B] = fcfs(1) handoff(0.2us);\n"
    "process main { par (t = 0, T - 1) seq (k = 0, K - 1) hold (bucket[(t + k) % B]) delay(tu) }\n";
  redtest_expect_lo(text, 0, NULL, NULL, 4e-6, 4.2e-6);
}

/* Not this rule: T = 17 > B = 16, two threads of a round name one bucket (sim 26.2 us); and a
** delay before the hold that depends on the thread. Only lo <= simulated <= hi is checked. */
static void test_buckets_overfull(void **state) {
  (void)state;
  const char *text =
    "param T = 17; param B = 16; param K = 8; const th = 1us; const tu = 2us;\n"
    "resource bucket[B] = fcfs(1) handoff(0.2us);\n"
    "process main { par (t = 0, T - 1) seq (k = 0, K - 1) "
    "{ delay(th); hold (bucket[(t + k) % B]) delay(tu) } }\n";
  redtest_expect_lo1(text, "T", 17, 26e-6, 26.2e-6);
  const char *skew =
    "param T = 3; param K = 2; const tu = 2us;\n"
    "resource bucket[T] = fcfs(1) handoff(0.2us);\n"
    "process main { par (t = 0, T - 1) seq (k = 0, K - 1) "
    "{ delay(t * 1us); hold (bucket[(t + k) % T]) delay(tu) } }\n";
  redtest_expect_lo1(skew, "T", 3, -1, 8e-6);
}

/* Uses of a port map one-to-one at each step without the par's size as modulus: P = 4 ranks,
** Q = 6 ports, round k to port (p + k) % Q after 1 us: distinct ports each round, 3 rounds of
** 1 + 2 us: 9 us exactly, also at P = Q = 6 (was: hi 21 us at P = 4). */
static void test_ports_fewer_ranks(void **state) {
  (void)state;
  const char *text =
    "param T = 4; param Q = 6; param K = 3; const th = 1us; const tu = 2us;\n"
    "resource port[Q];\n"
    "process main { par (p = 0, T - 1) seq (k = 0, K - 1) { delay(th); use(port[(p + k) % Q], tu) } }\n";
  const char *names[] = {"T"};
  static const double cases[][1] = {{4}, {6}, {1}};
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
    redtest_expect(text, 1, names, cases[i], 9e-6, 9e-6, 9e-6);
}

/* A lock per bucket around work on shared cores (audit 5's hash_buckets_cores, small): T threads
** on C = 4 fcfs cores, key k of thread t to bucket (t K + k) % B, K = 4, B = 16: `use(cores,
** 0.5us); hold (bucket[..]) use(cores, 1us)`. With T <= 4 every request finds a core (at most T
** <= C there at once) and the threads of one key name distinct buckets (16 / gcd(4, 16) = 4 >= T):
** the hold is plain (its body's one use never waits), no request waits, K x 1.5 = 6 us exactly
** (before: hi 17 us at T = 3, 22.5 us at T = 4, the family as one resource). T = 5 > C: not this
** rule (sim 9 us; only lo <= sim <= hi checked). */
static void test_buckets_on_cores(void **state) {
  (void)state;
  const char *text =
    "param T = 3; param C = 4; param K = 4; param B = 16; const t_hash = 0.5us; const t_insert = 1us;\n"
    "resource cores = fcfs(C); resource bucket[B];\n"
    "process main { par (t = 0, T - 1) seq (k = 0, K - 1) "
    "{ use(cores, t_hash); hold (bucket[(t * K + k) % B]) use(cores, t_insert) } }\n";
  const char *names[] = {"T"};
  static const double cases[][1] = {{3}, {4}, {1}};
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
    redtest_expect(text, 1, names, cases[i], 6e-6, 6e-6, 6e-6);
  redtest_expect_lo1(text, "T", 5, 7.5e-6, 9e-6);
}

/* The chain's first request is the hold, no delay before it (first_request): lock-step recursive
** doubling, round k of a seq a par where rank p holds nic[p xor 2^k] (written with `?:`) for t =
** 3 us, hand-off 0.2 us, P = 2^L. Round k: the P ranks start at once (the round before has ended,
** every hold released, before the par starts) and name P distinct members (an involution): no
** request waits, no hand-off; each round t, L rounds: L t = 3, 6, 9 us at L = 1, 2, 3 (was: hi
** 25.6 us at L = 2, 76.8 us at L = 3, the family as one resource). With `use(cpu[p], 1us)` after a
** hold of 0.5 + 3 us: L 4.5 us = 4.5, 13.5 us at L = 1, 3 (was: hi 91.8 us at L = 3). */
static void test_doubling_first_hold(void **state) {
  (void)state;
  const char *text =
    "param L = 3; const P = 2 ^ L; const t = 3us;\n"
    "fn partner(p, k) = (floor(p / 2 ^ k) % 2 == 0) ? p + 2 ^ k : p - 2 ^ k;\n"
    "resource nic[P] = fcfs(1) handoff(0.2us);\n"
    "process main { seq (k = 0, L - 1) par (p = 0, P - 1) hold (nic[partner(p, k)]) delay(t) }\n";
  for (int l = 1; l <= 3; l++) expect1(text, "L", l, l * 3e-6, l * 3e-6, l * 3e-6);
  const char *sum =
    "param L = 3; const P = 2 ^ L;\n"
    "fn partner(p, k) = (floor(p / 2 ^ k) % 2 == 0) ? p + 2 ^ k : p - 2 ^ k;\n"
    "resource nic[P] = fcfs(1) handoff(0.2us); resource cpu[P];\n"
    "process step(p, k) { hold (nic[partner(p, k)]) { delay(0.5us); delay(3us) }; use(cpu[p], 1us) }\n"
    "process main { seq (k = 0, L - 1) par (p = 0, P - 1) step(p, k) }\n";
  for (int l = 1; l <= 3; l += 2) expect1(sum, "L", l, l * 4.5e-6, l * 4.5e-6, l * 4.5e-6);
}

/* Not this rule: the hold first in the chain but in a loop of it (par over seq, the rounds inside
** the branch): at 2 us rank 0 releases nic[1] and asks for nic[2] before rank 2 (run after it)
** has released it, is handed it and pays 0.2 us (sim 4.2 us at L = 2). And a second hold on the
** same family with no delay before it: P = 2, rank 0 releases nic[1] at 2 us and asks for nic[0]
** that rank 1 still holds: 4.2 us. Only lo <= simulated <= hi is checked. */
static void test_first_hold_not(void **state) {
  (void)state;
  const char *text =
    "param L = 2; const P = 2 ^ L;\n"
    "fn partner(p, k) = (floor(p / 2 ^ k) % 2 == 0) ? p + 2 ^ k : p - 2 ^ k;\n"
    "resource nic[P] = fcfs(1) handoff(0.2us);\n"
    "process main { par (p = 0, P - 1) seq (k = 0, L - 1) hold (nic[partner(p, k)]) delay(2us) }\n";
  redtest_expect_lo1(text, "L", 2, 4e-6, 4.2e-6);
  const char *two =
    "param P = 2; resource nic[P] = fcfs(1) handoff(0.2us);\n"
    "process main { par (p = 0, P - 1) { hold (nic[P - 1 - p]) delay(2us); hold (nic[p]) delay(2us) } }\n";
  redtest_expect_lo1(two, "P", 2, 4e-6, 4.2e-6);
}

/* The partner written with an `if` of two holds (reduce_lower.c merge_hold): `if (bit k of p is 0)
** hold (nic[p + 2^k]) delay(t) else hold (nic[p - 2^k]) delay(t)` is `hold (nic[c ? p + 2^k : p -
** 2^k]) if (c) delay(t) else delay(t)`: the same request at the same instant. Round k as above: P
** distinct members at once, no hand-off, L t = 3, 6, 9 us at L = 1, 2, 3 (was: hi 25.6 us at
** L = 2, 76.8 us at L = 3). Sides with other bodies (2 and 3 us) then a hold of the own nic at
** once: at 2 us rank 0 releases nic[1] and asks for nic[0] that rank 1 holds until 3 us, is handed
** it at 3 us and pays 0.2: 4.2 us at P = 2 and 4; only lo <= simulated <= hi is checked. */
static void test_doubling_if_holds(void **state) {
  (void)state;
  const char *text =
    "param L = 3; const P = 2 ^ L; const t = 3us;\n"
    "resource nic[P] = fcfs(1) handoff(0.2us);\n"
    "process main { seq (k = 0, L - 1) par (p = 0, P - 1) if (floor(p / 2 ^ k) % 2 == 0) "
    "hold (nic[p + 2 ^ k]) delay(t) else { hold (nic[p - 2 ^ k]) delay(t) } }\n";
  for (int l = 1; l <= 3; l++) expect1(text, "L", l, l * 3e-6, l * 3e-6, l * 3e-6);
  const char *skew =
    "param P = 4; resource nic[P] = fcfs(1) handoff(0.2us);\n"
    "process main { par (p = 0, P - 1) { if (p % 2 == 0) hold (nic[p + 1]) delay(2us) "
    "else hold (nic[p - 1]) delay(3us); hold (nic[p]) delay(1us) } }\n";
  redtest_expect_lo1(skew, "P", 2, 4e-6, 4.2e-6);
  redtest_expect_lo1(skew, "P", 4, 4e-6, 4.2e-6);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_buckets_one_to_one),
    cmocka_unit_test(test_buckets_two_servers),
    cmocka_unit_test(test_buckets_no_gap),
    cmocka_unit_test(test_buckets_overfull),
    cmocka_unit_test(test_ports_fewer_ranks),
    cmocka_unit_test(test_buckets_on_cores),
    cmocka_unit_test(test_doubling_first_hold),
    cmocka_unit_test(test_first_hold_not),
    cmocka_unit_test(test_doubling_if_holds),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
