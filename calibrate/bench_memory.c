/*
** bench_memory.c — time per byte to read, write and copy memory, for working sets that fit the
** L1 data cache, L2, the last-level cache, and main memory (constants t_read_l1 .. t_copy_mem).
**
** Working sets: half of L1, half of L2, half of the LLC (so other data and the other buffers of
** the benchmark stay cached too), and main memory at 4 x LLC (2 x LLC with --quick), at least
** 64 MiB (32 MiB), at most 512 MiB (64 MiB). Cache sizes come from /sys/devices/system/cpu/cpu0/cache, else from
** sysconf(_SC_LEVEL1_DCACHE_SIZE ...), else 32 KiB / 256 KiB / 8 MiB (sysfs first: glibc's
** sysconf reports an aggregate LLC on some AMD parts).
**
** Kernels (all throughput-bound, that is bandwidth):
**   read   sum of the buffer as 64-bit words with four independent accumulators (vectorised by
**          the compiler: what a plain C loop gets); time per byte read.
**   write  memset of the buffer with a pass-dependent byte (the C library's best stores, as for
**          copy); time per byte written.
**   copy   memcpy of one half of the working set onto the other half, direction alternating;
**          time per byte copied (working set = source + destination).
** A memory clobber (`__asm__ volatile("" ::: "memory")`) after each pass forces the compiler to
** perform every pass's loads and stores; sums go to a volatile sink. Each sample repeats whole
** passes until it lasts ~sample_seconds (at least one pass), after one untimed warm-up pass.
*/
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "bench.h"

#define CAL_MEM_MIN_BYTES (4 * 1024)        /* below this the loop overhead dominates */
#define CAL_MEM_MAIN_MIN (64u << 20)         /* main-memory set: well beyond any LLC we know */
#define CAL_MEM_MAIN_MIN_QUICK (32u << 20)
#define CAL_MEM_MAIN_MAX (512u << 20)        /* as the sweep's: a VM may report its host's LLC */
#define CAL_MEM_MAIN_MAX_QUICK (64u << 20)   /* (480 MiB here: 4 x LLC took 7 s per round) */
#define CAL_MEM_ALIGN 64                     /* one cache line */

static size_t read_sysfs_size(int index, int *level, char *type, size_t type_size) {
  char path[128], buf[64];
  size_t value = 0;
  snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/level", index);
  FILE *f = fopen(path, "r");
  if (!f) return 0;
  if (!fgets(buf, sizeof buf, f)) buf[0] = 0;
  fclose(f);
  *level = atoi(buf);
  snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/type", index);
  if (!(f = fopen(path, "r"))) return 0;
  if (!fgets(type, (int)type_size, f)) type[0] = 0;
  fclose(f);
  snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/size", index);
  if (!(f = fopen(path, "r"))) return 0;
  if (fgets(buf, sizeof buf, f)) {
    char *end;
    value = strtoul(buf, &end, 10);
    if (*end == 'K') value *= 1024;
    else if (*end == 'M') value *= 1024 * 1024;
  }
  fclose(f);
  return value;
}

void cal_read_caches(CalCaches *out) {
  memset(out, 0, sizeof *out);
  for (int i = 0; i < 8; i++) {     /* sysfs lists at most a handful of cache indices */
    int level = 0;
    char type[32] = "";
    size_t size = read_sysfs_size(i, &level, type, sizeof type);
    if (!size) continue;
    if (level == 1 && strncmp(type, "Instruction", 11)) out->l1 = size;
    else if (level == 2) out->l2 = size;
    else if (level >= 3 && size > out->llc) out->llc = size;
  }
  out->source = "sysfs";
  if (!out->l1 || !out->l2) {
#ifdef _SC_LEVEL1_DCACHE_SIZE
    long l1 = sysconf(_SC_LEVEL1_DCACHE_SIZE), l2 = sysconf(_SC_LEVEL2_CACHE_SIZE);
    long l3 = sysconf(_SC_LEVEL3_CACHE_SIZE);
    if (l1 > 0) out->l1 = (size_t)l1;
    if (l2 > 0) out->l2 = (size_t)l2;
    if (l3 > 0 && !out->llc) out->llc = (size_t)l3;
    out->source = "sysconf";
#endif
  }
  if (!out->l1 || !out->l2) {
    out->l1 = 32 * 1024;
    out->l2 = 256 * 1024;
    out->source = "defaults";
  }
  if (!out->llc) out->llc = out->l2 > 8u << 20 ? out->l2 : 8u << 20;
}


typedef struct MemLevel {
  const char *name;               /* suffix of the constant: l1, l2, llc, mem */
  size_t bytes;                   /* working set */
} MemLevel;

