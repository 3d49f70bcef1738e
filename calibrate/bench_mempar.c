/*
** bench_mempar.c — memory under T threads at once: the time per byte each of T threads sees when
** all T read, write or copy their own working set at the same time, T = 2 .. N (N = the CPUs
** online), at the sweep's working sets (bench_memsweep.c; T = 1 is the sweep itself): series
** t_read_parT_SIZE, t_write_parT_SIZE, t_copy_parT_SIZE, scalar 8-byte accesses as the sweep's
** t_read_SIZE. What T streams sharing the caches and the memory bandwidth get, measured rather
** than derived from one stream's time (thread_fns.c writes fn t_read_shared(ws_bytes, threads)
** from them).
**
** How: each thread owns a buffer of SIZE bytes (every page touched first); a sample releases the
** T threads together (par_run.c), each does the same number of whole passes (sized so that one
** thread alone would take ~sample_seconds, at least one pass), and the sample is the time from
** the release to the last thread's end over the bytes one thread moved: the per-thread time per
** byte of the slowest, what a program whose threads join at the end waits for. One untimed round
** of passes first.
*/
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bench.h"
#include "machine_file.h"
#include "par_run.h"

#define CAL_MEMPAR_MAX_THREADS 8  /* thread counts measured at most (3 series per size each) */
#define CAL_MEMPAR_ALIGN 64       /* one cache line */
#define N_MEMPAR_OPS 3            /* the sweep's scalar read, write, copy */

static const char *const mempar_names[N_MEMPAR_OPS] = {"read", "write", "copy"};
static const char *const mempar_how[N_MEMPAR_OPS] = {
  "scalar 8-byte loads", "scalar 8-byte stores", "scalar 8-byte load + store"};

typedef struct MemMember {
  int op;                         /* the sweep's kernel */
  uint64_t *buf;                  /* this thread's working set */
  size_t bytes;                   /* its size */
  long passes;                    /* passes per sample */
  uint64_t pass;                  /* passes done so far (the kernels vary by pass) */
  size_t done;                    /* bytes moved in the last sample */
  volatile uint64_t sink;         /* the read kernel's sum */
} MemMember;

static void mem_work(void *arg) {
  MemMember *m = arg;
  m->done = 0;
  for (long p = 0; p < m->passes; p++) m->done += cal_sweep_pass(m->op, m->buf, m->bytes, m->pass++, &m->sink);
}

/* The largest thread count measured: the CPUs online, capped; below 2 nothing is measured. */
static int mempar_max(long cores) {
  return cores > CAL_MEMPAR_MAX_THREADS ? CAL_MEMPAR_MAX_THREADS : (int)cores;
}

int cal_bench_mempar_count(const CalOptions *opt) {
  CalCaches caches;
  cal_read_caches(&caches);
  size_t sizes[32];
  int threads = mempar_max(cal_bench_cores());
  return threads < 2 ? 0 : N_MEMPAR_OPS * (threads - 1) * cal_sweep_sizes(opt->quick, caches.llc, sizes, 32);
}

/* The series of T threads on kernel op over the members' buffers of `bytes`. */
static int mempar_series(CalRun *run, MemMember *mm, CalParMember *members, int t, int op,
                         size_t bytes, CalError *err) {
  char name[CAL_NAME_MAX], bench[CAL_BENCH_MAX], size_text[16];
  cal_format_bytes(bytes, size_text, sizeof size_text);
  snprintf(name, sizeof name, "t_%s_par%d_%zu", mempar_names[op], t, bytes);
  snprintf(bench, sizeof bench, "%.5s per byte, %d threads at once, %.26s, %.12s each",
           mempar_names[op], t % 100, mempar_how[op], size_text);
  CalSeries *series = cal_run_add_series(run, name, bench, CAL_KIND_PER_BYTE, (double)bytes, err);
  if (!series) return -1;
  for (int i = 0; i < t; i++) {
    mm[i].op = op;
    mm[i].passes = 1;
    members[i].work = mem_work;
    members[i].arg = &mm[i];
  }
  double t0 = cal_now();
  mem_work(&mm[0]);                                  /* one pass alone sizes the samples */
  double one_pass = cal_now() - t0, elapsed;
  long passes = one_pass > 0 ? (long)(run->opt.sample_seconds / one_pass) : 1;
  for (int i = 0; i < t; i++) mm[i].passes = passes < 1 ? 1 : passes;
  if (cal_par_run(members, t, &elapsed, err)) return -1;     /* untimed */
  for (int rep = 0; rep < run->round_reps; rep++) {
    if (cal_par_run(members, t, &elapsed, err)) return -1;
    cal_series_push(series, elapsed / (double)mm[0].done);
  }
  cal_run_finished(run, series);
  return 0;
}

int cal_bench_mempar(CalRun *run, CalError *err) {
  int threads = mempar_max(run->cores);
  if (threads < 2) return 0;
  size_t sizes[32];
  int n = cal_sweep_sizes(run->opt.quick, run->caches.llc, sizes, 32);
  MemMember *mm = calloc((size_t)threads, sizeof *mm);
  CalParMember *members = calloc((size_t)threads, sizeof *members);
  int status = mm && members ? 0 : cal_fail(err, "out of memory");
  for (int k = 0; k < n && status == 0; k++) {
    size_t bytes = (sizes[k] + CAL_MEMPAR_ALIGN - 1) / CAL_MEMPAR_ALIGN * CAL_MEMPAR_ALIGN;
    for (int i = 0; i < threads && status == 0; i++) {
      mm[i].bytes = bytes;
      mm[i].buf = aligned_alloc(CAL_MEMPAR_ALIGN, bytes);
      if (!mm[i].buf) status = cal_fail(err, "cannot allocate %zu bytes per thread for memory under threads", bytes);
      else memset(mm[i].buf, 1, bytes);              /* touch every page before timing */
    }
    for (int t = 2; t <= threads && status == 0; t++)
      for (int op = 0; op < N_MEMPAR_OPS && status == 0; op++)
        status = mempar_series(run, mm, members, t, op, bytes, err);
    for (int i = 0; i < threads; i++) {
      free(mm[i].buf);
      mm[i].buf = NULL;
    }
  }
  free(mm);
  free(members);
  return status;
}
