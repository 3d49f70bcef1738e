/*
** test_fit.c — `pamc fit` (lang/fit/): the fit recovers known consts from synthetic runs (times
** from the hand-derived formula of the model, with noise) within its intervals at the stated
** level; degenerate runs (collinear consts, too few configurations or runs) are refused naming the
** consts; Extra-P's text format (from its documentation) and CSV are read as documented.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "fit/fit.h"
#include "fit/fit_keep.h"
#include "fit/runs.h"

/* Seeds of the coverage test (the issue: at least 90% of 200). */
#define FITTEST_SEEDS 200
/* Repetitions per configuration of the synthetic runs. */
#define FITTEST_REPS 5
/* Relative noise (standard deviation) of a synthetic run. */
#define FITTEST_NOISE 0.05

/* P workers each compute N/P items (a per item) and put N/P items on a shared bus (b per item),
** then a start-up d and a per-worker cost c. By hand: T_lo = d + P c + N a/P + N b (the
** order-aware lower bound of docs/reduction.md: the bus is reached after N a/P and then serves all
** P requests; it dominates the critical path N a/P + N b/P and the bus's demand N b, and it is
** the simulated time). */
static const char fittest_model[] =
  "param N = 1000;\n"
  "param P = 4;\n"
  "const a;\n"
  "const b;\n"
  "const c;\n"
  "const d;\n"
  "resource bus;\n"
  "process main {\n"
  "  delay(d);\n"
  "  par (p = 0, P - 1) {\n"
  "    delay(N / P * a);\n"
  "    use(bus, b * N / P)\n"
  "  };\n"
  "  delay(c * P)\n"
  "}\n";

static const double fittest_truth[4] = {2e-6, 5e-7, 1e-5, 3e-4};

static double fittest_time(double P, double N, const double *k) {
  return k[3] + P * k[2] + N * k[0] / P + N * k[1];
}

/* A small deterministic generator (xorshift64*) and normal deviates (Box-Muller). */
typedef struct FitRng {
  uint64_t state;           /* never 0 */
} FitRng;

static double fittest_uniform(FitRng *r) {
  r->state ^= r->state >> 12;
  r->state ^= r->state << 25;
  r->state ^= r->state >> 27;
  return ((r->state * 2685821657736338717ULL) >> 11) * (1.0 / 9007199254740992.0);
}

static double fittest_normal(FitRng *r) {
  double u = fittest_uniform(r), v = fittest_uniform(r);
  return sqrt(-2 * log(u > 0 ? u : 1e-300)) * cos(2 * M_PI * v);
}

/* The model loaded, checked and reduced. */
typedef struct FitTest {
  DiagList diags;           /* errors */
  Program prog;             /* the model */
  ReduceResult reduced;     /* its bounds */
  const Decl *consts[4];    /* a, b, c, d */
} FitTest;

static void fittest_open(FitTest *t, const char *text) {
  memset(t, 0, sizeof *t);
  diag_init(&t->diags);
  ProgramOptions opts;
  memset(&opts, 0, sizeof opts);
  assert_int_equal(program_load_string(&t->prog, &t->diags, "fit.pam", text, &opts), PROGRAM_OK);
  assert_int_equal(check_program(&t->prog), 0);
  ReduceOptions ropts = {0, 0};
  assert_int_equal(reduce_program(&t->prog, &ropts, &t->reduced, &t->diags), 0);
  const char *names[4] = {"a", "b", "c", "d"};
  for (int j = 0; j < 4; j++) t->consts[j] = program_lookup(&t->prog, names[j]);
}

static void fittest_close(FitTest *t) {
  reduce_result_free(&t->reduced);
  program_free(&t->prog);
  diag_free(&t->diags);
}

/* Fits the four consts of t to runs, leaving out the holdout largest configurations; the fit's
** status (0, or 1 with message). Release with fittest_done. */
static int fittest_fit(FitTest *t, const Runs *runs, int holdout, FitModel *m, FitResult *fit, char *message) {
  assert_int_equal(fit_model_init(m, &t->reduced, runs, t->consts, 4, &t->diags), 0);
  FitOptions opts = {0.95, holdout};
  return fit_run(m, &opts, fit, message, FIT_MESSAGE_SIZE);
}

