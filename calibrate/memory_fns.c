/*
** memory_fns.c — the memory functions of a machine file: fn t_read(ws_bytes), t_write, t_copy and
** their _vec twins, each interpolating linearly between the working sets the sweep measured
** (bench_memsweep.c: constants t_OP_SIZE), the first set's value below it and the last set's
** beyond it, as send_measured does between message sizes; fn t_read_parT(ws_bytes) (t_write_parT,
** t_copy_parT) the same over the sets measured with T threads at once (bench_mempar.c); and
** fn t_read_shared(ws_bytes, threads) (t_write_shared, t_copy_shared), the time per byte each of
** `threads` threads sees when all stream their own working set at once: t_read(ws_bytes) for one,
** t_read_parT(ws_bytes) for T = 2 .. N measured, and beyond N the N-thread value (at most N
** threads run at once on N CPUs; cores = ps(cores_eff) accounts for the waiting); and
** fn t_load_lat(ws_bytes), seconds per dependent load, over the sets bench_latency.c chased.
*/
#include <stdio.h>
#include <string.h>
#include "memory_fns.h"

static const char *const fn_ops[] = {"read", "write", "copy", "read_vec", "write_vec", "copy_vec"};
#define N_FN_OPS (sizeof fn_ops / sizeof fn_ops[0])
#define N_SHARED_OPS 3            /* read, write, copy: the scalar ones, measured under threads */
#define MAX_PAR_THREADS 64        /* thread counts looked for (bench_mempar.c measures up to 8) */

/* fn NAME(ws_bytes) interpolating the series PREFIX_SIZE of kind `kind` of the run (NAME = prefix
** without its last '_'), `per` saying what one value is the time of; *written = 0 when the run has
** none. */
static int interp_fn(const CalRun *run, CalMachine *m, const char *prefix, CalKind kind,
                     const char *per, const char *what, int *written, CalError *err) {
  char head[CAL_LINE_MAX], tail[CAL_LINE_MAX], comment[CAL_LINE_MAX], fn[CAL_NAME_MAX];
  double xs[CAL_MAX_SERIES];
  int n = 0;
  for (int i = 0; i < run->count; i++) {       /* the sweeps measure sizes in ascending order */
    const CalSeries *s = &run->series[i];
    if (s->kind == kind && s->x > 0 && cal_name_is_sized(s->name, prefix)) xs[n++] = s->x;
  }
  *written = n > 0;
  if (n == 0) return 0;
  snprintf(fn, sizeof fn, "%.*s", (int)strlen(prefix) - 1, prefix);
  snprintf(comment, sizeof comment, "# %s(ws_bytes): seconds per %s (%s) over a working set of "
           "ws_bytes, interpolated between the sets measured", fn, per, what);
  snprintf(head, sizeof head, "fn %s(ws_bytes) =", fn);
  snprintf(tail, sizeof tail, "%s%.0f", prefix, xs[n - 1]);
  if (cal_machine_text(m, comment, err) || cal_machine_interp(m, head, "ws_bytes", prefix, xs, n, tail, err))
    return -1;
  return 0;
}

int cal_memory_fns(const CalRun *run, CalMachine *m, CalError *err) {
  int have_sweep = 0, written;
  for (size_t op = 0; op < N_FN_OPS; op++) {
    char prefix[CAL_NAME_MAX];
    snprintf(prefix, sizeof prefix, "t_%s_", fn_ops[op]);
    if (interp_fn(run, m, prefix, CAL_KIND_PER_BYTE, "byte",
                  strstr(fn_ops[op], "vec") ? "vector code" : "scalar 8-byte accesses", &written, err))
      return -1;
    have_sweep |= written && op == 0;
  }
  if (interp_fn(run, m, "t_load_lat_", CAL_KIND_TIME, "load",
                "8-byte loads each waiting for the one before: load-to-use latency", &written, err))
    return -1;
  if (!have_sweep) return 0;
  int top = 1;                    /* the most threads measured at once */
  for (int t = 2; t <= MAX_PAR_THREADS; t++) {
    char prefix[CAL_NAME_MAX], what[64];
    int all = 1;
    for (size_t op = 0; op < N_SHARED_OPS; op++) {
      snprintf(prefix, sizeof prefix, "t_%s_par%d_", fn_ops[op], t);
      snprintf(what, sizeof what, "scalar, each of %d threads at once", t);
      if (interp_fn(run, m, prefix, CAL_KIND_PER_BYTE, "byte", what, &written, err)) return -1;
      all &= written;
    }
    if (!all) break;
    top = t;
  }
  if (cal_machine_text(m, "# T threads at once, each over its own working set: the time per byte "
                          "each sees, measured for T = 1 ..", err) ||
      cal_machine_text(m, "# the CPUs (beyond, the last: no more threads run at once; cores = "
                          "ps(cores_eff) charges the waiting)", err))
    return -1;
  for (size_t op = 0; op < N_SHARED_OPS; op++) {
    char base[CAL_NAME_MAX];
    snprintf(base, sizeof base, "t_%s", fn_ops[op]);
    if (cal_machine_shared_fn(m, base, "ws_bytes", "", top, err)) return -1;
  }
  return 0;
}
