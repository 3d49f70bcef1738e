/*
** sim.c — the simulator's entry point (sim.h): K runs of one scenario, each compiled afresh (a
** random scenario draws new values per run), and their statistics gathered into a report.
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sim_internal.h"

/* Run r uses the generator seeded with seed + r * this (splitmix64 spreads neighbouring seeds). */
#define SIM_RUN_SEED_STRIDE 0x632be59bd9b4e019ULL

static SimResourceReport *report_slot(SimReport *report, const SimRes *res) {
  for (int i = 0; i < report->resource_count; i++)
    if (report->resources[i].name == res->decl->name.name) return &report->resources[i];
  SimResourceReport *more = realloc(report->resources,
                                    (size_t)(report->resource_count + 1) * sizeof *more);
  if (!more) {
    fputs("pamc: out of memory\n", stderr);
    abort();
  }
  report->resources = more;
  SimResourceReport *slot = &more[report->resource_count++];
  memset(slot, 0, sizeof *slot);
  slot->name = res->decl->name.name;
  slot->family = res->family;
  return slot;
}

int sim_simulate(const Decl *entry, const SimOptions *opts, SimReport *report, SimError *err) {
  memset(report, 0, sizeof *report);
  int runs = opts->runs > 0 ? opts->runs : 1;
  struct timespec start, end;
  clock_gettime(CLOCK_MONOTONIC, &start);
  double total = 0;
  for (int r = 0; r < runs; r++) {
    SimRng rng;
    sim_rng_seed(&rng, opts->seed + (uint64_t)r * SIM_RUN_SEED_STRIDE);
    SimProgram program;
    int status = sim_compile(&program, entry, opts->scenario, &rng, err);
    SimRunResult result = {0, 0};
    if (status == 0) status = sim_engine_run(&program, &rng, opts, r, &result, err);
    if (status != 0) {
      sim_program_free(&program);
      sim_report_free(report);
      return -1;
    }
    double makespan = result.makespan;
    if (r == 0 || makespan < report->time_min) report->time_min = makespan;
    if (r == 0 || makespan > report->time_max) report->time_max = makespan;
    total += makespan;
    report->events += result.events;
    for (int i = 0; i < program.resource_count; i++) {
      const SimRes *res = program.resources[i];
      SimResourceReport *slot = report_slot(report, res);
      slot->members = res->size;
      slot->servers = res->ps ? 0 : res->servers;
      slot->ps = res->ps;
      slot->capacity = res->capacity;
      if (res->members_used > slot->members_used) slot->members_used = res->members_used;
      double capacity = res->capacity * makespan;
      if (capacity > 0) {
        if (res->size > 0) slot->utilisation += res->busy_time / (capacity * (double)res->size);
        slot->max_member_utilisation += res->busiest / capacity;
      }
      slot->waiting += res->waiting;
      slot->requests += res->requests;
    }
    sim_program_free(&program);
  }
  report->runs = runs;
  report->time_mean = total / runs;
  if (report->time_mean < report->time_min) report->time_mean = report->time_min;  /* rounding */
  if (report->time_mean > report->time_max) report->time_mean = report->time_max;
  for (int i = 0; i < report->resource_count; i++) {
    SimResourceReport *slot = &report->resources[i];
    slot->utilisation /= runs;
    slot->max_member_utilisation /= runs;
    slot->waiting /= runs;
    slot->requests /= runs;
  }
  clock_gettime(CLOCK_MONOTONIC, &end);
  report->wall_seconds = (double)(end.tv_sec - start.tv_sec) + 1e-9 * (double)(end.tv_nsec - start.tv_nsec);
  return 0;
}

void sim_report_free(SimReport *report) {
  free(report->resources);
  report->resources = NULL;
  report->resource_count = 0;
}

const char *sim_time_unit(double seconds, double *scale) {
  /* past 1000 s, minutes (16.67 min); past 100 minutes, hours (1.667 h) */
  static const struct { double scale, from; const char *unit; } units[] = {
    {3600, 6000, "h"}, {60, 1000, "min"}, {1, 0.9995, "s"}, {1e-3, 0.9995e-3, "ms"},
    {1e-6, 0.9995e-6, "us"}, {1e-9, 0.9995e-9, "ns"}, {1e-12, 0, "ps"}
  };
  double magnitude = fabs(seconds);
  int u = 2;
  if (magnitude != 0 && isfinite(seconds)) {
    u = 0;
    while (u < 6 && magnitude < units[u].from) u++;
  }
  *scale = units[u].scale;
  return units[u].unit;
}

char *sim_format_time(double seconds, char *buf, int size) {
  if (seconds == 0 || !isfinite(seconds)) {
    snprintf(buf, (size_t)size, "%g s", seconds);
    return buf;
  }
  double scale;
  const char *unit = sim_time_unit(seconds, &scale);
  snprintf(buf, (size_t)size, "%.4g %s", seconds / scale, unit);
  return buf;
}
