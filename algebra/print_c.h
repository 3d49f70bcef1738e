/*
** print_c.h — the C printer: an expression as a self-contained C11 translation unit that computes
** its interval enclosure with exactly the rounding of interval.c (the kernel ival_kernel.h is
** pasted in), compilable with `cc -std=c11 -O2 file.c -lm`.
**
** The unit defines, for a name NAME:
**   void NAME(const double *in_lo, const double *in_hi, double *out_lo, double *out_hi);
**     one point: input i is [in_lo[i], in_hi[i]], the result goes to *out_lo, *out_hi;
**   void NAME_batch(size_t n, const double *const *in_lo, const double *const *in_hi,
**                   double *out_lo, double *out_hi);
**     n points, laid out as for alg_tape_eval;
**   const int NAME_ninputs;   the number of inputs.
** Inputs are the free symbols of the expression in id order (alg_free_symbols), as the tape's.
** Big operators become loops with the context's loop limit (same semantics as alg_eval_tree);
** their bodies are helper functions.
*/
#ifndef PAMC_PRINT_C_H
#define PAMC_PRINT_C_H

#include <stdio.h>

#include "expr.h"

/* name: a C identifier. 0 on success; -1 with a message in err on failure (bad name, no memory,
   write error). */
int alg_print_c(FILE *out, AlgCtx *ctx, const AlgExpr *e, const char *name, char *err,
                size_t err_size);
/* Several formulas in one translation unit (the kernel once): exprs[i] under names[i]. */
int alg_print_c_unit(FILE *out, AlgCtx *ctx, size_t count, const AlgExpr *const *exprs,
                     const char *const *names, char *err, size_t err_size);

#endif
