/*
** predict_plot.c — `pamc predict --plot OUT.svg|OUT.png`: the points gathered per curve, the
** data and script written (kept in --plot-data DIR when asked), gnuplot run into a temporary file
** beside OUT that is renamed to OUT only when gnuplot succeeded (no partial output). The script
** itself is written by predict_plot_script.c.
*/
#include "predict_plot.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* Names of the kept files inside --plot-data DIR. */
#define PLOT_DATA_NAME "plot.dat"
#define PLOT_SCRIPT_NAME "plot.gp"

static int fail(char *err, size_t size, const char *format, ...) {
  va_list ap;
  va_start(ap, format);
  vsnprintf(err, size, format, ap);
  va_end(ap);
  return -1;
}

static int has_suffix(const char *text, const char *suffix) {
  size_t n = strlen(text), m = strlen(suffix);
  return n >= m && !strcmp(text + n - m, suffix);
}

int predict_plot_kind(const char *out) {
  if (has_suffix(out, ".svg")) return PREDICT_PLOT_SVG;
  if (has_suffix(out, ".png")) return PREDICT_PLOT_PNG;
  return -1;
}

/* Creates a temporary file path.tmpXXXXXX (template filled in tmp) with the mode fopen gives. */
static int make_temp(const char *path, char *tmp, size_t tmp_size, char *err, size_t size) {
  if (strlen(path) + 16 > tmp_size) return fail(err, size, "name too long: %s", path);
  snprintf(tmp, tmp_size, "%s.tmpXXXXXX", path);
  int fd = mkstemp(tmp);
  if (fd < 0) return fail(err, size, "cannot create %s.tmp*: %s", path, strerror(errno));
  mode_t mask = umask(0);
  umask(mask);
  fchmod(fd, 0666 & ~mask);   /* as a file created by fopen, not mkstemp's 0600 */
  close(fd);
  return 0;
}

int predict_plot_open(PredictPlot *plot, const PredictPlotOptions *opts, char *err, size_t size) {
  memset(plot, 0, sizeof *plot);
  plot->opts = *opts;
  plot->kind = predict_plot_kind(opts->out);
  if (plot->kind < 0) return fail(err, size, "--plot wants a file name ending in .svg or .png, not %s", opts->out);
  if (opts->data_dir && mkdir(opts->data_dir, 0777) != 0 && errno != EEXIST)
    return fail(err, size, "--plot-data: cannot create %s: %s", opts->data_dir, strerror(errno));
  return make_temp(opts->out, plot->out_tmp, sizeof plot->out_tmp, err, size);
}

int predict_plot_point(PredictPlot *plot, const char *curve, double x, double lo, double est,
                       double hi, const char *bottleneck, char *err, size_t size) {
  int c = 0;
  while (c < plot->curve_count && strcmp(plot->labels[c], curve)) c++;
  if (c == plot->curve_count) {
    if (c == PREDICT_PLOT_MAX_CURVES)
      return fail(err, size, "--plot draws at most %d curves (one per value of the other swept "
                  "params)", PREDICT_PLOT_MAX_CURVES);
    snprintf(plot->labels[c], sizeof plot->labels[c], "%s", curve);
    plot->curve_count++;
  }
  if (plot->point_count == PREDICT_PLOT_MAX_POINTS)
    return fail(err, size, "--plot draws at most %d points", PREDICT_PLOT_MAX_POINTS);
  if (plot->point_count == plot->point_capacity) {
    long capacity = plot->point_capacity ? 2 * plot->point_capacity : 256;
    PredictPlotPoint *more = realloc(plot->points, (size_t)capacity * sizeof *more);
    if (!more) return fail(err, size, "out of memory");
    plot->points = more;
    plot->point_capacity = capacity;
  }
  plot->points[plot->point_count++] = (PredictPlotPoint){x, lo, est, hi, bottleneck, c, NAN, NAN, NAN};
  return 0;
}

void predict_plot_measured(PredictPlot *plot, double median, double min, double max) {
  if (plot->point_count == 0) return;
  PredictPlotPoint *p = &plot->points[plot->point_count - 1];
  p->median = median;
  p->min = min;
  p->max = max;
}