static void fittest_done(FitModel *m, FitResult *fit) {
  fit_result_free(fit);
  fit_model_free(m);
}

/* Synthetic runs: P = 1..16 (x2), N = 1000..64000 (x4), FITTEST_REPS noisy runs each. */
static void fittest_runs(Runs *runs, FitRng *rng, const double *k) {
  runs_init(runs, "synthetic.csv");
  assert_int_equal(runs_add_column(runs, "P"), 0);
  assert_int_equal(runs_add_column(runs, "N"), 0);
  for (double P = 1; P <= 16; P *= 2)
    for (double N = 1000; N <= 64000; N *= 4)
      for (int r = 0; r < FITTEST_REPS; r++) {
        double values[2] = {P, N};
        double t = fittest_time(P, N, k) * (1 + FITTEST_NOISE * fittest_normal(rng));
        assert_int_equal(runs_add_row(runs, values, t, 2), 0);
      }
  assert_int_equal(runs_group(runs), 0);
}

/* 200 seeds: each const's 95% interval holds its true value in at least 90% of them (the
** nominal rate is 95%), and the estimates are unbiased to within a few standard errors. */
static void test_coverage(void **state) {
  (void)state;
  FitTest t;
  fittest_open(&t, fittest_model);
  int covered[4] = {0}, all = 0;
  for (int seed = 1; seed <= FITTEST_SEEDS; seed++) {
    FitRng rng = {0x9E3779B97F4A7C15ULL * (uint64_t)seed};
    Runs runs;
    fittest_runs(&runs, &rng, fittest_truth);
    FitModel m;
    FitResult fit;
    char message[FIT_MESSAGE_SIZE];
    assert_int_equal(fittest_fit(&t, &runs, 0, &m, &fit, message), 0);
    int every = 1;
    for (int j = 0; j < 4; j++) {
      int in = fit.consts[j].lo <= fittest_truth[j] && fittest_truth[j] <= fit.consts[j].hi;
      covered[j] += in;
      every &= in;
    }
    all += every;
    fittest_done(&m, &fit);
    runs_free(&runs);
  }
  for (int j = 0; j < 4; j++) {
    fprintf(stderr, "const %c: true value within the 95%% interval in %d of %d seeds\n", 'a' + j,
            covered[j], FITTEST_SEEDS);
    assert_true(covered[j] >= FITTEST_SEEDS * 9 / 10);
  }
  fprintf(stderr, "all four within their intervals in %d of %d seeds\n", all, FITTEST_SEEDS);
  fittest_close(&t);
}

/* Without noise the fit is exact: every const to 1e-6, R^2 = 1. */
static void test_exact(void **state) {
  (void)state;
  FitTest t;
  fittest_open(&t, fittest_model);
  FitRng rng = {1};
  Runs runs;
  runs_init(&runs, "exact.csv");
  assert_int_equal(runs_add_column(&runs, "P"), 0);
  assert_int_equal(runs_add_column(&runs, "N"), 0);
  for (double P = 1; P <= 16; P *= 2)
    for (double N = 1000; N <= 64000; N *= 4) {
      double values[2] = {P, N};
      assert_int_equal(runs_add_row(&runs, values, fittest_time(P, N, fittest_truth), 2), 0);
      assert_int_equal(runs_add_row(&runs, values, fittest_time(P, N, fittest_truth), 3), 0);
    }
  (void)rng;
  assert_int_equal(runs_group(&runs), 0);
  FitModel m;
  FitResult fit;
  char message[FIT_MESSAGE_SIZE];
  assert_int_equal(fittest_fit(&t, &runs, 0, &m, &fit, message), 0);
  for (int j = 0; j < 4; j++) assert_true(fabs(fit.consts[j].value - fittest_truth[j]) <= 1e-6 * fittest_truth[j]);
  assert_true(fit.r2 > 1 - 1e-9);
  fittest_done(&m, &fit);
  runs_free(&runs);
  fittest_close(&t);
}

