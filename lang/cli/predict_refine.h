/*
** predict_refine.h — `pamc predict` at one point of a sweep, reduced again with the swept values
** bound as if each had been given alone with -D (docs/manual.md, "A sweep and its points"). The
** reduction over a symbolic P cannot use what only a number decides (a member map proved
** one-to-one by evaluating it, a floor that falls on an integer, a class of indices that is
** empty), so a sweep's bounds at a point can be looser than the same point's alone. Both are
** sound; the row takes the tighter of each: lo the larger, hi the smaller, est the larger.
*/
#ifndef PAMC_PREDICT_REFINE_H
#define PAMC_PREDICT_REFINE_H

#include "predict.h"

/* Points of a sweep reduced at their own values by default (--refine N): a reduction takes
** 10-100 ms, so a sweep of any length costs at most a few seconds more. */
#define PREDICT_REFINE_DEFAULT 100
/* Notes of points' own reductions that are not the sweep's own, kept at most (beyond: dropped). */
#define PREDICT_REFINE_MAX_NOTES 64

/* A note of a point's own reduction that the sweep's reduction does not have. */
typedef struct RefineNote {
  int bound;                /* 0: T_lo, 1: T_hi */
  char *what;               /* as ReduceApprox.what (malloc) */
  SrcLoc loc;               /* its place, loc.file pointing into the sweep's program */
  int zero;                 /* as ReduceApprox.zero */
} RefineNote;

/* What the refinement of a sweep needs and what it did. */
typedef struct PredictRefine {
  const char *path;         /* the model file */
  ProgramOptions popts;     /* as for the sweep: machine files, entry, the fixed -D values */
  const Program *sweep_prog; /* the sweep's program (file names of notes' places) */
  const Sweep *sweep;       /* the swept names */
  long loop_limit;          /* --loop-limit, as for the sweep */
  long budget;              /* points that may still be reduced at their own values */
  long refined;             /* points reduced at their own values */
  long tightened;           /* of which at least one bound moved */
  long skipped;             /* points left as the sweep gave them because budget ran out */
  int progress;             /* 1: a progress line on stderr (a terminal) once it takes a while */
  double started;           /* when the first point was reduced (monotonic seconds), or 0 */
  RefineNote notes[PREDICT_REFINE_MAX_NOTES]; /* notes of the points' reductions not the sweep's */
  int note_count;           /* length of notes */
} PredictRefine;

/* One row: the sweep's values on entry, the tighter of both on return. */
typedef struct RefineRow {
  double lo, est, hi;       /* the bounds */
  const char *bottleneck;   /* the term of est (a name of the sweep's result: it outlives the
                               point's reduction) */
  int lo_from_point;        /* 1: lo (and est) come from the point's own reduction */
  int hi_from_point;        /* 1: hi comes from the point's own reduction */
  char approx[PREDICT_APPROX_SIZE]; /* the point's notes for the bounds it gave ("" none) */
  unsigned char *point_notes; /* per sweep note: 1 when the point's reduction has the same note
                               on a bound it gave (caller's, approx_count long) */
} RefineRow;

/* 1 when lo and hi meet (within 1e-9 relative): the time is known exactly there, and no note
** on an approximation holds, whatever the bounds were built from. */
int predict_refine_exact(double lo, double hi);

/* Reduces the model at point (values of the swept names, sweep order) when budget allows and
** the row is not exact (lo < hi), and tightens row. r is the sweep's reduction (its notes are
** matched against the point's). Errors of the point's own load or reduction (the sweep's
** checks have already judged the point) leave the row as it is. Returns 1 when a bound moved. */
int predict_refine_row(PredictRefine *pr, const ReduceResult *r, const double *point, RefineRow *row);

/* Notes after the sweep: the points' own notes that the sweep had not, and how many points
** were left unrefined when refining did tighten some. Frees the notes. */
void predict_refine_finish(PredictRefine *pr, DiagList *diags);

#endif
