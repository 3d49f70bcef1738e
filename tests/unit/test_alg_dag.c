/*
** test_alg_dag.c — algebra/eval.c on shared terms: the reduction's bounds are DAGs (a max or an
** if shared by many parents), and an evaluation that walks them as trees takes 2^depth steps. A
** chain of 60 levels, each naming the level below twice, evaluated by alg_eval_tree, the tape
** and alg_bounds, in milliseconds and to the value the recurrence gives level by level; the
** same chain as the body of a sum, whose index changes the shared nodes' values at every point;
** and the text form of the chain, its shared parts named once (print.c), a small one as a tree.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <time.h>
#include <cmocka.h>

#include "expr.h"
#include "tape.h"

#define DAG_DEPTH 60     /* levels: 2^60 paths from the top to x */
#define DAG_SECONDS 0.5  /* far above milliseconds, far below 2^60 steps */

static double seconds_since(clock_t start) { return (double)(clock() - start) / CLOCKS_PER_SEC; }

/* e_0 = base, e_{k+1} = if (e_k < y) e_k + 2 else e_k - 1: each level names the one below in its
** condition and in both arms. Returns e_depth. */
static AlgExpr *chain(AlgCtx *g, AlgExpr *base, AlgExpr *y, int depth) {
  AlgExpr *e = base;
  for (int k = 0; k < depth; k++)
    e = alg_cond(g, alg_cmp(g, ALG_CMP_LT, e, y), alg_add(g, e, alg_num_int(g, 2)),
                 alg_sub(g, e, alg_num_int(g, 1)));
  return e;
}

/* The recurrence by hand, level by level. */
static double chain_value(double base, double y, int depth) {
  double v = base;
  for (int k = 0; k < depth; k++) v = v < y ? v + 2 : v - 1;
  return v;
}

/* x = 0, y = 10: 0, 2, .., 10, 9, 11, 10, 9, 11, ... (period 3 from level 5): level 60 is 9. */
static void test_shared_chain_is_linear(void **state) {
  (void)state;
  AlgCtx *g = alg_ctx_new();
  AlgSymbol *x = alg_symbol_new(g, "x", ALG_SYM_CONST, alg_assume_default(ALG_SYM_CONST));
  AlgSymbol *y = alg_symbol_new(g, "y", ALG_SYM_CONST, alg_assume_default(ALG_SYM_CONST));
  AlgExpr *top = chain(g, alg_sym(g, x), alg_sym(g, y), DAG_DEPTH);
  assert_true(alg_ctx_node_count(g) < 100 * DAG_DEPTH);   /* a DAG: nodes linear in the depth */
  AlgInterval env[2];
  env[alg_symbol_id(x)] = ival_point(0);
  env[alg_symbol_id(y)] = ival_point(10);
  assert_true(chain_value(0, 10, DAG_DEPTH) == 9);
  clock_t start = clock();
  AlgInterval v = alg_eval_tree(g, top, env);
  assert_true(seconds_since(start) < DAG_SECONDS);
  assert_true(v.lo == 9 && v.hi == 9);
  AlgTape *tape;
  char err[128];
  start = clock();
  assert_int_equal(alg_tape_compile(g, top, &tape, err, sizeof err), 0);
  AlgInterval t = alg_tape_eval_env(tape, env);
  assert_true(seconds_since(start) < DAG_SECONDS);
  assert_true(t.lo == v.lo && t.hi == v.hi);
  alg_tape_free(tape);
  start = clock();
  AlgInterval b = alg_bounds(g, top);   /* x, y >= 0: some enclosure, quickly */
  assert_true(seconds_since(start) < DAG_SECONDS);
  assert_true(b.lo <= b.hi);
  alg_ctx_free(g);
}

/* sum over i = 0 .. 9 of e_60 with e_0 = i: the shared nodes depend on the index, so the memo
** must forget them at each point (a value remembered from i = 0 would give 10 times level 60 of
** 0). By hand, the recurrence at each i. */
static void test_shared_chain_in_a_sum(void **state) {
  (void)state;
  AlgCtx *g = alg_ctx_new();
  AlgSymbol *y = alg_symbol_new(g, "y", ALG_SYM_CONST, alg_assume_default(ALG_SYM_CONST));
  AlgExpr *zero = alg_num_int(g, 0), *nine = alg_num_int(g, 9);
  AlgSymbol *i = alg_index_new(g, "i", zero, nine);
  AlgExpr *body = chain(g, alg_sym(g, i), alg_sym(g, y), DAG_DEPTH);
  AlgExpr *sum = alg_sum(g, i, zero, nine, body);
  double want = 0;
  for (int k = 0; k <= 9; k++) want += chain_value(k, 10, DAG_DEPTH);
  AlgInterval env[2];
  env[alg_symbol_id(y)] = ival_point(10);
  env[alg_symbol_id(i)] = ival_entire();
  clock_t start = clock();
  AlgInterval v = alg_eval_tree(g, sum, env);
  assert_true(seconds_since(start) < DAG_SECONDS);
  assert_true(v.lo == want && v.hi == want);
  alg_ctx_free(g);
}

/* The chain printed: 2^60 nodes as a tree, so its levels are named ("where s1 = .."), in
** milliseconds; the text names x and y. Eight levels (a tree of about 2^9 nodes) print as a tree,
** as before: no names. */
static void test_shared_chain_printed(void **state) {
  (void)state;
  AlgCtx *g = alg_ctx_new();
  AlgSymbol *x = alg_symbol_new(g, "x", ALG_SYM_CONST, alg_assume_default(ALG_SYM_CONST));
  AlgSymbol *y = alg_symbol_new(g, "y", ALG_SYM_CONST, alg_assume_default(ALG_SYM_CONST));
  clock_t start = clock();
  const char *text = alg_print(g, chain(g, alg_sym(g, x), alg_sym(g, y), DAG_DEPTH), ALG_FMT_TEXT);
  assert_true(seconds_since(start) < DAG_SECONDS);
  assert_non_null(strstr(text, "where s1 = "));
  assert_non_null(strstr(text, "x"));
  assert_true(strlen(text) < 100000);
  const char *small = alg_print(g, chain(g, alg_sym(g, x), alg_sym(g, y), 8), ALG_FMT_TEXT);
  assert_null(strstr(small, "where"));
  alg_ctx_free(g);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_shared_chain_is_linear),
    cmocka_unit_test(test_shared_chain_in_a_sum),
    cmocka_unit_test(test_shared_chain_printed),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
