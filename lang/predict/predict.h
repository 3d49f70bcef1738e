/*
** predict.h — the evaluation behind `pamc predict` (CLI.md, REDUCTION.md "Interval evaluation"):
** the reduced T_lo, T_hi and bottleneck terms compiled once to tapes and evaluated batch by batch
** over the points of a sweep; and the check of a point (or of a batch's hull) against the model's
** statements, which gives evaluation errors their source location.
*/
#ifndef PAMC_PREDICT_H
#define PAMC_PREDICT_H

#include "arena.h"
#include "eval.h"
#include "program.h"
#include "reduce.h"
#include "sweep.h"
#include "tape.h"

/* Points evaluated per batch: the tapes' inputs and outputs of one batch stay in cache, and a
** sweep of any size is streamed in this much memory. */
#define PREDICT_BATCH 1024
#define PREDICT_APPROX_SIZE 1024   /* the approx column of one row, truncated (bytes) */
/* Longest message of a PredictIssue (a check message and the values of the point). */
#define PREDICT_MESSAGE_SIZE 512
/* Statements one check of a point visits at most (loop bodies are checked over the whole index
** range, then at the first and last index: nested loops multiply; beyond, the check stops). */
#define PREDICT_CHECK_VISITS 20000

/* One free symbol of the reduced formulas and where its values come from. */
typedef struct PredictInput {
  AlgSymbol *symbol;        /* the symbol in the reduced formulas */
  const Decl *decl;         /* the declaration in force it stands for */
  int axis;                 /* the sweep axis giving its values, -1 when fixed */
  AlgInterval box;          /* fixed: its value over the constants' box */
  AlgInterval mid;          /* fixed: its value at the midpoints of the consts (= box for params) */
  double *box_lo, *box_hi;  /* batch inputs over the box (PREDICT_BATCH each) */
  double *mid_lo, *mid_hi;  /* batch inputs at the midpoints */
} PredictInput;

/* A compiled formula with its inputs wired to the batch arrays. */
typedef struct PredictTape {
  AlgTape *tape;            /* the compiled formula */
  const double **box_lo, **box_hi; /* per tape input: the batch array over the box */
  const double **mid_lo, **mid_hi; /* per tape input: the batch array at the midpoints */
} PredictTape;

typedef struct PredictPlan {
  Arena arena;              /* inputs, batch arrays and wiring of this plan */
  const ReduceResult *reduced; /* the formulas (caller's; outlives the plan) */
  const Sweep *sweep;       /* the swept names (caller's) */
  PredictInput *inputs;     /* one per free symbol of the formulas */
  int input_count;          /* length of inputs */
  PredictTape t_lo, t_hi;   /* the bounds */
  PredictTape *terms;       /* the bottleneck candidates of reduced->terms, same order */
  int term_count;           /* length of terms */
  double *scratch_lo, *scratch_hi; /* tape outputs (PREDICT_BATCH each) */
  double *term_best;        /* largest term value so far per point (PREDICT_BATCH) */
  PredictTape *checks;      /* per reduced->checks entry: its value, value_hi, limit (3 each;
                               tape NULL where the check has none) */
  double *value_lo, *value_hi, *limit_lo, *limit_hi; /* check outputs (PREDICT_BATCH each) */
  PredictTape *approx;      /* per reduced->approx entry: its condition `unless` (tape NULL where
                               the note holds everywhere) */
  unsigned char *approx_on; /* per point k of the last batch and note i: [k * count + i] is 1 when
                               the note holds at the point (PREDICT_BATCH * approx_count) */
} PredictPlan;

/* The results of one batch, point k at index k. */
typedef struct PredictBatch {
  double lo[PREDICT_BATCH];     /* inf T_lo over the box */
  double est[PREDICT_BATCH];    /* T_lo at the midpoints of the consts (its midpoint) */
  double hi[PREDICT_BATCH];     /* sup T_hi over the box */
  int bottleneck[PREDICT_BATCH]; /* index into reduced->terms of the largest term at the midpoints */
} PredictBatch;

