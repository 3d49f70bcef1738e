/*
** test_reduce.c — the reduction (lang/reduce/reduce.h) on the worked examples of EXAMPLES.md and small
** models whose bounds are derived by hand in the comments.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "eval.h"
#include "program.h"
#include "reduce.h"
#include "reduce_case.h"

static void assert_near(double got, double want) { redtest_near(got, want); }

/* EXAMPLES.md §1: T_hi = 1737.68 us. T_lo: 1310.96 us by the contract's rules; the order-aware
** lower bound (docs/reduction.md: the bus is a stage of every branch, reached after c = 125 us,
** 8 requests of m = 6.096 us) gives 10 (c + 8m) = 1737.68 us, the simulated time. */
static void test_example1(void **state) {
  (void)state;
  const char *text =
    "param N = 1_000_000; param P = 8; param iters = 10;\n"
    "const t_point = 1ns; const latency = 2us; const byte_time = 0.5ns;\n"
    "resource cpu[P]; resource bus;\n"
    "fn msg(bytes) = latency + bytes * byte_time;\n"
    "process step(p) { use(cpu[p], ceil(N / P) * t_point); use(bus, msg(8 * 1024)) }\n"
    "process main { repeat (iters) par (p = 0, P - 1) step(p) }\n";
  double lo, hi;
  redtest_eval(text, 0, NULL, NULL, &lo, &hi);
  assert_near(lo, 1737.68e-6);
  assert_near(hi, 1737.68e-6);
}

/* EXAMPLES.md §2: T_lo = 4, T_hi = 5 by the contract's rules (a branch that is not a chain waits
** for the whole demand). pamc sees par (p) par (q) as one par over the 4 pairs, each a chain with
** one request on r (docs/reduction.md, tandem line with one stage): T_hi = ceil(4 / 1) * 1 = 4,
** the simulated time. With a second statement in the outer branch the pairs are not one par and
** the contract's rule gives 5 again; bounded clients (docs/reduction.md, "Pars whose branches send
** at once") read the inner par as 2 copies of the use: 2 * 2 = 4 clients of r, a request waits at
** most 3 us, T_hi = 4 us, the simulated time. */
static void test_example2(void **state) {
  (void)state;
  double lo, hi;
  redtest_eval("resource r;\nprocess main { par (p = 0, 1) par (q = 0, 1) use(r, 1us) }\n", 0,
               NULL, NULL, &lo, &hi);
  assert_near(lo, 4e-6);
  assert_near(hi, 4e-6);
  redtest_eval("resource r;\nprocess main { par (p = 0, 1) { par (q = 0, 1) use(r, 1us); skip } }\n", 0,
               NULL, NULL, &lo, &hi);
  assert_near(lo, 4e-6);
  assert_near(hi, 4e-6);
}

/* EXAMPLES.md §3 at N = 10: T_lo = 68.75, T_hi = 76.25 by the contract's rules. pamc sees the
** par's 10 requests of i us arrive at once, in index order, on mem = fcfs(4) with nothing beside
** (docs/reduction.md, "requests in FCFS order"): dealt round robin, the servers end at 1 + 5 + 9,
** 2 + 6 + 10, 3 + 7 and 4 + 8 us, so T_lo = 55 + 18 = 73 us, the simulated time. */
static void test_example3(void **state) {
  (void)state;
  const char *text =
    "param N = 5;\nconst t = 1us;\nresource mem = fcfs(4);\n"
    "process main { seq (i = 1, N) delay(i * t); par (i = 1, N) use(mem, i * t) }\n";
  const char *names[] = {"N"};
  double values[] = {10};
  double lo, hi;
  redtest_eval(text, 1, names, values, &lo, &hi);
  assert_near(lo, 73e-6);
  assert_near(hi, 76.25e-6);
}

/* An empty par range (P = 1): par (p = 1, P - 1) use(r, 1) is 0; plus delay(2) gives 2. */
static void test_empty_range(void **state) {
  (void)state;
  const char *text = "param P = 4;\nresource r;\n"
                     "process main { delay(2); par (p = 1, P - 1) use(r, 1) }\n";
  const char *names[] = {"P"};
  double one[] = {1}, four[] = {4};
  double lo, hi;
  redtest_eval(text, 1, names, one, &lo, &hi);
  assert_near(lo, 2);
  assert_near(hi, 2);
  /* P = 4: 3 uses of r, serial: L = 2 + 3 = 5; U = 2 + max_p(1 + (3 - 1)) = 5 */
  redtest_eval(text, 1, names, four, &lo, &hi);
  assert_near(lo, 5);
  assert_near(hi, 5);
}

/* choose hull: choose(0.5) delay(1) else delay(3): L = 1, U = 3. */
static void test_choose_hull(void **state) {
  (void)state;
  double lo, hi;
  redtest_eval("process main { choose (0.5) delay(1) else delay(3) }\n", 0, NULL, NULL, &lo, &hi);
  assert_near(lo, 1);
  assert_near(hi, 3);
}

