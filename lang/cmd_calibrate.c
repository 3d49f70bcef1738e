/*
** cmd_calibrate.c — `pamc calibrate`: its options, the default output path, progress lines on
** stderr; the work itself is calibrate/calibrate.h.
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "atomic_file.h"
#include "calibrate.h"
#include "machine_file.h"
#include "commands.h"

#define CMD_LINE_MAX 1024          /* the command line as recorded in the machine file header */

static void usage(FILE *out) {
  fputs("usage: pamc calibrate [-o OUT.mach] [--reps K] [--quick] [--history DIR] [--help]\n\n"
        "Runs micro-benchmarks on this machine (arithmetic, memory, messages between processes)\n"
        "and writes a machine file of interval constants.\n\n"
        "  -o OUT.mach     output (default ${XDG_CONFIG_HOME:-$HOME/.config}/pamc/machine.mach)\n"
        "  --reps K        repetitions per benchmark (default 15, with --quick 5; 1..200)\n"
        "  --quick         fewer and shorter samples, coarser message sizes (a few seconds)\n"
        "  --history DIR   keep the last 100 samples of each benchmark in DIR and merge them in\n"
        "  --mpi           message constants between MPI ranks (not built yet)\n"
        "  --help          this text\n", out);
}

typedef struct ProgressState {
  double started;                 /* cal_now() at the start */
} ProgressState;

static void progress(void *user, int index, int total, const CalSeries *series) {
  const ProgressState *state = user;
  double sum = 0;
  for (size_t i = 0; i < series->count; i++) sum += series->samples[i];
  double mean = series->count ? sum / (double)series->count : 0;
  const char *unit;
  int unit_exp = cal_unit_for(mean, mean, series->kind == CAL_KIND_PER_BYTE, &unit);
  fprintf(stderr, "calibrate: [%2d/%d] %-15s mean %8.4g %s%s  (%zu samples, %.1f s)\n", index,
          total, series->name, mean * pow(10, unit_exp), unit,
          series->kind == CAL_KIND_PER_BYTE ? "/B" : "", series->count, cal_now() - state->started);
}

/* ${XDG_CONFIG_HOME:-$HOME/.config}/pamc/machine.mach, creating the directory. */
static int default_output(char *path, size_t size, CalError *err) {
  const char *xdg = getenv("XDG_CONFIG_HOME"), *home = getenv("HOME");
  char dir[CAL_PATH_MAX];
  if (xdg && xdg[0]) snprintf(dir, sizeof dir, "%s/pamc", xdg);
  else if (home && home[0]) snprintf(dir, sizeof dir, "%s/.config/pamc", home);
  else return cal_fail(err, "neither XDG_CONFIG_HOME nor HOME is set: give -o OUT.mach");
  if (cal_make_dirs(dir, err)) return -1;
  if (snprintf(path, size, "%s/machine.mach", dir) >= (int)size) return cal_fail(err, "%s: path too long", dir);
  return 0;
}

static int parse_reps(const char *text, int *reps) {
  char *end;
  long k = strtol(text, &end, 10);
  if (!text[0] || *end || k < 1 || k > CAL_MAX_REPS) return -1;
  *reps = (int)k;
  return 0;
}

int cmd_calibrate(int argc, char **argv) {
  const char *out = NULL, *history = NULL;
  int quick = 0, reps = 0;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
      usage(stdout);
      return EXIT_OK;
    } else if (!strcmp(a, "--quick")) {
      quick = 1;
    } else if (!strcmp(a, "--mpi")) {
      fprintf(stderr, "pamc calibrate: --mpi is not built yet in this version (needs MPI)\n");
      return EXIT_USAGE;
    } else if (!strcmp(a, "-o") || !strcmp(a, "--reps") || !strcmp(a, "--history")) {
      if (i + 1 >= argc) {
        fprintf(stderr, "pamc calibrate: %s needs a value\n", a);
        return EXIT_USAGE;
      }
      const char *value = argv[++i];
      if (!strcmp(a, "-o")) out = value;
      else if (!strcmp(a, "--history")) history = value;
      else if (parse_reps(value, &reps)) {
        fprintf(stderr, "pamc calibrate: --reps wants an integer from 1 to %d, not '%s'\n",
                CAL_MAX_REPS, value);
        return EXIT_USAGE;
      }
    } else if (!strncmp(a, "--reps=", 7)) {
      if (parse_reps(a + 7, &reps)) {
        fprintf(stderr, "pamc calibrate: --reps wants an integer from 1 to %d, not '%s'\n",
                CAL_MAX_REPS, a + 7);
        return EXIT_USAGE;
      }
    } else if (!strncmp(a, "--history=", 10)) {
      history = a + 10;
    } else {
      fprintf(stderr, "pamc calibrate: unknown option '%s' (see pamc calibrate --help)\n", a);
      return EXIT_USAGE;
    }
  }
  if ((out && !out[0]) || (history && !history[0])) {
    fprintf(stderr, "pamc calibrate: empty path\n");
    return EXIT_USAGE;
  }
  CalOptions opt;
  cal_options_default(&opt, quick);
  if (reps) opt.reps = reps;
  opt.history_dir = history;
  char command[CMD_LINE_MAX] = "pamc";
  for (int i = 0; i < argc; i++) {
    size_t used = strlen(command);
    snprintf(command + used, sizeof command - used, " %s", argv[i]);
  }
  opt.command_line = command;
  CalError err = {""};
  char path[CAL_PATH_MAX];
  if (!out) {
    if (default_output(path, sizeof path, &err)) {
      fprintf(stderr, "pamc calibrate: %s\n", err.message);
      return EXIT_IO;
    }
    out = path;
  }
  ProgressState state = {cal_now()};
  if (cal_calibrate(&opt, out, progress, &state, &err)) {
    fprintf(stderr, "pamc calibrate: %s\n", err.message);
    return EXIT_IO;
  }
  fprintf(stderr, "calibrate: wrote %s (%.1f s)\n", out, cal_now() - state.started);
  return EXIT_OK;
}
