/*
** cal_fit.h — the straight-line least-squares fit y = c0 + c1 x (GSL gsl_fit_linear) with the
** 95% confidence interval of each coefficient: c +- t(0.975, n-2) * sqrt(var(c)), where the
** variances are GSL's, estimated from the residuals (sumsq / (n - 2)). The weighted variant is
** for points whose spread differs (message times at 1 B and at 4 MiB).
*/
#ifndef PAMC_CAL_FIT_H
#define PAMC_CAL_FIT_H

#include <stddef.h>

#define CAL_FIT_CONFIDENCE 0.95   /* two-sided level of the coefficient intervals */

typedef struct CalFit {
  size_t n;                       /* points fitted */
  double c0, c1;                  /* intercept and slope */
  double c0_lo, c0_hi;            /* confidence interval of the intercept */
  double c1_lo, c1_hi;            /* confidence interval of the slope */
  double sumsq;                   /* residual sum of squares */
  double t_quantile;              /* Student t quantile used, n - 2 degrees of freedom */
} CalFit;

/* Fits n >= 3 points (x not all equal). Returns 0, or -1 when the fit is undetermined. */
int cal_fit_line(const double *x, const double *y, size_t n, CalFit *out);

/* Weighted least squares (GSL gsl_fit_wlinear) with relative weights w (w_i ~ 1/var(y_i), known
** only up to a common factor): the covariance is scaled by the reduced chi-square
** chisq / (n - 2), so that with equal weights the result is exactly cal_fit_line's. */
int cal_fit_line_weighted(const double *x, const double *y, const double *w, size_t n, CalFit *out);

#endif