void predict_plot_abort(PredictPlot *plot) {
  if (plot->out_tmp[0]) unlink(plot->out_tmp);
  plot->out_tmp[0] = 0;
  free(plot->points);
  plot->points = NULL;
  plot->point_count = plot->point_capacity = 0;
}

/* Curve by curve, x increasing (a list sweep may be given in any order). */
static int by_curve_then_x(const void *a, const void *b) {
  const PredictPlotPoint *p = a, *q = b;
  if (p->curve != q->curve) return p->curve < q->curve ? -1 : 1;
  return (p->x > q->x) - (p->x < q->x);
}

/* Writes a file atomically through path.tmpXXXXXX: the data (script NULL) or the script. */
static int write_kept(const PredictPlot *plot, const PredictPlotAxes *axes, const char *path,
                      const char *output, char *err, size_t size) {
  char tmp[PREDICT_PLOT_PATH_SIZE];
  if (make_temp(path, tmp, sizeof tmp, err, size) != 0) return -1;
  FILE *f = fopen(tmp, "w");
  if (!f) {
    unlink(tmp);
    return fail(err, size, "cannot write %s: %s", path, strerror(errno));
  }
  if (axes) predict_plot_write_script(plot, axes, PLOT_DATA_NAME, output, f);
  else predict_plot_write_data(plot, f);
  if (ferror(f) | fclose(f) || rename(tmp, path) != 0) {
    int e = errno;
    unlink(tmp);
    return fail(err, size, "cannot write %s: %s", path, strerror(e));
  }
  return 0;
}

/* --plot-data DIR: DIR/plot.dat and DIR/plot.gp, which redraws OUT's file name in DIR. */
static int keep_files(const PredictPlot *plot, const PredictPlotAxes *axes, char *err, size_t size) {
  char path[PREDICT_PLOT_PATH_SIZE];
  const char *dir = plot->opts.data_dir;
  const char *base = strrchr(plot->opts.out, '/');
  base = base ? base + 1 : plot->opts.out;
  if (strlen(dir) + 32 > sizeof path) return fail(err, size, "--plot-data: name too long: %s", dir);
  snprintf(path, sizeof path, "%s/%s", dir, PLOT_DATA_NAME);
  if (write_kept(plot, NULL, path, NULL, err, size) != 0) return -1;
  snprintf(path, sizeof path, "%s/%s", dir, PLOT_SCRIPT_NAME);
  return write_kept(plot, axes, path, base, err, size);
}

/* gnuplot's SVG carries <title>Gnuplot</title> (or the terminal's name): the plot's title
** instead, escaped for XML. 0, or -1 when the file cannot be rewritten. */
static int svg_title(const char *path, const char *title) {
  FILE *f = fopen(path, "r");
  if (!f) return -1;
  size_t cap = 1 << 16, len = 0;
  char *text = malloc(cap);
  size_t n;
  while (text && (n = fread(text + len, 1, cap - len - 1, f)) > 0) {
    len += n;
    if (len + 1 == cap) {
      char *more = realloc(text, cap *= 2);
      if (!more) free(text);
      text = more;
    }
  }
  fclose(f);
  if (!text) return -1;
  text[len] = 0;
  char *open = strstr(text, "<title>"), *close = open ? strstr(open, "</title>") : NULL;
  int status = 0;
  if (close && (f = fopen(path, "w"))) {
    fwrite(text, 1, (size_t)(open - text) + 7, f);
    for (const char *p = title; *p; p++) {
      if (*p == '<') fputs("&lt;", f);
      else if (*p == '>') fputs("&gt;", f);
      else if (*p == '&') fputs("&amp;", f);
      else fputc(*p, f);
    }
    fputs(close, f);
    status = ferror(f) | fclose(f) ? -1 : 0;
  } else if (close) {
    status = -1;
  }
  free(text);
  return status;
}