/* --holdout 4 leaves out the four configurations with the largest P*N and, the model being right,
** predicts them within the noise. */
static void test_holdout(void **state) {
  (void)state;
  FitTest t;
  fittest_open(&t, fittest_model);
  FitRng rng = {7};
  Runs runs;
  fittest_runs(&runs, &rng, fittest_truth);
  FitModel m;
  FitResult fit;
  char message[FIT_MESSAGE_SIZE];
  assert_int_equal(fittest_fit(&t, &runs, 4, &m, &fit, message), 0);
  assert_int_equal(fit.fit_configs, 16);
  assert_int_equal(fit.fit_runs, 16 * FITTEST_REPS);
  for (int k = 0; k < runs.config_count; k++) {
    double size = runs.configs[k].values[0] * runs.configs[k].values[1];
    /* the four largest products: 16*64000, 8*64000, then 16*16000 = 4*64000 = 256000 */
    assert_int_equal(fit.held_out[k], size >= 256000);
  }
  assert_true(fit.hold_worst < 4 * FITTEST_NOISE);
  fittest_done(&m, &fit);
  runs_free(&runs);
  fittest_close(&t);
}

/* T = N (a + b): the runs determine a + b only; the fit names both consts and gives no values. */
static void test_collinear(void **state) {
  (void)state;
  FitTest t;
  fittest_open(&t, "param N = 1;\nconst a;\nconst b;\nconst c;\nconst d;\n"
                   "process main { delay(N * a + N * b + c + d * N * N) }\n");
  Runs runs;
  runs_init(&runs, "collinear.csv");
  assert_int_equal(runs_add_column(&runs, "N"), 0);
  for (double N = 1; N <= 64; N *= 2) {
    double values[1] = {N};
    assert_int_equal(runs_add_row(&runs, values, 1e-3 + 3e-6 * N + 1e-8 * N * N, 2), 0);
    assert_int_equal(runs_add_row(&runs, values, 1.01e-3 + 3e-6 * N + 1e-8 * N * N, 2), 0);
  }
  assert_int_equal(runs_group(&runs), 0);
  FitModel m;
  FitResult fit;
  char message[FIT_MESSAGE_SIZE];
  assert_int_equal(fittest_fit(&t, &runs, 0, &m, &fit, message), 1);
  assert_non_null(strstr(message, "cannot tell a, b apart"));
  assert_null(strstr(message, ", c"));
  fittest_done(&m, &fit);
  /* fewer configurations than consts */
  runs_free(&runs);
  runs_init(&runs, "two.csv");
  assert_int_equal(runs_add_column(&runs, "N"), 0);
  for (int r = 0; r < 3; r++) {
    double v1[1] = {1}, v2[1] = {2};
    assert_int_equal(runs_add_row(&runs, v1, 1e-3, 2), 0);
    assert_int_equal(runs_add_row(&runs, v2, 2e-3, 2), 0);
  }
  assert_int_equal(runs_group(&runs), 0);
  assert_int_equal(fittest_fit(&t, &runs, 0, &m, &fit, message), 1);
  assert_non_null(strstr(message, "2 configurations to fit 4 consts"));
  fittest_done(&m, &fit);
  runs_free(&runs);
  fittest_close(&t);
}

