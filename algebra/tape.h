/*
** tape.h — expressions compiled to a flat instruction tape and evaluated over intervals for a
** whole batch of points at once (structure of arrays: the instruction loop outside, the point
** loop inside, so the compiler vectorises the arithmetic and the dispatch is paid once per
** instruction and chunk of points, not per point).
**
** Each node of the (hash-consed) expression is compiled once: shared subexpressions are
** evaluated once per point. Registers are reused after their last reader. Results are those of
** interval.c operation by operation (ival_kernel.h), bit for bit the same as alg_eval_tree's.
** Every node kind of expr.h is handled; markers are transparent. A big operator (sum, prod,
** maxover, minover left unevaluated) compiles its body to a tape of its own and is evaluated per
** point as alg_eval_tree does: when both ends are points and the range has fewer than the loop
** limit of the context (alg_ctx_loop_limit, read at compile time) indices, by evaluating the body
** as a batch over the indices (the other symbols broadcast), and, inside other walks, when
** the indices walked at once stay within ALG_TAPE_WALK_BUDGET; otherwise by the interval extension
** of the body over the hull of the range. Subexpressions of a body that do not depend on the
** index are computed once per point outside the body and read by it as inputs (hoisted).
*/
#ifndef PAMC_TAPE_H
#define PAMC_TAPE_H

#include <stddef.h>

#include "expr.h"
#include "interval.h"

#define ALG_TAPE_CHUNK 256   /* points per pass over the tape: registers of a chunk stay in cache */
/* A walk inside walks: at most this many indices at once, the counts of the enclosing walks
   multiplied by its own (a sum over k of a max over p at P = 10^4 walked 10^8 points); beyond,
   its body is enclosed over the hull of its range, as beyond the loop limit. alg_eval_tree has
   no such limit: the tape agrees with it bit for bit below it. */
#define ALG_TAPE_WALK_BUDGET 1e6

typedef struct AlgTape AlgTape;

/* Compiles e. 0 and *out on success (free with alg_tape_free); -1 with a message in err (at
   most err_size bytes) on failure. The inputs are the free symbols of e in id order. */
int alg_tape_compile(AlgCtx *ctx, const AlgExpr *e, AlgTape **out, char *err, size_t err_size);
void alg_tape_free(AlgTape *tape);

size_t alg_tape_ninputs(const AlgTape *tape);
AlgSymbol *alg_tape_input(const AlgTape *tape, size_t i);   /* symbol of input i */
size_t alg_tape_length(const AlgTape *tape);                /* instructions (bodies excluded) */
size_t alg_tape_nregs(const AlgTape *tape);                 /* registers after reuse */

/* Evaluates npoints points: input i of point k is [in_lo[i][k], in_hi[i][k]]; the result of
   point k goes to [out_lo[k], out_hi[k]]. 0 on success, -1 when out of memory. */
int alg_tape_eval(const AlgTape *tape, size_t npoints, const double *const *in_lo,
                  const double *const *in_hi, double *out_lo, double *out_hi);
/* As alg_tape_eval, and enclosed[k] (npoints bytes) is 1 where a big operator of point k was
   enclosed by its interval extension rather than walked index by index (its range above the loop
   limit or the walk budget), else 0: where an approximated sum's exact value was not reached. */
int alg_tape_eval_enclosed(const AlgTape *tape, size_t npoints, const double *const *in_lo,
                           const double *const *in_hi, double *out_lo, double *out_hi,
                           unsigned char *enclosed);
/* One point with the symbols' values in env, indexed by symbol id (as alg_eval_tree). */
AlgInterval alg_tape_eval_env(const AlgTape *tape, const AlgInterval *env);

#endif
