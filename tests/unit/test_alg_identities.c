/*
** test_alg_identities.c — algebra/: identities that canonical forms must make pointer-equal
** (after alg_expand) and that must also hold numerically at random admissible points. The right
** sides are hand-derived (textbook formulas, e.g. sum i^3 = (N(N+1)/2)^2), never outputs of the
** code under test. Symbols: N, M integer >= 1; P integer in 1..4096; a, b integers; x, y reals;
** t, u reals >= 0 (alg_check.h).
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include "alg_check.h"

typedef struct Identity {
  const char *lhs;    /* built by the simplifier */
  const char *rhs;    /* hand-derived equal form */
} Identity;

static const Identity identities[] = {
  /* like terms, powers, constant folding (exact rationals) */
  {"x + x", "2*x"},
  {"x*x", "x^2"},
  {"x - x", "0"},
  {"1/3 + 1/6", "1/2"},
  {"2.5 * 0.000001", "1/400000"},
  {"0.1 + 0.2", "3/10"},
  {"3*x - 2*x - x", "0"},
  {"x*y + y*x", "2*x*y"},
  {"x^2 * x^3", "x^5"},
  {"(x^2)^3", "x^6"},
  {"2*(x + y) - 2*x", "2*y"},
  {"x^0", "1"},
  {"x^1", "x"},
  {"(2*x)^2", "4*x^2"},
  {"2^10", "1024"},
  {"(1/2)^-2", "4"},
  {"x*(y + 1) - x*y", "x"},
  {"(x + 1)^2", "x^2 + 2*x + 1"},
  {"(x + y)*(x - y)", "x^2 - y^2"},
  {"(x - 1)^3", "x^3 - 3*x^2 + 3*x - 1"},
  {"x/2 + x/3", "5*x/6"},
  /* max / min: flattening, duplicates, dominance, factoring */
  {"max(N, N + 1)", "N + 1"},
  {"max(N, 1)", "N"},
  {"min(N, 1)", "1"},
  {"max(t*N, t*M)", "t*max(N, M)"},
  {"max(x + t, y + t)", "max(x, y) + t"},
  {"max(max(x, y), x)", "max(x, y)"},
  {"min(x, min(y, x))", "min(x, y)"},
  {"max(3, 5, 2)", "5"},
  {"max(x, x)", "x"},
  {"min(N, N - 1)", "N - 1"},
  {"max(2*N, N)", "2*N"},
  {"max(N^2, N)", "N^2"},
  {"min(N^3, N^2 + N - 1)", "N^2 + N - 1"},
  {"max(0, t)", "t"},
  {"min(0, t)", "0"},
  {"max(P, 4096)", "4096"},
  {"max(N*t, 2*N*t)", "2*N*t"},
  /* functions */
  {"ceil(7/2)", "4"},
  {"floor(-7/2)", "-4"},
  {"ceil(N)", "N"},
  {"floor(N + 1)", "N + 1"},
  {"abs(-3)", "3"},
  {"abs(t)", "t"},
  {"abs(-t)", "t"},
  {"7 % 3", "1"},
  {"-7 % 3", "2"},
  {"sqrt(16/9)", "4/3"},
  {"log2(1024)", "10"},
  {"exp(0)", "1"},
  {"log(1)", "0"},
  /* comparisons, logic, conditions */
  {"N < N + 1", "1"},
  {"N >= 1", "1"},
  {"x == x", "1"},
  {"not (x < y)", "y <= x"},
  {"N > 0 ? x : y", "x"},
  {"x < y ? t : t", "t"},
  {"1 and x < y", "x < y"},
  {"0 or x < y", "x < y"},
  {"P <= 4096", "1"},
  {"(x < y and y < t) and x < t", "x < t and (y < t and x < y)"},
  {"x < y or (t < y or x < y)", "t < y or x < y"},
  {"x < y and N >= 1", "x < y"},
  /* sums: Faulhaber, constant summands, symbolic bounds, geometric, nested, empty */
  {"sum(i, 1, N, i^3)", "(N*(N + 1)/2)^2"},
  {"sum(i, 1, N, i)", "N*(N + 1)/2"},
  {"sum(i, 1, N, i^2)", "N*(N + 1)*(2*N + 1)/6"},
  {"sum(i, 1, N, i^4)", "N*(N + 1)*(2*N + 1)*(3*N^2 + 3*N - 1)/30"},
  {"sum(i, 1, N, i^5)", "N^2*(N + 1)^2*(2*N^2 + 2*N - 1)/12"},
  {"sum(i, a, b, i)", "b >= a ? (b - a + 1)*(a + b)/2 : 0"},
  {"sum(i, a, b, 1)", "b >= a ? b - a + 1 : 0"},
  {"sum(i, 1, N, t)", "N*t"},
  {"sum(i, 1, N, i*t)", "N*(N + 1)/2*t"},
  {"sum(i, 0, N, 2^i)", "2^(N + 1) - 1"},
  {"sum(i, 1, N, 3^i)", "(3^(N + 1) - 3)/2"},
  {"sum(i, 1, N, x)", "N*x"},
  {"sum(i, 1, 0, i)", "0"},
  {"sum(i, 1, N - 1, 1)", "N - 1"},
  {"sum(i, 2, N, i)", "N*(N + 1)/2 - 1"},
  {"sum(i, 1, N, (i + 1)^2)", "N*(N + 1)*(2*N + 1)/6 + N*(N + 1) + N"},
  {"sum(i, 1, N, sum(j, 1, i, 1))", "N*(N + 1)/2"},
  {"sum(i, 1, N, sum(j, 1, i, j))", "N*(N + 1)*(N + 2)/6"},
  {"sum(i, 1, N, i*x + t)", "N*(N + 1)/2*x + N*t"},
  {"2*sum(i, 1, N, i) - N^2", "N"},
  /* max / min over an index, products */
  {"maxover(i, 1, N, i*t)", "N*t"},
  {"minover(i, 1, N, i*t)", "t"},
  {"maxover(i, 1, N, N - i)", "N - 1"},
  {"maxover(i, 0, P - 1, t)", "t"},
  {"maxover(i, a, b, t)", "a <= b ? t : 0"},
  {"maxover(i, 1, N, ceil(i/2))", "ceil(N/2)"},
  {"maxover(i, 1, N, i*t + (N*t - i*t)/4)", "N*t"},
  {"prod(i, 1, N, 2)", "2^N"},
  {"maxover(i, 0, N, (i - 3)^2)", "max(9, (N - 3)^2)"},
  {"minover(i, a, b, -(i - x)^2)", "a <= b ? min(-(a - x)^2, -(b - x)^2) : 0"},
};