/* An `if` on the par index splits the range: p == 0 alone uses the bus for 5 us, the others
** delay 1 us in parallel, so both bounds are 5 us (at P = 1 only p = 0 runs: 5 us). */
static void test_split_first(void **state) {
  (void)state;
  const char *text = "param P = 8; resource bus;\n"
                     "process main { par (p = 0, P - 1) if (p == 0) use(bus, 5us) else delay(1us) }\n";
  const char *names[] = {"P"};
  double lo, hi;
  for (int k = 0; k < 2; k++) {
    double values[] = {k ? 1 : 8};
    redtest_eval(text, 1, names, values, &lo, &hi);
    assert_near(lo, 5e-6);
    assert_near(hi, 5e-6);
  }
}

/* Residue classes: the ceil(P/2) even p use the bus 1 us each (serialised), the odd ones delay
** 3 us. P = 8: bus 4 us > 3 us, and an even branch waits for the 3 others: 1 + 3 = 4 us.
** P = 4: bus 2 us < 3 us = T_lo; T_hi = max(1 + 1, 3) = 3 us. */
static void test_split_residue(void **state) {
  (void)state;
  const char *text = "param P = 8; resource bus;\n"
                     "process main { par (p = 0, P - 1) if (p % 2 == 0) use(bus, 1us) else delay(3us) }\n";
  const char *names[] = {"P"};
  double values[] = {8}, lo, hi;
  redtest_eval(text, 1, names, values, &lo, &hi);
  assert_near(lo, 4e-6);
  assert_near(hi, 4e-6);
  values[0] = 4;
  redtest_eval(text, 1, names, values, &lo, &hi);
  assert_near(lo, 3e-6);
  assert_near(hi, 3e-6);
}

/* A seq split by a range test: i = 1, 2 take 10 us, the rest 1 us. N = 5: 20 + 3 = 23 us;
** N = 2: 1 + 10 = 11 us; N = 1: 1 us. */
static void test_split_seq_range(void **state) {
  (void)state;
  const char *text = "param N = 5;\n"
                     "process main { seq (i = 0, N - 1) if (i >= 1 and i <= 2) delay(10us) else delay(1us) }\n";
  const char *names[] = {"N"};
  const double ns[] = {5, 2, 1}, want[] = {23e-6, 11e-6, 1e-6};
  for (int k = 0; k < 3; k++) {
    double values[] = {ns[k]}, lo, hi;
    redtest_eval(text, 1, names, values, &lo, &hi);
    assert_near(lo, want[k]);
    assert_near(hi, want[k]);
  }
}

/* A test linear in the index splits the range too: a master deals N tasks in rounds of W
** workers through its one port, `if ((r - 1) * W + w <= N)` (w <= N - (r - 1) W). Round r sends
** n_r = min(W, N - (r - 1) W) tasks of 1 us in turn, the last one then computes 20 us: n_r + 20
** us a round. N = 10, W = 3 (4 rounds: 3, 3, 3, 1 tasks): 10 + 4 * 20 = 90 us. And the slope
** negative, `if (N - w >= (r - 1) * W)`: the same. Before: the `if` was not split, lo 84 us (4
** rounds of 21 us). */
static void test_split_linear(void **state) {
  (void)state;
  const char *forms[] = {"(r - 1) * W + w <= N", "N - w >= (r - 1) * W", "2 * w + 2 * (r - 1) * W < 2 * N + 1"};
  for (int k = 0; k < 3; k++) {
    char text[512];
    snprintf(text, sizeof text,
             "param N = 10; param W = 3; resource port;\n"
             "process main { seq (r = 1, ceil(N / W)) par (w = 1, W) if (%s) { use(port, 1us); delay(20us) } }\n",
             forms[k]);
    double lo, hi;
    redtest_eval(text, 0, NULL, NULL, &lo, &hi);
    assert_near(lo, 90e-6);
    assert_near(hi, 90e-6);
  }
}

/* Pieces of a split range share family members: i = 0 and 2 both use r[0], 1 and 3 use r[1],
** so the simulated time is 2 us. Within a piece no member is shared; the upper bound must still
** count the other piece's demand on the family (T_hi >= 2 us; here 1 + 2 = 3 us). */
static void test_split_shared_family(void **state) {
  (void)state;
  const char *text = "resource r[2];\n"
                     "process main { par (i = 0, 3) if (i < 2) use(r[i % 2], 1us) else use(r[i % 2], 1us) }\n";
  double lo, hi;
  redtest_eval(text, 0, NULL, NULL, &lo, &hi);
  assert_true(lo <= 2e-6);
  assert_true(hi >= 2e-6);
  /* read whole (docs/reduction.md, "Sides walked apart"): the sides differ only in members, one
  ** chain on r[i % 2], 2 of the 4 branches per member: hi = 2 us, the simulated time (the pieces'
  ** rule alone: 3 us) */
  assert_near(hi, 2e-6);
}

