/*
** tight_bench.c — the bounds against the simulator on the example models of models/ (with
** models/machine.mach), measured in one run, per model and size P = 10^2 .. 10^5:
**   - tightness: sim_lo / T_lo and T_hi / sim_hi, where T_lo = inf T_lo over the constants' box
**     (what `pamc predict` prints as lo), sim_lo the makespan simulated with every interval at
**     its low end, T_hi = sup T_hi (predict's hi) and sim_hi simulated at the high ends. Both
**     ratios are >= 1 when the bounds are sound (the row says UNSOUND otherwise) and 1 when tight.
**   - speed: the wall time of one simulation (mid scenario) over the time pamc takes for the same
**     answer from the model (reduce with P free, then evaluate the formulas at P): the advantage
**     of the closed form.
** A size outside the range a model declares for its param is not run; a simulation that would
** last longer than BENCH_SIM_SECONDS is stopped and its row says so (the closed form answers it
** in the same microseconds).
** Usage: tight_bench [max_size]   (sizes up to max_size only, e.g. 1000 for a quick look)
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "check.h"
#include "predict.h"
#include "sim.h"

#define BENCH_SIM_SECONDS 20.0   /* one simulation longer than this is stopped */
#define BENCH_MACHINE "models/machine.mach"
#define BENCH_REL_TOL 1e-9       /* the simulator's double sums round (as tests/prop allow) */

typedef struct BenchModel {
  const char *file;              /* under models/ */
  const char *param;             /* the size param swept */
  const char *values[4];         /* its values for P = 10^2, 10^3, 10^4, 10^5 */
  const char *note;              /* how P relates to the param */
} BenchModel;

static const BenchModel models[] = {
  {"halo.pam", "P", {"100", "1000", "10000", "100000"}, ""},
  {"master_worker.pam", "P", {"100", "1000", "10000", "100000"}, ""},
  {"stencil2d.pam", "px", {"10", "32", "100", "316"}, "P = px^2"},
  {"matmul.pam", "P", {"100", "1000", "10000", "100000"}, ""},
  {"lu.pam", "P", {"100", "1000", "10000", "100000"}, ""},
  {"tree_reduce.pam", "P", {"100", "1000", "10000", "100000"}, ""},
  {"pipeline.pam", "items", {"100", "1000", "10000", "100000"}, "items in flight"},
  {"fft_transpose.pam", "P", {"100", "1000", "10000", "100000"}, ""},
};

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Loads and checks path with the machine file and the define (name=value, may be NULL).
** Returns 0, or -1 with the diagnostics kept in diags (the caller prints them). */
static int load(Program *prog, DiagList *diags, const char *path, const ProgramDefine *define) {
  static const char *const machines[] = {BENCH_MACHINE};
  ProgramOptions opts = {machines, 1, define, define ? 1 : 0, NULL};
  if (program_load(prog, diags, path, &opts) != PROGRAM_OK) return -1;
  return check_program(prog) > 0 ? -1 : 0;
}

/* pamc's answer at param = value: reduce with the param free, evaluate at the point. Fills lo
** (inf T_lo over the box) and hi (sup T_hi) and the seconds it took; 0 or -1. */
static int closed_form(const char *path, const char *param, const char *value, double *lo,
                       double *hi, double *seconds) {
  DiagList diags;
  diag_init(&diags);
  Program prog;
  ReduceResult reduced;
  memset(&reduced, 0, sizeof reduced);
  PredictPlan plan;
  memset(&plan, 0, sizeof plan);
  Sweep sweep;
  sweep_init(&sweep);
  char message[SWEEP_MESSAGE_SIZE];
  static PredictBatch batch;
  double point[SWEEP_MAX_AXES], axis[1];
  const double *axes[1] = {axis};
  double start = now();
  ReduceOptions ropts = {0, 0};
  int ok = load(&prog, &diags, path, NULL) == 0 &&
           reduce_program(&prog, &ropts, &reduced, &diags) == 0 &&
           sweep_add(&sweep, param, value, value, message, sizeof message) == 0 &&
           predict_plan_init(&plan, &reduced, &sweep, &diags) == 0 && sweep_next(&sweep, point);
  if (ok) {
    axis[0] = point[0];
    ok = predict_eval(&plan, 1, axes, &batch) == 0;
  }
  *seconds = now() - start;
  if (ok) {
    *lo = batch.lo[0];
    *hi = batch.hi[0];
  } else {
    diag_print(&diags, stderr);
  }
  predict_plan_free(&plan);
  sweep_free(&sweep);
  reduce_result_free(&reduced);
  program_free(&prog);
  diag_free(&diags);
  return ok ? 0 : -1;
}

typedef enum SimOutcome { SIM_DONE, SIM_STOPPED, SIM_FAILED } SimOutcome;

