/*
** memory_fns.c — the memory functions of a machine file: fn t_read(ws_bytes), t_write, t_copy and
** their _vec twins, each interpolating linearly between the working sets the sweep measured
** (bench_memsweep.c: constants t_OP_SIZE), the first set's value below it and the last set's
** beyond it, as send_measured does between message sizes; and fn t_read_shared(ws_bytes, threads)
** (t_write_shared, t_copy_shared): the time per byte of each of `threads` streams at once, the
** bandwidth of membw_eff streams shared among them, t_OP(ws_bytes) * max(1, threads / membw_eff)
** (membw_eff is measured on working sets in memory; within private caches each core has its own,
** and sharing the cores (cores = ps(cores_eff)) is what limits the threads).
*/
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include "memory_fns.h"

static const char *const fn_ops[] = {"read", "write", "copy", "read_vec", "write_vec", "copy_vec"};
#define N_FN_OPS (sizeof fn_ops / sizeof fn_ops[0])

/* Whether name is PREFIX followed by digits only (t_read_4096, not t_read_vec_4096). */
static int is_sized(const char *name, const char *prefix) {
  size_t n = strlen(prefix);
  if (strncmp(name, prefix, n) || !name[n]) return 0;
  for (const char *p = name + n; *p; p++)
    if (!isdigit((unsigned char)*p)) return 0;
  return 1;
}

int cal_memory_fns(const CalRun *run, CalMachine *m, CalError *err) {
  for (size_t op = 0; op < N_FN_OPS; op++) {
    char prefix[CAL_NAME_MAX], head[CAL_LINE_MAX], tail[CAL_LINE_MAX], comment[CAL_LINE_MAX];
    snprintf(prefix, sizeof prefix, "t_%s_", fn_ops[op]);
    double xs[CAL_MAX_SERIES];
    int n = 0;
    for (int i = 0; i < run->count; i++) {       /* the sweep measures sizes in ascending order */
      const CalSeries *s = &run->series[i];
      if (s->kind == CAL_KIND_PER_BYTE && s->x > 0 && is_sized(s->name, prefix)) xs[n++] = s->x;
    }
    if (n == 0) continue;
    snprintf(comment, sizeof comment, "# t_%s(ws_bytes): seconds per byte (%s) over a working set of "
             "ws_bytes, interpolated between the sets measured", fn_ops[op],
             strstr(fn_ops[op], "vec") ? "vector code" : "scalar 8-byte accesses");
    snprintf(head, sizeof head, "fn t_%s(ws_bytes) =", fn_ops[op]);
    snprintf(tail, sizeof tail, "%s%.0f", prefix, xs[n - 1]);
    if (cal_machine_text(m, comment, err) ||
        cal_machine_interp(m, head, "ws_bytes", prefix, xs, n, tail, err))
      return -1;
  }
  int have_membw = 0, have_sweep = 0;
  for (int i = 0; i < run->count; i++) {
    have_membw |= !strcmp(run->series[i].name, "membw_eff");
    have_sweep |= is_sized(run->series[i].name, "t_read_");
  }
  if (!have_membw || !have_sweep) return 0;
  if (cal_machine_text(m, "# T threads at once, each over its own working set: the bandwidth of "
                          "membw_eff streams shared by T", err))
    return -1;
  for (size_t op = 0; op < 3; op++) {
    char line[CAL_LINE_MAX];
    snprintf(line, sizeof line, "fn t_%s_shared(ws_bytes, threads) = t_%s(ws_bytes) * max(1, threads / "
             "membw_eff);", fn_ops[op], fn_ops[op]);
    if (cal_machine_text(m, line, err)) return -1;
  }
  return 0;
}
