/*
** cal.h — calibrate's shared types: a benchmark series (the samples of one measured quantity),
** the error record every fallible function fills, the run options and the clock.
*/
#ifndef PAMC_CAL_H
#define PAMC_CAL_H

#include <stddef.h>
#include <time.h>

/* Limits, each with its reason. */
#define CAL_NAME_MAX 48           /* constant names are short identifiers like t_copy_llc */
#define CAL_BENCH_MAX 96          /* one-line description of a benchmark, for the comment */
#define CAL_ERROR_MAX 512         /* a path plus the system's reason */
#define CAL_MAX_REPS 200          /* more repetitions add minutes and nothing to [min, max] */
#define CAL_HISTORY_KEEP_MAX 1000 /* history per benchmark: enough for months of daily runs */
#define CAL_MAX_SAMPLES (CAL_MAX_REPS + CAL_HISTORY_KEEP_MAX) /* one run merged with history */
#define CAL_MAX_SERIES 1024       /* ~170 local (arithmetic, math, threads, memory, its sweep) + 30 sizes x
                                  ** 3 ops x (T - 1) of memory under T <= 8 threads + 23 message
                                  ** sizes + 15 MPI pairs x 23 */

typedef struct CalError {
  char message[CAL_ERROR_MAX];    /* what failed and why; empty when nothing failed */
} CalError;

/* How a series' samples are turned into machine-file text. */
typedef enum CalKind {
  CAL_KIND_TIME,                  /* seconds per operation: a const with a time unit */
  CAL_KIND_PER_BYTE,              /* seconds per byte: a const printed in ns */
  CAL_KIND_RATIO,                 /* a dimensionless ratio (effective cores): a plain number */
  CAL_KIND_FIT_POINT              /* one-way message time at size x: input of a fit, no const */
} CalKind;

/* Which section of the machine file a series belongs to. */
typedef enum CalGroup {
  CAL_GROUP_LOCAL,                /* this machine: arithmetic, memory, socketpair messages */
  CAL_GROUP_MPI                   /* between MPI ranks (--mpi) */
} CalGroup;

typedef struct CalSeries {
  char name[CAL_NAME_MAX];        /* constant name (t_add_int) or fit point name (msg_1024) */
  char bench[CAL_BENCH_MAX];      /* what was measured and how it is bound, for the comment */
  CalKind kind;                   /* how the samples become machine-file text */
  CalGroup group;                 /* the section it is written in */
  int peer;                       /* CAL_GROUP_MPI messages: the rank rank 0 talked to; else 0 */
  double x;                       /* CAL_KIND_FIT_POINT: message size in bytes; else 0 */
  size_t count;                   /* samples held, oldest first (history, then this run) */
  size_t fresh;                   /* how many of the last samples come from this run */
  double samples[CAL_MAX_SAMPLES];/* seconds (per operation, per byte or per message) */
  int rounds;                     /* rounds of this run that measured it (calibrate.c) */
  double first, last;             /* cal_now() at this run's first and last sample (their span) */
  unsigned run[CAL_MAX_SAMPLES];  /* the calibration run each sample came from: its serial in the
                                  ** history (this run's is the largest), 0 without history */
} CalSeries;

/* Options of one calibration run (the command line fills it). */
typedef struct CalOptions {
  int reps;                       /* repetitions per benchmark (K) */
  int quick;                      /* nonzero: fewer, shorter samples and a coarser size sweep */
  double sample_seconds;          /* target duration of one sample (~1-5 ms) */
  const char *history_dir;        /* NULL: no history; else directory of the history file */
  int history_keep;               /* samples kept per benchmark in the history (FIFO) */
  const char *command_line;       /* for the machine file's header */
  int mpi_ranks;                  /* --mpi: ranks to start (>= 2); 0: no MPI benchmarks */
  const char *mpirun;             /* --mpi: the launcher, words split at blanks ("mpirun") */
  const char *mpi_bench;          /* --mpi: path of pamc-mpi-bench */
} CalOptions;

/* Called after each benchmark with the series just measured (for a progress line). */
typedef void (*CalProgress)(void *user, int index, int total, const CalSeries *series);

/* Fills err like printf; returns -1 so that callers can `return cal_fail(err, ...)`. */
#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
int cal_fail(CalError *err, const char *format, ...);

/* Monotonic clock in seconds (CLOCK_MONOTONIC). */
static inline double cal_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

#endif
