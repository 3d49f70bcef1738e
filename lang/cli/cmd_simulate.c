/*
** cmd_simulate.c — `pamc simulate FILE [-m M] [-D ...] [-e NAME] [--scenario lo|mid|hi|random|typ]
** [--runs K] [--seed S] [--format table|csv|json]`: loads and checks the model, runs the reference
** simulation (sim.h) and prints the makespan over the runs and, per resource, its utilisation and
** total waiting time. A family is one row: its members aggregated (utilisation over all members,
** plus the busiest member's).
*/
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "cli.h"
#include "commands.h"
#include "sim.h"
#include "sweep.h"

static const char usage[] =
  "usage: pamc simulate FILE [-m MACHINE]... [-D NAME=VALUE]... [-e NAME]\n"
  "                     [--scenario lo|mid|hi|random|typ] [--runs K] [--seed S]\n"
  "                     [--format table|csv|json] [-o OUT] [--max-events N] [--max-memory SIZE]\n"
  "\n"
  "Runs the reference discrete-event simulation of the entry process (docs/language.md §6) and\n"
  "prints its time (time_min, time_mean, time_max over the runs) and, per resource, the\n"
  "utilisation (busy server-time / (servers x members x makespan)) and the total waiting time,\n"
  "both averaged over the runs. A family is one row: its members together, with the busiest\n"
  "member's utilisation beside.\n"
  "\n"
  "options:\n"
  "  -m FILE          machine file (repeatable; later files override earlier ones)\n"
  "  -D NAME=VALUE    set a param or const (repeatable)\n"
  "  -e NAME          entry process (default main)\n"
  "  --scenario S     values of the intervals: lo, mid (default), hi, random (every interval\n"
  "                   literal drawn uniformly once per run), or typ (each literal's typical\n"
  "                   value, `[a, b] typ m`; the midpoint where it has none)\n"
  "  --runs K         number of runs (default 1)\n"
  "  --seed S         seed of choose() and random scenarios (default 1)\n"
  "  --max-events N   refuse a simulation estimated (from the model's loop counts, before it\n"
  "                   runs) to take more than N events over all runs (default 1e9); on a\n"
  "                   terminal, a long run's progress lines give the part done and an ETA\n"
  "  --max-memory SIZE  stop a run whose memory passes SIZE bytes (suffix k, M or G: 500M, 4G),\n"
  "                   with an error at the par whose branches took it (default: the memory the\n"
  "                   machine has available when the run starts; about 1 kB per branch alive)\n"
  "  --format F       table (default; times with units), csv or json (seconds)\n"
  "  -o OUT           write the results to OUT (whole or not at all) instead of stdout\n"
  "  --color WHEN     colour messages: auto (a terminal, unless NO_COLOR), always, never\n"
  "  -q, --quiet      no notes (default machine file; a machine file overriding the model) and no\n"
  "                   progress lines\n"
  "  --help           this text\n"
  "\n"
  "csv: a line `time_min,time_mean,time_max,runs` and its values, an empty line, then\n"
  "`resource,members,servers,utilisation,max_member_utilisation,waiting,requests` and one line\n"
  "per resource.\n"
  "\n"
  "Exit status: 0 ok, 1 model error (also at run time: negative duration, index out of range,\n"
  "...), 2 usage error, 3 unreadable file.\n";

typedef enum Format { FORMAT_TABLE, FORMAT_CSV, FORMAT_JSON } Format;

/* Runs at most this many times (each run is a full simulation; more is a typo). */
#define SIMULATE_MAX_RUNS 1000000
/* Events a simulation may take by default (over all runs): about a minute or two at this
** machine's speed; --max-events raises it. */
#define SIMULATE_MAX_EVENTS 1e9

static int usage_error(const char *message, const char *what) {
  fprintf(stderr, "pamc simulate: %s %s (see pamc simulate --help)\n", message, what);
  return EXIT_USAGE;
}