/* The checks left for evaluation: each is evaluated at a param point with the consts at their
** values; returns the number of checks that certainly fail there. */
static int redtest_failing_checks(const char *text, const char *param, double value) {
  RedtestRun run;
  redtest_open(&run, text, 1, &param, &value);
  ReduceResult r = run.r;
  AlgInterval *env = run.env;
  int failing = 0;
  for (int k = 0; k < r.check_count; k++) {
    const ReduceCheck *check = &r.checks[k];
    AlgInterval v = alg_eval_tree(r.alg, check->value, env);
    switch (check->kind) {
    case REDUCE_CHECK_NONNEG: failing += v.hi < 0; break;
    case REDUCE_CHECK_NONZERO: failing += v.lo == 0 && v.hi == 0; break;
    case REDUCE_CHECK_INTEGER: failing += v.lo == v.hi && v.lo != floor(v.lo); break;
    case REDUCE_CHECK_INDEX: {
      AlgInterval top = alg_eval_tree(r.alg, check->value_hi, env);
      AlgInterval limit = alg_eval_tree(r.alg, check->limit, env);
      failing += v.hi < 0 || top.lo > limit.hi - 1;
      break;
    }
    }
  }
  redtest_close(&run);
  return failing;
}

/* r[p + 1] over p = 0 .. P-1 reaches member P: out of range for P = 4, not for P = 3. */
static void test_check_index(void **state) {
  (void)state;
  const char *text = "param P = 2; resource r[4];\n"
                     "process main { par (p = 0, P - 1) use(r[p + 1], 1us) }\n";
  assert_int_equal(redtest_failing_checks(text, "P", 3), 0);
  assert_int_equal(redtest_failing_checks(text, "P", 4), 1);
}

/* 5us - i*1us over i = 0 .. N is negative at i = N once N >= 6; a non-integer N is a bad bound. */
static void test_check_duration_and_bound(void **state) {
  (void)state;
  const char *text = "param N = 2;\n"
                     "process main { seq (i = 0, N) delay(5us - i * 1us) }\n";
  assert_int_equal(redtest_failing_checks(text, "N", 5), 0);
  assert_int_equal(redtest_failing_checks(text, "N", 6), 1);
  assert_int_equal(redtest_failing_checks(text, "N", 2.5), 1);
}

/* A duration under an `if` on a param is checked only where the branch runs. */
static void test_check_guarded(void **state) {
  (void)state;
  const char *text = "param P = 1; const t = 1us;\n"
                     "process main { if (P > 2) delay(t - 3us) else delay(t) }\n";
  assert_int_equal(redtest_failing_checks(text, "P", 2), 0);
  assert_int_equal(redtest_failing_checks(text, "P", 3), 1);
}

/* --expected: each choose counts as the p-weighted mix of its branches. Four branches, each
** choose (0.25) use(bus, 4us) else delay(1us): expected critical path 0.25*4 + 0.75*1 = 1.75 us,
** expected bus demand 4 * 0.25 * 4 = 4 us, so T_exp = 4 us; the bounds keep the hull (1 us,
** and 4 * 4 = 16 us when every branch takes the bus). */
static void test_expected_choose(void **state) {
  (void)state;
  const char *text = "resource bus;\n"
                     "process main { par (p = 0, 3) choose (0.25) use(bus, 4us) else delay(1us) }\n";
  DiagList diags;
  diag_init(&diags);
  Program prog;
  assert_int_equal(program_load_string(&prog, &diags, "test.pam", text, NULL), PROGRAM_OK);
  assert_int_equal(check_program(&prog), 0);
  ReduceResult r;
  ReduceOptions opts = {1, 0};
  assert_int_equal(reduce_program(&prog, &opts, &r, &diags), 0);
  assert_non_null(r.t_expected);
  AlgInterval *env = calloc(alg_symbol_count(r.alg) + 1, sizeof *env);
  assert_near(alg_eval_tree(r.alg, r.t_expected, env).lo, 4e-6);
  assert_near(alg_eval_tree(r.alg, r.t_lo, env).lo, 1e-6);
  assert_near(alg_eval_tree(r.alg, r.t_hi, env).hi, 16e-6);
  free(env);
  reduce_result_free(&r);
  program_free(&prog);
  diag_free(&diags);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_example1),
    cmocka_unit_test(test_example2),
    cmocka_unit_test(test_example3),
    cmocka_unit_test(test_empty_range),
    cmocka_unit_test(test_choose_hull),
    cmocka_unit_test(test_split_first),
    cmocka_unit_test(test_split_residue),
    cmocka_unit_test(test_split_seq_range),
    cmocka_unit_test(test_split_linear),
    cmocka_unit_test(test_split_shared_family),
    cmocka_unit_test(test_check_index),
    cmocka_unit_test(test_check_duration_and_bound),
    cmocka_unit_test(test_check_guarded),
    cmocka_unit_test(test_expected_choose),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
