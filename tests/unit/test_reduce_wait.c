/*
** test_reduce_wait.c — the wait behind the requests ahead at a first FCFS stage
** (lang/reduce/order/reduce_wait.c, docs/reduction.md "The wait behind the requests ahead"), on small
** models whose schedule is worked out by hand in the comments (the simulated time) and whose
** lower bound is derived by hand from the rule: branch k ends at least at its contention-free
** time plus (W_k - (m - 1) t_max) / m; and the second round of threads that loop on cores
** (reduce_stage.c, order_second_round_lower). Each case checks lo against its derivation and
** lo <= simulated <= hi.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "reduce_case.h"

/* One server, N requests of 2 us at once, then odd branches compute 5 us more. One server serves
** them in index order: branch k starts at 2k. N = 4: branch 3 at 6 .. 8, then 5: 13 (sim 13);
** the rule at k = 3: phi = 7, W_3 = 6, m = 1: 7 + 6 = 13 (the load and the least tail: 8).
** N = 5: branch 4 ends at 10 and stops, branch 3 still ends at 13: 13. N = 1: 2. */
static void test_one_server_tails(void **state) {
  (void)state;
  const char *text = "param N = 4;\nresource cpu;\n"
                     "process main { par (i = 0, N - 1) { use(cpu, 2us); delay((i % 2) * 5us) } }\n";
  redtest_expect_lo1(text, "N", 4, 13e-6, 13e-6);
  redtest_expect_lo1(text, "N", 5, 13e-6, 13e-6);
  redtest_expect_lo1(text, "N", 1, 2e-6, 2e-6);
}

/* Six records of 1, 2, 3, 1, 2, 3 us through S = 3 stages of fcfs(2). First stage: r0 0 .. 1,
** r1 0 .. 2, r2 1 .. 4, r3 2 .. 3, r4 3 .. 5, r5 4 .. 7; r5 then needs 3 + 3 at the next two
** stages: at least 13, and the simulator gives 13. The rule at k = 5: W_5 = 9, t_max = 3,
** (9 - 3) / 2 = 3, phi(5) = 9: 12. After a delay of 2 us first (the head), 14 (sim 15). */
static void test_replicated_line(void **state) {
  (void)state;
  const char *text = "param S = 3;\nparam M = 6;\nresource stage[S] = fcfs(2);\n"
                     "process main { par (m = 0, M - 1) seq (s = 0, S - 1) use(stage[s], (1 + m % 3) * 1us) }\n";
  redtest_expect_lo1(text, "S", 3, 12e-6, 13e-6);
  const char *late = "param S = 3;\nparam M = 6;\nresource stage[S] = fcfs(2);\n"
                     "process main { par (m = 0, M - 1) { delay(2us); seq (s = 0, S - 1) use(stage[s], (1 + m % 3) * 1us) } }\n";
  redtest_expect_lo1(late, "S", 3, 14e-6, 15e-6);
}

/* Branches that reach the server at different times are not served in index order: branch i
** waits (3 - i) 2 us first. Arrivals 3 at 0, 2 at 2, 1 at 4, 0 at 6, none waits; branch 1 ends
** at 6 + 5 = 11, the others earlier: 11. Read as if all came at once in index order, branch 3
** would start at 6 and end at 13: the rule must not apply (lo at most 11). */
static void test_heads_apart(void **state) {
  (void)state;
  const char *text = "param N = 4;\nresource cpu;\n"
                     "process main { par (i = 0, N - 1) { delay((3 - i) * 2us); use(cpu, 2us); delay((i % 2) * 5us) } }\n";
  redtest_expect_lo1(text, "N", 4, -1, 11e-6);
}

/* T = 5 threads of 1 + p % 3 rounds of 4 us on fcfs(2) cores and 3 us of sleep. First round:
** p0, p1 at 0 .. 4, p2, p3 at 4 .. 8, p4 waits until 8. p1 is back at 7, p2 at 11, p4 at 15; at
** 8 the cores take p4's first and p1's second (8 .. 12), p2 waits until 12 (12 .. 16), is back at
** 19 (19 .. 23) and ends at 26 (sim 26). The rule at k = 2: 5 first requests and p1's second are
** ahead of p2's second: floor(6 / 2) 4 = 12, then phi(2) - iter = 21 - 7: 26 (the counted stage:
** ceil(10 / 2) 4 + 3 = 23). T = 1: one round, 7. */
static void test_second_round(void **state) {
  (void)state;
  const char *text = "param T = 5;\nresource cores = fcfs(2);\n"
                     "process main { par (p = 0, T - 1) repeat (1 + p % 3) { use(cores, 4us); delay(3us) } }\n";
  redtest_expect_lo1(text, "T", 5, 26e-6, 26e-6);
  redtest_expect_lo1(text, "T", 1, 7e-6, 7e-6);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_one_server_tails),
    cmocka_unit_test(test_replicated_line),
    cmocka_unit_test(test_heads_apart),
    cmocka_unit_test(test_second_round),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
