/*
** support_reduce.c — reduce a model given as text and evaluate its bounds (reduce_case.h), for
** the reduction's unit tests.
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

void redtest_open(RedtestRun *run, const char *text, int n, const char *const *names,
                  const double *values) {
  diag_init(&run->diags);
  assert_int_equal(program_load_string(&run->prog, &run->diags, "test.pam", text, NULL), PROGRAM_OK);
  assert_int_equal(check_program(&run->prog), 0);
  ReduceOptions opts = {0, 0};
  int status = reduce_program(&run->prog, &opts, &run->r, &run->diags);
  if (status) diag_print(&run->diags, stderr);
  assert_int_equal(status, 0);
  size_t count = alg_symbol_count(run->r.alg);
  run->env = calloc(count + 1, sizeof *run->env);
  for (size_t k = 0; k < count; k++) { run->env[k].lo = -INFINITY; run->env[k].hi = INFINITY; }
  for (int k = 0; k < run->r.symbol_count; k++) {
    const Decl *d = run->r.symbol_decls[k];
    AlgInterval v = {0, 0};
    int set = 0;
    for (int j = 0; j < n; j++)
      if (!strcmp(names[j], d->name.name)) { v.lo = v.hi = values[j]; set = 1; }
    if (!set) {
      EvalEnv e;
      eval_env_init(&e);
      assert_int_equal(eval_decl_value(&e, d, &v, NULL), EVAL_OK);
    }
    run->env[alg_symbol_id(run->r.symbols[k])] = v;
  }
}

void redtest_close(RedtestRun *run) {
  free(run->env);
  reduce_result_free(&run->r);
  program_free(&run->prog);
  diag_free(&run->diags);
}

void redtest_eval(const char *text, int n, const char *const *names, const double *values,
                  double *lo, double *hi) {
  RedtestRun run;
  redtest_open(&run, text, n, names, values);
  *lo = alg_eval_tree(run.r.alg, run.r.t_lo, run.env).lo;
  *hi = alg_eval_tree(run.r.alg, run.r.t_hi, run.env).hi;
  redtest_close(&run);
}

void redtest_near(double got, double want) {
  if (fabs(got - want) > REDTEST_REL_TOL * fabs(want) + 1e-18) {
    fprintf(stderr, "got %.17g, want %.17g\n", got, want);
    fail();
  }
}

void redtest_expect(const char *text, int n, const char *const *names, const double *values,
                    double want_lo, double sim, double want_hi) {
  double lo, hi;
  redtest_eval(text, n, names, values, &lo, &hi);
  redtest_near(lo, want_lo);
  redtest_near(hi, want_hi);
  assert_true(lo <= sim * (1 + REDTEST_REL_TOL));
  assert_true(sim <= hi * (1 + REDTEST_REL_TOL));
}

void redtest_expect_lo(const char *text, int n, const char *const *names, const double *values,
                       double want_lo, double sim) {
  double lo, hi;
  redtest_eval(text, n, names, values, &lo, &hi);
  if (want_lo >= 0) redtest_near(lo, want_lo);
  assert_true(lo <= sim * (1 + REDTEST_REL_TOL));
  assert_true(sim <= hi * (1 + REDTEST_REL_TOL));
}

void redtest_expect_lo1(const char *text, const char *name, double value, double want_lo, double sim) {
  const char *names[] = {name};
  redtest_expect_lo(text, 1, names, &value, want_lo, sim);
}
