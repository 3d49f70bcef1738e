/*
** cmd_calibrate.c — `pamc calibrate`: its options, the default output path, progress lines on
** stderr; the work itself is calibrate/calibrate.h.
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "atomic_file.h"
#include "calibrate.h"
#include "machine_file.h"
#include "commands.h"

#define CMD_LINE_MAX 1024          /* the command line as recorded in the machine file header */
#define CAL_MPI_RANKS_DEFAULT 2    /* one pair: the message constants need no more */
#define CAL_MPI_RANKS_MAX 16       /* 15 pairs x 23 sizes: what a machine file holds (CAL_MAX_SERIES) */

static void usage(FILE *out) {
  fputs("usage: pamc calibrate [-o OUT.mach] [--reps K] [--quick] [--history DIR] [--mpi]\n"
        "                      [--mpi-ranks N] [--help]\n\n"
        "Runs micro-benchmarks on this machine (arithmetic, memory, threads, messages between\n"
        "processes) and writes a machine file of interval constants with typical values\n"
        "([min, max] typ median): t_OP_TYPE (latency) and t_OP_TYPE_tp (throughput), t_sqrt_double,\n"
        "t_exp_double, t_log_double, t_cvt_*, t_flop_vec, t_flop_blas, a blocked product by order\n"
        "and threads (t_flop_vec_N, t_flop_vec_parT_N, _plain; fn t_flop_vec_shared(n, threads));\n"
        "t_load_lat_SIZE with fn t_load_lat(ws_bytes), t_branch_miss; t_page_fault(_rw)(_parT)\n"
        "with fn t_page_fault_shared(threads), page_bytes; t_read/write/copy_LEVEL and\n"
        "a working-set sweep t_OP_SIZE with fn t_read(ws_bytes), t_write, t_copy (and _vec),\n"
        "the same under T threads at once t_OP_parT_SIZE with fn t_read_shared(ws_bytes, threads)\n"
        "(write, copy); t_lock, t_handoff, t_thread, t_barrier_T and t_omp_for_T for T = 1 .. the\n"
        "CPUs (t_barrier, t_omp_for, fn t_barrier_of(threads), t_omp_for_of); cores_eff,\n"
        "membw_eff, n_cpus and resource cores = ps(cores_eff); latency and byte_time (a fitted\n"
        "line) with fn send(bytes), the measured one-way times t_msg_SIZE with\n"
        "fn send_measured(bytes); the generic t_flop and t_point the bundled models use.\n"
        "Every benchmark takes its samples in 5 interleaved rounds spread over the run.\n\n"
        "  -o OUT.mach     output (default ${XDG_CONFIG_HOME:-$HOME/.config}/pamc/machine.mach)\n"
        "  --reps K        repetitions per benchmark (default 15, with --quick 5; 1..200)\n"
        "  --quick         fewer and shorter samples, coarser sizes, memory sets up to 64 MiB\n"
        "  --history DIR   keep the last 100 samples of each benchmark in DIR and merge them in\n"
        "  --mpi           also message, barrier and allreduce times between MPI ranks: runs\n"
        "                  `$PAMC_MPIRUN -np N pamc-mpi-bench` (PAMC_MPIRUN default mpirun; add a\n"
        "                  hostfile there to measure across nodes), writes mpi_latency,\n"
        "                  mpi_byte_time, fn mpi_send(bytes), mpi_t_msg_SIZE,\n"
        "                  fn mpi_send_measured(bytes), mpi_barrier, mpi_allreduce\n"
        "  --mpi-ranks N   ranks for --mpi (default 2, 2..16; implies --mpi); rank 0 ping-pongs\n"
        "                  with each other rank in turn; mpi_send holds for every pair, and each\n"
        "                  pair gets its own mpi_send_0_R when the pairs differ\n"
        "  --help          this text\n\n"
        "Environment: PAMC_MPIRUN (launcher command), PAMC_MPI_BENCH (path of pamc-mpi-bench;\n"
        "default: next to the pamc binary).\n", out);
}

