/*
** predict_bench.c — speed of `pamc predict`'s evaluation (lang/predict/predict.h): points per second of a
** 10^6-point sweep of the halo model (LANGUAGE.md §7, interval constants), measured in one run:
** the tapes alone (lo, est, hi, bottleneck), then with the checks that give errors a place (the
** batch hull when it is certainly fine: a sweep over N), then with a check at every point (a
** sweep over P, where the hull of a batch cannot clear the family index cpu[p]).
** Usage: predict_bench [scale]   (scale < 1 shrinks the sweeps, for a quick look)
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "check.h"
#include "predict.h"

/* Points of the sweep at scale 1. */
#define BENCH_POINTS 1000000L

static const char bench_model[] =
  "param N = 1_000_000;\nparam P = 16;\nparam iters = 100;\n"
  "const t_point = [0.9ns, 1.1ns];\nconst latency = [1.8us, 2.2us];\nconst byte_time = [0.45ns, 0.55ns];\n"
  "resource cpu[P];\nresource bus;\nfn msg(bytes) = latency + bytes * byte_time;\n"
  "process step(p) { use(cpu[p], ceil(N / P) * t_point); use(bus, msg(8 * 1024)) }\n"
  "process main { repeat (iters) par (p = 0, P - 1) step(p) }\n";

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Runs the sweep name = 1..points through the plan; checks: 0 none, 1 per batch as predict does.
** Returns points per second, or -1 on failure. */
static double run(const char *name, long points, int checks, double *sink) {
  DiagList diags;
  diag_init(&diags);
  Program prog;
  double rate = -1;
  if (program_load_string(&prog, &diags, "halo.pam", bench_model, NULL) != PROGRAM_OK ||
      check_program(&prog) > 0) {
    diag_print(&diags, stderr);
    program_free(&prog);
    diag_free(&diags);
    return -1;
  }
  ReduceOptions ropts = {0, 0};
  ReduceResult r;
  Sweep sweep;
  sweep_init(&sweep);
  char range[64], message[SWEEP_MESSAGE_SIZE];
  snprintf(range, sizeof range, "1..%ld", points);
  PredictPlan plan;
  memset(&plan, 0, sizeof plan);
  int ok = reduce_program(&prog, &ropts, &r, &diags) == 0 &&
           sweep_add(&sweep, name, range, range, message, sizeof message) == 0 &&
           predict_plan_init(&plan, &r, &sweep, &diags) == 0;
  static PredictBatch batch;
  static double values[PREDICT_BATCH];
  const double *axes[1] = {values};
  const Decl *decl = program_lookup(&prog, name);
  const Decl *entry = program_entry(&prog);
  if (ok) {
    double point[SWEEP_MAX_AXES], start = now();
    long done = 0;
    int more = 1;
    while (more) {
      int n = 0;
      while (n < PREDICT_BATCH && (more = sweep_next(&sweep, point))) values[n++] = point[0];
      if (!n) break;
      predict_eval(&plan, n, axes, &batch);
      if (checks) {
        PredictIssue issue;
        if (predict_check_batch(entry, &decl, 1, n, axes, &batch, &issue) != n) {
          fprintf(stderr, "predict_bench: unexpected issue: %s\n", issue.message);
          break;
        }
      }
      for (int k = 0; k < n; k++) *sink += batch.est[k];
      done += n;
    }
    double elapsed = now() - start;
    if (done == points && elapsed > 0) rate = (double)points / elapsed;
  }
  diag_print(&diags, stderr);
  predict_plan_free(&plan);
  sweep_free(&sweep);
  reduce_result_free(&r);
  program_free(&prog);
  diag_free(&diags);
  return rate;
}

int main(int argc, char **argv) {
  double scale = argc > 1 ? atof(argv[1]) : 1;
  long points = (long)(BENCH_POINTS * (scale > 0 ? scale : 1));
  if (points < 1) points = 1;
  double sink = 0;
  double tapes = run("N", points, 0, &sink);
  double hull = run("N", points, 1, &sink);
  double each = run("P", points, 1, &sink);
  if (tapes < 0 || hull < 0 || each < 0) {
    fprintf(stderr, "predict_bench: a run failed\n");
    return 1;
  }
  printf("predict, halo model, %ld-point sweep (checksum %.6g):\n", points, sink);
  printf("  tapes only (lo, est, hi, bottleneck), N swept  %12.0f points/s\n", tapes);
  printf("  with checks of each batch's hull, N swept      %12.0f points/s  (%.2fx tapes only)\n",
         hull, hull / tapes);
  printf("  with a check at every point, P swept           %12.0f points/s  (%.2fx tapes only)\n",
         each, each / tapes);
  return 0;
}
