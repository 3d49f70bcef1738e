/*
** fit_report.c — the output of `pamc fit` (fit_report.h).
*/
#include "fit_report.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "atomic_file.h"
#include "fit_keep.h"
#include "sim.h"

/* Least width of a param column. */
#define FIT_PARAM_WIDTH 8
/* Width of a time column ("1.234 ms" and room). */
#define FIT_TIME_WIDTH 10

void fit_format_bound(double v, int dir, char *buf, size_t size) {
  snprintf(buf, size, "%.*g", FIT_PRINT_DIGITS, v);
  double step = fabs(v) * pow(10, 1 - FIT_PRINT_DIGITS);
  for (int i = 0; i < 4 && isfinite(v) && step > 0; i++) {
    double back = strtod(buf, NULL);
    if (dir < 0 ? back <= v : back >= v) return;
    snprintf(buf, size, "%.*g", FIT_PRINT_DIGITS, dir < 0 ? v - step * (i + 1) / 2 : v + step * (i + 1) / 2);
  }
  if (!(dir < 0 ? strtod(buf, NULL) <= v : strtod(buf, NULL) >= v)) snprintf(buf, size, "%.17g", v);
}

int fit_poorly_determined(const FitConst *c) {
  return c->at_bound || c->hi - c->lo > 2 * c->value;
}

static void print_header(FILE *out, const char *model, const Runs *runs, const FitResult *fit);
static void print_quality(FILE *out, const Runs *runs, const FitResult *fit);

static void print_consts(FILE *out, const FitResult *fit) {
  int width = 5;
  for (int j = 0; j < fit->const_count; j++) {
    int n = (int)strlen(fit->consts[j].decl->name.name);
    if (n > width) width = n;
  }
  char level[32];
  snprintf(level, sizeof level, "interval (%g%%)", fit->level * 100);
  fprintf(out, "%-*s  %12s  %-28s  %s\n", width, "const", "value", level, "std. error");
  for (int j = 0; j < fit->const_count; j++) {
    const FitConst *c = &fit->consts[j];
    char interval[64];
    snprintf(interval, sizeof interval, "[%.4g, %.4g]", c->lo, c->hi);
    fprintf(out, "%-*s  %12.4g  %-28s  %.2g%s\n", width, c->decl->name.name, c->value, interval, c->se,
            c->at_bound ? "  (held at its bound 0: the best fit was negative; the runs hardly determine it)"
            : fit_poorly_determined(c) ? "  (poorly determined: its interval is wider than its value)" : "");
  }
}

static int param_width(const Runs *runs, int column) {
  int width = (int)strlen(runs->names[column]);
  for (int k = 0; k < runs->config_count; k++) {
    char text[64];
    snprintf(text, sizeof text, "%.15g", runs->configs[k].values[column]);
    if ((int)strlen(text) > width) width = (int)strlen(text);
  }
  return width > FIT_PARAM_WIDTH ? width : FIT_PARAM_WIDTH;
}

static void print_configs(FILE *out, const Runs *runs, const FitResult *fit) {
  int widths[RUNS_MAX_COLUMNS];
  for (int i = 0; i < runs->column_count; i++) {
    if (!runs->used[i]) continue;
    widths[i] = param_width(runs, i);
    fprintf(out, "%*s  ", widths[i], runs->names[i]);
  }
  fprintf(out, "%4s  %*s  %-23s  %*s  %7s\n", "runs", FIT_TIME_WIDTH, "measured", "[min, max]",
          FIT_TIME_WIDTH, "est", "error");
  for (int k = 0; k < runs->config_count; k++) {
    const RunsConfig *c = &runs->configs[k];
    for (int i = 0; i < runs->column_count; i++)
      if (runs->used[i]) fprintf(out, "%*.15g  ", widths[i], c->values[i]);
    char median[32], lo[32], hi[32], est[32], range[80];
    sim_format_time(c->median, median, sizeof median);
    snprintf(range, sizeof range, "[%s, %s]", sim_format_time(c->min, lo, sizeof lo),
             sim_format_time(c->max, hi, sizeof hi));
    fprintf(out, "%4d  %*s  %-23s  %*s  %+6.1f%%%s\n", c->count, FIT_TIME_WIDTH, median, range,
            FIT_TIME_WIDTH, sim_format_time(fit->est[k], est, sizeof est),
            100 * (fit->est[k] - c->median) / c->median, fit->held_out[k] ? "  held out" : "");
  }
}

void fit_print(FILE *out, const char *model, const Runs *runs, const FitResult *fit) {
  print_header(out, model, runs, fit);
  print_consts(out, fit);
  fputc('\n', out);
  print_configs(out, runs, fit);
  fputc('\n', out);
  print_quality(out, runs, fit);
}

