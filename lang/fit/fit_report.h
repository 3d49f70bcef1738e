/*
** fit_report.h — what `pamc fit` prints and writes: the table of the fitted consts, the table per
** configuration (measured median and [min, max], est, relative error) and the quality lines on
** stdout; the machine file of the fitted consts as intervals, one comment per const.
*/
#ifndef PAMC_FIT_REPORT_H
#define PAMC_FIT_REPORT_H

#include <stdio.h>

#include "cal.h"
#include "fit.h"

/* The tables and the quality lines. */
void fit_print(FILE *out, const char *model, const Runs *runs, const FitResult *fit);
/* The header line, the consts' table and the quality lines (what --format csv puts on stderr). */
void fit_print_summary(FILE *out, const char *model, const Runs *runs, const FitResult *fit);

/* The machine file at path, written atomically: a header naming the model, the runs, the level
** and the command, then `const NAME = [LO, HI] typ VALUE;  # fitted VALUE ...` per const (ends rounded
** outward; typ the estimate, so that predict's est is the fit's). 0, or -1 with err filled (path untouched). */
int fit_write_machine(const char *path, const char *model, const Runs *runs, const FitResult *fit,
                      const char *command, CalError *err);

/* "1.2345e-09" rounded down (dir < 0) or up (dir > 0) to FIT_PRINT_DIGITS significant digits. */
void fit_format_bound(double v, int dir, char *buf, size_t size);

/* 1 when the runs hardly determine c: held at its bound, or its interval wider than twice its
** value (the value could as well be 0 or double). */
int fit_poorly_determined(const FitConst *c);

/* Significant digits of the machine file's numbers. */
#define FIT_PRINT_DIGITS 6

#endif