/* SIZE of --max-memory: a positive number of bytes, with an optional suffix k, M or G (10^3, 10^6,
** 10^9). 1 and *bytes, or 0 when text is not one. */
static int parse_size(const char *text, double *bytes) {
  char *end;
  double v = text && *text ? strtod(text, &end) : -1;
  if (!text || !*text || end == text) return 0;
  double unit = !*end ? 1 : !strcmp(end, "k") ? 1e3 : !strcmp(end, "M") ? 1e6 : !strcmp(end, "G") ? 1e9 : -1;
  if (unit < 0 || !(v > 0) || !isfinite(v * unit)) return 0;
  *bytes = v * unit;
  return 1;
}

static int parse_count(const char *text, unsigned long long limit, unsigned long long *out) {
  if (!text || !*text || *text == '-') return 0;
  char *end;
  errno = 0;
  unsigned long long v = strtoull(text, &end, 0);
  if (errno || *end || v > limit) return 0;
  *out = v;
  return 1;
}

/* What the progress line knows beyond the run's report. */
typedef struct Progress {
  double estimate;          /* events of one run, estimated (sim_estimate_events), -1: unknown */
  int terminal;             /* stderr is a terminal: the line gives the part done and an ETA */
} Progress;

static void progress_line(void *ctx, const SimProgress *p) {
  const Progress *progress = ctx;
  char now[32], eta[64] = "";
  if (progress->terminal && progress->estimate > 0 && p->events > 0) {
    double total = progress->estimate * p->runs, done = progress->estimate * p->run + (double)p->events;
    double left = p->elapsed * (total - done) / (double)p->events;   /* at this run's rate */
    if (done < total)
      snprintf(eta, sizeof eta, ", about %.0f%% done, ETA %s", 100 * done / total,
               sim_format_time(left, now, sizeof now));
  }
  fprintf(stderr, "pamc simulate: run %d/%d: %.1f s, %" PRIu64 " events, simulated time %s%s\n",
          p->run + 1, p->runs, p->elapsed, p->events, sim_format_time(p->now, now, sizeof now), eta);
}


static const char *scenario_names[] = {"lo", "mid", "hi", "random", "typ"};

/* The servers column: the multiplicity m of fcfs(m), or the capacity c of ps(c) (the shortest
** exact decimal in csv and json, %g in the table). */
static const char *servers_text(const SimResourceReport *x, int exact, char *buf, int size) {
  char number[CLI_NUMBER_SIZE];
  if (x->ps && exact) snprintf(buf, (size_t)size, "%s", cli_number(x->capacity, number));
  else if (x->ps) snprintf(buf, (size_t)size, "%g", x->capacity);
  else snprintf(buf, (size_t)size, "%" PRId64, x->servers);
  return buf;
}

