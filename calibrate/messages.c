/*
** messages.c — the message constants of a machine file: the weighted least-squares line
** (latency, byte_time, fn send) with each history run's own fit in its hull, the measured time
** per size (t_msg_SIZE, fn send_measured), and for MPI the same per pair of ranks with the hull
** over pairs.
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bench.h"
#include "cal_fit.h"
#include "cal_stats.h"
#include "machine_file.h"
#include "messages.h"

/* A point estimate for a comment: 5 significant digits, nearest. */
static void format_point(double v, int per_byte, char *buf, size_t size) {
  const char *unit;
  int unit_exp = cal_unit_for(v, v, per_byte, &unit);
  snprintf(buf, size, "%.5g%s", v * pow(10, unit_exp), unit);
}

/* A message fit: the line and what it was fitted from, for the comments. */
typedef struct MsgFit {
  CalFit fit;                     /* intercept (latency) and slope (byte_time) with their CIs */
  size_t kept, total;             /* samples fitted, samples measured */
  double size_lo, size_hi;        /* message sizes swept, bytes */
  int runs;                       /* calibration runs among the samples (history), each fitted too */
} MsgFit;

/* The points of one message fit: size, one-way time, weight and the run each came from. */
typedef struct MsgPoints {
  double *x, *y, *w;
  unsigned *run;
  size_t n;
} MsgPoints;

static void free_points(MsgPoints *p) {
  free(p->x);
  free(p->y);
  free(p->w);
  free(p->run);
}

/* into's intervals widened to the hull of theirs and other's (the estimates kept). */
static void widen_fit(CalFit *into, const CalFit *other) {
  into->c0_lo = fmin(into->c0_lo, other->c0_lo);
  into->c0_hi = fmax(into->c0_hi, other->c0_hi);
  into->c1_lo = fmin(into->c1_lo, other->c1_lo);
  into->c1_hi = fmax(into->c1_hi, other->c1_hi);
}

/* With history the samples span several runs, and a fit over all of them has a confidence
** interval that narrows as runs accumulate, while the machine drifts between runs by more than
** that. So each run's samples are fitted on their own too and out->fit's intervals widened to the
** hull of every run's: the constants hold for the machine over time (as [min, max] over the
** merged samples does for the other constants). A run with too few points to fit adds nothing. */
static int widen_by_runs(const MsgPoints *all, MsgFit *out) {
  MsgPoints one = {malloc((all->n + 1) * sizeof(double)), malloc((all->n + 1) * sizeof(double)),
                   malloc((all->n + 1) * sizeof(double)), NULL, 0};
  unsigned *done = malloc((all->n + 1) * sizeof *done);
  size_t done_count = 0;
  int status = (one.x && one.y && one.w && done) ? 0 : -1;
  out->runs = 0;
  for (size_t i = 0; status == 0 && i < all->n; i++) {
    unsigned run = all->run[i];
    int seen = 0;
    for (size_t k = 0; k < done_count && !seen; k++) seen = done[k] == run;
    if (seen) continue;
    done[done_count++] = run;
    one.n = 0;
    for (size_t j = i; j < all->n; j++) {
      if (all->run[j] != run) continue;
      one.x[one.n] = all->x[j];
      one.y[one.n] = all->y[j];
      one.w[one.n++] = all->w[j];
    }
    CalFit fit;
    if (cal_fit_line_weighted(one.x, one.y, one.w, one.n, &fit)) continue;
    out->runs++;
    widen_fit(&out->fit, &fit);
  }
  free_points(&one);
  free(done);
  return status;
}

