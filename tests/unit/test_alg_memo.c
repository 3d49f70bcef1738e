/*
** test_alg_memo.c — the algebra's memo tables (algebra/op_memo.c, node_memo.c) and the sum's
** two ways of collecting like terms (simplify.c: a scan for small sums, a table for large ones):
** what is recorded is found again through growth, nothing else is found, and both ways give the
** same canonical node as a sum written out by hand.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include "expr_impl.h"

#define MEMO_KEYS 5000      /* entries recorded: several doublings of either table */
#define LIKE_TERMS 120      /* leaves of the large sum (above the scan limit of 16) */
#define LIKE_SYMBOLS 10     /* distinct terms they collect into */

static void test_node_memo(void **state) {
  (void)state;
  AlgCtx *ctx = alg_ctx_new();
  AlgNodeMemo memo;
  alg_node_memo_init(&memo);
  assert_null(alg_node_memo_get(&memo, 0));
  for (size_t k = 0; k < MEMO_KEYS; k++) alg_node_memo_put(&memo, 3 * k, alg_num_int(ctx, (long)k));
  assert_int_equal(memo.count, MEMO_KEYS);
  for (size_t k = 0; k < MEMO_KEYS; k++) {
    assert_ptr_equal(alg_node_memo_get(&memo, 3 * k), alg_num_int(ctx, (long)k));
    assert_null(alg_node_memo_get(&memo, 3 * k + 1));   /* never recorded */
  }
  alg_node_memo_free(&memo);
  assert_null(alg_node_memo_get(&memo, 0));
  alg_ctx_free(ctx);
}

static void test_op_memo(void **state) {
  (void)state;
  AlgCtx *ctx = alg_ctx_new();
  AlgExpr *a = alg_num_int(ctx, 2), *b = alg_num_int(ctx, 3), *r = alg_num_int(ctx, 5);
  AlgExpr *ab[2] = {a, b}, *ba[2] = {b, a};
  assert_null(alg_op_memo_find(ctx, ALG_ADD, 2, ab));
  assert_ptr_equal(alg_op_memo_put(ctx, ALG_ADD, 2, ab, r), r);
  assert_ptr_equal(alg_op_memo_find(ctx, ALG_ADD, 2, ab), r);
  assert_null(alg_op_memo_find(ctx, ALG_ADD, 2, ba));   /* another order is another call */
  assert_null(alg_op_memo_find(ctx, ALG_MUL, 2, ab));   /* another operation */
  assert_null(alg_op_memo_find(ctx, ALG_ADD, 1, ab));   /* fewer arguments */
  AlgExpr *args[3];
  for (long k = 0; k < MEMO_KEYS; k++) {
    args[0] = alg_num_int(ctx, k); args[1] = a; args[2] = alg_num_int(ctx, -k);
    alg_op_memo_put(ctx, ALG_MAX, 3, args, alg_num_int(ctx, 1000000 + k));
  }
  for (long k = 0; k < MEMO_KEYS; k++) {
    args[0] = alg_num_int(ctx, k); args[1] = a; args[2] = alg_num_int(ctx, -k);
    assert_ptr_equal(alg_op_memo_find(ctx, ALG_MAX, 3, args), alg_num_int(ctx, 1000000 + k));
  }
  assert_ptr_equal(alg_op_memo_find(ctx, ALG_ADD, 2, ab), r);   /* kept through the growth */
  alg_ctx_free(ctx);
}

/* sum over j < LIKE_TERMS of c_j * x_(j % LIKE_SYMBOLS), c_j = (j % 7 + 1) / (j % 3 + 1) (integers
** and fractions, so both ways of adding coefficients are taken), given as one sum of 120 leaves
** (the table) and as the 10 collected terms computed here (the scan). */
static void test_like_terms(void **state) {
  (void)state;
  AlgCtx *ctx = alg_ctx_new();
  AlgAssume assume = alg_assume_default(ALG_SYM_PARAM);
  AlgExpr *x[LIKE_SYMBOLS], *y = alg_sym(ctx, alg_symbol_new(ctx, "y", ALG_SYM_PARAM, assume));
  for (int s = 0; s < LIKE_SYMBOLS; s++) {
    char name[16];
    snprintf(name, sizeof name, "x%d", s);
    x[s] = alg_sym(ctx, alg_symbol_new(ctx, name, ALG_SYM_PARAM, assume));
  }
  AlgExpr *leaves[LIKE_TERMS];
  long num[LIKE_SYMBOLS], den[LIKE_SYMBOLS];   /* collected coefficients by hand */
  for (int s = 0; s < LIKE_SYMBOLS; s++) num[s] = 0, den[s] = 6;
  for (int j = 0; j < LIKE_TERMS; j++) {
    long p = j % 7 + 1, q = j % 3 + 1;
    AlgExpr *term = alg_mul(ctx, alg_num_frac(ctx, p, q), x[j % LIKE_SYMBOLS]);
    leaves[j] = j % 2 ? alg_mul(ctx, term, y) : term;   /* odd j: the term times y */
    if (j % 2 == 0) num[j % LIKE_SYMBOLS] += p * (6 / q);
  }
  AlgExpr *table = alg_add_n(ctx, LIKE_TERMS, leaves);
  /* the odd leaves: x_s * y with s odd (j odd and LIKE_SYMBOLS even), their own coefficients */
  long ynum[LIKE_SYMBOLS] = {0};
  for (int j = 1; j < LIKE_TERMS; j += 2) ynum[j % LIKE_SYMBOLS] += (j % 7 + 1) * (6 / (j % 3 + 1));
  AlgExpr *collected[2 * LIKE_SYMBOLS];
  size_t n = 0;
  for (int s = 0; s < LIKE_SYMBOLS; s++) {
    if (num[s]) collected[n++] = alg_mul(ctx, alg_num_frac(ctx, num[s], den[s]), x[s]);
    if (ynum[s]) collected[n++] = alg_mul(ctx, alg_num_frac(ctx, ynum[s], 6), alg_mul(ctx, x[s], y));
  }
  assert_true(n <= 16);   /* the scan */
  AlgExpr *scan = alg_add_n(ctx, n, collected);
  assert_ptr_equal(table, scan);
  assert_int_equal(alg_kind(table), ALG_ADD);
  assert_int_equal(alg_nkids(table), n);
  /* like terms that cancel leave nothing: 120 leaves, each with its negation */
  AlgExpr *both[2 * LIKE_TERMS];
  for (int j = 0; j < LIKE_TERMS; j++) both[2 * j] = leaves[j], both[2 * j + 1] = alg_neg(ctx, leaves[j]);
  assert_true(alg_is_num(alg_add_n(ctx, 2 * LIKE_TERMS, both), 0));
  alg_ctx_free(ctx);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_node_memo),
    cmocka_unit_test(test_op_memo),
    cmocka_unit_test(test_like_terms),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
