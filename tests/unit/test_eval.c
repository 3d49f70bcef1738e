/*
** test_eval.c — the interval evaluator (lang/eval.h): values computed by hand for literals,
** units, operators, built-ins, binders, fn calls, conditions, pick modes, bindings, and the
** errors with their places.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "check.h"
#include "eval.h"
#include "program.h"

typedef struct EvalFixture {
  DiagList diags;     /* diagnostics of the load and check */
  Program prog;       /* the model holding `const x = <expression>;` */
} EvalFixture;

/* Loads "<decls> const x = <expr>;" and checks it; x's value expression is returned. */
static const Expr *load_x(EvalFixture *f, const char *decls, const char *expr) {
  char text[2000];
  snprintf(text, sizeof text, "%s\nconst x = %s;\nprocess main { skip }\n", decls, expr);
  diag_init(&f->diags);
  assert_int_equal(program_load_string(&f->prog, &f->diags, "e.pam", text, NULL), PROGRAM_OK);
  check_program(&f->prog);
  Decl *x = program_lookup(&f->prog, "x");
  assert_non_null(x);
  return x->u.constant.value;
}

static void unload(EvalFixture *f) {
  program_free(&f->prog);
  diag_free(&f->diags);
}

/* Evaluates expr (with decls before it) strictly, expecting EVAL_OK and an enclosure within
** tolerance of [lo, hi] that contains them. */
static void want_value(const char *decls, const char *expr, double lo, double hi) {
  EvalFixture f;
  const Expr *e = load_x(&f, decls, expr);
  assert_int_equal(f.diags.errors, 0);
  EvalEnv env;
  eval_env_init(&env);
  AlgInterval v;
  EvalError err;
  EvalStatus status = eval_expr(&env, e, &v, &err);
  if (status != EVAL_OK) printf("%s: %s\n", expr, err.message);
  assert_int_equal(status, EVAL_OK);
  double tolerance = 1e-12 * (fabs(lo) + fabs(hi)) + 1e-15;
  if (!(v.lo <= lo && v.lo >= lo - tolerance && v.hi >= hi && v.hi <= hi + tolerance))
    printf("%s: got [%.17g, %.17g], want [%.17g, %.17g]\n", expr, v.lo, v.hi, lo, hi);
  assert_true(v.lo <= lo && v.lo >= lo - tolerance);
  assert_true(v.hi >= hi && v.hi <= hi + tolerance);
  unload(&f);
}

static void test_literals_and_units(void **state) {
  (void)state;
  want_value("", "12", 12, 12);
  want_value("", "1_000_000", 1e6, 1e6);
  want_value("", "2.5us", 2.5e-6, 2.5e-6);
  want_value("", "64KiB", 65536, 65536);
  want_value("", "2MB", 2e6, 2e6);
  want_value("", "[1, 2]", 1, 2);
  want_value("", "[0.9ns, 1.1ns]", 0.9e-9, 1.1e-9);
}

static void test_operators(void **state) {
  (void)state;
  want_value("", "[1, 2] * 3", 3, 6);
  want_value("", "[1, 2] - [1, 2]", -1, 1);      /* no dependency tracking: [1-2, 2-1] */
  want_value("", "-[1, 2]", -2, -1);
  want_value("", "10 % 3", 1, 1);
  want_value("", "2 ^ 10", 1024, 1024);
  want_value("", "7 / 2", 3.5, 3.5);
  want_value("", "1 + 2 * 3", 7, 7);
  want_value("", "3 > 2", 1, 1);
  want_value("", "3 < 2", 0, 0);
  want_value("", "[1, 3] < 2", 0, 1);             /* undecided */
  want_value("", "2 == 2 and 3 != 3", 0, 0);
  want_value("", "0 or 1", 1, 1);
  want_value("", "not 0", 1, 1);
  want_value("", "2 > 1 ? 5 : 6", 5, 5);
  want_value("", "2 < 1 ? 5 : 6", 6, 6);
  want_value("", "[1, 3] < 2 ? 5 : 7", 5, 7);    /* undecided: the hull */
  want_value("param N = 0;", "N != 0 and 1 / N > 2", 0, 0);  /* short circuit */
}

static void test_builtins(void **state) {
  (void)state;
  want_value("", "min(3, 1, 2)", 1, 1);
  want_value("", "max(3, [1, 5])", 3, 5);
  want_value("", "min(4)", 4, 4);
  want_value("", "ceil(7 / 2) + floor(7 / 2)", 7, 7);
  want_value("", "abs(-3)", 3, 3);
  want_value("", "sqrt(16)", 4, 4);
  want_value("", "log2(1024)", 10, 10);
  want_value("", "exp(0)", 1, 1);
  want_value("", "log(1)", 0, 0);
  want_value("", "lo([1, 2]) + hi([3, 4])", 5, 5);
  want_value("", "mid([1, 3]) * 10 + width([1, 4])", 23, 23);
}

