/*
** fit_keep.c — the runs `pamc fit` fits on, outliers left out (fit_keep.h).
*/
#include "fit_keep.h"

#include <math.h>
#include <stdlib.h>

/* The normal distribution's sd over its median absolute deviation. */
#define FIT_MAD_TO_SD 1.4826

static int compare_doubles(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* The small-sample factor b_n of the median absolute deviation (Croux and Rousseeuw 1992, "Time-
** efficient algorithms for two highly robust estimators of scale"): of a few runs, one deviation
** is 0 (the median's own), and the MAD underestimates sd without it. */
static double small_sample_factor(int n) {
  static const double factor[] = {1, 1, 1.196, 1.495, 1.363, 1.206, 1.200, 1.140, 1.129, 1.107};
  return n < 10 ? factor[n] : n / (n - 0.8);
}

/* The robust sd of c's runs: 1.4826 b_n times their median absolute deviation from their median
** (scratch: count doubles). */
static double robust_spread(const RunsConfig *c, double *scratch) {
  for (int t = 0; t < c->count; t++) scratch[t] = fabs(c->times[t] - c->median);
  qsort(scratch, (size_t)c->count, sizeof *scratch, compare_doubles);
  return FIT_MAD_TO_SD * small_sample_factor(c->count) * runs_median(scratch, c->count);
}

/* Mean and sd of the kept range. */
static void keep_stats(const RunsConfig *c, FitKeep *k) {
  double sum = 0, sq = 0;
  for (int t = k->first; t < k->first + k->count; t++) sum += c->times[t];
  k->mean = sum / k->count;
  for (int t = k->first; t < k->first + k->count; t++) sq += (c->times[t] - k->mean) * (c->times[t] - k->mean);
  k->sd = k->count > 1 ? sqrt(sq / (k->count - 1)) : 0;
}

long fit_keep_runs(const Runs *runs, const int *held_out, FitKeep *keep) {
  int most = 1;
  for (int k = 0; k < runs->config_count; k++)
    if (runs->configs[k].count > most) most = runs->configs[k].count;
  double *scratch = malloc((size_t)(most > runs->config_count ? most : runs->config_count) * sizeof *scratch);
  double *own = malloc((size_t)(runs->config_count + 1) * sizeof *own);
  if (!scratch || !own) {
    free(scratch);
    free(own);
    return -1;
  }
  int n = 0;
  for (int k = 0; k < runs->config_count; k++) {
    const RunsConfig *c = &runs->configs[k];
    own[k] = c->count >= FIT_OUTLIER_MIN_RUNS ? robust_spread(c, scratch) : NAN;
  }
  for (int k = 0; k < runs->config_count; k++)
    if (!held_out[k] && !isnan(own[k]) && runs->configs[k].median > 0) scratch[n++] = own[k] / runs->configs[k].median;
  qsort(scratch, (size_t)n, sizeof *scratch, compare_doubles);
  double pooled = n ? runs_median(scratch, n) : 0;
  if (pooled < FIT_OUTLIER_FLOOR) pooled = FIT_OUTLIER_FLOOR;
  long left_out = 0;
  for (int k = 0; k < runs->config_count; k++) {
    const RunsConfig *c = &runs->configs[k];
    FitKeep *kp = &keep[k];
    kp->first = 0;
    kp->count = c->count;
    if (!isnan(own[k])) {
      double spread = own[k] > pooled * c->median ? own[k] : pooled * c->median;
      double cut = FIT_OUTLIER_SPREADS * spread;
      while (kp->count > 1 && c->median - c->times[kp->first] > cut) kp->first++, kp->count--;
      while (kp->count > 1 && c->times[kp->first + kp->count - 1] - c->median > cut) kp->count--;
      if (!held_out[k]) left_out += c->count - kp->count;
    }
    keep_stats(c, kp);
  }
  free(scratch);
  free(own);
  return left_out;
}