static void print_report(FILE *out, const SimReport *r, Format format, SimScenario scenario,
                         uint64_t seed) {
  char a[32], b[32], c[32], d[CLI_NUMBER_SIZE], m[40];
  if (format == FORMAT_CSV) {
    fprintf(out, "time_min,time_mean,time_max,runs\n%s,%s,%s,%d\n\n", cli_number(r->time_min, a),
            cli_number(r->time_mean, b), cli_number(r->time_max, c), r->runs);
    fprintf(out, "resource,members,servers,utilisation,max_member_utilisation,waiting,requests\n");
    for (int i = 0; i < r->resource_count; i++) {
      const SimResourceReport *x = &r->resources[i];
      fprintf(out, "%s,%" PRId64 ",%s,%s,%s,%s,%s\n", x->name, x->members,
              servers_text(x, 1, m, sizeof m), cli_number(x->utilisation, a),
              cli_number(x->max_member_utilisation, b), cli_number(x->waiting, c),
              cli_number(x->requests, d));
    }
    return;
  }
  if (format == FORMAT_JSON) {
    fprintf(out, "{\"scenario\": \"%s\", \"runs\": %d, \"seed\": %" PRIu64 ", \"events\": %" PRIu64
            ",\n \"time_min\": %s, \"time_mean\": %s, \"time_max\": %s,\n \"resources\": [",
            scenario_names[scenario], r->runs, seed, r->events, cli_number(r->time_min, a),
            cli_number(r->time_mean, b), cli_number(r->time_max, c));
    for (int i = 0; i < r->resource_count; i++) {
      const SimResourceReport *x = &r->resources[i];
      fprintf(out, "%s\n  {\"name\": ", i ? "," : "");
      cli_json_string(out, x->name);
      fprintf(out, ", \"family\": %s, \"members\": %" PRId64 ",%s \"servers\": %s"
              ", \"utilisation\": %s, \"max_member_utilisation\": %s, \"waiting\": %s"
              ", \"requests\": %s}", x->family ? "true" : "false", x->members,
              x->ps ? " \"discipline\": \"ps\"," : "", servers_text(x, 1, m, sizeof m),
              cli_number(x->utilisation, a), cli_number(x->max_member_utilisation, b),
              cli_number(x->waiting, c), cli_number(x->requests, d));
    }
    fprintf(out, "%s]}\n", r->resource_count ? "\n " : "");
    return;
  }
  fprintf(out, "scenario %s, %d run%s, seed %" PRIu64 ", %" PRIu64 " events in %.2f s\n\n",
          scenario_names[scenario], r->runs, r->runs == 1 ? "" : "s", seed, r->events,
          r->wall_seconds);
  fprintf(out, "%-14s %-14s %s\n", "time_min", "time_mean", "time_max");
  fprintf(out, "%-14s %-14s %s\n", sim_format_time(r->time_min, a, sizeof a),
          sim_format_time(r->time_mean, b, sizeof b), sim_format_time(r->time_max, c, sizeof c));
  if (!r->resource_count) return;
  int width = 8;
  for (int i = 0; i < r->resource_count; i++) {
    int n = (int)strlen(r->resources[i].name) + (r->resources[i].family ? 2 : 0);
    if (n > width) width = n;
  }
  fprintf(out, "\n%-*s %10s %8s %12s %12s %14s\n", width, "resource", "members", "servers",
          "utilisation", "busiest", "waiting");
  for (int i = 0; i < r->resource_count; i++) {
    const SimResourceReport *x = &r->resources[i];
    char name[256];
    snprintf(name, sizeof name, "%s%s", x->name, x->family ? "[]" : "");
    char busiest[32];
    if (x->family) snprintf(busiest, sizeof busiest, "%.1f%%", 100 * x->max_member_utilisation);
    else snprintf(busiest, sizeof busiest, "-");
    fprintf(out, "%-*s %10" PRId64 " %8s %11.1f%% %12s %14s\n", width, name, x->members,
            servers_text(x, 0, m, sizeof m), 100 * x->utilisation, busiest,
            sim_format_time(x->waiting, a, sizeof a));
  }
}

static int simulate_file(const char *path, const CliOptions *opts, const SimOptions *sim,
                         Format format, double max_events) {
  DiagList diags;
  diag_init(&diags);
  cli_diags(&diags, opts);
  ProgramOptions popts = cli_program_options(opts);
  Program prog;
  int result = cli_load_checked(&prog, &diags, path, &popts, NULL);
  Decl *entry = NULL;
  if (result == EXIT_OK) {
    entry = program_entry(&prog);
    if (!entry) {
      diag_report(&diags, DIAG_ERROR, (SrcLoc){path, 1, 1, 1, 1}, "no entry process '%s'",
                  prog.entry_name ? prog.entry_name : "main");
      result = EXIT_MODEL;
    }
  }
  Progress progress = {sim_estimate_events(entry), isatty(fileno(stderr))};
  if (result == EXIT_OK && progress.estimate * sim->runs > max_events) {
    char runs[64] = "";
    if (sim->runs > 1) snprintf(runs, sizeof runs, " (%d runs of about %.3g)", sim->runs, progress.estimate);
    fprintf(stderr, "pamc simulate: this model takes about %.3g events%s at these values (from its "
            "loop counts), beyond --max-events %.3g: give smaller params with -D, predict instead "
            "(pamc predict takes no time per event), or raise --max-events\n",
            progress.estimate * sim->runs, runs, max_events);
    result = EXIT_USAGE;
  }
  SimOptions run = *sim;
  run.progress_ctx = &progress;
  if (result == EXIT_OK) {
    SimReport report;
    SimError err;
    if (sim_simulate(entry, &run, &report, &err) != 0) {
      diag_report(&diags, DIAG_ERROR, err.loc, "%s", err.message);
      for (int i = 0; i < err.note_count; i++)
        diag_report(&diags, DIAG_NOTE, err.notes[i].loc, "%s", err.notes[i].message);
      result = EXIT_MODEL;
    } else if (!isfinite(report.time_max)) {   /* as predict: a time past 1.8e308 s is an error */
      diag_report(&diags, DIAG_ERROR, entry->loc, "the simulated time is not finite: durations add up "
                  "beyond the largest number (about 1.8e308 s)");
      sim_report_free(&report);
      result = EXIT_MODEL;
    } else {
      print_report(stdout, &report, format, sim->scenario, sim->seed);
      sim_report_free(&report);
    }
  }
  diag_print(&diags, stderr);
  program_free(&prog);
  diag_free(&diags);
  return result;
}

