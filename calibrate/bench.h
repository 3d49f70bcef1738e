/*
** bench.h — what the benchmark families (bench_*.c) share: the run they add series to, the
** cache sizes they size working sets by, and the sample-length calibration.
*/
#ifndef PAMC_CAL_BENCH_H
#define PAMC_CAL_BENCH_H

#include <stddef.h>
#include <stdint.h>
#include "cal.h"

typedef struct CalCaches {
  size_t l1, l2, llc;             /* data cache sizes in bytes (per core for l1/l2) */
  const char *source;             /* where they were read: sysfs, sysconf or defaults */
} CalCaches;

typedef struct CalRun {
  CalOptions opt;                 /* as given, with defaults filled */
  CalSeries series[CAL_MAX_SERIES]; /* measured so far, in measurement order */
  int count;                      /* series used */
  int planned;                    /* series the run will measure (for progress), every round */
  int round;                      /* the round under way, 0 .. rounds - 1 (calibrate.c: rounds) */
  int rounds;                     /* rounds of the local families: each measures every series */
  int round_reps;                 /* samples each series takes in this round */
  int per_round;                  /* series one round of the local families adds */
  CalProgress progress;           /* NULL: silent */
  void *progress_user;            /* passed to progress */
  CalCaches caches;               /* for the memory working sets and the header */
  long cores;                     /* online processors */
  int mpi_ranks;                  /* ranks the MPI benchmark reported (0 before its header) */
  int message_cpus[2];            /* CPUs the two message processes were pinned to; -1: not pinned */
} CalRun;

/* A new empty series at the end of run->series; in rounds after the first, the series of that
** name already measured (its samples kept, this round's appended); NULL (err filled) when full. */
CalSeries *cal_run_add_series(CalRun *run, const char *name, const char *bench, CalKind kind,
                              double x, CalError *err);
/* Appends one sample to a series of this run (ignored beyond CAL_MAX_REPS), noting its time. */
void cal_series_push(CalSeries *series, double sample);
/* Reports a finished series to the progress callback. */
void cal_run_finished(CalRun *run, const CalSeries *series);

/* The vector memory kernels (bench_memory.c), shared by the sweep and the parallelism benchmark. */
typedef enum CalMemOp {
  CAL_MEM_READ,                   /* sum of 64-bit words, four accumulators (vectorised) */
  CAL_MEM_WRITE,                  /* memset */
  CAL_MEM_COPY                    /* memcpy of one half onto the other, direction by pass */
} CalMemOp;
/* One pass over a working set of `bytes`; returns the bytes read, written or copied. */
typedef size_t (*CalPassFn)(int op, uint64_t *buf, size_t bytes, uint64_t pass, volatile uint64_t *sink);
size_t cal_mem_pass(CalMemOp op, uint64_t *buf, size_t bytes, uint64_t pass, volatile uint64_t *sink);
/* The vectorised sum of `words` 64-bit words. */
uint64_t cal_mem_sum(const uint64_t *buf, size_t words);
/* Samples of `series` (time per byte): one untimed pass, then reps samples of whole passes of fn
** lasting ~sample_seconds each; reports the series finished. */
void cal_measure_passes(CalRun *run, CalSeries *series, CalPassFn fn, int op, uint64_t *buf,
                        size_t bytes);

/* Cache sizes: sysfs (/sys/devices/system/cpu/cpu0/cache), then sysconf, then defaults. */
void cal_read_caches(CalCaches *out);

/* Families: each measures its series and appends them to run. *_count says how many. */
int cal_bench_arith_count(const CalOptions *opt);
int cal_bench_arith(CalRun *run, CalError *err);
int cal_bench_math_count(const CalOptions *opt);
int cal_bench_math(CalRun *run, CalError *err);
int cal_bench_flops_count(const CalOptions *opt);
int cal_bench_flops(CalRun *run, CalError *err);
int cal_bench_threads_count(const CalOptions *opt);
int cal_bench_threads(CalRun *run, CalError *err);
/* t_omp_for (bench_omp.c): none without OpenMP. */
int cal_bench_omp_count(const CalOptions *opt);
int cal_bench_omp(CalRun *run, CalError *err);
int cal_bench_memory_count(const CalOptions *opt);
int cal_bench_memory(CalRun *run, CalError *err);
/* The working-set sweep (bench_memsweep.c): series t_OP_SIZE with x = SIZE. */
int cal_bench_memsweep_count(const CalOptions *opt);
int cal_bench_memsweep(CalRun *run, CalError *err);
/* Its working sets, ascending, into sizes (at most max); returns how many. */
int cal_sweep_sizes(int quick, size_t llc, size_t *sizes, int max);
/* One pass of its kernel op over buf (0, 1, 2: scalar read, write, copy; 3, 4, 5: vector code);
** returns the bytes read, written or copied. */
size_t cal_sweep_pass(int op, uint64_t *buf, size_t bytes, uint64_t pass, volatile uint64_t *sink);
/* Load-to-use latency over the sweep's working sets and a mispredicted branch (bench_latency.c):
** series t_load_lat_SIZE (x = SIZE) and t_branch_miss. */
int cal_bench_latency_count(const CalOptions *opt);
int cal_bench_latency(CalRun *run, CalError *err);
/* The first touch of fresh pages, alone and by T threads at once (bench_pagefault.c): series
** t_page_fault, t_page_fault_parT. */
int cal_bench_pagefault_count(const CalOptions *opt);
int cal_bench_pagefault(CalRun *run, CalError *err);
/* Memory under T threads at once (bench_mempar.c): series t_OP_parT_SIZE, T = 2 .. N. */
int cal_bench_mempar_count(const CalOptions *opt);
int cal_bench_mempar(CalRun *run, CalError *err);
int cal_bench_message_count(const CalOptions *opt);
int cal_bench_message(CalRun *run, CalError *err);
long cal_bench_cores(void);
/* cores_eff and membw_eff (bench_cores.c): run->cores must be set. */
int cal_bench_parallel_count(const CalOptions *opt);
int cal_bench_parallel(CalRun *run, CalError *err);

/* The MPI family (bench_mpi.c): sizes 1 B .. CAL_MPI_MAX_BYTES as the socketpair one. */
#define CAL_MPI_MAX_BYTES (4l << 20)
int cal_bench_mpi_count(const CalOptions *opt);
int cal_bench_mpi(CalRun *run, CalError *err);
/* 0 when the benchmark program of opt->mpi_bench can be run; checked before anything is measured. */
int cal_bench_mpi_ready(const CalOptions *opt, CalError *err);
/* One line of pamc-mpi-bench's output into run: 0 when taken, 1 at its "end" line, -1 (err
** filled) when malformed. */
int cal_mpi_parse_line(CalRun *run, const char *line, CalError *err);

#endif
