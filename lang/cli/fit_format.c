/*
** fit_format.c — `pamc fit --format csv|json` (fit_format.h): the fit for programs, plain SI
** (seconds, relative errors as fractions), in step with `predict --measured`'s columns (measured,
** measured_min, measured_max, error). csv: one row per configuration; json: the consts, the
** configurations and the quality in one object.
*/
#include <math.h>
#include <string.h>

#include "cli.h"
#include "fit_format.h"

/* A number for csv and json: the shortest round-trip text; json has no inf or nan (null). */
static void put_number(FILE *out, double v, int json) {
  char buf[CLI_NUMBER_SIZE];
  fputs(json && !isfinite(v) ? "null" : cli_number(v, buf), out);
}

/* The status of a fitted const: "fitted", "at_bound" (held at 0), "poorly_determined". */
static const char *const_status(const FitConst *c) {
  return c->at_bound ? "at_bound" : fit_poorly_determined(c) ? "poorly_determined" : "fitted";
}

void fit_print_csv(FILE *out, const Runs *runs, const FitResult *fit) {
  for (int i = 0; i < runs->column_count; i++)
    if (runs->used[i]) fprintf(out, "%s,", runs->names[i]);
  fputs("runs,runs_fitted,measured,measured_min,measured_max,est,error,held_out\n", out);
  for (int k = 0; k < runs->config_count; k++) {
    const RunsConfig *c = &runs->configs[k];
    for (int i = 0; i < runs->column_count; i++)
      if (runs->used[i]) {
        put_number(out, c->values[i], 0);
        fputc(',', out);
      }
    fprintf(out, "%d,%d,", c->count, fit->held_out[k] ? 0 : fit->kept[k]);
    const double v[] = {c->median, c->min, c->max, fit->est[k], (fit->est[k] - c->median) / c->median};
    for (int j = 0; j < 5; j++) {
      put_number(out, v[j], 0);
      fputc(',', out);
    }
    fprintf(out, "%d\n", fit->held_out[k]);
  }
}

/* "name": number, */
static void member(FILE *out, const char *name, double v, const char *after) {
  cli_json_string(out, name);
  fputs(": ", out);
  put_number(out, v, 1);
  fputs(after, out);
}

void fit_print_json(FILE *out, const char *model, const Runs *runs, const FitResult *fit) {
  fputs("{\n \"model\": ", out);
  cli_json_string(out, model);
  fputs(",\n \"runs\": ", out);
  cli_json_string(out, runs->path);
  fputs(",\n ", out);
  member(out, "level", fit->level, ",\n \"consts\": [\n");
  for (int j = 0; j < fit->const_count; j++) {
    const FitConst *c = &fit->consts[j];
    fputs("  {\"name\": ", out);
    cli_json_string(out, c->decl->name.name);
    fputs(", ", out);
    member(out, "value", c->value, ", ");
    member(out, "lo", c->lo, ", ");
    member(out, "hi", c->hi, ", ");
    member(out, "se", c->se, ", \"status\": ");
    cli_json_string(out, const_status(c));
    fputs(j + 1 < fit->const_count ? "},\n" : "}\n", out);
  }
  fputs(" ],\n \"configurations\": [\n", out);
  for (int k = 0; k < runs->config_count; k++) {
    const RunsConfig *c = &runs->configs[k];
    fputs("  {", out);
    for (int i = 0; i < runs->column_count; i++)
      if (runs->used[i]) member(out, runs->names[i], c->values[i], ", ");
    member(out, "runs", c->count, ", ");
    member(out, "runs_fitted", fit->held_out[k] ? 0 : fit->kept[k], ", ");
    member(out, "measured", c->median, ", ");
    member(out, "measured_min", c->min, ", ");
    member(out, "measured_max", c->max, ", ");
    member(out, "est", fit->est[k], ", ");
    member(out, "error", (fit->est[k] - c->median) / c->median, ", ");
    fprintf(out, "\"held_out\": %s}%s\n", fit->held_out[k] ? "true" : "false", k + 1 < runs->config_count ? "," : "");
  }
  fputs(" ],\n \"quality\": {", out);
  member(out, "runs_fitted", (double)fit->fit_runs, ", ");
  member(out, "configurations_fitted", fit->fit_configs, ", ");
  member(out, "outliers", (double)fit->outliers, ", ");
  member(out, "dof", fit->dof, ", ");
  member(out, "r2", fit->r2, ", ");
  member(out, "error_median", fit->rel_median, ", ");
  member(out, "error_worst", fit->rel_worst, ", ");
  member(out, "rms_relative_residual", fit->rel_rms, ", ");
  member(out, "condition", fit->cond, "}");
  int held = runs->config_count - fit->fit_configs;
  if (held > 0) {
    fputs(",\n \"held_out\": {", out);
    member(out, "configurations", held, ", ");
    member(out, "error_median", fit->hold_median, ", ");
    member(out, "error_worst", fit->hold_worst, "}");
  }
  fputs("\n}\n", out);
}
