/*
** reduce_case.h — what the reduction's unit tests share (support_reduce.c): reduce a model
** given as text and evaluate its bounds at chosen param values.
*/
#ifndef PAMC_TEST_REDUCE_CASE_H
#define PAMC_TEST_REDUCE_CASE_H

/* Relative tolerance of an evaluated bound against its hand derivation (a few roundings). */
#define REDTEST_REL_TOL 1e-9

/* Reduces text and evaluates T_lo and T_hi with the consts at their values and each param named
** in names set to values (others at their defaults). */
void redtest_eval(const char *text, int n, const char *const *names, const double *values,
                  double *lo, double *hi);

/* Fails the test unless got is want within REDTEST_REL_TOL. */
void redtest_near(double got, double want);

#endif
