/*
** cal_stats.c — median, quartiles and the IQR outlier rule over a benchmark's samples (GSL).
*/
#include <string.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>
#include "cal_stats.h"

int cal_stats_summarize(const double *samples, size_t n, double *scratch, CalSummary *out) {
  memset(out, 0, sizeof *out);
  if (n == 0) return -1;
  memcpy(scratch, samples, n * sizeof *scratch);
  gsl_sort(scratch, 1, n);
  out->total = n;
  out->median = gsl_stats_median_from_sorted_data(scratch, 1, n);
  out->q1 = gsl_stats_quantile_from_sorted_data(scratch, 1, n, 0.25);
  out->q3 = gsl_stats_quantile_from_sorted_data(scratch, 1, n, 0.75);
  double iqr = out->q3 - out->q1;
  out->fence_lo = out->q1 - CAL_OUTLIER_FACTOR * iqr;
  out->fence_hi = out->q3 + CAL_OUTLIER_FACTOR * iqr;
  size_t first = 0, end = n;      /* kept samples are scratch[first .. end-1], still sorted */
  while (first < n && scratch[first] < out->fence_lo) first++;
  while (end > first && scratch[end - 1] > out->fence_hi) end--;
  /* The median lies between the quartiles, so at least it is kept: end > first. */
  out->kept = end - first;
  out->lo = scratch[first];
  out->hi = scratch[end - 1];
  out->kept_median = gsl_stats_median_from_sorted_data(scratch + first, 1, out->kept);
  return 0;
}
