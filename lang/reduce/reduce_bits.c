/*
** reduce_bits.c — a member map that combines the bits of the branch one by one (docs/
** reduction.md, "Bits combined one by one"): the xor of the branch with a value, written as a `fn`
** that sums the bits, `sum(b = 0, L - 1, 2 ^ b * ((floor(p / 2 ^ b) % 2 + floor(k / 2 ^ b) % 2) %
** 2))`, read as one-to-one in p without evaluating it at every point.
*/
#include "reduce_order.h"

/* The term T of a body 2^j * T (j the sum's index), or NULL. */
static AlgExpr *digit_term(RCtx *c, AlgExpr *body, AlgSymbol *j) {
  AlgCtx *g = c->alg;
  if (alg_kind(body) != ALG_MUL || alg_nkids(body) != 2) return NULL;
  AlgExpr *weight = alg_pow(g, alg_num_int(g, 2), alg_sym(g, j));
  return alg_kid(body, 0) == weight ? alg_kid(body, 1) : alg_kid(body, 1) == weight ? alg_kid(body, 0) : NULL;
}

/* Rule (bits combined one by one): an index
**   e = sum(j = 0, U, 2^j * ((X_j + Y_j) % 2)),  X_j = floor(i / 2^j) % 2 or floor(i / 2^j),
** with Y_j integer-valued, >= 0 and free of i (it may name j and other indices), is one-to-one in
** i over lo .. hi when 0 <= lo and hi <= 2^(floor(U) + 1) - 1. Argument: such an i is
** sum_j 2^j beta_j with beta_j = floor(i / 2^j) % 2 its bit j (j = 0 .. floor(U)); floor(i / 2^j)
** is beta_j plus an even number, so the term's digit d_j = (X_j + Y_j) % 2 = (beta_j + Y_j) % 2
** is 0 or 1 (a remainder by 2 of an integer >= 0), so e is the
** number whose binary digits are the d_j, and a number has one binary writing: e(i) = e(i')
** gives d_j(i) = d_j(i') for every j, so beta_j(i) = beta_j(i') (Y_j is the same for both: it
** does not name i, and beta = d - Y mod 2), so i = i'. The pairwise all-to-all's round k,
** p xor k, at every P = 2^L, symbolically (evaluation stops at 2^20 points: P = 2048). */
int reduce_bits_injective(RCtx *c, AlgExpr *e, AlgSymbol *i, AlgExpr *lo, AlgExpr *hi) {
  AlgCtx *g = c->alg;
  if (alg_kind(e) != ALG_SUM || !alg_is_num(alg_kid(e, 1), 0)) return 0;
  AlgSymbol *j = alg_symbol_of(e);
  AlgExpr *U = alg_kid(e, 2), *T = digit_term(c, alg_kid(e, 3), j);
  if (alg_contains(U, i) || !T || alg_kind(T) != ALG_MOD || !alg_is_num(alg_kid(T, 1), 2)) return 0;
  AlgExpr *S = alg_kid(T, 0), *bit = NULL;
  if (alg_kind(S) != ALG_ADD) return 0;
  for (size_t n = 0; n < alg_nkids(S); n++) {
    if (!alg_contains(alg_kid(S, n), i)) continue;
    AlgExpr *x = alg_kid(S, n);   /* bit j itself, or floor(i / 2^j), of the same parity */
    AlgExpr *h = bit ? NULL : order_bit_of(c, alg_kind(x) == ALG_FLOOR ? alg_mod(g, x, alg_num_int(g, 2)) : x, i);
    if (!h || h != alg_pow(g, alg_num_int(g, 2), alg_sym(g, j))) return 0;   /* bit j of i, once */
    bit = alg_kid(S, n);
  }
  if (!bit) return 0;
  AlgExpr *Y = alg_sub(g, S, bit);
  if (alg_contains(Y, i) || !order_integer_valued(c, Y) || alg_bounds(g, Y).lo < 0) return 0;
  AlgExpr *top = alg_sub(g, alg_pow(g, alg_num_int(g, 2), alg_add(g, alg_func(g, ALG_FLOOR, U), alg_num_int(g, 1))),
                         alg_num_int(g, 1));
  return alg_is_nonneg(g, lo) && alg_is_nonneg(g, alg_sub(g, top, hi));
}
