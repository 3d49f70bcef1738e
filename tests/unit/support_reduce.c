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

void redtest_eval(const char *text, int n, const char *const *names, const double *values,
                  double *lo, double *hi) {
  DiagList diags;
  diag_init(&diags);
  Program prog;
  assert_int_equal(program_load_string(&prog, &diags, "test.pam", text, NULL), PROGRAM_OK);
  assert_int_equal(check_program(&prog), 0);
  ReduceResult r;
  ReduceOptions opts = {0, 0};
  int status = reduce_program(&prog, &opts, &r, &diags);
  if (status) diag_print(&diags, stderr);
  assert_int_equal(status, 0);
  size_t count = alg_symbol_count(r.alg);
  AlgInterval *env = calloc(count + 1, sizeof *env);
  for (size_t k = 0; k < count; k++) { env[k].lo = -INFINITY; env[k].hi = INFINITY; }
  for (int k = 0; k < r.symbol_count; k++) {
    const Decl *d = r.symbol_decls[k];
    AlgInterval v = {0, 0};
    int set = 0;
    for (int j = 0; j < n; j++)
      if (!strcmp(names[j], d->name.name)) { v.lo = v.hi = values[j]; set = 1; }
    if (!set) {
      EvalEnv e;
      eval_env_init(&e);
      assert_int_equal(eval_decl_value(&e, d, &v, NULL), EVAL_OK);
    }
    env[alg_symbol_id(r.symbols[k])] = v;
  }
  AlgInterval l = alg_eval_tree(r.alg, r.t_lo, env), h = alg_eval_tree(r.alg, r.t_hi, env);
  *lo = l.lo;
  *hi = h.hi;
  free(env);
  reduce_result_free(&r);
  program_free(&prog);
  diag_free(&diags);
}

void redtest_near(double got, double want) {
  if (fabs(got - want) > REDTEST_REL_TOL * fabs(want) + 1e-18) {
    fprintf(stderr, "got %.17g, want %.17g\n", got, want);
    fail();
  }
}