static void test_binders_and_fns(void **state) {
  (void)state;
  want_value("", "sum(i = 1, 10, i)", 55, 55);
  want_value("", "prod(i = 1, 5, i)", 120, 120);
  want_value("", "sum(i = 1, 0, i)", 0, 0);         /* empty */
  want_value("", "prod(i = 3, 2, i)", 1, 1);
  want_value("", "max(i = 1, 4, (i - 2) ^ 2)", 4, 4);
  want_value("", "min(i = 1, 4, (i - 2) ^ 2)", 0, 0);
  want_value("", "sum(i = 1, 3, sum(j = 1, i, j))", 10, 10);   /* 1 + 3 + 6 */
  want_value("param N = 4;", "sum(i = 1, N, i * N)", 40, 40);
  /* 3 * 10^6 terms are enclosed, not iterated: 3e6 terms each 1 */
  want_value("", "sum(i = 1, 3000000, 1)", 3e6, 3e6);
  /* 10^9 terms in three nested sums: the budget of terms runs out, inner sums are enclosed */
  want_value("", "sum(i = 1, 1000, sum(j = 1, 1000, sum(k = 1, 1000, 1)))", 1e9, 1e9);
  /* an enclosed sum whose body depends on the index: [count * min, count * max] contains it */
  want_value("", "sum(i = 1, 2000000, i) <= 2000000 * 2000000 and sum(i = 1, 2000000, i) >= 2000000", 1, 1);
  want_value("fn sq(y) = y * y;", "sq(3) + sq([1, 2])", 10, 13);
  want_value("fn f(a, b) = a - b;\nfn g(a) = f(a, 1) * 2;", "g(5)", 8, 8);
  want_value("param N = 6;\nconst t = N * 2;", "t + N", 18, 18);
}

static void want_error(const char *decls, const char *expr, EvalStatus want, const char *message,
                         int line, int col) {
  EvalFixture f;
  const Expr *e = load_x(&f, decls, expr);
  EvalEnv env;
  eval_env_init(&env);
  AlgInterval v;
  EvalError err;
  memset(&err, 0, sizeof err);
  assert_int_equal(eval_expr(&env, e, &v, &err), want);
  assert_string_equal(err.message, message);
  assert_int_equal(err.loc.line, line);
  assert_int_equal(err.loc.col, col);
  assert_true(isinf(v.lo) && isinf(v.hi));
  unload(&f);
}

static void test_errors(void **state) {
  (void)state;
  /* the model is "<decls>\nconst x = <expr>;": with no decls, x is on line 2 from column 11 */
  want_error("const t;", "t * 2", EVAL_UNKNOWN, "const 't' has no value", 2, 11);
  want_error("param M;", "1 + M", EVAL_UNKNOWN, "param 'M' has no value", 2, 15);
  want_error("", "sum(i = 1, 2.5, i)", EVAL_ERROR, "bound of sum is not an integer (2.5)", 2, 22);
  want_error("", "min(i = 2, 1, i)", EVAL_ERROR, "min over an empty range", 2, 11);
}

static double pick_quarter(void *ctx, const Expr *literal, AlgInterval range) {
  (void)literal;
  (*(int *)ctx)++;
  return range.lo + 0.25 * (range.hi - range.lo);
}

