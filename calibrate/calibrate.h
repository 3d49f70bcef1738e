/*
** calibrate.h — `pamc calibrate` as a library call: run every benchmark family, merge with the
** history, summarise (statistics, message fit) and write the machine file atomically.
*/
#ifndef PAMC_CALIBRATE_H
#define PAMC_CALIBRATE_H

#include "cal.h"

#define CAL_REPS_DEFAULT 15           /* enough for quartiles that mean something */
#define CAL_REPS_QUICK 5              /* the fewest that still give quartiles */
#define CAL_SAMPLE_SECONDS 0.003      /* one sample: long against the clock, short against noise */
#define CAL_SAMPLE_SECONDS_QUICK 0.001
#define CAL_ROUNDS 5                  /* rounds the samples of a run are spread over (at most reps) */

/* Fills opt with the defaults (quick or full). */
void cal_options_default(CalOptions *opt, int quick);

/* Runs the calibration and writes out_path. Returns 0, or -1 with err filled (nothing written). */
int cal_calibrate(const CalOptions *opt, const char *out_path, CalProgress progress, void *user,
                  CalError *err);

#endif
