/*
** predict_measured.c — measured runs beside predicted rows (predict_measured.h).
*/
#include "predict_measured.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "predict.h"

/* Two param values are the same configuration when they agree to this relative difference
** (a sweep's geometric values are products of doubles). */
#define MEASURED_SAME_REL 1e-9

int predict_measured_open(PredictMeasured *pm, const char *path, const RunsSelect *select,
                          const Program *prog, const Sweep *sweep, DiagList *diags) {
  memset(pm, 0, sizeof *pm);
  runs_init(&pm->runs, path);
  int status = runs_read(&pm->runs, select, diags);
  if (status != 0) return status;
  if (runs_match_program(&pm->runs, prog, diags) != 0) return 1;
  for (int c = 0; c < pm->runs.column_count; c++) {
    pm->axis[c] = -1;
    pm->fixed[c] = NAN;
    if (!pm->runs.used[c]) continue;
    for (int a = 0; a < sweep->axis_count; a++)
      if (!strcmp(sweep->axes[a].name, pm->runs.names[c])) pm->axis[c] = a;
    if (pm->axis[c] >= 0) continue;
    AlgInterval box, mid;
    DiagList quiet;
    diag_init(&quiet);   /* a param without a point value matches no run: not an error */
    if (predict_value_in_force(program_lookup(prog, pm->runs.names[c]), &box, &mid, &quiet) == 0 &&
        box.lo == box.hi)
      pm->fixed[c] = box.lo;
    diag_free(&quiet);
  }
  pm->seen = calloc((size_t)pm->runs.config_count + 1, sizeof *pm->seen);
  if (!pm->seen) {
    diag_report(diags, DIAG_ERROR, (SrcLoc){0}, "out of memory");
    return 1;
  }
  return 0;
}

void predict_measured_free(PredictMeasured *pm) {
  runs_free(&pm->runs);
  free(pm->seen);
  free(pm->errors);
  memset(pm, 0, sizeof *pm);
}

static int same(double a, double b) {
  return fabs(a - b) <= MEASURED_SAME_REL * fmax(fabs(a), fabs(b));
}

const RunsConfig *predict_measured_row(PredictMeasured *pm, const double *point, double lo,
                                       double est, double hi) {
  const Runs *runs = &pm->runs;
  for (int k = 0; k < runs->config_count; k++) {
    const RunsConfig *c = &runs->configs[k];
    int match = 1;
    for (int i = 0; i < runs->column_count && match; i++)
      if (runs->used[i]) match = same(c->values[i], pm->axis[i] >= 0 ? point[pm->axis[i]] : pm->fixed[i]);
    if (!match) continue;
    /* count the row: capacity doubles at powers of two */
    long n = pm->matched;
    if (n == 0 || (n & (n - 1)) == 0) {
      double *bigger = realloc(pm->errors, (size_t)(n ? 2 * n : 1) * sizeof *bigger);
      if (!bigger) return c;
      pm->errors = bigger;
    }
    double error = fabs(est - c->median) / c->median;
    pm->errors[pm->matched++] = error;
    pm->covered += lo <= c->median && c->median <= hi;
    pm->seen[k] = 1;
    if (error >= pm->worst) {
      pm->worst = error;
      runs_config_text(runs, c, pm->worst_at, sizeof pm->worst_at);
    }
    return c;
  }
  return NULL;
}

static int compare_doubles(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

void predict_measured_summary(const PredictMeasured *pm, long rows, FILE *out) {
  int unseen = 0;
  for (int k = 0; k < pm->runs.config_count; k++) unseen += !pm->seen[k];
  fprintf(out, "measured: %ld of %ld rows have runs in %s", pm->matched, rows, pm->runs.path);
  if (pm->matched > 0) {
    double *sorted = malloc((size_t)pm->matched * sizeof *sorted);
    double median = NAN;
    if (sorted) {
      memcpy(sorted, pm->errors, (size_t)pm->matched * sizeof *sorted);
      qsort(sorted, (size_t)pm->matched, sizeof *sorted, compare_doubles);
      median = runs_median(sorted, (int)pm->matched);
      free(sorted);
    }
    fprintf(out, "; the measured median within [lo, hi] in %ld of %ld (%.0f%%); |est - median| / "
            "median: median %.1f%%, worst %.1f%% (%s)", pm->covered, pm->matched,
            100.0 * pm->covered / pm->matched, 100 * median, 100 * pm->worst, pm->worst_at);
  }
  if (unseen) fprintf(out, "; %d configuration%s of the runs not in the sweep", unseen, unseen == 1 ? "" : "s");
  fputc('\n', out);
}