int cmd_simulate(int argc, char **argv) {
  const char *scenario_text = NULL, *runs_text = NULL, *seed_text = NULL, *max_text = NULL;
  const char *memory_text = NULL;
  const CliExtra extras[] = {
    {"--scenario", 1, &scenario_text, NULL},
    {"--runs", 1, &runs_text, NULL},
    {"--seed", 1, &seed_text, NULL},
    {"--max-events", 1, &max_text, NULL},
    {"--max-memory", 1, &memory_text, NULL},
  };
  const CliSpec spec = {"simulate", usage, extras, 5, 1, 1, 1};
  CliOptions opts;
  int status = cli_parse(&opts, &spec, argc, argv);
  if (status != EXIT_OK || opts.help) {
    cli_free(&opts);
    return status;
  }
  SimOptions sim = {SIM_SCENARIO_MID, 1, 1, progress_line, NULL, 0, 0};
  if (opts.quiet) sim.progress_fn = NULL;   /* -q: nothing on stderr but errors */
  Format format = FORMAT_TABLE;
  unsigned long long value;
  if (scenario_text) {
    int found = -1;
    for (int i = 0; i < (int)(sizeof scenario_names / sizeof *scenario_names); i++)
      if (!strcmp(scenario_text, scenario_names[i])) found = i;
    if (found < 0) status = usage_error("unknown scenario", scenario_text);
    else sim.scenario = (SimScenario)found;
  }
  if (status == EXIT_OK && runs_text) {
    if (!parse_count(runs_text, SIMULATE_MAX_RUNS, &value) || value < 1)
      status = usage_error("--runs wants a count from 1 to 1000000, not", runs_text);
    else sim.runs = (int)value;
  }
  double max_events = SIMULATE_MAX_EVENTS;
  if (status == EXIT_OK && max_text) {
    char *end;
    max_events = strtod(max_text, &end);
    if (!*max_text || *end || !(max_events >= 1))
      status = usage_error("--max-events wants a count of at least 1 (1e9, 5000000), not", max_text);
  }
  if (status == EXIT_OK && memory_text && !parse_size(memory_text, &sim.memory_limit))
    status = usage_error("--max-memory wants a positive size in bytes (500M, 4G, 1e9), not", memory_text);
  if (status == EXIT_OK && seed_text) {
    if (!parse_count(seed_text, UINT64_MAX, &value))
      status = usage_error("--seed wants a non-negative integer, not", seed_text);
    else sim.seed = value;
  }
  if (status == EXIT_OK && opts.format) {
    if (!strcmp(opts.format, "table")) format = FORMAT_TABLE;
    else if (!strcmp(opts.format, "csv")) format = FORMAT_CSV;
    else if (!strcmp(opts.format, "json")) format = FORMAT_JSON;
    else status = usage_error("unknown format (table, csv, json):", opts.format);
  }
  for (int i = 0; i < opts.define_count && status == EXIT_OK; i++)
    if (sweep_is_sweep(opts.defines[i].value)) {
      fprintf(stderr, "pamc simulate: -D %s is a sweep; sweeps are for predict (pamc predict %s -D %s); "
              "simulate runs one point: give each name one value\n", opts.defines[i].raw, opts.files[0],
              opts.defines[i].raw);
      status = EXIT_USAGE;
    }
  CliOutput out;
  if (status == EXIT_OK) status = cli_output_begin(&out, "simulate", opts.output);
  if (status == EXIT_OK)
    status = cli_output_end(&out, "simulate", simulate_file(opts.files[0], &opts, &sim, format, max_events));
  cli_free(&opts);
  return status;
}
