/*
** bench_memsweep.c — time per byte to read, write and copy memory over a sweep of working sets,
** 4 KiB x 4^k up to 4 x the last-level cache (capped), with scalar 8-byte accesses (what most
** loops do) and with the C library's / compiler's vector code (series t_read_SIZE,
** t_read_vec_SIZE, t_write_SIZE, ... t_copy_vec_SIZE; calibrate.c writes fn t_read(ws_bytes)
** and the others, interpolating between the sizes).
**
** Kernels (a pass over the working set; each sample repeats passes until it lasts
** ~sample_seconds, after one untimed pass):
**   t_read_SIZE       8-byte loads through a volatile pointer into one running sum: one load per
**                     word, never merged into vector loads (what `s += a[i]` on a uint64_t or a
**                     double array gets when the compiler does not vectorise it).
**   t_write_SIZE      8-byte stores through a volatile pointer (`a[i] = v`).
**   t_copy_SIZE       an 8-byte load and store per word from one half of the working set to the
**                     other (`b[i] = a[i]`), direction alternating; per byte copied.
**   t_read_vec_SIZE   the sum with four accumulators that the compiler vectorises, as in
**                     bench_memory.c; t_write_vec_SIZE memset; t_copy_vec_SIZE memcpy.
** Working sets: from CAL_SWEEP_MIN to 4 x LLC, at most CAL_SWEEP_MAX (CAL_SWEEP_MAX_QUICK with
** --quick): a last-level cache of hundreds of MiB (some VMs report their host's) would otherwise
** take seconds per pass; the header says where the sweep stopped.
*/
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bench.h"
#include "machine_file.h"

#define CAL_SWEEP_MIN (4u << 10)            /* 4 KiB: L1 on every core */
#define CAL_SWEEP_MAX (512u << 20)          /* a pass of 512 MiB takes ~50 ms */
#define CAL_SWEEP_MAX_QUICK (64u << 20)
#define CAL_SWEEP_ALIGN 64                  /* one cache line */

typedef enum SweepOp {
  SWEEP_READ, SWEEP_WRITE, SWEEP_COPY, SWEEP_READ_VEC, SWEEP_WRITE_VEC, SWEEP_COPY_VEC
} SweepOp;
#define N_SWEEP_OPS 6

static const char *const sweep_names[N_SWEEP_OPS] = {"read", "write", "copy", "read_vec",
                                                     "write_vec", "copy_vec"};
static const char *const sweep_how[N_SWEEP_OPS] = {
  "scalar 8-byte loads", "scalar 8-byte stores", "scalar 8-byte load + store",
  "vectorised sum", "memset", "memcpy"};

/* The largest working set: 4 x LLC, capped. */
static size_t sweep_max(int quick, size_t llc) {
  size_t cap = quick ? CAL_SWEEP_MAX_QUICK : CAL_SWEEP_MAX;
  return 4 * llc < cap ? 4 * llc : cap;
}

/* One pass; returns the bytes read, written or copied (the vector kernels: bench_memory.c's). */
size_t cal_sweep_pass(int op, uint64_t *buf, size_t bytes, uint64_t pass, volatile uint64_t *sink) {
  size_t words = bytes / sizeof *buf, half = words / 2;
  volatile uint64_t *v = buf;
  switch ((SweepOp)op) {
  case SWEEP_READ: {
    uint64_t s = 0;
    for (size_t i = 0; i < words; i++) s += v[i];
    *sink = s;
    return words * sizeof *buf;
  }
  case SWEEP_WRITE:
    for (size_t i = 0; i < words; i++) v[i] = pass;
    return words * sizeof *buf;
  case SWEEP_COPY: {
    volatile uint64_t *from = (pass & 1) ? v + half : v, *to = (pass & 1) ? v : v + half;
    for (size_t i = 0; i < half; i++) to[i] = from[i];
    return half * sizeof *buf;
  }
  case SWEEP_READ_VEC: return cal_mem_pass(CAL_MEM_READ, buf, bytes, pass, sink);
  case SWEEP_WRITE_VEC: return cal_mem_pass(CAL_MEM_WRITE, buf, bytes, pass, sink);
  case SWEEP_COPY_VEC: return cal_mem_pass(CAL_MEM_COPY, buf, bytes, pass, sink);
  }
  return 0;
}

int cal_sweep_sizes(int quick, size_t llc, size_t *sizes, int max) {
  int n = 0;
  size_t top = sweep_max(quick, llc);
  for (size_t ws = CAL_SWEEP_MIN; ws <= top && n < max; ws *= 4) sizes[n++] = ws;
  if (n < max && sizes[n - 1] < top) sizes[n++] = top;      /* end exactly at the top */
  return n;
}

int cal_bench_memsweep_count(const CalOptions *opt) {
  CalCaches caches;
  cal_read_caches(&caches);
  size_t sizes[32];
  return N_SWEEP_OPS * cal_sweep_sizes(opt->quick, caches.llc, sizes, 32);
}

int cal_bench_memsweep(CalRun *run, CalError *err) {
  size_t sizes[32];
  int n = cal_sweep_sizes(run->opt.quick, run->caches.llc, sizes, 32);
  for (int k = 0; k < n; k++) {
    size_t bytes = (sizes[k] + CAL_SWEEP_ALIGN - 1) / CAL_SWEEP_ALIGN * CAL_SWEEP_ALIGN;
    uint64_t *buf = aligned_alloc(CAL_SWEEP_ALIGN, bytes);
    if (!buf) return cal_fail(err, "cannot allocate %zu bytes for the memory sweep", bytes);
    memset(buf, 1, bytes);              /* touch every page before timing */
    for (int op = 0; op < N_SWEEP_OPS; op++) {
      char name[CAL_NAME_MAX], bench[CAL_BENCH_MAX], size_text[32];
      cal_format_bytes(bytes, size_text, sizeof size_text);
      snprintf(name, sizeof name, "t_%s_%zu", sweep_names[op], bytes);
      snprintf(bench, sizeof bench, "%s per byte, %s, working set %s", sweep_names[op],
               sweep_how[op], size_text);
      CalSeries *series = cal_run_add_series(run, name, bench, CAL_KIND_PER_BYTE, (double)bytes, err);
      if (!series) {
        free(buf);
        return -1;
      }
      cal_measure_passes(run, series, cal_sweep_pass, op, buf, bytes);
    }
    free(buf);
  }
  return 0;
}
