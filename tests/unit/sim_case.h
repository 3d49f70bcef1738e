/*
** sim_case.h — what the simulator's unit tests share (support_sim.c): load a model from text,
** check it, simulate it under one scenario, and compare times with a hand derivation.
** Include after <cmocka.h>.
*/
#ifndef PAMC_SIM_CASE_H
#define PAMC_SIM_CASE_H

#include <stdint.h>

#include "check.h"
#include "program.h"
#include "sim.h"

/* Relative tolerance of a simulated time against its hand derivation (sums of a few doubles). */
#define SIMTEST_REL_TOL 1e-9

/* A loaded, checked model and the result of simulating it. */
typedef struct SimCase {
  DiagList diags;           /* loader and checker messages */
  Program prog;             /* the model */
  int status;               /* sim_simulate's result */
  SimReport report;         /* status 0 */
  SimError err;             /* status -1 */
} SimCase;

/* Loads text, resolves it, simulates (even when the value checks complained: run-time errors
** are what some tests look for). Names must resolve. */
void simtest_run(SimCase *c, const char *text, SimScenario scenario, int runs, uint64_t seed);
void simtest_done(SimCase *c);
/* Fails the test when got is not want within SIMTEST_REL_TOL. */
void simtest_assert_close(double got, double want);
/* Makespan of a deterministic model (mid scenario, one run). */
double simtest_time(const char *text);
/* The report of resource name (fails the test when there is none). */
const SimResourceReport *simtest_resource(const SimCase *c, const char *name);

#endif