typedef struct ProgressState {
  double started;                 /* cal_now() at the start */
} ProgressState;

static void progress(void *user, int index, int total, const CalSeries *series) {
  const ProgressState *state = user;
  double sum = 0;
  for (size_t i = 0; i < series->count; i++) sum += series->samples[i];
  double mean = series->count ? sum / (double)series->count : 0;
  const char *unit = "";
  int unit_exp = series->kind == CAL_KIND_RATIO ? 0
                 : cal_unit_for(mean, mean, series->kind == CAL_KIND_PER_BYTE, &unit);
  int width = total >= 100 ? 3 : 2;     /* the index as wide as the total */
  fprintf(stderr, "calibrate: [%*d/%d] %-15s mean %8.4g%s%s%s  (%zu samples, %.1f s)\n", width, index,
          total, series->name, mean * pow(10, unit_exp), *unit ? " " : "", unit,
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

static int parse_int(const char *text, long min, long max, int *value) {
  char *end;
  long k = strtol(text, &end, 10);
  if (!text[0] || *end || k < min || k > max) return -1;
  *value = (int)k;
  return 0;
}

static int parse_reps(const char *text, int *reps) {
  return parse_int(text, 1, CAL_MAX_REPS, reps);
}

/* PAMC_MPI_BENCH, else pamc-mpi-bench in the directory of this binary. */
static void mpi_bench_path(char *path, size_t size) {
  const char *env = getenv("PAMC_MPI_BENCH");
  if (env && env[0]) {
    snprintf(path, size, "%s", env);
    return;
  }
  ssize_t n = readlink("/proc/self/exe", path, size - 1);
  if (n <= 0) {
    snprintf(path, size, "pamc-mpi-bench");
    return;
  }
  path[n] = 0;
  char *slash = strrchr(path, '/');
  size_t dir = slash ? (size_t)(slash - path) + 1 : 0;
  if (dir + sizeof "pamc-mpi-bench" <= size) snprintf(path + dir, size - dir, "pamc-mpi-bench");
}

int cmd_calibrate(int argc, char **argv) {
  const char *out = NULL, *history = NULL;
  int quick = 0, reps = 0, mpi_ranks = 0;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
      usage(stdout);
      return EXIT_OK;
    } else if (!strcmp(a, "--quick")) {
      quick = 1;
    } else if (!strcmp(a, "--mpi")) {
      if (!mpi_ranks) mpi_ranks = CAL_MPI_RANKS_DEFAULT;
    } else if (!strcmp(a, "-o") || !strcmp(a, "--reps") || !strcmp(a, "--history") ||
               !strcmp(a, "--mpi-ranks")) {
      if (i + 1 >= argc) {
        fprintf(stderr, "pamc calibrate: %s needs a value\n", a);
        return EXIT_USAGE;
      }
      const char *value = argv[++i];
      if (!strcmp(a, "-o")) out = value;
      else if (!strcmp(a, "--history")) history = value;
      else if (!strcmp(a, "--mpi-ranks")) {
        if (parse_int(value, 2, CAL_MPI_RANKS_MAX, &mpi_ranks)) {
          fprintf(stderr, "pamc calibrate: --mpi-ranks wants an integer from 2 to %d, not '%s'\n",
                  CAL_MPI_RANKS_MAX, value);
          return EXIT_USAGE;
        }
      }
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
  char bench_path[CAL_PATH_MAX];
  if (mpi_ranks) {
    const char *mpirun = getenv("PAMC_MPIRUN");
    mpi_bench_path(bench_path, sizeof bench_path);
    opt.mpi_ranks = mpi_ranks;
    opt.mpi_bench = bench_path;
    if (mpirun && mpirun[0]) opt.mpirun = mpirun;
  }
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
