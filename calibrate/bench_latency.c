/*
** bench_latency.c — what a dependent chain waits for besides arithmetic: the load-to-use latency
** of a load whose address comes from the load before (series t_load_lat_SIZE at the sweep's
** working sets; memory_fns.c writes fn t_load_lat(ws_bytes)) and a mispredicted branch
** (t_branch_miss). Hash-table lookups, linked structures and data-dependent loop exits (a
** compressor's match finder, a tree walk) are bound by these, not by the operations' latencies.
**
** t_load_lat_SIZE  pointer chasing: one pointer per 64-byte line of a SIZE-byte buffer, linked in
**                  one random cycle (Sattolo's shuffle) so that neither the prefetchers nor the
**                  line's neighbours help; time per hop. Working sets: the sweep's, capped at its
**                  --quick top (beyond the caches every set gives the memory's latency).
** t_branch_miss    a branch on the top bit of a 64-bit LCG (random to the predictor) against the
**                  same loop with the bit masked to 0 (always predicted), as cal_measure_kernel
**                  takes a kernel and its empty twin: the difference per iteration is half a
**                  miss (half the random branches are mispredicted). The two sides update a value
**                  through different asm statements so that the compiler keeps the branch (no
**                  conditional move).
*/
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bench_kernel.h"
#include "machine_file.h"

#define CAL_LAT_LINE 64           /* bytes per pointer: one per cache line */
#define CAL_LAT_WARM_HOPS (1l << 20) /* untimed hops before the samples, at most */

/* The buffer of `bytes` as one random cycle through its lines: line i's first word points to the
** next line's. NULL when out of memory. */
static void **chase_ring(size_t bytes, size_t *lines_out) {
  size_t lines = bytes / CAL_LAT_LINE;
  if (lines < 2) lines = 2;
  void **buf = aligned_alloc(CAL_LAT_LINE, lines * CAL_LAT_LINE);
  size_t *order = malloc(lines * sizeof *order);
  if (!buf || !order) {
    free(buf);
    free(order);
    return NULL;
  }
  for (size_t i = 0; i < lines; i++) order[i] = i;
  uint64_t s = 0x9e3779b97f4a7c15ull;
  for (size_t i = lines - 1; i > 0; i--) {           /* Sattolo: one cycle through every line */
    s ^= s << 13;
    s ^= s >> 7;
    s ^= s << 17;
    size_t j = (size_t)(s % i), t = order[i];
    order[i] = order[j];
    order[j] = t;
  }
  size_t words = CAL_LAT_LINE / sizeof *buf;
  for (size_t i = 0; i < lines; i++) buf[i * words] = &buf[order[i] * words];
  free(order);
  *lines_out = lines;
  return buf;
}

/* `hops` loads, each at the address the previous one loaded. */
static void **chase(void **p, long hops) {
  for (long i = 0; i < hops; i++) p = (void **)*p;
  __asm__ volatile("" : "+r"(p));
  return p;
}

static int measure_load_latency(CalRun *run, size_t bytes, CalError *err) {
  char name[CAL_NAME_MAX], bench[CAL_BENCH_MAX], size_text[16];
  size_t lines;
  void **ring = chase_ring(bytes, &lines);
  if (!ring) return cal_fail(err, "cannot allocate %zu bytes for the load latency", bytes);
  cal_format_bytes(bytes, size_text, sizeof size_text);
  snprintf(name, sizeof name, "t_load_lat_%zu", bytes);
  snprintf(bench, sizeof bench, "dependent load (pointer chase, random cycle of lines), "
           "working set %.12s; per load", size_text);
  CalSeries *series = cal_run_add_series(run, name, bench, CAL_KIND_TIME, (double)bytes, err);
  if (!series) {
    free(ring);
    return -1;
  }
  long warm = (long)lines < CAL_LAT_WARM_HOPS ? (long)lines : CAL_LAT_WARM_HOPS;
  double t0 = cal_now();
  void **p = chase(ring, warm);
  double per_hop = (cal_now() - t0) / (double)warm;
  long hops = per_hop > 0 ? (long)(run->opt.sample_seconds / per_hop) : warm;
  if (hops < 1000) hops = 1000;
  for (int rep = 0; rep < run->round_reps; rep++) {
    double start = cal_now();
    p = chase(p, hops);
    cal_series_push(series, (cal_now() - start) / (double)hops);
  }
  cal_run_finished(run, series);
  free(ring);
  return 0;
}

/* One slot of the branch kernels: the generator steps, a branch on its top bit (and mask) picks
** one of two updates of acc. */
#define BRANCH_SLOT                                                          \
  x = x * 6364136223846793005ull + 1442695040888963407ull;                  \
  if ((x >> 63) & (unsigned long)mask) {                                    \
    __asm__ volatile("# pamc branch taken" : "+r"(acc));                    \
    acc += 3;                                                               \
  } else {                                                                  \
    __asm__ volatile("# pamc branch not taken" : "+r"(acc));                \
    acc ^= 5;                                                               \
  }

static double branch_loop(long iters, long mask) {
  unsigned long x = 0x2545f4914f6cdd1dul, acc = 0;
  HIDE(long, mask);
  double t0 = cal_now();
  for (long i = 0; i < iters; i++) { REP16(BRANCH_SLOT) }
  double t1 = cal_now();
  volatile unsigned long store = acc + x;
  (void)store;
  return t1 - t0;
}

static double kernel_branch_random(long iters, const CalSeed *seed) {
  (void)seed;
  return branch_loop(iters, 1);
}

static double kernel_branch_predicted(long iters, const CalSeed *seed) {
  (void)seed;
  return branch_loop(iters, 0);
}

int cal_bench_latency_count(const CalOptions *opt) {
  CalCaches caches;
  cal_read_caches(&caches);
  size_t sizes[32];
  (void)opt;
  return 1 + cal_sweep_sizes(1, caches.llc, sizes, 32);
}

int cal_bench_latency(CalRun *run, CalError *err) {
  static const CalSeed seed = {0, 0, 0, 0};
  if (cal_measure_kernel(run, "t_branch_miss", "mispredicted branch: a branch on random bits "
                         "against the same loop always predicted, per miss",
                         kernel_branch_random, kernel_branch_predicted, &seed, 0.5, err))
    return -1;
  size_t sizes[32];
  int n = cal_sweep_sizes(1, run->caches.llc, sizes, 32);
  for (int k = 0; k < n; k++)
    if (measure_load_latency(run, (sizes[k] + CAL_LAT_LINE - 1) / CAL_LAT_LINE * CAL_LAT_LINE, err))
      return -1;
  return 0;
}