/* T = a N + b with runs on the lines 1 ms N - 10 us and 1.01 ms N - 10 us (N = 1..4): the
** unconstrained best b is -10 us, so b is held at its bound 0 (its interval starts at 0) and a
** is fitted through the origin, on relative errors (every configuration has the same relative
** spread): a = sum(N / y) / sum(N^2 / y^2) over the means y = 1.005 ms N - 10 us = 0.99977 ms
** (weights from est rather than the means move it by less than 0.5%). */
static void test_bound(void **state) {
  (void)state;
  FitTest t;
  fittest_open(&t, "param N = 1;\nconst a;\nconst b;\nconst c;\nconst d;\n"
                   "process main { delay(a * N + b) }\n");
  const Decl *consts[2] = {t.consts[0], t.consts[1]};
  Runs runs;
  runs_init(&runs, "bound.csv");
  assert_int_equal(runs_add_column(&runs, "N"), 0);
  for (double N = 1; N <= 4; N++) {
    double values[1] = {N};
    assert_int_equal(runs_add_row(&runs, values, 1e-3 * N - 1e-5, 2), 0);
    assert_int_equal(runs_add_row(&runs, values, 1.01e-3 * N - 1e-5, 2), 0);
  }
  assert_int_equal(runs_group(&runs), 0);
  FitModel m;
  assert_int_equal(fit_model_init(&m, &t.reduced, &runs, consts, 2, &t.diags), 0);
  FitOptions opts = {0.95, 0};
  FitResult fit;
  char message[FIT_MESSAGE_SIZE];
  assert_int_equal(fit_run(&m, &opts, &fit, message, sizeof message), 0);
  assert_true(fit.consts[1].at_bound);
  assert_true(fit.consts[1].value == 0 && fit.consts[1].lo == 0 && fit.consts[1].hi > 0);
  assert_false(fit.consts[0].at_bound);
  assert_true(fabs(fit.consts[0].value - 0.99977e-3) < 0.005e-3);
  fittest_done(&m, &fit);
  runs_free(&runs);
  fittest_close(&t);
}

/* ------------------------------------------------------------------ reading runs */

static int fittest_read(Runs *runs, const char *text, int extrap, const RunsSelect *select, DiagList *d) {
  runs_init(runs, "runs.txt");
  diag_init(d);
  return extrap ? runs_read_extrap(runs, text, select, d) : runs_read_csv(runs, text, d);
}

/* Extra-P's documented example: one parameter, five points in parentheses, REGION before METRIC,
** three repetitions per DATA line. */
static void test_extrap_example(void **state) {
  (void)state;
  Runs runs;
  DiagList d;
  assert_int_equal(fittest_read(&runs, "PARAMETER p\nPOINTS (4) (8) (16) (32) (64)\n\nREGION example\n"
                   "METRIC time\nDATA 8.31 8.02 8.14\nDATA 22.74 22.66 23.20\nDATA 65.79 64.74 66.62\n"
                   "DATA 186.78 184.68 181.58\nDATA 528.86 522.44 531.78\n", 1, NULL, &d), 0);
  assert_int_equal(runs.column_count, 1);
  assert_string_equal(runs.names[0], "p");
  assert_int_equal(runs.row_count, 15);
  assert_int_equal(runs_group(&runs), 0);
  assert_int_equal(runs.config_count, 5);
  assert_true(runs.configs[2].values[0] == 16);
  assert_true(runs.configs[2].median == 65.79 && runs.configs[2].min == 64.74 && runs.configs[2].max == 66.62);
  runs_free(&runs);
  diag_free(&d);
}

