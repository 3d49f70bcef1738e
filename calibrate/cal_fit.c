/*
** cal_fit.c — least-squares line with confidence intervals (GSL fit and Student t quantile).
*/
#include <math.h>
#include <string.h>
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_fit.h>
#include "cal_fit.h"

/* Coefficient intervals from the covariance (shared by both fits). */
static int finish(CalFit *out, size_t n, double cov00, double cov11) {
  if (!isfinite(out->c0) || !isfinite(out->c1) || !isfinite(cov00) || !isfinite(cov11)) return -1;
  out->n = n;
  out->t_quantile = gsl_cdf_tdist_Pinv(0.5 + CAL_FIT_CONFIDENCE / 2, (double)(n - 2));
  double h0 = out->t_quantile * sqrt(cov00), h1 = out->t_quantile * sqrt(cov11);
  out->c0_lo = out->c0 - h0;
  out->c0_hi = out->c0 + h0;
  out->c1_lo = out->c1 - h1;
  out->c1_hi = out->c1 + h1;
  return 0;
}

int cal_fit_line(const double *x, const double *y, size_t n, CalFit *out) {
  memset(out, 0, sizeof *out);
  if (n < 3) return -1;
  double cov00, cov01, cov11;
  if (gsl_fit_linear(x, 1, y, 1, n, &out->c0, &out->c1, &cov00, &cov01, &cov11, &out->sumsq))
    return -1;
  return finish(out, n, cov00, cov11);
}

int cal_fit_line_weighted(const double *x, const double *y, const double *w, size_t n, CalFit *out) {
  memset(out, 0, sizeof *out);
  if (n < 3) return -1;
  double cov00, cov01, cov11, chisq;
  if (gsl_fit_wlinear(x, 1, w, 1, y, 1, n, &out->c0, &out->c1, &cov00, &cov01, &cov11, &chisq))
    return -1;
  /* GSL's covariance takes the weights as exact inverse variances; ours are relative. */
  double scale = chisq / (double)(n - 2);
  out->sumsq = chisq;
  return finish(out, n, cov00 * scale, cov11 * scale);
}