static int setup(void **state) {
  *state = check_ctx_new();
  return 0;
}

static int teardown(void **state) {
  check_ctx_free(*state);
  return 0;
}

static void test_identities_symbolic(void **state) {
  CheckCtx *c = *state;
  size_t n = sizeof identities / sizeof identities[0];
  assert_true(n >= 60);
  for (size_t k = 0; k < n; k++) {
    AlgExpr *lhs = alg_expand(c->ctx, check_parse(c, identities[k].lhs));
    AlgExpr *rhs = alg_expand(c->ctx, check_parse(c, identities[k].rhs));
    if (lhs != rhs)
      fail_msg("%s  =  %s: canonical forms differ: %s  vs  %s", identities[k].lhs, identities[k].rhs,
               alg_print(c->ctx, lhs, ALG_FMT_TEXT), alg_print(c->ctx, rhs, ALG_FMT_TEXT));
  }
}

static void test_identities_numeric(void **state) {
  CheckCtx *c = *state;
  size_t n = sizeof identities / sizeof identities[0];
  for (size_t k = 0; k < n; k++) {
    char what[256];
    snprintf(what, sizeof what, "%s  =  %s", identities[k].lhs, identities[k].rhs);
    check_numeric(c, check_parse(c, identities[k].lhs), check_parse(c, identities[k].rhs), what);
  }
}

/* Hash-consing: structurally equal expressions are one node, whatever the order of building. */
static void test_hash_consing(void **state) {
  CheckCtx *c = *state;
  AlgCtx *ctx = c->ctx;
  AlgExpr *x = check_sym(c, c->x), *y = check_sym(c, c->y), *t = check_sym(c, c->t);
  assert_ptr_equal(alg_add(ctx, x, y), alg_add(ctx, y, x));
  assert_ptr_equal(alg_mul(ctx, alg_add(ctx, x, t), y), alg_mul(ctx, y, alg_add(ctx, t, x)));
  assert_ptr_equal(alg_max(ctx, x, alg_max(ctx, y, t)), alg_max(ctx, alg_max(ctx, t, x), y));
  assert_ptr_equal(alg_num_frac(ctx, 2, 4), alg_num_frac(ctx, 1, 2));
  assert_ptr_equal(alg_func(ctx, ALG_SQRT, x), alg_func(ctx, ALG_SQRT, x));
  assert_ptr_not_equal(alg_sub(ctx, x, y), alg_sub(ctx, y, x));
  /* ids are dense and below the node count */
  AlgExpr *e = alg_add(ctx, x, alg_num_int(ctx, 7));
  assert_true(alg_id(e) < alg_ctx_node_count(ctx));
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test_setup_teardown(test_identities_symbolic, setup, teardown),
    cmocka_unit_test_setup_teardown(test_identities_numeric, setup, teardown),
    cmocka_unit_test_setup_teardown(test_hash_consing, setup, teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
