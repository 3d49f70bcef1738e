/*
** test_alg_print.c — algebra/print*.c and parse_text.c: the text form (minimal parentheses,
** exact expected strings written by hand), LaTeX and JSON shapes, round trips of random
** expressions (print, read back: the same node, and the same value at random points), and
** the reader's errors.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include "alg_check.h"

#define ROUND_TRIPS 400   /* random expressions printed and read back */
#define GEN_DEPTH 4       /* depth of the random expressions */

static int setup(void **state) {
  *state = check_ctx_new();
  return 0;
}

static int teardown(void **state) {
  check_ctx_free(*state);
  return 0;
}

/* text of the canonical form of the parsed input */
static const char *canon(CheckCtx *c, const char *text) {
  return alg_print(c->ctx, check_parse(c, text), ALG_FMT_TEXT);
}

static void test_text_form(void **state) {
  CheckCtx *c = *state;
  static const struct { const char *in, *out; } cases[] = {
    {"1 + N", "N + 1"},
    {"N - 1", "N - 1"},
    {"x - y", "x - y"},
    {"-x", "-x"},
    {"x*2/3", "2*x/3"},
    {"1/(x*y)", "1/(x*y)"},
    {"x/y^2", "x/y^2"},
    {"(x + y)^2", "(x + y)^2"},
    {"x^(1/2)", "x^(1/2)"},
    {"(-x)^3", "-x^3"},
    {"x % 3", "x % 3"},
    {"(x + 1) % 3", "(x + 1) % 3"},
    {"max(y, x)", "max(x, y)"},
    {"a >= b ? x : 0", "b <= a ? x : 0"},
    {"x < y and y < t", "x < y and y < t"},
    {"ceil(x/2)", "ceil(x/2)"},
    {"1/3", "1/3"},
    {"-5/2", "-5/2"},
    {"2^x", "2^x"},
    {"x^-1", "1/x"},
    {"t*(x - y)", "t*(x - y)"},
    {"[0.5, 1.5]*x", "[0.5, 1.5]*x"},
    {"x - 2*y", "x - 2*y"},
  };
  for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
    const char *got = canon(c, cases[k].in);
    if (strcmp(got, cases[k].out) != 0) fail_msg("'%s' printed as '%s', expected '%s'", cases[k].in, got, cases[k].out);
  }
}

static void test_latex_and_json(void **state) {
  CheckCtx *c = *state;
  AlgExpr *e = check_parse(c, "x/3 + max(y, t)");
  assert_string_equal(alg_print(c->ctx, e, ALG_FMT_LATEX),
                      "\\frac{\\mathit{x}}{3} + \\max\\left(\\mathit{y}, \\mathit{t}\\right)");
  AlgExpr *f = check_parse(c, "2*x + 1/2");
  assert_string_equal(alg_print(c->ctx, f, ALG_FMT_JSON),
                      "{\"op\": \"add\", \"args\": [{\"num\": \"1/2\"}, {\"op\": \"mul\", \"args\": [{\"num\": \"2\"}, {\"sym\": \"x\"}]}]}");
  AlgExpr *s = check_parse(c, "sum(i, 1, N, sqrt(i))");
  const char *json = alg_print(c->ctx, s, ALG_FMT_JSON);
  assert_non_null(strstr(json, "\"op\": \"sum\", \"index\": \"i\""));
  assert_non_null(strstr(alg_print(c->ctx, s, ALG_FMT_LATEX), "\\sum_{\\mathit{i} = 1}^{\\mathit{N}}"));
  /* a marker shows in every format */
  AlgExpr *m = alg_approx(c->ctx, ALG_DIR_UPPER, s);
  assert_non_null(strstr(alg_print(c->ctx, m, ALG_FMT_TEXT), "upper(sum(i, 1, N, sqrt(i)))"));
  assert_non_null(strstr(alg_print(c->ctx, m, ALG_FMT_JSON), "\"op\": \"upper\""));
  assert_non_null(strstr(alg_print(c->ctx, m, ALG_FMT_LATEX), "\\overline{"));
  /* fprint writes the same text */
  FILE *out = tmpfile();
  assert_non_null(out);
  assert_int_equal(alg_fprint(out, c->ctx, f, ALG_FMT_TEXT), 0);
  rewind(out);
  char line[64] = {0};
  assert_non_null(fgets(line, sizeof line, out));
  assert_string_equal(line, "2*x + 1/2");
  fclose(out);
}

/* ---- random expressions ---- */

