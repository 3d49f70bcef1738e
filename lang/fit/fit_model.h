/*
** fit_model.h — est as a function of the fitted consts (`pamc fit`): the reduced T_lo compiled
** once to a tape whose inputs are the runs' params (one point per configuration), the consts being
** fitted (broadcast from a vector) and every other name at its value in force (as predict: a
** const at its midpoint); evaluating est at the configurations for a vector of consts is one pass
** of the tape, with no reduction or symbolic work per evaluation.
*/
#ifndef PAMC_FIT_MODEL_H
#define PAMC_FIT_MODEL_H

#include "reduce.h"
#include "runs.h"
#include "tape.h"

/* Consts fitted at once at most. */
#define FIT_MAX_CONSTS 32

/* Where one tape input takes its values from. */
typedef enum FitInputKind {
  FIT_INPUT_COLUMN,        /* a param given by the runs: a column */
  FIT_INPUT_CONST,         /* a fitted const: an entry of the vector */
  FIT_INPUT_FIXED          /* anything else: its value in force */
} FitInputKind;

typedef struct FitModel {
  const ReduceResult *reduced;     /* the formulas (caller's) */
  const Runs *runs;                /* the configurations (caller's, grouped) */
  AlgTape *tape;                   /* T_lo */
  int input_count;                 /* inputs of the tape */
  double **in_lo, **in_hi;         /* per input: an array of config_count values (malloc'd) */
  FitInputKind *kinds;             /* per input: where its values come from */
  int *index;                      /* per input: the column or the fitted const */
  const Decl *consts[FIT_MAX_CONSTS]; /* the fitted consts, in vector order */
  int const_count;                 /* length of consts */
  int present[FIT_MAX_CONSTS];     /* 1: the const occurs in T_lo */
  double *out_lo, *out_hi;         /* tape outputs (config_count each) */
} FitModel;

/* Compiles r->t_lo for the configurations of runs (grouped; the used columns must be params of
** the program) with consts as the fitted vector. Returns 0, or 1 with errors in diags (a name
** with no value, a formula that does not compile). Free with fit_model_free in every case. */
int fit_model_init(FitModel *m, const ReduceResult *r, const Runs *runs, const Decl *const *consts,
                   int const_count, DiagList *diags);
void fit_model_free(FitModel *m);

/* est at every configuration for the consts' values theta: est[k] for runs->configs[k].
** Returns 0, or -1 when out of memory. */
int fit_model_eval(FitModel *m, const double *theta, double *est);

#endif