/* Two parameters, points as (c1 c2) and ((c1) (c2)), bare numbers refused with two parameters,
** METRIC before REGION, two regions chosen by --region. */
static void test_extrap_two_params(void **state) {
  (void)state;
  const char *text = "# a comment\nPARAMETER p\nPARAMETER n\nPOINTS (1 10) ((2) (10))\nPOINTS (4 20)\n"
                     "METRIC time\nREGION main\nDATA 1 1.1\nDATA 2\nDATA 3\n"
                     "REGION main->solve\nDATA 0.5\nDATA 1\nDATA 1.5\n";
  Runs runs;
  DiagList d;
  assert_int_equal(fittest_read(&runs, text, 1, NULL, &d), 1);   /* two series, none chosen */
  assert_int_equal(d.count, 1);
  assert_non_null(strstr(d.items[0].message, "REGION 'main->solve'"));
  runs_free(&runs);
  diag_free(&d);
  RunsSelect select = {"main->solve", NULL};
  assert_int_equal(fittest_read(&runs, text, 1, &select, &d), 0);
  assert_int_equal(runs.column_count, 2);
  assert_int_equal(runs.row_count, 3);
  assert_true(runs.rows[1].values[0] == 2 && runs.rows[1].values[1] == 10 && runs.rows[1].time == 1);
  assert_true(runs.rows[2].values[0] == 4 && runs.rows[2].values[1] == 20 && runs.rows[2].line == 14);
  runs_free(&runs);
  diag_free(&d);
  /* fewer DATA lines than points: an error at the block's REGION line */
  assert_int_equal(fittest_read(&runs, "PARAMETER p\nPOINTS 1 2 3\nREGION r\nDATA 1\nDATA 2\n", 1, NULL, &d), 1);
  assert_int_equal(d.items[0].loc.line, 3);
  runs_free(&runs);
  diag_free(&d);
  /* a negative time */
  assert_int_equal(fittest_read(&runs, "PARAMETER p\nPOINTS 1 2\nREGION r\nDATA 1\nDATA -2\n", 1, NULL, &d), 1);
  assert_int_equal(d.items[0].loc.line, 5);
  assert_int_equal(d.items[0].loc.col, 6);
  runs_free(&runs);
  diag_free(&d);
}

/* CSV: units, quoted fields, comments; a missing time is a warning, a negative one an error. */
static void test_csv(void **state) {
  (void)state;
  Runs runs;
  DiagList d;
  assert_int_equal(fittest_read(&runs, "# runs\nP, N ,time\n1,1000,2ms\n\"2\",1000,1.5ms\n2,1000,\n", 0, NULL, &d), 0);
  assert_int_equal(runs.row_count, 2);
  assert_true(runs.rows[0].time == 2e-3 && runs.rows[1].values[0] == 2);
  assert_int_equal(d.count, 1);
  assert_int_equal(d.items[0].level, DIAG_WARNING);
  assert_int_equal(d.items[0].loc.line, 5);
  runs_free(&runs);
  diag_free(&d);
  assert_int_equal(fittest_read(&runs, "P,time\n1,-2ms\n", 0, NULL, &d), 1);
  assert_non_null(strstr(d.items[0].message, "negative"));
  runs_free(&runs);
  diag_free(&d);
  assert_int_equal(fittest_read(&runs, "P,seconds\n1,2\n", 0, NULL, &d), 1);
  assert_non_null(strstr(d.items[0].message, "no `time` column"));
  runs_free(&runs);
  diag_free(&d);
}

/* Slow outlier runs: seeds 1..20 of the synthetic runs (5% noise), one run of each of the four
** configurations with P = 16 made 3x slower (a daemon, a page-cache miss). They are left out (and
** at most 3 of the 1920 normal runs: 4 robust spreads is 1 normal run in 16000, and a pooled spread
** of few runs is itself noisy), and every const stays within 4 of its standard errors of the truth in every seed, c (the
** per-worker cost, the smallest term) within 60% of it (at most 50% off; mean 27%). Left in, the
** 3x runs drag c up: more than 60% off in 11 of the 20 seeds, up to 237%, mean 80% (measured with
** the rejection switched off; the intervals then widen with the spread, so they still hold c). */
static void test_outliers(void **state) {
  (void)state;
  FitTest t;
  fittest_open(&t, fittest_model);
  long left_out = 0;     /* normal runs left out over the 20 seeds */
  for (int seed = 1; seed <= 20; seed++) {
    FitRng rng = {0x9E3779B97F4A7C15ULL * (uint64_t)seed};
    Runs runs;
    fittest_runs(&runs, &rng, fittest_truth);
    for (int k = 0; k < runs.config_count; k++)
      if (runs.configs[k].values[0] == 16) {
        RunsConfig *c = &runs.configs[k];
        c->times[c->count - 1] *= 3;   /* the slowest stays last: the times stay sorted */
        c->max = c->times[c->count - 1];
      }
    FitModel m;
    FitResult fit;
    char message[FIT_MESSAGE_SIZE];
    assert_int_equal(fittest_fit(&t, &runs, 0, &m, &fit, message), 0);
    long normal_left_out = fit.outliers - 4;
    for (int k = 0; k < runs.config_count; k++)
      if (runs.configs[k].values[0] == 16) assert_true(fit.kept[k] < runs.configs[k].count);
    assert_true(normal_left_out >= 0 && normal_left_out <= 1);
    left_out += normal_left_out;
    assert_int_equal(fit.fit_runs, 20 * FITTEST_REPS - fit.outliers);
    for (int j = 0; j < 4; j++) assert_true(fabs(fit.consts[j].value - fittest_truth[j]) <= 4 * fit.consts[j].se);
    assert_true(fabs(fit.consts[2].value - fittest_truth[2]) <= 0.6 * fittest_truth[2]);
    fittest_done(&m, &fit);
    runs_free(&runs);
  }
  fprintf(stderr, "normal runs left out as outliers: %ld of %d\n", left_out, 20 * (20 * FITTEST_REPS - 4));
  assert_true(left_out <= 3);
  fittest_close(&t);
}

