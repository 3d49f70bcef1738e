/*
** test_predict.c — the evaluation plan and the point checks of `pamc predict` (lang/predict/predict.h)
** against the numbers of EXAMPLES.md §1 and bounds derived by hand in the comments.
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
#include "predict.h"

/* Relative tolerance of an evaluated bound against its hand derivation (a few roundings). */
#define PREDTEST_REL_TOL 1e-9

/* LANGUAGE.md §7 with the constants given as text (points or intervals). */
static const char predtest_halo[] =
  "param N = 1_000_000;\n"
  "param P = 16;\n"
  "param iters = 100;\n"
  "const t_point = %s;\n"
  "const latency = %s;\n"
  "const byte_time = %s;\n"
  "resource cpu[P];\n"
  "resource bus;\n"
  "fn msg(bytes) = latency + bytes * byte_time;\n"
  "process step(p) {\n"
  "  use(cpu[p], ceil(N / P) * t_point);\n"
  "  use(bus, msg(8 * 1024))\n"
  "}\n"
  "process main {\n"
  "  repeat (iters) par (p = 0, P - 1) step(p)\n"
  "}\n";

/* One loaded, checked and reduced model with a sweep over one param. */
typedef struct PredTest {
  DiagList diags;           /* errors */
  Program prog;             /* the model */
  ReduceResult reduced;     /* its bounds */
  Sweep sweep;              /* the swept param */
  PredictPlan plan;         /* the plan under test */
  int plan_status;          /* predict_plan_init's result */
} PredTest;

static void predtest_open(PredTest *t, const char *text, const char *swept, const char *values,
                          const ProgramDefine *defines, int define_count) {
  memset(t, 0, sizeof *t);
  diag_init(&t->diags);
  ProgramOptions opts;
  memset(&opts, 0, sizeof opts);
  opts.defines = defines;
  opts.define_count = define_count;
  assert_int_equal(program_load_string(&t->prog, &t->diags, "test.pam", text, &opts), PROGRAM_OK);
  assert_int_equal(check_program(&t->prog), 0);
  ReduceOptions ropts = {0, 0};
  assert_int_equal(reduce_program(&t->prog, &ropts, &t->reduced, &t->diags), 0);
  sweep_init(&t->sweep);
  char message[SWEEP_MESSAGE_SIZE];
  if (swept) assert_int_equal(sweep_add(&t->sweep, swept, values, swept, message, sizeof message), 0);
  t->plan_status = predict_plan_init(&t->plan, &t->reduced, &t->sweep, &t->diags);
}

static void predtest_close(PredTest *t) {
  predict_plan_free(&t->plan);
  sweep_free(&t->sweep);
  reduce_result_free(&t->reduced);
  program_free(&t->prog);
  diag_free(&t->diags);
}

/* Evaluates every point of the sweep (at most one batch). Returns the number of points. */
static int predtest_eval(PredTest *t, PredictBatch *out, double *axis0) {
  double point[SWEEP_MAX_AXES];
  int n = 0;
  while (n < PREDICT_BATCH && sweep_next(&t->sweep, point)) axis0[n++] = point[0];
  const double *axes[1] = {axis0};
  assert_int_equal(predict_eval(&t->plan, n, axes, out), 0);
  return n;
}

static void predtest_close_to(double got, double want) {
  if (fabs(got - want) > PREDTEST_REL_TOL * fabs(want)) {
    fprintf(stderr, "got %.17g, want %.17g\n", got, want);
    fail();
  }
}

static const char *predtest_bottleneck(const PredTest *t, const PredictBatch *b, int k) {
  return t->reduced.terms[b->bottleneck[k]].name;
}