/* latency and byte_time of one group (and, for MPI, one peer of rank 0): least squares over the
** kept samples of every message size, weighted by 1 / median(size)^2, that is assuming a spread
** proportional to the time (the 4 MiB samples vary by more microseconds than the whole time of a
** 1 B message: unweighted, they would decide the intercept alone), widened by each run's own fit
** (widen_by_runs). Over more than two MPI ranks, writes a comment line per size of this pair
** (PREFIXt_msg_SIZE holds the hull over the pairs; locally and over two ranks, the same numbers). */
static int fit_messages(CalRun *run, CalGroup group, int peer, CalMachine *m, double *scratch,
                        MsgFit *out, CalError *err) {
  size_t cap = 1;
  for (int i = 0; i < run->count; i++) cap += run->series[i].count;
  MsgPoints pts = {malloc(cap * sizeof(double)), malloc(cap * sizeof(double)),
                   malloc(cap * sizeof(double)), malloc(cap * sizeof(unsigned)), 0};
  int status = (pts.x && pts.y && pts.w && pts.run) ? 0 : cal_fail(err, "out of memory for the message fit");
  memset(out, 0, sizeof *out);
  for (int i = 0; status == 0 && i < run->count; i++) {
    const CalSeries *s = &run->series[i];
    if (s->kind != CAL_KIND_FIT_POINT || s->group != group || s->peer != peer) continue;
    CalSummary sum;
    if (cal_stats_summarize(s->samples, s->count, scratch, &sum)) continue;
    for (size_t j = 0; j < s->count; j++) {
      if (s->samples[j] < sum.fence_lo || s->samples[j] > sum.fence_hi) continue;
      pts.x[pts.n] = s->x;
      pts.w[pts.n] = sum.kept_median > 0 ? 1 / (sum.kept_median * sum.kept_median) : 1;
      pts.run[pts.n] = s->run[j];
      pts.y[pts.n++] = s->samples[j];
    }
    out->total += s->count;
    if (out->size_lo == 0 || s->x < out->size_lo) out->size_lo = s->x;
    if (s->x > out->size_hi) out->size_hi = s->x;
    if (group == CAL_GROUP_MPI && run->mpi_ranks > 2) {
      char line[CAL_LINE_MAX], interval[128];
      cal_format_interval(sum.lo, sum.hi, 0, interval, sizeof interval);
      snprintf(line, sizeof line, "# %10.0f B: ranks 0-%d, one-way %s, %zu of %zu kept", s->x, peer,
               interval, sum.kept, sum.total);
      status = cal_machine_text(m, line, err);
    }
  }
  out->kept = pts.n;
  if (status == 0 && cal_fit_line_weighted(pts.x, pts.y, pts.w, pts.n, &out->fit))
    status = cal_fail(err, "message benchmark: the least-squares fit failed (%zu points)", pts.n);
  if (status == 0 && widen_by_runs(&pts, out))
    status = cal_fail(err, "out of memory for the message fit");
  free_points(&pts);
  return status;
}

/* The opening of a fitted constant's comment: "fit, 95% CI;" and, over several runs, the hull. */
static void describe_fit(const MsgFit *fit, const char *pair, char *buf, size_t size) {
  if (fit->runs > 1)
    snprintf(buf, size, "%sfit, 95%% CI, hull with each of %d runs' fits;", pair, fit->runs);
  else
    snprintf(buf, size, "%sfit, 95%% CI;", pair);
}

/* PREFIXlatencySUFFIX, PREFIXbyte_timeSUFFIX and fn PREFIXsendSUFFIX(bytes) from the intervals
** c0 = [c0_lo, c0_hi], c1 = [c1_lo, c1_hi] with estimates c0, c1; `how` opens each comment. */
static int write_message_consts(CalMachine *m, const char *prefix, const char *suffix,
                                const CalFit *fit, const char *how, const MsgFit *from,
                                const char *date, CalError *err) {
  char lo_b[32], hi_b[32], comment[CAL_LINE_MAX], est[128], name[CAL_NAME_MAX], line[CAL_LINE_MAX];
  cal_format_bytes((size_t)from->size_lo, lo_b, sizeof lo_b);
  cal_format_bytes((size_t)from->size_hi, hi_b, sizeof hi_b);
  format_point(fit->c0, 0, est, sizeof est);
  snprintf(comment, sizeof comment, "%s intercept, estimate %s; %zu of %zu samples kept, %s .. %s; %s",
           how, est, from->kept, from->total, lo_b, hi_b, date);
  snprintf(name, sizeof name, "%slatency%s", prefix, suffix);
  if (cal_machine_const_typ(m, name, fmax(fit->c0_lo, 0), fmax(fit->c0_hi, 0), fmax(fit->c0, 0), 0,
                            comment, err))
    return -1;
  format_point(fit->c1, 1, est, sizeof est);
  snprintf(comment, sizeof comment, "%s slope, seconds per byte, estimate %s; %zu of %zu samples kept; %s",
           how, est, from->kept, from->total, date);
  snprintf(name, sizeof name, "%sbyte_time%s", prefix, suffix);
  if (cal_machine_const_typ(m, name, fmax(fit->c1_lo, 0), fmax(fit->c1_hi, 0), fmax(fit->c1, 0), 1,
                            comment, err))
    return -1;
  snprintf(line, sizeof line, "fn %ssend%s(bytes) = %slatency%s + bytes * %sbyte_time%s;", prefix,
           suffix, prefix, suffix, prefix, suffix);
  return cal_machine_text(m, line, err);
}

