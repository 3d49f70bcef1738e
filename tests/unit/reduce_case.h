/*
** reduce_case.h — what the reduction's unit tests share (support_reduce.c): reduce a model
** given as text and evaluate its bounds at chosen param values.
*/
#ifndef PAMC_TEST_REDUCE_CASE_H
#define PAMC_TEST_REDUCE_CASE_H

/* Relative tolerance of an evaluated bound against its hand derivation (a few roundings). */
#define REDTEST_REL_TOL 1e-9

#include "check.h"
#include "reduce.h"

/* A reduced model and the values of its symbols (consts at their values, params as given). */
typedef struct RedtestRun {
  DiagList diags;          /* errors of loading and reducing */
  Program prog;            /* the model */
  ReduceResult r;          /* its reduction */
  AlgInterval *env;        /* value per symbol id (malloc) */
} RedtestRun;

/* Loads, checks and reduces text (failing the test on an error), with the params named in names
** set to values (others and the consts at their values); free with redtest_close. */
void redtest_open(RedtestRun *run, const char *text, int n, const char *const *names,
                  const double *values);
void redtest_close(RedtestRun *run);

/* Reduces text and evaluates T_lo and T_hi with the consts at their values and each param named
** in names set to values (others at their defaults). */
void redtest_eval(const char *text, int n, const char *const *names, const double *values,
                  double *lo, double *hi);

/* Fails the test unless got is want within REDTEST_REL_TOL. */
void redtest_near(double got, double want);

/* Reduces text as redtest_eval does and fails the test unless lo and hi are want_lo and want_hi
** (their hand derivations) and lo <= sim <= hi (sim: the simulated time), within rounding. */
void redtest_expect(const char *text, int n, const char *const *names, const double *values,
                    double want_lo, double sim, double want_hi);

/* Reduces text as redtest_eval does and fails the test unless lo is want_lo (its hand derivation;
** not checked when want_lo < 0) and lo <= sim <= hi (sim: the simulated time), within rounding.
** redtest_expect_lo1: the same with one param set. */
void redtest_expect_lo(const char *text, int n, const char *const *names, const double *values,
                       double want_lo, double sim);
void redtest_expect_lo1(const char *text, const char *name, double value, double want_lo, double sim);

#endif