/* Writes the data to a temporary file and pipes the script to gnuplot. 0, or -1 with err. */
static int run_gnuplot(PredictPlot *plot, const PredictPlotAxes *axes, char *err, size_t size) {
  const char *dir = getenv("TMPDIR");
  char data_path[PREDICT_PLOT_PATH_SIZE];
  snprintf(data_path, sizeof data_path, "%s/pamc-plot-XXXXXX", dir && *dir ? dir : "/tmp");
  int fd = mkstemp(data_path);
  if (fd < 0) return fail(err, size, "cannot create a temporary file: %s", strerror(errno));
  FILE *data = fdopen(fd, "w");
  if (!data) {
    close(fd);
    unlink(data_path);
    return fail(err, size, "cannot open a temporary file: %s", strerror(errno));
  }
  predict_plot_write_data(plot, data);
  if (ferror(data) | fclose(data)) {
    unlink(data_path);
    return fail(err, size, "cannot write the plot data: %s", strerror(errno));
  }
  int status = -1;
  FILE *gp = popen("gnuplot", "w");
  if (gp) {
    predict_plot_write_script(plot, axes, data_path, plot->out_tmp, gp);
    status = pclose(gp);
  }
  unlink(data_path);
  if (status != 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
    return fail(err, size, "gnuplot failed (is it installed?): no plot written");
  struct stat st;
  if (stat(plot->out_tmp, &st) != 0 || st.st_size == 0)
    return fail(err, size, "gnuplot wrote nothing: no plot written");
  if (plot->kind == PREDICT_PLOT_SVG && svg_title(plot->out_tmp, plot->opts.title) != 0)
    return fail(err, size, "cannot rewrite the title of %s", plot->out_tmp);
  return 0;
}

int predict_plot_finish(PredictPlot *plot, char *err, size_t size) {
  qsort(plot->points, (size_t)plot->point_count, sizeof *plot->points, by_curve_then_x);
  PredictPlotAxes axes;
  predict_plot_axes(plot, &axes);
  int status = plot->opts.data_dir ? keep_files(plot, &axes, err, size) : 0;
  if (status == 0) status = run_gnuplot(plot, &axes, err, size);
  if (status == 0 && rename(plot->out_tmp, plot->opts.out) != 0)
    status = fail(err, size, "cannot write %s: %s", plot->opts.out, strerror(errno));
  else if (status == 0)
    plot->out_tmp[0] = 0;
  predict_plot_abort(plot);
  return status;
}

static const char *base_name(const char *path) {
  const char *slash = strrchr(path, '/');
  return slash ? slash + 1 : path;
}

void predict_plot_title(char *buf, size_t size, const char *model, const char *const *machines,
                        int machine_count) {
  const char *epoch = getenv("SOURCE_DATE_EPOCH");
  time_t now = epoch && *epoch ? (time_t)strtoll(epoch, NULL, 10) : time(NULL);
  struct tm tm;
  char date[32] = "";
  if (gmtime_r(&now, &tm)) strftime(date, sizeof date, "%Y-%m-%d", &tm);
  size_t used = (size_t)snprintf(buf, size, "%s — ", base_name(model));
  for (int i = 0; i < machine_count && used < size; i++)
    used += (size_t)snprintf(buf + used, size - used, "%s%s", i ? ", " : "", base_name(machines[i]));
  if (machine_count == 0 && used < size) used += (size_t)snprintf(buf + used, size - used, "no machine file");
  if (used < size) snprintf(buf + used, size - used, " — %s", date);
}

void predict_plot_curve_label(const Sweep *sweep, const double *point, char *buf, size_t size) {
  size_t used = 0;
  buf[0] = 0;
  for (int a = 1; a < sweep->axis_count && used < size; a++)
    used += (size_t)snprintf(buf + used, size - used, "%s%s=%.15g", a > 1 ? ", " : "",
                             sweep->axes[a].name, point[a]);
}

int predict_plot_fits(const Sweep *sweep, char *message, size_t size) {
  long curves = 1;
  for (int a = 1; a < sweep->axis_count && curves <= PREDICT_PLOT_MAX_CURVES; a++)
    curves *= sweep->axes[a].count;
  if (curves > PREDICT_PLOT_MAX_CURVES) {
    snprintf(message, size, "--plot draws one curve per value of the swept params after the first, "
             "%d at most; this sweep has more:", PREDICT_PLOT_MAX_CURVES);
    return -1;
  }
  if (sweep_points(sweep) > PREDICT_PLOT_MAX_POINTS) {
    snprintf(message, size, "--plot draws %d points at most; this sweep has %ld:",
             PREDICT_PLOT_MAX_POINTS, sweep_points(sweep));
    return -1;
  }
  return 0;
}
