/*
** support_sim.c — the simulator tests' helpers (sim_case.h): a model from text to a report.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "sim_case.h"

void simtest_run(SimCase *c, const char *text, SimScenario scenario, int runs, uint64_t seed) {
  memset(c, 0, sizeof *c);
  diag_init(&c->diags);
  ProgramStatus status = program_load_string(&c->prog, &c->diags, "test.pam", text, NULL);
  if (status != PROGRAM_OK) diag_print(&c->diags, stderr);
  assert_int_equal(status, PROGRAM_OK);
  check_program(&c->prog);
  Decl *entry = program_entry(&c->prog);
  assert_non_null(entry);
  SimOptions opts = {scenario, seed, runs, NULL, NULL, 0, 0};
  c->status = sim_simulate(entry, &opts, &c->report, &c->err);
  if (c->status != 0) fprintf(stderr, "sim: %d:%d: %s\n", c->err.loc.line, c->err.loc.col, c->err.message);
}

void simtest_done(SimCase *c) {
  sim_report_free(&c->report);
  program_free(&c->prog);
  diag_free(&c->diags);
}

void simtest_assert_close(double got, double want) {
  double tol = SIMTEST_REL_TOL * fabs(want) + 1e-18;
  if (fabs(got - want) > tol) fail_msg("got %.17g, want %.17g", got, want);
}

double simtest_time(const char *text) {
  SimCase c;
  simtest_run(&c, text, SIM_SCENARIO_MID, 1, 1);
  assert_int_equal(c.status, 0);
  simtest_assert_close(c.report.time_min, c.report.time_max);
  double t = c.report.time_mean;
  simtest_done(&c);
  return t;
}

const SimResourceReport *simtest_resource(const SimCase *c, const char *name) {
  for (int i = 0; i < c->report.resource_count; i++)
    if (!strcmp(c->report.resources[i].name, name)) return &c->report.resources[i];
  fail_msg("no resource %s in the report", name);
  return NULL;
}
