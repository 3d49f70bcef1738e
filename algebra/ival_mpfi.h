/*
** ival_mpfi.h — the interval operations of interval.h at a precision the caller chooses, on MPFI
** intervals (mpfi_t, initialised by the caller with mpfi_init2 at that precision), and the
** evaluation of an expression with them. Same conventions as the double intervals: operations
** undefined somewhere on their arguments give the entire line; ends are rounded outward (MPFI
** rounds each end in its direction, so results are the tightest at the precision, except where
** the double version itself is loose: mod, big operators).
*/
#ifndef PAMC_IVAL_MPFI_H
#define PAMC_IVAL_MPFI_H

#include <stdint.h>   /* before mpfr.h: declares the intmax_t functions */
#include <mpfi.h>

#include "expr.h"
#include "interval.h"

/* Conversions: a double interval into out (exact when out has >= 53 bits, else outward), and out
   to the narrowest double interval containing it. */
void alg_mpfi_set_ival(mpfi_ptr out, AlgInterval a);
AlgInterval alg_mpfi_get_ival(mpfi_srcptr a);
void alg_mpfi_entire(mpfi_ptr out);
int alg_mpfi_contains_zero(mpfi_srcptr a);

/* out may alias an argument. */
void alg_mpfi_add(mpfi_ptr out, mpfi_srcptr a, mpfi_srcptr b);
void alg_mpfi_sub(mpfi_ptr out, mpfi_srcptr a, mpfi_srcptr b);
void alg_mpfi_mul(mpfi_ptr out, mpfi_srcptr a, mpfi_srcptr b);
void alg_mpfi_div(mpfi_ptr out, mpfi_srcptr a, mpfi_srcptr b);
void alg_mpfi_neg(mpfi_ptr out, mpfi_srcptr a);
void alg_mpfi_mod(mpfi_ptr out, mpfi_srcptr a, mpfi_srcptr b);
void alg_mpfi_powi(mpfi_ptr out, mpfi_srcptr a, long long n);     /* |n| < 2^62 */
void alg_mpfi_pow(mpfi_ptr out, mpfi_srcptr base, mpfi_srcptr exponent);
void alg_mpfi_min(mpfi_ptr out, mpfi_srcptr a, mpfi_srcptr b);
void alg_mpfi_max(mpfi_ptr out, mpfi_srcptr a, mpfi_srcptr b);
void alg_mpfi_hull(mpfi_ptr out, mpfi_srcptr a, mpfi_srcptr b);
void alg_mpfi_abs(mpfi_ptr out, mpfi_srcptr a);
void alg_mpfi_sqrt(mpfi_ptr out, mpfi_srcptr a);
void alg_mpfi_exp(mpfi_ptr out, mpfi_srcptr a);
void alg_mpfi_log(mpfi_ptr out, mpfi_srcptr a);
void alg_mpfi_log2(mpfi_ptr out, mpfi_srcptr a);
void alg_mpfi_floor(mpfi_ptr out, mpfi_srcptr a);
void alg_mpfi_ceil(mpfi_ptr out, mpfi_srcptr a);
/* [0,0], [1,1] or [0,1]; op as ival_cmp (0 ==, 1 !=, 2 <, 3 <=, 4 >, 5 >=). */
void alg_mpfi_cmp(mpfi_ptr out, int op, mpfi_srcptr a, mpfi_srcptr b);
void alg_mpfi_truth(mpfi_ptr out, mpfi_srcptr c);
void alg_mpfi_and(mpfi_ptr out, mpfi_srcptr a, mpfi_srcptr b);
void alg_mpfi_or(mpfi_ptr out, mpfi_srcptr a, mpfi_srcptr b);
void alg_mpfi_not(mpfi_ptr out, mpfi_srcptr a);

/* Enclosure of e at the precision of out, with the symbols' values in env (by symbol id, at least
   alg_symbol_count entries, each initialised; entries of index symbols are ignored). Numbers
   enter exactly rounded outward at that precision. Big operators: as alg_eval_tree (loop up to
   the context's loop limit, interval extension beyond). */
void alg_eval_mpfi(AlgCtx *ctx, const AlgExpr *e, mpfi_srcptr const *env, mpfi_ptr out);

#endif
