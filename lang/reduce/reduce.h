/*
** reduce.h — the reduction of a checked program's entry process to closed-form lower/upper time
** bounds (REDUCTION.md): per-statement summaries phi, D_r, L, U combined bottom-up.
*/
#ifndef PAMC_REDUCE_H
#define PAMC_REDUCE_H

#include "expr.h"
#include "program.h"

typedef struct ReduceOptions {
  int expected;            /* 1: also compute t_expected (choose as the mix of its branches) */
  long loop_limit;         /* exact evaluation by looping allowed below this size (0 = default) */
} ReduceOptions;

typedef struct ReduceTerm {
  const char *name;        /* "critical path" or a resource name */
  AlgExpr *value;          /* lower-bound term: phi of the whole entry, or D_r / m_r */
} ReduceTerm;

/* What must hold where the model runs, for evaluation to name errors (issue: a negative duration,
** a family index out of range, a non-integer loop bound, a division by zero) by source location.
** Each value is already taken over the enclosing loops (min or max over the index ranges, 0 where
** a range is empty) and is 0 where an enclosing `if` on a param skips the statement. Evaluated
** over intervals, a check fails only when it fails for the whole enclosure. */
typedef enum ReduceCheckKind {
  REDUCE_CHECK_NONNEG,    /* value >= 0 (a duration: value is its minimum) */
  REDUCE_CHECK_INDEX,     /* 0 <= value and value_hi <= limit - 1 (a family member) */
  REDUCE_CHECK_INTEGER,   /* value is an integer (a loop bound or repeat count) */
  REDUCE_CHECK_NONZERO    /* value != 0 (a divisor) */
} ReduceCheckKind;

typedef struct ReduceCheck {
  ReduceCheckKind kind;    /* what must hold */
  AlgExpr *value;          /* the checked value (INDEX: the smallest index) */
  AlgExpr *value_hi;       /* INDEX: the largest index; NULL otherwise */
  AlgExpr *limit;          /* INDEX: the family size; NULL otherwise */
  SrcLoc loc;              /* the expression checked */
  const char *what;        /* "duration", "member index", "loop bound", "repeat count", "divisor" */
  const char *name;        /* INDEX: the family's name (the program's storage); NULL otherwise */
} ReduceCheck;

/* A place where a bound rests on an approximation (issue 15): a sum or max with no closed form,
** replaced by a marked safe value (REDUCTION.md, "Closed forms"; walked index by index instead
** where its range is below the loop limit), or a family whose waits were taken as one
** resource's (upper bound only). */
typedef struct ReduceApprox {
  int bound;               /* 0: T_lo, 1: T_hi */
  const char *what;        /* "the sum over i of the seq loop", "family cpu taken as one
                              resource" (malloc) */
  SrcLoc loc;              /* the loop or the family declaration; file NULL when unknown */
  int zero;                /* 1: the marked value is 0 (the bound drops the term there) */
  AlgExpr *unless;         /* NULL: the note holds at every point; else not where this condition
                              (params and consts only) is surely true */
  int walkable;            /* 1: a sum's note that does not hold at a point where evaluation
                              walked every sum of its bound (alg_tape_eval_enclosed) */
} ReduceApprox;

typedef struct ReduceResult {
  AlgCtx *alg;             /* owns every expression below */
  AlgExpr *t_lo, *t_hi;    /* bounds over the free params and the consts (consts stay symbols) */
  AlgExpr *phi;            /* contention-free time of the entry */
  AlgExpr *t_expected;     /* with opts->expected: T_lo where every choose (p) S1 else S2 counts
                              as p*S1 + (1-p)*S2 (REDUCTION.md: beside the bounds); else NULL */
  ReduceTerm *terms;       /* bottleneck candidates: critical path first, then each resource */
  int term_count;          /* length of terms */
  AlgSymbol **symbols;     /* one symbol per param and const used, in declaration order */
  const Decl **symbol_decls; /* the declaration each symbol stands for */
  int symbol_count;        /* length of symbols and symbol_decls */
  ReduceCheck *checks;     /* what evaluation must verify at each point */
  int check_count;         /* length of checks */
  ReduceApprox *approx;    /* where t_lo / t_hi rest on an approximation (malloc) */
  int approx_count;        /* length of approx */
} ReduceResult;

/* Reduces the entry process of a loaded and checked program. Returns 0, or 1 with errors in diags
** (file:line:col where the problem has a place). Free with reduce_result_free in every case.
** prog's holds whose bodies are delays alone are rewritten as uses first (the same program,
** LANGUAGE.md §8; reduce_lower.c): simulate a program loaded apart to run them as written. */
int reduce_program(Program *prog, const ReduceOptions *opts, ReduceResult *out, DiagList *diags);
void reduce_result_free(ReduceResult *result);

#endif
