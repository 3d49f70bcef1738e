/*
** predict_plot_script.c — what `pamc predict --plot` draws, as a gnuplot script: the axes chosen
** from the points (log when the values are geometric, the time unit from the data, ranges that
** fit), one band lo..hi and one est line per curve, the changes of bottleneck marked.
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "predict_plot.h"
#include "sim.h"

/* Distinct x values up to which each gets its own tick. */
#define PLOT_TICKS_AT_VALUES 12
/* Part of the data's span added on each side of the x axis (markers stay whole). */
#define PLOT_X_PAD 0.03
/* Part of the data's span added above (and below, on a log axis) the y values. */
#define PLOT_Y_PAD 0.05
/* A y axis is logarithmic (by default) when the values span this factor or more over a log x
** axis (a scaling plot is log-log), or PLOT_LOG_Y_SPAN_LINEAR over a linear one. */
#define PLOT_LOG_Y_SPAN 4.0
#define PLOT_LOG_Y_SPAN_LINEAR 100.0
/* A log y axis spanning less than this factor gets ticks at 1, 2, 5 times the powers of 10. */
#define PLOT_Y_STEPS_SPAN 1000.0
/* An x axis is logarithmic (by default) when positive values span at least this factor and are
** spaced more evenly on a log scale than on a linear one. */
#define PLOT_LOG_X_SPAN 8.0

/* Curve colours, in order (colour-blind safe first). */
static const char *const colours[PREDICT_PLOT_MAX_CURVES] = {
  "#0072b2", "#d55e00", "#009e73", "#cc79a7", "#e69f00", "#56b4e9",
  "#000000", "#8c564b", "#7f7f7f", "#bcbd22", "#393b79", "#637939"
};

/* The coefficient of variation of the gaps between sorted values (0: evenly spaced). */
static double spacing_variation(const double *v, int n, int logarithmic) {
  double sum = 0, sum2 = 0;
  for (int i = 1; i < n; i++) {
    double gap = logarithmic ? log(v[i]) - log(v[i - 1]) : v[i] - v[i - 1];
    sum += gap;
    sum2 += gap * gap;
  }
  double mean = sum / (n - 1), var = sum2 / (n - 1) - mean * mean;
  return mean > 0 ? sqrt(var > 0 ? var : 0) / mean : 0;
}

