/*
** predict_measured.h — `pamc predict --measured RUNS`: the measured runs (fit/runs.h) matched to
** the rows of a sweep (a row matches a configuration when every param the runs give has the
** row's value), and the summary of how the predictions compare: rows with runs, medians inside
** [lo, hi], median and worst relative error of est.
*/
#ifndef PAMC_PREDICT_MEASURED_H
#define PAMC_PREDICT_MEASURED_H

#include <stdio.h>

#include "fit/runs.h"
#include "program.h"
#include "sweep.h"

typedef struct PredictMeasured {
  Runs runs;                       /* the runs, grouped by the params of the model */
  int axis[RUNS_MAX_COLUMNS];      /* per column: the sweep axis giving its value, or -1 */
  double fixed[RUNS_MAX_COLUMNS];  /* per column not swept: its value in force (NaN: no point) */
  int *seen;                       /* per configuration: matched by a row */
  double *errors;                  /* |est - median| / median per matched row (malloc'd) */
  long matched;                    /* rows with runs */
  long covered;                    /* of those, rows whose median is within [lo, hi] */
  double worst;                    /* largest error so far */
  char worst_at[256];              /* the configuration of the largest error */
} PredictMeasured;

/* Reads path and matches its columns to prog's params and sweep's axes. Returns 0, 1 with errors
** in diags (a malformed file, no param of the model), 3 when it cannot be read. Free with
** predict_measured_free in every case. */
int predict_measured_open(PredictMeasured *pm, const char *path, const RunsSelect *select,
                          const Program *prog, const Sweep *sweep, DiagList *diags);
void predict_measured_free(PredictMeasured *pm);

/* The configuration measured at the sweep point, or NULL; with one, counts the row. */
const RunsConfig *predict_measured_row(PredictMeasured *pm, const double *point, double lo,
                                       double est, double hi);

/* The summary line (rows with runs, covered, median and worst error). */
void predict_measured_summary(const PredictMeasured *pm, long rows, FILE *out);

#endif