/* EXAMPLES.md §1: P = 8, iters = 10, c = 125us, m = 6.096us: T_hi = 10 (8m + c) = 1737.68us.
** The rules of the contract give T_lo = 10 (c + m) = 1310.96us; the order-aware lower bound of
** docs/reduction.md (the bus is every branch's stage: head c + 8 requests of m + tail 0) gives
** T_lo = 10 (c + 8m) = 1737.68us, the simulated time; est = T_lo (the constants are points).
** Bottleneck: the critical path (1310.96) beats the bus (10 * 8m = 487.68) and each cpu.
** P = 16: c = 62.5: T_lo = T_hi = 10 (16m + c) = 1600.36us; the bus (975.36) is the bottleneck. */
static void test_example1_points(void **state) {
  (void)state;
  char text[2048];
  snprintf(text, sizeof text, predtest_halo, "1ns", "2us", "0.5ns");
  ProgramDefine iters = {"iters", "10", "iters=10"};
  PredTest t;
  predtest_open(&t, text, "P", "8,16", &iters, 1);
  assert_int_equal(t.plan_status, 0);
  static PredictBatch b;
  double p[PREDICT_BATCH];
  assert_int_equal(predtest_eval(&t, &b, p), 2);
  predtest_close_to(b.lo[0], 1737.68e-6);
  predtest_close_to(b.est[0], 1737.68e-6);
  predtest_close_to(b.hi[0], 1737.68e-6);
  assert_string_equal(predtest_bottleneck(&t, &b, 0), "critical path");
  predtest_close_to(b.lo[1], 1600.36e-6);
  predtest_close_to(b.hi[1], 1600.36e-6);
  assert_string_equal(predtest_bottleneck(&t, &b, 1), "bus");
  assert_true(b.lo[0] <= b.est[0] && b.est[0] <= b.hi[0]);
  predtest_close(&t);
}

/* Interval constants: lo at the low ends (c = 112.5, m = 1.8 + 8192 * 0.00045 = 5.4864:
** 10 (c + 8m) = 1563.912us, the order-aware bound), hi at the high ends (c = 137.5,
** m = 2.2 + 8192 * 0.00055 = 6.7056: 10 (8m + c) = 1911.448us), est at the midpoints = the point
** values of §1 (1737.68us). */
static void test_intervals_and_midpoints(void **state) {
  (void)state;
  char text[2048];
  snprintf(text, sizeof text, predtest_halo, "[0.9ns, 1.1ns]", "[1.8us, 2.2us]", "[0.45ns, 0.55ns]");
  ProgramDefine iters = {"iters", "10", "iters=10"};
  PredTest t;
  predtest_open(&t, text, "P", "8", &iters, 1);
  assert_int_equal(t.plan_status, 0);
  static PredictBatch b;
  double p[PREDICT_BATCH];
  assert_int_equal(predtest_eval(&t, &b, p), 1);
  predtest_close_to(b.lo[0], 1563.912e-6);
  predtest_close_to(b.est[0], 1737.68e-6);
  predtest_close_to(b.hi[0], 1911.448e-6);
  predtest_close(&t);
}

/* A sweep of more than one batch streams: 3000 points, each T = N * 1us exactly. */
static void test_batches(void **state) {
  (void)state;
  PredTest t;
  predtest_open(&t, "param N = 1;\nprocess main { seq (i = 1, N) delay(1us) }\n", "N", "1..3000",
                NULL, 0);
  assert_int_equal(t.plan_status, 0);
  static PredictBatch b;
  static double axis[PREDICT_BATCH];
  const double *axes[1] = {axis};
  double point[SWEEP_MAX_AXES];
  long seen = 0;
  int more = 1;
  while (more) {
    int n = 0;
    while (n < PREDICT_BATCH && (more = sweep_next(&t.sweep, point))) axis[n++] = point[0];
    if (!n) break;
    assert_int_equal(predict_eval(&t.plan, n, axes, &b), 0);
    for (int k = 0; k < n; k++) predtest_close_to(b.est[k], axis[k] * 1e-6);
    seen += n;
  }
  assert_int_equal(seen, 3000);
  predtest_close(&t);
}

/* A const without a value used by the bounds is an error at its declaration. */
static void test_const_without_value(void **state) {
  (void)state;
  PredTest t;
  predtest_open(&t, "const t_op;\nparam N = 10;\nprocess main { delay(N * t_op) }\n", NULL, NULL, NULL, 0);
  assert_int_equal(t.plan_status, 1);
  assert_true(t.diags.errors > 0);
  predtest_close(&t);
}

/* delay((N - 5) * 1us) on line 3: negative for N < 5. POINT finds it at N = 1, not at N = 5;
** HULL flags [1, 10] and passes [5, 10]; the batch check names the first bad point. */
static void test_checks(void **state) {
  (void)state;
  PredTest t;
  predtest_open(&t, "param N = 10;\nprocess main {\n  delay((N - 5) * 1us)\n}\n", "N", "1..10", NULL, 0);
  const Decl *n = program_lookup(&t.prog, "N");
  const Decl *entry = program_entry(&t.prog);
  PredictIssue issue;
  EvalBinding bind = {n, ival_point(1)};
  assert_int_equal(predict_check(entry, &bind, 1, NULL, 0, PREDICT_CHECK_POINT, &issue), 1);
  assert_int_equal(issue.loc.line, 3);
  assert_non_null(strstr(issue.message, "negative"));
  bind.value = ival_point(5);
  assert_int_equal(predict_check(entry, &bind, 1, NULL, 0, PREDICT_CHECK_POINT, &issue), 0);
  bind.value = ival_make(1, 10);
  assert_int_equal(predict_check(entry, &bind, 1, NULL, 0, PREDICT_CHECK_HULL, &issue), 1);
  bind.value = ival_make(5, 10);
  assert_int_equal(predict_check(entry, &bind, 1, NULL, 0, PREDICT_CHECK_HULL, &issue), 0);
  static PredictBatch b;
  double values[4] = {7, 6, 4, 3};
  const double *axes[1] = {values};
  assert_int_equal(predict_eval(&t.plan, 4, axes, &b), 0);
  assert_int_equal(predict_check_batch(entry, &n, 1, 4, axes, &b, &issue), 2);
  predtest_close(&t);
}

