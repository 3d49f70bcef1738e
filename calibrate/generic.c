/*
** generic.c — the generic constants: what the bundled models (and models written for no machine
** in particular) call a floating-point operation and a grid-point update, from the measured
** constants, so that `pamc calibrate` then `pamc predict models/X.pam` works for each of them.
**
**   t_flop   one double-precision operation of code whose shape the model does not say: from the
**            fastest (vectorised: t_flop_vec's lower end) to the slowest plain C gets (a chain
**            waiting on each result: the upper ends of t_add_double and t_mul_double), so the
**            interval holds for any of them; typical: scalar code whose operations overlap (the
**            mean of the typical t_add_double_tp and t_mul_double_tp), what a plain loop compiled
**            -O2 does.
**   t_point  one update of a 5-point stencil: 5 flops (4 adds, 1 multiply) and one double in and
**            one out at an L2-sized working set, written as the expression
**            5 * t_flop + 8 * t_copy_l2 (t_copy_l2 is per byte copied).
** The t_lock, latency and byte_time the models also use are measured under those names.
*/
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "cal_stats.h"
#include "generic.h"

/* The summary of the run's series `name`; -1 (err filled) when the run has none. */
static int summary_of(const CalRun *run, const char *name, double *scratch, CalSummary *out,
                      CalError *err) {
  for (int i = 0; i < run->count; i++)
    if (!strcmp(run->series[i].name, name) &&
        cal_stats_summarize(run->series[i].samples, run->series[i].count, scratch, out) == 0)
      return 0;
  return cal_fail(err, "the generic constants need the benchmark %s, which did not run", name);
}

int cal_generic_consts(const CalRun *run, CalMachine *m, const char *date, double *scratch,
                       CalError *err) {
  CalSummary vec, add, mul, add_tp, mul_tp;
  if (summary_of(run, "t_flop_vec", scratch, &vec, err) ||
      summary_of(run, "t_add_double", scratch, &add, err) ||
      summary_of(run, "t_mul_double", scratch, &mul, err) ||
      summary_of(run, "t_add_double_tp", scratch, &add_tp, err) ||
      summary_of(run, "t_mul_double_tp", scratch, &mul_tp, err))
    return -1;
  char comment[CAL_LINE_MAX];
  if (cal_machine_text(m, "", err) ||
      cal_machine_text(m, "# generic names (models written for no machine in particular): derived "
                          "from the constants above", err))
    return -1;
  snprintf(comment, sizeof comment, "a double flop of unknown code: t_flop_vec lo .. max(t_add_double, "
           "t_mul_double) hi, typ mean(t_add_double_tp, t_mul_double_tp) typ; %s", date);
  double lo = fmax(vec.lo, 0), hi = fmax(fmax(add.hi, mul.hi), lo);
  double typ = (add_tp.kept_median + mul_tp.kept_median) / 2;
  if (cal_machine_const_typ(m, "t_flop", lo, hi, typ, 0, comment, err)) return -1;
  return cal_machine_text(m, "const t_point = 5 * t_flop + 8 * t_copy_l2;   # a 5-point stencil "
                             "update: 5 flops, 8 B in and 8 B out at L2", err);
}
