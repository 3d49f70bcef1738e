/*
** sim_bench.c — speed of the reference simulator (lang/sim/sim.h): events per second on a halo-style
** model with a handful of threads, and P = 10^5 processes of 100 activities each on shared
** resources (heap of 10^5 pending events). Prints events, wall time and events per second.
** Usage: sim_bench [scale]   (scale < 1 shrinks the models, for a quick look)
*/
#include <stdio.h>
#include <stdlib.h>

#include "check.h"
#include "program.h"
#include "sim.h"

typedef struct BenchCase {
  const char *name;         /* what it measures */
  const char *model;        /* model text with one %ld for the size */
  long size;                /* size at scale 1 */
} BenchCase;

static const BenchCase cases[] = {
  {"few threads (8 workers, halo step, events/s)",
   "param iters = %ld;\nresource cpu[8];\nresource bus;\nconst t = [0.9ns, 1.1ns];\n"
   "process step(p) { use(cpu[p], 125000 * t); delay(10ns); use(bus, 2us + 8192 * 0.5ns) }\n"
   "process main { repeat (iters) par (p = 0, 7) step(p) }\n",
   250000},
  {"long chain (one thread, seq of delays, events/s)",
   "param n = %ld;\nprocess main { seq (i = 1, n) delay(1ns + (i %% 3) * 1ns) }\n",
   20000000},
  {"P = 10^5 processes x 100 activities on shared resources",
   "param P = %ld;\nresource cpu[1000];\nresource mem = fcfs(64);\n"
   "process worker(p) { repeat (50) { use(cpu[p %% 1000], 1us); use(mem, 100ns) } }\n"
   "process main { par (p = 0, P - 1) worker(p) }\n",
   100000},
};

static int run_case(const BenchCase *bc, double scale) {
  char text[1024];
  long size = (long)(bc->size * scale);
  if (size < 1) size = 1;
  snprintf(text, sizeof text, bc->model, size);
  DiagList diags;
  diag_init(&diags);
  Program prog;
  int status = 1;
  if (program_load_string(&prog, &diags, "bench.pam", text, NULL) == PROGRAM_OK &&
      check_program(&prog) == 0 && program_entry(&prog)) {
    SimOptions opts = {SIM_SCENARIO_MID, 1, 1, NULL, NULL, 0, 0};
    SimReport report;
    SimError err;
    if (sim_simulate(program_entry(&prog), &opts, &report, &err) == 0) {
      char t[32];
      printf("%-58s size %-9ld events %-10llu wall %7.3f s  %6.2f M events/s  (simulated %s)\n",
             bc->name, size, (unsigned long long)report.events, report.wall_seconds,
             report.events / report.wall_seconds / 1e6, sim_format_time(report.time_mean, t, sizeof t));
      sim_report_free(&report);
      status = 0;
    } else {
      fprintf(stderr, "sim_bench: %d:%d: %s\n", err.loc.line, err.loc.col, err.message);
    }
  }
  diag_print(&diags, stderr);
  program_free(&prog);
  diag_free(&diags);
  return status;
}

int main(int argc, char **argv) {
  double scale = argc > 1 ? atof(argv[1]) : 1.0;
  if (!(scale > 0)) scale = 1.0;
  int failed = 0;
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) failed |= run_case(&cases[i], scale);
  return failed;
}
