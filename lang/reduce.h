/*
** reduce.h — the reduction of a checked program's entry process to closed-form lower/upper time
** bounds (REDUCTION.md): per-statement summaries phi, D_r, L, U combined bottom-up.
*/
#ifndef PAMC_REDUCE_H
#define PAMC_REDUCE_H

#include "expr.h"
#include "program.h"

typedef struct ReduceOptions {
  int expected;            /* 1: also compute the expected value for choose (optional, may ignore) */
  long loop_limit;         /* exact evaluation by looping allowed below this size (0 = default) */
} ReduceOptions;

typedef struct ReduceTerm {
  const char *name;        /* "critical path" or a resource name */
  AlgExpr *value;          /* lower-bound term: phi of the whole entry, or D_r / m_r */
} ReduceTerm;

typedef struct ReduceResult {
  AlgCtx *alg;             /* owns every expression below */
  AlgExpr *t_lo, *t_hi;    /* bounds over the free params and the consts (consts stay symbols) */
  AlgExpr *phi;            /* contention-free time of the entry */
  ReduceTerm *terms;       /* bottleneck candidates: critical path first, then each resource */
  int term_count;          /* length of terms */
  AlgSymbol **symbols;     /* one symbol per param and const used, in declaration order */
  const Decl **symbol_decls; /* the declaration each symbol stands for */
  int symbol_count;        /* length of symbols and symbol_decls */
} ReduceResult;

/* Reduces the entry process of a loaded and checked program. Returns 0, or 1 with errors in diags
** (file:line:col where the problem has a place). Free with reduce_result_free in every case. */
int reduce_program(Program *prog, const ReduceOptions *opts, ReduceResult *out, DiagList *diags);
void reduce_result_free(ReduceResult *result);

#endif
