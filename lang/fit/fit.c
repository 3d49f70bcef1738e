/*
** fit.c — weighted nonlinear least squares of a model's consts on measured runs (fit.h): a linear
** first guess, GSL's trust-region solver on scaled consts, consts that go negative held at their
** bound 0 and the rest refitted, then the Jacobian's singular values (what the runs determine),
** the covariance, the intervals and the quality figures.
*/
#include "fit.h"
#include "fit_keep.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_blas.h>
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_linalg.h>
#include <gsl/gsl_multifit.h>
#include <gsl/gsl_multifit_nlinear.h>

/* Relative step of the finite differences of the Jacobian (of a const's scale). */
#define FIT_DIFF_STEP 1e-6
/* Factor of the extra starts of the solver (solve_starts). */
#define FIT_START_FACTOR 4.0
/* A singular-vector component at least this large names its const in a message. */
#define FIT_NAME_COMPONENT 0.05
/* Relative floor of a configuration's sigma (identical repetitions of a synthetic run). */
#define FIT_SIGMA_FLOOR 1e-9

/* What the solver's callback and the analysis share. */
typedef struct FitWork {
  FitModel *m;                     /* est as a function of the consts */
  const Runs *runs;                /* the configurations */
  const int *held_out;             /* per configuration: 1 when not fitted on */
  double *sigma;                   /* per configuration: its runs' sigma */
  FitKeep *keep;                   /* per configuration: the runs fitted on (outliers left out) */
  double *est;                     /* scratch: est per configuration */
  int p;                           /* consts */
  double theta[FIT_MAX_CONSTS];    /* the consts' values (those at their bound: 0) */
  double scale[FIT_MAX_CONSTS];    /* typical size of each const (the solver sees theta/scale) */
  int at_bound[FIT_MAX_CONSTS];    /* 1: held at 0 */
  int free_index[FIT_MAX_CONSTS];  /* the solver's vector entries: which consts */
  int free_count;                  /* length of free_index */
  int failed;                      /* out of memory inside a callback */
} FitWork;

static const char *const_name(const FitWork *w, int j) {
  return w->m->consts[j]->name.name;
}

/* est at every configuration for theta. 0, or -1 out of memory. */
static int eval_est(FitWork *w, const double *theta) {
  return fit_model_eval(w->m, theta, w->est);
}

/* ------------------------------------------------------------------ weights */

