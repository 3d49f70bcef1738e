/*
** test_reduce_own.c — branches of a par on members of their own (lang/reduce/reduce_own.c,
** docs/reduction.md "Branches on members of their own"): each rank runs its own pipeline over one
** flat family (`stage[p * S + s]`, `stage[s * P + p]`), on small models whose schedule is worked
** out by hand in the comments; and two models where branches share members, which the rule must
** leave to the other bounds.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "reduce_case.h"

/* Rank p pushes M items through its stages p S .. p S + S - 1 (5us each). Item c enters stage s
** at (c - 1 + s) 5us (one server a stage, items in index order), so the last leaves at
** (S + M - 1) 5us: 30us at S = 3, M = 4. No other rank ever requests one of rank p's stages (p S
** + s is one-to-one in (p, s) over 0..P-1 x 0..S-1), so every rank runs as alone: hi is the
** pipeline's own bound, (S + M - 1) 5us, the simulated time (before: 240us at P = 4, the family
** taken as one resource; 5.12 ms at P = 16, S = 8, M = 32). lo: the line through the stages. */
static void test_flat_pipeline(void **state) {
  (void)state;
  const char *text =
    "param P = 4 in 1 .. 10000; param S = 3 in 1 .. 10000; param M = 4 in 1 .. 10000;\n"
    "resource stage[P * S];\n"
    "process main { par (p = 0, P - 1) par (c = 1, M) seq (s = 0, S - 1) use(stage[p * S + s], 5us) }\n";
  const char *names[] = {"P", "S", "M"};
  static const double cases[][3] = {{1, 3, 4}, {4, 3, 4}, {4, 1, 4}, {16, 8, 32}, {3, 2, 1}};
  for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
    double t = (cases[k][1] + cases[k][2] - 1) * 5e-6;
    redtest_expect(text, 3, names, cases[k], t, t, t);
  }
}

/* The same through process calls, the stages numbered s P + p (one-to-one in (p, s) too), and a
** ring message after the pipeline: rank p sends 2us on nic[(p + 1) % P], a member of its own (the
** map is one-to-one in p), so the sends wait for nothing: (S + M - 1) 5 + 2 us, 32us at S = 3,
** M = 4 and 47us at S = 2, M = 8 (before: 182us at P = 4). */
static void test_flat_pipeline_calls_ring(void **state) {
  (void)state;
  const char *text =
    "param P = 4 in 1 .. 10000; param S = 3 in 1 .. 10000; param M = 4 in 1 .. 10000;\n"
    "resource stage[P * S]; resource nic[P];\n"
    "process chunk(p, c) { seq (s = 0, S - 1) use(stage[s * P + p], 5us) }\n"
    "process rank(p) { par (c = 1, M) chunk(p, c); use(nic[(p + 1) % P], 2us) }\n"
    "process main { par (p = 0, P - 1) rank(p) }\n";
  const char *names[] = {"P", "S", "M"};
  static const double cases[][3] = {{1, 3, 4}, {4, 3, 4}, {16, 2, 8}};
  for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
    double t = (cases[k][1] + cases[k][2] - 1) * 5e-6 + 2e-6;
    redtest_expect(text, 3, names, cases[k], t, t, t);
  }
}

/* A par of one branch (`par (p = 0, 0)`) is its body: the one rank's pipeline through a call with
** a `skip` after it, (S + M - 1) 5us = 30us at S = 3, M = 4, 45us at S = 2, M = 8 (before: 75us,
** the family taken as one resource). */
static void test_one_branch(void **state) {
  (void)state;
  const char *text =
    "param M = 4 in 1 .. 10000; param S = 3 in 1 .. 10000;\n"
    "resource stage[S];\n"
    "process rank(p) { par (c = 1, M) seq (s = 0, S - 1) use(stage[s], 5us); skip }\n"
    "process main { par (p = 0, 0) rank(p) }\n";
  const char *names[] = {"M", "S"};
  double v1[] = {4, 3}, v2[] = {8, 2};
  redtest_expect(text, 2, names, v1, 30e-6, 30e-6, 30e-6);
  redtest_expect(text, 2, names, v2, 45e-6, 45e-6, 45e-6);
}

/* A chain per rank over its own stages p S + s, then one shared bus of 1us: the rule for the whole
** branch does not apply (the bus is shared), but the wait at the family is 0 (no other rank
** requests one of its stages), so a rank waits only at the bus, (P - 1) 1us: hi = S 5 + 1 + (P -
** 1) us, 14us at P = 4, S = 2 and 31us at P = 16, S = 3 (before: 24us at P = 4). The simulated
** time: every rank ends its stages at S 5us, then the P sends on the bus one after another. */
static void test_chain_own_stages_shared_bus(void **state) {
  (void)state;
  const char *text =
    "param P = 4 in 1 .. 10000; param S = 2 in 1 .. 10000;\n"
    "resource stage[P * S]; resource bus;\n"
    "process main { par (p = 0, P - 1) { seq (s = 0, S - 1) use(stage[p * S + s], 5us); use(bus, 1us) } }\n";
  const char *names[] = {"P", "S"};
  double v1[] = {4, 2}, v2[] = {16, 3};
  redtest_expect(text, 2, names, v1, 14e-6, 14e-6, 14e-6);
  redtest_expect(text, 2, names, v2, 31e-6, 31e-6, 31e-6);
}