void fit_print_summary(FILE *out, const char *model, const Runs *runs, const FitResult *fit) {
  print_header(out, model, runs, fit);
  print_consts(out, fit);
  print_quality(out, runs, fit);
}

static void print_header(FILE *out, const char *model, const Runs *runs, const FitResult *fit) {
  fprintf(out, "fit of %s to %s: %d const%s on %ld run%s (%d configuration%s", model, runs->path,
          fit->const_count, fit->const_count == 1 ? "" : "s", fit->fit_runs, fit->fit_runs == 1 ? "" : "s",
          fit->fit_configs, fit->fit_configs == 1 ? "" : "s");
  if (fit->outliers > 0)
    fprintf(out, "; %ld outlier run%s left out: more than %g robust spreads from the median of %s "
            "configuration", fit->outliers, fit->outliers == 1 ? "" : "s", FIT_OUTLIER_SPREADS,
            fit->outliers == 1 ? "its" : "their");
  fputs(")\n", out);
}

static void print_quality(FILE *out, const Runs *runs, const FitResult *fit) {
  fprintf(out, "quality: R^2 = %.4f; |est - median| / median: median %.1f%%, worst %.1f%%; rms "
          "relative residual of the runs %.1f%%; condition number %.3g\n", fit->r2,
          100 * fit->rel_median, 100 * fit->rel_worst, 100 * fit->rel_rms, fit->cond);
  int held = runs->config_count - fit->fit_configs;
  if (held > 0)
    fprintf(out, "held out: the %d largest configuration%s (not fitted on): |est - median| / median: "
            "median %.1f%%, worst %.1f%%\n", held, held == 1 ? "" : "s", 100 * fit->hold_median,
            100 * fit->hold_worst);
}

/* What the machine file's writer needs. */
typedef struct FitFile {
  const char *model;               /* the model's path */
  const Runs *runs;                /* the runs */
  const FitResult *fit;            /* the fit */
  const char *command;             /* the command line */
} FitFile;

static int write_file(FILE *out, void *user, CalError *err) {
  (void)err;
  const FitFile *f = user;
  const FitResult *fit = f->fit;
  char date[64] = "";
  time_t now = time(NULL);
  struct tm tm;
  if (gmtime_r(&now, &tm)) strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", &tm);
  fprintf(out, "# Constants fitted by `pamc fit` to measured runs: rerun it rather than editing by hand.\n");
  fprintf(out, "# model: %s\n# runs: %s (%ld runs, %d configurations fitted on)\n", f->model,
          f->runs->path, fit->fit_runs, fit->fit_configs);
  fprintf(out, "# date: %s\n# command: %s\n", date, f->command);
  fprintf(out, "# each const is its %g%% confidence interval (weighted least squares on est, Student's t "
          "with %d degrees of freedom), clipped at 0\n", 100 * fit->level, fit->dof);
  fprintf(out, "# quality: R^2 = %.4f, rms relative residual %.2f%%, condition number %.3g\n\n",
          fit->r2, 100 * fit->rel_rms, fit->cond);
  for (int j = 0; j < fit->const_count; j++) {
    const FitConst *c = &fit->consts[j];
    char lo[64], hi[64], typ[64], decl[256];
    fit_format_bound(c->lo, -1, lo, sizeof lo);
    fit_format_bound(c->hi, 1, hi, sizeof hi);
    /* typ: predict's est is then the fit's (the midpoint of an interval clipped at 0 is not) */
    snprintf(typ, sizeof typ, "%.*g", FIT_PRINT_DIGITS, c->value);
    if (strtod(typ, NULL) < strtod(lo, NULL)) snprintf(typ, sizeof typ, "%s", lo);
    if (strtod(typ, NULL) > strtod(hi, NULL)) snprintf(typ, sizeof typ, "%s", hi);
    snprintf(decl, sizeof decl, "const %s = [%s, %s] typ %s;", c->decl->name.name, lo, hi, typ);
    fprintf(out, "%-44s # fitted %.6g in [%.4g, %.4g] (%g%%), %ld runs, rms relative residual %.2f%%%s\n",
            decl, c->value, c->lo, c->hi, 100 * fit->level, fit->fit_runs, 100 * fit->rel_rms,
            c->at_bound ? ", held at its bound 0" : "");
  }
  return 0;
}

int fit_write_machine(const char *path, const char *model, const Runs *runs, const FitResult *fit,
                      const char *command, CalError *err) {
  FitFile f = {model, runs, fit, command};
  return cal_atomic_write(path, write_file, &f, err);
}
