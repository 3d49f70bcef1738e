/*
** flops_fns.c — the time per flop of the blocked product as a function of the matrix order and
** the thread count, from the series of bench_flops.c (t_flop_vec at n = 128, t_flop_vec_N,
** t_flop_vec_parT_N): fn t_flop_vec_of(n) interpolates linearly in n between the orders measured
** (the first order's value below it, the last's beyond: a larger product misses the caches at
** least as much), fn t_flop_vec_parT_of(n) the same for T threads at once, and
** fn t_flop_vec_shared(n, threads) picks the one of the thread count (beyond the CPUs, the
** largest measured: no more threads run at once; cores = ps(cores_eff) charges the waiting); the
** same for the plain-pointer shape, t_flop_vec_plain*; fn t_flop_blas_of(n) between the BLAS's
** orders (t_flop_blas at 128, t_flop_blas_512).
*/
#include <stdio.h>
#include <string.h>
#include "flops_fns.h"

#define MAX_ORDERS 16             /* orders looked for (bench_flops.c measures 3) */
#define MAX_THREADS 64            /* thread counts looked for (bench_flops.c measures up to 8) */

/* The orders of the series named `base` at n = 128 and base_N (or prefix base_N only, when
** first is NULL), ascending as measured; their names into names. */
static int orders_of(const CalRun *run, const char *first, const char *prefix,
                     char names[][CAL_NAME_MAX], double *xs) {
  int n = 0;
  for (int i = 0; i < run->count && n < MAX_ORDERS; i++) {
    const CalSeries *s = &run->series[i];
    int ours = (first && !strcmp(s->name, first)) || cal_name_is_sized(s->name, prefix);
    if (s->kind != CAL_KIND_TIME || s->x <= 0 || !ours)
      continue;
    snprintf(names[n], CAL_NAME_MAX, "%s", s->name);
    xs[n++] = s->x;
  }
  return n;
}

/* fn NAME(n) interpolating the series found by orders_of; *written = 0 when there are fewer than 2. */
static int order_fn(const CalRun *run, CalMachine *m, const char *fn, const char *first,
                    const char *prefix, const char *what, int *written, CalError *err) {
  char names[MAX_ORDERS][CAL_NAME_MAX], head[CAL_LINE_MAX], comment[CAL_LINE_MAX];
  const char *ptrs[MAX_ORDERS];
  double xs[MAX_ORDERS];
  int n = orders_of(run, first, prefix, names, xs);
  *written = n >= 2;
  if (n < 2) return 0;
  for (int k = 0; k < n; k++) ptrs[k] = names[k];
  snprintf(comment, sizeof comment, "# %s(n): seconds per flop of the blocked n x n product%s, "
           "interpolated between the orders measured", fn, what);
  snprintf(head, sizeof head, "fn %s(n) =", fn);
  if (cal_machine_text(m, comment, err) ||
      cal_machine_interp_names(m, head, "n", ptrs, xs, n, names[n - 1], err))
    return -1;
  return 0;
}

/* The functions of one code shape: BASE is t_flop_vec or t_flop_vec_plain. */
static int shape_fns(const CalRun *run, CalMachine *m, const char *base, CalError *err) {
  char fn[CAL_NAME_MAX], prefix[CAL_NAME_MAX], what[64];
  int written;
  snprintf(fn, sizeof fn, "%s_of", base);
  snprintf(prefix, sizeof prefix, "%s_", base);
  if (order_fn(run, m, fn, base, prefix, "", &written, err)) return -1;
  if (!written) return 0;
  int top = 1;
  for (int t = 2; t <= MAX_THREADS; t++) {
    snprintf(fn, sizeof fn, "%s_par%d_of", base, t);
    snprintf(prefix, sizeof prefix, "%s_par%d_", base, t);
    snprintf(what, sizeof what, ", each of %d threads at once on its rows", t);
    if (order_fn(run, m, fn, NULL, prefix, what, &written, err)) return -1;
    if (!written) break;
    top = t;
  }
  return cal_machine_shared_fn(m, base, "n", "_of", top, err);
}

int cal_flops_fns(const CalRun *run, CalMachine *m, CalError *err) {
  if (cal_machine_text(m, "# the blocked product by order n and by threads splitting its rows "
                          "(T = 1 .. the CPUs; beyond, the last): _plain, over plain pointers", err))
    return -1;
  int written;
  return shape_fns(run, m, "t_flop_vec", err) || shape_fns(run, m, "t_flop_vec_plain", err) ||
         order_fn(run, m, "t_flop_blas_of", "t_flop_blas", "t_flop_blas_", " by the BLAS's dgemm",
                  &written, err);
}
