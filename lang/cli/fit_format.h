/*
** fit_format.h — `pamc fit --format csv|json` (lang/cli/fit_format.c): the fit for programs, plain
** SI, in step with `predict --measured`'s columns. In the cli room: it writes numbers as the other
** commands' csv and json do (cli_number).
*/
#ifndef PAMC_FIT_FORMAT_H
#define PAMC_FIT_FORMAT_H

#include <stdio.h>

#include "fit_report.h"

/* --format csv (fit_format.c): one row per configuration: its params, runs, runs_fitted (0 when
** held out), measured (the median), measured_min, measured_max, est (seconds), error ((est -
** median) / median), held_out (0 or 1). */
void fit_print_csv(FILE *out, const Runs *runs, const FitResult *fit);
/* --format json: {"model", "runs", "level", "consts": [{name, value, lo, hi, se, status: fitted,
** at_bound or poorly_determined}], "configurations": [the csv's columns], "quality": {...},
** "held_out": {configurations, error_median, error_worst} (with --holdout)}. */
void fit_print_json(FILE *out, const char *model, const Runs *runs, const FitResult *fit);

#endif
