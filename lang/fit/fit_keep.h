/*
** fit_keep.h — which runs of each configuration `pamc fit` fits on: a slow (or fast) outlier run —
** a daemon, a page-cache miss, a neighbour on the network — is left out, so that one run does not
** drag the fit. A run is an outlier when it lies more than FIT_OUTLIER_SPREADS robust spreads from
** its configuration's median; the robust spread of a configuration is the larger of its own
** (1.4826 times the median absolute deviation: sd for normal noise, blind to a few wild runs) and
** the pooled one (the median relative robust spread of the fitted configurations times its median,
** at least FIT_OUTLIER_FLOOR of it): a configuration whose few runs happen to agree rejects no
** normal run. The times of a configuration are sorted, so the runs kept are a range of them.
*/
#ifndef PAMC_FIT_KEEP_H
#define PAMC_FIT_KEEP_H

#include "runs.h"

/* Robust spreads from the median beyond which a run is an outlier (normal noise: 1 run in 16000). */
#define FIT_OUTLIER_SPREADS 4.0
/* Least relative robust spread: runs within FIT_OUTLIER_SPREADS times this of their median (10%)
** are always kept. Published tables give times to two or three digits (0.27 0.26 0.27: a MAD of
** 0, and 0.26 4% off), quiet machines repeat to a fraction of a percent, and a run a few percent
** off barely moves a fit; the outliers that drag one are 1.3x to 3x. */
#define FIT_OUTLIER_FLOOR 0.025
/* Runs a configuration needs before any is judged: with two, neither is the odd one. */
#define FIT_OUTLIER_MIN_RUNS 3

/* The runs kept of one configuration: times[first .. first + count - 1] of its sorted times. */
typedef struct FitKeep {
  int first;                       /* first run kept */
  int count;                       /* runs kept, >= 1 */
  double mean, sd;                 /* of the runs kept (sd 0 with one) */
} FitKeep;

/* Fills keep[k] for every configuration of runs; the pooled spread comes from the configurations
** not held out. Returns the number of runs left out over the configurations not held out, or -1
** out of memory. */
long fit_keep_runs(const Runs *runs, const int *held_out, FitKeep *keep);

#endif