static int compare_doubles(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* The distinct x values, sorted; their count. v holds point_count values. */
static int distinct_x(const PredictPlot *plot, double *v) {
  for (long i = 0; i < plot->point_count; i++) v[i] = plot->points[i].x;
  qsort(v, (size_t)plot->point_count, sizeof *v, compare_doubles);
  int n = 0;
  for (long i = 0; i < plot->point_count; i++)
    if (n == 0 || v[i] != v[n - 1]) v[n++] = v[i];
  return n;
}

/* Pads lo..hi by part of its span on each side, in the axis' scale. */
static void pad(double *lo, double *hi, int logarithmic, double part, int below) {
  if (logarithmic) {
    double f = *hi > *lo ? pow(*hi / *lo, part) : 2;
    if (below) *lo /= f;
    *hi *= f;
  } else {
    double d = *hi > *lo ? (*hi - *lo) * part : (*hi != 0 ? fabs(*hi) * 0.5 : 1);
    if (below) *lo -= d;
    *hi += d;
  }
}

static void choose_x(const PredictPlot *plot, PredictPlotAxes *axes) {
  double *v = malloc((size_t)(plot->point_count ? plot->point_count : 1) * sizeof *v);
  int n = v ? distinct_x(plot, v) : 0;
  double lo = n ? v[0] : 0, hi = n ? v[n - 1] : 1;
  int geometric = n >= 3 && lo > 0 && hi / lo >= PLOT_LOG_X_SPAN &&
                  spacing_variation(v, n, 1) < spacing_variation(v, n, 0);
  axes->logx = plot->opts.logx == PREDICT_PLOT_AUTO ? geometric : plot->opts.logx;
  if (lo <= 0) axes->logx = PREDICT_PLOT_LINEAR;   /* no log of 0: --logx cannot apply */
  axes->x_base2 = axes->logx && n >= 2;
  for (int i = 1; i < n && axes->x_base2; i++) {
    double e = log2(v[i] / v[i - 1]);
    axes->x_base2 = fabs(e - round(e)) < 1e-9;
  }
  axes->x_ticks_at_values = n <= PLOT_TICKS_AT_VALUES;
  free(v);
  pad(&lo, &hi, axes->logx, PLOT_X_PAD, 1);
  axes->x_min = lo;
  axes->x_max = hi;
}

static void choose_y(const PredictPlot *plot, PredictPlotAxes *axes) {
  double lo = INFINITY, hi = -INFINITY, positive = INFINITY;
  for (long i = 0; i < plot->point_count; i++) {
    const PredictPlotPoint *p = &plot->points[i];
    double values[6] = {p->lo, p->est, p->hi, p->median, p->min, p->max};
    for (int k = 0; k < 6; k++) {
      if (!isfinite(values[k])) continue;
      if (values[k] < lo) lo = values[k];
      if (values[k] > hi) hi = values[k];
      if (values[k] > 0 && values[k] < positive) positive = values[k];
    }
  }
  if (lo > hi) lo = hi = 0;
  axes->y_unit = sim_time_unit(hi > -lo ? hi : lo, &axes->y_scale);
  int spans = lo > 0 && hi / lo >= (axes->logx ? PLOT_LOG_Y_SPAN : PLOT_LOG_Y_SPAN_LINEAR);
  axes->logy = plot->opts.logy == PREDICT_PLOT_AUTO ? spans : plot->opts.logy;
  if (axes->logy && !(positive < INFINITY)) axes->logy = PREDICT_PLOT_LINEAR;
  if (axes->logy && lo <= 0) lo = positive;   /* --logy: what is not positive is not drawn */
  lo /= axes->y_scale;
  hi /= axes->y_scale;
  int from_zero = !axes->logy && lo >= 0;
  if (from_zero) lo = 0;
  if (hi <= lo) hi = lo + (lo > 0 ? lo : 1);
  pad(&lo, &hi, axes->logy, PLOT_Y_PAD, !from_zero);
  axes->y_min = lo;
  axes->y_max = hi;
}

void predict_plot_axes(const PredictPlot *plot, PredictPlotAxes *axes) {
  memset(axes, 0, sizeof *axes);
  choose_x(plot, axes);
  choose_y(plot, axes);
}

/* Writes text as a gnuplot single-quoted string (a quote is doubled). */
static void quoted(FILE *out, const char *text) {
  fputc('\'', out);
  for (const char *p = text; *p; p++) {
    if (*p == '\'') fputc('\'', out);
    fputc(*p, out);
  }
  fputc('\'', out);
}

static void number(FILE *out, double v) {
  if (isfinite(v)) fprintf(out, "%.17g", v);
  else fputs("NaN", out);   /* gnuplot skips it */
}

void predict_plot_write_data(const PredictPlot *plot, FILE *out) {
  fputs("# pamc predict --plot: x lo est hi (seconds) bottleneck median min max (measured, seconds), "
        "one block per curve\n", out);
  int curve = -1;
  for (long i = 0; i < plot->point_count; i++) {
    const PredictPlotPoint *p = &plot->points[i];
    if (p->curve != curve) {
      fputs(curve >= 0 ? "\n\n# " : "# ", out);
      fputs(plot->labels[p->curve][0] ? plot->labels[p->curve] : "all", out);
      fputc('\n', out);
      curve = p->curve;
    }
    number(out, p->x);
    fputc(' ', out);
    number(out, p->lo);
    fputc(' ', out);
    number(out, p->est);
    fputc(' ', out);
    number(out, p->hi);
    fputc(' ', out);
    fputc('"', out);
    for (const char *c = p->bottleneck; *c; c++) fputc(*c == '"' ? '\'' : *c, out);
    fputc('"', out);
    double measured[3] = {p->median, p->min, p->max};
    for (int k = 0; k < 3; k++) {
      fputc(' ', out);
      number(out, measured[k]);
    }
    fputc('\n', out);
  }
}

/* A tick label for people: whole numbers in full (1024, 65536), others as %g. */
static void tick_label(double v, char *buf, size_t size) {
  if (v == floor(v) && fabs(v) < 1e15) snprintf(buf, size, "%.0f", v);
  else snprintf(buf, size, "%g", v);
}

static void write_x_ticks(const PredictPlot *plot, const PredictPlotAxes *axes, FILE *out) {
  if (axes->x_ticks_at_values) {
    fputs("set xtics (", out);
    double last = NAN;
    int first = 1;
    for (long i = 0; i < plot->point_count; i++) {  /* sorted by curve, then x */
      double x = plot->points[i].x;
      if (plot->points[i].curve != 0 || x == last) continue;
      char label[64];
      tick_label(x, label, sizeof label);
      fprintf(out, "%s'%s' %.17g", first ? "" : ", ", label, x);
      first = 0;
      last = x;
    }
    fputs(")\n", out);
  } else {
    fputs("set format x '%.0f'\n", out);
  }
  if (axes->logx) fputs(axes->x_base2 ? "set logscale x 2\n" : "set logscale x 10\n", out);
  else if (!axes->x_ticks_at_values) fputs("set format x '%g'\n", out);
}

/* A log y axis over less than PLOT_Y_STEPS_SPAN: ticks at 1, 2 and 5 times the powers of 10
** (gnuplot labels the powers of 10 only, often one or two). */
static void write_log_y_ticks(const PredictPlotAxes *axes, FILE *out) {
  fputs("set logscale y 10\n", out);
  if (axes->y_max / axes->y_min >= PLOT_Y_STEPS_SPAN) return;
  fputs("set ytics (", out);
  int first = 1;
  for (double decade = pow(10, floor(log10(axes->y_min))); decade <= axes->y_max; decade *= 10)
    for (int k = 0; k < 3; k++) {
      double v = decade * (k == 0 ? 1 : k == 1 ? 2 : 5);
      if (v < axes->y_min || v > axes->y_max) continue;
      fprintf(out, "%s'%g' %.17g", first ? "" : ", ", v, v);
      first = 0;
    }
  fputs(")\n", out);
}

/* One change of bottleneck along a curve, between two of its points. */
typedef struct {
  double x;          /* where the mark stands: between the two points' x */
  double where;      /* x as a fraction of the axis (labels right of 0.6 stand left of the line) */
  int curve;         /* the curve whose bottleneck changes */
  char text[256];    /* "before → after" */
} PlotMark;

/* The changes of bottleneck along each curve, in the order of the points, at most max. */
static int find_marks(const PredictPlot *plot, const PredictPlotAxes *axes, PlotMark *marks, int max) {
  int count = 0;
  for (long i = 1; i < plot->point_count && count < max; i++) {
    const PredictPlotPoint *a = &plot->points[i - 1], *b = &plot->points[i];
    if (a->curve != b->curve || !strcmp(a->bottleneck, b->bottleneck)) continue;
    PlotMark *m = &marks[count++];
    m->x = axes->logx ? sqrt(a->x * b->x) : (a->x + b->x) / 2;
    m->where = axes->logx ? log(m->x / axes->x_min) / log(axes->x_max / axes->x_min)
                          : (m->x - axes->x_min) / (axes->x_max - axes->x_min);
    m->curve = a->curve;
    snprintf(m->text, sizeof m->text, "%s → %s", a->bottleneck, b->bottleneck);
  }
  return count;
}

/* 1 when two marks stand at the same place with the same text. */
static int same_mark(const PlotMark *a, const PlotMark *b) {
  return a->x == b->x && !strcmp(a->text, b->text);
}

/* 1 when marks[k] repeats one of marks[from .. to - 1]. */
static int mark_among(const PlotMark *marks, int k, int from, int to) {
  for (int j = from; j < to; j++)
    if (j != k && same_mark(&marks[j], &marks[k])) return 1;
  return 0;
}

/* Where the bottleneck changes along each curve: a dotted vertical line in the curve's colour
** between the two points, labelled "before → after". Curves that change the same way at the same
** place share one label, in grey (one per curve would stack the same words). */
static void write_marks(const PredictPlot *plot, const PredictPlotAxes *axes, FILE *out) {
  PlotMark marks[PREDICT_PLOT_MAX_MARKS];
  int count = find_marks(plot, axes, marks, PREDICT_PLOT_MAX_MARKS), labels = 0;
  for (int k = 0; k < count; k++) {
    const PlotMark *m = &marks[k];
    fprintf(out, "set arrow from %.17g, graph 0 to %.17g, graph 1 nohead dashtype 3 lw 1.5 "
                 "lc rgb '%s'\n", m->x, m->x, colours[m->curve]);
    if (mark_among(marks, k, 0, k)) continue;   /* labelled already */
    int shared = mark_among(marks, k, k + 1, count);
    fputs("set label ", out);
    quoted(out, m->text);
    fprintf(out, " at %.17g, graph %.3f %s offset character %s, 0 textcolor rgb '%s' front\n", m->x,
            0.96 - 0.05 * labels, m->where < 0.6 ? "left" : "right", m->where < 0.6 ? "0.6" : "-0.6",
            shared ? "#444444" : colours[m->curve]);
    labels++;
  }
}

/* 1 when a point of curve c was measured. */
static int measured_on(const PredictPlot *plot, int c) {
  for (long i = 0; i < plot->point_count; i++)
    if (plot->points[i].curve == c && isfinite(plot->points[i].median)) return 1;
  return 0;
}

static void write_curves(const PredictPlot *plot, const PredictPlotAxes *axes, const char *data_path,
                         FILE *out) {
  fprintf(out, "s = %.17g   # seconds per %s\n", axes->y_scale, axes->y_unit);
  fputs("set style fill transparent solid 0.22 noborder\nplot ", out);
  int several = plot->curve_count > 1;
  if (several) fputs("keyentry with filledcurves lc rgb '#888888' title 'lo .. hi (shaded)', \\\n     ", out);
  int any = 0;
  for (int c = 0; c < plot->curve_count; c++) any |= measured_on(plot, c);
  if (several && any)
    fputs("keyentry with yerrorbars pt 5 lc rgb '#888888' title 'measured (median, min .. max)', \\\n     ", out);
  for (int c = 0; c < plot->curve_count; c++) {
    const char *colour = colours[c];
    quoted(out, data_path);
    fprintf(out, " index %d using 1:($2/s):($4/s) with filledcurves lc rgb '%s' %s, \\\n     ", c,
            colour, several ? "notitle" : "title 'lo .. hi'");
    fprintf(out, "'' index %d using 1:($3/s) with linespoints lw 2 pt 7 ps 0.6 lc rgb '%s' title ", c,
            colour);
    if (several) quoted(out, plot->labels[c]);
    else fputs("'est'", out);
    if (measured_on(plot, c)) {
      fprintf(out, ", \\\n     '' index %d using 1:($6/s):($7/s):($8/s) with yerrorbars pt 5 ps 0.8 lw 1.5 "
              "lc rgb '%s' %s", c, colour, several ? "notitle" : "title 'measured (median, min .. max)'");
    }
    fputs(c + 1 < plot->curve_count ? ", \\\n     " : "\n", out);
  }
}

void predict_plot_write_script(const PredictPlot *plot, const PredictPlotAxes *axes,
                               const char *data_path, const char *output, FILE *out) {
  fputs("# pamc predict --plot: restyle at will, then `gnuplot plot.gp` (in this directory)\n", out);
  fputs("set encoding utf8\n", out);
  if (plot->kind == PREDICT_PLOT_SVG)
    fputs("set terminal svg size 900,560 dynamic noenhanced font 'sans,12' background '#ffffff'\n", out);
  else
    fputs("set terminal pngcairo size 900,560 noenhanced font 'sans,10' background '#ffffff'\n", out);
  fputs("set output ", out);
  quoted(out, output);
  fputs("\nset title ", out);
  quoted(out, plot->opts.title);
  fputs("\nset xlabel ", out);
  quoted(out, plot->opts.x_name);
  fprintf(out, "\nset ylabel 'time (%s)'\n", axes->y_unit);
  fputs("set key outside right top vertical Left reverse samplen 2\nset grid\n", out);
  write_x_ticks(plot, axes, out);
  if (axes->logy) write_log_y_ticks(axes, out);
  fprintf(out, "set xrange [%.17g:%.17g]\nset yrange [%.17g:%.17g]\n", axes->x_min, axes->x_max,
          axes->y_min, axes->y_max);
  write_marks(plot, axes, out);
  write_curves(plot, axes, data_path, out);
}