static AlgExpr *gen(CheckCtx *c, int depth) {
  AlgCtx *ctx = c->ctx;
  AlgSymbol *leaves[] = {c->N, c->M, c->x, c->y, c->t, c->a};
  if (depth == 0 || check_int(&c->rng, 0, 4) == 0) {
    switch (check_int(&c->rng, 0, 3)) {
    case 0: return alg_num_frac(ctx, check_int(&c->rng, -9, 9), check_int(&c->rng, 1, 4));
    default: return check_sym(c, leaves[check_int(&c->rng, 0, 5)]);
    }
  }
  AlgExpr *l = gen(c, depth - 1), *r = gen(c, depth - 1);
  switch (check_int(&c->rng, 0, 14)) {
  case 0: case 1: return alg_add(ctx, l, r);
  case 2: return alg_sub(ctx, l, r);
  case 3: case 4: return alg_mul(ctx, l, r);
  case 5: return alg_div(ctx, l, alg_add(ctx, alg_mul(ctx, r, r), alg_num_int(ctx, 1)));
  case 6: return alg_pow(ctx, l, alg_num_int(ctx, check_int(&c->rng, -2, 3)));
  case 7: return alg_max(ctx, l, r);
  case 8: return alg_min(ctx, l, r);
  case 9: return alg_func(ctx, check_int(&c->rng, 0, 1) ? ALG_CEIL : ALG_FLOOR, l);
  case 10: return alg_func(ctx, ALG_ABS, l);
  case 11: return alg_cond(ctx, alg_cmp(ctx, (AlgCmp)check_int(&c->rng, 0, 5), l, r), l, r);
  case 12: return alg_mod(ctx, l, alg_num_int(ctx, check_int(&c->rng, 2, 5)));
  case 13: return alg_neg(ctx, l);
  default: return alg_cond(ctx, alg_and(ctx, alg_cmp(ctx, ALG_CMP_LT, l, r), alg_not(ctx, alg_cmp(ctx, ALG_CMP_EQ, l, r))), r, l);
  }
}

static void test_round_trips(void **state) {
  CheckCtx *c = *state;
  size_t count = alg_symbol_count(c->ctx);
  AlgInterval *env = calloc(count, sizeof *env);
  for (int k = 0; k < ROUND_TRIPS; k++) {
    AlgExpr *e = gen(c, GEN_DEPTH);
    const char *text = alg_print(c->ctx, e, ALG_FMT_TEXT);
    AlgExpr *back = check_parse(c, text);
    if (back != e)
      fail_msg("'%s' read back as '%s'", text, alg_print(c->ctx, back, ALG_FMT_TEXT));
    for (int p = 0; p < 5; p++) {   /* and the same values (finite points only) */
      check_random_env(c, env, count);
      AlgInterval u = alg_eval_tree(c->ctx, e, env), v = alg_eval_tree(c->ctx, back, env);
      if (isfinite(u.lo) && isfinite(u.hi)) assert_true(check_near(u, v));
    }
  }
  free(env);
}

/* Big operators read back with a new index: not the same node, the same values. */
static void test_round_trip_bigops(void **state) {
  CheckCtx *c = *state;
  static const char *texts[] = {
    "sum(i, 1, N, sqrt(i))",
    "maxover(i, a, b, x*(i % 3))",
    "t*sum(i, 1, N, sum(j, 1, i, sqrt(i + j)))",
    "upper(sum(i, 1, M, log(i + 1)))",
    "sum(i, 1, N, i^2) + minover(k, 0, N, (k - 3)^2)",
  };
  for (size_t k = 0; k < sizeof texts / sizeof texts[0]; k++) {
    AlgExpr *e = check_parse(c, texts[k]);
    AlgExpr *back = check_parse(c, alg_print(c->ctx, e, ALG_FMT_TEXT));
    check_numeric(c, e, back, texts[k]);
  }
}

static void test_reader_errors(void **state) {
  CheckCtx *c = *state;
  static const char *bad[] = {"x +", "foo(x)", "unknown + 1", "max(x, y", "[2, 1]", "x y", "1.2.3", "", "ceil(x, y)", "(x"};
  for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
    AlgExpr *out = NULL;
    char err[128] = "";
    if (alg_parse_text(c->ctx, bad[k], &out, err, sizeof err) == 0) fail_msg("'%s' was accepted", bad[k]);
    assert_non_null(strstr(err, "column"));
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test_setup_teardown(test_text_form, setup, teardown),
    cmocka_unit_test_setup_teardown(test_latex_and_json, setup, teardown),
    cmocka_unit_test_setup_teardown(test_round_trips, setup, teardown),
    cmocka_unit_test_setup_teardown(test_round_trip_bigops, setup, teardown),
    cmocka_unit_test_setup_teardown(test_reader_errors, setup, teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
