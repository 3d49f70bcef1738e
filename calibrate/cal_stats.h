/*
** cal_stats.h — robust statistics of a benchmark's samples: median, quartiles (GSL), the outlier
** rule, and the interval [min, max] of the samples kept.
**
** Outlier rule: with Q1, Q3 the quartiles (linear interpolation between order statistics, GSL's
** gsl_stats_quantile_from_sorted_data: Q(f) = x[floor(h)] + (h - floor(h)) (x[floor(h)+1] - ...),
** h = f (n - 1)) and IQR = Q3 - Q1, a sample is kept when Q1 - 1.5 IQR <= x <= Q3 + 1.5 IQR.
*/
#ifndef PAMC_CAL_STATS_H
#define PAMC_CAL_STATS_H

#include <stddef.h>

#define CAL_OUTLIER_FACTOR 1.5    /* Tukey's fences: the usual choice, drops ~0.7% of a normal */

typedef struct CalSummary {
  size_t total;                   /* samples given */
  size_t kept;                    /* samples inside the fences */
  double median;                  /* of all samples */
  double q1, q3;                  /* quartiles of all samples */
  double fence_lo, fence_hi;      /* Q1 - 1.5 IQR, Q3 + 1.5 IQR */
  double lo, hi;                  /* min and max of the kept samples */
  double kept_median;             /* median of the kept samples */
} CalSummary;

/* Summarises n >= 1 samples; scratch holds n doubles (the sorted copy). Returns 0, or -1 when
** n == 0. */
int cal_stats_summarize(const double *samples, size_t n, double *scratch, CalSummary *out);

#endif
