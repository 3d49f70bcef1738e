/*
** test_alg_walk.c — the walk budget of alg_bounds (algebra/eval.c, walk_over_budget; docs/
** reduction.md "A walk's budget in sign questions"): a big operator whose walk would evaluate more
** nodes than the loop limit is enclosed by the interval extension instead, and walked within it.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include "expr_impl.h"

/* max over i = 0 .. 99 of f(i) = sum over t = 1 .. 40 of floor((i + t) / 8) (40 floors, about 240
** nodes a point; 1/8 is exact in binary, so each floor at a point is exact). f grows with i:
** f(0) = 1*8 + 2*8 + 3*8 + 4*8 + 5 = 85, f(99) = sum of floor(u / 8) over u = 100 .. 139 =
** 12*4 + (13 + 14 + 15 + 16)*8 + 17*4 = 580. Walked (loop limit 10^6: 100 points of ~240 nodes
** within it), the bounds are [580, 580]; with the loop limit 1000 the walk stops past 1000 nodes
** and the body over i in [0, 99] encloses it, [85, 580] (before:
** walked whatever the body's size, [580, 580]; a reduce sign question at Px = 10^4 walked 10^4
** points of ~10^3 nodes, 14 times). */
static void test_walk_budget(void **state) {
  (void)state;
  for (int walk = 0; walk < 2; walk++) {
    AlgCtx *ctx = alg_ctx_new();
    alg_ctx_set_loop_limit(ctx, walk ? 1000000 : 1000);
    AlgExpr *lo = alg_num_int(ctx, 0), *hi = alg_num_int(ctx, 99);
    AlgSymbol *i = alg_index_new(ctx, "i", lo, hi);
    AlgExpr *f = alg_num_int(ctx, 0);
    for (long t = 1; t <= 40; t++) {
      AlgExpr *q = alg_div(ctx, alg_add(ctx, alg_sym(ctx, i), alg_num_int(ctx, t)), alg_num_int(ctx, 8));
      f = alg_add(ctx, f, alg_func(ctx, ALG_FLOOR, q));
    }
    AlgExpr *kids[4] = {alg_sym(ctx, i), lo, hi, f};
    AlgExpr *m = alg_intern(ctx, ALG_MAXOVER, 4, kids);   /* the node itself, no closed form */
    AlgInterval b = alg_bounds(ctx, m);
    assert_true(b.lo == (walk ? 580 : 85));
    assert_true(b.hi == 580);
    alg_ctx_free(ctx);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_walk_budget),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
