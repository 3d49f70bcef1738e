/*
** fuzz_reduce.c — libFuzzer target for the calculus: any bytes are loaded as a model and
** checked; a model that checks is reduced (REDUCTION.md) and predicted at two points of each of
** its first free params (the default and the next integer within the admissible range), as
** `pamc predict -D P=d,d+1` would. Nothing may crash, leak or hang, and where the points' checks
** pass and both bounds are finite, lo <= hi.
*/
#define _GNU_SOURCE
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "fuzz_model.h"
#include "predict.h"
#include "program.h"
#include "reduce.h"
#include "sweep.h"

/* Params swept at most (2^4 points). */
#define FUZZ_AXES 4

/* The value of expression e (NULL: fallback), its lower end. */
static double value_or(const Expr *e, double fallback) {
  EvalEnv env;
  eval_env_init(&env);
  AlgInterval v;
  if (!e || eval_expr(&env, e, &v, NULL) != EVAL_OK) return fallback;
  return v.lo;
}

/* Adds an axis for each free param of r whose default is a whole number: the default and the
** next whole number inside its admissible range. */
static void make_axes(const ReduceResult *r, Sweep *sweep, const Decl **decls) {
  for (int i = 0; i < r->symbol_count && sweep->axis_count < FUZZ_AXES; i++) {
    const Decl *d = r->symbol_decls[i];
    if (d->kind != DECL_PARAM) continue;
    double def = value_or(d->u.param.value, NAN);
    if (!isfinite(def) || def != floor(def) || fabs(def) > 1e6) continue;
    double min = value_or(d->u.param.min, def < 1 ? def : 1), max = value_or(d->u.param.max, INFINITY);
    double next = def + 1 <= max ? def + 1 : def - 1;
    if (def < min || def > max || next < min || next > max) continue;
    char text[64], message[SWEEP_MESSAGE_SIZE];
    snprintf(text, sizeof text, "%.17g,%.17g", def, next);
    decls[sweep->axis_count] = d;
    if (sweep_add(sweep, d->name.name, text, d->name.name, message, sizeof message) != 0) abort();
  }
}

static void predict_points(Program *prog, const ReduceResult *r) {
  Sweep sweep;
  sweep_init(&sweep);
  const Decl *decls[FUZZ_AXES];
  make_axes(r, &sweep, decls);
  DiagList diags;
  diag_init(&diags);
  PredictPlan plan;
  PredictBatch *batch = malloc(sizeof *batch);
  if (!batch) abort();
  if (predict_plan_init(&plan, r, &sweep, &diags) == 0) {
    double values[FUZZ_AXES][PREDICT_BATCH], point[SWEEP_MAX_AXES];
    const double *axis_values[FUZZ_AXES];
    for (int a = 0; a < FUZZ_AXES; a++) axis_values[a] = values[a];
    int n = 0;
    while (n < PREDICT_BATCH && sweep_next(&sweep, point)) {
      for (int a = 0; a < sweep.axis_count; a++) values[a][n] = point[a];
      n++;
    }
    if (predict_eval(&plan, n, axis_values, batch) != 0) abort();
    PredictIssue issue;
    int good = predict_check_batch(program_entry(prog), decls, sweep.axis_count, n, axis_values, batch, &issue);
    int failed;
    double value;
    int bad = predict_checks_first_failure(&plan, good, &failed, &value);
    if (bad < 0) abort();
    for (int k = 0; k < bad; k++)
      if (isfinite(batch->lo[k]) && isfinite(batch->hi[k]) && batch->lo[k] > batch->hi[k]) {
        fprintf(stderr, "fuzz_reduce: lo %.17g > hi %.17g at point %d\n", batch->lo[k], batch->hi[k], k);
        abort();
      }
  }
  predict_plan_free(&plan);
  free(batch);
  diag_free(&diags);
  sweep_free(&sweep);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  FuzzModel model;
  int loaded = fuzz_model_load(&model, data, size);
  if (loaded < 0) return 0;
  if (loaded == 1 && program_entry(&model.program)) {
    ReduceOptions opts = {0, 0};
    ReduceResult r;
    if (reduce_program(&model.program, &opts, &r, &model.diags) == 0) predict_points(&model.program, &r);
    reduce_result_free(&r);
  }
  fuzz_model_free(&model);
  return 0;
}