/* Wires the free symbols of r's formulas to the axes of sweep (by name) or to their values in
** force (eval_decl_value: param defaults, -D and machine values) and compiles the tapes. Returns
** 0, or 1 with an error in diags at the declaration of a symbol that has no value. Free with
** predict_plan_free in every case. */
int predict_plan_init(PredictPlan *plan, const ReduceResult *r, const Sweep *sweep, DiagList *diags);
void predict_plan_free(PredictPlan *plan);

/* The midpoint of [lo, hi] (how est is taken from T_lo's enclosure at the midpoints), or the
** finite end, or NaN when neither is finite. */
double predict_middle(double lo, double hi);

/* The value in force of a param or const (param default, -D, machine file): *box over the
** constants' intervals, *mid the value est takes (a const's typical value, else its midpoint;
** = *box for a param).
** Returns 0, or 1 with an error at the declaration ("const 'x' has no value: ..."). */
int predict_value_in_force(const Decl *decl, AlgInterval *box, AlgInterval *mid, DiagList *diags);

/* Evaluates npoints (<= PREDICT_BATCH) points; axis_values[a][k] is the value of sweep axis a at
** point k. Returns 0, or -1 when out of memory. */
int predict_eval(PredictPlan *plan, int npoints, const double *const *axis_values,
                 PredictBatch *out);

/* The first of the npoints points of the last predict_eval where a check of the reduction
** (reduce.h, ReduceCheck: the loops already taken over) certainly fails over the consts' box, or
** npoints when none does; *failed is the index of the check in reduced->checks and *value the
** offending value. -1 when out of memory. */
int predict_checks_first_failure(PredictPlan *plan, int npoints, int *failed, double *value);

/* Fills plan->approx_on for the npoints points of the last predict_eval: a note holds at a point
** unless its condition is surely true over the consts' box there. Returns 0, or -1 when out of
** memory. */
int predict_approx_eval(PredictPlan *plan, int npoints);

/* predict_approx.c: where the bounds rest on an approximation (r->approx): the csv/json column
** ("" when none) and a note per place.
** on[i] says whether note i holds (at a point, or at some point of a sweep); on NULL: all do. */
void predict_approx_column(const ReduceResult *r, const unsigned char *on, char *buf, size_t size);
void predict_approx_notes(const ReduceResult *r, const unsigned char *on, DiagList *diags);

/* What the check of a point found. */
typedef struct PredictIssue {
  SrcLoc loc;                          /* the offending expression or statement */
  char message[PREDICT_MESSAGE_SIZE];  /* "duration is negative (-1e-06 s)" */
} PredictIssue;

/* How predict_check judges. */
typedef enum PredictCheckMode {
  PREDICT_CHECK_POINT,  /* params are points: report what is certainly an error */
  PREDICT_CHECK_HULL    /* params are hulls of a batch: report anything not certainly fine (a
                           hint to check the batch point by point) */
} PredictCheckMode;

/* Checks the statements reachable from entry with the params and consts bound as in bindings
** (other names take their values in force): negative durations, family indices out of range or
** not integers, loop bounds and counts not integers, evaluation errors (division by zero, ...).
** integral (may be NULL) lists the params known to be integers (HULL mode: the swept params whose
** values in the batch are all integers). Returns 1 with *issue filled when something is found. */
int predict_check(const Decl *entry, const EvalBinding *bindings, int binding_count,
                  const Decl *const *integral, int integral_count, PredictCheckMode mode,
                  PredictIssue *issue);

/* Checks a batch of npoints points (axis_values[a][k]: value of axis a, declared by
** axis_decls[a], at point k) whose results are in results: the batch's hull in HULL mode, then,
** when the hull is not certainly fine or a result is not finite, each point in POINT mode.
** Returns the index of the first point with an issue (*issue filled; issue->loc.file is NULL when
** only the results are at fault), or npoints when there is none. */
int predict_check_batch(const Decl *entry, const Decl *const *axis_decls, int axis_count,
                        int npoints, const double *const *axis_values,
                        const PredictBatch *results, PredictIssue *issue);

#endif
