/*
** bench_cores.c — the processors: how many are online (sysconf(_SC_NPROCESSORS_ONLN), 1 when the
** system cannot tell), and how much work they do at once (cores_eff, membw_eff).
**
** Effective parallelism: a kernel runs alone for t1, then on N threads at once (N = the CPUs
** online), each thread the same amount, for tN (from the release of all N at a barrier to the
** last one's end); a sample is N * t1 / tN, the throughput of N threads in units of one thread's.
** Both runs are back to back in each sample, so a sample compares like with like while the
** neighbours of a VM come and go; the repetitions give the interval (its typical value is the
** median). Samples are clamped to [1, N] (beyond, one of the two runs was preempted). Two kernels:
**   cores_eff   a dependent chain of double additions (the core alone, no memory): what
**               `resource cores = ps(cores_eff)` shares among the threads present.
**   membw_eff   a vectorised sum over a private buffer per thread, CAL_PAR_MEM_BYTES each (beyond
**               the caches of most machines; on one whose last-level cache holds N buffers this
**               measures that cache): the memory bandwidth N streams get together, in units of
**               one stream's.
** Each thread's work lasts ~4 x sample_seconds alone (a few scheduler ticks).
*/
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "bench_kernel.h"
#include "par_run.h"

#define CAL_PAR_MEM_BYTES (64u << 20)        /* per thread; far beyond L2, beyond most LLCs */
#define CAL_PAR_MEM_BYTES_QUICK (16u << 20)
#define CAL_PAR_SAMPLE_FACTOR 4              /* t1 = this x sample_seconds */
#define CAL_PAR_MAX_THREADS 256              /* threads timed at most (the CPUs online) */

long cal_bench_cores(void) {
  long n = sysconf(_SC_NPROCESSORS_ONLN);
  return n > 0 ? n : 1;
}

/* One thread's work: `amount` units of its kernel; returns a value to sink. */
typedef double (*ParWork)(long amount, uint64_t *buf, size_t words);

static double work_chain(long amount, uint64_t *buf, size_t words) {
  (void)buf;
  (void)words;
  double x = 1.0, y = 0.0;
  HIDE(double, y);
  for (long i = 0; i < amount; i++) { REP16(x = x + y; HIDE(double, x);) }
  return x;
}

static double work_read(long amount, uint64_t *buf, size_t words) {
  uint64_t s = 0;
  for (long pass = 0; pass < amount; pass++) s += cal_mem_sum(buf, words);
  return (double)s;
}

typedef struct ParThread {
  ParWork work;                   /* the kernel */
  long amount;                    /* units of work */
  uint64_t *buf;                  /* private buffer (memory kernel) */
  size_t words;                   /* its length in 64-bit words */
  double sink;                    /* the kernel's value */
} ParThread;

/* A ParThread's work as a CalParWork. */
static void par_work(void *arg) {
  ParThread *t = arg;
  t->sink += t->work(t->amount, t->buf, t->words);
}

/* One sample, N * t1 / tN, into *out; -1 (err filled) when a thread cannot be started. */
static int par_sample(ParThread *th, CalParMember *members, int n, double *out, CalError *err) {
  double t0 = cal_now();
  par_work(&th[0]);
  double t1 = cal_now() - t0, tn;
  if (cal_par_run(members, n, &tn, err)) return -1;
  /* N threads cannot do more than N times one thread's work, nor (on N >= 1 CPUs) less than one
  ** thread's: a sample above N means the lone run was preempted, one below 1 that the N threads
  ** were (a loaded machine); they are clamped to [1, N], so that ps(cores_eff) never runs a lone
  ** thread slower than alone, which is the unit. */
  double ratio = (double)n * t1 / tn;
  *out = ratio > n ? (double)n : ratio < 1 ? 1 : ratio;
  return 0;
}

/* Units of `work` that last about `seconds` on one thread. */
static long amount_for(ParWork work, uint64_t *buf, size_t words, double seconds, double *sink) {
  long amount = 1;
  for (;;) {
    double t0 = cal_now();
    *sink += work(amount, buf, words);
    double t = cal_now() - t0;
    if (t >= seconds / 4 || amount > (1L << 40)) {
      long want = t > 0 ? (long)((double)amount * seconds / t) : amount * 4;
      return want < 1 ? 1 : want;
    }
    amount *= 4;
  }
}

static int par_series(CalRun *run, const char *name, const char *bench, ParWork work,
                      size_t bytes, CalError *err) {
  int n = run->cores < 1 ? 1 : run->cores > CAL_PAR_MAX_THREADS ? CAL_PAR_MAX_THREADS : (int)run->cores;
  CalSeries *s = cal_run_add_series(run, name, bench, CAL_KIND_RATIO, 0, err);
  ParThread *th = s ? calloc((size_t)n, sizeof *th) : NULL;
  CalParMember *members = th ? calloc((size_t)n, sizeof *members) : NULL;
  if (!members) {
    free(th);
    return s ? cal_fail(err, "out of memory") : -1;
  }
  int status = 0;
  size_t words = bytes / sizeof(uint64_t);
  for (int i = 0; i < n && status == 0 && bytes; i++) {
    th[i].buf = malloc(words * sizeof(uint64_t));
    if (!th[i].buf) status = cal_fail(err, "cannot allocate %zu bytes for the parallelism benchmark", bytes);
    else memset(th[i].buf, 1, words * sizeof(uint64_t));        /* touch every page */
  }
  if (status == 0) {
    double sink = 0;
    long amount = amount_for(work, th[0].buf, words, CAL_PAR_SAMPLE_FACTOR * run->opt.sample_seconds, &sink);
    for (int i = 0; i < n; i++) {
      th[i].work = work;
      th[i].amount = amount;
      th[i].words = words;
      members[i].work = par_work;
      members[i].arg = &th[i];
    }
    th[0].sink = sink;
    for (int rep = 0; rep < run->round_reps && status == 0; rep++) {
      double ratio = 0;
      status = par_sample(th, members, n, &ratio, err);
      if (status == 0) cal_series_push(s, ratio);
    }
  }
  for (int i = 0; i < n; i++) free(th[i].buf);
  free(th);
  free(members);
  if (status == 0) cal_run_finished(run, s);
  return status;
}

int cal_bench_parallel_count(const CalOptions *opt) {
  (void)opt;
  return 2;
}

int cal_bench_parallel(CalRun *run, CalError *err) {
  char bench[CAL_BENCH_MAX];
  snprintf(bench, sizeof bench, "N * t1 / tN of a double add chain, N = %ld threads", run->cores);
  if (par_series(run, "cores_eff", bench, work_chain, 0, err)) return -1;
  size_t bytes = run->opt.quick ? CAL_PAR_MEM_BYTES_QUICK : CAL_PAR_MEM_BYTES;
  snprintf(bench, sizeof bench, "N * t1 / tN of a read of %zu MiB per thread, N = %ld threads",
           bytes >> 20, run->cores);
  return par_series(run, "membw_eff", bench, work_read, bytes, err);
}