/* Stages p + s overlap between ranks (rank 0 and rank 1 both use stage[1] at P = S = 2): the rule
** must not apply. Simulated: 20us (rank 1's items queue behind rank 0's at stage[1]); the rule
** would give the pipeline's (S + M - 1) 5 = 15us. hi stays above the simulated time. */
static void test_overlapping_stages_left(void **state) {
  (void)state;
  const char *text =
    "param P = 2 in 1 .. 10000; param S = 2 in 1 .. 10000; param M = 2 in 1 .. 10000;\n"
    "resource stage[P + S];\n"
    "process main { par (p = 0, P - 1) par (c = 1, M) seq (s = 0, S - 1) use(stage[p + s], 5us) }\n";
  double lo, hi;
  redtest_eval(text, 0, NULL, NULL, &lo, &hi);
  assert_true(lo <= 20e-6 * (1 + REDTEST_REL_TOL));
  assert_true(hi >= 20e-6 * (1 - REDTEST_REL_TOL));
}

/* Two sites on one family: rank p's own pipeline over p S + s beside a 20us use of its neighbour's
** first stage ((p + 1) % P) S. Rank p's first item and rank p - 1's 20us use both request stage[p S]
** at 0; the 20us one goes first (written first), so the pipeline starts at 20us: simulated 50us at
** P = 4, S = 3, M = 4. The rule must not apply (it would give max(20, 30) = 30us). */
static void test_two_sites_left(void **state) {
  (void)state;
  const char *text =
    "param P = 4 in 1 .. 10000; param S = 3 in 1 .. 10000; param M = 4 in 1 .. 10000;\n"
    "resource stage[P * S];\n"
    "process main { par (p = 0, P - 1) { use(stage[((p + 1) % P) * S], 20us) ||\n"
    "  par (c = 1, M) seq (s = 0, S - 1) use(stage[p * S + s], 5us) } }\n";
  double lo, hi;
  redtest_eval(text, 0, NULL, NULL, &lo, &hi);
  assert_true(lo <= 50e-6 * (1 + REDTEST_REL_TOL));
  assert_true(hi >= 50e-6 * (1 - REDTEST_REL_TOL));
}

/* A logger on a bus beside the ranks' pipelines: the bus branch uses nothing the par uses, nor the
** par anything the bus branch uses, so each runs as alone: the par in its own bound, 30us (the
** pipelines, as above), the logger in 5us: hi = 30us, the simulated time (before: 255us, the
** par's branch of `||` waiting for the family's whole demand). */
static void test_parallel_apart(void **state) {
  (void)state;
  const char *text =
    "param P = 4 in 1 .. 10000; param S = 3 in 1 .. 10000; param M = 4 in 1 .. 10000;\n"
    "resource stage[P * S]; resource bus;\n"
    "process main { { use(bus, 3us); use(bus, 2us) } ||\n"
    "  par (p = 0, P - 1) par (c = 1, M) seq (s = 0, S - 1) use(stage[p * S + s], 5us) }\n";
  const char *names[] = {"P", "S", "M"};
  double v1[] = {4, 3, 4}, v2[] = {2, 1, 1};
  redtest_expect(text, 3, names, v1, 30e-6, 30e-6, 30e-6);
  redtest_expect(text, 3, names, v2, 5e-6, 5e-6, 5e-6);
}

/* Each rank's pipeline, then a send of 2us to one root (a plain resource): the block's first
** statement uses only the rank's own stages and runs as alone, (S + M - 1) 5us; the send waits at
** most for the other ranks' sends, (P - 1) 2us: hi = (S + M - 1) 5 + 2 P us, 38us at P = 4, S = 3,
** M = 4 and 77us at P = 16, S = 2, M = 8, the simulated time (every rank ends its pipeline at once,
** then the P sends one after another; before: 188us and 192us). The send first, then the
** pipeline: the same sum, the same simulated time. */
static void test_steps_pipeline_then_root(void **state) {
  (void)state;
  const char *after =
    "param P = 4 in 1 .. 10000; param S = 3 in 1 .. 10000; param M = 4 in 1 .. 10000;\n"
    "resource stage[P * S]; resource root;\n"
    "process main { par (p = 0, P - 1) {\n"
    "  par (c = 1, M) seq (s = 0, S - 1) use(stage[p * S + s], 5us); use(root, 2us) } }\n";
  const char *before =
    "param P = 4 in 1 .. 10000; param S = 3 in 1 .. 10000; param M = 4 in 1 .. 10000;\n"
    "resource stage[P * S]; resource root;\n"
    "process main { par (p = 0, P - 1) {\n"
    "  use(root, 2us); par (c = 1, M) seq (s = 0, S - 1) use(stage[p * S + s], 5us) } }\n";
  const char *names[] = {"P", "S", "M"};
  double v1[] = {4, 3, 4}, v2[] = {16, 2, 8};
  double lo, hi;
  redtest_eval(after, 3, names, v1, &lo, &hi);
  redtest_near(hi, 38e-6);
  redtest_eval(after, 3, names, v2, &lo, &hi);
  redtest_near(hi, 77e-6);
  redtest_eval(before, 3, names, v1, &lo, &hi);
  redtest_near(hi, 38e-6);
  assert_true(lo <= 38e-6 * (1 + REDTEST_REL_TOL));
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_flat_pipeline),
    cmocka_unit_test(test_flat_pipeline_calls_ring),
    cmocka_unit_test(test_one_branch),
    cmocka_unit_test(test_chain_own_stages_shared_bus),
    cmocka_unit_test(test_overlapping_stages_left),
    cmocka_unit_test(test_two_sites_left),
    cmocka_unit_test(test_parallel_apart),
    cmocka_unit_test(test_steps_pipeline_then_root),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