static int compare_doubles(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* sigma per configuration (fit.h: the spread shrunk toward the pooled relative spread times
** level[k], the configuration's typical time: its mean for the first solve, then est, which does
** not move with the configuration's own noise). */
static int weights(FitWork *w, const double *level) {
  const Runs *runs = w->runs;
  double *rel = malloc((size_t)(runs->config_count + 1) * sizeof *rel);
  if (!rel) return -1;
  int n = 0;
  for (int k = 0; k < runs->config_count; k++)
    if (!w->held_out[k] && w->keep[k].count > 1) rel[n++] = w->keep[k].sd / w->keep[k].mean;
  qsort(rel, (size_t)n, sizeof *rel, compare_doubles);
  double pooled = n ? runs_median(rel, n) : 1.0;
  free(rel);
  for (int k = 0; k < runs->config_count; k++) {
    const FitKeep *c = &w->keep[k];
    double prior = pooled * (level ? level[k] : c->mean), own = c->count - 1;
    double var = (own * c->sd * c->sd + FIT_PRIOR_RUNS * prior * prior) / (own + FIT_PRIOR_RUNS);
    double floor = FIT_SIGMA_FLOOR * c->mean;
    w->sigma[k] = sqrt(var) > floor ? sqrt(var) : floor;
  }
  return 0;
}

/* ------------------------------------------------------------------ first guess */

/* A linear first guess: est ~ e0 + sum_j theta_j g_j with g_j the change of est when const j goes
** from 0 to 1 (exact where est is linear in the consts), solved by weighted linear least squares
** on the configurations' means; negative values become 0. Also sets the scales. */
static int first_guess(FitWork *w, int configs) {
  const Runs *runs = w->runs;
  int p = w->p, n = runs->config_count;
  double *e0 = malloc((size_t)n * sizeof *e0), *g = malloc((size_t)n * (size_t)p * sizeof *g);
  gsl_matrix *X = gsl_matrix_alloc((size_t)configs, (size_t)p), *cov = gsl_matrix_alloc((size_t)p, (size_t)p);
  gsl_vector *y = gsl_vector_alloc((size_t)configs), *wt = gsl_vector_alloc((size_t)configs);
  gsl_vector *c = gsl_vector_alloc((size_t)p);
  gsl_multifit_linear_workspace *work = gsl_multifit_linear_alloc((size_t)configs, (size_t)p);
  int status = -1;
  if (!e0 || !g || !X || !cov || !y || !wt || !c || !work) goto done;
  double theta[FIT_MAX_CONSTS] = {0};
  if (eval_est(w, theta)) goto done;
  memcpy(e0, w->est, (size_t)n * sizeof *e0);
  for (int j = 0; j < p; j++) {
    theta[j] = 1;
    if (eval_est(w, theta)) goto done;
    theta[j] = 0;
    for (int k = 0; k < n; k++) g[(size_t)j * (size_t)n + (size_t)k] = w->est[k] - e0[k];
  }
  for (int k = 0, row = 0; k < n; k++) {
    if (w->held_out[k]) continue;
    const FitKeep *cf = &w->keep[k];
    gsl_vector_set(y, (size_t)row, cf->mean - e0[k]);
    gsl_vector_set(wt, (size_t)row, cf->count / (w->sigma[k] * w->sigma[k]));
    for (int j = 0; j < p; j++) gsl_matrix_set(X, (size_t)row, (size_t)j, g[(size_t)j * (size_t)n + (size_t)k]);
    row++;
  }
  double chi2;
  size_t rank;
  gsl_multifit_wlinear_tsvd(X, wt, y, 1e-12, c, cov, &chi2, &rank, work);
  /* scales: the guess where it is positive, else the mean time over the const's typical effect */
  for (int j = 0; j < p; j++) {
    double v = gsl_vector_get(c, (size_t)j);
    w->theta[j] = isfinite(v) && v > 0 ? v : 0;
    double effect = 0, level = 0;
    for (int row = 0; row < configs; row++) {
      effect += fabs(gsl_matrix_get(X, (size_t)row, (size_t)j));
      level += fabs(gsl_vector_get(y, (size_t)row)) + 1e-300;
    }
    double fallback = effect > 0 ? level / effect / p : 1;
    w->scale[j] = w->theta[j] > 0 ? w->theta[j] : fallback > 0 && isfinite(fallback) ? fallback : 1;
    if (w->theta[j] == 0) w->theta[j] = w->scale[j];   /* start inside, let the solver decide */
  }
  status = 0;
done:
  free(e0);
  free(g);
  if (X) gsl_matrix_free(X);
  if (cov) gsl_matrix_free(cov);
  if (y) gsl_vector_free(y);
  if (wt) gsl_vector_free(wt);
  if (c) gsl_vector_free(c);
  if (work) gsl_multifit_linear_free(work);
  return status;
}

/* ------------------------------------------------------------------ the solver */

/* The consts for the solver's vector x (free consts scaled; the others as they are). */
static void unpack(const FitWork *w, const gsl_vector *x, double *theta) {
  memcpy(theta, w->theta, sizeof w->theta);
  for (int i = 0; i < w->free_count; i++) {
    int j = w->free_index[i];
    theta[j] = w->scale[j] * gsl_vector_get(x, (size_t)i);
  }
}

/* Residuals (est_c - y) / sigma_c of every run fitted on, configurations in order. */
static int residuals(const gsl_vector *x, void *user, gsl_vector *f) {
  FitWork *w = user;
  double theta[FIT_MAX_CONSTS];
  unpack(w, x, theta);
  if (eval_est(w, theta)) {
    w->failed = 1;
    return GSL_ENOMEM;
  }
  size_t i = 0;
  for (int k = 0; k < w->runs->config_count; k++) {
    if (w->held_out[k]) continue;
    const double *times = w->runs->configs[k].times + w->keep[k].first;
    for (int t = 0; t < w->keep[k].count; t++) gsl_vector_set(f, i++, (w->est[k] - times[t]) / w->sigma[k]);
  }
  return GSL_SUCCESS;
}

/* One solve over the free consts from w->theta; the result into w->theta. */
static int solve(FitWork *w, long runs, int *iterations) {
  size_t n = (size_t)runs, p = (size_t)w->free_count;
  gsl_multifit_nlinear_fdf fdf;
  memset(&fdf, 0, sizeof fdf);
  fdf.f = residuals;
  fdf.df = NULL;        /* finite differences: est is piecewise (max, min, ceil) */
  fdf.n = n;
  fdf.p = p;
  fdf.params = w;
  gsl_multifit_nlinear_parameters params = gsl_multifit_nlinear_default_parameters();
  gsl_multifit_nlinear_workspace *ws = gsl_multifit_nlinear_alloc(gsl_multifit_nlinear_trust, &params, n, p);
  gsl_vector *x = gsl_vector_alloc(p);
  if (!ws || !x) {
    if (ws) gsl_multifit_nlinear_free(ws);
    if (x) gsl_vector_free(x);
    return -1;
  }
  for (size_t i = 0; i < p; i++) {
    int j = w->free_index[i];
    gsl_vector_set(x, i, w->theta[j] / w->scale[j]);
  }
  gsl_multifit_nlinear_init(x, &fdf, ws);
  int info;
  gsl_multifit_nlinear_driver(FIT_MAX_ITER, 1e-12, 1e-12, 1e-14, NULL, NULL, &info, ws);
  *iterations += (int)gsl_multifit_nlinear_niter(ws);
  double theta[FIT_MAX_CONSTS];
  unpack(w, gsl_multifit_nlinear_position(ws), theta);
  memcpy(w->theta, theta, sizeof theta);
  gsl_multifit_nlinear_free(ws);
  gsl_vector_free(x);
  return w->failed ? -1 : 0;
}

/* Solves, holds the consts that went negative at 0 and solves again for the others, until none
** is negative. 0, or -1 out of memory. */
static int solve_bounded(FitWork *w, FitResult *out) {
  for (int pass = 0; pass <= w->p; pass++) {
    w->free_count = 0;
    for (int j = 0; j < w->p; j++)
      if (!w->at_bound[j]) w->free_index[w->free_count++] = j;
    if (w->free_count == 0) return 0;
    if (solve(w, out->fit_runs, &out->iterations)) return -1;
    int moved = 0;
    for (int j = 0; j < w->p; j++)
      if (!w->at_bound[j] && w->theta[j] < 0) {
        w->at_bound[j] = 1;
        w->theta[j] = 0;
        moved = 1;
      }
    if (!moved) return 0;
  }
  return 0;
}

/* The weighted sum of squared residuals at w->theta (NaN out of memory). */
static double weighted_ssr(FitWork *w) {
  if (eval_est(w, w->theta)) return NAN;
  double chi2 = 0;
  for (int k = 0; k < w->runs->config_count; k++) {
    if (w->held_out[k]) continue;
    const double *times = w->runs->configs[k].times + w->keep[k].first;
    for (int t = 0; t < w->keep[k].count; t++) {
      double r = (w->est[k] - times[t]) / w->sigma[k];
      chi2 += r * r;
    }
  }
  return chi2;
}

/* est is piecewise (max of the critical path and the resources' demands): from a start where one
** piece is active at every configuration, the consts that only matter in another piece look flat
** and the solver can stop there. So it starts from the first guess and from the first guess with
** each const FIT_START_FACTOR times larger and smaller (2p + 1 starts), and keeps the least
** weighted sum of squares. 0, or -1 out of memory. */
static int solve_starts(FitWork *w, FitResult *out) {
  double guess[FIT_MAX_CONSTS], best[FIT_MAX_CONSTS];
  int best_bound[FIT_MAX_CONSTS];
  memcpy(guess, w->theta, sizeof guess);
  double best_ssr = INFINITY;
  for (int start = 0; start <= 2 * w->p; start++) {
    memcpy(w->theta, guess, sizeof guess);
    memset(w->at_bound, 0, sizeof w->at_bound);
    if (start > 0) {
      int j = (start - 1) / 2;
      w->theta[j] = start % 2 ? guess[j] * FIT_START_FACTOR : guess[j] / FIT_START_FACTOR;
    }
    if (solve_bounded(w, out)) return -1;
    double ssr = weighted_ssr(w);
    if (isnan(ssr)) return -1;
    if (ssr < best_ssr) {
      best_ssr = ssr;
      memcpy(best, w->theta, sizeof best);
      memcpy(best_bound, w->at_bound, sizeof best_bound);
    }
  }
  memcpy(w->theta, best, sizeof best);
  memcpy(w->at_bound, best_bound, sizeof best_bound);
  return 0;
}

/* ------------------------------------------------------------------ analysis */

/* Weighted Jacobian of est at w->theta over the fitted configurations: row r of J (rows x p) is
** sqrt(n_c) / sigma_c d est_c / d theta (the runs of a configuration share it). */
static int jacobian(FitWork *w, double *J, int rows) {
  int p = w->p, n = w->runs->config_count;
  double *base = malloc((size_t)n * sizeof *base);
  if (!base || eval_est(w, w->theta)) {
    free(base);
    return -1;
  }
  memcpy(base, w->est, (size_t)n * sizeof *base);
  double theta[FIT_MAX_CONSTS];
  for (int j = 0; j < p; j++) {
    memcpy(theta, w->theta, sizeof theta);
    double h = FIT_DIFF_STEP * (w->theta[j] > w->scale[j] ? w->theta[j] : w->scale[j]);
    int central = w->theta[j] - h >= 0;
    theta[j] = w->theta[j] + h;
    if (eval_est(w, theta)) break;
    double *plus = w->est;
    double *minus = NULL;
    if (central) {
      double *copy = malloc((size_t)n * sizeof *copy);
      if (!copy) break;
      memcpy(copy, plus, (size_t)n * sizeof *copy);
      theta[j] = w->theta[j] - h;
      if (eval_est(w, theta)) { free(copy); break; }
      minus = w->est;
      for (int k = 0, r = 0; k < n; k++) {
        if (w->held_out[k]) continue;
        double weight = sqrt((double)w->keep[k].count) / w->sigma[k];
        J[(size_t)r++ * (size_t)p + (size_t)j] = weight * (copy[k] - minus[k]) / (2 * h);
      }
      free(copy);
    } else {
      for (int k = 0, r = 0; k < n; k++) {
        if (w->held_out[k]) continue;
        double weight = sqrt((double)w->keep[k].count) / w->sigma[k];
        J[(size_t)r++ * (size_t)p + (size_t)j] = weight * (plus[k] - base[k]) / h;
      }
    }
  }
  (void)rows;
  memcpy(w->est, base, (size_t)n * sizeof *base);
  free(base);
  return 0;
}

/* Appends to message. */
static void say(char *message, size_t size, const char *format, const char *a, const char *b) {
  size_t used = strlen(message);
  if (used + 1 < size) snprintf(message + used, size - used, format, a, b);
}

/* SVD of the column-normalised J: condition number, unidentifiable directions (1 with the message
** naming their consts), and the unscaled covariance (J^T J)^-1 into C (p x p). */
static int analyse(FitWork *w, const double *J, int rows, double *cond, double *C, char *message, size_t size) {
  int p = w->p;
  double norm[FIT_MAX_CONSTS];
  for (int j = 0; j < p; j++) {
    norm[j] = 0;
    for (int r = 0; r < rows; r++) norm[j] += J[(size_t)r * (size_t)p + (size_t)j] * J[(size_t)r * (size_t)p + (size_t)j];
    norm[j] = sqrt(norm[j]);
  }
  message[0] = 0;
  for (int j = 0; j < p; j++)
    if (!(norm[j] > 0))
      say(message, size, "%sconst '%s' has no effect on est at any configuration of the runs: they "
          "cannot determine it", message[0] ? "; " : "", const_name(w, j));
  if (message[0]) return 1;
  gsl_matrix *A = gsl_matrix_alloc((size_t)rows, (size_t)p), *V = gsl_matrix_alloc((size_t)p, (size_t)p);
  gsl_vector *S = gsl_vector_alloc((size_t)p), *work = gsl_vector_alloc((size_t)p);
  if (!A || !V || !S || !work) {
    if (A) gsl_matrix_free(A);
    if (V) gsl_matrix_free(V);
    if (S) gsl_vector_free(S);
    if (work) gsl_vector_free(work);
    return -1;
  }
  for (int r = 0; r < rows; r++)
    for (int j = 0; j < p; j++) gsl_matrix_set(A, (size_t)r, (size_t)j, J[(size_t)r * (size_t)p + (size_t)j] / norm[j]);
  gsl_linalg_SV_decomp(A, V, S, work);
  double top = gsl_vector_get(S, 0);
  *cond = top / gsl_vector_get(S, (size_t)p - 1);
  int status = 0;
  for (int k = 0; k < p; k++) {
    if (gsl_vector_get(S, (size_t)k) >= FIT_RANK_TOL * top) continue;
    char names[512] = "", direction[512] = "";
    for (int j = 0; j < p; j++) {
      double v = gsl_matrix_get(V, (size_t)j, (size_t)k);
      if (fabs(v) < FIT_NAME_COMPONENT) continue;
      size_t used = strlen(names);
      snprintf(names + used, sizeof names - used, "%s%s", used ? ", " : "", const_name(w, j));
      used = strlen(direction);
      snprintf(direction + used, sizeof direction - used, "%s%.2g %s", used ? (v < 0 ? " - " : " + ") : (v < 0 ? "-" : ""),
               fabs(v), const_name(w, j));
    }
    say(message, size, "%sthe runs cannot tell %s apart: only a combination of them is determined", message[0] ? "; " : "", names);
    say(message, size, " (no information along %s, each scaled by its effect on est)%s", direction, "");
    status = 1;
  }
  if (status == 0) {
    /* (J^T J)^-1 = D^-1 V S^-2 V^T D^-1 */
    for (int a = 0; a < p; a++)
      for (int b = 0; b < p; b++) {
        double sum = 0;
        for (int k = 0; k < p; k++) {
          double s = gsl_vector_get(S, (size_t)k);
          sum += gsl_matrix_get(V, (size_t)a, (size_t)k) * gsl_matrix_get(V, (size_t)b, (size_t)k) / (s * s);
        }
        C[a * p + b] = sum / (norm[a] * norm[b]);
      }
  } else {
    say(message, size, "; fix all but one of them with -D NAME=VALUE, or measure configurations "
        "that separate them%s%s", "", "");
  }
  gsl_matrix_free(A);
  gsl_matrix_free(V);
  gsl_vector_free(S);
  gsl_vector_free(work);
  return status;
}

/* ------------------------------------------------------------------ quality */

static double median_of(double *v, int n) {
  if (n == 0) return NAN;
  qsort(v, (size_t)n, sizeof *v, compare_doubles);
  return runs_median(v, n);
}

/* R^2, relative residuals and the held-out errors, from est at w->theta. */
static int quality(FitWork *w, FitResult *out) {
  const Runs *runs = w->runs;
  int n = runs->config_count;
  double *fit = malloc((size_t)(n + 1) * sizeof *fit), *hold = malloc((size_t)(n + 1) * sizeof *hold);
  if (!fit || !hold || eval_est(w, w->theta)) {
    free(fit);
    free(hold);
    return -1;
  }
  memcpy(out->est, w->est, (size_t)n * sizeof *out->est);
  double mean = 0, ss_tot = 0, ss_res = 0, rel2 = 0;
  long count = 0;
  for (int k = 0; k < n; k++)
    if (!w->held_out[k])
      for (int t = w->keep[k].first; t < w->keep[k].first + w->keep[k].count; t++, count++) mean += runs->configs[k].times[t];
  mean /= count ? count : 1;
  int nf = 0, nh = 0;
  for (int k = 0; k < n; k++) {
    const RunsConfig *c = &runs->configs[k];
    double rel = fabs(out->est[k] - c->median) / c->median;
    if (w->held_out[k]) {
      hold[nh++] = rel;
      continue;
    }
    fit[nf++] = rel;
    for (int t = w->keep[k].first; t < w->keep[k].first + w->keep[k].count; t++) {
      double y = c->times[t], r = y - out->est[k];
      ss_res += r * r;
      ss_tot += (y - mean) * (y - mean);
      rel2 += (r / y) * (r / y);
    }
  }
  out->r2 = ss_tot > 0 ? 1 - ss_res / ss_tot : NAN;
  out->rel_rms = sqrt(rel2 / (count ? count : 1));
  out->rel_median = median_of(fit, nf);
  out->rel_worst = nf ? fit[nf - 1] : NAN;
  out->hold_median = median_of(hold, nh);
  out->hold_worst = nh ? hold[nh - 1] : NAN;
  free(fit);
  free(hold);
  return 0;
}

/* Configuration-level covariance: measured tables have an offset per configuration that no
** repetition averages away (the model is not exact; a configuration's runs share a node, a
** placement, a warm cache), and run-level intervals, which count every run as independent, are too
** narrow then. So each configuration's kept mean is also taken as one observation of weight
** 1/sigma_c^2: s_cfg^2 = sum_c ((mean_c - est_c) / sigma_c)^2 / (configurations - free consts) and
** C_cfg = (J_cfg^T J_cfg)^-1, J_cfg the rows of J without their sqrt(n_c). Without such offsets
** mean_c scatters by sigma_c / sqrt(n_c) and both give the same intervals. C_cfg into Cc (p x p);
** 0, 1 when there is no configuration-level estimate (too few configurations, singular), -1 out
** of memory. */
static int config_covariance(FitWork *w, const double *J, int rows, int free_count, double *s2, double *Cc) {
  int p = w->p;
  if (rows - free_count <= 0) return 1;
  gsl_matrix *M = gsl_matrix_calloc((size_t)p, (size_t)p);
  if (!M) return -1;
  double chi2 = 0;
  if (eval_est(w, w->theta)) {
    gsl_matrix_free(M);
    return -1;
  }
  for (int k = 0, r = 0; k < w->runs->config_count; k++) {
    if (w->held_out[k]) continue;
    double unweight = 1 / sqrt((double)w->keep[k].count);
    double res = (w->keep[k].mean - w->est[k]) / w->sigma[k];
    chi2 += res * res;
    for (int a = 0; a < p; a++)
      for (int b = 0; b < p; b++) {
        double v = J[(size_t)r * (size_t)p + (size_t)a] * J[(size_t)r * (size_t)p + (size_t)b] * unweight * unweight;
        gsl_matrix_set(M, (size_t)a, (size_t)b, gsl_matrix_get(M, (size_t)a, (size_t)b) + v);
      }
    r++;
  }
  int status = gsl_linalg_cholesky_decomp1(M) || gsl_linalg_cholesky_invert(M) ? 1 : 0;
  if (status == 0)
    for (int a = 0; a < p; a++)
      for (int b = 0; b < p; b++) Cc[a * p + b] = gsl_matrix_get(M, (size_t)a, (size_t)b);
  *s2 = chi2 / (rows - free_count);
  gsl_matrix_free(M);
  return status;
}

/* chi^2, degrees of freedom, the consts' values, standard errors and intervals at the level: the
** wider of the run-level interval (s^2 (J^T J)^-1, Student's t with runs - consts degrees of
** freedom) and the configuration-level one (config_covariance; configurations - consts). */
static int intervals(FitWork *w, const double *J, int rows, const double *C, FitResult *out) {
  double chi2 = weighted_ssr(w);
  if (isnan(chi2)) return -1;
  out->chi2 = chi2;
  int free_count = 0;
  for (int j = 0; j < w->p; j++) free_count += !w->at_bound[j];
  out->dof = (int)(out->fit_runs - free_count);
  double s2 = out->dof > 0 ? chi2 / out->dof : NAN;
  double t = out->dof > 0 ? gsl_cdf_tdist_Pinv(0.5 + out->level / 2, out->dof) : NAN;
  double Cc[FIT_MAX_CONSTS * FIT_MAX_CONSTS], s2c = NAN;
  int config_level = config_covariance(w, J, rows, free_count, &s2c, Cc);
  if (config_level < 0) return -1;
  double tc = config_level == 0 ? gsl_cdf_tdist_Pinv(0.5 + out->level / 2, rows - free_count) : NAN;
  for (int j = 0; j < w->p; j++) {
    FitConst *fc = &out->consts[j];
    fc->decl = w->m->consts[j];
    fc->value = w->theta[j];
    fc->at_bound = w->at_bound[j];
    fc->se = sqrt(s2 * C[j * w->p + j]);
    double half = t * fc->se;
    if (config_level == 0) {
      double se_c = sqrt(s2c * Cc[j * w->p + j]);
      if (tc * se_c > half) {
        half = tc * se_c;
        fc->se = se_c;
        out->config_level = 1;
      }
    }
    fc->lo = fc->value - half;
    fc->hi = fc->value + half;
    if (fc->lo < 0 || fc->at_bound) fc->lo = 0;
  }
  return 0;
}

/* ------------------------------------------------------------------ holdout */

/* Size of a configuration for --holdout: the product of its params' values. */
static double config_size(const Runs *runs, const RunsConfig *c) {
  double size = 1;
  for (int i = 0; i < runs->column_count; i++)
    if (runs->used[i]) size *= fabs(c->values[i]);
  return size;
}

/* Marks the K largest configurations (ties: the later in the file). */
static void mark_holdout(const Runs *runs, int k, int *held_out) {
  for (int i = 0; i < k; i++) {
    int best = -1;
    for (int c = 0; c < runs->config_count; c++)
      if (!held_out[c] && (best < 0 || config_size(runs, &runs->configs[c]) >= config_size(runs, &runs->configs[best])))
        best = c;
    held_out[best] = 1;
  }
}

/* ------------------------------------------------------------------ the fit */

static int fit_solve(FitModel *m, const FitOptions *opts, FitResult *out, char *message, size_t size);

void fit_result_free(FitResult *out) {
  free(out->est);
  free(out->held_out);
  free(out->kept);
  memset(out, 0, sizeof *out);
}

/* 0 when est is finite at every configuration for the first guess, else 1 with message naming
** the first configuration where it is not (a model that divides by a param the runs set to 0). */
static int check_finite(FitWork *w, char *message, size_t size) {
  if (eval_est(w, w->theta)) return -1;
  for (int k = 0; k < w->runs->config_count; k++)
    if (!isfinite(w->est[k])) {
      char where[256];
      runs_config_text(w->runs, &w->runs->configs[k], where, sizeof where);
      snprintf(message, size, "est is not a finite time at %s (line %d of the runs): the model is "
               "not defined there", where, w->runs->configs[k].line);
      return 1;
    }
  return 0;
}

int fit_run(FitModel *m, const FitOptions *opts, FitResult *out, char *message, size_t size) {
  /* GSL's default handler aborts on an error: the solver's statuses are read instead */
  gsl_error_handler_t *handler = gsl_set_error_handler_off();
  int status = fit_solve(m, opts, out, message, size);
  gsl_set_error_handler(handler);
  return status;
}

/* fit_run with GSL's error handler off. */
static int fit_solve(FitModel *m, const FitOptions *opts, FitResult *out, char *message, size_t size) {
  const Runs *runs = m->runs;
  int n = runs->config_count, p = m->const_count;
  memset(out, 0, sizeof *out);
  message[0] = 0;
  out->level = opts->level;
  out->const_count = p;
  out->est = calloc((size_t)n + 1, sizeof *out->est);
  out->held_out = calloc((size_t)n + 1, sizeof *out->held_out);
  out->kept = calloc((size_t)n + 1, sizeof *out->kept);
  if (!out->est || !out->held_out || !out->kept) return -1;
  if (opts->holdout >= n) {
    snprintf(message, size, "--holdout %d leaves nothing to fit on: the runs hold %d configuration%s",
             opts->holdout, n, n == 1 ? "" : "s");
    return 1;
  }
  mark_holdout(runs, opts->holdout, out->held_out);
  FitWork w;
  memset(&w, 0, sizeof w);
  w.m = m;
  w.runs = runs;
  w.held_out = out->held_out;
  w.p = p;
  w.sigma = malloc((size_t)(n + 1) * sizeof *w.sigma);
  w.est = malloc((size_t)(n + 1) * sizeof *w.est);
  w.keep = malloc((size_t)(n + 1) * sizeof *w.keep);
  double *J = malloc((size_t)(n + 1) * (size_t)p * sizeof *J);
  double C[FIT_MAX_CONSTS * FIT_MAX_CONSTS];
  int status = -1;
  if (!w.sigma || !w.est || !w.keep || !J) goto done;
  out->outliers = fit_keep_runs(runs, out->held_out, w.keep);
  if (out->outliers < 0) goto done;
  for (int k = 0; k < n; k++) out->kept[k] = w.keep[k].count;
  for (int k = 0; k < n; k++)
    if (!out->held_out[k]) {
      out->fit_configs++;
      out->fit_runs += w.keep[k].count;
    }
  status = 1;
  if (out->fit_configs < p) {
    snprintf(message, size, "%d configuration%s to fit %d consts: each const needs a configuration "
             "of its own at least", out->fit_configs, out->fit_configs == 1 ? "" : "s", p);
    goto done;
  }
  if (out->fit_runs <= p) {
    snprintf(message, size, "%ld runs to fit %d consts: a confidence interval needs more runs than "
             "consts", out->fit_runs, p);
    goto done;
  }
  status = -1;
  if (weights(&w, NULL) || first_guess(&w, out->fit_configs)) goto done;
  status = check_finite(&w, message, size);
  if (status != 0) goto done;
  status = -1;
  if (solve_starts(&w, out)) goto done;
  /* reweighted once with est as each configuration's level (see weights) */
  if (eval_est(&w, w.theta)) goto done;
  memcpy(out->est, w.est, (size_t)n * sizeof *out->est);
  if (weights(&w, out->est) || solve_bounded(&w, out)) goto done;
  if (jacobian(&w, J, out->fit_configs)) goto done;
  status = analyse(&w, J, out->fit_configs, &out->cond, C, message, size);
  if (status != 0) goto done;
  status = -1;
  if (intervals(&w, J, out->fit_configs, C, out) || quality(&w, out)) goto done;
  status = 0;
done:
  free(w.sigma);
  free(w.est);
  free(w.keep);
  free(J);
  return status;
}
