/*
** reduce_ends.c — loop ends are integers (docs/reduction.md, "Loop ends are integers"): the ends
** of every loop of the model are checked integers where the loop runs (LANGUAGE.md §4; a
** REDUCE_CHECK_INTEGER check, and the simulator's error), so an expression that differs from an
** end of the loop an index in scope runs by an integer is an integer wherever that index has a
** value: `(r + 1) % (P / Px)` inside `par (r = 0, P / Px - 1)` has an integer modulus.
*/
#include <string.h>

#include "reduce_internal.h"
#include "reduce_order.h"

/* Symbols beside the index a scope is searched for (beyond, the rest are not read). */
#define ENDS_MAX_SCOPE 16

/* The ends of the model loop one index symbol runs. */
typedef struct RLoopEnds {
  AlgExpr *lo, *hi;       /* the loop's ends as the model writes them (NULL: not a model loop) */
} RLoopEnds;

/* Records that index runs a model loop whose ends lo and hi are checked integers where the loop
** runs: the loop statement's own ends (for a piece of a split range, the whole range's), a
** repeat's 1 and count. */
void reduce_loop_ends(RCtx *c, AlgSymbol *index, AlgExpr *lo, AlgExpr *hi) {
  size_t id = alg_symbol_id(index);
  if (id >= c->loop_ends_cap) {
    size_t cap = c->loop_ends_cap ? c->loop_ends_cap : 64;
    while (cap <= id) cap *= 2;
    RLoopEnds *bigger = arena_alloc(&c->arena, cap * sizeof *bigger);
    memset(bigger, 0, cap * sizeof *bigger);
    if (c->loop_ends_cap) memcpy(bigger, c->loop_ends, c->loop_ends_cap * sizeof *bigger);
    c->loop_ends = bigger;
    c->loop_ends_cap = cap;
  }
  c->loop_ends[id] = (RLoopEnds){lo, hi};
}

/* Rule (loop ends are integers): x is an integer wherever scope is evaluated when, for some
** index symbol of scope that runs a model loop (reduce_loop_ends), x minus that loop's first or
** last end is an integer expression (order_integer_valued). Argument: scope has a value only where each of its
** indices has one, that is where their loops run, and there the loops' ends are integers (a
** loop bound that is not an integer is an error, LANGUAGE.md §4: the simulator stops and predict
** names it by the REDUCE_CHECK_INTEGER check); an integer plus an integer is one.
** `((r + 1) % (P / Px)) * Px + c` over r = 0 .. P / Px - 1: P / Px - (P / Px - 1) = 1, so the
** modulus P / Px is an integer there (at P = 10 and Px = 4 the loop itself is the error). */
int reduce_integer_by_ends(RCtx *c, AlgExpr *x, AlgExpr *scope) {
  AlgSymbol *syms[ENDS_MAX_SCOPE];
  size_t n = alg_free_symbols(c->alg, scope, syms, ENDS_MAX_SCOPE);
  if (n > ENDS_MAX_SCOPE) n = ENDS_MAX_SCOPE;
  for (size_t i = 0; i < n; i++) {
    size_t id = alg_symbol_id(syms[i]);
    if (alg_symbol_kind(syms[i]) != ALG_SYM_INDEX || id >= c->loop_ends_cap || !c->loop_ends[id].hi) continue;
    if (order_integer_valued(c, alg_sub(c->alg, x, c->loop_ends[id].hi)) ||
        order_integer_valued(c, alg_sub(c->alg, x, c->loop_ends[id].lo)))
      return 1;
  }
  return 0;
}
