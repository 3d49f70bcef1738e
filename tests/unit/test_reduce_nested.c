/*
** test_reduce_nested.c — a par nested in a branch takes at least its lower bound (docs/reduction.md,
** "Pars nested in a chain"; reduce_order.c nested_least): the requests after it are released no
** earlier than that, not at its contention-free time; and threads looping on ps (a repeat of one
** use read as one request, reduce_ps_batch.c). Each bound is derived by hand below and is the
** simulated time; each fails on the code before these rules.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "reduce_case.h"

/* Rank p runs T = 4 threads of 10us on its 2 cores (fcfs(2)), then sends 3us to both ring
** neighbours at once. The threads take 2 rounds, 20us (L of the inner par: 4 x 10 / 2), not their
** contention-free 10us; then nic[q] gets the sends of q - 1 and q + 1, both released at 20us:
** the second ends at 20 + 2 x 3 = 26us, the simulated time (P = 4 and 16). T = 5: 3 rounds, 30us
** (L = max(ceil(5 / 2) x 10, 50 / 2) = 30), 36us. Before: 23us at T = 4 (the cores' 20us plus
** one send: the sends were released at 10us, 10 + 6 = 16). */
static void test_threads_then_ring(void **state) {
  (void)state;
  const char *text =
    "param P = 4 in 1 .. 10000; param T = 4 in 1 .. 10000;\n"
    "resource cores[P] = fcfs(2); resource nic[P];\n"
    "process main { par (p = 0, P - 1) {\n"
    "  par (t = 1, T) use(cores[p], 10us);\n"
    "  use(nic[(p + 1) % P], 3us) || use(nic[(p + P - 1) % P], 3us) } }\n";
  const char *names[] = {"P", "T"};
  double v1[] = {4, 4}, v2[] = {16, 4}, v3[] = {4, 5};
  redtest_expect_lo(text, 2, names, v1, 26e-6, 26e-6);
  redtest_expect_lo(text, 2, names, v2, 26e-6, 26e-6);
  redtest_expect_lo(text, 2, names, v3, 36e-6, 36e-6);
}

/* Rank p pushes M items through its own S stages (5us each, stage[p S + s]), then sends 2us to one
** root. Each pipeline ends at (S + M - 1) 5us (the inner par's L, its pipeline bound), every
** rank's at once, and the root serves the P sends one after another:
** (S + M - 1) 5 + 2 P us: 30 + 8 = 38us at P = 4, S = 3, M = 4; 45 + 32 = 77us at P = 16, S = 2,
** M = 8, the simulated times. Before: 32us and 47us (the sends released at S 5us: 15 + 8 = 23,
** 10 + 32 = 42; the pipeline's 30 or 45us plus one send). */
static void test_pipeline_then_root(void **state) {
  (void)state;
  const char *text =
    "param P = 4 in 1 .. 10000; param S = 3 in 1 .. 10000; param M = 4 in 1 .. 10000;\n"
    "resource stage[P * S]; resource root;\n"
    "process main { par (p = 0, P - 1) {\n"
    "  par (c = 1, M) seq (s = 0, S - 1) use(stage[p * S + s], 5us); use(root, 2us) } }\n";
  const char *names[] = {"P", "S", "M"};
  double v1[] = {4, 3, 4}, v2[] = {16, 2, 8};
  redtest_expect_lo(text, 3, names, v1, 38e-6, 38e-6);
  redtest_expect_lo(text, 3, names, v2, 77e-6, 77e-6);
}

/* The threads on processor-shared cores (ps(2)), written in a process of their own: 4 threads of
** 10us on 2 cores take 40 / 2 = 20us (L: the demand over the capacity), then the P ranks' 2us sends
** to one root queue: 20 + 2 P us, 28us at P = 4 and 52us at P = 16, the simulated times. Before:
** 22us and 42us. */
static void test_ps_threads_then_root(void **state) {
  (void)state;
  const char *text =
    "param P = 3 in 1 .. 10000;\n"
    "resource cores[P] = ps(2); resource root;\n"
    "process threads(p) { par (t = 1, 4) use(cores[p], 10us) }\n"
    "process main { par (p = 0, P - 1) { threads(p); use(root, 2us) } }\n";
  redtest_expect_lo1(text, "P", 4, 28e-6, 28e-6);
  redtest_expect_lo1(text, "P", 16, 52e-6, 52e-6);
}

/* Threads looping on ps (reduce_ps_batch.c, repeated_use): `repeat (K) use(cores, x)` alone is one
** request of K x. T = 5 threads, 10 requests each of 10us (even t) or 20us (odd t) on ps(4): sizes
** 100us (three) and 200us (two), drained in 100 max(1, 5 / 4) + 100 max(1, 2 / 4) = 225us; T = 8,
** four of each: 100 x 2 + 100 x 1 = 300us; lo = hi, the simulated times. A delay of 1us after the
** loop: 226us. Before: lo 200us and hi 250us at T = 5 (the longest thread; the bounded clients). */
static void test_ps_repeat_batch(void **state) {
  (void)state;
  const char *text =
    "param T = 8 in 1 .. 100000;\n"
    "resource cores = ps(4);\n"
    "process main { par (t = 0, T - 1) repeat (10) use(cores, (1 + t % 2) * 10us) }\n";
  const char *after =
    "param T = 8 in 1 .. 100000;\n"
    "resource cores = ps(4);\n"
    "process main { par (t = 0, T - 1) { repeat (10) use(cores, (1 + t % 2) * 10us); delay(1us) } }\n";
  const char *names[] = {"T"};
  double v5[] = {5}, v8[] = {8};
  redtest_expect(text, 1, names, v5, 225e-6, 225e-6, 225e-6);
  redtest_expect(text, 1, names, v8, 300e-6, 300e-6, 300e-6);
  redtest_expect(after, 1, names, v5, 226e-6, 226e-6, 226e-6);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_threads_then_ring),
    cmocka_unit_test(test_pipeline_then_root),
    cmocka_unit_test(test_ps_threads_then_root),
    cmocka_unit_test(test_ps_repeat_batch),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