static void test_pick_and_bindings(void **state) {
  (void)state;
  EvalFixture f;
  const Expr *e = load_x(&f, "const t = [1, 3];\nconst u;\nparam N = 2;", "t * 2 + N");
  Decl *u = program_lookup(&f.prog, "u");
  Decl *n = program_lookup(&f.prog, "N");
  EvalEnv env;
  eval_env_init(&env);
  AlgInterval v;
  assert_int_equal(eval_expr(&env, e, &v, NULL), EVAL_OK);
  assert_true(v.lo == 4 && v.hi == 8);
  env.pick = EVAL_PICK_LO;
  assert_int_equal(eval_expr(&env, e, &v, NULL), EVAL_OK);
  assert_true(v.lo == 4 && v.hi == 4);
  env.pick = EVAL_PICK_MID;
  assert_int_equal(eval_expr(&env, e, &v, NULL), EVAL_OK);
  assert_true(v.lo == 6 && v.hi == 6);
  env.pick = EVAL_PICK_HI;
  assert_int_equal(eval_expr(&env, e, &v, NULL), EVAL_OK);
  assert_true(v.lo == 8 && v.hi == 8);
  int calls = 0;
  env.pick = EVAL_PICK_CALLBACK;
  env.pick_fn = pick_quarter;
  env.pick_ctx = &calls;
  assert_int_equal(eval_expr(&env, e, &v, NULL), EVAL_OK);
  assert_true(v.lo == 5 && v.hi == 5);   /* 1.5 * 2 + 2 */
  assert_int_equal(calls, 1);
  /* a binding replaces the param's default */
  EvalBinding binding[2] = {{n, {10, 10}}, {u, {1, 1}}};
  env.pick = EVAL_PICK_LO;
  env.bindings = binding;
  env.binding_count = 1;
  assert_int_equal(eval_expr(&env, e, &v, NULL), EVAL_OK);
  assert_true(v.lo == 12 && v.hi == 12);
  /* a const without value: unknown strictly, everything for the checker, its binding else */
  AlgInterval value;
  EvalError err;
  assert_int_equal(eval_decl_value(&env, u, &value, &err), EVAL_UNKNOWN);
  assert_string_equal(err.message, "const 'u' has no value");
  env.missing_as_entire = 1;
  assert_int_equal(eval_decl_value(&env, u, &value, &err), EVAL_OK);
  assert_true(isinf(value.lo) && isinf(value.hi));
  env.binding_count = 2;
  assert_int_equal(eval_decl_value(&env, u, &value, &err), EVAL_OK);
  assert_true(value.lo == 1 && value.hi == 1);
  unload(&f);
}

static void test_args_and_indices(void **state) {
  (void)state;
  /* a process body's duration evaluated as the simulator does: args and loop indices by slot */
  EvalFixture f;
  diag_init(&f.diags);
  const char *text = "const t = 1us;\nprocess w(a, b) = seq (i = 1, 3) delay(a * i + b * t + sum(j = 1, i, j));\n"
                     "process main { w(1, 2) }\n";
  assert_int_equal(program_load_string(&f.prog, &f.diags, "e.pam", text, NULL), PROGRAM_OK);
  assert_int_equal(check_program(&f.prog), 0);
  Stmt *loop = program_lookup(&f.prog, "w")->u.process.body;
  const Expr *duration = loop->u.loop.body->u.delay.duration;
  EvalEnv env;
  eval_env_init(&env);
  AlgInterval args[2] = {{1, 1}, {2, 2}};
  env.args = args;
  env.arg_count = 2;
  env.indices[0] = ival_point(3);
  env.depth = 1;
  AlgInterval v;
  assert_int_equal(eval_expr(&env, duration, &v, NULL), EVAL_OK);
  /* 1*3 + 2e-6 + (1+2+3) = 9.000002 */
  assert_true(fabs(v.lo - 9.000002) < 1e-12 && fabs(v.hi - 9.000002) < 1e-12);
  assert_int_equal(env.depth, 1);
  unload(&f);
}

static void test_format_and_truth(void **state) {
  (void)state;
  char buf[64];
  assert_string_equal(eval_format(ival_point(-2e-6), buf, sizeof buf), "-2e-06");
  assert_string_equal(eval_format(ival_make(1, 2.5), buf, sizeof buf), "[1, 2.5]");
  assert_string_equal(eval_format(ival_make(nextafter(-2e-7, -1), -2e-7), buf, sizeof buf), "-2e-07");
  assert_int_equal(eval_truth(ival_point(0)), 0);
  assert_int_equal(eval_truth(ival_make(1, 2)), 1);
  assert_int_equal(eval_truth(ival_make(0, 1)), -1);
  assert_true(eval_is_integer(ival_point(3)));
  assert_false(eval_is_integer(ival_point(3.5)));
  assert_false(eval_is_integer(ival_make(3, 4)));
  assert_int_equal(eval_builtin_lookup("log2"), EVAL_B_LOG2);
  assert_int_equal(eval_builtin_lookup("msg"), -1);
  assert_string_equal(eval_builtin_name(EVAL_B_WIDTH), "width");
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_literals_and_units),
    cmocka_unit_test(test_operators),
    cmocka_unit_test(test_builtins),
    cmocka_unit_test(test_binders_and_fns),
    cmocka_unit_test(test_errors),
    cmocka_unit_test(test_pick_and_bindings),
    cmocka_unit_test(test_args_and_indices),
    cmocka_unit_test(test_format_and_truth),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