/* A family indexed past its end (K = 2 members, P = 3 workers) and a non-integer loop bound. */
static void test_family_and_bounds(void **state) {
  (void)state;
  PredTest t;
  predtest_open(&t, "param P = 2;\nparam K = 2;\nresource cpu[K];\n"
                "process main {\n  par (p = 0, P - 1) use(cpu[p], 1us);\n  seq (i = 1, P / 2) delay(1us)\n}\n",
                "P", "2,3", NULL, 0);
  const Decl *p = program_lookup(&t.prog, "P");
  const Decl *entry = program_entry(&t.prog);
  PredictIssue issue;
  EvalBinding bind = {p, ival_point(2)};
  assert_int_equal(predict_check(entry, &bind, 1, NULL, 0, PREDICT_CHECK_POINT, &issue), 0);
  bind.value = ival_point(3);
  assert_int_equal(predict_check(entry, &bind, 1, NULL, 0, PREDICT_CHECK_POINT, &issue), 1);
  assert_int_equal(issue.loc.line, 5);
  assert_non_null(strstr(issue.message, "cpu"));
  /* with K = 4 the family fits and the bound P / 2 = 1.5 is the error (line 6) */
  predtest_close(&t);
  ProgramDefine k = {"K", "4", "K=4"};
  predtest_open(&t, "param P = 2;\nparam K = 2;\nresource cpu[K];\n"
                "process main {\n  par (p = 0, P - 1) use(cpu[p], 1us);\n  seq (i = 1, P / 2) delay(1us)\n}\n",
                "P", "2,3", &k, 1);
  p = program_lookup(&t.prog, "P");
  entry = program_entry(&t.prog);
  bind = (EvalBinding){p, ival_point(3)};
  assert_int_equal(predict_check(entry, &bind, 1, NULL, 0, PREDICT_CHECK_POINT, &issue), 1);
  assert_int_equal(issue.loc.line, 6);
  assert_non_null(strstr(issue.message, "integer"));
  predtest_close(&t);
}

/* A division by zero inside a loop count (not a duration): the hull [1, 5] of P holds P = 3, so
** HULL flags it; POINT names the divisor (line 2) at P = 3 and passes P = 4. */
static void test_division_in_count(void **state) {
  (void)state;
  PredTest t;
  predtest_open(&t, "param P = 1;\nprocess main { repeat (ceil(10 / (P - 3))) delay(1us) }\n", "P", "1..5", NULL, 0);
  const Decl *p = program_lookup(&t.prog, "P");
  const Decl *entry = program_entry(&t.prog);
  PredictIssue issue;
  EvalBinding bind = {p, ival_make(1, 5)};
  assert_int_equal(predict_check(entry, &bind, 1, &p, 1, PREDICT_CHECK_HULL, &issue), 1);
  bind.value = ival_make(4, 5);
  assert_int_equal(predict_check(entry, &bind, 1, &p, 1, PREDICT_CHECK_HULL, &issue), 0);
  bind.value = ival_point(3);
  assert_int_equal(predict_check(entry, &bind, 1, NULL, 0, PREDICT_CHECK_POINT, &issue), 1);
  assert_int_equal(issue.loc.line, 2);
  assert_non_null(strstr(issue.message, "division by zero"));
  bind.value = ival_point(4);
  assert_int_equal(predict_check(entry, &bind, 1, NULL, 0, PREDICT_CHECK_POINT, &issue), 0);
  predtest_close(&t);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_example1_points),
    cmocka_unit_test(test_intervals_and_midpoints),
    cmocka_unit_test(test_batches),
    cmocka_unit_test(test_const_without_value),
    cmocka_unit_test(test_checks),
    cmocka_unit_test(test_family_and_bounds),
    cmocka_unit_test(test_division_in_count),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
