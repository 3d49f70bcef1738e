/*
** fit.h — the fit behind `pamc fit`: the consts of a model fitted to measured runs by weighted
** nonlinear least squares on est (GSL multifit_nlinear), with the bound const >= 0, confidence
** intervals at a stated level, the fit's quality and the directions the runs cannot determine.
**
** Weights: the runs of configuration c weigh 1/sigma_c^2, sigma_c the spread of its repetitions
** shrunk toward the pooled relative spread (sigma_c^2 = ((n_c - 1) sd_c^2 + FIT_PRIOR_RUNS
** (r m_c)^2) / (n_c - 1 + FIT_PRIOR_RUNS), r the median of sd/mean over the configurations with
** repetitions, m_c the configuration's mean, then, for a second solve, its est): a configuration
** measured once, or whose few runs happen to agree, neither vanishes nor dominates. Without repetitions anywhere, r is 1 (relative
** least squares). Outlier runs are left out first (fit_keep.h). The covariance is s^2 (J^T W J)^-1
** with s^2 = chi^2 / (runs - consts), so the intervals carry the misfit of the model as well as
** the noise (Student's t quantile); where the configurations' means scatter about est more than
** their runs' spread explains (an offset per configuration), the wider configuration-level interval
** is taken, each configuration one observation.
*/
#ifndef PAMC_FIT_H
#define PAMC_FIT_H

#include "fit_model.h"

/* Runs worth of the pooled spread in each configuration's sigma (see above): a configuration's own
** spread counts as much as the pooled one from 17 runs on. Less trusts spreads estimated from a
** few runs: with 2, the 95% intervals of tests/unit/test_fit.c held the true consts in 87-94% of
** 200 seeds; with 16, 93-97% (pure relative weights: 94-98%). */
#define FIT_PRIOR_RUNS 16.0
/* A singular value of the column-normalised Jacobian below this fraction of the largest is a
** direction the runs carry no information about (finite differences of a linear est are exact to
** ~1e-10 relative; genuinely weak directions are far above, and show as wide intervals). */
#define FIT_RANK_TOL 1e-7
/* Iterations of the trust-region solver at most. */
#define FIT_MAX_ITER 500
/* Longest message of a fit that cannot be made. */
#define FIT_MESSAGE_SIZE 1024

typedef struct FitOptions {
  double level;            /* confidence level of the intervals, e.g. 0.95 */
  int holdout;             /* the K largest configurations are left out of the fit (0: none) */
} FitOptions;

/* One fitted const. */
typedef struct FitConst {
  const Decl *decl;        /* its declaration */
  double value;            /* the estimate, >= 0 */
  double se;               /* its standard error */
  double lo, hi;           /* the confidence interval at the level, clipped at 0 */
  int at_bound;            /* 1: the unconstrained optimum was negative; held at 0 */
} FitConst;

typedef struct FitResult {
  FitConst consts[FIT_MAX_CONSTS]; /* in the model's vector order */
  int const_count;         /* length of consts */
  double level;            /* the level of the intervals */
  double *est;             /* est at every configuration (malloc'd; runs->config_count) */
  int *held_out;           /* per configuration: 1 when left out of the fit (malloc'd) */
  int *kept;               /* per configuration: its runs fitted on, outliers left out (malloc'd) */
  int fit_configs;         /* configurations fitted on */
  long fit_runs;           /* runs fitted on (outliers left out) */
  long outliers;           /* runs of the fitted configurations left out as outliers (fit_keep.h) */
  int dof;                 /* runs - free consts */
  int config_level;        /* 1: some interval is configuration-level (fit.c: the configurations
                              scatter more than their runs' spread says), with configurations -
                              free consts degrees of freedom */
  double r2;               /* 1 - SS_res / SS_tot over the runs fitted on (times, unweighted) */
  double rel_median, rel_worst; /* |est - median| / median over the fitted configurations */
  double rel_rms;          /* root mean square of the runs' relative residuals (y - est) / est */
  double cond;             /* condition number of the column-normalised weighted Jacobian */
  double chi2;             /* weighted sum of squared residuals */
  double hold_median, hold_worst; /* the same relative errors over the held-out configurations */
  int iterations;          /* of the solver, over all its passes */
} FitResult;

/* Fits m's consts to its runs. Returns 0 and fills out; 1 when the runs cannot determine the
** consts (message says why, naming the consts: a const with no effect on est, a combination of
** consts the runs cannot separate, fewer configurations or runs than consts); -1 out of memory.
** Free out with fit_result_free in every case. */
int fit_run(FitModel *m, const FitOptions *opts, FitResult *out, char *message, size_t size);
void fit_result_free(FitResult *out);

#endif