uint64_t cal_mem_sum(const uint64_t *buf, size_t words) {
  uint64_t s0 = 0, s1 = 0, s2 = 0, s3 = 0;
  for (size_t i = 0; i + 4 <= words; i += 4) {
    s0 += buf[i];
    s1 += buf[i + 1];
    s2 += buf[i + 2];
    s3 += buf[i + 3];
  }
  __asm__ volatile("" ::: "memory");
  return s0 + s1 + s2 + s3;
}

size_t cal_mem_pass(CalMemOp op, uint64_t *buf, size_t bytes, uint64_t pass, volatile uint64_t *sink) {
  size_t words = bytes / sizeof *buf;
  switch (op) {
  case CAL_MEM_READ:
    *sink = cal_mem_sum(buf, words);
    return words / 4 * 4 * sizeof *buf;
  case CAL_MEM_WRITE:
    memset(buf, (int)(pass & 0xff), words * sizeof *buf);
    __asm__ volatile("" : : "r"(buf) : "memory");
    return words * sizeof *buf;
  case CAL_MEM_COPY: {
    size_t half = words / 2 * sizeof *buf;
    if (pass & 1) memcpy(buf, (char *)buf + half, half);
    else memcpy((char *)buf + half, buf, half);
    __asm__ volatile("" : : "r"(buf) : "memory");
    return half;
  }
  }
  return 0;
}

void cal_measure_passes(CalRun *run, CalSeries *series, CalPassFn fn, int op, uint64_t *buf,
                        size_t bytes) {
  volatile uint64_t sink = 0;
  uint64_t pass = 0;
  double t0 = cal_now();
  fn(op, buf, bytes, pass++, &sink);                 /* warm-up pass, also sizes samples */
  double one_pass = cal_now() - t0;
  long passes = one_pass > 0 ? (long)(run->opt.sample_seconds / one_pass) : 1;
  if (passes < 1) passes = 1;
  for (int rep = 0; rep < run->round_reps; rep++) {
    size_t done = 0;
    double start = cal_now();
    for (long p = 0; p < passes; p++) done += fn(op, buf, bytes, pass++, &sink);
    cal_series_push(series, (cal_now() - start) / (double)done);
  }
  cal_run_finished(run, series);
}

/* cal_mem_pass as a CalPassFn. */
static size_t vector_pass(int op, uint64_t *buf, size_t bytes, uint64_t pass, volatile uint64_t *sink) {
  return cal_mem_pass((CalMemOp)op, buf, bytes, pass, sink);
}

int cal_bench_memory_count(const CalOptions *opt) {
  (void)opt;
  return 12;
}

int cal_bench_memory(CalRun *run, CalError *err) {
  const CalCaches *c = &run->caches;
  size_t main_set = (run->opt.quick ? 2 : 4) * c->llc;
  size_t main_min = run->opt.quick ? CAL_MEM_MAIN_MIN_QUICK : CAL_MEM_MAIN_MIN;
  size_t main_max = run->opt.quick ? CAL_MEM_MAIN_MAX_QUICK : CAL_MEM_MAIN_MAX;
  if (main_set < main_min) main_set = main_min;
  if (main_set > main_max) main_set = main_max;
  MemLevel levels[4] = {{"l1", c->l1 / 2}, {"l2", c->l2 / 2}, {"llc", c->llc / 2}, {"mem", main_set}};
  static const char *const op_names[3] = {"read", "write", "copy"};
  for (int l = 0; l < 4; l++) {
    size_t bytes = levels[l].bytes < CAL_MEM_MIN_BYTES ? CAL_MEM_MIN_BYTES : levels[l].bytes;
    bytes = (bytes + CAL_MEM_ALIGN - 1) / CAL_MEM_ALIGN * CAL_MEM_ALIGN;
    uint64_t *buf = aligned_alloc(CAL_MEM_ALIGN, bytes);
    if (!buf) return cal_fail(err, "cannot allocate %zu bytes for the memory benchmark", bytes);
    memset(buf, 1, bytes);              /* touch every page before timing */
    for (int op = 0; op < 3; op++) {
      char name[CAL_NAME_MAX], bench[CAL_BENCH_MAX];
      snprintf(name, sizeof name, "t_%s_%s", op_names[op], levels[l].name);
      snprintf(bench, sizeof bench, "%s per byte, working set %zu KiB, bandwidth-bound",
               op_names[op], bytes / 1024);
      CalSeries *series = cal_run_add_series(run, name, bench, CAL_KIND_PER_BYTE, 0, err);
      if (!series) {
        free(buf);
        return -1;
      }
      cal_measure_passes(run, series, vector_pass, op, buf, bytes);
    }
    free(buf);
  }
  return 0;
}