/* One simulation of prog's entry under scenario: the makespan and the wall time. */
static SimOutcome simulate(Program *prog, SimScenario scenario, double *makespan, double *wall,
                           char *why, size_t why_size) {
  SimOptions opts = {scenario, 1, 1, NULL, NULL, BENCH_SIM_SECONDS};
  SimReport report;
  SimError err;
  double start = now();
  int status = sim_simulate(program_entry(prog), &opts, &report, &err);
  *wall = now() - start;
  if (status != 0) {
    snprintf(why, why_size, "%s", err.message);
    return strstr(err.message, "wall-clock") ? SIM_STOPPED : SIM_FAILED;
  }
  *makespan = report.time_mean;
  sim_report_free(&report);
  return SIM_DONE;
}

/* One row: returns 1 when the bounds are unsound there, -1 on a failure, 0 otherwise. */
static int bench_row(const BenchModel *model, int size_index) {
  char path[256], raw[64];
  snprintf(path, sizeof path, "models/%s", model->file);
  const char *value = model->values[size_index];
  snprintf(raw, sizeof raw, "%s=%s", model->param, value);
  ProgramDefine define = {model->param, value, raw};
  DiagList diags;
  diag_init(&diags);
  Program prog;
  int result = 0;
  char label[64];
  snprintf(label, sizeof label, "%s=%s", model->param, value);
  if (load(&prog, &diags, path, &define) != 0) {
    /* outside the declared range, most likely: say what the checker said, briefly */
    printf("  %-20s %-12s not run: %s\n", model->file, label,
           diags.count ? diags.items[0].message : "does not load");
    program_free(&prog);
    diag_free(&diags);
    return 0;
  }
  double t_lo, t_hi, pamc_seconds;
  if (closed_form(path, model->param, value, &t_lo, &t_hi, &pamc_seconds)) {
    program_free(&prog);
    diag_free(&diags);
    return -1;
  }
  double sim_lo = 0, sim_hi = 0, sim_mid = 0, wall_lo, wall_hi, wall_mid;
  char why[SIM_MESSAGE_SIZE] = "";
  SimOutcome mid = simulate(&prog, SIM_SCENARIO_MID, &sim_mid, &wall_mid, why, sizeof why);
  if (mid == SIM_DONE) {
    SimOutcome low = simulate(&prog, SIM_SCENARIO_LO, &sim_lo, &wall_lo, why, sizeof why);
    SimOutcome high = low == SIM_DONE ? simulate(&prog, SIM_SCENARIO_HI, &sim_hi, &wall_hi, why, sizeof why) : low;
    mid = high;
  }
  if (mid == SIM_DONE) {
    int unsound = sim_lo < t_lo - BENCH_REL_TOL * t_lo || sim_hi > t_hi + BENCH_REL_TOL * t_hi;
    if (unsound) fprintf(stderr, "tight_bench: %s at %s: sim_lo %.17g T_lo %.17g sim_hi %.17g T_hi %.17g\n",
                         model->file, label, sim_lo, t_lo, sim_hi, t_hi);
    printf("  %-20s %-12s %10.4f %10.4f %12.3g %12.3g %12.0f%s\n", model->file, label, sim_lo / t_lo,
           t_hi / sim_hi, wall_mid, pamc_seconds, wall_mid / pamc_seconds, unsound ? "  UNSOUND" : "");
    result = unsound;
  } else if (mid == SIM_STOPPED) {
    printf("  %-20s %-12s %10s %10s %12s %12.3g %12s  (simulation stopped after %.0f s)\n", model->file,
           label, "-", "-", "> limit", pamc_seconds, "-", BENCH_SIM_SECONDS);
  } else {
    fprintf(stderr, "tight_bench: %s at %s: simulation failed: %s\n", model->file, label, why);
    result = -1;
  }
  program_free(&prog);
  diag_free(&diags);
  return result;
}

int main(int argc, char **argv) {
  double max_size = argc > 1 ? atof(argv[1]) : 1e5;
  static const double sizes[4] = {1e2, 1e3, 1e4, 1e5};
  printf("tightness of the bounds against the simulator, and simulate / pamc wall time (%s)\n", BENCH_MACHINE);
  printf("  sim_lo/T_lo and T_hi/sim_hi: >= 1 when sound, 1 when tight; sim: one simulation (mid);\n"
         "  pamc: reduce with the param free + evaluate at the point\n");
  printf("  %-20s %-12s %10s %10s %12s %12s %12s\n", "model", "size", "sim_lo/T_lo", "T_hi/sim_hi",
         "sim (s)", "pamc (s)", "sim/pamc");
  int unsound = 0, failed = 0;
  for (size_t m = 0; m < sizeof models / sizeof models[0]; m++) {
    for (int k = 0; k < 4 && sizes[k] <= max_size; k++) {
      int row = bench_row(&models[m], k);
      if (row > 0) unsound++;
      if (row < 0) failed++;
      fflush(stdout);
    }
    if (models[m].note[0]) printf("  %-20s (%s)\n", "", models[m].note);
  }
  printf("unsound rows: %d\n", unsound);
  return unsound || failed ? 1 : 0;
}