static int compare_doubles(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* The measured times themselves, beside the line the spec asks for: PREFIXt_msg_SIZE = [min, max]
** of the kept samples of that size (over every pair for MPI), and fn PREFIXsend_measured(bytes)
** interpolating linearly between the sizes measured, as weights (SIZE_B - bytes) and
** (bytes - SIZE_A) on the two ends so that interval evaluation encloses exactly; beyond the largest
** size, PREFIXbyte_time per further byte. A straight line cannot follow a transport that switches
** protocol with the size (Open MPI: 2 us at 4 KiB against 0.4 us on the line); this can. */
static int add_measured_send(CalRun *run, CalGroup group, const char *prefix, CalMachine *m,
                             const char *date, double *scratch, CalError *err) {
  double sizes[CAL_MAX_SERIES];
  int n_sizes = 0;
  for (int i = 0; i < run->count; i++) {
    const CalSeries *s = &run->series[i];
    if (s->kind != CAL_KIND_FIT_POINT || s->group != group) continue;
    int seen = 0;
    for (int k = 0; k < n_sizes && !seen; k++) seen = sizes[k] == s->x;
    if (!seen) sizes[n_sizes++] = s->x;
  }
  if (n_sizes < 2) return 0;
  qsort(sizes, (size_t)n_sizes, sizeof *sizes, compare_doubles);
  char line[CAL_LINE_MAX], name[CAL_NAME_MAX], comment[CAL_LINE_MAX], size_text[32];
  for (int k = 0; k < n_sizes; k++) {
    double lo = INFINITY, hi = -INFINITY, medians[CAL_MAX_SERIES];
    size_t kept = 0, total = 0;
    int pairs = 0;
    for (int i = 0; i < run->count; i++) {
      const CalSeries *s = &run->series[i];
      CalSummary sum;
      if (s->kind != CAL_KIND_FIT_POINT || s->group != group || s->x != sizes[k] ||
          cal_stats_summarize(s->samples, s->count, scratch, &sum))
        continue;
      lo = fmin(lo, sum.lo);
      hi = fmax(hi, sum.hi);
      kept += sum.kept;
      total += sum.total;
      medians[pairs++] = sum.kept_median;
    }
    /* typical: the median of the kept samples (over pairs, the median of the pairs' medians) */
    qsort(medians, (size_t)pairs, sizeof *medians, compare_doubles);
    double typ = pairs % 2 ? medians[pairs / 2] : (medians[pairs / 2 - 1] + medians[pairs / 2]) / 2;
    cal_format_bytes((size_t)sizes[k], size_text, sizeof size_text);
    snprintf(name, sizeof name, "%st_msg_%.0f", prefix, sizes[k]);
    if (group == CAL_GROUP_MPI)
      snprintf(comment, sizeof comment, "one-way message of %s, %d pair(s) of ranks; %zu of %zu samples kept; %s",
               size_text, pairs, kept, total, date);
    else
      snprintf(comment, sizeof comment, "one-way message of %s; %zu of %zu samples kept; %s", size_text,
               kept, total, date);
    if (cal_machine_const_typ(m, name, fmax(lo, 0), fmax(hi, 0), fmax(typ, 0), 0, comment, err)) return -1;
  }
  snprintf(line, sizeof line, "# %ssend_measured: the measured times, interpolated linearly between "
           "the sizes (%ssend is the fitted line)", prefix, prefix);
  if (cal_machine_text(m, line, err)) return -1;
  char head[CAL_LINE_MAX], name_prefix[CAL_NAME_MAX], tail[CAL_LINE_MAX];
  snprintf(head, sizeof head, "fn %ssend_measured(bytes) =", prefix);
  snprintf(name_prefix, sizeof name_prefix, "%st_msg_", prefix);
  snprintf(tail, sizeof tail, "%st_msg_%.0f + (bytes - %.0f) * %sbyte_time", prefix, sizes[n_sizes - 1],
           sizes[n_sizes - 1], prefix);
  return cal_machine_interp(m, head, "bytes", name_prefix, sizes, n_sizes, tail, err);
}

int cal_messages_local(CalRun *run, CalMachine *m, const char *date, double *scratch,
                              CalError *err) {
  MsgFit fit;
  if (fit_messages(run, CAL_GROUP_LOCAL, 0, m, scratch, &fit, err)) return -1;
  char how[96];
  describe_fit(&fit, "", how, sizeof how);
  if (write_message_consts(m, "", "", &fit.fit, how, &fit, date, err)) return -1;
  return add_measured_send(run, CAL_GROUP_LOCAL, "", m, date, scratch, err);
}

static int disjoint(double a_lo, double a_hi, double b_lo, double b_hi) {
  return a_hi < b_lo || b_hi < a_lo;
}

/* Between MPI ranks: a fit per pair (rank 0 with each other rank); mpi_latency and mpi_byte_time
** are the hull of the pairs' intervals, so mpi_send holds for every pair; when two pairs' intervals
** are disjoint (pairs differ: across nodes, across sockets), each pair's own constants follow. */
int cal_messages_mpi(CalRun *run, CalMachine *m, const char *date, double *scratch,
                            CalError *err) {
  int pairs = run->mpi_ranks - 1, differ = 0;
  MsgFit *fits = calloc((size_t)pairs, sizeof *fits);
  if (!fits) return cal_fail(err, "out of memory for the MPI fits");
  int status = 0;
  MsgFit all = {0};
  for (int p = 0; status == 0 && p < pairs; p++) {
    status = fit_messages(run, CAL_GROUP_MPI, p + 1, m, scratch, &fits[p], err);
    if (status) break;
    const CalFit *f = &fits[p].fit;
    if (p == 0) {
      all = fits[0];
      continue;
    }
    for (int q = 0; q < p; q++)
      if (disjoint(f->c0_lo, f->c0_hi, fits[q].fit.c0_lo, fits[q].fit.c0_hi) ||
          disjoint(f->c1_lo, f->c1_hi, fits[q].fit.c1_lo, fits[q].fit.c1_hi))
        differ = 1;
    widen_fit(&all.fit, f);
    all.fit.c0 += f->c0;
    all.fit.c1 += f->c1;
    all.kept += fits[p].kept;
    all.total += fits[p].total;
  }
  if (status == 0) {
    char how[96];
    all.fit.c0 /= pairs;
    all.fit.c1 /= pairs;
    if (pairs == 1) describe_fit(&fits[0], "", how, sizeof how);
    else snprintf(how, sizeof how, "hull of the %d pairs' fits (95%% CI), mean", pairs);
    status = write_message_consts(m, "mpi_", "", &all.fit, how, &all, date, err);
  }
  if (status == 0) status = add_measured_send(run, CAL_GROUP_MPI, "mpi_", m, date, scratch, err);
  for (int p = 0; status == 0 && differ && p < pairs; p++) {
    char suffix[32], how[96], pair[32];
    snprintf(suffix, sizeof suffix, "_0_%d", p + 1);
    snprintf(pair, sizeof pair, "ranks 0-%d: ", p + 1);
    describe_fit(&fits[p], pair, how, sizeof how);
    status = write_message_consts(m, "mpi_", suffix, &fits[p].fit, how, &fits[p], date, err);
  }
  free(fits);
  return status;
}

