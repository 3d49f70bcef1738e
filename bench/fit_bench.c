/*
** fit_bench.c — speed of `pamc fit` (lang/fit/): the time of one fit of 4 consts on 100 runs (20
** configurations x 5 repetitions, 5% noise) of a model with a contended bus, the reduction done
** once beforehand as `pamc fit` does; the median and the fastest of 21 fits (the target: 50 ms),
** and the evaluations of est per fit (each one pass of the tape over the configurations).
*/
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "check.h"
#include "fit/fit.h"

/* Fits timed. */
#define BENCH_FITS 21

static const char bench_model[] =
  "param N = 1000;\nparam P = 4;\nconst a;\nconst b;\nconst c;\nconst d;\nresource bus;\n"
  "process main {\n  delay(d);\n  par (p = 0, P - 1) {\n    delay(N / P * a);\n    use(bus, b * N / P)\n"
  "  };\n  delay(c * P)\n}\n";

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Deterministic noise: xorshift64* and Box-Muller. */
static double normal(uint64_t *s) {
  double u[2];
  for (int i = 0; i < 2; i++) {
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    u[i] = ((*s * 2685821657736338717ULL) >> 11) * (1.0 / 9007199254740992.0);
  }
  return sqrt(-2 * log(u[0] > 0 ? u[0] : 1e-300)) * cos(2 * M_PI * u[1]);
}

static int compare_doubles(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

int main(void) {
  DiagList diags;
  diag_init(&diags);
  Program prog;
  ReduceResult r;
  ReduceOptions ropts = {0, 0};
  if (program_load_string(&prog, &diags, "bench.pam", bench_model, NULL) != PROGRAM_OK ||
      check_program(&prog) > 0 || reduce_program(&prog, &ropts, &r, &diags) != 0) {
    diag_print(&diags, stderr);
    return 1;
  }
  const Decl *consts[4] = {program_lookup(&prog, "a"), program_lookup(&prog, "b"),
                           program_lookup(&prog, "c"), program_lookup(&prog, "d")};
  const double k[4] = {2e-6, 5e-7, 1e-5, 3e-4};
  Runs runs;
  runs_init(&runs, "bench");
  runs_add_column(&runs, "P");
  runs_add_column(&runs, "N");
  uint64_t seed = 18;
  for (double P = 1; P <= 16; P *= 2)
    for (double N = 1000; N <= 64000; N *= 4)
      for (int rep = 0; rep < 5; rep++) {
        double path = N * (k[0] + k[1]) / P, bus = N * k[1];
        double values[2] = {P, N};
        runs_add_row(&runs, values, (k[3] + P * k[2] + (path > bus ? path : bus)) * (1 + 0.05 * normal(&seed)), 0);
      }
  runs_group(&runs);
  double times[BENCH_FITS];
  FitResult fit;
  int status = 0, iterations = 0;
  for (int i = 0; i < BENCH_FITS && status == 0; i++) {
    double t0 = now();
    FitModel m;
    FitOptions opts = {0.95, 0};
    char message[FIT_MESSAGE_SIZE];
    status = fit_model_init(&m, &r, &runs, consts, 4, &diags);
    if (status == 0) status = fit_run(&m, &opts, &fit, message, sizeof message);
    times[i] = now() - t0;
    iterations = fit.iterations;
    if (status != 0) fprintf(stderr, "fit_bench: the fit failed: %s\n", message);
    if (i + 1 < BENCH_FITS || status != 0) fit_result_free(&fit);
    fit_model_free(&m);
  }
  if (status == 0) {
    qsort(times, BENCH_FITS, sizeof *times, compare_doubles);
    printf("fit of 4 consts on %ld runs (%d configurations): median %.2f ms, fastest %.2f ms over %d fits "
           "(target 50 ms); %d solver iterations; a = %.4g, b = %.4g, c = %.4g, d = %.4g\n",
           runs.row_count, runs.config_count, 1e3 * times[BENCH_FITS / 2], 1e3 * times[0], BENCH_FITS,
           iterations, fit.consts[0].value, fit.consts[1].value, fit.consts[2].value, fit.consts[3].value);
    fit_result_free(&fit);
  }
  runs_free(&runs);
  reduce_result_free(&r);
  program_free(&prog);
  diag_free(&diags);
  return status == 0 ? 0 : 1;
}