/* fit_keep_runs by hand: {0.99, 1, 1.01, 1.02, 3} has median 1.01, absolute deviations {0.02,
** 0.01, 0, 0.01, 1.99}, MAD 0.01, robust sd 1.4826 * 1.206 * 0.01 = 0.0179, below the pooled floor
** 0.025 * 1.01 = 0.0253: 3 is 79 spreads off and left out; 0.99 (0.8 spreads) is kept. Two runs
** are never judged; identical runs are all kept; a configuration held out counts no outlier; times
** to two digits (0.27 0.26 0.27 0.27 0.28: a MAD of 0) keep every run (0.26 is 3.7% off: 1.5 floor
** spreads). */
static void test_keep(void **state) {
  (void)state;
  Runs runs;
  runs_init(&runs, "keep.csv");
  assert_int_equal(runs_add_column(&runs, "P"), 0);
  const double five[] = {1.0, 0.99, 3.0, 1.02, 1.01}, two[] = {1.0, 5.0}, same[] = {2.0, 2.0, 2.0};
  for (int i = 0; i < 5; i++) assert_int_equal(runs_add_row(&runs, (double[]){1}, five[i], 2 + i), 0);
  for (int i = 0; i < 2; i++) assert_int_equal(runs_add_row(&runs, (double[]){2}, two[i], 7 + i), 0);
  for (int i = 0; i < 3; i++) assert_int_equal(runs_add_row(&runs, (double[]){3}, same[i], 9 + i), 0);
  for (int i = 0; i < 5; i++) assert_int_equal(runs_add_row(&runs, (double[]){4}, five[i] * 2, 12 + i), 0);
  const double rounded[] = {0.27, 0.26, 0.27, 0.27, 0.28};
  for (int i = 0; i < 5; i++) assert_int_equal(runs_add_row(&runs, (double[]){5}, rounded[i], 17 + i), 0);
  assert_int_equal(runs_group(&runs), 0);
  FitKeep keep[5];
  int held_out[5] = {0, 0, 0, 1, 0};
  assert_int_equal(fit_keep_runs(&runs, held_out, keep), 1);
  assert_int_equal(keep[0].first, 0);
  assert_int_equal(keep[0].count, 4);
  assert_true(fabs(keep[0].mean - 1.005) < 1e-12);
  assert_int_equal(keep[1].count, 2);
  assert_int_equal(keep[2].count, 3);
  assert_true(keep[2].sd == 0);
  assert_int_equal(keep[3].count, 4);   /* judged, but not counted: not fitted on */
  assert_int_equal(keep[4].count, 5);
  runs_free(&runs);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_coverage),
    cmocka_unit_test(test_exact),
    cmocka_unit_test(test_holdout),
    cmocka_unit_test(test_outliers),
    cmocka_unit_test(test_keep),
    cmocka_unit_test(test_collinear),
    cmocka_unit_test(test_bound),
    cmocka_unit_test(test_extrap_example),
    cmocka_unit_test(test_extrap_two_params),
    cmocka_unit_test(test_csv),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
